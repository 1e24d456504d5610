"""Formulas of the reference answers found either way (`features.formulas`): "pressure = force
/ area" turned is "pressure = force x area". Sentences and topics written for these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question


def _states(reference: str, column: str, answers: list[str]) -> list[str]:
    q = Question(id="q", text="Explain your answer.", reference_answers=(reference,))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(answers)
    return list(X[column]), list(X["ref:turned_round"])


@pytest.mark.parametrize("answer, state", [
    ("pressure = force / area", "present"),
    ("the pressure is the force divided by the area so it sinks", "present"),
    ("pressure is force over area", "present"),
    # the quotient the other way up, or a product, turns the formula
    ("pressure = area / force", "negated"),
    ("pressure = force x area so a big area gives a big pressure", "negated"),
    ("the pressure is the force times the area", "negated"),
    # another quantity, or the formula rearranged, is no statement of this one
    ("force = pressure x area", "absent"),
    ("the pressure is bigger", "absent"),
])
def test_a_formula_is_found_as_given_and_turned(answer, state):
    states, turned = _states("Pressure = force / area, so a wide ski spreads the force.",
                             "ref:pressure_is_force_over_area", [answer])
    assert states == [state]
    assert turned == ["present" if state == "negated" else "absent"]


def test_a_product_is_the_same_in_either_order():
    states, _ = _states("The work done is force x distance moved.", "ref:work_is_force_times_distance",
                        ["work = distance x force", "work = force multiplied by distance",
                         "work = force / distance", "work = distance / force"])
    assert states == ["present", "present", "negated", "negated"]


def test_a_formula_is_described_as_the_reference_gives_it():
    q = Question(id="q", text="Explain.", reference_answers=("Speed = distance / time.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    columns = {name: (text, other) for name, text, other in fx.contrasts_.columns()}
    assert columns["speed_is_distance_over_time"] == ('says "speed = distance / time" (from the reference answer)',
                                                     '"speed = distance x time"')


def test_an_aside_in_brackets_does_not_start_the_formulas_clause():
    # "the moment (turning effect) of a force is force x distance" gave "force = force x
    # distance": the clause was read from the bracket on
    states, _ = _states("The moment (turning effect) of a force is force x distance.",
                        "ref:moment_is_force_times_distance",
                        ["moment = force x distance", "the moment is force divided by distance"])
    assert states == ["present", "negated"]
