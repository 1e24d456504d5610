"""How comparisons and qualities are read on topics other than circuits: shadows, heat,
pressure, pendulums (issue 31). Sentences and topics written for these tests."""

from __future__ import annotations

import pandas as pd
import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Concept, Question

SHADOW = Question(id="shadow", text="A ball is moved towards a torch. What happens to its shadow on the wall?",
                  reference_answers=("The shadow gets bigger.",))


def rows(question: Question, answers: list[str]) -> pd.DataFrame:
    return FeatureExtractor(question, model=FALLBACK).fit(answers).transform(answers)


def test_a_misspelt_comparison_is_still_the_comparison():
    # "biger" was mended to the reference's "bigger" but kept its lemma "big", which is no
    # key of its own: "bigger" is "more", so "the shadow gets biger" said nothing of size
    answers = ["the shadow gets biger", "a biger shadow", "the shadow gets bigger", "the shadow moves"]
    assert list(rows(SHADOW, answers)["ref:more"]) == ["present", "present", "present", "absent"]
    pendulum = Question(id="pendulum", text="A pendulum is made shorter. How does it swing?",
                        reference_answers=("It swings quicker.",))
    X = rows(pendulum, ["it swings quiker", "it swings faster", "it swings slower", "it swings"])
    assert list(X["ref:fast"]) == ["present", "present", "negated", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("the shadow grows", "present"), ("the shadow grew", "present"), ("the shadow is growing", "present"),
    ("the shadow shrinks", "negated"), ("the shadow shrank", "negated"), ("the shadow does not grow", "negated"),
])
def test_a_quantity_that_grows_is_more_and_one_that_shrinks_less(answer, state):
    assert rows(SHADOW, [answer]).iloc[0]["ref:more"] == state


@pytest.mark.parametrize("answer, state", [
    ("it lowers the pressure", "present"), ("the pressure is lowered", "present"),
    ("the pressure gets lower", "present"), ("it raises the pressure", "negated"),
])
def test_lowering_is_less_and_raising_more(answer, state):
    # "lowers" (the verb) said nothing, where "gets lower" said "less"
    q = Question(id="snow", text="Why do snowshoes stop you sinking into snow?",
                 reference_answers=("The pressure on the snow is less.",))
    assert rows(q, [answer]).iloc[0]["ref:less"] == state


def test_less_before_a_word_with_an_opposite_says_the_opposite():
    # "less big" said "big" (more); "less bright" said "bright"
    X = rows(SHADOW, ["the shadow becomes less big", "the shadow is less large", "the shadow is dark"])
    assert list(X["ref:more"]) == ["negated", "negated", "absent"]
    bulb = Question(id="bulb", text="A second cell is added. What happens to the bulb?",
                    reference_answers=("The bulb is brighter.",), concepts=(Concept("dimmer", ("dimmer",)),))
    X = rows(bulb, ["the bulb is less bright", "the bulb is brighter", "it is less and less bright",
                    "the bulb is dimmer", "there is less light"])
    assert list(X["ref:bright"]) == ["negated", "present", "negated", "negated", "absent"]
    assert list(X["concept:dimmer"]) == ["present", "absent", "present", "present", "absent"]


def test_a_poor_or_bad_conductor_is_an_insulator():
    # "wood is a poor conductor" denied the reference's "insulator" (a conductor is its opposite)
    q = Question(id="spoons", text="Why does the handle of a metal spoon in hot soup get hot sooner than a wooden one?",
                 reference_answers=("Wood is an insulator.",))
    X = rows(q, ["wood is a poor conductor", "wood is a bad conductor of heat", "wood is a good conductor",
                 "wood is an insulator", "wood is a poor insulator", "a bad connection"])
    assert list(X["ref:insulator"]) == ["present", "present", "negated", "present", "negated", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("it speeds up", "present"), ("the swing sped up", "present"), ("it slows down", "negated"),
    ("its speed is the same", "absent"),
])
def test_speeding_up_is_faster(answer, state):
    q = Question(id="pendulum", text="A pendulum is made shorter. How does it swing?",
                 reference_answers=("It swings faster.",))
    assert rows(q, [answer]).iloc[0]["ref:fast"] == state


def test_a_noun_in_ivity_finds_its_verb():
    # "thermal conductivity" did not say the reference's "conducts"
    q = Question(id="spoons", text="Why does the handle of a metal spoon in hot soup get hot sooner?",
                 reference_answers=("Metal conducts heat well.",))
    X = rows(q, ["metal has a high thermal conductivity", "because of its conductivity", "metal is shiny"])
    assert list(X["ref:conduct"]) == ["present", "present", "absent"]


def test_a_word_read_as_its_opposite_is_described_as_written():
    # the key of "less bright" is "dim": a teacher reads the words the class and the
    # reference used, not the key nor the one word "bright"
    answers = ["the bulb is less bright", "it is less bright now", "a less bright bulb", "the bulb is less bright",
               "the bulb is brighter", "it goes out"]
    for reference, column in (("The bulb is less bright.", "ref:dim"), ("The current is smaller.", "term:dim")):
        q = Question(id="bulb", text="A resistor is added. What happens to the bulb?",
                     reference_answers=(reference,))
        fx = FeatureExtractor(q, model=FALLBACK, n_terms=10).fit(answers, ["correct"] * 4 + ["incorrect"] * 2)
        assert fx.descriptions_[column].startswith('mentions "less bright"')


@pytest.mark.parametrize("answer, same, stay", [
    ("her mass stays the same", "present", "present"), ("her mass remains the same", "present", "present"),
    ("her mass does not change", "present", "absent"), ("there is no change in her mass", "present", "absent"),
    ("her mass changes", "negated", "absent"), ("her mass is different", "negated", "absent"),
])
def test_not_changing_is_staying_the_same(answer, same, stay):
    # "does not change" and "remains the same" did not say the reference's "stays the same"
    q = Question(id="moon", text="An astronaut goes to the Moon. What happens to her mass?",
                 reference_answers=("Her mass stays the same.",))
    X = rows(q, [answer])
    assert (X.iloc[0]["ref:same"], X.iloc[0]["ref:stay"]) == (same, stay)


def test_a_noun_in_or_finds_its_verb():
    # "metal doesn't insulate" did not deny the reference's "insulator", nor did "a
    # conductor" say its "conducts"
    q = Question(id="spoons", text="Why does the handle of a metal spoon in hot soup get hot sooner?",
                 reference_answers=("Wood is an insulator.", "Metal conducts heat."))
    answers = ["wood insulates", "metal doesn't insulate", "metal is a conductor", "wood is not a conductor",
               "wood insulates the heat", "metal is a conductor of heat"]
    X = rows(q, answers)
    assert list(X["ref:insulator"]) == ["present", "negated", "negated", "present", "present", "negated"]
    assert list(X["ref:conduct"]) == ["absent", "absent", "present", "negated", "absent", "present"]


def test_to_and_fro_and_backwards_and_forwards_say_back_and_forth():
    # a teacher's "back and forth" was not found in "to and fro" nor "backwards and forwards"
    q = Question(id="fork", text="How do the prongs of a struck tuning fork move?",
                 reference_answers=("They vibrate.",), concepts=(Concept("to_and_fro", ("back and forth",)),))
    X = rows(q, ["they move to and fro", "backwards and forwards", "forwards and back", "it went to and from the box",
                 "back and forth"])
    assert list(X["concept:to_and_fro"]) == ["present", "present", "present", "absent", "present"]
