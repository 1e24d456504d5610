"""Turning a DataFrame into the numpy arrays the learner and the rule evaluator work on.

Every column becomes two arrays of the table's length:

* `num`: the numeric reading of each cell (float64, NaN when the cell is not a number);
* `codes`: int32, `NUMERIC_CODE` (0) for a cell that is a number of a numeric or mixed
  column, `1 + i` for the i-th category of the column's vocabulary, and `unseen_code`
  (`len(categories) + 1`) for a category that was not seen when the encoding was made.

A missing cell (NaN, None, "" or "?") is the categorical value `MISSING` ("?"), as in
FOLD-R++. Column kinds:

* ``numeric``: a numeric dtype, or an object column whose non-missing cells are all numbers;
* ``mixed``: an object column whose non-missing cells are mostly (>= half) numbers; the
  other cells are categories (FOLD-R++ semantics: `==` on a number is false, order tests
  on a category are false);
* ``boolean``: bool dtype, or an object column of only True/False;
* ``categorical``: everything else; every non-missing cell is a category.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

MISSING = "?"
NUMERIC_CODE = 0
KINDS = ("numeric", "mixed", "categorical", "boolean")


def category_sort_key(value: Any) -> tuple:
    """Order categories the way FOLD-RM's reference code does (by their text), stably across types."""
    return (str(value), type(value).__name__)


@dataclass
class ColumnEncoding:
    """What is needed to encode one column the same way at fit and at predict time."""

    name: str
    kind: str
    categories: list = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r} for {self.name!r}; expected one of {KINDS}")
        self._index = {_key(v): i + 1 for i, v in enumerate(self.categories)}

    @property
    def unseen_code(self) -> int:
        return len(self.categories) + 1

    def code_of(self, value: Any) -> int:
        """The code of a literal's value, or `unseen_code` if the column never had it."""
        if value is None or (isinstance(value, float) and np.isnan(value)):
            value = MISSING
        code = self._index.get(_key(value))
        if code is None and not isinstance(value, str):
            code = self._index.get(_key(str(value)))
        return self.unseen_code if code is None else code

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "categories": list(self.categories)}


def _is_missing_value(value: Any) -> bool:
    return isinstance(value, str) and value == MISSING


def _key(value: Any) -> tuple:
    # True == 1 in Python; keep the bool True and the int 1 apart as category keys.
    return (type(value) is bool, value)


@dataclass
class EncodedColumn:
    num: np.ndarray
    codes: np.ndarray
    encoding: ColumnEncoding


@dataclass
class EncodedTable:
    """A table as arrays, plus the original frame for showing a row's actual values."""

    columns: dict[str, EncodedColumn]
    n_rows: int
    frame: pd.DataFrame | None = None

    def column(self, name: str) -> EncodedColumn:
        try:
            return self.columns[name]
        except KeyError:
            raise ValueError(f"the data has no column {name!r} (a rule uses it); columns are: "
                             f"{', '.join(map(str, self.columns)) or 'none'}") from None


def missing_mask(values: pd.Series) -> np.ndarray:
    """NaN/None, and in object columns the empty string and "?", are missing."""
    mask = values.isna().to_numpy().copy()
    if values.dtype == object or isinstance(values.dtype, pd.StringDtype):
        as_text = values.astype(str).str.strip()
        mask |= as_text.isin(["", MISSING]).to_numpy() & ~mask
    return mask


def infer_encoding(name: str, values: pd.Series) -> ColumnEncoding:
    """Decide a column's kind and its category vocabulary from training data."""
    missing = missing_mask(values)
    has_missing = bool(missing.any())
    tail = [MISSING] if has_missing else []
    dtype = values.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return ColumnEncoding(name, "boolean", [False, True] + tail)
    if pd.api.types.is_numeric_dtype(dtype):
        return ColumnEncoding(name, "numeric", tail)
    present = values[~missing]
    if isinstance(dtype, pd.CategoricalDtype):
        cats = sorted(set(present.tolist()), key=category_sort_key)
        return ColumnEncoding(name, "categorical", cats + tail)
    distinct = pd.unique(present.to_numpy(dtype=object))
    if len(distinct) and all(type(v) in (bool, np.bool_) for v in distinct):
        return ColumnEncoding(name, "boolean", [False, True] + tail)
    parsed = _parse_numbers(present)
    numeric = ~np.isnan(parsed)
    if len(present) and numeric.all():
        return ColumnEncoding(name, "numeric", tail)
    if len(present) and numeric.mean() >= 0.5:
        cats = sorted(set(present[~numeric].tolist()), key=category_sort_key)
        return ColumnEncoding(name, "mixed", cats + tail)
    cats = sorted(set(present.tolist()), key=category_sort_key)
    return ColumnEncoding(name, "categorical", cats + tail)


def _parse_numbers(values: pd.Series) -> np.ndarray:
    if pd.api.types.is_bool_dtype(values.dtype):
        return np.full(len(values), np.nan)
    if pd.api.types.is_numeric_dtype(values.dtype):
        return np.array(values.to_numpy(dtype=float, na_value=np.nan), dtype=float, copy=True)
    obj = values.to_numpy(dtype=object)
    is_bool = np.fromiter((type(v) in (bool, np.bool_) for v in obj), bool, len(obj))
    parsed = np.array(pd.to_numeric(pd.Series(obj), errors="coerce").to_numpy(dtype=float, na_value=np.nan),
                      dtype=float, copy=True)
    parsed[is_bool] = np.nan
    return parsed


def encode_column(values: pd.Series, encoding: ColumnEncoding) -> EncodedColumn:
    """Encode a column with a (fitted or just inferred) encoding; vectorised over rows."""
    missing = missing_mask(values)
    num = _parse_numbers(values)
    num[missing] = np.nan
    codes = np.full(len(values), encoding.unseen_code, dtype=np.int32)
    if encoding.kind in ("numeric", "mixed"):
        is_number = ~np.isnan(num)
        codes[is_number] = NUMERIC_CODE
        lookup = ~is_number & ~missing
    else:
        # Every present cell is a category; `num` keeps its numeric reading for teachers' `<=` tests.
        lookup = ~missing
    if lookup.any():
        table = {v: i + 1 for i, v in enumerate(encoding.categories) if not _is_missing_value(v)}
        sub = pd.Series(values.to_numpy(dtype=object)[lookup])
        if encoding.kind == "boolean":
            mapped = sub.map(lambda v: table.get(bool(v)) if type(v) in (bool, np.bool_) else None)
        else:
            mapped = sub.map(table)
            # bool cells must not match the int categories 1/0 (True == 1 in Python).
            obj = sub.to_numpy(dtype=object)
            bad = np.fromiter((type(v) in (bool, np.bool_) for v in obj), bool, len(obj))
            if bad.any() and not any(type(v) is bool for v in encoding.categories):
                mapped[bad] = np.nan
        mapped = mapped.to_numpy(dtype=float, na_value=np.nan)
        found = ~np.isnan(mapped)
        idx = np.flatnonzero(lookup)
        codes[idx[found]] = mapped[found].astype(np.int32)
    if missing.any():
        codes[missing] = encoding.code_of(MISSING)
    return EncodedColumn(num=num, codes=codes, encoding=encoding)


def check_frame(X: Any, what: str = "X") -> pd.DataFrame:
    """Accept a DataFrame with unique column names; say clearly what is wrong otherwise."""
    if not isinstance(X, pd.DataFrame):
        raise ValueError(f"{what} must be a pandas DataFrame, got {type(X).__name__}")
    dup = X.columns[X.columns.duplicated()].unique().tolist()
    if dup:
        raise ValueError(f"{what} has duplicate column names: {', '.join(map(str, dup))}")
    return X


def encode_frame(X: pd.DataFrame, encodings: Sequence[ColumnEncoding] | None = None) -> EncodedTable:
    """Encode a DataFrame. With `encodings`, use them (predict time) and require their columns."""
    X = check_frame(X)
    if encodings is None:
        encodings = [infer_encoding(str(c), X[c]) for c in X.columns]
    else:
        absent = [e.name for e in encodings if e.name not in X.columns]
        if absent:
            raise ValueError(f"X is missing column(s) the model was trained on: {', '.join(absent)}")
    columns = {e.name: encode_column(X[e.name], e) for e in encodings}
    return EncodedTable(columns=columns, n_rows=len(X), frame=X)


def boolean_column(name: str, mask: np.ndarray) -> EncodedColumn:
    """A derived predicate's truth values as a boolean column."""
    enc = ColumnEncoding(name, "boolean", [False, True])
    codes = np.where(mask, 2, 1).astype(np.int32)
    return EncodedColumn(num=np.full(len(mask), np.nan), codes=codes, encoding=enc)
