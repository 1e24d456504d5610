"""The sensible-rules check: learned rules that give a teacher no reason for their mark."""

from __future__ import annotations

from grader.confold.rules import Literal, Rule
from grader.grading.sensible_rules import EITHER_WAY, NOTHING_SAID, unsensible


def _rule(mark, *body, origin="learned"):
    return Rule(head=mark, body=tuple(Literal(*lit) for lit in body), origin=origin)


def test_a_mark_above_the_lowest_needs_something_the_answer_says():
    lowest = ["incorrect"]
    assert unsensible(_rule("contradictory", ("concept:gap", "==", "absent")), lowest) == NOTHING_SAID
    assert unsensible(_rule("correct", ("length", ">", 4.0)), lowest) == NOTHING_SAID
    assert unsensible(_rule("correct"), lowest) == NOTHING_SAID  # "always"
    assert unsensible(_rule("contradictory", ("term:pitch", "!=", "absent")), lowest) == EITHER_WAY
    assert unsensible(_rule("contradictory", ("term:pitch", "!=", "absent"), ("misconception:m", "==", "present")),
                      lowest) is None
    assert unsensible(_rule("correct", ("concept:gap", "==", "negated"), ("length", "<=", 9.0)), lowest) is None
    assert unsensible(_rule("correct", ("similarity:correct", ">", 0.4)), lowest) is None
    assert unsensible(_rule("correct", ("says_it", "==", True)), lowest) is None
    assert unsensible(_rule("correct", ("says_it", "!=", True)), lowest) == NOTHING_SAID


def test_the_lowest_mark_and_the_teachers_rules_are_not_held_to_it():
    assert unsensible(_rule("incorrect", ("concept:gap", "==", "absent")), ["incorrect"]) is None
    assert unsensible(_rule("correct", ("concept:gap", "==", "absent"), origin="initial"), ["incorrect"]) is None
