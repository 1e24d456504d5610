"""The upload of a platform's wide export: the files, then which column answers which question.

The files are uploaded first (no form, so that the export's columns can be shown as soon as it
is there); the marker then chooses the column identifying the students and, for each question
file, the column of its answers and its marked answers (if any), and keeps it as an exam
(`grader.app.wide_upload`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

import streamlit as st

from grader.app.settings import AppSettings
from grader.app.ui import md_escape
from grader.app.uploads import UploadError
from grader.app.wide_upload import (QuestionChoice, export_columns, likely_id_column, question_label,
                                    save_wide_upload, unchosen_responses)

NONE_MARKED = "none marked yet"


def _columns(name: str, data: bytes, max_bytes: int) -> list[str]:
    """The export's columns, read once per uploaded file (the page runs again on each choice)."""
    key = f"upw_columns_{hashlib.sha256(data).hexdigest()}"
    if key not in st.session_state:
        st.session_state[key] = export_columns(name, data, max_bytes)
    return st.session_state[key]


def wide_upload_form(settings: AppSettings, keep: Callable[[Callable[[], Path]], None]) -> None:
    """Upload a wide export and its question files, map its columns, keep it as an exam
    (`keep`: stores it by the function given and opens it, or says why it cannot)."""
    questions = st.file_uploader("Question files (YAML), one per question", type=["yaml", "yml"],
                                 accept_multiple_files=True, key="upw_questions")
    marked = st.file_uploader("Marked answers (CSV: id, answer, mark), a file per question, if any",
                              type=["csv", "txt"], accept_multiple_files=True, key="upw_marked",
                              help="Without marked answers the app proposes the answers to mark first.")
    export = st.file_uploader("The platform's export (CSV, one row per student, a column of answers "
                              "per question)", type=["csv", "txt"], key="upw_export")
    if not (questions and export):
        st.caption("Upload the question files and the export; then choose which column answers "
                   "which question.")
        return
    try:
        columns = _columns(export.name, export.getvalue(), settings.max_upload_bytes)
    except UploadError as exc:
        st.error(md_escape(str(exc)))
        return
    id_column = st.selectbox("Column identifying the students", columns,
                             index=columns.index(likely_id_column(columns)), key="upw_id")
    marked_names = [NONE_MARKED] + [m.name for m in marked or []]
    choices = []
    for i, q in enumerate(questions):
        name = md_escape(question_label(q.name, q.getvalue()))
        column = st.selectbox(f"Answers to {name}: column", columns, index=None, key=f"upw_column_{i}",
                              placeholder="Choose a column")
        chosen = NONE_MARKED
        if len(marked_names) > 1:
            chosen = st.selectbox(f"Marked answers of {name}", marked_names, key=f"upw_marked_{i}",
                                  index=_likely_marked(q.name, marked_names))
        choices.append(QuestionChoice((q.name, q.getvalue()), column,
                                      None if chosen == NONE_MARKED else chosen))
    left = unchosen_responses(columns, [c.column for c in choices])
    if left:
        st.warning(md_escape(f"No question is given column(s) {', '.join(left)}: their answers will "
                             f"not be graded (they stay in the export)."))
    if not st.button("Keep as an exam and open it", key="upw_keep", type="primary", width="stretch"):
        return
    keep(lambda: save_wide_upload(settings.workdir, questions=choices, export=(export.name, export.getvalue()),
                                  marked={m.name: m.getvalue() for m in marked or []}, id_column=id_column,
                                  max_bytes=settings.max_upload_bytes))


def _likely_marked(question_name: str, names: list[str]) -> int:
    """The marked answers file named after the question file ("q1.yaml" -> "q1-marked.csv"),
    else none."""
    stem = Path(question_name).stem.casefold()
    return next((i for i, n in enumerate(names) if i and n.casefold().startswith(stem)), 0)
