"""The effort bench: a class's decisions and final marks, the app's workflow played."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from grader.bench.effort import fewest_decisions, main, with_hand_marked
from grader.bench.effort_play import Point, checkpoints, queue_by_groups


def test_checkpoints_every_ten_while_answers_remain():
    assert checkpoints(35) == [10, 20, 30]
    assert checkpoints(30) == [10, 20]
    assert checkpoints(9) == []


def test_a_group_costs_one_decision_plus_one_per_member_with_another_true_mark():
    truth = np.array(["loud", "loud", "quiet", "loud", "quiet", "quiet"], dtype=object)
    group = np.array([0, 0, 0, 1, 2, 2])
    leaders = [1, 3, 4]
    queue = np.array([0, 1, 2, 3, 5])  # answer 4, group 2's leader, is not queued
    decisions, grouped, pure = queue_by_groups(queue, group, leaders, truth)
    # group 0: leader 1 (loud), answer 2 differs: 2 decisions; group 1: one answer: 1;
    # group 2: only answer 5 queued: decided alone, 1
    assert (decisions, grouped, pure) == (4, 3, 2)


def test_point_counts_the_teachers_marks_as_right():
    p = Point(marked=10, size=40, queue=6, group_decisions=4, auto=24, auto_right=21, grouped=3, grouped_pure=2)
    assert p.decisions == 16 and p.decisions_by_groups == 14
    assert p.accuracy == pytest.approx((40 - 3) / 40)
    stop = Point(10, 40, 6, 4, 24, 21, 3, 2, checks=14, stop=True, kept=8, kept_right=7)
    assert stop.decisions_to_stop == 32 and stop.accuracy_at_stop == pytest.approx(39 / 40)


def test_fewest_decisions_per_question_and_hand_marking_when_the_target_is_never_reached():
    curves = pd.DataFrame({"question_id": ["A", "A", "B", "B"], "marked": [10, 20, 10, 20], "size": [40, 40, 25, 25],
                           "decisions": [30.0, 24.0, 20.0, 22.0], "accuracy": [0.98, 0.99, 0.9, 0.93]})
    fewest = fewest_decisions(curves, 0.97, "decisions")
    assert fewest["A"] == pytest.approx(0.6) and fewest["B"] == 1.0


def test_a_small_class_counts_as_hand_marked_beyond_its_size():
    table = pd.DataFrame({"scheme": "2way", "order": "random", "question_id": ["A", "A", "B"], "seed": 0,
                          "marked": [10, 20, 10], "size": [30, 30, 15], "decisions": [20, 25, 12],
                          "decisions_by_groups": [18, 25, 11], "accuracy": [0.9, 0.95, 0.8],
                          "grouped": 0, "grouped_pure": 0})
    curves = with_hand_marked(table)
    b20 = curves[(curves.question_id == "B") & (curves.marked == 20)].iloc[0]
    assert (b20.decisions, b20.accuracy) == (15.0, 1.0)


def _folder(tmp_path):
    (tmp_path / "questions.json").write_text(json.dumps([{
        "question_id": "ECHO", "question": "Why do you hear an echo in an empty hall?",
        "reference_answers": ["The sound reflects off the walls and comes back"]}]))
    good = ["the sound bounces off the walls", "sound reflects from the wall back to you",
            "the sound waves reflect off the walls", "it reflects off the hard walls",
            "sound comes back after hitting the wall", "the walls reflect the sound"]
    bad = ["the hall is big", "sound is loud", "i do not know", "because it is empty",
           "the air is cold", "people are quiet"]
    rows = [(f"a{i}", "ECHO", a, label, "train" if i % 3 else "test")
            for i, (a, label) in enumerate([(a, "correct") for a in good * 2] + [(a, "irrelevant") for a in bad * 2]
                                           + [("the sound reflects", "contradictory")])]
    pd.DataFrame(rows, columns=["id", "question_id", "answer", "label_5way", "split"]).to_csv(
        tmp_path / "answers.csv", index=False)


def test_end_to_end_on_a_small_made_up_class_is_deterministic(tmp_path, capsys):
    _folder(tmp_path)
    out1, out2 = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["--data", str(tmp_path), "--seeds", "1", "--scheme", "2way", "--json", str(out1)]) == 0
    printed = capsys.readouterr().out
    assert "fewest decisions per answer reaching 0.97" in printed and "group purity" in printed
    assert "the stop estimate" in printed and "the tool says stop on" in printed
    assert main(["--data", str(tmp_path), "--seeds", "1", "--scheme", "2way", "--json", str(out2)]) == 0
    one, two = json.loads(out1.read_text()), json.loads(out2.read_text())
    assert "NaN" not in out1.read_text()  # plain JSON: no estimate is null
    assert one["points"] == two["points"]
    points = pd.DataFrame(one["points"])
    assert set(points.marked) == {10, 20} and set(points.order) == {"suggested", "random"}
    assert (points.decisions >= points.marked).all() and (points.decisions <= points["size"]).all()
    assert (points.decisions_by_groups <= points.decisions).all()
    assert ((points.accuracy > 0) & (points.accuracy <= 1)).all()
    assert (points.checks <= points.auto).all() and (points.kept + points.checks <= points.auto).all()
    assert set(one["2way"]["stop"]) == {"suggested", "random"}
    assert main(["--data", str(tmp_path / "nowhere")]) == 2
