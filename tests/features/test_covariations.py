"""Quantities the reference answers have go together, found from either end
(`features.covariations`, issue 31). Sentences and topics written for these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question


def _extractor(*references: str) -> FeatureExtractor:
    q = Question(id="q", text="Explain your answer.", reference_answers=references)
    return FeatureExtractor(q, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer, state", [
    ("a longer string gives a lower pitch", "present"),
    ("a shorter string gives a higher pitch", "present"),  # from the other end: both turned
    ("the shorter the string, the higher the pitch", "present"),
    ("if the string is longer the pitch gets lower", "present"),
    ("a shorter string gives a lower pitch", "negated"), ("a longer string has a higher pitch", "negated"),
    ("a longer string does not give a higher pitch", "present"),  # the denied one counts turned
    ("the pitch is lower", "absent"), ("a shorter string vibrates faster", "absent"),
    ("a longer string is heavier. The pitch is higher.", "absent"),  # not in one sentence
])
def test_two_quantities_are_read_together_from_either_end(answer, state):
    # "a shorter string gives a higher pitch" is right, but "higher pitch" is the opposite
    # of the reference's "lower pitch" and "shorter" no word of it
    X = _extractor("A longer string gives a lower pitch.").transform([answer])
    assert X.iloc[0]["ref:long_with_pitch"] == state


def test_a_degree_after_than_belongs_to_the_other_thing():
    fx = _extractor("A longer string vibrates more slowly than a shorter string.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("long", "frequency"), -1)]  # not "shorter"
    X = fx.transform(["a shorter string vibrates faster", "a shorter string vibrates more slowly than a longer one"])
    assert list(X["ref:long_with_frequency"]) == ["present", "negated"]
    X = _extractor("The string vibrates faster, so the pitch is higher.").transform(
        ["it vibrates slower so the pitch is lower", "it vibrates faster and the pitch is lower",
         "the frequency increases so the pitch is higher"])
    # vibrating faster is a higher frequency, however it is said
    assert list(X["ref:frequency_with_pitch"]) == ["present", "negated", "present"]


def test_a_covariation_is_described_in_the_reference_s_words():
    fx = _extractor("The further the effort is from the pivot, the smaller the effort needed.")
    assert fx.descriptions_["ref:near_with_effort"] == (
        'says "further" goes with "smaller effort" (from the reference answer)')
    assert fx.opposites_["ref:near_with_effort"] == '"further" with "greater effort"'
    assert fx.contrasts_.statements == []  # "the further the effort": no statement of a thing
    X = fx.transform(["the closer to the pivot the bigger the effort", "further away means more effort"])
    assert list(X["ref:near_with_effort"]) == ["present", "negated"]


@pytest.mark.parametrize("reference, scales", [
    ("The time for one swing increases, because a longer pendulum swings more slowly.",
     {("time", "long"), ("time", "frequency"), ("long", "frequency")}),
    ("A larger area means the pressure on the snow is less.", {("area", "pressure")}),
    ("The air resistance is much greater, so the speed is lower.", {("resistance", "fast")}),
    ("The shadow gets bigger because the ball blocks more of the light.", {("shadow", "light")}),
])
def test_a_higher_or_an_increases_measures_its_noun(reference, scales):
    # "the time for one swing increases" measured the swing, "the pressure on the snow is
    # less" the snow and "much greater" the word "much"
    assert {c.scales for c in _extractor(reference).contrasts_.covariations} == scales


def test_a_covariation_said_the_other_way_keeps_more_or_less():
    # the other way of "longer" with "more slowly" read '"longer" with "less slowly"'
    fx = _extractor("A longer pendulum swings more slowly.", "The string is tighter, so it vibrates more easily.")
    turned = {c.name: c.reversed_text for c in fx.contrasts_.covariations}
    assert turned["long_with_frequency"] == '"longer" with "more rapidly"'
    assert turned["tight_with_easily"] == '"tighter" with "less easily"'  # no "more hard"


@pytest.mark.parametrize("answer, state", [
    ("you are far from the hinge so you need less force", "present"),
    ("further from the hinge, so less force is needed", "present"),
    ("close to the hinge you need more force", "present"),
    # turned round: the door class's wrong ideas
    ("the handle is further from the hinge so it takes more force", "negated"),
    ("the handle is closer to the hinge so you need less force", "negated"),
    # a plain word of degree alone, or with no comparison in its sentence, says nothing
    ("the handle is far from the hinge", "absent"),
    ("it is far from the hinge. You need force.", "absent"),
])
def test_a_plain_word_of_degree_goes_with_a_comparison_of_its_sentence(answer, state):
    # "you are far from the pivot, so you need less force" read no two quantities: "far"
    # compares nothing, and "further ... more force" was not read as turning it round
    fx = _extractor("Pushing at the handle you are far from the hinge, so you need less force.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("force", "near"), 1)]
    assert fx.transform([answer]).iloc[0]["ref:force_with_near"] == state


@pytest.mark.parametrize("answer, state", [
    # a scale said both ways in a sentence: a part of it between commas that says each scale
    # one way still pairs them (it read as saying nothing of the two)
    ("more heat means more melting, a cold block has less melting", "present"),
    ("more heat means less melting, a cold block has more melting", "negated"),
    ("less heat means less melting, a hot block has more heat so it melts", "present"),
    ("a hot block has less melting and more heat, a cold one more melting", "negated"),
    ("the block melts more and less as the heat goes up", "absent"),  # one part, both ways
])
def test_a_part_of_a_sentence_pairs_two_scales_the_sentence_says_both_ways(answer, state):
    fx = _extractor("More heat gives more melting.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("heat", "melt"), 1)]
    assert fx.transform([answer]).iloc[0]["ref:heat_with_melt"] == state


def test_far_that_makes_a_comparison_stronger_is_no_degree_of_its_own():
    assert _extractor("A far bigger force is needed.").contrasts_.covariations == []
    # "near the hinge" is one: a bigger force goes with near
    fx = _extractor("A far bigger force is needed near the hinge.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("force", "near"), 1)]


def test_a_scale_a_sentence_says_both_ways_goes_with_nothing():
    # "the load is close to the pivot and the effort is far from it, so the moment is bigger"
    # made "close" go with "bigger moment" (the first end found), and right answers such as
    # "the further you push from the pivot, the bigger the moment" read as turned round
    fx = _extractor("Put the pivot close to the load, so your effort is far from it and its moment is bigger.")
    assert not [c for c in fx.contrasts_.covariations if "near" in c.scales]
    fx = _extractor("Your effort is far from the pivot, so its moment is bigger.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("moment", "near"), -1)]


@pytest.mark.parametrize("answer, state", [
    # a noun that names a scale is that scale: "the speed is lower" is "slower", "a smaller
    # distance" is "nearer", whichever the reference or the answer says
    ("the resistance is bigger so it moves slower", "present"),
    ("the resistance is bigger so it moves faster", "negated"),
    ("the resistance is smaller so its speed is higher", "present"),
])
def test_a_scale_noun_reads_as_its_scale(answer, state):
    fx = _extractor("The air resistance is much greater, so the speed is lower.")
    assert fx.transform([answer]).iloc[0]["ref:resistance_with_fast"] == state


def test_a_smaller_distance_is_nearer():
    fx = _extractor("The smaller the distance from the pivot to the card, the bigger the force on the card.")
    column = next(c for c in fx.contrasts_.covariations if set(c.scales) == {"near", "force"})
    X = fx.transform(["the card is closer to the pivot so the force is bigger",
                      "the card is further from the pivot so the force on it is bigger"])
    assert list(X[f"ref:{column.name}"]) == ["present", "negated"]


@pytest.mark.parametrize("answer, state", [
    ("the area touching the bread is small so the pressure is high", "present"),
    ("the area of the blade on the bread is less so theres more pressure", "present"),
    ("the area of the blade on the bread is bigger so theres more pressure", "negated"),
])
def test_a_degree_said_of_a_thing_named_with_a_phrase_measures_the_thing(answer, state):
    fx = _extractor("A smaller area gives a bigger pressure.")
    assert fx.transform([answer]).iloc[0]["ref:area_with_pressure"] == state


def test_a_comparison_of_two_things_says_a_pair_but_never_turns_it():
    # "heavier than the car" says the lorry is heavy and the car light: "faster" may be
    # either one's, so it turns nothing; said of the lorry it is read as the reference has it
    X = _extractor("A heavier trolley moves more slowly.").transform([
        "the lorry is heavier than the car so the car moves faster",
        "the lorry is heavier than the car so the lorry moves more slowly",
        "a heavier trolley moves faster",  # no comparison of two things: turned
        "the lorry is heavier than a small car so it moves faster",  # the second thing has a degree of its own
    ])
    assert list(X["ref:heavy_with_fast"]) == ["absent", "present", "negated", "negated"]


def test_big_enough_is_a_threshold_and_no_comparison():
    # "a bigger moment, big enough to turn the nut" made "enough" a quantity that goes with the
    # distance, and "the distance is small so she cant get a big enough moment" turned it round
    fx = _extractor("Pushing further from the pivot gives a bigger moment, big enough to turn the nut.")
    assert [c.scales for c in fx.contrasts_.covariations] == [("near", "moment")]
    X = fx.transform(["the distance is small and she cant push hard enough to get a big enough moment"])
    assert X.iloc[0]["ref:turned_round"] == "absent"


@pytest.mark.parametrize("answer, state", [
    ("the sound gets quieter with distance", "present"),
    ("the loudness decreases with increasing distance", "present"),
    ("the sound gets louder with distance", "negated"),
    ("the sound gets quieter with the wind", "absent"),  # no quantity that grows
])
def test_a_degree_with_a_quantity_changes_as_that_quantity_grows(answer, state):
    # "the sound gets quieter with distance" says the further, the quieter: it read as a
    # quieter sound alone, pairing it with nothing
    fx = _extractor("The further you are from the speaker, the quieter the sound.")
    assert fx.transform([answer]).iloc[0]["ref:near_with_loud"] == state


@pytest.mark.parametrize("reference, column, answers, states", [
    # "the boy's moment" is the moment, a quantity of its own: it read as "the boy smaller"
    ("Sitting closer to the pivot makes the boy's moment smaller.", "ref:near_with_moment",
     ["sitting closer makes the boy's moment bigger", "sitting closer makes his moment smaller",
      "the boy is closer so the boy is smaller"], ["negated", "present", "absent"]),
    # "the drum's skin" measures the drum, as students say it
    ("The drum's skin is bigger, so it vibrates more slowly.", "ref:drum_with_frequency",
     ["the drum is bigger so it vibrates faster", "the drum is bigger so it vibrates slower"], ["negated", "present"]),
])
def test_a_possessed_quantity_is_measured_and_a_possessed_part_measures_its_owner(reference, column, answers, states):
    assert list(_extractor(reference).transform(answers)[column]) == states


def test_a_clause_naming_a_place_within_a_thing_does_not_hide_the_thing():
    # "the distance from the hinge to where you push is bigger" measured "push" (the verb of
    # "where you push"), so the reference paired a bigger push with a smaller force
    fx = _extractor("The distance from the hinge to where you push is bigger, so you need a smaller force.")
    assert [c.name for c in fx.contrasts_.covariations] == ["near_with_force"]
    X = fx.transform(["a bigger distance means a smaller force", "a smaller distance needs a smaller force"])
    assert list(X["ref:near_with_force"]) == ["present", "negated"]


def test_a_repeated_degree_measures_the_noun_after_its_repeat():
    # "there are more and more bubbles" measured "heated" (the word before the first "more"),
    # which paired "heated more" with "louder", a pair no teacher wrote
    fx = _extractor("As the water is heated there are more and more bubbles, so the noise gets louder.")
    assert [(c.name, c.text) for c in fx.contrasts_.covariations] == [
        ("bubble_with_loud", '"more bubbles" goes with "louder"')]


@pytest.mark.parametrize("answer, state", [
    ("a short handle means you push closer to the hinge", "present"),
    ("with a long handle you push further from the hinge", "present"),
    ("a long handle means you push closer to the hinge", "negated"),
])
def test_long_and_short_said_plainly_beside_a_comparison_are_degrees(answer, state):
    # "long" compares nothing, as "far" does, but was no degree: the sentence gave no pair
    fx = _extractor("The long handle means you push further from the hinge.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("near", "long"), -1)]
    assert fx.transform([answer]).iloc[0]["ref:near_with_long"] == state


def test_a_long_way_from_a_thing_is_far_from_it():
    # "a long way from the hinge" was read as "long", a length, beside the blades "close to" it
    fx = _extractor("Your hand is a long way from the hinge, so the blades, close to the hinge, push with a "
                    "bigger force than your hand.")
    assert "ref:long_with_near" not in fx.transform(["x"]).columns
    X = _extractor("Your hand is a long way from the hinge, so you need a smaller force.").transform(
        ["your hand is far from the hinge so the force is smaller", "your hand is close to the hinge so the force is smaller",
         "your hand is a longer way from the hinge than the blades so the force is smaller"])
    assert list(X["ref:force_with_near"]) == ["present", "negated", "present"]


@pytest.mark.parametrize("answer, state", [
    ("you push harder so it turns faster", "present"),
    ("if you push it harder it turns more quickly", "present"),
    ("it is harder to push so it turns faster", "absent"),  # difficulty, not force
    ("you push harder so it turns more slowly", "negated"),
])
def test_harder_after_a_verb_says_with_more_force(answer, state):
    # "push harder" was read as "more difficult" ("hard" against "easy")
    fx = _extractor("The wheel is pushed harder, so it turns faster.")
    assert [(c.scales, c.sign) for c in fx.contrasts_.covariations] == [(("strong", "fast"), 1)]
    assert fx.transform([answer]).iloc[0]["ref:strong_with_fast"] == state


def test_a_force_on_a_thing_is_another_force_than_a_plain_one():
    # the sentence says "force" both ways (yours smaller, the one on the nut bigger), so it gave
    # no pair with force at all
    fx = _extractor("A longer spanner needs a smaller force and gives a bigger force on the nut.")
    assert sorted((c.scales, c.sign) for c in fx.contrasts_.covariations) == [
        (("long", "force"), -1), (("long", "force_on_nut"), 1)]
    X = fx.transform(["a longer spanner means less force", "a longer spanner gives a bigger force on the nut",
                      "a longer spanner needs a bigger force", "with a longer spanner the force on the nut is smaller"])
    assert list(X["ref:long_with_force"]) == ["present", "absent", "negated", "absent"]
    assert list(X["ref:long_with_force_on_nut"]) == ["absent", "present", "absent", "negated"]
    assert fx.descriptions_["ref:long_with_force_on_nut"] == \
        'says "longer" goes with "bigger force on the nut" (from the reference answer)'


def test_a_quantity_the_reference_names_one_way_keeps_its_plain_name():
    # the thing it acts on tells nothing apart where the reference names the quantity one way
    fx = _extractor("A wider ski gives a smaller pressure on the snow.")
    assert [c.name for c in fx.contrasts_.covariations] == ["wide_with_pressure"]
    X = fx.transform(["a wider ski gives less pressure", "a wider ski gives more pressure on the snow",
                      "a wider ski gives less pressure on the ice"])
    assert list(X["ref:wide_with_pressure"]) == ["present", "negated", "present"]


def test_heavy_said_plainly_is_no_degree():
    # "even a heavy box has a small moment" says a contrast, not that heavier goes with a smaller
    # moment; "heavy" (whose other end, "light", has a second sense) paired with the distance
    fx = _extractor("Near the hinge the distance is small, so even a heavy box has a small moment; "
                    "at the far end the box must be lighter.")
    assert sorted(c.name for c in fx.contrasts_.covariations) == ["heavy_with_near", "near_with_moment"]
    assert [c.sign for c in fx.contrasts_.covariations if c.name == "heavy_with_near"] == [1]
