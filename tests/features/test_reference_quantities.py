"""The values a bare question file's reference answers give are checked as quantities
(features.reference_quantities). Questions and answers written for these tests, on levers
and sound."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from features.reference_quantities import reference_quantities
from knowledge.schema import Quantity, Question

MOMENT = Question("moment", "A 10 N force acts 2 m from the pivot. What is the moment about the pivot?",
                  ("The moment is 20 N m.", "Moment = force x distance = 10 N x 2 m = 20 Nm"))


def test_the_reference_value_is_a_quantity_and_the_questions_data_are_not():
    found = reference_quantities(MOMENT)
    assert [(q.name, q.value, q.unit, q.tolerance) for q in found] == [("reference_value", 20.0, "N m", 0.02)]


@pytest.mark.parametrize("question", [
    # numbers without a unit: labels, not quantities
    Question("t", "Why is the reading 0?", ("Terminal 2 and the positive terminal are in the same state",)),
    # the kind of quantity the teacher listed: their quantity says it
    Question("m", "What is the moment?", ("20 N m",), quantities=(Quantity("moment", 20, "N*m", 0.05),)),
    # a value the question gives, with its unit or without
    Question("e", "A wave has a frequency of 5 Hz. What is its frequency?", ("5 Hz",)),
    Question("v", "What does it mean when the voltage reading jumps from 0 to 1.5?",
             ("The terminals went from connected (0 V) to separated by a gap (1.5 V).",)),
    # things counted that pint reads as old units: "one pole" was 1 rod (5 m), "two bars" 2 bar
    Question("p", "Which bar is the magnet?", ("Bring one pole of your magnet up to each end of the two bars.",)),
    Question("h", "How do you hold it?", ("Hold it in one hand at two points, with five units of force.",)),
])
def test_no_quantity_where_the_reference_gives_none_of_its_own(question):
    assert reference_quantities(question) == ()


def test_a_reference_value_is_read_as_answers_are():
    # "m/s²" read without the answers' normalising was m/s, and the acceleration a speed
    q = Question("g", "What is the acceleration at the top?", ("The acceleration is 9.8 m/s² downwards.",))
    found = reference_quantities(q)
    assert [(x.value, x.unit) for x in found] == [(9.8, "m/s^2")]
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert list(fx.transform(["9.81 m s^-2", "9.8 m/s"])["quantity:reference_value"]) == ["correct", "wrong_unit"]


def test_a_value_the_question_gives_for_another_kind_of_quantity_is_still_the_answer():
    q = Question("m", "A 20 N force acts 1 m from the pivot. What is the moment?", ("20 N m",))
    assert [(x.value, x.unit) for x in reference_quantities(q)] == [(20.0, "N m")]


def test_a_temperature_is_one_quantity_in_any_scale():
    q = Question("t", "Water at 20 °C is heated for a minute. What is its temperature then?",
                 ("It is 80 °C.", "About 353 K"))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert [(x.value, x.unit) for x in fx.quantities_] == [(80.0, "°C")]  # 20 °C is the question's
    assert list(fx.transform(["80 degrees C", "353 K", "20 °C"])["quantity:reference_value"]) == \
        ["correct", "correct", "wrong_value"]


def test_one_quantity_for_one_value_however_often_the_references_give_it():
    q = Question("echo", "How long until the echo of a cliff 170 m away is heard? Sound travels at 340 m/s.",
                 ("1 s", "It takes one second.", "1000 ms, because the sound travels there and back"))
    assert [(x.value, x.unit) for x in reference_quantities(q)] == [(1.0, "s")]


@pytest.mark.parametrize("answer, status", [
    ("20 Nm", "correct"), ("twenty newton metres", "correct"), ("2000 N cm", "correct"),
    ("the moment is 10 x 2 = 20 N m", "correct"), ("200 Nm", "wrong_value"), ("20 kg", "wrong_unit"),
    ("it is 20", "no_unit"), ("the moment doubles", "missing"),
])
def test_answers_are_checked_against_the_reference_value(answer, status):
    fx = FeatureExtractor(MOMENT, model=FALLBACK).fit(["x"])
    assert fx.transform([answer]).iloc[0]["quantity:reference_value"] == status


def test_model_files_written_before_keep_the_reference_values_as_words():
    fx = FeatureExtractor(MOMENT, model=FALLBACK).fit(["x"])
    saved = fx.to_dict()
    assert "quantity:reference_value" in FeatureExtractor.from_dict(saved, MOMENT).transform(["20 Nm"]).columns
    del saved["params"]["reference_quantities"]  # as written before
    old = FeatureExtractor.from_dict(saved, MOMENT)
    assert not any(c.startswith(("quantity:", "value:")) for c in old.transform(["20 Nm"]).columns)
    off = FeatureExtractor(MOMENT, model=FALLBACK, reference_quantities=False).fit(["x"])
    assert off.quantities_ == ()


def test_a_rule_on_the_reference_value_reads_as_the_teacher_speaks():
    from grader.grading.model import GradingModel

    answers = ["20 Nm", "20 newton metres", "200 Nm", "2 Nm", "the moment is 20 N m", "it is 12 Nm",
               "twenty newton meters", "5", "2000 N cm", "it is 40 Nm", "12 N m", "moment = 20 N m"]
    marks = ["1", "1", "0", "0", "1", "0", "1", "0", "1", "0", "0", "1"]
    model = GradingModel.train(MOMENT, answers, marks, n_resamples=2)
    assert "gives the value asked for as 20 N m (correct within 2%)" in model.rules()
    assert model.grade(["it is twenty newton metres"])["mark"].iloc[0] == "1"


@pytest.mark.parametrize("references, answer, status", [
    # "about 340 m/s": 330 m/s is as right (it was a wrong value, 2% off at most)
    (("Sound travels at about 340 m/s in air.",), "sound goes about 330 m/s", "correct"),
    (("Sound travels at roughly 340 m/s.",), "sound is 320 m/s", "correct"),
    (("Sound travels at about 340 m/s.",), "sound goes 300 m/s", "wrong_value"),
    # given exactly, by this reference or another: 2%
    (("Sound travels at 340 m/s in air.",), "sound goes about 330 m/s", "wrong_value"),
    (("Sound travels at about 340 m/s.", "The speed is 340 m/s."), "330 m/s", "wrong_value"),
])
def test_a_value_the_reference_gives_as_about_is_checked_loosely(references, answer, status):
    q = Question("speed", "How fast does sound travel in air?", references)
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer])
    assert X.iloc[0]["quantity:reference_value"] == status
