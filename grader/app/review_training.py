"""Learning from reviews: the answers markers decided join a question's training set.

The question's marked answers plus the reviewed ones are written (CSV, atomically) to
`<workdir>/exams/<exam id>/training/<question>.csv` (`session.extended_training_path`); from
then on that file is the question's training set, so a model retrained on reviews survives a
restart. Only a decision made on the answer's current text counts (`review.decided_on`): an
answer edited since it was decided is not taught with a stale mark.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

import pandas as pd

from grader.app.review import decided_on
from grader.app.review_store import Decision
from grader.app.session import ExamSession, extended_training_path
from grader.app.settings import AppSettings
from grader.exams.exam_io import atomic_write_text, csv_text, read_marked_answers


def reviewed_examples(table: pd.DataFrame, decisions: Mapping[tuple[str, str], Decision],
                      question_id: str) -> pd.DataFrame:
    """The answers of a question a marker decided on, with their decided mark."""
    rows = table[(table["question_id"] == question_id)]
    keep = [(question_id, a) in decisions and decided_on(decisions[(question_id, a)], text)
            for a, text in zip(rows["answer_id"], rows["answer"])]
    rows = rows[keep]
    return pd.DataFrame({"id": ["review:" + a for a in rows["answer_id"]],
                         "answer": rows["answer"].tolist(),
                         "mark": [decisions[(question_id, a)].new_mark for a in rows["answer_id"]]})


def write_extended_training(settings: AppSettings, session: ExamSession, question_id: str,
                            decisions: Mapping[tuple[str, str], Decision]) -> tuple[Path, int]:
    """Write the question's training set plus its reviewed answers; (path, n reviewed added)."""
    text, reviewed = extended_training_text(session, question_id, decisions)
    path = extended_training_path(settings, session.exam_id, question_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text, "utf-8")
    return path, reviewed


def extended_training_text(session: ExamSession, question_id: str,
                           decisions: Mapping[tuple[str, str], Decision]) -> tuple[str, int]:
    """(the CSV text of the question's marked answers plus its reviewed ones, n reviewed); a
    question with no marked answers in the exam file (a starter question) has its reviewed ones only."""
    spec = next(q for q in session.exam.questions if q.id == question_id)
    qs = session.questions[question_id]
    if spec.training is not None:
        marked = read_marked_answers(spec.training, marks=qs.marks)
        base = pd.DataFrame({"id": marked.ids, "answer": marked.answers, "mark": marked.marks})
    else:
        base = pd.DataFrame({"id": [], "answer": [], "mark": []}, dtype=object)
    reviewed = reviewed_examples(qs.table, decisions, question_id)
    both = pd.concat([base, reviewed], ignore_index=True)
    # the exact texts (not neutralised): this is training data the app reads back, not a report
    return csv_text(list(both.columns), both.astype(str).values.tolist()), len(reviewed)


def forget_extended_training(settings: AppSettings, session: ExamSession, question_id: str) -> None:
    """Go back to the exam's own marked answers for this question."""
    extended_training_path(settings, session.exam_id, question_id).unlink(missing_ok=True)
