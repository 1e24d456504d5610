"""Other names a reference answer gives a thing in brackets (`features.aliases`): "the moment
(turning effect)" says a turning effect is a moment. Sentences and topics written for these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question


def _extractor(*references: str) -> FeatureExtractor:
    q = Question(id="q", text="Explain your answer.", reference_answers=references)
    return FeatureExtractor(q, model=FALLBACK).fit(["x"])


def test_a_bracketed_name_is_read_as_the_thing_it_names():
    # "the turning effect is bigger" said nothing of the reference's "the further ..., the
    # bigger the moment": the reference names the moment both ways
    fx = _extractor("The moment (turning effect) of a push is push x distance.",
                    "The further the hand is from the hinge, the bigger the moment.")
    X = fx.transform(["the further the hand is from the hinge the bigger the turning effect",
                      "the further the hand is from the hinge the smaller the turning effect",
                      "the turning effect is big"])
    column = next(c for c in X.columns if c.startswith("ref:") and c.endswith("_with_moment"))
    assert list(X[column]) == ["present", "negated", "absent"]
    assert list(X["ref:moment"]) == ["present", "present", "present"]


@pytest.mark.parametrize("reference", [
    "The push gives a large moment (moment = push x distance).",  # a formula
    "A small push x long distance (hand) equals a big push x short distance (nut).",  # a formula's terms
    "The wave has a bigger amplitude (not faster).",  # a negation
    "The ends are alike (north facing north or south facing south).",  # more than two words
    "It vibrates more slowly (a lower pitch).",  # a word of degree before the bracket
    # a word of degree in the bracket: "frequency" was read as "second" in every answer
    "It vibrates fewer times per second (lower frequency).",
])
def test_a_bracket_that_gives_no_other_name_changes_nothing(reference):
    assert _extractor(reference)._aliases == {}


def test_a_word_given_for_two_things_is_no_other_name():
    fx = _extractor("Heat makes the atoms (domains) shake.", "The small magnets (domains) point every way.")
    assert fx._aliases == {}
    fx = _extractor("The drag (air resistance) is bigger.")
    assert fx._aliases == {("air", "resistance"): "drag"}
    # the words together name the thing; "air" alone is still air
    X = fx.transform(["there is more air resistance", "the air particles are hit"])
    assert list(X["ref:drag"]) == ["present", "absent"]
    assert list(X["ref:air"]) == ["absent", "present"]


def test_a_model_saved_and_loaded_reads_the_bracketed_name_alike():
    fx = _extractor("The drag (friction) on the parachute is bigger.")
    again = FeatureExtractor.from_dict(fx.to_dict(), fx.question)
    answers = ["the friction on the parachute is bigger", "there is more friction"]
    assert again.transform(answers).equals(fx.transform(answers))
    assert list(fx.transform(answers)["ref:drag"]) == ["present", "present"]
