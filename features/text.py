"""Cleaning answers before spaCy sees them: anything to str, HTML, unicode, emoji.

Exam exports hold HTML (`<p>9.8 m/s<sup>2</sup></p>`, `&nbsp;`), typographic quotes
(`isn’t`), superscript exponents (`3×10⁸`, `m/s²`) and emoji. Superscripts are turned
into `^` exponents *before* unicode normalisation, which would otherwise read `10⁸`
as `108`. The question file's texts (phrases, reference answers) are read with the same
characters (`normalize_characters`), so that what a teacher pastes matches what students type.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from functools import lru_cache

#: Longer answers are cut here: nobody writes a 10,000-character short answer, and a
#: pasted essay must not slow a batch down.
MAX_CHARS = 5000

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_SUP_TAG = re.compile(r"<sup>\s*([^<]*?)\s*</sup>", re.IGNORECASE)
_BLOCK_TAG = re.compile(r"<\s*(br|/?p|/?div|/?li|/?tr|/?h\d)\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]{0,200}>")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "‛": "'", "′": "'", "`": "'", "´": "'", "ʼ": "'",
                         "“": '"', "”": '"', "„": '"', "″": '"',
                         "–": "-", "—": "-", "−": "-", "‐": "-", "‑": "-",
                         "·": "*", "⋅": "*", "∙": "*", "µ": "μ"})
# Emoji and pictographs, dingbats, variation selectors, zero-width joiners, flags.
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\U00002600-\U000027BF\U0000FE00-\U0000FE0F"
                    "\U0000200B-\U0000200D\U0001F1E6-\U0001F1FF\U00002B00-\U00002BFF]+")
_SPACES = re.compile(r"\s+")
# Exports that turned apostrophes into double quotes: doesn"t, I"m, battery"s.
_QUOTE_APOSTROPHE = re.compile(r'(?<=[A-Za-z])"(?=(?:s|t|m|re|ve|ll|d)\b)')


def is_missing(cell: object) -> bool:
    """Is a cell empty the way pandas leaves it (None or NaN)? For answers and marks alike."""
    return cell is None or (isinstance(cell, float) and math.isnan(cell))


def to_text(answer: object) -> str:
    """Any cell of an answer column as a string: None and NaN are the empty answer."""
    if is_missing(answer):
        return ""
    if isinstance(answer, bytes):
        return answer.decode("utf-8", errors="replace")
    return answer if isinstance(answer, str) else str(answer)


def normalize(answer: object) -> str:
    """The answer as clean plain text, whitespace collapsed, at most MAX_CHARS long."""
    text = to_text(answer)
    return _cached_clean(text) if len(text) <= _MAX_CACHED_LENGTH else _clean(text)


_MAX_CACHED_LENGTH = 1000  # longer texts are cleaned again: the cache stays under ~20 MB


_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # between two letters
#: Students' shorthand with a slash, in lower case ("B/C" may be two labels).
_SHORTHANDS = {"w/o": "without", "w/out": "without", "b/c": "because", "w/": "with"}
_SHORTHAND = re.compile(r"(?<![\w/])(?:w/out|w/o|b/c|w/)(?=\s|$)")
#: Abbreviations with a full stop after each letter ("g.p.e.", "K.E"), not a unit ("m.s^-2").
_DOTTED = re.compile(r"(?<![\w.])((?:[A-Za-z]\.){1,5}[A-Za-z])(\.?)(?![\w^*/.-])")
_SENTENCE_GOES_ON = re.compile(r"\s*(?:[a-z0-9,;:)]|$)")


def normalize_characters(text: str) -> str:
    """The characters of a text as the reader compares them: superscript exponents as "^2",
    curly quotes straight, emoji out, full-width letters plain (NFKC), a hyphen between two
    letters as a space, abbreviations without their full stops ("g.p.e." is "gpe"), shorthand
    expanded.
    For answers (inside `normalize`) and for the rubric's phrases alike: a phrase pasted
    with a curly apostrophe ("doesn’t work") must match the answers that say it."""
    if not text.isascii():
        text = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPTS), text)
        text = text.translate(_QUOTES)
        text = _EMOJI.sub(" ", text)
        text = unicodedata.normalize("NFKC", text)
    elif "`" in text:  # a backtick for an apostrophe ("doesn`t") is ASCII too
        text = text.replace("`", "'")
    if '"' in text:
        text = _QUOTE_APOSTROPHE.sub("'", text)
    if "-" in text:  # "short-circuit" is "short circuit", "closed-path" "closed path"
        text = _WORD_HYPHEN.sub(" ", text)
    if "." in text:
        text = _DOTTED.sub(lambda m: _undotted(m, text), text)
    return expand_shorthand(text)


def _undotted(m: re.Match, text: str) -> str:
    """"g.p.e." as "gpe", the word the tokenizer would otherwise split at its last full stop
    and read as a sentence's end; the full stop stays where a new sentence follows."""
    letters = m.group(1).replace(".", "")
    ends_sentence = m.group(2) and not _SENTENCE_GOES_ON.match(text, m.end())
    return letters + "." if ends_sentence else letters


def expand_shorthand(text: str) -> str:
    """"w/o friction" as "without friction" (a negation), "b/c" as "because": for answers
    and for the rubric's phrases alike."""
    return _SHORTHAND.sub(lambda m: _SHORTHANDS[m.group()], text) if "/" in text else text


def _clean(text: str) -> str:
    """`normalize` of a text."""
    if not text:
        return ""
    text = text[: MAX_CHARS * 2]
    if "<" in text:
        text = _SUP_TAG.sub(r"^\1", text)
        text = _BLOCK_TAG.sub(" ", text)
        text = _TAG.sub("", text)
    if "&" in text:
        text = html.unescape(text)
    text = normalize_characters(text)
    text = _SPACES.sub(" ", text).strip()
    return text[:MAX_CHARS]


#: Grading cleans each answer twice, for the extractor and for the wording model, within
#: the same chunk of a few thousand answers: the second time is a look-up.
_cached_clean = lru_cache(maxsize=8192)(_clean)
