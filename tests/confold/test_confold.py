"""ConFold against the hand-checked programs and test vectors of confold-notes.md."""

import numpy as np
import pandas as pd
import pytest

from grader import ConFold
from grader.confold.fold import wilson
from grader.confold.rule_eval import apply_rules
from grader.confold.rules import Literal as L


@pytest.mark.parametrize("n_pos, n, expected", [(1, 1, 0.55), (9, 10, 0.71053), (97, 100, 0.93119),
                                                (0, 5, 0.32143), (0, 0, 0.5)])
def test_wilson_reference_values(n_pos, n, expected):
    assert wilson(n_pos, n) == pytest.approx(expected, abs=5e-6)


def titanic_like(seed=0):
    """The sex/survived counts of the Titanic test file (266 men all died, 152 women all
    survived) with noise columns that cannot separate the classes."""
    rng = np.random.default_rng(seed)
    sex = np.array(["male"] * 266 + ["female"] * 152)
    survived = np.array([0] * 266 + [1] * 152)
    order = rng.permutation(len(sex))
    X = pd.DataFrame({
        "Sex": sex[order],
        "Age": np.where(rng.random(418) < 0.2, np.nan, rng.integers(1, 80, 418).astype(float)),
        "Fare": rng.gamma(2.0, 15.0, 418).round(2),
        "Embarked": rng.choice(["S", "C", "Q"], 418),
    })
    return X, pd.Series(survived[order], name="Survived")


def test_titanic_two_rule_program():
    X, y = titanic_like()
    model = ConFold(improvement_threshold=0.1, confidence_threshold=0.5).fit(X, y)
    assert [(r.head, r.body, r.exceptions) for r in model.rules_] == [
        (0, (L("Sex", "!=", "female"),), []),
        (1, (L("Sex", "==", "female"),), []),
    ]
    assert [round(r.confidence, 5) for r in model.rules_] == [0.98364, 0.97205]
    assert model.target_name_ == "survived"
    assert model.classes_ == [0, 1]


def animals(names, features, labels):
    X = pd.DataFrame({f: [f in feats for feats in features] for f in names})
    return X, pd.Series(labels, name="habitat")


def test_habitat_example_of_fold_rm():
    # kitty, john, smoky, charlie, nemo (FOLD-RM section 4, example 2).
    cols = ["mammal", "fish", "cat", "whale", "bear", "dog", "clownfish"]
    X, y = animals(cols, [{"mammal", "cat"}, {"mammal", "whale"}, {"mammal", "bear"},
                          {"mammal", "dog"}, {"fish", "clownfish"}],
                   ["land", "water", "land", "land", "water"])
    model = ConFold().fit(X, y)
    first = model.rules_[0]
    # habitat(X,land) :- mammal(X), not ab1(X).   ab1(X) :- whale(X).
    assert (first.head, first.body) == ("land", (L("mammal", "==", True),))
    assert [(e.body, e.exceptions) for e in first.exceptions] == [((L("whale", "==", True),), [])]
    assert first.confidence == pytest.approx(wilson(3, 3))
    # With no negatives left, every literal covering at least half the positives has gain 0
    # and the first one in column order wins (as in FOLD-RM's reference code).
    assert [(r.head, r.body) for r in model.rules_[1:]] == [
        ("water", (L("mammal", "==", True),)), ("water", (L("mammal", "!=", True),))]
    assert list(model.predict(X)) == list(y)


def birds():
    # 6 birds fly, 3 penguins do not, 1 super-penguin (a penguin) flies, 2 cats do not.
    feats = [{"bird"}] * 6 + [{"bird", "penguin"}] * 3 + [{"bird", "penguin", "superpenguin"}] + [set()] * 2
    labels = ["yes"] * 6 + ["no"] * 3 + ["yes"] + ["no"] * 2
    return animals(["bird", "penguin", "superpenguin"], feats, labels)


def test_exception_to_an_exception():
    X, y = birds()
    model = ConFold().fit(X, y)
    fly = model.rules_[0]
    # fly :- bird, not ab1.  ab1 :- penguin, not ab2.  ab2 :- superpenguin.
    assert (fly.head, fly.body) == ("yes", (L("bird", "==", True),))
    (ab1,) = fly.exceptions
    assert ab1.body == (L("penguin", "==", True),)
    assert [e.body for e in ab1.exceptions] == [(L("superpenguin", "==", True),)]
    assert fly.confidence == pytest.approx(11.5 / 16)
    assert [(r.head, r.body, round(r.confidence, 5)) for r in model.rules_[1:]] == [
        ("no", (L("bird", "==", True),), round(wilson(3, 3), 5)),
        ("no", (L("bird", "!=", True),), round(wilson(2, 2), 5))]
    assert list(model.predict(X)) == list(y)


def test_improvement_threshold_removes_cheap_exceptions():
    X, y = birds()
    # Without ab1 the rule's confidence drops 0.71875 -> 0.60526 (0.11): kept at t=0.1;
    # without ab2 it drops 0.71875 -> 0.7 (0.019): removed.
    model = ConFold(improvement_threshold=0.1).fit(X, y)
    fly = model.rules_[0]
    assert [(e.body, e.exceptions) for e in fly.exceptions] == [((L("penguin", "==", True),), [])]
    assert fly.confidence == pytest.approx(wilson(6, 6))
    assert [(r.head, r.body) for r in model.rules_[1:]] == [
        ("no", (L("superpenguin", "!=", True),)), ("yes", (L("bird", "==", True),))]
    assert [r.confidence for r in model.rules_[1:]] == pytest.approx([wilson(5, 5), wilson(1, 1)])
    # At t=0.2 ab1 goes too.
    model = ConFold(improvement_threshold=0.2).fit(X, y)
    assert model.rules_[0].exceptions == [] and model.rules_[0].confidence == pytest.approx(wilson(7, 10))


def test_confidence_threshold_removes_weak_rules_and_leaves_answers_to_humans():
    X, y = birds()
    model = ConFold(improvement_threshold=0.1, confidence_threshold=0.6).fit(X, y)
    assert [r.confidence for r in model.rules_] == pytest.approx([wilson(6, 6), wilson(5, 5)])
    labels, conf = model.predict_with_confidence(X)
    # the super-penguin is no longer covered: no prediction, no confidence
    assert labels[9] is None and np.isnan(conf[9])


def test_fold_rm_update_keeps_covered_negatives():
    X, y = birds()
    conf_fold = ConFold(improvement_threshold=0.2).fit(X, y)
    fold_rm = ConFold(improvement_threshold=0.2, fold_rm_update=True).fit(X, y)
    # CON-FOLD drops the penguins covered by `yes :- bird`; FOLD-RM learns from them again.
    assert [r.body for r in conf_fold.rules_[1:]] == [(L("bird", "!=", True),)]
    assert len(fold_rm.rules_) > len(conf_fold.rules_)


def test_predict_matches_apply_rules_and_labels_keep_their_type():
    X, y = titanic_like(3)
    y = y.map({0: 0.5, 1: "full"})  # a float mark and a string mark
    model = ConFold().fit(X, y)
    labels, conf = model.predict_with_confidence(X)
    ref_labels, ref_conf, _ = apply_rules(model.rules_, X, model.predicates_)
    assert list(labels) == list(ref_labels)
    assert np.array_equal(conf, ref_conf, equal_nan=True)
    assert {type(v) for v in labels} == {float, str}


def test_learns_mixed_columns_and_missing_values():
    # a value column with numbers and words; the label depends on both
    values = ["9.8", "9.7", "10.1", "3", "2.5", "none", "none", "?", None, "9.9", "1", "10"]
    marks = ["2", "2", "2", "0", "0", "0", "0", "0", "0", "2", "0", "2"]
    X = pd.DataFrame({"value": pd.Series(values, dtype=object)})
    model = ConFold().fit(X, pd.Series(marks, name="mark"))
    assert model.encodings_[0].kind == "mixed"
    assert list(model.predict(X)) == marks
    assert any(l.op in ("<=", ">") for r in model.rules_ for l in r.body)
