"""The graded exam with the markers' decisions, as the same safe CSV the CLI writes.

Two shapes: *long* (one row per answer: the CLI's columns plus who decided what) and *wide*
(the export's own rows and columns, plus a mark per question — the shape a learning
platform imports back). Cells a spreadsheet would run as formulas are neutralised by
`grader.exams.exam_io`, cells copied from the students' answers included.
"""

from __future__ import annotations

from pathlib import Path

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
    return out


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
