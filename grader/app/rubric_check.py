"""The rubric editor's record of each rule on the question's marked answers (no Streamlit here).

When the edited rubric has no problems, the editor runs it on the marked answers, as
`grader test-rubric` does: the teacher's rules first, then rules learned from the same
answers, and shows per rule how many answers it marks and how many as the human did, before
anything is saved. Training for this is the quick kind (no resampled models, no wording
model): it only has to say what the rules do.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from grader.grading.rubric_test import RubricReport


def question_and_marked(question_text: str, question_path: Path, training_path: Path):
    """(Question, MarkedAnswers) of an (unsaved) question text and the marked answers in
    `training_path`. Raises KnowledgeError for a text with problems."""
    from grader.exams.exam_io import read_marked_answers
    from knowledge import KnowledgeError
    from knowledge.question_file import read_question_text

    question, problems = read_question_text(question_text, question_path)
    if problems or question is None:
        raise KnowledgeError(problems)
    return question, read_marked_answers(training_path, marks=question.marks)


def rubric_record(question_text: str, question_path: Path, training_path: Path) -> RubricReport:
    """The record of the rules of an (unsaved) question text on the marked answers in
    `training_path`. Raises KnowledgeError for a text with problems."""
    from grader.grading.model import GradingModel
    from grader.grading.rubric_test import test_rubric

    question, marked = question_and_marked(question_text, question_path, training_path)
    model = GradingModel.train(question, marked.answers, marked.marks, n_resamples=0, wording_support=False)
    return test_rubric(model, marked.ids, marked.answers, marked.marks)


def record_table(report: RubricReport) -> pd.DataFrame:
    """One row per rule, the columns a teacher reads."""
    return pd.DataFrame({
        "rule": [f"R{r.number}" for r in report.rules],
        "from": [r.origin for r in report.rules],
        "mark": [r.mark for r in report.rules],
        "conditions": [r.text for r in report.rules],
        "applies to": [r.applies for r in report.rules],
        "marks": [r.marked for r in report.rules],
        "as the human": [r.right for r in report.rules],
        "wrong": [r.wrong_count for r in report.rules],
        "note": [r.note for r in report.rules],
    })


def wrong_idea_table(report: RubricReport) -> pd.DataFrame:
    """The rubric's wrong ideas found in answers the human gave the highest mark, one row per
    answer: a phrase of them may find more than the teacher meant."""
    rows = [(w.name, ", ".join(w.phrases), ", ".join(by), c.answer_id, c.answer, w.mark)
            for w in report.wrong_ideas for c, by in zip(w.found, w.found_by)]
    return pd.DataFrame(rows, columns=["wrong idea", "its phrases", "found by", "id", "answer", "human's mark"])


def wrong_table(report: RubricReport) -> pd.DataFrame:
    """The answers rules marked otherwise than the human did, and those no rule marks."""
    rows = [(f"R{r.number}", c.answer_id, c.answer, c.human_mark, c.rule_mark)
            for r in report.rules for c in r.wrong]
    rows += [("no rule", c.answer_id, c.answer, c.human_mark, None) for c in report.unmarked]
    return pd.DataFrame(rows, columns=["rule", "id", "answer", "human's mark", "rule's mark"])
