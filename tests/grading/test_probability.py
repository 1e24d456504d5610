"""The confidence a marker reads is a probability (grader.grading.probability, GradingModel)."""

from __future__ import annotations

import numpy as np
import pytest

from grader.grading.evaluation import calibrate, cross_validate
from grader.grading.model import GradingModel
from grader.grading.probability import ProbabilityMap
from grader.grading.wording import support_phrase, weigh
from grader.metrics import expected_calibration_error
from tests.data import marked_answers, small_question

GRID = np.linspace(0.0, 1.0, 101)


def _underconfident(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Raw confidences whose marks are right more often than they say: p = sigmoid(0.6 logit c + 1)."""
    rng = np.random.default_rng(seed)
    raw = rng.uniform(0.02, 0.98, n)
    p = 1 / (1 + np.exp(-(0.6 * np.log(raw / (1 - raw)) + 1.0)))
    return raw, rng.random(n) < p


def test_without_pairs_the_map_is_the_identity():
    identity = ProbabilityMap.fit([], [])
    assert identity.is_identity and identity.n == 0
    assert identity(GRID) == pytest.approx(GRID)
    assert np.isnan(identity([np.nan]))[0]
    assert ProbabilityMap.fit([None, None], [True, False]).is_identity  # no mark: no pair


def test_a_hand_made_table_gives_a_monotone_bounded_map():
    # marks of 0.2 right 3 times in 5, of 0.5 4 in 5, of 0.9 5 in 5: underconfident
    table = [(0.2, True), (0.2, True), (0.2, True), (0.2, False), (0.2, False),
             (0.5, True), (0.5, True), (0.5, True), (0.5, True), (0.5, False),
             (0.9, True), (0.9, True), (0.9, True), (0.9, True), (0.9, True), (None, False)]
    fitted = ProbabilityMap.fit([c for c, _ in table], [r for _, r in table])
    assert fitted.n == 15  # the unmarked answer has no confidence
    p = fitted(GRID)
    assert ((p > 0) & (p < 1)).all()
    assert (np.diff(p) > 0).all()  # strictly monotone: the marks keep their order
    assert fitted(0.2) > 0.2 and fitted(0.5) > 0.5  # raised towards what the table shows
    # 15 answers move it, but the prior keeps it from the table's extremes
    assert fitted(0.2) < 0.6 + 0.1 and fitted(0.9) < 0.999


def test_a_few_pairs_stay_near_the_identity_and_many_follow_the_data():
    raw, right = _underconfident(6, seed=1)
    few = ProbabilityMap.fit(raw, right)
    assert np.abs(few(GRID[5:-5]) - GRID[5:-5]).max() < 0.25
    raw, right = _underconfident(5000, seed=2)
    many = ProbabilityMap.fit(raw, right)
    assert many.slope == pytest.approx(0.6, abs=0.1) and many.intercept == pytest.approx(1.0, abs=0.15)


def test_a_reversed_relation_does_not_reverse_the_order():
    raw = np.array([0.1, 0.2, 0.8, 0.9] * 25)
    fitted = ProbabilityMap.fit(raw, raw < 0.5)  # the low ones right, the high ones wrong
    assert fitted.slope > 0 and (np.diff(fitted(GRID)) > 0).all()


def test_the_mapped_confidence_matches_the_accuracy_on_new_answers():
    raw, right = _underconfident(2000, seed=3)
    fitted = ProbabilityMap.fit(raw, right)
    new_raw, new_right = _underconfident(20_000, seed=4)
    truth = np.where(new_right, "1", "0")
    before = expected_calibration_error(truth, ["1"] * len(truth), new_raw)
    after = expected_calibration_error(truth, ["1"] * len(truth), fitted(new_raw))
    assert before > 0.15 and after < 0.03


def test_a_mark_every_rule_list_gives_is_not_confidence_0_beside_its_wording():
    # the wording's support of 0 used to wipe out a mark all 20 resampled lists gave
    assert weigh(np.array([21 / 23]), np.array([0.0]))[0] >= 0.09
    assert weigh(np.array([0.8]), np.array([0.5]))[0] == pytest.approx(0.4)
    assert np.isnan(weigh(np.array([np.nan]), np.array([0.0]))[0])
    assert support_phrase(0.0, "1", "0").startswith("but ")  # the text says what lowered it


@pytest.fixture(scope="module")
def calibrated_model():
    answers, marks = marked_answers()
    model = GradingModel.train(small_question(), answers, marks, n_resamples=5)
    raw = model.grade(answers[:10])["confidence"].to_numpy()
    calibrate(model, answers, marks, folds=4)
    return model, raw, answers


def test_a_calibrated_model_shows_the_map_of_its_raw_confidence(calibrated_model):
    model, raw, answers = calibrated_model
    assert model.calibrated and model.probability.n > 0
    graded = model.grade(answers[:10])
    assert graded["confidence"].to_numpy() == pytest.approx(model.probability(raw), nan_ok=True)
    decisions = model.decide(model.features(answers[:10]), answers[:10])
    assert decisions.raw == pytest.approx(raw, nan_ok=True)
    # saved and loaded, the map is the same: it is fitted on the pairs the file keeps
    again = GradingModel.from_dict(model.to_dict())
    assert again.grade(answers[:10])["confidence"].to_numpy() == pytest.approx(graded["confidence"].to_numpy(),
                                                                               nan_ok=True)
    text = model.explain(answers[0]).text()
    assert "so the mark is right with a probability of about" in text


def test_the_target_threshold_is_on_the_figure_grade_flags_by(calibrated_model):
    model, _, answers = calibrated_model
    pairs = model.calibration
    from grader.grading.flag_threshold import choose_threshold

    raw_choice = choose_threshold([np.nan if c is None else c for c in pairs["confidence"]], pairs["correct"], 0.8)
    choice = model.flag_threshold_for(0.8)
    assert choice.met == raw_choice.met and choice.share_flagged == pytest.approx(raw_choice.share_flagged)
    if choice.met:
        assert choice.threshold == pytest.approx(float(model.probability(raw_choice.threshold)))


def test_an_uncalibrated_model_shows_its_raw_confidence():
    answers, marks = marked_answers()
    model = GradingModel.train(small_question(), answers, marks, n_resamples=5)
    assert not model.calibrated
    decisions = model.decide(model.features(answers[:10]), answers[:10])
    assert decisions.confidence == pytest.approx(decisions.raw, nan_ok=True)
    assert "overall confidence" in model.explain(answers[0]).text()


def test_nested_cross_validation_calibrates_each_fold_on_its_own_answers(monkeypatch):
    answers, marks = marked_answers()
    seen = []
    import grader.grading.evaluation as evaluation

    real = evaluation.calibrate

    def spy(model, fold_answers, fold_marks, folds=5, seed=0):
        seen.append(set(fold_answers))
        return real(model, fold_answers, fold_marks, folds=folds, seed=seed)

    monkeypatch.setattr(evaluation, "calibrate", spy)
    report = cross_validate(small_question(), answers, marks, folds=3, seed=0, calibrated=True, n_resamples=3)
    fold_of = report.predictions["fold"].to_numpy()
    assert len(seen) == 3
    for k, fold_answers in enumerate(seen):  # never the answers the fold is measured on
        assert not fold_answers & {answers[i] for i in np.flatnonzero(fold_of == k)} - \
            {answers[i] for i in np.flatnonzero(fold_of != k)}
    assert report.params["calibrated"] is True
