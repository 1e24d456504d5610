"""Rules as structured YAML (or JSON), both ways.

A top-level rule is a mapping

    name: value_without_direction      # optional
    mark: "0.5"                        # the label it gives
    if: ["quantity:acceleration == correct", "coverage > 0.3"]
    unless: ["concept:downward == present"]   # each item is one exception
    confidence: 0.9                    # optional; a teacher's confidence is kept (fixed)

A condition is a string `FEATURE OP VALUE` (OP one of == != <= > < >=), or `PREDICATE` /
`not PREDICATE` for a derived predicate. An exception (an item of `unless`) is a condition,
a list of conditions (all must hold), or a mapping `{if: [...], unless: [...]}` when it has
exceptions of its own. An item of `if` may be `{any: [A, B, [C, D]]}`: one of the
alternatives holds (each a condition or a list of conditions that all hold); the rule is read
as one rule per alternative, alike but for its conditions (an idea said several ways, with
the same exceptions written once). A derived predicate is `{define: NAME, if: [...], unless: [...]}`, with
an optional `description:` (what it says, shown to markers instead of its name).

Values: a bare word is a string, `true`/`false` booleans, bare numbers numbers, and a
double-quoted JSON string is a string (`"0.5"`, `"light bulb"`). `rules_to_dicts` writes
values so that `rules_from_dicts` gives back the same objects.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import yaml

from grader.confold.rules import COMPARISONS, NUMERIC_COMPARISONS, Literal, PredicateDefinition, Rule
from knowledge.errors import did_you_mean
from knowledge.numbers import read_number
from knowledge.schema import NAME

RULE_KEYS = ("name", "mark", "if", "unless", "confidence", "confidence_fixed", "origin")
DEFINE_KEYS = ("define", "description", "if", "unless")
EXCEPTION_KEYS = ("if", "unless")
ANY_KEYS = ("any",)
#: Rules one structured rule may stand for through its `any:` items (their combinations).
MAX_ALTERNATIVES = 64
_CONDITION = re.compile(r"\s*(?:(not)\s+)?(.+?)\s*(==|!=|<=|>=|<|>)\s*(.+?)\s*\Z", re.DOTALL)
_PREDICATE = re.compile(r"\s*(?:(not)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\Z")
_BARE = re.compile(r"[A-Za-z_?][A-Za-z0-9_.?-]*\Z")
_INT = re.compile(r"[+-]?\d+\Z")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z|[+-]?inf\Z")
MAX_CONDITION_LENGTH = 500
MAX_DESCRIPTION_LENGTH = 200  # a derived predicate's description is read inside a rule's line
_NEGATE = {"==": "!=", "!=": "==", "<=": ">", ">": "<=", "<": ">=", ">=": "<"}


class RuleFormatError(ValueError):
    """One malformed piece of a structured rule; `where` is the object it is about."""

    def __init__(self, message: str, expected: str | None = None, where: Any = None):
        super().__init__(message)
        self.message, self.expected, self.where = message, expected, where


def description_problem(text: Any) -> str | None:
    """What is wrong with a derived predicate's description, or None: it is one line of text
    a marker reads inside a rule ("... if gives a plausible g and ..."). Its length is that of
    the text as read, spaces made single, as both the YAML and the ASP readers keep it."""
    if not isinstance(text, str):
        return f"a description is text, not {type(text).__name__}"
    read = " ".join(text.split())
    if not read:
        return "the description is empty"
    if len(read) > MAX_DESCRIPTION_LENGTH:
        return f"the description is {len(read)} characters long (at most {MAX_DESCRIPTION_LENGTH})"
    return None


# -- values and conditions ---------------------------------------------------------------
def format_value(value: Any) -> str:
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _BARE.match(text) and text not in ("true", "false", "not", "inf", "nan") \
            and not _FLOAT.match(text):
        return text
    return json.dumps(text, ensure_ascii=False)


def parse_value(text: str) -> Any:
    text = text.strip()
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as err:
            raise RuleFormatError(f"malformed quoted value {text}: {err.msg}",
                                  'a value in double quotes, e.g. "light bulb"') from None
        if not isinstance(value, str):
            raise RuleFormatError(f"malformed quoted value {text}", "one quoted string")
        return value
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    if _INT.match(text) or _FLOAT.match(text):
        try:
            return read_number(text)
        except ValueError as err:
            raise RuleFormatError(str(err), "a number like 0.5") from None
    if not text:
        raise RuleFormatError("missing value after the comparison", "a value, e.g. present or 0.5")
    return text


def format_condition(lit: Literal) -> str:
    if lit.value is True and lit.op in ("==", "!=") and _PREDICATE.match(lit.feature) \
            and ":" not in lit.feature:
        return lit.feature if lit.op == "==" else f"not {lit.feature}"
    return f"{lit.feature} {lit.op} {format_value(lit.value)}"


def parse_condition(text: Any) -> Literal:
    """`"concept:gap == present"` -> Literal; `"not plausible_g"` -> Literal(.., "!=", True)."""
    if not isinstance(text, str):
        raise RuleFormatError(f"a condition must be a string, not {type(text).__name__}",
                              "a string like 'concept:gap == present'")
    if len(text) > MAX_CONDITION_LENGTH:
        raise RuleFormatError(f"condition of {len(text)} characters", f"at most {MAX_CONDITION_LENGTH}")
    m = _PREDICATE.match(text)
    if m:
        return Literal(m.group(2), "!=" if m.group(1) else "==", True)
    m = _CONDITION.match(text)
    if not m:
        raise RuleFormatError(f"malformed condition {text!r}",
                              "FEATURE OP VALUE with OP one of == != <= > < >=, or a predicate name")
    negated, feature, op, raw = m.groups()
    if re.search(r"[=<>!]", feature) or re.match(r"[=<>!]", raw):
        raise RuleFormatError(f"malformed condition {text!r}",
                              "FEATURE OP VALUE with OP one of == != <= > < >=, or a predicate name")
    if op not in COMPARISONS:  # pragma: no cover - the regex only finds these
        raise RuleFormatError(f"unknown comparison {op!r}", " ".join(COMPARISONS))
    if negated:
        op = _NEGATE[op] if op in ("==", "!=") else None
        if op is None:
            raise RuleFormatError(f"'not' before an order comparison in {text!r}",
                                  "the opposite comparison, e.g. 'coverage <= 0.5'")
    value = parse_value(raw)
    if op in NUMERIC_COMPARISONS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RuleFormatError(f"{feature} {op} needs a number, got {raw!r}", "a number")
        value = float(value)
        if math.isnan(value):
            raise RuleFormatError(f"{feature} {op} nan", "a number")
    return Literal(feature.strip(), op, value)


# -- rules to plain data ------------------------------------------------------------------
def _exception_to_data(exc: Rule) -> Any:
    conditions = [format_condition(lit) for lit in exc.body]
    if exc.exceptions:
        return {"if": conditions, "unless": [_exception_to_data(e) for e in exc.exceptions]}
    return conditions[0] if len(conditions) == 1 else conditions


def rule_to_dict(rule: Rule | PredicateDefinition, default_origin: str = "initial") -> dict:
    if isinstance(rule, PredicateDefinition):
        out: dict = {"define": rule.name}
        if rule.description is not None:
            out["description"] = rule.description
        out["if"] = [format_condition(l) for l in rule.body]
    else:
        out = {}
        if rule.name:
            out["name"] = rule.name
        out["mark"] = rule.head.item() if hasattr(rule.head, "item") else rule.head  # numpy scalars
        out["if"] = [format_condition(l) for l in rule.body]
    if rule.exceptions:
        out["unless"] = [_exception_to_data(e) for e in rule.exceptions]
    if isinstance(rule, Rule):
        if rule.confidence is not None:
            out["confidence"] = float(rule.confidence)
        if rule.fixed_confidence != (rule.confidence is not None):
            out["confidence_fixed"] = rule.fixed_confidence
        if rule.origin != default_origin:
            out["origin"] = rule.origin
    return out


def rules_to_dicts(rules: Sequence[Rule | PredicateDefinition], default_origin: str = "initial") -> list[dict]:
    return [rule_to_dict(r, default_origin) for r in rules]


def rules_to_yaml(rules: Sequence[Rule | PredicateDefinition], default_origin: str = "initial") -> str:
    """Structured YAML for a list of rules (and derived predicates)."""
    return yaml.safe_dump(rules_to_dicts(rules, default_origin), sort_keys=False,
                          allow_unicode=True, width=100)


# -- plain data to rules ------------------------------------------------------------------
@dataclass
class DataReader:
    """Reads rule mappings, reporting each problem through `report(message, expected, where)`.

    `where` is the piece of data the problem is about; the question-file loader maps it back
    to a line and column (its YAML nodes), a plain caller ignores it.
    """

    report: Callable[[str, str | None, Any], None]
    default_origin: str = "initial"

    def conditions(self, value: Any, where: Any) -> tuple[Literal, ...]:
        if value is None:
            return ()
        items = value if isinstance(value, list) else [value]
        out = []
        for item in items:
            try:
                out.append(parse_condition(item))
            except RuleFormatError as err:
                self.report(err.message, err.expected, item)
        return tuple(out)

    def bodies(self, value: Any) -> list[tuple[tuple[Literal, ...], list]]:
        """The bodies an `if:` list stands for, each with the data item of each literal: one,
        or one per combination of alternatives when items are `{any: [...]}` (an idea said
        several ways: the rule holds when one alternative holds, each a condition or a list of
        conditions that must all hold)."""
        if value is None:
            return [((), [])]
        bodies: list[tuple[tuple[Literal, ...], list]] = [((), [])]
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                options = self.alternatives(item)
                if not options:
                    continue
                if len(bodies) * len(options) > MAX_ALTERNATIVES:
                    self.report(f"{len(bodies) * len(options)} combinations of alternatives; a rule may "
                                f"stand for at most {MAX_ALTERNATIVES}", "fewer alternatives, or several rules",
                                item)
                    continue
                bodies = [(body + alt, nodes + alt_nodes) for body, nodes in bodies for alt, alt_nodes in options]
                continue
            literal = self.conditions(item, item)  # () when it does not parse (said)
            bodies = [(body + literal, nodes + [item] * len(literal)) for body, nodes in bodies]
        return bodies

    def alternatives(self, item: dict) -> list[tuple[tuple[Literal, ...], list]]:
        """The alternatives of one `{any: [...]}` item of `if:`, each with its data items."""
        self.unknown_keys(item, ANY_KEYS)
        if "any" not in item:
            if not item:  # otherwise its unknown keys are said, with the closest
                self.report("an empty mapping in 'if'", "a condition, or any: [...]", item)
            return []
        options = item.get("any")
        if not isinstance(options, list) or not options:
            self.report("'any' needs a list of alternatives", "any: [CONDITION, [CONDITION, CONDITION], ...]",
                        ("value", item, "any"))
            return []
        out = []
        for option in options:
            parts = option if isinstance(option, list) else [option]
            if not parts or not all(isinstance(p, str) for p in parts):
                self.report("an alternative of 'any' is a condition or a list of conditions that all hold",
                            "\"concept:gap == present\" or [\"concept:gap == present\", \"length > 3\"]", option)
                continue
            literals = self.conditions(parts, option)  # each mistake said at its condition
            if len(literals) == len(parts):
                out.append((literals, list(parts)))
        return out

    def description(self, data: dict) -> str | None:
        """A derived predicate's `description:`: one line of text, or None when not given."""
        text = data.get("description")
        if text is None:
            return None
        problem = description_problem(text)
        if problem:
            self.report(problem, "a short text such as 'gives a value between 9 and 10.5 m/s^2'",
                        ("value", data, "description"))
            return None
        return " ".join(text.split())

    def exceptions(self, value: Any) -> list[Rule]:
        if value is None:
            return []
        if not isinstance(value, list):
            value = [value]
        out = []
        for item in value:
            if isinstance(item, dict):
                self.unknown_keys(item, EXCEPTION_KEYS)
                out.append(Rule(None, self.conditions(item.get("if"), item),
                                self.exceptions(item.get("unless"))))
            elif isinstance(item, (str, list)):
                out.append(Rule(None, self.conditions(item, item)))
            else:
                self.report(f"an exception must be a condition, a list or a mapping, not "
                            f"{type(item).__name__}", "a string, a list of strings or {if: ..., unless: ...}", item)
        return out

    def unknown_keys(self, data: dict, allowed: Sequence[str]) -> None:
        for key in data:
            if key not in allowed:
                hint = did_you_mean(str(key), allowed)
                self.report(f"unknown key '{key}'{hint}", ", ".join(allowed), ("key", data, key))

    def rule(self, data: Any) -> Rule | PredicateDefinition | None:
        """The rule `data` describes (the first of several when its `if:` has `any:`)."""
        read = self.rules(data)
        return read[0][0] if read else None

    def rules(self, data: Any) -> list[tuple[Rule | PredicateDefinition, list]]:
        """The rules `data` describes, each with the data item of each body literal: one rule
        per body of its `if:` (`bodies`), all alike but for their bodies; [] when unreadable."""
        made = self._rule(data)
        if made is None:
            return []
        first, value = made
        out = []
        for body, nodes in self.bodies(value):
            rule = copy.deepcopy(first) if out else first
            rule.body = body
            out.append((rule, nodes))
        return out

    def _rule(self, data: Any) -> tuple[Rule | PredicateDefinition, Any] | None:
        """The rule without its body, and the `if:` value its bodies come from."""
        if not isinstance(data, dict):
            self.report(f"a rule must be a mapping or an ASP string, not {type(data).__name__}",
                        "mark: ..., if: [...]", data)
            return None
        if "define" in data:
            self.unknown_keys(data, DEFINE_KEYS)
            name = data["define"]
            if not isinstance(name, str) or not NAME.match(name):
                self.report(f"invalid predicate name {name!r}", "a name like plausible_g", ("value", data, "define"))
                name = str(name)
            return PredicateDefinition(name, (), self.exceptions(data.get("unless")),
                                       self.description(data)), data.get("if")
        self.unknown_keys(data, RULE_KEYS)
        if "mark" not in data:
            self.report("missing key 'mark' (the label the rule gives)", "mark: LABEL", data)
        head = data.get("mark")
        if isinstance(head, (list, dict)) or head is None:
            if "mark" in data:
                self.report(f"mark must be a single label, not {type(head).__name__}", "a label", ("value", data, "mark"))
            head = None
        confidence = data.get("confidence")
        if confidence is not None:
            if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) \
                    or not 0.0 <= confidence <= 1.0:
                self.report(f"confidence {confidence!r} is not a probability", "a number between 0 and 1",
                            ("value", data, "confidence"))
                confidence = None
            else:
                confidence = float(confidence)
        fixed = data.get("confidence_fixed", confidence is not None)
        if not isinstance(fixed, bool):
            self.report("confidence_fixed must be true or false", "true or false", ("value", data, "confidence_fixed"))
            fixed = confidence is not None
        origin = data.get("origin", self.default_origin)
        if origin not in ("learned", "initial", "background"):
            self.report(f"unknown origin {origin!r}", "learned, initial or background", ("value", data, "origin"))
            origin = self.default_origin
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            self.report("a rule name must be a string", "a name", ("value", data, "name"))
            name = str(name)
        if "if" not in data:
            self.report("missing key 'if' (the conditions; use [] for a rule that always applies)",
                        "if: [...]", data)
        return Rule(head, (), self.exceptions(data.get("unless")), confidence=confidence,
                    fixed_confidence=fixed, origin=origin, name=name), data.get("if")


def rules_from_dicts(data: Sequence[dict], default_origin: str = "initial") -> list[Rule | PredicateDefinition]:
    """The inverse of `rules_to_dicts`; raises `KnowledgeError` listing every problem."""
    from knowledge.errors import KnowledgeError, Problem
    problems: list[Problem] = []
    reader = DataReader(lambda msg, exp, where: problems.append(Problem("<data>", 1, 1, msg, exp)),
                        default_origin)
    if not isinstance(data, list):
        raise KnowledgeError([Problem("<data>", 1, 1, "expected a list of rules", "a list")])
    out = [rule for d in data for rule, _ in reader.rules(d)]
    if problems:
        raise KnowledgeError(problems)
    return out


def rules_from_yaml(text: str, source=None, default_origin: str = "initial") -> list[Rule | PredicateDefinition]:
    """Rules from a YAML list of structured rules (see the module doc)."""
    from knowledge.errors import KnowledgeError, Problem, source_name
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise KnowledgeError([Problem(source_name(source), mark.line + 1 if mark else 1,
                                      mark.column + 1 if mark else 1, f"invalid YAML: {err}")]) from None
    return rules_from_dicts(data if data is not None else [], default_origin)
