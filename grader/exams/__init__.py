"""The files an exam comes in and goes out as.

- `csv_reader`: any CSV a teacher's export tool writes (encoding and separator detected,
  spreadsheet row numbers in every message), read in chunks; `text_encoding`: which encoding
  a CSV is in (`grader.text_encoding`), a file that is no text refused as a CSVFormatError.
- `exam_file`: exam files (`exam.yaml`), every mistake at its line and column.
- `exam_io`: marked answers, formula-safe CSV output.
- `chunk_graders`: what grades a chunk of rows (one answer column, a wide export, a long one).
- `batch`: grading an export chunk by chunk, resumable after a crash.
"""

from __future__ import annotations

__all__ = ["CSVFormatError", "Exam", "MarkedAnswers", "read_exam", "read_marked_answers"]

_LAZY = {"CSVFormatError": "grader.exams.text_encoding", "Exam": "grader.exams.exam_file",
         "read_exam": "grader.exams.exam_file", "MarkedAnswers": "grader.exams.exam_io",
         "read_marked_answers": "grader.exams.exam_io"}


def __getattr__(name: str):
    # Imported when first used, as in `grader.grading`, so that reading an exam file (and saying
    # which of the files it names are missing) does not wait for pandas.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'grader.exams' has no attribute {name!r}")
