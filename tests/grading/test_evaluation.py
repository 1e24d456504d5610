"""Cross-validation report (grader.grading.evaluation)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from grader.grading.evaluation import cross_validate, flagging_curve, stratified_folds
from grader.grading.model import GradingModel
from tests.data import marked_answers, small_question


def test_stratified_folds_share_every_mark_evenly():
    marks = ["0"] * 23 + ["0.5"] * 11 + ["1"] * 17
    folds = stratified_folds(marks, 5, seed=3)
    assert sorted(set(folds.tolist())) == [0, 1, 2, 3, 4]
    sizes = np.bincount(folds)
    assert sizes.max() - sizes.min() <= 1
    for mark, n in (("0", 23), ("0.5", 11), ("1", 17)):
        per_fold = np.bincount(folds[np.array(marks) == mark], minlength=5)
        assert per_fold.max() - per_fold.min() <= 1 and per_fold.sum() == n
    assert np.array_equal(folds, stratified_folds(marks, 5, seed=3))
    assert not np.array_equal(folds, stratified_folds(marks, 5, seed=4))


def test_flagging_curve_by_hand():
    y = np.array(["1", "1", "0", "0", "1"], dtype=object)
    pred = np.array(["1", "0", "0", None, "1"], dtype=object)
    conf = np.array([0.9, 0.6, 0.8, np.nan, 0.4])
    curve = flagging_curve(y, pred, conf, thresholds=[0.0, 0.5, 0.7, 0.95])
    # t=0: four marked, one (no rule) flagged; 3 of the 4 right
    # t=0.5: 0.4 flagged too -> 3 auto (0.9 right, 0.6 wrong, 0.8 right)
    # t=0.7: 0.9 and 0.8 auto, both right; t=0.95: nothing automatic
    assert curve["share_flagged"].tolist() == pytest.approx([0.2, 0.4, 0.6, 1.0])
    assert curve["auto_accuracy"].tolist()[:3] == pytest.approx([0.75, 2 / 3, 1.0])
    assert np.isnan(curve["auto_accuracy"].iloc[3])


@pytest.fixture(scope="module")
def report():
    answers, marks = marked_answers()
    return cross_validate(small_question(), answers, marks, folds=4, seed=1)


def test_report_figures_are_consistent(report):
    p = report.predictions
    assert report.n == 100 and report.folds == 4 and len(p) == 100
    assert report.accuracy == pytest.approx(np.mean(p["predicted"] == p["mark"]))
    assert report.coverage == pytest.approx(p["predicted"].notna().mean())
    assert report.accuracy == pytest.approx(np.mean(report.fold_accuracy), abs=0.02)  # equal folds
    for value in (report.accuracy, report.macro_f1, report.ibs, report.coverage):
        assert 0.0 <= value <= 1.0
    assert -1.0 <= report.qwk <= 1.0
    assert report.accuracy > 0.8  # the two marks are easy to tell apart by the gap concept
    curve = report.curve
    assert curve["share_flagged"].iloc[0] == pytest.approx(1 - report.coverage)
    assert (np.diff(curve["share_flagged"]) >= 0).all()
    assert curve["threshold"].tolist() == pytest.approx(list(np.linspace(0, 1, 21)))


def test_report_serialises_and_prints(report):
    data = json.loads(json.dumps(report.to_dict()))
    assert data["accuracy"] == pytest.approx(report.accuracy, abs=1e-6)
    assert len(data["curve"]) == 21 and data["marks"] == ["0", "1"]
    text = report.text()
    assert f"{report.accuracy:.3f}" in text and "quadratic kappa" in text


def test_no_fold_model_sees_its_test_answers(monkeypatch):
    answers, marks = marked_answers()
    seen: list[set[str]] = []
    original = GradingModel.train.__func__

    def recording_train(cls, question, train_answers, train_marks, **kw):
        seen.append(set(train_answers))
        return original(cls, question, train_answers, train_marks, **kw)

    monkeypatch.setattr(GradingModel, "train", classmethod(recording_train))
    folds = stratified_folds(marks, 3, seed=0)
    cross_validate(small_question(), answers, marks, folds=3, seed=0)
    assert len(seen) == 3
    for k, trained in enumerate(seen):
        test = {answers[i] for i in np.flatnonzero(folds == k)}
        assert not trained & test and len(trained) + len(test) == len(answers)


def test_parameters_reach_the_learner(monkeypatch):
    answers, marks = marked_answers()
    params = []
    original = GradingModel.train.__func__

    def recording_train(cls, question, a, m, **kw):
        params.append(kw)
        return original(cls, question, a, m, **kw)

    monkeypatch.setattr(GradingModel, "train", classmethod(recording_train))
    report = cross_validate(small_question(), answers, marks, folds=2, improvement_threshold=None,
                            confidence_threshold=0.8)
    assert params == [{"improvement_threshold": None, "confidence_threshold": 0.8}] * 2
    assert report.params == params[0]


def test_too_little_data_is_a_clear_error():
    with pytest.raises(ValueError, match="at least 2 folds"):
        cross_validate(small_question(), ["a", "b"], ["0", "1"], folds=1)
    with pytest.raises(ValueError, match="too few marked answers"):
        cross_validate(small_question(), ["a", "b", "c"], ["0", "1", "1"], folds=5)
    with pytest.raises(ValueError, match="2 answers but 3 marks"):
        cross_validate(small_question(), ["a", "b"], ["0", "1", "1"])

