"""GradingModel.train(default_rule=True): answers no learned rule covers get the default
rule's mark with its low confidence, shown as the default rule, and are still flagged."""

from __future__ import annotations

import math

from grader.grading.model import GradingModel
from knowledge.schema import Question

QUESTION = Question("circuit", "Why does the bulb not light?", ("There is a gap in the circuit",),
                    marks=("0", "1"))
ANSWERS = ["there is a gap in the circuit", "a gap between the terminals", "the circuit has a gap",
           "gap in the circuit", "the battery is dead", "the bulb is broken", "dead battery",
           "broken bulb"] * 2
MARKS = ["1", "1", "1", "1", "0", "0", "0", "0"] * 2


def test_default_rule_marks_what_no_rule_covers_and_still_flags_it(tmp_path):
    # without the vote, which marks what the model's own rules leave when a resampled list does
    plain = GradingModel.train(QUESTION, ANSWERS, MARKS, confidence_threshold=0.7, vote=False)
    model = GradingModel.train(QUESTION, ANSWERS, MARKS, confidence_threshold=0.7, default_rule=True)
    assert model.learner.rules_[:-1] == plain.learner.rules_
    default = model.learner.rules_[-1]
    assert default.body == () and default.name == "default"
    odd = ["there is no gap"]  # ref:gap negated: neither "present" nor "absent"
    assert plain.grade(odd)["mark"].tolist() == [None]
    graded = model.grade(odd, flag_below=0.7).iloc[0]
    assert graded["mark"] == default.head
    explanation = model.explain(odd[0])  # the rule lists' share, at most the default rule's confidence,
    assert explanation.confidence == default.confidence  # times the wording support
    share = (explanation.agreeing + 2) / (explanation.resamples + 3)  # the model's own list gives it too
    assert math.isclose(graded["confidence"], min(share, default.confidence) * explanation.support)
    assert math.isclose(explanation.overall_confidence, graded["confidence"])
    assert graded["flagged"]  # a default rule's confidence is low (0.5 at most here)
    assert "default rule" in graded["explanation"]
    path = tmp_path / "m.json"
    model.save(path)
    loaded = GradingModel.load(path)
    assert loaded.params["default_rule"] is True
    assert loaded.grade(odd)["mark"].tolist() == [default.head]
