"""Words whose negation is another word ("not the same" is "different", "not closed" is
"open"), and the pairs of them that are the two ends of one scale ("more" and "less", "fast"
and "slow"). A negation that reaches such a word is used up by reading the other word
(`resolve_negations`), and a teacher's phrase with one is also found said the other way
(`antonym_phrases`)."""

from __future__ import annotations


#: Words whose negation is another word: "not the same" is "different", "not closed" is
#: "open". Keys (lemmas, and `spelling.SYNONYM_KEYS`: "not higher" and "does not increase" are
#: "less"); both directions.
_PAIRS = [("same", "different"), ("open", "close"), ("complete", "incomplete"),
          ("connect", "disconnect"), ("possible", "impossible"),
          ("full", "empty"), ("true", "false"),
          ("correct", "incorrect"), ("visible", "invisible"),
          ("attract", "repel"), ("conductor", "insulator"), ("most", "least"),
          ("magnetic", "nonmagnetic"), ("float", "sink"), ("absorb", "reflect")]
#: The pairs that are degrees of one scale (`degrees.degree_of`): "less bright" is "dimmer"
#: and "less big" is "smaller" (`lexicon.reword_in_context`), where "less magnetic" is no
#: "nonmagnetic".
DEGREE_PAIRS = [("more", "less"), ("bright", "dim"), ("fast", "slow"), ("strong", "weak"),
                 ("loud", "quiet"), ("hot", "cold"), ("near", "far"), ("easy", "hard"),
                 ("thick", "thin"), ("rough", "smooth"), ("wet", "dry")]
# Not pairs here: positive/negative, series/parallel, up/down, on/off ("not on the same
# path" is not "off the same path"); on Beetle they made the features worse. Nor words with
# a second sense: heavy/light ("the bulb does not light"), long/short ("not a short
# circuit"), push/pull, north/south.
ANTONYMS = {a: b for a, b in _PAIRS + DEGREE_PAIRS} | {b: a for a, b in _PAIRS + DEGREE_PAIRS}
DEGREES = frozenset(w for pair in DEGREE_PAIRS for w in pair)


def antonym_phrases(keys: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The phrase with its first word that has an opposite swapped for it: "different path"
    for "same path"; [] for a phrase with no such word."""
    i = next((i for i, k in enumerate(keys) if k in ANTONYMS), None)
    if i is None:
        return []
    return [keys[:i] + (ANTONYMS[keys[i]],) + keys[i + 1:]]


def resolve_negations(keys: list[str], scopes: list[list[int]]) -> list[bool]:
    """Rewrite a negated antonym pair in place and return the negated flags left.

    In each scope, the first word with an antonym takes it and the negation is used up:
    "not in the same closed path" reads "in the different closed path" (nothing negated),
    "there is no closed path" reads "there is open path". Keys are changed in place.
    """
    flags = [False] * len(keys)
    for scope in scopes:
        flip = next((i for i in scope if keys[i] in ANTONYMS), None)
        if flip is not None:
            keys[flip] = ANTONYMS[keys[flip]]
            continue
        for i in scope:
            flags[i] = True
    return flags
