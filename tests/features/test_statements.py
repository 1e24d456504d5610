"""Statements the reference answers make of two things, found the right way and crossed
(`features.statements`, issue 31). Sentences and topics written for these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question


def _extractor(*references: str) -> FeatureExtractor:
    q = Question(id="q", text="Explain your answer.", reference_answers=references)
    return FeatureExtractor(q, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer, wood, metal", [
    ("wood is an insulator", "present", "absent"), ("wood isn't a conductor", "present", "absent"),
    ("metal is a conductor", "absent", "present"), ("metal is not an insulator", "absent", "present"),
    ("metal is an insulator", "absent", "negated"), ("wood is a good conductor", "negated", "absent"),
    ("wood is an insulator and metal is a conductor", "present", "present"),
    ("metal is not a good conductor", "absent", "negated"), ("wood is not a good conductor", "present", "absent"),
    ("metal is a good insulator", "absent", "absent"),  # as much said of one as of the other
    ("it is an insulator", "absent", "absent"),  # nothing named
])
def test_a_statement_of_one_thing_said_of_the_other_is_crossed(answer, wood, metal):
    # "metal is an insulator" uses only words of the reference: they alone read it as the
    # reference's "wood is an insulator"
    fx = _extractor("Wood is a thermal insulator and metal is a good thermal conductor.")
    X = fx.transform([answer])
    assert (X.iloc[0]["ref:wood_is_insulator"], X.iloc[0]["ref:metal_is_conductor_good"]) == (wood, metal)


@pytest.mark.parametrize("answer, same, different", [
    ("like poles attract", "negated", "absent"), ("like poles repel", "present", "absent"),
    ("unlike poles attract", "absent", "present"), ("opposite poles attract", "absent", "present"),
    ("opposite poles repel", "absent", "negated"), ("like poles don't attract", "present", "absent"),
    ("they repel", "absent", "absent"),
])
def test_like_poles_that_attract_cross_the_reference(answer, same, different):
    fx = _extractor("Like poles repel, unlike poles attract.")
    X = fx.transform([answer])
    assert (X.iloc[0]["ref:same_is_repel"], X.iloc[0]["ref:different_is_attract"]) == (same, different)


def test_a_statement_is_described_as_written_and_crossed():
    fx = _extractor("Like poles repel, unlike poles attract.")
    assert fx.descriptions_["ref:same_is_repel"] == 'says "like poles repel" (from the reference answer)'
    assert fx.opposites_["ref:same_is_repel"] == '"like poles attract"'


@pytest.mark.parametrize("reference", [
    "If the bulb burns out, then the other bulbs are still in a closed path.",  # not side by side
    "One terminal is connected to the battery and the other terminal is connected to the switch.",
    "The meter reads the difference, the electrical states differ.",  # nothing shared
    "Wood is an insulator. Metal is a conductor.",  # two sentences
    "The string vibrates faster.",
])
def test_no_statement_of_two_things_where_none_is_made(reference):
    assert _extractor(reference).contrasts_.statements == []


@pytest.mark.parametrize("answer, iron, copper", [
    ("copper is magnetic", "absent", "negated"),
    ("copper is not magnetic", "absent", "present"),
    ("copper is nonmagnetic", "absent", "present"),
    ("iron is magnetic", "present", "absent"),
    ("iron isnt magnetic", "negated", "absent"),
    # an answer may leave it out too
    ("iron is magnetic and copper is not", "present", "present"),
    ("iron is magnetic and copper isnt", "present", "present"),
    ("copper is magnetic and iron is not", "negated", "negated"),
    # the clause that leaves it out says it again: "iron is" borrowed the first clause's
    # "not magnetic" (read "nonmagnetic") and denied it, and "iron is too" said nothing
    ("copper is not magnetic but iron is", "present", "present"),
    ("steel is magnetic and iron is too", "present", "absent"),
    ("not all metals are magnetic, iron is but copper isnt", "present", "present"),
    # a "not" in both clauses: copper is denied it too, not turned back
    ("steel is not magnetic and copper is not", "absent", "present"),
    ("iron is not magnetic but copper is", "negated", "negated"),
])
def test_a_statement_that_leaves_out_what_it_denies(answer, iron, copper):
    # "Iron is magnetic but copper is not" gave no statement: the second says nothing of
    # copper in words, so "copper is magnetic" read as the reference did
    q = Question(id="q", text="Which coin does the magnet pull?",
                 reference_answers=("Iron is magnetic but copper is not.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    row = fx.transform([answer]).iloc[0]
    assert (row["ref:iron_is_magnetic"], row["ref:copper_is_not_magnetic"]) == (iron, copper)
    assert fx.descriptions_["ref:copper_is_not_magnetic"] == 'says "copper is not magnetic" (from the reference answer)'


def test_an_answer_that_leaves_out_a_denial_says_the_statement_it_borrows():
    q = Question(id="q", text="Which spoon gets hot?", reference_answers=("Wood is an insulator and metal is a conductor.",))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(["metal is a conductor and wood is not",
                                                                  "wood is a conductor and metal is not"])
    assert list(X["ref:wood_is_insulator"]) == ["present", "negated"]


def test_a_thing_with_its_verb_lends_nothing_to_the_next_clause():
    # "iron is but brass isnt": "iron" was lent to the next clause, so that "brass isnt" denied
    # "magnetic" of iron as well as of brass
    fx = _extractor("Iron is a magnetic material, so the magnet attracts it.")
    X = fx.transform(["not all metals are magnetic, iron is but brass isnt",
                      "not all metals are magnetic, iron and brass arent"])
    assert list(X["ref:iron_is_magnetic_material"]) == ["present", "negated"]


def test_statements_read_with_their_own_verbs_and_a_reference_with_an_empty_clause():
    # "Only iron, nickel and cobalt (and steel) are attracted." gave a clause that names
    # nothing: looking for what it leaves out raised an IndexError and stopped training
    q = Question(id="q", text="Which objects does the magnet pull?",
                 reference_answers=("Only iron, nickel and cobalt (and steel, which is mostly iron) are attracted.",
                                    "Steel is a magnetic material, but aluminium and copper are not, so only the clip moves."))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert {(s.text, s.crossed_text) for s in fx.contrasts_.statements} == {
        ("steel is a magnetic material", "steel is not a magnetic material"),
        ("aluminium and copper are not a magnetic material", "aluminium and copper are a magnetic material")}


def test_a_formula_is_no_statement_of_a_thing():
    # "moment = weight x distance; the coins have the same weight" read as two statements,
    # "moment is distance" against "coin is same", and every answer saying "the moments are
    # the same" as crossing them
    fx = _extractor("Speed = distance / time; the cars have the same time, so the faster car goes further.")
    assert fx.contrasts_.statements == []
    fx = _extractor("Speed is distance over time and the cars have the same time.")
    assert [s.name for s in fx.contrasts_.statements]  # written in words, still read
