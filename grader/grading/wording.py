"""Wording support: a second reader whose disagreement makes a rule's mark less certain.

Rules mark the answers and say why; how sure a mark is should also depend on evidence the
rule does not look at. A model of the marked answers' wording (`features.text_model`) scores
each answer per mark ("answers worded like this one were marked 1"). The wording support of
a rule's mark is its score relative to the best-scored mark: 1 when the wording agrees with
the rule, less the more the wording prefers another mark. The confidence of the mark is
multiplied by it, so a mark the wording contradicts is flagged sooner while one it agrees
with keeps its confidence (the default flag threshold keeps its meaning).

In 5-fold cross-validation on Beetle's train split (three fold seeds) this raised the
accuracy of the answers left to the machine with 30% flagged from 0.828 to 0.839 (3-way)
and from 0.929 to 0.936 (2-way), on every seed; see docs/beetle.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from features.text import normalize
from features.text_model import NgramScorer


class WordingSupport:
    """Fitted on the marked answers; `judge(answers, marks)` gives each mark's support."""

    def __init__(self, scorer: NgramScorer):
        self.scorer = scorer

    @classmethod
    def fit(cls, answers: Sequence[str], marks: Sequence[str]) -> WordingSupport:
        return cls(NgramScorer.fit([normalize(a) for a in answers], marks))

    def judge(self, answers: Sequence[str], marks: Sequence[object]) -> tuple[np.ndarray, list]:
        """(support, preferred): for each answer, the score of the given mark relative to the
        best-scored mark (0-1; NaN where the mark is None, unknown to the model, or no mark
        scores above 0), and the mark the wording prefers (None where support is NaN)."""
        support = np.full(len(answers), np.nan)
        preferred: list = [None] * len(answers)
        if not len(answers):
            return support, preferred
        scores = self.scorer.score([normalize(a) for a in answers])
        column = {m: j for j, m in enumerate(self.scorer.marks)}
        given = np.fromiter((-1 if mark is None else column.get(str(mark), -1) for mark in marks),
                            dtype=np.int64, count=len(answers))
        best = scores.max(axis=1)
        rows = np.flatnonzero((given >= 0) & (best > 0))
        # np.round is what round() of a numpy float does: the figures of the per-answer loop
        support[rows] = np.round(np.minimum(scores[rows, given[rows]] / best[rows], 1.0), 2)
        names = np.asarray(self.scorer.marks, dtype=object)
        for i, name in zip(rows.tolist(), names[np.argmax(scores[rows], axis=1)].tolist()):
            preferred[i] = name
        return support, preferred

    def support(self, answers: Sequence[str], marks: Sequence[object]) -> np.ndarray:
        return self.judge(answers, marks)[0]

    def to_dict(self) -> dict:
        return self.scorer.to_dict()

    @classmethod
    def from_dict(cls, data: dict) -> WordingSupport:
        return cls(NgramScorer.from_dict(data))


def weigh(confidence: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Confidence times the wording support (unchanged where there is no support figure)."""
    return np.where(np.isnan(support), confidence, confidence * support)


def support_phrase(support: float, mark: object, preferred: object) -> str:
    """What the wording says about a mark, in a marker's words ("" without a figure)."""
    if support is None or np.isnan(support):
        return ""
    if support >= 1.0:
        return f"answers worded like this one were marked {mark} too"
    return f"answers worded like this one were more often marked {preferred} (wording support {support:.2f})"


def support_phrases(support: np.ndarray, marks: Sequence[object], preferred: Sequence[object]) -> np.ndarray:
    """"; answers worded like this one were marked 1 too" for each answer ("" without a figure)."""
    return np.asarray([("; " + p) if p else "" for p in
                       (support_phrase(s, m, q) for s, m, q in zip(support, marks, preferred))],
                      dtype=object)
