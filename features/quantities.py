"""Numbers with units in an answer, checked against a rubric's expected quantity.

Numbers come in every form students write: `9.8`, `9,8`, `1,500`, `3e8`, `3 x 10^8`,
`3×10⁸` (the text module turns superscripts into `^8`), `10^-3`, `1/2`, `-9.8`, and in
words (`three`, `nine point eight`, `twenty five`, `half`). Units too: `m/s^2`, `m s^-2`,
`ms-2`, `m/s²`, `m/s2`, `meters per second squared`, `1500 mV`. Units are read by pint:
the words after a number are tried, longest first, as a unit expression; of the readings
(`ms-2` is also "per millisecond squared") the one with the expected dimension wins.

The sign is not checked (`-9.8 m/s^2` for a magnitude of 9.8 is correct): the direction
of a vector is a concept of the rubric ("downward"), not part of the number. The numbers
themselves are found by `numerals`, the spellings of units read by `unit_spelling`; this
module finds the unit words after each number and checks them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import pint

from knowledge.numbers import unit_problem
from knowledge.question_quantities import MOMENT_UNIT
from knowledge.schema import Quantity

from .numerals import (DIGIT, digits_value, fraction_of_end, may_have_number_words, number_matches,
                       word_runs, words_value)
from .unit_spelling import ends_units, parse_unit, si_cases, ureg


# ----------------------------------------------------------------------------- numbers and their unit words
_UNIT_ATOM = r"(?:%|°[CF]|[a-zA-Zμ°Ω]+(?:\s*(?:\^|\*\*)\s*\(?[-+]?\d\)?|-?\d(?![\d.,]))?)"
# Between unit atoms: "/", "*", a space, or a dot right before a letter ("m.s^-2").
_UNIT_TAIL = re.compile(  # "1/s", "1 / s": a reciprocal unit starts with its 1
    rf"\s*(?P<unit>(?:1\s*/\s*(?=[a-zA-Zμ]))?{_UNIT_ATOM}(?:(?:\s*[/*]\s*|\s+|\.(?=[a-zA-Zμ])){_UNIT_ATOM}){{0,4}})")
_ATOM_SPLIT = re.compile(r"\s*(/|\*)\s*|\s+|\.")
@dataclass(frozen=True)
class Mention:
    """A number in an answer, with the unit words that follow it (possibly none)."""

    value: float
    unit_words: tuple[str, ...]  # candidate unit atoms and operators, in order
    start: int
    end: int


def find_numbers(text: str) -> list[Mention]:
    """Every number of the text, in order, with the words after it that may be its unit."""
    has_digit = DIGIT.search(text) is not None
    number_words = may_have_number_words(text)
    if not has_digit and not number_words:  # neither a digit nor a number word
        return []
    found: list[Mention] = []
    for m in (number_matches(text) if has_digit else ()):
        if found and m.start() < found[-1].end:  # the 1 of the unit "1/s" after a number
            continue
        sign, num, den, mant, e1, e2, e3 = m.groups()  # one call, not one per group
        if num:
            divisor = float(den)
            if divisor == 0:
                continue
            value = float(num) / divisor
        elif mant:
            value = digits_value(mant)
            exp = e1 or e2
            if exp:
                value *= _power_of_ten(exp)
        else:
            value = _power_of_ten(e3)
        if not math.isfinite(value):  # "1e999": no number a float holds, so none read
            continue
        if sign == "-":
            value = -value
        mention = _with_unit(text, value, m.start(), m.end())
        if found and _SPACED_GROUP.fullmatch(m.group()) and not found[-1].unit_words:
            joined = _spaced_thousands(text, found[-1], mention)
            if joined is not None:
                found[-1] = joined
                continue
        found.append(mention)
    if not number_words:  # number_matches finds them in order
        return found
    for m in word_runs(text):
        value = words_value(m.group())
        if value is None:
            continue
        mention = _with_unit(text, value, m.start(), fraction_of_end(text, m))
        if value == 1 and not _has_unit(mention):  # "one of the bulbs" is not a quantity
            continue
        found.append(mention)
    found.sort(key=lambda x: x.start)
    return found


def _power_of_ten(exp: str) -> float:
    """10 to the power `exp` (digits), inf past the largest float (`10.0 ** 999` raises)."""
    return float(f"1e{int(exp)}")


_SPACED_GROUP = re.compile(r"\d{3}")
_SPACED_NUMBER = re.compile(r"[-+]?\d{1,3}(?: \d{3})*")
_GROUPS = re.compile(r"\d{3}(?: \d{3})*(?![\d.,])")


def _spaced_thousands(text: str, before: Mention, group: Mention) -> Mention | None:
    """"20 000 Hz" as 20000 Hz: a number of at most three digits (or already grouped), one
    space, three digits, and after the last such group a unit; without the unit they stay
    two numbers ("bulbs 1 234")."""
    if text[before.end:group.start] != " " or not _SPACED_NUMBER.fullmatch(text[before.start:before.end]):
        return None
    groups = _GROUPS.match(text, group.start)
    if groups is None or not _has_unit(_with_unit(text, 0.0, group.start, groups.end())):
        return None
    value = math.copysign(abs(before.value) * 1000 + group.value, before.value if before.value else 1.0)
    return Mention(value, group.unit_words, before.start, group.end)


def _has_unit(m: Mention) -> bool:
    return any(parse_unit(m.unit_words[:n]) for n in range(1, len(m.unit_words) + 1))


def _with_unit(text: str, value: float, start: int, end: int) -> Mention:
    tail = _UNIT_TAIL.match(text, end)
    if tail is None:
        return Mention(value, (), start, end)
    return Mention(value, _unit_words(tail.group("unit")), start, tail.end())


@lru_cache(maxsize=65536)  # students write the same few units after their numbers
def _unit_words(unit: str) -> tuple[str, ...]:
    """The candidate unit atoms and operators of the text after a number (`_UNIT_TAIL`)."""
    words = tuple(w for w in _ATOM_SPLIT.split(unit) if w and not w.isspace())
    # "meters per second", "metres a second": a division; trailing operators are dropped.
    return tuple("/" if w.lower() == "per" or (i and w.lower() in ("a", "an")) else w
                 for i, w in enumerate(words))


def symbol_said(doc, symbol: str, negated: Sequence[bool]) -> bool:
    """Does the answer use the quantity's symbol ("g") for its value, as a word of its own that
    no number precedes ("9.8 g" is grams) and no negation covers ("not g")?"""
    for t in doc:
        if t.text == symbol and not negated[t.i] and not (t.i > 0 and doc[t.i - 1].like_num):
            return True
    return False


# ----------------------------------------------------------------------------- checking
@dataclass(frozen=True)
class Check:
    """The verdict on one expected quantity: a value of QUANTITY_VALUES and the value."""

    status: str
    value: float  # in the expected unit (as written if the unit is wrong or missing); NaN


_RANK = {"correct": 0, "wrong_value": 1, "wrong_unit": 2, "no_unit": 3}


def within(value: float, q: Quantity) -> bool:
    """Is the value (in q.unit) within q's tolerance? Sign is ignored (see module doc)."""
    for v in (value, -value):
        if q.absolute_tolerance:
            if abs(v - q.value) <= q.tolerance:
                return True
        elif abs(v - q.value) <= q.tolerance * abs(q.value) + 1e-12:
            return True
    return False


@lru_cache(maxsize=256)
def expected_unit(unit: str) -> pint.Unit:
    """The rubric's unit. Question files are checked when loaded; this check also covers a
    question rebuilt from a model file, so that no text reaches pint unchecked."""
    problem = unit_problem(unit)
    if problem:
        raise ValueError(problem)
    return ureg().parse_units(unit.replace("^", "**") if unit else "dimensionless")


def check(q: Quantity, mentions: list[Mention], others: Sequence[Quantity] = ()) -> Check:
    """The best reading of the answer for quantity q (correct beats wrong_value beats ...).

    A number whose unit fits another quantity of the question (`others`) and not q is
    that quantity's, not a wrong unit for q.

    The verdict depends only on the numbers and their unit words, not on where they stand,
    and students write the same few ("9.8 m/s^2", "10 N"): it is worked out once per
    distinct set (pint's unit conversions are the expensive part), see `_check`.
    """
    said = tuple((m.value, math.copysign(1.0, m.value), _readable_words(m.unit_words))
                 for m in mentions)
    return _check(q, said, tuple(others))


def _readable_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """The unit words up to the first one no unit expression can hold ("m/s^2 because of
    gravity": m / s^2): every longer sequence has no pint reading (`parse_unit` gives up at
    that word), so the verdict is the same without them, and the cache of `_check` is hit
    by every answer that gives the same number and unit, whatever follows."""
    for n, w in enumerate(words):
        if ends_units(w):
            return words[:n]
    return words


@lru_cache(maxsize=65536)
def _check(q: Quantity, said: tuple[tuple[float, float, tuple[str, ...]], ...],
           others: tuple[Quantity, ...]) -> Check:
    """`check` on (value, sign of the value, unit words) of each number; the sign is part
    of the key because -0.0 == 0.0 and the verdict keeps the value as written."""
    mentions = [Mention(value, words, 0, 0) for value, _, words in said]
    target = expected_unit(q.unit)
    other_dims = {expected_unit(o.unit).dimensionality for o in others} - {target.dimensionality}
    if other_dims:
        mentions = [m for m in mentions if not _fits(m, other_dims)]
    if not mentions:
        return Check("missing", math.nan)
    dimensionless = target.dimensionality == ureg().dimensionless.dimensionality
    best: tuple[int, float, Check] | None = None
    for m in mentions:
        candidates = _readings(m, target)
        for status, value in candidates:
            if status in ("correct", "wrong_value"):
                status = "correct" if within(value, q) else "wrong_value"
            elif status == "no_unit" and (dimensionless or q.bare_number):
                status = "correct" if within(value, q) else "wrong_value"
            distance = abs(abs(value) - abs(q.value)) if math.isfinite(value) else math.inf
            key = (_RANK[status], distance, Check(status, value))
            if best is None or key[:2] < best[:2]:
                best = key
    assert best is not None
    return best[2]


@lru_cache(maxsize=1024)
def _energy_for_a_moment(unit: pint.Unit, target: pint.Unit) -> bool:
    """A moment (a force times a distance: N m) given in a unit of energy (J, kJ, eV) has
    the right dimension and the wrong quantity: teachers mark "20 J" wrong for a torque.
    The other way round, work given in newton metres, is accepted: N m is a joule."""
    def dims(u: pint.Unit) -> list:
        return [ureg().parse_units(name).dimensionality for name in u._units]
    force, length = ureg().newton.dimensionality, ureg().meter.dimensionality
    target_dims = dims(target)
    moment = MOMENT_UNIT in target._units or (force in target_dims and length in target_dims)
    return moment and MOMENT_UNIT not in unit._units and ureg().joule.dimensionality in dims(unit)


def _fits(m: Mention, dims: set) -> bool:
    words = m.unit_words
    return any(u.dimensionality in dims
               for n in range(len(words), 0, -1) for u in parse_unit(words[:n]))


def _readings(m: Mention, target: pint.Unit) -> list[tuple[str, float]]:
    """(status, value) for each way of reading the unit words after a number."""
    words = m.unit_words
    read = _read_as_written(m.value, words, target)
    if read[0][0] == "wrong_value":  # a reading of the expected dimension
        return read
    lettered = [w for w in words if any(c.isalpha() for c in w)]
    if read[0][0] == "wrong_unit" and lettered and all(w.isupper() for w in lettered):
        # "20 M/S", "72 KM/H": in capitals, a unit of another dimension (molar per siemens)
        # is no reading; the same letters in lower case may be
        lower = _read_as_written(m.value, tuple(w.lower() for w in words), target)
        if lower[0][0] == "wrong_value":
            return lower
    if lettered and all(w.islower() for w in lettered):
        # "20 n", "5 kj", "60 db", "20 nm" for a moment: in lower case, where nothing read as
        # written has the expected dimension, the letters as SI writes them may
        for variant in si_cases(words):
            cased = _read_as_written(m.value, variant, target)
            if cased[0][0] == "wrong_value":
                return cased
    return read


def _read_as_written(value: float, words: tuple[str, ...], target: pint.Unit) -> list[tuple[str, float]]:
    """[(status, value)]: the value in the expected unit (wrong_value, to be compared), else
    a wrong unit or no unit, reading the longest unit expression first."""
    wrong: list[tuple[str, float]] = []
    for n in range(len(words), 0, -1):  # longest unit expression first
        prefix = words[:n]
        if prefix[-1] in ("/", "*"):
            continue
        readings = parse_unit(prefix)
        for unit in readings:
            if unit.dimensionality == target.dimensionality and _energy_for_a_moment(unit, target):
                wrong = wrong or [("wrong_unit", value)]
            elif unit.dimensionality == target.dimensionality:
                converted = ureg().Quantity(value, unit).to(target).magnitude
                return [("wrong_value", float(converted))]
        if readings and not wrong and not (
                readings[0].dimensionality == ureg().dimensionless.dimensionality):
            wrong = [("wrong_unit", value)]
    return wrong or [("no_unit", value)]
