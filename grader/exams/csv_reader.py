"""Reading CSV exports as they come: detecting encoding and separator, streaming records.

Real exports are messy, so reading detects what it can:

- encoding: a BOM (UTF-8, UTF-16) wins; otherwise the file is checked to be valid UTF-8 and,
  if it is not, charset-normalizer picks a legacy encoding (typically Windows-1252); see
  `grader.text_encoding`;
- separator: comma, semicolon or tab, from the header and csv.Sniffer on a sample;
- quoted newlines inside answers, blank answers, "NA" answers (kept as text), short rows
  (padded with blanks), blank lines (skipped).

What cannot be fixed is reported with the *row number a teacher sees in a spreadsheet*
(the header is row 1; an answer with a line break in it is still one row).

Records are read with Python's csv module rather than pandas: it streams, never turns a
cell into anything but text, and knows which record (not which physical line) it is on.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator, Sequence

import numpy as np
import pandas as pd

from grader.exams.text_encoding import NOT_TEXT, CSVFormatError, detect_encoding  # noqa: F401 (re-exported)

csv.field_size_limit(min(2**31 - 1, 64 * 1024 * 1024))

DELIMITERS = (",", ";", "\t")


# ---------------------------------------------------------------------------------------
# Format detection


@dataclass(frozen=True)
class CSVFormat:
    """How a CSV file is encoded and separated, as detected."""

    encoding: str
    delimiter: str
    sep_line: bool = False  # the file starts with Excel's "sep=;" line (not a row)

    def describe(self) -> str:
        """How the file was read, in a teacher's words: "read as UTF-8 text with a comma
        between cells"."""
        names = {",": "a comma", ";": "a semicolon", "\t": "a tab"}
        encodings = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16", "cp1252": "Windows (cp1252)",
                     "latin-1": "Latin-1", "iso-8859-1": "Latin-1"}
        encoding = encodings.get(self.encoding.lower(), self.encoding)
        between = names.get(self.delimiter, repr(self.delimiter))
        return f"read as {encoding} text with {between} between cells"


def detect_delimiter(sample: str) -> str:
    """Comma, semicolon or tab: the one that splits the header into the most cells
    (csv.Sniffer on the sample breaks ties, e.g. for a one-column header)."""
    counts = {d: len(next(csv.reader(io.StringIO(sample), delimiter=d), [])) for d in DELIMITERS}
    best = max(counts.values())
    tied = [d for d in DELIMITERS if counts[d] == best]
    if len(tied) == 1:
        return tied[0]
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        return tied[0]
    return sniffed if sniffed in tied else tied[0]


def detect_format(path: str | Path) -> CSVFormat:
    """Encoding and separator of a CSV file."""
    path = Path(path)
    encoding = detect_encoding(path)
    with open(path, encoding=encoding, newline="") as f:
        sample = f.read(64 * 1024)
    if "\x00" in sample:
        raise CSVFormatError(f"{path}: this is not a text file (it has zero bytes where text has "
                             f"none); {NOT_TEXT}")
    first_line = sample.split("\n", 1)[0].strip()
    if first_line.lower().startswith("sep=") and len(first_line) == 5:
        return CSVFormat(encoding, first_line[4], sep_line=True)  # Excel's hint: "sep=;"
    try:
        return CSVFormat(encoding, detect_delimiter(sample))
    except csv.Error as e:
        raise CSVFormatError(f"{path}: cannot read the first rows as CSV ({e}); {NOT_TEXT}") from None


# ---------------------------------------------------------------------------------------
# Reading


@dataclass
class CSVChunk:
    """A block of consecutive records: the cells as text, and each record's spreadsheet row."""

    frame: pd.DataFrame  # columns as in the header, every cell a str
    rows: np.ndarray  # spreadsheet row numbers (header = 1)


class _CountingReader(io.RawIOBase):
    """A binary file that counts the bytes read from it (for a progress bar in bytes)."""

    def __init__(self, raw: IO[bytes]):
        self._raw = raw
        self.bytes_read = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        n = self._raw.readinto(buffer)
        self.bytes_read += n or 0
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


class CSVReader:
    """Streams a CSV file in chunks of records, checking each record against the header.

    Use as a context manager; `columns` is the cleaned header, `bytes_read` the progress.
    """

    def __init__(self, path: str | Path, fmt: CSVFormat | None = None):
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"{self.path}: no such file")
        self.format = fmt or detect_format(self.path)
        self._raw = _CountingReader(open(self.path, "rb"))
        text = io.TextIOWrapper(io.BufferedReader(self._raw), encoding=self.format.encoding, newline="")
        self._reader = csv.reader(text, delimiter=self.format.delimiter)
        self._text = text
        self.row = 0  # spreadsheet row of the last record read
        self._id_cell = ""  # the first cell of the last record, whose shape ("a9" for "r12")
        # the check of a quote opened in a first cell needs: kept as is, shaped only then
        if self.format.sep_line:
            text.readline()  # Excel does not show it as a row either
        header = self._next_record()
        if header is None:
            raise CSVFormatError(f"{self.path}: the file is empty (no header row)")
        self.columns = _clean_header(header)

    @property
    def bytes_read(self) -> int:
        return self._raw.bytes_read

    def _next_record(self) -> list[str] | None:
        try:
            record = next(self._reader)
        except StopIteration:
            return None
        except csv.Error as e:
            raise CSVFormatError(f"{self.path}: row {self.row + 1}: {e}") from None
        except UnicodeDecodeError as e:
            raise CSVFormatError(f"{self.path}: row {self.row + 1}: not valid {self.format.encoding} "
                                 f"({e.reason})") from None
        self.row += 1
        return record

    def records(self) -> Iterator[tuple[int, list[str]]]:
        """(spreadsheet row, cells) for every non-blank record, padded to the header's width."""
        width = len(self.columns)
        record = self._next_record()
        while record is not None:
            row = self.row
            following = self._next_record()  # read one ahead: the last record is checked more
            if not record or (len(record) == 1 and not record[0].strip()):
                record = following
                continue  # a blank line
            if following is None and ("\n" in record[-1] or "\r" in record[-1]):
                self._check_closed(row)
            if any("\n" in cell or "\r" in cell for cell in record):
                self._check_no_rows_inside(row, record, following)
            if len(record) < width:
                record += [""] * (width - len(record))
            elif len(record) > width:
                if any(cell.strip() for cell in record[width:]):
                    raise CSVFormatError(
                        f"{self.path}: row {row}: {len(record)} cells but the header has {width} "
                        f"({self.format.describe()}); is a quote missing around "
                        f"an answer that contains the separator?")
                record = record[:width]
            if "\n" not in record[0] and len(record[0]) <= 40:
                self._id_cell = record[0]
            yield row, record
            record = following

    def _check_no_rows_inside(self, row: int, record: list[str], following: list[str] | None = None) -> None:
        """A quote opened in one row and closed a few lines later swallows the rows between
        into one answer, which the csv module accepts silently. A genuine answer with line
        breaks has lines of prose; lines that start like a row of this file (a first cell of
        the same shape as this row's, "r3" after "r2", then the separator and as many cells
        as the header, counting for the line where the quote closes the cells read after it;
        or fewer when the record ends on that line and the next record does not start like a
        row, the rest of that row having been split off as records of its own) are rows lost
        into this one, so the file is refused with their place."""
        width = len(self.columns)
        own = record[0] if "\n" not in record[0] and "\r" not in record[0] and len(record[0]) <= 40 else ""
        shape = _shape(own) or _shape(self._id_cell)  # a quote opened in the first cell: the rows before
        if not shape:
            return
        swallowed = []
        for k, cell in enumerate(record):
            lines = cell.splitlines()
            for i, line in enumerate(lines[1:], start=1):
                cells = next(csv.reader([line], delimiter=self.format.delimiter), [])
                # the last line was cut where the quote closed: the rest of that row is in
                # the cells after this one, so a short last line is a whole row with them
                last = i == len(lines) - 1
                after = len(record) - k - 1 if last else 0
                cut = last and after == 0 and following is not None and _shape(following[0] if following else "") != shape
                if len(cells) > 1 and (len(cells) + after >= width or cut) and cells[0].strip() \
                        and _shape(cells[0]) == shape:
                    swallowed.append(cells[0].strip())
        if swallowed:
            shown = ", ".join(repr(s) for s in swallowed[:5]) + (" ..." if len(swallowed) > 5 else "")
            raise CSVFormatError(
                f"{self.path}: row {row}: the quote that opens an answer on this row closes only after "
                f"{len(swallowed)} line(s) that look like rows of their own ({shown}), which would be "
                f"read as part of this answer; check the quotes of the answer on row {row}")

    def _check_closed(self, row: int) -> None:
        """A quote that is never closed swallows the rest of the file into one cell, which
        the csv module accepts silently. A multi-line last cell of the last record was
        quoted, so a file whose last cell is properly closed ends with that quote (and
        maybe a line break): anything else is an unclosed quote."""
        if self.format.encoding.startswith(("utf-16", "utf-32")):
            return  # the byte-level check below assumes an ASCII-compatible encoding
        with open(self.path, "rb") as f:
            f.seek(max(0, self.path.stat().st_size - 8))
            tail = f.read().rstrip(b"\r\n")
        if not tail.endswith(b'"'):
            raise CSVFormatError(f"{self.path}: row {row}: a quote opened in this row is never "
                                 f"closed, so the rest of the file would be one cell; check the "
                                 f"quotes of the answer on row {row}")

    def chunks(self, size: int = 2000,
               records: Iterator[tuple[int, list[str]]] | None = None) -> Iterator[CSVChunk]:
        """The records in DataFrames of at most `size` rows. `records`: a `records()` iterator
        already partly read (resuming batch grading checks its first rows one by one); a
        second `records()` would lose the record the first one has read ahead."""
        block: list[list[str]] = []
        rows: list[int] = []
        for row, record in (self.records() if records is None else records):
            block.append(record)
            rows.append(row)
            if len(block) >= size:
                yield self._chunk(block, rows)
                block, rows = [], []
        if block:
            yield self._chunk(block, rows)

    def _chunk(self, block: list[list[str]], rows: list[int]) -> CSVChunk:
        frame = pd.DataFrame(block, columns=self.columns, dtype=object)
        return CSVChunk(frame, np.asarray(rows, dtype=np.int64))

    def close(self) -> None:
        self._text.close()

    def __enter__(self) -> CSVReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _shape(cell: str) -> str:
    """The shape of an id-like cell: letters a, digit runs 9 ("r12" -> "a9", "s-0042" -> "a-9")."""
    import re

    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "9", cell.strip()))


def _clean_header(header: list[str]) -> list[str]:
    """Strip names, name blank columns, make duplicate names unique (`name.1`) as pandas does."""
    names: list[str] = []
    seen: set[str] = set()
    for i, raw in enumerate(header):
        name = raw.strip().lstrip("\ufeff") or f"Unnamed: {i}"
        base, k = name, 0
        while name in seen:
            k += 1
            name = f"{base}.{k}"
        seen.add(name)
        names.append(name)
    return names


def read_table(path: str | Path, fmt: CSVFormat | None = None) -> tuple[pd.DataFrame, np.ndarray, CSVFormat]:
    """A whole CSV file in memory: (cells as text, spreadsheet row numbers, detected format)."""
    with CSVReader(path, fmt) as reader:
        chunks = list(reader.chunks(50_000))
        columns = reader.columns
        fmt = reader.format
    if not chunks:
        return pd.DataFrame(columns=columns, dtype=object), np.zeros(0, dtype=np.int64), fmt
    frame = pd.concat([c.frame for c in chunks], ignore_index=True)
    return frame, np.concatenate([c.rows for c in chunks]), fmt


def resolve_column(name: str, columns: Sequence[str], path: str | Path, what: str = "column") -> str:
    """The header name meant by `name` (exact, else ignoring case and spaces); otherwise a
    CSVFormatError listing the columns and the closest match."""
    if name in columns:
        return name
    folded = {c.strip().casefold(): c for c in columns}
    if name.strip().casefold() in folded:
        return folded[name.strip().casefold()]
    from knowledge.errors import did_you_mean

    listed = ", ".join(repr(c) for c in columns)
    raise CSVFormatError(f"{path}: no {what} {name!r}{did_you_mean(name, columns)} (the columns are: {listed})")


def duplicate_rows(values: Sequence[str], rows: np.ndarray) -> dict[str, list[int]]:
    """Each value that occurs more than once, with the spreadsheet rows where it does."""
    series = pd.Series(list(values), dtype=object)
    dup = series.duplicated(keep=False).to_numpy()
    found: dict[str, list[int]] = {}
    for value, row in zip(series[dup], rows[dup]):
        found.setdefault(value, []).append(int(row))
    return found


def format_duplicates(dups: dict[str, list[int]], limit: int = 5) -> str:
    parts = [f"{v!r} on rows {', '.join(map(str, rs))}" for v, rs in list(dups.items())[:limit]]
    more = f" and {len(dups) - limit} more" if len(dups) > limit else ""
    return "; ".join(parts) + more
