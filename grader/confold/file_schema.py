"""Checking the shape of a model file's JSON before any of it is used.

A model file is data someone may have crafted: a list where a word belongs, an index past
the end of a list, a 100,000-element list that turns into a huge matrix. The loaders trust
the shape they wrote, so such a file would surface as a TypeError, an IndexError or minutes
of work. A schema of small `Check`s (text, number in a range, list of bounded length,
object with fields) is walked first and raises one ModelFileError naming the place
(`model.rules[0].body[0].op: '=~' is not one of ...`). `LEARNER` is the schema of a saved
ConFold; grader.grading.model_schema builds the grading model's on these pieces. Nesting
depth and number sizes are limited earlier, by `model_file.parse_json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from grader.confold.asp_terms import is_identifier, unary_ok
from grader.confold.rules import COMPARISONS, NUMERIC_COMPARISONS


class ModelFileError(ValueError):
    """A model file or dict that cannot be read; the message says where and why."""


#: How deep exceptions may nest in a model file (learned rules stay far shallower).
MAX_RULE_DEPTH = 25
MAX_TEXT = 100_000       # characters of one piece of text
MAX_ITEMS = 100_000      # elements of one list or object
MAX_WORDS = 200          # words in one phrase


class Check:
    """One node of the schema: `check(value, where)` raises ModelFileError if `value` does not fit."""

    def check(self, value: Any, where: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def fail(where: str, message: str) -> None:
    raise ModelFileError(f"{where}: {message}")


@dataclass
class Text(Check):
    max_len: int = MAX_TEXT
    choices: tuple[str, ...] | None = None

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, str):
            fail(where, f"should be text, found {_kind(value)}")
        if len(value) > self.max_len:
            fail(where, f"text of {len(value)} characters; at most {self.max_len}")
        if self.choices is not None and value not in self.choices:
            fail(where, f"{value[:40]!r} is not one of {', '.join(self.choices)}")


@dataclass
class Number(Check):
    low: float
    high: float
    whole: bool = False

    def check(self, value: Any, where: str) -> None:
        kinds = (int,) if self.whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            fail(where, f"should be a {'whole ' if self.whole else ''}number, found {_kind(value)}")
        if not self.low <= value <= self.high:
            fail(where, f"{value} is outside {self.low:g}..{self.high:g}")


class Flag(Check):
    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, bool):
            fail(where, f"should be true or false, found {_kind(value)}")


class Identifier(Check):
    """A name the rules are written with in ASP (the learner's target: "mark")."""

    def check(self, value: Any, where: str) -> None:
        Text(100).check(value, where)
        if not is_identifier(value):
            fail(where, f"{value!r} is not a valid name (a lowercase letter followed by letters, "
                        f"digits or _)")


class Label(Check):
    """A mark or a literal's value: text, a number or a boolean."""

    def check(self, value: Any, where: str) -> None:
        if isinstance(value, str):
            Text().check(value, where)
        elif not isinstance(value, (int, float, bool)):
            fail(where, f"should be text, a number or a boolean, found {_kind(value)}")


@dataclass
class Maybe(Check):
    inner: Check

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)


@dataclass
class Items(Check):
    item: Check
    max_len: int = MAX_ITEMS

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, list):
            fail(where, f"should be a list, found {_kind(value)}")
        if len(value) > self.max_len:
            fail(where, f"a list of {len(value)} elements; at most {self.max_len}")
        for i, v in enumerate(value):
            self.item.check(v, f"{where}[{i}]")


@dataclass
class Keyed(Check):
    """An object with any text keys, each value fitting `value`."""

    value: Check

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            fail(where, f"should be an object, found {_kind(value)}")
        if len(value) > MAX_ITEMS:
            fail(where, f"an object of {len(value)} keys; at most {MAX_ITEMS}")
        for k, v in value.items():
            Text(1000).check(k, f"{where} key")
            self.value.check(v, f"{where}.{k}")


@dataclass
class Fields(Check):
    """An object with these keys (those in `optional` may be missing); others are ignored."""

    fields: Mapping[str, Check]
    optional: tuple[str, ...] = ()
    then: Callable[[dict, str], None] | None = None  # checks across fields

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            fail(where, f"should be an object, found {_kind(value)}")
        for key, check in self.fields.items():
            if key not in value:
                if key not in self.optional:
                    raise ModelFileError(f"{where} is missing the key {key!r}")
                continue
            check.check(value[key], f"{where}.{key}")
        if self.then is not None:
            self.then(value, where)


class RuleCheck(Check):
    """A rule with its exceptions, nested at most MAX_RULE_DEPTH deep; a top-level rule
    (depth 0) has a head, and a rule of the model's own list (`scored`) a confidence."""

    def __init__(self, depth: int = 0, scored: bool = False):
        self.depth = depth
        self.scored = scored

    def check(self, value: Any, where: str) -> None:
        if self.depth > MAX_RULE_DEPTH:
            fail(where, f"exceptions nested more than {MAX_RULE_DEPTH} levels deep")
        Fields({"head": Maybe(Label()), "body": Items(LITERAL, 1000),
                "exceptions": Items(RuleCheck(self.depth + 1), 1000),
                "confidence": Maybe(Number(0.0, 1.0)), "fixed_confidence": Flag(),
                "origin": Text(100), "name": Maybe(Text(200))},
               optional=("head", "confidence", "fixed_confidence", "origin", "name")).check(value, where)
        if self.depth == 0 and value.get("head") is None:  # only exceptions go without one
            fail(where, "a rule needs a head (the mark it gives)")
        if self.scored and value.get("confidence") is None:  # every fitted rule has one
            fail(where, "a rule needs a confidence")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _order_needs_number(literal: dict, where: str) -> None:
    if literal["op"] in NUMERIC_COMPARISONS and (isinstance(literal["value"], bool)
                                                 or not isinstance(literal["value"], (int, float))):
        fail(f"{where}.value", f"{literal['op']} compares with a number, not {_kind(literal['value'])}")


LITERAL = Fields({"feature": Text(300), "op": Text(2, COMPARISONS), "value": Label()},
                 then=_order_needs_number)

LEARNER = Fields({
    "params": Fields({"ratio": Number(0, 1), "z": Number(0, 100),
                      "improvement_threshold": Maybe(Number(0, 1)), "confidence_threshold": Maybe(Number(0, 1)),
                      "fold_rm_update": Flag(), "min_initial_precision": Number(0, 1), "default_rule": Flag(),
                      "min_initial_support": Number(1, 1_000_000, whole=True)},
                     optional=("ratio", "z", "improvement_threshold", "confidence_threshold", "fold_rm_update",
                               "min_initial_precision", "default_rule", "min_initial_support")),
    "target_name": Identifier(), "classes": Items(Label(), 1000), "feature_names_in": Items(Text(300), 100_000),
    "encodings": Items(Fields({"name": Text(300), "kind": Text(40), "categories": Items(Label(), 10_000),
                               "named": Items(Label(), 10_000)}, optional=("named",))),
    "predicates": Items(Fields({"name": Text(300), "body": Items(LITERAL, 1000),
                                "exceptions": Items(RuleCheck(1), 1000), "description": Maybe(Text(200))},
                               optional=("description",)), 10_000),
    "rules": Items(RuleCheck(scored=True), 10_000)})


#: How many rules (exceptions included) a model file may hold in all: loading costs time per
#: rule, and a learned model holds a few hundred (its resampled rule lists included).
MAX_RULES = 20_000


def count_rules(rules: list) -> int:
    """Rules and their exceptions, all levels (call on data that passed RuleCheck)."""
    return sum(1 + count_rules(r["exceptions"]) for r in rules)


def check_rule_count(total: int, where: str) -> None:
    if total > MAX_RULES:
        fail(where, f"{total:,} rules and exceptions in all; a model file holds at most {MAX_RULES:,}")


def check_learner_data(data: Any, where: str = "model") -> None:
    """Raise ModelFileError naming the first place where `data` is not a saved ConFold's shape,
    holds more rules than a model file may, or names a derived predicate that cannot be
    written as `name(X)` in its ASP program."""
    LEARNER.check(data, where)
    check_predicate_names(data, where)
    check_rule_count(count_rules(data["rules"]) + sum(count_rules(p["exceptions"]) for p in data["predicates"]),
                     where)


def check_predicate_names(data: dict, where: str) -> None:
    """Each derived predicate of a learner (shape already checked) can be written `name(X)`."""
    for i, p in enumerate(data["predicates"]):
        if not unary_ok(p["name"], data["target_name"]):
            fail(f"{where}.predicates[{i}].name", f"{p['name'][:60]!r} is not a valid name for a "
                                                  f"derived predicate")
