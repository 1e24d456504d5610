"""Why a boosted ensemble gave a row its label: the rules that fired for it, and against it.

A label of `BoostedRules` is the class with the largest score, a score being the class's
base vote plus the votes of its rules that fired; so the justification is that sum, rule by
rule, next to the score of the strongest other class and the rules that fired for it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Mapping

from grader.confold.rules import Label, Rule


@dataclass
class Vote:
    """One rule that fired: its index in `rules_`, the rule, and its vote."""

    index: int
    rule: Rule
    vote: float


@dataclass
class EnsembleExplanation:
    """label None: no rule for the best-scoring class fired (with `require_rule`), for a human."""

    label: Label | None
    confidence: float | None  # the probability of the label (`predict_proba`)
    best: Label  # the class with the largest score (the label, unless none of its rules fired)
    score: float
    base: float  # the best class's base vote, part of `score`
    votes: list[Vote]  # the best class's rules that fired, strongest first
    runner_up: Label | None
    runner_up_score: float
    against: list[Vote]  # the runner-up's rules that fired, strongest first
    target: str = "label"
    descriptions: Mapping[str, str] | None = field(default=None, repr=False, compare=False)
    #: set by the grading model: the wording support of the label and its note
    support: float | None = None
    support_note: str | None = None
    #: set by the grading model: writes `text()` in its domain's words instead
    wording: Callable[["EnsembleExplanation"], str] | None = field(default=None, repr=False, compare=False)

    @property
    def rule_index(self) -> int | None:
        """The strongest rule that fired for the label (None when the row has no label)."""
        return self.votes[0].index if self.label is not None and self.votes else None

    @property
    def overall_confidence(self) -> float | None:
        if self.confidence is None or self.support is None:
            return self.confidence
        return self.confidence * self.support

    def text(self) -> str:
        """Multi-line justification (or the `wording`'s)."""
        if self.wording is not None:
            return self.wording(self)
        if self.label is None:
            head = (f"no rule for {self.target} {self.best!r}, the best score, applies: this row goes "
                    f"to a human")
        else:
            head = f"the value of {self.target} is {self.label!r} with probability {self.confidence:.2f}"
        lines = [head, f"  score of {self.best!r}: {self.score:.2f} = base {self.base:+.2f}"]
        lines += [f"    {v.vote:+.2f} rule {v.index + 1}: {_body(v.rule)}" for v in self.votes]
        if self.runner_up is not None:
            lines.append(f"  score of {self.runner_up!r}: {self.runner_up_score:.2f}")
            lines += [f"    {v.vote:+.2f} rule {v.index + 1}: {_body(v.rule)}" for v in self.against]
        return "\n".join(lines)

    def summary(self) -> str:
        """One line, for a CSV cell."""
        if self.label is None:
            return f"no rule for the best-scoring {self.target} {self.best!r} applies: needs a human"
        rules = "; ".join(f"rule {v.index + 1} ({v.vote:+.2f}): {_body(v.rule)}" for v in self.votes)
        return (f"{self.target} {self.label!r} ({self.confidence:.2f}), score {self.score:.2f} against "
                f"{self.runner_up_score:.2f}: {rules}")

    def to_dict(self) -> dict:
        data = asdict(self)
        for key in ("descriptions", "wording"):
            data.pop(key, None)
        return _json_ready(data)


def _body(rule: Rule) -> str:
    return " and ".join(str(lit) for lit in rule.body) or "always"


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return value.item()
    return value
