"""The opposite of a phrase, written as a teacher would write it: "lower pitch" for the
reference's "higher pitch", "vibrates slower" for "vibrates faster", "disconnected" for
"connected".

The reading matches on keys (lemmas, and one key for "higher", "bigger", "greater", "rises":
"more", see `spelling.SYNONYM_KEYS`), and a phrase's opposite is its keys with one word swapped
for its antonym (`antonyms.ANTONYMS`). Shown as keys, a teacher read 'says "pitch less"' or
'says "vibrate slow"'. Here the phrase's own words are kept and the one word is replaced by
its opposite in the same form: from a small table of English comparisons (whose words share
no stem with their key), else the antonym inflected like the word it replaces ("faster" ->
"slower", "attracted" -> "repelled"), checked against the English word list. Nothing here
knows a topic.
"""

from __future__ import annotations

from .antonyms import ANTONYMS
from .lexicon import STOP
from .spelling import english_words

#: Written words of a comparison and their opposites, both directions (the words of
#: `spelling.SYNONYM_KEYS` and "goes up", which share no stem with their keys).
_COMPARISONS = [
    ("higher", "lower"), ("high", "low"), ("highest", "lowest"), ("bigger", "smaller"),
    ("big", "small"), ("biggest", "smallest"), ("larger", "smaller"), ("large", "small"),
    ("largest", "smallest"), ("greater", "smaller"), ("great", "small"), ("greatest", "smallest"),
    ("more", "less"), ("most", "least"), ("increase", "decrease"), ("increases", "decreases"),
    ("increased", "decreased"), ("increasing", "decreasing"), ("rise", "fall"), ("rises", "falls"),
    ("rose", "fell"), ("risen", "fallen"), ("rising", "falling"), ("goes up", "goes down"),
    ("go up", "go down"), ("went up", "went down"), ("going up", "going down"),
    ("gone up", "gone down"), ("quicker", "slower"), ("quickly", "slowly"), ("quick", "slow"),
    ("rapid", "slow"), ("rapidly", "slowly"), ("closer", "further"), ("nearer", "further"),
    ("equal", "unequal"), ("identical", "different"), ("alike", "different"), ("closed", "open"),
    ("like", "unlike"),
]
_SMALLER_FIRST = {("fewer", "more"), ("reduce", "increase"), ("reduces", "increases"),
                  ("reduced", "increased"), ("reducing", "increasing"), ("further", "closer"),
                  ("farther", "closer")}
OPPOSITE_WORDS = {a: b for a, b in _COMPARISONS} | {b: a for a, b in _COMPARISONS} | dict(_SMALLER_FIRST)
#: Endings a word's opposite is given too ("faster" -> "slower"), longest first.
_ENDINGS = ("est", "ing", "er", "ed", "ly", "es", "s")
_GOING = frozenset({"go", "goes", "went", "going", "gone"})
_FAR = frozenset({"far", "further", "farther"})


def opposite_word(word: str, key: str) -> str:
    """The opposite of one written word whose key has an antonym, in the word's form."""
    lower = word.lower()
    if lower in OPPOSITE_WORDS:
        return OPPOSITE_WORDS[lower]
    other = ANTONYMS[key]
    if other.endswith(key) and lower.startswith(key):  # "connected" -> "disconnected"
        return other[:len(other) - len(key)] + lower
    if key.endswith(other) and lower.startswith(key[:len(key) - len(other)]):  # "incomplete" -> "complete"
        return lower[len(key) - len(other):]
    rest = lower[len(key):] if lower.startswith(key) else None
    ending = rest if rest in _ENDINGS else next(
        (e for e in _ENDINGS if lower.endswith(e) and len(lower) > len(e) + 2), "")
    if not ending:
        return other
    known = english_words()
    doubled = other + other[-1] + ending  # "dim" -> "dimmer", "hot" -> "hotter"
    short = len(other) <= 4 and _consonant_vowel_consonant(other)
    for form in ((doubled,) if short else ()) + (other + ending, doubled, other[:-1] + ending,
                                                 other[:-1] + "i" + ending, other + "e" + ending):
        if form in known:
            return form
    return other


def _consonant_vowel_consonant(word: str) -> bool:
    vowels = "aeiou"
    return (len(word) >= 3 and word[-1] not in vowels + "wxy" and word[-2] in vowels
            and word[-3] not in vowels)


def opposite_text(text: str, keys: tuple[str, ...]) -> str | None:
    """The phrase's text (`RefPhrase.text`) with the first word whose key has an antonym
    replaced by its opposite ("higher pitch" -> "lower pitch", "near the hinge" -> "far from
    the hinge"); None when the text's words that count do not line up with the keys, or no
    key has an antonym."""
    at = next((i for i, k in enumerate(keys) if k in ANTONYMS), None)
    if at is None:
        return None
    words = _units(text.split())
    counted = [i for i, w in enumerate(words) if w.lower() not in STOP or w.lower() in OPPOSITE_WORDS]
    if len(words) == len(keys):
        counted = list(range(len(words)))
    elif len(counted) != len(keys):
        return None
    i = counted[at]
    words[i] = opposite_word(words[i], keys[at])
    if words[i] in _FAR and i + 1 < len(words):  # "near the hinge" -> "far from the hinge"
        if words[i + 1].lower() == "to":
            words[i + 1] = "from"
        elif words[i + 1].lower() != "from":
            words[i] += " from"
    return " ".join(words)


def _units(words: list[str]) -> list[str]:
    """The words, with "goes up" and "went down" as one (one key, "more" or "less")."""
    out: list[str] = []
    for w in words:
        if out and w.lower() in ("up", "down") and out[-1].lower() in _GOING:
            out[-1] += " " + w
        else:
            out.append(w)
    return out
