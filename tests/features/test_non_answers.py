"""Non-answers whatever the rubric lists (issue 31): gibberish, requests for help, chatter,
a concept that lists chatter, the teacher's own non-answer phrases. Sentences written for
these tests, on sound."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from features.nonanswer import is_gibberish
from knowledge.schema import Concept, Question

PITCH = Question(
    id="pitch", text="Why does a shorter string give a higher pitch?",
    reference_answers=("A shorter string vibrates faster, so the frequency is higher.",),
    concepts=(Concept("faster", ("vibrates faster", "higher frequency")),
              Concept("gives_up", ("i don't know", "no idea", "not sure"))),
    non_answers=("see my notes", "ask my lab partner"))


@pytest.fixture(scope="module")
def fx() -> FeatureExtractor:
    return FeatureExtractor(PITCH, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer", [
    "qkzxvbnw", "fhdjskalgh", "wpqzrt xkcvbn",  # letters typed at random
    "asdfgh jkl", "sdf",  # a short run of keys has too few letter pairs to judge: no vowel
    "I do not know", "not sure lol",  # the rubric lists these as a concept: still non-answers
    "can you help me please", "this is so boring", "i hate physics",
    "see my notes", "Ask my lab partner!",  # the question file's own non-answer phrases
    # not knowing, and only the question's own words: they were answers
    "idk what a string is", "I have no idea why the pitch is higher", "we didn't learn this",
])
def test_non_answers_whatever_the_rubric_lists(fx, answer):
    assert fx.transform([answer]).iloc[0]["non_answer"] == "yes"


@pytest.mark.parametrize("answer", [
    "the string vibrates faster", "frequency", "it vibrats fastr", "shorter",
    "I'm not sure, but the string vibrates faster", "I don't know, it vibrates faster",
    "the shorter string has a higher pitch",  # the question's words without "I don't know"
    "resonance",  # a physics word the question does not use is an answer (a wrong one)
    "440 hz", "it is 3 kHz",
])
def test_answers_are_not_non_answers(fx, answer):
    assert fx.transform([answer]).iloc[0]["non_answer"] == "no"


def test_gibberish_is_told_from_words_and_misspellings():
    assert all(is_gibberish(w) for w in ["qkzxvbnw", "hghghg", "zzzzz", "fhdjskalgh"])
    assert not any(is_gibberish(w) for w in ["fulcrum", "decibel", "voltige", "frequensy",
                                             "oscilate", "tuning", "ab", "zap", "hum", "ohm"])


@pytest.mark.parametrize("answer, non_answer", [
    ("F × d", "no"), ("F x d", "no"), ("M = F*d", "no"), ("v = d/t", "no"), ("f=1/T", "no"),
    ("x", "yes"), ("idk", "yes"), ("idk/idc", "yes"), ("idc", "yes"),
])
def test_a_formula_is_an_answer_whatever_its_letters(answer, non_answer):
    # "F × d" for a moment was a non-answer: its letters are no words and no labels
    q = Question(id="moment", text="How do you work out the moment of a force about a pivot?",
                 reference_answers=("Multiply the force by its distance from the pivot.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert fx.transform([answer]).iloc[0]["non_answer"] == non_answer
