"""Margin-based inclusion of features (Hoche & Wrobel, seed 001: C2RIB^D's Table 2).

Why: boosting starts from a few features and is given more only when its learning slows
down, which the paper found as accurate as (often more than) boosting over all features:
fewer candidate literals per round means fewer rules that fit an accident of the training
answers. Features are ranked once by their mutual information with the class; the learner
starts with the top two, and after each round the mean margin of the training examples is
watched. When the margins' improvement slows down faster than an inverse-logarithm forecast
made at the last peak of its ratio of averaged to current gradient, the next feature is added.
"""

from __future__ import annotations

import math

import numpy as np

from grader.confold.literal_search import LiteralSearch


def _entropy_terms(counts: np.ndarray) -> float:
    counts = counts[counts > 0]
    return float((counts * np.log(counts)).sum())


def mutual_information(search: LiteralSearch, is_pos: np.ndarray) -> np.ndarray:
    """MI (nats) between each feature of `search` and a binary class (`is_pos` per row).

    A categorical feature is read by its categories; a numeric one by its best single
    threshold (numbers at most / above it), its categories (missing, text) apart: a one-cut
    version of the entropy discretisation the paper uses."""
    n = len(is_pos)
    n_features = search.slots.shape[1]
    mi = np.zeros(n_features)
    if n == 0:
        return mi
    pos = np.bincount(search.slots[is_pos].ravel(), minlength=search.n_slots).astype(float)
    neg = np.bincount(search.slots[~is_pos].ravel(), minlength=search.n_slots).astype(float)
    n_pos = float(is_pos.sum())
    class_terms = _entropy_terms(np.array([n_pos, n - n_pos]))
    for f, feat in enumerate(search.features):
        num = slice(feat.num_start, feat.cat_start)
        cat = slice(feat.cat_start, feat.cat_start + len(feat.categories))
        cat_terms = _entropy_terms(pos[cat]) + _entropy_terms(neg[cat]) - _entropy_terms(pos[cat] + neg[cat])
        p_num, n_num = pos[num], neg[num]
        best = 0.0
        if len(p_num) > 1:
            lp, ln_ = np.cumsum(p_num)[:-1], np.cumsum(n_num)[:-1]
            rp, rn = p_num.sum() - lp, n_num.sum() - ln_
            with np.errstate(divide="ignore", invalid="ignore"):
                def xlogx(a):
                    return np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0)), 0.0)
                split = (xlogx(lp) + xlogx(ln_) - xlogx(lp + ln_) + xlogx(rp) + xlogx(rn) - xlogx(rp + rn))
            best = float(split.max())
        elif len(p_num) == 1:
            best = _entropy_terms(p_num) + _entropy_terms(n_num) - _entropy_terms(p_num + n_num)
        # n I(C; F) = n H(C) - n H(C | F), written as sums of k ln k
        mi[f] = max(0.0, (best + cat_terms - class_terms + n * math.log(n)) / n)
    return mi


def feature_ranking(search: LiteralSearch, is_pos: np.ndarray) -> np.ndarray:
    """Feature indices by decreasing mutual information with the class (ties: column order)."""
    return np.argsort(-np.round(mutual_information(search, is_pos), 12), kind="stable")


class MarginMonitor:
    """CheckLearningProgress (the paper's Table 2): after each round, whether to add a feature.

    `window` is T_l (gradients averaged over the last T_l rounds), `alpha` the threshold on
    forecast / actual ratio (the paper's 1.01). Margins are the ensemble's normalised margins
    of the training examples (in [-1, 1]); the monitor sees their mean each round.
    """

    def __init__(self, window: int = 10, alpha: float = 1.01):
        self.window = window
        self.alpha = alpha
        self.means: list[float] = []
        self.gradients: list[float] = [math.nan]  # gradient(1) is undefined
        self.ratios: list[float] = [math.nan, math.nan]
        self.forecast: tuple[float, float, int] | None = None  # a, ln b, offset

    def _slope(self) -> float:
        y = np.asarray(self.means)
        x = np.arange(1, len(y) + 1, dtype=float)
        x -= x.mean()
        return float((x * (y - y.mean())).sum() / (x * x).sum())

    def update(self, mean_margin: float) -> bool:
        """Record round t's mean margin; True when a feature should be added now."""
        self.means.append(float(mean_margin))
        t = len(self.means)
        if t == 1:
            return False
        self.gradients.append(self._slope())
        if t == 2:
            return False
        if t > self.window:
            trend = float(np.mean(self.gradients[max(1, t - 1 - self.window):t - 1]))  # gradient(1): none
        else:
            trend = float(np.mean(self.gradients[1:t - 1]))
        gradient = self.gradients[t - 1]
        if gradient <= 1e-12:  # the margins no longer grow at all: the slowdown is complete
            self.ratios.append(math.inf)
            return True
        ratio = trend / gradient
        self.ratios.append(ratio)
        if t <= 3:
            return False
        before, peak = self.ratios[t - 3], self.ratios[t - 2]
        if math.isfinite(before) and math.isfinite(peak) and before < peak > ratio and peak != ratio:
            # predict(x) = a / ln(x / b) through predict(2) = ratio(t-1), predict(3) = ratio(t)
            log_b = (ratio * math.log(3) - peak * math.log(2)) / (ratio - peak)
            self.forecast = (peak * (math.log(2) - log_b), log_b, t - 3)
        predicted = ratio
        if self.forecast is not None:
            a, log_b, offset = self.forecast
            log = math.log(t - offset) - log_b  # ln((t - offset) / b), in logs: b may be tiny
            if log > 0:
                predicted = a / log
        return ratio > 0 and predicted / ratio > self.alpha
