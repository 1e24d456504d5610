"""FOLD-R++ information gain: the test vectors of FOLD-RM's Tables 1-3 (confold-notes.md)."""

import numpy as np
import pandas as pd
import pytest

from grader.encoding import encode_frame
from grader.literal_search import LiteralSearch, gain_from_counts, information_gain, xlogx_table
from grader.rules import Literal as L

# E+ = {1,2,2,4,5,x,x,y}, E- = {1,3,4,y,y,y,z}: one mixed column.
VALUES = [1, 2, 2, 4, 5, "x", "x", "y", 1, 3, 4, "y", "y", "y", "z"]
POS, NEG = np.arange(8), np.arange(8, 15)

EXPECTED = {
    L("f", "<=", 1): -np.inf, L("f", "<=", 2): -0.655, L("f", "<=", 3): -0.686,
    L("f", "<=", 4): -0.688, L("f", "<=", 5): -0.672,
    L("f", ">", 1): -0.667, L("f", ">", 2): -np.inf, L("f", ">", 3): -0.682,
    L("f", ">", 4): -0.647, L("f", ">", 5): -np.inf,
    L("f", "==", "x"): -0.598, L("f", "!=", "y"): -0.631, L("f", "!=", "z"): -0.637,
    L("f", "!=", "x"): -np.inf, L("f", "==", "y"): -np.inf, L("f", "==", "z"): -np.inf,
}


@pytest.fixture
def search():
    table = encode_frame(pd.DataFrame({"f": pd.Series(VALUES, dtype=object)}))
    assert table.columns["f"].encoding.kind == "mixed"
    return LiteralSearch(table, ["f"])


def test_scalar_formula():
    assert information_gain(1, 7, 7, 0) == pytest.approx(-0.647, abs=5e-4)
    assert information_gain(1, 7, 0, 7) == -np.inf  # wrong more often than right
    assert information_gain(3, 0, 4, 0) == 0.0      # perfect split


def test_every_candidate_of_tables_1_to_3(search):
    gains = search.all_gains(POS, NEG)
    assert set(gains) == set(EXPECTED)
    for lit, expected in EXPECTED.items():
        if expected == -np.inf:
            assert gains[lit] == -np.inf, lit
        else:
            assert gains[lit] == pytest.approx(expected, abs=5e-4), lit


def test_best_literal_is_equal_x(search):
    gain, lit, _ = search.best(POS, NEG)
    assert lit == L("f", "==", "x")
    assert gain == pytest.approx(-0.598, abs=5e-4)


def test_used_literal_is_not_offered_again(search):
    slot = search.slot_of(L("f", "==", "x"))
    gain, lit, _ = search.best(POS, NEG, [slot])
    assert lit == L("f", "!=", "y") and gain == pytest.approx(-0.631, abs=5e-4)


def test_lookup_table_agrees_with_formula():
    rng = np.random.default_rng(1)
    tp, fn, tn, fp = rng.integers(0, 50, size=(4, 200))
    keep = tp + fn + tn + fp > 0
    tp, fn, tn, fp = tp[keep], fn[keep], tn[keep], fp[keep]
    fast = gain_from_counts(xlogx_table(200), tp, fn, tn, fp)
    slow = information_gain(tp, fn, tn, fp)
    assert np.array_equal(np.isinf(fast), np.isinf(slow))
    assert np.allclose(fast[~np.isinf(fast)], slow[~np.isinf(slow)], atol=1e-12)


def test_ties_go_to_the_earlier_feature_and_sparse_equals_dense():
    # Two identical columns: the first one wins; both counting paths give the same gains.
    X = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "b": [1.0, 2, 3, 4, 5, 6], "c": list("ppqqpq")})
    search = LiteralSearch(encode_frame(X), ["a", "b", "c"])
    pos, neg = np.array([0, 1, 2]), np.array([3, 4, 5])
    assert search.best(pos, neg)[1] == L("a", "<=", 3)
    dense = search.all_gains(pos, neg)
    search.SPARSE_FACTOR = 1e9
    assert search.all_gains(pos, neg) == dense
