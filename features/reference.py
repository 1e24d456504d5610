"""Features from the reference answers alone: useful before any rubric is written.

The content words of the reference answers and the pairs of content words side by side
("positive terminal", "closed path"), across an article ("lifts a load") or across a
preposition ("close to the rock", "reflects off the walls") become `ref:*` phrases, matched
like rubric concepts (lemmas, mended misspellings, negation scope). A rubric concept that
lists a reference word among its phrases lends that word its synonyms. Antonyms count as
negations: with the reference "in the same path", "a different path" and "not the same
path" both make `ref:same_path` negated (and `ref:same` too).

`coverage` is the share of a reference answer's content words that the answer says with
the same polarity (the best reference answer counts); `precision` the share of the
answer's content words that some reference answer says with that polarity. Polarity
matters: "A and B are in the same path" covers little of "A and B are not in the same
path".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.language import Language

from knowledge.schema import Question

from .concepts import phrase_keys, with_other_forms
from .lexicon import feature_suffix, flips_next, is_content
from .reading import analyse
from .spelling import Speller
from .text import normalize

MAX_REF_PHRASES = 60


@dataclass
class RefPhrase:
    """One `ref:*` feature: its name, the phrases that express it, readable text."""

    name: str
    keys: list[tuple[str, ...]]
    text: str


@dataclass
class ReferenceModel:
    """What the extractor keeps of the reference answers."""

    phrases: list[RefPhrase] = field(default_factory=list)
    # For each reference answer: its content keys with polarity (True = negated there).
    polarities: list[dict[str, bool]] = field(default_factory=list)

    @property
    def union(self) -> dict[str, set[bool]]:
        out: dict[str, set[bool]] = {}
        for pol in self.polarities:
            for k, neg in pol.items():
                out.setdefault(k, set()).add(neg)
        return out


def content_polarity(keys: list[str], negated: list[bool]) -> dict[str, bool]:
    """Content key -> negated? A key said at least once outside negation is not negated."""
    out: dict[str, bool] = {}
    for key, neg in zip(keys, negated):
        if is_content(key):
            out[key] = out.get(key, True) and neg
    return out


#: Words a reference word pair is also found with between its words.
ARTICLES = ("the", "a", "an")
#: Comparisons a reference's pair puts before a noun ("a bigger moment"), also found after it
#: ("the moment is bigger", "the frequency increases", "the pitch gets higher").
COMPARED = frozenset({"more", "less"})
PREDICATE_VERBS = ((), ("be",), ("get",), ("become",))


def spaced_variants(gram: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A reference pair's words as answers also put them, with no word of their own: an
    article between ("increase the current" for "more current"), a comparison after its
    noun ("the moment is bigger" for "a bigger moment") and a word said of the second after
    a form of "be", "get" or "become" ("the path is closed" for "a closed path", "the bulb is
    connected" for "connect the bulb"). With a "not" between, the pair is not found: its
    phrase would hold the negation, and so be said, where the answer denies it."""
    if len(gram) != 2:
        return []
    out = [(gram[0], article, gram[1]) for article in ARTICLES]
    # with no verb between ("the moment bigger") only for a comparison
    return out + [(gram[1], *verb, gram[0]) for verb in PREDICATE_VERBS if verb or gram[0] in COMPARED]


#: Prepositions a reference pair is found across ("close to the rock", "reflects off the walls").
PAIR_PREPOSITIONS = frozenset({"to", "from", "of", "off", "at", "by", "in", "on", "into", "onto", "through",
                               "with", "between", "across", "towards", "toward", "under", "over", "behind",
                               "above", "below", "inside", "around", "along"})
#: "to" and "from" say one relation after a word of place or measure ("close to", "far from",
#: "the distance from/to the nut"), unless the reference gives a path from one thing to another.
_TO_FROM = ("to", "from")


def _preposition_variants(first: str, preposition: str, second: str, around: list[str]) -> list[tuple[str, ...]]:
    """The ways a reference pair across a preposition is found: with the preposition, with
    or without an article, and "to"/"from" either way unless the words `around` it give a
    path ("from the cloth to the rod")."""
    said = [preposition]
    if preposition in _TO_FROM and not set(_TO_FROM) <= set(around):
        said = list(_TO_FROM)
    elif preposition in ("into", "onto"):
        said = [preposition, "to"]
    return [(first, p, *article, second) for p in said for article in ((), *((a,) for a in ARTICLES))]


def build_reference(nlp: Language, question: Question, speller: Speller) -> ReferenceModel:
    model = ReferenceModel()
    seen: dict[str, RefPhrase] = {}
    synonyms = _concept_synonyms(nlp, question, speller)
    for doc in nlp.pipe([normalize(r) for r in question.reference_answers]):  # as answers are read
        a = analyse(doc, speller, doc.has_annotation("DEP"))
        keys, negated = a.text_keys, a.text_negated
        model.polarities.append(content_polarity(keys, negated))
        content = [is_content(k) for k in keys]
        grams: list[tuple[tuple[str, ...], str]] = []
        # Readable text: the words as written, unless a negated antonym was resolved; a word
        # read as its opposite with the word that makes it so ("less bright" for "dim")
        word = [doc[i].text if keys[i] == a.keys[i] else keys[i] for i in range(len(keys))]
        shown = [f"{doc[i - 1].text} {word[i]}"
                 if i and keys[i] == a.keys[i] and flips_next(doc[i - 1].lower_, keys[i]) else word[i]
                 for i in range(len(keys))]
        for i, key in enumerate(keys):
            if content[i]:
                grams.append(((key,), shown[i]))
        across: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for i in range(len(keys) - 1):
            if content[i] and content[i + 1]:
                grams.append(((keys[i], keys[i + 1]), f"{shown[i]} {word[i + 1]}"))
            elif content[i] and keys[i + 1] in ARTICLES and i + 2 < len(keys) and content[i + 2]:
                grams.append(((keys[i], keys[i + 2]), f"{shown[i]} {shown[i + 1]} {shown[i + 2]}"))
            elif content[i] and keys[i + 1] in PAIR_PREPOSITIONS:
                j = i + 3 if i + 2 < len(keys) and keys[i + 2] in ARTICLES else i + 2
                if j < len(keys) and content[j] and (keys[i], keys[j]) not in across:
                    gram = (keys[i], keys[j])
                    grams.append((gram, " ".join(shown[i:j + 1])))
                    across[gram] = _preposition_variants(keys[i], keys[i + 1], keys[j],
                                                         keys[max(0, i - 3):j + 4])
        for gram, text in grams:
            name = feature_suffix(gram)
            if gram in across:
                keyed = with_other_forms(across[gram][:1], speller) + across[gram][1:]
            else:
                keyed = with_other_forms([gram, *synonyms.get(gram, [])], speller)
                keyed += spaced_variants(gram)
            if name in seen:  # "near the rock" and "close to the rock": one pair
                seen[name].keys += [k for k in keyed if k not in seen[name].keys]
                continue
            phrase = RefPhrase(name, keyed, text.lower())
            seen[name] = phrase
            model.phrases.append(phrase)
    model.phrases = model.phrases[:MAX_REF_PHRASES]
    return model


def question_keys(nlp: Language, question: Question, speller: Speller) -> frozenset[str]:
    """The content keys of the question's own text, read as an answer is: a phrase made only of
    them restates the question ("mentions 'switch'" for a question about a switch)."""
    return frozenset(k for k in question_text_keys(nlp, question, speller)[0] if is_content(k))


def question_text_keys(nlp: Language, question: Question, speller: Speller) -> tuple[list[str], list[str]]:
    """The keys of the question's own text, in order, read as an answer is, and its words
    as written (lower case), one per key."""
    if not question.text.strip():
        return [], []
    doc = nlp(normalize(question.text))
    return analyse(doc, speller, doc.has_annotation("DEP")).text_keys, [t.lower_ for t in doc]


def _concept_synonyms(nlp: Language, question: Question, speller: Speller
                      ) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    out: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for concept in question.concepts:
        keyed = phrase_keys(nlp, concept.phrases, speller)
        for keys in keyed:
            out.setdefault(keys, []).extend(k for k in keyed if k != keys)
    return out


@dataclass(frozen=True)
class CoverageSets:
    """An answer's coverage and precision (see module doc) from set intersections: each
    reference answer's (key, negated?) pairs and the pairs some reference answer says, worked
    out once per extractor, so that an answer's figures are counted in C (the sizes of two
    intersections) rather than key by key in Python (tests/features/test_fast_paths.py counts
    them key by key)."""

    references: tuple[tuple[frozenset[tuple[str, bool]], int], ...]  # (pairs, how many), non-empty ones
    said: frozenset[tuple[str, bool]]  # the pairs of `ReferenceModel.union`

    @classmethod
    def of(cls, model: ReferenceModel) -> CoverageSets:
        return cls(tuple((frozenset(p.items()), len(p)) for p in model.polarities if p),
                   frozenset((k, neg) for k, negs in model.union.items() for neg in negs))

    def __call__(self, answer: dict[str, bool]) -> tuple[float, float]:
        """(coverage, precision) of an answer's content keys with polarity."""
        items = answer.items()
        coverage = 0.0
        for pairs, n in self.references:
            coverage = max(coverage, len(items & pairs) / n)
        if not answer:
            return coverage, 0.0
        return coverage, len(items & self.said) / len(answer)
