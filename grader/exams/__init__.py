"""The files an exam comes in and goes out as.

- `csv_reader`: any CSV a teacher's export tool writes (encoding and separator detected,
  spreadsheet row numbers in every message), read in chunks; `text_encoding`: which encoding
  a file is in, and whether it is text at all.
- `exam_io`: marked answers, exam files (`exam.yaml`), formula-safe CSV output.
- `chunk_graders`: what grades a chunk of rows (one answer column, a wide export, a long one).
- `batch`: grading an export chunk by chunk, resumable after a crash.
"""

from __future__ import annotations

from grader.exams.csv_reader import CSVFormatError
from grader.exams.exam_io import Exam, MarkedAnswers, read_exam, read_marked_answers

__all__ = ["CSVFormatError", "Exam", "MarkedAnswers", "read_exam", "read_marked_answers"]
