"""How rubric phrases are read: misspellings listed in a phrase, labels before a full
stop, forms of "be" (issue 31). Sentences and topics written for these tests."""

from __future__ import annotations

import pandas as pd
import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Concept, Misconception, Question


def rows(question: Question, answers: list[str]) -> pd.DataFrame:
    return FeatureExtractor(question, model=FALLBACK).fit(["x"]).transform(answers)


def test_a_misspelling_listed_in_a_phrase_is_still_mended_elsewhere():
    q = Question(id="seesaw", text="Why does the see-saw tip?",
                 reference_answers=("The children sit at different distances from the pivot.",),
                 concepts=(Concept("apart", ("separated",)),
                           Concept("touching", ("not seperated",))))
    X = rows(q, ["the children are seperated by the pivot", "they are not separated"])
    assert list(X["concept:apart"]) == ["present", "negated"]
    # the listed misspelling matches the right spelling too
    assert list(X["concept:touching"]) == ["absent", "present"]


def test_a_label_before_a_full_stop_is_the_label():
    q = Question(id="magnets", text="Which magnet is pushed away?",
                 reference_answers=("Magnet B, because like poles repel.",),
                 concepts=(Concept("magnet_a", ("magnet A",)), Concept("magnet_b", ("magnet b",))))
    X = rows(q, ["it pushes magnet a. the poles repel", "the one pushed is magnet B.",
                 "a magnet."])
    assert list(X["concept:magnet_a"]) == ["present", "absent", "absent"]
    assert list(X["concept:magnet_b"]) == ["absent", "present", "absent"]


def test_one_letter_and_a_full_stop_are_two_tokens_in_the_pipeline():
    from features import load_nlp
    nlp = load_nlp(FALLBACK)
    assert [t.text for t in nlp("lever x. Then lever Y.")] == ["lever", "x", ".", "Then",
                                                               "lever", "Y", "."]
    assert [t.text for t in nlp("e.g. a lever")][0] == "e.g."


def test_a_word_in_quotes_in_a_phrase_is_matched_as_written():
    q = Question(id="lever", text="Which children balance the see-saw?",
                 reference_answers=("Anna and Ben are balanced about the pivot.",),
                 concepts=(Concept("both_balanced", ('"are" balanced',)),
                           Concept("one_balanced", ('"is" balanced',)),
                           Concept("any_balanced", ("is balanced",))))
    X = rows(q, ["Anna and Ben are balanced", "Anna is balanced", "they were balancing"])
    assert list(X["concept:both_balanced"]) == ["present", "absent", "absent"]
    assert list(X["concept:one_balanced"]) == ["absent", "present", "absent"]
    # without quotes, any form of the word matches, as before
    assert list(X["concept:any_balanced"]) == ["present", "present", "present"]


def test_a_lower_case_letter_after_a_noun_the_question_labels_with_is_a_label():
    # the question names its parts "Magnet A", "pulley B": no list of topic nouns in the code
    q = Question(id="magnets", text="Magnet A is held near magnet B. What happens to magnet B?",
                 reference_answers=("Magnet B moves away: like poles repel.",),
                 concepts=(Concept("magnet_a", ("magnet A",)), Concept("magnet_b", ("magnet b",))))
    X = rows(q, ["magnet a repels magnet b", "magnets a and b repel", "move the magnet a little",
                 "a magnet repels another magnet"])
    assert list(X["concept:magnet_a"]) == ["present", "present", "absent", "absent"]
    assert list(X["concept:magnet_b"]) == ["present", "present", "absent", "absent"]


def test_a_letter_before_a_verb_or_preposition_is_a_label_on_any_topic():
    q = Question(id="forks", text="Two tuning forks are struck. Which one sounds higher?",
                 reference_answers=("The shorter fork vibrates faster, so its pitch is higher.",),
                 concepts=(Concept("fork_a", ("fork a",)), Concept("pulley_b", ("pulley b",))))
    X = rows(q, ["fork a vibrates faster", "fork a has the higher pitch", "pulley b in the middle",
                 "a fork vibrates", "it is a pulley in the middle"])
    assert list(X["concept:fork_a"]) == ["present", "present", "absent", "absent", "absent"]
    assert list(X["concept:pulley_b"]) == ["absent", "absent", "present", "absent", "absent"]


def test_a_capital_a_starting_a_sentence_before_a_verbs_s_form_is_a_label():
    # "A attracts B" was the article "A" before a noun: the magnet A was lost
    q = Question(id="magnets", text="Magnets A and B are placed end to end. What happens?",
                 reference_answers=("Magnet A attracts magnet B.",),
                 concepts=(Concept("magnet_a", ("magnet A", "A")), Concept("magnet_b", ("magnet B", "B"))))
    X = rows(q, ["A attracts B", "A pulls B. B moves", "A magnet attracts iron", "A lens bends light"])
    assert list(X["concept:magnet_a"]) == ["present", "present", "absent", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("the moment is larger", "present"), ("a greater moment", "present"), ("the biggest moment", "present"),
    ("the moment is not larger", "negated"), ("a smaller moment", "absent"),
])
def test_big_large_and_great_say_the_same_size(answer, state):
    # a teacher lists "bigger moment"; students say "larger" and "greater" as often
    q = Question(id="door", text="Why is a door easier to push far from the hinge?",
                 reference_answers=("The moment is bigger.",),
                 concepts=(Concept("bigger_moment", ("bigger moment",)),))
    assert rows(q, [answer]).iloc[0]["concept:bigger_moment"] == state


@pytest.mark.parametrize("answer, state", [
    ("the frequency increases", "present"), ("a greater frequency", "present"),
    ("the string vibrates with more frequency", "present"), ("the frequency is bigger", "present"),
    ("the frequency does not increase", "negated"), ("the frequency is not higher", "negated"),
    ("the frequency decreases", "absent"), ("a lower frequency", "absent"),
])
def test_a_quantity_said_to_grow_is_more_however_it_is_put(answer, state):
    # a teacher lists "higher frequency"; students say the frequency increases, is greater,
    # is bigger: before, only "higher" was found
    q = Question(id="pitch", text="A guitar string is tightened. What happens to its note?",
                 reference_answers=("The string vibrates at a higher frequency, so the pitch is higher.",),
                 concepts=(Concept("higher_frequency", ("higher frequency",)),))
    assert rows(q, [answer]).iloc[0]["concept:higher_frequency"] == state


@pytest.mark.parametrize("answer, state", [
    ("the force is reduced", "present"), ("a smaller force is needed", "present"),
    ("the force needed decreases", "present"), ("you need a lower force", "present"),
    ("the force is not reduced", "negated"), ("the force increases", "absent"),
])
def test_a_quantity_said_to_shrink_is_less_however_it_is_put(answer, state):
    q = Question(id="lever", text="Why is a long crowbar easier to use?",
                 reference_answers=("A longer crowbar needs less force.",),
                 concepts=(Concept("less_force", ("less force",)),))
    assert rows(q, [answer]).iloc[0]["concept:less_force"] == state


def test_closer_is_nearer_not_the_verb_close():
    # "closer" was read as "close", whose opposite is "open": "push closer to the pivot" did
    # not deny the reference's "far from the pivot", nor say a teacher's "near the pivot"
    q = Question(id="door", text="Where should you push a heavy door to open it easily?",
                 reference_answers=("Push far from the hinge.",),
                 concepts=(Concept("near_hinge", ("near the hinge",)),))
    X = rows(q, ["push closer to the hinge", "push it closest to the hinge", "push far from the hinge",
                 "close the door"])
    assert list(X["ref:far"]) == ["negated", "negated", "present", "absent"]
    assert list(X["concept:near_hinge"]) == ["present", "present", "absent", "absent"]


def test_a_phrase_saying_no_longer_finds_the_answers_that_say_it():
    # the answer's "longer" after "no" was read as "anymore", the phrase's as "long": a
    # teacher's "no longer closed" was found in no answer, even one with those very words
    q = Question(id="switch", text="What happens to the path when the switch opens?",
                 reference_answers=("The path is open.",),
                 concepts=(Concept("no_longer_closed", ("no longer closed",)),))
    X = rows(q, ["the path is no longer closed", "it is no longer closed", "the path is closed",
                 "the path is longer"])
    assert list(X["concept:no_longer_closed"]) == ["present", "present", "absent", "absent"]


def test_close_to_something_is_near_it_not_the_verb_close():
    # "close to the battery" was the verb close, the opposite of the reference's "open"
    q = Question(id="seesaw", text="Where should the heavier child sit, and is the switch open?",
                 reference_answers=("The switch is open.", "The heavier child sits near the pivot."),
                 concepts=(Concept("near_pivot", ("near the pivot",)),))
    X = rows(q, ["the child sits close to the pivot", "they sit close together", "close the switch to light it",
                 "the switch is closed"])
    assert list(X["concept:near_pivot"]) == ["present", "absent", "absent", "absent"]
    assert list(X["ref:open"]) == ["absent", "absent", "negated", "negated"]


def test_close_said_of_a_thing_and_closely_packed_are_near():
    # "the atoms are close" and "closely packed" read as "close" and "closely", neither of
    # them "near": "the atoms are close so the heat moves faster" did not say the reference
    q = Question(id="conduction", text="Why does heat move faster through the metal bar?",
                 reference_answers=("Its atoms are near each other.", "The lid is open."))
    X = rows(q, ["the atoms are close, so heat moves faster", "its atoms are really close", "they are closely packed",
                 "the atoms are packed closely", "close the lid", "the lid is not close"])
    assert list(X["ref:near"]) == ["present", "present", "present", "present", "absent", "negated"]
    assert list(X["ref:open"]) == ["absent", "absent", "absent", "absent", "negated", "absent"]


def test_a_noun_made_from_a_verb_finds_the_verb_and_back():
    # "the vibrations are faster" did not say the reference's "vibrate" nor a teacher's
    # "vibrates faster": the noun and the verb were two words
    q = Question(id="pitch", text="Why is the note of a tightened string higher?",
                 reference_answers=("The string vibrates faster.",),
                 concepts=(Concept("faster", ("vibrates faster",)), Concept("refraction", ("refraction",))))
    answers = ["the vibrations are faster", "more vibrations", "it vibrates faster", "light refracts",
               "the light is refracted", "the string is tight"]
    fx = FeatureExtractor(q, model=FALLBACK).fit(answers)
    X = fx.transform(answers)
    assert list(X["ref:vibrate"]) == ["present", "present", "present", "absent", "absent", "absent"]
    assert list(X["concept:faster"]) == ["present", "absent", "present", "absent", "absent", "absent"]
    assert list(X["concept:refraction"]) == ["absent", "absent", "absent", "present", "present", "absent"]
    assert fx.descriptions_["ref:vibrate"].startswith('mentions "vibrates" or the like ("vibration")')


def test_a_noun_made_from_an_adjective_finds_the_adjective():
    # "a lower density" did not say the reference's "less dense"
    q = Question(id="ice", text="Why does ice float on water?", reference_answers=("Ice is less dense than water.",))
    answers = ["ice has a lower density than water", "the density of ice is smaller", "ice is more dense", "it floats"]
    fx = FeatureExtractor(q, model=FALLBACK).fit(answers)
    assert list(fx.transform(answers)["ref:less_dense"]) == ["present", "absent", "negated", "absent"]


def test_a_word_finds_its_other_form_only_where_the_question_or_class_uses_it():
    # "state" could be "station" with the ending -ion put back: no answer uses "station", so
    # "the same station" says nothing of the reference's "same state"
    q = Question(id="terminals", text="What does a reading of 0 V tell you?",
                 reference_answers=("The terminals are in the same state.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["they are in the same state", "same state", "no idea"])
    assert fx.transform(["the same station"]).iloc[0]["ref:state"] == "absent"


def test_a_phrase_that_denies_a_word_finds_the_word_denied_by_its_prefix():
    # "not magnetic" was found only after a negation word: "non-magnetic" and "nonmagnetic"
    # denied magnetic (the reference's word read negated) and still did not say it
    q = Question(id="coin", text="Is a copper coin attracted by a magnet?",
                 reference_answers=("No: copper is not magnetic.",),
                 concepts=(Concept("not_magnetic", ("not magnetic",)),
                           Concept("copper_not_magnetic", ("copper is not magnetic",))))
    X = rows(q, ["it is non-magnetic", "it is nonmagnetic", "it is not non-magnetic", "it is magnetic"])
    assert list(X["concept:not_magnetic"]) == ["present", "present", "absent", "absent"]


def test_a_phrase_with_a_negation_inside_is_found_loosely():
    # "copper is not magnetic" was found only word for word: the negation had to stand
    # before the phrase's first word, copper, which the answer says
    q = Question(id="coin", text="Is a copper coin attracted by a magnet?",
                 reference_answers=("No: copper is not magnetic.",),
                 concepts=(Concept("copper_not_magnetic", ("copper is not magnetic",)),))
    X = rows(q, ["copper coins are not magnetic", "the coin is not attracted since copper is non-magnetic",
                 "copper isn't magnetic at all", "it's not copper, it is magnetic", "magnetic copper"])
    assert list(X["concept:copper_not_magnetic"]) == ["present", "present", "present", "absent", "absent"]


@pytest.mark.parametrize("answer", ["because of the lack of particles in space", "space lacks particles",
                                    "due to the absence of particles", "space is devoid of particles"])
def test_a_lack_or_absence_denies_what_it_lacks(answer):
    # "the lack of particles" said "particles" as "there are particles" does
    q = Question(id="sound", text="Why can't sound travel through space?",
                 reference_answers=("Sound needs particles to vibrate.",),
                 concepts=(Concept("no_particles", ("no particles",)),))
    X = rows(q, [answer, "space has particles"])
    assert list(X["concept:no_particles"]) == ["present", "absent"]
    assert list(X["ref:particle"]) == ["negated", "present"]


def test_a_phrase_saying_to_finds_into_and_onto():
    # "electrons move to the rod" was not found in "electrons moved onto the rod"
    q = Question(id="rod", text="A rubbed plastic rod becomes negatively charged. Why?",
                 reference_answers=("Electrons move from the cloth to the rod.",),
                 concepts=(Concept("to_rod", ("electrons move to the rod",)),))
    X = rows(q, ["electrons moved onto the rod", "electrons moved into the rod", "electrons move from the rod",
                 "the rod moves to the electrons"])
    assert list(X["concept:to_rod"]) == ["present", "present", "absent", "absent"]


def test_unable_and_not_able_deny_what_follows_as_cannot_does():
    # the phrase's "can" (of "cannot") had to be found; "not able to pass" denied "able" alone,
    # and "unable" (read as "able" denied where the class says "able") left "pass" said
    q = Question(id="shadow", text="Why does a shadow form behind an object?",
                 reference_answers=("Light cannot pass through the object.",),
                 concepts=(Concept("blocked", ("cannot pass through",)),))
    answers = ["light is unable to pass through", "light is not able to pass through", "light will not pass through",
               "light can pass through", "light is able to pass through", "it is able to pass through"]
    fx = FeatureExtractor(q, model=FALLBACK).fit(answers)
    X = fx.transform(answers)
    assert list(X["concept:blocked"]) == ["present", "present", "present", "absent", "absent", "absent"]
    assert list(X["ref:pass"]) == ["negated", "negated", "negated", "present", "present", "present"]


def test_not_as_dense_as_says_less_dense():
    # "not as dense as water" denied "dense": a teacher's "less dense" was not found
    q = Question(id="ice", text="Why does ice float on water?", reference_answers=("Ice is less dense than water.",),
                 concepts=(Concept("less_dense", ("less dense",)),))
    X = rows(q, ["ice is not as dense as water", "ice isn't as dense as water", "ice is as dense as water",
                 "ice is not dense", "it is not as a result of its weight"])
    assert list(X["concept:less_dense"]) == ["present", "present", "absent", "absent", "absent"]
    assert list(X["ref:less_dense"]) == ["present", "present", "absent", "absent", "absent"]


def test_a_phrase_with_a_modal_verb_finds_the_answer_without_it():
    # a teacher's "must be closed" needed "must" in the answer
    q = Question(id="switch", text="When does the bulb light?", reference_answers=("The switch is closed.",),
                 concepts=(Concept("closed", ("must be closed",)), Concept("can", ("can",))))
    X = rows(q, ["the switch is closed", "the switch was closed", "it must be closed", "the switch is open", "i can"])
    assert list(X["concept:closed"]) == ["present", "present", "present", "absent", "absent"]
    assert list(X["concept:can"]) == ["absent", "absent", "absent", "absent", "present"]  # a modal alone stays


def test_halved_is_half_and_doubled_is_twice():
    # a teacher's "half the effort" was not found in "the effort is halved"
    q = Question(id="lever", text="What happens to the effort if the distance from the pivot is made longer?",
                 reference_answers=("The effort doubles.",),
                 concepts=(Concept("half_effort", ("half the effort",)),))
    X = rows(q, ["the effort is halved", "the effort halves", "the effort is cut in half", "it needs twice the effort",
                 "the effort is the same"])
    assert list(X["concept:half_effort"]) == ["present", "present", "present", "absent", "absent"]
    assert list(X["ref:twice"]) == ["absent", "absent", "absent", "present", "absent"]


def test_the_times_sign_is_times():
    # "force × distance" did not say a teacher's "force times distance"
    q = Question(id="moment", text="How do you work out the moment of a force about a pivot?",
                 reference_answers=("Multiply the force by its distance from the pivot.",),
                 concepts=(Concept("force_times_distance", ("force times distance",)),))
    X = rows(q, ["force × distance", "moment = force × distance", "force plus distance"])
    assert list(X["concept:force_times_distance"]) == ["present", "present", "absent"]


def test_a_comparison_the_reference_makes_is_denied_by_its_opposite_however_put():
    # "the frequency decreases" says the opposite of the reference's "higher frequency"
    q = Question(id="pitch", text="A guitar string is tightened. What happens to its note?",
                 reference_answers=("The string vibrates at a higher frequency.",))
    X = rows(q, ["the frequency increases", "the frequency decreases", "the frequency is lower",
                 "the string vibrates"])
    assert list(X["ref:more"]) == ["present", "negated", "negated", "absent"]


@pytest.mark.parametrize("answer, faster, slower", [
    ("it vibrates quicker", "present", "absent"), ("it vibrates more quickly", "present", "absent"),
    ("it vibrates rapidly", "present", "absent"), ("it vibrates more slowly", "absent", "present"),
])
def test_quick_rapid_and_fast_say_the_same_speed(answer, faster, slower):
    q = Question(id="pitch", text="Why is the note of a shorter string higher?",
                 reference_answers=("The string vibrates faster.",),
                 concepts=(Concept("faster", ("vibrates faster",)), Concept("slower", ("vibrates slower",))))
    row = rows(q, [answer]).iloc[0]
    assert (row["concept:faster"], row["concept:slower"]) == (faster, slower)


def test_the_article_a_after_and_or_a_comma_is_no_label():
    # "and a higher frequency" read "a" as the label A: the reference word 'mentions "a"'
    q = Question(id="pitch", text="Why does a shorter string give a higher pitch?",
                 reference_answers=("A shorter string vibrates faster, and a faster vibration is a higher pitch.",),
                 concepts=(Concept("string_a", ("string A",)),))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert not [c for c in fx.descriptions_ if c in ("ref:a", "ref:A")]
    X = rows(q, ["it vibrates, and a string is short", "strings b and a vibrate", "string A vibrates"])
    assert list(X["concept:string_a"]) == ["absent", "present", "present"]


@pytest.mark.parametrize("answer, state", [
    ("the angles are the same", "present"), ("the angles are equal", "present"),
    ("the angles are identical", "present"), ("the angles are not equal", "negated"),
    ("the angles are unequal", "negated"), ("the angles are different", "absent"),
])
def test_equal_identical_and_the_same_say_the_same(answer, state):
    q = Question(id="mirror", text="A ray is reflected by a mirror. What do you notice about the angles?",
                 reference_answers=("The angle of reflection equals the angle of incidence.",),
                 concepts=(Concept("law", ("angles are equal",)),))
    assert rows(q, [answer]).iloc[0]["concept:law"] == state


@pytest.mark.parametrize("answer, state", [
    ("the pitch goes up", "present"), ("the pitch went up", "present"), ("the pitch rises", "present"),
    ("the pitch rose", "present"), ("the pitch does not go up", "negated"), ("the pitch goes down", "absent"),
])
def test_a_quantity_that_goes_up_or_rises_is_more(answer, state):
    # "the pitch goes up" and "the pitch rises" did not say a teacher's "higher pitch"
    q = Question(id="pitch", text="A guitar string is tightened. What happens to its note?",
                 reference_answers=("The note has a higher pitch.",),
                 concepts=(Concept("higher_pitch", ("higher pitch",)),))
    assert rows(q, [answer]).iloc[0]["concept:higher_pitch"] == state


def test_a_quantity_that_goes_down_denies_the_reference_saying_it_grows():
    q = Question(id="pitch", text="A guitar string is tightened. What happens to its note?",
                 reference_answers=("The pitch goes up.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    X = fx.transform(["the pitch goes down", "a higher pitch", "the pitch goes up", "the string goes slack"])
    assert list(X["ref:more"]) == ["negated", "present", "present", "absent"]
    assert "ref:up" not in X.columns  # "up" says nothing the "goes" does not


def test_like_and_unlike_poles_are_the_same_and_different_poles():
    # "like poles repel" did not say a teacher's "same poles repel", nor the reference's
    # "like poles" the answer's "same poles"; "like" as a verb or preposition stays itself
    q = Question(id="magnets", text="Two magnets push apart. Why?",
                 reference_answers=("Like poles repel.",),
                 concepts=(Concept("same_repel", ("same poles repel",)),
                           Concept("different_attract", ("different poles attract",))))
    answers = ["like poles repel", "because like poles always repel", "unlike poles attract", "the same poles repel",
               "it acts like magnets do", "like magnets, the poles repel", "I like poles"]
    X = rows(q, answers)
    assert list(X["concept:same_repel"]) == ["present", "present", "absent", "present", "absent", "absent", "absent"]
    assert list(X["concept:different_attract"]) == ["absent"] * 2 + ["present"] + ["absent"] * 4
    assert list(X["ref:same"]) == ["present", "present", "negated", "present", "absent", "absent", "absent"]


def test_like_poles_after_have_or_a_possessive_are_the_same_poles():
    # "the magnets have like poles together" and "there like poles are facing" (for "their")
    # did not say "same poles": "like" starts a noun phrase after "have" and a possessive too
    q = Question(id="magnets", text="Two magnets push apart. Why?", reference_answers=("Like poles repel.",),
                 concepts=(Concept("same_poles", ("same poles",)),))
    answers = ["the magnets have like poles together", "there like poles are facing", "their like poles repel",
               "it has like two poles", "they look like poles"]
    assert list(rows(q, answers)["concept:same_poles"]) == ["present", "present", "present", "absent", "absent"]


def test_a_phrase_with_a_word_denied_by_its_prefix_finds_the_word_denied_by_not():
    # a teacher's "unbalanced forces", where the question says "unbalanced", did not find
    # "the forces are not balanced": only the reverse was read
    q = Question(id="box", text="The forces on the box are unbalanced. What happens to it?",
                 reference_answers=("It speeds up, because the forces are unbalanced.",),
                 concepts=(Concept("unbalanced", ("unbalanced forces",)), Concept("neutral", ("uncharged",))))
    answers = ["the forces are unbalanced", "the forces are not balanced", "the forces aren't balanced",
               "the forces are balanced", "the rod is not charged", "the rod is charged", "my uncle pushes it"]
    X = rows(q, answers)
    assert list(X["concept:unbalanced"]) == ["present"] * 3 + ["absent"] * 4
    assert list(X["concept:neutral"]) == ["absent"] * 4 + ["present", "absent", "absent"]
    assert list(X["ref:unbalance"]) == ["present"] * 3 + ["absent"] * 4


@pytest.mark.parametrize("answer, state", [
    ("the switch is closed", "present"), ("the switch is not closed", "negated"),
    ("the switch isn't closed", "negated"), ("the switch was never closed", "negated"),
    ("a closed switch", "absent"), ("the switch is not open, it is closed", "present"),
])
def test_a_phrase_of_one_word_after_is_is_denied_by_not_between(answer, state):
    # "the switch is not closed" was read as not saying a teacher's "is closed", not as
    # denying it: the phrase was found word for word only
    q = Question(id="switch", text="Is the switch closed?", reference_answers=("Yes.",),
                 concepts=(Concept("closed", ("is closed",)),))
    assert rows(q, [answer]).iloc[0]["concept:closed"] == state


def test_opposite_denies_the_reference_s_same_as_different_does():
    # "opposite poles repel" said nothing of the reference's "the same poles": only
    # "different" was its opposite
    q = Question(id="magnets", text="Two magnets push apart. Why?", reference_answers=("The same poles repel.",))
    X = rows(q, ["opposite poles repel", "different poles repel", "the same poles repel", "the poles repel"])
    assert list(X["ref:same_pole"]) == ["negated", "negated", "present", "absent"]
    q = Question(id="charges", text="Why do the balloons attract?", reference_answers=("They have opposite charges.",))
    X = rows(q, ["they have the same charge", "they have opposite charges", "they are charged",
                 "they have different charges", "unlike charges"])
    # "opposite" and "different" are one key ("unlike charges" and "different charges" were
    # no "opposite charges"); the column is named by the key, described as written
    assert list(X["ref:different_charge"]) == ["negated", "present", "absent", "present", "present"]
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).descriptions_["ref:different_charge"].startswith(
        'mentions "opposite charges"')


@pytest.mark.parametrize("answer, state", [
    ("you don't need as much force", "present"), ("it does not need as much force as before", "present"),
    ("there is not as much force", "present"), ("you need as much force", "absent"),
    ("you don't need force", "absent"),
])
def test_not_as_much_is_less(answer, state):
    # "you don't need as much force" denied "need" and "force": a teacher's "less force" was
    # not found
    q = Question(id="crowbar", text="Why is a long crowbar easier to use?",
                 reference_answers=("A longer crowbar needs less force.",),
                 concepts=(Concept("less_force", ("less force",)),))
    assert rows(q, [answer]).iloc[0]["concept:less_force"] == state


def test_the_reference_s_less_and_a_noun_is_found_in_not_as_much():
    # "as much" read as "less" kept its "much" as a word between: the reference's pair
    # "less force" was not found in "you don't need as much force", nor "less effort" in
    # "you don't have to push as hard" ("hard" after a verb says how much it is done)
    q = Question(id="spanner", text="Why is a long spanner easier to use?",
                 reference_answers=("A longer spanner needs less force, so you push less.",))
    X = rows(q, ["you don't need as much force", "you need less force", "you need as much force",
                 "you don't have to push as hard", "it is not as hard", "you push hard"])
    assert list(X["ref:less_force"]) == ["present", "present", "absent", "absent", "absent", "absent"]
    assert list(X["ref:push_less"]) == ["absent", "absent", "absent", "present", "absent", "absent"]


def test_a_noun_in_ness_finds_its_adjective():
    # "the loudness increases" did not say the reference's "louder"
    q = Question(id="drum", text="A drum is hit harder. What happens to the sound?",
                 reference_answers=("The sound is louder.",))
    answers = ["the loudness increases", "the loudness is greater", "it is quieter", "the drum vibrates"]
    fx = FeatureExtractor(q, model=FALLBACK).fit(answers)
    assert list(fx.transform(answers)["ref:loud"]) == ["present", "present", "negated", "absent"]


def test_a_teacher_s_phrase_like_poles_finds_like_poles_in_answers():
    # the phrase "like poles" ends after its noun, and was left as the word "like", while the
    # answers' "like poles repel" were read as "same poles": the phrase found no answer
    q = Question(id="magnets", text="Two magnets push apart. Why?", reference_answers=("They repel.",),
                 concepts=(Concept("like", ("like poles",)), Concept("unlike", ("unlike poles",))))
    X = rows(q, ["like poles repel", "because of like poles.", "unlike poles attract", "the same poles repel",
                 "Like magnets, iron is attracted"])
    assert list(X["concept:like"]) == ["present", "present", "absent", "present", "absent"]
    assert list(X["concept:unlike"]) == ["absent", "absent", "present", "absent", "absent"]


def test_a_teacher_s_phrase_goes_up_finds_rises_and_higher():
    # the phrase kept the "up" of "goes up" as a word to find: "pitch goes up" found only
    # those words, not "the pitch rises" nor "a higher pitch"
    q = Question(id="pitch", text="A guitar string is tightened. What happens to its note?",
                 reference_answers=("It changes.",), concepts=(Concept("up", ("pitch goes up",)),))
    X = rows(q, ["the pitch goes up", "the pitch rises", "a higher pitch", "the pitch goes down", "it goes up"])
    assert list(X["concept:up"]) == ["present", "present", "present", "absent", "absent"]


def test_a_reference_pair_across_an_article_is_a_pair():
    # "Increase the current" gave no pair: its words are not side by side, so "a bigger
    # current" and "use less current" said nothing of it
    q = Question(id="electromagnet", text="How can you make an electromagnet stronger?",
                 reference_answers=("Increase the current.",))
    answers = ["use a bigger current", "increase the current", "use less current", "more coils"]
    fx = FeatureExtractor(q, model=FALLBACK).fit(answers)
    assert list(fx.transform(answers)["ref:more_current"]) == ["present", "present", "negated", "absent"]
    assert fx.descriptions_["ref:more_current"] == 'mentions "increase the current" (from the reference answer)'


@pytest.mark.parametrize("answer, state", [
    # the phrase's "non" denied nothing: "non metal" was found in "a non magnetic metal" (its
    # words in any order) and read as denied in "a non metal"
    ("glass is a non metal", "present"),
    ("glass is a non-metal", "present"),
    ("glass is not a metal", "present"),
    ("copper is a non magnetic metal", "absent"),
    ("copper is a metal", "absent"),
])
def test_a_teacher_s_non_denies_the_word_after_it(answer, state):
    q = Question(id="glass", text="Why does the magnet not pick up the glass?",
                 reference_answers=("Glass is not a magnetic material.",),
                 misconceptions=(Misconception("not_metal", ("non metal",)),))
    assert rows(q, [answer]).iloc[0]["misconception:not_metal"] == state


def test_a_teacher_s_not_as_phrase_is_read_as_the_answers_are():
    # the answers' "not as dense as water" and "don't need as much force" were read as "less
    # dense" and "less force", a teacher's phrases "not as dense" and "not as much force" as
    # written: each found nothing, not even the very words
    q = Question(id="ice", text="Why does ice float, and why is a long crowbar easier to use?",
                 reference_answers=("Ice is less dense than water.",),
                 concepts=(Concept("not_as_dense", ("not as dense",)), Concept("not_as_much", ("not as much force",))))
    X = rows(q, ["ice is not as dense as water", "ice is less dense", "ice is not as dense", "ice is dense",
                 "you don't need as much force", "it needs less force", "it needs as much force"])
    assert list(X["concept:not_as_dense"]) == ["present"] * 3 + ["absent"] * 4
    assert list(X["concept:not_as_much"]) == ["absent"] * 4 + ["present"] * 2 + ["absent"]


def test_british_and_american_spellings_are_one_word():
    # the reference's "centre", "colour" and "metre" were not found in "center", "color" and
    # "meter" (all English words, so never mended), nor a teacher's "center of mass" in "centre"
    q = Question(id="seesaw", text="Where is the seesaw's centre of gravity?",
                 reference_answers=("The centre of gravity is one metre from the end; the colour does not matter.",),
                 concepts=(Concept("center", ("center of mass",)), Concept("analyze", ("analyze",))))
    answers = ["the center", "a meter away", "the color", "the centre of mass", "the colours", "i analysed it",
               "it is in the middle", "four for"]
    fx = FeatureExtractor(q, model=FALLBACK).fit(answers)
    X = fx.transform(answers)
    # one key for both spellings (the alphabetically first); the description keeps the reference's
    assert list(X["ref:center"]) == ["present", "absent", "absent", "present"] + ["absent"] * 4
    assert fx.descriptions_["ref:center"].startswith('mentions "centre"')
    assert list(X["ref:metre"]) == ["absent", "present"] + ["absent"] * 6
    assert list(X["ref:colour"]) == ["absent", "absent", "present", "absent", "present"] + ["absent"] * 3
    assert list(X["concept:center"]) == ["absent", "absent", "absent", "present"] + ["absent"] * 4
    assert list(X["concept:analyze"]) == ["absent"] * 5 + ["present", "absent", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("the moment is bigger", "present"), ("the moment increases", "present"), ("the moment gets larger", "present"),
    ("a bigger moment", "present"), ("the moment is smaller", "negated"), ("the moment", "absent"),
])
def test_a_reference_comparison_is_found_after_its_noun(answer, state):
    # the reference's "a larger moment" was found in "a bigger moment" only, not in "the
    # moment is bigger" nor "the moment increases"
    q = Question(id="door", text="Why is a door easier to push far from the hinge?",
                 reference_answers=("It gives a larger moment.",))
    assert rows(q, [answer]).iloc[0]["ref:more_moment"] == state


@pytest.mark.parametrize("answer, state", [
    ("the string is tight", "present"), ("the string becomes tight", "present"), ("a tight string", "present"),
    ("the string is not tight", "absent"), ("the string", "absent"),
])
def test_a_reference_pair_is_found_said_of_its_noun(answer, state):
    # the reference's "a tight string" was found in "a tight string" only, not in "the
    # string is tight"; "not tight" is never read as saying it
    q = Question(id="phone", text="Why must the string of a string telephone be pulled?",
                 reference_answers=("Only a tight string carries the vibrations.",))
    assert rows(q, [answer]).iloc[0]["ref:tight_string"] == state


def test_an_answer_ending_in_an_article_and_a_letter_is_read():
    # "connect it to the b" raised an IndexError: the label test looked at the word after
    # the letter, past the end of the answer
    q = Question(id="bulbs", text="Which bulb lights?", reference_answers=("Bulb B lights.",))
    X = rows(q, ["connect it to the b", "it is a c", "the b", "bulb b"])
    assert len(X) == 4 and X["ref:b"].iloc[-1] == "present"


def test_a_phrase_saying_into_is_found_with_words_between():
    # "turns into a magnet" raised KeyError: 'into' on "turns into a temporary magnet": the
    # answer's "into" was filed under "to" alone, where the phrase looked for "into"
    q = Question(id="clips", text="Why does a second steel clip hang from the first?",
                 reference_answers=("The first clip becomes a magnet and attracts the second.",),
                 concepts=(Concept("becomes_magnet", ("turns into a magnet",)),))
    X = rows(q, ["the clip turns into a temporary magnet", "the clip turns into a magnet",
                 "the magnet turns the clip"])
    assert list(X["concept:becomes_magnet"]) == ["present", "present", "absent"]


def test_a_word_of_degree_measures_the_word_it_stands_before():
    # "bigger particles" was found in "big gaps between the particles" and "higher pitch" in
    # "a bigger amplitude, same pitch": the word of degree measured another noun
    q = Question(id="steel", text="Why does sound travel faster in steel than in air?",
                 reference_answers=("The particles of steel are closer together.",),
                 concepts=(Concept("bigger_particles", ("bigger particles",)),
                           Concept("higher_pitch", ("higher pitch",))))
    X = rows(q, ["the air has big gaps between the particles", "bigger amplitude same pitch",
                 "steel has bigger particles", "a much higher pitch", "the particles are bigger",
                 "it has a higher squeaky pitch", "the particles are more closely packed",
                 "the size of the particles increases"])
    assert list(X["concept:bigger_particles"]) == ["absent", "absent", "present", "absent", "present", "absent",
                                                   "absent", "absent"]
    assert list(X["concept:higher_pitch"]) == ["absent", "absent", "absent", "present", "absent", "present",
                                               "absent", "absent"]
    # what the word is of decides: "the frequency of the vibration increases" is no "bigger
    # vibrations", where "the number of turns is increased" is "more turns"
    q = Question(id="coil", text="How can the electromagnet be made stronger?",
                 reference_answers=("Use more turns of wire.",),
                 concepts=(Concept("more_turns", ("more turns",)), Concept("big_vibrations", ("bigger vibrations",))))
    X = rows(q, ["the number of turns is increased", "the frequency of the vibration increases",
                 "the vibrations get bigger", "the strength of the turns increases"])
    assert list(X["concept:more_turns"]) == ["present", "absent", "absent", "absent"]
    assert list(X["concept:big_vibrations"]) == ["absent", "absent", "present", "absent"]


def test_a_reference_pair_across_a_preposition_is_read():
    # "close to the hinge" gave no pair: only words side by side or across an article did, so
    # "far from the hinge" and "close to the hinge" differed in no column of their own
    q = Question(id="door", text="Where should you push a door to open it most easily?",
                 reference_answers=("Far from the hinge, so that the turning effect is bigger.",
                                    "Electrons move from the cloth to the rod."),)
    X = rows(q, ["far from the hinge", "push it close to the hinge", "not far from the hinge",
                 "far away", "the hinge is far", "electrons move to the cloth", "they move from the cloth"])
    assert list(X["ref:far_hinge"]) == ["present", "negated", "negated", "absent", "absent", "absent", "absent"]
    # a path from one thing to another keeps its direction
    assert list(X["ref:move_cloth"]) == ["absent"] * 5 + ["absent", "present"]


def test_a_phrase_is_not_found_across_the_other_end_of_its_scale():
    # "stronger further away" was found in "strongest close up and becomes weaker further
    # away": "weaker", between the two, is what is said of "further away"
    q = Question(id="fridge", text="Why can a fridge magnet not hold a thick book?",
                 reference_answers=("The magnetic force gets weaker with distance.",),
                 misconceptions=(Misconception("stronger_far", ("stronger further away",)),))
    X = rows(q, ["it is strongest close up and becomes weaker further away",
                 "it gets stronger further away", "the force is stronger a bit further away"])
    assert list(X["misconception:stronger_far"]) == ["absent", "present", "present"]



def test_a_phrase_with_both_ends_of_a_scale_is_found_as_written():
    # "smaller distance bigger moment" was found nowhere, not even in "a smaller distance
    # gives a bigger moment": its own "bigger" stood for the other end of "smaller" between
    # its words; and a word of degree may follow the word it measures in a long phrase
    q = Question(id="crackers", text="Why is a nut easier to crack near the hinge of a nutcracker?",
                 reference_answers=("The hand is further from the pivot, so its moment is bigger.",),
                 misconceptions=(Misconception("closer_more", ("smaller distance bigger moment",)),))
    X = rows(q, ["a smaller distance gives a bigger moment", "the smaller distance makes the moment bigger",
                 "a bigger distance gives a smaller moment", "a smaller distance and a smaller moment",
                 "the moment is bigger with a smaller distance"])
    assert list(X["misconception:closer_more"]) == ["present", "present", "absent", "absent", "absent"]

def test_goes_down_into_a_place_is_a_motion_not_a_decrease():
    # "weight is less" was found in "all your weight goes down into the snow"
    q = Question(id="snow", text="Why do snowshoes stop you sinking?",
                 reference_answers=("They spread the weight over a bigger area.",),
                 misconceptions=(Misconception("lighter", ("weight is less",)),))
    X = rows(q, ["your weight goes down into the snow", "your weight goes down", "the weight goes down by half"])
    assert list(X["misconception:lighter"]) == ["absent", "present", "present"]


def test_a_phrase_is_found_across_which_is():
    # "air resistance less than gravity" was not found in "air resistance which is less than
    # gravity": "which" started a new clause
    q = Question(id="chute", text="Why does the skydiver speed up before the parachute opens?",
                 reference_answers=("Her weight is bigger than the air resistance.",),
                 misconceptions=(Misconception("drag_less", ("air resistance less than gravity",)),))
    X = rows(q, ["there is air resistance which is less than gravity", "the air resistance is less than gravity",
                 "air resistance, which slows her, and gravity which is less"])
    assert list(X["misconception:drag_less"]) == ["present", "present", "absent"]
