"""Grading a CSV export in chunks: constant memory, a progress bar, and resume after a crash.

The output is written to `OUT.partial` chunk by chunk (each chunk flushed and fsynced), with
a small `OUT.partial.json` saying which input and which model(s) it came from. When a run is
interrupted and started again with the same input and models, the complete rows already in
`OUT.partial` are kept (a torn last row is cut off), the same number of input rows is
skipped (checking they are the rows the partial file holds), and grading continues. At the
end `OUT.partial` is renamed to `OUT`, so `OUT` only ever appears complete, and every input
row is in it exactly once. A run refused for a row of the input that cannot be read removes
its partial output: the corrected input is another file, which it would refuse.

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
from typing import Callable, Iterator, Sequence

import numpy as np
import pandas as pd

from grader.atomic_file import atomic_write_text
from grader.exams.chunk_graders import AnswerGrader, ChunkGrader, ColumnGrader
from grader.exams.exam_io import (OUTPUT_ENCODING, CSVFormat, CSVFormatError, CSVReader, csv_text,
                                  neutralise, neutralise_frame, resolve_column, rows_text)
from grader.grading.defaults import DEFAULT_FLAG_BELOW


class ResumeError(ValueError):
    """A partial output that cannot be continued (other input or model, or damaged)."""


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

    `grader`: a ChunkGrader (see `chunk_graders.exam_grader`) or a single model, which then grades
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
        blank_ids: list[int] = []
        written = len(done_rows)
        flag_columns = [i for i, c in enumerate(grader.output_columns(reader.columns))
                        if c.endswith("flagged")]
        width = len(reader.columns)
        flagged = sum(any(r[width + i] == "yes" for i in flag_columns) for r in done_rows)

        def note_done(row: int, record: list[str]) -> None:  # a row graded before a resume
            if id_col is not None:
                _note_duplicates([record[reader.columns.index(id_col)]], np.asarray([row]),
                                 ids_seen, duplicates, blank_ids)

        def frames() -> Iterator[pd.DataFrame]:
            for frame, rows in _chunks(reader, done_rows, chunk_size, answers_path, partial, note_done):
                if id_col is not None:
                    _note_duplicates(frame[id_col].tolist(), rows, ids_seen, duplicates, blank_ids)
                if not frame.empty:
                    yield frame

        try:
            with open(partial, "ab") as out:
                for text, n_rows, n_flagged, said in _graded_chunks(grader, frames(), flag_columns, jobs,
                                                                    warnings):
                    warnings += [f"{answers_path}: {w}" for w in said if f"{answers_path}: {w}" not in warnings]
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
        except CSVFormatError:
            # a row the file cannot be read at: the run did not stop midway, it was refused;
            # the corrected file is another input, which a partial output would refuse
            partial.unlink(missing_ok=True)
            meta.unlink(missing_ok=True)
            raise
        finally:
            if bar is not None:
                bar.close()
    os.replace(partial, out_path)
    _fsync_dir(out_path.parent)
    meta.unlink(missing_ok=True)
    if blank_ids:
        warnings.append(f"{answers_path}: {rows_text(blank_ids)} without an id in column {id_col!r} "
                        f"(a platform's average row?): graded, but no grade file can name a student for "
                        f"{'them' if len(blank_ids) > 1 else 'it'}")
    if duplicates:
        warnings.append(f"{answers_path}: duplicate ids (all rows kept and graded): "
                        + "; ".join(duplicates[:10]) + (f" and {len(duplicates) - 10} more" if len(duplicates) > 10 else ""))
    return BatchResult(out_path, written, len(done_rows), flagged, time.perf_counter() - start, warnings)


def grade_chunk_text(grader: ChunkGrader, frame: pd.DataFrame, flag_columns: Sequence[int]
                     ) -> tuple[bytes, int, int, list[str]]:
    """One chunk graded into the bytes of its output rows: (bytes, rows, rows flagged, the
    warnings of its grading)."""
    grades = grader.grade_chunk(frame)
    cells = neutralise_frame(pd.concat([frame.reset_index(drop=True),
                                        grades.reset_index(drop=True)], axis=1))
    n_flagged = int(np.any(grades.iloc[:, list(flag_columns)].to_numpy() == "yes", axis=1).sum())
    return csv_text(None, cells).encode("utf-8"), len(cells), n_flagged, list(grades.attrs.get("warnings", []))


#: The grader the worker processes use: set before they are forked, so that models (and the
#: spaCy pipeline they hold) are shared with the workers instead of being pickled to them.
_WORKER_JOB: tuple[ChunkGrader, Sequence[int]] | None = None


def _grade_in_worker(frame: pd.DataFrame) -> tuple[bytes, int, int, list[str]]:
    grader, flag_columns = _WORKER_JOB  # type: ignore[misc]
    return grade_chunk_text(grader, frame, flag_columns)


def _graded_chunks(grader: ChunkGrader, frames: Iterator[pd.DataFrame], flag_columns: Sequence[int],
                   jobs: int, warnings: list[str]) -> Iterator[tuple[bytes, int, int, list[str]]]:
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
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _WORKER_JOB = (grader, list(flag_columns))
    # An executor rather than multiprocessing.Pool: stopping a Pool with chunks in flight
    # (Pool.terminate) could deadlock for good in its task thread; an executor's shutdown lets
    # the few running chunks end, drops the queued ones, and survives a killed worker.
    executor = None
    try:
        executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"))
        pending: deque = deque()
        try:
            for frame in frames:
                pending.append(executor.submit(_grade_in_worker, frame))
                if len(pending) >= 2 * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BrokenProcessPool:
            raise OSError(f"a grading worker process stopped before its chunk was graded (killed, or out "
                          f"of memory?): the chunks written are kept, and grading again resumes after "
                          f"them; with fewer --jobs each worker needs less memory") from None
    finally:
        if executor is not None:  # a chunk graded but not yet written is graded again on resume
            executor.shutdown(wait=True, cancel_futures=True)
        _WORKER_JOB = None


def _note_duplicates(ids: list[str], rows: np.ndarray, seen: dict[str, int], found: list[str],
                     blank: list[int]) -> None:
    """Note each id seen again (`found`) and each row without an id (`blank`)."""
    for value, row in zip(ids, rows.tolist()):
        value = value.strip()
        if not value:
            blank.append(row)
            continue
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
