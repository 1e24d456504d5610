"""Quantities a reference answer says stay the same (`features.invariants`, issue 31), found in
answers that keep them and in answers that change them. Sentences written for these tests, on
sound and pendulums."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question

DRUM = Question(id="drum", text="Why is a drum louder when you hit it harder?",
                reference_answers=("The skin vibrates with a bigger amplitude, so it is louder; it still vibrates "
                                   "at the same frequency, so the pitch does not change.",))


@pytest.fixture(scope="module")
def fx() -> FeatureExtractor:
    return FeatureExtractor(DRUM, model=FALLBACK).fit(["x"])


def test_the_reference_says_what_stays_the_same(fx):
    assert [(i.scale, i.text, i.changed_text) for i in fx.contrasts_.invariants] == [
        ("frequency", "the frequency stays the same", "the frequency changes"),
        ("pitch", "the pitch stays the same", "the pitch changes")]
    assert fx.descriptions_["ref:pitch_stays_same"] == 'says "the pitch stays the same" (from the reference answer)'


@pytest.mark.parametrize("answer, frequency, pitch", [
    # "it vibrates with a higher frequency" (the wrong idea) used the reference's words
    ("it vibrates with a bigger amplitude and a higher frequency", "negated", "absent"),
    ("the pitch goes up", "absent", "negated"),
    ("the pitch changes", "absent", "negated"),
    ("the frequency stays the same", "present", "absent"),
    ("no change in pitch", "absent", "present"),
    ("the frequency does not change but the amplitude is bigger", "present", "absent"),
    ("it is louder", "absent", "absent"),
    # how fast a thing vibrates is how often: "vibrates faster" was a speed, and kept the frequency
    ("it vibrates faster and harder", "negated", "absent"),
    ("the vibrations are quicker", "negated", "absent"),
    ("the sound travels faster", "absent", "absent"),
])
def test_an_answer_keeps_or_changes_the_quantity(fx, answer, frequency, pitch):
    row = fx.transform([answer]).iloc[0]
    assert (row["ref:frequency_stays_same"], row["ref:pitch_stays_same"]) == (frequency, pitch)


def test_two_things_that_share_something_keep_no_quantity():
    # "in the same path" says two things share a path, not that a path stays as it was
    q = Question(id="path", text="Why do both bulbs go out?", reference_answers=("B and C are in the same path.",))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).contrasts_.invariants == []


def test_at_the_same_quantity_keeps_it():
    # "moves further at the same frequency" kept nothing: no word such as "still" or "stays"
    q = Question(id="cone", text="What changes when the volume is turned up?",
                 reference_answers=("The cone moves further in and out at the same frequency.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert [i.scale for i in fx.contrasts_.invariants] == ["frequency"]
    X = fx.transform(["it moves further but the frequency stays the same", "it moves in and out at a higher frequency"])
    assert list(X["ref:frequency_stays_same"]) == ["present", "negated"]
    q = Question(id="path", text="Why?", reference_answers=("The bulbs are at the same place in the path.",))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).contrasts_.invariants == []
