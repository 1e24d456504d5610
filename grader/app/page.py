"""The marker's app: the page skeleton, the sidebar and opening exams.

`app.py` calls `main()`. The views (review, groups, marks, rubric, learning, export) are in
`grader.app.views_*`, the Streamlit helpers they share in `grader.app.ui`; the logic they
use is in `grader.app.review`, `grader.app.session` and `grader.app.export`, which do not
need Streamlit.
"""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st

from grader.app import (views_export, views_groups, views_marks, views_review, views_rubric, views_spot,
                        views_start)
from grader.app.export import exam_notes
from grader.app.review import progress_counts, with_decisions
from grader.app.review_store import MAX_MARKER_CHARS, StoreError
from grader.app.cross_validation import FAILED, threshold_for_target
from grader.app.session import prepare_sample
from grader.app.settings import AppSettings
from grader.app.served_files import cannot_open_text
from grader.app.ui import (calibrate_session, cross_validations, get_session, get_store, md_escape, remember_marker,
                           remembered_marker, show_stop_advice, shown_id, write_marker_cookie)
from grader.app.views_open import back_to_open_exam, open_exam_sidebar, opened

VIEWS = ("Review", "Groups", "Start", "Marks", "Spot checks", "Rubric", "Learn from reviews", "Export")
ALL_QUESTIONS = "All questions"
#: Views where the marker types: a background job's redraw would take the focus.
EDITING_VIEWS = ("Rubric",)
FLAG_BY = ("below a confidence", "to a target accuracy")
TARGET_ACCURACY = 0.95  # where the target-accuracy slider starts


def _target_threshold(session, settings: AppSettings, target: float) -> float:
    """The flag threshold for `target` from the questions in view, with what it promises
    said in the sidebar; every answer is flagged when the marked answers cannot vouch for it."""
    qid = st.session_state.get("question")
    ids = [qid] if qid in session.questions else list(session.questions)
    reports = []
    cv = cross_validations(settings)
    for q in ids:
        with st.spinner(f"Cross-validating {q} (once; the result is kept)…"):
            status, report = cv.wait(session.questions[q])  # the threshold needs it: waited for
        if status == FAILED:  # no evaluation: its answers count for nothing in the choice
            st.sidebar.warning(f"No cross-validation for {md_escape(q)}: {md_escape(report)}")
        else:
            reports.append(report)
    choice = threshold_for_target(reports, target)
    (st.sidebar.caption if choice.met else st.sidebar.warning)(md_escape(choice.message()[:1].upper()
                                                                         + choice.message()[1:]))
    return choice.threshold


# -- the page -----------------------------------------------------------------------------

def hide_ids(text: str, session) -> str:
    """A note on reading the export with each quoted student id ('…') as its pseudonym."""
    ids = set(session.answers["answer_id"])
    return re.sub(r"'([^']*)'", lambda m: f"'{shown_id(session.exam_id, m.group(1))}'"
                  if m.group(1) in ids else m.group(0), text)


def main() -> None:
    st.set_page_config(page_title="Marking assistant", page_icon="✔", layout="wide")
    try:
        settings = AppSettings.from_env()
        store = get_store(str(settings.db_path))
    except (ValueError, StoreError) as exc:
        st.error(f"The app cannot start: {md_escape(exc)}")
        st.stop()
    state = st.session_state
    state.setdefault("seen", {})
    # The sidebar's widgets get their starting values as their own defaults (`value=`,
    # `index=`), never put in session_state first: the browser draws a widget again from its
    # default when it has to, and sends that back with the next click (after a J the flag
    # slider stood at 0 and anonymous marking was off).

    with st.sidebar:
        st.title("Marking assistant")
        exam_path = open_exam_sidebar(settings)
        # before the exam is opened: an exam that cannot be opened leaves the sidebar usable;
        # a new session starts from the name this browser used, else the setting
        st.text_input("Your name (saved with each decision)", key="marker", on_change=remember_marker,
                      value=remembered_marker() or settings.marker,
                      help="Kept in this browser (and in the page's address), so a reload or a new "
                           "tab keeps it. The name a new browser starts with is the setting "
                           "GRADER_MARKER.")
        write_marker_cookie()
        name_error = st.empty()  # one element whether or not it speaks (see write_marker_cookie)
        if len(str(state.get("marker", "")).strip()) > MAX_MARKER_CHARS:
            name_error.error(f"A name has at most {MAX_MARKER_CHARS} characters: decisions "
                             f"cannot be saved with this one.")

    if exam_path is None:
        try:
            exam_path = prepare_sample(settings)
        except OSError as exc:
            st.error(f"Cannot prepare the sample exam: {md_escape(exc)}")
            st.stop()
    state["exam_path"] = str(exam_path)
    try:
        session = get_session(Path(exam_path), settings)
    except Exception as exc:  # a bad exam file, CSV or rubric: a message, not a traceback
        st.error(md_escape(cannot_open_text(exam_path, exc)))
        before = back_to_open_exam()  # the exam open before stays open, as the marker left it
        if before is None:
            if state["exam_path"] != str(prepare_sample(settings)):
                st.info("Choose another exam in the sidebar, or the sample exam.")
            st.stop()
        session = get_session(before, settings)
        st.info(md_escape(f"{session.name} stays open."))
    opened(session.exam_id, state["exam_path"])
    # the figures shown become probabilities; the rubric editor is not redrawn when a calibration
    # is done, which would take the teacher's focus from the text being typed
    editing = state.get(f"view|{session.exam_id}") in EDITING_VIEWS
    state["uncalibrated"] = calibrate_session(session, settings, watch=not editing)

    # nothing marked yet: begin with the answers worth marking
    starter = any(getattr(q, "starter", False) for q in session.questions.values())
    with st.sidebar:
        choices = [ALL_QUESTIONS] + list(session.questions)
        if state.get("question") not in choices:
            state["question"] = ALL_QUESTIONS
        st.selectbox("Question", choices, key="question")
        st.radio("Flag answers", FLAG_BY, key="flag_by", horizontal=True)
        if state["flag_by"] == FLAG_BY[0]:
            st.slider("Flag answers below this confidence", 0.0, 1.0, value=settings.flag_below,
                      step=0.01, key="flag_below",
                      help="Answers no rule marks, or marked with a lower confidence, go to the "
                           "review queue.")
        else:
            st.slider("Mark automatically only what is right at least this often", 0.80, 0.99,
                      value=TARGET_ACCURACY, step=0.01, key="target_accuracy", format="%.2f",
                      help="The flag threshold is chosen from the cross-validated marks of the "
                           "marked answers, so that the lower confidence bound of the accuracy of "
                           "the automatic marks reaches this target.")
        st.toggle("Anonymous marking", value=settings.anonymous, key="anonymous",
                  help="Hide students' ids and names in the marking views (the export still "
                       "carries them). The setting GRADER_ANONYMOUS says how a session starts.")
        # one View control per exam: an exam with a question nobody marked opens on Start, even
        # when opened from the sidebar (a control kept across exams kept the view it had)
        view = st.radio("View", VIEWS, index=VIEWS.index("Start" if starter else "Review"),
                        key=f"view|{session.exam_id}")
        st.caption(f"Decisions are saved in {md_escape(settings.db_path)}")

    decisions = store.current(session.exam_id)
    table = with_decisions(session.table(), decisions)
    if state["question"] != ALL_QUESTIONS:
        table = table[table["question_id"] == state["question"]]
    if state["flag_by"] == FLAG_BY[0]:
        threshold = float(state["flag_below"])
    else:
        threshold = _target_threshold(session, settings, float(state["target_accuracy"]))

    st.header(md_escape(session.name))
    for note in exam_notes(session.rows, session.exam.id_column):  # rows, never ids: anonymous too
        st.caption(md_escape(note[:1].upper() + note[1:] + "."))
    if session.warnings:
        with st.expander(f"Notes on the exam and its marks ({len(session.warnings)})"):
            for w in session.warnings:
                st.text(hide_ids(w, session) if state["anonymous"] else w)
    counts = progress_counts(table, threshold)
    cols = st.columns(len(counts))
    for col, (label, value) in zip(cols, counts.items()):
        col.metric(label.capitalize(), value)

    if view in ("Review", "Start"):
        show_stop_advice(table, threshold)
    if view == "Review":
        views_review.review_view(session, store, table, threshold)
    elif view == "Groups":
        views_groups.groups_view(session, store, table, threshold)
    elif view == "Start":
        views_start.start_view(session, store, settings)
    elif view == "Marks":
        views_marks.marks_view(session, store, table, threshold, settings)
    elif view == "Spot checks":
        views_spot.spot_check_view(session, store, table, threshold)
    elif view == "Rubric":
        views_rubric.rubric_view(session, store, settings)
    elif view == "Learn from reviews":
        views_rubric.learn_view(session, store, settings, decisions)
    else:
        views_export.export_view(session, store, threshold, settings)
