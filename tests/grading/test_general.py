"""The general model: question-independent features, the common scale, training on some
questions and marking another, the model file, and the command line."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest

from grader.cli import main
from grader.confold.model_file import ModelFileError
from grader.exams.exam_io import read_marked_answers
from grader.grading.general import GeneralModel, features_for, mark_map, positions
from grader.grading.general_features import GENERAL_FEATURES, condition_phrase, hedges
from grader.grading.model import GradingModel
from knowledge import load_question
from tests.data import SAMPLE

NAMES = ("open_circuit_bulb", "resistor_current", "vertical_throw")


def sample(name: str):
    question = load_question(SAMPLE / name / "question.yaml")
    marked = read_marked_answers(SAMPLE / name / "marked.csv", marks=question.marks)
    return question, marked.answers, marked.marks


@pytest.fixture(scope="module")
def trained() -> GeneralModel:
    return GeneralModel.train([sample(NAMES[0]), sample(NAMES[1])], n_resamples=3)


def test_scale_maps_to_the_nearest_mark_and_ties_go_down():
    scale = ["0", "0.5", "1"]
    assert mark_map(scale, positions(scale), ["0", "0.5", "1"]) == {"0": "0", "0.5": "0.5", "1": "1"}
    assert mark_map(scale, positions(scale), []) == {"0": "0", "0.5": "0.5", "1": "1"}
    assert mark_map(scale, positions(scale), ["wrong", "right"]) == {"0": "wrong", "0.5": "wrong", "1": "right"}
    assert mark_map(scale, positions(scale), ["0", "1", "2", "3", "4"]) == {"0": "0", "0.5": "2", "1": "4"}


def test_questions_with_other_marks_train_on_levels():
    q1, a1, m1 = sample(NAMES[0])
    q2, a2, m2 = sample(NAMES[1])
    renamed = {"0": "no", "0.5": "half", "1": "yes"}
    import dataclasses

    q2 = dataclasses.replace(q2, marks=("no", "half", "yes"))
    model = GeneralModel.train([(q1, a1, m1), (q2, a2, [renamed[m] for m in m2])], n_resamples=0)
    assert model.scale == ["none", "partial", "full"]
    assert set(map(str, model.learner.classes_)) <= {"none", "partial", "full"}


def test_hedging():
    assert hedges("maybe the gap?")
    assert hedges("I'm not sure, the current stops")
    assert not hedges("there is a gap so no current flows")


def test_general_features_have_the_same_columns_for_every_question():
    q, answers, _ = sample("vertical_throw")
    X = features_for(q, ["9.8 m/s^2 downward", "i don't know", "maybe 5 m/s^2 up?"])
    assert list(X.columns) == list(GENERAL_FEATURES)
    assert X.loc[0, "quantities"] == "correct"
    assert X.loc[2, "quantities"] == "wrong"
    assert X.loc[1, "non_answer"] == "yes" and X.loc[2, "hedging"] == "yes"
    q2, _, _ = sample("open_circuit_bulb")
    Y = features_for(q2, ["there is a gap in the circuit"])
    assert list(Y.columns) == list(GENERAL_FEATURES)
    assert Y.loc[0, "quantities"] == "not_asked"
    assert Y.loc[0, "coverage"] > 0


def test_conditions_read_as_a_teacher_speaks():
    assert condition_phrase("coverage", "<=", 0.0) == "states none of a reference answer"
    assert condition_phrase("ref_denied", ">", 0.25) == "denies more than 25% of the reference answers' words"
    assert condition_phrase("quantities", "==", "correct") == "gives every quantity asked for, right"
    assert "_" not in condition_phrase("non_answer", "!=", "yes")


def test_marks_a_question_it_has_not_seen(trained):
    question, answers, marks = sample(NAMES[2])
    grader = trained.for_question(question)
    graded = grader.grade(answers)
    own = GradingModel.train(question, answers[:60], marks[:60], n_resamples=0).grade(answers[:3])
    assert list(graded.columns) == list(own.columns)
    assert len(graded) == len(answers)
    marked = graded["mark"].dropna()
    assert set(marked) <= set(question.marks)
    assert graded["explanation"].str.contains("general model, no marked answers of this question").all()
    accuracy = float((graded["mark"].to_numpy(dtype=object) == np.asarray(marks, dtype=object)).mean())
    assert accuracy > max(marks.count(m) for m in set(marks)) / len(marks) - 0.15  # near or above the commonest mark
    blank = grader.grade(["", "-"])
    assert blank["flagged"].all() and blank["needs_human"].all()


def test_features_the_caller_has_give_the_same_marks(trained):
    """The app reads the answers once and passes their features to `grade` (as to a
    question's own model); a repeated answer reads its first occurrence's row."""
    question, answers, _ = sample(NAMES[2])
    answers = answers[:30] + answers[:5]
    grader = trained.for_question(question)
    pd.testing.assert_frame_equal(grader.grade(answers, features=grader.features(answers)), grader.grade(answers))


def test_model_file_round_trip_and_damage(trained, tmp_path):
    path = tmp_path / "general.json"
    trained.save(path)
    again = GeneralModel.load(path)
    question, answers, _ = sample(NAMES[2])
    a = trained.for_question(question).grade(answers[:40])
    b = again.for_question(question).grade(answers[:40])
    assert a["mark"].tolist() == b["mark"].tolist()
    assert np.allclose(a["confidence"].to_numpy(dtype=float), b["confidence"].to_numpy(dtype=float), equal_nan=True)
    assert again.fingerprint() == trained.fingerprint()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["features"] = ["coverage"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="damaged general model file"):
        GeneralModel.load(path)


def test_the_same_question_twice_is_an_error():
    with pytest.raises(ValueError, match="given twice"):
        GeneralModel.train([sample(NAMES[0]), sample(NAMES[0])], n_resamples=0)


def _write(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def test_command_line(tmp_path, capsys):
    pairs = [f"{SAMPLE / n / 'question.yaml'}:{SAMPLE / n / 'marked.csv'}" for n in NAMES[:2]]
    model = tmp_path / "general.json"
    argv = ["train-general", "--pair", pairs[0], "--pair", pairs[1], "--model", model, "--resamples", "2"]
    assert main([str(a) for a in argv]) == 0
    assert "general model written to" in capsys.readouterr().out
    exam = _write(tmp_path / "exam.csv", [["id", "answer"], ["s1", "9.8 m/s^2 downwards"], ["s2", "idk"],
                                          ["s3", ""]])
    out = tmp_path / "graded.csv"
    question = SAMPLE / NAMES[2] / "question.yaml"
    code = main([str(a) for a in ["grade", "--model", model, "--question", question, "--answers", exam,
                                  "--out", out, "--no-progress"]])
    err = capsys.readouterr().err
    assert code == 0 and "expect most answers to be flagged" in err
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert [r["id"] for r in rows] == ["s1", "s2", "s3"]
    assert rows[2]["flagged"] == "yes"
    assert all(r["mark"] in ("", "0", "0.5", "1") for r in rows)
    code = main([str(a) for a in ["grade", "--model", model, "--answers", exam, "--out", tmp_path / "x.csv"]])
    assert code == 2 and "give the question to mark with --question" in capsys.readouterr().err
    bad = main([str(a) for a in ["train-general", "--pair", "nocolon", "--model", tmp_path / "g.json"]])
    assert bad == 2 and "QUESTION.yaml:MARKED.csv" in capsys.readouterr().err


def test_command_line_refusals(tmp_path, capsys):
    pairs = [f"{SAMPLE / n / 'question.yaml'}:{SAMPLE / n / 'marked.csv'}" for n in NAMES[:2]]
    model = tmp_path / "general.json"
    argv = ["train-general", "--pair", pairs[0], "--pair", pairs[1], "--model", model, "--resamples", "0"]
    assert main([str(a) for a in argv]) == 0
    assert main([str(a) for a in argv]) == 0  # a general model file is a model file: replaced without --force
    exam_csv = _write(tmp_path / "exam.csv", [["id", "answer"], ["s1", "9.8 m/s^2 down"]])
    question = SAMPLE / NAMES[2] / "question.yaml"
    capsys.readouterr()
    code = main([str(a) for a in ["grade", "--model", model, "--question", question, "--answers", exam_csv,
                                  "--out", tmp_path / "g.csv", "--target-accuracy", "0.9"]])
    assert code == 2 and "needs a question's own model" in capsys.readouterr().err
    own = tmp_path / "own.json"
    q, answers, marks = sample(NAMES[2])
    GradingModel.train(q, answers, marks, n_resamples=0).save(own)
    code = main([str(a) for a in ["grade", "--model", own, "--question", question, "--answers", exam_csv,
                                  "--out", tmp_path / "g.csv"]])
    assert code == 2 and "--question is only for a general model" in capsys.readouterr().err
    exam = tmp_path / "exam.yaml"
    exam.write_text(f"answers: exam.csv\nlayout: long\nquestions:\n  - id: vt\n    question: {question}\n",
                    encoding="utf-8")
    code = main([str(a) for a in ["grade", "--exam", exam, "--out", tmp_path / "g.csv"]])
    assert code == 2 and "has no marked answers" in capsys.readouterr().err
