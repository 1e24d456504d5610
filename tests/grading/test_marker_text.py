"""Rules and justifications in a marker's words (grader.grading.marker_text), on a sample question."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from grader.confold.rules import Literal as L
from grader.confold.rules import Rule
from grader.exams.exam_io import read_marked_answers
from grader.grading.marker_text import MarkerWords, mark_words, negative
from grader.grading.model import GradingModel
from knowledge import load_question
from knowledge.schema import Question

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "vertical_throw"
#: what text meant for people must not hold: feature names, mark suffixes, the learner's verdicts,
#: "not (...)" around a condition, "value 'x'"
INTERNAL = re.compile(r"\b(concept|ref|term|quantity|value|similarity|misconception):|mark_\d|"
                      r"DOES (NOT )?HOLD|not \(|value '|non_answer|==|!=|<-")
DOUBLE_NEGATIVE = re.compile(r"\bnot\b[^;:\n]*\b(not|no|without|lacks)\b")


@pytest.fixture(scope="module")
def model() -> GradingModel:
    question = load_question(SAMPLE / "question.yaml")
    marked = read_marked_answers(SAMPLE / "marked.csv", marks=question.marks)
    return GradingModel.train(question, marked.answers, marked.marks, n_resamples=2)


ANSWERS = ["9.8 m/s^2 downwards", "g downwards", "down", "9.8", "it is zero at the top",
           "9.81 m/s2 up", "the velocity is zero but the acceleration is g downwards", "idk"]


def test_the_issue_example_reads_as_a_marker_speaks(model):
    text = model.explain("9.8 m/s^2 downwards").text()
    assert text.splitlines()[0] == ("1 mark: gives the acceleration at the top as 9.8 m/s^2 (correct "
                                    "within 0.25 m/s^2) and says the acceleration points down")
    assert "rule 2 (0 marks): does not think the acceleration is zero at the top" in text


def test_no_internal_names_in_text_for_people(model):
    texts = model.rule_texts() + model.rule_summaries() + [model.rules("text")]
    texts += [model.explain(a).text() for a in ANSWERS]
    texts += [line for a in ANSWERS for line in model.words().said(model.features_found(a))]
    texts += model.grade(ANSWERS)["explanation"].tolist() + model.grade(ANSWERS)["rule"].tolist()
    for text in texts:
        assert not INTERNAL.search(text), text


def test_a_condition_that_did_not_hold_is_said_as_what_the_answer_has(model):
    text = model.explain("g downwards").text()
    assert "does not give the acceleration at the top" in text  # no "not (quantity ... correct)"
    assert not DOUBLE_NEGATIVE.search(text), text


def words() -> MarkerWords:
    question = load_question(SAMPLE / "question.yaml")
    descriptions = {"concept:downward": "says the acceleration points down",
                    "misconception:zero_at_top": "thinks the acceleration is zero at the top",
                    "ref:s_2": 'mentions "s^2" (from the reference answer)'}
    return MarkerWords(question, descriptions, {"concept:downward": ["absent", "negated", "present"],
                                                "misconception:zero_at_top": ["absent", "present"],
                                                "ref:s_2": ["absent", "present"]})


@pytest.mark.parametrize("literal, text", [
    (L("concept:downward", "==", "absent"), "does not say the acceleration points down"),
    (L("concept:downward", "!=", "present"), "does not say the acceleration points down"),
    (L("concept:downward", "==", "negated"), "says the acceleration points down, but with a negation"),
    (L("misconception:zero_at_top", "!=", "absent"), "thinks the acceleration is zero at the top"),
    (L("ref:s_2", "!=", "absent"), 'mentions "s^2"'),
    (L("ref:s_2", "==", "absent"), 'does not mention "s^2"'),
    (L("quantity:acceleration", "==", "correct"),
     "gives the acceleration at the top as 9.8 m/s^2 (correct within 0.25 m/s^2)"),
    (L("quantity:acceleration", "==", "missing"), "does not give the acceleration at the top"),
    (L("value:acceleration", ">", -9.81), "gives the acceleration at the top above -9.81 m/s^2"),
    (L("similarity:mark_0_5", ">", 0.5), "says more than 50% of what some answer marked 0.5 said"),
    (L("coverage", ">", 0.0), "covers more than 0% of the reference answer's content words"),
    (L("non_answer", "==", "no"), "is an attempt at an answer"),
    (L("says_the_circuit_is_open", "==", True), "says the circuit is open"),
    (L("says_the_circuit_is_open", "!=", True), "does not say the circuit is open"),
    (L("circuit_open", "!=", True), "not circuit open"),  # no verb to put "does not" before
])
def test_phrases(literal, text):
    assert words().phrase(literal) == text


@pytest.mark.parametrize("literal, text", [
    # "they attract" reads as the reference's "repel" negated: the teacher is told so
    (L("ref:repel", "==", "negated"), 'says "attract" (or mentions "repel" with a negation)'),
    (L("ref:repel", "!=", "negated"), 'neither says "attract" nor mentions "repel" with a negation'),
    (L("ref:repel", "!=", "absent"), 'mentions "repel" or "attract", with or without a negation'),
    (L("ref:repel", "==", "present"), 'mentions "repel"'),
    (L("ref:pole", "==", "negated"), 'mentions "pole", but with a negation'),  # no antonym
    # was 'does not mention "pole" with a negation', which reads two ways
    (L("ref:pole", "!=", "negated"), 'mentions "pole" without a negation, if at all'),
])
def test_a_negated_reference_word_names_its_antonym(literal, text):
    question = load_question(SAMPLE / "question.yaml")
    marker = MarkerWords(question, {"ref:repel": 'mentions "repel" (from the reference answer)',
                                    "ref:pole": 'mentions "pole" (from the reference answer)'},
                         opposites={"ref:repel": '"attract"'})
    assert marker.phrase(literal) == text


def test_conditions_joined_with_and_hold_no_or_of_their_own():
    # 'has at most 7 words and mentions "repel" or says "attract", with or without a
    # negation' could be read as (A and B) or C; each condition now keeps its alternative
    # inside itself: in parentheses, "neither ... nor", or one verb ("mentions X or Y")
    question = load_question(SAMPLE / "question.yaml")
    marker = MarkerWords(question, {"ref:repel": 'mentions "repel" (from the reference answer)',
                                    "ref:pole": 'mentions "pole" (from the reference answer)'},
                         opposites={"ref:repel": '"attract"'})
    for op, value in (("==", "negated"), ("!=", "negated"), ("!=", "absent")):
        for feature in ("ref:repel", "ref:pole"):
            text = marker.phrase(L(feature, op, value))
            outside = re.sub(r"\([^)]*\)", "", text)
            assert not re.search(r", or\b| or says\b", outside), text


def test_an_exception_is_listed_as_what_it_is_not_as_not():
    rule = Rule("1", (L("quantity:acceleration", "==", "correct"),),
                [Rule(None, (L("misconception:zero_at_top", "==", "present"),))])
    assert words().rule_text(rule) == ("1 mark if gives the acceleration at the top as 9.8 m/s^2 (correct "
                                       "within 0.25 m/s^2); exceptions: thinks the acceleration is zero at the top")


@pytest.mark.parametrize("description, text", [
    ("says it", "does not say it"), ("thinks so", "does not think so"), ("names gravity", "does not name gravity"),
    ("multiplies V by R", "does not multiply V by R"), ("is open", "is not open"),
    ("restates the question", "does not restate the question"), ("the value", "lacks: the value"),
])
def test_negative(description, text):
    assert negative(description) == text


def test_mark_words():
    assert [mark_words(m) for m in ("0", "0.5", "1", "2", "good")] == ["0 marks", "0.5 marks", "1 mark",
                                                                       "2 marks", "mark good"]


def test_a_derived_predicate_reads_as_its_description_both_ways(tmp_path):
    """The sample's gives_a_plausible_g has a description: markers read it, not the name, in the
    rules, in a justification, and after the model file is saved and loaded."""
    question = load_question(SAMPLE / "question.yaml")
    [definition] = [d for d in question.background if getattr(d, "description", None)]
    assert definition.name == "gives_a_plausible_g"
    said = MarkerWords(question, {})
    assert said.phrase(L("gives_a_plausible_g", "==", True)) == "gives a value of g between 9.5 and 10.5"
    assert said.phrase(L("gives_a_plausible_g", "!=", True)) == "does not give a value of g between 9.5 and 10.5"
    marked = read_marked_answers(SAMPLE / "marked.csv", marks=question.marks)
    model = GradingModel.train(question, marked.answers, marked.marks, n_resamples=0, wording_support=False)
    model.save(tmp_path / "m.json")
    loaded = GradingModel.load(tmp_path / "m.json")
    for m in (model, loaded):
        text = m.rules()
        assert "0 marks if thinks the acceleration is zero at the top and does not give a value of g " \
               "between 9.5 and 10.5" in text
        assert "plausible" not in text
        assert m.explain("it is zero at the top").text().startswith(
            "0 marks: thinks the acceleration is zero at the top and does not give a value of g between 9.5 and 10.5")
        assert "% description: gives a value of g between 9.5 and 10.5\ngives_a_plausible_g(X) :-" in m.rules("asp")


def test_a_derived_predicate_without_a_description_reads_as_its_name():
    question = load_question(SAMPLE / "question.yaml")
    question.background = [d for d in question.background if not getattr(d, "description", None)]
    assert MarkerWords(question, {}).phrase(L("gives_a_plausible_g", "!=", True)) == "does not give a plausible g"


#: what a student must not read: the marker's figures and the model's workings
FOR_MARKERS = re.compile(r"\brule\b|confidence|resampled|models? agree|worded|wording|weight [\d.]|"
                         r"correct within|reference answer|\d+%|human marker", re.IGNORECASE)


def test_a_student_reads_what_the_answer_says_in_the_teachers_words(model):
    """Issue 32: the feedback column held the marker's justification ("1 mark by rule 3 (rule
    confidence 0.90): ...; 2 of 2 resampled models agree; answers worded like this one ...")."""
    grades = model.grade(ANSWERS)
    feedback = dict(zip(ANSWERS, grades["feedback"]))
    assert feedback["9.8 m/s^2 downwards"] == ("Your answer gives the acceleration at the top as 9.8 m/s^2 "
                                               "and says the acceleration points down.")
    assert feedback["it is zero at the top"].startswith("Your answer thinks the acceleration is zero at the top")
    assert any(f for f in feedback.values())
    for text in list(feedback.values()) + model.student_texts():
        assert not FOR_MARKERS.search(text) and not INTERNAL.search(text), text
        assert text == "" or text.startswith("Your answer "), text


def test_a_rule_resting_only_on_the_models_figures_gives_no_feedback():
    w = words()
    internal = [L("similarity:mark_0_5", ">", 0.5), L("coverage", ">", 0.3), L("ref:s_2", "==", "present"),
                L("term:gap", "==", "present"), L("length", "<=", 3), L("non_answer", "==", "no")]
    assert w.student_text([internal]) == ""
    # beside a condition of the rubric, only that condition is said
    mixed = [L("coverage", ">", 0.3), L("concept:downward", "==", "present"), L("says_the_circuit_is_open", "!=", True)]
    assert w.student_text([mixed]) == "Your answer says the acceleration points down and does not say the circuit is open."
    # boosted rules: each condition of the rules voting for the mark, once
    assert w.student_text([mixed[1:2], mixed[1:2]]) == "Your answer says the acceleration points down."


def test_a_value_bounded_on_both_sides_is_one_range():
    # "gives the current at least 0.49 A and gives the current at most 0.51 A" said the value twice
    rule = Rule("0.5", (L("value:acceleration", ">=", 9.5), L("concept:downward", "==", "present"),
                        L("value:acceleration", "<=", 10.5)))
    assert words().rule_text(rule) == ("0.5 marks if gives the acceleration at the top between 9.5 and 10.5 m/s^2 "
                                       "and says the acceleration points down")
    strict = Rule("0", (L("value:acceleration", "<", 0.1), L("value:acceleration", ">", -0.1)))
    assert words().rule_text(strict) == "0 marks if gives the acceleration at the top above -0.1 and below 0.1 m/s^2"
    one_side = Rule("0", (L("value:acceleration", ">", -0.1), L("value:acceleration", ">", 3.0)))
    assert words().rule_text(one_side).count("gives the acceleration") == 2


def test_a_condition_on_a_comparison_reads_as_the_reference_wrote_it():
    # 'says "wood better than metal" (or says "metal better than wood" (a comparison of the
    # reference answer) with a negation)': the comparison's column kept where its words came
    # from inside the alternative, where a reference word's does not
    question = Question("spoons", "Which spoon's handle gets hot first, and why?",
                        ("Metal is a better conductor of heat than wood.",), marks=("incorrect", "correct"))
    fx = FeatureExtractor(question, model=FALLBACK).fit(["x"])
    words = MarkerWords(question, fx.descriptions_, opposites=fx.opposites_)
    assert words.phrase(L("ref:metal_better_than_wood", "==", "negated")) == (
        'says "wood better than metal" (or says "metal better than wood" with a negation)')
    assert words.phrase(L("ref:metal_better_than_wood", "==", "present")) == 'says "metal better than wood"'
