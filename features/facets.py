"""The parts of the reference answers an answer states or contradicts: `parts_said`,
`part_contradicted`.

Why: a reference answer such as "one terminal of the bulb is connected to one terminal of
the battery, and the other terminal of the bulb to the other terminal" has two parts, and a
teacher checks each: an answer that states one of them is partly right. `coverage` counts
words over the whole reference answer, so half the words of both parts look the same as all
the words of one part.

A reference answer is split into parts at its clause boundaries (punctuation, words such as
"if", "then", "because", "when", and "and" / "or" before a new subject); a part with fewer
than two content words joins the part before it. A part is *stated* when the answer says
more than half of its content words with the same polarity; `parts_said` is the largest
share of one reference answer's parts stated. A part is *contradicted* when the answer says
one of its content words with the other polarity ("not in the same path" against "in the
same path"), or the word's opposite ("different" against "same").
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.language import Language

from .lexicon import is_content
from .negation import ANTONYMS, CLAUSE_BREAKS, NEW_SUBJECT
from .reading import analyse
from .spelling import Speller

PARTS_SAID = "parts_said"
PART_CONTRADICTED = "part_contradicted"
PARTS_SAID_DESCRIPTION = ("share of the parts of a reference answer it states (a part is a clause; "
                          "stated: most of its words, 0-1)")
PART_CONTRADICTED_DESCRIPTION = ("says a word of a reference answer with the opposite meaning "
                                 "(negated, or its opposite)")
MIN_PART_WORDS = 2
_BREAK_PUNCT = frozenset({",", ";", ".", ":", "!", "?"})

Part = dict[str, bool]  # content key -> negated


@dataclass
class ReferenceParts:
    """The parts of each reference answer (a list of parts per reference answer)."""

    answers: list[list[Part]]

    @property
    def counts(self) -> list[int]:
        return [len(parts) for parts in self.answers]


def split_parts(keys: list[str], negated: list[bool]) -> list[Part]:
    """The clauses of one answer read as keys, each as content key -> negated."""
    raw: list[list[tuple[str, bool]]] = [[]]
    for i, key in enumerate(keys):
        next_key = keys[i + 1] if i + 1 < len(keys) else ""
        if key in _BREAK_PUNCT or key in CLAUSE_BREAKS or (key in ("and", "or") and next_key in NEW_SUBJECT):
            if raw[-1]:
                raw.append([])
            continue
        if is_content(key):
            raw[-1].append((key, negated[i]))
    parts: list[list[tuple[str, bool]]] = []
    for words in raw:
        if not words:
            continue
        if parts and (len(words) < MIN_PART_WORDS or len(parts[-1]) < MIN_PART_WORDS):
            parts[-1] = parts[-1] + words
        else:
            parts.append(words)
    out = []
    for words in parts:
        part: Part = {}
        for key, neg in words:
            part[key] = part.get(key, True) and neg
        out.append(part)
    return out


def reference_parts(nlp: Language, reference_answers: list[str], speller: Speller) -> ReferenceParts:
    """Each reference answer read (negated antonyms resolved, as for `ref:*`) and split."""
    answers = []
    for doc in nlp.pipe(list(reference_answers)):
        a = analyse(doc, speller, doc.has_annotation("DEP"))
        answers.append(split_parts(a.text_keys, a.text_negated))
    return ReferenceParts(answers)


def _stated(part: Part, answer: dict[str, bool]) -> bool:
    hit = sum(1 for k, neg in part.items() if k in answer and answer[k] == neg)
    return hit * 2 > len(part)


def _contradicted(part: Part, answer: dict[str, bool]) -> bool:
    for key, neg in part.items():
        if key in answer and answer[key] != neg:
            return True
        opposite = ANTONYMS.get(key)
        if opposite is not None and opposite in answer and answer[opposite] == neg:
            return True
    return False


def part_features(parts: ReferenceParts, answer: dict[str, bool]) -> tuple[float, str]:
    """(parts_said, part_contradicted) of an answer's content keys with polarity."""
    said = 0.0
    contradicted = False
    for answer_parts in parts.answers:
        if answer_parts:
            said = max(said, sum(_stated(p, answer) for p in answer_parts) / len(answer_parts))
            contradicted = contradicted or any(_contradicted(p, answer) for p in answer_parts)
    return said, "yes" if contradicted else "no"
