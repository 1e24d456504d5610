"""Which encoding an exam CSV is in (`grader.text_encoding`, which question files share),
with a file that is no text refused as a CSVFormatError that says how to save it."""

from __future__ import annotations

from pathlib import Path

from grader.text_encoding import NotText
from grader.text_encoding import detect_encoding as _detect_encoding

NOT_TEXT = "save it from your spreadsheet or learning platform as CSV (UTF-8) and try again"


class CSVFormatError(ValueError):
    """A CSV file that cannot be read as asked; the message names the file and the row."""


def detect_encoding(path: str | Path) -> str:
    """The encoding of a CSV file; CSVFormatError if it is a workbook, a PDF or other data."""
    try:
        return _detect_encoding(path)
    except NotText as err:
        raise CSVFormatError(f"{path}: {err.says('a CSV file')}; {NOT_TEXT}") from None
