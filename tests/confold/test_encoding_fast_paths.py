"""Fast paths of the column encoding against the plain computation they replace."""

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

from grader.confold.encoding import _unique_numbers


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
