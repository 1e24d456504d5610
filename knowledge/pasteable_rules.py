"""A model's rules as a teacher copies them into a question file's `initial_rules`.

Why apart from `yaml_rules.rules_to_yaml`: that one writes a model's full state (confidences,
origins) and any feature the learner used; pasted into a question file, a learned feature a
teacher cannot name (`similarity:correct`, what the marked answers of a mark said) stops the
file from loading, and a confidence copied from one training fixes the rule's confidence
for every later one. Here each rule is checked as the question file would check it: those
a question file can hold are written without confidences (the learner weighs them on the
marked answers again), the others as comments saying why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import yaml

from grader.confold.rules import Rule
from knowledge.schema import Question
from knowledge.validate import validate_question
from knowledge.yaml_rules import rule_to_dict

HEADER = ("# the model's rules in the question file's syntax, to copy under initial_rules:\n"
          "# (without confidences: the learner weighs each rule on the marked answers again)\n")
_STATE = ("confidence", "confidence_fixed", "origin")


def rules_to_paste(question: Question, rules: Sequence[Rule]) -> str:
    """YAML text of `rules` for the `initial_rules` of `question`'s file (see the module
    docstring); the question file's own background rules are left out (the file has them)."""
    parts = [HEADER]
    for rule in rules:
        if not isinstance(rule, Rule) or rule.head is None or rule.origin == "background":
            continue
        data = {k: v for k, v in rule_to_dict(rule).items() if k not in _STATE}
        text = yaml.safe_dump([data], sort_keys=False, allow_unicode=True, width=100)
        problems = validate_question(dataclasses.replace(question, initial_rules=[rule]))
        if problems:
            learned = sorted({l.feature for l in _literals(rule) if l.feature.startswith("similarity:")})
            why = (f"it rests on how alike an answer is to the marked answers, {', '.join(learned)}"
                   if learned else problems[0].message)
            parts.append(f"# left out, a question file cannot hold it ({why}):\n"
                         + "".join(f"# {line}\n" for line in text.splitlines()))
        else:
            parts.append(text)
    return "".join(parts)


def _literals(rule: Rule):
    """The conditions of a rule and of its exceptions, all the way down."""
    yield from rule.body
    for exc in rule.exceptions:
        yield from _literals(exc)
