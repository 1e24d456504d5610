"""What a reference answer says of one thing in words that have opposites, found as said and
as turned (`features.claims`): "like charges repel" is turned by "like charges attract" and
by "unlike charges repel", and said again by "unlike charges attract". Sentences and topics
written for these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question


def _extractor(reference: str) -> FeatureExtractor:
    q = Question(id="q", text="Explain your answer.", reference_answers=(reference,))
    return FeatureExtractor(q, model=FALLBACK).fit(["x"])


def _states(reference: str, column: str, answers: list[str]) -> tuple[list[str], list[str]]:
    X = _extractor(reference).transform(answers)
    return list(X[column]), list(X["ref:turned_round"])


@pytest.mark.parametrize("answer, state", [
    ("like charges repel", "present"),
    ("the balloons have the same charge and same charges repel", "present"),
    # each word turned once turns the claim; turned twice, it is said again
    ("like charges attract so they stick", "negated"),
    ("unlike charges repel", "negated"),
    ("because opposite charges repel each other", "negated"),
    ("opposite charges attract", "present"),
    ("like charges do not attract", "present"),
    ("like charges dont repel", "negated"),
    # the thing's kind left out: nothing said of like charges
    ("charges repel", "absent"),
    ("the balloons got rubbed", "absent"),
])
def test_a_claim_is_said_or_turned_by_the_words_turned(answer, state):
    states, turned = _states("Like charges repel, so the two rubbed balloons push apart.",
                             "ref:charge_same_is_repel", [answer])
    assert states == [state]
    assert turned == ["present" if state == "negated" else "absent"]


def test_an_opposite_that_takes_a_negation_says_the_claim():
    """"not in a closed flask" is "in an open flask": the negation is used up by the opposite."""
    states, turned = _states("The gas is in an open flask, so it escapes.", "ref:gas_is_flask_open",
                             ["the gas is not in a closed flask", "the gas is in a closed flask",
                              "the gas is in an open flask"])
    assert states == ["present", "negated", "present"]
    assert turned == ["absent", "present", "absent"]


def test_an_article_goes_with_the_turned_word():
    (claim,) = _extractor("The gas is in an open flask, so it escapes.").contrasts_.claims
    assert claim.turned_text == "gas is in a closed flask"


def test_what_would_be_is_no_claim():
    fx = _extractor("If the jar were turned over, like charges would face each other.")
    assert fx.contrasts_.claims == []


def test_a_word_of_degree_is_left_to_the_comparisons():
    fx = _extractor("The thicker wire stays the same colour but gets hotter.")
    assert all("hot" not in c.name and "thick" not in c.name for c in fx.contrasts_.claims)


def test_a_word_whose_opposite_has_a_prefix_is_part_of_the_things_name():
    """"magnetic field" is no kind of field a student turns into a "nonmagnetic field"; what
    the field does is turned."""
    fx = _extractor("The magnetic field attracts the nail.")
    (claim,) = fx.contrasts_.claims
    assert claim.turned_text == "magnetic field repels the nail"


def test_a_claim_is_described_as_the_reference_gives_it():
    fx = _extractor("Like charges repel, so the two rubbed balloons push apart.")
    columns = {name: (text, other) for name, text, other in fx.contrasts_.columns()}
    assert columns["charge_same_is_repel"] == ('says "like charges repel" (from the reference answer)',
                                              '"like charges attract"')


@pytest.mark.parametrize("answer, state", [
    # "light needs a medium" was read as saying the reference, whose "light does not need a
    # medium" it turns round: a reference's denied clause is a claim, and its denial one turn
    ("light needs a medium", "negated"),
    ("light needs a medium to travel", "negated"),
    ("light does not need a medium", "present"),
    ("light doesnt need a medium so we see it", "present"),
    ("sound needs a medium", "absent"),
])
def test_a_denied_clause_of_the_reference_is_a_claim(answer, state):
    states, turned = _states("Light does not need a medium, so the lamp is still seen.",
                             "ref:light_is_not_medium_need", [answer])
    assert (states, turned) == ([state], ["present" if state == "negated" else "absent"])


@pytest.mark.parametrize("answer, state", [
    # "not magnetic" reads "nonmagnetic": the claim is said with the opposite, and turned by "magnetic"
    ("tin is magnetic", "negated"),
    ("tin isnt magnetic", "present"),
    ("tin is nonmagnetic", "present"),
    ("iron is magnetic", "absent"),
])
def test_a_denial_an_opposite_took_is_a_claim_of_the_opposite(answer, state):
    states, _ = _states("Tin is not magnetic, so the can stays put.", "ref:tin_is_nonmagnetic", [answer])
    assert states == [state]


def test_a_denied_claim_is_described_turned_without_its_denial():
    columns = {name: other for name, _, other in
               _extractor("Tin is not magnetic. Light does not need a medium.").contrasts_.columns()}
    assert columns["tin_is_nonmagnetic"] == '"tin is magnetic"'
    assert columns["light_is_not_medium_need"] == '"light needs a medium"'


def test_one_denial_of_several_words_turns_a_claim_once():
    # "not in an open flask" denies "open" and "flask": two words, one denial, turned once
    states, _ = _states("The gas is in an open flask, so it escapes.", "ref:gas_is_flask_open",
                        ["the gas is not in an open flask"])
    assert states == ["negated"]


def test_a_denial_before_the_thing_makes_no_claim():
    # "... and no longer point the same way": the clause names no thing of its own before its
    # denial, and read from "point" on it would say the reference's "same" where it means "different"
    claims = _extractor("The needles get jumbled and no longer point the same way.").contrasts_.claims
    assert [c.turned_text for c in claims if "point" in c.text] == []
    (claim,) = _extractor("The needles no longer point the same way.").contrasts_.claims
    assert claim.turned_text == "needles point the same way"


@pytest.mark.parametrize("answer, state", [
    # absorbing and reflecting are what a surface does with a wave instead of each other:
    # "the foam doesnt reflect the sound" says it absorbs it, "the foam reflects it" turns it
    ("the foam absorbs the sound", "present"),
    ("the foam doesnt reflect the sound", "present"),
    ("the foam reflects the sound", "negated"),
    ("the foam does not absorb sound", "negated"),
])
def test_absorb_and_reflect_are_opposites(answer, state):
    states, _ = _states("The foam absorbs sound, so the room is quiet.", "ref:foam_is_absorb_sound", [answer])
    assert states == [state]


def test_a_denied_claim_may_end_with_its_verbs_particle():
    # "a loose rope does not pass the pulses on": the "on" after the denied words is the
    # verb's, so the clause is a denied claim, turned by "a loose rope passes the pulses on"
    fx = _extractor("A loose rope does not pass the pulses on.")
    assert [(c.text, c.turned_text) for c in fx.contrasts_.claims] == [
        ("loose rope does not pass the pulses on", "loose rope passes the pulses on")]
    X = fx.transform(["a loose rope passes the pulses on", "a loose rope cant pass pulses on", "the rope is loose"])
    assert list(X["ref:loose_rope_is_not_on_pass_pulse"]) == ["negated", "present", "absent"]


@pytest.mark.parametrize("answer, state", [
    # "cannot" denies the verb; the words after it ("through a vacuum") are outside the
    # denial's scope but are what is denied: the clause was no claim at all before
    ("light can pass through a wall", "negated"),
    ("light cant pass through a wall", "present"),
    ("light can not pass through walls so it is dark", "present"),
    ("light can pass through glass", "absent"),
])
def test_a_denied_verb_denies_what_follows_it(answer, state):
    states, turned = _states("Light cannot pass through a wall.", "ref:light_is_not_pass_through_wall", [answer])
    assert (states, turned) == ([state], ["present" if state == "negated" else "absent"])


def test_an_aside_in_brackets_leaves_the_claim_whole():
    # the aside split the clause: "tin" said nothing, and "magnetic material" was read as a thing
    fx = _extractor("Tin (a soft metal) is not a magnetic material.")
    assert [(c.text, c.turned_text) for c in fx.contrasts_.claims] == [
        ("tin is not a magnetic material", "tin is a magnetic material")]


@pytest.mark.parametrize("answer, state", [
    ("tin is not magnetic", "present"),  # the noun that only names its kind left out
    ("tin is magnetic", "negated"),
    ("lead is magnetic and tin isnt", "present"),  # said by leaving it out after a negation
    ("tin is not a magnetic material", "present"),
    ("tin is a soft metal", "absent"),
])
def test_a_claim_of_what_kind_a_thing_is_is_said_without_the_kind(answer, state):
    assert _states("Tin (a soft metal) is not a magnetic material.", "ref:tin_is_material_nonmagnetic",
                   [answer])[0] == [state]


def test_a_noun_that_is_what_is_said_stays_in_the_claim():
    # "conductor" has an opposite: "copper is good" says nothing of conducting
    fx = _extractor("Copper is a good conductor.")
    assert [c.kind for c in fx.contrasts_.claims] == [None]


def test_back_and_forth_is_one_movement_and_doing_the_same_is_no_claim():
    # the "and" of "back and forth" split the clause, so "forth in the same way" became a claim
    # about "forth"; "air particles do the same" became one about sameness
    fx = _extractor("The coils move back and forth in the same way as the wave travels, and air particles do the same.")
    assert [c.text for c in fx.contrasts_.claims] == []
    fx = _extractor("The needle swings back and forth and the poles are the same.")
    assert [c.text for c in fx.contrasts_.claims] == ["poles are the same"]


@pytest.mark.parametrize("answer, state", [
    # "not all" denies what is said of every one of a kind, not the kind: the clause was no
    # claim, and "all liquids mix with water" said nothing the other way round
    ("all liquids mix with water", "negated"),
    ("every liquid mixes with water", "negated"),
    ("not all liquids mix with water, oil does not", "present"),
    ("not every liquid mixes with water", "present"),
    ("oil is a liquid", "absent"),
])
def test_not_all_denies_what_is_said_of_every_one(answer, state):
    fx = _extractor("Not all liquids mix with water, so the oil floats on top.")
    assert [(c.text, c.turned_text) for c in fx.contrasts_.claims if "all" in c.thing] == [
        ("not all liquids mix with water", "all liquids mix with water")]
    X = fx.transform([answer])
    assert (X["ref:all_liquid_is_not_mix_water"].iloc[0], X["ref:turned_round"].iloc[0]) == (
        state, "present" if state == "negated" else "absent")
