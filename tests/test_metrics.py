"""Metrics on hand-computed cases; a missing prediction (None) is never right."""

import math

import numpy as np
import pytest

from grader import metrics


def test_accuracy_counts_no_prediction_as_wrong():
    assert metrics.accuracy(["a", "b", "a", "b"], ["a", None, "b", "b"]) == 0.5
    with pytest.raises(ValueError, match="4 labels but y_pred has 3"):
        metrics.accuracy(["a", "b", "a", "b"], ["a", "b", "a"])


def test_f1_macro_and_weighted():
    y = ["a", "a", "a", "b"]
    p = ["a", "a", "b", None]
    # a: tp 2, support 3, predicted 2 -> F1 = 4/5; b: tp 0 -> 0
    assert metrics.macro_f1(y, p) == pytest.approx(0.4)
    assert metrics.weighted_f1(y, p) == pytest.approx(0.8 * 3 / 4)


def test_label_types_are_not_mixed_up():
    assert metrics.accuracy([0.5, "0.5", 1], ["0.5", 0.5, 1.0]) == pytest.approx(1 / 3)


def test_quadratic_weighted_kappa():
    assert metrics.quadratic_weighted_kappa([0, 1, 2, 2], [0, 1, 2, 2]) == pytest.approx(1.0)
    # hand computed: observed disagreement 1 step on one of 4 pairs
    y, p = [0, 1, 2, 2], [0, 2, 2, 2]
    k = 3
    obs = np.zeros((k, k)); exp_t = np.bincount(y, minlength=k); exp_p = np.bincount(p, minlength=k)
    for a, b in zip(y, p):
        obs[a, b] += 1
    w = np.array([[(i - j) ** 2 / 4 for j in range(k)] for i in range(k)])
    expected = 1 - (w * obs).sum() / (w * np.outer(exp_t, exp_p) / 4).sum()
    assert metrics.quadratic_weighted_kappa(y, p) == pytest.approx(expected)
    # marks as text are ordered numerically ("10" after "9")
    assert metrics.quadratic_weighted_kappa(["9", "10", "10"], ["9", "10", "10"]) == pytest.approx(1.0)
    # rows without a prediction are left out
    assert metrics.quadratic_weighted_kappa([0, 1, 2], [0, None, 2]) == pytest.approx(1.0)


def test_brier_and_inverse_brier():
    y = ["a", "b", "a", "b"]
    p = ["a", "a", None, "b"]
    c = [0.9, 0.8, np.nan, 0.6]
    terms = [(1 - 0.9) ** 2, 0.8 ** 2, 0.25, (1 - 0.6) ** 2]
    assert metrics.brier_score(y, p, c) == pytest.approx(sum(terms) / 4)
    assert metrics.inverse_brier_score(y, p, c) == pytest.approx(1 - sum(terms) / 4)
    assert metrics.inverse_brier_score(["a"], [None], [np.nan]) == pytest.approx(0.75)


def test_confident_accuracy_and_workload():
    y = ["a", "b", "a", "b", "a"]
    p = ["a", "a", "a", None, "b"]
    c = [0.95, 0.9, 0.6, np.nan, 0.85]
    acc, workload = metrics.confident_accuracy(y, p, c, 0.8)
    assert acc == pytest.approx(1 / 3)   # a right, a wrong (0.9), b wrong (0.85)
    assert workload == pytest.approx(2 / 5)
    acc, workload = metrics.confident_accuracy(y, p, c, 0.99)
    assert math.isnan(acc) and workload == 1.0
