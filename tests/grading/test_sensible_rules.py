"""The sensible-rules check: learned rules that give a teacher no reason for their mark."""

from __future__ import annotations

import dataclasses
import warnings

from grader.confold.rules import Literal, Rule
from grader.grading.model import GradingModel
from grader.grading.sensible_rules import EITHER_WAY, NOTHING_SAID, RESTATES, unsensible, unsensible_rules
from knowledge.schema import Question


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


def test_words_of_the_question_alone_are_no_reason():
    lowest, asked = ["incorrect"], {"ref:pendulum", "term:slow"}
    assert unsensible(_rule("correct", ("ref:pendulum", "==", "present")), lowest, asked) == RESTATES
    assert unsensible(_rule("correct", ("ref:pendulum", "==", "present"), ("term:slow", "==", "negated")),
                      lowest, asked) == RESTATES
    assert unsensible(_rule("correct", ("ref:pendulum", "==", "present"), ("ref:period", "==", "present")),
                      lowest, asked) is None
    assert unsensible(_rule("correct", ("ref:pendulum", "==", "present")), lowest) is None  # not known to restate


PENDULUM = Question("pendulum", "Why does a pendulum with a longer string swing more slowly?",
                    ("A longer string gives the pendulum a longer period.",), marks=("incorrect", "correct"))
RIGHT = ["the pendulum goes slower", "a pendulum like that is slow", "the pendulum has further to travel",
         "that pendulum swings back later", "the pendulum moves a bigger distance", "because the pendulum is heavy"]
WRONG = ["gravity is weaker", "air resistance", "i do not know", "it is heavier", "friction slows it",
         "the mass is bigger"]


def _trained(question: Question, right: list[str], wrong: list[str]) -> GradingModel:
    """A model trained on the answers given twice, `right` marked correct and `wrong` incorrect."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return GradingModel.train(question, (right + wrong) * 2,
                                  (["correct"] * len(right) + ["incorrect"] * len(wrong)) * 2, n_resamples=0)


def _pendulum_model() -> GradingModel:
    return _trained(PENDULUM, RIGHT, WRONG)


def test_the_extractor_knows_which_phrases_restate_the_question():
    asked = _pendulum_model().extractor.question_restatements()
    assert {"ref:pendulum", "ref:string", "ref:long_string"} <= asked
    assert "ref:period" not in asked and "ref:give" not in asked  # the reference's own words


def test_no_rule_gives_credit_for_restating_the_question():
    # every answer marked correct names the pendulum, which the question names: the learner
    # gave "correct if mentions 'pendulum'"
    model = _pendulum_model()
    restating = model.extractor.question_restatements()
    for rule in model.learner.rules_:
        if rule.head == "correct":
            said = [lit.feature for lit in rule.body if lit.op in ("==", ">") and lit.value != "absent"]
            assert said and not set(said) <= restating, rule
    assert unsensible_rules(model, ["incorrect"]) == []


SPOONS = Question("spoons", "A metal spoon and a wooden spoon stand in hot soup. Which handle gets hot first, and why?",
                  ("Metal conducts heat better than wood.",), marks=("incorrect", "correct"))
CONDUCTS = ["metal is quicker than wood", "it is faster than wood", "the metal one more than the other",
            "heat goes through it sooner than wood", "metal warms up faster than wood", "metal rather than wood"]
SHINY = ["metal is shiny", "wood is brown", "i do not know", "the wooden one", "metal is cold", "it is heavy"]


def test_a_word_that_says_nothing_alone_is_no_reason():
    # every answer marked correct says "than": the learner gave "correct if mentions 'than'"
    model = _trained(SPOONS, CONDUCTS, SHINY)
    restating = model.extractor.question_restatements()
    assert "ref:than" in restating and "ref:conduct" not in restating
    assert unsensible_rules(model, ["incorrect"]) == []


def test_marks_in_no_known_order_rest_on_no_restating_either():
    # a question file without `marks:`: no mark is known to be the lowest, so the learner
    # restricted nothing and gave "correct if mentions 'pendulum'" (said or denied)
    question = dataclasses.replace(PENDULUM, marks=())
    model = _trained(question, RIGHT, WRONG)
    assert model.params.get("marks_unordered")
    restating = model.extractor.question_restatements()
    assert "ref:pendulum" in restating
    for rule in model.learner.rules_:
        said = {lit.feature for lit in rule.body if (lit.op == "==") != (lit.value == "absent")}
        assert not said or not said <= restating, rule


ECHO = Question("echo", "A bat squeaks in a dark cave. How does it find the wall?",
                ("The sound reflects off the wall and the echo comes back to the bat.",),
                marks=("incorrect", "correct"))
LIKE = ["it is like an echo that bounces", "like a ball the sound bounces back", "the squeak comes back like a mirror",
        "it hears it like a reflection", "the noise returns like radar", "it works like sonar"]
NO_LIKE = ["it can see in the dark", "bats have good eyes", "i do not know", "it smells the wall",
           "the wall is cold", "it feels the air"]


def test_a_word_of_talk_is_no_reason():
    # every answer marked correct says "like": the learner gave "correct if mentions 'like'"
    model = _trained(ECHO, LIKE, NO_LIKE)
    assert "term:like" in model.extractor.question_restatements()
    assert unsensible_rules(model, ["incorrect"]) == []
    assert not any(lit.feature == "term:like" and rule.head == "correct" and lit.op == "==" and lit.value != "absent"
                   for rule in model.learner.rules_ for lit in rule.body)


OAR = Question("oar", "Why does a rower hold the oar near its end?",
               ("Far from the pivot the push gives a bigger moment on the oar.",), marks=("incorrect", "correct"))
PUSH_ON = ["a bigger turning effect on it", "more moment on the oar", "the push on the end turns it more",
           "her force on it is far out", "a big lever effect on the water", "it puts more turning on the blade"]
NO_ON = ["the oar is long", "it is comfy", "i do not know", "the water is cold", "she is strong", "it floats"]


def test_a_preposition_alone_is_no_reason():
    # every answer marked correct says "on": the learner gave "correct if mentions 'on'"
    model = _trained(OAR, PUSH_ON, NO_ON)
    assert "ref:on" in model.extractor.question_restatements()
    assert unsensible_rules(model, ["incorrect"]) == []
