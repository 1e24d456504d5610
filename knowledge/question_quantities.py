"""The `quantities` of a question file: value, unit (read by pint), tolerance and notation.

Why a module of its own: units and tolerances are the part of a question file with physics in
it (pint's registry, relative and absolute tolerances), apart from the reading of keys and rules
in `knowledge.question_file`, whose reader (`r`: its `names`, `unknown_keys`, `problem`, `text`)
reports every problem at its place.
"""

from __future__ import annotations

import math
import re
from typing import Any

from knowledge.numbers import read_number, unit_problem
from knowledge.schema import NAME, Quantity

QUANTITY_KEYS = ("value", "unit", "tolerance", "description", "bare_number", "symbol", "negative_means")
SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,9}\Z")
_UNITS = None
#: The registry's unit of moments ("Nm"): a force times a distance, never an energy.
MOMENT_UNIT = "newton_metre"


def unit_registry():
    """One pint registry for the package (building one takes a moment). "Nm" is the newton
    metre of moments and torques, as physics writes it: pint's own "Nm" is a paper maker's
    unit (number_meter, length per mass), which made `unit: Nm` and every "20 Nm" wrong."""
    global _UNITS
    if _UNITS is None:
        import pint
        units = pint.UnitRegistry(on_redefinition="ignore")  # the one redefinition below
        units.define(f"{MOMENT_UNIT} = newton * meter = Nm")
        _UNITS = units
    return _UNITS


def _finite(value: int | float) -> bool:
    """A finite number that converts to a float (a 400-digit int does not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def read_quantities(r: Any, data: dict) -> tuple[Quantity, ...]:
    """The question file's `quantities`, each problem reported through the reader `r`."""
    out = []
    for name, entry in r.mappings(data, "quantities", "quantity", QUANTITY_KEYS,
                                  "value: ..., unit: ..., tolerance: ..."):
        value = entry.get("value")
        if "value" not in entry:
            r.problem(entry, f"missing key 'value' in quantity '{name}'", "value: NUMBER")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
            r.problem(("value", entry, "value"), f"the value of quantity '{name}' must be a number",
                      "a number like 9.8")
            value = None
        unit = entry.get("unit")
        units = unit_registry()
        if "unit" not in entry:
            r.problem(entry, f"missing key 'unit' in quantity '{name}'", "unit: m/s^2")
            unit = None
        elif not isinstance(unit, str) or not unit.strip():
            r.problem(("value", entry, "unit"), f"the unit of quantity '{name}' must be text",
                      "a unit like m/s^2")
            unit = None
        elif unit_problem(unit):
            r.problem(("value", entry, "unit"), f"bad unit of quantity '{name}': {unit_problem(unit)}",
                      "a unit like m/s^2")
            unit = None
        else:
            try:
                units.parse_units(unit)
            except Exception as err:  # pint raises several types for bad units
                r.problem(("value", entry, "unit"), f"unknown unit '{unit}' ({err})",
                          "a unit pint knows, e.g. m/s^2, A, V, ohm, N")
                unit = None
        tolerance, absolute = _tolerance(r, entry, name, unit)
        notation = _notation(r, entry, name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and unit:
            out.append(Quantity(name, float(value), unit, tolerance, absolute,
                                r.text(entry, "description", required=False), **notation))
    return tuple(out)


def _notation(r: Any, entry: dict, name: str) -> dict:
    """The physics-notation options of a quantity (see `knowledge.schema.Quantity`)."""
    out: dict = {}
    bare = entry.get("bare_number", False)
    if not isinstance(bare, bool):
        r.problem(("value", entry, "bare_number"), f"bare_number of quantity '{name}' must be "
                  "true or false", "true or false")
    else:
        out["bare_number"] = bare
    for key, pattern, must, expected in (
            ("symbol", SYMBOL, "be a short name like g", "a symbol like g or c"),
            ("negative_means", NAME, "name a concept", "the name of a concept of this question, e.g. downward")):
        value = entry.get(key)
        if value is None:
            continue
        if isinstance(value, str) and pattern.match(value):
            out[key] = value
        else:
            r.problem(("value", entry, key), f"{key} of quantity '{name}' must {must}", expected)
    return out


def _tolerance(r: Any, entry: dict, name: str, unit: str | None) -> tuple[float, bool]:
    """(tolerance, absolute?) of a quantity: 2% relative when none is written."""
    if "tolerance" not in entry:
        return 0.02, False
    raw = entry["tolerance"]
    where = ("value", entry, "tolerance")
    expected = "'2%' (relative), 0.02 (relative) or '0.2 m/s^2' (absolute, in a unit of the same kind)"
    if isinstance(raw, bool) or raw is None:
        r.problem(where, f"bad tolerance {raw!r} for quantity '{name}'", expected)
    elif isinstance(raw, (int, float)):
        if _finite(raw) and 0 <= raw < 1:  # NaN fails this test too
            return float(raw), False
        r.problem(where, f"bad tolerance {raw!r} for quantity '{name}': a bare number is a "
                  "relative tolerance between 0 and 1", expected)
    elif isinstance(raw, str) and unit_problem(raw):
        r.problem(where, f"bad tolerance for quantity '{name}': {unit_problem(raw)}", expected)
    elif isinstance(raw, str) and raw.strip().endswith("%"):
        try:
            share = read_number(raw.strip()[:-1]) / 100
        except ValueError:
            share = -1.0
        if 0 <= share < 1:
            return share, False
        r.problem(where, f"bad tolerance '{raw}' for quantity '{name}'", expected)
    elif isinstance(raw, str):
        units = unit_registry()
        try:
            amount = units.Quantity(raw)
            if unit is not None:
                amount = amount.to(unit)
            magnitude = float(amount.magnitude)
        except Exception as err:
            r.problem(where, f"bad tolerance '{raw}' for quantity '{name}' ({err})", expected)
        else:
            if 0 <= magnitude < math.inf:
                return magnitude, True
            r.problem(where, f"bad tolerance '{raw}' for quantity '{name}': negative", expected)
    else:
        r.problem(where, f"bad tolerance for quantity '{name}'", expected)
    return 0.02, False
