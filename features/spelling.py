"""Lemmas with misspellings mended: what every matcher of the extractor compares.

Students write "seperated", "termianl", "becuase". A token that is not an English word
(not in the lemma tables of spacy-lookups-data nor a stop word) is compared with
rapidfuzz to the words of the question (rubric phrases, reference answers, learned terms)
and replaced by the closest one's lemma when it is close enough. Results are cached per
distinct token: students repeat the same misspellings, so a batch costs a few hundred
fuzzy look-ups, not one per token. A misspelt negated auxiliary ("dosent", "does'nt") reads
as "not", a negation cue (`negation.MISSPELT_NEGATION`).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from importlib import resources

import spacy_lookups_data
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from knowledge.schema import Question

from .negation import MISSPELT_NEGATION
from .text import normalize

#: Number words as digits, so that "terminal two" matches "terminal 2" ("one" stays: it is
#: mostly a pronoun, "one of the bulbs").
NUMBER_KEYS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split()) if i != 1}
#: Words that say the same, read as one key (general English, no topic's words): of size,
#: speed, sameness, nearness, halving and doubling, and the times sign. A quantity said to be
#: bigger is "more" and one said to be smaller "less", however the answer puts it: "a higher
#: frequency", "a greater frequency", "the frequency increases" and "more frequency"; "a larger
#: moment" and "a bigger moment"; "less force", "a smaller force", "the force is reduced" and
#: "the force decreases", "the shadow grows" and "it lowers the pressure" (keys: "increases"
#: and "rises" by their lemma; "goes up" and "less bright" are read in context,
#: `lexicon.reword_in_context`). "vibrates quicker", "more quickly" and "faster" are
#: one key too, and "the angles are equal" and "the angles are the same", "opposite poles" and
#: "different poles" (whose opposite is "the same poles"); "the mass changes"
#: says it is different (so "does not change" and "no change" say "the same"), and "remains"
#: is "stays". "closer" is "nearer", never the verb "close" (whose opposite is "open"). "the
#: force is halved" is "half
#: the force", "the distance doubles" "twice the distance", "force × distance" "force times
#: distance" (the key of "times" is the lemma "time").
SYNONYM_KEYS = {**{w: "more" for w in ("big", "bigger", "biggest", "large", "larger", "largest", "great",
                                       "greater", "greatest", "high", "increase", "rise", "raise", "grow")},
                **{w: "less" for w in ("small", "low", "lower", "fewer", "decrease", "reduce", "shrink")},
                **{w: "fast" for w in ("quick", "quicker", "quickest", "quickly", "rapid", "rapidly")},
                "slowly": "slow", "equal": "same", "identical": "same", "alike": "same", "change": "different",
                "opposite": "different",
                "remain": "stay",
                "closer": "near", "closest": "near", "halve": "half", "double": "twice", "×": "time"}
#: Prefixes that make another word: a word with one is never a slip for the word without it
#: ("imbalanced" is not a misspelt "balanced", "incomplete" not "complete").
NEGATING_PREFIXES = ("in", "un", "im", "ir", "il", "dis", "non", "mis")
#: Prefixes that deny the word they are put before ("unbalanced", "nonzero"); "in", "im",
#: "dis" are left out: "inside", "impulse", "discharge" are words of their own.
DENYING_PREFIXES = ("non", "un")
#: Words that start like a denial and are not one.
NOT_PREFIXED = frozenset({"unless", "union", "unions", "nonsense", "until", "unto", "under",
                          "unable"})  # "unable" is a negation cue of its own (`negation.CUES`)
#: Endings of nouns made from verbs and adjectives, with what the word has in their place:
#: "vibration" -> "vibrate", "reflection" -> "reflect", "observation" -> "observe", "movement"
#: -> "move", "density" -> "dense", "elasticity" -> "elastic", "conductivity" -> "conduct",
#: "loudness" -> "loud", "conductor" -> "conduct", "insulator" -> "insulate", "difference" ->
#: "different", "resistance" -> "resistant"; and adjectives made from nouns, "wooden" -> "wood",
#: "magnetic" -> "magnet" (each read as itself, found as the other form where the question
#: or the class uses both: on classes written for session 17, a compass question's "the
#: needle is magnetic" and "the needle is a magnet" say one thing).
NOUN_ENDINGS = (("ation", ("ate", "e", "")), ("ion", ("", "e")), ("ment", ("",)), ("ity", ("e", "")),
                ("ivity", ("", "e")), ("ness", ("",)), ("or", ("", "e")), ("ence", ("ent",)),
                ("ance", ("ant",)), ("en", ("",)), ("ic", ("",)))
MIN_FUZZY_LENGTH = 4  # shorter tokens are too ambiguous to correct ("gay" stays "gay")
KNOWN_WORD_CUTOFF = 0.85  # "batter" -> battery: one edit in seven letters


@lru_cache(maxsize=1)
def english_lemmas() -> dict[str, str]:
    """The English lookup table of spacy-lookups-data: word form -> lemma."""
    path = resources.files(spacy_lookups_data) / "data" / "en_lemma_lookup.json.gz"
    with path.open("rb") as fh:
        return json.loads(gzip.decompress(fh.read()))


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Words never corrected: the forms and lemmas of the English lookup table, the
    adjectives and adverbs of its index (words that never change form are in no lookup table:
    "magnetic" was read as a misspelling and mended to "magnet"), stop words. Not the index's
    nouns and verbs: rare ones are common slips ("blub" for "bulb")."""
    table = english_lemmas()
    words = {w.lower() for w in table}
    words.update(v.lower() for v in table.values())
    words.update(w.lower() for w in english_lemma_index("adj", "adv") if w.isalpha())
    words.update(STOP_WORDS)
    return frozenset(words)


@lru_cache(maxsize=1)
def _lemma_index() -> dict[str, list[str]]:
    """The English lemma index of spacy-lookups-data (WordNet 3.0): part of speech -> lemmas."""
    path = resources.files(spacy_lookups_data) / "data" / "en_lemma_index.json.gz"
    with path.open("rb") as fh:
        return json.loads(gzip.decompress(fh.read()))


@lru_cache(maxsize=None)
def english_lemma_index(*parts_of_speech: str) -> frozenset[str]:
    """The lemmas of those parts of speech ("adj", "adv", "noun", "verb") in the English lemma
    index; a lemma of several words joins them with "_"."""
    index = _lemma_index()
    return frozenset(w for pos in parts_of_speech for w in index[pos])


#: Words of the language itself a misspelling is mended to when no word of the question is
#: close: "becuase", "beacuse" -> because, "wich" -> which, "bewtween" -> between. They
#: decide how an answer reads ("because" ends a negation's scope; "between" is a content
#: word) and, left misspelt, they were content words of their own.
FUNCTION_WORDS = tuple(sorted(w for w in STOP_WORDS if len(w) >= 4 and w.isalpha()))


#: Endings spelt as they sound, and as they are written: "vibrashun", "fricshon", "posishun".
_SOUNDED_ENDINGS = (("shuns", "tions"), ("shons", "tions"), ("shun", "tion"), ("shon", "tion"))


def sounded_out(word: str) -> str:
    """A word whose ending is spelt as it sounds, written as English writes it ("vibrashuns" ->
    "vibrations"): too many letters differ for a slip of one or two."""
    for sound, written in _SOUNDED_ENDINGS:
        if word.endswith(sound) and len(word) > len(sound) + 2:
            return word[:-len(sound)] + written
    return word


def cutoff(length: int) -> float:
    """Similarity (0..1) a correction needs: one edit in four letters, two in ten."""
    return 0.75 if length <= 5 else 0.8


class Speller:
    """Maps tokens to lemmas, mending misspellings towards a question's vocabulary."""

    def __init__(self, vocabulary: dict[str, str], label_words: frozenset[str] = frozenset()):
        # vocabulary: surface form or lemma -> lemma, all lower case; kept as the key each
        # word reads as, so that a misspelling mended to "bigger" is "more" as "bigger" is
        self.vocabulary = {w: SYNONYM_KEYS.get(w) or SYNONYM_KEYS.get(lemma, lemma)
                           for w, lemma in _one_spelling(dict(vocabulary)).items()}
        # the words the question puts before a diagram's letters ("magnet" in "magnet A"):
        # a letter after them is a label (`lexicon.is_label`)
        self.label_words = frozenset(label_words)
        self._choices = list(self.vocabulary)
        self._lemmas = set(self.vocabulary.values())
        self._known = english_words()
        self._cache: dict[tuple[str, str], str] = {}

    def norm(self, lower: str, lemma: str) -> str:
        """The lemma to match on for a token (lower-cased text, lemma from the pipeline)."""
        key = (lower, lemma)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._correct(lower, lemma)
            if len(self._cache) < 200_000:
                self._cache[key] = hit
        return hit

    def _correct(self, lower: str, lemma: str) -> str:
        lemma = lemma.lower()
        if MISSPELT_NEGATION.fullmatch(lower):  # "dosent", "does'nt": a negation, no word of its own
            return "not"
        if lower in NUMBER_KEYS:
            return NUMBER_KEYS[lower]
        if lower in SYNONYM_KEYS or lemma in SYNONYM_KEYS:  # "equals" by its lemma
            return SYNONYM_KEYS.get(lower) or SYNONYM_KEYS[lemma]
        if lower in self.vocabulary:
            return self.vocabulary[lower]
        for form in (lower, lemma):  # "center" for the question's "centre", "colors" for "colour"
            other = next((v for v in spelling_variants(form) if v in self.vocabulary), None)
            if other is not None:
                return self.vocabulary[other]
        if len(lower) < MIN_FUZZY_LENGTH or not lower.isalpha() or not self._choices:
            return lemma
        if self._prefixed(lower, NEGATING_PREFIXES) is not None:  # "unbalanced" is no slip for "balanced"
            return lemma
        if lower in self._known:
            # A real word can still be a slip for a question word ("batter" for battery):
            # mended only when long and nearly identical, and to a word with its first letter
            # ("slower" is no slip for "lower", which says the opposite)
            if len(lower) < 6 or lemma in self._lemmas:
                return lemma
            return self._closest(lower, KNOWN_WORD_CUTOFF, same_start=True) or lemma
        sounded = sounded_out(lower)
        if sounded != lower and sounded in self._known:  # "vibrashuns" -> vibrations
            return self.norm(sounded, english_lemmas().get(sounded, sounded))
        return (self._closest(lower, cutoff(len(lower))) or self._inflected(lower)
                or _function_word(lower, cutoff(len(lower))) or lemma)

    def _inflected(self, word: str) -> str | None:
        """The question's word a misspelt inflected form is of: its stem without "ing", "ed", "es"
        or "s" (the first of these it ends with), as a question word with or without a final "e",
        or mended on its own to one with the same first letter ("repeling" -> "repel",
        "attracing" -> "attract", "vibrateing" -> "vibrate"), where the ending's letters made the
        whole word too far from every form the question uses."""
        for ending in ("ing", "ed", "es", "s"):
            stem = word[:-len(ending)]
            if word.endswith(ending) and len(stem) >= 4:
                for form in (stem, stem + "e"):  # "vibrating" is "vibrate" + "ing"
                    if form in self.vocabulary:
                        return self.vocabulary[form]
                return self._closest(stem, cutoff(len(stem)), same_start=True)  # not "demagnetised"
        return None

    def other_form(self, key: str) -> str | None:
        """The verb or adjective a noun is made from, or the noun made from it, when the
        question's words or the class's use that form: "vibration" for "vibrate" where answers
        say "the vibrations", "reflect" for "reflection", "dense" for "density". Only a form the
        vocabulary holds, so that "state" never finds "station" nor "rate" "ration"."""
        if len(key) < 4 or not key.isalpha():
            return None
        for ending, stems in NOUN_ENDINGS:
            if key.endswith(ending) and len(key) - len(ending) >= 3:  # a noun: its verb
                for stem in stems:
                    verb = key[:len(key) - len(ending)] + stem
                    if verb != key and verb in self._lemmas:
                        return verb
        for ending, stems in NOUN_ENDINGS:  # a verb: its noun
            for stem in stems:
                if key.endswith(stem) and len(key) - len(stem) >= 3:
                    noun = key[:len(key) - len(stem)] + ending
                    if noun != key and noun in self._lemmas:
                        return noun
        return None

    def unprefixed(self, key: str) -> str | None:
        """The English word a word denies with its prefix, whether or not the question uses
        it: "unbalanced" -> "balance", "uncharged" -> "charge"; None for any other word
        ("uncle", "universe", "under"). A teacher's "unbalanced" is also found as "not
        balanced" (`concepts.with_other_forms`)."""
        return next((self.norm(rest, english_lemmas().get(rest, rest))
                     for rest in _after_prefix(key, DENYING_PREFIXES, 4) if rest in self._known), None)

    def denied_word(self, key: str) -> str | None:
        """The question's word that a word denies with its prefix: "unbalanced" -> "balance",
        "nonmagnetic" -> "magnetic"; None for any other word, and for one the question itself
        uses ("unbalanced" in a phrase is a word of its own)."""
        if key in self._lemmas:
            return None
        return self._prefixed(key, DENYING_PREFIXES)

    def _prefixed(self, word: str, prefixes: tuple[str, ...]) -> str | None:
        """The question's word (its key) that `word` is with one of the prefixes before it."""
        for rest in _after_prefix(word, prefixes, 3):
            base = self.norm(rest, rest)
            if base in self._lemmas or rest in self.vocabulary:  # "zero" has the key "0"
                return base
        return None

    def _closest(self, word: str, min_similarity: float, same_start: bool = False) -> str | None:
        """The lemma of the closest vocabulary word, by either of two similarities: the
        alignment one (a swapped pair of letters is one edit: "termianl", "becuase") and
        rapidfuzz's ratio (kinder to a changed ending: "seperates" for "separate");
        `same_start`: only a word that starts with the same letter."""
        for scorer, scale in ((OSA.normalized_similarity, 1.0), (fuzz.ratio, 100.0)):
            for choice, score, _ in process.extract(word, self._choices, scorer=scorer, limit=3,
                                                    score_cutoff=min_similarity * scale - 1e-9):
                if same_start and choice[:1] != word[:1]:
                    continue
                if not _adds_prefix(word, choice, score, scorer):
                    return self.vocabulary[choice]
        return None


#: British and American endings of one word: "colour" / "color", "centre" / "center",
#: "magnetise" / "magnetize", "analyse" / "analyze".
_SPELLINGS = (("our", "or"), ("ours", "ors"), ("re", "er"), ("res", "ers"), ("ise", "ize"),
              ("ised", "ized"), ("ises", "izes"), ("ising", "izing"), ("isation", "ization"),
              ("yse", "yze"), ("ysed", "yzed"))


def spelling_variants(word: str) -> list[str]:
    """The word with its British ending written the American way, or back ("colour" ->
    "color", "meter" -> "metre"); short words have none ("four" is no "for")."""
    out = []
    for british, american in _SPELLINGS:
        for ending, other in ((british, american), (american, british)):
            if word.endswith(ending) and len(word) > len(ending) + 2:
                out.append(word[:-len(ending)] + other)
    return out


def _one_spelling(vocabulary: dict[str, str]) -> dict[str, str]:
    """The vocabulary with a word's British and American spellings one key (the
    alphabetically first lemma): the reference's "centre" and the class's "center"."""
    key: dict[str, str] = {}  # lemma -> the key both spellings share
    for word, lemma in vocabulary.items():
        for other in spelling_variants(word):
            if other in vocabulary and vocabulary[other] != lemma:
                key[lemma] = key[vocabulary[other]] = min(lemma, vocabulary[other])
    return {w: key.get(lemma, lemma) for w, lemma in vocabulary.items()}


def _after_prefix(word: str, prefixes: tuple[str, ...], min_rest: int) -> Iterator[str]:
    """What follows each of the prefixes `word` starts with, if it is a word of at least
    `min_rest` letters ("balanced" in "unbalanced"); nothing for a word that only starts like
    a prefix (`NOT_PREFIXED`: "unless", "under")."""
    if not word.startswith(prefixes) or word in NOT_PREFIXED:
        return
    for prefix in prefixes:
        rest = word[len(prefix):]
        if word.startswith(prefix) and len(rest) >= min_rest and rest.isalpha():
            yield rest


def _adds_prefix(word: str, choice: str, score: float, scorer) -> bool:
    """Is `choice` the word with a negating prefix put before it ("unbalanced" for "balanced",
    "balnced")? Then it says the opposite and is no mending of a slip."""
    return any(choice.startswith(p) and not word.startswith(p) and scorer(word, choice[len(p):]) >= score
               for p in NEGATING_PREFIXES)


def _function_word(word: str, min_similarity: float) -> str | None:
    """The function word (`FUNCTION_WORDS`) a misspelling is one slip from, if any: by the
    alignment similarity only, where a swapped pair of letters is one edit ("becuase")."""
    best = process.extractOne(word, FUNCTION_WORDS, scorer=OSA.normalized_similarity,
                              score_cutoff=min_similarity - 1e-9)
    return best[0] if best else None


def question_texts(question: Question) -> list[str]:
    """The texts a question's words are read from: question, reference answers, phrases."""
    return [normalize(t) for t in (question.text, *question.reference_answers,  # as answers are read
                                   *(p for c in question.concepts for p in c.phrases),
                                   *(p for m in question.misconceptions for p in m.phrases))]


def question_vocabulary(docs: Sequence[Doc], extra: Iterable[tuple[str, ...]] = ()) -> dict[str, str]:
    """Words misspellings are mended towards: surface form or lemma -> lemma, from the
    question's texts (`docs`, read once by the extractor, which also finds the diagram's
    label words in them) and the `extra` words (answer words, learned terms) that are English
    or already in the vocabulary."""
    vocab: dict[str, str] = {}
    for doc in docs:
        for tok in doc:
            if tok.is_alpha and len(tok.text) >= 3:
                lemma = tok.lemma_.lower()
                vocab.setdefault(tok.lower_, lemma)
                vocab.setdefault(lemma, lemma)
    known = english_words()
    for keys in extra:
        for k in keys:
            if k.isalpha() and len(k) >= 3 and (k in known or k in vocab):
                vocab.setdefault(k, k)
    return mend_vocabulary(vocab)


def mend_vocabulary(vocabulary: dict[str, str]) -> dict[str, str]:
    """The vocabulary with its own misspellings mended: a word that is not English ("not
    seperated" listed as a phrase, a slip in a reference answer) maps to the lemma of the
    closest English word of the vocabulary, so that listing a misspelling does not make it
    a word of its own and stop "seperated" elsewhere from being read as "separated".
    Only towards a word with the same first letter and not the word without a prefix
    that negates it: "incomplete" (missing from the lookup table) is not "complete"."""
    known = english_words()
    english = {w: lemma for w, lemma in vocabulary.items() if w in known}
    if len(english) == len(vocabulary) or not english:
        return dict(vocabulary)
    out = dict(vocabulary)
    for word, lemma in vocabulary.items():
        if word in known or not word.isalpha() or len(word) < MIN_FUZZY_LENGTH:
            continue
        if any(rest in vocabulary for rest in _after_prefix(word, NEGATING_PREFIXES, 1)):
            continue
        mender = Speller({w: v for w, v in english.items() if w[0] == word[0]})
        if mender._choices:
            out[word] = mender._closest(word, cutoff(len(word))) or lemma
    return out
