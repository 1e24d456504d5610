"""Where a teacher wrote rules, the learned rules after them are learned from every marked
answer (`ConFold(learn_from_all=True)`), not only from the few the teacher's rules leave."""

from __future__ import annotations

import warnings

from grader.confold.rules import Literal, Rule
from grader.grading.model import GradingModel
from knowledge.schema import Question

RIGHT = ["copper conducts heat better than glass", "copper is a better conductor of heat",
         "heat goes through copper faster", "copper lets the heat through quickly", "copper is a good conductor",
         "the copper one conducts heat better"]
WRONG = ["glass conducts heat better", "it is hot", "because of the tea", "i dont know", "glass is a conductor",
         "the handle is warm"]


def _trained(question: Question) -> GradingModel:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return GradingModel.train(question, RIGHT + WRONG, ["correct"] * 6 + ["incorrect"] * 6, n_resamples=2)


def test_the_learned_rules_of_a_rubric_are_learned_from_every_marked_answer():
    teacher = Rule(head="correct", body=(Literal("ref:copper", "==", "present"),), origin="initial",
                   name="names_copper")
    text = "A copper spoon and a glass rod stand in hot tea. Which handle gets hot first? Why?"
    reference = ("Copper conducts heat better than glass.",)
    rubric = _trained(Question(id="q", text=text, reference_answers=reference, initial_rules=[teacher]))
    bare = _trained(Question(id="q", text=text, reference_answers=reference))
    assert rubric.learner.learn_from_all is True
    assert bare.learner.learn_from_all is False  # no teacher's rules: CON-FOLD's loop as it was
