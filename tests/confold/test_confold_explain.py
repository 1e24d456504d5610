"""Explanations: the fired rule, each literal with the row's value, why exceptions failed."""

import json

import pandas as pd
import pytest

from grader import ConFold
from grader.confold.explain import feature_label
from grader.confold.rules import Literal as L, PredicateDefinition


def birds():
    rows = ([("bird", False, False, "yes")] * 6 + [("bird", True, False, "no")] * 3
            + [("bird", True, True, "yes")] + [("cat", False, False, "no")] * 2)
    X = pd.DataFrame([r[:3] for r in rows], columns=["concept:animal", "penguin", "superpenguin"])
    return X, pd.Series([r[3] for r in rows], name="flies")


@pytest.fixture(scope="module")
def model():
    X, y = birds()
    return ConFold().fit(X, y)


def test_fired_rule_literals_and_exception_to_exception(model):
    X, _ = birds()
    (e,) = model.explain(X.iloc[[9]])  # the super-penguin
    assert (e.label, e.rule_index, e.origin) == ("yes", 0, "learned")
    assert e.confidence == model.rules_[0].confidence
    (lit,) = e.literals
    assert (lit.feature, lit.op, lit.value, lit.actual, lit.held) == ("concept:animal", "==", "bird", "bird", True)
    (ab1,) = e.exceptions
    assert ab1.held is False                      # not abnormal ...
    assert [l.held for l in ab1.literals] == [True]  # ... although a penguin,
    assert ab1.exceptions[0].held is True         # because its own exception holds
    text = e.text()
    assert "the value of flies is 'yes' DOES HOLD" in text
    assert "the value of concept \"animal\" is 'bird' which should equal 'bird' (DOES HOLD)" in text
    assert "exception 1 DOES NOT HOLD because" in text and "exception 1.1 DOES HOLD because" in text
    assert e.tried == []


def test_earlier_rules_that_did_not_apply_and_summary(model):
    X, _ = birds()
    (penguin,) = model.explain(X.iloc[[6]])
    assert penguin.label == "no" and penguin.rule_index == 1
    (tried,) = penguin.tried
    assert tried.rule_index == 0 and tried.blocked_by is not None
    assert "its exception (penguin == True) applied" in penguin.text()
    (cat,) = model.explain(X.iloc[[10]])
    assert cat.tried[0].failed.feature == "concept:animal" and cat.tried[0].failed.actual == "cat"
    summary = cat.summary()
    assert "\n" not in summary and summary.startswith(f"flies 'no' ({cat.confidence:.2f}) by rule")


def test_no_rule_applies_and_to_dict_is_json(model):
    X, _ = birds()
    strict = ConFold(confidence_threshold=0.72).fit(X, birds()[1])
    (e,) = strict.explain(X.iloc[[10]])
    assert e.rule_index is None and e.label is None
    assert "goes to a human marker" in e.text()
    assert "needs a human marker" in e.summary()
    data = json.loads(json.dumps(e.to_dict()))
    assert data["rule_index"] is None and len(data["tried"]) == len(strict.rules_)


def test_descriptions_and_derived_predicates_are_shown():
    X = pd.DataFrame({"value:g": [9.8, 9.7, 3.0, 12.0, 9.9, 1.0]})
    y = pd.Series(["1", "1", "0", "0", "1", "0"], name="mark")
    bg = [PredicateDefinition("correct_value", (L("value:g", ">=", 9.7), L("value:g", "<=", 9.9)))]
    model = ConFold(background=bg).fit(X, y)
    (e,) = model.explain(X.iloc[[2]], descriptions={"correct_value": "the value is 9.8 m/s² ± 0.1"})
    assert "correct_value (the value is 9.8 m/s² ± 0.1) is False" in e.text()


def test_explanations_match_predictions_on_many_rows(model):
    X, _ = birds()
    big = pd.concat([X] * 300, ignore_index=True)
    explanations = list(model.iter_explain(big, chunk_size=257))
    labels, conf, index = model.predict_rules(big)
    assert [e.label for e in explanations] == list(labels)
    assert [(-1 if e.rule_index is None else e.rule_index) for e in explanations] == list(index)


def test_feature_label():
    assert feature_label("concept:gap") == 'concept "gap"'
    assert feature_label("coverage", {"coverage": "share of the reference"}) == "coverage (share of the reference)"
