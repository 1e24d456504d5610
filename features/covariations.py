"""Two quantities a reference answer says go together, found in answers whichever end they
start from. "A longer string gives a lower pitch" is said by "a shorter string gives a
higher pitch" (both the other way), and said the other way round by "a shorter string gives a
lower pitch" (one of the two turned). The reference words read the first as half wrong
("higher pitch" is the opposite of "lower pitch", and "shorter" no word of the reference)
and the last as half right.

`ref:<one>_with_<other>` ("ref:long_with_pitch") is present where a sentence of an answer
says both quantities change the way the reference has them go together, negated where it
has one the other way, absent otherwise (not both said in one sentence).

The quantities are the words of degree of one sentence of a reference answer on two scales
(`degrees.degree_at`: "longer", "more slowly", "a lower pitch", "the frequency
increases"); a word such as "higher" or "increases" measures the noun after it ("a higher
pitch", "the higher the pitch", "more of the light") or, without one, the thing its clause
names before it ("the pitch gets higher", "the time for one swing increases"). A degree
followed by "with" and a noun that names a scale changes as that quantity grows ("the force
gets weaker with distance": the further, the weaker). A degree after "than" belongs to the
other thing of a comparison and does not count. Where the reference answers name a quantity
more ways than one ("a small force gives a large force on the nut"), a quantity followed by
"on" and a thing is another quantity ("force_on_nut"): the sentence pairs each with the
others, never the two forces with each other; an answer's force on a thing the reference
does not name is its plain force. A denied degree
("does not vibrate faster") counts the other way. Read by word order, on the fallback
pipeline and a parsed one alike.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .clauses import Words, clause_bounds, noun_before
from .degrees import MORE_LESS, SCALE_NOUNS, as_frequency, degree_of
from .lexicon import feature_suffix, is_content
from .opposite_words import opposite_text
from .reading import Analysis

_SENTENCE_ENDS = frozenset({".", "!", "?", ";"})
#: What ends a part of a sentence: where an answer says a scale both ways in a sentence, a
#: part that says each of two scales one way still pairs them ("more area means more
#: pressure, boots have less pressure"). Not in a reference answer, whose pairs are the
#: features: there a sentence that says a scale both ways gives no pair.
_PART_ENDS = _SENTENCE_ENDS | {","}
_ARTICLES = frozenset({"the", "a", "an", "its", "their"})
#: Words after "on" that name no thing a quantity acts on ("the force on it").
_PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those", "one"})


@dataclass(frozen=True)
class Covariation:
    """Two scales a reference answer says go together (`sign` 1) or against each other (-1)."""

    name: str  # feature name part: long_with_pitch
    scales: tuple[str, str]
    sign: int
    text: str  # 'says "longer" goes with "lower pitch"'
    reversed_text: str  # '"longer" with "higher pitch"'


@dataclass(frozen=True)
class Degree:
    sentence: int
    scale: str
    sign: int
    text: str
    keys: tuple[str, ...]
    part: int = 0  # the part of the text between commas and sentence ends
    two_things: bool = False  # an answer's comparison of two things (`_compares_two_things`)


def reference_covariations(analyses: Sequence[Analysis]) -> list[Covariation]:
    """The pairs of quantities the sentences of the reference answers have go together,
    each pair of scales once."""
    out: dict[tuple[str, str], Covariation] = {}
    found = [measured_degrees(Words.of(a)) for a in analyses]
    # a quantity is named with what it acts on ("the force on the nut") only where the
    # reference answers name it more ways than one ("a small force gives a large force on the nut")
    ways: dict[str, set[str]] = {}
    for d in (d for degrees in found for d in degrees):
        ways.setdefault(base_scale(d.scale), set()).add(d.scale)
    for degrees in found:
        degrees = [d if len(ways[base_scale(d.scale)]) > 1 else replace(d, scale=base_scale(d.scale))
                   for d in degrees]
        signs = _signs_by(degrees, "sentence")  # a scale said both ways goes with nothing there
        degrees = [d for d in degrees if len(signs[d.sentence][d.scale]) == 1]
        for i, one in enumerate(degrees):
            for other in degrees[i + 1:]:
                if one.sentence != other.sentence or base_scale(one.scale) == base_scale(other.scale):
                    continue  # "a small force gives a large force on the nut" is no pair
                scales = (one.scale, other.scale)
                if scales in out or scales[::-1] in out:
                    continue
                turned = _turned(other.text, other.keys)
                out[scales] = Covariation(
                    feature_suffix((one.scale, "with", other.scale)), scales, one.sign * other.sign,
                    f'"{one.text}" goes with "{other.text}"',
                    f'"{one.text}" with "{turned}"' if turned else f'"{one.text}" with the opposite of "{other.text}"')
    return list(out.values())


def _turned(text: str, keys: tuple[str, ...]) -> str | None:
    """The words of a degree said the other way: "more quickly" for "more slowly" (not "less
    slowly") where the word after "more" or "less" has an opposite of its own form, else the
    words with their first opposite ("higher pitch" for "lower pitch")."""
    first, _, rest = text.partition(" ")
    if keys[0] in MORE_LESS and len(keys) > 1 and rest:
        inner = opposite_text(rest, keys[1:])
        if inner is not None and inner[-2:] == rest[-2:]:  # "slowly" -> "rapidly", not "easily" -> "hard"
            return f"{first} {inner}"
    return opposite_text(text, keys)


def covariation_states(words: Words, covariations: Sequence[Covariation]) -> list[str]:
    """"present", "negated" or "absent" for each covariation, in one answer."""
    states = ["absent"] * len(covariations)
    if not covariations:
        return states
    degrees = _as_the_reference_has(measured_degrees(words, answer=True), covariations)
    by_sentence, by_part = _signs_by(degrees, "sentence"), None
    # A comparison of two things says a pair the right way round, never the other way: the
    # other degree may be the second thing's ("the snare vibrates faster than the bass drum,
    # so the bass drum has a lower pitch"; `measured_degrees`)
    compared = {(d.sentence, d.scale) for d in degrees if d.two_things}
    compared_parts = {(d.part, d.scale) for d in degrees if d.two_things}
    for j, c in enumerate(covariations):
        for sentence, signs in by_sentence.items():
            state = _state(signs, c, any((sentence, scale) in compared for scale in c.scales))
            if state is None and c.scales[0] in signs and c.scales[1] in signs:  # said both ways
                if by_part is None:  # read only where a sentence says a scale both ways
                    by_part = _signs_by(degrees, "part")
                parts = dict.fromkeys(d.part for d in degrees if d.sentence == sentence)
                state = next((s for s in (_state(by_part[p], c,
                                                 any((p, scale) in compared_parts for scale in c.scales))
                                          for p in parts) if s is not None), None)
            if state == "present":
                states[j] = state
                break
            if state is not None:
                states[j] = state
    return states


#: What joins a quantity to the thing it acts on: "the force on the lid".
_ON = "_on_"


def base_scale(scale: str) -> str:
    """The quantity of a scale, without the thing it acts on: "force" for "force_on_lid"."""
    return scale.split(_ON, 1)[0]


def _acted_on(lowers: list[str], keys: list[str], noun: int, stop: int) -> int | None:
    """Where "on" follows a quantity noun at `noun`, the place of the thing it acts on ("a
    large force on the lid": lid), else None: a reference that says "a small force gives a
    large force on the nut" speaks of two forces (`force`, `force_on_nut`), not of one force
    both ways."""
    j = noun + 1
    if j >= stop or lowers[j] != "on":
        return None
    j += 1
    while j < stop and lowers[j] in _ARTICLES:
        j += 1
    if j >= stop or not is_content(keys[j]) or lowers[j] in _PRONOUNS:
        return None
    while j + 1 < stop and is_content(keys[j + 1]) and lowers[j + 1] not in _PRONOUNS:
        j += 1  # "the paint lid": the lid
    return j


def _as_the_reference_has(degrees: list[Degree], covariations: Sequence[Covariation]) -> list[Degree]:
    """An answer's degrees on the scales the reference's pairs use: a force on a thing the
    reference names no force on is the reference's plain force ("less force on the handle"),
    and a plain force is the one force the reference names with what it acts on, where it
    names no plain one ("less force" for "a smaller force on the snow")."""
    scales = {s for c in covariations for s in c.scales}
    acted = {}
    for s in scales:
        if _ON in s:
            acted.setdefault(base_scale(s), []).append(s)
    out = []
    for d in degrees:
        scale = d.scale
        if scale not in scales:
            base = base_scale(scale)
            if base != scale and base in scales:
                scale = base
            elif base == scale and len(acted.get(base, ())) == 1:
                scale = acted[base][0]
        out.append(d if scale == d.scale else replace(d, scale=scale))
    return out


def _state(signs: dict[str, set[int]], c: Covariation, compared: bool) -> str | None:
    """"present" or "negated" where `signs` say each scale of `c` one way, else None; None
    too for the other way round where a scale of `c` is said by a comparison of two things
    (`compared`)."""
    one, other = signs.get(c.scales[0]), signs.get(c.scales[1])
    if not one or not other or len(one) > 1 or len(other) > 1:
        return None
    if next(iter(one)) * next(iter(other)) == c.sign:
        return "present"
    return None if compared else "negated"


def _signs_by(degrees: Sequence[Degree], where: str) -> dict[int, dict[str, set[int]]]:
    """Sentence (`where` "sentence") or part of one ("part") -> scale -> the ways it says the
    scale. A scale a sentence says both ways ("the load is close to the pivot and his effort
    is far from it") goes with nothing there, in a reference answer as in an answer: which
    end goes with the other degree is whose it is, which word order does not tell. In an
    answer, a part of such a sentence that says each of two scales one way still pairs them
    (`covariation_states`)."""
    out: dict[int, dict[str, set[int]]] = {}
    for d in degrees:
        out.setdefault(getattr(d, where), {}).setdefault(d.scale, set()).add(d.sign)
    return out


def measured_degrees(words: Words, answer: bool = False) -> list[Degree]:
    """The degrees of the text (not after "than"), and the plain words of degree of a
    sentence that has one ("you are far from the pivot, so you need less force": "far" goes
    with "less force"; `_plain_degrees`). In an `answer`, a degree that compares two things
    that differ on no other scale ("the snare vibrates faster than the bass drum") is marked
    (`Degree.two_things`): the other degree of its sentence ("so the bass drum has a lower
    pitch") may be either thing's, which word order does not tell."""
    lowers, keys = words.lowers, words.keys
    ends = [j for j, w in enumerate(lowers) if w in _SENTENCE_ENDS]  # in order: bisect finds a sentence
    part_ends = [j for j, w in enumerate(lowers) if w in _PART_ENDS]
    out: list[Degree] = []
    for i, end, scale, sign in words.degrees:
        start, stop = clause_bounds(lowers, i)
        if "than" in lowers[start:i]:  # after "than": the other thing's
            continue
        two_things = answer and _compares_two_things(words, end, stop)
        at: Sequence[int] = range(i, end)
        if scale == "more":
            scale, at = measured_noun(lowers, keys, start, i, end)
            scale = as_frequency(keys, i, at[-1] + 1, scale)  # "fewer times per second"
            if scale in SCALE_NOUNS:  # "the smaller the distance" is nearer
                scale, way = degree_of(scale, compared=True)
                sign *= way
            elif scale != "more":  # "a large force on the lid": another force than yours
                noun = at[-1] if at[-1] >= end else at[0]
                thing = _acted_on(lowers, keys, noun, stop)
                if thing is not None:
                    scale = f"{scale}{_ON}{keys[thing]}"
                    at = sorted({*at, *range(noun + 1, thing + 1)})
        sentence = bisect_left(ends, i)
        out.append(Degree(sentence, scale, sign, " ".join(lowers[j] for j in at), tuple(keys[j] for j in at),
                          bisect_left(part_ends, i), two_things))
        grows = _grows_with(lowers, keys, end)
        if grows is not None:  # "the force decreases with distance": as the distance grows
            grows_scale, way = degree_of(keys[grows], compared=True)
            out.append(Degree(sentence, grows_scale, way, " ".join(lowers[end:grows + 1]),
                              tuple(keys[j] for j in range(end, grows + 1)), bisect_left(part_ends, i)))
    if out:
        out += _plain_degrees(words, ends, part_ends, {d.sentence for d in out})
    return out


#: Words between "with" and the quantity that grows ("decreases with increasing distance").
_GROWING = frozenset({"increasing", "more", "greater", "bigger"})


def _grows_with(lowers: list[str], keys: list[str], end: int) -> int | None:
    """Where a degree is followed by "with" and a noun that names a scale ("gets weaker with
    distance", "increases with depth"), that noun's place: the degree changes as that quantity
    grows. Else None."""
    if end >= len(keys) or lowers[end] != "with":
        return None
    j = end + 1
    if j < len(keys) and lowers[j] in _GROWING:
        j += 1
    return j if j < len(keys) and keys[j] in SCALE_NOUNS else None


def _compares_two_things(words: Words, end: int, stop: int) -> bool:
    """Whether the word of degree ending at token `end` compares two things ("faster than the
    bass drum", "nearer the pivot than her hands"): "than" follows it in its clause with no
    other word of degree between, and what follows "than" is neither a number ("more than 10
    N") nor a thing with a degree of its own ("faster than a thick one": a thinner string's
    pitch against a thick one's, both ends of a pair)."""
    lowers = words.lowers
    than = next((j for j in range(end, stop) if lowers[j] == "than"), None)
    if than is None or any(end <= i < than for i, _, _, _ in words.degrees):
        return False
    if any(w[:1].isdigit() for w in lowers[than + 1:stop]):
        return False
    return not any(than < i < stop for i, _, _, _ in words.degrees) \
        and not any(than < i < stop for i in words.plain_degrees)


def _plain_degrees(words: Words, ends: list[int], part_ends: list[int], sentences: set[int]) -> list[Degree]:
    """The words of degree that compare nothing ("far", "slow", "close to") of the sentences
    that make a comparison: there they say one end of a scale that goes with the other
    degree. Not a word of a comparison already read, nor one after "than" or "as" ("not as
    far as"), nor an intensifier ("far bigger")."""
    lowers, keys, negated = words.lowers, words.keys, words.negated
    taken = {j for i, end, _, _ in words.degrees for j in range(i, end)}
    out = []
    for i in words.plain_degrees:
        key = keys[i]
        sentence = bisect_left(ends, i)
        if sentence not in sentences or (i and lowers[i - 1] in ("as", "so")):
            continue
        if i + 1 < len(keys) and (i + 1) in taken:  # "far bigger": the degree is the next word's
            continue
        start, _ = clause_bounds(lowers, i)
        if "than" in lowers[start:i]:
            continue
        scale, way = degree_of(key, compared=True)
        scale = as_frequency(keys, i, i + 1, scale)  # "the big drum vibrates slowly"
        out.append(Degree(sentence, scale, -way if negated[i] else way, lowers[i], (key,),
                          bisect_left(part_ends, i)))
    return out


def measured_noun(lowers: list[str], keys: list[str], start: int, i: int, end: int) -> tuple[str, Sequence[int]]:
    """The noun a "higher" or an "increases" (tokens i to end) measures, and the tokens that
    say it: the noun after it ("a higher pitch", "the higher the pitch", "more of the light",
    "fewer and fewer particles")
    or, without one, the noun before it (`noun_before`: "the pitch gets higher", "the time
    for one swing increases", "the air resistance is much greater")."""
    after = end
    while after + 1 < len(keys) and lowers[after] == "and" and lowers[after + 1] == lowers[end - 1]:
        after += 2  # "fewer and fewer air particles": the air's
    if after < len(keys) and keys[after] == "of":  # "blocks more of the light"
        after += 1
    if after + 1 < len(keys) and keys[after] in _ARTICLES:
        after += 1
    if after < len(keys) and is_content(keys[after]) and keys[after] not in MORE_LESS and keys[after] != "than":
        return keys[after], [*range(i, end), after]
    noun = noun_before(lowers, keys, start, i)
    if noun is None:
        return "more", range(i, end)
    return keys[noun], [noun, *range(i, end)]
