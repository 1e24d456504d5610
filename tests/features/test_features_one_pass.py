"""Training reads the training answers through spaCy once (issue 17), with the same features
as reading them again for every step."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from features import FeatureExtractor, load_nlp
from features.nlp import FALLBACK
from features.text import normalize
from tests.features.test_features import CIRCUIT

ANSWERS = ["there is a gap between the terminals", "the bulb is not in a closed path",
           "it is not connected", "the bulb uses the current up", "no gap, a closed loop", "idk",
           "the terminal is seperated so no complete circuit", "gap gap gap"] * 3
MARKS = ["1", "1", "0", "0", "0", "0", "1", "1"] * 3


def test_training_pipes_each_answer_once(monkeypatch):
    nlp = load_nlp(FALLBACK)
    seen: Counter = Counter()
    original = nlp.pipe

    def counting(texts, *args, **kwargs):
        texts = list(texts)
        seen.update(texts)
        return original(texts, *args, **kwargs)

    monkeypatch.setattr(nlp, "pipe", counting)
    FeatureExtractor(CIRCUIT, model=FALLBACK).fit_transform(ANSWERS, MARKS)
    per_answer = {a: seen[normalize(a)] for a in set(ANSWERS)}
    assert per_answer == {a: ANSWERS.count(a) for a in set(ANSWERS)}  # once per occurrence


def test_one_pass_gives_the_features_of_reading_the_answers_again():
    once = FeatureExtractor(CIRCUIT, model=FALLBACK).fit_transform(ANSWERS, MARKS)
    again = FeatureExtractor(CIRCUIT, model=FALLBACK).fit(ANSWERS, MARKS)
    expected = again._transform(ANSWERS, MARKS)  # re-pipes the answers
    pd.testing.assert_frame_equal(once, expected)
    assert (once.filter(like="concept:gap") == "present").any().all()
