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

A statement may leave out what it denies: "Iron is magnetic but copper is not" says
"magnetic" of iron and denies it of copper (`ref:iron_is_magnetic`,
`ref:copper_is_not_magnetic`); "copper is magnetic" crosses it, "copper isn't magnetic" and
"steel is magnetic and copper is not" say it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .antonyms import ANTONYMS
from .clauses import ENDS, JOINS, Words, asides, content, subject
from .degrees import degree_at
from .lexicon import PAIRED_DIRECTIONS, feature_suffix
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
    #: The other thing's statement leaves out what it denies ("Iron is magnetic but copper is
    #: not"): both say `says`, and `denied` is whether the reference denies it of this thing.
    elided: bool = False
    denied: bool = False


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
NAME_NOTHING = frozenset({"one", "other", "another", "each", "both", "either", "all", "some"})
#: Verbs two statements of the pattern "X is Y" and "Z is W" share.
_LINKS = frozenset({"be", "have"})


def reference_statements(analyses: Sequence[Analysis]) -> list[Statement]:
    """The statements of the reference answers (read as answers are) about two things that
    differ in what they say, each once."""
    out: dict[str, Statement] = {}
    for a in analyses:
        lowers, keys = Words.of(a).lowers, a.text_keys
        clauses = clauses_of(lowers, keys)
        for first, second in zip(clauses, clauses[1:]):
            if second.joined and not second.said and _leaves_out(lowers, keys, second):
                for statement in _elided(first, second, lowers, keys):
                    out.setdefault(statement.name, statement)
            elif second.joined:
                for one, other in ((first, second), (second, first)):
                    statement = _statement(one, other, lowers, keys)
                    if statement is not None:
                        out.setdefault(statement.name, statement)
    return list(out.values())


def _elided(said: _Clause, denied: _Clause, lowers: list[str], keys: list[str]) -> list[Statement]:
    """The two statements of "Iron is magnetic but copper is not" (`denied` leaves out what
    it denies, and a negation ends it: `negation._elided_subject` denies its thing), or none
    where the two are no statements of two things apart."""
    if not said.thing or not said.said or compares(lowers, keys, said) or formula(lowers, said):
        return []
    thing, other_thing = _only(said.thing, denied.thing, keys)
    says = {keys[i] for i in said.said} - thing - other_thing
    if not (thing - NAME_NOTHING and other_thing - NAME_NOTHING) or not 0 < len(says) <= _MOST_DIFFERENT + 1:
        return []
    said_text = " ".join(lowers[j] for j in range(said.thing[0], said.said[-1] + 1))
    what = " ".join(lowers[j] for j in range(said.thing[-1] + 1, said.said[-1] + 1))  # "is magnetic"
    named = " ".join(lowers[j] for j in range(said.thing[0], said.thing[-1] + 1))
    other = " ".join(lowers[j] for j in range(denied.thing[0], denied.thing[-1] + 1))
    verb, _, rest = what.partition(" ")
    own_verb = lowers[denied.thing[-1] + 1]  # "are" in "aluminium and copper are not"
    own_verb = verb if own_verb in ("not", "never") or keys[denied.thing[-1] + 1] == "not" else own_verb
    return [Statement(feature_suffix((*sorted(thing), "is", *sorted(says))), frozenset(thing), frozenset(says),
                      frozenset(other_thing), frozenset(says), said_text, f"{named} {verb} not {rest}".strip(),
                      elided=True),
            Statement(feature_suffix((*sorted(other_thing), "is", "not", *sorted(says))), frozenset(other_thing),
                      frozenset(says), frozenset(thing), frozenset(says), f"{other} {own_verb} not {rest}".strip(),
                      f"{other} {own_verb} {rest}".strip(), elided=True, denied=True)]


def _statement(one: _Clause, other: _Clause, lowers: list[str], keys: list[str]) -> Statement | None:
    """What `one` says of its thing against `other`, side by side, if the two are parallel
    statements of two things (see the module docstring); None if not."""
    if not (one.thing and one.said and other.thing and other.said):
        return None
    if compares(lowers, keys, one) or compares(lowers, keys, other):
        return None  # "the further the effort is ...": quantities that go together
    if formula(lowers, one) or formula(lowers, other):
        return None  # "moment = weight x distance": how a quantity is worked out, not what a thing is
    thing, other_thing = _only(one.thing, other.thing, keys)
    says, other_says = _only(one.said, other.said, keys)
    if not (thing - NAME_NOTHING and other_thing - NAME_NOTHING):
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
    clauses, borrowed = answer_clauses(words)
    for j, s in enumerate(statements):
        for c in clauses:
            named = {keys[i] for i in c.thing}
            if not named & s.thing or named & s.other_thing:
                continue
            said = said_in(words, c, borrowed, negated)
            if s.elided:  # "copper is not magnetic" says "copper is not", "copper is magnetic" crosses it
                said = [_polar(k, d, s.says) for k, d in said]
                own = sum(k in s.says and denied == s.denied for k, denied in said)
                other = sum(k in s.says and denied != s.denied for k, denied in said)
            else:
                own = sum(k in (s.other_says if d else s.says) for k, d in said)
                other = sum(k in (s.says if d else s.other_says) for k, d in said)
            if own > other:
                states[j] = "present"
                break
            if other > own:
                states[j] = "negated"
    return states


#: Words between a thing and the "not" that ends a statement leaving out what it denies.
_AUXILIARIES = frozenset({"be", "do", "have", "can", "will", "would", "could", "should", "must", "may"})
#: Words that end a statement saying again what the one before says ("steel is too").
_AGAIN = frozenset({"too", "also"})


def _auxiliary_after(lowers: list[str], keys: list[str], thing: tuple[int, ...]) -> int | None:
    """Where the auxiliary right after a clause's thing is ("is" in "copper is not", "isnt"
    read as "is" + "nt"), or None."""
    j = thing[-1] + 1
    fused = j < len(keys) and keys[j] == "not" and lowers[j] not in ("not", "never")  # "arent", "isnt"
    return j if j < len(keys) and (keys[j] in _AUXILIARIES or fused) else None


def _left_out(lowers: list[str], keys: list[str], clause: _Clause) -> bool | None:
    """Does the clause leave out what it says of its thing, so that it says of it what the
    clause before says: its thing, an auxiliary, and the clause's end? True where a "not" comes
    before the end ("copper is not.", "B and C do not,"): it denies it; False where it says it
    again ("steel is too", "iron is, but brass isnt"); None where the clause is no such one."""
    j = _auxiliary_after(lowers, keys, clause.thing) if clause.thing else None
    if j is None:
        return None
    while j < len(keys) and keys[j] in _AUXILIARIES:
        j += 1
    denied = j < len(keys) and keys[j] == "not"
    if j < len(keys) and (denied or keys[j] in _AGAIN):
        j += 1
    if j < len(keys) and lowers[j] not in ENDS and lowers[j] not in _SIDE_BY_SIDE:
        return None
    return denied


def _leaves_out(lowers: list[str], keys: list[str], clause: _Clause) -> bool:
    """Does the clause deny its thing what the one before says by leaving it out ("copper is
    not")?"""
    return _left_out(lowers, keys, clause) is True


def said_in(words: Words, clause: _Clause, borrowed: dict[_Clause, bool], denials: list[bool]
            ) -> list[tuple[str, bool]]:
    """The keys a clause of `answer_clauses` says and whether each is denied (`denials`, one
    per word of the answer); a clause that leaves them out says the words of the clause before
    as they were written, denied or not by itself ("copper is not magnetic but iron is" says
    "magnetic" of iron, where the first clause read "nonmagnetic")."""
    if clause in borrowed:
        return [(words.written_keys[i], borrowed[clause]) for i in clause.said]
    return [(words.keys[i], denials[i]) for i in clause.said]


def answer_clauses(words: Words) -> tuple[list[_Clause], dict[_Clause, bool]]:
    """The clauses of an answer that name a thing and say something of it, and those of them
    that say it by leaving it out, each with whether it denies what it says: "steel is magnetic
    and copper is not" says "magnetic" of copper, denied; "copper is not magnetic but iron is"
    says it of iron, not denied, whatever the clause before says of its own thing."""
    out: list[_Clause] = []
    borrowed: dict[_Clause, bool] = {}
    for c in clauses_of(words.lowers, words.keys):
        if c.thing and c.said:
            out.append(c)
            continue
        denied = _left_out(words.lowers, words.keys, c) if c.thing and c.joined and out else None
        if denied is not None:
            clause = _Clause(c.thing, out[-1].said, True)
            out.append(clause)
            borrowed[clause] = denied
    return out, borrowed


def _polar(key: str, denied: bool, says: frozenset[str]) -> tuple[str, bool]:
    """A word and whether it is denied, a word read as the opposite of one of `says` turned
    back: "not magnetic" reads "nonmagnetic", which denies "magnetic"."""
    if key not in says and ANTONYMS.get(key) in says:
        return ANTONYMS[key], not denied
    return key, denied


def compares(lowers: list[str], keys: list[str], clause: _Clause) -> bool:
    """Does the clause name its thing with a comparison ("the further the effort is ...":
    two quantities that go together, `covariations`, not a statement of a thing)?"""
    return any(degree_at(lowers, keys, i) is not None for i in range(clause.thing[0] - 1, clause.thing[-1] + 1)
               if i >= 0)


def formula(lowers: list[str], clause: _Clause) -> bool:
    """Does the clause write a formula ("moment = weight x distance")?"""
    return "=" in lowers[clause.thing[0]:clause.said[-1] + 1]


def _words(keys: list[str], clause: _Clause) -> set[str]:
    """Every key from the clause's thing to its last word said."""
    return set(keys[clause.thing[0]:clause.said[-1] + 1])


def _only(one: tuple[int, ...], other: tuple[int, ...], keys: list[str]) -> tuple[set[str], set[str]]:
    a, b = {keys[i] for i in one}, {keys[i] for i in other}
    return a - b, b - a


def _one_movement(keys: list[str], j: int) -> bool:
    """Is the "and" at j that of "back and forth", "up and down" or "in and out"?"""
    return 0 < j < len(keys) - 1 and (keys[j - 1], keys[j + 1]) in PAIRED_DIRECTIONS


def clauses_of(lowers: list[str], keys: list[str]) -> list[_Clause]:
    """The statements of a text: (the thing named first, the content words after it), an
    aside in brackets left out ("brass (copper and zinc) is not magnetic" says of brass)."""
    aside = asides(lowers)
    if not aside:
        return _clauses_of(lowers, keys)
    kept = [j for j in range(len(lowers)) if j not in aside]

    def back(places: tuple[int, ...]) -> tuple[int, ...]:  # places in the text with its asides
        return tuple(kept[j] for j in places)

    return [_Clause(back(c.thing), back(c.said), c.joined)
            for c in _clauses_of([lowers[j] for j in kept], [keys[j] for j in kept])]


def _clauses_of(lowers: list[str], keys: list[str]) -> list[_Clause]:
    out: list[_Clause] = []
    lent: tuple[int, ...] = ()  # things named by a piece that said nothing of them
    start, joined = 0, False
    for end in [*(j for j, w in enumerate(lowers) if w in ENDS or (w in JOINS and not _one_movement(keys, j))),
                len(lowers)]:
        if end > start:
            thing = subject(lowers, keys, start, end)
            said = content(keys, range(thing[-1] + 1, end)) if thing else ()
            if (thing and not said and end < len(lowers) and lowers[end] in JOINS
                    and _auxiliary_after(lowers, keys, thing) is None):  # "iron is but ..." lends nothing
                lent += thing
            else:
                out.append(_Clause(lent + thing, said, joined))
                lent = ()
        start, joined = end + 1, end < len(lowers) and lowers[end] in _SIDE_BY_SIDE
    return out
