"""Cross-validation of a grading model on marked answers: how good would it be on this exam?

Folds are stratified by mark (each fold gets its share of every mark) and seeded. In each
fold a whole `GradingModel` is trained on the other folds (extractor included, so the terms
learned from marked answers never see the answers they are tested on), and its marks and
confidences on the held-out fold are pooled. The report gives accuracy, macro-F1, quadratic
weighted kappa over the ordered marks (on the answers some rule marks) and the Inverse
Brier Score (answers no rule marks count as wrong for accuracy and F1, and 0.25 in the
Brier score), plus the curve a teacher chooses a flag
threshold from: for each threshold, the share of answers flagged for a human and the
accuracy of the marks given automatically.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd

from grader import metrics
from knowledge.schema import Question, marks_from_answers

#: Thresholds of the flagging curve: 0, 0.05, ..., 1.
CURVE_THRESHOLDS = np.round(np.linspace(0.0, 1.0, 21), 2)


class TooFewToCrossValidate(ValueError):
    """The marked answers cannot be split into the folds asked for (too few answers, or a fold
    whose other folds hold a single mark)."""


@dataclass
class EvaluationReport:
    """Cross-validated figures; `predictions` has one row per answer (true, predicted, confidence, fold)."""

    accuracy: float
    macro_f1: float
    qwk: float
    ibs: float
    coverage: float  # share of answers some rule marks
    curve: pd.DataFrame  # threshold, share_flagged, auto_accuracy
    folds: int
    seed: int
    n: int
    marks: tuple[str, ...]
    fold_accuracy: list[float] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    predictions: pd.DataFrame | None = None
    ece: float = float("nan")  # expected calibration error (10 bins): 0 when confidence = accuracy

    def to_dict(self) -> dict:
        """JSON-able (NaN becomes None)."""
        def num(x: float) -> float | None:
            return None if x is None or not np.isfinite(x) else round(float(x), 6)

        return {"n": self.n, "folds": self.folds, "seed": self.seed, "marks": list(self.marks),
                "accuracy": num(self.accuracy), "macro_f1": num(self.macro_f1), "qwk": num(self.qwk),
                "ibs": num(self.ibs), "ece": num(self.ece), "coverage": num(self.coverage),
                "fold_accuracy": [num(a) for a in self.fold_accuracy], "params": self.params,
                "curve": [{"threshold": num(r.threshold), "share_flagged": num(r.share_flagged),
                           "auto_accuracy": num(r.auto_accuracy)} for r in self.curve.itertuples()]}

    def text(self) -> str:
        """The report as a teacher reads it in a terminal."""
        spread = (f" (folds {min(self.fold_accuracy):.3f}-{max(self.fold_accuracy):.3f})"
                  if self.fold_accuracy else "")
        lines = [f"{self.folds}-fold cross-validation on {self.n} marked answers (seed {self.seed})",
                 f"  accuracy         {self.accuracy:.3f}{spread}",
                 f"  macro-F1         {self.macro_f1:.3f}",
                 f"  quadratic kappa  {self.qwk:.3f} (answers marked by a rule)",
                 f"  IBS              {self.ibs:.3f}",
                 f"  calibration error {self.ece:.3f} (mean gap between a confidence and the accuracy of "
                 "the marks given with it; 0 is ideal)",
                 f"  answers marked by a rule: {self.coverage:.1%}",
                 "",
                 "  flag below   flagged   accuracy of the automatic marks"]
        for r in self.curve.itertuples():
            acc = "   -" if not np.isfinite(r.auto_accuracy) else f"{r.auto_accuracy:.3f}"
            lines.append(f"  {r.threshold:10.2f}   {r.share_flagged:7.1%}   {acc}")
        return "\n".join(lines)


def stratified_folds(marks: Sequence[str], folds: int, seed: int = 0) -> np.ndarray:
    """The fold (0..folds-1) of each example: each mark's examples shuffled and dealt in turn."""
    y = np.asarray([str(m) for m in marks], dtype=object)
    rng = np.random.default_rng(seed)
    fold_of = np.empty(len(y), dtype=np.int64)
    offset = 0
    for mark in sorted(set(y.tolist())):
        idx = np.flatnonzero(y == mark)
        idx = idx[rng.permutation(len(idx))]
        fold_of[idx] = (np.arange(len(idx)) + offset) % folds
        offset += len(idx)  # continue dealing where the previous mark stopped: folds stay balanced
    return fold_of


def flagging_curve(y_true: np.ndarray, y_pred: np.ndarray, confidence: np.ndarray,
                   thresholds: Sequence[float] = CURVE_THRESHOLDS) -> pd.DataFrame:
    """For each threshold: share flagged (no mark, or confidence below it) and accuracy of the
    rest (`metrics.confident_accuracy` at each threshold)."""
    rows = []
    for t in thresholds:
        accuracy, flagged = metrics.confident_accuracy(y_true, y_pred, confidence, t)
        rows.append((float(t), flagged, accuracy))
    return pd.DataFrame(rows, columns=["threshold", "share_flagged", "auto_accuracy"])


def cross_validate(question: Question, answers: Sequence[str], marks: Sequence[str], *, folds: int = 5,
                   seed: int = 0, calibrated: bool = False, **train_params) -> EvaluationReport:
    """Train and test a GradingModel on `folds` stratified splits of the marked answers.
    `calibrated`: each fold's model is calibrated as `grader train` calibrates (`calibrate`, a
    cross-validation inside the fold's training answers only), so that the confidences measured
    are the probabilities a teacher reads; else they are the raw confidences (what `calibrate`
    keeps). A fold too small to calibrate keeps its raw confidences. The predictions also hold
    each answer's `raw` confidence: with `calibrated`, they are the pairs `calibrate` keeps (the
    same folds and models), so one nested run gives both."""
    from grader.grading.model import GradingModel

    answers = ["" if a is None else str(a) for a in answers]
    y = np.asarray([str(m).strip() for m in marks], dtype=object)
    if len(answers) != len(y):
        raise ValueError(f"{len(answers)} answers but {len(y)} marks")
    if folds < 2:
        raise ValueError("cross-validation needs at least 2 folds")
    counts = pd.Series(y).value_counts()
    if len(y) < folds or len(counts) < 2:
        raise TooFewToCrossValidate(f"too few marked answers for {folds}-fold cross-validation "
                                    f"({len(y)} answers, {len(counts)} different mark(s))")
    order = tuple(question.marks) or marks_from_answers(y.tolist())
    from grader.grading.training import training_notes

    # What training says of the question file, said once for the teacher's answers: the folds'
    # models would repeat it (folds x folds times when calibrated), and a mark one fold's part
    # lacks is not missing from the answers
    for note in training_notes(question, y.tolist(), evidence_rules=train_params.get("evidence_rules", True),
                               lowest_marks=train_params.get("lowest_marks")):
        warnings.warn(note, stacklevel=2)
    fold_of = stratified_folds(y, folds, seed)
    pred = np.empty(len(y), dtype=object)
    conf = np.full(len(y), np.nan)
    raw = np.full(len(y), np.nan)
    fold_accuracy = []
    for k in range(folds):
        test = fold_of == k
        train = ~test
        if len(set(y[train].tolist())) < 2:
            raise TooFewToCrossValidate(f"fold {k + 1} leaves a single mark to train on; use fewer folds")
        train_answers = [answers[i] for i in np.flatnonzero(train)]
        with warnings.catch_warnings():  # said above, for all the answers
            warnings.simplefilter("ignore")
            model = GradingModel.train(question, train_answers, y[train].tolist(), **train_params)
            if calibrated:
                try:
                    calibrate(model, train_answers, y[train].tolist(), folds=folds, seed=seed)
                except TooFewToCrossValidate:
                    pass  # the model a teacher would get: raw confidences, said by `grader train`
        held_out = [answers[i] for i in np.flatnonzero(test)]
        decisions = model.decide(model.features(held_out), held_out)
        pred[test] = np.asarray(decisions.marks, dtype=object)
        conf[test] = decisions.confidence
        raw[test] = decisions.raw
        fold_accuracy.append(float(np.mean(pred[test] == y[test])))

    report = EvaluationReport(
        accuracy=float(metrics.accuracy(y, pred)),
        macro_f1=float(metrics.macro_f1(y, pred)),
        qwk=float(metrics.quadratic_weighted_kappa(y, pred, labels=list(order))),
        ibs=float(metrics.inverse_brier_score(y, pred, conf)),
        ece=float(metrics.expected_calibration_error(y, pred, conf)),
        coverage=float(np.mean([p is not None for p in pred])),
        curve=flagging_curve(y, pred, conf), folds=folds, seed=seed, n=len(y), marks=order,
        fold_accuracy=fold_accuracy, params={**train_params, **({"calibrated": True} if calibrated else {})},
        predictions=pd.DataFrame({"mark": y, "predicted": pred, "confidence": conf, "raw": raw, "fold": fold_of}))
    return report


def calibrate(model, answers: Sequence[str], marks: Sequence[str], folds: int = 5, seed: int = 0) -> None:
    """Keep in `model` the cross-validated raw confidences of its marked answers (models trained
    with its options on the other folds): its confidences become probabilities fitted on them
    (`GradingModel.probability`), and it can flag to a target accuracy
    (`GradingModel.flag_threshold_for`, `grader.grading.flag_threshold`).
    `TooFewToCrossValidate` when the answers cannot be split into `folds`."""
    from grader.grading.model import TRAIN_OPTIONS

    params = {k: v for k, v in model.params.items() if k in TRAIN_OPTIONS}
    with warnings.catch_warnings():  # training `model` said what there is to say of its answers
        warnings.simplefilter("ignore")
        report = cross_validate(model.question, answers, marks, folds=folds, seed=seed, **params)
    p = report.predictions
    model.calibration = {"confidence": [None if np.isnan(c) else round(float(c), 6) for c in p["confidence"]],
                         "correct": [bool(t == q) for t, q in zip(p["mark"], p["predicted"])],
                         "folds": folds, "seed": seed}

