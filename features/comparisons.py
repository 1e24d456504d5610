"""Comparisons the reference answers make between two things, found in answers either way
round. "Metal is a better conductor of heat than wood" is said by "metal conducts heat better
than wood", "wood is a worse conductor than metal" and "heat moves better in metal than in
wood", and said the other way round by "wood is a better conductor than metal" and "wood
conducts heat better". All of these use the reference's own words, so the reference words
alone cannot tell them apart.

`ref:<one>_<degree>_than_<other>` ("ref:metal_better_than_wood") is present where an answer
compares the same two things the same way round, negated where it compares them the other
way round or denies the comparison ("metal is not a better conductor than wood"), absent
otherwise (another comparison, or one whose things are not both told apart).

A comparison is a word of degree with what it compares: "more" or "less" and the words read
as them ("bigger", "lower", "increases"), "better" and "worse", an -er form ("faster",
"denser"), "more X" and "less X" by X, "not as dense as" as "less dense"; a word and its
opposite measure one scale ("slower" is "less fast", `degrees.degree_of`). An answer's
comparison counts only on the reference's scale. The two things are the words after its
"than" (or the second "as"), and the first thing its clause names ("metal" in "metal conducts
heat better than wood"; not the verb's words), or, where the words after "than" start with a
preposition that also comes between the degree and "than" ("faster in metal than in wood"),
the words after that preposition, or where that preposition comes after the clause's thing
instead ("the particles in water are closer than in air"), the words after it. In an answer
without "than", the first thing is what the
clause names before the degree and the words after it up to an "as" ("heat moves faster in
metal"; not "the trailer's weight" of "a larger force to give the same push as the trailer's
weight"), nor after a "from" or "to", a join ("and steel rusts") or the next word of degree.
In a reference, the words between its first thing and the degree are said of that thing too,
so they do not name the second ("near the magnet its field is stronger than the Earth's
field" compares the magnet with the Earth, and "the field is stronger" says neither). A
distance is the thing's, not the point it is measured from: "further from the rock" is no
distance of the rock from the reference's pivot, and "the pivot is closer to your hand" says
the hand is closer to the pivot; after "and", "the hands are far" or "she is far" is said of
the hands or of her, not of the clause's first thing. A thing's prepositions are none of its
words ("louder through the table" shares nothing with "than through air"), and a bare "more"
("bigger", "large") that measures a thing the reference's comparison does not name ("a bigger
moment", "its energy is large", where the reference compares a force with a weight) is
another comparison. "half as far from the pivot as his sister" compares as "nearer than" does
(`degrees`), and two things said to be at the two ends of one scale make a comparison too:
"the mirror is smooth and the paper is rough" says "the mirror is smoother than the paper"
(`_opposed`), each thing with a phrase after it that says which one it is ("the particles in
a gas"). Read by word order, on the fallback pipeline and a parsed one alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .clauses import ENDS, JOINS, Words, clause_bounds, content, subject
from .covariations import measured_noun
from .degrees import SCALE_NOUNS, degree_of
from .lexicon import feature_suffix, is_content
from .reading import Analysis

#: Prepositions that can start both things ("in metal than in wood").
_PREPOSITIONS = frozenset({"in", "on", "at", "through", "for", "with", "to", "from", "of", "along",
                           "by", "into", "onto", "across", "near", "inside", "within"})


#: Words that stand for a thing without naming it: a reference's comparison whose clause
#: starts with one compares nothing an answer can name ("pass" is no thing).
_PRONOUNS = frozenset({"it", "they", "he", "she", "we", "you", "i", "this", "these", "those"})


@dataclass(frozen=True)
class Comparison:
    """One comparison of a reference answer: `first` is `sign` x more `degree` than `second`."""

    name: str  # feature name part: metal_better_than_wood
    degree: str
    sign: int
    first: frozenset[str]
    second: frozenset[str]
    text: str  # as written: "metal better than wood"
    reversed_text: str  # "wood better than metal"
    #: Where the degree is a bare "more" ("bigger", "less"): the words from one thing to the
    #: other ("the muscle's force must be much bigger than the ball's weight": muscle, force,
    #: ball, weight). An answer's "more" that measures another thing compares something else.
    words: frozenset[str] = frozenset()
    #: The words between the degree and "than": the point both are measured from ("further
    #: from the pivot than the nut": pivot). "the pivot is closer to your hand" says the hand
    #: is closer to the pivot.
    landmark: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Said:
    degree: str
    sign: int
    first: frozenset[str]
    second: frozenset[str]
    first_at: tuple[int, ...]
    second_at: tuple[int, ...]
    at: range  # the degree's tokens
    measured: str | None = None  # what a bare "more" measures ("a bigger moment": moment)
    opposed_at: int | None = None  # the other thing's word of degree, where the two are opposed (`_opposed`)
    #: The point measured from: in a reference, the words between the degree and "than"; in an
    #: answer without "than", those after its "from" or "to" ("closer to your hand": hand; "a
    #: longer distance from the pivot to her hands": pivot, hand).
    landmark: frozenset[str] = frozenset()


def reference_comparisons(analyses: Sequence[Analysis]) -> list[Comparison]:
    """The comparisons of the reference answers (read as answers are) that tell two things
    apart, each once."""
    out: dict[str, Comparison] = {}
    opposed: list[Comparison] = []  # after the comparisons with "than", whose texts read better
    for a in analyses:
        words = Words.of(a)
        lowers = words.lowers
        for said in _comparisons(words):
            # the words between the thing and its degree are said of it too ("near the bar
            # magnet its magnetic field is stronger than the Earth's magnetic field": the field
            # is no word of the Earth's alone)
            between = {a.text_keys[j] for j in range(said.first_at[-1] + 1, said.at.start)} if said.first_at else set()
            first, second = said.first - said.second, said.second - said.first - between
            if not first or not second:
                continue
            one = " ".join(lowers[i] for i in said.first_at if a.text_keys[i] in first)
            other = " ".join(lowers[i] for i in said.second_at if a.text_keys[i] in second)
            degree = " ".join(lowers[i] for i in said.at)
            name = feature_suffix((*sorted(first), said.degree, "than", *sorted(second)))
            if said.opposed_at is not None:  # "mirror smooth, paper rough"
                ends = degree, lowers[said.opposed_at]
                opposed.append(Comparison(name, said.degree, said.sign, first, second,
                                          f"{one} {ends[0]}, {other} {ends[1]}", f"{one} {ends[1]}, {other} {ends[0]}"))
                continue
            than = "as" if "as" in degree.split() else "than"  # "half as far as his sister"
            span = range(min((*said.first_at, said.at.start)), max((*said.second_at, said.at.stop - 1)) + 1)
            measured = {a.text_keys[i] for i in span if is_content(a.text_keys[i])} | {said.measured} \
                if said.measured else set()
            out.setdefault(name, Comparison(name, said.degree, said.sign, first, second,
                                            f"{one} {degree} {than} {other}", f"{other} {degree} {than} {one}",
                                            frozenset(measured), said.landmark))
    for comparison in opposed:
        out.setdefault(comparison.name, comparison)
    return list(out.values())


def comparison_states(words: Words, comparisons: Sequence[Comparison]) -> list[str]:
    """"present", "negated" or "absent" for each comparison, in one answer."""
    states = ["absent"] * len(comparisons)
    if not comparisons:
        return states
    said = _comparisons(words, answer=True)
    for j, c in enumerate(comparisons):
        for s in said:
            if s.degree != c.degree or (c.words and s.measured and s.measured not in c.words):
                continue  # another scale, or a "more" of another thing ("a bigger moment" for force)
            first, things = s.first, c.first | c.second
            if not s.second and not first & things and (first | s.landmark) & c.landmark:
                first = (first | s.landmark) - c.landmark  # "the pivot is closer to your hand": the hand is
            elif not s.second and s.landmark & things and not s.landmark & c.landmark:
                continue  # "further from the rock": measured from one thing, not from the pivot
            same = len(first & c.first) + len(s.second & c.second)
            other = len(first & c.second) + len(s.second & c.first)
            if same == other:
                continue
            way = s.sign * c.sign * (1 if same > other else -1)
            if way > 0:
                states[j] = "present"
                break
            states[j] = "negated"
    return states


def _comparisons(words: Words, answer: bool = False) -> list[_Said]:
    lowers, keys = words.lowers, words.keys
    out = []
    paired = _correlatives(words) if answer else set()
    starts = frozenset(i for i, _, _, _ in words.degrees)
    for i, end, degree, sign in words.degrees:
        if i in paired:
            continue
        start, stop = clause_bounds(lowers, i)
        start = _statement_start(lowers, keys, start, i)
        stop = max(stop, end)
        than = next((j for j in range(end, stop)
                     if lowers[j] == "than" or ("as" in lowers[i:end] and lowers[j] == "as")), None)
        landmark: tuple[int, ...] = ()
        if than is None:  # the words after the degree up to an "as" ("the same moment as ...")
            after = _after(lowers, starts, i, end, stop)
            first = subject(lowers, keys, start, i) + content(keys, after) if answer else ()
            second: tuple[int, ...] = ()
            if answer and after.stop < stop and lowers[after.stop] in _LANDMARKS:
                landmark = content(keys, range(after.stop + 1, next(
                    (j for j in range(after.stop + 1, stop) if lowers[j] == "as" or j in starts), stop)))
        else:
            landmark = content(keys, range(end, than))
            second = content(keys, range(than + 1, stop))
            first = subject(lowers, keys, start, i)
            if not answer and first and not _PRONOUNS.isdisjoint(lowers[start:first[0]]):
                first = ()  # "so they pass the vibrations on faster than air": no thing named
            if than + 1 < stop and lowers[than + 1] in _PREPOSITIONS:
                shared = [j for j in range(end, than) if lowers[j] == lowers[than + 1]]
                if shared:
                    first = content(keys, range(shared[-1] + 1, than))
                else:  # "the particles in water are closer than in air": water against air
                    before = [j for j in range(first[-1] + 1 if first else start, i) if lowers[j] == lowers[than + 1]]
                    first = (before and subject(lowers, keys, before[-1] + 1, i)) or first
        measured = measured_noun(lowers, keys, start, i, end)[0] if degree == "more" else None
        if measured in SCALE_NOUNS:  # "the distance to your hand is bigger": further
            degree, way = degree_of(measured, compared=True)
            sign, measured = sign * way, None
        first, second = _things(keys, first), _things(keys, second)
        out.append(_Said(degree, sign, frozenset(keys[j] for j in first), frozenset(keys[j] for j in second),
                         first, second, range(i, end), None if measured == "more" else measured,
                         landmark=frozenset(keys[j] for j in _things(keys, landmark))))
    return out + _opposed(words)


#: Words after a join that start a statement about another thing: a person or "there" ("the
#: rock is heavy and she is further away"); "it" and "they" may still be the clause's thing
#: ("the box is big and it makes the air vibrate more").
_NEW_SUBJECTS = frozenset({"i", "you", "he", "she", "we", "there", "his", "her", "my", "our", "your"})


def _statement_start(lowers: list[str], keys: list[str], start: int, i: int) -> int:
    """Where the statement holding the degree at i starts: after a join that starts a new
    one ("the rock is heavy and | her hands are further away": the hands are far, not the
    rock), that is, a join followed by a person or by a thing and its "is" before the degree;
    else the clause's start ("the rock is heavy and near the pivot": the rock is near)."""
    join = next((j for j in range(i - 1, start - 1, -1) if lowers[j] in JOINS), None)
    if join is None or join + 1 >= i:
        return start
    if lowers[join + 1] in _NEW_SUBJECTS or (content(keys, range(join + 1, i)) and "be" in keys[join + 1:i]):
        return join + 1
    return start


#: Words after which a one-sided comparison names the point it is measured from, not the thing
#: compared ("further from the rock", "closer to the pivot"), or what a thing is for ("a
#: smaller force to lift the rock").
_LANDMARKS = frozenset({"from", "to"})


def _after(lowers: list[str], starts: frozenset[int], i: int, end: int, stop: int) -> range:
    """The words after a one-sided comparison's degree that may name what it compares: up to
    an "as" ("the same moment as ..."), a "from" or "to" or the next word of degree ("a bigger
    distance and needs a smaller force": the force is not the distance); none after a degree
    that is itself a preposition ("the pivot is near the rock": the rock is where it is near)."""
    if lowers[i] in _PREPOSITIONS:
        return range(end, end)
    after = next((j for j in range(end, stop) if lowers[j] == "as" or lowers[j] in _LANDMARKS or j in starts
                  or lowers[j] in JOINS), stop)
    return range(end, after)


def _correlatives(words: Words) -> set[int]:
    """Where the degrees of "the closer the muscle is, the more force it needs" are: two of
    one sentence, each after "the", say how two quantities go together (`covariations`), and
    compare no two things."""
    lowers = words.lowers
    after_the = [i for i, _, _, _ in words.degrees if i and lowers[i - 1] == "the"]
    out = set()
    for one, other in zip(after_the, after_the[1:]):
        if not any(w in ".!?;" for w in lowers[one:other]):
            out |= {one, other}
    return out


def _things(keys: list[str], at: tuple[int, ...]) -> tuple[int, ...]:
    """The words of `at` that name a thing: not its prepositions ("faster through air" and
    "louder through the table" have no thing in common)."""
    return tuple(j for j in at if keys[j] not in _PREPOSITIONS)


#: Words after a thing that say which of its kind it is ("the particles of the table", "the
#: particles in air").
_WHOSE = frozenset({"of", "in", "inside", "within"})


def _with_whose(lowers: list[str], keys: list[str], thing: tuple[int, ...], end: int) -> tuple[int, ...]:
    """A thing with the words of a phrase right after it that says which one it is ("the
    particles | in air | are far apart"): two things set at the two ends of a scale are often
    one noun told apart by that phrase alone ("the particles of the table are close, the air
    particles far apart")."""
    j = thing[-1] + 1 if thing else end
    if j >= end or lowers[j] not in _WHOSE:
        return thing
    return thing + subject(lowers, keys, j + 1, end)


def _opposed(words: Words) -> list[_Said]:
    """Two things said to be at the two ends of one scale, a comparison without "than": "the
    mirror is smooth and the paper is rough" says the mirror is less rough than the paper.
    Only plain words of degree (`antonyms.DEGREES`: not a comparison already, "rough" not
    "rougher") said of what two clauses name, two different things."""
    lowers, keys, negated = words.lowers, words.keys, words.negated
    ends: list[tuple[tuple[int, ...], str, int, int]] = []  # (thing, scale, way, at)
    for i in words.plain_degrees:
        key = keys[i]
        start = next((j + 1 for j in range(i - 1, -1, -1) if lowers[j] in ENDS or lowers[j] in JOINS), 0)
        thing = _with_whose(lowers, keys, subject(lowers, keys, start, i), i)
        if thing:
            scale, way = degree_of(key)
            ends.append((thing, scale, -way if negated[i] else way, i))
    out = []
    for n, (one, scale, way, at) in enumerate(ends):
        for other, other_scale, other_way, other_at in ends[n + 1:]:
            first, second = {keys[j] for j in one}, {keys[j] for j in other}
            if scale == other_scale and way == -other_way and not first & second:
                out.append(_Said(scale, way, frozenset(first), frozenset(second), one, other, range(at, at + 1),
                                 opposed_at=other_at))
    return out
