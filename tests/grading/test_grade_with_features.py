"""Grading with features the caller already has (the app shows both): same marks, and the
answers are read once (issue 17)."""

from __future__ import annotations

import pandas as pd
import pytest

from grader.app.session import grade_question
from grader.grading.model import GradingModel
from tests.data import marked_answers, small_question

ANSWERS = ["there's a gap in the circuit so the current can't flow", "the battery is flat i think",
           "", "   ", "the gap stops the current", "the battery is flat i think"]


@pytest.fixture(scope="module")
def model() -> GradingModel:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks, n_resamples=5)


def counting_transform(model, monkeypatch) -> list:
    calls = []
    transform = model.extractor.transform

    def recording(answers):
        calls.append(list(answers))
        return transform(answers)

    monkeypatch.setattr(model.extractor, "transform", recording)
    return calls


def test_given_features_give_the_same_grades_without_reading_again(model, monkeypatch):
    expected = model.grade(ANSWERS)
    features = model.features(ANSWERS)
    calls = counting_transform(model, monkeypatch)
    pd.testing.assert_frame_equal(model.grade(ANSWERS, features=features), expected)
    assert calls == []
    with pytest.raises(ValueError, match="6 answers but 5 rows of features"):
        model.grade(ANSWERS, features=features.iloc[:5])


def test_the_app_reads_a_questions_answers_once(model, monkeypatch):
    calls = counting_transform(model, monkeypatch)
    table, features = grade_question("q", model, [f"s{i}" for i in range(len(ANSWERS))], ANSWERS)
    assert len(calls) == 1 and len(features) == len(ANSWERS) == len(table)
