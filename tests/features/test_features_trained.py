"""The extractor on a trained spaCy pipeline, whose parse scopes negation.

en_core_web_sm cannot be installed on every machine (nor on the one this project is
developed on), so these tests run whenever it can be imported.
"""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm", reason="the trained pipeline en_core_web_sm is not installed")

from features import FeatureExtractor, load_nlp  # noqa: E402
from features.negation import negated_tokens  # noqa: E402
from knowledge.schema import Concept, Question  # noqa: E402

Q = Question(
    id="gap", text="Why?", reference_answers=("There is a gap between the terminals.",),
    concepts=(Concept("gap", ("gap", "separated")), Concept("connected", ("connect", "touch")),
              Concept("closed_path", ("closed path",)), Concept("battery", ("battery",))),
)


def test_the_trained_pipeline_is_used_and_parses():
    nlp = load_nlp("en_core_web_sm")
    assert "parser" in nlp.pipe_names


@pytest.mark.parametrize("answer, concept, state", [
    ("Terminal 2 is not connected to the battery.", "connected", "negated"),
    ("The bulb isn't in a closed path.", "closed_path", "negated"),
    ("There is no gap between the terminals.", "gap", "negated"),
    ("The wire never touches the battery.", "connected", "negated"),
    ("It is connected, so there is no gap.", "connected", "present"),
    ("It is not connected, so there is a gap.", "gap", "present"),
    ("The terminal is not connected to the battery.", "battery", "present"),
])
def test_negation_follows_the_parse(answer, concept, state):
    fx = FeatureExtractor(Q, model="en_core_web_sm").fit([answer])
    assert fx.transform([answer]).iloc[0][f"concept:{concept}"] == state


def test_the_subject_of_a_negated_verb_is_not_negated():
    doc = load_nlp("en_core_web_sm")("The gap is not closed.")
    flags = negated_tokens(doc)
    assert not flags[1] and flags[4]
