"""SubsetEncoder and ConFold.fit_subset: the resampled fits of the grading model read the
table's columns once; the result must be exactly that of encoding and fitting the subset."""

import warnings

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

from grader import ConFold
from grader.confold.encoding import encode_frame, infer_encoding
from grader.confold.subset_encoding import SubsetEncoder


def random_frame(rng: np.random.Generator, n: int) -> pd.DataFrame:
    num = rng.integers(0, 5, n).astype(float)
    num[rng.random(n) < 0.2] = np.nan
    text = rng.choice(["present", "absent", "negated", "", "?"], n).astype(object)
    text[rng.random(n) < 0.1] = None
    mixed = np.where(rng.random(n) < 0.3, rng.choice(["x", "y", "?"], n),
                     rng.integers(0, 4, n).astype(str)).astype(object)
    odd = np.array([True, 1, 2.5, "1", None], dtype=object)[rng.integers(0, 5, n)]  # read per subset
    return pd.DataFrame({
        "num": num, "ints": rng.integers(0, 3, n), "text": text, "mixed": mixed,
        "flag": rng.random(n) < 0.5,
        "maybe": pd.array(np.where(rng.random(n) < 0.2, None, rng.random(n) < 0.5), dtype="boolean"),
        "cat": pd.Categorical(rng.choice(["b", "a", "c"], n), categories=["c", "b", "a", "d"]),
        "odd": odd, "words": pd.array(rng.choice(["one", "two", "3"], n), dtype="string"),
    })


def assert_same_tables(got, expected) -> None:
    assert list(got.columns) == list(expected.columns)
    for name, col in expected.columns.items():
        mine = got.columns[name]
        assert mine.encoding.to_dict() == col.encoding.to_dict(), name
        np.testing.assert_array_equal(mine.codes, col.codes, err_msg=name)
        np.testing.assert_array_equal(mine.num, col.num, err_msg=name)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 40))
def test_a_subset_is_encoded_as_if_it_were_the_table(seed, n):
    rng = np.random.default_rng(seed)
    X = random_frame(rng, n)
    encoder = SubsetEncoder(X)
    for _ in range(8):  # several subsets: the encoder keeps what it inferred for earlier ones
        rows = rng.integers(0, n, rng.integers(1, 2 * n + 1))
        subset = X.iloc[rows].reset_index(drop=True)
        expected_encodings = [infer_encoding(c, subset[c]) for c in subset.columns]
        encodings, table = encoder.encode(rows)
        assert [e.to_dict() for e in encodings] == [e.to_dict() for e in expected_encodings]
        assert_same_tables(table, encode_frame(subset, expected_encodings))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(6, 60))
def test_fit_subset_learns_the_rules_of_fit_on_the_subset(seed, n):
    rng = np.random.default_rng(seed)
    X = random_frame(rng, n)
    y = np.where((X["num"].fillna(0) > 2) ^ (X["text"] == "present"), "1", "0")
    y[rng.random(n) < 0.1] = "0.5"
    encoder = SubsetEncoder(X)
    rows = rng.integers(0, n, n)
    if len(set(y[rows])) < 2:
        return
    params = dict(improvement_threshold=0.1, confidence_threshold=0.3)
    with warnings.catch_warnings(record=True) as direct_warnings:
        warnings.simplefilter("always")
        direct = ConFold(**params).fit(X.iloc[rows].reset_index(drop=True), pd.Series(y[rows], name="mark"))
    with warnings.catch_warnings(record=True) as shared_warnings:
        warnings.simplefilter("always")
        shared = ConFold(**params).fit_subset(encoder, rows, pd.Series(y[rows], name="mark"))
    # a subset can leave a column with only missing values: both fits must say so alike
    assert [str(w.message) for w in shared_warnings] == [str(w.message) for w in direct_warnings]
    assert shared.to_asp() == direct.to_asp()
    assert [e.to_dict() for e in shared.encodings_] == [e.to_dict() for e in direct.encodings_]
