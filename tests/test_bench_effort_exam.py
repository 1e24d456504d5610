"""The effort bench's stop estimate pooled over an exam's questions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from grader.bench.effort_exam import exam_stop_figures, exams, play_exam


def _curve(right_share: dict[str, float], machine: int = 60, size: int = 90) -> pd.DataFrame:
    """One curve (scheme, order, seed): per question points at 10 and 20 marked, `machine` machine
    marks each, the first `right_share` of them right (the most confident first)."""
    rows = []
    for qid, share in right_share.items():
        for marked in (10, 20):
            n = machine - marked
            right = np.arange(n) < round(share * n)
            rows.append({"question_id": qid, "order": "random", "seed": 0, "marked": marked, "size": size,
                         "decisions_by_groups": size - machine + marked,
                         "machine_confidence": tuple(np.linspace(0.99, 0.71, n).tolist()),
                         "machine_right": tuple(right.tolist())})
    return pd.DataFrame(rows)


def test_pooled_checks_vouch_where_one_question_alone_costs_more():
    curve = _curve({q: 1.0 for q in "ABCDE"})
    alone = [play_exam(curve, [q], 0.97, seed=1) for q in "ABCDE"]
    pooled = play_exam(curve, list("ABCDE"), 0.97, seed=1)
    assert pooled["stop"] and pooled["marked"] == 10
    assert pooled["checks"] < sum(a["checks"] for a in alone)
    assert pooled["decisions"] < np.mean([a["decisions"] for a in alone])
    assert pooled["accuracy"] == 1.0 and pooled["size"] == 5 * 90


def test_a_machine_often_wrong_is_never_vouched_for_and_the_exam_is_marked_by_hand():
    curve = _curve({q: 0.8 for q in "ABC"})
    result = play_exam(curve, list("ABC"), 0.97, seed=0)
    assert not result["stop"] and (result["decisions"], result["accuracy"]) == (1.0, 1.0)


def test_the_target_on_the_final_marks_stops_where_the_machine_alone_cannot_be_vouched_for():
    curve = _curve({q: 0.95 for q in "ABCDEF"})  # the machine 95% right on 2/3 of the class
    machine = play_exam(curve, list("ABCDEF"), 0.97, seed=0, scope="machine")
    whole = play_exam(curve, list("ABCDEF"), 0.97, seed=0, scope="class")
    assert whole["stop"] and whole["decisions"] < machine["decisions"]
    assert whole["accuracy"] >= 0.97 - 1e-9


def test_exams_drawn_are_seeded_and_one_question_exams_are_each_question():
    ids = [f"Q{i}" for i in range(12)]
    assert exams(ids, 5, 4, seed=3) == exams(ids, 5, 4, seed=3)
    assert all(len(e) == 5 and len(set(e)) == 5 for e in exams(ids, 5, 4, seed=3))
    assert exams(ids, 1, 4, seed=3) == [[q] for q in sorted(ids)]
    assert exams(ids[:3], 5, 4, seed=0) == [sorted(ids[:3])]


def test_the_figures_say_how_often_the_truth_is_inside_the_interval():
    curve = _curve({q: 1.0 for q in "ABCDEF"})
    text, figures = exam_stop_figures(curve, "random", 0.97, exam_size=3, count=4, seed=0)
    assert figures["stopped"] == 1.0 and figures["inside_interval"] == 1.0
    assert figures["curves"] == 4 and "pooled over exams of 3 questions" in text
    # everything but the machine marks vouched for is the teacher's: marked, reviewed and checked
    assert figures["checks_per_answer"] > 0 and figures["decisions"] < 1
    assert figures["decisions"] >= 10 / 90 + figures["checks_per_answer"] - 1e-9
