"""The teacher's side: question files, rules in YAML and ASP, their validation.

Public API (see docs/question-format.md for the file format):

* `load_question(path) -> Question` — raises `KnowledgeError` listing every problem.
* `check_question_text(text, path) -> list[Problem]` — for an editor: unsaved text.
* `save_question_text(path, text)` — validates, then replaces the file atomically, keeping
  the previous version in `.history/` next to it; refuses invalid text.
* `validate_question(question, specs=None) -> list[Problem]`
* `question_to_dict(q)` / `question_from_dict(d)` — JSON-able, for model files.
* `rules_to_asp`, `rules_to_yaml`, `parse_program`, `write_program`, `rules_from_yaml`.
"""

from __future__ import annotations

from knowledge.asp import Program, parse_program, rules_to_asp, write_program
from knowledge.errors import KnowledgeError, Problem
from knowledge.question_io import (check_question_text, decode_question_text, load_question,
                                   question_from_dict, question_to_dict, read_question_file_text,
                                   save_question_text)
from knowledge.validate import validate_question
from knowledge.yaml_rules import rules_from_dicts, rules_from_yaml, rules_to_dicts, rules_to_yaml

#: Short names used in the issue: rules -> ASP text, rules -> structured YAML text.
to_asp = rules_to_asp
to_yaml = rules_to_yaml

__all__ = [
    "KnowledgeError", "Problem", "Program", "load_question", "check_question_text",
    "save_question_text", "decode_question_text", "read_question_file_text", "validate_question", "question_to_dict", "question_from_dict",
    "parse_program", "write_program", "rules_to_asp", "rules_to_yaml", "rules_from_yaml",
    "rules_to_dicts", "rules_from_dicts", "to_asp", "to_yaml",
]
