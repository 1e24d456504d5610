"""Properties on random mixed tables (hypothesis)."""


import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings, strategies as st

from grader import ConFold
from grader.confold.rule_eval import apply_rules
from grader.confold.rules import Literal as L, PredicateDefinition

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw):
    n = draw(st.integers(min_value=4, max_value=60))
    seed = draw(st.integers(min_value=0, max_value=2 ** 31))
    rng = np.random.default_rng(seed)
    numeric = rng.integers(0, 8, n).astype(float)
    numeric[rng.random(n) < 0.15] = np.nan
    mixed = np.where(rng.random(n) < 0.3, rng.choice(["none", "?", "lots"], n),
                     rng.integers(0, 5, n).astype(str)).astype(object)
    X = pd.DataFrame({
        "concept:gap": rng.choice(["present", "absent", "negated"], n),
        "value:g": numeric,
        "mixed": mixed,
        "flag": rng.random(n) < 0.5,
    })
    labels = draw(st.sampled_from([["0", "1", "2"], [0, 1], [0.5, 1.0, "full"]]))
    # labels partly depend on the features, partly noise
    signal = (X["concept:gap"] == "present").to_numpy() + (numeric > 4)
    noise = rng.integers(0, len(labels), n)
    which = np.where(rng.random(n) < 0.7, np.minimum(signal, len(labels) - 1), noise)
    y = pd.Series([labels[i] for i in which], name="mark", dtype=object)
    if y.nunique() < 2:
        y.iloc[0], y.iloc[1] = labels[0], labels[1]
    return X, y


BACKGROUND = [PredicateDefinition("big", (L("value:g", ">", 4),))]


@SETTINGS
@given(tables(), st.sampled_from([None, 0.05, 0.2]))
def test_deterministic_and_equal_to_apply_rules(data, threshold):
    X, y = data
    a = ConFold(improvement_threshold=threshold, background=BACKGROUND).fit(X, y)
    b = ConFold(improvement_threshold=threshold, background=BACKGROUND).fit(X, y)
    assert a.rules_ == b.rules_
    la, ca = a.predict_with_confidence(X)
    lb, cb = b.predict_with_confidence(X)
    assert list(la) == list(lb) and np.array_equal(ca, cb, equal_nan=True)
    ref, ref_conf, _ = apply_rules(a.rules_, X, a.predicates_)
    assert list(ref) == list(la) and np.array_equal(ref_conf, ca, equal_nan=True)


@SETTINGS
@given(tables())
def test_save_load_round_trip(tmp_path_factory, data):
    X, y = data
    model = ConFold(background=BACKGROUND, improvement_threshold=0.1).fit(X, y)
    path = tmp_path_factory.mktemp("m") / "model.json"
    model.save(path)
    loaded = ConFold.load(path)
    a, ca = model.predict_with_confidence(X)
    b, cb = loaded.predict_with_confidence(X)
    assert [(type(v), v) for v in a] == [(type(v), v) for v in b]
    assert np.array_equal(ca, cb, equal_nan=True)
    assert loaded.to_asp() == model.to_asp()


def _nodes(rule):
    return sum(1 + _nodes(e) for e in rule.exceptions)


@SETTINGS
@given(tables(), st.floats(min_value=0.0, max_value=0.5), st.floats(min_value=0.3, max_value=0.9))
def test_pruning_never_adds(data, improvement, confidence):
    X, y = data
    plain = ConFold().fit(X, y)
    pruned = ConFold(improvement_threshold=improvement).fit(X, y)
    if plain.rules_:
        # the first rule is learned from the same data; pruning only removes exceptions
        assert pruned.rules_[0].body == plain.rules_[0].body
        assert _nodes(pruned.rules_[0]) <= _nodes(plain.rules_[0])
    # the confidence threshold only removes whole rules, keeping the order of the others
    for base in (plain, pruned):
        kept = ConFold(improvement_threshold=base.improvement_threshold,
                       confidence_threshold=confidence).fit(X, y).rules_
        assert kept == [r for r in base.rules_ if r.confidence >= confidence]
