"""An idea said several ways in one rule: `any:` in `if:`, and ASP rules sharing one ab (issue 30)."""

from __future__ import annotations

import pytest

from grader.confold.rules import Literal as L
from knowledge import check_question_text, rules_from_yaml
from knowledge.question_file import read_question_text
from tests.data import BELL_JAR_YAML

HEAD = BELL_JAR_YAML.replace("reference_answers:", "marks: [incorrect, contradictory, correct]\nreference_answers:") \
    + "initial_rules:\n"
ANY_RULE = """\
  - name: fades_for_want_of_a_medium
    mark: correct
    if:
      - "concept:medium == present"
      - any: ["concept:fades == present", ["concept:silent == present", "length > 3"]]
    unless: ["misconception:vacuum_carries == present"]
"""
UNLESS = (L("misconception:vacuum_carries", "==", "present"),)


def _rules(text: str):
    question, problems = read_question_text(text, "q.yaml")
    assert problems == [] and check_question_text(text, "q.yaml") == []
    return question.initial_rules, question._knowledge_positions


def test_any_stands_for_one_rule_per_alternative_with_the_exceptions_written_once():
    rules, positions = _rules(HEAD + ANY_RULE)
    assert [r.body for r in rules] == [
        (L("concept:medium", "==", "present"), L("concept:fades", "==", "present")),
        (L("concept:medium", "==", "present"), L("concept:silent", "==", "present"), L("length", ">", 3)),
    ]
    assert all(r.head == "correct" and r.name == "fades_for_want_of_a_medium" for r in rules)
    assert all([e.body for e in r.exceptions] == [UNLESS] for r in rules)
    assert rules[0].exceptions is not rules[1].exceptions  # each its own: the learner refines each
    # each literal located where it is written (line 21 holds the any: item)
    assert positions[id(rules[0])][2] == [(20, 9), (21, 15)]
    assert positions[id(rules[1])][2] == [(20, 9), (21, 44), (21, 73)]


@pytest.mark.parametrize("item, where, says", [
    ("any: []", "21:14", "'any' needs a list of alternatives"),
    ('any: "concept:fades == present"', "21:14", "'any' needs a list of alternatives"),
    ("any: [{if: [length > 3]}]", "21:15", "an alternative of 'any' is a condition or a list of conditions"),
    ('anyy: ["concept:fades == present"]', "21:9", "unknown key 'anyy', did you mean 'any'?"),
    ('any: ["concept:fadez == present"]', "21:15", "unknown feature 'concept:fadez', did you mean 'concept:fades'?"),
    ('any: ["length > 3", "concept:fades === present"]', "21:29", "malformed condition 'concept:fades === present'"),
])
def test_mistakes_in_any_are_located(item, where, says):
    text = HEAD + ANY_RULE.replace('any: ["concept:fades == present", ["concept:silent == present", "length > 3"]]',
                                   item)
    problems = [str(p) for p in check_question_text(text, "q.yaml")]
    assert len(problems) == 1 and problems[0].startswith(f"q.yaml:{where}: {says}")


def test_too_many_combinations_are_refused():
    many = "[" + ", ".join(f'"length > {i}"' for i in range(9)) + "]"
    text = HEAD + f"""\
  - mark: correct
    if: [{{any: {many}}}, {{any: {many}}}]
"""
    problems = [str(p) for p in check_question_text(text, "q.yaml")]
    assert len(problems) == 1 and "81 combinations of alternatives; a rule may stand for at most 64" in problems[0]


def test_asp_rules_sharing_their_exceptions_may_share_a_name():
    text = HEAD + """\
  - |
    % rule: fades_for_want_of_a_medium
    mark(X,correct) :- concept(X,medium,present), concept(X,fades,present), not ab1(X).
    % rule: fades_for_want_of_a_medium
    mark(X,correct) :- concept(X,medium,present), concept(X,silent,present), length(X,V), V > 3, not ab1(X).
    ab1(X) :- misconception(X,vacuum_carries,present).
"""
    asp, _ = _rules(text)
    written, _ = _rules(HEAD + ANY_RULE)
    assert [(r.head, r.body, r.exceptions, r.name) for r in asp] == \
        [(r.head, r.body, r.exceptions, r.name) for r in written]


def test_a_name_on_two_different_ideas_is_still_refused():
    text = HEAD + """\
  - name: twice
    mark: correct
    if: ["concept:medium == present"]
  - name: twice
    mark: contradictory
    if: ["concept:medium == present"]
"""
    problems = [str(p) for p in check_question_text(text, "q.yaml")]
    assert len(problems) == 1 and "duplicate rule name 'twice' (first at line 17)" in problems[0]


def test_any_in_plain_rule_data():
    rules = rules_from_yaml('- {mark: "1", if: [{any: ["length > 3", "coverage > 0.5"]}]}')
    assert [r.body for r in rules] == [(L("length", ">", 3),), (L("coverage", ">", 0.5),)]
