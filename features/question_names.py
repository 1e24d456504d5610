"""Names the question gives a thing with a word that has degrees: "soft iron", "a big drum".

In an answer, "soft iron loses its magnetism" names the metal: it says nothing of softness, so
a teacher's "softer" or "it is soft" is not found there, and "the big drum vibrates slowly" says
no "bigger vibrations". A name is two words side by side in the question's text, the first a
word with degrees (its comparative is in spaCy's English lookup table: "softer" -> "soft"),
the second a content word. Found side by side in an answer, the first word belongs to the name:
a phrase that takes it without the second, and says it of something ("softer", "it is soft",
"bigger vibrations"), is not found there; one that names the thing by it ("the heavy moves
back" for "the heavy child") still is. Read from the question of each file; nothing here knows
a topic.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lexicon import is_content
from .spelling import english_lemmas


def has_degrees(key: str) -> bool:
    """Is the word one with a comparative ("soft": "softer"; "big": "bigger"; "heavy": "heavier")?"""
    if not key.isalpha() or len(key) < 3:
        return False
    lemmas = english_lemmas()
    forms = (key + "er", key + "r", key + key[-1] + "er", key[:-1] + "ier")
    return any(lemmas.get(form) == key for form in forms)


def question_names(keys: Sequence[str], words: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The (word with degrees, word it names with) pairs of the question's keys; `words`: the
    question's words as written, one per key ("big" is read "more", as "bigger" is)."""
    return frozenset((keys[i], keys[i + 1]) for i in range(len(keys) - 1)
                     if is_content(keys[i]) and is_content(keys[i + 1]) and keys[i] != keys[i + 1]
                     and has_degrees(words[i]) and not has_degrees(words[i + 1]))


def named_places(keys: Sequence[str], names: frozenset[tuple[str, str]]) -> frozenset[int]:
    """Where in an answer a word of a question's name stands before the word it names with."""
    if not names:
        return frozenset()
    return frozenset(i for i in range(len(keys) - 1) if (keys[i], keys[i + 1]) in names)


def splits_a_name(places: Sequence[int] | range, named: frozenset[int], keys: Sequence[str],
                  said_of: frozenset[str]) -> bool:
    """Does a phrase found at `places` take a name's first word without the word it names with,
    where the phrase says that word of something (`said_of`: "softer", "it is soft"; not "heavy"
    in "heavy moves back", where the teacher names the thing by it)?"""
    if not named or not said_of:
        return False
    taken = set(places)
    return any(i in named and i + 1 not in taken and keys[i] in said_of for i in taken)
