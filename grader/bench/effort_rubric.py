"""`python -m grader.bench effort --rubrics DIR`: what a teacher's rubric saves in decisions.

The rubric bench (`grader.bench.beetle_rubric`) asks how well a model marks with the rubric and
30 marked answers; a teacher asks how many decisions the class takes, and how many final marks
are wrong, when they mark with it. Each question with a rubric is played twice in the app's
workflow (`grader.bench.effort_play`), once with the bare question file (text, reference answers,
the scheme's marks) and once with the rubric (its rules' marks mapped to the scheme, as the
labels are): the teacher first marks the answers the rubric was written from (`seen_ids.json`,
as they did while writing it), then follows the Start view. The two are compared where the tool
tells the teacher to stop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from grader.bench.beetle_data import scheme_question

#: The two question files a question is played with: the `order` column of their curves.
KINDS = ("bare", "rubric")


def rubric_question(rubric, scheme: str):
    """The rubric as the teacher's question file for `scheme`: its rules' marks mapped as the
    labels are, the scheme's marks listed lowest first, and the others that give no credit."""
    from grader.bench.beetle_rubric import for_scheme

    return scheme_question(for_scheme(rubric, scheme), scheme)


def rubric_tasks(questions: dict, answers: pd.DataFrame, qids: Sequence[str], schemes: Sequence[str],
                 rubrics: Path, seed: int) -> tuple[list[str], list[tuple]]:
    """(the questions that have a rubric, the `effort.run_one` arguments of their plays: the bare
    file and the rubric per scheme, in the order of `qids`)."""
    from grader.bench.beetle_rubric import load_rubrics

    if "id" not in answers.columns:
        raise ValueError("answers.csv has no column id (the rubrics' seen_ids.json names answers by id)")
    rubric_of, seen = load_rubrics(rubrics, list(qids))
    kept = [q for q in qids if q in rubric_of]
    tasks = []
    for qid in kept:
        group = answers[answers.question_id == qid]
        where = {str(i): k for k, i in enumerate(group.id)}
        missing = [i for i in seen.get(qid, []) if i not in where]
        if missing:
            raise ValueError(f"{rubrics / 'seen_ids.json'} names {missing[0]!r}, which is not an answer of {qid}")
        first = [where[i] for i in seen.get(qid, [])]
        for scheme in schemes:
            for kind, rubric in zip(KINDS, (None, rubric_of[qid])):
                tasks.append((questions[qid], group.answer.tolist(), group.label_5way.tolist(), scheme,
                              "suggested", seed, rubric, first, kind))
    return kept, tasks


def compare_stops(bare: dict, rubric: dict) -> tuple[str, dict]:
    """The rubric against the bare file where the tool says stop (`effort.stop_figures`'s
    figures of each): per question, fewer / as many / more decisions, and the final accuracy."""
    b = pd.DataFrame(bare["per_question"]).T
    r = pd.DataFrame(rubric["per_question"]).T.reindex(b.index)
    saved = b.decisions.astype(float) - r.decisions.astype(float)
    gained = r.accuracy.astype(float) - b.accuracy.astype(float)
    eps = 1e-9
    figures = {"decisions": [bare["decisions"], rubric["decisions"]],
               "accuracy": [bare["accuracy"], rubric["accuracy"]],
               "fewer_same_more_decisions": [int((saved > eps).sum()), int((saved.abs() <= eps).sum()),
                                             int((saved < -eps).sum())],
               "higher_same_lower_accuracy": [int((gained > eps).sum()), int((gained.abs() <= eps).sum()),
                                              int((gained < -eps).sum())],
               "saved_per_question": saved.round(4).to_dict()}
    counts = figures["fewer_same_more_decisions"]
    acc = figures["higher_same_lower_accuracy"]
    text = (f"  the rubric against the bare file at the stop: {bare['decisions']:.3f} -> {rubric['decisions']:.3f} "
            f"decisions per answer, final accuracy {bare['accuracy']:.3f} -> {rubric['accuracy']:.3f}; fewer / as "
            f"many / more decisions on {counts[0]} / {counts[1]} / {counts[2]} questions, final accuracy higher / "
            f"same / lower on {acc[0]} / {acc[1]} / {acc[2]}; decisions saved per answer, per question min / median "
            f"/ max {saved.min():+.3f} / {saved.median():+.3f} / {saved.max():+.3f}")
    return text, figures
