"""The cells of few rows on many slots, sorted by slot and kept sorted down a rule.

When few rows are in play on a table with many slots (numeric columns with thousands of
values), counting them over every slot costs more than sorting their cells
(`grader.confold.slot_counts` counts them from the sorted keys). A cell is keyed
`slot << (row_bits + 2) | row << 2 | tag`, tag 0 for a positive, 1 for a negative and 2 for
an always-offered slot (on a pseudo-row `n_rows`); sorted, the keys group the cells by slot.

A rule's next literal, and the examples a learned exception covers, only take rows away,
and what is left of sorted keys is still sorted: `narrow` keeps the keys of the rows that
stay instead of sorting again. `swapped` exchanges positives and negatives (a rule's
exceptions are learned the other way round) by flipping the low tag bit, which keeps the
order, since no two cells share a slot and a row; an always-offered cell's tag becomes 3,
which counts as nothing either.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class SortedCells(NamedTuple):
    """Sorted cell keys of the rows in play (see the module doc)."""

    keys: np.ndarray


class CellKeys:
    """The key layout of one slot matrix: building, narrowing and swapping sorted cells."""

    def __init__(self, slots: np.ndarray, n_slots: int, always: np.ndarray):
        n_rows = len(slots)
        #: bits of a row number; row n_rows holds the always-offered slots' cells
        self.row_bits = max(1, n_rows.bit_length())
        self.shift = self.row_bits + 2
        self.row_mask = (1 << self.row_bits) - 1
        self.n_rows = n_rows
        #: do the keys fit in an int64 (else the caller counts per slot instead)?
        self.fits = max(1, n_slots).bit_length() + self.shift <= 62
        self._slots = slots
        self._always = (np.asarray(always, dtype=np.int64) << self.shift) | ((n_rows << 2) | 2)

    def build(self, pos: np.ndarray, neg: np.ndarray) -> SortedCells:
        """The sorted cells of rows `pos` (positives) and `neg` (negatives)."""
        n_features = self._slots.shape[1]
        keys = np.empty((len(pos) + len(neg)) * n_features + len(self._always), dtype=np.int64)
        at = 0
        for rows, tag in ((pos, 0), (neg, 1)):  # filled in place: no temporary arrays
            block = keys[at:at + len(rows) * n_features].reshape(len(rows), n_features)
            self._slots.take(rows, axis=0, out=block, mode="clip")  # "raise" would buffer
            block <<= self.shift
            block |= ((rows << 2) | tag)[:, None]
            at += block.size
        keys[at:] = self._always
        keys.sort()
        return SortedCells(keys)

    def narrow(self, cells: SortedCells, *staying: np.ndarray) -> SortedCells:
        """The cells of the rows in `staying` (index arrays), all of them among `cells`."""
        keep = np.zeros(self.n_rows + 1, dtype=bool)
        for rows in staying:
            keep[rows] = True
        keep[self.n_rows] = True
        keys = cells.keys
        return SortedCells(keys[keep[(keys >> 2) & self.row_mask]])

    @staticmethod
    def swapped(cells: SortedCells) -> SortedCells:
        """The same cells with positives and negatives exchanged."""
        return SortedCells(cells.keys ^ 1)

    def slot_of(self, keys: np.ndarray) -> np.ndarray:
        return keys >> self.shift
