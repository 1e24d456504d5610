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
