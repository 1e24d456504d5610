"""The rule every question gets unless its file says otherwise: an answer that says the
reference answer the other way round (`grader.grading.built_in_rules`). Answers and topic
written for these tests."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from grader.confold.rules import Literal, Rule
from grader.grading.built_in_rules import BUILT_IN, TURNED_ROUND, best_mark, turned_round_rule
from grader.grading.model import GradingModel
from knowledge.schema import Question

MARKS = ("incorrect", "contradictory", "correct")


def _table(states: list[str]) -> pd.DataFrame:
    return pd.DataFrame({TURNED_ROUND: states, "ref:copper": ["present"] * len(states)})


def test_the_rule_gives_the_mark_most_answers_turning_the_reference_round_have():
    q = Question(id="q", text="Why?", reference_answers=("Copper conducts heat better than glass.",), marks=MARKS)
    X = _table(["present", "present", "present", "absent", "absent"])
    rule = turned_round_rule(q, X, ["contradictory", "contradictory", "incorrect", "correct", "incorrect"], MARKS)
    assert (rule.head, [str(lit) for lit in rule.body], rule.name) == (
        "contradictory", [str(Literal(TURNED_ROUND, "==", "present"))], BUILT_IN)


@pytest.mark.parametrize("marks, listed, why", [
    (["correct", "correct", "incorrect", "incorrect", "incorrect"], MARKS, "the best mark"),
    (["contradictory", "contradictory", "incorrect", "correct", "incorrect"], (), "words in no known order"),
])
def test_no_rule_where_its_mark_would_be_the_best_or_unknown(marks, listed, why):
    q = Question(id="q", text="Why?", reference_answers=("Copper conducts heat better than glass.",))
    states = ["present", "present", "present", "absent", "absent"]
    assert turned_round_rule(q, _table(states), marks, listed) is None


@pytest.mark.parametrize("marks, no_credit, head", [
    (["incorrect"] * 3 + ["contradictory", "correct"], ("contradictory",), "contradictory"),
    (["incorrect"] * 3 + ["correct"] * 2, (), "incorrect"),
    # the no-credit mark no answer has: the learner knows only the marks it was shown
    (["incorrect"] * 3 + ["correct"] * 2, ("contradictory",), "incorrect"),
])
def test_where_no_marked_answer_turns_the_reference_round_such_answers_get_no_credit_and_go_to_a_human(
        marks, no_credit, head):
    q = Question(id="q", text="Why?", reference_answers=("Copper conducts heat better than glass.",), marks=MARKS)
    rule = turned_round_rule(q, _table(["absent"] * 5), marks, MARKS, no_credit)
    assert (rule.head, rule.origin, rule.confidence, rule.fixed_confidence) == (head, "background", 0.5, True)
    assert turned_round_rule(q, _table(["absent"] * 5), marks, (), no_credit) is None  # marks in no known order


def test_a_model_no_marked_answer_showed_turning_the_reference_round_marks_it_unsure():
    q = Question(id="spoons", text="A copper spoon and a glass rod stand in hot tea. Which handle gets hot first? Why?",
                 reference_answers=("Copper conducts heat better than glass.",), marks=MARKS,
                 no_credit=("contradictory",))
    answers = RIGHT + VAGUE + ["copper conducts heat worse than glass, it is an insulator"]
    marks = ["correct"] * len(RIGHT) + ["incorrect"] * len(VAGUE) + ["contradictory"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = GradingModel.train(q, answers, marks, n_resamples=0)
    graded = model.grade(["glass conducts heat better than copper"])
    assert list(graded["mark"]) == ["contradictory"]
    assert graded["confidence"][0] <= 0.5
    assert "the other way round" in graded["rule"][0]


def test_no_rule_where_the_teachers_rules_say_anything_of_it():
    mine = Rule(head="incorrect", body=(Literal(TURNED_ROUND, "==", "present"),), origin="initial")
    q = Question(id="q", text="Why?", reference_answers=("Copper conducts heat better than glass.",), marks=MARKS,
                 initial_rules=[mine])
    X = _table(["present", "present", "present", "absent", "absent"])
    assert turned_round_rule(q, X, ["contradictory"] * 3 + ["correct"] * 2, MARKS) is None


def test_numbers_tell_the_best_mark():
    assert best_mark((), ["0", "1", "0.5"]) == "1"
    assert best_mark((), ["poor", "good"]) is None
    assert best_mark(("low", "high"), ["high"]) == "high"


RIGHT = ["copper conducts heat better than glass", "copper is a better conductor of heat than glass",
         "heat goes through copper better than through glass", "glass is a worse conductor than copper",
         "copper conducts heat better so the spoon gets hot", "the copper is better at conducting heat than glass",
         "copper lets heat through better than glass does", "copper is the better conductor, glass is worse",
         "heat travels better in copper than in glass", "copper conducts heat better than the glass one"]
TURNED = ["glass conducts heat better than copper", "heat goes through glass better than through copper"]
VAGUE = ["it gets hot", "because of heat", "the spoon is hot", "i dont know", "metal", "its science",
         "the handle is warm", "heat", "because it is hot", "the end gets warm"]


def _trained(**options) -> GradingModel:
    q = Question(id="spoons", text="A copper spoon and a glass rod stand in hot tea. Which handle gets hot first? Why?",
                 reference_answers=("Copper conducts heat better than glass.",), marks=MARKS,
                 no_credit=("incorrect", "contradictory"))
    answers = RIGHT + TURNED + VAGUE
    marks = ["correct"] * len(RIGHT) + ["contradictory"] * len(TURNED) + ["incorrect"] * len(VAGUE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return GradingModel.train(q, answers, marks, n_resamples=0, **options)


def test_an_answer_turning_the_reference_round_gets_the_mark_of_those_marked():
    # two marked answers turn the reference round, in the reference's own words: alone, the
    # learner marks the next one by those words, as the answers marked correct
    turned = ["glass lets it through better than copper does"]
    rules = [r for r in _trained().learner.rules_ if TURNED_ROUND in str(r)]
    assert [(r.head, r.origin, r.name) for r in rules] == [("contradictory", "learned", None)]
    assert list(_trained().grade(turned)["mark"]) == ["contradictory"]
    assert list(_trained(built_in_rules=False).grade(turned)["mark"]) != ["contradictory"]


def test_a_model_trained_without_them_says_so_for_its_retraining():
    # calibration and retraining train again with the model's recorded options
    assert _trained(built_in_rules=False).params["built_in_rules"] is False
    assert "built_in_rules" not in _trained().params
