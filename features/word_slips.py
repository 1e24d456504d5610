"""Function words students write for others that sound alike, read in context: "to" for
"too" ("the magnet is to weak") and "then" for "than" ("sound is faster then light",
"quicker in solids then air"). Both are English words, so the speller (`spelling`) leaves
them; only the words around them tell. Nothing here knows a question's topic.
"""

from __future__ import annotations

from spacy.tokens import Doc

from .spelling import english_lemma_index

#: A "then" a few words after a comparison is its "than" ("quicker in water then air"), but
#: not after the end of a clause, nor before a new one's subject ("hotter for a while then it
#: melts").
_THEN_GAP = 4
_NOT_BETWEEN = frozenset({"and", "or", "but", "so", "because", ",", ".", ";", "!", "?", "then", "until", "when"})
_NEW_SUBJECT = frozenset({"it", "they", "he", "she", "we", "you", "i", "there", "this", "that"})


def then_is_than(doc: Doc, i: int) -> bool:
    """Is the "then" at i a misspelt "than": right after a comparison ("faster then light"), or
    a few words after one where the words between name where or what ("quicker in solids then
    air") and no new clause starts after it?"""
    if _compares(doc[i - 1]):
        return True
    if i + 1 < len(doc) and doc[i + 1].lower_ in _NEW_SUBJECT:
        return False
    for j in range(i - 2, max(-1, i - 2 - _THEN_GAP), -1):
        if doc[j + 1].lower_ in _NOT_BETWEEN:
            return False
        if _compares(doc[j]):
            return True
    return False


#: Words before a "than" that compare without the ending -er.
_COMPARING = frozenset({"more", "less", "better", "worse", "other", "rather", "fewer"})


def _compares(token) -> bool:
    """Is the token a comparison ("faster", "more", "other"), so that a "then" after it is
    "than" ("sound is faster then light", "other then that")? An -er form whose lemma is
    another word ("faster": "fast"), not "water", "after" or "never"."""
    lower = token.lower_
    return lower in _COMPARING or (lower.endswith("er") and token.lemma_.lower() != lower)


#: What stands before "too" in "it is too weak", "way too heavy".
_BEFORE_TOO = frozenset({"be", "its", "thats", "way", "much", "far", "just", "and", "or"})  # "is" by its lemma
#: What may follow the adjective of "too weak": the clause's end, "to pull it", "for the can".
_AFTER_TOO = frozenset({"to", "for", "and", "or", "but", "so", "because", "then", "now"})


def too_misspelt(doc: Doc, i: int) -> bool:
    """Is the "to" at i a "too" ("the magnet is to weak to pull it", "its to thin")? Only
    before a word that is an adjective and never a verb, said of the subject (the clause
    ends after it, or "to"/"for" follows), after "is", "its", "way": "attracted to magnetic
    metals" and "to move" keep their "to"."""
    word = doc[i + 1].lower_
    if not (doc[i - 1].lemma_.lower() in _BEFORE_TOO or doc[i - 1].lower_ in _BEFORE_TOO):
        return False
    if word not in english_lemma_index("adj") or word in english_lemma_index("verb"):
        return False
    return i + 2 >= len(doc) or doc[i + 2].is_punct or doc[i + 2].lower_ in _AFTER_TOO
