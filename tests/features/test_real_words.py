"""Real-word slips read in context where the question file lists its expected words
(issue 31). Sentences written for these tests, on sound and levers."""

from __future__ import annotations

from features import FeatureExtractor
from features.nlp import FALLBACK
from features.real_words import one_edit
from knowledge.schema import Concept, Question

PITCH = Question(
    id="pitch", text="Why does the shorter string sound higher?",
    reference_answers=("The shorter string has a higher pitch because it vibrates faster.",),
    concepts=(Concept("high_pitch", ("higher pitch",)), Concept("string", ("string",))),
    expected_words=("pitch", "string"))


def states(question: Question, answers: list[str], column: str) -> list[str]:
    fx = FeatureExtractor(question, model=FALLBACK).fit(["x"])
    return list(fx.transform(answers)[column])


def test_a_real_word_slip_is_read_as_the_expected_word_in_its_company():
    answers = ["it has a higher pitch", "it has a higher patch", "a higher pinch",
               "a tar patch on the road", "the shorter sting vibrates"]
    assert states(PITCH, answers[:4], "concept:high_pitch") == ["present", "present", "present",
                                                                "absent"]
    assert states(PITCH, answers[4:], "concept:string") == ["present"]


def test_without_expected_words_real_words_stay_as_written():
    import dataclasses
    bare = dataclasses.replace(PITCH, expected_words=())
    assert states(bare, ["it has a higher patch"], "concept:high_pitch") == ["absent"]


def test_one_edit_makes_the_four_kinds_of_slip():
    edits = one_edit("gap")
    assert {"gay", "gasp", "ga", "agp"} <= edits and "gap" not in edits
