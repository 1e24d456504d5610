"""A platform's whole export in, without writing YAML: its response columns mapped to questions.

Why: platforms export one row per student with a column of answers per question (Moodle's
"Response 1", "Response 2", ...). Which column answers which question is what an exam file
says (docs/cli.md); here the marker chooses it in the app, and `save_wide_upload` checks the
files and the choices and writes the exam file under `<workdir>/uploads/<hash>/`, as
`grader.exams.exam_file` reads it, so that the exam reopens later like any other. Every
problem is an `UploadError` naming the file (and line or column) it is about; every row and
column of the export stays in it (a response column given no question is said, not dropped).
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import yaml

from grader.app.uploads import UploadError, check_size, store_marked, store_question, strip_path
from grader.atomic_file import atomic_write_bytes
from grader.exams.exam_io import atomic_write_text, read_exam, read_table

#: Column names that identify a student in platforms' exports, the likeliest first.
ID_COLUMNS = ("email address", "email", "id number", "username", "student id", "sis login id", "id")


@dataclass(frozen=True)
class QuestionChoice:
    """One uploaded question file, the export's column holding its answers and the name of
    its marked answers file (None: none marked yet)."""

    file: tuple[str, bytes]
    column: str | None
    marked: str | None = None


def export_columns(name: str, data: bytes, max_bytes: int) -> list[str]:
    """The columns of an uploaded export as the exam will read them (`UploadError` when it
    cannot be read, or holds no answers)."""
    check_size(name, data, max_bytes)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.csv"
        path.write_bytes(data)
        try:
            frame, _, _ = read_table(path)
        except (ValueError, OSError) as exc:
            raise UploadError(f"{name}: {strip_path(exc, path, name)}") from None
    if frame.empty:
        raise UploadError(f"{name}: no answers (only a header row)")
    return [str(c) for c in frame.columns]


def question_label(name: str, data: bytes) -> str:
    """How the marker tells the uploaded question files apart: "vertical_throw (question.yaml)",
    or the file's name alone while its id cannot be read (its problems are said on keeping)."""
    import knowledge
    from knowledge.yaml_source import load_located

    try:  # the question files' reader: bounded nesting, what looks like a date stays text
        loaded, _, problems = load_located(knowledge.decode_question_text(data, name), name)
    except knowledge.KnowledgeError:
        return name
    if problems:
        return name
    qid = loaded.get("id") if isinstance(loaded, dict) else None
    return f"{qid} ({name})" if isinstance(qid, (str, int)) and str(qid).strip() else name


def likely_id_column(columns: Sequence[str]) -> str:
    """The column that most likely identifies the student (an e-mail address, an id number),
    else the first."""
    folded = {str(c).strip().casefold(): c for c in reversed(columns)}
    return next((folded[n] for n in ID_COLUMNS if n in folded), columns[0])


def unchosen_responses(columns: Sequence[str], chosen: Sequence[str | None]) -> list[str]:
    """The export's response columns ("Response 3") that no question is given: their answers
    would not be graded, which the marker should know before keeping the exam."""
    return [c for c in columns if "response" in str(c).casefold() and c not in set(chosen)]


def save_wide_upload(workdir: Path, *, questions: Sequence[QuestionChoice], marked: Mapping[str, bytes],
                     export: tuple[str, bytes], id_column: str, max_bytes: int) -> Path:
    """Check the files and the marker's choices, store them and write the exam file; return
    its path. `marked`: every marked answers file uploaded (name -> bytes), each of which
    must be given to one question."""
    if not questions:
        raise UploadError("Upload at least one question file.")
    for name, data in [q.file for q in questions] + list(marked.items()) + [export]:
        check_size(name, data, max_bytes)
    columns = export_columns(*export, max_bytes)
    _check_choices(questions, marked, columns, id_column, export[0])

    key = [export[1], id_column.encode()] + [b"\0".join([q.file[1], str(q.column).encode(),
                                                          marked.get(q.marked or "", b"")]) for q in questions]
    digest = hashlib.sha256(b"\1".join(key)).hexdigest()[:16]
    folder = Path(workdir) / "uploads" / f"wide-{digest}"
    folder.mkdir(parents=True, exist_ok=True)
    entries, files_of = [], {}
    for i, q in enumerate(questions, 1):
        loaded = store_question(folder / f"question-{i}.yaml", q.file)
        if loaded.id in files_of:
            raise UploadError(f"{files_of[loaded.id]} and {q.file[0]} are both question {loaded.id!r}: "
                              f"upload each question once")
        files_of[loaded.id] = q.file[0]
        entry = {"id": loaded.id, "question": f"question-{i}.yaml", "column": q.column}
        if q.marked is not None:
            store_marked(folder / f"marked-{i}.csv", (q.marked, marked[q.marked]), loaded)
            entry["training"] = f"marked-{i}.csv"
        entries.append(entry)
    atomic_write_bytes(folder / "export.csv", export[1])
    exam = {"name": Path(export[0]).stem, "answers": "export.csv", "layout": "wide",
            "id_column": id_column, "questions": entries}
    exam_path = folder / "exam.yaml"
    atomic_write_text(exam_path, yaml.safe_dump(exam, allow_unicode=True, sort_keys=False))
    try:
        read_exam(exam_path)  # as it will be opened, now and later
    except (ValueError, OSError) as exc:
        raise UploadError(f"the exam made from {export[0]} cannot be read back: {exc}") from None
    return exam_path


def _check_choices(questions: Sequence[QuestionChoice], marked: Mapping[str, bytes], columns: Sequence[str],
                   id_column: str, export_name: str) -> None:
    """Every question a column of the export, no column twice, the id column none of them,
    every marked answers file given to one question."""
    if id_column not in columns:
        raise UploadError(f"{export_name} has no column {id_column!r} to identify the students")
    taken: dict[str, str] = {}
    for q in questions:
        name = q.file[0]
        if not q.column:
            raise UploadError(f"{name}: choose the column of {export_name} that holds its answers")
        if q.column not in columns:
            raise UploadError(f"{name}: {export_name} has no column {q.column!r}")
        if q.column == id_column:
            raise UploadError(f"{name}: column {q.column!r} identifies the students; choose the column "
                              f"of its answers")
        if q.column in taken:
            raise UploadError(f"column {q.column!r} of {export_name} is chosen for both {taken[q.column]} "
                              f"and {name}; each question has a column of its own")
        taken[q.column] = name
    given: dict[str, str] = {}
    for q in questions:
        if q.marked is None:
            continue
        if q.marked not in marked:
            raise UploadError(f"{q.file[0]}: no marked answers file {q.marked!r} was uploaded")
        if q.marked in given:
            raise UploadError(f"{q.marked} is chosen as the marked answers of both {given[q.marked]} "
                              f"and {q.file[0]}; each question has its own")
        given[q.marked] = q.file[0]
    unused = [m for m in marked if m not in given]
    if unused:
        raise UploadError(f"{', '.join(unused)}: choose the question these marked answers belong to, "
                          f"or leave the file out")
