"""Justifications of predictions, in the style of FOLD-RM's section 6 proof trees.

For each row: which rule fired (or that none did), every literal of that rule with the row's
value and whether it held, every exception with the reason it did not apply (its literals;
its own exceptions when its body held, recursively), the confidence, and briefly why each
earlier rule did not apply. Truth values are computed vectorised for a chunk of rows; per
row only the fired rule's tree is walked.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from grader.confold.encoding import MISSING, EncodedTable
from grader.confold.rule_eval import literal_mask
from grader.confold.rules import Literal, Rule

_OP_WORDS = {"==": "should equal", "!=": "should not equal", "<=": "should be at most",
             ">": "should be greater than", "<": "should be less than", ">=": "should be at least"}


def feature_label(name: str, descriptions: Mapping[str, str] | None = None) -> str:
    """`concept:gap` -> `concept "gap"`, with the teacher's description when given."""
    family, sep, rest = name.partition(":")
    text = f'{family} "{rest}"' if sep else name
    if descriptions and descriptions.get(name):
        text += f" ({descriptions[name]})"
    return text


def _show(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"'{MISSING}' (missing)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, str) else str(value)


def _plain(value: Any) -> Any:
    if value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


@dataclass
class LiteralCheck:
    feature: str
    op: str
    value: Any
    actual: Any
    held: bool

    def text(self, descriptions: Mapping[str, str] | None = None) -> str:
        verdict = "DOES HOLD" if self.held else "DOES NOT HOLD"
        return (f"the value of {feature_label(self.feature, descriptions)} is {_show(self.actual)} "
                f"which {_OP_WORDS[self.op]} {_show(self.value)} ({verdict})")

    def short(self) -> str:
        return f"{self.feature} {self.op} {_show(self.value)}"


@dataclass
class ExceptionCheck:
    """An exception (`ab` rule) of a rule: `held` True means it applied and blocked its parent."""

    literals: list[LiteralCheck]
    exceptions: list["ExceptionCheck"]
    held: bool

    def lines(self, number: str, descriptions, indent: str) -> list[str]:
        verdict = "DOES HOLD" if self.held else "DOES NOT HOLD"
        out = [f"{indent}exception {number} {verdict} because"]
        out += [f"{indent}  {lit.text(descriptions)}" for lit in self.literals]
        for i, exc in enumerate(self.exceptions, 1):
            out += exc.lines(f"{number}.{i}", descriptions, indent + "  ")
        return out


@dataclass
class TriedRule:
    """An earlier rule that did not apply: its first failing literal, or the exception that held."""

    rule_index: int
    label: Any
    failed: LiteralCheck | None = None
    blocked_by: ExceptionCheck | None = None

    def reason(self) -> str:
        if self.failed is not None:
            return f"{self.failed.short()} is false (value {_show(self.failed.actual)})"
        if self.blocked_by is not None:
            parts = " and ".join(l.short() for l in self.blocked_by.literals) or "always"
            return f"its exception ({parts}) applied"
        return "did not apply"


@dataclass
class Explanation:
    label: Any
    confidence: float | None
    rule_index: int | None
    target: str = "label"
    origin: str | None = None
    rule_name: str | None = None
    literals: list[LiteralCheck] = field(default_factory=list)
    exceptions: list[ExceptionCheck] = field(default_factory=list)
    tried: list[TriedRule] = field(default_factory=list)
    descriptions: Mapping[str, str] | None = field(default=None, repr=False, compare=False)
    #: set by the grading model: how many of its resampled models give the same label
    agreeing: int | None = None
    resamples: int | None = None
    #: set by the grading model: how much other evidence (the answers' wording) supports the
    #: label, 0-1, and that evidence in words
    support: float | None = None
    support_note: str | None = None
    #: set by the grading model when its confidence is not the product below (the share of
    #: its rule lists that give the label, times the support): the figure it flags by
    overall: float | None = None
    #: what `overall_confidence` is called in the text: the grading model names a probability
    confidence_name: str = "overall confidence"
    #: set by the grading model: writes `text()` in its domain's words instead
    wording: Callable[["Explanation"], str] | None = field(default=None, repr=False, compare=False)

    @property
    def _has_agreement(self) -> bool:
        return self.rule_index is not None and bool(self.resamples) and self.agreeing is not None

    @property
    def _has_support(self) -> bool:
        return self.rule_index is not None and self.support is not None

    @property
    def overall_confidence(self) -> float | None:
        """The rule's confidence times the share of resampled models that agree and times the
        support (the rule's confidence alone when there are none): what the grading model
        flags by; `overall` when the grading model set it."""
        if self.overall is not None and self.rule_index is not None:
            return self.overall
        if self.confidence is None or self.rule_index is None:
            return self.confidence
        overall = self.confidence
        if self._has_agreement:
            overall *= self.agreeing / self.resamples
        if self._has_support:
            overall *= self.support
        return overall

    def _agreement_lines(self) -> list[str]:
        lines = []
        if self._has_agreement:
            lines.append(f"{self.agreeing} of {self.resamples} models learned from resamples of the "
                         f"marked answers give the same {self.target}")
        if self._has_support:
            lines.append(self.support_note or f"other evidence supports it {self.support:.2f}")
        if lines:
            lines[-1] += f": {self.confidence_name} {self.overall_confidence:.2f}"
        return lines

    def text(self) -> str:
        """Multi-line justification (FOLD-RM section 6 style, or the `wording`'s)."""
        if self.wording is not None:
            return self.wording(self)
        d = self.descriptions
        if self.rule_index is None:
            lines = [f"no rule gives a {self.target}: this answer goes to a human marker"]
        else:
            who = f"{self.origin} rule {self.rule_index + 1}" + (f" '{self.rule_name}'" if self.rule_name else "")
            conf = "" if self.confidence is None else f" with confidence {self.confidence:.2f}"
            lines = [f"the value of {self.target} is {_show(self.label)} DOES HOLD{conf} "
                     f"({who}) because"]
            lines += [f"  {lit.text(d)}" for lit in self.literals]
            for i, exc in enumerate(self.exceptions, 1):
                lines += exc.lines(str(i), d, "  ")
            lines += self._agreement_lines()
        if self.tried:
            lines.append("earlier rules that did not apply:")
            lines += [f"  rule {t.rule_index + 1} ({self.target} {_show(t.label)}): {t.reason()}"
                      for t in self.tried]
        return "\n".join(lines)

    def summary(self) -> str:
        """One line, for a CSV cell."""
        if self.rule_index is None:
            return f"no rule applies (tried {len(self.tried)}): needs a human marker"
        parts = [f"{lit.feature} {lit.op} {_show(lit.value)}" for lit in self.literals]
        parts += ["not (" + " and ".join(l.short() for l in e.literals) + ")" for e in self.exceptions]
        conf = "" if self.confidence is None else f" ({self.confidence:.2f})"
        agreement = (f"; {self.agreeing} of {self.resamples} resampled models agree"
                     if self._has_agreement else "")
        if self._has_support:
            agreement += f"; {self.support_note or f'support {self.support:.2f}'}"
        return (f"{self.target} {_show(self.label)}{conf} by rule {self.rule_index + 1}: "
                + ("; ".join(parts) or "default rule") + agreement)

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("descriptions", None)
        data.pop("wording", None)
        return _json_ready(data)


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_ready(v) for v in value]
    return _plain(value)


class _Chunk:
    """Truth values of every literal and rule node on a chunk of rows, computed once, as
    Python lists so that building one row's explanation is plain indexing."""

    def __init__(self, table: EncodedTable, frame: pd.DataFrame):
        self.table = table
        self.frame = frame
        self.literal_held: dict[Literal, list] = {}
        self.literal_info: dict[int, tuple[list, Any, list]] = {}
        self.node_masks: dict[int, np.ndarray] = {}
        self.node_held: dict[int, list] = {}
        self.values: dict[str, list] = {}

    def _literal(self, literal: Literal) -> tuple[list, Any, list]:
        """(held per row, the literal's value, the rows' values), cached by object identity."""
        entry = self.literal_info.get(id(literal))
        if entry is None:
            held = self.literal_held.get(literal)  # equal literals in different rules share work
            if held is None:
                held = self.literal_held[literal] = literal_mask(literal, self.table).tolist()
            entry = (held, _plain(literal.value), self.column_values(literal.feature))
            self.literal_info[id(literal)] = entry
        return entry

    def lit(self, literal: Literal) -> list:
        return self._literal(literal)[0]

    def node_mask(self, rule: Rule) -> np.ndarray:
        mask = self.node_masks.get(id(rule))
        if mask is None:
            mask = np.ones(self.table.n_rows, dtype=bool)
            for literal in rule.body:
                mask &= np.asarray(self.lit(literal), dtype=bool)
            for exc in rule.exceptions:
                mask &= ~self.node_mask(exc)
            self.node_masks[id(rule)] = mask
            self.node_held[id(rule)] = mask.tolist()
        return mask

    def node(self, rule: Rule) -> list:
        self.node_mask(rule)
        return self.node_held[id(rule)]

    def column_values(self, feature: str) -> list:
        values = self.values.get(feature)
        if values is None:
            if feature in self.frame.columns:
                column = self.frame[feature]
                values = [_plain(v) for v in column.astype(object).where(column.notna(), None).tolist()]
            else:  # a derived predicate
                values = (self.table.column(feature).codes == 2).tolist()
            self.values[feature] = values
        return values

    def check(self, literal: Literal, row: int) -> LiteralCheck:
        held, value, values = self._literal(literal)
        return LiteralCheck(literal.feature, literal.op, value, values[row], held[row])

    def exception(self, rule: Rule, row: int) -> ExceptionCheck:
        """Every literal of the exception; its own exceptions only matter (and are shown)
        when its body held."""
        literals = [self.check(l, row) for l in rule.body]
        body_held = all(c.held for c in literals)
        nested = [self.exception(e, row) for e in rule.exceptions] if body_held else []
        return ExceptionCheck(literals, nested, self.node(rule)[row])

    def tried(self, index: int, rule: Rule, row: int) -> TriedRule:
        for literal in rule.body:
            if not self.lit(literal)[row]:
                return TriedRule(index, rule.head, failed=self.check(literal, row))
        for exc in rule.exceptions:
            if self.node(exc)[row]:
                return TriedRule(index, rule.head, blocked_by=self.exception(exc, row))
        return TriedRule(index, rule.head)


def explain_table(rules: Sequence[Rule], table: EncodedTable, frame: pd.DataFrame,
                  descriptions: Mapping[str, str] | None = None, target: str = "label"
                  ) -> Iterator[Explanation]:
    """Explanations for every row of an encoded chunk (`frame` gives the rows' raw values)."""
    chunk = _Chunk(table, frame)
    fired = np.full(table.n_rows, -1)
    open_rows = np.ones(table.n_rows, dtype=bool)
    for i, rule in enumerate(rules):
        hit = open_rows & chunk.node_mask(rule)
        fired[hit] = i
        open_rows &= ~hit
    for row in range(table.n_rows):
        index = int(fired[row])
        last = index if index >= 0 else len(rules)
        tried = [chunk.tried(i, rules[i], row) for i in range(last)]
        if index < 0:
            yield Explanation(None, None, None, target, tried=tried, descriptions=descriptions)
            continue
        rule = rules[index]
        yield Explanation(rule.head, rule.confidence, index, target, rule.origin, rule.name,
                          [chunk.check(l, row) for l in rule.body],
                          [chunk.exception(e, row) for e in rule.exceptions],
                          tried, descriptions)
