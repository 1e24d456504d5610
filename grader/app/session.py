"""A grading session: an exam opened in the app, its models trained, its answers graded.

Opening an exam file (exam.yaml) reads the export, trains one model per question on its
marked answers and grades every answer. Trained models are kept in the working folder
under a hash of everything they are trained from (question file, marked answers, training
parameters, model format), so reopening the exam — or restarting the server — loads them
in a moment instead of training again (`grader.app.model_cache`).

Reviewed answers a marker adds to the training set are written to
`<workdir>/exams/<exam id>/training/<question>.csv` (`grader.app.review_training`); when that
file exists it is the question's training set from then on, so a retrained model survives a
restart too.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from grader.app.model_cache import TRAIN_PARAMS, Progress, file_digest, load_question, train_or_load
from grader.app.review import proposed_table
from grader.app.settings import REPO, AppSettings
from grader.exams.exam_io import Exam, read_marked_answers, read_table, resolve_column
from grader.app.served_files import served_exam


@dataclass
class QuestionSession:
    """One question of an open exam: its rubric, its model and its graded answers."""

    id: str
    question: object               # knowledge.schema.Question
    question_path: Path
    training_path: Path            # the marked answers the model was trained on
    model: object                  # grader.grading.model.GradingModel
    model_key: str
    table: pd.DataFrame            # the marks table without decisions (see grader.app.review)
    features: pd.DataFrame         # extracted features, aligned with `table`
    training_size: int
    training_extended: bool        # trained on marked answers plus markers' reviews
    starter: bool = False          # no marked answers in the exam file: the markers' marks train it
    inputs: str = ""               # `question_inputs` it was opened from: unchanged, it is reused

    @property
    def marks(self) -> tuple[str, ...]:
        marks = tuple(getattr(self.question, "marks", ()) or ())
        return marks or tuple(getattr(self.model, "marks", ()) or ())

    @property
    def descriptions(self) -> dict[str, str]:
        return self._said_by_model("descriptions")

    @property
    def opposites(self) -> dict[str, str]:
        """By reference phrase or term, the antonyms that also say it negated (`features_found`)."""
        return self._said_by_model("opposites")

    def _said_by_model(self, name: str) -> dict[str, str]:
        """The model's mapping `name` (a grading, general or seeded model says), else its
        extractor's `name_`."""
        own = getattr(self.model, name, None)
        if isinstance(own, Mapping):
            return dict(own)
        extractor = getattr(self.model, "extractor", None)
        return dict(getattr(extractor, f"{name}_", {}) or {})


@dataclass
class ExamSession:
    """An exam opened in the app."""

    exam: Exam
    exam_id: str
    path: Path
    rows: pd.DataFrame             # the export as read, every column as text
    answers: pd.DataFrame          # one row per (question, answer): question_id, answer_id, answer, row
    questions: dict[str, QuestionSession]
    warnings: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.exam.name

    def table(self) -> pd.DataFrame:
        """The marks table of all questions (without decisions)."""
        return pd.concat([q.table for q in self.questions.values()], ignore_index=True)


# -- where things live -----------------------------------------------------------------

def exam_id_for(path: Path, name: str) -> str:
    """A stable id for an exam: its name plus a short hash of where its file is."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "exam"
    digest = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:8]
    return f"{slug}-{digest}"


def prepare_sample(settings: AppSettings) -> Path:
    """The exam file to open at start.

    The bundled sample is copied once into the working folder and opened from there, so
    that editing its rubric in the app never changes the repository's files. Any other
    GRADER_SAMPLE_EXAM is opened where it is.
    """
    bundled = REPO / "sample_data"
    sample = settings.sample_exam.resolve()
    if bundled.resolve() not in sample.parents:
        return sample
    copy = settings.workdir / "sample_data"
    if not (copy / sample.relative_to(bundled.resolve())).exists():
        copy.parent.mkdir(parents=True, exist_ok=True)
        tmp = settings.workdir / ".sample_data.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(bundled, tmp, ignore=shutil.ignore_patterns(".history", "__pycache__"))
        shutil.rmtree(copy, ignore_errors=True)
        tmp.rename(copy)
    return copy / sample.relative_to(bundled.resolve())


def extended_training_path(settings: AppSettings, exam_id: str, question_id: str) -> Path:
    return settings.workdir / "exams" / exam_id / "training" / f"{question_id}.csv"


# -- reading the export ------------------------------------------------------------------

def read_exam_answers(exam: Exam) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """(the export's rows, one row per answer, warnings) for a wide or long exam export."""
    frame, rows, _ = read_table(exam.answers)
    warnings: list[str] = []
    if frame.empty:
        raise ValueError(f"{exam.answers}: the exam export has no answers (only a header row)")
    if exam.id_column:
        ids = frame[resolve_column(exam.id_column, frame.columns, exam.answers, "id column")]
        ids = ids.str.strip().tolist()
    else:
        ids = [f"row {r}" for r in rows]
    ids = _unique_ids(ids, rows, exam.answers, warnings)
    parts = []
    if exam.layout == "wide":
        for q in exam.questions:
            col = resolve_column(q.column or q.id, frame.columns, exam.answers, "answer column")
            parts.append(pd.DataFrame({"question_id": q.id, "answer_id": ids,
                                       "answer": frame[col].to_numpy(object), "row": rows}))
    else:
        col = resolve_column(exam.answer_column, frame.columns, exam.answers, "answer column")
        qcol = (resolve_column(exam.question_column, frame.columns, exam.answers,
                               "question column") if exam.question_column else None)
        for q in exam.questions:
            mask = (frame[qcol].str.strip() == q.id).to_numpy() if qcol else slice(None)
            parts.append(pd.DataFrame({"question_id": q.id,
                                       "answer_id": pd.Series(ids, dtype=object)[mask].to_numpy(),
                                       "answer": frame[col].to_numpy(object)[mask],
                                       "row": rows[mask]}))
    answers = pd.concat(parts, ignore_index=True)
    return frame.assign(_row=rows), answers, warnings


def _unique_ids(ids: list[str], rows, path: Path, warnings: list[str]) -> list[str]:
    """Every answer its own id: a repeated id (or a blank one) gets its row added, "a (row 3)",
    made longer still if the file itself uses that text as an id ("a (row 3, 2)")."""
    seen: dict[str, int] = {}
    taken = set(ids)
    out = []
    for i, r in zip(ids, rows):
        if i and i not in seen:
            seen[i] = int(r)
            out.append(i)
            continue
        if i:
            warnings.append(f"{path}: {i!r} appears again on row {r} (first on row {seen[i]}); "
                            f"both attempts are kept and graded")
        base = f"{i} (row {r}" if i else f"row {r}"
        candidate, k = (base + ")" if i else base), 1
        while candidate in taken:
            k += 1
            candidate = f"{base}, {k})" if i else f"{base} ({k})"
        taken.add(candidate)
        seen.setdefault(candidate, int(r))
        out.append(candidate)
    return out


def grade_question(question_id: str, model, answer_ids: Sequence[str], answers: Sequence[str],
                   features: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(marks table without decisions, features) for one question's answers; `features`: the
    answers' features extracted before by this model (grading again after calibrating it)."""
    answers = ["" if a is None else str(a) for a in answers]
    if features is None:
        features = model.features(answers).reset_index(drop=True)
    grades = model.grade(answers, features=features)
    table = proposed_table(question_id, answer_ids, answers, grades.reset_index(drop=True), features)
    table.attrs["warnings"] = list(grades.attrs.get("warnings", []))  # answers unlike the training ones
    return table, features


def open_question(settings: AppSettings, exam: Exam, exam_id: str, qid: str,
                  answers: pd.DataFrame, progress: Progress | None = None,
                  executor: Executor | None = None) -> QuestionSession:
    spec = next(q for q in exam.questions if q.id == qid)
    if spec.question is None:
        raise ValueError(f"question {qid!r}: the app needs the question file (a 'question' entry in "
                         "the exam file), with marked answers ('training') or none yet")
    extended = extended_training_path(settings, exam_id, qid)
    if spec.training is None:
        return open_starter_question(settings, qid, spec.question, extended, answers, progress, executor)
    training = extended if extended.exists() else spec.training
    keep = None
    if extended.exists():  # learning from reviews changes what they say and keeps the rest
        keep = train_or_load(spec.question, spec.training, settings.workdir / "models", progress=progress,
                             executor=executor)
    model, key = train_or_load(spec.question, training, settings.workdir / "models",
                               progress=progress, keep_rules_of=keep, executor=executor)
    mine = answers[answers["question_id"] == qid]
    table, features = grade_question(qid, model, mine["answer_id"].tolist(),
                                     mine["answer"].tolist())
    trained_on = getattr(model, "trained_on", None)
    size = _training_size(trained_on)
    return QuestionSession(qid, model.question, spec.question, training, model, key, table,
                           features, size, extended.exists())


def open_starter_question(settings: AppSettings, qid: str, question_path: Path, training: Path,
                          answers: pd.DataFrame, progress: Progress | None = None,
                          executor: Executor | None = None) -> QuestionSession:
    """A question with no marked answers in the exam file (`grader.app.starter`): its markers'
    marks so far train its own model once there are enough, seeded with the general model
    when one is configured; before that the general model marks it, or nothing does."""
    from grader.app.starter import general_grader, starter_model, trainable

    question = load_question(question_path)
    own, key, size = None, "starter", 0
    if training.exists():
        marked = read_marked_answers(training, marks=tuple(getattr(question, "marks", ()) or ()))
        size = len(marked)
        if trainable(marked.marks):
            own, key = train_or_load(question_path, training, settings.workdir / "models", progress=progress,
                                     executor=executor)
    model = starter_model(question, own, general_grader(settings, question))
    mine = answers[answers["question_id"] == qid]
    table, features = grade_question(qid, model, mine["answer_id"].tolist(), mine["answer"].tolist())
    return QuestionSession(qid, question, question_path, training, model, key, table, features, size,
                           training.exists(), starter=True)


def _training_size(trained_on) -> int:
    if isinstance(trained_on, Mapping):
        for k in ("n", "n_answers", "answers", "size"):
            if isinstance(trained_on.get(k), int):
                return trained_on[k]
    for k in ("n", "n_answers", "answers", "size"):
        if isinstance(getattr(trained_on, k, None), int):
            return getattr(trained_on, k)
    return 0


def question_inputs(settings: AppSettings, exam: Exam, exam_id: str, qid: str,
                    answers: pd.DataFrame) -> str:
    """A hash of everything a question's session is made from: its entry in the exam file, the
    bytes of its question file, marked answers and reviewed ones, the general model of a
    starter question, the training parameters and model format, and its answers in the
    export. Two opens with the same inputs give the same session."""
    from grader.grading.model_file import MODEL_FORMAT_VERSION

    spec = next(q for q in exam.questions if q.id == qid)
    h = hashlib.sha256()
    files = [spec.question, spec.training, extended_training_path(settings, exam_id, qid)]
    if spec.training is None:
        files.append(settings.general_model)
    for f in files:
        h.update(repr(f).encode())
        h.update(file_digest(f).encode() if f is not None and Path(f).is_file() else b"-")
    h.update(json.dumps([spec.column, TRAIN_PARAMS, MODEL_FORMAT_VERSION], sort_keys=True,
                        default=str).encode())
    mine = answers[answers["question_id"] == qid]
    h.update(json.dumps([mine["answer_id"].tolist(), ["" if a is None else str(a) for a in mine["answer"]],
                         [int(r) for r in mine["row"]]], default=str).encode())
    return h.hexdigest()[:20]


def open_exam(path: Path, settings: AppSettings, progress: Progress | None = None,
              previous: ExamSession | None = None, executor: Executor | None = None) -> ExamSession:
    """Read an exam file, train (or load) each question's model and grade every answer.

    `previous`: the session of this exam opened before (a rubric saved, reviews learned):
    its questions whose inputs did not change (`question_inputs`) are kept as they are, so
    that the marker waits only for the question that changed. `executor`: worker processes
    that learn the resampled models (`GradingModel.train`; the same models without it)."""
    path = Path(path)
    exam = served_exam(path, settings)  # only files below the served folders
    exam_id = exam_id_for(path, exam.name)
    rows, answers, warnings = read_exam_answers(exam)
    questions: dict[str, QuestionSession] = {}
    n = len(exam.questions)
    before = previous.questions if previous is not None and previous.exam_id == exam_id else {}
    for i, spec in enumerate(exam.questions):
        def step(fraction: float, message: str, i=i, spec=spec) -> None:
            if progress:
                progress((i + max(0.0, min(1.0, fraction))) / n, f"{spec.id}: {message}")
        inputs = question_inputs(settings, exam, exam_id, spec.id, answers)
        if spec.id in before and before[spec.id].inputs == inputs:
            questions[spec.id] = before[spec.id]
            continue
        step(0.0, "training")
        questions[spec.id] = dataclasses.replace(
            open_question(settings, exam, exam_id, spec.id, answers, step, executor), inputs=inputs)
    if progress:
        progress(1.0, "graded")
    from grader.grading.model import marks_order_note

    warnings = warnings + [f"{qid}: {note}" for qid, q in questions.items()
                           if (note := marks_order_note(q.model)) is not None]
    warnings += [f"{qid}: {w}" for qid, q in questions.items() for w in q.table.attrs.get("warnings", [])]
    return ExamSession(exam, exam_id, path, rows, answers, questions, warnings)
