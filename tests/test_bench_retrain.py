"""The pieces of `python -m grader.bench retrain` that decide what it measures."""

from __future__ import annotations

import time
import types

import pytest

from grader.bench.retrain import Steps, distinct_marked, edited


def test_the_generated_question_has_the_asked_number_of_distinct_answers_with_their_marks():
    answers, marks = distinct_marked(["a", "b", "c"], ["0", "1", "0"], 8)
    assert len(answers) == 8 and len(set(answers)) == 8
    assert answers[:3] == ["a", "b", "c"] and marks[:3] == ["0", "1", "0"]
    assert all(m == {"a": "0", "b": "1", "c": "0"}[a[0]] for a, m in zip(answers, marks))
    with pytest.raises(SystemExit, match="cannot make 1000 distinct answers"):
        distinct_marked(["a"], ["0"], 1000)


def test_a_rubric_edit_adds_one_phrase_to_the_first_concept():
    text = "concepts:\n  a:\n    phrases: [x, y]\n  b:\n    phrases: [z]\n"
    assert edited(text, 2) == "concepts:\n  a:\n    phrases: [bench synonym 2, x, y]\n  b:\n    phrases: [z]\n"
    with pytest.raises(SystemExit):
        edited("id: q\n", 0)


def test_a_step_leaves_out_the_steps_timed_inside_it_but_an_opaque_step_keeps_them():
    def inner():
        time.sleep(0.05)

    def outer():
        time.sleep(0.05)
        box.inner()

    box = types.SimpleNamespace(inner=inner, outer=outer)
    steps = Steps()
    steps.wrap(box, "inner", "inner")
    steps.wrap(box, "outer", "outer")
    start = time.perf_counter()
    box.outer()
    total = time.perf_counter() - start
    assert steps.wall["outer"] >= 0.05 and steps.wall["inner"] >= 0.05  # each its own sleep
    assert abs(steps.wall["outer"] + steps.wall["inner"] - total) < 0.02  # counted once
    box.inner, box.outer = inner, outer
    steps = Steps()
    steps.wrap(box, "inner", "inner")
    steps.wrap(box, "outer", "cross-validation", opaque=True)
    box.outer()
    assert steps.wall["cross-validation"] >= 0.1 and "inner" not in steps.wall
