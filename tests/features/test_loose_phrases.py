"""Rubric phrases found as students write them (issue 31): inflections, misspellings, any
word order, a few words between, within one clause; a phrase with its own negation found
where its words are denied. Sentences written for these tests, on sound and magnets."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Concept, Misconception, Question

Q = Question(
    id="strings", text="Two strings are plucked. Compare the sounds.",
    reference_answers=("The strings have the same pitch because they vibrate equally fast.",),
    concepts=(Concept("same_pitch", ("same pitch",)),
              Concept("vibrates_faster", ("vibrates faster",)),
              Concept("pole_attracts", ("north pole attracts",))),
    misconceptions=(Misconception("no_gap", ("no gap",)),))


@pytest.fixture(scope="module")
def fx() -> FeatureExtractor:
    return FeatureExtractor(Q, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer, column, state", [
    ("the pitch of the two strings is the same", "concept:same_pitch", "present"),
    ("both have the same high pitch", "concept:same_pitch", "present"),
    ("the pitch of the two strings is not the same", "concept:same_pitch", "negated"),
    ("the faster one vibrats", "concept:vibrates_faster", "present"),
    ("the north pole of the magnet attracts the nail", "concept:pole_attracts", "present"),
    # not across clauses or sentences
    ("the pitch is high, but the strings are the same", "concept:same_pitch", "absent"),
    ("the pitch rises. They are the same length", "concept:same_pitch", "absent"),
    # not too far apart
    ("the pitch that you hear from the first of the two long thin strings is the same",
     "concept:same_pitch", "absent"),
    # a phrase with its own negation matches as written
    ("there is no gap between the magnets", "misconception:no_gap", "present"),
    ("there isn't any gap between them", "misconception:no_gap", "present"),
    ("there is a gap between the magnets", "misconception:no_gap", "absent"),
    # a thing denied after it: "no gap" is found where the gap is not there (it was not)
    ("the gap is not there any more", "misconception:no_gap", "present"),
    ("the gap between the magnets isn't there", "misconception:no_gap", "present"),
    ("the gap is not closed", "misconception:no_gap", "absent"),
])
def test_a_phrase_is_found_as_students_write_it(fx, answer, column, state):
    assert fx.transform([answer]).iloc[0][column] == state


def test_direction_formulas_and_words_that_count_are_kept():
    q = Question(id="ohm", text="What is the current?", reference_answers=("0.5 A",),
                 concepts=(Concept("inverted", ("resistance divided by voltage",)),
                           Concept("enough", ("one magnet is enough",)),
                           Concept("formula", ("12 / 6",))),
                 misconceptions=(Misconception("no_force", ("no force",)),))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    X = fx.transform(["you divide the voltage by the resistance",
                      "the resistance is divided by the voltage",
                      "one magnet pulls the nail", "6 and 12", "the force never stops acting"])
    assert list(X["concept:inverted"]) == ["absent", "present", "absent", "absent", "absent"]
    assert list(X["concept:enough"]) == ["absent"] * 5
    assert list(X["concept:formula"]) == ["absent"] * 5
    assert list(X["misconception:no_force"]) == ["absent"] * 5


def test_a_word_missing_from_the_lemma_table_is_not_mended_to_its_opposite():
    q = Question(id="loop", text="Why is the bulb off?", reference_answers=("The loop is open.",),
                 concepts=(Concept("whole", ("complete",)), Concept("broken", ("incomplete",))))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(["the loop is incomplete"])
    assert (X.iloc[0]["concept:whole"], X.iloc[0]["concept:broken"]) == ("absent", "present")


def test_labels_and_numbers_are_words_of_a_loose_phrase():
    q = Question(id="mag", text="Which magnet?", reference_answers=("Magnet B repels.",),
                 concepts=(Concept("b_repels", ("magnet B repels",)),))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(
        ["magnet B strongly repels it", "it repels magnet A"])
    assert list(X["concept:b_repels"]) == ["present", "absent"]


def test_a_label_in_a_list_with_commas_is_said_with_the_lists_noun():
    # "magnets A, B and C": the commas of the list were clause breaks, so "magnet C" was absent
    q = Question(id="mag", text="Which magnets are in the field?", reference_answers=("Magnet C.",),
                 concepts=(Concept("magnet_b", ("magnet B",)), Concept("magnet_c", ("magnet C",))))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(
        ["magnets A, B and C are in the field", "magnet A is strong, C is weak", "magnets A, B, and C"])
    assert list(X["concept:magnet_b"]) == ["present", "absent", "present"]
    assert list(X["concept:magnet_c"]) == ["present", "absent", "present"]  # a clause of its own: no noun


def test_a_phrase_is_found_on_one_side_of_a_than():
    # a teacher's wrong idea "wood is a better conductor" was found in the right answer
    # "metal is a better conductor than wood": its words, in another order
    q = Question(id="spoons", text="Why does the metal spoon get hot first?",
                 reference_answers=("Metal is a better conductor of heat than wood.",),
                 concepts=(Concept("better_than_wood", ("better than wood",)),),
                 misconceptions=(Misconception("wood_better", ("wood conducts better", "wood is a better conductor")),))
    answers = ["metal is a better conductor than wood", "metal conducts heat better than wood",
               "wood is a better conductor than metal", "wood conducts heat better", "the wood is better"]
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(answers)
    assert list(X["misconception:wood_better"]) == ["absent", "absent", "present", "present", "absent"]
    assert list(X["concept:better_than_wood"]) == ["present", "present", "absent", "absent", "absent"]


def test_a_phrase_takes_no_words_from_two_statements_joined_by_and():
    # the best answer "like poles repel and unlike poles attract" held the teacher's wrong
    # idea "unlike poles repel": "unlike poles" from one statement, "repel" from the other
    q = Question(id="magnets", text="Why do the magnets push apart?",
                 reference_answers=("Like poles repel and unlike poles attract.",),
                 concepts=(Concept("like_repel", ("like poles repel",)),
                           Concept("in_path", ("bulb in a closed path with a switch",)),
                           Concept("sides", ("positive side and negative side",))),
                 misconceptions=(Misconception("unlike_repel", ("unlike poles repel",)),))
    answers = ["like poles repel and unlike poles attract", "unlike poles attract while like poles repel",
               "unlike poles repel", "like and unlike poles repel",
               "the bulb must be in a closed path with a battery and a switch",
               "the positive side of the battery and the negative side of the battery"]
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(answers)
    assert list(X["misconception:unlike_repel"]) == ["absent", "absent", "present", "present", "absent", "absent"]
    assert list(X["concept:like_repel"]) == ["present", "present", "absent", "absent", "absent", "absent"]
    # "and" inside a list of things joins no two statements
    assert list(X["concept:in_path"])[4] == "present" and list(X["concept:sides"])[5] == "present"


@pytest.mark.parametrize("answer, more_turns, bigger_battery", [
    # a word of degree measures its own word, not one of another part of a list: "fewer
    # coils and a bigger battery" said "more coils" and "smaller battery" as well
    ("use fewer coils and a bigger battery", "absent", "present"),
    ("more coils and take the battery out", "present", "absent"),
    ("a bigger battery and more coils", "present", "present"),
    ("the number of coils is increased", "present", "absent"),
    ("the battery is much bigger", "absent", "present"),
])
def test_a_word_of_degree_measures_the_word_next_to_it(answer, more_turns, bigger_battery):
    q = Question(id="coil", text="How can the electromagnet pick up more clips?",
                 reference_answers=("More turns of wire and a bigger current.",),
                 concepts=(Concept("more_turns", ("more coils",)), Concept("bigger_battery", ("bigger battery",))))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert (row["concept:more_turns"], row["concept:bigger_battery"]) == (more_turns, bigger_battery)


@pytest.mark.parametrize("answer, more_force, same_pressure", [
    # a word of degree said of one thing ("the pressure is bigger") measures no noun after a
    # preposition, and "the same" before a noun measures that noun: "the pressure is bigger
    # with the same force" says neither "more force" nor "the same pressure"
    ("the pressure is bigger with the same force", "absent", "absent"),
    ("you push with more force", "present", "absent"),
    ("the force is bigger", "present", "absent"),
    ("a bigger amount of force", "present", "absent"),
    ("the pressure is the same", "absent", "present"),
    ("it is the same pressure", "absent", "present"),
    ("the pressure stays the same on both", "absent", "present"),
    ("the same force gives the same pressure", "absent", "present"),
])
def test_a_word_of_degree_or_sameness_measures_its_own_noun(answer, more_force, same_pressure):
    q = Question(id="knife", text="Why does a sharp knife cut better than a blunt one?",
                 reference_answers=("The same force on a smaller area gives a bigger pressure.",),
                 concepts=(Concept("more_force", ("more force",)), Concept("same_pressure", ("same pressure",))))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert (row["concept:more_force"], row["concept:same_pressure"]) == (more_force, same_pressure)


@pytest.mark.parametrize("answer, state", [
    # a word of degree said of a thing ("... is small") measures the thing the clause names,
    # however many words name it ("the area of the blade on the bread", "the area touching
    # the bread"), not the last noun before it
    ("the area touching the bread is small", "present"),
    ("the area of the blade on the bread is less", "present"),
    ("the area is smaller", "present"),
    ("the bread on the blade of the knife is small", "absent"),
    ("the area of the blade is big and the bread is small", "absent"),
])
def test_a_degree_said_of_a_thing_measures_the_thing_its_clause_names(answer, state):
    q = Question(id="knife", text="Why does a sharp knife cut better than a blunt one?",
                 reference_answers=("The same force on a smaller area gives a bigger pressure.",),
                 concepts=(Concept("small_area", ("small area",)),))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]["concept:small_area"] == state


def test_an_equals_sign_between_words_joins_them_as_is_does():
    # students write "=" for "is" and "gives": "needle = magnet" says the needle is a magnet
    q = Question(id="compass", text="Why does a compass needle point north?",
                 reference_answers=("The needle is a magnet and the Earth is a magnet.",),
                 concepts=(Concept("needle_magnet", ("needle is a magnet",)),))
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(
        ["compass needle = magnet", "the needle, a magnet", "the needle points north. a magnet does too"])
    assert list(X["concept:needle_magnet"]) == ["present", "absent", "absent"]


@pytest.mark.parametrize("answer, denser, heavier_air", [
    # a teacher's comparison ("denser", "heavier") is said the other way by "less dense",
    # "less heavy": found there, it is denied, as "different" denies "same"
    ("hot air is less dense", "negated", "absent"),
    ("hot air is denser than cold air", "present", "absent"),
    ("hot air is more dense", "present", "absent"),
    ("the hot air is less heavy than the cold air", "absent", "negated"),
    ("the hot air is heavier", "absent", "present"),
    ("less dense air is lighter", "negated", "absent"),
    # "density" is the other form of "dense" where the question uses it
    ("hot air has a lower density than cold air", "negated", "absent"),
])
def test_a_teachers_comparison_said_with_less_is_denied(answer, denser, heavier_air):
    q = Question(id="balloon", text="Why does a hot air balloon rise?",
                 reference_answers=("The hot air inside is less dense than the cold air outside: it has a lower density.",),
                 concepts=(Concept("denser", ("denser",)), Concept("heavier_air", ("hot air is heavier",))),
                 misconceptions=(Misconception("wrong_way", ("denser",)),))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert (row["concept:denser"], row["concept:heavier_air"]) == (denser, heavier_air)
    # a misconception is said or not: said the other way, it is not said
    assert row["misconception:wrong_way"] == ("present" if denser == "present" else "absent")


@pytest.mark.parametrize("answer, state", [
    # a phrase that ends with "more" ("vibrates more") is not found where the answer's "more"
    # measures the word after it ("vibrates more slowly" is slower, not more)
    ("the string vibrates more slowly", "absent"),
    ("it vibrates more quickly", "absent"),
    ("it vibrates more", "present"),
    ("it vibrates more and makes a sound", "present"),
])
def test_a_phrase_ending_in_more_is_not_the_degree_of_the_next_word(answer, state):
    q = Question(id="string", text="Why does a tighter string sound higher?",
                 reference_answers=("A tighter string vibrates faster.",),
                 concepts=(Concept("vibrates_more", ("vibrates more",)),))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]["concept:vibrates_more"] == state


def _misconception(question_text: str, reference: str, phrase: str, answer: str) -> str:
    """The state of a misconception with one phrase in one answer."""
    q = Question(id="q", text=question_text, reference_answers=(reference,),
                 misconceptions=(Misconception("idea", (phrase,)),))
    return FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]["misconception:idea"]


BARROW = ("Why do long handles make a wheelbarrow easier to lift?",
          "The wheel is the pivot, so long handles put your effort far from it.")
SEESAW = ("Where should the father sit to balance the seesaw?", "Nearer the pivot, so that his moment equals hers.")
TABLE = ("Why does the clip on the table move with the magnet under it?",
         "The magnetic field passes through the wood.")
CRANE = ("Why does a tower crane have a heavy block at the back of its arm?",
         "The block's moment balances the load's moment about the tower.")


@pytest.mark.parametrize("answer, state", [
    # a phrase that says what a thing is ("the hands are the pivot") is not found where the
    # answer relates the one to the other ("from", "to", "by", "near" between its words)
    ("the hands are the pivot", "present"),
    ("the pivot is your hands", "present"),
    ("your hands are the pivot point", "present"),
    ("your hands are further from the pivot", "absent"),
    ("the hands are close to the pivot", "absent"),
    ("the hands are pushed up by the pivot", "absent"),
    ("your hands make the distance between the load and the pivot bigger", "absent"),
])
def test_a_phrase_saying_what_a_thing_is_is_not_found_where_the_answer_relates_them(answer, state):
    assert _misconception(*BARROW, "hands are the pivot", answer) == state


KETTLE = ("Why does the kettle's light go out when it boils?", "The switch turns off once the water boils.")


@pytest.mark.parametrize("phrase, answer, state", [
    # "switch is on" was found in "the lamp is on the same side as the switch": a preposition
    # said before a thing starts a phrase about something else; an adjective is still said of it
    ("switch is on", "the switch is on", "present"),
    ("switch is on", "the lamp is on the same side as the switch", "absent"),
    ("switch is in the kettle", "the switch in the kettle", "present"),
    ("switch is in the kettle", "the water is in the kettle with the switch", "absent"),
    ("lid is open", "the kettle has an open lid", "present"),
    ("lid is open", "the open metal lid", "present"),
    ("bottoms are both north", "both get a north pole at the bottom", "present"),
    ("hands are the pivot", "the pivot is your hands", "present"),
])
def test_a_preposition_said_before_a_thing_is_not_said_of_it(phrase, answer, state):
    assert _misconception(*KETTLE, phrase, answer) == state


@pytest.mark.parametrize("phrase, answer, state", [
    # "when it is on" (the switch's state) was found in "when it is on the same side as the
    # lamp", where "on" says where it is
    ("when it is on", "when it is on the same side as the lamp", "absent"),
    ("when it is on", "when it is on", "present"),
    ("switch is on", "the switch is on a wire by itself", "absent"),
    ("switch is on", "the switch is on so the kettle heats", "present"),
    ("switch is off", "the switch is off the kettle", "absent"),
    # a thing may start with "one", "this" or "both" too: a set of a later check named like
    # this one's had taken its place, and these said the state
    ("switch is on", "the switch is on one wire with the heater", "absent"),
    ("switch is on", "the switch is on this wire", "absent"),
    ("switch is in", "the switch is in both circuits", "absent"),
])
def test_a_state_word_with_a_thing_after_it_says_where_not_the_state(phrase, answer, state):
    assert _misconception(*KETTLE, phrase, answer) == state


@pytest.mark.parametrize("answer, state", [
    ("the wood is magnetic", "present"),
    ("magnetism works through wood", "absent"),
    ("the magnetic force goes across the wood", "absent"),
])
def test_what_a_thing_is_is_not_said_by_what_passes_through_it(answer, state):
    assert _misconception(*TABLE, "wood is magnetic", answer) == state


@pytest.mark.parametrize("answer, state", [
    # two statements joined by "and" are two clauses for a phrase, also where the thing the
    # first names goes on over a preposition ("the moments on both sides are equal")
    ("the moments on both sides are equal and distance matters too", "absent"),
    ("the weight of the boy is equal and the distance changes", "absent"),
    ("they sit at the same distance on both sides", "present"),
    ("the distance on both sides is equal", "present"),
])
def test_statements_joined_by_and_are_two_clauses_when_their_thing_is_named_on(answer, state):
    assert _misconception(*SEESAW, "same distance", answer) == state


def test_a_phrase_after_a_preposition_is_no_statement_of_its_own():
    # "and back into the bats ears": "ears" after "bats" is no verb, so the words after "and"
    # say nothing of a thing and "bounces ... back" stays one clause
    assert _misconception("How does a bat find a moth in the dark?", "The bat's squeaks bounce back off the moth.",
                          "bounces back", "the sound bounces of the moth and back into the bats ears so it hears it"
                          ) == "present"


@pytest.mark.parametrize("answer, state", [
    # a word of sameness after its noun is said of the thing its clause names, over the
    # phrases that go on naming it: the effect is the same, not the sides
    ("the turning effect on both sides of the tower is the same", "absent"),
    ("the moments on the two sides stay the same", "absent"),
    ("both sides are the same", "present"),
    ("the block is on the same side as the load", "present"),
])
def test_a_word_of_sameness_is_said_of_the_thing_its_clause_names(answer, state):
    assert _misconception(*CRANE, "same side", answer) == state


def test_a_texted_through_relates_as_through_does():
    assert _misconception(*TABLE, "wood is magnetic", "the magnetic feild goes thru the wood") == "absent"


def test_a_particle_in_a_phrase_is_its_own_words():
    # "pulled up" was found in "pushing up from the bottom magnet ... gravity pulling down":
    # the "up" is the pushing's, and the pulling has its own "down"
    ask = ("Why does the top ring magnet float above the other?", "Like poles face each other and repel.")
    assert _misconception(*ask, "pulled up", "the force pushing up from the bottom magnet is equal to gravity "
                                             "pulling down") == "absent"
    assert _misconception(*ask, "pulled up", "gravity is pulling down and the magnet is pushing up") == "absent"
    assert _misconception(*ask, "pulled up", "the bottom magnet pulls the top magnet up") == "present"
    assert _misconception(*ask, "pulled up", "it is pulled up by the magnet below") == "present"


@pytest.mark.parametrize("answer, state", [
    # the paper before the verb, which acts on a thing of its own: "attracts the paper" was found
    ("the field goes through the card and attracts the iron door", "absent"),
    ("the force goes past the card and attracts a nail", "absent"),
    # the thing before its verb, and nothing else acted on: the same idea in the passive
    # the verb acts on a thing of its own, and the paper comes after it: "through the card"
    ("the magnet attracts the door through the card", "absent"),
    ("the magnet attracts the thin card", "present"),  # a word said of the thing between
    ("the card is attracted to the magnet", "present"),
    ("the card gets attracted", "present"),
    ("the magnet attracts the card", "present"),
])
def test_a_verb_that_acts_on_a_thing_of_its_own_says_nothing_of_another_thing(answer, state):
    ask = ("Why does the magnet hold the card to the door?", "The magnetic field passes through the card.")
    assert _misconception(*ask, "attracts the card", answer) == state


@pytest.mark.parametrize("answer, state", [
    # "magnetic" is said of the force: "the cards are magnetic" was found, the words in any order
    ("the magnetic force gets weaker and more cards means more distance", "absent"),
    ("the magnetic field is weaker further from the cards", "absent"),
    ("magnetic cards push the clip away", "present"),  # said of the cards, right before them
    ("the cards are magnetic", "present"),
])
def test_what_a_thing_is_said_to_be_is_not_found_said_of_another_word_before_it(answer, state):
    ask = ("Why does the magnet hold fewer clips through more cards?", "The cards add distance, and the field "
                                                                       "gets weaker with distance.")
    assert _misconception(*ask, "cards are magnetic", answer) == state


@pytest.mark.parametrize("answer, state", [
    # "magnetic" is said of the force after the cards, with no "are" between: "the cards are
    # magnetic" was found in "more cards and a weaker magnetic force"
    ("more cards means more distance and a weaker magnetic force", "absent"),
    ("the cards block the magnetic field", "absent"),
    ("the cards are magnetic things", "present"),  # said of them with "are", before a noun
    ("the cards have a magnetic field of their own", "present"),
    ("the cards are made of magnetic stuff", "present"),
])
def test_what_a_thing_is_said_to_be_is_not_found_said_of_another_word_after_it(answer, state):
    ask = ("Why does the magnet hold fewer clips through more cards?", "The cards add distance, and the field "
                                                                       "gets weaker with distance.")
    assert _misconception(*ask, "cards are magnetic", answer) == state


@pytest.mark.parametrize("answer, state", [
    # "faster" says how the passing on is done: "vibrate faster" was found
    ("the vibrations are passed on faster", "absent"),
    ("the particles vibrate and move faster", "absent"),
    ("the particles vibrate a lot faster", "present"),
    ("they vibrate more quickly", "present"),
    ("the particles vibrate in the water faster", "present"),  # a place between
    # how a vibration goes, and how it is passed, is no rate of vibrating: both were found
    ("the vibration goes from one particle to the next faster", "absent"),
    ("the particles pass the vibrations quicker", "absent"),
    ("it makes the vibrations quicker", "present"),
    ("the vibrations are quicker", "present"),
])
def test_a_word_of_degree_says_how_the_word_right_before_it_is_done(answer, state):
    ask = ("Why does sound travel faster in water?", "The particles are closer, so their vibrations are passed on.")
    assert _misconception(*ask, "vibrate faster", answer) == state


@pytest.mark.parametrize("answer, state", [
    # the answer's "slow" has a place of its own: "slower in glass" was found in "fast in the
    # glass and slow in the air", the words in the same clause
    ("light goes fast in the glass and slow in the air", "absent"),
    ("light is slower in glass", "present"),
    ("in glass the light is slower", "present"),
    ("it goes slow in the glass block", "present"),
    ("light is slower in glass than in air", "present"),
])
def test_a_word_of_degree_with_a_place_of_its_own_is_not_said_in_another(answer, state):
    ask = ("Why does light bend into the glass block?", "Light travels more slowly in glass than in air.")
    assert _misconception(*ask, "slower in glass", answer) == state


@pytest.mark.parametrize("answer, state", [
    # the phrase's own "when" joins two clauses: its words were looked for in one clause of
    # the answer, split at the answer's "when"
    ("electromagnets stay magnetic even when you turn them off", "present"),
    ("it stays magnetic when it is switched off", "present"),
    ("it is magnetic, and when you switch it off it drops the car", "absent"),
])
def test_a_phrase_with_its_own_clause_break_is_found_across_the_answer_s(answer, state):
    ask = ("Why does a scrapyard use an electromagnet?", "It can be switched off to drop the car.")
    assert _misconception(*ask, "stays magnetic when off", answer) == state


def test_a_preposition_before_an_article_is_no_verb_acting_on_a_thing():
    # "with a bulb" was read as a verb and the thing it acts on, so "with the lamp and a bulb"
    # acted on the lamp and said no "switch with a bulb"
    ask = ("What is in the circuit?", "A switch with a bulb and a cell.")
    assert _misconception(*ask, "switch with a bulb", "the switch is with the lamp and a bulb") == "present"


def _read(question: Question, answer: str, column: str) -> str:
    """What one column says of one answer, read with the question's own extractor."""
    return FeatureExtractor(question, model=FALLBACK).fit(["x"]).transform([answer])[column].iloc[0]


KNOCKS = Question(
    id="knocks", text="A compass needle is hit many times with a hammer. What happens to it?",
    reference_answers=("The knocks jumble the tiny magnets inside, so the needle is less magnetic.",),
    misconceptions=(Misconception("leaks", ("knocked out of it", "falls out")),
                    Misconception("used_up", ("runs out",))))


@pytest.mark.parametrize("answer, column, state", [
    # "out of" a state with no article says no thing comes out: the right answer got the wrong idea
    ("the tiny magnets get knocked out of line", "misconception:leaks", "absent"),
    ("the magnets inside fall out of alignment", "misconception:leaks", "absent"),
    ("the magnetism gets knocked out of it", "misconception:leaks", "present"),
    ("the magnetism falls out of the needle", "misconception:leaks", "present"),
    ("the magnetism falls out", "misconception:leaks", "present"),
    # "run out of" is used up, whatever follows
    ("the needle runs out of magnetism", "misconception:used_up", "present"),
])
def test_out_of_a_state_is_no_thing_coming_out(answer, column, state):
    assert _read(KNOCKS, answer, column) == state


WAVES = Question(
    id="waves", text="A rope is shaken at one end. How do its parts move?",
    reference_answers=("Each part of the rope moves up and down as the wave passes along it.",),
    misconceptions=(Misconception("sideways", ("up and down",)),), concepts=(Concept("higher", ("goes up",)),))


@pytest.mark.parametrize("answer, column, state", [
    # "go up" was read as "more" (as in "the pitch goes up"), so "go up and down" lost its "up"
    ("the bits of rope go up and down", "misconception:sideways", "present"),
    ("the bits of rope go up and down", "concept:higher", "absent"),
    ("the end of the rope goes up", "concept:higher", "present"),
])
def test_going_up_and_down_is_one_movement(answer, column, state):
    assert _read(WAVES, answer, column) == state


@pytest.mark.parametrize("answer, state", [
    # "goes in and out" is a movement: the reference's "moves up and down" was not found in it
    ("the bits of rope go up and down", "present"),
    ("each bit goes backwards and forwards", "present"),
    ("the rope goes along", "absent"),
])
def test_going_to_and_fro_is_moving(answer, state):
    assert _read(WAVES, answer, "ref:move") == state


HALVES = Question(
    id="halves", text="A bar magnet is cut in half. What poles does each piece have?",
    reference_answers=("Each piece has a north pole and a south pole.",),
    misconceptions=(Misconception("one_kind", ("both south poles", "two north poles")),))


@pytest.mark.parametrize("answer, state", [
    # "both" counts the pieces here, not the south poles: a right answer got the wrong idea
    ("both pieces will have a north pole and a south pole", "absent"),
    ("each piece has both a north and a south pole", "absent"),
    ("you end up with two north poles", "present"),
    ("both halves are south poles", "present"),
])
def test_a_counting_word_counts_the_thing_after_it(answer, state):
    assert _read(HALVES, answer, "misconception:one_kind") == state
