"""Checking a question's rules against the features the extractor produces and its marks.

Finds, each with file:line:col: unknown features (with the closest name), values a
categorical feature never takes, categorical features compared with numbers and numeric
ones with strings, marks that are not in `marks`, bad derived-predicate names, duplicate
rule names, and predicates that depend on themselves (through `not` the program would not be
stratified; the learner evaluates derived predicates in dependency order, so any cycle is
refused).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from grader.confold.rules import CATEGORICAL_COMPARISONS, Literal, PredicateDefinition, Rule
from grader.confold.asp_terms import RESERVED_PREDICATES
from knowledge.errors import Problem, did_you_mean, source_name
from knowledge.schema import TERM_VALUES, FeatureSpec, Question, rubric_feature_specs, split_feature_name

#: Families whose names come from the text (the extractor's ref:* and term:* features).
OPEN_FAMILIES = ("ref", "term")


class _Checker:
    def __init__(self, question: Question, specs: Sequence[FeatureSpec], open_families: Sequence[str]):
        self.question = question
        self.specs = {s.name: s for s in specs}
        self.open_families = tuple(open_families)
        self.positions: dict = getattr(question, "_knowledge_positions", {})
        self.file = source_name(question.source)
        self.problems: list[Problem] = []
        self.derived = {d.name for d in question.background if isinstance(d, PredicateDefinition)}

    def where(self, obj, literal_index: int | None = None, head: bool = False) -> tuple[str, int, int]:
        entry = self.positions.get(id(obj))
        if entry is None:
            return self.file, 1, 1
        file, pos, literals, head_pos = entry
        if head:
            return file, *head_pos
        if literal_index is not None and literal_index < len(literals):
            return file, *literals[literal_index]
        return file, *pos

    def add(self, where: tuple[str, int, int], message: str, expected: str | None = None) -> None:
        self.problems.append(Problem(where[0], where[1], where[2], message, expected))

    # -- literals -------------------------------------------------------------------------
    def known_names(self) -> list[str]:
        return sorted(self.specs) + sorted(self.derived)

    def literal(self, lit: Literal, where) -> None:
        name = lit.feature
        if name in self.derived:
            if lit.op not in CATEGORICAL_COMPARISONS or not isinstance(lit.value, bool):
                self.add(where, f"derived predicate '{name}' is true or false; it cannot be compared "
                                f"with {lit.value!r}", f"{name} or not {name}")
            return
        spec = self.specs.get(name)
        family, short = split_feature_name(name)
        if spec is None and family in self.open_families and short:
            spec = FeatureSpec(name, "categorical", TERM_VALUES)
        if spec is None:
            self.add(where, f"unknown feature '{name}'{self.suggest(name)}",
                     "a feature of this question (concept:NAME, quantity:NAME, value:NAME, "
                     "misconception:NAME, ref:NAME, term:NAME, coverage, precision, length, "
                     "non_answer) or a predicate defined under background")
            return
        if spec.kind == "categorical":
            if lit.op not in CATEGORICAL_COMPARISONS:
                self.add(where, f"'{name}' is categorical and is compared with a number ({lit.op} {lit.value!r})",
                         f"== or != with one of {', '.join(spec.values or ())}")
            elif spec.values is not None and str(lit.value) not in spec.values:
                self.add(where, f"'{name}' never has the value {lit.value!r}"
                                + did_you_mean(str(lit.value), spec.values),
                         f"one of {', '.join(spec.values)}")
        elif spec.kind == "numeric":
            if lit.op in CATEGORICAL_COMPARISONS and (isinstance(lit.value, (str, bool))):
                self.add(where, f"'{name}' is numeric and is compared with {lit.value!r}",
                         "<=, >, < or >= with a number, e.g. " + f"{name} > 0.5")

    def suggest(self, name: str) -> str:
        return did_you_mean(name, self.known_names(), score_cutoff=70)

    def rule(self, rule: Rule | PredicateDefinition) -> None:
        for i, lit in enumerate(rule.body):
            self.literal(lit, self.where(rule, i))
        for exc in rule.exceptions:
            self.rule(exc)

    # -- whole question ---------------------------------------------------------------------
    def run(self) -> list[Problem]:
        q = self.question
        marks = set(q.marks)
        label_rules = [r for r in q.background if isinstance(r, Rule)] + list(q.initial_rules)
        for rule in list(q.background) + list(q.initial_rules):
            self.rule(rule)
        for rule in label_rules:
            if rule.head is None:
                self.add(self.where(rule), "a top-level rule has no mark", "mark: LABEL")
            elif marks and str(rule.head) not in marks:
                self.add(self.where(rule, head=True), f"mark '{rule.head}' is not one of the marks",
                         f"one of {', '.join(dict.fromkeys(q.marks))}")  # a mark written twice: once
        seen: dict[str, object] = {}
        for rule in label_rules:
            if rule.name:  # one idea said several ways (`any:`, or ASP rules sharing their ab) shares a name
                if rule.name in seen and not _alike(seen[rule.name], rule):
                    first = self.where(seen[rule.name])
                    self.add(self.where(rule), f"duplicate rule name '{rule.name}' (first at line {first[1]})",
                             "a different name for each rule")
                seen.setdefault(rule.name, rule)
        described: dict[str, PredicateDefinition] = {}
        for definition in q.background:
            if isinstance(definition, PredicateDefinition):
                self.predicate_name(definition)
                self.one_description(definition, described)
        self.cycles()
        return self.problems

    def predicate_name(self, d: PredicateDefinition) -> None:
        name = d.name
        bad = None
        if name in self.specs or split_feature_name(name)[0] is not None:
            bad = "has the name of a feature"
        elif name in RESERVED_PREDICATES or name == "mark" or re.fullmatch(r"mark_\d+|ab(\d+|_\w+)", name):
            bad = "uses a reserved name (answer, feature, num, float, mark, mark_N, abN)"
        if bad:
            self.add(self.where(d), f"derived predicate '{name}' {bad}", "another name")

    def one_description(self, d: PredicateDefinition, described: dict[str, PredicateDefinition]) -> None:
        """A predicate defined several times (alternatives) is described once, or alike."""
        if d.description is None:
            return
        first = described.setdefault(d.name, d)
        if first.description != d.description:
            self.add(self.where(d), f"derived predicate '{d.name}' is described differently here "
                                    f"than at line {self.where(first)[1]} ({first.description!r})",
                     "one description, on one of its definitions")

    def cycles(self) -> None:
        """Report each cycle among derived predicates once (through `not`: not stratified)."""
        edges: dict[str, list[tuple[str, bool, object, int]]] = {}
        for d in self.question.background:
            if isinstance(d, PredicateDefinition):
                for target, negative, owner, i in _dependencies(d, self.derived):
                    edges.setdefault(d.name, []).append((target, negative, owner, i))
        reported: set[frozenset] = set()
        for start in sorted(edges):
            for target, negative, owner, i in edges[start]:
                path = _path(edges, target, start)
                if path is None:
                    continue
                cycle = [start] + path
                key = frozenset(cycle)
                if key in reported:
                    continue
                reported.add(key)
                steps = _describe_cycle(edges, cycle)
                if any(neg for _, neg in steps):
                    text = " -> ".join((f"not {n}" if neg else n) for n, neg in steps)
                    self.add(self.where(owner, i), f"'{start}' depends on itself through not ({start} -> {text}); "
                                                   "the program would not be stratified",
                             "rules that do not refer back to themselves through not")
                else:
                    text = " -> ".join(n for n, _ in steps)
                    self.add(self.where(owner, i), f"'{start}' depends on itself ({start} -> {text})",
                             "derived predicates that do not refer back to themselves")


def _alike(first: Rule, other: Rule) -> bool:
    """Rules of one name that say one idea several ways: the same mark and exceptions."""
    return first.head == other.head and first.exceptions == other.exceptions


def _dependencies(rule, derived: set[str], negative: bool = False) -> Iterable[tuple[str, bool, object, int]]:
    for i, lit in enumerate(rule.body):
        if lit.feature in derived:
            yield lit.feature, negative or lit.op == "!=" or lit.value is False, rule, i
    for exc in rule.exceptions:
        yield from _dependencies(exc, derived, True)


def _path(edges, source: str, goal: str) -> list[str] | None:
    """Shortest path source ->* goal (as the list of nodes after the first edge), or None."""
    previous: dict[str, str | None] = {source: None}
    queue = [source]
    while queue:
        node = queue.pop(0)
        if node == goal:
            out = [node]
            while previous[out[-1]] is not None:
                out.append(previous[out[-1]])
            return out[::-1]
        for nxt, _, _, _ in edges.get(node, ()):
            if nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return None


def _describe_cycle(edges, cycle: list[str]) -> list[tuple[str, bool]]:
    steps = []
    for a, b in zip(cycle, cycle[1:]):
        negative = any(neg for t, neg, _, _ in edges.get(a, ()) if t == b)
        steps.append((b, negative))
    return steps


def validate_question(question: Question, specs: Sequence[FeatureSpec] | None = None) -> list[Problem]:
    """Every problem of the question's rules against the features and marks (empty: valid).

    `specs` defaults to the rubric's features plus any `ref:*`/`term:*` name; the pipeline
    passes a fitted extractor's `feature_specs_` (then only those names are allowed).
    """
    if specs is None:
        checker = _Checker(question, rubric_feature_specs(question), OPEN_FAMILIES)
    else:
        checker = _Checker(question, specs, ())
    return checker.run()
