"""Cross-validated figures of each question's model, kept on disk by model key and computed
in the background where a marker would otherwise wait for them.

`evaluate` computes them at once (the command line, the flag-to-a-target-accuracy threshold
the page cannot go on without); `CrossValidations` is what the Marks view and the retrain
report use: the figures when they are known, else a background job (`grader.app.background`)
and None until it is done, so that opening the Marks view or saving a rubric never makes
the marker wait for the five models of a cross-validation.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from grader.app.background import FAILED, READY, RUNNING, UNKNOWN, BackgroundJobs
from grader.app.model_cache import TRAIN_PARAMS
from grader.app.session import QuestionSession
from grader.exams.exam_io import atomic_write_text, read_marked_answers

FOLDS = 5
#: Said beside a confidence that is not a probability yet (`calibrate_question`).
NOT_CALIBRATED = ("Not calibrated yet: until the cross-validation of the marked answers is done (in the "
                  "background), this figure is the model's raw confidence, not how often such marks are right.")


def threshold_for_target(reports: Sequence[dict], target: float):
    """The `ThresholdChoice` for a target accuracy from the cross-validated marked answers of
    the questions shown (`evaluate`'s reports, pooled): one threshold for the answers in view."""
    from grader.grading.flag_threshold import choose_threshold

    confidence: list[float] = []
    correct: list[bool] = []
    for report in reports:
        calibration = report.get("calibration") or {"confidence": [], "correct": []}
        shown = report.get("probability", calibration["confidence"])  # the figure the marks are flagged by
        confidence += [math.nan if c is None else float(c) for c in shown]
        correct += [bool(c) for c in calibration["correct"]]
    return choose_threshold(confidence, correct, target)


def evaluation_file(qs: QuestionSession, cache_dir: Path, folds: int = 5) -> Path:
    """Where the cross-validated figures of the question's model are kept (by model key)."""
    return Path(cache_dir) / f"{qs.question_path.parent.name}-{qs.model_key}.cv{folds}.v4.json"


def cached_evaluation(qs: QuestionSession, cache_dir: Path, folds: int = 5) -> dict | None:
    """The figures `evaluate` keeps for this model, None when they are not computed yet."""
    cached = evaluation_file(qs, cache_dir, folds)
    if cached.exists():
        try:
            return json.loads(cached.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
    return None


def evaluation_inputs(qs: QuestionSession, cache_dir: Path, folds: int = 5) -> tuple:
    """The arguments of `evaluate_to_file` for this question's model, read now: the marked
    answers are taken as they are when asked, so a job that runs later (in the background)
    cannot mix them with a newer training set."""
    marked = read_marked_answers(qs.training_path, marks=qs.marks)
    return (qs.question, list(marked.answers), list(marked.marks), folds,
            evaluation_file(qs, cache_dir, folds))


def evaluate(qs: QuestionSession, cache_dir: Path, *, folds: int = 5) -> dict:
    """Cross-validated figures of the question's model (accuracy, macro-F1, QWK, IBS, the
    curve of automatic-marking accuracy against the share flagged, and each marked answer's
    confidence and correctness), cached on disk."""
    cached = cached_evaluation(qs, cache_dir, folds)
    if cached is not None:
        return cached
    return evaluate_to_file(*evaluation_inputs(qs, cache_dir, folds))


def evaluate_to_file(question, answers: Sequence[str], marks: Sequence[str], folds: int,
                     cached: Path) -> dict:
    """Cross-validate a question's model on its marked answers and keep the figures in
    `cached` (atomic write). Plain arguments: it also runs in a worker process.

    Nested (`cross_validate(calibrated=True)`): each fold's model is calibrated on its own
    training answers as the app's model is on all of them, so the figures (reliability, ECE,
    curve) measure the probability the marker reads. The same run gives each marked answer's
    raw cross-validated confidence (`calibration`): the pairs `calibrate` keeps, which
    `calibrate_question` attaches to the app's model."""
    from grader import metrics
    from grader.grading.evaluation import cross_validate

    report = cross_validate(question, answers, marks, folds=folds, seed=0, calibrated=True, **TRAIN_PARAMS)
    curve = pd.DataFrame(report.curve)
    p = report.predictions
    figures = {
        "accuracy": _float(report, "accuracy"), "macro_f1": _float(report, "macro_f1"),
        "qwk": _float(report, "qwk"), "ibs": _float(report, "ibs"), "ece": _float(report, "ece"),
        "reliability": metrics.reliability_bins(p["mark"], p["predicted"], p["confidence"]),
        "answers": len(answers), "folds": folds,
        # each marked answer's raw cross-validated confidence and whether its mark was right: the
        # model's calibration (`grader.grading.probability`)
        "calibration": {"confidence": [None if pd.isna(c) else round(float(c), 6) for c in p["raw"]],
                        "correct": [bool(t == q) for t, q in zip(p["mark"], p["predicted"])],
                        "folds": folds, "seed": 0},
        # the probability each was given by a model calibrated without it, for flagging to a target
        # accuracy (grader.grading.flag_threshold) on the figure the marker reads
        "probability": [None if pd.isna(c) else float(c) for c in p["confidence"]],
        "curve": {c: [None if pd.isna(v) else float(v) for v in curve[c]]
                  for c in ("threshold", "share_flagged", "auto_accuracy") if c in curve},
    }
    cached = Path(cached)
    cached.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(cached, json.dumps(figures, indent=1))
    return figures


def calibrate_question(qs: QuestionSession, figures: dict | None) -> bool:
    """Give the question's model the calibration of its cross-validated `figures` (computed for
    this model key) and grade its answers again, so that the confidences shown are
    probabilities; True when it changed something. A model calibrated already, a starter
    question's, or figures without pairs: nothing to do."""
    from grader.app.session import grade_question

    pairs = (figures or {}).get("calibration")
    model = qs.model
    if qs.starter or not pairs or not pairs.get("confidence") or not hasattr(model, "probability"):
        return False
    if getattr(model, "calibration", None) == pairs:
        return False
    model.calibration = pairs
    table, _ = grade_question(qs.id, model, qs.table["answer_id"].tolist(), qs.table["answer"].tolist(),
                              qs.features)
    qs.table = table
    return True


def is_calibrated(qs: QuestionSession) -> bool:
    """Whether the confidences shown for this question are probabilities (see `calibrate_question`)."""
    return bool(getattr(qs.model, "calibrated", False))


def _float(report, name: str) -> float | None:
    value = getattr(report, name, None)
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


class CrossValidations:
    """The figures of each question's model: from disk when computed before, else from a
    background job started on the first request (one per model; a newer model of the same
    question supersedes an older one's pending job)."""

    def __init__(self, cache_dir: Path, jobs: BackgroundJobs, folds: int = FOLDS):
        self.cache_dir = Path(cache_dir)
        self.jobs = jobs
        self.folds = folds

    def key(self, qs: QuestionSession) -> str:
        return str(evaluation_file(qs, self.cache_dir, self.folds))

    def state(self, qs: QuestionSession, group: str | None = None) -> tuple[str, Any]:
        """(READY, figures), (RUNNING, None) or (FAILED, the error message); starts the job
        the first time the figures are asked for. `group`: the jobs a newer one supersedes
        (default: the question's current model; the retrain report asks for the model before
        the retrain in a group of its own, so that the two do not cancel each other)."""
        figures = cached_evaluation(qs, self.cache_dir, self.folds)
        if figures is not None:
            return READY, figures
        key = self.key(qs)
        status, value = self.jobs.state(key)
        if status == UNKNOWN:
            try:
                inputs = evaluation_inputs(qs, self.cache_dir, self.folds)
            except Exception as exc:  # the marked answers cannot be read: said, not raised
                return FAILED, str(exc)
            self.jobs.submit(key, qs.id if group is None else group, evaluate_to_file, *inputs)
            status, value = self.jobs.state(key)
        if status == FAILED:
            return FAILED, str(value)
        return (READY, value) if status == READY else (RUNNING, None)

    def running(self, qs: QuestionSession) -> bool:
        """Whether the job of this model's figures is under way (asks for nothing)."""
        return self.jobs.state(self.key(qs))[0] == RUNNING

    def figures(self, qs: QuestionSession) -> dict | None:
        """The figures if known now, else None (and the job is started)."""
        status, value = self.state(qs)
        return value if status == READY else None

    def wait(self, qs: QuestionSession, timeout: float | None = None) -> tuple[str, Any]:
        """The `state` once the job is done (or `timeout` seconds have passed)."""
        status, value = self.state(qs)
        if status != RUNNING:
            return status, value
        self.jobs.wait(self.key(qs), timeout)
        return self.state(qs)

