"""How words are read: two words of the question written as one ("paperclip" for "paper clip"),
words of the language the speller must not mend, other forms of a word. Sentences written for
these tests, on magnets, sound and heat."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.compounds import CompoundSplitter
from features.nlp import FALLBACK, load_nlp
from features.spelling import Speller, english_words, mend_vocabulary
from knowledge.schema import Misconception, Question

MAGNETS = Question(id="clip", text="Only the paper clip is pulled to the magnet. Why?",
                   reference_answers=("The paper clip is magnetic; the copper coin is not.",))


@pytest.fixture(scope="module")
def fx() -> FeatureExtractor:
    return FeatureExtractor(MAGNETS, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer", ["the paperclip is magnetic", "Paperclips are magnetic",
                                    "the paper clip is magnetic"])
def test_two_words_of_the_question_written_as_one_are_read_as_the_two(fx, answer):
    # "paperclip" was a word of its own: "the paperclip is magnetic" said nothing of the
    # reference's "paper clip"
    row = fx.transform([answer]).iloc[0]
    assert (row["ref:paper_clip"], row["ref:clip"], row["ref:magnetic"]) == ("present", "present", "present")


def test_the_split_keeps_the_text_and_gives_each_word_its_lemma(fx):
    analysis = fx.read(["Two paperclips, not one"])[0]
    assert [t.text for t in analysis.doc] == ["Two", "paper", "clips", ",", "not", "one"]
    assert analysis.doc.text == "Two paperclips, not one"
    assert analysis.keys[1:3] == ["paper", "clip"]


def test_only_pairs_of_the_question_are_split_never_a_word_it_writes_or_stop_words():
    nlp = load_nlp(FALLBACK)
    docs = list(nlp.pipe(["sound waves go into the air", "a soundproof wall and sound proof glass"]))
    splitter = CompoundSplitter.of(docs)
    assert {"soundwaves", "soundwave"} <= set(splitter.parts)
    assert "into" not in splitter.parts  # "in" "to": stop words
    assert "soundproof" not in splitter.parts  # the question writes it as one word itself
    answers = list(nlp.pipe(["soundwaves go intothe air", "a soundproof wall"]))
    splitter.split(answers)
    assert [t.text for t in answers[0]][:2] == ["sound", "waves"]
    assert len(answers[1]) == 3


def test_no_pair_that_joins_gives_no_splitter():
    assert CompoundSplitter.of(list(load_nlp(FALLBACK).pipe(["It is a gap."]))) is None


def test_adjectives_that_never_change_form_are_english_words():
    # "magnetic", "transparent" are in no lookup table of word forms: the question's
    # "magnetic" was taken for a slip and mended to its "magnet", so "the magnet pulls it"
    # said the reference's "the paper clip is magnetic"
    assert {"magnetic", "transparent", "opaque", "electrical", "gravitational"} <= english_words()
    assert mend_vocabulary({"magnet": "magnet", "magnetic": "magnetic"})["magnetic"] == "magnetic"
    # nouns of the index are left out: a rare one is a common slip ("blub" for "bulb")
    assert "blub" not in english_words()


def test_magnetic_is_read_as_itself_and_found_as_the_other_form_of_magnet(fx):
    # "magnetic" is its own word ("copper is magnetic" says something of copper that "the
    # magnet pulls copper" does not), and a reference word finds its other form where the
    # question uses both, as "vibrate" finds "the vibrations" (Speller.other_form: -ic)
    assert [a.keys[-1] for a in fx.read(["the clip is magnetic", "it is a magnet"])] == ["magnetic", "magnet"]
    assert fx.speller_.other_form("magnetic") == "magnet"
    X = fx.transform(["the magnet pulls it", "the clip is magnetic", "the clip is pulled"])
    assert list(X["ref:magnetic"]) == ["present", "present", "absent"]


def test_a_noun_in_ence_finds_its_adjective_where_the_question_uses_it():
    speller = Speller({"difference": "difference", "different": "different"})
    assert speller.other_form("difference") == "different"
    assert speller.other_form("different") == "difference"
    assert Speller({"difference": "difference"}).other_form("difference") is None


def test_what_a_thing_is_made_of_finds_the_thing():
    # "wooden" was mended to "wood" as a misspelling; as an English word it is the thing's
    # other form, found where the class uses it
    q = Question(id="spoons", text="Which spoon gets hot first in hot soup?",
                 reference_answers=("Metal conducts heat better than wood.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["the wooden one", "wooden spoons", "no idea"])
    assert list(fx.transform(["the wooden spoon is cool", "the metal spoon"])["ref:wood"]) == ["present", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("the magnet is to weak to pull the can", "present"),
    ("its to weak", "present"),
    ("the magnet is way to weak for the can.", "present"),
    ("the magnet is too weak", "present"),
    # "to" stays "to" before an adjective of a noun, or a verb
    ("it is drawn to weak magnets", "absent"),
    ("it is hard to weaken a magnet", "absent"),
])
def test_to_before_an_adjective_said_of_the_subject_is_too(answer, state):
    # students write "to weak" for "too weak": the teacher's "too weak" was not found
    q = Question(id="weak", text="Why is the can not pulled?", reference_answers=("Aluminium is not magnetic.",),
                 misconceptions=(Misconception("too_weak", ("too weak",)),))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert fx.transform([answer]).iloc[0]["misconception:too_weak"] == state


@pytest.mark.parametrize("answer, turned, misconception", [
    # students write "then" for "than": "sound is faster then light" said neither the
    # comparison turned round nor the teacher's "sound faster than light"
    ("sound is faster then light", "negated", "present"),
    ("light is quicker then sound", "present", "absent"),
    ("sound is faster than light", "negated", "present"),
    # a few words may stand between the comparison and its "then"
    ("sound goes faster in the air then light", "negated", "present"),
    ("light is quicker through air then sound", "present", "absent"),
    # "then" that says when stays "then"
    ("the flash comes first and then the sound", "absent", "absent"),
    ("the sound travels after then", "absent", "absent"),
])
def test_then_after_a_comparison_is_than(answer, turned, misconception):
    q = Question(id="thunder", text="Why do you see lightning before you hear thunder?",
                 reference_answers=("Light travels faster than sound.",),
                 misconceptions=(Misconception("sound_faster", ("sound faster than light",)),))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert (row["ref:light_fast_than_sound"], row["misconception:sound_faster"]) == (turned, misconception)


@pytest.mark.parametrize("answer, than", [
    ("sound goes faster in the air then light", True), ("a bigger force to the nut then the hand", True),
    # a new clause after "then", or one ended before it: "then" says when
    ("light is quicker for a bit then it slows down", False), ("it gets hotter and then melts", False),
    ("the pan gets hotter, then the handle", False),
])
def test_then_a_few_words_after_a_comparison(answer, than):
    q = Question(id="q", text="Explain.", reference_answers=("Light travels faster than sound.",))
    keys = FeatureExtractor(q, model=FALLBACK).fit(["x"]).read([answer])[0].keys
    assert ("than" in keys, "then" in keys) == (than, not than)


def test_a_misspelt_word_reads_as_the_word_it_is_mended_to():
    # "closser" was mended to "closer" but read with the lemma "close" (the verb, whose
    # opposite is "open"), where "closer" itself reads "near"
    q = Question(id="seesaw", text="Where should the heavier child sit?",
                 reference_answers=("Closer to the pivot, because he is heavier.",))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["x"])
    assert [a.keys[0] for a in fx.read(["closser to the pivot", "closer to the pivot"])] == ["near", "near"]


def test_a_real_word_is_mended_only_to_a_word_with_its_first_letter():
    # "slower" is one letter from the question's "lower" and read as it ("less"), the
    # opposite of what it says; a slip keeps its first letter ("batter" for "battery")
    speller = Speller({"lower": "low", "battery": "battery"})
    assert speller.norm("slower", "slow") == "slow"
    assert speller.norm("batter", "batter") == "battery"


@pytest.mark.parametrize("written, read", [("vibrashuns", "vibration"), ("fricshun", "friction"),
                                           ("posishon", "position"), ("cushion", "cushion")])
def test_an_ending_spelt_as_it_sounds_is_read_as_the_word(written, read):
    # "vibrashuns" is three letters from "vibrations": no slip of one or two, so it stayed a
    # word of its own and said nothing of the vibrations
    speller = Speller({"sound": "sound"})
    assert speller.norm(written, written) == read
