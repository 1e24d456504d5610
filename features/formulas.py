"""Formulas the reference answers give, found in answers the right way and turned. "Moment =
force x distance" is said by "the moment is force times distance" and "moment = distance x
force", and turned by "moment = force / distance" and "the moment is the force divided by the
distance": a turned formula uses only the reference's words, which alone cannot tell it apart.

`ref:<quantity>_is_<one>_<times|over>_<other>` ("ref:moment_is_force_times_distance") is
present where an answer gives the quantity by the same two quantities and operation (a product
in either order), negated where it gives it by the same two with the other operation, or their
quotient the other way up, absent otherwise.

A formula is a quantity, "=" (or "is", "equals") and two quantities joined by "x", "times",
"multiplied by", "/", "divided by" or "over"; the quantity is the first thing its clause names
(`clauses.subject`: "the moment of a force is ...", an aside in brackets skipped: "the moment
(turning effect) of a force is ..."), each of the two the first content word
after "=" or the operation (articles and "by" between). What follows the second ("/ 2" in
"depth = speed x time / 2") is left out. Read by word order, on the fallback pipeline and a
parsed one alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .clauses import Words, clause_start, subject
from .lexicon import feature_suffix, is_content
from .reading import Analysis

_PRODUCT = frozenset({"x", "*", "×", "times", "multiplied"})
_QUOTIENT = frozenset({"/", "÷", "divided", "over"})
_EQUALS = frozenset({"=", "equals", "is", "equal"})
#: Words that may stand between "=" or an operation and its quantity ("is the force divided by
#: the distance").
_BETWEEN = frozenset({"the", "a", "an", "its", "their", "by", "to"})


@dataclass(frozen=True)
class Formula:
    """A formula of a reference answer: `result` = `one` `operation` `other`."""

    name: str  # feature name part: moment_is_force_times_distance
    result: str
    one: str
    operation: str  # "x" or "/"
    other: str
    text: str  # "moment = force x distance"
    turned_text: str  # "moment = force / distance"


def reference_formulas(analyses: Sequence[Analysis]) -> list[Formula]:
    """The formulas of the reference answers, each once."""
    out: dict[str, Formula] = {}
    for a in analyses:
        for result, one, operation, other in _formulas(Words.of(a)):
            word = "times" if operation == "x" else "over"
            name = feature_suffix((result, "is", one, word, other))
            turned = f"{result} = {one} / {other}" if operation == "x" else f"{result} = {one} x {other}"
            out.setdefault(name, Formula(name, result, one, operation, other,
                                         f"{result} = {one} {operation} {other}", turned))
    return list(out.values())


def formula_states(words: Words, formulas: Sequence[Formula]) -> list[str]:
    """"present", "negated" or "absent" for each formula, in one answer."""
    states = ["absent"] * len(formulas)
    said = _formulas(words)
    for j, f in enumerate(formulas):
        for result, one, operation, other in said:
            if result != f.result or {one, other} != {f.one, f.other}:
                continue
            same = operation == f.operation and (operation == "x" or one == f.one)
            states[j] = "present" if same else "negated"
            if same:
                break
    return states


def _formulas(words: Words) -> list[tuple[str, str, str, str]]:
    """(quantity, one, operation, other) of each formula the words give."""
    lowers, keys = words.lowers, words.keys
    if _PRODUCT.isdisjoint(lowers) and _QUOTIENT.isdisjoint(lowers):
        return []
    out = []
    for i, low in enumerate(lowers):
        if low not in _EQUALS:
            continue
        result = subject(lowers, keys, _start_past_asides(lowers, i), i)
        one = _next_quantity(lowers, keys, i + 1)
        if not result or one is None or one + 1 >= len(lowers):
            continue
        operation = "x" if lowers[one + 1] in _PRODUCT else "/" if lowers[one + 1] in _QUOTIENT else None
        other = _next_quantity(lowers, keys, one + 2) if operation else None
        if other is not None:
            out.append((keys[result[-1]], keys[one], operation, keys[other]))
    return out


def _start_past_asides(lowers: list[str], i: int) -> int:
    """Where the clause of token i starts, an aside in brackets within it skipped: "the
    moment (turning effect) of a force is ..." is a clause about the moment, not one that
    starts after the bracket."""
    start = clause_start(lowers, i)
    while start > 0 and lowers[start - 1] == ")":
        opening = next((j for j in range(start - 2, -1, -1) if lowers[j] == "("), None)
        if opening is None:
            break
        start = clause_start(lowers, opening)
    return start


def _next_quantity(lowers: list[str], keys: list[str], start: int) -> int | None:
    """The first content word from `start`, with only articles and "by" before it."""
    for j in range(start, min(len(lowers), start + 3)):
        if is_content(keys[j]) and lowers[j] not in _PRODUCT and lowers[j] not in _QUOTIENT:
            return j
        if lowers[j] not in _BETWEEN:
            return None
    return None
