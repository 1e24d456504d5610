"""FOLD-R++ information gain and the vectorised search for the best literal.

The candidates and their counts come from `grader.confold.slot_counts` (every (feature,
value) of the training table is a slot; per slot, the positives and negatives `<= x` /
`== c` covers among the rows in play). Gains come from a k*ln(k) lookup table, for all
candidates at once. Candidates are ranked in FOLD-RM's reference order (features in column
order; per feature numbers ascending, `<=` before `>`, then categories, `==` before `!=`),
and the first best one wins, so ties are broken the way the reference does. A table without
numbers on few slots is searched in Python floats instead, with the same arithmetic.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from grader.confold.encoding import EncodedTable
from grader.confold.rules import Literal
from grader.confold.slot_counts import SlotCounts, SlotTable, SortedCells


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


class _GainBuffers:
    """The buffers of `LiteralSearch._gain_pairs`, for chunks up to `capacity` wide."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.counts = np.empty(6 * capacity, dtype=np.int64)
        self.terms = np.empty(6 * capacity)
        self.right = np.empty(2 * capacity, dtype=np.int64)
        self.wrong = np.empty(2 * capacity, dtype=bool)


class _ChunkViews:
    """For one chunk width, the views of `_GainBuffers` that `_gain_pairs` works on (rows of
    `counts` and `terms`: tp, fp, fn, tn, tp + fp, fn + tn), made once per width: on few
    slots a search is mostly numpy's per-call costs, slicing too."""

    __slots__ = ("in_play", "counts", "terms", "upper", "lower", "sums", "even", "odd", "crossed",
                 "t_even", "t_odd", "t_sums", "t_sums_rev", "t_cross", "t_back", "right",
                 "right_rev", "wrong")

    def __init__(self, buffers: _GainBuffers, width: int):
        self.in_play = np.zeros((2, 1), dtype=np.int64)
        counts = self.counts = buffers.counts[:6 * width].reshape(6, width)
        terms = self.terms = buffers.terms[:6 * width].reshape(6, width)
        self.upper, self.lower, self.sums = counts[0:2], counts[2:4], counts[4:6]
        self.even, self.odd, self.crossed = counts[0:4:2], counts[1:4:2], counts[3:1:-1]
        self.t_even, self.t_odd = terms[0:4:2], terms[1:4:2]
        self.t_sums, self.t_sums_rev = terms[4:6], terms[5:3:-1]
        self.t_cross, self.t_back = terms[3:0:-2], terms[2::-2]
        self.right = buffers.right[:2 * width].reshape(2, width)
        self.right_rev = self.right[::-1]
        self.wrong = buffers.wrong[:2 * width].reshape(2, width)


class LiteralSearch(SlotTable):
    """Finds the literal with the best information gain for given positive/negative rows."""

    #: Candidates per chunk when computing gains: a chunk's temporaries stay in the CPU cache.
    GAIN_CHUNK = 8192
    #: Up to this many gains near the best, the tie among them is broken in Python.
    FEW_TIES = 16
    #: Up to this many slots, a table without numbers is searched in Python (`_best_in_python`):
    #: numpy's calls on arrays this short cost more than the arithmetic.
    PYTHON_SLOTS = 64

    def __init__(self, table: EncodedTable, features: Sequence[str], excluded: Iterable[str] = ()):
        super().__init__(table, features, excluded)
        self._table = xlogx_table(table.n_rows)
        self._literals: dict[tuple[int, bool], Literal] = {}  # made once: literals are frozen
        #: the buffers of `_gain_pairs`, and their views per chunk width
        self._gain_buffers = _GainBuffers(0)
        self._chunk_views: dict[int, _ChunkViews] = {}
        self._table_list: list[float] = []  # `_table` as Python floats, for `_best_in_python`
        self._always_set = frozenset(int(s) for s in self.always)

    def _xlogx(self, n: int) -> np.ndarray:
        if len(self._table) <= n:
            self._table = xlogx_table(max(n, 2 * len(self._table)))
        return self._table

    # -- literals <-> slots ---------------------------------------------------------------
    def literal(self, slot: int, second: bool) -> Literal:
        """The literal of a slot: `<=`/`==` (first) or `>`/`!=` (second)."""
        known = self._literals.get((slot, second))
        if known is None:
            known = self._literals[(slot, second)] = self._make_literal(slot, second)
        return known

    def _make_literal(self, slot: int, second: bool) -> Literal:
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
    def _gain_pairs(self, slots, covered, numbers, P: int, N: int) -> np.ndarray:
        """Gains (2, n) per candidate slot, row 0 of `<=`/`==` and row 1 of `>`/`!=`, -inf
        where the literal is wrong more often than right. Where the second literal covers
        exactly the rows in play the first does not (a category, a number of a feature with
        no category among the rows in play), its gain has the same six terms in another
        order: they are looked up once and added in the order `gain_from_counts` adds them,
        so both gains are bit for bit what it gives."""
        table = self._table if P + N < len(self._table) else self._xlogx(P + N)
        n = len(slots)
        gains = np.empty((2, n))
        total = float(P + N)
        step = self.GAIN_CHUNK
        for at in range(0, n, step):
            part = covered if n <= step else covered[:, at:at + step]
            width = part.shape[1]
            v = self._chunk_views.get(width)
            if v is None:
                v = self._views(width)
            # the six counts whose k*ln(k) make the gains, looked up at once;
            # rows: tp, fp, fn, tn, tp + fp, fn + tn
            v.in_play[0, 0] = P
            v.in_play[1, 0] = N
            v.counts[0:2] = part
            np.subtract(v.in_play, part, out=v.lower)
            np.add(v.even, v.odd, out=v.sums)
            table.take(v.counts, out=v.terms, mode="clip")
            g = gains if n <= step else gains[:, at:at + step]
            np.add(v.t_even, v.t_odd, out=g)  # tp + fp        | fn + tn
            g -= v.t_sums                      # - (tp+fp)      | - (fn+tn)
            g += v.t_cross                     # + tn           | + fp
            g += v.t_back                      # + fn           | + tp
            g -= v.t_sums_rev                  # - (tn+fn)      | - (tp+fp)
            g /= total
            # -inf where fp + fn > tp + tn; the mirror image has the other inequality
            np.add(v.upper, v.crossed, out=v.right)  # rows: tp + tn, fp + fn
            np.less(v.right, v.right_rev, out=v.wrong)
            np.putmask(g, v.wrong, -np.inf)
        if numbers is not None and np.count_nonzero((numbers[0] != P) | (numbers[1] != N)):
            self._mixed_second_gains(gains, slots, covered, numbers, P, N, table)
        return gains

    def _views(self, width: int) -> _ChunkViews:
        """The views of `_gain_pairs` for a chunk this wide, kept per width (views of one set
        of buffers: small objects, however wide)."""
        if width > self._gain_buffers.capacity:
            self._gain_buffers = _GainBuffers(max(width, 2 * self._gain_buffers.capacity))
            self._chunk_views.clear()
        if len(self._chunk_views) >= 1024:
            self._chunk_views.clear()
        views = self._chunk_views[width] = _ChunkViews(self._gain_buffers, width)
        return views

    def _mixed_second_gains(self, gains, slots, covered, numbers, P, N, table) -> None:
        """`> x` of the features with categories among the rows in play: its own counts."""
        which = ((numbers[0] != P) | (numbers[1] != N)).nonzero()[0]
        own = np.full(len(self._mixed) + 1, -1, dtype=np.intp)
        own[which] = which
        mixed = own[self._mixed_of_slot[slots]]
        at = (mixed >= 0).nonzero()[0]
        if not at.size:
            return
        tp_b = numbers[0, mixed[at]] - covered[0, at]
        fp_b = numbers[1, mixed[at]] - covered[1, at]
        gains[1, at] = gain_from_counts(table, tp_b, P - tp_b, N - fp_b, fp_b)

    def gains(self, pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(present slots, gains[:, 0] for `<=`/`==` and gains[:, 1] for `>`/`!=`)."""
        if self.n_slots == 0 or (len(pos) == 0 and len(neg) == 0):
            return np.empty(0, dtype=np.intp), np.empty((0, 2))
        slots, covered, numbers, absent = self.candidates(pos, neg)
        gains = self._gain_pairs(slots, covered, numbers, len(pos), len(neg)).T
        if absent is not None:
            return slots[~absent], gains[~absent]
        return slots, np.ascontiguousarray(gains)

    def all_gains(self, pos: np.ndarray, neg: np.ndarray) -> dict[Literal, float]:
        """Every candidate literal with its gain (for tests and for showing the heuristic)."""
        slots, gains = self.gains(pos, neg)
        return {self.literal(int(s), bool(j)): float(gains[i, j])
                for i, s in enumerate(slots) for j in (0, 1)}

    def _blocked(self, allowed: np.ndarray | None) -> np.ndarray | None:
        """(2, n_slots): the literals that may never be chosen (banned, or not `allowed`),
        None when there are none; kept for the last `allowed` seen (one per fit)."""
        cached_for, blocked = self._blocked_for
        if blocked is None or cached_for is not allowed:
            mask = np.repeat(self.banned[None, :], 2, axis=0)
            if allowed is not None:
                mask |= ~allowed.T
            self._blocked_for = (allowed, mask if mask.any() else False)
        blocked = self._blocked_for[1]
        return None if blocked is False else blocked

    def best(self, pos: np.ndarray, neg: np.ndarray, banned_slots: Iterable[int] = (),
             allowed: np.ndarray | None = None, counts: SlotCounts | None = None
             ) -> tuple[float, Literal, int] | None:
        """The best literal for separating rows `pos` from rows `neg`, or None if none has a
        finite gain. Returns (gain, literal, slot). `allowed`: an (n_slots, 2) bool mask of
        the literals that may be chosen (`grader.confold.evidence`); None allows all.
        `counts`: `count(pos, neg)` (or `narrow`) if known."""
        if self.n_slots == 0 or (len(pos) == 0 and len(neg) == 0):
            return None
        if self._categories_only and self.n_slots <= self.PYTHON_SLOTS:
            if counts is None:
                counts = self.count(pos, neg)
            if not isinstance(counts, SortedCells):
                return self._best_in_python(counts, len(pos), len(neg), banned_slots, self._blocked(allowed))
        slots, covered, numbers, absent = self.candidates(pos, neg, counts)
        gains = self._gain_pairs(slots, covered, numbers, len(pos), len(neg))
        blocked = self._blocked(allowed)
        if absent is not None:  # every slot is a candidate; `absent` is ours to change
            banned_slots = banned_slots if isinstance(banned_slots, list) else list(banned_slots)
            if banned_slots:
                absent[banned_slots] = True
            np.copyto(gains, -np.inf, where=absent)
            if blocked is not None:
                np.copyto(gains, -np.inf, where=blocked)
        else:
            if blocked is not None:
                np.copyto(gains, -np.inf, where=blocked.take(slots, axis=1))
            banned_slots = np.asarray(list(banned_slots), dtype=np.intp)
            if banned_slots.size:  # slots are sorted: find the banned ones by bisection
                at = np.minimum(slots.searchsorted(banned_slots), len(slots) - 1)
                at = at[slots[at] == banned_slots]
                gains[0, at] = gains[1, at] = -np.inf
        flat_gains = gains.ravel()
        flat = int(flat_gains.argmax())
        top = float(flat_gains[flat])
        if top == -np.inf:
            return None
        # Gains that are mathematically equal (e.g. mirror-image counts) may differ in the
        # last bits; rounded to 12 decimals, such ties go to the earlier candidate (slots in
        # order, the first literal of a slot before the second), as exact ties do. Only the
        # gains within 1e-11 of the best can round to the best's value.
        n = gains.shape[1]
        near = (flat_gains >= top - 1e-11).nonzero()[0]
        if len(near) == 1:
            flat = 2 * (flat % n) + flat // n  # candidate-major: 2 * index + second
        elif len(near) <= self.FEW_TIES:  # the first of the highest rounded gains in candidate order
            rounded = flat_gains.take(near).round(12).tolist()
            high = max(rounded)
            flat = min(2 * (i % n) + i // n for i, r in zip(near.tolist(), rounded) if r == high)
        else:
            near = 2 * (near % n) + near // n
            near.sort()
            flat = int(near[flat_gains[(near % 2) * n + near // 2].round(12).argmax()])
        second, index = flat % 2, flat // 2
        slot = int(slots[index])
        return float(gains[second, index]), self.literal(slot, bool(second)), slot

    def _best_in_python(self, counts: tuple[np.ndarray, np.ndarray], P: int, N: int,
                        banned_slots: Iterable[int], blocked: np.ndarray | None
                        ) -> tuple[float, Literal, int] | None:
        """`best` on a few slots of a table without numbers (a slot's counts are what `== c`
        covers), in Python floats: each gain is the same k*ln(k) terms added in the order
        `_gain_pairs` adds them, so the same bits, and the same choice among near ties."""
        table = self._xlogx(P + N)
        if len(self._table_list) != len(table):
            self._table_list = table.tolist()
        T = self._table_list
        total = float(P + N)
        banned = set(banned_slots)
        always = self._always_set
        no_first = no_second = None
        if blocked is not None:
            no_first, no_second = blocked[0].tolist(), blocked[1].tolist()
        found: list[tuple[float, int]] = []  # (gain, 2 * slot + second), in candidate order
        for slot, (tp, fp) in enumerate(zip(counts[0].tolist(), counts[1].tolist())):
            if not (tp or fp or slot in always) or slot in banned:
                continue
            fn, tn = P - tp, N - fp
            t_tp, t_fp, t_fn, t_tn = T[tp], T[fp], T[fn], T[tn]
            if tp + tn >= fp + fn and not (no_first and no_first[slot]):
                gain = ((((t_tp + t_fp) - T[tp + fp]) + t_tn) + t_fn) - T[tn + fn]
                found.append((gain / total, 2 * slot))
            if fp + fn >= tp + tn and not (no_second and no_second[slot]):
                gain = ((((t_fn + t_tn) - T[fn + tn]) + t_fp) + t_tp) - T[tp + fp]
                found.append((gain / total, 2 * slot + 1))
        if not found:
            return None
        top = max(gain for gain, _ in found)
        near = [(gain, key) for gain, key in found if gain >= top - 1e-11]
        if len(near) == 1:
            gain, key = near[0]
        else:  # rounded as `best` rounds (numpy's rounding, not Python's round)
            rounded = np.array([gain for gain, _ in near]).round(12).tolist()
            high = max(rounded)
            gain, key = next(pair for pair, r in zip(near, rounded) if r == high)
        slot, second = key // 2, key % 2
        return gain, self.literal(slot, bool(second)), slot
