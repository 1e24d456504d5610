"""A mark that looks like a slip of another, in marked answers whose marks the file does not list."""

from __future__ import annotations

from grader.grading.training import mark_slips, training_notes
from tests.data import small_question


def test_a_rare_mark_that_looks_like_a_common_one_is_a_slip():
    marks = ["1"] * 6 + ["0"] * 6 + ["l"] + ["correct"] * 5 + ["corect"] + ["Incorrect"] * 4 + ["incorrect"]
    assert mark_slips(marks) == {"l": "1", "corect": "correct", "incorrect": "Incorrect"}


def test_marks_that_are_not_slips_are_left_alone():
    # "0.5" is no letter away from "0"; "incorrect" is not one letter from "correct"; a short
    # mark is not one letter from another; a mark given as often is a mark of its own
    marks = ["0"] * 9 + ["0.5"] + ["correct"] * 9 + ["incorrect"] + ["B"] * 9 + ["B+"] + ["pass"] * 3 + ["past"] * 3
    assert mark_slips(marks) == {}


def test_training_warns_of_the_slip_only_when_the_file_does_not_list_the_marks():
    marks = ["1"] * 8 + ["0"] * 8 + ["l"]
    unlisted = training_notes(small_question(marks=()), marks)
    assert any("'l' is given to 1 answer only and looks like a slip for '1'" in n for n in unlisted)
    assert not any("slip" in n for n in training_notes(small_question(), ["1"] * 8 + ["0"] * 9))
