"""The graded exam with the markers' decisions, as the same safe CSV the CLI writes.

Shapes: *long* (one row per answer: the CLI's columns plus who decided what), *wide* (the
export's own rows and columns, plus a mark per question and each student's total), and the
grade files of two learning platforms, Moodle's and Canvas's (`grader.exams.grade_files`,
which `grader grade --moodle/--canvas` writes too, from `graded_answers` here). docs/app.md
says how to import them. Cells a spreadsheet would run as formulas are neutralised by
`grader.exams.exam_io`, cells copied from the students' answers included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from grader.app.review import flagged
from grader.exams.exam_io import (OUTPUT_ENCODING, csv_text, neutralise_frame, resolve_column,
                                  write_csv_safely)
from grader.exams.grade_files import (GRADED_COLUMNS, feedback_texts, no_id_note, state_column, total_text,
                                      unfinished, unsubmitted_note)


def export_long(table: pd.DataFrame, threshold: float) -> pd.DataFrame:
    """One row per answer: id, question, answer, final mark, proposal, flag, rule, decision."""
    out = pd.DataFrame({
        "id": table["answer_id"],
        "question": table["question_id"],
        "answer": table["answer"],
        "mark": table["mark"],
        "proposed_mark": table["proposed"],
        "confidence": table["confidence"].round(4),
        "flagged": flagged(table, threshold).map({True: "yes", False: "no"}),
        "rule": table["rule"],
        "explanation": table["explanation"],
        "reviewed_by": table["marker"],
        "reviewed_at": table["decided_at"],
        "comment": table["comment"],
    })
    return out.reset_index(drop=True)


def export_wide(rows: pd.DataFrame, answers: pd.DataFrame, table: pd.DataFrame,
                threshold: float) -> pd.DataFrame:
    """The export's rows with, for each question, its mark, flag and reviewer appended.

    `rows` is the export as read (with its spreadsheet row in `_row`), `answers` maps
    (question, answer id) to that row.
    """
    out = rows.drop(columns="_row").reset_index(drop=True)
    position = pd.Series(range(len(rows)), index=rows["_row"].to_numpy())
    keyed = table.assign(_flag=flagged(table, threshold)).merge(
        answers[["question_id", "answer_id", "row"]], on=["question_id", "answer_id"])
    for qid, part in keyed.groupby("question_id", sort=False):
        at = position.loc[part["row"].to_numpy()].to_numpy()
        for name, values in ((f"{qid} mark", part["mark"]),
                             (f"{qid} flagged", part["_flag"].map({True: "yes", False: "no"})),
                             (f"{qid} reviewed by", part["marker"]),
                             (f"{qid} comment", part["comment"])):
            column = pd.Series([""] * len(out), dtype=object)
            column.iloc[at] = values.fillna("").to_numpy(object)
            out[name] = column
    totals = student_marks(table, list(dict.fromkeys(keyed["question_id"])))
    total_of = dict(zip(totals["id"], totals["total"]))
    ids = pd.Series([""] * len(out), dtype=object)
    ids.iloc[position.loc[keyed["row"].to_numpy()].to_numpy()] = keyed["answer_id"].to_numpy(object)
    out["total"] = [total_of.get(i, "") for i in ids]
    return out


def student_marks(table: pd.DataFrame, questions: Sequence[str]) -> pd.DataFrame:
    """One row per answer id of the marks table: the current mark of each question and the
    total (empty when a mark is missing or not a number). The wide export's totals; the
    grade files' students come from `graded_answers` and `grader.exams.grade_files`."""
    marks = {(q, a): m for q, a, m in zip(table["question_id"], table["answer_id"], table["mark"])}
    rows = []
    for student in dict.fromkeys(table["answer_id"]):
        got = [marks.get((q, student)) for q in questions]
        got = [None if m is None or pd.isna(m) else m for m in got]
        rows.append({"id": student, **{q: "" if m is None else str(m) for q, m in zip(questions, got)},
                     "total": total_text(got)})
    return pd.DataFrame(rows, columns=["id", *questions, "total"])


def graded_answers(table: pd.DataFrame, answers: pd.DataFrame, rows: pd.DataFrame,
                   id_column: str | None, feedback: str = "none") -> pd.DataFrame:
    """The marks table (with decisions) in the grade files' shape (`GRADED_COLUMNS`): each
    answer's spreadsheet row and the student's id as the export holds it, not the id the app
    gives a repeated or blank one ("a (row 25)", "row 122"), which no platform knows.
    `rows`: the export as read (`_row` its spreadsheet row); `feedback`: a key of FEEDBACK."""
    keyed = table[["question_id", "answer_id", "mark", "proposed", "comment", "feedback"]].merge(
        answers[["question_id", "answer_id", "row"]], on=["question_id", "answer_id"])
    by_row = rows.set_index("_row")
    at = keyed["row"].to_numpy()
    id_col = resolve_column(id_column, list(by_row.columns), "the export", "id column") if id_column else None
    state = state_column(list(by_row.columns))
    return pd.DataFrame({
        "question_id": keyed["question_id"].to_numpy(object),
        "row": at,
        "student": by_row[id_col].reindex(at).fillna("").to_numpy(object) if id_col else "",
        "state": by_row[state].reindex(at).fillna("").to_numpy(object) if state else "",
        "mark": keyed["mark"].to_numpy(object),
        "feedback": feedback_texts(feedback, keyed["comment"], keyed["feedback"], keyed["mark"],
                                   keyed["proposed"]),
    }, columns=GRADED_COLUMNS)


def _unsubmitted(rows: pd.DataFrame) -> tuple[list[int], list[str]]:
    """(spreadsheet rows, their states) of the attempts the export's State column says were
    not submitted; none when it has no such column."""
    state = state_column([c for c in rows.columns if c != "_row"])
    if state is None:
        return [], []
    undone = unfinished(rows[state].fillna("").tolist())
    return rows.loc[undone, "_row"].astype(int).tolist(), rows.loc[undone, state].tolist()


def without_unsubmitted_marks(table: pd.DataFrame, answers: pd.DataFrame,
                              rows: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The marks table with no mark for an answer of an attempt not submitted ("In progress"),
    as the grade files leave it, so that no export sends it as a grade (nor counts it in a
    total); and the note saying so. The proposal stays (the long export's detail)."""
    undone, states = _unsubmitted(rows)
    if not undone:
        return table, []
    at = table[["question_id", "answer_id"]].merge(answers[["question_id", "answer_id", "row"]], how="left",
                                                   on=["question_id", "answer_id"])["row"]
    hit = at.isin(undone).to_numpy()
    if not hit.any():
        return table, []
    out = table.copy()
    out["mark"] = out["mark"].astype(object).where(~hit, None)
    return out, [unsubmitted_note(undone, states)]


def exam_notes(rows: pd.DataFrame, id_column: str | None) -> list[str]:
    """What the marker should know from the exam's opening (not only at Export): the rows
    without a student id (graded, but in no grade file) and the attempts not submitted."""
    notes = []
    if id_column:
        column = resolve_column(id_column, [c for c in rows.columns if c != "_row"], "the export", "id column")
        blank = rows[column].fillna("").astype(str).str.strip() == ""
        if blank.any():
            notes.append(no_id_note(rows.loc[blank, "_row"].tolist()))
    undone, states = _unsubmitted(rows)
    if undone:
        notes.append(unsubmitted_note(undone, states) + " (in every export)")
    return notes


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The frame as safe CSV bytes (for a download button), exactly as `write_csv_safely` writes."""
    text = csv_text([str(c) for c in frame.columns], neutralise_frame(frame))
    return text.encode(OUTPUT_ENCODING)


def save_export(frame: pd.DataFrame, folder: Path, stem: str) -> Path:
    """Write the export into `folder` (atomic, safe) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.csv"
    write_csv_safely(frame, path)
    return path
