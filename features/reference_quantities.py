"""The values the reference answers give: quantities a question file did not have to list.

A bare question file (a question and its reference answers) of a numeric question says the
answer in its reference: "The moment is 20 N m." Read as words, "20" and "n m" are phrases an
answer must repeat; "twenty newton metres", "2000 N cm" and "20 Nm" say none of them, and
"20 J" says "20". Read as a quantity, each is checked as a teacher checks it: the value
within 2% in any unit of the same kind, else a wrong value, a wrong unit or no unit.

A reference answer's number is a quantity when a unit follows it (pint reads it, and it is
not a plain number); the values the question itself gives ("a 10 N force acts 2 m from the
pivot"), and a number the question gives without a unit ("the reading jumps from 0 to
1.5"), are data, not the answer, and are left out, as is a kind of quantity the question
file already lists (the teacher's own quantity, with their tolerance, says it). The same
value in several reference answers is one quantity.
"""

from __future__ import annotations

import math
import re

from knowledge.schema import Quantity

from . import quantities as qty
from .text import normalize

TOLERANCE = 0.02  # as a quantity of a question file without a tolerance
#: A value the reference gives as "about 340 m/s": a student's 330 m/s is as right.
APPROXIMATE_TOLERANCE = 0.1
_APPROXIMATELY = re.compile(r"(?:\b(?:about|around|roughly|approximately|approx|nearly|almost|circa|some)\.?"
                            r"|~|≈)\s*$", re.IGNORECASE)
NAME = "reference_value"
DESCRIPTION = "the value asked for"  # "gives the value asked for as 20 N m", "in a wrong unit"


def stated_values(text: str) -> list[tuple[float, object, str]]:
    """(value, pint unit, the unit as written where pint reads it so) of each number of the
    text that a unit follows: the longest unit words pint reads, not dimensionless
    ("terminal 2 and ..." has none)."""
    return [n for n in _numbers(text) if n[1] is not None]


def approximate_values(text: str) -> list[float]:
    """The values of the text given as approximate ("about 340 m/s", "~3e8 m/s")."""
    text = normalize(text)
    return [m.value for m in qty.find_numbers(text) if _APPROXIMATELY.search(text[:m.start])]


def _numbers(text: str) -> list[tuple[float, object, str | None]]:
    """Each number of the text as `stated_values` reads it, with (None, None) for the unit
    of a number no unit follows ("jumps from 0 to 1.5")."""
    out = []
    for m in qty.find_numbers(normalize(text)):  # as answers are read: "m/s²" is m/s^2
        reading = None
        for n in range(len(m.unit_words), 0, -1):
            words = m.unit_words[:n]
            if words[-1] in ("/", "*"):
                continue
            readings = [u for u in qty.parse_unit(words) if not u.dimensionless]
            if readings:
                reading = (m.value, readings[0], _written(words, readings[0]))
                break
        out.append(reading or (m.value, None, None))
    return out


def _written(words: tuple[str, ...], unit) -> str:
    """The unit as the reference writes it ("N m"), when pint reads those words alone as
    `unit`; else pint's short form ("m*N")."""
    text = " ".join(words).replace(" / ", "/")
    try:
        if qty.expected_unit(text) == unit:
            return text
    except Exception:  # pint raises several error types for unreadable units
        pass
    return f"{unit:~C}"


def reference_quantities(question) -> tuple[Quantity, ...]:
    """The quantities the question's reference answers give (see the module docstring),
    named reference_value, reference_value_2, ... in the order of the reference answers."""
    listed = {qty.expected_unit(q.unit).dimensionality for q in question.quantities}
    asked = _numbers(question.text)
    given = [n for n in asked if n[1] is not None]
    bare = [v for v, unit, _ in asked if unit is None]  # "jumps from 0 to 1.5"
    found: list[tuple[float, object, str]] = []
    approximate: set[int] = set()  # places in `found` of values given as "about ..."
    for reference in question.reference_answers:
        about = approximate_values(reference)
        for value, unit, written in stated_values(reference):
            if unit.dimensionality in listed or value == 0 or not math.isfinite(value):
                continue
            known = next((i for i, (v, u, _) in enumerate(found) if _same(value, unit, v, u)), None)
            if known is not None and value not in about:
                approximate.discard(known)  # one reference gives it exactly: as exact
            if known is not None or any(_same(value, unit, v, u) for v, u, _ in given):
                continue
            if any(_close(value, v) for v in bare) and not any(_close(value, v) for v, _, _ in given):
                continue
            if value in about:
                approximate.add(len(found))
            found.append((value, unit, written))
    names = [NAME] + [f"{NAME}_{i}" for i in range(2, len(found) + 1)]
    return tuple(Quantity(name, value, written, APPROXIMATE_TOLERANCE if i in approximate else TOLERANCE,
                          description=DESCRIPTION)
                 for i, (name, (value, _, written)) in enumerate(zip(names, found)))


def _same(value: float, unit, other: float, other_unit) -> bool:
    """The same quantity: the same kind, and values within the tolerance of each other."""
    if unit.dimensionality != other_unit.dimensionality:
        return False
    try:
        converted = qty.ureg().Quantity(other, other_unit).to(unit).magnitude
    except Exception:  # pint raises several error types (offset units, odd conversions)
        return False
    return _close(value, converted)


def _close(value: float, other: float) -> bool:
    return math.isclose(abs(value), abs(other), rel_tol=TOLERANCE)
