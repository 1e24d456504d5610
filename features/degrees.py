"""Words of degree, the comparisons an answer makes: "faster", "more slowly", "less dense",
"not as dense as", "twice as far", "half as heavy", "better", "a lower pitch", "the frequency
increases". What the reference answers' comparisons and quantities that go together are read
from (`comparisons`, `covariations`); by word order, on the fallback pipeline and a parsed one
alike."""

from __future__ import annotations

from .antonyms import ANTONYMS, DEGREE_PAIRS, DEGREES
from .lexicon import flips_next, is_content

#: The keys of "more" and "less" and the words read as them ("bigger", "lower"): a degree,
#: never a thing compared ("more heat": "heat").
MORE_LESS = frozenset({"more", "less"})
#: Words that make a degree stronger and name nothing ("much greater", "far bigger").
INTENSIFIERS = frozenset({"much", "many", "far", "even", "lot", "bit", "way"})
#: Words before "as" that make "as far" a comparison: "twice as far" is further, "half as far" nearer.
_TIMES = frozenset({"twice", "double", "times", "triple", "thrice", "half"})
#: Words that start a degree of their own ("as" is one where "not as dense as" made it "less").
_STARTS = frozenset({"better", "worse", "more", "less", "as"})
#: Scales whose words have a second sense except as comparisons: "shorter" is less long
#: where "short" may be "a short circuit", "lighter" less heavy where "light" may be a lamp.
_COMPARED_PAIRS = [("long", "short"), ("heavy", "light"), ("wide", "narrow"), ("tight", "loose"),
                   ("deep", "shallow"), ("old", "young")]
#: The ends of those scales said without comparing ("a long handle", "a short string"): a
#: word of degree beside a comparison in a sentence, as "far" is. Not "light", which has a
#: second sense, nor "heavy" without it ("even a heavy load has a small moment; further out
#: it must be lighter" paired a heavy load with a small moment), nor old and young.
_PLAIN_COMPARED = frozenset(w for pair in _COMPARED_PAIRS for w in pair) - {"heavy", "light", "old", "young"}
#: Nouns of general English that name a scale, and the word of its high end: a degree said
#: of one is a comparison on that scale ("a higher speed" is "faster", "the weight is
#: bigger" "heavier", "a smaller distance" "nearer"; `degree_at`).
SCALE_NOUNS = {"speed": "fast", "velocity": "fast", "weight": "heavy", "length": "long", "width": "wide",
               "depth": "deep", "strength": "strong", "temperature": "hot", "distance": "far",
               "loudness": "loud", "brightness": "bright", "thickness": "thick", "density": "dense"}

#: Nouns of physics that name a quantity of their own, whoever's it is: "the adult's moment is
#: bigger" measures the moment, where "the drum's skin is bigger" measures the drum
#: (`clauses.noun_before`). Physics in general, no topic's.
QUANTITY_NOUNS = frozenset(SCALE_NOUNS) | {
    "force", "moment", "pressure", "energy", "power", "frequency", "pitch", "amplitude", "wavelength",
    "mass", "volume", "area", "current", "voltage", "resistance", "acceleration", "momentum"}


#: Keys of a repeated movement: how fast one goes is how often, a frequency ("vibrates faster",
#: "quicker vibrations", "the pendulum swings more slowly"). Physics in general, no topic's.
REPEATED = frozenset({"vibrate", "vibration", "oscillate", "oscillation", "swing", "wobble"})
#: Words between such a movement and its degree ("vibrates much faster", "vibrate a lot quicker"),
#: at most `_MOST_RATE_BETWEEN` of them.
_RATE_BETWEEN = frozenset({"be", "get", "a", "lot", "very", "much", "so", "more", "back", "and",
                           "forth", "to", "fro"}) | INTENSIFIERS
_MOST_RATE_BETWEEN = 3


def as_frequency(keys: list[str], i: int, end: int, scale: str) -> str:
    """The scale of the degree at tokens i to end: "frequency" where it says how fast a
    repeated movement goes ("vibrates faster", "faster vibrations", "vibrations are
    quicker") or how many there are each second ("fewer times per second", "more vibrations
    a second"), else `scale`."""
    if keys[end:end + 2] in (["per", "second"], ["a", "second"], ["each", "second"], ["every", "second"]):
        return "frequency"
    if scale != "fast":
        return scale
    if end < len(keys) and keys[end] in REPEATED:
        return "frequency"
    j = i - 1
    while j >= 0 and keys[j] in _RATE_BETWEEN:
        j -= 1
    return "frequency" if j >= 0 and keys[j] in REPEATED and i - j - 1 <= _MOST_RATE_BETWEEN else scale


def scale_words(scale: str) -> frozenset[str]:
    """The keys that say a scale, either way, and the nouns that name it: {"fast", "slow",
    "speed", "velocity"} for "fast", {"long", "short", "length"} for "long", a frequency's
    with the keys of a repeated movement ("vibrates faster"), the scale alone for any other
    ("pitch")."""
    if scale == "frequency":  # "vibrates faster" (`as_frequency`)
        return REPEATED | {scale}
    for pair in DEGREE_PAIRS + _COMPARED_PAIRS + [("better", "worse")]:
        if scale in pair:
            return frozenset(pair) | {noun for noun, end in SCALE_NOUNS.items() if end in pair}
    return frozenset({scale})


def degree_of(key: str, compared: bool = False) -> tuple[str, int]:
    """The scale a word of degree measures and which way: ("fast", 1) for "fast", ("fast", -1)
    for "slow", ("more", -1) for "less"; any other word measures its own scale, (key, 1).
    `compared`: the word is a comparison ("shorter", "more long"), whose scale the pairs of
    `_COMPARED_PAIRS` also give. A noun that names a scale measures it (`SCALE_NOUNS`:
    "speed" is ("fast", 1))."""
    key = SCALE_NOUNS.get(key, key)
    for high, low in (DEGREE_PAIRS + _COMPARED_PAIRS) if compared else DEGREE_PAIRS:
        if key in (high, low):
            return high, 1 if key == high else -1
    return key, 1


def degrees(lowers: list[str], keys: list[str], negated: list[bool]) -> list[tuple[int, int, str, int]]:
    """(start, end, scale, sign) of each degree of a text, in order, the sign turned where the
    degree is denied ("does not vibrate faster"). Only the tokens that may start one are
    looked at: most words of an answer are none."""
    out = []
    end = 0
    for i in [i for i, (lower, key) in enumerate(zip(lowers, keys))
              if lower in _STARTS or key in MORE_LESS or (lower[-2:] == "er" and lower != key) or lower in _TIMES]:
        if i < end:
            continue
        found = degree_at(lowers, keys, i)
        if found is None:
            continue
        end, scale, sign = found
        out.append((i, end, as_frequency(keys, i, end, scale), -sign if any(negated[i:end]) else sign))
    return out


def degree_at(lowers: list[str], keys: list[str], i: int) -> tuple[int, str, int] | None:
    """(the end of the degree's words, its scale, its sign) for a comparison starting at
    token i, or None: (i + 1, "fast", -1) for "slower", (i + 2, "dense", -1) for "less
    dense", (i + 1, "more", 1) for "bigger"."""
    lower, key = lowers[i], keys[i]
    if lower in ("better", "worse"):
        return i + 1, "better", 1 if lower == "better" else -1
    if lower == "as" and i and keys[i - 1] == "not" and i + 1 < len(keys) and lowers[i + 1] in ANTONYMS \
            and lowers[i + 1] != keys[i + 1]:  # "not as far": the word as written, the denied "as" turns it
        scale, way = degree_of(lowers[i + 1], compared=True)
        return i + 2, scale, way
    if lower in _TIMES and i + 2 < len(keys) and lowers[i + 1] == "as" and is_content(keys[i + 2]):
        scale, way = degree_of(keys[i + 2], compared=True)  # "twice as far" is further, "half as far" nearer
        return i + 3, scale, way * (-1 if lower == "half" else 1)
    if lower in MORE_LESS or (lower == "as" and key == "less"):
        sign = 1 if key == "more" else -1
        nxt = i + 1
        if nxt < len(keys) and is_content(keys[nxt]) and lowers[nxt] != "than":
            scale, way = degree_of(keys[nxt], compared=True)
            if flips_next(lower, keys[nxt]):  # "less bright" is read "dim": the "less" is used
                return nxt + 1, scale, way
            return nxt + 1, scale, sign * way
        return nxt, "more", sign
    if key in MORE_LESS:  # "bigger", "lower", "increases"
        if i + 1 < len(keys) and keys[i + 1] == "enough":
            return None  # "big enough to turn the bolt": a threshold, no comparison
        sign = 1 if key == "more" else -1
        noun = i + 1 if i + 1 < len(keys) and keys[i + 1] in SCALE_NOUNS else _scale_named_before(keys, i)
        if noun is not None:  # "a higher speed", "the speed of light is bigger": faster
            scale, way = degree_of(keys[noun], compared=True)
            return (i + 2 if noun == i + 1 else i + 1), scale, sign * way
        return i + 1, "more", sign
    if lower.endswith("er") and lower != key and is_content(key) and key.isalpha():  # "faster"
        scale, way = degree_of(key, compared=True)
        if scale == "long" and i + 1 < len(keys) and keys[i + 1] in SCALE_NOUNS:
            noun_scale, noun_way = degree_of(keys[i + 1])  # "a longer distance" is further
            return i + 2, noun_scale, way * noun_way
        return i + 1, scale, way
    return None


#: Words between a thing and a word of degree said of it ("the speed is much bigger").
_SAID_OF = frozenset({"be", "get", "become", "a", "so", "very"}) | INTENSIFIERS


def _scale_named_before(keys: list[str], i: int) -> int | None:
    """Where the thing a word of degree at i is said of is a noun that names a scale ("its
    speed is bigger", "the speed of light is bigger than ..."), its place; else None."""
    j = i - 1
    while j >= 0 and keys[j] in _SAID_OF:
        j -= 1
    if j < 0:
        return None
    if keys[j] in SCALE_NOUNS:  # "its speed is bigger", "the speed increases"
        return j
    for k in range(j - 1, max(-1, j - 4), -1):  # "the speed of (the) light is", "the density of hot air is"
        if keys[k] == "of":
            return k - 1 if k >= 1 and keys[k - 1] in SCALE_NOUNS else None
        if not (keys[k] in ("the", "a", "an") or (is_content(keys[k]) and keys[k] not in _SAID_OF)):
            return None
    return None


def plain_degrees(lowers: list[str], keys: list[str], found: list[tuple[int, int, str, int]]) -> list[int]:
    """Where the text has a word of degree that compares nothing ("far", "smooth", "close to";
    `antonyms.DEGREES`; "long", "narrow": `_PLAIN_COMPARED`), not a word of a comparison
    already read (`found`, from `degrees`) nor an -er form ("rougher")."""
    taken = {j for i, end, _, _ in found for j in range(i, end)}
    return [i for i, key in enumerate(keys)
            if (key in DEGREES or key in _PLAIN_COMPARED) and key not in MORE_LESS and i not in taken
            and not (lowers[i][-2:] == "er" and lowers[i] != key)]
