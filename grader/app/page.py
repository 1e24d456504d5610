"""The marker's app: the page skeleton, the sidebar and opening exams.

`app.py` calls `main()`. The views (review, groups, marks, rubric, learning, export) are in
`grader.app.views_*`; the logic they use is in `grader.app.review`, `grader.app.session`
and `grader.app.export`, which do not need Streamlit.
"""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone
from pathlib import Path

import streamlit as st

from grader.app.review import progress_counts, with_decisions
from grader.app.session import ExamSession, open_exam, prepare_sample
from grader.app.settings import AppSettings
from grader.review_store import ReviewStore, StoreError

VIEWS = ("Review", "Groups", "Marks", "Rubric", "Learn from reviews", "Export")
ALL_QUESTIONS = "All questions"


# -- shared resources ------------------------------------------------------------------------

@st.cache_resource(show_spinner=False)
def get_store(db_path: str) -> ReviewStore:
    """One store object per database file, shared by every browser session."""
    return ReviewStore(db_path)


@st.cache_resource(show_spinner=False)
def _sessions() -> tuple[dict, threading.Lock]:
    """Open exams shared by every browser session, keyed by exam file and input stamp."""
    return {}, threading.Lock()


def input_stamp(path: Path, settings: AppSettings) -> tuple:
    """What a session depends on: the exam's files and the extended training sets, by mtime."""
    from grader.exam_io import read_exam

    files = [path]
    try:
        exam = read_exam(path)
        files += [exam.answers] + [p for q in exam.questions for p in (q.question, q.training) if p]
    except Exception:  # reported when the exam is opened
        pass
    extended = settings.workdir / "exams"
    if extended.is_dir():
        files += sorted(extended.glob("*/training/*.csv"))
    stamp = []
    for f in files:
        try:
            s = Path(f).stat()
            stamp.append((str(f), s.st_mtime_ns, s.st_size))
        except OSError:
            stamp.append((str(f), None, None))
    return tuple(stamp)


def get_session(path: Path, settings: AppSettings) -> ExamSession:
    """The open exam for `path`, opening it (with a progress bar) if its inputs changed."""
    cache, lock = _sessions()
    key = (str(Path(path).resolve()), input_stamp(path, settings))
    with lock:
        if key in cache:
            return cache[key]
        bar = st.progress(0.0, text="Opening the exam…")

        def progress(fraction: float, message: str) -> None:
            bar.progress(min(1.0, max(0.0, fraction)), text=message)

        session = open_exam(path, settings, progress)
        bar.empty()
        for old in [k for k in cache if k[0] == key[0]]:
            del cache[old]
        cache[key] = session
        remember_session(settings, session)
        return session


def remember_session(settings: AppSettings, session: ExamSession) -> None:
    """Note the exam in the working folder so that it can be reopened from the sidebar."""
    from grader.exam_io import atomic_write_text

    folder = settings.workdir / "exams" / session.exam_id
    folder.mkdir(parents=True, exist_ok=True)
    info = {"path": str(session.path.resolve()), "name": session.name,
            "opened_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    atomic_write_text(folder / "session.json", json.dumps(info, indent=1))


def saved_sessions(settings: AppSettings) -> list[dict]:
    """Exams opened before, most recent first."""
    found = []
    for f in (settings.workdir / "exams").glob("*/session.json"):
        try:
            info = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if Path(info.get("path", "")).exists():
            found.append(info)
    return sorted(found, key=lambda i: i.get("opened_at", ""), reverse=True)


# -- the page -----------------------------------------------------------------------------

def main() -> None:
    st.set_page_config(page_title="Marking assistant", page_icon="✔", layout="wide")
    try:
        settings = AppSettings.from_env()
        store = get_store(str(settings.db_path))
    except (ValueError, StoreError) as exc:
        st.error(f"The app cannot start: {exc}")
        st.stop()
    state = st.session_state
    state.setdefault("marker", settings.marker)
    state.setdefault("flag_below", settings.flag_below)
    state.setdefault("seen", {})

    from grader.app.views_open import open_exam_sidebar

    with st.sidebar:
        st.title("Marking assistant")
        exam_path = open_exam_sidebar(settings)
    if exam_path is None:
        try:
            exam_path = prepare_sample(settings)
        except OSError as exc:
            st.error(f"Cannot prepare the sample exam: {exc}")
            st.stop()
        state["exam_path"] = str(exam_path)
    try:
        session = get_session(Path(exam_path), settings)
    except Exception as exc:  # a bad exam file, CSV or rubric: a message, not a traceback
        from grader.app.views_review import md_escape

        st.error(md_escape(f"Cannot open {exam_path}: {exc}"))
        if state.get("exam_path") and state["exam_path"] != str(prepare_sample(settings)):
            st.info("Choose another exam in the sidebar, or the sample exam.")
        st.stop()

    with st.sidebar:
        st.text_input("Your name (saved with each decision)", key="marker")
        choices = [ALL_QUESTIONS] + list(session.questions)
        if state.get("question") not in choices:
            state["question"] = ALL_QUESTIONS
        st.selectbox("Question", choices, key="question")
        st.slider("Flag answers below this confidence", 0.0, 1.0, step=0.01, key="flag_below",
                  help="Answers no rule marks, or marked with a lower confidence, go to the "
                       "review queue.")
        view = st.radio("View", VIEWS, key="view")
        st.caption(f"Decisions are saved in {settings.db_path}")

    decisions = store.current(session.exam_id)
    table = with_decisions(session.table(), decisions)
    if state["question"] != ALL_QUESTIONS:
        table = table[table["question_id"] == state["question"]]
    threshold = float(state["flag_below"])

    st.header(session.name)
    if session.warnings:
        with st.expander(f"Notes on reading the export ({len(session.warnings)})"):
            for w in session.warnings:
                st.text(w)
    counts = progress_counts(table, threshold)
    cols = st.columns(len(counts))
    for col, (label, value) in zip(cols, counts.items()):
        col.metric(label.capitalize(), value)

    from grader.app import views_marks, views_review, views_rubric

    if view == "Review":
        views_review.review_view(session, store, table, threshold)
    elif view == "Groups":
        views_review.groups_view(session, store, table, threshold)
    elif view == "Marks":
        views_marks.marks_view(session, store, table, threshold, settings)
    elif view == "Rubric":
        views_rubric.rubric_view(session, store, settings)
    elif view == "Learn from reviews":
        views_rubric.learn_view(session, store, settings, decisions)
    else:
        views_marks.export_view(session, store, threshold, settings)
