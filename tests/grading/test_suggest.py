"""Suggesting the answers worth marking, the seeded model, and `grader suggest`."""

from __future__ import annotations

import csv
import json

import numpy as np
import pandas as pd
import pytest

from grader.cli import main
from grader.grading.general import GeneralModel
from grader.grading.seeded import SeededModel
from grader.grading.suggest import MIN_MARKED_FOR_MODEL, current_model, next_answers, suggest
from tests.data import SAMPLE, marked_answers, small_question

GAP = ["there is a gap in the circuit", "a gap in the circuit", "there is a gap in the circuit so no current",
       "the circuit has a gap", "gap in circuit"]
BATTERY = ["the battery is dead", "battery is dead", "the battery is flat"]
ODD = ["i dont know"]


def test_first_suggestions_represent_the_largest_groups_and_cover_the_variety():
    answers = GAP + BATTERY + ODD
    picks = suggest(answers, [False] * len(answers), 3)
    groups = [("gap" in answers[p.index]) * 1 + ("battery" in answers[p.index]) * 2 for p in picks]
    assert groups[0] == 1  # the largest group first
    assert sorted(groups) == [0, 1, 2]  # one of each group, not two of the largest
    assert picks[0].similar >= 3 and "answers like it" in picks[0].reason


def test_a_suggestion_names_the_answers_it_stands_for():
    answers = GAP + BATTERY + ODD + ["there is a gap in the circuit"]  # a copy counts too
    marked = [False] * len(answers)
    marked[1] = True  # a marked answer is never a member
    picks = suggest(answers, marked, 3)
    for p in picks:
        assert len(p.members) == p.similar and p.members[0] == p.index
        assert not any(marked[i] for i in p.members)
    gap = next(p for p in picks if "gap" in answers[p.index])
    assert {answers[i] for i in gap.members} <= set(GAP) and len(gap.members) >= 3
    assert not any("battery" in answers[i] for i in gap.members)


def test_marked_and_duplicate_answers_are_not_suggested_twice():
    answers = ["gap", "gap", "Gap", "battery", "battery", "idk"]
    marked = [True, False, False, False, False, False]
    picks = suggest(answers, marked, 10)
    texts = [answers[p.index].lower() for p in picks]
    assert "gap" not in texts  # a marked answer's copies are settled by its mark
    assert sorted(texts) == ["battery", "idk"]
    assert all(not marked[p.index] for p in picks)


def test_the_model_s_uncertainty_weighs_the_choice():
    answers = ["the bulb is broken"] * 3 + ["the switch is open"] * 3
    confidence = [0.95] * 3 + [0.2] * 3
    picks = suggest(answers, [False] * 6, 1, confidence)
    assert answers[picks[0].index] == "the switch is open"
    assert "confidence in its mark: 0.20" in picks[0].reason
    sure_first = suggest(answers, [False] * 6, 1, [0.2] * 3 + [0.95] * 3)
    assert answers[sure_first[0].index] == "the bulb is broken"


def test_the_reason_names_the_mark_whose_confidence_it_gives():
    answers = ["the bulb is broken"] * 3 + ["the switch is open"] * 3
    picks = suggest(answers, [False] * 6, 2, [0.95] * 3 + [0.2] * 3, ["0"] * 3 + ["1"] * 3)
    assert picks[0].reason.endswith("the model would mark it 1, with confidence 0.20") and picks[0].mark == "1"
    assert picks[1].reason.endswith("the model would mark it 0, with confidence 0.95") and picks[1].mark == "0"


def test_lengths_must_agree():
    with pytest.raises(ValueError, match="3 answers but 2 marked flags"):
        suggest(["a", "b", "c"], [False, False], 1)


@pytest.fixture(scope="module")
def general() -> GeneralModel:
    from grader.exams.exam_io import read_marked_answers
    from knowledge import load_question

    pairs = []
    for name in ("open_circuit_bulb", "resistor_current"):
        q = load_question(SAMPLE / name / "question.yaml")
        m = read_marked_answers(SAMPLE / name / "marked.csv", marks=q.marks)
        pairs.append((q, m.answers, m.marks))
    return GeneralModel.train(pairs, n_resamples=0)


def test_a_model_is_trained_once_enough_answers_of_two_marks_are_marked(general):
    answers, marks = marked_answers()
    question = small_question()
    few = [m if i < MIN_MARKED_FOR_MODEL - 1 else None for i, m in enumerate(marks)]
    assert current_model(question, answers, few) is None
    enough = [m if i < 30 else None for i, m in enumerate(marks)]
    assert len(set(marks[:30])) == 2
    picks, model = next_answers(question, answers, enough, 5)
    assert model is not None and len(picks) == 5 and all(enough[p.index] is None for p in picks)
    assert all(p.confidence is None or 0 <= p.confidence <= 1 for p in picks)
    seeded = current_model(question, answers, few, general)
    assert isinstance(seeded, SeededModel) and seeded.own is None


def test_seeded_model_takes_the_general_mark_where_its_own_gives_none(general):
    answers, marks = marked_answers()
    question = small_question()
    own = current_model(question, answers[:30], marks[:30])
    seeded = SeededModel(own, general.for_question(question))
    mine = own.grade(answers)
    graded = seeded.grade(answers)
    pd.testing.assert_frame_equal(seeded.grade(answers, features=seeded.features(answers)), graded)
    theirs = seeded.general.grade(answers)
    assert len(graded) == len(answers)
    # the answers the own model's rules leave (its vote may still propose a mark for them)
    left = own.learner.predict_rules(own.features(answers))[2] < 0
    none = (mine["mark"].isna().to_numpy() | left) & theirs["mark"].notna().to_numpy()
    assert (graded["mark"][none] == theirs["mark"][none]).all()
    kept = mine["mark"].notna().to_numpy() & ~left
    assert kept.any() and (graded["mark"][kept] == mine["mark"][kept]).all()  # the own model's marks stand
    assert graded["rule"][none].str.startswith("G").all() and not graded["rule"][kept].str.startswith("G").any()
    # the choice of answers to mark is weighed by the own model: an answer it leaves unmarked is least sure
    from grader.grading.suggest import choice_confidence

    conf = choice_confidence(seeded, answers)
    assert np.isnan(conf[mine["mark"].isna().to_numpy()]).all()
    assert set(graded["mark"].dropna()) <= set(question.marks)
    assert seeded.fingerprint() != general.fingerprint()
    assert np.isfinite(graded["confidence"].to_numpy(dtype=float)[graded["mark"].notna().to_numpy()]).all()


def _write(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def test_command_line(tmp_path, capsys):
    answers, marks = marked_answers()
    question = tmp_path / "q.yaml"
    from tests.data import QUESTION_YAML

    question.write_text(QUESTION_YAML, encoding="utf-8")
    exam = _write(tmp_path / "exam.csv", [["id", "answer"]] + [[f"s{i}", a] for i, a in enumerate(answers)])
    code = main(["suggest", "--question", str(question), "--answers", str(exam), "-n", "4"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("next 4 answer(s) to mark (0 answer(s) marked")
    assert len([line for line in out.splitlines() if line.strip()[:2].rstrip(".").isdigit()]) == 4
    so_far = _write(tmp_path / "so_far.csv", [["id", "answer", "mark"]]
                    + [[f"s{i}", a, m] for i, (a, m) in enumerate(zip(answers[:20], marks[:20]))])
    code = main(["suggest", "--question", str(question), "--answers", str(exam), "--marked", str(so_far),
                 "-n", "3", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and len(report["suggestions"]) == 3
    assert "weighed by the model" in report["note"]
    assert all(int(s["id"][1:]) >= 20 for s in report["suggestions"])  # marked answers are not suggested


def test_seeded_and_general_models_explain_a_mark_in_words(general):
    question = small_question()
    grader = general.for_question(question)
    text = grader.explain("there is a gap in the circuit").text()
    assert isinstance(text, str) and text
    assert set(grader.descriptions) >= {"coverage", "quantities", "hedging"}
    answers, marks = marked_answers()
    seeded = SeededModel(current_model(question, answers[:30], marks[:30]), grader)
    assert seeded.explain(answers[40]).text()
    assert seeded.descriptions == seeded.own.descriptions


def test_command_line_with_a_general_model(general, tmp_path, capsys):
    from tests.data import QUESTION_YAML

    answers, _ = marked_answers()
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    exam = _write(tmp_path / "exam.csv", [["id", "answer"]] + [[f"s{i}", a] for i, a in enumerate(answers)])
    model = tmp_path / "general.json"
    general.save(model)
    code = main(["suggest", "--question", str(question), "--answers", str(exam), "--general", str(model),
                 "-n", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and "weighed by the general model's confidence" in report["note"]
    assert all(f"the model would mark it {s['model_mark']}, with confidence" in s["reason"]
               or "no mark" in s["reason"] for s in report["suggestions"])
    assert any(s["model_mark"] in ("0", "1") for s in report["suggestions"])


def test_seeded_model_takes_the_general_mark_where_only_the_own_vote_proposes_one(general, tmp_path):
    from grader.confold.rules import Rule
    from grader.grading.model import GradingModel

    answers, marks = marked_answers()
    question = small_question()
    current_model(question, answers[:30], marks[:30]).save(tmp_path / "own.json")
    own = GradingModel.load(tmp_path / "own.json")
    own.learner.rules_ = own.learner.rules_[:1]  # its own rules leave many answers
    own.agreement.rule_lists_ = [[Rule(head="0", body=(), confidence=0.6)]]  # a resample marks them all 0
    left = own.learner.predict_rules(own.features(answers))[2] < 0
    assert left.any() and own.grade(answers)["mark"][left].notna().all()  # the own vote proposes a mark
    seeded = SeededModel(own, general.for_question(question))
    theirs = seeded.general.grade(answers)
    use = left & theirs["mark"].notna().to_numpy()
    assert use.any()
    graded = seeded.grade(answers)
    assert (graded["mark"][use] == theirs["mark"][use]).all() and graded["rule"][use].str.startswith("G").all()
