"""The Rubric view's proposals: concepts and misconceptions from the marked answers (no Streamlit here).

What `grader suggest-rubric` proposes for the text in the editor, from the question's marked
answers, for the teacher to accept (added to the editor's text, nothing saved) or reject (not
shown again for this question in this session). The proposals follow the text: a phrase the
text already has is not proposed again.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from grader.grading.rubric_proposals import Proposal, known_order, propose, with_proposals


def proposals_for(question_text: str, question_path: Path, training_path: Path) -> list[Proposal]:
    """The proposals for an (unsaved) question text from the marked answers in `training_path`.
    Raises KnowledgeError for a text with problems."""
    from grader.app.rubric_check import question_and_marked

    question, marked = question_and_marked(question_text, question_path, training_path)
    return propose(question, marked.ids, marked.answers, marked.marks,
                   order=known_order(question.marks, marked.marks))


def key_of(proposal: Proposal) -> str:
    """What identifies a proposal across reruns (its kind and phrases), for the rejected set."""
    return f"{proposal.kind}|{'|'.join(proposal.phrases)}"


def shown(proposals: list[Proposal], rejected: set[str]) -> list[Proposal]:
    """The proposals the teacher has neither accepted (they are in the text) nor rejected."""
    return [p for p in proposals if key_of(p) not in rejected]


def accept(text: str, proposal: Proposal, where: str = "question file") -> str:
    """The editor's text with `proposal` added (`with_proposals`)."""
    return with_proposals(text, [proposal], where)


def proposal_table(proposals: list[Proposal]) -> pd.DataFrame:
    """One row per proposal, the columns a teacher reads."""
    return pd.DataFrame({"kind": [p.kind for p in proposals], "name": [p.name for p in proposals],
                         "phrases": [", ".join(p.phrases) for p in proposals],
                         "why": [p.reason for p in proposals]})
