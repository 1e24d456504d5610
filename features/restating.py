"""Does an answer only restate the question? The `question_only` feature.

Why: "bulb A was on" to "why was bulb A on?" repeats the question and explains nothing. Its
words are the question's, so the learned terms and the reference words can make it look
like a good answer when the question and the reference answer share words ("bulb A"). The
feature is the share of the answer's content words that come from the question and from no
reference answer: 1 when the answer only repeats the question, 0 when every word it says is
new or from a reference answer. Nothing here is about a subject: the question's own words
decide.
"""

from __future__ import annotations

from collections.abc import Iterable

from spacy.language import Language

from .lexicon import is_content
from .reading import analyse
from .spelling import Speller

NAME = "question_only"
DESCRIPTION = ("share of its content words that come from the question and from no reference "
               "answer (1: it only repeats the question, 0-1)")


def question_only_keys(nlp: Language, question_text: str, reference_keys: Iterable[str],
                       speller: Speller) -> frozenset[str]:
    """The content words (keys) of the question that no reference answer uses."""
    doc = nlp(question_text)
    a = analyse(doc, speller, doc.has_annotation("DEP"))
    return frozenset(k for k in a.text_keys if is_content(k)) - set(reference_keys)


def question_only_share(answer_keys: Iterable[str], question_only: frozenset[str]) -> float:
    """Share of the answer's content keys that are question-only words (0 for no content)."""
    keys = list(answer_keys)
    if not keys:
        return 0.0
    return sum(1 for k in keys if k in question_only) / len(keys)
