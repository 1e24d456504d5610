"""Two things the reference answers say different things of, found in answers the right way
and crossed. "Wood is an insulator and metal is a conductor" is said by "metal is a
conductor" and "wood isn't a conductor", and crossed by "metal is an insulator"; "Like poles
repel and unlike poles attract" is said by "opposite poles attract" and crossed by "like
poles attract". A crossed answer uses
only the reference's words, so they alone cannot tell it from the reference.

`ref:<thing>_is_<what>` ("ref:metal_is_conductor") is present where an answer says of the
thing what the reference says of it (or denies of it what the reference says of the other
thing), negated where it says of it what the reference says of the other thing (or denies
what the reference says of it), absent otherwise.

A statement is a clause of a reference answer: the first thing it names (`clauses.subject`)
and the content words after it. Statements split at "and", "or", "but", "whereas" and
"while" as well as at the ends of clauses; a piece that names a thing and says nothing of it
("A" in "A and C are in the same path") lends it to the next. Two statements count when they
are side by side, joined by one of those words, a comma or a semicolon, name different things
(not only "one" and "the other") and say parallel things: at most two words of what each says
differ, and they share a word or both say "is" or "has" ("wood is a thermal insulator" and
"metal is a good thermal conductor", "like poles repel" and "unlike poles attract"; not "if
C burns out, then A and B are still in a closed path"), and neither names its thing with a
comparison nor says the other's thing ("the further the effort is from the pivot, the
smaller the effort": `covariations`). The words they share decide nothing, and an
answer's clause counts only when it says more of one side than of the other. Read by word
order, on the fallback pipeline and a parsed one alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .clauses import ENDS, JOINS, Words, content, subject
from .degrees import degree_at
from .lexicon import feature_suffix
from .reading import Analysis


@dataclass(frozen=True)
class Statement:
    """What a reference answer says of one thing, against another statement of the same
    reference about another thing."""

    name: str  # feature name part: metal_is_conductor
    thing: frozenset[str]
    says: frozenset[str]
    other_thing: frozenset[str]
    other_says: frozenset[str]
    text: str  # as written: "metal is a good thermal conductor"
    crossed_text: str  # "metal is a thermal insulator"


@dataclass(frozen=True)
class _Clause:
    thing: tuple[int, ...]
    said: tuple[int, ...]
    joined: bool = False  # to the clause before it by "and", "whereas", a comma, ...


#: What joins two statements side by side.
_SIDE_BY_SIDE = JOINS | {",", ";"}
_MOST_DIFFERENT = 2  # words of what two parallel statements say that differ
#: Words that tell two things apart without naming either ("one terminal ..., the other
#: terminal ...").
_NAME_NOTHING = frozenset({"one", "other", "another", "each", "both", "either", "all", "some"})
#: Verbs two statements of the pattern "X is Y" and "Z is W" share.
_LINKS = frozenset({"be", "have"})


def reference_statements(analyses: Sequence[Analysis]) -> list[Statement]:
    """The statements of the reference answers (read as answers are) about two things that
    differ in what they say, each once."""
    out: dict[str, Statement] = {}
    for a in analyses:
        lowers, keys = Words.of(a).lowers, a.text_keys
        clauses = _clauses(lowers, keys)
        for first, second in zip(clauses, clauses[1:]):
            if second.joined:
                for one, other in ((first, second), (second, first)):
                    statement = _statement(one, other, lowers, keys)
                    if statement is not None:
                        out.setdefault(statement.name, statement)
    return list(out.values())


def _statement(one: _Clause, other: _Clause, lowers: list[str], keys: list[str]) -> Statement | None:
    """What `one` says of its thing against `other`, side by side, if the two are parallel
    statements of two things (see the module docstring); None if not."""
    if not (one.thing and one.said and other.thing and other.said):
        return None
    if _compares(lowers, keys, one) or _compares(lowers, keys, other):
        return None  # "the further the effort is ...": quantities that go together
    thing, other_thing = _only(one.thing, other.thing, keys)
    says, other_says = _only(one.said, other.said, keys)
    if not (thing - _NAME_NOTHING and other_thing - _NAME_NOTHING):
        return None
    if not (0 < len(says) <= _MOST_DIFFERENT and 0 < len(other_says) <= _MOST_DIFFERENT):
        return None
    if not ({keys[i] for i in (*one.thing, *one.said)} & {keys[i] for i in (*other.thing, *other.said)}
            or _LINKS & _words(keys, one) & _words(keys, other)):
        return None  # nothing shared: no two statements of one pattern
    if thing & {keys[i] for i in other.said} or other_thing & {keys[i] for i in one.said}:
        return None  # the one's thing is said of the other: no two things apart
    name = feature_suffix((*sorted(thing), "is", *sorted(says)))
    text = " ".join(lowers[j] for j in range(one.thing[0], one.said[-1] + 1))
    crossed = " ".join(lowers[j] for j in range(one.thing[0], one.thing[-1] + 1)) + " " + " ".join(
        lowers[j] for j in range(other.thing[-1] + 1, other.said[-1] + 1))
    return Statement(name, frozenset(thing), frozenset(says), frozenset(other_thing), frozenset(other_says),
                     text, crossed)


def statement_states(words: Words, statements: Sequence[Statement]) -> list[str]:
    """"present", "negated" or "absent" for each statement, in one answer."""
    states = ["absent"] * len(statements)
    if not statements:
        return states
    keys, negated = words.keys, words.negated
    clauses = [c for c in _clauses(words.lowers, keys) if c.thing and c.said]
    for j, s in enumerate(statements):
        for c in clauses:
            named = {keys[i] for i in c.thing}
            if not named & s.thing or named & s.other_thing:
                continue
            own = sum(keys[i] in (s.other_says if negated[i] else s.says) for i in c.said)
            other = sum(keys[i] in (s.says if negated[i] else s.other_says) for i in c.said)
            if own > other:
                states[j] = "present"
                break
            if other > own:
                states[j] = "negated"
    return states


def _compares(lowers: list[str], keys: list[str], clause: _Clause) -> bool:
    """Does the clause name its thing with a comparison ("the further the effort is ...":
    two quantities that go together, `covariations`, not a statement of a thing)?"""
    return any(degree_at(lowers, keys, i) is not None for i in range(clause.thing[0] - 1, clause.thing[-1] + 1)
               if i >= 0)


def _words(keys: list[str], clause: _Clause) -> set[str]:
    """Every key from the clause's thing to its last word said."""
    return set(keys[clause.thing[0]:clause.said[-1] + 1])


def _only(one: tuple[int, ...], other: tuple[int, ...], keys: list[str]) -> tuple[set[str], set[str]]:
    a, b = {keys[i] for i in one}, {keys[i] for i in other}
    return a - b, b - a


def _clauses(lowers: list[str], keys: list[str]) -> list[_Clause]:
    """The statements of a text: (the thing named first, the content words after it)."""
    out: list[_Clause] = []
    lent: tuple[int, ...] = ()  # things named by a piece that said nothing of them
    start, joined = 0, False
    for end in [*(j for j, w in enumerate(lowers) if w in ENDS or w in JOINS), len(lowers)]:
        if end > start:
            thing = subject(lowers, keys, start, end)
            said = content(keys, range(thing[-1] + 1, end)) if thing else ()
            if thing and not said and end < len(lowers) and lowers[end] in JOINS:
                lent += thing
            else:
                out.append(_Clause(lent + thing, said, joined))
                lent = ()
        start, joined = end + 1, end < len(lowers) and lowers[end] in _SIDE_BY_SIDE
    return out
