"""Rules as answer set programs, the teacher's way in and out.

Writing (`write_program`, `rules_to_asp`) belongs to the learner, which prints what it
learned as ASP (`grader.confold.asp_writer`); reading (`parse_program` into a `Program`) is
the teacher's side (`knowledge.asp_rules`, on the tokenizer of `knowledge.asp_parser`).
`parse_program(write_program(rules, background)) == Program(rules, background)`.
"""

from __future__ import annotations

from grader.confold.asp_writer import CONFIDENCE_STYLES, DIALECTS, rules_to_asp, write_program
from knowledge.asp_rules import Program, parse_program

__all__ = ["CONFIDENCE_STYLES", "DIALECTS", "Program", "parse_program", "rules_to_asp",
           "write_program"]
