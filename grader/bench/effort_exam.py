"""The stop estimate pooled over an exam, played on the effort bench's curves.

One class of about 90 answers is too few to vouch for 97% cheaply: a perfect machine needs
about 48 of its marks checked at random. An exam's questions share one promise: pooled over ten
such classes, about 70 checks vouch for 97% of all the machine's marks (`grader grade --exam
--checked` and the app's views give this pooled advice beside the per-question one). Here an
exam is a random draw of `exam_size` of the bench's questions; at each point of the curves
(the same number of answers marked on every question; a class smaller than that is all
marked by hand) the machine's marks of all its questions are pooled, as many are checked at
random as a perfect machine would need, and `grader.grading.stop.stop_advice` is asked. The
exam stops at the first point where it says stop; what it cost (everything but the machine
marks vouched for is the teacher's), how its marks ended and how close its estimate was to
the truth are what `exam_stop_figures` reports.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def exam_point(rows: pd.DataFrame, sizes: dict[str, int], target: float,
               rng: np.random.Generator, scope: str = "machine") -> dict:
    """The pooled advice for one exam at one point: `rows` has a row per question still
    being marked there (its machine marks' confidences and rightness, and the teacher's
    decisions so far, `decisions_by_groups`), `sizes` every question's class size (those
    without a row are all marked by hand). `scope`: the target is on the "machine"'s marks,
    or on the "class"'s final marks (the teacher's right); the estimate and its interval are
    in the same terms. The teacher's decisions at a stop: those so far, the checks and the
    machine marks not vouched for."""
    from grader.grading.stop import allowed_wrong, checks_needed, stop_advice

    confidence = np.concatenate([np.asarray(c, dtype=float) for c in rows["machine_confidence"]] or [np.zeros(0)])
    right = np.concatenate([np.asarray(r, dtype=bool) for r in rows["machine_right"]] or [np.zeros(0, dtype=bool)])
    total = sum(sizes.values())
    class_size = total if scope == "class" else None
    allowed = None if class_size is None else allowed_wrong(class_size, target)
    checked = np.zeros(len(confidence), dtype=bool)
    if len(confidence):
        wanted = checks_needed(len(confidence), target, allowed=allowed)
        checked[rng.choice(len(confidence), min(len(confidence), wanted), replace=False)] = True
    advice = stop_advice(confidence, np.ones(len(confidence), dtype=bool), checked, right, target,
                         class_size=class_size)
    stop = advice.action == "stop"
    kept = ~checked & (confidence >= advice.threshold) if stop else np.zeros(len(confidence), dtype=bool)
    by_hand = sum(n for q, n in sizes.items() if q not in set(rows["question_id"]))
    decided = float(rows["decisions_by_groups"].sum()) + by_hand + len(confidence) - int(kept.sum())
    figures = ((advice.class_estimate, advice.class_low, advice.class_high) if scope == "class"
               else (advice.estimate, advice.low, advice.high))
    return {"stop": stop, "size": total, "machine": len(confidence), "checks": int(checked.sum()),
            "kept": int(kept.sum()), "kept_right": int(right[kept].sum()), "decided": decided,
            "estimate": figures[0], "low": figures[1], "high": figures[2]}


def play_exam(curve: pd.DataFrame, exam: Sequence[str], target: float, seed: int, scope: str = "machine") -> dict:
    """The first point where the pooled advice says stop for the questions `exam` of one
    curve (one scheme, order and seed: a row per question and point), or the exam marked by
    hand when it never does."""
    own = curve[curve.question_id.isin(exam)]
    sizes = own.groupby("question_id")["size"].first().astype(int).to_dict()
    total = sum(sizes.values())
    for k in sorted(own.marked.unique()):
        point = exam_point(own[own.marked == k], sizes, target, np.random.default_rng([seed, int(k)]), scope)
        if point["stop"]:
            return {**point, "marked": int(k), "decisions": point["decided"] / total,
                    "accuracy": (total - point["kept"] + point["kept_right"]) / total}
    return {"stop": False, "size": total, "marked": None, "decisions": 1.0, "accuracy": 1.0, "kept": 0,
            "kept_right": 0, "checks": 0, "estimate": np.nan, "low": np.nan, "high": np.nan}


def exams(question_ids: Sequence[str], exam_size: int, count: int, seed: int) -> list[list[str]]:
    """`count` exams of `exam_size` questions drawn at random (seeded) from `question_ids`;
    the one exam of them all when there are no more than `exam_size`; each question alone
    when `exam_size` is 1."""
    ids = sorted(question_ids)
    if exam_size == 1:
        return [[q] for q in ids]
    if len(ids) <= exam_size:
        return [ids]
    rng = np.random.default_rng(seed)
    return [sorted(rng.choice(ids, exam_size, replace=False).tolist()) for _ in range(count)]


def exam_stop_figures(table: pd.DataFrame, order: str, target: float, exam_size: int = 10, count: int = 20,
                      seed: int = 0, scope: str = "machine") -> tuple[str, dict]:
    """The pooled stop of `count` exams of `exam_size` questions, for each of the order's
    seeds: decisions per answer, final accuracy (the lowest exam's too), how often it stops,
    and its estimate against the truth (within 3 points; inside the interval). `scope`: the
    target is on the machine's marks or on the class's final marks."""
    rows = table[table.order == order]
    drawn = exams(rows.question_id.unique(), exam_size, count, seed)
    results = []
    for s, curve in rows.groupby("seed"):
        for e, exam in enumerate(drawn):
            result = play_exam(curve, exam, target, 1000 * int(s) + e, scope)
            if result["stop"] and result["kept"]:  # the truth in the estimate's terms
                truth = result["accuracy"] if scope == "class" else result["kept_right"] / result["kept"]
                result |= {"truth": truth, "within_3_points": abs(result["estimate"] - truth) <= 0.03 + 1e-12,
                           "inside": result["low"] - 1e-12 <= truth <= result["high"] + 1e-12}
            results.append(result)
    played = pd.DataFrame(results)
    stopped = played[played["stop"] & (played["kept"] > 0)]
    figures = {"exams": len(drawn), "exam_size": min(exam_size, rows.question_id.nunique()),
               "curves": len(played), "stopped": float(played["stop"].mean()),
               "decisions": float(played["decisions"].mean()), "accuracy": float(played["accuracy"].mean()),
               "lowest_accuracy": float(played["accuracy"].min()),
               "spread_decisions": [float(played["decisions"].min()), float(played["decisions"].median()),
                                    float(played["decisions"].max())],
               "checks_per_answer": float((played["checks"] / played["size"]).mean()),
               "marked_at_stop": (float(stopped["marked"].median()) if len(stopped) else None),
               "within_3_points": float(stopped["within_3_points"].mean()) if len(stopped) else None,
               "inside_interval": float(stopped["inside"].mean()) if len(stopped) else None}
    exams_said = (f"each question alone" if figures["exam_size"] == 1 else
                  f"pooled over exams of {figures['exam_size']} questions ({figures['exams']} drawn)")
    on = "the machine's marks" if scope == "machine" else "the class's final marks"
    text = (f"  {order}, {exams_said}, {target:.2f} of {on} ({figures['curves']} played): says stop on {figures['stopped']:.0%}; there {figures['decisions']:.3f} "
            f"decisions per answer (checks {figures['checks_per_answer']:.3f}; never stopped: 1.0), final accuracy "
            f"{figures['accuracy']:.3f} (lowest {'question' if figures['exam_size'] == 1 else 'exam'} "
            f"{figures['lowest_accuracy']:.3f}); decisions spread "
            + " / ".join(f"{v:.3f}" for v in figures["spread_decisions"])
            + ("\n    its estimate at the stop: within 3 points of the truth on "
               f"{figures['within_3_points']:.0%}, truth inside the 90% interval on {figures['inside_interval']:.0%}"
               f" of {len(stopped)} stops" if len(stopped) else "\n    (no stop)"))
    return text, figures
