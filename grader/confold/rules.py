"""Rule objects shared by the learner, the teacher's rubric files and the explanations.

A model is an *ordered* list of top-level rules (FOLD-RM): a rule applies to an answer only
when no earlier rule did. Each rule is a default with exceptions, and exceptions may have
exceptions of their own, which is how FOLD-RM writes `not ab1(X)`.

These classes are the contract between `grader/` (learns and evaluates them), `knowledge/`
(parses and writes them as ASP or YAML) and the explanations shown to markers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

#: Comparisons a literal may use. The learner only generates the first four;
#: teachers may also write `<` and `>=` in background and initial rules.
COMPARISONS = ("==", "!=", "<=", ">", "<", ">=")
CATEGORICAL_COMPARISONS = ("==", "!=")
NUMERIC_COMPARISONS = ("<=", ">", "<", ">=")

Label = Union[str, int, float, bool]


@dataclass(frozen=True)
class Literal:
    """A test on one feature of an example: `feature op value`.

    Categorical features use `==`/`!=` with a string (or bool/int) value; numeric features
    use `<=`, `>`, `<`, `>=` with a float. Mixed columns follow FOLD-R++: comparing a
    number with a categorical value, `==` is false, `!=` is true, the order tests are false.
    A missing value is a categorical value of its own.

    A derived predicate defined by background knowledge is a boolean feature of the same
    name: `Literal("correct_value", "==", True)` is `correct_value(X)` and
    `Literal("correct_value", "!=", True)` is `not correct_value(X)`.
    """

    feature: str
    op: str
    value: Label

    def __str__(self) -> str:
        """Readable form, e.g. `concept:gap == 'present'`, `value:g <= 9.9`."""
        return f"{self.feature} {self.op} {self.value!r}"

    def __post_init__(self) -> None:
        if self.op not in COMPARISONS:
            raise ValueError(f"unknown comparison {self.op!r} in literal on {self.feature!r}; "
                             f"expected one of {', '.join(COMPARISONS)}")


@dataclass
class Rule:
    """A default rule with exceptions: `head :- body, not ab1(X), not ab2(X), ...`.

    `head` is the label a top-level rule predicts; it is None for an exception (an `ab`
    rule), whose body describes when its parent does *not* apply.
    `confidence` is the Wilson score of a learned rule, or the one a teacher gave
    (`fixed_confidence=True`: the learner keeps it). None until fitted otherwise.
    `origin` says who wrote it: "learned", "initial" (a teacher's rule the learner may
    refine, prune or drop) or "background" (a teacher's rule kept as it is).
    `name` optionally identifies a teacher's rule in explanations and error messages.
    """

    head: Label | None
    body: tuple[Literal, ...]
    exceptions: list[Rule] = field(default_factory=list)
    confidence: float | None = None
    fixed_confidence: bool = False
    origin: str = "learned"
    name: str | None = None

    def __str__(self) -> str:
        """Readable one-line form: `'2' if concept:gap == 'present' and not (…) [0.93]`."""
        head = "abnormal" if self.head is None else repr(self.head)
        conf = "" if self.confidence is None else f" [{self.confidence:.3f}]"
        return f"{head} if {_conditions(self)}{conf}"


def _conditions(rule: "Rule | PredicateDefinition") -> str:
    parts = [str(lit) for lit in rule.body]
    parts += [f"not ({_conditions(exc)})" for exc in rule.exceptions]
    return " and ".join(parts) or "always"


@dataclass
class PredicateDefinition:
    """A background rule defining a derived boolean feature: `name(X) :- body, not ab(X)...`.

    Several definitions with the same name are alternatives (logical or). Learned and
    hand-written rules use the predicate as the literal `Literal(name, "==", True)`.
    `description`: what the predicate says, in the words a reader of the rules is shown
    instead of its name ("gives a value between 9 and 10.5 m/s^2"); None: the name is shown.
    """

    name: str
    body: tuple[Literal, ...]
    exceptions: list[Rule] = field(default_factory=list)
    description: str | None = None
