"""Which of a concept's or wrong idea's phrases find an answer: a teacher whose wrong idea is
found in answers they gave full marks sees the phrase that finds more than they meant
("bigger" in "the distance to the food is bigger"; `grader test-rubric`, the rubric editor)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .concepts import PRESENT, FeatureMatcher, rubric_phrase_keys
from .extractor import FeatureExtractor
from .lexicon import set_keys


def phrases_found(fx: FeatureExtractor, phrases: Sequence[str], answers: Iterable[Any]) -> list[list[str]]:
    """For each answer, the phrases that find it on their own, each read as the fitted
    extractor reads the rubric's phrases (in any word order, mended, with the question's
    names); an answer the phrases find only together gets none."""
    listed = list(dict.fromkeys(phrases))
    keyed = {str(i): rubric_phrase_keys(fx.nlp_, [p], fx.speller_) for i, p in enumerate(listed)}
    columns = {c: keys for c, (keys, _, _) in keyed.items()}
    matcher = FeatureMatcher(fx.nlp_, columns, loose=columns, names=fx.question_names_,
                             comparatives={c: compared for c, (_, compared, _) in keyed.items()},
                             said_of={c: said for c, (_, _, said) in keyed.items()})
    out = []
    for a in fx.read(answers):
        set_keys(a.doc, a.keys, a.norms)
        found = matcher.states(a.doc, a.negated, a.keys, a.prefixed)
        out.append([p for c, p in zip(columns, listed) if found.get(c) == PRESENT])
    return out
