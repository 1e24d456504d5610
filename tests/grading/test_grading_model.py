"""The grading model: train, grade, explain, save/load (grader.grading.model)."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest

from grader.exams.batch import grade_file
from grader.grading.model import GradingModel, ModelFileError
from tests.data import marked_answers, small_question


@pytest.fixture(scope="module")
def model() -> GradingModel:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks)


NEW = ["there's a gap in the circuit so the current can't flow", "the battery is flat i think",
       "", "   ", "=cmd() gap no current", "the gap stops the current"]


def test_grade_gives_marks_rules_and_flags(model):
    graded = model.grade(NEW, flag_below=0.7)
    assert list(graded.columns) == ["mark", "confidence", "flagged", "rule", "explanation", "needs_human", "feedback"]
    assert (graded["flagged"] >= graded["needs_human"]).all()  # needs_human is flagged whatever the threshold
    assert len(graded) == len(NEW)
    assert graded.loc[0, "mark"] == "1" and graded.loc[5, "mark"] == "1"
    assert graded.loc[1, "mark"] in ("0", None)
    marked = graded["mark"].notna().to_numpy()
    # a rule text exactly where there is a mark; a confidence exactly there too
    assert np.array_equal(graded["rule"].to_numpy() != "", marked)
    assert np.array_equal(np.isfinite(graded["confidence"].to_numpy(dtype=float)), marked)
    expected_flags = ~marked | ~(graded["confidence"].fillna(-1).to_numpy() >= 0.7)
    expected_flags[[2, 3]] = True  # blank answers are always flagged
    assert np.array_equal(graded["flagged"].to_numpy(dtype=bool), expected_flags)
    assert graded.loc[2, "explanation"].startswith("blank answer")
    for i in np.flatnonzero(marked):
        assert graded.loc[i, "rule"].startswith("R")
        mark = graded.loc[i, "mark"]
        assert f"{mark} {'mark' if mark == '1' else 'marks'} by rule " in graded.loc[i, "explanation"]


def test_flag_threshold_moves_flags(model):
    low = model.grade(NEW, flag_below=0.0)["flagged"].to_numpy(dtype=bool)
    high = model.grade(NEW, flag_below=1.0)["flagged"].to_numpy(dtype=bool)
    assert (low <= high).all()
    assert high.all() or (model.grade(NEW)["confidence"] >= 1.0).any()


def test_marks_agree_with_the_learner(model):
    X = model.features(NEW)
    labels, confidences, index, agreement, support, _, borrowed, _ = model.decide(X, NEW)
    learner_labels, learner_conf = model.learner.predict_with_confidence(X)
    # the learner's mark, unless most resampled rule lists give another (test_agreement.py)
    assert list(labels) == [m if b is None else model.borrowed_rule(b).head
                            for m, b in zip(learner_labels, borrowed)]
    assert all(b is None for b in borrowed)  # these answers are clear: no vote changes a mark
    # the confidence is how many of the rule lists (the model's and its resamples') give the
    # mark, (k + 1) / (n + 2), times the wording support of the mark (1 where the wording agrees)
    n = len(model.agreement.rule_lists_)
    giving = (pd.notna(pd.Series(learner_labels, dtype=object)).to_numpy() + agreement * n)
    np.testing.assert_allclose(confidences, np.where(index < 0, np.nan, (giving + 1) / (n + 3)) * support,
                               equal_nan=True)
    assert (np.isnan(support) == (index < 0)).all()
    assert ((support[index >= 0] > 0) & (support[index >= 0] <= 1)).all()
    assert ((index >= 0) == pd.notna(pd.Series(labels, dtype=object))).all()


def test_trained_on_records_the_training_set(model):
    assert model.trained_on["answers"] == 100
    assert model.trained_on["marks"] == {"0": 50, "1": 50}
    assert model.question.marks == ("0", "1")


def test_explain_is_the_learners_justification(model):
    explanation = model.explain(NEW[0])
    assert explanation.label == model.grade([NEW[0]])["mark"][0]
    assert "1" in explanation.text()
    assert json.dumps(explanation.to_dict(), default=str)


def test_marks_are_read_off_the_answers_when_the_question_has_none():
    answers, marks = marked_answers()
    question = small_question(marks=())
    model = GradingModel.train(question, answers, ["0.0" if m == "0" else "1" for m in marks])
    assert model.question.marks == ("0.0", "1")
    assert question.marks == ()  # the caller's question is left alone


def test_bad_training_input_is_a_clear_value_error():
    answers, marks = marked_answers()
    with pytest.raises(ValueError, match=r"marks '2' are not among the question's marks"):
        GradingModel.train(small_question(), answers, marks[:-1] + ["2"])
    with pytest.raises(ValueError, match="100 answers but 99 marks"):
        GradingModel.train(small_question(), answers, marks[:-1])
    with pytest.raises(ValueError, match="at least two different marks"):
        GradingModel.train(small_question(), answers, ["1"] * len(answers))


def test_save_and_load_round_trip(model, tmp_path):
    path = tmp_path / "model.json"
    model.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "physics-grader-model" and data["format_version"] == 3
    loaded = GradingModel.load(path)
    pd.testing.assert_frame_equal(loaded.grade(NEW), model.grade(NEW))
    assert loaded.rules("text") == model.rules("text")
    assert loaded.rules("asp") == model.rules("asp")
    assert loaded.trained_on == model.trained_on
    assert loaded.question == model.question
    assert loaded.fingerprint() == GradingModel.load(path).fingerprint()
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]


@pytest.mark.parametrize("content,message", [
    ("{not json", "invalid JSON at line 1"),
    ('{"hello": 1}', "not a grading model file"),
    ('{"format": "physics-grader-model", "format_version": 99}', "newer version"),
    ('{"format": "physics-grader-model", "format_version": 1, "question": {}}', "missing extractor"),
])
def test_bad_model_files_are_refused_clearly(tmp_path, content, message):
    path = tmp_path / "m.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ModelFileError, match=message):
        GradingModel.load(path)


def test_damaged_parts_are_a_model_file_error(model, tmp_path):
    data = model.to_dict()
    data["learner"] = {"garbage": True}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="damaged"):
        GradingModel.load(path)


def test_rules_formats(model):
    text = model.rules("text")
    assert text.startswith("R1 [") and len(text.splitlines()) >= len(model.learner.rules_)
    assert "mark(X," in model.rules("asp")
    with pytest.raises(ValueError, match="unknown rules format"):
        model.rules("xml")


def test_batch_grading_a_file_gives_what_grade_gives(model, tmp_path):
    src = tmp_path / "exam.csv"
    with open(src, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "answer"])
        w.writerows([[f"s{i}", a] for i, a in enumerate(NEW * 7)])
    grade_file(src, tmp_path / "out.csv", model, chunk_size=4, progress=False)
    rows = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8-sig"), newline="")))
    expected = model.grade(NEW * 7)
    assert [r[2] for r in rows[1:]] == [m or "" for m in expected["mark"]]
    assert [r[4] == "yes" for r in rows[1:]] == expected["flagged"].tolist()
    assert rows[5][1] == "'=cmd() gap no current"


def test_identical_answers_are_analysed_once(model, monkeypatch):
    seen = []
    transform = model.extractor.transform

    def recording(answers):
        seen.append(list(answers))
        return transform(answers)

    monkeypatch.setattr(model.extractor, "transform", recording)
    repeated = model.grade(NEW * 3 + NEW[:2])
    assert seen == [[a for a in NEW if a != "   "]]  # every blank answer is the empty answer
    separately = pd.concat([model.grade([a]) for a in NEW * 3 + NEW[:2]], ignore_index=True)
    pd.testing.assert_frame_equal(repeated, separately)


def test_rules_on_features_the_extractor_does_not_make_are_a_knowledge_error():
    from knowledge import KnowledgeError

    from grader.confold.rules import Literal, Rule

    answers, marks = marked_answers()
    question = small_question()
    question.initial_rules = [Rule("1", (Literal("concept:gpa", "==", "present"),), origin="initial")]
    with pytest.raises(KnowledgeError, match="gpa"):
        GradingModel.train(question, answers, marks)


def test_training_reports_progress():
    answers, marks = marked_answers()
    steps = []
    GradingModel.train(small_question(), answers, marks, progress=lambda f, msg: steps.append((f, msg)))
    fractions = [f for f, _ in steps]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert all(isinstance(msg, str) and msg for _, msg in steps)


def test_fingerprint_identifies_what_the_model_does(model, tmp_path):
    answers, marks = marked_answers()
    again = GradingModel.train(small_question(), answers, marks)
    again.trained_on["time"] = "another time"
    assert again.fingerprint() == model.fingerprint()  # retraining on the same answers: same model
    model.save(tmp_path / "m.json")
    assert GradingModel.load(tmp_path / "m.json").fingerprint() == model.fingerprint()
    other = GradingModel.train(small_question(), answers, marks, confidence_threshold=0.95)
    assert other.fingerprint() != model.fingerprint()


def test_features_found_leave_out_absences(model):
    found = model.features_found("there is no battery, the gap stops it")
    assert found["concept:gap"] == "present"
    assert "concept:current" not in found  # absent
    assert found["length"] == pytest.approx(model.features(["there is no battery, the gap stops it"])["length"][0])
    assert not any(v in ("absent", "missing", "no") for v in found.values())


@pytest.mark.parametrize("answer", ["-", "  ?? ", "...", None, float("nan")])
def test_no_response_markers_are_blank_answers(model, answer):
    graded = model.grade([answer, "the gap stops the current"], flag_below=0.0)
    assert graded["flagged"].tolist() == [True, False]
    assert graded.loc[0, "explanation"].startswith("blank answer")
