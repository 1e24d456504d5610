"""Numbers as students write them: digits in every form and number words.

`9.8`, `9,8`, `1,500`, `3e8`, `3 x 10^8`, `10^-3`, `1/2`, `-9.8`; `three`, `nine point
eight`, `twenty five`, `half`. The regular expressions and the scans that try them only
where a number can start; `quantities.find_numbers` reads the unit words after each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_DIGITS = r"(?:\d+(?:,\d{3})+(?![\d,])|\d+(?:[.,]\d+)?|\.\d+)"
NUMBER = re.compile(
    rf"(?<![\w.^-])(?P<sign>[-+])?(?:(?P<num>\d+)\s*/\s*(?P<den>\d+)(?![\d/])"
    rf"|(?P<mant>{_DIGITS})(?:\s*[eE](?P<e1>[-+]?\d+)"
    rf"|\s*[x×*]\s*10\s*(?:\^|\*\*)\s*\(?(?P<e2>[-+]?\d+)\)?)?"
    rf"|10\s*(?:\^|\*\*)\s*\(?(?P<e3>[-+]?\d+)\)?)")

_ONES = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
         "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
         "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
         "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1e6, "billion": 1e9}
_FRACTIONS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "quarters": 0.25, "thirds": 1 / 3}
NUMBER_WORDS = frozenset({*_ONES, *_TENS, *_SCALES, *_FRACTIONS} - {"oh"})
WORD_RUN = re.compile(
    r"\b(?:(?:%s)(?:[\s-]+(?:and[\s-]+)?(?:(?:an?[\s-]+)?(?:%s)|%s|point))*)\b"
    % ("|".join(sorted(NUMBER_WORDS, key=len, reverse=True)),
       "|".join(sorted(_FRACTIONS, key=len, reverse=True)),  # "two and a half": the fraction is added, not a factor
       "|".join(sorted({*NUMBER_WORDS, "oh"}, key=len, reverse=True))), re.IGNORECASE)
#: After a fraction, the words that lead to what it is a fraction of: "half a second",
#: "a quarter of a metre" (the unit follows them).
FRACTION_OF = re.compile(r"\s+(?:of\s+)?an?\b", re.IGNORECASE)


def fraction_of_end(text: str, run: re.Match) -> int:
    """Where the unit of a number said in words starts: after "a" or "of a" when the words
    end in a fraction ("half a second", "three quarters of a metre"), else at their end."""
    if run.group().lower().rsplit(None, 1)[-1].split("-")[-1] in _FRACTIONS:
        after = FRACTION_OF.match(text, run.end())
        if after is not None:
            return after.end()
    return run.end()


def digits_value(s: str) -> float:
    if "," not in s:  # most numbers: no separator to read
        return float(s)
    if _THOUSANDS.fullmatch(s):  # 1,500: thousands separator
        return float(s.replace(",", ""))
    return float(s.replace(",", "."))  # 9,8: decimal comma


_THOUSANDS = re.compile(r"\d+(?:,\d{3})+")


def words_value(words: str) -> float | None:
    """`"twenty five"` -> 25, `"nine point eight"` -> 9.8, `"half"` -> 0.5, `"three
    quarters"` -> 0.75, `"two and a half"` -> 2.5."""
    parts = [w for w in re.split(r"[\s-]+", words.lower()) if w and w != "and"]
    if "point" in parts:
        i = parts.index("point")
        whole = words_value(" ".join(parts[:i])) if i else 0.0
        decimals = [_ONES.get(w) for w in parts[i + 1:]]
        if whole is None or not decimals or any(d is None or d > 9 for d in decimals):
            return None
        return whole + float("0." + "".join(str(d) for d in decimals))
    total, current = 0.0, 0.0
    for i, w in enumerate(parts):
        if w in _ONES:
            current += _ONES[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = (current or 1) * 100
        elif w in _SCALES:
            total += (current or 1) * _SCALES[w]
            current = 0.0
        elif w in _FRACTIONS:
            current = (current or 1) * _FRACTIONS[w]
        elif w in ("a", "an") and i + 1 < len(parts) and parts[i + 1] in _FRACTIONS:
            total, current = total + current, 0.0  # "and a half" adds a half
        else:
            return None
    return total + current


_CANDIDATE = re.compile(r"[-+.\d]")  # where a match of NUMBER can start
DIGIT = re.compile(r"\d")  # every match of NUMBER has one
_ASCII_WORD = re.compile(r"[a-z]+")


def number_matches(text: str) -> Iterator[re.Match]:
    """`NUMBER.finditer(text)`, trying the pattern only where a number can start (a sign,
    a dot or a digit): the same matches, without the regex engine trying every position."""
    pos = 0
    while (c := _CANDIDATE.search(text, pos)) is not None:
        m = NUMBER.match(text, c.start())
        if m is None:
            pos = c.start() + 1
            continue
        yield m
        pos = m.end()


def word_runs(text: str) -> Iterator[re.Match]:
    """`WORD_RUN.finditer(text)`, trying the pattern only where an ASCII text has a word
    that is a number word (a match starts with one: a whole word, `\\b` on both sides):
    the same matches, without the regex engine trying its alternatives at every position."""
    if not text.isascii():
        yield from WORD_RUN.finditer(text)
        return
    end = 0
    for word in _ASCII_WORD.finditer(text.lower()):
        if word.start() >= end and word.group() in NUMBER_WORDS:
            m = WORD_RUN.match(text, word.start())
            if m is not None:
                yield m
                end = m.end()


def may_have_number_words(text: str) -> bool:
    """False only when `WORD_RUN` cannot match: an ASCII text none of whose words is a
    number word (a non-ASCII one is always scanned: case folding is then not lower())."""
    return not text.isascii() or not NUMBER_WORDS.isdisjoint(_ASCII_WORD.findall(text.lower()))
