"""Weighted literal statistics for boosting, on the slots of CON-FOLD's literal search.

Why: boosting grows each rule on weighted examples (the weights say which answers the
ensemble still gets wrong), so a literal is scored by the weight of the positives and
negatives it keeps, not by their count. The table is encoded and laid out in slots exactly
as `grader.confold.literal_search.LiteralSearch` does (one slot per feature value; numbers
ascending, then categories), and this module reads the search's slot matrix: one weighted
`np.bincount` over the rows in play gives every `==` / `<=` candidate, a cumulative sum per
feature the `<=` ones, and the totals the `!=` / `>` ones. No literal is evaluated row by row.
"""

from __future__ import annotations

import numpy as np

from grader.confold.literal_search import LiteralSearch


class WeightedSlots:
    """Weighted (positive, negative) cover of every candidate literal of a `LiteralSearch`."""

    def __init__(self, search: LiteralSearch):
        self.search = search
        self.n_slots = search.n_slots
        feature = search.feature_of_slot
        self.numeric = search.is_numeric_slot
        change = np.ones(len(feature), dtype=bool)
        change[1:] = feature[1:] != feature[:-1]
        self.starts = np.flatnonzero(change)
        self.lengths = np.diff(self.starts, append=len(feature))
        self.n_features = search.slots.shape[1]

    def _per_slot(self, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        if len(rows) == 0 or self.n_slots == 0:
            return np.zeros(self.n_slots)
        cells = self.search.slots[rows].ravel()
        return np.bincount(cells, weights=np.repeat(weights[rows], self.n_features), minlength=self.n_slots)

    def _both_sides(self, per_slot: np.ndarray, total: float) -> np.ndarray:
        """(n_slots, 2): weight covered by `<=`/`==` (column 0) and by `>`/`!=` (column 1)."""
        out = np.empty((self.n_slots, 2))
        if self.n_slots == 0:
            return out
        numeric = per_slot * self.numeric
        running = np.cumsum(numeric)
        before = running[self.starts] - numeric[self.starts]
        cumulative = running - np.repeat(before, self.lengths)
        numeric_total = np.repeat(np.add.reduceat(numeric, self.starts), self.lengths)
        out[:, 0] = np.where(self.numeric, cumulative, per_slot)
        out[:, 1] = np.where(self.numeric, numeric_total - cumulative, total - per_slot)
        return out

    def cover(self, pos: np.ndarray, neg: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(W+, W-), each (n_slots, 2): the weight of the rows `pos` / `neg` each literal keeps."""
        w_pos = self._both_sides(self._per_slot(pos, weights), float(weights[pos].sum()))
        w_neg = self._both_sides(self._per_slot(neg, weights), float(weights[neg].sum()))
        return w_pos, w_neg

    def best(self, pos: np.ndarray, neg: np.ndarray, weights: np.ndarray, allowed: np.ndarray
             ) -> tuple[float, int, bool] | None:
        """The literal with the largest sqrt(W+) - sqrt(W-) (SLIPPER's growing criterion) among
        the `allowed` ones ((n_slots, 2) mask): (criterion, slot, second side?), or None."""
        if self.n_slots == 0:
            return None
        w_pos, w_neg = self.cover(pos, neg, weights)
        score = np.sqrt(np.maximum(w_pos, 0.0)) - np.sqrt(np.maximum(w_neg, 0.0))
        score[~allowed] = -np.inf
        score[w_pos <= 0] = -np.inf  # a literal that keeps no positive says nothing for the class
        flat = int(np.argmax(np.round(score, 12)))  # near-equal scores: the earlier candidate
        value = float(score.flat[flat])
        if value == -np.inf:
            return None
        return value, flat // 2, bool(flat % 2)


def allowed_slots(search: LiteralSearch, features: np.ndarray, evidence: np.ndarray | None = None
                  ) -> np.ndarray:
    """(n_slots, 2) mask of the literals a rule may use: on a feature in `features` (bool per
    feature of the search), not banned by the search (empty columns, `== False`), and, given
    an evidence mask (`grader.confold.evidence.evidence_mask`), evidence."""
    ok = features[search.feature_of_slot] & ~search.banned
    mask = np.repeat(ok[:, None], 2, axis=1)
    if evidence is not None:
        mask &= evidence
    return mask
