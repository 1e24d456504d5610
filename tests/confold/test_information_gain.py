"""FOLD-R++ information gain: the test vectors of FOLD-RM's Tables 1-3 (confold-notes.md)."""

import numpy as np
import pandas as pd
import pytest

from grader.confold.encoding import encode_frame
from grader.confold.literal_search import LiteralSearch, gain_from_counts, information_gain, xlogx_table
from grader.confold.rule_eval import literal_mask
from grader.confold.rules import Literal as L

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


def brute_force_best(table, features, pos, neg, exclude=()):
    """FOLD-RM's best_ig written out literally: every value present, in the reference order;
    a (feature, value) in `exclude` is not offered in either direction."""
    banned = {(l.feature, l.value) for l in exclude}
    from grader.confold.encoding import NUMERIC_CODE
    from grader.confold.rule_eval import literal_mask
    rows = np.concatenate([pos, neg])
    best, best_lit = -np.inf, None
    for name in features:
        col = table.columns[name]
        candidates = []
        if col.encoding.kind in ("numeric", "mixed"):
            for x in np.unique(col.num[rows][col.codes[rows] == NUMERIC_CODE]):
                candidates += [L(name, "<=", float(x)), L(name, ">", float(x))]
        present = np.unique(col.codes[rows][col.codes[rows] != NUMERIC_CODE])
        for code in present:
            value = col.encoding.categories[code - 1]
            if col.encoding.kind == "boolean":
                continue
            candidates += [L(name, "==", value), L(name, "!=", value)]
        if col.encoding.kind == "boolean":
            candidates += [L(name, "==", True), L(name, "!=", True)]
        for lit in candidates:
            if (lit.feature, lit.value) in banned:
                continue
            tp = int(literal_mask(lit, table, pos).sum())
            fp = int(literal_mask(lit, table, neg).sum())
            gain = round(information_gain(tp, len(pos) - tp, len(neg) - fp, fp), 12)
            if gain > best:
                best, best_lit = gain, lit
    return best, best_lit


from hypothesis import given, settings, strategies as st  # noqa: E402


#: (SPARSE_FACTOR, ALL_SLOTS) forcing each way of counting: the default choice, counting by
#: sorting the cells, bincount over every slot, bincount then the present slots only
COUNTING_PATHS = [(0.25, 2048), (1e9, 2048), (0.0, 2048), (0.0, 0)]


def random_table(rng, n):
    num = rng.integers(0, 6, n).astype(float)
    num[rng.random(n) < 0.2] = np.nan
    mixed = np.where(rng.random(n) < 0.4, rng.choice(["u", "v", "?"], n), rng.integers(0, 4, n).astype(str))
    return pd.DataFrame({"num": num, "cat": rng.choice(["a", "b", "c"], n), "mixed": mixed.astype(object),
                         "flag": rng.random(n) < 0.5, "whole": rng.integers(0, 9, n).astype(float)})


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(2, 40), st.sampled_from(COUNTING_PATHS))
def test_vectorised_search_equals_brute_force(seed, n, path):
    rng = np.random.default_rng(seed)
    X = random_table(rng, n)
    table = encode_frame(X)
    search = LiteralSearch(table, list(X.columns))
    search.SPARSE_FACTOR, search.ALL_SLOTS = path
    is_pos = rng.random(n) < 0.5
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    expected_gain, expected_lit = brute_force_best(table, list(X.columns), pos, neg)
    found = search.best(pos, neg)
    if expected_lit is None:
        assert found is None
        return
    gain, lit, _ = found
    assert gain == pytest.approx(expected_gain, abs=1e-9)
    assert lit == expected_lit  # same tie-breaking as the reference order


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 40), st.sampled_from(COUNTING_PATHS))
def test_every_gain_is_bit_for_bit_the_formula_on_counted_rows(seed, n, path):
    # Each candidate's gain equals gain_from_counts on the rows literal_mask says it covers,
    # exactly (not approximately): the mirror images share terms but not their rounding.
    rng = np.random.default_rng(seed)
    X = random_table(rng, n)
    table = encode_frame(X)
    search = LiteralSearch(table, list(X.columns))
    search.SPARSE_FACTOR, search.ALL_SLOTS = path
    rows = np.flatnonzero(rng.random(n) < 0.8)
    is_pos = rng.random(len(rows)) < rng.random()
    pos, neg = rows[is_pos], rows[~is_pos]
    gains = search.all_gains(pos, neg)
    lookup = xlogx_table(n)
    assert len(gains) == 2 * len(search.gains(pos, neg)[0])
    for lit, gain in gains.items():
        tp = int(literal_mask(lit, table, pos).sum())
        fp = int(literal_mask(lit, table, neg).sum())
        if tp + fp == 0 and lit.op in ("<=", "==") and lit.feature != "flag":
            raise AssertionError(f"{lit} covers no row in play but is a candidate")
        expected = gain_from_counts(lookup, np.array([tp]), np.array([len(pos) - tp]),
                                    np.array([len(neg) - fp]), np.array([fp]))[0]
        assert gain == expected or (np.isinf(gain) and np.isinf(expected)), (lit, gain, expected)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 5))
def test_gains_in_chunks_equal_gains_at_once(seed, chunk):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.integers(0, 9, 30).astype(float), "b": rng.choice(list("xyz"), 30)})
    search = LiteralSearch(encode_frame(X), ["a", "b"])
    pos, neg = np.arange(0, 30, 2), np.arange(1, 30, 2)
    whole = search.all_gains(pos, neg), search.best(pos, neg, [0])
    search.GAIN_CHUNK = chunk
    assert (search.all_gains(pos, neg), search.best(pos, neg, [0])) == whole
    fresh = LiteralSearch(encode_frame(X), ["a", "b"])  # buffers grown from narrow chunks
    fresh.GAIN_CHUNK = chunk
    assert (fresh.all_gains(pos, neg), fresh.best(pos, neg, [0])) == whole
    fresh.GAIN_CHUNK = 8192
    assert (fresh.all_gains(pos, neg), fresh.best(pos, neg, [0])) == whole


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(2, 40), st.sampled_from(COUNTING_PATHS))
def test_categories_only_search_equals_brute_force(seed, n, path):
    """A table without numbers takes a shortcut (a slot's counts are what `== c` covers):
    the same best literal and the same gains as the brute force and as cumulated counts."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"cat": rng.choice(["a", "b", "c"], n), "other": rng.choice(["u", "v", "?"], n),
                      "flag": rng.random(n) < 0.5})
    table = encode_frame(X)
    search = LiteralSearch(table, list(X.columns))
    assert search._categories_only
    search.SPARSE_FACTOR, search.ALL_SLOTS = path
    is_pos = rng.random(n) < 0.5
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    expected_gain, expected_lit = brute_force_best(table, list(X.columns), pos, neg)
    found = search.best(pos, neg)
    assert (found is None) if expected_lit is None else found[1] == expected_lit
    fast = search.all_gains(pos, neg)
    search._categories_only = False  # the general computation
    assert search.all_gains(pos, neg) == fast


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(2, 40), st.sampled_from(COUNTING_PATHS), st.sampled_from([0, 16]))
def test_banned_slots_and_ties_as_brute_force(seed, n, path, few_ties):
    """Banned slots (marked among the absent ones when every slot is a candidate, found by
    bisection otherwise) and ties broken in Python (up to FEW_TIES near the best) or with numpy."""
    rng = np.random.default_rng(seed)
    X = random_table(rng, n)
    X["twin"] = X["whole"]  # ties between features
    table = encode_frame(X)
    search = LiteralSearch(table, list(X.columns))
    search.SPARSE_FACTOR, search.ALL_SLOTS = path
    search.FEW_TIES = few_ties
    is_pos = rng.random(n) < 0.5
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    first = search.best(pos, neg)
    exclude = [] if first is None else [first[1]]
    banned = [] if first is None else [first[2]]
    for lit in search.all_gains(pos, neg):  # and a few more, some of them absent among these rows
        slot = search.slot_of(lit)
        if slot is not None and rng.random() < 0.2 and lit.feature != "flag":
            exclude.append(lit)
            banned.append(slot)
    expected_gain, expected_lit = brute_force_best(table, list(X.columns), pos, neg, exclude)
    for given_as in (banned, tuple(banned), np.array(banned, dtype=np.intp)):
        found = search.best(pos, neg, given_as)
        assert (found is None) if expected_lit is None else found[1] == expected_lit


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 40), st.sampled_from(COUNTING_PATHS), st.booleans())
def test_search_in_python_equals_numpy_search(seed, n, path, restricted):
    """A table without numbers on few slots is searched in Python floats: the same literal and
    the same gain, bit for bit, as the numpy search, with banned slots, an excluded feature, a
    boolean's always-offered slot and an evidence mask; and FOLD-RM's best_ig written out."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"cat": rng.choice(["a", "b", "c"], n), "other": rng.choice(["u", "v", "?"], n),
                      "flag": rng.random(n) < 0.3, "twin": None, "gone": rng.choice(["p", "q"], n)})
    X["twin"] = X["cat"]  # ties between features
    table = encode_frame(X)
    search = LiteralSearch(table, list(X.columns), excluded=["gone"])
    search.SPARSE_FACTOR, search.ALL_SLOTS = path
    assert search._categories_only and search.n_slots <= search.PYTHON_SLOTS
    is_pos = rng.random(n) < rng.random()
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    banned = [int(s) for s in np.flatnonzero(rng.random(search.n_slots) < 0.15)]
    allowed = rng.random((search.n_slots, 2)) < 0.7 if restricted else None
    in_python = search.best(pos, neg, banned, allowed)
    by_counts = search.best(pos, neg, banned, allowed, search.count(pos, neg))
    search.PYTHON_SLOTS = 0
    assert in_python == search.best(pos, neg, banned, allowed) == by_counts
    if not restricted:
        exclude = [search.literal(s, False) for s in banned]
        expected_gain, expected_lit = brute_force_best(table, ["cat", "other", "flag", "twin"], pos, neg, exclude)
        assert (in_python is None) if expected_lit is None else in_python[1] == expected_lit
