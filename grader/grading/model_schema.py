"""The shape of a grading model file, checked whole before any of it is used.

A model file is data someone may have crafted: a list where a word belongs, a mark index
past the end of the marks, a batch size of 0 or 10**9, a 100,000-element list that turns
into a 10 GB matrix. The loaders trust the shape they wrote, so a bad file would surface as
an IndexError, an OverflowError deep in spaCy, or minutes of work. `check_model_data`
walks the parsed JSON against the schema below first and raises one ModelFileError naming
the place (`model.extractor.params.batch_size: ...`). Nesting depth and number sizes are
limited earlier, by `grader.confold.model_file.parse_json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from grader.confold.model_file import MAX_RULE_DEPTH, ModelFileError
from grader.confold.rules import COMPARISONS

MAX_TEXT = 100_000       # characters of one piece of text
MAX_ITEMS = 100_000      # elements of one list or object
MAX_WORDS = 200          # words in one phrase


class Check:
    """One node of the schema: `check(value, where)` raises ModelFileError if `value` does not fit."""

    def check(self, value: Any, where: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def _fail(where: str, message: str) -> None:
    raise ModelFileError(f"{where}: {message}")


@dataclass
class Text(Check):
    max_len: int = MAX_TEXT
    choices: tuple[str, ...] | None = None

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, str):
            _fail(where, f"should be text, found {_kind(value)}")
        if len(value) > self.max_len:
            _fail(where, f"text of {len(value)} characters; at most {self.max_len}")
        if self.choices is not None and value not in self.choices:
            _fail(where, f"{value[:40]!r} is not one of {', '.join(self.choices)}")


@dataclass
class Number(Check):
    low: float
    high: float
    whole: bool = False

    def check(self, value: Any, where: str) -> None:
        kinds = (int,) if self.whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            _fail(where, f"should be a {'whole ' if self.whole else ''}number, found {_kind(value)}")
        if not self.low <= value <= self.high:
            _fail(where, f"{value} is outside {self.low:g}..{self.high:g}")


class Flag(Check):
    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, bool):
            _fail(where, f"should be true or false, found {_kind(value)}")


class Label(Check):
    """A mark or a literal's value: text, a number or a boolean."""

    def check(self, value: Any, where: str) -> None:
        if isinstance(value, str):
            Text().check(value, where)
        elif not isinstance(value, (int, float, bool)):
            _fail(where, f"should be text, a number or a boolean, found {_kind(value)}")


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
            _fail(where, f"should be a list, found {_kind(value)}")
        if len(value) > self.max_len:
            _fail(where, f"a list of {len(value)} elements; at most {self.max_len}")
        for i, v in enumerate(value):
            self.item.check(v, f"{where}[{i}]")


@dataclass
class Keyed(Check):
    """An object with any text keys, each value fitting `value`."""

    value: Check

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            _fail(where, f"should be an object, found {_kind(value)}")
        if len(value) > MAX_ITEMS:
            _fail(where, f"an object of {len(value)} keys; at most {MAX_ITEMS}")
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
            _fail(where, f"should be an object, found {_kind(value)}")
        for key, check in self.fields.items():
            if key not in value:
                if key not in self.optional:
                    _fail(where, f"is missing {key!r}")
                continue
            check.check(value[key], f"{where}.{key}")
        if self.then is not None:
            self.then(value, where)


class RuleCheck(Check):
    """A rule with its exceptions, nested at most MAX_RULE_DEPTH deep."""

    def __init__(self, depth: int = 0):
        self.depth = depth

    def check(self, value: Any, where: str) -> None:
        if self.depth > MAX_RULE_DEPTH:
            _fail(where, f"exceptions nested more than {MAX_RULE_DEPTH} levels deep")
        Fields({"head": Maybe(Label()), "body": Items(LITERAL, 1000),
                "exceptions": Items(RuleCheck(self.depth + 1), 1000),
                "confidence": Maybe(Number(0.0, 1.0)), "fixed_confidence": Flag(),
                "origin": Text(100), "name": Maybe(Text(200))},
               optional=("head", "confidence", "fixed_confidence", "origin", "name")).check(value, where)


class PipelineName(Check):
    """The extractor's spaCy pipeline: checked without importing anything (features.nlp)."""

    def check(self, value: Any, where: str) -> None:
        from features.nlp import pipeline_name_problem

        problem = pipeline_name_problem(value)
        if problem is not None:
            _fail(where, problem)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


LITERAL = Fields({"feature": Text(300), "op": Text(2, COMPARISONS), "value": Label()})
WORDS = Items(Text(200), MAX_WORDS)
PHRASE = Fields({"name": Text(300), "keys": Items(WORDS, 10_000), "text": Text()})
VOCABULARY = Fields({"name": Text(300), "phrases": Items(Text(), 10_000), "description": Maybe(Text())},
                    optional=("description",))


def _exemplars_agree(d: dict, where: str) -> None:
    n_marks = len(d["marks"])
    if not len(d["keys"]) == len(d["mark_of"]) == len(d["count"]):
        _fail(where, "keys, mark_of and count should have the same length")
    if len(d["keys"]) > 400 * max(1, n_marks):
        _fail(where, f"{len(d['keys'])} exemplars; at most 400 per mark")
    for i, m in enumerate(d["mark_of"]):
        if not 0 <= m < n_marks:
            _fail(f"{where}.mark_of[{i}]", f"{m} is not the index of one of the {n_marks} marks")


EXEMPLARS = Fields({"marks": Items(Text(300), 1000), "keys": Items(WORDS),
                    "mark_of": Items(Number(0, 1000, whole=True)),
                    "count": Items(Number(1, 10**12, whole=True))}, then=_exemplars_agree)

QUESTION = Fields({
    "id": Text(200), "question": Text(), "marks": Items(Text(300), 1000),
    "reference_answers": Items(Text(), 10_000), "concepts": Items(VOCABULARY, 10_000),
    "quantities": Items(Fields({"name": Text(300), "value": Number(-1e300, 1e300), "unit": Text(300),
                                "tolerance": Number(0, 1e300), "absolute_tolerance": Flag(),
                                "description": Maybe(Text())}, optional=("description",)), 10_000),
    "misconceptions": Items(VOCABULARY, 10_000),
    "background": Items(Fields({}), 10_000), "initial_rules": Items(Fields({}), 10_000),
    "source": Maybe(Text(4096))}, optional=("source",))

EXTRACTOR = Fields({
    "params": Fields({"n_terms": Number(0, 10_000, whole=True), "model": PipelineName(),
                      "batch_size": Number(1, 100_000, whole=True),
                      "min_term_count": Number(1, 10**9, whole=True), "similarity": Flag()},
                     optional=("n_terms", "model", "batch_size", "min_term_count", "similarity")),
    "reference": Items(PHRASE, 10_000), "reference_polarities": Items(Keyed(Flag()), 10_000),
    "terms": Items(PHRASE, 10_000), "vocabulary_extra": Items(WORDS), "exemplars": Maybe(EXEMPLARS)},
    optional=("exemplars",))

LEARNER = Fields({
    "params": Fields({"ratio": Number(0, 1), "z": Number(0, 100),
                      "improvement_threshold": Maybe(Number(0, 1)), "confidence_threshold": Maybe(Number(0, 1)),
                      "fold_rm_update": Flag(), "min_initial_precision": Number(0, 1), "default_rule": Flag()},
                     optional=("ratio", "z", "improvement_threshold", "confidence_threshold", "fold_rm_update",
                               "min_initial_precision", "default_rule")),
    "target_name": Text(300), "classes": Items(Label(), 1000), "feature_names_in": Items(Text(300), 100_000),
    "encodings": Items(Fields({"name": Text(300), "kind": Text(40), "categories": Items(Label(), 10_000)})),
    "predicates": Items(Fields({"name": Text(300), "body": Items(LITERAL, 1000),
                                "exceptions": Items(RuleCheck(1), 1000)}), 10_000),
    "rules": Items(RuleCheck(), 10_000)})

MODEL = Fields({
    "question": QUESTION, "extractor": EXTRACTOR, "learner": LEARNER,
    "params": Keyed(Maybe(Label())),
    "trained_on": Fields({"answers": Number(0, 10**12, whole=True), "marks": Keyed(Number(0, 10**12, whole=True)),
                          "time": Text(100)}, optional=("answers", "marks", "time")),
    "agreement": Fields({"n_resamples": Number(0, 1000, whole=True), "random_state": Number(0, 2**32 - 1, whole=True),
                         "rule_lists": Items(Items(RuleCheck(), 10_000), 1000)},
                        optional=("n_resamples", "random_state"))},
    optional=("agreement",))


def check_model_data(data: dict) -> None:
    """Raise ModelFileError naming the first place where `data` is not a grading model's shape."""
    MODEL.check(data, "model")
