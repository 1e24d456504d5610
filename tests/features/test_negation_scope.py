"""How far a negation reaches on the fallback pipeline (no parser), issue 31: the ideas
it denies and where it stops. Sentences written for these tests, on levers, sound and
magnets."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Concept, Misconception, Question

Q = Question(
    id="mixed", text="Explain what you see.",
    reference_answers=("The load is balanced and the magnets attract.",),
    concepts=(Concept("balanced", ("balanced", "in balance")),
              Concept("gap", ("gap",)), Concept("separated", ("separated",)),
              Concept("closed_loop", ("closed loop",)), Concept("touching", ("touching",)),
              Concept("pitch", ("pitch",)), Concept("vibrate", ("vibrate",)),
              Concept("magnet", ("magnet",)), Concept("long", ("long",)),
              Concept("same_time", ("same time",)), Concept("ground", ("ground",)),
              Concept("heavy", ("heavy",))))


@pytest.fixture(scope="module")
def fx() -> FeatureExtractor:
    return FeatureExtractor(Q, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer, states", [
    # "neither" without "nor" denies what its subjects are said to be
    ("neither coils are in closed loops", {"closed_loop": "negated"}),
    ("neither magnets are touching the iron", {"touching": "negated", "magnet": "negated"}),
    # "neither ... nor ..." denies the predicate too
    ("neither lever X nor lever Y is in balance", {"balanced": "negated"}),
    ("neither the drum nor the bell vibrates", {"vibrate": "negated"}),
    # denies the verb, not the agent after it
    ("the magnets are not separated by a gap", {"separated": "negated", "gap": "present"}),
    ("the see-saw is no longer balanced", {"balanced": "negated"}),
    # where it stops: a "but" clause, a new sentence, "and" before a new clause
    ("the see-saw is not balanced but the string vibrates", {"balanced": "negated",
                                                             "vibrate": "present"}),
    ("neither side is balanced. The string vibrates", {"balanced": "negated",
                                                       "vibrate": "present"}),
    ("it is not loud and the pitch is high", {"pitch": "present"}),
    # a predicate left out after "not": its subject is denied, as with "neither"
    ("the coil is touching but the magnet isn't", {"touching": "present", "magnet": "negated"}),
    ("the drum vibrates, the magnet does not.", {"vibrate": "present", "magnet": "negated"}),
    ("the magnet is not touching", {"magnet": "present", "touching": "negated"}),
    # run on without a stop: the subject left to "is not" ends at the verb of the clause before
    ("the see-saw is balanced the magnet is not", {"balanced": "present", "magnet": "negated"}),
    ("the pitch is high the magnet isnt", {"pitch": "present", "magnet": "negated"}),
    # "no longer" says "not now", nothing of length, and reaches the place it denies
    ("the see-saw is no longer balanced", {"balanced": "negated", "long": "absent"}),
    ("the magnet is no longer in a closed loop", {"closed_loop": "negated", "long": "absent"}),
    ("the string does not vibrate any longer", {"vibrate": "negated", "long": "absent"}),
    ("the longer string vibrates", {"vibrate": "present", "long": "present"}),
    # "no" denies its noun, not the place after it; "not" reaches the place it denies
    ("there is no gap in the closed loop", {"gap": "negated", "closed_loop": "present"}),
    ("the magnet is not touching in a closed loop", {"touching": "negated", "closed_loop": "negated"}),
    # a verb's negation reaches the sameness that follows it, not a place or an agent
    ("they do not land at the same time", {"same_time": "negated"}),
    ("they don't hit the ground at the same time, the magnet does", {"same_time": "negated",
                                                                    "ground": "negated"}),
    ("the drum does not vibrate at the same time as the bell", {"same_time": "negated"}),
    ("they land at the same time", {"same_time": "present"}),
    # "it's not because ..." denies the reason; "... were not because ..." gives it
    ("it's not because it is heavy, it's because the string vibrates", {"heavy": "negated",
                                                                        "vibrate": "present"}),
    ("its not because its heavy", {"heavy": "negated"}),
    ("the drums were not because they are heavy", {"heavy": "present"}),
    # a negated auxiliary as students misspell it is a negation, not a word of its own
    ("the magnet dosent touch the coil", {"touching": "negated", "magnet": "present"}),
    ("the drum does'nt vibrate", {"vibrate": "negated"}),
    ("the drum cannt vibrate", {"vibrate": "negated"}),
    ("the see-saw wasent balanced", {"balanced": "negated"}),
    # the "to" of a verb after "need", "have", "want", "able" goes on with the denial
    ("the string does not need to vibrate", {"vibrate": "negated"}),
    ("the magnet doesnt have to touch the string", {"touching": "negated"}),
    ("the magnet is not connected to the string", {"magnet": "present"}),
    ("the string does not go to the magnet", {"magnet": "present"}),
    ("the magnets arnt touching", {"touching": "negated", "magnet": "present"}),
    ("the strings wernt balanced", {"balanced": "negated"}),
    ("the drum carnt vibrate", {"vibrate": "negated"}),
    ("it didint vibrate and it isint balanced", {"vibrate": "negated", "balanced": "negated"}),
    ("the string shudnt touch the magnet", {"touching": "negated"}),
    # a misspelt or texted "because" ends the clause as "because" does
    ("the see-saw is not balanced bcos the string vibrates", {"balanced": "negated", "vibrate": "present"}),
    ("the see-saw is not balanced becuase the string vibrates", {"balanced": "negated",
                                                                 "vibrate": "present"}),
    ("it does not touch the magnet and the coil", {"touching": "negated"}),
    # a sentence run on without a full stop: a pronoun that can only be a subject starts a
    # new clause ("soft things dont vibrate much they touch the magnet" touches it)
    ("soft things dont vibrate much they touch the magnet", {"vibrate": "negated", "touching": "present",
                                                            "magnet": "present"}),
    ("the drum doesnt vibrate he is touching the magnet", {"vibrate": "negated", "touching": "present"}),
    ("it doesnt make them vibrate", {"vibrate": "negated"}),
    # "and" before a clause whose subject is a bare noun ("and sound needs air", "and string
    # vibrates", "and magnets can touch") ends the denial; a list of nouns goes on with it
    ("there is no gap out there and string vibrates fast", {"gap": "negated", "vibrate": "present"}),
    ("theres no gap and magnet needs a closed loop", {"gap": "negated", "closed_loop": "present",
                                                     "magnet": "present"}),
    ("there is no gap and magnets can touch", {"gap": "negated", "magnet": "present"}),
    ("there is no gap or magnet", {"gap": "negated", "magnet": "negated"}),
    # "no" and "without" deny a noun phrase: an article after its noun starts another, a
    # sentence run on ("without the magnet the string vibrates")
    ("without the magnet the string vibrates", {"magnet": "negated", "vibrate": "present"}),
    ("there is no gap the magnet is touching", {"gap": "negated", "magnet": "present", "touching": "present"}),
    ("there is no gap or a magnet", {"gap": "negated", "magnet": "negated"}),
    ("no magnet touching a string", {"magnet": "negated", "touching": "negated"}),
    ("there are no magnets or pitch changes in it", {"magnet": "negated", "pitch": "negated"}),
])
def test_negation_reaches_what_it_denies_and_stops_at_the_clause(fx, answer, states):
    row = fx.transform([answer]).iloc[0]
    assert {c: row[f"concept:{c}"] for c in states} == states


COMPARE = Question(
    id="pitch", text="Why does the shorter string sound higher?",
    reference_answers=("The shorter string vibrates faster, so its sound is quieter and weaker.",),
    concepts=(Concept("fast", ("fast",)), Concept("force", ("force",)), Concept("loud", ("loud",)),
              Concept("diagram", ("diagram",))))


@pytest.fixture(scope="module")
def compare_fx() -> FeatureExtractor:
    return FeatureExtractor(COMPARE, model=FALLBACK).fit(["x"])


@pytest.mark.parametrize("answer, states", [
    # "not as X": the negation reaches the compared word
    ("the string does not vibrate as fast", {"fast": "negated"}),
    # ... except "as much" / "as many", which say "less": "you need less force" (the force is said)
    ("you don't need as much force", {"force": "present"}),
    ("it is not as loud as the other string", {"loud": "negated"}),
    # "as" before a noun phrase or clause is not a comparison: the negation stops there
    ("it is not connected as the diagram shows", {"diagram": "present"}),
])
def test_a_negated_comparison_reaches_the_compared_word(compare_fx, answer, states):
    row = compare_fx.transform([answer]).iloc[0]
    assert {c: row[f"concept:{c}"] for c in states} == states


@pytest.mark.parametrize("answer, column, state", [
    # the reference says "faster", "quieter", "weaker": "not as fast" denies faster, "not
    # loud" says quieter, "not as strong" says weaker
    ("the string does not vibrate as fast", "ref:fast", "negated"),
    ("its sound is not loud", "ref:quiet", "present"),
    ("the sound is not as strong", "ref:weak", "present"),
    ("the sound is strong", "ref:weak", "negated"),
])
def test_a_negated_word_is_its_antonym_for_the_reference_words(compare_fx, answer, column, state):
    assert compare_fx.transform([answer]).iloc[0][column] == state


def test_no_longer_turns_an_antonym_once(fx):
    # the reference says the magnets attract: "no longer attract" says they repel, once
    assert fx.transform(["the magnets no longer attract"]).iloc[0]["ref:attract"] == "negated"
    assert fx.transform(["the magnets attract"]).iloc[0]["ref:attract"] == "present"


FORCES = Question(
    id="car", text="A car moves at a steady speed. What can you say about the forces on it?",
    reference_answers=("The forces are balanced, so the resultant force is zero.",),
    concepts=(Concept("balanced", ("balanced",)), Concept("equal", ("forces are equal",)),
              Concept("zero_net", ("resultant force is zero",)), Concept("less", ("less force",))))


@pytest.mark.parametrize("answer, concept, state", [
    # a prefix that denies a question's word: the spelling corrector read "unbalanced" as
    # "balanced" and "unequal" as "equal", the opposite of what they say
    ("the forces are unbalanced", "balanced", "negated"),
    ("the forces are balanced", "balanced", "present"),
    ("unequal forces", "equal", "negated"),
    ("the resultant force is non-zero", "zero_net", "negated"),
    ("a nonzero resultant force", "zero_net", "negated"),
    ("the forces are imbalanced", "balanced", "absent"),  # not a slip for "balanced"
    ("the forces are not unbalanced", "balanced", "present"),  # two denials
    ("it keeps going unless a force acts", "less", "absent"),  # "unless" denies nothing
])
def test_a_prefix_that_denies_a_word_reads_as_the_word_denied(answer, concept, state):
    fx = FeatureExtractor(FORCES, model=FALLBACK).fit(["x"])
    assert fx.transform([answer]).iloc[0][f"concept:{concept}"] == state


def test_a_word_with_a_prefix_the_teacher_uses_is_a_word_of_its_own():
    import dataclasses

    q = dataclasses.replace(FORCES, concepts=FORCES.concepts + (Concept("unbalanced", ("unbalanced",)),))
    rows = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(
        ["the forces are unbalanced", "the forces are not unbalanced"])
    assert list(rows["concept:unbalanced"]) == ["present", "negated"]
    assert list(rows["concept:balanced"]) == ["absent", "absent"]


@pytest.mark.parametrize("answer, state", [
    ("there is no gravity in space", "present"),
    ("it's not because there is no gravity, it's a vacuum", "absent"),  # the reason denied
    ("it is not because of no gravity", "absent"),
    ("it isn't cold, and there is no gravity", "present"),  # the negation ends at the comma
])
def test_a_phrase_that_holds_a_negation_is_denied_by_another_before_it(answer, state):
    q = Question(id="space", text="Why can't sound travel through space?",
                 reference_answers=("Space is a vacuum: there are no particles to vibrate.",),
                 misconceptions=(Misconception("no_gravity", ("no gravity",)),))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert row["misconception:no_gravity"] == state


def _parsed(words: list[str], heads: list[int], deps: list[str], lemmas: list[str]):
    """A doc with the parse a trained pipeline would give (none is installed here)."""
    import spacy
    from spacy.tokens import Doc
    return Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, lemmas=lemmas)


def test_a_lack_denies_what_it_lacks_with_a_parser():
    from features.negation import negation_scopes
    lacks = _parsed(["space", "lacks", "particles"], [1, 1, 1], ["nsubj", "ROOT", "dobj"],
                    ["space", "lack", "particle"])
    assert negation_scopes(lacks, use_parse=True) == [[2]]
    lack_of = _parsed(["there", "is", "a", "lack", "of", "air", "in", "space"], [1, 1, 3, 1, 3, 4, 1, 6],
                      ["expl", "ROOT", "det", "attr", "prep", "pobj", "prep", "pobj"],
                      ["there", "be", "a", "lack", "of", "air", "in", "space"])
    assert negation_scopes(lack_of, use_parse=True) == [[4, 5]]


@pytest.mark.parametrize("answer, states", [
    # "nothing" is the thing denied: the place after it is said ("there is nothing in space"
    # denied space, "nothing between the magnets" the magnets), what it does is denied
    ("there is nothing in space for sound to travel through", {"space": "present"}),
    ("there is nothing between the magnets", {"magnet": "present"}),
    ("nobody near the magnets hears it", {"magnet": "present"}),
    ("nothing vibrates", {"vibrate": "negated"}),
    ("there is nothing to vibrate", {"vibrate": "negated"}),
    ("nothing is vibrating in space", {"vibrate": "negated", "space": "present"}),
])
def test_a_pronoun_that_denies_is_the_thing_denied_not_the_place_after_it(answer, states):
    q = Question(id="space", text="Why can't sound travel through space?",
                 reference_answers=("Space is a vacuum.",),
                 concepts=(Concept("space", ("space",)), Concept("magnet", ("magnet",)),
                           Concept("vibrate", ("vibrate",))))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert {c: row[f"concept:{c}"] for c in states} == states


def test_instead_of_and_rather_than_deny_what_follows():
    # "they repel instead of attracting" said attracting: "instead of" and "rather than" were
    # no negation; a teacher's "repel instead of attract" was also found in its reverse
    q = Question(id="magnets", text="What do two north poles do?", reference_answers=("They repel.",),
                 concepts=(Concept("attract", ("attract",)), Concept("sink", ("sink",)),
                           Concept("float", ("float",))),
                 misconceptions=(Misconception("reversed", ("attract instead of repel",)),))
    answers = ["they repel instead of attracting", "it sinks rather than floats", "instead, they attract",
               "they attract instead of repelling", "I would rather it floats", "the ball fails to float",
               "the float failed"]
    X = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform(answers)
    assert list(X["concept:attract"]) == ["negated", "absent", "present", "present", "absent", "absent", "absent"]
    assert list(X["concept:float"]) == ["absent", "negated", "absent", "absent", "present", "negated", "present"]
    assert list(X["concept:sink"]) == ["absent", "present", "absent", "absent", "absent", "absent", "absent"]
    assert list(X["misconception:reversed"]) == ["absent", "absent", "absent", "present", "absent", "absent",
                                                 "absent"]


def test_instead_of_denies_what_follows_with_a_parser():
    from features.negation import negation_scopes
    doc = _parsed(["they", "repel", "instead", "of", "attracting"], [1, 1, 1, 2, 3],
                  ["nsubj", "ROOT", "advmod", "prep", "pcomp"], ["they", "repel", "instead", "of", "attract"])
    assert negation_scopes(doc, use_parse=True) == [[4]]


@pytest.mark.parametrize("answer, states", [
    # "can't travel in a vacuum" denied the vacuum: after a lexical verb's negation the place
    # is where it does not happen, not what is denied; after a copula the place is denied
    ("sound can't travel in a vacuum", {"travel": "negated", "vacuum": "present"}),
    ("sound does not move in a vacuum", {"vacuum": "present"}),
    ("the bell is not in a vacuum", {"vacuum": "negated"}),
    ("there is no air in a vacuum", {"vacuum": "present"}),
    # "can't get out of the jar" denied the jar: "out of" is a place as "in" is
    ("the sound can't get out of the jar", {"travel": "absent", "vacuum": "absent", "jar": "present"}),
    ("the sound cant escape out of the jar it all stays in", {"jar": "present"}),
    ("there is no air out of the jar", {"jar": "present"}),
    ("the bell is not out of the jar", {"jar": "negated"}),
    ("the sound does not spread out in the jar", {"jar": "present"}),
])
def test_a_place_after_a_lexical_verb_s_negation_is_not_denied(answer, states):
    q = Question(id="bell", text="Why can't you hear a bell in a vacuum?", reference_answers=("Sound needs air.",),
                 concepts=(Concept("travel", ("travel",)), Concept("vacuum", ("vacuum",)), Concept("jar", ("jar",))))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert {c: row[f"concept:{c}"] for c in states} == states


@pytest.mark.parametrize("answer, state", [
    ("not only does the string vibrate but the air moves too", "present"),
    ("the string not only vibrates, it also heats up", "present"),
    ("it is not just the string that vibrates", "present"),
    ("the string does not vibrate", "negated"),
])
def test_not_only_and_not_just_are_no_negation(answer, state):
    # "not only does the string vibrate" denied the vibration it says
    q = Question(id="guitar", text="What happens when a string is plucked?", reference_answers=("It vibrates.",),
                 concepts=(Concept("vibrate", ("vibrate",)),))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]["concept:vibrate"] == state


@pytest.mark.parametrize("answer, states", [
    # "aren't there in space" denied space and said the particles: "X is not there" denies X
    ("the air particles aren't there in space", {"particle": "negated", "space": "present"}),
    ("the air particles arent there in space", {"particle": "negated", "space": "present"}),
    ("the particles are not present in space", {"particle": "negated", "space": "present"}),
    ("the particles are not there.", {"particle": "negated"}),
    # a purpose after "there" is what is denied, not the thing
    ("the particles are not there to carry it", {"particle": "present"}),
    # "there" before the negation is another sentence: "there is no air" denies the air
    ("there are no particles in space", {"particle": "negated", "space": "present"}),
])
def test_a_thing_that_is_not_there_is_denied_not_the_place(answer, states):
    q = Question(id="space", text="Why can't sound travel through space?",
                 reference_answers=("Space is a vacuum.",),
                 concepts=(Concept("space", ("space",)), Concept("particle", ("particles",))))
    row = FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]
    assert {c: row[f"concept:{c}"] for c in states} == states


@pytest.mark.parametrize("answer, state", [
    # one idea said two ways in one denial: "not separated by a gap" says no gap
    ("the magnets are not separated by a gap", "negated"),
    ("the magnets are no longer separated by any gap", "negated"),
    ("they are separated by a gap", "present"),
    # a new clause says it again
    ("they are not touching, there is a gap", "present"),
    ("they are not separated and there is a gap", "present"),
])
def test_a_denial_reaches_the_next_phrase_of_the_same_idea(answer, state):
    q = Question(id="gap", text="Why does the magnet not pull the clip?", reference_answers=("There is a gap.",),
                 concepts=(Concept("gap", ("gap", "separated")),))
    assert FeatureExtractor(q, model=FALLBACK).fit(["x"]).transform([answer]).iloc[0]["concept:gap"] == state


@pytest.mark.parametrize("answer, state", [
    # "it" with a verb of its own starts a sentence run on without a stop
    ("the string cant stay slack it vibrates at a high pitch", "present"),
    ("the drum doesnt move it all vibrates", "present"),
    ("the drum is not loud it is still vibrating", "present"),
    # "it" as the object of "let" or "make" stays in the denial
    ("the cloth does not let it vibrate", "negated"),
    ("it does not vibrate", "negated"),
])
def test_it_with_a_verb_of_its_own_starts_a_new_clause(fx, answer, state):
    assert fx.transform([answer]).iloc[0]["concept:vibrate"] == state


@pytest.mark.parametrize("answer, state", [
    ("the cloth stops the drum skin from vibrating", "negated"),
    ("the hand prevents it from vibrating", "negated"),
    ("the drum stops vibrating", "negated"),
    ("the drum keeps vibrating", "present"),
    ("the drum stops and then vibrates again", "present"),  # "stops" with no verb after it denies nothing
])
def test_what_is_stopped_or_prevented_is_denied(fx, answer, state):
    assert fx.transform([answer]).iloc[0]["concept:vibrate"] == state
