"""What a marker waits for after a rubric edit or a batch of reviews (issue 17): only the
question that changed is trained again, its resampled models in worker processes, and the
marks are exactly those of opening the exam from scratch on the same files; the
cross-validation runs in the background, its figures used once ready and never shown for a
model they were not computed for."""

from __future__ import annotations

import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

import knowledge
from grader.app.background import FAILED, READY, RUNNING, UNKNOWN, BackgroundJobs, process_executor
from grader.app.cross_validation import CrossValidations
from grader.app.review_store import Decision
from grader.app.review_training import write_extended_training
from grader.app.model_cache import train_or_load
from grader.app.session import exam_id_for, extended_training_path, open_exam, prepare_sample
from grader.app.settings import AppSettings
from grader.grading.agreement import CHUNKS

def _settings(workdir: Path) -> AppSettings:
    return AppSettings.from_env({"GRADER_WORKDIR": str(workdir), "GRADER_SERVE_DIR": str(workdir)})


@pytest.fixture(scope="module")
def workers():
    pool = process_executor(CHUNKS, warm=("grader.grading.agreement",))
    yield pool
    pool.shutdown()


@pytest.fixture()
def opened(warm_workdir, tmp_path):
    """(settings, exam file, the exam opened) in a copy of the warm working folder."""
    work = tmp_path / "work"
    shutil.copytree(warm_workdir, work)
    settings = _settings(work)
    exam = prepare_sample(settings)
    return settings, exam, open_exam(exam, settings)


def _from_scratch(settings: AppSettings, tmp_path: Path, session):
    """The exam opened in a new working folder holding the same files and no trained model."""
    shutil.copytree(settings.workdir / "sample_data", tmp_path / "fresh" / "sample_data")
    fresh = _settings(tmp_path / "fresh")
    exam = prepare_sample(fresh)
    fresh_id = exam_id_for(exam, session.name)
    for qid in session.questions:
        ours = extended_training_path(settings, session.exam_id, qid)
        if ours.exists():
            theirs = extended_training_path(fresh, fresh_id, qid)
            theirs.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ours, theirs)
    assert not (fresh.workdir / "models").exists()
    return open_exam(exam, fresh)


def _what_it_does(model) -> dict:
    """The model file's content but for when it was trained and where its question file is."""
    data = model.to_dict()
    data["trained_on"].pop("time")
    data["question"].pop("source")
    return data


def _same_marks(session, scratch) -> None:
    for qid, qs in session.questions.items():
        other = scratch.questions[qid]
        assert _what_it_does(qs.model) == _what_it_does(other.model), qid  # rules, resamples, wording
        pd.testing.assert_frame_equal(qs.table.reset_index(drop=True), other.table.reset_index(drop=True))


def _edited(text: str, k: int) -> str:
    return re.sub(r"phrases: \[", f"phrases: [a teacher's synonym {k}, ", text, count=1)


def test_a_saved_rubric_gives_the_marks_of_a_fresh_start_and_only_its_question_is_trained(
        opened, tmp_path, workers):
    settings, exam, session = opened
    first = session
    path = settings.workdir / "sample_data" / "vertical_throw" / "question.yaml"
    for k in range(2):  # two edits one after the other: the marks are those of the last one
        knowledge.save_question_text(path, _edited(path.read_text(encoding="utf-8"), k))
        session = open_exam(exam, settings, previous=session, executor=workers)
    assert "a teacher's synonym 1" in str(session.questions["vertical_throw"].question)
    assert session.questions["vertical_throw"].model_key != first.questions["vertical_throw"].model_key
    for qid in ("open_circuit_bulb", "resistor_current"):  # not opened again: the same objects
        assert session.questions[qid] is first.questions[qid]
    _same_marks(session, _from_scratch(settings, tmp_path, session))


def test_learned_reviews_give_the_marks_of_a_fresh_start(opened, tmp_path, workers):
    settings, exam, session = opened
    qid = "open_circuit_bulb"
    qs = session.questions[qid]
    marks = list(qs.marks)
    decided = {}
    for batch in range(2):  # two batches of 10 reviews, each learned at once
        rows = qs.table.iloc[batch * 10:(batch + 1) * 10]
        for i, (aid, proposed) in enumerate(zip(rows["answer_id"], rows["proposed"])):
            new = marks[(marks.index(proposed) + 1) % len(marks)] if proposed in marks else marks[0]
            decided[(qid, aid)] = Decision(batch * 10 + i + 1, session.exam_id, qid, aid, "Tess", "", proposed,
                                           new, "", 0)
        write_extended_training(settings, session, qid, decided)
        before = session
        session = open_exam(exam, settings, previous=session, executor=workers)
        qs = session.questions[qid]
        assert qs.training_extended and qs.training_size == before.questions[qid].training_size + 10
        assert session.questions["vertical_throw"] is before.questions["vertical_throw"]
    _same_marks(session, _from_scratch(settings, tmp_path, session))


def test_an_unchanged_exam_opened_again_trains_nothing(opened):
    settings, exam, session = opened
    again = open_exam(exam, settings, previous=session)
    assert all(again.questions[q] is session.questions[q] for q in session.questions)
    # the export changed (one answer rewritten): that question is graded again, with its model
    export = exam.parent / "responses.csv"
    text = export.read_text(encoding="utf-8-sig")
    first_answer = session.questions["vertical_throw"].table["answer"].iloc[0]
    export.write_text(text.replace(first_answer, first_answer + " for sure", 1), encoding="utf-8")
    changed = open_exam(exam, settings, previous=again)
    assert changed.questions["vertical_throw"] is not again.questions["vertical_throw"]
    assert changed.questions["vertical_throw"].table["answer"].iloc[0] == first_answer + " for sure"


def test_a_model_file_is_read_once_while_it_stays_as_it_is(opened):
    settings, exam, session = opened
    spec = session.exam.questions[0]
    first, key = train_or_load(spec.question, spec.training, settings.workdir / "models")
    again, _ = train_or_load(spec.question, spec.training, settings.workdir / "models")
    assert again is first
    [path] = (settings.workdir / "models").glob(f"*-{key}.json")
    path.write_text(path.read_text(encoding="utf-8").replace('"answers"', '"answers" ', 1), encoding="utf-8")
    changed, _ = train_or_load(spec.question, spec.training, settings.workdir / "models")
    assert changed is not first and changed.fingerprint() == first.fingerprint()


# -- background jobs -------------------------------------------------------------------------

def test_a_background_result_is_used_once_it_is_ready():
    jobs = BackgroundJobs()
    go = threading.Event()
    jobs.submit("model-1", "q", lambda: go.wait(10) and {"accuracy": 0.9})
    assert jobs.state("model-1") == (RUNNING, None)
    assert jobs.state("never asked") == (UNKNOWN, None)
    go.set()
    assert jobs.wait("model-1", 10) == (READY, {"accuracy": 0.9})
    jobs.submit("model-1", "q", lambda: {"accuracy": 0.0})  # the same key: not run again
    assert jobs.state("model-1") == (READY, {"accuracy": 0.9})
    jobs.submit("broken", "r", lambda: 1 / 0)
    status, error = jobs.wait("broken", 10)
    assert status == FAILED and isinstance(error, ZeroDivisionError)
    jobs.shutdown()


def test_a_newer_job_of_a_question_cancels_its_older_one_still_waiting():
    jobs = BackgroundJobs()  # one worker: a job waits while another runs
    busy = threading.Event()
    jobs.submit("other question", "p", lambda: busy.wait(10))
    ran = []
    jobs.submit("edit 1", "q", lambda: ran.append("edit 1"))
    jobs.submit("edit 2", "q", lambda: ran.append("edit 2") or "figures of edit 2")
    assert jobs.state("edit 1") == (UNKNOWN, None) and jobs.latest("q") == "edit 2"
    busy.set()
    assert jobs.wait("edit 2", 10) == (READY, "figures of edit 2")
    assert ran == ["edit 2"]
    jobs.shutdown()


@dataclass
class _Question:
    """What CrossValidations reads of a QuestionSession."""

    id: str
    model_key: str
    question_path: Path
    training_path: Path
    question: object = None
    marks: tuple = ("0", "1")


def test_figures_are_never_shown_for_a_model_they_were_not_computed_for(tmp_path, monkeypatch):
    from grader.app import cross_validation

    release = {"old": threading.Event(), "new": threading.Event()}

    def fake_cv(question, answers, marks, folds, cached):  # the old job outlives the newer edit
        which = "old" if "model-old" in str(cached) else "new"
        release[which].wait(10)
        return {"accuracy": {"old": 0.1, "new": 0.9}[which]}

    monkeypatch.setattr(cross_validation, "evaluate_to_file", fake_cv)
    training = tmp_path / "marked.csv"
    training.write_text("id,answer,mark\na,yes,1\nb,no,0\n", encoding="utf-8")
    (tmp_path / "q").mkdir()
    old = _Question("q", "model-old", tmp_path / "q" / "question.yaml", training)
    new = _Question("q", "model-new", tmp_path / "q" / "question.yaml", training)
    cv = CrossValidations(tmp_path / "models", BackgroundJobs(lambda: ThreadPoolExecutor(2)))
    assert cv.state(old) == (RUNNING, None)  # the Marks view opened on the old model
    assert cv.state(new) == (RUNNING, None)  # the rubric saved: the new model asked for
    release["old"].set()
    cv.jobs.wait(cv.key(old), 10)
    assert cv.state(new) == (RUNNING, None)  # the old figures are done, and not the new model's
    assert cv.running(new) and not cv.running(old)
    release["new"].set()
    assert cv.wait(new, 10) == (READY, {"accuracy": 0.9})
    assert not cv.running(new)
    cv.jobs.shutdown()
