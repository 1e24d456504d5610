"""Fast paths of the column encoding against the plain computation they replace."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from grader.confold.encoding import _float_values, _unique_numbers, encode_column, fit_column, infer_encoding
from tests.confold.test_subset_encoding import random_frame


def numbers_by_pandas(uniques: np.ndarray) -> np.ndarray:
    """`_unique_numbers` without its fast path for words: always `pd.to_numeric`."""
    parsed = pd.to_numeric(pd.Series(uniques, dtype=object), errors="coerce")
    out = np.array(parsed.to_numpy(dtype=float, na_value=np.nan), dtype=float, copy=True)
    out[[type(u) in (bool, np.bool_) for u in uniques]] = np.nan
    return out


TRICKY = ["inf", " INF", "Infinity", "-infinity", "+inf", "iNf", "-iNfInItY", "infinit", "nan", "NaN",
          "+nan", "1e5", "E5", ".e1", "\u0663", "\u00bd", "\uff11", "\u00b2", "", "?", "-", ".", "e",
          "abc", " 3 ", "0x10", "1_000", "None", "null", "NA", "true", "usual", "great_pret", "more"]


def test_words_read_as_pandas_reads_them():
    for text in TRICKY:
        uniques = np.array([text, "usual"], dtype=object)
        np.testing.assert_array_equal(_unique_numbers(uniques), numbers_by_pandas(uniques), err_msg=text)
    words = np.array(["usual", "pretentious", "great_pret", "?", ""], dtype=object)
    assert np.isnan(_unique_numbers(words)).all()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=8), st.text("infINF+-.e0123 ", max_size=9),
                          st.integers(-5, 5), st.booleans(), st.floats(allow_nan=True)),
                min_size=1, max_size=12))
def test_unique_numbers_as_pandas(values):
    uniques = np.array(values + [None], dtype=object)[:-1]  # a 1-d object array, whatever the cells
    np.testing.assert_array_equal(_unique_numbers(uniques), numbers_by_pandas(uniques))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 40))
def test_fit_column_is_infer_then_encode(seed, n):
    """`fit_column` reads a column's distinct values once for inferring and encoding it."""
    frame = random_frame(np.random.default_rng(seed), n)
    frame["ints32"] = np.arange(n, dtype=np.int32)
    frame["floats"] = np.where(np.arange(n) % 3 == 0, np.nan, np.arange(n) / 2)
    frame["nullable"] = pd.array([None if i % 4 == 0 else i for i in range(n)], dtype="Int64")
    frame["nullable_float"] = pd.array([None if i % 5 == 0 else i / 3 for i in range(n)], dtype="Float64")
    for name in frame.columns:
        encoding, column = fit_column(name, frame[name])
        expected = infer_encoding(name, frame[name])
        assert encoding.to_dict() == expected.to_dict(), name
        plain = encode_column(frame[name], expected)
        np.testing.assert_array_equal(column.codes, plain.codes, err_msg=name)
        np.testing.assert_array_equal(column.num, plain.num, err_msg=name)
        assert column.codes.dtype == plain.codes.dtype and column.num.dtype == plain.num.dtype


def float_values_by_pandas(values: pd.Series) -> np.ndarray:
    """`_float_values` without its shortcut for numpy dtypes."""
    return values.to_numpy(dtype=float, na_value=np.nan)


@pytest.mark.parametrize("values", [
    pd.Series([1, 2, 3]), pd.Series([1.5, np.nan, -0.0]), pd.Series(np.array([7, 8], dtype=np.uint8)),
    pd.Series(np.array([1.5, 2.5], dtype=np.float32)), pd.Series([1, None, 3], dtype="Int64"),
    pd.Series([0.5, None], dtype="Float64"), pd.Series([], dtype=float)])
def test_float_values_as_pandas(values):
    got, expected = _float_values(values), float_values_by_pandas(values)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("values", [
    pd.Series([1, 2, 3]), pd.Series([1.5, np.nan, -0.0]), pd.Series(np.array([7, 8], dtype=np.uint8)),
    pd.Series([1, None, 3], dtype="Int64"), pd.Series([0.5, None], dtype="Float64"), pd.Series([], dtype=float)])
def test_numeric_column_as_plain(values):
    """A numeric column's encoding and cells: as pandas' isna and a copied float reading give them."""
    encoding = infer_encoding("x", values)
    assert encoding.categories == (["?"] if values.isna().any() else [])
    column = encode_column(values, encoding)
    num = float_values_by_pandas(values)
    np.testing.assert_array_equal(column.num, num)
    assert column.num.dtype == np.float64 and not np.shares_memory(column.num, values.to_numpy())
    expected = np.where(np.isnan(num), encoding.code_of("?"), 0).astype(np.int32)
    np.testing.assert_array_equal(column.codes, expected)
    assert column.codes.dtype == np.int32
    copied = _float_values(values, copy=True)
    assert not np.shares_memory(copied, values.to_numpy())
