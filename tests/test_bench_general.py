"""The leave-questions-out and learning-curve benchmarks on a small Beetle-shaped folder made
from the sample questions (the Beetle data itself is not part of the project)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from grader.bench import general as bench_general
from grader.bench import learning_curve
from grader.exams.exam_io import read_marked_answers
from knowledge import load_question
from tests.data import SAMPLE

LABELS = {"1": "correct", "0.5": "partially_correct_incomplete", "0": "contradictory"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("beetle-like")
    questions, rows = [], []
    for name in ("open_circuit_bulb", "resistor_current", "vertical_throw"):
        q = load_question(SAMPLE / name / "question.yaml")
        questions.append({"question_id": q.id, "question": q.text, "reference_answers": list(q.reference_answers)})
        m = read_marked_answers(SAMPLE / name / "marked.csv", marks=q.marks)
        for i, (a, mark) in enumerate(zip(m.answers[:30], m.marks[:30])):
            rows.append([f"{q.id}.{i}", q.id, a, LABELS[mark], "test" if i % 6 == 5 else "train"])
    (out / "questions.json").write_text(json.dumps(questions), encoding="utf-8")
    with open(out / "answers.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "question_id", "answer", "label_5way", "split"])
        w.writerows(rows)
    return out


def test_leave_questions_out_grades_each_question_with_a_model_not_trained_on_it(folder):
    answers, X = bench_general.beetle_features(folder)
    assert len(answers) == len(X) == 90
    params = {"ratio": 0.5, "z": 3.0, "improvement_threshold": 0.05, "confidence_threshold": 0.5,
              "n_resamples": 0, "default_rule": True}
    result = bench_general.leave_questions_out(answers, X, "2way", 0, params, split="test")
    assert len(result) == int((answers.split == "test").sum())
    assert result["mark"].notna().all()  # the default rule marks every answer
    f = bench_general.figures(result, 0.7)
    assert 0 <= f["accuracy"] <= 1 and len(f["per_question"]) == 5 and 0 <= f["flagged"] <= 1


def test_general_benchmark_prints_both_schemes(folder, capsys):
    assert bench_general.main(["--data", str(folder), "--resamples", "0"]) == 0
    out = capsys.readouterr().out
    assert "leave one question out" in out
    assert [line.split()[0] for line in out.splitlines() if line.startswith(("3way", "2way"))] == ["3way", "2way"]
    assert bench_general.main(["--data", str(folder / "nowhere")]) == 2


def test_a_played_teacher_marks_and_the_model_marks_the_rest(folder):
    from knowledge.schema import Question

    questions, answers = bench_general.load_beetle(folder)
    group = answers[answers.question_id == "vertical_throw"].reset_index(drop=True)
    record = questions["vertical_throw"]
    question = Question(record["question_id"], record["question"], tuple(record["reference_answers"]))
    truth = np.asarray(["correct" if y == "correct" else "incorrect" for y in group.label_5way], dtype=object)
    for order in ("random", "suggested"):
        curve = learning_curve.play(question, group.answer.tolist(), truth, order, (10, 20), 5, seed=1)
        assert sorted(curve) == [10, 20]  # 30 answers: 20 marked leaves the 10 a checkpoint needs
        for rest, whole in curve.values():
            assert 0 <= rest <= 1 and rest <= whole <= 1  # the teacher's own marks count as right


def test_learning_curve_prints_every_order(folder, capsys):
    argv = ["--data", str(folder), "--questions", "1", "--seeds", "1", "--orders", "random,suggested"]
    assert learning_curve.main(argv) == 0
    out = capsys.readouterr().out
    assert "1 question, " in out
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["random", "suggested"]
    assert learning_curve.main(["--data", str(folder), "--orders", "alphabetical"]) == 2
