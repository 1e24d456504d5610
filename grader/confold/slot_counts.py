"""The training table as slots, and the positives and negatives per slot among rows in play.

Every (feature, value) pair of the training table gets a *slot*. For each feature the
slots are laid out as: its distinct numeric values in ascending order (candidates `<= x` and
`> x`), then its categories in vocabulary order (candidates `== c` and `!= c`). A row's value
in a feature is one slot, so the table becomes an int matrix `slots` (rows x features).

Counting the positives and negatives per slot is one `np.bincount` over the gathered slots of
the rows in play (or one sort of their cells when they are few on many slots), and a
cumulative sum along the slots gives the `<=` counts of every feature at once: the
prefix-sum formulation of FOLD-RM's Algorithm 2. The learner only ever takes rows away
(a literal, the examples a rule explains), so counts are also narrowed by subtracting the
rows that leave, swapped for a rule's exceptions, and kept per class for the outer loop.
`grader.confold.literal_search` turns the counts into gains and picks the best literal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence, Union

import numpy as np

from grader.confold.encoding import NUMERIC_CODE, EncodedTable
from grader.confold.sorted_cells import CellKeys, SortedCells


def _distinct_sorted(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.unique(values, return_inverse=True)`; whole numbers in a range not much wider
    than their count (ages, counts, codes) are ranked by one bincount instead of a sort."""
    if len(values):
        low, high = values.min(), values.max()
        if (high - low <= 4 * len(values) and max(-low, high) < 2 ** 52
                and np.array_equal(values, np.floor(values))):
            offsets = (values - low).astype(np.intp)
            distinct = (np.bincount(offsets) > 0).nonzero()[0]
            # the rank of each value present, scattered (not a cumulative sum over the range)
            rank_of = np.zeros(int(high - low) + 1, dtype=np.intp)
            rank_of[distinct] = np.arange(len(distinct))
            return distinct + low, rank_of[offsets]
    return np.unique(values, return_inverse=True)


@dataclass
class _Feature:
    name: str
    num_start: int
    thresholds: np.ndarray  # distinct numeric training values, ascending
    cat_start: int
    categories: list
    integral: bool  # all numeric values are whole numbers: print thresholds as ints


#: What a cell of `_counts_by_sorting` adds to the packed counts, by its tag: a positive 1,
#: a negative 2**32, an always-offered slot nothing.
_PACKED = np.array([1, 1 << 32, 0, 0], dtype=np.int64)


def _unpack(packed: np.ndarray) -> np.ndarray:
    """(2, n) positives and negatives from counts packed as `positives + negatives << 32`."""
    out = np.empty((2, len(packed)), dtype=np.int64)
    np.bitwise_and(packed, 0xFFFFFFFF, out=out[0])
    np.right_shift(packed, 32, out=out[1])
    return out

#: The counts of the rows in play: positives and negatives per slot (two int arrays of
#: n_slots), or for few rows on many slots their sorted cells (`SortedCells`).
#: `SlotTable.swapped` exchanges positives and negatives (a rule's exceptions learn the
#: other way round).
SlotCounts = Union[tuple[np.ndarray, np.ndarray], SortedCells]


class SlotTable:
    """The slot matrix of a training table and the per-slot counts of rows in play."""

    #: Below this many gathered cells per slot, count by sorting the cells instead of bincount.
    SPARSE_FACTOR = 0.25
    #: Up to this many slots, every slot is a candidate (absent ones get -inf): fewer steps
    #: than picking out the present ones.
    ALL_SLOTS = 2048

    def __init__(self, table: EncodedTable, features: Sequence[str], excluded: Iterable[str] = ()):
        excluded = set(excluded)
        self.features: list[_Feature] = []
        slot_columns = []
        next_slot = 0
        n_thresholds, n_categories, banned_features, false_slots, always = [], [], [], [], []
        for name in features:
            col = table.columns[name]
            kind = col.encoding.kind
            is_number = col.codes == NUMERIC_CODE
            ranks = None
            if kind in ("numeric", "mixed"):
                thresholds, ranks = _distinct_sorted(col.num[is_number])
            else:
                thresholds = np.empty(0)
            cats = list(col.encoding.categories)
            feat = _Feature(name, next_slot, thresholds, next_slot + len(thresholds), cats,
                            bool(len(thresholds)) and bool(np.all(np.mod(thresholds, 1) == 0)))
            self.features.append(feat)
            if (col.codes == col.encoding.unseen_code).any():
                raise ValueError(f"column {name!r}: a training value is missing from the column's "
                                 f"vocabulary (encoding bug)")
            slots = feat.cat_start - 1 + col.codes.astype(np.intp)
            if len(thresholds):
                slots[is_number] = feat.num_start + ranks.ravel()
            slot_columns.append(slots)
            n_thresholds.append(len(thresholds))
            n_categories.append(len(cats))
            banned_features.append(name in excluded)
            if kind == "boolean":
                # Offer `== True` / `!= True` only (not their mirror images on False), and
                # offer them even when no example in play is True.
                false_slots.append(feat.cat_start + cats.index(False))
                always.append(feat.cat_start + cats.index(True))
            next_slot = feat.cat_start + len(cats)
        self.n_slots = next_slot
        self.slots = (np.column_stack(slot_columns) if slot_columns
                      else np.empty((table.n_rows, 0), dtype=np.intp))
        #: per feature, its rows' slots, contiguous: the rows a learned literal covers
        self._slot_columns = [np.asarray(c, dtype=np.int32 if next_slot < 2 ** 31 else np.intp)
                              for c in slot_columns]
        per_feature = np.asarray(n_thresholds, dtype=np.intp) + np.asarray(n_categories, dtype=np.intp)
        self.feature_of_slot = np.repeat(np.arange(len(self.features)), per_feature)
        self.is_numeric_slot = np.repeat(np.tile([True, False], len(self.features)),
                                         np.column_stack([n_thresholds, n_categories]).ravel()
                                         if self.features else np.empty(0, dtype=np.intp))
        self.banned = np.repeat(np.asarray(banned_features, dtype=bool), per_feature)
        self.banned[np.asarray(false_slots, dtype=np.intp)] = True
        self.always = np.asarray(always, dtype=np.intp)  # slots offered even when absent
        self.always_mask = np.zeros(self.n_slots, dtype=bool)
        self.always_mask[self.always] = True
        self._layout()

    def _layout(self) -> None:
        """Index arrays of the slot layout, made once so that a search does no Python work
        per feature. A feature's numeric slots come before its categories, and every row has
        one cell per feature, so the cells of the rows in play with a slot below feature f's
        first slot are exactly f cells per row."""
        n_features = len(self.features)
        num_start = np.array([f.num_start for f in self.features], dtype=np.intp)
        cat_start = np.array([f.cat_start for f in self.features], dtype=np.intp)
        #: per slot: where its `<=` count starts in the cumulative counts (its feature's first
        #: threshold for a number, itself for a category)
        self._count_from = np.where(self.is_numeric_slot, num_start[self.feature_of_slot],
                                    np.arange(self.n_slots)) if self.n_slots else np.empty(0, np.intp)
        #: features with both numbers and categories (mixed, or numeric with missing cells):
        #: there `<= x` and `> x` need not cover every row in play between them
        both = np.array([len(f.thresholds) > 0 and len(f.categories) > 0 for f in self.features], dtype=bool)
        self._mixed = np.flatnonzero(both)
        self._mixed_num_start = num_start[self._mixed]
        self._mixed_cat_start = cat_start[self._mixed]
        self._mixed_offset = self._mixed.astype(np.int64)  # cells below the feature, per row
        #: per slot: the index into `_mixed` of a number of a mixed feature, else len(_mixed)
        where_mixed = np.full(n_features + 1, len(self._mixed), dtype=np.intp)
        where_mixed[self._mixed] = np.arange(len(self._mixed))
        self._mixed_of_slot = np.where(self.is_numeric_slot, where_mixed[self.feature_of_slot],
                                       len(self._mixed)) if self.n_slots else np.empty(0, np.intp)
        self._cell_keys = CellKeys(self.slots, self.n_slots, self.always)
        self._mixed_cat_keys = self._mixed_cat_start * 4
        self._all_slots = np.arange(self.n_slots)
        self._blocked_for: tuple = (None, None)
        self._cat_start = cat_start
        #: the cumulative counts of `_from_slot_counts` (column 0 stays 0), which returns none
        #: of it, only arrays computed from it
        self._cum = np.zeros((2, self.n_slots + 1), dtype=np.int64)
        self._categories_only = not self.is_numeric_slot.any()
        self._cell_buffer = np.empty(0, dtype=self.slots.dtype)
        self._covers_of: dict[int, tuple[np.ndarray, bool, int]] = {}

    # -- counting ---------------------------------------------------------------------------
    def _by_sorting(self, n_rows: int) -> bool:
        """Count these many rows by sorting their cells (few rows on many slots)? Not past
        2**31 cells, which the packed counts of `_counts_by_sorting` could not hold."""
        cells = n_rows * self.slots.shape[1]
        return cells < self.SPARSE_FACTOR * self.n_slots and cells < 2 ** 31 and self._cell_keys.fits

    def count(self, pos: np.ndarray, neg: np.ndarray) -> SlotCounts | None:
        """The counts of the rows in play, to hand to `best` and `narrow`: per slot, or the
        sorted cells where those are cheaper (few rows, many slots); None without slots."""
        if self.n_slots == 0:
            return None
        if self._by_sorting(len(pos) + len(neg)):
            return self._cell_keys.build(pos, neg)
        n = self.n_slots
        return (np.bincount(self._cells(pos), minlength=n), np.bincount(self._cells(neg), minlength=n))

    def _cells(self, rows: np.ndarray) -> np.ndarray:
        """`slots[rows].ravel()`, in a buffer reused by the next call (on large row sets a
        fresh array is megabytes to map each time): to be consumed at once."""
        size = len(rows) * self.slots.shape[1]
        if len(self._cell_buffer) < size:
            self._cell_buffer = np.empty(max(size, 2 * len(self._cell_buffer)), dtype=self.slots.dtype)
        out = self._cell_buffer[:size]
        # mode="clip" (rows are always in range): with "raise" numpy buffers `out` again
        self.slots.take(rows, axis=0, out=out.reshape(len(rows), self.slots.shape[1]), mode="clip")
        return out

    def _by_class_pays(self, n_rows: int, n_classes: int) -> bool:
        return (self.n_slots > 0 and not self._by_sorting(n_rows)
                and n_classes * self.n_slots <= n_rows * self.slots.shape[1])

    def count_by_class(self, rows: np.ndarray, labels: np.ndarray, n_classes: int) -> np.ndarray | None:
        """(n_classes, n_slots): per-slot counts of `rows` by class (`labels`: class index per
        training row), from which each round of the outer loop takes its counts for any
        target class; None when counting each round's examples afresh is cheaper (few rows,
        or many slots times classes)."""
        if not self._by_class_pays(len(rows), n_classes):
            return None
        return self._class_cells(rows, labels, n_classes)

    def uncount_by_class(self, by_class: np.ndarray | None, leaving: np.ndarray, left: np.ndarray,
                         labels: np.ndarray) -> np.ndarray | None:
        """`count_by_class(left)` from `by_class` of the rows `left` and `leaving`."""
        if by_class is None or not self._by_class_pays(len(left), len(by_class)):
            return None
        if len(leaving) >= len(left):
            return self._class_cells(left, labels, len(by_class))
        return by_class - self._class_cells(leaving, labels, len(by_class))

    def _class_cells(self, rows: np.ndarray, labels: np.ndarray, n_classes: int) -> np.ndarray:
        n = self.n_slots
        cells = self._cells(rows)
        cells.reshape(len(rows), self.slots.shape[1])[...] += (labels[rows] * n)[:, None]  # class c: + c * n
        return np.bincount(cells, minlength=n_classes * n).reshape(n_classes, n)

    def narrow(self, counts: SlotCounts | None, pos: np.ndarray, keep_pos: np.ndarray,
               neg: np.ndarray, keep_neg: np.ndarray | None,
               kept: tuple[np.ndarray, np.ndarray] | None = None) -> SlotCounts | None:
        """`count(pos[keep_pos], neg[keep_neg])` (keep_neg None: all of neg) from `counts` of
        (pos, neg): a rule's next literal, or the examples a rule covers, only take rows
        away, so when fewer rows leave than stay their counts are subtracted instead, and
        sorted cells keep those of the rows that stay (still sorted). `kept`: the rows that
        stay, (pos[keep_pos], neg[keep_neg]), when the caller has them."""
        if kept is None:
            kept = (pos[keep_pos], neg if keep_neg is None else neg[keep_neg])
        if isinstance(counts, SortedCells):
            return self._cell_keys.narrow(counts, *kept)
        n_left = len(kept[0]) + len(kept[1])
        if counts is None or self._by_sorting(n_left) or len(pos) + len(neg) - n_left >= n_left:
            return self.count(*kept)
        n = self.n_slots
        per_pos, per_neg = counts
        if len(kept[0]) < len(pos):
            per_pos = per_pos - np.bincount(self._cells(pos[~keep_pos]), minlength=n)
        if len(kept[1]) < len(neg):
            per_neg = per_neg - np.bincount(self._cells(neg[~keep_neg]), minlength=n)
        return per_pos, per_neg

    def candidates(self, pos: np.ndarray, neg: np.ndarray, counts: SlotCounts | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
        """The candidates and what their gains need, as (slots, covered, numbers, absent):
        the candidate slots ascending; `covered` (2, n): the positives and negatives
        `<= x` / `== c` covers per slot; `numbers` (2, len(_mixed)) or None when no feature has
        both numbers and categories: per such feature the positives and negatives whose cell
        is a number (`> x` covers those `<= x` does not); `absent`: None when every candidate
        is present among the rows in play (or always offered), else the mask of those that
        are not (on few slots, every slot is a candidate: cheaper than picking the present).
        `counts`: `count(pos, neg)` if known."""
        if counts is None:
            counts = self.count(pos, neg)
        if isinstance(counts, SortedCells):
            return self._counts_by_sorting(counts, len(pos), len(neg))
        return self._from_slot_counts(counts)

    def swapped(self, counts: SlotCounts | None) -> SlotCounts | None:
        """`counts` with positives and negatives exchanged."""
        if counts is None:
            return None
        if isinstance(counts, SortedCells):
            return self._cell_keys.swapped(counts)
        return counts[::-1]

    def _from_slot_counts(self, counts: SlotCounts):
        """Candidates from per-slot counts, cumulated along the slots."""
        n = self.n_slots
        present = np.logical_or(counts[0], counts[1])
        if len(self.always):
            present[self.always] = True
        if self._categories_only:  # what `== c` covers is the slot's own count: no cumulating
            covered = np.array(counts, dtype=np.int64)
            if n <= self.ALL_SLOTS:
                return self._all_slots, covered, None, ~present
            slots = present.nonzero()[0]
            return slots, covered.take(slots, axis=1), None, None
        cum = self._cum  # reused: on many slots a fresh array is megabytes to map each time
        np.add.accumulate(counts[0], out=cum[0, 1:])  # np.cumsum, without its wrapper's cost
        np.add.accumulate(counts[1], out=cum[1, 1:])
        numbers = None
        if len(self._mixed):
            numbers = cum.take(self._mixed_cat_start, axis=1) - cum.take(self._mixed_num_start, axis=1)
        if n <= self.ALL_SLOTS:
            return self._all_slots, cum[:, 1:] - cum.take(self._count_from, axis=1), numbers, ~present
        slots = present.nonzero()[0]
        # take along an axis: much faster than fancy indexing `cum[:, slots]`
        covered = cum.take(slots + 1, axis=1) - cum.take(self._count_from[slots], axis=1)
        return slots, covered, numbers, None

    def _counts_by_sorting(self, cells: SortedCells, n_pos: int, n_neg: int):
        """The same from the sorted cells of the rows in play (`grader.confold.sorted_cells`:
        few rows, many slots; a cell's tag is 0 for a positive, 1 for a negative, 2 or 3 for
        an always-offered slot, counted as neither). Positives and negatives are counted in
        one int64, negatives in the high 32 bits (`_PACKED`): one cumulative sum and one
        gather instead of two; every difference taken is of counts that only grow, so no
        borrow crosses from one half to the other."""
        keys = cells.keys
        cum = np.add.accumulate(_PACKED[keys & 3])
        slot_of_key = self._cell_keys.slot_of(keys)
        last = np.empty(len(keys), dtype=bool)
        last[-1] = True
        np.not_equal(slot_of_key[1:], slot_of_key[:-1], out=last[:-1])
        ends = last.nonzero()[0]
        slots = slot_of_key[ends]
        at_end = cum[ends]
        # a number counts from its feature's first cell (f cells per row lie below feature f),
        # a category from the end of the slot before it
        in_play = n_pos + (n_neg << 32)
        start = np.empty_like(at_end)
        start[0] = 0
        start[1:] = at_end[:-1]
        numeric = self.is_numeric_slot[slots]
        np.copyto(start, self.feature_of_slot[slots] * in_play, where=numeric)
        covered = _unpack(at_end - start)
        numbers = None
        if len(self._mixed):
            below = slot_of_key.searchsorted(self._mixed_cat_start)
            numbers = _unpack(np.where(below > 0, cum[below - 1], 0) - self._mixed * in_play)
        return slots, covered, numbers, None

    def covers(self, slot: int, second: bool, rows: np.ndarray) -> np.ndarray:
        """Mask of `rows` where the literal `literal(slot, second)` holds (what
        `rule_eval.literal_mask` gives for it): a feature's numbers are its lowest slots in
        ascending order, its categories the slots above them."""
        known = self._covers_of.get(slot)
        if known is None:  # a slot's column and kind, looked up once per slot learned
            feature = int(self.feature_of_slot[slot])
            known = self._covers_of[slot] = (self._slot_columns[feature], bool(self.is_numeric_slot[slot]),
                                             int(self._cat_start[feature]))
        cells = known[0][rows]
        if not known[1]:
            return cells != slot if second else cells == slot
        if not second:
            return cells <= slot
        return (cells > slot) & (cells < known[2])
