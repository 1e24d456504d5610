"""Encoding many row subsets of one table (bootstrap resamples) without redoing the work.

Why: the grading model fits the learner again on 20 resamples of the marked answers, and
for a table of a few hundred answers and ~70 feature columns, inferring and encoding each
resample's columns with pandas cost more than learning its rules. Every per-value step of
`infer_encoding` and `encode_column` (factorizing, reading numbers, spotting missing
values) is done here once per column of the whole table; a subset then needs only its rows'
value codes and their counts. The result is exactly `encode_frame(X.iloc[rows])` with
inferred encodings (`tests/confold/test_subset_encoding.py` checks it on random tables).

Object columns holding values other than text (pandas may merge 1, 1.0 and True into one
distinct value, whichever comes first) are encoded from the subset itself, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from grader.confold.encoding import (NUMERIC_CODE, ColumnEncoding, EncodedColumn, EncodedTable,
                                     _factorize, _unique_missing, _unique_numbers, check_frame,
                                     encode_column, encoding_from_counts, infer_encoding,
                                     unique_codes)


@dataclass
class _Factors:
    """One column of the whole table, read once."""

    kind: str  # "numeric" (a numeric dtype), "boolean" (a bool dtype) or "values" (the rest)
    dtype: Any
    nan: np.ndarray  # per row: NaN/None
    num: np.ndarray | None = None  # numeric dtype: the values as floats
    codes: np.ndarray | None = None  # "values": per row, the index of its distinct value (-1: NaN)
    uniques: np.ndarray | None = None
    missing_u: np.ndarray | None = None
    numbers_u: np.ndarray | None = None
    #: (code, number) of each distinct value per encoding seen (resamples mostly share one)
    by_encoding: dict = field(default_factory=dict)
    #: the encoding inferred for each set of values present (and NaN or not) seen so far:
    #: resamples mostly share one, and inferring it anew costs more than the rest
    inferred: dict = field(default_factory=dict)


class SubsetEncoder:
    """Infers encodings for, and encodes, subsets of the rows of one DataFrame."""

    def __init__(self, X: pd.DataFrame):
        self.frame = check_frame(X)
        self._factors: dict[str, _Factors | None] = {}
        for name in self.frame.columns:
            self._factors[name] = _read(self.frame[name])

    def encode(self, rows: np.ndarray) -> tuple[list[ColumnEncoding], EncodedTable]:
        """(inferred encodings, encoded table) of `X.iloc[rows]`, as `infer_encoding` and
        `encode_frame` give them. The table has no frame (the learner drops it anyway)."""
        rows = np.asarray(rows, dtype=np.intp)
        encodings, columns = [], {}
        for name, factors in self._factors.items():
            if factors is None:  # not safe to share: read the subset itself
                values = self.frame[name].iloc[rows].reset_index(drop=True)
                encoding = infer_encoding(str(name), values)
                column = encode_column(values, encoding)
            else:
                encoding, column = _encode_rows(str(name), factors, rows)
            encodings.append(encoding)
            columns[encoding.name] = column
        return encodings, EncodedTable(columns=columns, n_rows=len(rows), frame=None)


def _read(values: pd.Series) -> _Factors | None:
    dtype = values.dtype
    nan = values.isna().to_numpy().copy()
    if pd.api.types.is_bool_dtype(dtype):
        codes, uniques = _factorize(values)
        return _Factors("boolean", dtype, nan, codes=codes, uniques=uniques,
                        missing_u=_unique_missing(uniques), numbers_u=_unique_numbers(uniques))
    if pd.api.types.is_numeric_dtype(dtype):
        num = np.array(values.to_numpy(dtype=float, na_value=np.nan), dtype=float, copy=True)
        return _Factors("numeric", dtype, nan, num=num)
    codes, uniques = _factorize(values)
    if not isinstance(dtype, pd.CategoricalDtype) and not all(type(u) is str for u in uniques):
        return None
    return _Factors("values", dtype, nan, codes=codes, uniques=uniques,
                    missing_u=_unique_missing(uniques), numbers_u=_unique_numbers(uniques))


def _encode_rows(name: str, f: _Factors, rows: np.ndarray) -> tuple[ColumnEncoding, EncodedColumn]:
    if f.kind == "numeric":
        has_nan = bool(f.nan[rows].any())
        encoding = f.inferred.get(has_nan)
        if encoding is None:
            encoding = f.inferred[has_nan] = ColumnEncoding(name, "numeric", ["?"] if has_nan else [])
        num = f.num[rows]
        codes = np.where(np.isnan(num), encoding.code_of("?"), NUMERIC_CODE).astype(np.int32)
        return encoding, EncodedColumn(num=num, codes=codes, encoding=encoding)
    cell_codes = f.codes[rows]
    if f.kind == "boolean":
        key = bool(f.nan[rows].any())
        counts = None
    else:
        counts = np.bincount(cell_codes[cell_codes >= 0], minlength=len(f.uniques))
        # the encoding depends on the counts only through which values occur, except in a
        # column of numbers and text, where how many are numbers decides numeric or mixed
        n_present = int(counts[~f.missing_u].sum())
        n_numeric = int(counts[~np.isnan(f.numbers_u) & ~f.missing_u].sum())
        key = (bool((cell_codes < 0).any()), (counts > 0).tobytes(), n_numeric >= 0.5 * n_present)
    entry = f.inferred.get(key)
    if entry is None:
        if counts is None:
            encoding = ColumnEncoding(name, "boolean", [False, True] + (["?"] if key else []))
        else:
            encoding = encoding_from_counts(name, f.dtype, f.uniques, counts, key[0], f.missing_u, f.numbers_u)
        same = (encoding.kind, tuple((type(c), c) for c in encoding.categories))
        if same not in f.by_encoding:
            f.by_encoding[same] = unique_codes(f.uniques, encoding, f.missing_u, f.numbers_u)
        entry = f.inferred[key] = (encoding, *f.by_encoding[same])
    encoding, code_u, num_u = entry
    return encoding, EncodedColumn(num=num_u[cell_codes], codes=code_u[cell_codes].astype(np.int32),
                                   encoding=encoding)
