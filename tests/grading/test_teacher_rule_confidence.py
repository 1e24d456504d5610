"""How sure a mark from a teacher's rule is: checked on the marked answers, as sure as a learned
rule's; taken as written (a stated confidence, a background rule, a mark nobody has yet), no surer
than the rule's own figure."""

from __future__ import annotations

import warnings

import numpy as np

from grader.grading.model import GradingModel
from knowledge import load_question
from tests.data import BELL_JAR_YAML

ANSWERS = ["it fades because sound needs a medium", "quieter since sound needs a medium to travel",
           "it gets softer, there is no medium", "the sound fades away, no medium left",
           "you hear nothing", "it stays the same", "no change at all", "it gets louder"] * 3
MARKS = ["correct"] * 4 + ["incorrect"] * 4
MARKS = MARKS * 3
NEW = ["it fades: sound needs a medium", "the sound fades as the medium goes"]


def _model(tmp_path, rules: str) -> GradingModel:
    path = tmp_path / "q.yaml"
    path.write_text(BELL_JAR_YAML.replace("reference_answers:", "marks: [incorrect, contradictory, correct]\n"
                                          "reference_answers:") + rules, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return GradingModel.train(load_question(path), ANSWERS, MARKS, n_resamples=10)


def _teachers(model: GradingModel):
    return next(r for r in model.learner.rules_ if r.origin in ("initial", "background") and r.head == "correct")


def test_a_checked_teachers_rule_is_as_sure_as_the_rule_lists_agree(tmp_path):
    # capped by its own figure on 12 answers (Wilson's bound, z = 3), every mark of the
    # teacher's rule was flagged while learned rules' marks that were no more often right were not
    model = _model(tmp_path, """initial_rules:
  - name: medium_and_fades
    mark: correct
    if: ["concept:medium == present", "concept:fades == present"]
""")
    rule = _teachers(model)
    assert rule.origin == "initial" and not rule.fixed_confidence and rule.confidence <= 0.7
    decisions = model.decide(model.features(NEW), NEW)
    assert list(decisions.marks) == ["correct", "correct"]
    assert (decisions.raw > rule.confidence + 0.1).all()
    assert not model.grade(NEW)["flagged"].any()


def test_a_teachers_stated_confidence_stays_the_most_a_mark_gets(tmp_path):
    model = _model(tmp_path, """initial_rules:
  - "0.6::mark(X,correct) :- concept(X,medium,present), concept(X,fades,present)."
""")
    rule = _teachers(model)
    assert rule.fixed_confidence and rule.confidence == 0.6
    decisions = model.decide(model.features(NEW), NEW)
    assert list(decisions.marks) == ["correct", "correct"] and np.all(decisions.raw <= 0.6 + 1e-12)


def test_a_background_rule_and_a_rule_for_a_mark_nobody_has_stay_as_sure_as_their_figure(tmp_path):
    model = _model(tmp_path, """background:
  - "mark(X,correct) :- concept(X,medium,present), concept(X,fades,present)."
initial_rules:
  - name: vacuum_carries_sound
    mark: contradictory
    if: ["misconception:vacuum_carries == present"]
""")
    background = _teachers(model)
    assert background.origin == "background"
    decisions = model.decide(model.features(NEW), NEW)
    assert np.all(decisions.raw <= background.confidence + 1e-12)
    vacuum = ["sound travels in a vacuum"]
    decisions = model.decide(model.features(vacuum), vacuum)
    rule = model.learner.rules_[decisions.rule_index[0]]
    assert decisions.marks[0] == "contradictory" and rule.name == "vacuum_carries_sound"
    assert decisions.raw[0] <= rule.confidence + 1e-12


def test_a_model_file_written_before_keeps_every_teachers_rule_capped(tmp_path):
    # its calibration was fitted on the capped figures: the same raw confidences, the same meaning
    import json

    model = _model(tmp_path, """initial_rules:
  - name: medium_and_fades
    mark: correct
    if: ["concept:medium == present", "concept:fades == present"]
""")
    assert model.params["checked_rules_trusted"] is True
    data = json.loads(json.dumps(model.to_dict()))
    del data["params"]["checked_rules_trusted"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    old = GradingModel.load(tmp_path / "old.json")
    rule = _teachers(old)
    decisions = old.decide(old.features(NEW), NEW)
    assert list(decisions.marks) == ["correct", "correct"] and np.all(decisions.raw <= rule.confidence + 1e-12)
    assert np.all(model.decide(model.features(NEW), NEW).raw > rule.confidence + 0.1)
