"""How students spell units, read by pint: "amps", "hz", "ms-2", "m/s2", "degrees C",
"square metre", and lower-case SI symbols ("20 n", "5 kj"). `parse_unit` gives every reading
of the words after a number; `quantities` picks the one with the expected dimension."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

import pint

from knowledge.question_quantities import unit_registry


def ureg() -> pint.UnitRegistry:
    """The one unit registry, the question loader's: loading pint's definitions takes a
    fifth of a second, and a unit the loader accepted is read the same way here."""
    return unit_registry()


#: English words pint reads as units (a = year, in = inch, are = 100 m²): never units here.
NOT_UNITS = frozenset({"a", "an", "in", "at", "as", "are", "e", "c", "pi", "it", "is", "be",
                       "or", "to", "of", "on", "the", "and", "by", "so", "if", "do", "up",
                       "i", "we", "me", "t", "d", "b", "y", "x", "u", "p", "st", "nt",
                       # things students count ("one pole of the magnet", "two steel bars",
                       # "one hand", "three points") that pint reads as old or rare units
                       "pole", "poles", "rod", "rods", "bars", "stone", "stones", "hand", "hands",
                       "point", "points", "chain", "chains", "link", "links", "knot", "knots",
                       "cup", "cups", "barn", "barns", "section", "sections", "unit", "units",
                       "grain", "grains", "dram", "drams", "gill", "gills", "peck", "bag", "bags"})
#: Spellings pint does not know or reads differently ("amps" is attometres per second).
ALIASES = {"amps": "A", "amp": "A", "hz": "Hz", "mps": "m/s", "kmh": "km/h", "kmph": "km/h",
           "ohms": "ohm", "Ω": "ohm", "°c": "degC", "°C": "degC", "°F": "degF", "%": "percent",
           "sec": "s", "secs": "s", "mins": "min", "hrs": "h", "kgs": "kg", "meter": "m",
           "meters": "m", "metre": "m", "metres": "m", "v": "V", "kv": "kV", "mv": "mV",
           "ma": "mA", "kohm": "kiloohm", "kilohms": "kiloohm", "ohm": "ohm",
           # things counted: "440 vibrations per second" is 440 Hz (pint's "cycle" is a turn, 2 pi)
           **{w: "count" for w in ("vibration", "vibrations", "oscillation", "oscillations", "cycle",
                                   "cycles", "wave", "waves", "times")}}


def _atom_expr(atom: str) -> list[str]:
    """pint spellings of one unit atom: `s^2`/`s2` -> `s**2`; `ms-2` -> also `m*s**-2`."""
    m = re.fullmatch(r"([a-zA-Zμ°Ω%]+)\s*(?:\^|\*\*)?\s*\(?([-+]?\d)?\)?", atom)
    if not m:
        return []
    letters, exp = m.group(1), m.group(2)
    if letters in ("C", "F") and not exp:  # coulomb and farad, or degrees: the expected dimension decides
        return [letters, f"deg{letters}"]
    if letters not in ("A", "C", "F"):
        # a spelling of our own as written ("amps"), else in lower case ("HZ", "Ohms") unless
        # pint reads it as written: "MV" is megavolts, as SI writes it, not millivolts
        alias = ALIASES.get(letters)
        if alias is None and letters.lower() in ALIASES and not _reads_alone(letters):
            alias = ALIASES[letters.lower()]
        letters = alias or letters
    if letters.lower() in NOT_UNITS and letters not in ("A", "C", "T"):
        return []
    suffix = f"**{exp}" if exp else ""
    out = [f"{letters}{suffix}" if not letters.startswith("**") else letters]
    if len(letters) > 2 and letters.isalpha() and not letters.islower():
        out.append(f"{letters.lower()}{suffix}")  # "Newtons", "Volts" at a sentence start
    if len(letters) in (2, 3) and letters.isalpha() and (exp or letters[0].isupper()):
        # ms-2 = m*s**-2; Ns = N*s (pint knows no "Ns"): the expected dimension decides
        out += [f"{letters[:k]}*{letters[k:]}{suffix}" for k in range(1, len(letters))]
    return out


DEGREE_WORDS = frozenset({"degrees", "degree", "deg"})
SCALES_OF = {"c": "degC", "celsius": "degC", "centigrade": "degC", "f": "degF", "fahrenheit": "degF"}


def _degrees(words: tuple[str, ...]) -> tuple[str, ...]:
    """"degrees C", "deg celsius", "degrees Fahrenheit" as one temperature unit."""
    out: list[str] = []
    for w in words:
        if out and out[-1].lower() in DEGREE_WORDS and w.lower() in SCALES_OF:
            out[-1] = SCALES_OF[w.lower()]
        else:
            out.append(w)
    return tuple(out)


@lru_cache(maxsize=65536)  # the words after a number vary with the answer ("m/s^2 because ...")
def parse_unit(words: tuple[str, ...], skip_unknown_atoms: bool = True) -> tuple[pint.Unit | None, ...]:
    """Every pint reading of the unit words (several when a spelling is ambiguous).

    `skip_unknown_atoms`: a spelling of one word that pint cannot read on its own ("because",
    "think") is not tried in the expressions: pint fails on any expression holding a name
    it does not know, and a failed parse is its slowest path, once per word sequence after
    a number. The readings are the same (tests/features/test_fast_paths.py)."""
    exprs = [""]
    pending_op = ""
    power = ""  # "square metre", "cubic centimetre": the power of the next atom
    words = _degrees(words)
    for w in words:
        if w in ("/", "*"):
            pending_op = w
            continue
        if w == "1" and exprs == [""]:  # "1/s"
            exprs = ["1"]
            continue
        if w.lower() in ("square", "cubic") and not power:
            power = "**2" if w.lower() == "square" else "**3"
            continue
        w = {"squared": "**2", "cubed": "**3"}.get(w.lower(), w)
        if w in ("**2", "**3"):  # squared / cubed applies to the previous atom
            exprs = [e + w for e in exprs]
            continue
        options = [o + power for o in _atom_expr(w)] if power and "**" not in w else _atom_expr(w)
        power = ""
        if skip_unknown_atoms:
            options = [o for o in options if _reads_alone(o)]
        if not options:
            return ()
        op = pending_op or "*"
        # "per second" alone is a reciprocal: "440 per second" is 440 Hz
        exprs = [(f"{e}{op}{o}" if e else f"1/{o}" if op == "/" else o) for e in exprs for o in options]
        pending_op = ""
    readings = []
    for expr in exprs:
        if not expr:
            continue
        try:
            readings.append(ureg().parse_units(expr.replace("μ", "u")))
        except Exception:  # pint raises several error types for unreadable expressions
            continue
    return tuple(readings)


@lru_cache(maxsize=65536)
def _reads_alone(expr: str) -> bool:
    """Can pint read this spelling of one unit word on its own?"""
    try:
        ureg().parse_units(expr.replace("μ", "u"))
    except Exception:  # pint raises several error types for unreadable expressions
        return False
    return True


@lru_cache(maxsize=65536)
def ends_units(word: str) -> bool:
    """Does `parse_unit` return no reading for any sequence holding this word? Operators,
    squared/cubed and the words of "degrees C" are never the end (they join other words)."""
    low = word.lower()
    if word in ("/", "*", "1") or low in ("squared", "cubed", "square", "cubic") or low in DEGREE_WORDS \
            or low in SCALES_OF:
        return False
    return not any(_reads_alone(o) for form in (word, *_si_forms(word)) for o in _atom_expr(form))


_SI_PREFIXES = frozenset("kmcdunpμ")


def si_cases(words: tuple[str, ...], most_atoms: int = 3) -> list[tuple[str, ...]]:
    """The unit words with their letters as SI writes units: "N" for "n", "kJ" for "kj",
    "dB" for "db", "Nm" for "nm" (at most `most_atoms` words recased at once)."""
    options = [[w, *_si_forms(w)] for w in words]
    if sum(len(o) > 1 for o in options) > most_atoms:
        return []
    return [v for v in itertools.product(*options) if v != words]


@lru_cache(maxsize=4096)
def _si_forms(word: str) -> tuple[str, ...]:
    """A lower-case unit word of up to three letters as SI would write it: a capital first
    ("n" -> "N", "pa" -> "Pa") or after a prefix letter ("kj" -> "kJ", "db" -> "dB")."""
    m = re.fullmatch(r"([a-zμ]{1,3})((?:\^|\*\*)?-?\d)?", word)
    if m is None or (word in NOT_UNITS and word not in ("n", "t")) or word in DEGREE_WORDS or word == "per":
        return ()
    letters, rest = m.group(1), m.group(2) or ""
    forms = [letters.capitalize()]
    if len(letters) >= 2 and letters[0] in _SI_PREFIXES:
        forms.append(letters[0] + letters[1:].capitalize())
    return tuple(f + rest for f in dict.fromkeys(forms) if f != letters)
