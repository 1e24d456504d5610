"""The grading model encodes an answer table once for its own rules and the resampled rule
lists (issue 17): each list's verdicts on that one table are the verdicts on a table
encoded for it alone."""

from __future__ import annotations

import numpy as np
import pytest

from grader.app.settings import REPO
from grader.exams.exam_io import read_marked_answers
from grader.grading.model import GradingModel
from knowledge import load_question


@pytest.mark.parametrize("name", ["vertical_throw", "resistor_current"])
def test_one_table_for_all_rule_lists_gives_the_verdicts_of_a_table_each(name):
    question = load_question(REPO / "sample_data" / name / "question.yaml")
    marked = read_marked_answers(REPO / "sample_data" / name / "marked.csv", marks=question.marks)
    model = GradingModel.train(question, marked.answers, marked.marks, n_resamples=6)
    answers = list(marked.answers) + [a.upper() + " not" for a in marked.answers[:40]] + ["", "idk"]
    X = model.extractor.transform(answers)
    learner, lists = model.learner, model.agreement.rule_lists_
    assert len(lists) == 6
    table = learner.encode(X, [*learner.rules_, *(r for rules in lists for r in rules)])
    for got, plain in zip(learner.predict_rules(X, table), learner.predict_rules(X)):
        assert np.array_equal(got, plain, equal_nan=got.dtype.kind == "f")
    for got, plain in zip(model.agreement.verdicts(learner, X, table), model.agreement.verdicts(learner, X)):
        for a, b in zip(got, plain):
            assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    assert len({tuple(v[0].tolist()) for v in model.agreement.verdicts(learner, X)}) > 1  # lists differ
    graded = model.grade(answers)
    assert graded.equals(model.grade(answers, features=X))
