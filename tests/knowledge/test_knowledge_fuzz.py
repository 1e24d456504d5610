"""Fuzzing the parsers: random, truncated and mutated text only ever gives a KnowledgeError
(or a list of problems), never another exception, and never hangs (hypothesis deadline)."""

from __future__ import annotations

import time

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.confold.rules import Literal, Rule
from knowledge import KnowledgeError, check_question_text, parse_program, rules_from_yaml, write_program
from knowledge.errors import Problem

VALID_PROGRAM = write_program(
    [Rule("1", (Literal("concept:gap", "==", "present"), Literal("coverage", ">", 0.5)),
          [Rule(None, (Literal("misconception:x", "==", "present"),), [Rule(None, (Literal("length", "<=", 3.0),))])],
          confidence=0.93),
     Rule("0", (Literal("plausible", "!=", True),), name="fallback", origin="initial")],
    target="mark") + "plausible(X) :- value(X,acceleration,V), V >= 9.5, V <= 10.5.\n"

QUESTION = """\
id: fuzz
question: "Why does the bulb not light?"
marks: ["0", "0.5", "1"]
reference_answers:
  - "The circuit is open, so no current flows."
concepts:
  gap: {phrases: [gap, break], description: a gap}
quantities:
  current: {value: 0.5, unit: A, tolerance: 2%}
misconceptions:
  used_up: [used up]
background:
  - "open_circuit(X) :- concept(X,gap,present)."
  - {mark: "0", if: ["non_answer == yes"], confidence: 0.99}
initial_rules:
  - "0.9::mark(X,'1') :- open_circuit(X), not misconception(X,used_up,present)."
  - name: value_only
    mark: "0.5"
    if: ["value:current >= 0.49", "value:current <= 0.51"]
    unless: ["quantity:current == correct", ["coverage > 0.5", "length < 3"]]
"""

FUZZ = settings(max_examples=400, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
SYMBOLS = st.sampled_from(list("():-,.'\"%\n \tXVab01_=<>!not?:[]{}#&|*"))


def _parse_only_knowledge_errors(text: str) -> None:
    try:
        parse_program(text)
    except KnowledgeError as err:
        assert err.problems and all(isinstance(p, Problem) and p.line >= 1 and p.column >= 1
                                    for p in err.problems)


def test_the_fuzzed_inputs_start_valid():
    parse_program(VALID_PROGRAM)
    assert check_question_text(QUESTION, "q.yaml") == []


@FUZZ
@given(st.text())
def test_asp_parser_on_random_text(text):
    _parse_only_knowledge_errors(text)


@FUZZ
@given(st.lists(SYMBOLS, max_size=80).map("".join))
def test_asp_parser_on_random_asp_like_text(text):
    _parse_only_knowledge_errors(text)


@FUZZ
@given(st.integers(0, len(VALID_PROGRAM)), st.integers(0, len(VALID_PROGRAM)), SYMBOLS)
def test_asp_parser_on_truncated_and_mutated_programs(cut, where, char):
    _parse_only_knowledge_errors(VALID_PROGRAM[:cut])
    _parse_only_knowledge_errors(VALID_PROGRAM[:where] + char + VALID_PROGRAM[where + 1:])


def _check_only_problems(text: str) -> None:
    problems = check_question_text(text, "q.yaml")
    assert all(isinstance(p, Problem) and p.line >= 1 and p.column >= 1 for p in problems)


@FUZZ
@given(st.integers(0, len(QUESTION)), st.integers(0, len(QUESTION)), SYMBOLS)
def test_question_files_truncated_and_mutated(cut, where, char):
    _check_only_problems(QUESTION[:cut])
    _check_only_problems(QUESTION[:where] + char + QUESTION[where + 1:])


@FUZZ
@given(st.text())
def test_question_files_of_random_text(text):
    _check_only_problems(text)


@FUZZ
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
                    lambda inner: st.one_of(st.lists(inner, max_size=4),
                                            st.dictionaries(st.sampled_from(
                                                ["mark", "if", "unless", "define", "name", "confidence",
                                                 "origin", "confidence_fixed", "x"]), inner, max_size=4)),
                    max_leaves=12))
def test_structured_rules_of_random_data(data):
    import yaml
    try:
        rules_from_yaml(yaml.safe_dump(data))
    except KnowledgeError as err:
        assert err.problems


def test_sample_question_files_truncated_at_every_line():
    for path in sorted(Path(__file__).resolve().parents[2].glob("sample_data/*/question.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for n in range(len(lines) + 1):
            _check_only_problems("".join(lines[:n]))


# Hostile values where a teacher's or an uploaded file has a value: YAML tags, dates that are
# no dates, numbers too long for a float or for Python's int parser, deep nesting, units with
# power towers that would keep pint busy for minutes. Each must be a located problem, fast.
HOSTILE = st.one_of(
    st.sampled_from(["!!int abc", "!!float x", "!!timestamp 2024-13-45", "2024-13-45", "!!binary ZZZ",
                     "!!python/object/apply:os.system ['true']", "!!set {a: null}", "!!omap [a: 1]",
                     "'9**9**8 m/s^2'", "'m**(9**9**8)'", "'m^999'", "'10**10**10 A'", "1e400", "-1e400",
                     ".nan", "!!null ''", "&a x", "*a", "<<: {a: 1}"]),
    st.integers(300, 5000).map(lambda n: "9" * n),
    st.integers(300, 600).map(lambda n: "0." + "9" * n),
    st.integers(50, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(50, 3000).map(lambda n: "{a: " * n + "1" + "}" * n),
)
_VALUE_SPOTS = [m.span() for m in __import__("re").finditer(r"[A-Za-z0-9.%/^']+", QUESTION)]
# Each case within 2 s of CPU time: the work a file asks, not the wall clock of a shared
# machine (hypothesis's own deadline is wall-clock, so it is off).
HOSTILE_FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CPU_SECONDS = 2.0


@HOSTILE_FUZZ
@given(st.sampled_from(_VALUE_SPOTS), HOSTILE)
def test_question_files_with_hostile_values(spot, value):
    start, end = spot
    cpu = time.process_time()
    _check_only_problems(QUESTION[:start] + value + QUESTION[end:])
    assert time.process_time() - cpu < CPU_SECONDS


@HOSTILE_FUZZ
@given(st.sampled_from([m.span() for m in __import__("re").finditer(r"\d+(\.\d+)?", VALID_PROGRAM)]),
       st.integers(300, 5000))
def test_asp_programs_with_numbers_too_long(spot, digits):
    start, end = spot
    cpu = time.process_time()
    _parse_only_knowledge_errors(VALID_PROGRAM[:start] + "9" * digits + VALID_PROGRAM[end:])
    assert time.process_time() - cpu < CPU_SECONDS
