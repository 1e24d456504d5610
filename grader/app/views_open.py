"""The sidebar panel that chooses which exam is open: the sample, a file, uploads, a saved one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import streamlit as st

from grader.app.settings import AppSettings
from grader.app.uploads import UploadError, save_upload
from grader.app.views_upload_wide import wide_upload_form
from grader.app.ui import md_escape, saved_sessions

SOURCES = ("The sample exam", "An exam file on this computer", "Upload files",
           "A session opened before")


#: What opening another exam resets (the answer, group and question chosen belong to the exam
#: open before); kept aside until the new exam has opened, put back if it cannot be.
_RESET = ("review_pick", "group_pick", "conflict", "retrain_report", "export_path", "question")


def _open(path: Path | None) -> None:
    state = st.session_state
    state["exam_path"] = "" if path is None else str(path)  # "": the sample, chosen
    state["before_open"] = {k: state[k] for k in _RESET if k in state}
    for key in _RESET:
        state.pop(key, None)
    state["question"] = "All questions"


def opened(exam_id: str, path: str) -> None:
    """The exam in `path` is open: a reload (a new session) opens it again from the page's
    address (`?exam=<exam id>`, found again through the working folder's note of it)."""
    st.session_state.pop("before_open", None)
    st.session_state["exam_open"] = path
    if st.query_params.get("exam") != exam_id:
        st.query_params["exam"] = exam_id


def back_to_open_exam() -> Path | None:
    """After an exam failed to open: the exam open before (its answer, group and question as
    they were), or None when there was none."""
    state = st.session_state
    before, failed = state.get("exam_open"), state.get("exam_path")
    if not before or before == failed:
        return None
    state["exam_path"] = before
    for key in _RESET:
        state.pop(key, None)
    state.update(state.pop("before_open", {}))
    return Path(before)


def _in_address(settings: AppSettings) -> Path | None:
    """The exam the page's address names (`?exam=`), if it was opened in this working folder."""
    exam_id = st.query_params.get("exam")
    if not exam_id or not re.fullmatch(r"[a-z0-9-]{1,60}", exam_id):
        return None
    found = next((s for s in saved_sessions(settings) if s.get("exam_id") == exam_id), None)
    return Path(found["path"]) if found else None


def open_exam_sidebar(settings: AppSettings) -> Path | None:
    """The exam file to open, or None for the sample exam."""
    with st.expander("Open another exam", expanded=False):
        source = st.radio("From", SOURCES, key="open_source", label_visibility="collapsed")
        if source == SOURCES[0]:
            if st.button("Open the sample exam", key="open_sample", width="stretch"):
                _open(None)
        elif source == SOURCES[1]:
            st.text_input("Path of the exam file (exam.yaml)", key="open_path",
                          help="See docs/app.md for the exam file format.")
            if st.button("Open", key="open_path_button", width="stretch"):
                path = Path(str(st.session_state.get("open_path", "")).strip()).expanduser()
                if not path.is_file():
                    st.error(md_escape(f"No such file: {path}"))
                else:
                    _open(path)
        elif source == SOURCES[2]:
            upload_form(settings)
        else:
            found = saved_sessions(settings)
            if not found:
                st.caption("No exam opened before.")
            else:
                labels = {f["path"]: f"{f['name']} (opened {f['opened_at'][:16]})" for f in found}
                st.selectbox("Session", list(labels), format_func=labels.get, key="open_saved")
                if st.button("Open", key="open_saved_button", width="stretch"):
                    _open(Path(st.session_state["open_saved"]))
    path = st.session_state.get("exam_path")
    if path is None:  # a new session (a reload): the exam the address names, if any
        return _in_address(settings)
    return Path(path) if path else None


#: What an uploaded export holds: its layout (docs/cli.md, exam.yaml).
EXPORT_SHAPES = ("A platform's export: one row per student, a column of answers per question",
                 "One answer per row, one question")


def upload_form(settings: AppSettings) -> None:
    st.caption(f"Up to {settings.max_upload_mb:g} MB per file. Takes a platform's whole export "
               f"(Moodle's responses report: a Response 1, Response 2... column per question) or "
               f"one question's answers, one per row.")
    shape = st.radio("The export holds", EXPORT_SHAPES, key="up_shape")
    if shape == EXPORT_SHAPES[0]:
        wide_upload_form(settings, keep_upload)
        return
    with st.form("upload", border=False):
        q = st.file_uploader("Question file (YAML)", type=["yaml", "yml"], key="up_question")
        m = st.file_uploader("Marked answers (CSV: id, answer, mark), if any", type=["csv", "txt"],
                             key="up_marked",
                             help="Without marked answers the app proposes the answers to mark first "
                                  "(Start view), and the general model's marks if one is configured.")
        e = st.file_uploader("Exam export to grade (CSV, one answer per row)",
                             type=["csv", "txt"], key="up_export")
        id_col = st.text_input("Id column of the export", "id", key="up_id")
        answer_col = st.text_input("Answer column of the export", "answer", key="up_answer")
        submitted = st.form_submit_button("Train and grade", type="primary",
                                          width="stretch")
    if not submitted:
        return
    if not (q and e):
        st.error("Upload the question file and the export (and the marked answers, if there are any).")
        return
    keep_upload(lambda: save_upload(settings.workdir, question=(q.name, q.getvalue()),
                                    marked=(m.name, m.getvalue()) if m else None, export=(e.name, e.getvalue()),
                                    id_column=id_col, answer_column=answer_col,
                                    max_bytes=settings.max_upload_bytes))


def keep_upload(save: Callable[[], Path]) -> None:
    """Store an upload (`save` returns the exam file it made) and open it; a refused upload is
    said, and the exam open stays open."""
    try:
        path = save()
    except UploadError as exc:
        st.error(md_escape(str(exc)))
        return
    _open(path)
    st.rerun()
