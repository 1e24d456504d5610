"""Two words of the question written as one: "paperclip" for the question's "paper clip",
"soundwaves" for "sound waves".

Why: a student who joins the two words says what the question's words say, yet the joined
word is no word of the question, matches none of its phrases and is mended to neither half
("the paperclip is magnetic" did not say the reference's "paper clip"). Only pairs the
question's own texts (question, reference answers, the rubric's phrases) write side by side
are split, two words that are no stop words ("in" "to" is "into"), and never a word the
question itself writes, so nothing here knows a topic. The split is spaCy's (`Doc.retokenize`), on the docs the
pipeline made, before they are read: every later reading sees two tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spacy.attrs import LOWER
from spacy.strings import hash_string
from spacy.tokens import Doc

MIN_PART = 3  # letters of each word of a pair: "a" "bulb" is no compound
MIN_JOINED = 6


@dataclass(frozen=True)
class CompoundSplitter:
    """Joined forms (lower case) -> (the length of the first word, the two lemmas)."""

    parts: dict[str, tuple[int, tuple[str, str]]]
    ids: frozenset[int]  # the joined forms' hashes in spaCy's string store (`LOWER`)

    @classmethod
    def of(cls, docs: Sequence[Doc]) -> CompoundSplitter | None:
        """The splitter for the adjacent word pairs of the question's texts (`docs`), or None
        if no pair joins into a word they do not write themselves."""
        known = {t.lower_ for doc in docs for t in doc} | {t.lemma_.lower() for doc in docs for t in doc}
        parts: dict[str, tuple[int, tuple[str, str]]] = {}
        for doc in docs:
            for a, b in zip(doc, doc[1:]):
                if not (a.is_alpha and b.is_alpha and len(a) >= MIN_PART and len(b) >= MIN_PART
                        and a.whitespace_ and not a.is_stop and not b.is_stop):
                    continue
                first, lemmas = a.lower_, (a.lemma_.lower(), b.lemma_.lower())
                for second in {b.lower_, lemmas[1], lemmas[1] + "s"}:  # "paperclip(s)", "soundwave(s)"
                    joined = first + second
                    if len(joined) >= MIN_JOINED and joined not in known:
                        parts.setdefault(joined, (len(first), lemmas))
        if not parts:
            return None
        return cls(parts, frozenset(hash_string(w) for w in parts))

    def split(self, docs: Sequence[Doc]) -> None:
        """Split the joined forms in these docs into the question's two words, in place."""
        for doc in docs:
            if self.ids.isdisjoint(doc.to_array(LOWER).tolist()):
                continue  # most answers: one look at the token array, no Token objects
            found = [(t, self.parts[t.lower_]) for t in doc if t.lower_ in self.parts]
            if not found:
                continue
            with doc.retokenize() as retokenizer:
                for token, (cut, lemmas) in found:
                    text = token.text
                    retokenizer.split(token, [text[:cut], text[cut:]], heads=[(token, 1), token.head],
                                      attrs={"LEMMA": list(lemmas)})
