"""BoostedRules (grader.boosting) on small tables where the answer is known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from grader.boosting import BoostedRules
from grader.boosting.feature_inclusion import MarginMonitor, feature_ranking, mutual_information
from grader.confold.encoding import encode_frame, infer_encoding
from grader.confold.literal_search import LiteralSearch
from grader.confold.rules import Literal, PredicateDefinition, Rule


def or_of_two_conjunctions(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """y = (f0 == a and f1 == b) or (f2 == c and x > 0.5), among noise columns."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{i}": rng.choice(["a", "b", "c"], n) for i in range(6)})
    X["x"] = rng.uniform(0, 1, n)
    y = np.where(((X.f0 == "a") & (X.f1 == "b")) | ((X.f2 == "c") & (X.x > 0.5)), "yes", "no")
    return X, y


def test_boosting_finds_both_conjunctions_of_an_or():
    X, y = or_of_two_conjunctions(500, 0)
    model = BoostedRules(n_rounds=30).fit(X, y)
    yes = [set(r.body) for r in model.rules_ if r.head == "yes"]
    assert {Literal("f0", "==", "a"), Literal("f1", "==", "b")} in yes
    second = [b for b in yes if Literal("f2", "==", "c") in b and any(l.feature == "x" for l in b)]
    assert second, yes
    thresholds = [l.value for b in second for l in b if l.feature == "x"]
    assert all(l.op == ">" for b in second for l in b if l.feature == "x")
    assert min(abs(t - 0.5) for t in thresholds) < 0.05
    X_new, y_new = or_of_two_conjunctions(500, 1)
    assert (model.predict(X_new) == y_new).mean() > 0.97


def test_every_round_lowers_the_exponential_loss_and_the_hardest_margin_grows():
    X, y = or_of_two_conjunctions(300, 2)
    model = BoostedRules(n_rounds=25).fit(X, y)
    for h in model.history_:
        losses = np.asarray(h["losses"])
        assert len(losses) == 25
        assert np.all(np.diff(losses) <= 1e-12)  # confidence-rated rounds never raise it
        assert losses[-1] < 0.5 * losses[0]
        assert h["min_margins"][-1] > h["min_margins"][0]
        assert h["min_margins"][-1] > 0  # every training example ends on the right side


def test_a_feature_is_added_when_the_margins_stall_and_not_while_they_grow_steadily():
    steady = MarginMonitor(window=5)
    assert not any(steady.update(0.1 * t) for t in range(1, 40))
    stalling = MarginMonitor(window=5)
    means = [1 - np.exp(-t / 3) for t in range(1, 12)] + [1 - np.exp(-11 / 3)] * 10
    decisions = [stalling.update(m) for m in means]
    assert not any(decisions[:3])
    assert any(decisions)


def test_features_come_in_gradually_starting_from_the_most_informative():
    X, y = or_of_two_conjunctions(400, 3)
    short = BoostedRules(n_rounds=2, initial_features=2).fit(X, y)
    for h in short.history_:
        assert len(h["included"]) == 2 and h["included_at"] == [0, 0]  # nothing added in two rounds
    model = BoostedRules(n_rounds=40, initial_features=2).fit(X, y)
    for h in model.history_:
        assert h["included_at"][:2] == [0, 0]
        assert len(h["included"]) > 2 and all(t > 2 for t in h["included_at"][2:])
        assert h["included_at"] == sorted(h["included_at"])
    used = {l.feature for r in model.rules_ for l in r.body}
    included = {f for h in model.history_ for f in h["included"]}
    assert used <= included
    everything = BoostedRules(n_rounds=40, include_features=False).fit(X, y)
    assert everything.history_[0]["included"] == []


def test_mutual_information_ranks_the_feature_that_decides_the_class_first():
    rng = np.random.default_rng(4)
    X = pd.DataFrame({"noise": rng.choice(["a", "b"], 200), "x": rng.normal(size=200),
                      "key": rng.choice(["p", "q", "r"], 200)})
    is_pos = (X.key == "q").to_numpy()
    encodings = [infer_encoding(c, X[c]) for c in X.columns]
    search = LiteralSearch(encode_frame(X, encodings), list(X.columns))
    assert [search.features[i].name for i in feature_ranking(search, is_pos)][0] == "key"
    mi = mutual_information(search, is_pos)
    entropy = -sum(p * np.log(p) for p in (is_pos.mean(), 1 - is_pos.mean()))
    assert np.isclose(mi[2], entropy)  # the key tells the class exactly: I(C; F) = H(C)
    assert mi[0] < 0.05 and mi[1] < 0.1
    is_pos = (X.x > 0.3).to_numpy()
    assert [search.features[i].name for i in feature_ranking(search, is_pos)][0] == "x"


def test_probabilities_sum_to_one_and_the_label_is_the_largest_score():
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.choice(["u", "v", "w"], 300), "b": rng.normal(size=300)})
    y = np.where(X.a == "u", "one", np.where(X.b > 0, "two", "three"))
    model = BoostedRules(n_rounds=20, require_rule=False).fit(X, y)
    proba = model.predict_proba(X)
    assert proba.shape == (300, 3)
    assert np.allclose(proba.sum(axis=1), 1) and (proba >= 0).all() and (proba <= 1).all()
    scores = model.decision_function(X)
    labels, confidence, index = model.predict_rules(X)
    assert list(labels) == [model.classes_[k] for k in scores.argmax(axis=1)]
    assert np.allclose(confidence, proba.max(axis=1))
    fired = model.fired(X)
    for i in np.flatnonzero(index >= 0)[:50]:  # the rule named fired and votes for the label
        assert fired[i, index[i]] and model.rules_[index[i]].head == labels[i]
    assert (labels == y).mean() > 0.95


def test_a_label_no_fired_rule_speaks_for_goes_to_a_human():
    X = pd.DataFrame({"a": ["p"] * 20 + ["q"] * 20})
    y = ["good"] * 20 + ["bad"] * 20
    model = BoostedRules(n_rounds=5).fit(X, y)
    X_new = pd.DataFrame({"a": ["p", "q", "new"]})
    labels, confidence, index = model.predict_rules(X_new)
    assert list(labels[:2]) == ["good", "bad"]
    good_rules = [r for r in model.rules_ if r.head == "good"]
    if all(r.body == (Literal("a", "==", "p"),) for r in good_rules):  # nothing fires for "new"
        bad_fires = model.fired(X_new)[2][[r.head == "bad" for r in model.rules_]].any()
        assert (labels[2] is None) != bad_fires
        if labels[2] is None:
            assert np.isnan(confidence[2]) and index[2] == -1
    lenient = BoostedRules(n_rounds=5, require_rule=False).fit(X, y)
    assert None not in list(lenient.predict(X_new))


def test_the_same_seed_gives_the_same_ensemble():
    X, y = or_of_two_conjunctions(200, 6)
    a = BoostedRules(n_rounds=15, random_state=3).fit(X, y)
    b = BoostedRules(n_rounds=15, random_state=3).fit(X, y)
    assert a.rules_ == b.rules_ and np.array_equal(a.votes_, b.votes_)
    assert np.array_equal(a.default_votes_, b.default_votes_)


def test_rules_for_a_higher_label_rest_on_evidence():
    rng = np.random.default_rng(7)
    X = pd.DataFrame({"said": rng.choice(["present", "absent"], 300),
                      "wrong": rng.choice(["present", "absent"], 300)})
    y = np.where((X.said == "present") & (X.wrong == "absent"), "1", "0")
    model = BoostedRules(n_rounds=20, evidence={"said": ["present"], "wrong": []},
                         label_order=["0", "1"]).fit(X, y)
    for rule in model.rules_:
        if rule.head == "1":
            # said != absent is said == present: the column has no other value
            assert set(rule.body) <= {Literal("said", "==", "present"), Literal("said", "!=", "absent")}
    assert any(r.head == "0" and Literal("wrong", "==", "present") in r.body for r in model.rules_)


def test_derived_predicates_are_features_and_label_rules_are_refused():
    X = pd.DataFrame({"a": ["p", "q"] * 20, "b": ["r", "r", "s", "s"] * 10})
    y = np.where((X.a == "p") & (X.b == "r"), "1", "0")
    both = PredicateDefinition("both", (Literal("a", "==", "p"), Literal("b", "==", "r")))
    model = BoostedRules(n_rounds=5, background=[both]).fit(X, y)
    assert (model.predict(X) == y).all()
    with pytest.raises(ValueError, match="label rules"):
        BoostedRules(background=[Rule(head="1", body=(Literal("a", "==", "p"),))]).fit(X, y)


@pytest.mark.parametrize("params, message", [
    ({"n_rounds": 0}, "n_rounds"), ({"max_literals": 1.5}, "max_literals"), ({"alpha": -1}, "alpha"),
    ({"include_features": "yes"}, "include_features"), ({"window": True}, "window")])
def test_bad_parameters_say_which(params, message):
    X = pd.DataFrame({"a": ["p", "q"] * 5})
    with pytest.raises(ValueError, match=message):
        BoostedRules(**params).fit(X, ["1", "0"] * 5)


def test_bad_data_says_what_is_wrong():
    X = pd.DataFrame({"a": ["p", "q"] * 5})
    with pytest.raises(ValueError, match="single class"):
        BoostedRules().fit(X, ["1"] * 10)
    with pytest.raises(ValueError, match="10 rows but y has 9"):
        BoostedRules().fit(X, ["1", "0"] * 4 + ["1"])
    with pytest.raises(ValueError, match="not fitted"):
        BoostedRules().predict(X)
    model = BoostedRules(n_rounds=3).fit(X, ["1", "0"] * 5)
    with pytest.raises(ValueError, match="'a'"):
        model.predict(pd.DataFrame({"b": ["p"]}))
    with pytest.raises(ValueError, match="unknown parameter"):
        BoostedRules().set_params(ratio=1)


def test_explanations_list_the_rules_that_fired_and_add_up_to_the_score():
    X, y = or_of_two_conjunctions(300, 8)
    model = BoostedRules(n_rounds=15).fit(X, y)
    scores = model.decision_function(X.iloc[:40])
    fired = model.fired(X.iloc[:40])
    for i, e in enumerate(model.explain(X.iloc[:40])):
        best = model.classes_.index(e.best)
        assert np.isclose(e.score, scores[i, best])
        assert np.isclose(e.base + sum(v.vote for v in e.votes), e.score)  # the sum, rule by rule
        assert all(fired[i, v.index] and v.rule.head == e.best for v in e.votes)
        assert len(e.votes) == int((fired[i] & (model.rule_classes() == best)).sum())
        if e.label is not None:
            assert e.label == e.best and e.rule_index == e.votes[0].index
            assert e.summary().startswith(f"label {e.label!r}")
    assert "score of" in model.explain(X.iloc[:1])[0].text()


def test_save_and_load_give_the_same_predictions(tmp_path):
    from grader.confold.model_file import ModelFileError

    X, y = or_of_two_conjunctions(200, 9)
    model = BoostedRules(n_rounds=10).fit(X, y)
    path = tmp_path / "boosted.json"
    model.save(str(path))
    loaded = BoostedRules.load(str(path))
    assert loaded.rules_ == model.rules_ and np.array_equal(loaded.votes_, model.votes_)
    assert np.allclose(loaded.predict_proba(X), model.predict_proba(X))
    assert loaded.get_params()["n_rounds"] == 10
    data = model.to_dict()
    data["default_votes"][0] = "big"
    with pytest.raises(ModelFileError, match=r"default_votes\[0\]"):
        BoostedRules.from_dict(data)
    data = model.to_dict()
    data["format_version"] = 99
    with pytest.raises(ModelFileError, match="format_version 99"):
        BoostedRules.from_dict(data)
