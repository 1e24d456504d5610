"""Grading a CSV export in chunks: constant memory, a progress bar, and resume after a crash.

The output is written to `OUT.partial` chunk by chunk (each chunk flushed and fsynced), with
a small `OUT.partial.json` saying which input and which model(s) it came from. When a run is
interrupted and started again with the same input and models, the complete rows already in
`OUT.partial` are kept (a torn last row is cut off), the same number of input rows is
skipped (checking they are the rows the partial file holds), and grading continues. At the
end `OUT.partial` is renamed to `OUT`, so `OUT` only ever appears complete, and every input
row is in it exactly once.

Output row i is input row i (blank lines aside): nothing is dropped, not blank answers (they
are graded as non-answers and flagged) nor duplicate ids (reported as a warning, both kept).
Memory holds one chunk plus the set of ids seen (for the duplicate warning).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Mapping, Protocol, Sequence

import numpy as np
import pandas as pd

from grader.atomic_file import atomic_write_text
from grader.exams.exam_io import (OUTPUT_ENCODING, CSVFormat, CSVFormatError, CSVReader, Exam,
                            csv_text, neutralise, neutralise_frame, resolve_column)
from grader.grading.model import DEFAULT_FLAG_BELOW
from grader.grading.model_file import content_hash

#: The columns grading adds for each answer column.
GRADE_COLUMNS = ("mark", "confidence", "flagged", "rule", "explanation")


class ResumeError(ValueError):
    """A partial output that cannot be continued (other input or model, or damaged)."""


class AnswerGrader(Protocol):
    """What batch grading needs from a model (grader.grading.model.GradingModel is one)."""

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW) -> pd.DataFrame: ...

    def fingerprint(self) -> str: ...


# ---------------------------------------------------------------------------------------
# What to grade in a chunk


class ChunkGrader(Protocol):
    """Turns a chunk of input rows into the columns to add to them."""

    def output_columns(self, input_columns: Sequence[str]) -> list[str]: ...

    def bind(self, input_columns: Sequence[str], path: Path) -> None: ...

    def grade_chunk(self, frame: pd.DataFrame) -> pd.DataFrame: ...

    def fingerprint(self) -> str: ...


def format_grades(grades: pd.DataFrame) -> pd.DataFrame:
    """The grading columns as the text written to CSV (empty mark/confidence when none)."""
    confidence = grades["confidence"].to_numpy(dtype=float)
    return pd.DataFrame({
        "mark": ["" if m is None or m != m else str(m) for m in grades["mark"].to_numpy(dtype=object)],
        "confidence": ["" if c != c else f"{c:.4f}" for c in confidence.tolist()],
        "flagged": np.where(grades["flagged"].to_numpy(dtype=bool), "yes", "no").astype(object),
        "rule": grades["rule"].to_numpy(dtype=object),
        "explanation": grades["explanation"].to_numpy(dtype=object),
    }, dtype=object)


@dataclass
class ColumnGrader:
    """Grade one answer column with one model (optionally naming the added columns
    `PREFIX:mark`, ... as the wide exam layout does)."""

    model: AnswerGrader
    answer_column: str = "answer"
    flag_below: float = DEFAULT_FLAG_BELOW
    prefix: str = ""
    _column: str | None = field(default=None, repr=False)

    def output_columns(self, input_columns: Sequence[str]) -> list[str]:
        return [f"{self.prefix}{c}" for c in GRADE_COLUMNS]

    def bind(self, input_columns: Sequence[str], path: Path) -> None:
        self._column = resolve_column(self.answer_column, input_columns, path, "answer column")

    def grade_chunk(self, frame: pd.DataFrame) -> pd.DataFrame:
        grades = format_grades(self.model.grade(frame[self._column].tolist(), flag_below=self.flag_below))
        grades.columns = self.output_columns(frame.columns)
        return grades

    def fingerprint(self) -> str:
        return content_hash([self.model.fingerprint(), self.answer_column, self.flag_below, self.prefix])


@dataclass
class WideGrader:
    """A wide export (one row per student): each question's column with its own model."""

    graders: Sequence[ColumnGrader]

    def output_columns(self, input_columns: Sequence[str]) -> list[str]:
        return [c for g in self.graders for c in g.output_columns(input_columns)]

    def bind(self, input_columns: Sequence[str], path: Path) -> None:
        for g in self.graders:
            g.bind(input_columns, path)

    def grade_chunk(self, frame: pd.DataFrame) -> pd.DataFrame:
        return pd.concat([g.grade_chunk(frame) for g in self.graders], axis=1)

    def fingerprint(self) -> str:
        return content_hash([g.fingerprint() for g in self.graders])


@dataclass
class LongGrader:
    """A long export (one answer per row) holding several questions: the question column
    says which model grades the row; a row of an unknown question is left unmarked and flagged."""

    models: Mapping[str, AnswerGrader]
    question_column: str
    answer_column: str = "answer"
    flag_below: float = DEFAULT_FLAG_BELOW
    _columns: tuple[str, str] | None = field(default=None, repr=False)

    def output_columns(self, input_columns: Sequence[str]) -> list[str]:
        return list(GRADE_COLUMNS)

    def bind(self, input_columns: Sequence[str], path: Path) -> None:
        self._columns = (resolve_column(self.question_column, input_columns, path, "question column"),
                         resolve_column(self.answer_column, input_columns, path, "answer column"))

    def grade_chunk(self, frame: pd.DataFrame) -> pd.DataFrame:
        qcol, acol = self._columns
        out = pd.DataFrame({"mark": "", "confidence": "", "flagged": "yes", "rule": "",
                            "explanation": ""}, index=range(len(frame)), dtype=object)
        questions = np.asarray([q.strip() for q in frame[qcol].tolist()], dtype=object)
        for qid in pd.unique(questions):
            rows = np.flatnonzero(questions == qid)
            model = self.models.get(qid)
            if model is None:
                out.loc[rows, "explanation"] = f"no model for question {qid!r}: for a human marker"
                continue
            answers = frame[acol].to_numpy(dtype=object)[rows].tolist()
            grades = format_grades(model.grade(answers, flag_below=self.flag_below))
            out.iloc[rows, :] = grades.to_numpy(dtype=object)
        return out

    def fingerprint(self) -> str:
        return content_hash([[k, m.fingerprint()] for k, m in sorted(self.models.items())]
                            + [self.question_column, self.answer_column, self.flag_below])


def exam_grader(exam: Exam, models: Mapping[str, AnswerGrader],
                flag_below: float = DEFAULT_FLAG_BELOW) -> ChunkGrader:
    """The chunk grader an exam file describes, with a model per question id."""
    if exam.layout == "wide":
        return WideGrader([ColumnGrader(models[q.id], q.column, flag_below, prefix=f"{q.id}:")
                           for q in exam.questions])
    if len(exam.questions) == 1 and exam.question_column is None:
        return ColumnGrader(models[exam.questions[0].id], exam.answer_column, flag_below)
    return LongGrader(models, exam.question_column, exam.answer_column, flag_below)


# ---------------------------------------------------------------------------------------
# The streaming loop


@dataclass
class BatchResult:
    """What a run of grade_file did."""

    out_path: Path
    rows: int  # rows in the output
    resumed: int  # of which were already in the partial file from an earlier run
    flagged: int  # rows in the output with at least one flag
    seconds: float
    warnings: list[str] = field(default_factory=list)


def partial_path(out_path: Path) -> Path:
    return out_path.with_name(out_path.name + ".partial")


def grade_file(answers_path: str | Path, out_path: str | Path, grader: ChunkGrader | AnswerGrader, *,
               answer_column: str = "answer", flag_below: float = DEFAULT_FLAG_BELOW,
               id_column: str | None = None,
               chunk_size: int = 2000, progress: bool | None = None, resume: bool = True,
               fmt: CSVFormat | None = None,
               after_chunk: Callable[[int], None] | None = None, jobs: int = 1) -> BatchResult:
    """Grade every row of a CSV export into `out_path` (every input column plus the grading
    columns), streaming in chunks of `chunk_size` rows.

    `grader`: a ChunkGrader (see `exam_grader`) or a single model, which then grades
    `answer_column`. `id_column`: checked for duplicates (a warning). `resume=False` discards
    an earlier partial output instead of continuing it. `progress`: a tqdm bar on stderr
    (default: when stderr is a terminal). `after_chunk(rows_written)` is called after each
    chunk is safely on disk. `jobs`: grade chunks in this many worker processes at once;
    this process still writes them in input order, so the output is the same as with one
    job and the resume guarantee holds (a chunk graded but not yet written is graded again).
    """
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    start = time.perf_counter()
    answers_path, out_path = Path(answers_path), Path(out_path)
    if not hasattr(grader, "grade_chunk"):
        grader = ColumnGrader(grader, answer_column, flag_below)  # type: ignore[arg-type]
    if not out_path.parent.is_dir():
        raise FileNotFoundError(f"{out_path.parent}: no such folder for the output")
    if out_path.resolve() == answers_path.resolve():
        raise ValueError(f"{out_path}: the output would overwrite the input")
    warnings: list[str] = []
    with CSVReader(answers_path, fmt) as reader:
        grader.bind(reader.columns, answers_path)
        id_col = resolve_column(id_column, reader.columns, answers_path, "id column") if id_column else None
        header = list(reader.columns) + grader.output_columns(reader.columns)
        if len(set(header)) != len(header):
            clash = sorted({c for c in header if header.count(c) > 1})
            raise CSVFormatError(f"{answers_path}: the input already has column(s) {', '.join(clash)} "
                                 f"that grading adds; rename them first")
        partial, meta = partial_path(out_path), Path(str(partial_path(out_path)) + ".json")
        identity = {"input": str(answers_path.resolve()), "size": answers_path.stat().st_size,
                    "mtime_ns": answers_path.stat().st_mtime_ns, "grader": grader.fingerprint(),
                    "header": header}
        done_rows = _start_partial(partial, meta, identity, header, resume)
        bar = _progress_bar(progress, answers_path.stat().st_size)
        ids_seen: dict[str, int] = {}
        duplicates: list[str] = []
        written = len(done_rows)
        flag_columns = [i for i, c in enumerate(grader.output_columns(reader.columns))
                        if c.endswith("flagged")]
        width = len(reader.columns)
        flagged = sum(any(r[width + i] == "yes" for i in flag_columns) for r in done_rows)

        def note_done(row: int, record: list[str]) -> None:  # a row graded before a resume
            if id_col is not None:
                _note_duplicates([record[reader.columns.index(id_col)]], np.asarray([row]),
                                 ids_seen, duplicates)

        def frames() -> Iterator[pd.DataFrame]:
            for frame, rows in _chunks(reader, done_rows, chunk_size, answers_path, partial, note_done):
                if id_col is not None:
                    _note_duplicates(frame[id_col].tolist(), rows, ids_seen, duplicates)
                if not frame.empty:
                    yield frame

        try:
            with open(partial, "ab") as out:
                for text, n_rows, n_flagged in _graded_chunks(grader, frames(), flag_columns, jobs,
                                                              warnings):
                    out.write(text)
                    out.flush()
                    os.fsync(out.fileno())
                    written += n_rows
                    flagged += n_flagged
                    if bar is not None:
                        bar.update(reader.bytes_read - bar.n)
                        bar.set_postfix(answers=written, refresh=False)
                    if after_chunk is not None:
                        after_chunk(written)
        finally:
            if bar is not None:
                bar.close()
    os.replace(partial, out_path)
    _fsync_dir(out_path.parent)
    meta.unlink(missing_ok=True)
    if duplicates:
        warnings.append(f"{answers_path}: duplicate ids (all rows kept and graded): "
                        + "; ".join(duplicates[:10]) + (f" and {len(duplicates) - 10} more" if len(duplicates) > 10 else ""))
    return BatchResult(out_path, written, len(done_rows), flagged, time.perf_counter() - start, warnings)


def grade_chunk_text(grader: ChunkGrader, frame: pd.DataFrame, flag_columns: Sequence[int]
                     ) -> tuple[bytes, int, int]:
    """One chunk graded into the bytes of its output rows: (bytes, rows, rows flagged)."""
    grades = grader.grade_chunk(frame)
    cells = neutralise_frame(pd.concat([frame.reset_index(drop=True),
                                        grades.reset_index(drop=True)], axis=1))
    n_flagged = int(np.any(grades.iloc[:, list(flag_columns)].to_numpy() == "yes", axis=1).sum())
    return csv_text(None, cells).encode("utf-8"), len(cells), n_flagged


#: The grader the worker processes use: set before they are forked, so that models (and the
#: spaCy pipeline they hold) are shared with the workers instead of being pickled to them.
_WORKER_JOB: tuple[ChunkGrader, Sequence[int]] | None = None


def _grade_in_worker(frame: pd.DataFrame) -> tuple[bytes, int, int]:
    grader, flag_columns = _WORKER_JOB  # type: ignore[misc]
    return grade_chunk_text(grader, frame, flag_columns)


def _graded_chunks(grader: ChunkGrader, frames: Iterator[pd.DataFrame], flag_columns: Sequence[int],
                   jobs: int, warnings: list[str]) -> Iterator[tuple[bytes, int, int]]:
    """The graded chunks in input order: here, or in `jobs` forked worker processes with at
    most two chunks per worker in flight (memory stays bounded)."""
    import multiprocessing

    if jobs > 1 and "fork" not in multiprocessing.get_all_start_methods():
        warnings.append(f"--jobs {jobs}: this system cannot fork worker processes; graded with one job")
        jobs = 1
    if jobs == 1:
        for frame in frames:
            yield grade_chunk_text(grader, frame, flag_columns)
        return
    global _WORKER_JOB
    from collections import deque

    _WORKER_JOB = (grader, list(flag_columns))
    pool = None
    try:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        pending: deque = deque()
        for frame in frames:
            pending.append(pool.apply_async(_grade_in_worker, (frame,)))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
    finally:
        if pool is not None:
            pool.terminate()  # a chunk graded but not yet written is graded again on resume
            pool.join()
        _WORKER_JOB = None


def _note_duplicates(ids: list[str], rows: np.ndarray, seen: dict[str, int], found: list[str]) -> None:
    for value, row in zip(ids, rows.tolist()):
        value = value.strip()
        first = seen.setdefault(value, row)
        if first != row:
            found.append(f"{value!r} on rows {first} and {row}")


def _progress_bar(progress: bool | None, total: int):
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="B", unit_scale=True, desc="grading", file=sys.stderr, leave=True)


def _chunks(reader: CSVReader, done_rows: list[list[str]], size: int, path: Path, partial: Path,
            on_done: Callable[[int, list[str]], None]) -> Iterator[tuple[pd.DataFrame, np.ndarray]]:
    """Chunks of input rows still to grade, after checking the first len(done_rows) input
    rows are the ones the partial output starts with (and passing them to `on_done`)."""
    records = reader.records()
    width = len(reader.columns)
    for i, done in enumerate(done_rows):
        item = next(records, None)
        if item is None or [neutralise(c) for c in item[1]] != done[:width]:
            where = f"row {item[0]}" if item else "the end of the input"
            raise ResumeError(f"{partial}: its row {i + 2} does not match {path} at {where}; "
                              f"the input changed since the interrupted run: grade again from the start "
                              f"(--restart)")
        on_done(*item)
    for chunk in reader.chunks(size, records):
        yield chunk.frame, chunk.rows


def _start_partial(partial: Path, meta: Path, identity: dict, header: list[str], resume: bool) -> list[list[str]]:
    """Prepare OUT.partial: continue it (returning its complete rows) or start it afresh."""
    if resume and partial.exists():
        try:
            previous = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            previous = None
        if previous != identity:
            raise ResumeError(f"{partial}: an interrupted run with another input or model left this "
                              f"file; grade again from the start (--restart) or delete it")
        return _recover_rows(partial, header)
    partial.unlink(missing_ok=True)
    atomic_write_text(meta, json.dumps(identity))
    with open(partial, "wb") as f:
        f.write(csv_text(header, []).encode(OUTPUT_ENCODING))
        f.flush()
        os.fsync(f.fileno())
    return []


def _recover_rows(partial: Path, header: list[str]) -> list[list[str]]:
    """The complete rows of a partial output; cuts off a torn last row on disk."""
    raw = partial.read_bytes()
    text = raw.decode(OUTPUT_ENCODING, errors="replace")
    records: list[list[str]] = []
    try:
        for record in csv.reader(io.StringIO(text, newline="")):
            records.append(record)
    except csv.Error:
        pass  # a torn quoted cell at the end
    if not records or records[0] != [neutralise(h) for h in header]:
        raise ResumeError(f"{partial}: not a partial output of this run (header differs); "
                          f"grade again from the start (--restart)")
    rows = records[1:]
    while rows:  # keep the longest prefix that is exactly what the writer writes
        if len(rows[-1]) == len(header):
            good = csv_text(header, rows)
            if text.startswith(good):
                break
        rows.pop()
    good = csv_text(header, rows).encode(OUTPUT_ENCODING)
    if not raw.startswith(good):
        raise ResumeError(f"{partial}: damaged; grade again from the start (--restart)")
    if len(raw) != len(good):
        with open(partial, "r+b") as f:
            f.truncate(len(good))
            f.flush()
            os.fsync(f.fileno())
    return rows


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
