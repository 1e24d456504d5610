"""Real-word misspellings read in context: "closed bath" for "closed path", "separated by a
gay" for "separated by a gap".

The speller mends only words that are not English (`spelling`); a slip that makes another
English word cannot be mended without knowing what the question is about. A question file
may list the words it expects (`expected_words: [path, gap]`): an English word one edit
away from an expected word (a letter changed, added, dropped or two swapped) is read as
that word when a content word near it (within WINDOW tokens, same sentence) is one that
stands near the expected word in the question's own texts (question, reference answers,
rubric phrases). "a warm bath" stays a bath: "warm" never stands near "path" there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spacy.language import Language

from .concepts import phrase_keys
from .lexicon import is_content
from .spelling import Speller, english_words

WINDOW = 5
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SENTENCE_END = frozenset({".", "!", "?", ";"})


def one_edit(word: str) -> set[str]:
    """The strings one edit from `word` (as Norvig's spelling corrector makes them)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    out |= {a + c + b for a, b in splits for c in _LETTERS}
    out.discard(word)
    return out


def neighbours(keys: Sequence[str], i: int) -> set[str]:
    """The content keys within WINDOW tokens of position i, in its sentence."""
    out = set()
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(keys) and abs(j - i) <= WINDOW and keys[j] not in _SENTENCE_END:
            if is_content(keys[j]):
                out.add(keys[j])
            j += step
    return out


class RealWordMender:
    """Mends real-word slips towards a question's expected words (see module docstring)."""

    def __init__(self, expected: Iterable[str], texts_keys: Iterable[Sequence[str]]):
        """`expected`: the expected words' keys (lemmas); `texts_keys`: the keys of the
        question's texts, where each expected word's company is read."""
        expected = {e for e in expected if e.isalpha() and len(e) >= 3}
        known = english_words()
        self.slips: dict[str, list[str]] = {}  # English word -> expected words one edit away
        for e in sorted(expected):
            for w in one_edit(e):
                if w in known and w not in expected:
                    self.slips.setdefault(w, []).append(e)
        self.company: dict[str, set[str]] = {e: set() for e in expected}
        used: set[str] = set()
        for keys in texts_keys:
            used.update(keys)
            for i, k in enumerate(keys):
                if k in self.company:
                    self.company[k] |= neighbours(keys, i)
        for w in used & set(self.slips):  # a word the question itself uses is no slip
            del self.slips[w]
        self.words = frozenset(self.slips)

    @classmethod
    def of(cls, nlp: Language, expected: Sequence[str], texts: Sequence[str],
           speller: Speller) -> RealWordMender | None:
        """The mender of a question that lists `expected` words (None if it lists none),
        their company read in the question's `texts`, words read with `speller`."""
        if not expected:
            return None
        return cls((k for keys in phrase_keys(nlp, expected, speller) for k in keys),
                   phrase_keys(nlp, texts, speller))

    def mend(self, keys: list[str]) -> list[int]:
        """Mend the keys in place; the positions changed."""
        if self.words.isdisjoint(keys):
            return []
        changed = []
        for i, k in enumerate(keys):
            for e in self.slips.get(k, ()):
                if self.company[e] & neighbours(keys, i):
                    keys[i] = e
                    changed.append(i)
                    break
        return changed
