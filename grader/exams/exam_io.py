"""The files teachers bring and get back: marked answers, safe CSV output.

Reading goes through `grader.exams.csv_reader` (encoding and separator detection, spreadsheet row
numbers in every message); the names it defines, and those of exam files
(`grader.exams.exam_file`), are re-exported here for convenience.

Duplicate ids: an error in marked answers (two marks for one answer is a mistake to fix);
a warning for exams, where both rows are kept and graded (a student's second attempt is
not ours to throw away; the teacher sees both).

Writing: `write_csv_safely` neutralises every cell a spreadsheet would run as a formula
(leading `=`, `+`, `-`, `@`, tab, CR) by prefixing `'`, cells copied from the input too,
and replaces the target atomically. Output is UTF-8 with a BOM so that Excel reads it right.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from grader.atomic_file import atomic_write_text
from knowledge.schema import mark_number, marks_from_answers
from grader.exams.csv_reader import (DELIMITERS, CSVChunk, CSVFormat, CSVFormatError, CSVReader,
                               detect_delimiter, detect_encoding, detect_format, duplicate_rows,
                               format_duplicates, read_table, resolve_column)
from grader.exams.exam_file import Exam, ExamQuestion, missing_files, read_exam

__all__ = [
    "CSVChunk", "CSVFormat", "CSVFormatError", "CSVReader", "DELIMITERS", "Exam", "ExamQuestion",
    "FORMULA_PREFIXES", "MarkedAnswers", "OUTPUT_ENCODING", "atomic_write_text", "csv_text",
    "detect_delimiter", "detect_encoding", "detect_format", "duplicate_rows", "format_duplicates",
    "marks_from_answers", "missing_files", "neutralise", "neutralise_frame", "normalise_marks", "read_exam",
    "read_marked_answers", "read_table", "resolve_column", "rows_text", "write_csv_safely", "written_text",
]

OUTPUT_ENCODING = "utf-8-sig"
#: First characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection),
#: plus their full-width forms, which some spreadsheets normalise.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


# ---------------------------------------------------------------------------------------
# Marked answers


@dataclass
class MarkedAnswers:
    """Answers a teacher has marked, as read from a CSV file."""

    ids: list[str]
    answers: list[str]
    marks: list[str]
    rows: np.ndarray  # spreadsheet rows
    source: Path
    format: CSVFormat
    warnings: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.answers)


def read_marked_answers(path: str | Path, *, id_column: str | None = "id", answer_column: str = "answer",
                        mark_column: str = "mark", marks: Sequence[str] = ()) -> MarkedAnswers:
    """Read marked answers. Rows without a mark are left out with a warning; blank answers
    are kept (a blank answer is a non-answer, and its mark teaches the learner that).

    `id_column`: if it is the default "id" and the file has no such column, the spreadsheet
    row numbers are the ids; a column named explicitly must exist. Duplicate ids are an error.
    `marks`: the question's marks; a mark written differently but equal as a number ("1.0"
    for "1") is mapped to it, any other mark is an error naming the rows.
    """
    path = Path(path)
    frame, rows, fmt = read_table(path)
    if frame.empty:
        raise CSVFormatError(f"{path}: no marked answers (only a header row)")
    answer_col = resolve_column(answer_column, frame.columns, path, "answer column")
    mark_col = resolve_column(mark_column, frame.columns, path, "mark column")
    if id_column == "id" and not any(c.strip().casefold() == "id" for c in frame.columns):
        ids = [str(r) for r in rows]
    elif id_column is None:
        ids = [str(r) for r in rows]
    else:
        ids = frame[resolve_column(id_column, frame.columns, path, "id column")].str.strip().tolist()
    ids_arr = np.asarray(ids, dtype=object)
    answers = frame[answer_col].to_numpy(dtype=object)
    given = frame[mark_col].str.strip().to_numpy(dtype=object)
    warnings: list[str] = []

    unmarked = given == ""
    if unmarked.all():
        raise CSVFormatError(f"{path}: column {mark_col!r} is empty on every row")
    if unmarked.any():
        warnings.append(f"{path}: {int(unmarked.sum())} row(s) without a mark left out of training "
                        f"({rows_text(rows[unmarked])})")
    keep = ~unmarked
    ids_arr, answers, given, rows = ids_arr[keep], answers[keep], given[keep], rows[keep]

    dups = duplicate_rows(ids_arr.tolist(), rows)
    if dups:
        raise CSVFormatError(f"{path}: duplicate ids in marked answers: {format_duplicates(dups)}")
    normalised = normalise_marks(given, marks, rows, path)
    return MarkedAnswers(ids_arr.tolist(), [str(a) for a in answers], normalised, rows, path, fmt, warnings)


def _row_list(rows: Iterable[int], limit: int = 10) -> str:
    rows = [int(r) for r in rows]
    text = ", ".join(map(str, rows[:limit]))
    return text + (f" and {len(rows) - limit} more" if len(rows) > limit else "")


def rows_text(rows: Iterable[int], limit: int = 10) -> str:
    """"row 3" or "rows 3, 5"."""
    rows = list(rows)
    return f"row{'s' if len(rows) > 1 else ''} {_row_list(rows, limit)}"


def normalise_marks(given: Sequence[str], marks: Sequence[str], rows: np.ndarray, path: str | Path) -> list[str]:
    """Map each given mark to the question's spelling of it ("1.0" -> "1"); error if unknown."""
    given = [str(g).strip() for g in given]
    if not marks:
        return given
    allowed = {m: m for m in marks}
    for m in marks:
        number = mark_number(m)
        if number is not None:
            allowed.setdefault(repr(number), m)
    out: list[str] = []
    bad: dict[str, list[int]] = {}
    for g, row in zip(given, rows):
        if g in allowed:
            out.append(allowed[g])
            continue
        number = mark_number(g)
        if number is not None and repr(number) in allowed:
            out.append(allowed[repr(number)])
        else:
            bad.setdefault(g, []).append(int(row))
    if bad:
        listed = "; ".join(f"{g!r} on {rows_text(r, 5)}" for g, r in list(bad.items())[:5])
        if len(bad) > 5:
            listed += f" and {len(bad) - 5} other marks"
        raise CSVFormatError(f"{path}: marks not among the question's marks "
                             f"({', '.join(map(repr, marks))}): {listed}")
    return out


# ---------------------------------------------------------------------------------------
# Safe writing


def _runs_as_formula(text: str) -> bool:
    """Whether a spreadsheet may read the cell as a formula: it starts with one of
    FORMULA_PREFIXES. Every such cell, a signed number with a unit too: "+3 V across it" is a
    formula of three names to a spreadsheet (shown as #NAME?, the answer lost when the file is
    saved again) and "-3 A1" reads another cell."""
    return text.startswith(FORMULA_PREFIXES)


def neutralise(value: object) -> str:
    """The cell as text, with `'` in front if a spreadsheet would run it as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if _runs_as_formula(text) else text


def written_text(cell: str) -> str:
    """The text a cell held before `neutralise` (the `'` it added taken off), for reading back
    a file written here; neutralising the result writes the cell exactly as it was."""
    return cell[1:] if cell.startswith("'") and _runs_as_formula(cell[1:]) else cell


def _cell_text(value: object) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value if isinstance(value, str) else str(value)


def neutralise_frame(frame: pd.DataFrame) -> list[tuple[str, ...]]:
    """Every cell of a frame as safe text (None/NaN -> empty), row by row.

    Plain list comprehensions over each column: on text cells they are several times faster
    than pandas string methods, and this runs on every cell of every graded file."""
    columns = []
    for name in frame.columns:
        values = frame[name].tolist()
        try:  # fast path: all cells are already text (as everything read from a CSV is)
            columns.append([("'" + c) if c.startswith(FORMULA_PREFIXES) else c for c in values])
        except AttributeError:
            columns.append([("'" + c) if _runs_as_formula(c) else c for c in map(_cell_text, values)])
    if not columns:
        return [() for _ in range(len(frame))]
    return list(zip(*columns))


def csv_text(header: Sequence[str] | None, rows: Iterable[Sequence[str]]) -> str:
    """Rows as CSV text the way every writer here writes it (comma, minimal quoting, CRLF)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if header is not None:
        writer.writerow([neutralise(h) for h in header])
    writer.writerows(rows)
    return buffer.getvalue()


def write_csv_safely(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a DataFrame as a CSV a spreadsheet can open without running anything, atomically."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"{path.parent}: no such folder")
    atomic_write_text(path, csv_text([str(c) for c in frame.columns], neutralise_frame(frame)),
                      encoding=OUTPUT_ENCODING)
