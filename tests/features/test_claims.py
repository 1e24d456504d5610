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
