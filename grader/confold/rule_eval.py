"""Evaluating literals, rules and ordered rule lists on encoded tables, vectorised over rows.

Literal semantics (the same for learned and hand-written rules):

* `f == v` holds when the cell is the category `v`; `f != v` is its negation (so a number in
  a mixed column, a missing cell or an unseen category satisfies every `!=`). A teacher's
  `f == 3` with a number also holds for the numeric cell 3.
* `f <= x`, `f > x`, `f < x`, `f >= x` compare the cell's numeric reading; a category or a
  missing cell satisfies none of them.
* A missing cell is the category `"?"` (`grader.confold.encoding.MISSING`); a literal may test it.
* A derived predicate (a `PredicateDefinition` in the background) is a boolean column:
  `Literal(name, "==", True)`.

A rule holds when all its body literals hold and none of its exceptions does. In an ordered
list a rule applies to a row only when no earlier rule applied.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from grader.confold.encoding import (ColumnEncoding, EncodedColumn, EncodedTable, boolean_column,
                                     check_frame, encode_column, infer_encoding)
from grader.confold.rules import Literal, PredicateDefinition, Rule

__all__ = ["apply_rules", "literal_mask", "rule_mask", "evaluate_ordered",
           "add_derived_predicates", "rule_features", "split_background", "name_rule_values"]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def literal_mask(lit: Literal, table: EncodedTable, rows: np.ndarray | None = None) -> np.ndarray:
    """Boolean mask of the rows (all, or those indexed by `rows`) where `lit` holds."""
    col = table.column(lit.feature)
    op, value = lit.op, lit.value
    if op in ("==", "!="):
        codes = col.codes if rows is None else col.codes[rows]
        eq = codes == col.encoding.code_of(value)
        if _is_number(value) and col.encoding.kind != "categorical":
            num = col.num if rows is None else col.num[rows]
            eq |= num == float(value)
        return eq if op == "==" else ~eq
    if not _is_number(value):
        raise ValueError(f"literal {lit.feature} {op} {value!r}: an order comparison needs a number")
    num = col.num if rows is None else col.num[rows]
    x = float(value)
    with np.errstate(invalid="ignore"):
        if op == "<=":
            return num <= x
        if op == ">":
            return num > x
        if op == "<":
            return num < x
        return num >= x


def any_rule_mask(rules: Sequence[Rule], table: EncodedTable, rows: np.ndarray | None = None) -> np.ndarray:
    """Rows where at least one of the rules holds (the ways of a teacher's rule written with
    `any:`, taken together)."""
    covered = np.zeros(table.n_rows if rows is None else len(rows), dtype=bool)
    for rule in rules:
        covered |= rule_mask(rule, table, rows)
    return covered


def rule_mask(rule: Rule | PredicateDefinition, table: EncodedTable,
              rows: np.ndarray | None = None,
              literal_rows: Callable[[Literal, np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """Rows where the rule's body holds and no exception does; literals are only evaluated
    on the rows still in play, so long bodies on large tables stay cheap. `literal_rows`:
    what `literal_mask(lit, table, rows)` gives, computed another way (the learner's)."""
    n = table.n_rows if rows is None else len(rows)
    alive = np.arange(n)
    current = rows
    for lit in rule.body:
        keep = (literal_mask(lit, table, current) if literal_rows is None or current is None
                else literal_rows(lit, current))
        alive = alive[keep]
        current = (alive if rows is None else rows[alive])
        if alive.size == 0:
            break
    if rule.exceptions and alive.size:
        sub_rows = alive if rows is None else rows[alive]
        blocked = np.zeros(alive.size, dtype=bool)
        for exc in rule.exceptions:
            open_ = ~blocked
            if not open_.any():
                break
            idx = np.flatnonzero(open_)
            blocked[idx[rule_mask(exc, table, sub_rows[idx], literal_rows)]] = True
        alive = alive[~blocked]
    mask = np.zeros(n, dtype=bool)
    mask[alive] = True
    return mask


def evaluate_ordered(rules: Sequence[Rule], table: EncodedTable
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(labels, confidences, rule_index) of an ordered rule list: None/NaN/-1 where none applies."""
    n = table.n_rows
    labels = np.full(n, None, dtype=object)
    conf = np.full(n, np.nan)
    index = np.full(n, -1, dtype=np.int64)
    remaining = np.arange(n)
    for i, rule in enumerate(rules):
        if remaining.size == 0:
            break
        hit = rule_mask(rule, table, remaining)
        rows = remaining[hit]
        index[rows] = i
        labels[rows] = rule.head
        conf[rows] = np.nan if rule.confidence is None else rule.confidence
        remaining = remaining[~hit]
    return labels, conf, index


def _literals(rule: Rule | PredicateDefinition) -> Iterable[Literal]:
    yield from rule.body
    for exc in rule.exceptions:
        yield from _literals(exc)


def name_rule_values(encodings: Sequence[ColumnEncoding], table: EncodedTable,
                     rules: Iterable[Rule | PredicateDefinition]
                     ) -> tuple[list[ColumnEncoding], EncodedTable]:
    """The encodings (and the table's columns) with every value a `==`/`!=` literal of
    `rules` names told apart, also values the training data never had: otherwise all such
    values share the code of "not seen in training", and a teacher's `gap == negated` holds
    on an answer where the gap is present. The table's codes do not change (no row has a
    value its encoding lacks), only what a literal's value is compared with."""
    named: dict[str, list] = {}
    for rule in rules:
        for lit in _literals(rule):
            if lit.op in ("==", "!="):
                named.setdefault(lit.feature, []).append(lit.value)
    out = []
    for encoding in encodings:
        new = encoding.naming(named[encoding.name]) if encoding.name in named else encoding
        if new is not encoding:
            col = table.columns[encoding.name]
            table.columns[encoding.name] = EncodedColumn(num=col.num, codes=col.codes, encoding=new)
        out.append(new)
    return out, table


def rule_features(rules: Iterable[Rule | PredicateDefinition]) -> list[str]:
    """Feature names used by the rules (bodies and exceptions), in first-use order."""
    seen: dict[str, None] = {}
    for rule in rules:
        for lit in _literals(rule):
            seen.setdefault(lit.feature, None)
    return list(seen)


def split_background(background: Sequence[Rule | PredicateDefinition]
                     ) -> tuple[list[Rule], list[PredicateDefinition]]:
    """Background label rules (kept in order, they come first) and predicate definitions."""
    label_rules: list[Rule] = []
    definitions: list[PredicateDefinition] = []
    for i, item in enumerate(background):
        if isinstance(item, PredicateDefinition):
            definitions.append(item)
        elif isinstance(item, Rule):
            if item.head is None:
                raise ValueError(f"background rule {i} ({item.name or 'unnamed'}) has no head: a "
                                 f"background rule must give a label or define a predicate")
            label_rules.append(item)
        else:
            raise ValueError(f"background item {i} is a {type(item).__name__}, expected Rule or "
                             f"PredicateDefinition")
    return label_rules, definitions


def add_derived_predicates(table: EncodedTable, definitions: Sequence[PredicateDefinition]) -> EncodedTable:
    """Add one boolean column per derived predicate (definitions of one name are or-ed).

    Predicates may use each other; they are computed in dependency order, and a cycle or a
    name clashing with a data column is an error.
    """
    if not definitions:
        return table
    groups: dict[str, list[PredicateDefinition]] = {}
    for d in definitions:
        groups.setdefault(d.name, []).append(d)
    clash = [name for name in groups if name in table.columns]
    if clash:
        raise ValueError(f"derived predicate(s) {', '.join(clash)} have the name of a data column")
    columns = dict(table.columns)
    new = EncodedTable(columns=columns, n_rows=table.n_rows, frame=table.frame)
    pending = dict(groups)
    while pending:
        ready = [name for name, defs in pending.items()
                 if not any(f in pending for f in rule_features(defs))]
        if not ready:
            raise ValueError(f"derived predicates depend on each other in a cycle: {', '.join(pending)}")
        for name in ready:
            mask = np.zeros(table.n_rows, dtype=bool)
            for d in pending.pop(name):
                mask |= rule_mask(d, new)
            columns[name] = boolean_column(name, mask)
    return new


def encode_for_rules(X: pd.DataFrame, features: Iterable[str], derived: Iterable[str] = ()) -> EncodedTable:
    """Encode only the columns the rules use, inferring each column's kind from `X` itself."""
    X = check_frame(X)
    derived = set(derived)
    columns: dict[str, EncodedColumn] = {}
    for name in features:
        if name in derived:
            continue
        if name not in X.columns:
            raise ValueError(f"X has no column {name!r}, which a rule uses")
        columns[name] = encode_column(X[name], infer_encoding(name, X[name]))
    return EncodedTable(columns=columns, n_rows=len(X), frame=X)


def apply_rules(rules: Sequence[Rule], X: pd.DataFrame,
                background: Sequence[Rule | PredicateDefinition] = ()
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Evaluate hand-written (or fitted) ordered rules on a DataFrame.

    Background label rules come first, then `rules`; `rule_index` counts in that combined
    order. Returns (labels: object array, None where no rule applies; confidences: float,
    NaN there or where the rule has no confidence; rule_index: int, -1 there).
    """
    label_rules, definitions = split_background(background)
    ordered = list(label_rules) + list(rules)
    for i, rule in enumerate(ordered):
        if not isinstance(rule, Rule) or rule.head is None:
            raise ValueError(f"rule {i} must be a Rule with a head (a label)")
    names = {d.name for d in definitions}
    clash = sorted(n for n in names if n in X.columns)
    if clash:
        raise ValueError(f"derived predicate(s) {', '.join(clash)} have the name of a data column")
    table = encode_for_rules(X, rule_features(list(ordered) + list(definitions)), names)
    table = add_derived_predicates(table, definitions)
    return evaluate_ordered(ordered, table)
