"""FOLD-R++ information gain and the vectorised search for the best literal.

Every (feature, value) pair of the training table gets a *slot*. For each feature the
slots are laid out as: its distinct numeric values in ascending order (candidates `<= x` and
`> x`), then its categories in vocabulary order (candidates `== c` and `!= c`). A row's value
in a feature is one slot, so the table becomes an int matrix `slots` (rows x features).

Counting the positives and negatives per slot is one `np.bincount` over the gathered slots of
the examples in play (or one `np.unique` when they are few), and a cumulative sum within each
feature's numeric segment gives the `<=` counts: the prefix-sum formulation of FOLD-RM's
Algorithm 2 for all features at once. Candidates are ranked in FOLD-RM's reference order
(features in column order; per feature numbers ascending, `<=` before `>`, then categories,
`==` before `!=`), and the first best one wins, so ties are broken the way the reference does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from grader.confold.encoding import NUMERIC_CODE, EncodedTable
from grader.confold.rules import Literal


def information_gain(tp, fn, tn, fp):
    """FOLD-R++'s heuristic (natural log); -inf when the literal is wrong more often than right.

    Works on scalars and on numpy arrays alike.
    """
    tp, fn, tn, fp = (np.asarray(a, dtype=float) for a in (tp, fn, tn, fp))
    total = tp + fn + tn + fp
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = (_f(tp, fp) + _f(fp, tp) + _f(tn, fn) + _f(fn, tn)) / total
    gain = np.where(fp + fn > tp + tn, -np.inf, gain)
    return float(gain) if gain.ndim == 0 else gain


def xlogx_table(n: int) -> np.ndarray:
    """k * ln(k) for k = 0..n (0 for k = 0): the gain of integer counts without any log."""
    k = np.arange(n + 1, dtype=float)
    k[0] = 1.0
    table = k * np.log(k)
    table[0] = 0.0
    return table


def gain_from_counts(table: np.ndarray, tp: np.ndarray, fn: np.ndarray, tn: np.ndarray,
                     fp: np.ndarray) -> np.ndarray:
    """`information_gain` for integer count arrays, via a k*ln(k) lookup table:
    F(a,b) + F(b,a) = a ln a + b ln b - (a+b) ln(a+b)."""
    gain = (table[tp] + table[fp] - table[tp + fp] + table[tn] + table[fn] - table[tn + fn])
    gain /= tp + fn + tn + fp
    gain[fp + fn > tp + tn] = -np.inf
    return gain


def _f(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * ln(a / (a + b)), with 0 for a == 0."""
    safe_a = np.where(a > 0, a, 1.0)
    return np.where(a > 0, a * np.log(safe_a / (safe_a + b)), 0.0)


@dataclass
class _Feature:
    name: str
    num_start: int
    thresholds: np.ndarray  # distinct numeric training values, ascending
    cat_start: int
    categories: list
    integral: bool  # all numeric values are whole numbers: print thresholds as ints


class LiteralSearch:
    """Finds the literal with the best information gain for given positive/negative rows."""

    #: Below this many gathered cells per slot, count with np.unique instead of bincount.
    SPARSE_FACTOR = 0.25
    #: Candidates per chunk when computing gains: a chunk's temporaries stay in the CPU cache.
    GAIN_CHUNK = 8192

    def __init__(self, table: EncodedTable, features: Sequence[str], excluded: Iterable[str] = ()):
        excluded = set(excluded)
        self.features: list[_Feature] = []
        slot_columns = []
        next_slot = 0
        feature_of_slot, is_numeric_slot, banned, always = [], [], [], []
        for f_index, name in enumerate(features):
            col = table.columns[name]
            kind = col.encoding.kind
            is_number = col.codes == NUMERIC_CODE
            ranks = None
            if kind in ("numeric", "mixed"):
                thresholds, ranks = np.unique(col.num[is_number], return_inverse=True)
            else:
                thresholds = np.empty(0)
            cats = list(col.encoding.categories)
            feat = _Feature(name, next_slot, thresholds, next_slot + len(thresholds), cats,
                            bool(len(thresholds)) and bool(np.all(np.mod(thresholds, 1) == 0)))
            self.features.append(feat)
            n_slots = len(thresholds) + len(cats)
            slots = np.empty(table.n_rows, dtype=np.intp)
            if len(thresholds):
                slots[is_number] = feat.num_start + ranks.ravel()
            if (col.codes == col.encoding.unseen_code).any():
                raise ValueError(f"column {name!r}: a training value is missing from the column's "
                                 f"vocabulary (encoding bug)")
            slots[~is_number] = feat.cat_start + col.codes[~is_number] - 1
            slot_columns.append(slots)
            feature_of_slot += [f_index] * n_slots
            is_numeric_slot += [True] * len(thresholds) + [False] * len(cats)
            ban = [name in excluded] * n_slots
            if kind == "boolean":
                # Offer `== True` / `!= True` only (not their mirror images on False), and
                # offer them even when no example in play is True.
                ban[len(thresholds) + cats.index(False)] = True
                always.append(feat.cat_start + cats.index(True))
            banned += ban
            next_slot += n_slots
        self.n_slots = next_slot
        self.slots = (np.column_stack(slot_columns) if slot_columns
                      else np.empty((table.n_rows, 0), dtype=np.intp))
        self.feature_of_slot = np.asarray(feature_of_slot, dtype=np.intp)
        self.is_numeric_slot = np.asarray(is_numeric_slot, dtype=bool)
        self.banned = np.asarray(banned, dtype=bool)
        self.always = np.asarray(always, dtype=np.intp)  # slots offered even when absent
        self.always_mask = np.zeros(self.n_slots, dtype=bool)
        self.always_mask[self.always] = True
        self._table = xlogx_table(table.n_rows)

    def _xlogx(self, n: int) -> np.ndarray:
        if len(self._table) <= n:
            self._table = xlogx_table(max(n, 2 * len(self._table)))
        return self._table

    # -- literals <-> slots ---------------------------------------------------------------
    def literal(self, slot: int, second: bool) -> Literal:
        """The literal of a slot: `<=`/`==` (first) or `>`/`!=` (second)."""
        feat = self.features[self.feature_of_slot[slot]]
        if self.is_numeric_slot[slot]:
            x = float(feat.thresholds[slot - feat.num_start])
            value = int(x) if feat.integral and abs(x) < 2 ** 53 else x
            return Literal(feat.name, ">" if second else "<=", value)
        value = feat.categories[slot - feat.cat_start]
        value = value.item() if isinstance(value, np.generic) else value
        return Literal(feat.name, "!=" if second else "==", value)

    def slot_of(self, lit: Literal) -> int | None:
        """The slot a literal tests, if the training data has that value (to ban reusing it)."""
        for f_index, feat in enumerate(self.features):
            if feat.name != lit.feature:
                continue
            if lit.op in ("==", "!="):
                for i, c in enumerate(feat.categories):
                    if type(c) is type(lit.value) and c == lit.value:
                        return feat.cat_start + i
            elif isinstance(lit.value, (int, float)) and not isinstance(lit.value, bool):
                i = int(np.searchsorted(feat.thresholds, float(lit.value)))
                if i < len(feat.thresholds) and feat.thresholds[i] == float(lit.value):
                    return feat.num_start + i
        return None

    # -- the search -----------------------------------------------------------------------
    def counts(self, pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(present slots ascending, positives per slot, negatives per slot)."""
        n_features = self.slots.shape[1]
        cells = (len(pos) + len(neg)) * n_features
        pos_slots = self.slots[pos].ravel()
        neg_slots = self.slots[neg].ravel()
        if cells < self.SPARSE_FACTOR * self.n_slots:
            both = np.concatenate([pos_slots, neg_slots, self.always])
            present, inverse = np.unique(both, return_inverse=True)
            inverse = inverse.ravel()
            p = np.bincount(inverse[:len(pos_slots)], minlength=len(present))
            n = np.bincount(inverse[len(pos_slots):len(pos_slots) + len(neg_slots)], minlength=len(present))
            return present, p, n
        p = np.bincount(pos_slots, minlength=self.n_slots)
        n = np.bincount(neg_slots, minlength=self.n_slots)
        present = np.flatnonzero((p + n > 0) | self.always_mask)
        return present, p[present], n[present]

    def gains(self, pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(present slots, gains[:, 0] for `<=`/`==` and gains[:, 1] for `>`/`!=`)."""
        slots, p, n = self.counts(pos, neg)
        P, N = len(pos), len(neg)
        feat = self.feature_of_slot[slots]
        numeric = self.is_numeric_slot[slots]
        p_num = p * numeric
        n_num = n * numeric
        change = np.empty(len(feat), dtype=bool)
        change[0] = True
        np.not_equal(feat[1:], feat[:-1], out=change[1:])
        starts = np.flatnonzero(change)
        lengths = np.diff(starts, append=len(slots))
        p_cum = _segment_cumsum(p_num, starts, lengths)
        n_cum = _segment_cumsum(n_num, starts, lengths)
        xp = np.repeat(np.add.reduceat(p_num, starts), lengths)
        xn = np.repeat(np.add.reduceat(n_num, starts), lengths)
        tp_a = np.where(numeric, p_cum, p)                    # `<= x` / `== c`
        fp_a = np.where(numeric, n_cum, n)
        tp_b = np.where(numeric, xp - p_cum, P - p)           # `> x`  / `!= c`
        fp_b = np.where(numeric, xn - n_cum, N - n)
        gains = np.empty((len(slots), 2))
        table = self._xlogx(P + N)
        step = self.GAIN_CHUNK
        for at in range(0, len(slots), step):  # temporaries of a chunk stay in the CPU cache
            end = at + step
            tp, fp = tp_a[at:end], fp_a[at:end]
            gains[at:end, 0] = gain_from_counts(table, tp, P - tp, N - fp, fp)
            tp, fp = tp_b[at:end], fp_b[at:end]
            gains[at:end, 1] = gain_from_counts(table, tp, P - tp, N - fp, fp)
        return slots, gains

    def all_gains(self, pos: np.ndarray, neg: np.ndarray) -> dict[Literal, float]:
        """Every candidate literal with its gain (for tests and for showing the heuristic)."""
        slots, gains = self.gains(pos, neg)
        return {self.literal(int(s), bool(j)): float(gains[i, j])
                for i, s in enumerate(slots) for j in (0, 1)}

    def best(self, pos: np.ndarray, neg: np.ndarray, banned_slots: Iterable[int] = (),
             allowed: np.ndarray | None = None) -> tuple[float, Literal, int] | None:
        """The best literal for separating rows `pos` from rows `neg`, or None if none has a
        finite gain. Returns (gain, literal, slot). `allowed`: an (n_slots, 2) bool mask of
        the literals that may be chosen (`grader.confold.evidence`); None allows all."""
        if self.n_slots == 0 or (len(pos) == 0 and len(neg) == 0):
            return None
        slots, gains = self.gains(pos, neg)
        blocked = self.banned[slots]
        banned_slots = np.asarray(list(banned_slots), dtype=np.intp)
        if banned_slots.size:  # slots are sorted: find the banned ones by bisection
            at = np.minimum(np.searchsorted(slots, banned_slots), len(slots) - 1)
            blocked[at[slots[at] == banned_slots]] = True
        gains[blocked] = -np.inf
        if allowed is not None:
            gains[~allowed[slots]] = -np.inf
        # Gains that are mathematically equal (e.g. mirror-image counts) may differ in the
        # last bits; rounding makes such ties go to the earlier candidate, as exact ties do.
        flat = int(np.argmax(np.round(gains, 12)))
        gain = float(gains.flat[flat])
        if gain == -np.inf:
            return None
        slot = int(slots[flat // 2])
        return gain, self.literal(slot, bool(flat % 2)), slot


def _segment_cumsum(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    total = np.cumsum(values)
    before = total[starts] - values[starts]
    return total - np.repeat(before, lengths)
