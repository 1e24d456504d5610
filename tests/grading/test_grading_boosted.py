"""GradingModel.train(learner="boosted"): marks from boosted rules (grader.boosting), each
explained by the rules that apply with their weights, saved and loaded as JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

from grader.confold.model_file import ModelFileError
from grader.grading.model import GradingModel
from knowledge.schema import Question

QUESTION = Question("circuit", "Why does the bulb not light?", ("There is a gap in the circuit",),
                    marks=("0", "1"))
ANSWERS = ["there is a gap in the circuit", "a gap between the terminals", "the circuit has a gap",
           "gap in the circuit", "the battery is dead", "the bulb is broken", "dead battery",
           "broken bulb"] * 3
MARKS = ["1", "1", "1", "1", "0", "0", "0", "0"] * 3


@pytest.fixture(scope="module")
def model():
    return GradingModel.train(QUESTION, ANSWERS, MARKS, learner="boosted", n_resamples=0)


def test_boosted_marks_are_explained_by_the_rules_that_apply(model):
    graded = model.grade(["the circuit has a gap in it", "the battery is flat and dead"])
    assert graded["mark"].tolist() == ["1", "0"]
    assert ((graded["confidence"] > 0.5) & (graded["confidence"] <= 1)).all()
    first = graded["explanation"].iloc[0]
    assert first.startswith("1 mark by the weight of the rules that apply")
    assert "against" in first and "0 marks" in first and "weight" in first
    assert "ref:" not in first and "term:" not in first  # the marker's words, not feature names
    text = model.explain("the circuit has a gap in it").text()
    assert text.splitlines()[0].startswith("1 mark: the rules that apply weigh most for it")
    assert "ref:" not in text and "term:" not in text
    assert "weight" in model.rules()


def test_boosted_model_file_round_trip(model, tmp_path):
    path = tmp_path / "model.json"
    model.save(path)
    data = json.loads(path.read_text())
    assert data["learner"]["format"] == "physics-grader/boosted-rules"
    assert data["params"]["learner"] == "boosted"
    loaded = GradingModel.load(path)
    answers = ["a gap in the circuit", "the bulb broke", "no idea"]
    before, after = model.grade(answers), loaded.grade(answers)
    assert before["mark"].tolist() == after["mark"].tolist()
    assert np.allclose(before["confidence"].to_numpy(dtype=float), after["confidence"].to_numpy(dtype=float),
                       equal_nan=True)
    data["learner"]["votes"] = data["learner"]["votes"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(ModelFileError, match="votes"):
        GradingModel.load(path)


def test_boosted_learner_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="resamples"):
        GradingModel.train(QUESTION, ANSWERS, MARKS, learner="boosted", n_resamples=5)
    with pytest.raises(ValueError, match="unknown learner"):
        GradingModel.train(QUESTION, ANSWERS, MARKS, learner="forest")
    model = GradingModel.train(QUESTION, ANSWERS, MARKS, learner="boosted", n_resamples=0)
    with pytest.raises(ValueError, match="text format"):
        model.rules("asp")


def test_cross_validation_and_calibration_keep_the_boosted_learner(model):
    from grader.grading.evaluation import calibrate, cross_validate

    report = cross_validate(QUESTION, ANSWERS, MARKS, folds=3, learner="boosted", n_resamples=0)
    assert report.accuracy > 0.8 and report.params["learner"] == "boosted"
    calibrated = GradingModel.train(QUESTION, ANSWERS, MARKS, learner="boosted", n_resamples=0)
    calibrate(calibrated, ANSWERS, MARKS, folds=3)  # retrains with the model's own options
    assert len(calibrated.calibration["confidence"]) == len(ANSWERS)
    assert all(0 <= c <= 1 for c in calibrated.calibration["confidence"] if c is not None)
