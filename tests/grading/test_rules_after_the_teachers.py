"""The learned rules and a teacher's: where a teacher wrote rules, the learned rules after them
are learned from every marked answer (`ConFold(learn_from_all=True)`), and a teacher's rule that
rests only on what an answer lacks applies after them (`ConFold(initial_last=...)`)."""

from __future__ import annotations

import warnings

from grader.confold.rules import Literal, Rule
from grader.grading.model import GradingModel
from grader.grading.rubric_test import AFTER_LEARNED, test_rubric as rubric_report
from grader.grading.sensible_rules import rests_on_lack
from knowledge import load_question
from knowledge.schema import Question
from tests.data import QUESTION_YAML

RIGHT = ["copper conducts heat better than glass", "copper is a better conductor of heat",
         "heat goes through copper faster", "copper lets the heat through quickly", "copper is a good conductor",
         "the copper one conducts heat better"]
WRONG = ["glass conducts heat better", "it is hot", "because of the tea", "i dont know", "glass is a conductor",
         "the handle is warm"]


def _trained(question: Question, answers: list[str], marks: list[str], resamples: int = 2) -> GradingModel:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return GradingModel.train(question, answers, marks, n_resamples=resamples)


def test_the_learned_rules_of_a_rubric_are_learned_from_every_marked_answer():
    teacher = Rule(head="correct", body=(Literal("ref:copper", "==", "present"),), origin="initial",
                   name="names_copper")
    text = "A copper spoon and a glass rod stand in hot tea. Which handle gets hot first? Why?"
    reference = ("Copper conducts heat better than glass.",)
    marks = ["correct"] * 6 + ["incorrect"] * 6
    rubric = _trained(Question(id="q", text=text, reference_answers=reference, initial_rules=[teacher]),
                      RIGHT + WRONG, marks)
    bare = _trained(Question(id="q", text=text, reference_answers=reference), RIGHT + WRONG, marks)
    assert rubric.learner.learn_from_all is True
    assert bare.learner.learn_from_all is False  # no teacher's rules: CON-FOLD's loop as it was


RUBRIC = QUESTION_YAML.split("concepts:\n")[0] + """concepts:
  gap:
    phrases: [gap]
    description: says the circuit has a gap
initial_rules:
  - name: names_the_gap
    mark: "1"
    if: ["concept:gap == present"]
  - name: no_gap
    mark: "0"
    if: ["concept:gap == absent"]
"""
GAP = ["there is a gap so no current", "a gap in the circuit", "the switch makes a gap", "gap so the current stops",
       "theres a gap", "the gap stops the current"]
OTHER_WORDS = ["the circuit is incomplete so no current flows", "the circuit is incomplete",
               "an incomplete circuit so no current", "the loop is incomplete so current cannot flow",
               "its incomplete so no current", "incomplete circuit"]
NO_IDEA = ["the bulb is broken", "the battery is flat", "no idea", "the wires are thin", "it is off", "the bulb is old",
           "because of the switch", "the bulb needs more power"]


def test_a_teachers_rule_on_what_an_answer_lacks_applies_after_the_learned_rules(tmp_path):
    # "0 if it does not say there is a gap" took the right answers in other words and the
    # wrong ideas alike, before any rule the marked answers show for them
    path = tmp_path / "q.yaml"
    path.write_text(RUBRIC, encoding="utf-8")
    answers, marks = GAP + OTHER_WORDS + NO_IDEA, ["1"] * 12 + ["0"] * 8
    model = _trained(load_question(path), answers, marks, resamples=0)
    origins = [(r.origin, r.name) for r in model.learner.rules_]
    assert origins[0] == ("initial", "names_the_gap")
    assert origins[-1] == ("initial", "no_gap")
    assert ("learned", None) in origins[1:-1]
    report = rubric_report(model, [str(i) for i in range(len(answers))], answers, marks)
    no_gap = next(r for r in report.rules if r.name == "no_gap")
    assert no_gap.note.startswith(AFTER_LEARNED)
    names = next(r for r in report.rules if r.name == "names_the_gap")
    assert not names.note.startswith(AFTER_LEARNED)


def test_what_rests_on_lack():
    assert rests_on_lack(Rule(head="0", body=(Literal("concept:gap", "==", "absent"),)))
    assert rests_on_lack(Rule(head="0", body=(Literal("concept:gap", "!=", "present"), Literal("coverage", "<=", 0.2))))
    assert not rests_on_lack(Rule(head="0", body=(Literal("concept:gap", "==", "absent"),
                                                  Literal("misconception:flat", "==", "present"))))
    assert not rests_on_lack(Rule(head="0", body=()))
    # for a mark that gives credit it is no catch-all ("1 if it is not a non-answer")
    credit = Rule(head="1", body=(Literal("non_answer", "==", "no"),))
    assert rests_on_lack(credit) and not rests_on_lack(credit, marks={"0"})


def test_a_teachers_rule_on_lack_for_credit_stays_where_the_teacher_put_it(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(RUBRIC.replace('    mark: "0"\n    if: ["concept:gap == absent"]',
                                   '    mark: "1"\n    if: ["non_answer == no"]'), encoding="utf-8")
    answers, marks = GAP + OTHER_WORDS + NO_IDEA, ["1"] * 12 + ["0"] * 8
    model = _trained(load_question(path), answers, marks, resamples=0)
    assert [r.name for r in model.learner.rules_[:2]] == ["names_the_gap", "no_gap"]
