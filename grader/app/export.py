"""The graded exam with the markers' decisions, as the same safe CSV the CLI writes.

Shapes: *long* (one row per answer: the CLI's columns plus who decided what), *wide* (the
export's own rows and columns, plus a mark per question and each student's total), and the
grade files of two learning platforms, one row per student with the mark of each question
and the total: *Moodle* (the CSV grade import: an identity column to map to the user's
field, a column per grade item) and *Canvas* (the gradebook import: Student, ID, SIS User
ID, SIS Login ID, Section, then one column per assignment, under a "Points Possible" row).
docs/app.md says how to import them. Cells a spreadsheet would run as formulas are
neutralised by `grader.exams.exam_io`, cells copied from the students' answers included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from grader.app.review import flagged
from grader.exams.exam_io import OUTPUT_ENCODING, csv_text, neutralise_frame, write_csv_safely


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


def _number(mark: object) -> float | None:
    if mark is None:
        return None
    try:
        value = float(str(mark))
    except (TypeError, ValueError):
        return None
    return value if value == value else None


def _figure(value: float) -> str:
    """A mark or total as a spreadsheet reads it: 1.5, 2 (not 2.0), no float noise."""
    return f"{round(value, 6):g}"


def student_marks(table: pd.DataFrame, questions: Sequence[str]) -> pd.DataFrame:
    """One row per student (the id the export identifies answers by): the current mark of
    each question and the total. The total is left empty when a mark is missing or not a
    number, so that a learning platform never records a total short of a question."""
    marks = {(q, a): m for q, a, m in zip(table["question_id"], table["answer_id"], table["mark"])}
    ids = list(dict.fromkeys(table["answer_id"]))
    rows = []
    for student in ids:
        row = {"id": student}
        values = []
        for q in questions:
            mark = marks.get((q, student))
            mark = None if mark is None or pd.isna(mark) else mark
            row[q] = "" if mark is None else str(mark)
            values.append(_number(mark))
        row["total"] = _figure(sum(values)) if values and None not in values else ""
        rows.append(row)
    return pd.DataFrame(rows, columns=["id", *questions, "total"])


def highest_marks(marks_by_question: dict[str, Sequence[str]]) -> dict[str, float | None]:
    """The most each question gives (its highest numeric mark), None when its marks are not
    numbers."""
    out = {}
    for q, marks in marks_by_question.items():
        numbers = [_number(m) for m in marks]
        out[q] = max(numbers) if numbers and None not in numbers else None
    return out


def export_moodle(table: pd.DataFrame, questions: Sequence[str], id_column: str,
                  exam_name: str) -> pd.DataFrame:
    """Moodle's CSV grade import: the identity column (named as in the export, e.g. "Email
    address", to map to the user's field of the same kind), a column per question and the
    exam's total, each mapped to a grade item when importing."""
    marks = student_marks(table, questions)
    return marks.rename(columns={"id": id_column or "ID number",
                                 "total": f"{exam_name} total"})


def export_canvas(table: pd.DataFrame, questions: Sequence[str], exam_name: str,
                  highest: dict[str, float | None]) -> pd.DataFrame:
    """Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then one
    column per assignment (a question, and the exam's total), under a "Points Possible" row
    giving the most each one gives. The export's id goes in "SIS Login ID" when it is an
    e-mail address (Canvas logins usually are), else in "SIS User ID"."""
    marks = student_marks(table, questions)
    total = f"{exam_name} total"
    points = {q: _figure(h) if h is not None else "" for q, h in highest.items()}
    known = [highest.get(q) for q in questions]
    points[total] = _figure(sum(known)) if known and None not in known else ""
    rows = [{"Student": "Points Possible", "ID": "", "SIS User ID": "", "SIS Login ID": "",
             "Section": "", **{q: points.get(q, "") for q in questions}, total: points[total]}]
    for _, r in marks.iterrows():
        student = str(r["id"])
        email = "@" in student
        rows.append({"Student": "", "ID": "", "SIS User ID": "" if email else student,
                     "SIS Login ID": student if email else "", "Section": "",
                     **{q: r[q] for q in questions}, total: r["total"]})
    return pd.DataFrame(rows, columns=["Student", "ID", "SIS User ID", "SIS Login ID",
                                       "Section", *questions, total])


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
