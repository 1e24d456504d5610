"""Which files on the server the app may open: only below the folders it serves.

An exam file typed into the "exam file on this computer" box, or a file an exam file names
(the export, question files, marked answers, models), could otherwise point the app at any
file the server can read (`/etc/passwd`, another user's data, `/dev/zero`, a FIFO). The app
opens such a file only when it lies below the served folder (setting GRADER_SERVE_DIR,
default the folder the app was started in), the app's working folder (uploads, the copy of
the sample) or the bundled sample data, after symlinks and `..` are resolved, and only a
regular file of bounded size. Refusals name the file, never its content.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.local_files import FileRefused, check_regular_file, inside

from grader.app.settings import REPO, AppSettings
from grader.exams.exam_file import FILE_KINDS, Exam, read_exam

#: The largest exam file or question file (YAML a teacher writes) the app opens.
MAX_TEXT_FILE_BYTES = 1_000_000
#: The largest file an exam file may name (an export, marked answers, a model).
MAX_NAMED_FILE_BYTES = 500_000_000


def served_folders(settings: AppSettings) -> list[Path]:
    """The folders the app may read exam files and the files they name from."""
    return [settings.serve_dir, settings.workdir, REPO / "sample_data"]


def check_served_file(path: Path, settings: AppSettings, max_bytes: int, what: str) -> None:
    """FileRefused unless `path` is a regular file of at most `max_bytes` below a served folder."""
    if not inside(path, served_folders(settings)):
        raise FileRefused(f"{path}: the app opens {what}s only below {settings.serve_dir} "
                          f"(setting GRADER_SERVE_DIR) or its working folder")
    try:
        check_regular_file(path, max_bytes, what)
    except FileRefused as err:
        raise FileRefused(f"{path}: {err}") from None


def cannot_open_text(path: Path, error: Exception) -> str:
    """"Cannot open PATH: why", the path said once: most messages start with the file they are
    about (a refusal, a mistake at a line and column of the exam file)."""
    why = str(error)
    return f"Cannot open {why}" if why.startswith(f"{path}:") else f"Cannot open {path}: {why}"


def served_exam(path: Path, settings: AppSettings) -> Exam:
    """The exam in `path`, after checking that it and every file it names may be opened."""
    path = Path(path)
    check_served_file(path, settings, MAX_TEXT_FILE_BYTES, "exam file")
    exam = read_exam(path)
    for file, what, where in exam.named_files():  # refused at the line of the exam file naming it
        limit = MAX_TEXT_FILE_BYTES if what == FILE_KINDS["question"] else MAX_NAMED_FILE_BYTES
        try:
            check_served_file(Path(file), settings, limit, what)
        except FileRefused as err:
            raise FileRefused(f"{where}{err}") from None
    return exam
