"""Names the question gives a thing with a word of degree ("soft iron", "a big drum"): in an
answer the word names the thing, so a teacher's phrase that says it of something ("softer",
"bigger vibrations") is not found there (`features.question_names`). Sentences written for
these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from features.question_names import has_degrees, named_places, question_names, splits_a_name
from knowledge.schema import Concept, Misconception, Question


def test_a_word_with_degrees_has_a_comparative():
    assert [has_degrees(w) for w in ("soft", "big", "heavy", "thin")] == [True] * 4
    assert [has_degrees(w) for w in ("iron", "drum", "brass", "magnetic")] == [False] * 4


def test_a_name_is_a_word_with_degrees_before_a_content_word():
    keys = ["the", "core", "be", "make", "of", "soft", "iron", "."]
    assert question_names(keys, keys) == {("soft", "iron")}
    # "big" is read "more", as "bigger" is: the name is found by its keys, chosen by its words
    assert question_names(["a", "more", "drum"], ["a", "big", "drum"]) == {("more", "drum")}
    assert question_names(["more", "pin"], ["more", "pins"]) == frozenset()


def test_a_phrase_splits_a_name_only_where_it_says_the_word_of_something():
    named = named_places(["soft", "iron", "be", "soft"], frozenset({("soft", "iron")}))
    assert named == {0}
    keys = ["soft", "iron", "be", "soft"]
    assert splits_a_name([0], named, keys, frozenset({"soft"}))
    assert not splits_a_name([0, 1], named, keys, frozenset({"soft"}))  # the phrase has the name
    assert not splits_a_name([3], named, keys, frozenset({"soft"}))
    assert not splits_a_name([0], named, keys, frozenset())  # the phrase names the thing by it


LOCK = Question(
    id="lock", text="The electromagnet of a door lock has a core of soft iron. Why soft iron?",
    reference_answers=("Soft iron loses its magnetism as soon as the current stops.",),
    concepts=(Concept("temporary", ("temporary magnet",)),),
    misconceptions=(Misconception("physically_soft", ("softer", "it is soft", "bends easily")),))
DRUMS = Question(
    id="drums", text="A big drum and a small drum are hit. Which note is lower?",
    reference_answers=("The big drum vibrates more slowly, so its note is lower.",),
    misconceptions=(Misconception("amplitude", ("bigger vibrations",)),))
SEESAW = Question(
    id="seesaw", text="A heavy child and a light child sit on a see-saw. How do they balance?",
    reference_answers=("The heavy child sits nearer the pivot.",),
    misconceptions=(Misconception("wrong_way", ("heavy moves back",)),))


@pytest.mark.parametrize("question, answer, column, state", [
    # "soft iron" was read as the teacher's "softer": every right answer got the wrong idea
    (LOCK, "soft iron is a temporary magnet", "misconception:physically_soft", "absent"),
    (LOCK, "softiron is easy to magnetise, soft iron loses it", "misconception:physically_soft", "absent"),
    (LOCK, "the iron is softer than steel", "misconception:physically_soft", "present"),
    (LOCK, "soft iron is a temporary magnet", "concept:temporary", "present"),
    (DRUMS, "the big drum vibrates slowly", "misconception:amplitude", "absent"),
    (DRUMS, "a bigger drum vibrates slower", "misconception:amplitude", "absent"),
    (DRUMS, "the big drum makes bigger vibrations", "misconception:amplitude", "present"),
    # the teacher names the child by "heavy": found in the question's name
    (SEESAW, "the heavy child moves back", "misconception:wrong_way", "present"),
])
def test_a_teachers_phrase_is_not_found_in_a_name_of_the_question(question, answer, column, state):
    fx = FeatureExtractor(question, model=FALLBACK).fit(["x"])
    assert fx.transform([answer])[column].tolist() == [state]
