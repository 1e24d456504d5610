"""From parsed ASP clauses to the learner's rule objects (`parse_program`).

Reads both the teacher's plain form (`mark(X,'1') :- concept(X,gap,present), not ab1(X).`,
rules in file order) and the FOLD-RM encoding `write_program` writes (`mark(X,'1') :-
mark_2(X), not mark_1(X).` with the body in `mark_2`). Unary predicates named `abN` or
`ab_name` are exceptions; other defined unary predicates are derived predicates
(`PredicateDefinition`). `answer(X)` is the reserved domain predicate and is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.confold.rules import Literal, PredicateDefinition, Rule
from knowledge.asp_parser import (_AB, _FLIP, ORDER_OPS, ORIGINS, Atom, Clause, Comparison,
                                  Term, _key_to_float, _Parser, description_text)
from knowledge.errors import KnowledgeError, Problem, source_name
from knowledge.yaml_rules import description_problem


@dataclass
class Program:
    """A parsed program: the ordered top-level rules and the background knowledge."""

    rules: list[Rule] = field(default_factory=list)
    background: list[Rule | PredicateDefinition] = field(default_factory=list)
    #: id(rule) -> ((line, col) of the rule, [(line, col) of each body literal]); for messages
    positions: dict = field(default_factory=dict, compare=False, repr=False)


class _Builder:
    def __init__(self, clauses: list[Clause], file: str, target: str | None, origin: str):
        self.file = file
        self.origin = origin
        self.problems: list[Problem] = []
        self.clauses = clauses
        self.target = target or self._find_target()
        self.aux = re.compile(re.escape(self.target) + r"_\d+\Z")
        self.defined: dict[str, list[Clause]] = {}
        for c in clauses:
            if len(c.head.args) == 1:
                self.defined.setdefault(c.head.name, []).append(c)
        self.used_ab: set[str] = set()
        self.positions: dict[int, tuple] = {}
        self._last_positions: list[tuple[int, int]] = []

    def problem(self, where, message: str, expected: str | None = None) -> None:
        self.problems.append(Problem(self.file, where.line, where.col, message, expected))

    def _find_target(self) -> str:
        names = []
        for c in self.clauses:
            if len(c.head.args) == 2 and c.head.name not in names:
                names.append(c.head.name)
        if len(names) > 1:
            c = next(c for c in self.clauses if c.head.name == names[1] and len(c.head.args) == 2)
            self.problem(c.head, f"rules predict both {names[0]}/2 and {names[1]}/2",
                         f"one target predicate, e.g. {names[0]}(X,LABEL)")
        return names[0] if names else "mark"

    # -- terms ---------------------------------------------------------------------------
    def value(self, term: Term):
        if term.kind in ("const", "num"):
            return term.value
        if term.kind == "fn" and term.value in ("float", "int") and len(term.args) == 1 \
                and term.args[0].kind == "const" and isinstance(term.args[0].value, str):
            try:
                return (float if term.value == "float" else int)(term.args[0].value)
            except ValueError:
                pass
        self.problem(term, "expected a value (a name, a number or a quoted string)", "a constant")
        return None

    def answer_var(self, clause: Clause) -> str | None:
        head = clause.head
        if not head.args or head.args[0].kind != "var":
            self.problem(head, f"the first argument of {head.name} must be the answer variable",
                         f"{head.name}(X{',LABEL' if len(head.args) == 2 else ''})")
            return None
        return head.args[0].value

    # -- bodies --------------------------------------------------------------------------
    def body(self, clause: Clause, var: str, stack: tuple[str, ...],
             skip: tuple[str, ...] = ()) -> tuple[tuple[Literal, ...], list[Rule]]:
        """The literals and exceptions of a clause body; records where each literal is."""
        literals: list[Literal] = []
        where: list[tuple[int, int]] = []
        exceptions: list[Rule] = []
        bound: dict[str, str] = {}
        compared: set[str] = set()
        for el in clause.body:
            if isinstance(el, Atom) and el.args and el.args[-1].kind in ("var", "fn") and not el.negated:
                last = el.args[-1]
                inner = last.args[0] if last.kind == "fn" and last.value == "num" and len(last.args) == 1 else last
                if inner.kind == "var" and inner.value != var and len(el.args) in (2, 3):
                    feature = self.feature_name(el, var)
                    if feature is not None:
                        if inner.value in bound:
                            self.problem(inner, f"variable {inner.value} is bound twice",
                                         "a new variable for each feature atom")
                        bound[inner.value] = feature
        for el in clause.body:
            if isinstance(el, Comparison):
                compared.update(t.value for t in (el.left, el.right) if t.kind == "var")
                lit = self.comparison(el, bound)
                if lit is not None:
                    literals.append(lit)
                    where.append((el.line, el.col))
                continue
            if el.name == "answer" and len(el.args) == 1:
                continue
            if el.name in skip:
                continue
            if len(el.args) == 1 and _AB.match(el.name) and el.name in self.defined:
                if not el.negated:
                    self.problem(el, f"exception {el.name} used without 'not'", f"not {el.name}(X)")
                elif el.name in stack:
                    cycle = " -> ".join(stack[stack.index(el.name):] + (el.name,))
                    self.problem(el, f"exception {el.name} depends on itself through not ({cycle})",
                                 "exceptions that do not refer back to themselves")
                else:
                    self.used_ab.add(el.name)
                    for c in self.defined[el.name]:
                        v = self.answer_var(c)
                        lits, excs = self.body(c, v or "X", stack + (el.name,))
                        exceptions.append(self.located(Rule(None, lits, excs), c))
                continue
            lit = self.atom_literal(el, var)
            if lit is not None:
                literals.append(lit)
                where.append((el.line, el.col))
        self._last_positions = where
        for name, feature in bound.items():
            if name not in compared:
                self.problem(clause.head, f"variable {name} of {feature} is not compared with a number",
                             f"a comparison such as {name} > 0.5")
        return tuple(literals), exceptions

    def description(self, clause: Clause) -> str | None:
        """The text of the `% description: ...` comment before a derived predicate's clause."""
        if clause.description is None:
            return None
        text = description_text(clause.description)
        problem = description_problem(text)
        if problem:
            self.problem(clause.description, problem, "% description: gives a plausible g")
            return None
        return text

    def located(self, obj, clause: Clause, head_clause: Clause | None = None):
        """Remember where `obj` (a rule built from `clause`) and its literals are."""
        head = head_clause or clause
        label = head.head.args[-1] if len(getattr(head.head, "args", ())) >= 2 else head
        self.positions[id(obj)] = ((head.line, head.col), list(self._last_positions),
                                   (label.line, label.col))  # where the mark is written
        return obj

    def feature_name(self, atom: Atom, var: str) -> str | None:
        if not atom.args or atom.args[0].kind != "var" or atom.args[0].value != var:
            self.problem(atom, f"the first argument of {atom.name} must be the answer variable {var}",
                         f"{atom.name}({var},...)")
            return None
        if len(atom.args) == 3:
            name = atom.args[1]
            if name.kind != "const" or not isinstance(name.value, str):
                self.problem(name, f"the second argument of {atom.name} must name a {atom.name}",
                             "a name")
                return None
            return name.value if atom.name == "feature" else f"{atom.name}:{name.value}"
        return atom.name

    def atom_literal(self, atom: Atom, var: str) -> Literal | None:
        if len(atom.args) not in (1, 2, 3):
            self.problem(atom, f"{atom.name} has {len(atom.args)} arguments",
                         "p(X), feature(X,VALUE) or family(X,NAME,VALUE)")
            return None
        feature = self.feature_name(atom, var)
        if feature is None:
            return None
        op = "!=" if atom.negated else "=="
        if len(atom.args) == 1:
            return Literal(feature, op, True)
        last = atom.args[-1]
        if last.kind == "var" or (last.kind == "fn" and last.value == "num"):
            if atom.negated:
                self.problem(atom, f"'not' before {atom.name} with a variable value",
                             "not with a constant value, or a comparison")
            return None
        value = self.value(last)
        return None if value is None else Literal(feature, op, value)

    def comparison(self, cmp: Comparison, bound: dict[str, str]) -> Literal | None:
        left, op, right = cmp.left, cmp.op, cmp.right
        if left.kind != "var" and right.kind == "var":
            left, right, op = right, left, _FLIP.get(op, op)
        if left.kind != "var":
            self.problem(cmp, "a comparison needs a variable bound to a numeric feature",
                         "e.g. coverage(X,V), V > 0.5")
            return None
        if op not in ORDER_OPS:
            self.problem(cmp, f"comparison {op!r} is not an order comparison", "one of <= > < >=")
            return None
        if left.value not in bound:
            self.problem(left, f"variable {left.value} is not bound by a feature atom",
                         f"e.g. coverage(X,{left.value}) before the comparison")
            return None
        if right.kind == "num":
            number = float(right.value)
        elif right.kind == "const" and isinstance(right.value, str) and _key_to_float(right.value) is not None:
            number = _key_to_float(right.value)
        else:
            self.problem(right, f"{bound[left.value]} is numeric and compared with a non-number",
                         "a number")
            return None
        return Literal(bound[left.value], op, number)

    # -- program -------------------------------------------------------------------------
    def top_level(self, clause: Clause, index_of: dict[str, int], earlier: list[str]) -> Rule | None:
        head = clause.head
        var = self.answer_var(clause)
        if var is None:
            return None
        label = self.value(head.args[1])
        aux = [el for el in clause.body if isinstance(el, Atom) and not el.negated
               and len(el.args) == 1 and self.aux.match(el.name) and el.name in self.defined]
        if aux:
            name = aux[0].name
            guards = {el.name for el in clause.body if isinstance(el, Atom) and el.negated
                      and len(el.args) == 1 and self.aux.match(el.name)}
            if guards != set(earlier):
                self.problem(clause.head, f"rule {name} is not guarded by exactly the earlier rules",
                             ", ".join(f"not {n}(X)" for n in earlier) or "no guard")
            definitions = self.defined[name]
            if len(definitions) > 1:
                self.problem(definitions[1].head, f"{name} is defined more than once", "one clause")
            earlier.append(name)
            body_clause = definitions[0]
            var = self.answer_var(body_clause) or var
            lits, excs = self.body(body_clause, var, ())
        else:
            lits, excs = self.body(clause, var, ())
        where = list(self._last_positions)
        tags, name = (), None
        if clause.annotation is not None:
            tags = tuple(t.strip() for t in (clause.annotation.group(1) or "").split(",") if t.strip())
            name = clause.annotation.group(2)
        origin = self.origin
        fixed = None
        for tag in tags:
            if tag in ORIGINS:
                origin = tag
            elif tag == "confidence fixed":
                fixed = True
            else:
                self.problem(clause, f"unknown tag {tag!r} in the rule comment",
                             "learned, initial, background or 'confidence fixed'")
        confidence = clause.confidence if clause.confidence is not None else clause.comment_confidence
        if fixed is None:
            fixed = bool(tags) is False and confidence is not None
        rule = Rule(label, lits, excs, confidence=confidence, fixed_confidence=fixed,
                    origin=origin, name=name)
        self._last_positions = where
        return self.located(rule, clause)

    def build(self) -> Program:
        program = Program()
        earlier: list[str] = []
        for clause in self.clauses:
            head = clause.head
            derived = len(head.args) == 1 and not (self.aux.match(head.name) or _AB.match(head.name)
                                                   or head.name == "answer")
            if clause.description is not None and not derived:
                self.problem(clause.description, "a description belongs before a derived predicate's rule",
                             "% description: ... on the line before p(X) :- ...")
            if len(head.args) == 2 and head.name == self.target:
                rule = self.top_level(clause, {}, earlier)
                if rule is not None:
                    (program.background if rule.origin == "background" else program.rules).append(rule)
            elif len(head.args) == 1:
                if self.aux.match(head.name) or _AB.match(head.name) or head.name == "answer":
                    continue
                var = self.answer_var(clause)
                lits, excs = self.body(clause, var or "X", ())
                definition = PredicateDefinition(head.name, lits, excs, self.description(clause))
                program.background.append(self.located(definition, clause))
            else:
                self.problem(head, f"unexpected head {head.name}/{len(head.args)}",
                             f"{self.target}(X,LABEL) or a derived predicate p(X)")
        for name, clauses in self.defined.items():
            if _AB.match(name) and name not in self.used_ab:
                self.problem(clauses[0].head, f"exception {name} is not used by any rule",
                             f"'not {name}(X)' in a rule body")
            if self.aux.match(name) and name not in earlier:
                self.problem(clauses[0].head, f"{name} is not used by any {self.target} rule",
                             f"{self.target}(X,LABEL) :- {name}(X).")
        return program


def parse_program(text: str, source: str | Path | None = None, origin: str = "initial",
                  target: str | None = None, line: int = 1, column: int = 1, indent: int = 0) -> Program:
    """Parse ASP rules into a `Program`; raises `KnowledgeError` listing every problem.

    `origin` is given to rules without a `% rule N (origin)` comment ("background" rules go
    to `Program.background`); `target` is the head predicate (found from the heads if None);
    `line`/`column` place the text inside a larger file (a rule string in a YAML file), and
    `indent` shifts the columns of its later lines (a YAML block scalar).
    """
    if not isinstance(text, str):
        raise KnowledgeError([Problem(source_name(source), line, column,
                                      f"expected ASP text, got {type(text).__name__}")])
    parser = _Parser(text, source_name(source), line, column, indent)
    clauses = parser.clauses()
    builder = _Builder(clauses, source_name(source), target, origin)
    try:
        program = builder.build()
    except RecursionError:
        builder.problem(clauses[0].head if clauses else parser.tokens[-1], "exceptions nested too deeply")
        program = Program()
    program.positions = builder.positions
    problems = parser.problems + builder.problems
    if problems:
        raise KnowledgeError(sorted(problems, key=lambda p: (p.line, p.column)))
    return program
