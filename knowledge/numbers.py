"""Numbers as teachers write them in question and rule files, within sane bounds.

A value, a confidence or a comparison is a number of a few digits. A 400-digit number would
overflow when turned into a float, a 4,300-digit one exceeds Python's integer parsing limit,
and an exponent tower in a unit (`m**(9**9**8)`) would make pint compute for minutes: each
parser checks the text against these bounds first and reports a located problem.
"""

from __future__ import annotations

import re

#: Longest number text accepted, sign, point and exponent included ("-1.2345e-10" is 11).
MAX_NUMBER_CHARS = 40
#: Longest unit or tolerance text accepted ("kg*m^2/s^3" is 10).
MAX_UNIT_CHARS = 60

_POWER = re.compile(r"\*\*|\^")
_SMALL_EXPONENT = re.compile(r"\s*(\(\s*[-+]?\s*\d{1,2}(\.\d{1,3})?\s*\)|[-+]?\s*\d{1,2}(\.\d{1,3})?(?![\d.]))")


def number_problem(text: str) -> str | None:
    """Why a number written as `text` is refused, or None if it is fine."""
    if len(text.strip()) > MAX_NUMBER_CHARS:
        return (f"a number of {len(text.strip())} characters: numbers in question files have at "
                f"most {MAX_NUMBER_CHARS}")
    return None


def read_number(text: str) -> int | float:
    """`text` as an int (only digits) or a float; ValueError with a teacher's message if it
    is too long or not a number."""
    problem = number_problem(text)
    if problem:
        raise ValueError(problem)
    text = text.strip()
    return int(text) if re.fullmatch(r"[-+]?\d+", text) else float(text)


def unit_problem(text: str) -> str | None:
    """Why a unit or tolerance text is refused before pint reads it, or None: too long, or a
    power that is not a small number on a unit ("m**(9**9**8)", "(9)**99", "(m**99)**99" or
    "9⁹⁹⁹⁹⁹⁹⁹ m" would take pint minutes). The check reads the text as pint will evaluate it,
    after pint's own rewriting (superscript digits and "^" become "**", commas are dropped),
    so that no spelling of a power escapes it."""
    if len(text) > MAX_UNIT_CHARS:
        return f"a unit of {len(text)} characters: at most {MAX_UNIT_CHARS}"
    from pint.util import string_preprocessor  # what pint does to a text before evaluating it

    read = string_preprocessor(text)
    for m in _POWER.finditer(read):
        exponent = _SMALL_EXPONENT.match(read, m.end())
        after = read[exponent.end():].lstrip() if exponent else ""
        if not _unit_base(read[:m.start()].rstrip()) or exponent is None or _POWER.match(after):
            shown = read[max(0, m.start() - 3):m.end() + 4].strip()
            return (f"the power '{shown}' in '{text}': a power applies to a unit and is a small "
                    "number, like m/s^2 or m*s**-2")
    if re.search(r"\d{%d,}" % (MAX_NUMBER_CHARS // 2), read):
        return f"a number too long in '{text}'"
    return None


def _unit_base(before: str) -> bool:
    """Does the text before a power end in a unit: a unit's name or symbol, or a bracket
    holding one and no power of its own (powers of powers are how towers are built; a
    number raised to a power is no unit)?"""
    if not before:
        return False
    if before[-1] != ")":
        return before[-1].isalpha() or before[-1] in "°μµΩ"
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(before[i], 0)
        if depth == 0:
            group = before[i:]
            return not _POWER.search(group) and any(c.isalpha() or c in "°μµΩ" for c in group)
    return False
