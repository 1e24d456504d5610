"""Rules as answer set programs: `write_program` and `parse_program`.

The written program follows FOLD-RM (section 4.2): the ordered top-level rules become

    mark(X,'1') :- mark_1(X).
    mark(X,'0') :- mark_2(X), not mark_1(X).
    mark_1(X) :- concept(X,gap,present), not ab1(X).
    ab1(X) :- coverage(X,V1), V1 <= 0.2.

so that a rule applies only when no earlier rule did, with one `abN(X)` rule per exception
(exceptions of exceptions recursively). Background label rules come first, then `rules`,
which is the order the learner's evaluator uses. Derived predicates (`PredicateDefinition`)
are written as they are: `plausible_g(X) :- value(X,acceleration,V1), V1 >= 9.`, after a
`% description: ...` line when they have a description.

A comment line `% rule N (origin, confidence fixed): name` before each top-level rule
carries what ASP cannot say (who wrote the rule, its name); `parse_program` reads it back so
that `parse_program(write_program(r, b)) == Program(r, b)`. A teacher's plain file needs no
such comments: its `mark(X,...) :- ...` rules are taken in file order.
"""

from __future__ import annotations

from typing import Sequence

from grader.confold.asp_terms import (constant, feature_atom, float_key, format_number,
                                      is_identifier, unary_ok)
from grader.confold.rules import CATEGORICAL_COMPARISONS, Literal, PredicateDefinition, Rule

CONFIDENCE_STYLES = ("prefix", "comment", "none")
DIALECTS = ("plain", "clingo")


class _Writer:
    def __init__(self, target: str, dialect: str):
        if not is_identifier(target):
            raise ValueError(f"target {target!r} is not a valid ASP predicate name "
                             "(expected a lowercase letter followed by letters, digits or _)")
        if dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r}; expected one of {DIALECTS}")
        self.target = target
        self.dialect = dialect
        self.n_ab = 0
        self.derived: set[str] = set()

    def predicate_ok(self, name: str) -> bool:
        return unary_ok(name, self.target)

    def literal(self, lit: Literal, var: str) -> str:
        d = self.dialect
        if lit.op in CATEGORICAL_COMPARISONS:
            if lit.feature in self.derived and lit.value is False:
                # a derived predicate is true or false: `p == False` is `not p(X)`
                return f"{lit.feature}(X)" if lit.op == "!=" else f"not {lit.feature}(X)"
            if lit.value is True and self.predicate_ok(lit.feature):
                atom = f"{lit.feature}(X)"  # a derived predicate, or a boolean feature
            else:
                atom = feature_atom(lit.feature, constant(lit.value, d), d, self.target)
            return atom if lit.op == "==" else f"not {atom}"
        value = lit.value.item() if hasattr(lit.value, "item") else lit.value  # numpy scalars
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"literal {lit.feature} {lit.op} {value!r}: an order comparison "
                             "needs a number")
        if d == "clingo":
            return f'{feature_atom(lit.feature, f"num({var})", d, self.target)}, {var} {lit.op} "{float_key(value)}"'
        return f"{feature_atom(lit.feature, var, d, self.target)}, {var} {lit.op} {format_number(value)}"

    def body(self, literals: Sequence[Literal], exceptions: Sequence[Rule]) -> tuple[list[str], list[str]]:
        """The body of a clause and the `ab` clauses of its exceptions (depth first)."""
        parts = ["answer(X)"] if self.dialect == "clingo" else []
        n_var = 0
        for lit in literals:
            if lit.op not in CATEGORICAL_COMPARISONS:
                n_var += 1
            parts.append(self.literal(lit, f"V{n_var}"))
        extra: list[str] = []
        for exc in exceptions:
            self.n_ab += 1
            name = f"ab{self.n_ab}"
            parts.append(f"not {name}(X)")
            exc_parts, exc_extra = self.body(exc.body, exc.exceptions)
            extra.append(self.clause(f"{name}(X)", exc_parts))
            extra += exc_extra
        return parts, extra

    def clause(self, head: str, parts: Sequence[str]) -> str:
        if not parts:
            parts = ["answer(X)"]  # an unconditional rule still needs X bound
        return f"{head} :- {', '.join(parts)}."


def _annotation(index: int, rule: Rule) -> str:
    tags = [rule.origin] + (["confidence fixed"] if rule.fixed_confidence else [])
    text = f"% rule {index} ({', '.join(tags)})"
    return text + (f": {rule.name}" if rule.name else "")


def write_program(rules: Sequence[Rule], background: Sequence[Rule | PredicateDefinition] = (),
                  target: str = "label", confidence_style: str = "prefix",
                  dialect: str = "plain") -> str:
    """The FOLD-RM-style answer set program of an ordered rule list (see the module doc).

    `confidence_style`: "prefix" writes `0.93::mark(...)`, "comment" a trailing
    `% confidence 0.93`, "none" leaves confidences out. `dialect="clingo"` writes what clingo
    runs (see `grader.confold.asp_terms`); its confidences are always comments.
    Deterministic: the same rules give the same text. A derived predicate compared with False
    is written with `not` (`p == False` is `not p(X)`), so it reads back as `p != True`.
    """
    if confidence_style not in CONFIDENCE_STYLES:
        raise ValueError(f"unknown confidence_style {confidence_style!r}; "
                         f"expected one of {CONFIDENCE_STYLES}")
    if dialect == "clingo" and confidence_style == "prefix":
        confidence_style = "comment"
    w = _Writer(target, dialect)
    w.derived = {d.name for d in background if isinstance(d, PredicateDefinition)}
    blocks: list[str] = []
    if dialect == "clingo":
        blocks.append("% clingo dialect: numbers are num(K) with K an order key "
                      "(grader.confold.asp_terms.float_key); answer(X) lists the answers.")
    index = 0
    for item in list(background) + list(rules):
        if isinstance(item, PredicateDefinition):
            if not w.predicate_ok(item.name):
                raise ValueError(f"derived predicate name {item.name!r} is not a valid ASP name here "
                                 f"(lowercase letters, digits and _; not answer, feature, num, float, "
                                 f"abN or {target}_N)")
            parts, extra = w.body(item.body, item.exceptions)
            described = [f"% description: {' '.join(item.description.split())}"] if item.description else []
            blocks.append("\n".join(described + [w.clause(f"{item.name}(X)", parts)] + extra))
            continue
        if item.head is None:
            raise ValueError("a top-level rule needs a head (the label it predicts)")
        index += 1
        aux = f"{target}_{index}"
        head = f"{target}(X,{constant(item.head, dialect, force_quote=isinstance(item.head, str))})"
        guard = [f"{aux}(X)"] + [f"not {target}_{j}(X)" for j in range(index - 1, 0, -1)]
        line = f"{head} :- {', '.join(guard)}."
        if item.confidence is not None:
            if confidence_style == "prefix":
                line = f"{format_number(float(item.confidence))}::{line}"
            elif confidence_style == "comment":
                line += f"  % confidence {format_number(float(item.confidence))}"
        parts, extra = w.body(item.body, item.exceptions)
        lines = [_annotation(index, item), line, w.clause(f"{aux}(X)", parts)] + extra
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def rules_to_asp(rules: Sequence[Rule], background: Sequence[Rule | PredicateDefinition] = (),
                 target: str = "mark", confidence_style: str = "prefix") -> str:
    """The question file's spelling of rules (target `mark`)."""
    return write_program(rules, background, target=target, confidence_style=confidence_style)
