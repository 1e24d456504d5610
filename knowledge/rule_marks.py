"""The marks a teacher's rules give that no marked answer has yet.

A teacher writes the rubric before marking, so a rule for "contradictory" before any answer
was marked contradictory is normal: training keeps it as written and says so, pointing at the
rule (file:line:col), instead of refusing the file.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable

from grader.confold.rules import Rule
from knowledge.errors import source_name
from knowledge.schema import Question


def rule_location(question: Question, rule: object) -> str:
    """`file:line:col` of a rule of `question` (at its mark when known), for messages."""
    entry = getattr(question, "_knowledge_positions", {}).get(id(rule))
    if entry is None:
        return source_name(question.source)
    file, pos, _, head_pos = entry
    line, col = head_pos or pos
    return f"{file}:{line}:{col}"


def label_rules(question: Question) -> list[Rule]:
    """The question's rules that give a mark, background ones first, in file order."""
    return [r for r in list(question.background) + list(question.initial_rules)
            if isinstance(r, Rule) and r.head is not None]


def with_marks(question: Question, marks: Iterable[str]) -> Question:
    """`question` with these marks, its rules still located in its file."""
    new = dataclasses.replace(question, marks=tuple(marks))
    for attr in ("_knowledge_positions", "_knowledge_keep"):
        if hasattr(question, attr):
            setattr(new, attr, getattr(question, attr))
    return new


def unmarked_rule_notes(question: Question, answer_marks: Iterable[str]) -> list[str]:
    """One note per rule whose mark none of `answer_marks` is: it is kept as written."""
    seen = {str(m) for m in answer_marks}
    return [f"rule {_name(r)}for mark '{r.head}' at {rule_location(question, r)}: no marked answer has "
            f"this mark yet; kept as written" for r in label_rules(question) if str(r.head) not in seen]


def _name(rule: Rule) -> str:
    return f"'{rule.name}' " if rule.name else ""
