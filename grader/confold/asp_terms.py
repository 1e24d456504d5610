"""How feature values, labels and numbers are spelled in ASP, shared by writer, parser and
the clingo facts, so that all three agree.

Two dialects:

* ``"plain"`` (default): what teachers read and write, in the FOLD-RM / s(CASP) style.
  Constants that are not ASP identifiers are single-quoted (``mark(X,'0.5')``), numbers are
  written as numbers (``V > 0.5``).
* ``"clingo"``: what the clingo check runs. clingo has no floats and uses double quotes, so
  strings are double-quoted, floats used as categorical values become ``float("0.5")``, and a
  numeric value is ``num(K)`` where K is a 16-hex-digit string that orders exactly like the
  float (see `float_key`): ``coverage(X,num(V)), V > "3fe0000000000000"`` is ``coverage > 0.5``.
"""

from __future__ import annotations

import math
import re
import struct

IDENT = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
#: Predicate names the writer reserves; rubric names may not use them.
RESERVED_PREDICATES = ("answer", "feature", "num", "float")


def is_identifier(text: str) -> bool:
    return bool(IDENT.match(text)) and text not in ("not", "true", "false")


def float_key(value: float) -> str:
    """A fixed-width hex string whose string order is the numeric order of floats.

    The IEEE-754 bit pattern, with the sign bit flipped for positive numbers and all bits
    flipped for negative ones, sorts like the numbers themselves; -0.0 is mapped to 0.0 so
    that they compare equal. clingo compares strings lexicographically, so comparisons of keys
    are exactly the float comparisons the Python evaluator makes, for every float.
    """
    value = float(value)
    if math.isnan(value):
        raise ValueError("NaN has no order key")
    if value == 0.0:
        value = 0.0
    bits = struct.unpack(">Q", struct.pack(">d", value))[0]
    bits = (~bits & 0xFFFFFFFFFFFFFFFF) if bits >> 63 else (bits | (1 << 63))
    return f"{bits:016x}"


def format_number(value: float | int) -> str:
    """Shortest exact spelling: `9` for 9.0, `0.7333333333333333` for 11/15."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(value)
    return str(value)


def clingo_number(value: float | int) -> str:
    """One spelling per number, as Python's `3 == 3.0` demands: an integer when the value is
    integral and fits clingo's 32 bits, else `float("repr")`."""
    x = float(value)
    if x.is_integer() and -2**31 < x < 2**31:
        return str(int(x))
    return f'float("{repr(x)}")'


def quote(text: str, dialect: str) -> str:
    if dialect == "clingo":
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def constant(value, dialect: str = "plain", force_quote: bool = False) -> str:
    """A label or categorical value as an ASP term; the type comes back when parsed.

    str -> identifier or quoted string (strings that look like numbers or booleans are
    quoted); bool -> `true`/`false`; int and float -> a number (plain), `clingo_number`
    (clingo: the label or value comes back as a number equal to it, not the same type).
    """
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()  # numpy scalars from the learner
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and dialect == "clingo":
        return clingo_number(value)
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if not force_quote and is_identifier(text):
        return text
    return quote(text, dialect)


def predicate_for(feature: str) -> tuple[str, str | None] | None:
    """`concept:gap` -> ("concept", "gap"); `coverage` -> ("coverage", None); None when the
    name cannot be a predicate (it is then written `feature(X,'Name',V)`)."""
    family, sep, name = feature.partition(":")
    if sep:
        return (family, name) if is_identifier(family) and family not in RESERVED_PREDICATES else None
    return (feature, None) if is_identifier(feature) and feature not in RESERVED_PREDICATES else None


def reserved_names(target: str) -> re.Pattern:
    """Names a program for `target` uses itself: exceptions `abN`/`ab_x`, `target`, `target_N`."""
    return re.compile(rf"ab(\d+|_\w+)|{re.escape(target)}(_\d+)?\Z")


def unary_ok(name: str, target: str) -> bool:
    """Can `name` be written `name(X)` (a derived predicate or a boolean feature that is true)
    without being read back as something else?"""
    spelled = predicate_for(name)
    return spelled is not None and spelled[1] is None and not reserved_names(target).match(name)


def feature_atom(feature: str, value_term: str, dialect: str = "plain", target: str | None = None) -> str:
    """The atom stating that `feature` has the value `value_term` for answer X."""
    spelled = predicate_for(feature)
    if spelled is not None and target is not None and reserved_names(target).match(feature):
        spelled = None
    if spelled is None:
        return f"feature(X,{constant(feature, dialect, force_quote=True)},{value_term})"
    pred, name = spelled
    if name is None:
        return f"{pred}(X,{value_term})"
    return f"{pred}(X,{constant(name, dialect)},{value_term})"
