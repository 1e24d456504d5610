"""Turning a DataFrame into the numpy arrays the learner and the rule evaluator work on.

Every column becomes two arrays of the table's length:

* `num`: the numeric reading of each cell (float64, NaN when the cell is not a number);
* `codes`: int32, `NUMERIC_CODE` (0) for a cell that is a number of a numeric or mixed
  column, `1 + i` for the i-th category of the column's vocabulary, and `unseen_code`
  (`len(categories) + 1`) for a category that was not seen when the encoding was made;
  a value a teacher's rule names that the training data never had (`named`) has a code of
  its own after `unseen_code`, so that a literal naming it holds on that value only, not
  on every other value the training data lacked.

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

import re
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
    #: values rules name that the training data did not have: not categories the learner
    #: searches, but each told apart from the others and from the values nobody named
    named: list = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r} for {self.name!r}; expected one of {KINDS}")
        self._index = {_key(v): i + 1 for i, v in enumerate(self.categories)}
        for j, v in enumerate(self.named):
            self._index.setdefault(_key(v), self.unseen_code + 1 + j)

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

    def naming(self, values: Sequence) -> "ColumnEncoding":
        """This encoding with `values` (named by rules) told apart when it lacks them; itself
        when it has them all (encodings are shared, never changed)."""
        new: dict[tuple, Any] = {}
        for value in values:
            if value is None or (isinstance(value, float) and np.isnan(value)):
                value = MISSING
            if self.code_of(value) == self.unseen_code:
                new.setdefault(_key(value), value)
        if not new:
            return self
        return ColumnEncoding(self.name, self.kind, list(self.categories), list(self.named) + list(new.values()))

    def to_dict(self) -> dict:
        out = {"name": self.name, "kind": self.kind, "categories": list(self.categories)}
        if self.named:  # written only when there are: files without them are as before
            out["named"] = list(self.named)
        return out


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


def _factorize(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """(code of each cell's distinct value, -1 for NaN/None; the distinct values as objects).

    All per-value work (parsing numbers, spotting "?", looking up categories) is then done
    once per distinct value instead of once per row.
    """
    if isinstance(values.dtype, pd.CategoricalDtype):  # the codes as they are, no Series made
        codes = np.asarray(values.array.codes, dtype=np.intp)
        uniques = values.dtype.categories.to_numpy(dtype=object)
    else:
        try:
            codes, uniques = pd.factorize(values, use_na_sentinel=True)
        except TypeError as err:  # lists, dicts, ... in a cell
            raise ValueError(f"column {values.name!r}: cells must be text, numbers or booleans "
                             f"({err})") from None
        uniques = np.asarray(uniques, dtype=object)
    uniques = np.array([u.item() if isinstance(u, np.generic) else u for u in uniques], dtype=object)
    return np.asarray(codes, dtype=np.intp), uniques


def _is_bool(value: Any) -> bool:
    return type(value) in (bool, np.bool_)


def _unique_missing(uniques: np.ndarray) -> np.ndarray:
    return np.array([isinstance(u, str) and u.strip() in ("", MISSING) for u in uniques], dtype=bool)


#: Text `pd.to_numeric` may read as a number: it needs a digit, or is an infinity ("inf",
#: "-Infinity"); `\d` also matches non-ASCII digits, which it does not read (a superset).
_MAY_BE_NUMBER = re.compile(r"\d|inf", re.IGNORECASE)
#: Up to this many distinct values, words are told from numbers in Python (one regex each).
_FEW_WORDS = 256


def _unique_numbers(uniques: np.ndarray) -> np.ndarray:
    """Numeric reading of each distinct value (NaN for text that is not a number, and for bools)."""
    if len(uniques) == 0:
        return np.empty(0)
    if len(uniques) <= _FEW_WORDS and all(type(u) is str and not _MAY_BE_NUMBER.search(u) for u in uniques):
        return np.full(len(uniques), np.nan)  # words: pd.to_numeric's ~0.3 ms per call saved
    parsed = pd.to_numeric(pd.Series(uniques, dtype=object), errors="coerce")
    out = np.array(parsed.to_numpy(dtype=float, na_value=np.nan), dtype=float, copy=True)
    out[[_is_bool(u) for u in uniques]] = np.nan
    return out


def missing_mask(values: pd.Series) -> np.ndarray:
    """NaN/None, and in text columns the empty string and "?", are missing."""
    if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
        return values.isna().to_numpy().copy()
    codes, uniques = _factorize(values)
    miss = np.r_[_unique_missing(uniques), True]  # index -1 (NaN) -> True
    return miss[codes]


def infer_encoding(name: str, values: pd.Series) -> ColumnEncoding:
    """Decide a column's kind and its category vocabulary from training data."""
    dtype = values.dtype
    if pd.api.types.is_bool_dtype(dtype):  # includes pandas' nullable "boolean"
        return ColumnEncoding(name, "boolean", [False, True] + ([MISSING] if values.isna().any() else []))
    if pd.api.types.is_numeric_dtype(dtype):
        whole = isinstance(dtype, np.dtype) and dtype.kind in "iu"  # never missing
        missing = not whole and bool(np.isnan(_float_values(values)).any())
        return ColumnEncoding(name, "numeric", [MISSING] if missing else [])
    codes, uniques = _factorize(values)
    counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
    return encoding_from_counts(name, dtype, uniques, counts, bool((codes < 0).any()))


def encoding_from_counts(name: str, dtype: Any, uniques: np.ndarray, counts: np.ndarray,
                         has_nan: bool, missing_u: np.ndarray | None = None,
                         numbers_u: np.ndarray | None = None) -> ColumnEncoding:
    """`infer_encoding` of a text, object or categorical column from its distinct values,
    how often each occurs (0: not in the rows at hand) and whether a NaN/None occurs.
    `missing_u`/`numbers_u`: `_unique_missing`/`_unique_numbers` of `uniques` if known."""
    missing_u = _unique_missing(uniques) if missing_u is None else missing_u
    has_missing = bool(has_nan or counts[missing_u].sum())
    tail = [MISSING] if has_missing else []
    present = (counts > 0) & ~missing_u
    present_values = list(uniques[present])
    if isinstance(dtype, pd.CategoricalDtype):
        return ColumnEncoding(name, "categorical", sorted(present_values, key=category_sort_key) + tail)
    if present_values and all(_is_bool(v) for v in present_values):
        return ColumnEncoding(name, "boolean", [False, True] + tail)
    numeric_u = ~np.isnan(_unique_numbers(uniques) if numbers_u is None else numbers_u) & present
    n_present = counts[present].sum()
    n_numeric = counts[numeric_u].sum()
    if n_present and n_numeric == n_present:
        return ColumnEncoding(name, "numeric", tail)
    if n_present and n_numeric >= 0.5 * n_present:
        cats = list(uniques[present & ~numeric_u])
        return ColumnEncoding(name, "mixed", sorted(cats, key=category_sort_key) + tail)
    return ColumnEncoding(name, "categorical", sorted(present_values, key=category_sort_key) + tail)


def encode_column(values: pd.Series, encoding: ColumnEncoding) -> EncodedColumn:
    """Encode a column with a (fitted or just inferred) encoding; vectorised over rows."""
    missing_code = encoding.code_of(MISSING)
    dtype = values.dtype
    if (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
            and encoding.kind in ("numeric", "mixed")):
        num = _float_values(values, copy=True)
        codes = np.where(np.isnan(num), np.int32(missing_code), np.int32(NUMERIC_CODE))
        return EncodedColumn(num=num, codes=codes, encoding=encoding)
    cell_codes, uniques = _factorize(values)
    code_u, num_u = unique_codes(uniques, encoding)
    return EncodedColumn(num=num_u[cell_codes], codes=code_u[cell_codes].astype(np.int32), encoding=encoding)


def _float_values(values: pd.Series, copy: bool = False) -> np.ndarray:
    """The cells of a numeric column as floats, NaN where missing; a view of the column's
    data unless `copy` (then copied once, whatever the dtype)."""
    dtype = values.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iuf":  # numpy's own: no NA to replace
        return values.to_numpy(dtype=float, copy=copy)
    floats = values.to_numpy(dtype=float, na_value=np.nan)
    return np.array(floats, dtype=float) if copy else floats


def fit_column(name: str, values: pd.Series) -> tuple[ColumnEncoding, EncodedColumn]:
    """`infer_encoding` then `encode_column` with that encoding, reading a text or
    categorical column's distinct values once for both."""
    dtype = values.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
        encoding = infer_encoding(name, values)
        return encoding, encode_column(values, encoding)
    codes, uniques = _factorize(values)
    counts = np.bincount(codes + 1, minlength=len(uniques) + 1)  # NaN/None (-1) counted first
    has_nan, counts = bool(counts[0]), counts[1:]
    missing_u, numbers_u = _unique_missing(uniques), _unique_numbers(uniques)
    encoding = encoding_from_counts(name, dtype, uniques, counts, has_nan, missing_u, numbers_u)
    code_u, num_u = unique_codes(uniques, encoding, missing_u, numbers_u)
    return encoding, EncodedColumn(num=num_u[codes], codes=code_u[codes], encoding=encoding)  # int32 already


def unique_codes(uniques: np.ndarray, encoding: ColumnEncoding, missing_u: np.ndarray | None = None,
                 numbers_u: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(code, numeric reading) of each distinct value of a column under `encoding`, with
    one more entry at the end (index -1) for NaN/None cells."""
    missing_u = _unique_missing(uniques) if missing_u is None else missing_u
    n = len(uniques)
    num_u = np.empty(n + 1)  # index -1: NaN/None
    num_u[:n] = _unique_numbers(uniques) if numbers_u is None else numbers_u
    num_u[:n][missing_u] = np.nan
    num_u[n] = np.nan
    missing_code = encoding.code_of(MISSING)
    code_u = np.empty(n + 1, dtype=np.int32)
    code_u[n] = missing_code
    for i, u in enumerate(uniques):
        if missing_u[i]:
            code_u[i] = missing_code
        elif encoding.kind in ("numeric", "mixed") and not np.isnan(num_u[i]):
            code_u[i] = NUMERIC_CODE
        elif encoding.kind == "boolean":
            code_u[i] = encoding.code_of(bool(u)) if _is_bool(u) else encoding.unseen_code
        elif _is_bool(u) and not any(type(c) is bool for c in encoding.categories + encoding.named):
            code_u[i] = encoding.unseen_code  # True is not the category 1
        else:
            code_u[i] = encoding.code_of(u)
    if encoding.kind == "boolean":
        num_u[:] = np.nan
    return code_u, num_u


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
