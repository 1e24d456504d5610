"""The grading model's fast paths (issue 17) give what the plain code gives: the answer table
encoded once for its own rules and the resampled rule lists (each list's verdicts on that one
table are the verdicts on a table encoded for it alone), and the second reader's feature
matrix from the distinct values of the features."""

from __future__ import annotations

import numpy as np
import pandas as pd
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


def _plain_matrix(columns, X: pd.DataFrame) -> np.ndarray:
    """FeatureColumns.matrix as written before: each feature's cells as text, compared with
    each value."""
    from grader.grading.wording import _numbers, _texts

    out = np.empty((len(X), len(columns.columns)))
    for j, (name, value, centre, scale) in enumerate(columns.columns):
        out[:, j] = (_numbers(X[name]) - centre) / scale if value is None else _texts(X[name]) == value
    return out * (columns.weight / np.sqrt(max(len(columns.columns), 1)))


def test_the_feature_matrix_from_distinct_values_is_the_matrix_of_every_cell():
    from grader.grading.wording import FeatureColumns

    name = "vertical_throw"
    question = load_question(REPO / "sample_data" / name / "question.yaml")
    marked = read_marked_answers(REPO / "sample_data" / name / "marked.csv", marks=question.marks)
    model = GradingModel.train(question, marked.answers, marked.marks, n_resamples=0)
    columns = model.wording.columns
    X = model.extractor.transform(list(marked.answers) + ["", "idk", "-9.8 m/s^2"])
    assert sum(v is not None for _, v, _, _ in columns.columns) > 20
    assert np.array_equal(columns.matrix(X), _plain_matrix(columns, X))
    assert np.array_equal(columns.matrix(X.iloc[:0]), _plain_matrix(columns, X.iloc[:0]))
    # cells that are not text: 1, 1.0 and True are one value to pandas but three texts
    odd = pd.DataFrame({"a": pd.Series(["1", 1, 1.0, True, None, np.nan, "True", "x"], dtype=object),
                        "b": pd.Series(["1.0", "y", "y", "nan", "None", "z", "1", "x"], dtype=object),
                        "n": [1.0, 2.0, np.nan, 4.0, 5.0, 6.0, 7.0, 8.0]})
    made = FeatureColumns([("a", v, 0.0, 1.0) for v in ("1", "1.0", "True", "None", "nan", "x", "q")]
                          + [("n", None, 2.0, 3.0)] + [("b", v, 0.0, 1.0) for v in ("1.0", "y", "None", "x")])
    assert np.array_equal(made.matrix(odd), _plain_matrix(made, odd))
    assert made.matrix(odd)[:, 0].tolist() == [v * made.weight / np.sqrt(12) for v in (1, 1, 0, 0, 0, 0, 0, 0)]
    only_text = odd.assign(a=odd["b"])
    assert np.array_equal(made.matrix(only_text), _plain_matrix(made, only_text))
