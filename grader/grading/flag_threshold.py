"""Flagging to a target accuracy: "mark automatically only what you get right 95% of the time".

A teacher does not think in confidence thresholds. Given the cross-validated marks and
confidences of the marked answers (`GradingModel.calibrate`), `choose_threshold` picks the
lowest flag threshold whose automatically marked answers reach the target accuracy with a
statistically honest margin: the Wilson lower confidence bound of their accuracy (one-sided,
95% by default), not the observed share, so that a threshold resting on a handful of answers
is not trusted. When no threshold reaches the target, it says so and everything is flagged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: One-sided 95% normal quantile: the lower bound holds 19 times in 20.
Z_ONE_SIDED_95 = 1.6448536269514722


def wilson_lower_bound(right: int, n: int, z: float = Z_ONE_SIDED_95) -> float:
    """The Wilson score lower bound of a proportion `right` / `n` (0 when n is 0)."""
    if n <= 0:
        return 0.0
    p = right / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z * z / n))


@dataclass(frozen=True)
class ThresholdChoice:
    """The chosen threshold and what it promises on the marked answers."""

    target: float
    met: bool
    threshold: float  # flag answers with a confidence below this (inf: flag everything)
    lower_bound: float  # lower bound of the accuracy of the automatic marks (the best reached if not met)
    observed: float  # their observed accuracy (NaN if none)
    share_flagged: float  # share of the marked answers flagged at this threshold
    n: int  # marked answers behind the figures

    def message(self) -> str:
        """What it expects, in a teacher's words."""
        if self.met:
            return (f"expected accuracy of automatic marks >= {_percent(self.target)} (lower bound "
                    f"{self.lower_bound:.1%} on {self.n} cross-validated marked answers), "
                    f"{self.share_flagged:.0%} of answers flagged (flag below confidence {self.threshold:.2f})")
        return (f"the marked answers cannot vouch for {_percent(self.target)}: the best lower bound is "
                f"{self.lower_bound:.1%} (on {self.n} cross-validated marked answers), so every "
                f"answer is flagged for a human; mark more answers or lower the target")


def choose_threshold(confidence: Sequence[float], correct: Sequence[bool], target: float,
                     z: float = Z_ONE_SIDED_95) -> ThresholdChoice:
    """The lowest threshold (the fewest answers flagged) whose automatic marks reach `target`
    with the Wilson lower bound; answers without a confidence (no rule) are always flagged."""
    if not 0 < target < 1:
        raise ValueError(f"the target accuracy must be between 0 and 1 (e.g. 0.95), not {target!r}")
    conf = np.asarray(confidence, dtype=float)
    right = np.asarray(correct, dtype=bool)
    if conf.shape != right.shape:
        raise ValueError(f"{len(conf)} confidences but {len(right)} right/wrong values")
    n = len(conf)
    usable = ~np.isnan(conf)
    order = np.argsort(-conf[usable], kind="stable")
    c, r = conf[usable][order], right[usable][order]
    best = ThresholdChoice(target, False, math.inf, 0.0, math.nan, 1.0, n)
    cumulative = np.cumsum(r)
    # candidate thresholds: each distinct confidence; automatic = all answers at or above it
    for k in range(len(c)):
        if k + 1 < len(c) and c[k + 1] == c[k]:
            continue  # ties go together
        auto = k + 1
        bound = wilson_lower_bound(int(cumulative[k]), auto, z)
        if bound >= target:
            best = ThresholdChoice(target, True, float(c[k]), bound, cumulative[k] / auto, 1 - auto / n, n)
        elif not best.met and bound > best.lower_bound:
            best = ThresholdChoice(target, False, math.inf, bound, math.nan, 1.0, n)
    return best


def _percent(share: float) -> str:
    """95% for 0.95, 99.9% for 0.999: as many digits as the teacher gave."""
    return f"{round(share * 100, 6):g}%"
