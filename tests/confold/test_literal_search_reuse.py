"""The learner's shortcuts against the straightforward computation they replace, on random
tables: a literal's rows from the slot matrix (`LiteralSearch.covers`) against
`literal_mask`, counts narrowed by subtraction against counts made afresh, and the body
rows `FoldLearner.learn_rule` reports against evaluating the body."""

import numpy as np
from hypothesis import given, settings, strategies as st

from grader.confold.encoding import encode_frame
from grader.confold.fold import FoldLearner, covered_mask
from grader.confold.literal_search import LiteralSearch
from grader.confold.rule_eval import literal_mask, rule_mask
from grader.confold.rules import Rule
from grader.confold.slot_counts import _PACKED, _distinct_sorted
from tests.confold.test_information_gain import random_table


def _table_and_search(rng: np.random.Generator, n: int):
    """(table, search) of a random table of n rows drawn from `rng`."""
    table = encode_frame(random_table(rng, n))
    return table, LiteralSearch(table, list(table.columns))


def _random_search(seed: int, n: int, sparse_factor: float):
    """(table, search, positives, negatives) of a random table of n rows, about 60% positive."""
    rng = np.random.default_rng(seed)
    table, search = _table_and_search(rng, n)
    search.SPARSE_FACTOR = sparse_factor
    is_pos = rng.random(n) < 0.6
    return table, search, np.flatnonzero(is_pos), np.flatnonzero(~is_pos)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 40))
def test_covers_is_literal_mask(seed, n):
    rng = np.random.default_rng(seed)
    table, search = _table_and_search(rng, n)
    for _ in range(2):  # other rows, and a slot's column and kind as looked up the first time
        rows = np.flatnonzero(rng.random(n) < 0.7)
        for slot in rng.permutation(search.n_slots):
            for second in (False, True):
                lit = search.literal(int(slot), second)
                assert np.array_equal(search.covers(int(slot), second, rows), literal_mask(lit, table, rows)), lit


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(2, 60))
def test_narrowed_counts_are_fresh_counts(seed, n):
    rng = np.random.default_rng(seed)
    table, search = _table_and_search(rng, n)
    search.SPARSE_FACTOR = 0.0  # always per-slot counts
    is_pos = rng.random(n) < 0.5
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    counts = search.count(pos, neg)
    keep_pos, keep_neg = rng.random(len(pos)) < 0.8, rng.random(len(neg)) < 0.8
    narrowed = search.narrow(counts, pos, keep_pos, neg, keep_neg)
    fresh = search.count(pos[keep_pos], neg[keep_neg])
    assert all(np.array_equal(a, b) for a, b in zip(narrowed, fresh))
    assert search.best(pos[keep_pos], neg[keep_neg], counts=narrowed) == search.best(pos[keep_pos], neg[keep_neg])
    only_pos = search.narrow(counts, pos, keep_pos, neg, None)
    assert all(np.array_equal(a, b) for a, b in zip(only_pos, search.count(pos[keep_pos], neg)))
    # the rows that stay given by the caller
    given = search.narrow(counts, pos, keep_pos, neg, keep_neg, (pos[keep_pos], neg[keep_neg]))
    assert all(np.array_equal(a, b) for a, b in zip(given, fresh))
    given = search.narrow(counts, pos, keep_pos, neg, None, (pos[keep_pos], neg))
    assert all(np.array_equal(a, b) for a, b in zip(given, search.count(pos[keep_pos], neg)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(4, 60), st.sampled_from([0.25, 0.0, 1e9]))
def test_learn_rule_reports_the_rows_its_body_covers(seed, n, sparse_factor):
    table, search, pos, neg = _random_search(seed, n, sparse_factor)
    rule, in_pos, in_neg = FoldLearner(table, search).learn_rule(pos, neg)
    body = Rule(head=None, body=rule.body)
    assert np.array_equal(in_pos, np.flatnonzero(rule_mask(body, table, pos)))
    assert np.array_equal(in_neg, np.flatnonzero(rule_mask(body, table, neg)))
    assert np.array_equal(covered_mask(rule, table, pos, in_pos), rule_mask(rule, table, pos))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(2, 60), st.integers(2, 4))
def test_counts_by_class_less_the_leaving_rows_are_fresh_counts(seed, n, n_classes):
    rng = np.random.default_rng(seed)
    table, search = _table_and_search(rng, n)
    search.SPARSE_FACTOR = 0.0
    labels = rng.integers(0, n_classes, n)
    rows = np.flatnonzero(rng.random(n) < 0.9)
    by_class = search._class_cells(rows, labels, n_classes)
    for target in range(n_classes):  # the counts a round with this target starts from
        pos, neg = rows[labels[rows] == target], rows[labels[rows] != target]
        fresh = search.count(pos, neg)
        assert np.array_equal(by_class[target], fresh[0])
        assert np.array_equal(by_class.sum(axis=0) - by_class[target], fresh[1])
    leaving = rng.random(len(rows)) < 0.3
    after = search.uncount_by_class(by_class, rows[leaving], rows[~leaving], labels)
    if after is not None:
        assert np.array_equal(after, search._class_cells(rows[~leaving], labels, n_classes))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(-50, 50).map(float), st.floats(-1e3, 1e3, allow_nan=False),
                          st.sampled_from([0.0, -0.0, 2.0 ** 60, 1e-300])), max_size=40),
       st.booleans())
def test_distinct_sorted_is_np_unique(values, whole):
    values = np.array(values, dtype=float)
    if whole:
        values = np.floor(values)
    thresholds, ranks = _distinct_sorted(values)
    expected, inverse = np.unique(values, return_inverse=True)
    assert np.array_equal(thresholds, expected) and np.array_equal(ranks, inverse.ravel())
    assert thresholds.dtype == expected.dtype and ranks.dtype == inverse.dtype
    spread = np.concatenate([values, [4.0 * len(values)]]) if whole else values  # a wide range, few values
    thresholds, ranks = _distinct_sorted(spread)
    expected, inverse = np.unique(spread, return_inverse=True)
    assert np.array_equal(thresholds, expected) and np.array_equal(ranks, inverse.ravel())


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(4, 80), st.sampled_from([0.25, 0.0, 1e9]),
       st.sampled_from([0.5, 0.2, 1.0]))
def test_learned_coverage_is_the_rules_coverage(seed, n, sparse_factor, ratio):
    """The rows a learned rule covers with its exceptions, known from learning them, are
    those `rule_mask` evaluates (exceptions to exceptions included)."""
    table, search, pos, neg = _random_search(seed, n, sparse_factor)
    found = FoldLearner(table, search, ratio=ratio).learn_covering(pos, neg)
    assert np.array_equal(found.cov_pos, np.flatnonzero(rule_mask(found.rule, table, pos)))
    assert np.array_equal(found.cov_neg, np.flatnonzero(rule_mask(found.rule, table, neg)))
    rules = FoldLearner(table, search, ratio=ratio)._fold(pos, neg, (), None, None)
    hit_pos = np.zeros(len(pos), dtype=bool)
    hit_neg = np.zeros(len(neg), dtype=bool)
    for rule in rules[0]:
        hit_pos |= rule_mask(rule, table, pos)
        hit_neg |= rule_mask(rule, table, neg)
    assert np.array_equal(rules[1], hit_pos) and np.array_equal(rules[2], hit_neg)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(2, 60))
def test_narrowed_and_swapped_sorted_cells_are_fresh_sorted_cells(seed, n):
    """Sorted cells kept for the rows that stay, and with positives and negatives swapped,
    are the cells sorted afresh (bit for bit), and give the same best literal."""
    rng = np.random.default_rng(seed)
    table, search = _table_and_search(rng, n)
    search.SPARSE_FACTOR = 1e9  # always sorted cells
    is_pos = rng.random(n) < 0.5
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    cells = search.count(pos, neg)
    keep_pos, keep_neg = rng.random(len(pos)) < 0.7, rng.random(len(neg)) < 0.7
    narrowed = search.narrow(cells, pos, keep_pos, neg, keep_neg)
    assert np.array_equal(narrowed.keys, search.count(pos[keep_pos], neg[keep_neg]).keys)
    assert search.best(pos[keep_pos], neg[keep_neg], counts=narrowed) == search.best(pos[keep_pos], neg[keep_neg])
    only_pos = search.narrow(cells, pos, keep_pos, neg, None)
    assert np.array_equal(only_pos.keys, search.count(pos[keep_pos], neg).keys)
    given = search.narrow(cells, pos, keep_pos, neg, keep_neg, (pos[keep_pos], neg[keep_neg]))
    assert np.array_equal(given.keys, narrowed.keys)
    swapped = search.swapped(narrowed)
    fresh = search.count(neg[keep_neg], pos[keep_pos])
    assert np.array_equal(swapped.keys >> 2, fresh.keys >> 2)  # same cells, in the same order
    assert np.array_equal(_PACKED[swapped.keys & 3], _PACKED[fresh.keys & 3])  # what each cell counts
    assert search.best(neg[keep_neg], pos[keep_pos], counts=swapped) == search.best(neg[keep_neg], pos[keep_pos])
    per_slot = search._from_slot_counts((np.bincount(search.slots[neg[keep_neg]].ravel(), minlength=search.n_slots),
                                         np.bincount(search.slots[pos[keep_pos]].ravel(), minlength=search.n_slots)))
    by_cells = search.candidates(neg[keep_neg], pos[keep_pos], swapped)
    present = ~per_slot[3] if per_slot[3] is not None else np.ones(search.n_slots, dtype=bool)
    assert np.array_equal(by_cells[0], per_slot[0][present])
    assert np.array_equal(by_cells[1], per_slot[1][:, present])


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(1, 60))
def test_cells_in_the_reused_buffer_are_the_rows_slots(seed, n):
    rng = np.random.default_rng(seed)
    table, search = _table_and_search(rng, n)
    for size in (n // 3, n, n // 2):  # the buffer grows, then serves a smaller set
        rows = np.sort(rng.choice(n, size, replace=False))
        assert np.array_equal(search._cells(rows), search.slots[rows].ravel())
    labels = rng.integers(0, 3, n)
    by_class = search._class_cells(rows, labels, 3)
    for c in range(3):
        assert np.array_equal(by_class[c], np.bincount(search.slots[rows[labels[rows] == c]].ravel(),
                                                       minlength=search.n_slots))
