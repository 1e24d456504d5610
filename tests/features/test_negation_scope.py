"""How far a negation reaches on the fallback pipeline (no parser), issue 31: the ideas
it denies and where it stops. Sentences written for these tests, on levers, sound and
magnets."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from knowledge.schema import Concept, Question

Q = Question(
    id="mixed", text="Explain what you see.",
    reference_answers=("The load is balanced and the magnets attract.",),
    concepts=(Concept("balanced", ("balanced", "in balance")),
              Concept("gap", ("gap",)), Concept("separated", ("separated",)),
              Concept("closed_loop", ("closed loop",)), Concept("touching", ("touching",)),
              Concept("pitch", ("pitch",)), Concept("vibrate", ("vibrate",)),
              Concept("magnet", ("magnet",))))


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
    ("it does not touch the magnet and the coil", {"touching": "negated"}),
])
def test_negation_reaches_what_it_denies_and_stops_at_the_clause(fx, answer, states):
    row = fx.transform([answer]).iloc[0]
    assert {c: row[f"concept:{c}"] for c in states} == states
