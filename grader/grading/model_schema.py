"""The shape of a grading model file, checked whole before any of it is used.

A model file is data someone may have crafted: a list where a word belongs, a mark index
past the end of the marks, a batch size of 0 or 10**9, a 100,000-element list that turns
into a 10 GB matrix, a spaCy setting naming any installed package. `check_model_data`
walks the parsed JSON against the schema below (built from the pieces in
grader.confold.file_schema, which also holds the learner's part) and raises one
ModelFileError naming the place (`model.extractor.params.batch_size: ...`).
"""

from __future__ import annotations

from typing import Any

from grader.confold.file_schema import (LEARNER, MAX_WORDS, Check, Fields, Flag, Items, Keyed, Label,
                                        Maybe, Number, RuleCheck, Text, fail)


class PipelineName(Check):
    """The extractor's spaCy pipeline: checked without importing anything (features.nlp)."""

    def check(self, value: Any, where: str) -> None:
        from features.nlp import pipeline_name_problem

        problem = pipeline_name_problem(value)
        if problem is not None:
            fail(where, problem)


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


EXEMPLARS = Fields({"marks": Items(Text(300), 1000), "keys": Items(WORDS),
                    "mark_of": Items(Number(0, 1000, whole=True)),
                    "count": Items(Number(1, 10**12, whole=True))}, then=_exemplars_agree)

QUESTION = Fields({
    "id": Text(200), "question": Text(), "marks": Items(Text(300), 1000),
    "reference_answers": Items(Text(), 10_000), "concepts": Items(VOCABULARY, 10_000),
    "quantities": Items(Fields({"name": Text(300), "value": Number(-1e300, 1e300), "unit": Text(300),
                                "tolerance": Number(0, 1e300), "absolute_tolerance": Flag(),
                                "description": Maybe(Text()), "bare_number": Flag(), "symbol": Maybe(Text(20)),
                                "negative_means": Maybe(Text(300))},
                               optional=("description", "bare_number", "symbol", "negative_means")), 10_000),
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

SCORES = Number(-1e12, 1e12)
WORDING = Fields({"marks": Items(Text(300), 1000), "vocabulary": Items(Text(1000)), "idf": Items(SCORES),
                  "weights": Items(Items(SCORES, 1000)), "bias": Items(SCORES, 1000)})

MODEL = Fields({
    "question": QUESTION, "extractor": EXTRACTOR, "learner": LEARNER,
    "params": Keyed(Maybe(Label())),
    "trained_on": Fields({"answers": Number(0, 10**12, whole=True), "marks": Keyed(Number(0, 10**12, whole=True)),
                          "time": Text(100)}, optional=("answers", "marks", "time")),
    "agreement": Fields({"n_resamples": Number(0, 1000, whole=True), "random_state": Number(0, 2**32 - 1, whole=True),
                         "rule_lists": Items(Items(RuleCheck(), 10_000), 1000)},
                        optional=("n_resamples", "random_state")),
    "wording": WORDING},
    optional=("agreement", "wording"))


def check_model_data(data: dict) -> None:
    """Raise ModelFileError naming the first place where `data` is not a grading model's shape."""
    MODEL.check(data, "model")
