"""The shape of a grading model file, checked whole before any of it is used.

A model file is data someone may have crafted: a list where a word belongs, a mark index
past the end of the marks, a batch size of 0 or 10**9, a 100,000-element list that turns
into a 10 GB matrix, a spaCy setting naming any installed package. `check_model_data`
walks the parsed JSON against the schema below (built from the pieces in
grader.confold.file_schema, which also holds the learner's part) and raises one
ModelFileError naming the place (`model.extractor.params.batch_size: ...`);
`check_features_match` then checks the built parts against each other.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from grader.confold.file_schema import (LEARNER, MAX_WORDS, Check, Fields, Flag, Items, Keyed, Label,
                                        Maybe, ModelFileError, Number, RuleCheck, Text,
                                        check_predicate_names, check_rule_count, count_rules, fail)
from grader.confold.rule_eval import rule_features

#: How much work a model file may ask of the loader, beyond its shape: each phrase becomes a
#: spaCy pattern, each polarity key a dictionary entry (see `_check_work`). Learned models
#: stay far below; a crafted file at these limits still loads in about a second.
MAX_PHRASES = 10_000
MAX_POLARITY_KEYS = 100_000
MAX_EXEMPLAR_CELLS = 20_000_000


class PipelineName(Check):
    """The extractor's spaCy pipeline: none (the setting's default), "blank", or a pipeline
    installed as such here; checked without importing anything (features.nlp)."""

    def check(self, value: Any, where: str) -> None:
        from features.nlp import FALLBACK, is_installed_pipeline, pipeline_name_problem

        problem = pipeline_name_problem(value)
        if problem is not None:
            fail(where, problem)
        if value is not None and value != FALLBACK and not is_installed_pipeline(value):
            fail(where, f"the model was made with the spaCy pipeline {value!r}, which is not installed "
                        f"here; install it, or train the model again")


class ParamValue(Check):
    """A training option as the model records it: nothing, text, a number, a boolean, or a
    list of marks (`lowest_marks`)."""

    def check(self, value: Any, where: str) -> None:
        if isinstance(value, list):
            Items(Label(), 1000).check(value, where)
        else:
            Maybe(Label()).check(value, where)


class UnitText(Check):
    """A quantity's unit, as the extractor will read it (features.quantities.expected_unit)."""

    def check(self, value: Any, where: str) -> None:
        Text(300).check(value, where)
        from features.quantities import expected_unit

        try:
            expected_unit(value)
        except Exception as err:  # noqa: BLE001 - pint has many error types; each means "no unit"
            fail(where, f"{value[:60]!r} is not a unit ({type(err).__name__})")


WORDS = Items(Text(200), MAX_WORDS)
PHRASE = Fields({"name": Text(300), "keys": Items(WORDS, 10_000), "text": Text()})
VOCABULARY = Fields({"name": Text(300), "phrases": Items(Text(), 10_000), "description": Maybe(Text())},
                    optional=("description",))


def _exemplars_agree(d: dict, where: str) -> None:
    n_marks = len(d["marks"])
    if not len(d["keys"]) == len(d["mark_of"]) == len(d["count"]):
        fail(where, "keys, mark_of and count should have the same length")
    if len(d["keys"]) > 400 * max(1, n_marks):
        fail(where, f"{len(d['keys'])} exemplars; at most 400 per mark")
    for i, m in enumerate(d["mark_of"]):
        if not 0 <= m < n_marks:
            fail(f"{where}.mark_of[{i}]", f"{m} is not the index of one of the {n_marks} marks")
    words = len({w for keys in d["keys"] for w in keys})
    if words * len(d["keys"]) > MAX_EXEMPLAR_CELLS:  # the words x exemplars matrix built on load
        fail(where, f"{len(d['keys']):,} exemplars over {words:,} words; too large a table to build")


EXEMPLARS = Fields({"marks": Items(Text(300), 1000), "keys": Items(WORDS),
                    "mark_of": Items(Number(0, 1000, whole=True)),
                    "count": Items(Number(1, 10**12, whole=True))}, then=_exemplars_agree)

QUESTION = Fields({
    "id": Text(200), "question": Text(), "marks": Items(Text(300), 1000),
    "reference_answers": Items(Text(), 10_000), "concepts": Items(VOCABULARY, 10_000),
    "quantities": Items(Fields({"name": Text(300), "value": Number(-1e300, 1e300), "unit": UnitText(),
                                "tolerance": Number(0, 1e300), "absolute_tolerance": Flag(),
                                "description": Maybe(Text()), "bare_number": Flag(), "symbol": Maybe(Text(20)),
                                "negative_means": Maybe(Text(300))},
                               optional=("description", "bare_number", "symbol", "negative_means")), 10_000),
    "misconceptions": Items(VOCABULARY, 10_000),
    "background": Items(Fields({}), 10_000), "initial_rules": Items(Fields({}), 10_000),
    "source": Maybe(Text(4096)), "non_answers": Items(Text(1000), 10_000),
    "expected_words": Items(Text(200), 10_000), "no_credit": Items(Text(300), 1000),
    "relations": Items(Fields({"name": Text(300), "members": Items(Text(300), 100),
                               "link": Items(Text(1000), 10_000), "description": Maybe(Text()),
                               "ordered": Flag()},
                              optional=("description", "ordered")), 10_000)},
    optional=("source", "non_answers", "relations", "expected_words", "no_credit"))

EXTRACTOR = Fields({
    "params": Fields({"n_terms": Number(0, 10_000, whole=True), "model": PipelineName(),
                      "batch_size": Number(1, 100_000, whole=True),
                      "min_term_count": Number(1, 10**9, whole=True), "similarity": Flag()},
                     optional=("n_terms", "model", "batch_size", "min_term_count", "similarity")),
    "reference": Items(PHRASE, 10_000), "reference_polarities": Items(Keyed(Flag()), 10_000),
    "terms": Items(PHRASE, 10_000), "vocabulary_extra": Items(WORDS), "exemplars": Maybe(EXEMPLARS)},
    optional=("exemplars",))

SCORES = Number(-1e12, 1e12)
_SCORER = {"marks": Items(Text(300), 1000), "vocabulary": Items(Text(1000)), "idf": Items(SCORES),
           "weights": Items(Items(SCORES, 1000)), "bias": Items(SCORES, 1000)}
WORDING = Fields({**_SCORER, "reader": Fields({
    **_SCORER, "extra_weights": Items(Items(SCORES, 1000)),
    "feature_columns": Fields({"weight": Number(0, 1e6), "columns": Items(Items(Maybe(Label()), 4))})})},
    optional=("reader",))

MODEL = Fields({
    "question": QUESTION, "extractor": EXTRACTOR, "learner": LEARNER,
    "params": Keyed(ParamValue()),
    "trained_on": Fields({"answers": Number(0, 10**12, whole=True), "marks": Keyed(Number(0, 10**12, whole=True)),
                          "time": Text(100)}, optional=("answers", "marks", "time")),
    "agreement": Fields({"n_resamples": Number(0, 1000, whole=True), "random_state": Number(0, 2**32 - 1, whole=True),
                         "rule_lists": Items(Items(RuleCheck(), 10_000), 1000)},
                        optional=("n_resamples", "random_state")),
    "wording": WORDING,
    "calibration": Fields({"confidence": Items(Maybe(Number(0, 1))), "correct": Items(Flag()),
                           "folds": Number(2, 1000, whole=True), "seed": Number(0, 2**32 - 1, whole=True)},
                          then=lambda d, where: None if len(d["confidence"]) == len(d["correct"]) else
                          fail(where, "confidence and correct have different lengths"))},
    optional=("agreement", "wording", "calibration"))


def _top_level_rules(data: Any) -> int:
    """The rules at the top of the learner's list and of the resampled lists, read from the
    lists alone before the shape is checked: a lower bound of the total that `_check_work`
    counts, so a file holding hundreds of thousands of rules is refused before each is checked."""
    def items(value: Any, key: str) -> list:
        found = value.get(key) if isinstance(value, dict) else None
        return found if isinstance(found, list) else []

    lists = [items(data.get("learner"), "rules")] + items(data.get("agreement"), "rule_lists")
    return sum(len(rules) for rules in lists if isinstance(rules, list))


def _check_work(data: dict, where: str) -> None:
    """Totals across the file (its shape already checked): rules, phrases, polarity keys."""
    learner, extractor, question = data["learner"], data["extractor"], data["question"]
    rules = count_rules(learner["rules"]) + sum(count_rules(p["exceptions"]) for p in learner["predicates"])
    rules += sum(count_rules(rules) for rules in data.get("agreement", {}).get("rule_lists", []))
    check_rule_count(rules, where)
    phrases = sum(len(p["keys"]) for p in extractor["terms"] + extractor["reference"]) \
        + sum(len(c["phrases"]) for c in question["concepts"] + question["misconceptions"])
    if phrases > MAX_PHRASES:
        fail(where, f"{phrases:,} phrases in all (terms, reference, concepts, misconceptions); "
                    f"at most {MAX_PHRASES:,}")
    for key in ("reference", "terms"):  # each names a feature column: one name, one column
        seen: set = set()
        for i, phrase in enumerate(extractor[key]):
            if phrase["name"] in seen:
                fail(f"{where}.extractor.{key}[{i}].name", f"{phrase['name'][:60]!r} names an earlier phrase too")
            seen.add(phrase["name"])
    keys = sum(len(p) for p in extractor["reference_polarities"])
    if keys > MAX_POLARITY_KEYS:
        fail(f"{where}.extractor.reference_polarities", f"{keys:,} words in all; at most {MAX_POLARITY_KEYS:,}")


def check_model_data(data: dict) -> None:
    """Raise ModelFileError naming the first place where `data` is not a grading model's shape,
    or where it asks more work of the loader than a model file may."""
    check_rule_count(_top_level_rules(data), "model")  # before checking each of them
    MODEL.check(data, "model")
    check_predicate_names(data["learner"], "model.learner")
    _check_work(data, "model")


def check_features_match(extractor: Any, learner: Any, agreement: Any, wording: Any = None) -> None:
    """The rules (the resampled ones included) read only columns the extractor makes, each
    made once, and encoded by the learner; derived predicates can be computed; the wording
    model's reader of features reads only columns the extractor makes (checked on the objects
    built from a checked file)."""
    columns = [spec.name for spec in extractor.feature_specs_]
    doubled = sorted(c for c, n in Counter(columns).items() if n > 1)
    if doubled:
        raise ModelFileError(f"the extractor makes the feature(s) {', '.join(doubled[:5])} twice")
    rules = learner.rules_ + learner.predicates_
    if agreement is not None:
        rules += [r for rules_ in agreement.rule_lists_ for r in rules_]
    derived = {p.name for p in learner.predicates_}
    needed = [f for f in rule_features(rules) if f not in derived]
    missing = [f for f in needed if f not in set(columns)]
    if missing:
        raise ModelFileError(f"the rules use feature(s) {', '.join(missing[:5])} that the extractor "
                             f"does not make")
    encoded = {e.name for e in learner.encodings_}
    unencoded = [f for f in needed if f not in encoded]
    if unencoded:
        raise ModelFileError(f"the rules use feature(s) {', '.join(unencoded[:5])} that the learner "
                             f"has no encoding for")
    _check_predicates(learner.predicates_, set(columns))
    if wording is not None and wording.columns is not None:
        unknown = sorted({c[0] for c in wording.columns.columns} - set(columns))
        if unknown:
            raise ModelFileError(f"wording.feature_columns: features {', '.join(unknown)}, which the "
                                 f"extractor does not make")


def _check_predicates(predicates: list, columns: set[str]) -> None:
    """Derived predicates can be computed: none named like a column, none in a cycle (the
    order `grader.confold.rule_eval.add_derived_predicates` computes them in)."""
    uses: dict[str, set[str]] = {}
    for p in predicates:
        uses.setdefault(p.name, set()).update(rule_features([p]))
    clash = sorted(set(uses) & columns)
    if clash:
        raise ModelFileError(f"derived predicate(s) {', '.join(clash[:5])} have the name of a feature")
    pending = dict(uses)
    while pending:
        ready = [name for name, used in pending.items() if not used & pending.keys()]
        if not ready:
            raise ModelFileError(f"derived predicates depend on each other in a cycle: "
                                 f"{', '.join(sorted(pending)[:5])}")
        for name in ready:
            del pending[name]
