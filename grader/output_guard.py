"""Checks before the command line writes a file: never over one of its own inputs, and never
over a file of another kind (a model over a CSV) unless the user says `--force`. And, for the
files it reads, that they are there (`InputFile`, `check_inputs`: before the grading model is
imported, so a mistyped file name is said at once).

A command that replaces its own input loses the teacher's work with exit status 0, so the
check runs before any work is done. The kind of an existing file is read from its content,
not its name (`marked.json` may well be a CSV): only its first bytes are read, and only
from a regular file.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import stat
from pathlib import Path
from typing import Iterable, Sequence

#: The kinds of file the command line writes, as a teacher would name them.
MODEL, GRADED_CSV, REPORT_JSON = "model file", "graded CSV", "evaluation report"
FEATURES = "feature table"
#: A question file with proposals added (`grader suggest-rubric`); never recognised: replaced only with --force.
QUESTION_FILE = "question file"
#: Moodle's or Canvas's grade file, or Canvas's comments (`grader grade --moodle/--canvas`).
GRADE_FILE = "grade file"

#: The stop estimate `grader grade --json` writes, and the "format" it carries.
STOP_JSON, STOP_FORMAT = "stop estimate", "physics-grader-stop"

#: The kinds written as CSV text, and the names of spreadsheets' own formats, which such a
#: file must not take: Excel will not open CSV text named graded.xlsx.
_CSV_KINDS = frozenset({GRADED_CSV, GRADE_FILE, FEATURES})
_SPREADSHEET_SUFFIXES = frozenset({".xlsx", ".xls", ".xlsm", ".ods", ".numbers"})

#: How much of an existing file is read to tell its kind.
SNIFF_BYTES = 64 * 1024

_MODEL_FORMATS = ("physics-grader-model", "physics-grader/confold-model", "physics-grader-general-model")
_FORMAT_KEY = re.compile(r'"format"\s*:\s*"([^"\\]{1,100})"')


class OutputRefused(ValueError):
    """Writing the output would destroy a file the user did not mean to replace."""


def check_output(out: Path, kind: str, inputs: Iterable[Path | None], force: bool = False) -> None:
    """Raise OutputRefused when `out` is one of `inputs` (always) or an existing file that is
    not a `kind` (unless `force`), or when its name says a spreadsheet's own format and the
    `kind` is written as CSV text. A missing or empty `out` is otherwise fine."""
    out = Path(out)
    if kind in _CSV_KINDS and out.suffix.lower() in _SPREADSHEET_SUFFIXES:
        raise OutputRefused(f"{out}: the {kind} is written as CSV text, which a spreadsheet refuses to open under "
                            f"the name {out.suffix}; name it .csv (spreadsheets open .csv files)")
    try:
        info = out.stat()
    except FileNotFoundError:
        return
    except OSError as err:
        raise OutputRefused(f"{out}: cannot check the output file ({err.strerror or err})") from None
    for source in inputs:
        if source is not None and _same_file(out, Path(source)):
            raise OutputRefused(f"{out}: this is also an input of the command ({source}); "
                                f"writing the {kind} there would destroy it. Choose another output file")
    if not stat.S_ISREG(info.st_mode):
        raise OutputRefused(f"{out}: not a regular file; the {kind} must be written to a file")
    if force or info.st_size == 0:
        return
    if kind == QUESTION_FILE:  # never recognised: a question file may hold the teacher's edits
        raise OutputRefused(f"{out} already exists, and as a question file it may hold your edits; "
                            "choose another output file, or add --force to replace it")
    found = sniff_kind(out)
    if found != kind:
        what = f"is {_a(found)}, not {_a(kind)}" if found else f"does not look like {_a(kind)}"
        raise OutputRefused(f"{out} already exists and {what}; choose another output file, or add "
                            f"--force to replace it")


class InputFile(argparse.Action):
    """An argparse action for a file the command reads (`what`: "model file", ...): stores the
    path and notes it in `namespace.input_files`, which `check_inputs` checks before the command
    runs (so before it imports the grading model: a mistyped name is said at once)."""

    def __init__(self, option_strings: Sequence[str], dest: str, what: str = "file", **kwargs) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.what = what

    def __call__(self, parser, namespace, value, option_string=None) -> None:
        path = Path(value)
        setattr(namespace, self.dest, path)
        note_inputs(namespace, (path, self.what))


def note_inputs(namespace: argparse.Namespace, *files: tuple[Path, str]) -> None:
    """Note (path, what it is) of files a command reads, for `check_inputs` (`InputFile`, and
    actions that take several files in one argument)."""
    found = list(getattr(namespace, "input_files", None) or [])
    setattr(namespace, "input_files", found + list(files))


def check_inputs(args: argparse.Namespace) -> None:
    """FileNotFoundError (or IsADirectoryError) for the first file noted by `InputFile` that is
    not a file: "PATH: no such model file"."""
    for path, what in getattr(args, "input_files", None) or []:
        if path.is_dir():
            raise IsADirectoryError(f"{path}: a folder, not {_a(what)}")
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such {what}")


def question_inputs(question: Path) -> list[Path]:
    """The question file and the .lp rule files it names (`background: rules.lp`,
    `- file: rules.lp`): all are inputs of a command that reads the question."""
    import yaml

    found = [Path(question)]
    try:
        data = yaml.safe_load(Path(question).read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, TypeError, RecursionError, yaml.YAMLError):
        return found  # the loader reports the problem
    if not isinstance(data, dict):
        return found
    for key in ("background", "initial_rules"):
        section = data.get(key)
        items = section if isinstance(section, list) else [section]
        for item in items:
            name = item.get("file") if isinstance(item, dict) else item
            if isinstance(name, str) and "\n" not in name and name.strip().endswith(".lp"):
                found.append(Path(question).parent / name.strip())
    return found


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def sniff_kind(path: Path) -> str | None:
    """Which of the command line's outputs `path` holds, from its first bytes; None if none."""
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8-sig", errors="replace")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        match = _FORMAT_KEY.search(stripped[:4096])
        if match and match.group(1) in _MODEL_FORMATS:
            return MODEL
        if match and match.group(1) == STOP_FORMAT:
            return STOP_JSON
        if _is_report(head, stripped):
            return REPORT_JSON
        return None
    if text.startswith("% features of ") or {"coverage", "non_answer"} <= set(text.split("\n", 1)[0].split(",")):
        return FEATURES
    if _is_graded_header(text):
        return GRADED_CSV
    return GRADE_FILE if _is_grade_file_header(text) else None


def _is_report(head: bytes, text: str) -> bool:
    if len(head) < SNIFF_BYTES:
        try:
            data = json.loads(text)
        except ValueError:
            return False
        return isinstance(data, dict) and {"folds", "accuracy", "qwk", "curve"} <= data.keys()
    return all(f'"{k}"' in text for k in ("folds", "accuracy", "qwk", "curve"))


def _is_graded_header(text: str) -> bool:
    """A CSV whose header row has the columns grading adds (`mark` ... or `q1:mark` ...)."""
    first = text.split("\n", 1)[0].rstrip("\r")
    for delimiter in ",;\t|":
        try:
            cells = next(csv.reader(io.StringIO(first), delimiter=delimiter))
        except (csv.Error, StopIteration):
            continue
        columns = _grade_columns()
        if all(any(c == g or c.endswith(":" + g) for c in cells) for g in columns):
            return True
    return False


def _is_grade_file_header(text: str) -> bool:
    """A grade file's header: Canvas's identity columns first, or the exam's total last (Moodle)."""
    try:
        cells = next(csv.reader(io.StringIO(text.split("\n", 1)[0].rstrip("\r"))))
    except (csv.Error, StopIteration):
        return False
    return cells[:4] == ["Student", "ID", "SIS User ID", "SIS Login ID"] or cells[-1].endswith(" total")


def _grade_columns() -> tuple[str, ...]:
    """The columns grading adds, imported when a file's kind is checked: importing the
    graders means importing the grading model, which the command line's start (its help, its
    argument errors) does without."""
    from grader.exams.chunk_graders import GRADE_COLUMNS

    # outputs written before grading added `feedback` are graded outputs too
    return tuple(c for c in GRADE_COLUMNS if c != "feedback")
