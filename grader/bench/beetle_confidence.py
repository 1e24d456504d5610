"""What the confidences of `bench beetle` are worth to a teacher.

How often a mark of each confidence is right (`reliability`): a teacher reads "confidence 0.95"
as "right 95 times in 100", and the table says whether it is.

What a teacher who asks for a target accuracy gets on new answers (`--target-accuracy A`):
`grade --target-accuracy 0.95` flags, for each question, every answer below the lowest
threshold at which the question's own cross-validated marked answers vouch for 95% (a Wilson
lower bound, not the observed share; `grader.grading.flag_threshold`). The benchmark's fixed
"30% least confident flagged" figures say how good the ranking is; these say what that promise
is worth: the accuracy of the marks left to the machine on answers no model has seen, the
share flagged, and on how many questions the marked answers could vouch for the target at all
(where they cannot, every answer of the question is flagged).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

#: The confidence bands of the reliability table: the flag threshold's default 0.7 is an edge.
CONFIDENCE_BANDS = (0.0, 0.5, 0.7, 0.9, 1.0)


def is_unmarked(mark: object) -> bool:
    """No mark: None, or NaN where a table read it back."""
    return mark is None or (isinstance(mark, float) and math.isnan(mark))


def reliability(y_true: Sequence, y_pred: Sequence, confidence: Sequence[float],
                bands: Sequence[float] = CONFIDENCE_BANDS) -> list[dict]:
    """For each confidence band [lo, hi) (the last one closed), the marked answers in it, their
    mean confidence and the share of them marked right: a confidence a teacher can act on is
    about as often right as it says. Unmarked answers have no confidence and are left out."""
    t = np.asarray(list(y_true), dtype=object)
    p = np.asarray(list(y_pred), dtype=object)
    conf = np.asarray(confidence, dtype=float)
    if not (len(t) == len(p) == len(conf)):
        raise ValueError(f"{len(t)} labels, {len(p)} predictions and {len(conf)} confidences")
    marked = np.array([not is_unmarked(x) for x in p], dtype=bool) & ~np.isnan(conf)
    rows = []
    for i, (lo, hi) in enumerate(zip(bands[:-1], bands[1:])):
        last = i == len(bands) - 2
        inside = marked & (conf >= lo) & ((conf <= hi) if last else (conf < hi))
        n = int(inside.sum())
        rows.append({"from": lo, "to": hi, "answers": n,
                     "mean_confidence": float(conf[inside].mean()) if n else float("nan"),
                     "right": float((p[inside] == t[inside]).mean()) if n else float("nan")})
    return rows


def format_reliability(table: dict[str, list[dict]]) -> str:
    """`scheme_reliability` as text, one line per scheme."""
    bands = list(zip(CONFIDENCE_BANDS[:-1], CONFIDENCE_BANDS[1:]))
    lines = ["confidence against the share right (mean confidence -> share right, answers):",
             f"  {'scheme':7s}" + "".join(f"{f'{lo:g}-{hi:g}':>22s}" for lo, hi in bands)]
    for scheme, rows in table.items():
        cells = [f"{r['mean_confidence']:.2f} -> {r['right']:.2f} ({r['answers']})" if r["answers"] else "-"
                 for r in rows]
        lines.append(f"  {scheme:7s}" + "".join(f"{c:>22s}" for c in cells))
    return "\n".join(lines)


def target_threshold(model, answers: list, marks: list, target: float | None) -> float:
    """What `grade --target-accuracy` flags below, from the model's cross-validated marked answers."""
    if not target:
        return math.nan
    from grader.grading.evaluation import TooFewToCrossValidate, calibrate

    try:
        calibrate(model, answers, marks)
    except TooFewToCrossValidate:
        return math.inf
    return model.flag_threshold_for(target).threshold  # inf when the target is not met


def target_figures(truth: np.ndarray, marks: np.ndarray, confidence: np.ndarray, threshold: np.ndarray,
                   question: np.ndarray, target: float) -> dict:
    """share flagged, accuracy of the automatic rest, the share of answers whose model could
    vouch for the target, the questions where every model could (one model per question, or
    per question and fold), the questions whose automatic marks fall short of the target (the
    promise broken), and the per-question spread of the first two, for one scheme. An
    answer is automatic when it has a mark and a confidence at or above its model's threshold
    (inf: its marked answers could not vouch for the target, so all of them are flagged)."""
    marked = np.array([not is_unmarked(m) for m in marks], dtype=bool)
    auto = marked & ~np.isnan(confidence) & (confidence >= threshold)
    right = auto & (marks == truth)
    frame = pd.DataFrame({"question": question, "auto": auto, "right": right, "met": np.isfinite(threshold)})
    by_question = frame.groupby("question").agg(auto=("auto", "mean"), n_auto=("auto", "sum"),
                                                right=("right", "sum"), met=("met", "all"))
    accuracy_q = (by_question.right / by_question.n_auto.where(by_question.n_auto > 0)).dropna()
    return {"answers": int(len(truth)), "flagged": float(1 - auto.mean()) if len(auto) else math.nan,
            "auto_accuracy": float(right.sum() / auto.sum()) if auto.any() else math.nan,
            "vouched": float(np.isfinite(threshold).mean()) if len(threshold) else math.nan,
            "questions_met": int(by_question.met.sum()), "questions": int(len(by_question)),
            "questions_short": int((accuracy_q < target).sum()),
            "flagged_by_question": (1 - by_question.auto).quantile([0, 0.25, 0.5, 0.75, 1]).round(3).tolist(),
            "auto_accuracy_by_question": accuracy_q.quantile([0, 0.25, 0.5, 0.75, 1]).round(3).tolist()}


def format_target(target: float, table: dict[str, dict]) -> str:
    """`target_figures` of each scheme as text."""
    lines = [f"flagged to a target accuracy of {target:g} (each question's threshold from its own "
             f"cross-validated marked answers):",
             f"  {'scheme':7s} {'flagged':>8s} {'accuracy left':>13s} {'vouched':>8s} {'questions met':>13s} "
             f"{'short':>5s}   per question (min / 25% / median / 75% / max): flagged; accuracy left",
             "  (vouched: the answers whose model's marked answers could vouch for the target; questions "
             "met: every model of the question could; short: questions whose marks left fall below the target)"]
    for scheme, f in table.items():
        spread = " / ".join(f"{v:.2f}" for v in f["flagged_by_question"])
        accuracy = " / ".join(f"{v:.2f}" for v in f["auto_accuracy_by_question"]) or "-"
        lines.append(f"  {scheme:7s} {f['flagged']:8.3f} {f['auto_accuracy']:13.3f} {f['vouched']:8.3f} "
                     f"{f['questions_met']:>6d} of {f['questions']:<3d} {f['questions_short']:>5d}   "
                     f"{spread}; {accuracy}")
    return "\n".join(lines)
