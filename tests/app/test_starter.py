"""Opening an exam whose questions have no marked answers: the general model's marks, the
answers worth marking first (Start view), and the model trained again as they are marked."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from grader.app.review_store import ReviewStore  # noqa: E402
from grader.app.review_training import extended_training_text  # noqa: E402
from grader.app.model_cache import train_or_load  # noqa: E402
from grader.app.session import open_exam  # noqa: E402
from grader.app.settings import REPO, AppSettings  # noqa: E402
from grader.app.starter import NO_MODEL_NOTE, RetrainJobs, retrain_due, retrain_job  # noqa: E402
from grader.app.uploads import save_upload  # noqa: E402
from grader.exams.exam_io import read_marked_answers  # noqa: E402
from grader.grading.general import NOT_TRAINED_NOTE, GeneralModel  # noqa: E402
from knowledge import load_question  # noqa: E402
from tests.data import SAMPLE  # noqa: E402
from tests.app.test_app import view_radio  # noqa: E402

QUESTION = "open_circuit_bulb"


def _marked():
    q = load_question(SAMPLE / QUESTION / "question.yaml")
    return read_marked_answers(SAMPLE / QUESTION / "marked.csv", marks=q.marks)


@pytest.fixture()
def bare_exam(tmp_path) -> Path:
    """An exam of one question with its question file and an export, and no marked answers."""
    marked = _marked()
    with open(tmp_path / "export.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "answer"])
        w.writerows([[i, a] for i, a in zip(marked.ids[:60], marked.answers[:60])])
    (tmp_path / "question.yaml").write_bytes((SAMPLE / QUESTION / "question.yaml").read_bytes())
    exam = tmp_path / "exam.yaml"
    exam.write_text("name: Bare exam\nanswers: export.csv\nlayout: long\nid_column: id\n"
                    f"questions:\n  - id: {QUESTION}\n    question: question.yaml\n", encoding="utf-8")
    return exam


@pytest.fixture(scope="module")
def general_file(tmp_path_factory) -> Path:
    pairs = []
    for name in ("resistor_current", "vertical_throw"):
        q = load_question(SAMPLE / name / "question.yaml")
        m = read_marked_answers(SAMPLE / name / "marked.csv", marks=q.marks)
        pairs.append((q, m.answers, m.marks))
    path = tmp_path_factory.mktemp("general") / "general.json"
    GeneralModel.train(pairs, n_resamples=0).save(path)
    return path


def _settings(tmp_path, general: Path | None = None) -> AppSettings:
    env = {"GRADER_WORKDIR": str(tmp_path / "work"), "GRADER_SERVE_DIR": str(tmp_path)}
    if general is not None:
        env["GRADER_GENERAL_MODEL"] = str(general)
    return AppSettings.from_env(env)


def test_a_question_without_marked_answers_opens_with_nothing_marked(bare_exam, tmp_path):
    session = open_exam(bare_exam, _settings(tmp_path))
    qs = session.questions[QUESTION]
    assert qs.starter and qs.training_size == 0
    assert qs.table["proposed"].isna().all() and qs.table["needs_human"].all()
    assert (qs.table["explanation"] == NO_MODEL_NOTE).all()
    # groups (one decision for a whole group) hold identical answers only
    for _, members in qs.table.groupby("group"):
        assert members["answer"].str.lower().str.split().str.join(" ").nunique() == 1
    assert qs.model.explain("a gap").text() == NO_MODEL_NOTE


def test_the_general_model_marks_it_when_configured(bare_exam, tmp_path, general_file):
    session = open_exam(bare_exam, _settings(tmp_path, general_file))
    table = session.questions[QUESTION].table
    assert table["proposed"].notna().all()
    assert set(table["proposed"]) <= {"0", "0.5", "1"}
    assert table["explanation"].str.contains(NOT_TRAINED_NOTE).all()


def test_a_missing_general_model_setting_is_named():
    with pytest.raises(ValueError, match="GRADER_GENERAL_MODEL"):
        AppSettings.from_env({"GRADER_GENERAL_MODEL": "/no/such/general.json"})


def test_marks_so_far_train_the_question_s_model_in_the_background(bare_exam, tmp_path, general_file):
    settings = _settings(tmp_path, general_file)
    session = open_exam(bare_exam, settings)
    qs = session.questions[QUESTION]
    store = ReviewStore(tmp_path / "decisions.sqlite")
    truth = dict(zip(_marked().ids, _marked().marks))
    rows = qs.table.head(15)
    for aid, text in zip(rows["answer_id"], rows["answer"]):
        store.record(session.exam_id, QUESTION, aid, marker="T", new_mark=truth[aid], base_version=0,
                     answer_text=text)
    decisions = store.current(session.exam_id)
    marks = [truth[a] for a in rows["answer_id"]]
    assert len(set(marks)) >= 2
    assert retrain_due(15, 0, marks) and not retrain_due(15, 12, marks) and not retrain_due(4, 0, marks[:4])
    text, reviewed = extended_training_text(session, QUESTION, decisions)
    assert reviewed == 15 and text.count("\n") == 16  # a header and the reviewed answers only
    jobs = RetrainJobs()
    assert jobs.state(("e", "q")) == "none"
    assert jobs.submit((session.exam_id, QUESTION), retrain_job(qs.question_path, text, qs.training_path,
                                                                 settings.workdir / "models", train_or_load))
    jobs._jobs[(session.exam_id, QUESTION)].result(timeout=120)
    assert jobs.state((session.exam_id, QUESTION)) == "done" and jobs.number((session.exam_id, QUESTION)) == 1
    assert qs.training_path.exists()
    again = open_exam(bare_exam, settings).questions[QUESTION]
    assert again.training_size == 15 and again.model.own is not None  # own model, seeded with the general one
    assert not list(qs.training_path.parent.glob("*.training"))  # the staging file is gone


def test_an_upload_without_marked_answers_makes_a_bare_exam(tmp_path):
    question = (SAMPLE / QUESTION / "question.yaml").read_bytes()
    export = b"id,answer\ns1,there is a gap\ns2,the battery is flat\n"
    path = save_upload(tmp_path, question=("q.yaml", question), marked=None, export=("e.csv", export),
                       id_column="id", answer_column="answer", max_bytes=10**6)
    text = path.read_text(encoding="utf-8")
    assert "question: question.yaml" in text and "training" not in text


def _open_bare(bare_exam: Path, tmp_path: Path, monkeypatch) -> AppTest:
    """The app opened on `bare_exam` (no general model), its decisions in tmp_path."""
    monkeypatch.setenv("GRADER_WORKDIR", str(tmp_path / "work"))
    monkeypatch.setenv("GRADER_DB", str(tmp_path / "decisions.sqlite"))
    monkeypatch.setenv("GRADER_MARKER", "Tess Marker")
    monkeypatch.setenv("GRADER_SERVE_DIR", str(tmp_path))
    monkeypatch.setenv("GRADER_SAMPLE_EXAM", str(bare_exam))
    monkeypatch.delenv("GRADER_GENERAL_MODEL", raising=False)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=180)
    at.run()
    return at


def test_start_view_proposes_answers_and_saves_a_mark(bare_exam, tmp_path, monkeypatch):
    at = _open_bare(bare_exam, tmp_path, monkeypatch)
    assert not at.exception, at.exception
    view = view_radio(at)
    assert view.value == "Start" == view.options[view.proto.default]  # also where a redraw starts
    assert any(s.value == "Mark these next" for s in at.subheader)
    radios = [r for r in at.radio if str(r.key).startswith("start_mark|")]
    assert len(radios) == 10
    first = radios[0]
    first.set_value("1")
    next(b for b in at.button if b.label == "Save").click().run()
    assert not at.exception, at.exception
    store = ReviewStore(tmp_path / "decisions.sqlite")
    exam_id = store.exams()[0][0]
    [saved] = store.current(exam_id).values()
    assert saved.new_mark == "1" and saved.question_id == QUESTION
    from grader.app.ui import answer_key

    assert first.key == answer_key("start_mark", exam_id, QUESTION, saved.answer_id)
    assert "1 of 60" in [m.value for m in at.metric if m.label == "Answers marked"][0]


def test_every_view_opens_on_a_bare_exam(bare_exam, tmp_path, monkeypatch):
    at = _open_bare(bare_exam, tmp_path, monkeypatch)
    for view in ("Review", "Groups", "Marks", "Rubric", "Learn from reviews", "Export", "Start"):
        view_radio(at).set_value(view).run()
        assert not at.exception, (view, at.exception)


def test_the_answers_a_proposed_answer_stands_for_are_marked_at_once(bare_exam, tmp_path, monkeypatch):
    at = _open_bare(bare_exam, tmp_path, monkeypatch)
    radio = next(r for r in at.radio if str(r.key).startswith("start_group|"))
    members = next(df.value for df in at.dataframe if "mark it" in df.value.columns)
    assert len(members) > 1 and members["mark it"].all()  # every member shown, ticked
    radio.set_value("0")
    next(b for b in at.button if b.label == "Apply to the ticked answers").click().run()
    assert not at.exception, at.exception
    store = ReviewStore(tmp_path / "decisions.sqlite")
    trail = store.history(store.exams()[0][0])
    assert len(trail) == len(members)  # one decision per answer, as a group decision
    assert {(d.scope, d.new_mark, d.marker) for d in trail} == {("group", "0", "Tess Marker")}
    assert any(s.value.startswith(f"Saved mark 0 for {len(members)} answer") for s in at.success)
