"""Reading the CSV files teachers bring (marked answers, exam exports) and writing safe CSV.

Real exports are messy, so reading detects what it can:

- encoding: a BOM (UTF-8, UTF-16) wins; otherwise the file is checked to be valid UTF-8 and,
  if it is not, charset-normalizer picks a legacy encoding (typically Windows-1252);
- separator: comma, semicolon or tab, from the header and csv.Sniffer on a sample;
- quoted newlines inside answers, blank answers, "NA" answers (kept as text), short rows
  (padded with blanks), blank lines (skipped).

What cannot be fixed is reported with the *row number a teacher sees in a spreadsheet*
(the header is row 1; an answer with a line break in it is still one row).

Records are read with Python's csv module rather than pandas: it streams, never turns a
cell into anything but text, and knows which record (not which physical line) it is on.

Duplicate ids: an error in marked answers (two marks for one answer is a mistake to fix);
a warning for exams, where both rows are kept and graded (a student's second attempt is
not ours to throw away; the teacher sees both).

Writing: `write_csv_safely` neutralises every cell a spreadsheet would run as a formula
(leading `=`, `+`, `-`, `@`, tab, CR) by prefixing `'`, cells copied from the input too,
and replaces the target atomically. Output is UTF-8 with a BOM so that Excel reads it right.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd
import yaml

csv.field_size_limit(min(2**31 - 1, 64 * 1024 * 1024))

DELIMITERS = (",", ";", "\t")
OUTPUT_ENCODING = "utf-8-sig"
_SAMPLE_BYTES = 256 * 1024
#: First characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection),
#: plus their full-width forms, which some spreadsheets normalise.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


class CSVFormatError(ValueError):
    """A CSV file that cannot be read as asked; the message names the file and the row."""


# ---------------------------------------------------------------------------------------
# Format detection


@dataclass(frozen=True)
class CSVFormat:
    """How a CSV file is encoded and separated, as detected."""

    encoding: str
    delimiter: str

    def describe(self) -> str:
        names = {",": "comma", ";": "semicolon", "\t": "tab"}
        return f"{self.encoding}, {names.get(self.delimiter, repr(self.delimiter))}-separated"


def detect_encoding(path: str | Path) -> str:
    """The encoding of a text file: from its BOM, else UTF-8 if it is valid, else a guess."""
    path = Path(path)
    with open(path, "rb") as f:
        head = f.read(4)
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    bad_at = _first_invalid_utf8(path)
    if bad_at is None:
        return "utf-8"
    with open(path, "rb") as f:
        sample = f.read(_SAMPLE_BYTES)
        if bad_at > len(sample):
            f.seek(max(0, bad_at - 4096))
            sample += b"\n" + f.read(8192)
    for encoding in _legacy_candidates(sample):
        if _decodes(path, encoding):
            return encoding
    return "latin-1"  # decodes any bytes; better than refusing the file


def _first_invalid_utf8(path: Path) -> int | None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as e:
                return offset + e.start
            offset += len(block)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return offset
    return None


def _legacy_candidates(sample: bytes) -> list[str]:
    """Encodings to try for a file that is not UTF-8, most likely first."""
    from charset_normalizer import from_bytes

    guesses = [m.encoding for m in from_bytes(sample)]
    guesses = [g for g in guesses if g not in ("ascii", "utf_8")]
    # Windows-1252 is by far the most common legacy encoding of Western exports: prefer it
    # when the library's best guess is one of its close relatives (latin-1, cp1250, ...).
    if not guesses or guesses[0] in _WESTERN:
        return list(dict.fromkeys(["cp1252"] + guesses))
    return list(dict.fromkeys(guesses + ["cp1252"]))


_WESTERN = {"cp1252", "latin_1", "iso8859_15", "cp1250", "iso8859_2", "mac_roman", "cp850", "cp1257"}


def _decodes(path: Path, encoding: str) -> bool:
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                decoder.decode(block)
        decoder.decode(b"", final=True)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


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
    return CSVFormat(encoding, detect_delimiter(sample))


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
            if len(record) < width:
                record += [""] * (width - len(record))
            elif len(record) > width:
                if any(cell.strip() for cell in record[width:]):
                    raise CSVFormatError(
                        f"{self.path}: row {row}: {len(record)} cells but the header has {width} "
                        f"(separator detected: {self.format.describe()}); is a quote missing around "
                        f"an answer that contains the separator?")
                record = record[:width]
            yield row, record
            record = following

    def _check_closed(self, row: int) -> None:
        """A quote that is never closed swallows the rest of the file into one cell, which
        the csv module accepts silently. A multi-line last cell of the last record was
        quoted, so a file whose last cell is properly closed ends with that quote (and
        maybe a line break): anything else is an unclosed quote."""
        if self.format.encoding.startswith("utf-16"):
            return  # the byte-level check below assumes an ASCII-compatible encoding
        with open(self.path, "rb") as f:
            f.seek(max(0, self.path.stat().st_size - 8))
            tail = f.read().rstrip(b"\r\n")
        if not tail.endswith(b'"'):
            raise CSVFormatError(f"{self.path}: row {row}: a quote opened in this row is never "
                                 f"closed, so the rest of the file would be one cell; check the "
                                 f"quotes of the answer on row {row}")

    def chunks(self, size: int = 2000) -> Iterator[CSVChunk]:
        """The records in DataFrames of at most `size` rows."""
        block: list[list[str]] = []
        rows: list[int] = []
        for row, record in self.records():
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
    from rapidfuzz import process

    match = process.extractOne(name, list(columns))
    hint = f"; did you mean {match[0]!r}?" if match and match[1] >= 60 else ""
    listed = ", ".join(repr(c) for c in columns)
    raise CSVFormatError(f"{path}: no {what} {name!r}{hint} (the columns are: {listed})")


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
                        f"(rows {_row_list(rows[unmarked])})")
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


def normalise_marks(given: Sequence[str], marks: Sequence[str], rows: np.ndarray, path: str | Path) -> list[str]:
    """Map each given mark to the question's spelling of it ("1.0" -> "1"); error if unknown."""
    given = [str(g).strip() for g in given]
    if not marks:
        return given
    allowed = {m: m for m in marks}
    for m in marks:
        number = _as_number(m)
        if number is not None:
            allowed.setdefault(repr(number), m)
    out: list[str] = []
    bad: dict[str, list[int]] = {}
    for g, row in zip(given, rows):
        if g in allowed:
            out.append(allowed[g])
            continue
        number = _as_number(g)
        if number is not None and repr(number) in allowed:
            out.append(allowed[repr(number)])
        else:
            bad.setdefault(g, []).append(int(row))
    if bad:
        listed = "; ".join(f"{g!r} on rows {_row_list(r, 5)}" for g, r in list(bad.items())[:5])
        raise CSVFormatError(f"{path}: marks not among the question's marks "
                             f"({', '.join(map(repr, marks))}): {listed}")
    return out


def _as_number(text: str) -> float | None:
    try:
        value = float(str(text).replace(",", "."))
    except ValueError:
        return None
    return value if np.isfinite(value) else None


def marks_from_answers(marks: Iterable[str]) -> tuple[str, ...]:
    """The ordered list of marks found in marked answers: numerically if they all look like
    numbers ("0" < "0.5" < "1" < "10"), else alphabetically."""
    distinct = sorted(set(str(m) for m in marks))
    numbers = [_as_number(m) for m in distinct]
    if all(n is not None for n in numbers):
        return tuple(m for _, m in sorted(zip(numbers, distinct)))
    return tuple(distinct)


# ---------------------------------------------------------------------------------------
# Exam files (exam.yaml)


@dataclass(frozen=True)
class ExamQuestion:
    """One question of an exam: where its answers are and what grades them."""

    id: str
    column: str | None  # the answer column (wide layout); None in long layout
    question: Path | None = None  # the question file
    training: Path | None = None  # marked answers to train on
    model: Path | None = None  # a trained model file (used instead of training when given)


@dataclass(frozen=True)
class Exam:
    """An exam file: the export to grade and how its columns map to questions."""

    name: str
    answers: Path
    layout: str  # "wide" (one row per student) or "long" (one answer per row)
    id_column: str | None
    questions: tuple[ExamQuestion, ...]
    answer_column: str = "answer"  # long layout
    question_column: str | None = None  # long layout with several questions
    source: Path | None = None


_EXAM_KEYS = {"name", "answers", "layout", "id_column", "questions", "answer_column", "question_column"}
_QUESTION_KEYS = {"id", "question", "column", "training", "model"}


def read_exam(path: str | Path) -> Exam:
    """Read an exam file (see docs/cli.md); paths in it are relative to the file."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise CSVFormatError(f"{path}{where}: not valid YAML ({getattr(e, 'problem', e)})") from None
    if not isinstance(data, dict):
        raise CSVFormatError(f"{path}: an exam file is a mapping with 'answers', 'layout' and 'questions'")
    unknown = set(data) - _EXAM_KEYS
    if unknown:
        raise CSVFormatError(f"{path}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                             f"expected {', '.join(sorted(_EXAM_KEYS))}")
    for key in ("answers", "questions"):
        if key not in data:
            raise CSVFormatError(f"{path}: missing key {key!r}")
    layout = str(data.get("layout", "wide"))
    if layout not in ("wide", "long"):
        raise CSVFormatError(f"{path}: layout must be 'wide' or 'long', not {layout!r}")
    base = path.parent
    entries = data["questions"]
    if not isinstance(entries, list) or not entries:
        raise CSVFormatError(f"{path}: 'questions' must be a non-empty list")
    questions = []
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or "id" not in entry:
            raise CSVFormatError(f"{path}: question {i} needs at least an 'id'")
        unknown = set(entry) - _QUESTION_KEYS
        if unknown:
            raise CSVFormatError(f"{path}: question {entry['id']!r}: unknown key(s) "
                                 f"{', '.join(sorted(map(str, unknown)))}; expected {', '.join(sorted(_QUESTION_KEYS))}")
        if layout == "wide" and not entry.get("column"):
            raise CSVFormatError(f"{path}: question {entry['id']!r} needs the 'column' holding its answers")
        if not entry.get("model") and not (entry.get("question") and entry.get("training")):
            raise CSVFormatError(f"{path}: question {entry['id']!r} needs a 'model', or a 'question' "
                                 f"file and 'training' answers")
        questions.append(ExamQuestion(
            id=str(entry["id"]), column=str(entry["column"]) if entry.get("column") else None,
            question=base / entry["question"] if entry.get("question") else None,
            training=base / entry["training"] if entry.get("training") else None,
            model=base / entry["model"] if entry.get("model") else None))
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise CSVFormatError(f"{path}: a question id appears twice")
    if layout == "long" and len(questions) > 1 and not data.get("question_column"):
        raise CSVFormatError(f"{path}: a long export with several questions needs 'question_column'")
    return Exam(name=str(data.get("name", path.stem)), answers=base / data["answers"], layout=layout,
                id_column=str(data["id_column"]) if data.get("id_column") else None,
                questions=tuple(questions), answer_column=str(data.get("answer_column", "answer")),
                question_column=str(data["question_column"]) if data.get("question_column") else None,
                source=path)


# ---------------------------------------------------------------------------------------
# Safe writing


def neutralise(value: object) -> str:
    """The cell as text, with `'` in front if a spreadsheet would run it as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text


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
            columns.append([("'" + c) if c.startswith(FORMULA_PREFIXES) else c
                            for c in map(_cell_text, values)])
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


def atomic_write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write a file by a temp file in the same folder, fsync, os.replace."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_csv_safely(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a DataFrame as a CSV a spreadsheet can open without running anything, atomically."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"{path.parent}: no such folder")
    atomic_write_text(path, csv_text([str(c) for c in frame.columns], neutralise_frame(frame)),
                      encoding=OUTPUT_ENCODING)
