"""Quantities a reference answer says stay the same, found in answers that keep them and in
answers that change them. "The drum still vibrates at the same frequency, so the pitch does
not change" is said by "the pitch stays the same" and "no change in pitch", and turned by "the
pitch goes up" and "it vibrates with a higher frequency": the reference's words ("pitch",
"frequency") are in both, and only what is said of them tells them apart.

`ref:<quantity>_stays_same` ("ref:pitch_stays_same") is present where an answer says the
quantity stays the same and nowhere that it changes, negated where it says it changes (a word
of degree measures it, `covariations.measured_degrees`, or it "changes") and nowhere that it
stays the same, absent otherwise.

What stays the same is the noun after "same" ("the same frequency", "no change in pitch") or,
without one, the thing its clause names before it ("the pitch stays the same", "the pitch does
not change", "the frequency is unchanged": all read "same", `lexicon`). Read by word order, on
the fallback pipeline and a parsed one alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .clauses import Words, clause_bounds, subject
from .covariations import base_scale, measured_degrees
from .degrees import MORE_LESS, QUANTITY_NOUNS
from .lexicon import feature_suffix, is_content
from .reading import Analysis

#: Words between "same" and the quantity after it ("the same number", "no change in pitch").
_BETWEEN = frozenset({"the", "a", "an", "in", "of", "its", "their"})


@dataclass(frozen=True)
class Invariant:
    """A quantity a reference answer says stays the same."""

    name: str  # feature name part: pitch_stays_same
    scale: str  # the quantity's key: pitch
    text: str  # "the pitch stays the same"
    changed_text: str  # "the pitch changes"


def reference_invariants(analyses: Sequence[Analysis]) -> list[Invariant]:
    """The quantities the reference answers say stay the same, each once."""
    out: dict[str, Invariant] = {}
    for a in analyses:
        words = Words.of(a)
        for scale, at in _said(words, "same", a.keys):
            written = words.lowers[at]
            name = feature_suffix((scale, "stays", "same"))
            out.setdefault(name, Invariant(name, scale, f"the {written} stays the same", f"the {written} changes"))
    return list(out.values())


def invariant_states(words: Words, invariants: Sequence[Invariant]) -> list[str]:
    """"present", "negated" or "absent" for each invariant, in one answer."""
    if not invariants:
        return []
    same = {scale for scale, _ in _said(words, "same")}
    changed = {base_scale(d.scale) for d in measured_degrees(words)} | {scale for scale, _ in _said(words, "different")}
    return ["present" if i.scale in same and i.scale not in changed
            else "negated" if i.scale in changed and i.scale not in same else "absent" for i in invariants]


#: Words that make "the same" a quantity kept as it was ("the pitch stays the same", "it still
#: vibrates at the same frequency"), not two things that share something ("in the same path").
_KEEPING = frozenset({"stay", "remain", "keep", "still", "constant"})


def _said(words: Words, key: str, written: Sequence[str] | None = None) -> list[tuple[str, int]]:
    """(the quantity's key, where it is written) for each `key` ("same" or "different") of the
    text: the noun after it, else the thing its clause names first (`clauses.subject`).
    `written` (the keys as written, `Analysis.keys`): only a "same" that keeps a quantity, a
    word of `_KEEPING` in its clause, a change denied ("does not change", "unchanged") or "at the
    same" before a quantity ("moves further at the same frequency")."""
    lowers, keys = words.lowers, words.keys
    out = []
    for i, k in enumerate(keys):
        if k != key:
            continue
        start, stop = clause_bounds(lowers, i)
        after = i + 1
        while after < stop and after - i <= 3 and keys[after] in _BETWEEN:
            after += 1
        at_same = lowers[max(0, i - 2):i] == ["at", "the"] and after < stop and keys[after] in QUANTITY_NOUNS
        if written is not None and written[i] != "different" and _KEEPING.isdisjoint(keys[start:stop]) \
                and not at_same:
            continue  # "B and C are in the same path": shared, not kept ("at the same frequency" is)
        if after < stop and is_content(keys[after]) and keys[after] not in MORE_LESS:
            out.append((keys[after], after))
            continue
        thing = subject(lowers, keys, start, i)  # "the pitch | stays the same", not "stays"
        if thing:
            out.append((keys[thing[-1]], thing[-1]))
    return out
