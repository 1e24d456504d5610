"""Exam files (`exam.yaml`): which export to grade and which column, question file, marked
answers or model belong to each question (docs/cli.md).

Every mistake is said at the file, line and column where it is, as in a question file.
`check_named_files` says which files an exam names are not there, each at the line naming it,
so that `grader grade --exam` says all of them before it trains anything: a typo in the last
question's file name should not cost the teacher the training of the first ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.exams.text_encoding import CSVFormatError

#: What each file an exam names is, in the words of the messages.
FILE_KINDS = {"answers": "exam export", "question": "question file", "training": "marked answers file",
              "model": "model file"}
_EXAM_KEYS = {"name", "answers", "layout", "id_column", "questions", "answer_column", "question_column"}
_QUESTION_KEYS = {"id", "question", "column", "training", "model"}


@dataclass(frozen=True)
class ExamQuestion:
    """One question of an exam: where its answers are and what grades them."""

    id: str
    column: str | None  # the answer column (wide layout); None in long layout
    question: Path | None = None  # the question file
    training: Path | None = None  # marked answers to train on; None: none marked yet (the app's starter set)
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
    #: (question id, or None for the exam's own 'answers'; key) -> (line, column) of the file
    #: name in the exam file, for messages about that file
    positions: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def named_files(self) -> list[tuple[Path, str, str]]:
        """(path, what it is, where the exam file names it: "exam.yaml:12:15: question 'q': ")
        of every file the exam names, in the file's order."""
        out = [(self.answers, FILE_KINDS["answers"], self._at(None, "answers"))]
        for q in self.questions:
            for key in ("question", "training", "model"):
                file = getattr(q, key)
                if file is not None:
                    out.append((file, FILE_KINDS[key], f"{self._at(q.id, key)}question {q.id!r}: "))
        return out

    def _at(self, qid: str | None, key: str) -> str:
        if self.source is None:  # an exam built in code, not read from a file
            return ""
        where = self.positions.get((qid, key))
        return f"{self.source}: " if where is None else f"{self.source}:{where[0]}:{where[1]}: "


class MissingFiles(FileNotFoundError):
    """Files an exam names that are not there; `problems`: one message each, at its line."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def check_named_files(exam: Exam) -> None:
    """`MissingFiles` unless every file the exam names is there."""
    problems = missing_files(exam)
    if problems:
        raise MissingFiles(problems)


def missing_files(exam: Exam) -> list[str]:
    """One message per file the exam names that is not there (or is a folder), at its line."""
    problems = []
    for file, what, where in exam.named_files():
        if file.is_dir():
            problems.append(f"{where}the {what} {file} is a folder, not a file")
        elif not file.exists():
            problems.append(f"{where}the {what} {file} does not exist")
    return problems


def read_exam(path: str | Path) -> Exam:
    """Read an exam file (see docs/cli.md); paths in it are relative to the file."""
    from knowledge.yaml_source import load_located

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise CSVFormatError(f"{path}: an exam file is YAML text in UTF-8; this file is not") from None
    # The question files' reader: plain values only (no tags; what looks like a date stays
    # text), bounded numbers and nesting, problems at file:line:column.
    data, located, problems = load_located(text, str(path))
    if problems:
        raise CSVFormatError("; ".join(str(p) for p in problems[:5]))

    def at(where: Any) -> str:
        line, column = located.of(where)
        return f"{path}:{line}:{column}: "

    def error(where: Any, message: str) -> CSVFormatError:
        return CSVFormatError(at(where) + message)

    if not isinstance(data, dict):
        raise error(data, "an exam file is a mapping with 'answers', 'layout' and 'questions'")
    unknown = sorted(map(str, set(data) - _EXAM_KEYS))
    if unknown:
        raise error(("key", data, unknown[0]), f"unknown key(s) {', '.join(unknown)}; "
                                              f"expected {', '.join(sorted(_EXAM_KEYS))}")
    for key in ("answers", "questions"):
        if key not in data:
            raise error(data, f"missing key {key!r}")
    layout = str(data.get("layout", "wide"))
    if layout not in ("wide", "long"):
        raise error(("value", data, "layout"), f"layout must be 'wide' or 'long', not {layout!r}")
    base = path.parent
    entries = data["questions"]
    if not isinstance(entries, list) or not entries:
        raise error(("value", data, "questions"), "'questions' must be a non-empty list")
    positions = {(None, "answers"): located.of(("value", data, "answers"))}
    questions = []
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or "id" not in entry:
            raise error(entry, f"question {i} needs at least an 'id'")
        unknown = sorted(map(str, set(entry) - _QUESTION_KEYS))
        if unknown:
            raise error(("key", entry, unknown[0]), f"question {entry['id']!r}: unknown key(s) "
                        f"{', '.join(unknown)}; expected {', '.join(sorted(_QUESTION_KEYS))}")
        if layout == "wide" and not entry.get("column"):
            raise error(entry, f"question {entry['id']!r} needs the 'column' holding its answers")
        if not entry.get("model") and not entry.get("question"):
            raise error(entry, f"question {entry['id']!r} needs a 'model', or a 'question' file (with "
                               f"'training' answers, or none yet: the app then proposes answers to mark)")
        files = {}
        for key in ("question", "training", "model"):
            files[key] = None
            if entry.get(key):
                files[key] = _file_in(entry[key], base, at(("value", entry, key)),
                                      f"question {entry['id']!r}: {key!r}")
                positions[(str(entry["id"]), key)] = located.of(("value", entry, key))
        questions.append(ExamQuestion(
            id=str(entry["id"]), column=str(entry["column"]) if entry.get("column") else None, **files))
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        twice = next(q for q in ids if ids.count(q) > 1)
        second = [e for e in entries if str(e["id"]) == twice][1]
        raise error(second, f"a question id appears twice: {twice!r}")
    if layout == "long" and len(questions) > 1 and not data.get("question_column"):
        raise error(data, "a long export with several questions needs 'question_column'")
    return Exam(name=str(data.get("name", path.stem)),
                answers=_file_in(data["answers"], base, at(("value", data, "answers")), "'answers'"),
                layout=layout, id_column=str(data["id_column"]) if data.get("id_column") else None,
                questions=tuple(questions), answer_column=str(data.get("answer_column", "answer")),
                question_column=str(data["question_column"]) if data.get("question_column") else None,
                source=path, positions=positions)


def _file_in(value: object, base: Path, where: str, what: str) -> Path:
    """A file the exam file names, relative to it. YAML may give a number or a list there,
    which `base / value` would reject with a TypeError naming neither the file nor the key.
    `where`: "exam.yaml:line:column: " of the value."""
    if not isinstance(value, str):
        raise CSVFormatError(f"{where}{what} must be a file name, not {value!r}")
    return base / value
