"""The sidebar panel that chooses which exam is open: the sample, a file, uploads, a saved one."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from grader.app.settings import AppSettings
from grader.app.uploads import UploadError, save_upload
from grader.app.ui import md_escape, saved_sessions

SOURCES = ("The sample exam", "An exam file on this computer", "Upload files",
           "A session opened before")


def _open(path: Path | None) -> None:
    if path is None:
        st.session_state.pop("exam_path", None)
    else:
        st.session_state["exam_path"] = str(path)
    for key in ("review_pick", "group_pick", "conflict", "retrain_report", "export_path"):
        st.session_state.pop(key, None)
    st.session_state["question"] = "All questions"


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
    return Path(path) if path else None


def upload_form(settings: AppSettings) -> None:
    st.caption(f"Up to {settings.max_upload_mb:g} MB per file.")
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
    try:
        path = save_upload(settings.workdir, question=(q.name, q.getvalue()),
                           marked=(m.name, m.getvalue()) if m else None, export=(e.name, e.getvalue()),
                           id_column=id_col, answer_column=answer_col,
                           max_bytes=settings.max_upload_bytes)
    except UploadError as exc:
        st.error(md_escape(str(exc)))
        return
    _open(path)
    st.rerun()
