"""A teacher's rule for a mark no marked answer has yet is kept and said, at the rule (issue 30)."""

from __future__ import annotations

import re
import warnings

import pandas as pd

from grader import ConFold
from grader.confold.rules import Literal, Rule
from grader.grading.model import GradingModel
from knowledge import load_question
from tests.data import BELL_JAR_YAML

QUESTION = BELL_JAR_YAML + """\
initial_rules:
  - name: vacuum_carries_sound
    mark: contradictory
    if: ["misconception:vacuum_carries == present"]
  - name: medium_and_fades
    mark: correct
    if: ["concept:medium == present", "concept:fades == present"]
"""
ANSWERS = ["it fades because sound needs a medium", "quieter since it needs air to travel", "you hear nothing",
           "the bell gets quieter because there is no medium", "it stays the same", "no change at all"] * 3
MARKS = ["correct", "correct", "incorrect", "correct", "incorrect", "incorrect"] * 3


def _train(tmp_path, text: str):
    path = tmp_path / "q.yaml"
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = GradingModel.train(load_question(path), ANSWERS, MARKS, n_resamples=0)
    return path, model, [str(w.message) for w in caught]


def test_a_rule_for_a_mark_nobody_has_is_kept_and_said_at_the_rule(tmp_path):
    path, model, said = _train(tmp_path, QUESTION)
    note = [s for s in said if "no marked answer has this mark yet" in s]
    # the mark is written on line 17, column 11, of the file
    assert note == [f"rule 'vacuum_carries_sound' for mark 'contradictory' at {path}:17:11: "
                    f"no marked answer has this mark yet; kept as written"]
    first = model.learner.rules_[0]
    assert (first.origin, first.head, first.name) == ("initial", "contradictory", "vacuum_carries_sound")
    graded = model.grade(["sound travels in a vacuum", "it fades: sound needs a medium"])
    assert list(graded["mark"]) == ["contradictory", "correct"]
    assert graded["flagged"][0]  # nothing shows the rule right yet: its answers go to a human
    assert "contradictory" in model.question.marks


def test_with_marks_listed_the_rule_is_kept_too(tmp_path):
    text = QUESTION.replace("reference_answers:", "marks: [incorrect, contradictory, correct]\nreference_answers:")
    path, model, said = _train(tmp_path, text)
    assert any(re.search(rf"for mark 'contradictory' at {re.escape(str(path))}:18:11: no marked answer", s)
               for s in said)
    assert model.learner.rules_[0].head == "contradictory"
    # word marks listed worst to best are in order: no "the marks are words" warning
    assert not any("are words" in s for s in said) and model.question.marks[0] == "incorrect"


def test_confold_keeps_an_initial_rule_for_a_label_no_example_has():
    X = pd.DataFrame({"c": ["a", "b", "a", "b", "c", "c"] * 3})
    y = ["ok", "no", "ok", "no", "no", "no"] * 3
    never = Rule("contra", (Literal("c", "==", "c"),), name="c is contradictory")
    model = ConFold(initial_rules=[never], confidence_threshold=0.6).fit(X, y)
    kept = model.rules_[0]
    assert (kept.head, kept.origin, kept.body) == ("contra", "initial", never.body)
    assert kept.confidence < 0.6  # six answers marked otherwise: low, and still kept
    assert list(model.predict(pd.DataFrame({"c": ["c", "a"]}))) == ["contra", "ok"]


def test_test_rubric_says_the_rule_is_kept_as_written(tmp_path):
    from grader.grading.rubric_test import test_rubric as rubric_report
    _, model, _ = _train(tmp_path, QUESTION)
    report = rubric_report(model, [str(i) for i in range(len(ANSWERS))], ANSWERS, MARKS)
    notes = {r.name: r.note for r in report.rules if r.origin == "initial"}
    assert notes["vacuum_carries_sound"] == "no answer it was trained on has this mark yet; kept as written"
    assert notes["medium_and_fades"].startswith("kept")


def _said(call) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught]


def test_cross_validation_says_each_note_once_for_the_teachers_answers(tmp_path):
    # each fold's model (and, calibrated, each of its own folds' models) said the note again:
    # 30 times for `grader evaluate`
    from grader.grading.evaluation import cross_validate

    path = tmp_path / "q.yaml"
    path.write_text(QUESTION, encoding="utf-8")
    said = _said(lambda: cross_validate(load_question(path), ANSWERS, MARKS, folds=3, calibrated=True,
                                        n_resamples=0))
    assert [s for s in said if "kept as written" in s] == [
        f"rule 'vacuum_carries_sound' for mark 'contradictory' at {path}:17:11: "
        f"no marked answer has this mark yet; kept as written"]
    assert sum("are words" in s for s in said) == 1  # the marks' order, said once too


def test_calibrating_a_trained_model_says_nothing_training_said(tmp_path):
    from grader.grading.evaluation import calibrate

    _, model, said = _train(tmp_path, QUESTION)
    assert any("kept as written" in s for s in said)
    assert _said(lambda: calibrate(model, ANSWERS, MARKS, folds=3)) == []
    assert model.calibration is not None
