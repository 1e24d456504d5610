"""Rubric phrases found as students write them: in any word order, with a few words between.

A teacher lists "same electrical state"; a student writes "the electrical states of the two
terminals are the same". The phrase's content words (lemmas, misspellings mended, see
`lexicon`) are looked for in every order (up to MAX_PERMUTED words; longer phrases in the
order written), each at most MAX_GAP tokens from the next, within one clause: no
punctuation and no word that starts a new clause ("but", "because", ...) between.

A phrase that holds a negation cue ("no gap", "not separated") says that its content words
are denied: it is found where they are ("there isn't any gap", "it is not really
separated"), as written, and not where they are said ("there is a gap").

Done on the answer's list of keys rather than with spaCy's `Matcher` and `{0,8}` gaps
between the words: that matcher made grading four times slower. Most answers hold the
words of no phrase, which one set test per phrase rules out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice, product

from .lexicon import is_content
from .negation import CLAUSE_BREAKS, CUES

MAX_GAP = 8  # tokens between two words of a phrase
MAX_PERMUTED = 3  # phrases of more content words are matched in their own order only
MAX_TRIED = 2000  # placings of a phrase's words tried in one answer (long answers repeat words)
EXACT = "="  # a key to match as written (see concepts.phrase_keys)
PRESENT, NEGATED = "present", "negated"


def content_of(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The words of a phrase that must be found: content words and words quoted as written."""
    return tuple(k for k in keys if k.startswith(EXACT) or is_content(k))


def has_cue(keys: tuple[str, ...]) -> bool:
    return not CUES.isdisjoint(keys)


def token_pattern(key: str) -> dict:
    """A spaCy Matcher token pattern for a key: as written (LOWER) or by key (NORM)."""
    return {"LOWER": key[len(EXACT):]} if key.startswith(EXACT) else {"NORM": key}


def clause_ids(keys: list[str]) -> list[int]:
    """The clause each token is in: a new one after punctuation or a clause break."""
    out, clause = [], 0
    for key in keys:
        if key in CLAUSE_BREAKS or not any(c.isalnum() for c in key):
            clause += 1
        out.append(clause)
    return out


class LooseMatcher:
    """The loose phrases of some columns (see the module docstring)."""

    def __init__(self, phrases: dict[str, Iterable[tuple[str, ...]]]):
        # (column, content words, whether the phrase holds a cue, in any order?)
        self._phrases: list[tuple[str, tuple[str, ...], frozenset[str], bool, bool]] = []
        for column, keyed in phrases.items():
            for keys in keyed:
                words = content_of(keys)
                cue = has_cue(keys)
                if not words or (len(words) == 1 and not cue):
                    continue  # the plain match says all
                plain = frozenset(k for k in words if not k.startswith(EXACT))
                self._phrases.append((column, words, plain, cue, len(words) <= MAX_PERMUTED))
        self.words = frozenset(k for _, _, plain, _, _ in self._phrases for k in plain)

    def states(self, keys: list[str], negated: list[bool], lowers: Callable[[], list[str]]
               ) -> dict[str, str]:
        """Column -> present/negated for the loose phrases found; `lowers` gives the
        tokens' lower-case forms, for words quoted as written (asked for only then)."""
        present = self.words.intersection(keys)
        if not present:
            return {}
        found: dict[str, str] = {}
        clauses: list[int] | None = None
        lower: list[str] | None = None
        for column, words, plain, cue, any_order in self._phrases:
            if found.get(column) == PRESENT or not plain <= present:
                continue
            if clauses is None:
                clauses = clause_ids(keys)
            if lower is None and len(plain) < len(words):
                lower = lowers()
            state = _phrase_state(words, keys, lower, negated, clauses, cue, any_order)
            if state is not None and found.get(column) != PRESENT:
                found[column] = state
        return found


def _phrase_state(words: tuple[str, ...], keys: list[str], lower: list[str] | None,
                  negated: list[bool], clauses: list[int], cue: bool, any_order: bool
                  ) -> str | None:
    """present/negated if the phrase is found, None if not: present wins over negated; a
    phrase with a cue is found (present) only where its words are denied."""
    at = []
    for word in words:
        if word.startswith(EXACT):
            want = word[len(EXACT):]
            at.append([i for i, w in enumerate(lower or ()) if w == want])
        else:
            at.append([i for i, k in enumerate(keys) if k == word])
    state = None
    for chosen in islice(product(*at), MAX_TRIED):
        if len(set(chosen)) < len(chosen) or len({clauses[i] for i in chosen}) > 1:
            continue
        if not any_order and list(chosen) != sorted(chosen):
            continue
        ordered = sorted(chosen)
        if any(b - a - 1 > MAX_GAP for a, b in zip(ordered, ordered[1:])):
            continue
        denied = any(negated[i] for i in chosen)
        if cue:
            if denied:
                return PRESENT
            continue
        if not denied:
            return PRESENT
        state = NEGATED
    return state

