"""What grades a chunk of an export's rows: one answer column, a wide export, a long one.

A chunk grader turns a chunk of input rows (a DataFrame of text) into the columns to add to
them (mark, confidence, flagged, rule, explanation, feedback, as CSV text), with the model of each
answer's question; `grader.exams.batch` streams an export through one, resumably. Each has a
fingerprint of what it does (its models' and its settings'), which is how an interrupted run
knows it may continue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Protocol, Sequence

import numpy as np
import pandas as pd

from grader.exams.exam_io import Exam, resolve_column
from grader.grading.defaults import DEFAULT_FLAG_BELOW
from grader.grading.model_file import content_hash

#: The columns grading adds for each answer column (`feedback`: what the student may read,
#: which `grader grade --moodle/--canvas --feedback comment-or-rule` sends back).
GRADE_COLUMNS = ("mark", "confidence", "flagged", "rule", "explanation", "feedback")


class AnswerGrader(Protocol):
    """What batch grading needs from a model (grader.grading.model.GradingModel is one)."""

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW) -> pd.DataFrame: ...

    def fingerprint(self) -> str: ...


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
        "feedback": grades["feedback"].to_numpy(dtype=object) if "feedback" in grades else "",
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
        graded = self.model.grade(frame[self._column].tolist(), flag_below=self.flag_below)
        grades = format_grades(graded)
        grades.columns = self.output_columns(frame.columns)
        grades.attrs["warnings"] = _warnings_of(graded, f"column {self._column!r}")
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
        parts = [g.grade_chunk(frame) for g in self.graders]
        grades = pd.concat(parts, axis=1)
        grades.attrs["warnings"] = [w for p in parts for w in p.attrs.get("warnings", [])]
        return grades

    def fingerprint(self) -> str:
        return content_hash([g.fingerprint() for g in self.graders])


@dataclass
class LongGrader:
    """A long export (one answer per row) holding several questions: the question column
    says which model grades the row; a row of an unknown question is left unmarked and flagged."""

    models: Mapping[str, AnswerGrader]
    question_column: str
    answer_column: str = "answer"
    #: one threshold for every question, or one per question id (`grade --exam --target-accuracy`)
    flag_below: float | Mapping[str, float] = DEFAULT_FLAG_BELOW
    _columns: tuple[str, str] | None = field(default=None, repr=False)

    def output_columns(self, input_columns: Sequence[str]) -> list[str]:
        return list(GRADE_COLUMNS)

    def bind(self, input_columns: Sequence[str], path: Path) -> None:
        self._columns = (resolve_column(self.question_column, input_columns, path, "question column"),
                         resolve_column(self.answer_column, input_columns, path, "answer column"))

    def grade_chunk(self, frame: pd.DataFrame) -> pd.DataFrame:
        qcol, acol = self._columns
        out = pd.DataFrame({"mark": "", "confidence": "", "flagged": "yes", "rule": "",
                            "explanation": "", "feedback": ""}, index=range(len(frame)), dtype=object)
        out.attrs["warnings"] = []
        questions = np.asarray([q.strip() for q in frame[qcol].tolist()], dtype=object)
        for qid in pd.unique(questions):
            rows = np.flatnonzero(questions == qid)
            model = self.models.get(qid)
            if model is None:
                out.loc[rows, "explanation"] = f"no model for question {qid!r}: for a human marker"
                continue
            answers = frame[acol].to_numpy(dtype=object)[rows].tolist()
            graded = model.grade(answers, flag_below=_threshold_of(self.flag_below, qid))
            out.iloc[rows, :] = format_grades(graded).to_numpy(dtype=object)
            out.attrs["warnings"] += _warnings_of(graded, f"question {qid!r}")
        return out

    def fingerprint(self) -> str:
        below = self.flag_below if not isinstance(self.flag_below, Mapping) else dict(self.flag_below)
        return content_hash([[k, m.fingerprint()] for k, m in sorted(self.models.items())]
                            + [self.question_column, self.answer_column, below])


def _warnings_of(graded: pd.DataFrame, what: str) -> list[str]:
    """The warnings a model's grading carries (answers unlike its training answers), saying
    which answers they are about."""
    return [f"{what}: {w}" for w in graded.attrs.get("warnings", [])]


def _threshold_of(flag_below: float | Mapping[str, float], qid: str) -> float:
    return flag_below[qid] if isinstance(flag_below, Mapping) else flag_below


def exam_grader(exam: Exam, models: Mapping[str, AnswerGrader],
                flag_below: float | Mapping[str, float] = DEFAULT_FLAG_BELOW) -> ChunkGrader:
    """The chunk grader an exam file describes, with a model per question id; `flag_below`:
    one threshold, or one per question id (each question's own, for a target accuracy)."""
    if exam.layout == "wide":
        return WideGrader([ColumnGrader(models[q.id], q.column, _threshold_of(flag_below, q.id),
                                        prefix=f"{q.id}:") for q in exam.questions])
    if len(exam.questions) == 1 and exam.question_column is None:
        qid = exam.questions[0].id
        return ColumnGrader(models[qid], exam.answer_column, _threshold_of(flag_below, qid))
    return LongGrader(models, exam.question_column, exam.answer_column, flag_below)
