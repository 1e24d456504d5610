"""Comparisons of the reference answers found either way round (`features.comparisons`,
issue 31). Sentences and topics written for these tests."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Question


def _extractor(reference: str) -> FeatureExtractor:
    q = Question(id="q", text="Explain your answer.", reference_answers=(reference,))
    return FeatureExtractor(q, model=FALLBACK).fit(["x"])


def _states(reference: str, column: str, answers: list[str]) -> list[str]:
    return list(_extractor(reference).transform(answers)[column])


def test_a_comparison_said_the_other_way_round_is_told_apart():
    # every word of "wood is a better conductor than metal" is a word of the reference: its
    # words alone read it as the reference's comparison
    answers = ["metal conducts heat better than wood", "wood is a worse conductor than metal",
               "wood conducts heat better", "wood is a better conductor than metal",
               "metal is not a better conductor than wood", "metal is a worse conductor",
               "metal is a good conductor", "wood is a poor conductor"]
    assert _states("Metal is a better conductor of heat than wood.", "ref:metal_better_than_wood", answers) == [
        "present", "present", "negated", "negated", "negated", "negated", "absent", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("sound is faster in water than in air", "present"), ("sound travels faster in air than in water", "negated"),
    ("sound travels slower in air", "present"), ("sound travels more slowly in water", "negated"),
    ("sound is not faster in water than in air", "negated"), ("sound isn't slower in water than in air", "present"),
    ("sound travels fast", "absent"), ("sound is louder in water than in air", "absent"),
])
def test_the_things_compared_after_a_preposition(answer, state):
    column = "ref:water_fast_than_air"
    assert _states("Sound travels faster in water than in air.", column, [answer]) == [state]


@pytest.mark.parametrize("answer, state", [
    ("ice is not as dense as water", "present"), ("water is denser than ice", "present"),
    ("ice is less dense", "present"), ("ice is denser than water", "negated"),
    ("water is less dense than ice", "negated"), ("ice floats on water", "absent"),
])
def test_less_and_not_as_compare_the_other_way(answer, state):
    assert _states("Ice is less dense than water.", "ref:ice_dense_than_water", [answer]) == [state]


def test_the_comparison_is_described_as_written_and_its_reverse_too():
    fx = _extractor("A steel ball falls faster than a feather.")
    column = "ref:ball_steel_fast_than_feather"
    assert fx.descriptions_[column] == 'says "steel ball faster than feather" (from the reference answer)'
    assert fx.opposites_[column] == '"feather faster than steel ball"'
    X = fx.transform(["the feather falls slower than the steel ball", "the feather falls faster", "a ball falls"])
    assert list(X[column]) == ["present", "negated", "absent"]


def test_no_column_without_two_things_compared():
    for reference in ("The shadow gets bigger.", "It is faster than before.", "The wire is longer."):
        assert not [c for c in _extractor(reference).descriptions_ if "_than_" in c], reference


def test_a_saved_extractor_reads_the_comparison_again():
    fx = _extractor("Metal is a better conductor of heat than wood.")
    again = FeatureExtractor.from_dict(fx.to_dict(), fx.question)
    answers = ["wood conducts heat better", "metal conducts heat better than wood"]
    assert list(again.transform(answers)["ref:metal_better_than_wood"]) == ["negated", "present"]


def test_an_answer_comparing_the_other_way_round_reads_like_the_answers_that_do():
    # its words are those of the answers marked correct: it read as close to them as they are
    q = Question(id="q", text="Explain your answer.", reference_answers=("Metal is a better conductor of heat than wood.",))
    marked = {"metal conducts heat better than wood": "correct", "metal is better at conducting heat than wood": "correct",
              "wood conducts heat better than metal": "incorrect", "wood is better at conducting heat than metal": "incorrect"}
    fx = FeatureExtractor(q, model=FALLBACK).fit(list(marked), list(marked.values()))
    X = fx.transform(["metal conducts heat better", "wood conducts heat better"])
    assert list(X["similarity:correct"] > X["similarity:incorrect"]) == [True, False]


def test_a_comparison_with_as_reads_as_written_and_either_way_round():
    # "Ali should sit half as far from the pivot as his sister" made no comparison
    q = Question(id="seesaw", text="Where should Ali sit?",
                 reference_answers=("Ali should sit half as far from the pivot as his sister.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert [(c.text, c.reversed_text) for c in fx.contrasts_.comparisons] == [
        ("ali half as far as sister", "sister half as far as ali")]
    X = fx.transform(["ali sits twice as far from the pivot as his sister", "ali sits closer than his sister",
                      "his sister sits half as far as ali"])
    assert list(X["ref:ali_near_than_sister"]) == ["negated", "present", "negated"]


@pytest.mark.parametrize("answer, state", [
    ("the mirror is smooth and the paper is rough", "present"),
    ("the mirror is smooth. the paper isnt smooth", "present"),
    ("the mirror is rough and the paper is smooth", "negated"),
    ("paper is smoother than a mirror", "negated"),
    ("the paper is rough", "absent"),  # one thing alone compares nothing
])
def test_two_things_at_the_two_ends_of_a_scale_are_a_comparison(answer, state):
    # "the mirror is rough and the paper is smooth" (a wrong idea) read like the reference's
    # "A mirror is smoother than paper": the same words, no "than"
    q = Question(id="mirror", text="Why can you see your face in a mirror but not in paper?",
                 reference_answers=("A mirror is smoother than paper.",))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer])
    assert X.iloc[0]["ref:mirror_rough_than_paper"] == state


def test_a_reference_that_says_two_ends_of_a_scale_reads_as_written():
    q = Question(id="mirror", text="Why?", reference_answers=("The mirror is smooth; the paper is rough.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert [(c.text, c.reversed_text) for c in fx.contrasts_.comparisons] == [
        ("mirror smooth, paper rough", "mirror rough, paper smooth")]
    assert fx.transform(["the paper is smoother than the mirror"]).iloc[0]["ref:mirror_rough_than_paper"] == "negated"


def test_one_column_says_whether_an_answer_turns_anything_of_the_reference_round():
    # each contrast has a column of its own, so answers that turn different ones round
    # shared no column a rule could rest on
    q = Question(id="mirror", text="Why can you see your face in a mirror but not in paper?",
                 reference_answers=("A mirror is smoother than paper, so light reflects off it one way.",
                                    "Iron is magnetic but paper is not."))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert fx.descriptions_["ref:turned_round"] == "says something of the reference answer the other way round"
    X = fx.transform(["paper is smoother than a mirror", "paper is magnetic", "a mirror is smoother than paper",
                      "light reflects"])
    assert list(X["ref:turned_round"]) == ["present", "present", "absent", "absent"]
    plain = Question(id="p", text="Why?", reference_answers=("The bulb lights because a current flows through it.",))
    assert "ref:turned_round" not in FeatureExtractor(plain, model=FALLBACK).fit(["x"]).transform(["x"]).columns


def test_a_comparison_whose_clause_names_its_thing_with_a_pronoun_gives_no_column():
    # "so they pass the vibrations on faster than the spread-out particles of air" compared
    # "pass" (the verb after "they") with the air's particles, and answers that said "the
    # particles are closer" read as that comparison turned round
    fx = _extractor("Steel particles are close together, so they pass the vibrations on faster than "
                    "the spread-out particles of air.")
    assert not [c for c in fx.descriptions_ if "_than_" in c]
    assert [c for c in _extractor("Steel passes the vibrations on faster than air.").descriptions_
            if "_than_" in c] == ["ref:steel_fast_than_air"]


@pytest.mark.parametrize("answer, state", [
    # a word of degree said of a noun that names a scale is that scale's comparison: "a
    # higher speed" is "faster", "the weight is bigger" "heavier" (general English nouns)
    ("light has a higher speed than sound", "present"),
    ("the speed of light is way bigger than the speed of sound", "present"),
    ("speed of sound is much lower than speed of light", "present"),
    ("light has more speed than sound", "present"),
    ("sound has a greater speed than light", "negated"),
    ("the speed of sound is bigger than the speed of light", "negated"),
    ("light is faster than sound", "present"),
    ("light has more energy than sound", "absent"),
])
def test_a_degree_of_a_noun_that_names_a_scale_compares_on_that_scale(answer, state):
    assert _states("Light travels faster than sound.", "ref:light_fast_than_sound", [answer]) == [state]


@pytest.mark.parametrize("answer, state", [
    ("the feather has less weight than the ball", "present"),
    ("the weight of the ball is bigger than the weight of the feather", "present"),
    ("the feather has a bigger weight than the ball", "negated"),
])
def test_weight_is_the_scale_of_heavy(answer, state):
    assert _states("The ball is heavier than the feather.", "ref:ball_heavy_than_feather", [answer]) == [state]



@pytest.mark.parametrize("answer, state", [
    ("hot air has a lower density than cold air", "present"),
    ("the density of hot air is lower than the density of cold air", "present"),
    ("cold air has a lower density than hot air", "negated"),
])
def test_density_is_the_scale_of_dense(answer, state):
    assert _states("Hot air is less dense than cold air.", "ref:hot_dense_than_cold", [answer]) == [state]


def test_a_longer_distance_is_further_and_a_shorter_one_nearer():
    # "the muscle has a longer distance to the elbow than the ball" measured length, a scale
    # the reference's "nearer" is not on: the answer that turns it round was not read
    answers = ["the muscle has a longer distance to the elbow than the ball",
               "the muscle has a shorter distance to the elbow than the ball",
               "the muscle is nearer the elbow than the ball", "the muscle is longer than the ball"]
    assert _states("The muscle is nearer the elbow than the ball.", "ref:muscle_near_than_ball", answers) == [
        "negated", "present", "present", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("the engine pulls with a bigger force than the trailer's weight", "present"),
    ("the engine pulls with a smaller force than the weight of the trailer", "negated"),
    ("the trailer is bigger than the engine", "negated"),
    # a "more" of another thing is another comparison: the trailer's momentum, its energy
    ("the trailer has a bigger momentum than the engine so the engine pulls harder", "absent"),
    ("since the trailer is far from the engine its energy is large", "absent"),
    # what follows an "as" is another thing's ("the same push as the trailer's weight")
    ("it needs a much larger force to give the same push as the trailer's weight", "absent"),
])
def test_a_bigger_that_measures_another_thing_is_another_comparison(answer, state):
    reference = "The engine's force must be much bigger than the trailer's weight."
    assert _states(reference, "ref:engine_more_than_trailer_weight", [answer]) == [state]


def test_a_misspelt_because_ends_the_clause_of_a_comparison():
    # "becuase" started no clause: "the pan is hotter becuase the handle is cooler" read the
    # handle as the pan's thing, and the comparison turned round
    reference = "The pan is hotter than the handle."
    answers = ["the pan is hotter becuase the handle is plastic", "the pan is hotter cos its metal",
               "the handle is hotter becuase the pan is plastic"]
    assert _states(reference, "ref:pan_hot_than_handle", answers) == ["present", "present", "negated"]


def test_a_preposition_is_no_thing_of_a_comparison():
    # "through" was a word of the reference's second thing: "louder through the table" (one
    # sided) shared it with "than through air" alone, and read as the comparison turned round
    reference = "Sound is quieter through air than through water."
    answers = ["the sound is louder through the water", "sound is quieter through the pipe",
               "the sound is louder through air"]
    assert _states(reference, "ref:air_loud_than_water", answers) == ["present", "absent", "negated"]


@pytest.mark.parametrize("answer, state", [
    # "the closer ..., the more ..." says how two things go together, and compares no two
    # things: its words after "closer" named the other thing, and turned the reference round
    ("the closer the truck is to the hill the more force it needs to pull the trailer up", "absent"),
    ("the engine is closer to the hill than the trailer", "present"),
    ("the trailer is closer to the hill", "negated"),
])
def test_the_more_the_more_is_no_comparison(answer, state):
    reference = "The engine is closer to the hill than the trailer is."
    assert _states(reference, "ref:engine_near_than_trailer", [answer]) == [state]


@pytest.mark.parametrize("answer, state", [
    # after "and", a thing and its "is" start a statement of their own: the handle is far,
    # not the lock the clause began with
    ("the lock is stiff and the handle is further away", "present"),
    # ... and a person is none of the things compared
    ("the lock is stiff and you are further away", "absent"),
    # "further from the lock" measures from the lock, not from the hinge: no comparison of the
    # handle's distance with the lock's
    ("you are further from the lock so it is safer", "absent"),
    ("the handle is further from the lock", "absent"),
    # the words after the next degree (or a "to") are that degree's, not this one's things
    ("it has a bigger distance and needs a smaller push to turn the lock", "absent"),
    # said from the hinge's side: the lock is closer to the hinge than the handle is
    ("the hinge is closer to the lock", "present"),
    ("the hinge is nearer to your hand on the handle", "negated"),
    ("a longer distance from the hinge to the handle means less force", "present"),
    ("a shorter distance from the hinge to the handle means less force", "negated"),
])
def test_a_distance_is_of_the_thing_measured_not_the_point_measured_from(answer, state):
    reference = "The handle is further from the hinge than the lock is."
    assert _states(reference, "ref:handle_near_than_lock", [answer]) == [state]


@pytest.mark.parametrize("reference, column, answers", [
    # a phrase of place before the clause's thing names no thing: "close" and "near" were
    # taken for the first thing, and the reference compared nothing
    ("Close to the speaker the music is much louder than the traffic.", "ref:music_loud_than_traffic",
     ["the music is louder than the traffic", "the traffic is louder than the music"]),
    # ... unless the thing is the place's own ("its")
    ("Near the heater its glow is brighter than the lamp.", "ref:heater_bright_than_lamp",
     ["the heater is brighter than the lamp", "the lamp is brighter than the heater"]),
])
def test_a_phrase_of_place_before_a_comparison_is_not_its_thing(reference, column, answers):
    assert _states(reference, column, answers) == ["present", "negated"]


def test_a_bigger_distance_is_further():
    # "the distance ... is bigger" compared distances with a bare "more", which no
    # comparison on the reference's "further" counted
    answers = ["the distance from the hinge to the handle is bigger than the distance to the lock",
               "the distance to the lock is greater than the distance to the handle",
               "the handle is further from the hinge than the lock", "the handle is bigger than the lock"]
    assert _states("The handle is further from the hinge than the lock.", "ref:handle_near_than_lock", answers) == [
        "present", "negated", "present", "absent"]


def test_a_comparison_without_than_is_said_of_its_clause_not_of_the_next_statement():
    # "copper conducts heat better and steel rusts" took "steel" (after the "and") as a word
    # of copper's side, so it compared copper-and-steel and read as neither way round
    assert _states("Copper conducts heat better than steel.", "ref:copper_better_than_steel",
                   ["copper conducts heat better and steel rusts", "steel conducts heat better and copper rusts"]) == [
        "present", "negated"]


def test_words_said_of_the_first_thing_too_do_not_name_the_second():
    # "near the speaker its sound is louder than the traffic's sound": the sound is the
    # speaker's as well, so "the sound is louder" said nothing of the traffic (it read as the
    # traffic being louder)
    fx = _extractor("Near the speaker its sound is much louder than the traffic's sound.")
    assert [c for c in fx.descriptions_ if "_than_" in c] == ["ref:speaker_loud_than_traffic"]
    X = fx.transform(["the sound is louder and the traffic is far", "the traffic is louder than the speaker"])
    assert list(X["ref:speaker_loud_than_traffic"]) == ["absent", "negated"]


@pytest.mark.parametrize("answer, state", [
    ("the particles in a gas are far apart and in a solid they are close", "present"),
    ("the particles of a solid are close and in a gas they are spread far apart", "present"),
    ("the particles in a solid are far apart and in a gas they are close", "negated"),
])
def test_one_noun_at_two_ends_of_a_scale_is_told_apart_by_its_phrase(answer, state):
    # "the particles in a gas are far apart ... in a solid they are close" read as "the
    # particles are far apart", the reference's close particles turned round
    fx = _extractor("The particles of a solid are close together, whereas gas particles are far apart.")
    assert [c for c in fx.descriptions_ if "_than_" in c] == ["ref:particle_solid_near_than_gas"]
    assert fx.transform([answer]).iloc[0]["ref:particle_solid_near_than_gas"] == state


@pytest.mark.parametrize("answer, state", [
    ("the atoms in copper are closer together than in glass", "present"),
    ("copper atoms are closer together", "present"),
    ("in copper the atoms are further apart", "negated"),
    ("the atoms in glass are closer together than in copper", "negated"),
])
def test_a_thing_named_by_the_preposition_that_than_repeats(answer, state):
    # "the atoms in copper are closer than in glass" compares copper with glass; "copper" was
    # lost, and the comparison was of the atoms with glass
    reference = "The atoms in copper are closer together than in glass."
    assert _states(reference, "ref:copper_near_than_glass", [answer]) == [state]
