"""Turning uploaded files into an exam the app can open, checking them on the way.

A marker uploads a question file, its marked answers (or none yet: the app then proposes
the answers to mark first) and an exam export (one answer per row). The files are size-checked, validated (the rubric by `knowledge`, the CSVs by
`grader.exams.exam_io`) and stored under `<workdir>/uploads/<hash>/` with an `exam.yaml` that
ties them together; that exam file is then opened like any other. Every problem becomes an
`UploadError` with a message for the marker, never a traceback.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

from grader.atomic_file import atomic_write_bytes
from grader.exams.exam_io import atomic_write_text, read_marked_answers, read_table, resolve_column


class UploadError(ValueError):
    """An uploaded file cannot be used; the message says which and why."""


def megabytes(n_bytes: int) -> str:
    """A size in the megabytes of the upload setting (1 MB = 1024 x 1024 bytes, as Streamlit's
    maxUploadSize counts them): a limit of 20 is shown as "20 MB", never "21.0 MB"."""
    return f"{n_bytes / (1024 * 1024):.1f}".removesuffix(".0") + " MB"


def check_size(name: str, data: bytes, max_bytes: int) -> None:
    """`UploadError` for a file over the upload limit or empty."""
    if len(data) > max_bytes:
        raise UploadError(f"{name} is {megabytes(len(data))}; the limit is "
                          f"{megabytes(max_bytes)} (setting GRADER_MAX_UPLOAD_MB)")
    if not data.strip():
        raise UploadError(f"{name} is empty")


def save_upload(workdir: Path, *, question: tuple[str, bytes], marked: tuple[str, bytes] | None,
                export: tuple[str, bytes], id_column: str, answer_column: str,
                max_bytes: int) -> Path:
    """Check and store uploaded (name, bytes) files; return the path of the exam file made.
    `marked` None: no answers are marked yet (the app proposes the answers to mark first)."""
    files = [f for f in (question, marked, export) if f is not None]
    for name, data in files:
        check_size(name, data, max_bytes)
    digest = hashlib.sha256(b"\0".join(d for _, d in files) + (b"" if marked else b"\0unmarked")
                            + f"{id_column}\0{answer_column}".encode()).hexdigest()[:16]
    folder = Path(workdir) / "uploads" / digest
    folder.mkdir(parents=True, exist_ok=True)

    loaded = store_question(folder / "question.yaml", question)
    question_id = loaded.id

    m_path, e_path = folder / "marked.csv", folder / "export.csv"
    atomic_write_bytes(e_path, export[1])
    if marked is not None:
        store_marked(m_path, marked, loaded)
    try:
        frame, _, _ = read_table(e_path)
        if frame.empty:
            raise ValueError("no answers (only a header row)")
        ids = resolve_column(id_column, frame.columns, e_path, "id column")
        answers = resolve_column(answer_column, frame.columns, e_path, "answer column")
    except (ValueError, OSError) as exc:
        raise UploadError(f"{export[0]}: {strip_path(exc, e_path, export[0])}") from None

    entry = {"id": question_id, "question": "question.yaml"}
    if marked is not None:
        entry["training"] = "marked.csv"
    exam = {"name": f"{question_id} — {Path(export[0]).stem}", "answers": "export.csv",
            "layout": "long", "id_column": ids, "answer_column": answers, "questions": [entry]}
    exam_path = folder / "exam.yaml"
    atomic_write_text(exam_path, yaml.safe_dump(exam, allow_unicode=True, sort_keys=False))
    return exam_path


def store_question(q_path: Path, question: tuple[str, bytes]):
    """Check an uploaded question file (name, bytes), store it as `q_path` and return it as
    read (`knowledge.Question`); its problems are said by the name it was uploaded as."""
    import knowledge

    try:
        text = knowledge.decode_question_text(question[1], question[0])
    except knowledge.KnowledgeError as exc:
        raise UploadError(str(exc)) from None
    # checked where it is stored, so a rule file it names can only be one uploaded with it
    problems = knowledge.check_question_text(text, q_path)
    if problems:
        listed = "; ".join(f"line {p.line}, column {p.column}: {p.message}" for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise UploadError(f"{question[0]} has {len(problems)} problem(s): {listed}{more}")
    atomic_write_text(q_path, text)
    # the id as the question reader reads it (plain yaml.safe_load fails on `title: 2024-13-45`)
    try:
        return knowledge.load_question(q_path)
    except knowledge.KnowledgeError as exc:
        raise UploadError(str(exc).replace(str(q_path), question[0])) from None


def store_marked(m_path: Path, marked: tuple[str, bytes], loaded) -> None:
    """Store uploaded marked answers (name, bytes) as `m_path`, checked against the question."""
    atomic_write_bytes(m_path, marked[1])
    _check_marked(m_path, marked[0], loaded)


def _check_marked(m_path: Path, name: str, loaded) -> None:
    """Everything opening the exam will ask of the marked answers, checked now and said in the
    marker's terms: marks among the question's, at least two different marks to learn from."""
    try:
        answers_marked = read_marked_answers(m_path, marks=tuple(loaded.marks))
    except (ValueError, OSError) as exc:
        raise UploadError(f"{name}: {strip_path(exc, m_path, name)}") from None
    if len(set(answers_marked.marks)) < 2:
        found = ", ".join(sorted(set(answers_marked.marks))) or "none"
        raise UploadError(f"{name}: the marked answers need at least two different marks to "
                          f"learn from (found: {found})")


def strip_path(exc: Exception, path: Path, uploaded_name: str) -> str:
    """The error message without our storage path (the marker knows the file by the name it
    had when uploaded)."""
    return str(exc).replace(f"{path}: ", "").replace(str(path), uploaded_name)
