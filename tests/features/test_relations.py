"""Links between the rubric's ideas (`relation:NAME`, issue 31): found in either word order
and voice, with lists, denied or not, on the fallback pipeline; read by rules in YAML and
ASP. Sentences written for these tests, on levers and magnets."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge import check_question_text
from knowledge.schema import Concept, Question, Relation, rubric_feature_specs

Q = Question(
    id="lever", text="Where is the load?",
    reference_answers=("The load is close to the pivot.",),
    concepts=(Concept("load", ("load",)), Concept("effort", ("effort",)),
              Concept("pivot", ("pivot", "fulcrum")), Concept("magnet_a", ("magnet A",)),
              Concept("magnet_b", ("magnet B",)), Concept("magnet_c", ("magnet C",))),
    relations=(Relation("load_near_pivot", ("load", "pivot"), ("close", "near", "next to"),
                        "says the load is near the pivot"),
               Relation("a_attracts_b", ("magnet_a", "magnet_b"), ("attract", "pull")),
               Relation("a_in_field", ("magnet_a",), ("in the field",)),
               Relation("b_in_field", ("magnet_b",), ("in the field",)),
               Relation("c_in_field", ("magnet_c",), ("in the field",))))


@pytest.fixture(scope="module")
def fx() -> FeatureExtractor:
    return FeatureExtractor(Q, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer, relation, state", [
    ("the load is close to the pivot", "load_near_pivot", "present"),
    ("the pivot and the load are close together", "load_near_pivot", "present"),
    ("the load is not near the fulcrum", "load_near_pivot", "negated"),
    # another idea after the link, the member in a clause of its own
    ("the load is near the effort and the pivot is far", "load_near_pivot", "absent"),
    ("the load is far. the pivot is near", "load_near_pivot", "absent"),
    ("magnet A attracts magnet B", "a_attracts_b", "present"),
    ("magnet B and magnet A attract", "a_attracts_b", "present"),
    ("magnet B is pulled by magnet A", "a_attracts_b", "present"),
    ("magnet A and magnet B do not attract", "a_attracts_b", "negated"),
    ("magnet A pulls the nail and magnet B pulls the coil", "a_attracts_b", "absent"),
    ("magnet A attracts the nail and magnet B to it", "a_attracts_b", "absent"),
    # the last item of a list after a link, with words of its own, starts a clause
    ("the effort is near the fulcrum and the load far from it", "load_near_pivot", "absent"),
    ("magnet C pulls magnet B and magnet A pushes it", "a_attracts_b", "absent"),
    ("magnet C attracts magnet B and magnet A is far away", "a_attracts_b", "absent"),
    # ... but not when those words still share the link
    ("magnet C attracts magnet B and magnet A", "a_attracts_b", "present"),
    ("magnet C attracts magnet B and magnet A strongly", "a_attracts_b", "present"),
    ("the effort is near the fulcrum and the load as well", "load_near_pivot", "present"),
    ("the effort is near the fulcrum and the load too", "load_near_pivot", "present"),
    # lists with "and", and the member a clause leaves out
    ("magnet A and magnet C are in the field, magnet B is not", "a_in_field", "present"),
    ("magnet A and magnet C are in the field, magnet B is not", "c_in_field", "present"),
    ("magnet A and magnet C are in the field, magnet B is not", "b_in_field", "negated"),
    ("neither magnet B nor magnet C is in the field", "b_in_field", "negated"),
    ("neither magnet B nor magnet C is in the field", "c_in_field", "negated"),
    # the list gives the noun once: "magnets A and B" names magnet B
    ("magnets A and B attract", "a_attracts_b", "present"),
    ("magnets A, B and C are in the field", "c_in_field", "present"),
    ("magnets A and C attract", "a_attracts_b", "absent"),
])
def test_a_relation_is_read_in_either_order_and_voice(fx, answer, relation, state):
    assert fx.transform([answer]).iloc[0][f"relation:{relation}"] == state


@pytest.mark.parametrize("answer, state", [
    ("north and south poles attract", "present"), ("the north and the south pole attract", "present"),
    ("north and south poles do not attract", "negated"), ("north poles attract", "absent"),
])
def test_a_noun_the_members_share_is_said_once(answer, state):
    q = Question(id="poles", text="What happens?", reference_answers=("The north pole attracts the south pole.",),
                 concepts=(Concept("north", ("north pole",)), Concept("south", ("south pole",))),
                 relations=(Relation("attract", ("north", "south"), ("attract",)),))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]["relation:attract"] == state


def test_a_relation_is_described_as_the_teacher_wrote_it(fx):
    assert fx.descriptions_["relation:load_near_pivot"] == "says the load is near the pivot"
    assert fx.descriptions_["relation:a_attracts_b"] == "says magnet A and magnet B: attract"
    specs = {s.name: s for s in rubric_feature_specs(Q)}
    assert specs["relation:b_in_field"].values == ("present", "negated", "absent")


FILE = """\
id: lever
question: Where is the load?
marks: ["0", "1"]
reference_answers: ["The load is close to the pivot."]
concepts:
  load: [load]
  pivot: [pivot, fulcrum]
relations:
  load_near_pivot:
    members: [load, pivot]
    link: [close, near, next to]
    description: says the load is near the pivot
initial_rules:
  - name: near
    mark: "1"
    if: ["relation:load_near_pivot == present"]
  - "mark(X,'0') :- relation(X,load_near_pivot,negated)."
"""


def test_rules_read_a_relation_in_yaml_and_asp():
    assert check_question_text(FILE, "q.yaml") == []


def test_a_relation_that_names_no_concept_is_pointed_at():
    text = FILE.replace("members: [load, pivot]", "members: [load, pivott]")
    problems = check_question_text(text, "q.yaml")
    assert [(p.line, p.column) for p in problems] == [(10, 21)], problems
    assert "'pivott' is not a concept" in problems[0].message and "pivot" in problems[0].message
    problems = check_question_text(FILE.replace("relation(X,load_near_pivot", "relation(X,load_far"),
                                   "q.yaml")
    assert problems and "load_far" in problems[0].message


ENERGY = Question(
    id="falling", text="A ball is dropped. Describe the energy changes as it falls.",
    reference_answers=("Gravitational potential energy is transferred to kinetic energy.",),
    concepts=(Concept("gpe", ("potential energy", "gpe")), Concept("ke", ("kinetic energy", "ke")),
              Concept("force", ("force",)), Concept("speed", ("speed",))),
    relations=(Relation("gpe_to_ke", ("gpe", "ke"), ("converted to", "turns into", "transferred to"), ordered=True),
               Relation("force_speed", ("force", "speed"), ("changes",), ordered=True),
               Relation("either_way", ("gpe", "ke"), ("converted to",))))


@pytest.mark.parametrize("answer, state", [
    ("GPE is converted to KE", "present"),
    ("potential energy turns into kinetic energy", "present"),
    ("kinetic energy is converted into potential energy", "absent"),  # the other way
    ("KE is converted to GPE", "absent"),
    ("GPE is not converted to KE", "negated"),
    ("GPE and KE are converted", "absent"),  # no order said
    ("GPE converts into KE", "present"),  # any form of the link's words
    ("GPE is made into KE", "absent"),  # no link of the relation
    ("GPE is converted into KE", "present"),  # "into" for "to"
    ("its g.p.e. turns to k.e.", "present"),  # letters with full stops; "to" for "into"
    ("energy is transferred from GPE to KE", "present"),  # "from X to Y" after the link
    ("energy is transferred from KE to GPE", "absent"),
    ("GPE is transferred", "absent"),
])
def test_an_ordered_relation_links_its_members_in_the_order_listed(answer, state):
    fx = FeatureExtractor(ENERGY, model=FALLBACK).fit(["x"])
    assert fx.transform([answer]).iloc[0]["relation:gpe_to_ke"] == state


@pytest.mark.parametrize("answer, ordered, either", [
    ("the force changes the speed", "present", "absent"),
    ("the speed is changed by the force", "present", "absent"),  # the doer after "by"
    ("the speed changes the force", "absent", "absent"),
    ("KE is converted to GPE", "absent", "present"),  # a relation without order: either way
])
def test_a_passive_with_by_names_the_doer_after_the_link(answer, ordered, either):
    row = FeatureExtractor(ENERGY, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert (row["relation:force_speed"], row["relation:either_way"]) == (ordered, either)


def test_an_ordered_relation_is_described_in_its_order():
    fx = FeatureExtractor(ENERGY, model=FALLBACK).fit(["x"])
    assert fx.descriptions_["relation:gpe_to_ke"] == "says potential energy converted to kinetic energy"
    assert fx.descriptions_["relation:either_way"] == "says potential energy and kinetic energy: converted to"


def test_an_ordered_relation_in_a_question_file_needs_two_members_and_true_or_false():
    text = FILE.replace("    link: [close, near, next to]", "    link: [close, near, next to]\n    ordered: true")
    assert check_question_text(text, "q.yaml") == []
    problems = check_question_text(text.replace("ordered: true", "ordered: yes please"), "q.yaml")
    assert [(p.line, p.column, p.message) for p in problems] == [
        (12, 14, "ordered of relation 'load_near_pivot' must be true or false")]
    problems = check_question_text(text.replace("members: [load, pivot]", "members: [load]"), "q.yaml")
    assert [(p.line, p.message) for p in problems] == [
        (12, "relation 'load_near_pivot' is ordered and has 1 members: an order links two")]


def test_a_model_file_keeps_the_order_of_a_relation(tmp_path):
    import dataclasses

    from grader.grading.model import GradingModel
    from tests.data import marked_answers, small_question

    question = small_question()
    question = dataclasses.replace(question, relations=(
        Relation("gap_stops_current", ("gap", "current"), ("stops",), ordered=True),
        Relation("either", ("gap", "current"), ("stops",))))
    answers, marks = marked_answers()
    model = GradingModel.train(question, answers, marks, n_resamples=0, wording_support=False)
    model.save(tmp_path / "m.json")
    loaded = GradingModel.load(tmp_path / "m.json")
    assert [r.ordered for r in loaded.question.relations] == [True, False]
    rows = loaded.extractor.transform(["the gap stops the current", "the current stops the gap"])
    assert list(rows["relation:gap_stops_current"]) == ["present", "absent"]
    assert list(rows["relation:either"]) == ["present", "present"]


@pytest.mark.parametrize("answer, heavy, light", [
    ("closer to the pivot for the heavier child", "present", "absent"),  # the link before both
    ("the heavier child sits closer to the pivot", "present", "absent"),
    ("closer to the pivot for the lighter child", "absent", "present"),
    ("the heavier child is far. closer to the pivot for the lighter one", "absent", "present"),
])
def test_a_clause_that_starts_with_the_link_names_its_first_member_after_for(answer, heavy, light):
    q = Question(id="seesaw", text="Where should the children sit to balance the see-saw?",
                 reference_answers=("The heavier child sits closer to the pivot.",),
                 concepts=(Concept("heavy", ("heavier child", "heavier one")),
                           Concept("light", ("lighter child", "lighter one")), Concept("pivot", ("pivot",))),
                 relations=(Relation("heavy_near", ("heavy", "pivot"), ("closer to",), ordered=True),
                            Relation("light_near", ("light", "pivot"), ("closer to",))))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert (row["relation:heavy_near"], row["relation:light_near"]) == (heavy, light)
