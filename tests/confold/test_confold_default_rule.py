"""ConFold(default_rule=True): a last rule with an empty body for what the learned rules leave."""

from __future__ import annotations

import pandas as pd
import pytest

from grader import ConFold
from grader.confold.fold import wilson
from grader.confold.rule_eval import apply_rules
from knowledge.asp import parse_program

from tests.confold.test_confold import birds


def test_default_rule_covers_the_leftovers_with_their_wilson_confidence():
    X, y = birds()
    # With the confidence threshold the super-penguin (row 9, "yes") is left to no rule.
    plain = ConFold(improvement_threshold=0.1, confidence_threshold=0.6).fit(X, y)
    model = ConFold(improvement_threshold=0.1, confidence_threshold=0.6, default_rule=True).fit(X, y)
    assert model.rules_[:-1] == plain.rules_
    default = model.rules_[-1]
    assert (default.head, default.body, default.exceptions, default.name) == ("yes", (), [], "default")
    assert default.confidence == pytest.approx(wilson(1, 1))
    labels, conf, index = model.predict_rules(X)
    # exactly the rows no other rule covers fall to it
    assert list(index == len(model.rules_) - 1) == list(apply_rules(plain.rules_, X)[2] < 0)
    assert labels[9] == "yes" and conf[9] == pytest.approx(wilson(1, 1))
    assert all(label is not None for label in labels)


def test_default_rule_takes_the_majority_of_several_leftovers():
    X = pd.DataFrame({"f": ["a"] * 6 + ["b", "c", "d", "e"]})
    y = ["1"] * 6 + ["0", "0", "1", "0"]
    model = ConFold(confidence_threshold=0.8, default_rule=True).fit(X, y)
    _, _, index = apply_rules(model.rules_[:-1], X)
    left = [label for label, i in zip(y, index) if i < 0]
    assert left  # the threshold removed the rules for the single answers b..e
    default = model.rules_[-1]
    assert default.head == max(set(left), key=left.count)
    assert default.confidence == pytest.approx(wilson(left.count(default.head), len(left)))


def test_nothing_left_gives_the_commonest_label_with_confidence_one_half():
    X, y = birds()
    model = ConFold(default_rule=True).fit(X, y)
    assert apply_rules(model.rules_[:-1], X)[2].min() >= 0  # every training row covered
    default = model.rules_[-1]
    assert default.head == "yes" and default.confidence == pytest.approx(0.5)
    assert (model.predict_rules(X)[2] < len(model.rules_) - 1).all()


def test_off_by_default():
    X, y = birds()
    assert ConFold().default_rule is False
    assert all(r.name != "default" for r in ConFold(confidence_threshold=0.6).fit(X, y).rules_)


def test_save_load_and_asp_round_trip(tmp_path):
    X, y = birds()
    model = ConFold(confidence_threshold=0.6, default_rule=True).fit(X, y)
    path = tmp_path / "m.json"
    model.save(str(path))
    loaded = ConFold.load(str(path))
    assert loaded.default_rule is True and loaded.rules_ == model.rules_
    assert [list(a) for a in loaded.predict_rules(X)] == [list(a) for a in model.predict_rules(X)]
    program = parse_program(model.to_asp(), origin="learned")
    assert program.rules == model.rules_
    assert "% rule 3 (learned): default" in model.to_asp()


def test_clingo_agrees_with_the_default_rule():
    pytest.importorskip("clingo")
    from knowledge.clingo_check import solve_rules

    X, y = birds()
    model = ConFold(confidence_threshold=0.6, default_rule=True).fit(X, y)
    assert solve_rules(model.rules_, X) == list(model.predict(X))
