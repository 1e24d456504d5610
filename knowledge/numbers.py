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
    power that is not a small number ("m**(9**9**8)" would take pint minutes)."""
    if len(text) > MAX_UNIT_CHARS:
        return f"a unit of {len(text)} characters: at most {MAX_UNIT_CHARS}"
    for m in _POWER.finditer(text):
        base = text[:m.start()].rstrip()[-1:]
        exponent = _SMALL_EXPONENT.match(text, m.end())
        after = text[exponent.end():].lstrip() if exponent else ""
        if not (base.isalpha() or base in ")°μµΩ") or exponent is None or _POWER.match(after):
            return (f"the power '{text[max(0, m.start() - 3):m.end() + 4].strip()}' in '{text}': a "
                    "power applies to a unit and is a small number, like m/s^2 or m*s**-2")
    if re.search(r"\d{%d,}" % (MAX_NUMBER_CHARS // 2), text):
        return f"a number too long in '{text}'"
    return None
