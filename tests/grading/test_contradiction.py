"""A good mark for an answer that also states one of the rubric's wrong ideas is flagged (grader.grading.contradiction)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from grader.grading.contradiction import contradiction_notes
from grader.grading.model import GradingModel
from knowledge.schema import Misconception
from tests.data import SAMPLE, marked_answers, small_question


@pytest.fixture(scope="module")
def model() -> GradingModel:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks, n_resamples=0)


def test_a_good_mark_with_a_wrong_idea_goes_to_a_human(model):
    graded = model.grade(["there is a gap in the circuit so no current flows",
                          "there is a gap in the circuit so no current flows, and the battery is flat"])
    assert graded["mark"].tolist() == ["1", "1"]
    assert not graded.loc[0, "flagged"] and "wrong idea" not in graded.loc[0, "explanation"]
    assert graded.loc[1, "flagged"]
    assert graded.loc[1, "explanation"].endswith(
        "; but it also shows a wrong idea the marking scheme names (blames the battery): for a human marker")


def test_the_lowest_mark_a_rule_asking_for_it_and_word_marks_are_not_flagged():
    question = small_question()
    X = pd.DataFrame({"misconception:battery_flat": ["present", "present", "present", "absent"]})
    rules = [frozenset(), frozenset(), frozenset({"misconception:battery_flat"}), frozenset()]
    notes = contradiction_notes(question, X, ["1", "0", "1", "1"], rules)
    assert notes.tolist() == ["blames the battery", "", "", ""]
    worded = dataclasses.replace(question, marks=("incorrect", "correct"))
    assert (contradiction_notes(worded, X, ["correct"] * 4, rules) == "").all()
    bare = dataclasses.replace(question, misconceptions=())
    assert (contradiction_notes(bare, X, ["1"] * 4, rules) == "").all()
    named = dataclasses.replace(question, misconceptions=(Misconception("battery_flat", ("flat",)),))
    assert contradiction_notes(named, X, ["1"] * 4, rules)[0] == "battery flat"


def test_the_sample_probe_that_takes_its_answer_back_is_flagged():
    from grader.exams.exam_io import read_marked_answers
    from knowledge import load_question

    question = load_question(SAMPLE / "vertical_throw" / "question.yaml")
    marked = read_marked_answers(SAMPLE / "vertical_throw" / "marked.csv", marks=question.marks)
    model = GradingModel.train(question, marked.answers, marked.marks, n_resamples=0)
    probes = ["9.8 m/s^2 downwards. No wait, the acceleration is zero at the top",
              "its acceleration is not 9.8 m/s^2 downwards, it is zero"]
    graded = model.grade(probes)
    # the scheme gives contradictions 0: the first is sent to a human, the second gets 0
    assert graded.loc[0, "flagged"] and "is zero at the top" in graded.loc[0, "explanation"]
    assert graded.loc[1, "mark"] == "0"
    assert model.features(probes[1:])["quantity:acceleration"].iloc[0] != "correct"  # the 9.8 is denied
