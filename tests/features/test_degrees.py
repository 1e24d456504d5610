"""Words of degree (`features.degrees`): the comparisons an answer makes, read by word order."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.clauses import Words
from features.nlp import FALLBACK
from knowledge.schema import Question

_FX = FeatureExtractor(Question(id="q", text="Explain.", reference_answers=("It is faster.",)), model=FALLBACK).fit(["x"])


def _degrees(text: str) -> list[tuple[str, str, int]]:
    words = Words.of(_FX.read([text])[0])
    return [(" ".join(words.lowers[i:end]), scale, sign) for i, end, scale, sign in words.degrees]


@pytest.mark.parametrize("text, found", [
    ("it vibrates faster", [("faster", "frequency", 1)]),  # how often: a frequency
    ("it vibrates more slowly", [("more slowly", "frequency", -1)]),
    ("sound travels faster in water", [("faster", "fast", 1)]),  # how fast it goes: a speed
    ("it does not vibrate faster", [("faster", "frequency", -1)]),  # denied: the other way
    ("ice is not as dense as water", [("as dense", "dense", -1)]),
    ("a shorter, lighter string", [("shorter", "long", -1), ("lighter", "heavy", -1)]),  # only as comparisons
    ("a short string", []), ("the light is on", []),
    ("a higher pitch and a better conductor", [("higher", "more", 1), ("better", "better", 1)]),
    ("the bulb is less bright", [("less bright", "bright", -1)]),
    ("water and other liquids", []), ("the conductor is a wire", []),
    # "twice as far" is further and "half as far" nearer; "as far as" alone compares nothing
    ("sit twice as far from the pivot", [("twice as far", "near", -1)]),
    ("sit half as far from the pivot", [("half as far", "near", 1)]),
    ("three times as heavy", [("times as heavy", "heavy", 1)]),
    ("as far as the wall", []),
    # "not as far" and "not as fast": the negation turned the word to its opposite and the
    # comparison was lost
    ("he is not as far from the pivot as her", [("as far", "near", 1)]),
    ("sound isnt as fast as light", [("as fast", "fast", -1)]),
])
def test_words_of_degree_and_which_way_they_go(text, found):
    assert _degrees(text) == found
