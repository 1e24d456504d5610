"""The Export view: the graded exam in the shape the next program needs (a CSV per answer,
the export's own rows, Moodle's or Canvas's grade import), and the audit trail."""

from __future__ import annotations

from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from grader.app.export import (csv_bytes, export_long, export_wide, graded_answers, save_export,
                               without_unsubmitted_marks)
from grader.app.review import audit_trail, with_decisions
from grader.app.review_store import ReviewStore
from grader.app.session import ExamSession
from grader.app.settings import AppSettings
from grader.app.ui import md_escape, shown_time
from grader.exams.grade_files import (ATTEMPTS, FEEDBACK, canvas_comments, canvas_file, highest_marks,
                                      moodle_file, student_grades)

SHAPES = {
    "long": "One row per answer (every detail)",
    "wide": "The export's own rows, plus a mark per question and the total",
    "moodle": "Moodle grade import (one row per student)",
    "canvas": "Canvas gradebook import (one row per student)",
    "canvas-comments": "Canvas feedback (one row per student and question with feedback)",
}
HOW_TO_IMPORT = {
    "moodle": "In Moodle: Grades › Import › CSV file, upload this file, then map the identity "
              "column (e.g. Email address → email address, or ID number → ID number) and each "
              "question, or the total, to a grade item (or a new one). See docs/app.md.",
    "canvas": "In Canvas: Grades › Import, upload this file; each question and the total "
              "become an assignment (keep either the questions or the total, not both, so "
              "that nothing counts twice). See docs/app.md.",
    "canvas-comments": "Canvas's gradebook import takes no comments: this file lists the feedback "
                       "of each student and question (the question is the assignment), for "
                       "SpeedGrader or a script. See docs/app.md.",
}


def export_frame(session: ExamSession, table: pd.DataFrame, threshold: float, shape: str,
                 attempt: str = "last", feedback: str = "none") -> tuple[pd.DataFrame, str, list[str]]:
    """The frame to export in `shape` (a key of SHAPES), its file name's stem and what the
    teacher should know about it (attempts chosen, rows left out). `attempt`, `feedback`:
    keys of ATTEMPTS and FEEDBACK, for the grade files."""
    questions = list(session.questions)
    if shape in ("long", "wide"):  # an attempt not submitted is no grade here either
        kept, notes = without_unsubmitted_marks(table, session.answers, session.rows)
        if shape == "long":
            return export_long(kept, threshold), f"{session.exam_id}-graded", notes
        return export_wide(session.rows, session.answers, kept, threshold), f"{session.exam_id}-graded-wide", notes
    graded = graded_answers(table, session.answers, session.rows, session.exam.id_column,
                            "none" if shape == "canvas" else feedback)
    grades = student_grades(graded, questions, attempt)
    if shape == "moodle":
        frame = moodle_file(grades, session.exam.id_column or "ID number", session.name,
                            feedback=feedback != "none")
        return frame, f"{session.exam_id}-moodle", grades.notes
    if shape == "canvas-comments":
        return canvas_comments(grades), f"{session.exam_id}-canvas-comments", grades.notes
    highest = highest_marks({q: qs.marks for q, qs in session.questions.items()})
    return canvas_file(grades, session.name, highest), f"{session.exam_id}-canvas", grades.notes


def export_view(session: ExamSession, store: ReviewStore, threshold: float,
                settings: AppSettings) -> None:
    table = with_decisions(session.table(), store.current(session.exam_id))
    st.subheader("Export the graded exam")
    st.caption("Every answer with its current mark (the marker's decision where there is one). "
               "Cells a spreadsheet would run as formulas are neutralised. Students' ids are "
               "in every file, also under anonymous marking.")
    shape = st.radio("Shape", list(SHAPES), format_func=SHAPES.get, key="export_shape")
    attempt, feedback = "last", "none"
    if shape not in ("long", "wide"):
        left, right = st.columns(2)
        attempt = left.radio("When a student has several attempts", list(ATTEMPTS),
                             format_func=lambda a: ATTEMPTS[a].capitalize(), key="export_attempt")
        if shape != "canvas":
            choices = [f for f in FEEDBACK if shape == "moodle" or f != "none"]
            feedback = right.radio("Feedback to the students", choices,
                                   format_func=lambda f: FEEDBACK[f].capitalize(),
                                   key=f"export_feedback_{shape}")
    frame, stem, notes = export_frame(session, table, threshold, shape, attempt, feedback)
    if shape in HOW_TO_IMPORT:
        st.info(md_escape(HOW_TO_IMPORT[shape]))
    for note in notes:
        st.warning(md_escape(note[:1].upper() + note[1:] + "."))
    st.dataframe(frame.head(8), hide_index=True, width="stretch")
    a, b = st.columns(2)
    a.download_button("Download CSV", csv_bytes(frame), file_name=f"{stem}.csv",
                      mime="text/csv", type="primary", width="stretch")
    if b.button("Save in the working folder", width="stretch", key="export_save"):
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        path = save_export(frame, settings.workdir / "exports", f"{stem}-{stamp}")
        st.session_state["export_path"] = str(path)
    if st.session_state.get("export_path"):
        st.success(f"Saved {md_escape(st.session_state['export_path'])}")

    st.subheader("Audit trail")
    history = store.history(session.exam_id)
    if not history:
        st.caption("No decisions yet.")
        return
    trail = audit_trail(history, session.table())
    shown = trail.assign(decided_at=[shown_time(t) for t in trail["decided_at"]])
    st.dataframe(shown[["decided_at", "marker", "question_id", "answer_id", "old_mark",
                        "new_mark", "comment", "note", "scope", "version", "base_version"]],
                 hide_index=True, width="stretch", height=300,
                 column_config={"decided_at": st.column_config.TextColumn("decided (local time)")})
    st.download_button("Download the audit trail (CSV)", csv_bytes(trail),
                       file_name=f"{session.exam_id}-decisions.csv", mime="text/csv")
