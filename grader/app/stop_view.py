"""When the marker can stop: the stop estimate (`grader.grading.stop`) from the Spot checks view's checks.

Why: the Spot checks view draws answers at random among the machine's marks and the marker
says whether each mark is right; kept out of training, they are exactly the random checks
`stop_advice` needs to vouch for the marks left to the machine. This module turns the marks
table (with decisions) and those checks into the advice per question, and pooled over the
questions in view when there are several (a single class is often too few answers to vouch
for the target alone). No Streamlit here: the views only show `advice_lines`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from grader.app.review import flagged
from grader.app.spot_check import check_results, draw_sample, machine_marks
from grader.grading.stop import POOLED, StopAdvice, stop_advice  # noqa: F401 (POOLED: the views' label)

#: How many answers the Spot checks view draws unless the marker chose another number.
SAMPLE_SIZE = 20


def spot_sample(table: pd.DataFrame, threshold: float, size: int = SAMPLE_SIZE, seed: int = 0) -> pd.DataFrame:
    """The answers the Spot checks view asks the marker to check (the same draw in every view)."""
    return draw_sample(table, threshold, size, seed)


def stop_advices(table: pd.DataFrame, threshold: float, sample: pd.DataFrame, results: pd.Series,
                 target: float) -> list[tuple[str, StopAdvice]]:
    """(question, advice) for each question of `table` (marks with decisions), then the advice
    pooled over them when there are several. The target is on the class's final marks (the
    markers' decisions right): the machine marks the answers the sample is drawn from
    (`spot_check.machine_marks`: a proposed mark, not flagged at `threshold`, not decided by a
    marker other than as a check), so that the checks are random among them. `sample`'s
    answers with a result (`check_results`) are the checks."""
    checked = pd.Series(False, index=table.index)
    right = pd.Series(False, index=table.index)
    done = sample[results.notna().to_numpy()]
    position = {key: i for i, key in zip(table.index, zip(table["question_id"], table["answer_id"]))}
    for key, result in zip(zip(done["question_id"], done["answer_id"]), results[results.notna()]):
        if key in position:
            checked[position[key]] = True
            right[position[key]] = bool(result)
    machine = machine_marks(table, threshold).to_numpy()  # what the sample is drawn from
    conf = table["confidence"].to_numpy(float)
    out = []
    questions = list(dict.fromkeys(table["question_id"]))
    parts = [(q, (table["question_id"] == q).to_numpy()) for q in questions]
    if len(questions) > 1:
        parts.append((POOLED, np.ones(len(table), dtype=bool)))
    for label, rows in parts:
        out.append((label, stop_advice(conf[rows], machine[rows], checked.to_numpy()[rows],
                                       right.to_numpy()[rows], target, class_size=int(rows.sum()))))
    return out


def advice_lines(table: pd.DataFrame, threshold: float, sent_to_queue, target: float,
                 size: int = SAMPLE_SIZE, seed: int = 0) -> list[tuple[str, str]]:
    """(action, "question: what to do") per line of `stop_advices` for the Spot checks view's
    current sample (`sent_to_queue`: the checks answered "wrong" not yet decided)."""
    sample = spot_sample(table, threshold, size, seed)
    results = check_results(sample, sent_to_queue)
    waiting = (flagged(table, threshold) & ~table["reviewed"].astype(bool)).to_numpy()
    lines = []
    for label, advice in stop_advices(table, threshold, sample, results, target):
        text = f"{label}: {advice.message()}"
        rows = np.ones(len(table), dtype=bool) if label == POOLED else (table["question_id"] == label).to_numpy()
        left = int((waiting & rows).sum())
        if advice.action == "stop" and left:  # the promise counts the flagged answers as the teacher's
            text += f" (once you decide the {left} flagged answers left in the Review queue)"
        if advice.action == "check":
            text += " (the Spot checks view draws them: raise its number of answers to check)"
        lines.append((advice.action, text))
    return lines
