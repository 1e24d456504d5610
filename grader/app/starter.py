"""Starting from a bare exam in the app: a question with no marked answers yet.

Such a question (an exam file entry with a `question` file and no `training`) is marked by
its markers' decisions: they are its training set. Until there are enough of them, its
answers get the general model's marks when one is configured (`GRADER_GENERAL_MODEL`),
flagged for a human, and otherwise no mark. The Start view proposes the answers worth marking
first (`grader.grading.suggest`); after every `RETRAIN_EVERY` new marks the question's model
is trained again in a background thread (`RetrainJobs`), seeded with the general model, and
the exam is re-marked when the page next runs. No Streamlit here.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from grader.grading.defaults import DEFAULT_FLAG_BELOW
from grader.grading.model_file import content_hash
from grader.grading.suggest import MIN_MARKED_FOR_MODEL

log = logging.getLogger(__name__)

#: Marks between two trainings of a starter question's model.
RETRAIN_EVERY = 5
NO_MODEL_NOTE = "no marked answers yet: mark the answers the Start view proposes"


class NoModel:
    """The grader of a question before anything can mark it: no mark, every answer flagged."""

    def __init__(self, question):
        self.question = question

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW,
              features: pd.DataFrame | None = None) -> pd.DataFrame:
        """Every answer unmarked and flagged (`features` is accepted as `GradingModel.grade` does)."""
        n = len(answers)
        return pd.DataFrame({"mark": pd.Series([None] * n, dtype=object), "confidence": np.full(n, np.nan),
                             "flagged": np.ones(n, dtype=bool), "rule": [""] * n,
                             "explanation": [NO_MODEL_NOTE] * n, "needs_human": np.ones(n, dtype=bool),
                             "feedback": [""] * n})

    def features(self, answers: Sequence[str]) -> pd.DataFrame:
        """The answer's words only (case and spacing aside): the Groups view then groups
        identical answers, never different ones."""
        return pd.DataFrame({"text": [" ".join(str(a or "").lower().split()) for a in answers]}, dtype=object)

    def rules(self, format: str = "text") -> str:
        return "No rules yet: this question has no marked answers.\n"

    def explain(self, answer: str) -> "_NoExplanation":
        return _NoExplanation()


class _NoExplanation:
    def text(self) -> str:
        return NO_MODEL_NOTE

    def fingerprint(self) -> str:
        return content_hash(["no model", self.question.id])


def general_grader(settings, question):
    """The configured general model bound to `question`, or None (none configured)."""
    if settings.general_model is None:
        return None
    from grader.grading.general import GeneralModel

    return GeneralModel.load(settings.general_model).for_question(question)


def starter_model(question, own, general):
    """What marks a starter question: its own model (None if it cannot be trained yet) seeded
    with the general model (None if none is configured)."""
    from grader.grading.seeded import SeededModel

    if general is not None:
        return SeededModel(own, general)
    return own if own is not None else NoModel(question)


def trainable(marks: Sequence[str]) -> bool:
    """Enough marks for a question's own model: `MIN_MARKED_FOR_MODEL` answers of two marks."""
    return len(marks) >= MIN_MARKED_FOR_MODEL and len(set(marks)) >= 2


def retrain_due(n_marked: int, trained_on: int, marks: Sequence[str]) -> bool:
    """Whether the model should be trained again: `RETRAIN_EVERY` new marks since it was."""
    return trainable(marks) and n_marked - trained_on >= RETRAIN_EVERY


class RetrainJobs:
    """Trainings running in the background, one at a time, at most one per question."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="retrain")
        self._jobs: dict[tuple[str, str], Future] = {}
        self._started: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def submit(self, key: tuple[str, str], job) -> bool:
        """Run `job()` in the background unless the same key's job still runs; True if started."""
        with self._lock:
            running = self._jobs.get(key)
            if running is not None and not running.done():
                return False
            self._jobs[key] = self._pool.submit(job)
            self._started[key] = self._started.get(key, 0) + 1
            return True

    def number(self, key: tuple[str, str]) -> int:
        """How many jobs were started for `key` (the latest one's number)."""
        with self._lock:
            return self._started.get(key, 0)

    def state(self, key: tuple[str, str]) -> str:
        """"running", "failed: <why>", "done" or "none"."""
        with self._lock:
            job = self._jobs.get(key)
        if job is None:
            return "none"
        if not job.done():
            return "running"
        error = job.exception()
        return f"failed: {error}" if error is not None else "done"


def retrain_job(question_path: Path, training_text: str, training_path: Path, cache_dir: Path,
                train_or_load: Callable):
    """A job for `RetrainJobs`: train the question's model on `training_text` into the model
    cache (`train_or_load` of `grader.app.model_cache`), then write the training file (which makes
    the page re-open the exam, finding the model already trained: the re-marking is all that
    is left)."""
    from grader.exams.exam_io import atomic_write_text

    def job() -> None:
        staging = training_path.with_name(training_path.name + ".training")
        staging.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(staging, training_text, "utf-8")
        try:
            train_or_load(question_path, staging, cache_dir)
        finally:
            staging.unlink(missing_ok=True)
        atomic_write_text(training_path, training_text, "utf-8")
    return job
