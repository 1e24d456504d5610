"""Evaluation figures for predictions that may be missing (None: no rule applied).

A missing prediction counts as wrong for accuracy and F1, as 0.25 in the Brier score (the
Inverse Brier Score of CON-FOLD), and as the marker's work in `confident_accuracy`.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

__all__ = ["accuracy", "f1_scores", "macro_f1", "weighted_f1", "quadratic_weighted_kappa",
           "brier_score", "inverse_brier_score", "confident_accuracy"]


def _as_objects(values: Any) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = [v.item() if isinstance(v, np.generic) else v for v in values]
    return arr


def _pair(y_true: Sequence, y_pred: Sequence) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(true labels, predictions, mask of rows with a prediction), checked for equal length."""
    t, p = _as_objects(y_true), _as_objects(y_pred)
    if len(t) != len(p):
        raise ValueError(f"y_true has {len(t)} labels but y_pred has {len(p)}")
    if len(t) == 0:
        raise ValueError("no examples to evaluate")
    predicted = ~pd.isna(p)
    return t, p, predicted


def _correct(t: np.ndarray, p: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    correct = np.zeros(len(t), dtype=bool)
    correct[predicted] = t[predicted] == p[predicted]
    return correct


def accuracy(y_true: Sequence, y_pred: Sequence) -> float:
    t, p, predicted = _pair(y_true, y_pred)
    return float(_correct(t, p, predicted).mean())


def f1_scores(y_true: Sequence, y_pred: Sequence) -> tuple[list, np.ndarray, np.ndarray]:
    """(classes of y_true, F1 per class, support per class); a missing prediction is a miss."""
    t, p, predicted = _pair(y_true, y_pred)
    codes_t, uniques = pd.factorize(pd.Series(t, dtype=object))
    k = len(uniques)
    p_codes = np.full(len(p), k, dtype=np.intp)
    found = pd.Index(uniques, dtype=object).get_indexer(pd.Index(p[predicted], dtype=object))
    p_codes[np.flatnonzero(predicted)] = np.where(found >= 0, found, k)
    correct = p_codes == codes_t
    tp = np.bincount(codes_t[correct], minlength=k + 1)[:k].astype(float)
    support = np.bincount(codes_t, minlength=k).astype(float)
    predicted_count = np.bincount(p_codes, minlength=k + 1)[:k].astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(support + predicted_count > 0, 2 * tp / (support + predicted_count), 0.0)
    return list(uniques), f1, support


def macro_f1(y_true: Sequence, y_pred: Sequence) -> float:
    _, f1, _ = f1_scores(y_true, y_pred)
    return float(f1.mean())


def weighted_f1(y_true: Sequence, y_pred: Sequence) -> float:
    _, f1, support = f1_scores(y_true, y_pred)
    return float((f1 * support).sum() / support.sum())


def quadratic_weighted_kappa(y_true: Sequence, y_pred: Sequence, labels: Sequence | None = None) -> float:
    """Agreement on ordered marks (Cohen's kappa with quadratic weights).

    `labels`: the marks in order; by default the labels seen, numerically ordered when they
    are numbers (or text that reads as numbers). Rows without a prediction are left out
    (they go to a human); NaN if none is left or all marks are the same.
    """
    t, p, predicted = _pair(y_true, y_pred)
    t, p = t[predicted], p[predicted]
    if len(t) == 0:
        return float("nan")
    if labels is None:
        seen = list(dict.fromkeys(list(t) + list(p)))
        labels = sorted(seen, key=_order_key)
    index = {v: i for i, v in enumerate(labels)}
    unknown = [v for v in list(t) + list(p) if v not in index]
    if unknown:
        raise ValueError(f"label {unknown[0]!r} is not among the ordered labels {list(labels)}")
    k = len(labels)
    if k < 2:
        return float("nan")
    ti = np.array([index[v] for v in t])
    pi = np.array([index[v] for v in p])
    observed = np.bincount(ti * k + pi, minlength=k * k).reshape(k, k).astype(float)
    expected = np.outer(np.bincount(ti, minlength=k), np.bincount(pi, minlength=k)) / len(ti)
    i, j = np.indices((k, k))
    weights = (i - j) ** 2 / (k - 1) ** 2
    denominator = (weights * expected).sum()
    if denominator == 0:
        return float("nan")
    return float(1 - (weights * observed).sum() / denominator)


def _order_key(label: Any) -> tuple:
    try:
        return (0, float(label), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(label))


def _pair_with_confidence(y_true: Sequence, y_pred: Sequence, confidence: Sequence
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`_pair` plus the confidences as floats, checked for the same length."""
    t, p, predicted = _pair(y_true, y_pred)
    c = np.asarray(confidence, dtype=float)
    if len(c) != len(t):
        raise ValueError(f"y_true has {len(t)} labels but confidence has {len(c)} values")
    return t, p, predicted, c


def _brier_terms(y_true: Sequence, y_pred: Sequence, confidence: Sequence) -> np.ndarray:
    t, p, predicted, c = _pair_with_confidence(y_true, y_pred, confidence)
    predicted &= ~np.isnan(c)
    correct = _correct(t, p, predicted)
    terms = np.full(len(t), 0.25)
    terms[predicted & correct] = (1 - c[predicted & correct]) ** 2
    terms[predicted & ~correct] = c[predicted & ~correct] ** 2
    return terms


def brier_score(y_true: Sequence, y_pred: Sequence, confidence: Sequence) -> float:
    """Mean of (1-c)² for right predictions, c² for wrong ones, 0.25 for none (lower is better)."""
    return float(_brier_terms(y_true, y_pred, confidence).mean())


def inverse_brier_score(y_true: Sequence, y_pred: Sequence, confidence: Sequence) -> float:
    """CON-FOLD's IBS = 1 - Brier score (higher is better; 1 is perfect and certain)."""
    return 1.0 - brier_score(y_true, y_pred, confidence)


def confident_accuracy(y_true: Sequence, y_pred: Sequence, confidence: Sequence,
                       threshold: float) -> tuple[float, float]:
    """(accuracy of the predictions with confidence >= threshold, share of examples below it).

    The second figure is the marker's workload: answers with no prediction or a confidence
    under the threshold go to a human. The accuracy is NaN when no prediction reaches it.
    """
    t, p, predicted, c = _pair_with_confidence(y_true, y_pred, confidence)
    with np.errstate(invalid="ignore"):
        sure = predicted & (c >= threshold)
    workload = float(1 - sure.mean())
    if not sure.any():
        return float("nan"), workload
    return float((t[sure] == p[sure]).mean()), workload


def reliability_bins(y_true: Sequence, y_pred: Sequence, confidence: Sequence, bins: int = 10) -> list[dict]:
    """The reliability diagram's points: for each non-empty bin of `bins` equal-width confidence
    bins, its range, the mean confidence, the accuracy of its marks and its size. An answer with
    no prediction counts as wrong with confidence 0."""
    t, p, predicted, c = _pair_with_confidence(y_true, y_pred, confidence)
    c = np.where(predicted & ~np.isnan(c), np.clip(c, 0.0, 1.0), 0.0)
    right = (predicted & (t == p)).astype(float)
    which = np.minimum((c * bins).astype(int), bins - 1)
    return [{"low": b / bins, "high": (b + 1) / bins, "confidence": float(c[which == b].mean()),
             "accuracy": float(right[which == b].mean()), "answers": int((which == b).sum())}
            for b in np.unique(which)]


def expected_calibration_error(y_true: Sequence, y_pred: Sequence, confidence: Sequence,
                               bins: int = 10) -> float:
    """How far confidences are from the accuracy they promise: the mean over answers of
    |accuracy of its bin - mean confidence of its bin| (`reliability_bins`). 0 is perfectly
    calibrated; NaN for no answers."""
    points = reliability_bins(y_true, y_pred, confidence, bins)
    total = sum(b["answers"] for b in points)
    if not total:
        return float("nan")
    return float(sum(b["answers"] * abs(b["accuracy"] - b["confidence"]) for b in points) / total)
