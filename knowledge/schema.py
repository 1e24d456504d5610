"""What a question file holds, and the names of the features a rubric implies.

This module is the contract between the teacher's files (`knowledge/`), the feature
extractor (`features/`) and the learner (`grader/`): the extractor produces exactly the
columns `rubric_feature_specs` lists (plus the terms it learns when fitted), and rule
files are validated against the same list.

Feature names
-------------
A feature of a family is named `family:name`, e.g. `concept:gap`, and is written in ASP
as a three-argument atom `concept(X,gap,present)`. A feature without a family, e.g.
`coverage`, is a two-argument atom `coverage(X,V)`. Families:

=================  ===========  ==================================================
column             type         values
=================  ===========  ==================================================
concept:NAME       categorical  present / negated / absent
quantity:NAME      categorical  correct / wrong_value / wrong_unit / no_unit / missing / negated
value:NAME         numeric      the value converted to the expected unit (NaN if none)
misconception:NAME categorical  present / absent
relation:NAME      categorical  present / negated / absent (concepts linked as the rubric says)
ref:NAME           categorical  present / negated / absent (content words and phrases of
                                the reference answers; computed by the extractor)
term:NAME          categorical  present / negated / absent (words and phrases learned from
                                marked answers when the extractor is fitted)
coverage           numeric      share of the reference answer's content words covered (0..1)
precision          numeric      share of the answer's content words found in the reference
length             numeric      number of word tokens in the answer
non_answer         categorical  yes / no ("I don't know", "help", empty, ...)
=================  ===========  ==================================================
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from grader.confold.rules import PredicateDefinition, Rule

CONCEPT_VALUES = ("present", "negated", "absent")
QUANTITY_VALUES = ("correct", "wrong_value", "wrong_unit", "no_unit", "missing", "negated")
MISCONCEPTION_VALUES = ("present", "absent")
TERM_VALUES = CONCEPT_VALUES
YES_NO = ("yes", "no")
#: A name a question file gives: a concept, misconception, relation, quantity or derived
#: predicate ("closed_path", "plausible_g").
NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


@dataclass(frozen=True)
class Relation:
    """A link the answer states between concepts of the rubric: `members` (concept names)
    linked by one of the `link` phrases ("terminal 1" connected to "the positive terminal").

    `ordered`: the two members are linked in the order listed, for links that go one way
    ("potential energy" converted to "kinetic energy", "the force" causes "the acceleration");
    otherwise either order states the link ("A and B are connected")."""

    name: str
    members: tuple[str, ...]
    link: tuple[str, ...]
    description: str | None = None
    ordered: bool = False


@dataclass(frozen=True)
class Concept:
    """An idea a good answer expresses; `phrases` are the words, phrases and synonyms for it."""

    name: str
    phrases: tuple[str, ...]
    description: str | None = None


@dataclass(frozen=True)
class Quantity:
    """A number the answer should give, in `unit` (any unit the units library parses).

    `tolerance` is relative (0.02 means within 2%) unless `absolute_tolerance` is True,
    in which case it is in `unit`. Options of physics notation, all off by default:
    `bare_number` (a number without a unit counts as in `unit`, when the question states
    it), `symbol` (a symbol that stands for the expected value, like "g"), `negative_means`
    (the concept a negative value states: "downward" when up is taken as positive).
    """

    name: str
    value: float
    unit: str
    tolerance: float = 0.02
    absolute_tolerance: bool = False
    description: str | None = None
    bare_number: bool = False
    symbol: str | None = None
    negative_means: str | None = None


@dataclass(frozen=True)
class Misconception:
    """A known wrong idea, recognised by its phrases."""

    name: str
    phrases: tuple[str, ...]
    description: str | None = None


@dataclass
class Question:
    """One short-answer question with its rubric, as read from a question file."""

    id: str
    text: str
    reference_answers: tuple[str, ...]
    marks: tuple[str, ...] = ()  # ordered from lowest to highest; may be read off marked answers
    concepts: tuple[Concept, ...] = ()
    quantities: tuple[Quantity, ...] = ()
    misconceptions: tuple[Misconception, ...] = ()
    background: list[Rule | PredicateDefinition] = field(default_factory=list)
    initial_rules: list[Rule] = field(default_factory=list)
    source: Path | None = None
    non_answers: tuple[str, ...] = ()  # the teacher's own phrases of answers that say nothing
    relations: tuple[Relation, ...] = ()
    expected_words: tuple[str, ...] = ()  # words a real-word slip is read as, in context
    no_credit: tuple[str, ...] = ()  # marks besides the lowest that give no credit (need `marks`)

    def __post_init__(self) -> None:
        # Marks that are numbers are ordered as numbers, whatever order they are listed in: a
        # teacher who writes ["1", "0.5", "0"] means 0 as the lowest (which rules for a higher
        # mark must rest on what an answer says), not 1. Words keep the order they are listed in.
        numbers = [mark_number(m) for m in self.marks]
        if self.marks and all(n is not None for n in numbers) and numbers != sorted(numbers):
            self.marks = tuple(m for _, m in sorted(zip(numbers, self.marks)))


@dataclass(frozen=True)
class FeatureSpec:
    """One column the extractor produces: its name, type, allowed values and a description
    that justifications show to markers ("mentions the gap between the terminals")."""

    name: str
    kind: str  # "categorical" or "numeric"
    values: tuple[str, ...] | None = None  # allowed values of a categorical feature
    description: str = ""


def mark_number(text: str) -> float | None:
    """A mark as a number ("0,5" -> 0.5), or None when it is not one."""
    try:
        value = float(str(text).replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def marks_from_answers(marks: Iterable[str]) -> tuple[str, ...]:
    """The ordered list of marks found in marked answers: numerically if they all look like
    numbers ("0" < "0.5" < "1" < "10"), else alphabetically."""
    distinct = sorted(set(str(m) for m in marks))
    numbers = [mark_number(m) for m in distinct]
    if all(n is not None for n in numbers):
        return tuple(m for _, m in sorted(zip(numbers, distinct)))
    return tuple(distinct)


def feature_name(family: str, name: str) -> str:
    """`feature_name("concept", "gap")` -> `"concept:gap"`."""
    return f"{family}:{name}"


def split_feature_name(column: str) -> tuple[str | None, str]:
    """`"concept:gap"` -> `("concept", "gap")`; `"coverage"` -> `(None, "coverage")`."""
    family, sep, name = column.partition(":")
    return (family, name) if sep else (None, column)


def rubric_feature_specs(question: Question) -> list[FeatureSpec]:
    """The features a question's rubric implies, known without running spaCy.

    The extractor also produces `ref:*` features (from the reference answers) and, once
    fitted, `term:*` features; their names depend on the text, so a rule file may use any
    name of those two families with the values of `TERM_VALUES`.
    """
    specs: list[FeatureSpec] = []
    for c in question.concepts:
        specs.append(FeatureSpec(feature_name("concept", c.name), "categorical", CONCEPT_VALUES,
                                 c.description or f"mentions {c.phrases[0] if c.phrases else c.name}"))
    for q in question.quantities:
        tol = (f"{q.tolerance:g} {q.unit}" if q.absolute_tolerance else f"{q.tolerance * 100:g}%")
        desc = q.description or q.name
        specs.append(FeatureSpec(feature_name("quantity", q.name), "categorical", QUANTITY_VALUES,
                                 f"{desc}: value {q.value:g} {q.unit} within {tol}"))
        specs.append(FeatureSpec(feature_name("value", q.name), "numeric", None,
                                 f"{desc}: the value given, in {q.unit}"))
    for m in question.misconceptions:
        specs.append(FeatureSpec(feature_name("misconception", m.name), "categorical",
                                 MISCONCEPTION_VALUES,
                                 m.description or f"says {m.phrases[0] if m.phrases else m.name}"))
    concepts = {c.name: c for c in question.concepts}
    for rel in question.relations:
        specs.append(FeatureSpec(feature_name("relation", rel.name), "categorical", CONCEPT_VALUES,
                                 rel.description or relation_text(rel, concepts)))
    specs += [
        FeatureSpec("coverage", "numeric", None, "share of the reference answer's content words it covers"),
        FeatureSpec("precision", "numeric", None, "share of its content words found in the reference answer"),
        FeatureSpec("length", "numeric", None, "number of words"),
        FeatureSpec("non_answer", "categorical", YES_NO, "is a non-answer (empty, 'I don't know', ...)"),
    ]
    return specs


def relation_text(rel: Relation, concepts: dict[str, Concept]) -> str:
    """A relation in words when the teacher gave no description: "says terminal 1 and
    positive terminal: connected"; in order, "says potential energy converted to kinetic energy"."""
    names = [concepts[m].phrases[0] if m in concepts and concepts[m].phrases else m.replace("_", " ")
             for m in rel.members]
    if rel.ordered and len(names) == 2 and rel.link:
        return f"says {names[0]} {rel.link[0]} {names[1]}"
    return f"says {' and '.join(names)}: {rel.link[0] if rel.link else ''}".rstrip(": ")
