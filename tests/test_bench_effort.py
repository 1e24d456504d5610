"""The effort bench: a class's decisions and final marks, the app's workflow played."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from grader.bench.effort import fewest_decisions, main, with_hand_marked
from grader.bench.effort_play import Point, checkpoints, decide_by_groups


def test_checkpoints_every_ten_while_answers_remain():
    assert checkpoints(35) == [10, 20, 30]
    assert checkpoints(30) == [10, 20]
    assert checkpoints(9) == []


def test_a_group_costs_one_decision_plus_one_per_member_with_another_true_mark():
    truth = np.array(["loud", "loud", "quiet", "loud", "quiet", "quiet", "loud"], dtype=object)
    group = np.array([0, 0, 0, 1, 2, 2, -1])  # answer 6 was decided already
    flagged = np.array([False, False, False, True, False, False, True])
    decisions, decided, grouped, pure = decide_by_groups(group, flagged, truth)
    # group 0: marked loud (most of it), answer 2 taken out: 2 decisions; group 1 is one answer,
    # flagged: decided alone, 1; group 2: one mark, 1; answer 6: nothing to do
    assert (decisions, grouped, pure) == (4, 5, 4)
    assert decided.tolist() == [True, True, True, True, True, True, False]
    # an answer alone and not flagged is the machine's
    decisions, decided, _, _ = decide_by_groups(np.array([0, 1]), np.array([False, True]), truth[:2])
    assert decisions == 1 and decided.tolist() == [False, True]


def test_point_counts_the_teachers_marks_as_right():
    p = Point(marked=10, size=40, queue=6, auto=24, auto_right=21, group_decisions=4, group_auto=20,
              group_auto_right=19, grouped=3, grouped_pure=2)
    assert p.decisions == 16 and p.decisions_by_groups == 14
    assert p.accuracy == pytest.approx((40 - 3) / 40)
    assert p.accuracy_by_groups == pytest.approx((40 - 1) / 40)
    stop = Point(10, 40, 6, 24, 21, 4, 20, 19, 3, 2, checks=6, stop=True, kept=8, kept_right=7)
    # marked, the groups and the flagged rest, then the 12 machine marks not vouched for (the 6 checks among them)
    assert stop.decisions_to_stop == 10 + 4 + 20 - 8 and stop.accuracy_at_stop == pytest.approx(39 / 40)


def test_fewest_decisions_per_question_and_hand_marking_when_the_target_is_never_reached():
    curves = pd.DataFrame({"question_id": ["A", "A", "B", "B"], "marked": [10, 20, 10, 20], "size": [40, 40, 25, 25],
                           "decisions": [30.0, 24.0, 20.0, 22.0], "accuracy": [0.98, 0.99, 0.9, 0.93]})
    fewest = fewest_decisions(curves, 0.97, "decisions")
    assert fewest["A"] == pytest.approx(0.6) and fewest["B"] == 1.0


def test_a_small_class_counts_as_hand_marked_beyond_its_size():
    table = pd.DataFrame({"scheme": "2way", "order": "random", "question_id": ["A", "A", "B"], "seed": 0,
                          "marked": [10, 20, 10], "size": [30, 30, 15], "decisions": [20, 25, 12],
                          "decisions_by_groups": [18, 25, 11], "accuracy": [0.9, 0.95, 0.8],
                          "accuracy_by_groups": [0.95, 0.97, 0.9],
                          "grouped": 0, "grouped_pure": 0})
    curves = with_hand_marked(table)
    b20 = curves[(curves.question_id == "B") & (curves.marked == 20)].iloc[0]
    assert (b20.decisions, b20.accuracy, b20.accuracy_by_groups) == (15.0, 1.0, 1.0)


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
    assert ((points.accuracy > 0) & (points.accuracy <= 1)).all()
    # by groups the teacher decides every grouped answer too: never fewer right than one by one
    assert (points.accuracy_by_groups >= points.accuracy - 1e-12).all() and (points.group_auto <= points.auto).all()
    assert (points.checks <= points.group_auto).all() and (points.kept + points.checks <= points.group_auto).all()
    assert "questions reaching 0.97 within 0.40 decisions per answer" in printed
    assert set(one["2way"]["stop"]) == {"suggested", "random"}
    assert main(["--data", str(tmp_path / "nowhere")]) == 2


RUBRIC = """\
id: ECHO
question: Why do you hear an echo in an empty hall?
reference_answers:
  - "The sound reflects off the walls and comes back"
concepts:
  reflects:
    phrases: [reflect, bounce, comes back]
initial_rules:
  - name: reflection
    mark: correct
    if: ["concept:reflects == present"]
"""


def test_with_rubrics_each_question_is_played_with_the_bare_file_and_the_rubric(tmp_path, capsys):
    _folder(tmp_path)
    rubrics = tmp_path / "rubrics"
    (rubrics / "ECHO").mkdir(parents=True)
    (rubrics / "ECHO" / "question.yaml").write_text(RUBRIC, encoding="utf-8")
    (rubrics / "seen_ids.json").write_text(json.dumps({"ECHO": ["a13", "a0", "a12"]}))
    out = tmp_path / "rubric.json"
    assert main(["--data", str(tmp_path), "--scheme", "2way", "--rubrics", str(rubrics), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "the rubric against the bare file at the stop:" in printed
    figures = json.loads(out.read_text())
    points = pd.DataFrame(figures["points"])
    assert set(points.order) == {"bare", "rubric"} and (points.seed == 0).all()
    compared = figures["2way"]["rubric_against_bare"]
    assert sum(compared["fewer_same_more_decisions"]) == 1 == sum(compared["higher_same_lower_accuracy"])
    assert compared["decisions"] == [figures["2way"]["stop"]["bare"]["decisions"],
                                     figures["2way"]["stop"]["rubric"]["decisions"]]
    assert sorted(points[points.order == "bare"].marked) == sorted(points[points.order == "rubric"].marked)


def test_the_seen_answers_are_marked_first(monkeypatch):
    import grader.bench.effort_play as effort_play

    record = {"question_id": "ECHO", "question": "Why do you hear an echo in an empty hall?",
              "reference_answers": ["The sound reflects off the walls and comes back"]}
    texts = [f"the sound reflects off wall {i}" for i in range(12)] + [f"the hall is big {i}" for i in range(12)]
    truth = ["correct"] * 12 + ["incorrect"] * 12
    seen = [23, 0, 22, 1, 21, 2, 20, 3, 19, 4]
    calls = []
    original = effort_play._train

    def spy(question, texts_, marked, marks):
        calls.append(sorted(map(int, np.flatnonzero(marked))))
        return original(question, texts_, marked, marks)

    monkeypatch.setattr(effort_play, "_train", spy)
    effort_play.play(record, texts, truth, "2way", "random", seed=0, first=seen)
    assert calls[0] == sorted(seen)  # the first model is trained on exactly the seen answers


def test_a_seen_answer_that_is_not_in_the_data_is_an_error(tmp_path, capsys):
    _folder(tmp_path)
    rubrics = tmp_path / "rubrics"
    (rubrics / "ECHO").mkdir(parents=True)
    (rubrics / "ECHO" / "question.yaml").write_text(RUBRIC, encoding="utf-8")
    (rubrics / "seen_ids.json").write_text(json.dumps({"ECHO": ["a0", "nobody"]}))
    assert main(["--data", str(tmp_path), "--scheme", "2way", "--rubrics", str(rubrics)]) == 2
    assert "'nobody', which is not an answer of ECHO" in capsys.readouterr().err
