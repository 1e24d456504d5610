"""Retraining keeps the earlier model's rules that the new answers do not contradict."""

from __future__ import annotations

from grader.grading.model import GradingModel
from tests.data import marked_answers, small_question

FAST = {"n_resamples": 0, "wording_support": False}


def test_retraining_keeps_uncontradicted_rules_as_learned_ones():
    answers, marks = marked_answers()
    base = GradingModel.train(small_question(), answers[:60], marks[:60], **FAST)
    learned = [(r.head, r.body) for r in base.learner.rules_ if r.origin == "learned"]
    assert learned
    more = answers[:60] + answers[60:62], marks[:60] + marks[60:62]
    again = GradingModel.train(small_question(), *more, keep_rules_of=base, **FAST)
    kept = [(r.head, r.body) for r in again.learner.rules_]
    assert kept[:len(learned)] == learned  # same rules, same order, first
    assert all(r.origin == "learned" and r.name is None for r in again.learner.rules_)
    assert "teacher" not in again.explain(answers[61]).text()


def test_a_contradicted_rule_gets_an_exception_or_goes():
    answers, marks = marked_answers()
    base = GradingModel.train(small_question(), answers, marks, **FAST)
    # reviews that say every answer mentioning a gap is worth 0: the gap rule cannot stay as it was
    flipped = ["0" if "gap" in a else m for a, m in zip(answers, marks)]
    again = GradingModel.train(small_question(), answers, flipped, keep_rules_of=base, **FAST)
    before = {(r.head, r.body, len(r.exceptions)) for r in base.learner.rules_}
    after = {(r.head, r.body, len(r.exceptions)) for r in again.learner.rules_}
    assert before != after
    predicted = again.grade(answers)["mark"].tolist()
    assert sum(p == f for p, f in zip(predicted, flipped)) / len(answers) > 0.9
