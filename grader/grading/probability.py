"""The confidence a marker reads is a probability: the chance that the mark is right.

Why: a mark's raw confidence (`GradingModel.decide`: the share of the rule lists giving it
times its wording support) ranks the marks well but is not a probability: on Beetle, marks
of raw confidence 0.3 were right about half the time, on the sample questions the marks were
right far more often than their figure said (calibration error 0.17-0.24). A teacher reads
"confidence 80%" as "right 8 times in 10" and flags below 0.7 on that reading.

How: `ProbabilityMap` is Platt scaling on the logit of the raw confidence,
p = sigmoid(a * logit(raw) + b), fitted on the model's own cross-validated (raw confidence,
right) pairs (`grader.grading.evaluation.calibrate`), with a Gaussian prior centred on the
identity (a = 1, b = 0). Why this map:
- monotone (a is kept positive): the order of the marks, and so which ones are flagged
  first, stays that of the raw confidence; only the figure changes;
- two parameters: the sample questions have 40-80 marked answers, too few for isotonic
  regression's steps, and on Beetle the raw bands lie close to a line in logit space
  (0.30 -> 0.5, 0.61 -> 0.69, 0.82 -> 0.80, 0.95 -> 0.91);
- the prior (worth about `PRIOR_ANSWERS` answers) keeps a map fitted on a handful of pairs near the
  identity, and with no pairs it is the identity: a model without cross-validated pairs shows
  its raw confidence (`GradingModel.calibrated` says which it is).
numpy only: a few Newton steps on the penalised log-likelihood.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

#: Raw confidences are clipped to [EDGE, 1 - EDGE] before the logit (a raw 0 or 1 has none).
EDGE = 1e-3
#: Strength of the prior towards the identity map, as the precision of a Gaussian on (a - 1)
#: and on b: about the curvature of the log-likelihood of this many answers of confidence
#: 0.8 (p(1-p) ~ 0.16, logit ~ 1.4), so that a map rests mostly on the answers from about 20 on.
PRIOR_ANSWERS = 10
PRIOR_PRECISION = PRIOR_ANSWERS * 0.16 * 1.4 ** 2 / 2
#: The smallest slope kept: a map never reverses, nor flattens, the order of the confidences.
MIN_SLOPE = 0.05


def _logit(raw: np.ndarray) -> np.ndarray:
    c = np.clip(raw, EDGE, 1 - EDGE)
    return np.log(c / (1 - c))


@dataclass(frozen=True)
class ProbabilityMap:
    """p = sigmoid(slope * logit(raw) + intercept), fitted on `n` pairs (identity when n is 0)."""

    slope: float = 1.0
    intercept: float = 0.0
    n: int = 0

    @classmethod
    def fit(cls, confidence: Sequence[float | None], correct: Sequence[bool],
            prior: float = PRIOR_PRECISION, steps: int = 50) -> ProbabilityMap:
        """The map from (raw confidence, right) pairs; a pair without a confidence (no mark) is
        left out. ValueError when the two lengths differ."""
        raw = np.asarray([np.nan if c is None else c for c in confidence], dtype=float)
        right = np.asarray(correct, dtype=float)
        if raw.shape != right.shape:
            raise ValueError(f"{len(raw)} confidences but {len(right)} right/wrong values")
        keep = np.isfinite(raw)
        x, y = _logit(raw[keep]), right[keep]
        if not len(x):
            return cls()
        theta = np.array([1.0, 0.0])  # slope, intercept: start at the prior's centre
        centre = theta.copy()
        design = np.column_stack([x, np.ones_like(x)])
        for _ in range(steps):
            p = 1 / (1 + np.exp(-(design @ theta)))
            gradient = design.T @ (p - y) + prior * (theta - centre)
            hessian = (design * (p * (1 - p))[:, None]).T @ design + prior * np.eye(2)
            step = np.linalg.solve(hessian, gradient)
            theta = theta - step
            if np.abs(step).max() < 1e-9:
                break
        return cls(float(max(theta[0], MIN_SLOPE)), float(theta[1]), int(len(x)))

    def __call__(self, raw: np.ndarray | Sequence[float] | float) -> np.ndarray:
        """The probability that a mark of each raw confidence is right (NaN stays NaN)."""
        r = np.asarray(raw, dtype=float)
        if self.is_identity:
            return r.copy()
        with np.errstate(invalid="ignore"):
            out = 1 / (1 + np.exp(-(self.slope * _logit(r) + self.intercept)))
        return np.where(np.isnan(r), np.nan, out)

    @property
    def is_identity(self) -> bool:
        return self.n == 0
