"""The fit/transform object that turns answers to one question into a feature table.

    fx = FeatureExtractor(question, n_terms=30).fit(train_answers, train_marks)
    X = fx.transform(new_answers)     # one row per answer, columns as in knowledge.schema

`fit` learns the `term:*` features from marked answers (none without marks); the rubric
and reference features need no fitting but are fixed there too, so `transform` computes
the same columns on the training answers and on new ones. Answers are streamed through
`nlp.pipe` in chunks: memory stays flat in the number of answers.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

import numpy as np
import pandas as pd

from knowledge.schema import FeatureSpec, Quantity, Question, feature_name

from .aliases import read_aliases, reference_aliases
from .answer_quantities import answer_quantities
from .compounds import CompoundSplitter
from .concepts import ABSENT, PRESENT, FeatureMatcher, opposite_phrases, phrase_keys, question_symbols, \
    rubric_phrase_keys
from .contrasts import Contrasts
from .descriptions import BASE_COLUMNS, feature_specs, opposite_texts
from .frames import frame_of_arrays
from .lexicon import SAY_NOTHING_ALONE, feature_suffix, is_content, label_words, phrase_text, set_keys
from .nlp import has_parser, load_nlp, pipeline_name_problem
from .nonanswer import is_chatter, is_non_answer
from .question_names import question_names
from .reading import Analysis, analyse_batch
from .real_words import RealWordMender
from .relations import RelationReader, link_keys_of
from .reference import (CoverageSets, RefPhrase, ReferenceModel, build_reference, content_polarity,
                        question_text_keys)
from .reference_quantities import reference_quantities
from .similarity import Exemplars, polarity_keys
from .spelling import Speller, question_texts, question_vocabulary
from .terms import answer_grams, select_terms, written_forms
from .text import is_missing, normalize

FORMAT_VERSION = 1


class NotFittedError(RuntimeError):
    """transform() or the fitted attributes were used before fit()."""


class FeatureExtractor:
    """Features of short answers to one question (see the module docstring).

    Parameters: `n_terms` learned terms at most; `model` the spaCy model name (None: the
    `GRADER_SPACY_MODEL` setting, else en_core_web_sm, else the blank fallback);
    `batch_size` of `nlp.pipe`; `min_term_count`: answers a term must occur in;
    `similarity`: with marks, `similarity:MARK` columns (closeness to the training answers of
    each mark, see `features.similarity`).
    """

    def __init__(self, question: Question, n_terms: int = 30, model: str | None = None,
                 batch_size: int = 256, min_term_count: int = 3, similarity: bool = True,
                 reference_quantities: bool = True):
        problem = pipeline_name_problem(model)  # before anything could import it
        if problem is not None:
            raise ValueError(f"spaCy model: {problem}")
        self.question = question
        self.n_terms = n_terms
        self.model = model
        self.batch_size = batch_size
        self.min_term_count = min_term_count
        self.similarity = similarity
        self.reference_quantities = reference_quantities  # see features.reference_quantities

    # ------------------------------------------------------------------ fitting
    def fit(self, answers: Sequence[Any], marks: Sequence[Hashable] | None = None
            ) -> FeatureExtractor:
        """Fix the features; learn `term:*` from the answers if marks are given."""
        answers = list(answers)
        return self._fit(answers, marks, self._pipe(answers))

    def _pipe(self, answers: Sequence[Any]) -> list:
        """The answers through spaCy, once for all of training: reading them again with a
        speller that learned more words only needs the docs, not a new pass of spaCy."""
        return list(load_nlp(self.model).pipe((normalize(a) for a in answers),
                                              batch_size=self.batch_size))

    def _fit(self, answers: list, marks: Sequence[Hashable] | None, docs: list) -> FeatureExtractor:
        if marks is not None:
            marks = list(marks)
            if len(marks) != len(answers):
                raise ValueError(f"fit: {len(answers)} answers but {len(marks)} marks; "
                                 "give one mark per answer")
        self._setup(extra=self._answer_words(docs))
        self.reference_ = build_reference(self.nlp_, self.question, self.speller_)
        self.terms_: list[RefPhrase] = []
        if marks is not None:  # the marked answers teach terms and similarity
            keep = [i for i, m in enumerate(marks) if not is_missing(m)]
            kept_marks = [marks[i] for i in keep]
        if marks is not None and self.n_terms > 0:
            analysed = list(self._analyse(docs=[docs[i] for i in keep]))
            grams = [answer_grams(a.text_keys, a.text_negated) for a in analysed]
            exclude = {tuple(p.keys[0]) for p in self.reference_.phrases}
            chosen = select_terms(grams, kept_marks, self.n_terms, self.min_term_count,
                                  exclude)
            names = {p.name for p in self.reference_.phrases}
            written = written_forms([(a.text_keys, a.keys, [t.lower_ for t in a.doc]) for a in analysed],
                                    [g for g, _ in chosen])
            self.term_mi_: dict[str, float] = {}  # term name -> MI with the marks (bits)
            for gram, mi in chosen:
                name = feature_suffix(gram)
                if name not in names:  # two grams may give one name ("A", "a")
                    names.add(name)
                    self.terms_.append(RefPhrase(name, [gram], written.get(gram) or phrase_text(gram)))
                    self.term_mi_[name] = mi
            # Misspellings of a learned term are mended towards it from now on.
            extra = self.vocabulary_extra_ + [p.keys[0] for p in self.terms_]
            self._setup(extra=extra)
        self.exemplars_: Exemplars | None = None
        if marks is not None and self.similarity:
            # Read again: the speller now also mends towards the learned terms.
            keys = [self._similarity_keys(a, content_polarity(a.text_keys, a.text_negated))
                    for a in self._analyse(docs=[docs[i] for i in keep])]
            if len(set(kept_marks)) >= 2:
                self.exemplars_ = Exemplars.fit(keys, kept_marks)
        self._build()
        return self

    def fit_transform(self, answers: Sequence[Any], marks: Sequence[Hashable] | None = None
                      ) -> pd.DataFrame:
        """fit, then transform the same answers; a training answer's similarity columns
        leave the answer itself out (see `features.similarity`)."""
        answers = list(answers)
        docs = self._pipe(answers)
        self._fit(answers, marks, docs)
        return self._transform(answers, None if marks is None else list(marks), docs=docs)

    def _answer_words(self, docs: Sequence[Any], min_answers: int = 2
                      ) -> list[tuple[str, ...]]:
        """English words used in at least min_answers training answers: more targets for
        mending misspellings ("seperated" -> "separated" if someone spelled it right)."""
        counts: Counter = Counter()
        for doc in docs:
            counts.update({t.lemma_.lower() for t in doc if t.is_alpha and len(t.text) >= 4})
        return sorted((w,) for w, n in counts.items() if n >= min_answers)

    def _setup(self, extra: Iterable[tuple[str, ...]] = ()) -> None:
        """The pipeline and a speller that mends towards the question's words and `extra`
        (answer words, learned terms), which are kept for saving; the mender of real-word
        slips when the question file lists expected words."""
        self.nlp_ = load_nlp(self.model)
        self.use_parse_ = has_parser(self.nlp_)
        self.vocabulary_extra_ = [tuple(k) for k in extra]
        texts = question_texts(self.question)
        docs = list(self.nlp_.pipe(texts))
        self.speller_ = Speller(question_vocabulary(docs, self.vocabulary_extra_), label_words(docs))
        # "paperclip" read as the question's "paper clip" (`features.compounds`)
        self._compounds = CompoundSplitter.of(docs)
        self._real_words = RealWordMender.of(self.nlp_, self.question.expected_words, texts,
                                             self.speller_)
        # Other names the reference answers give a thing in brackets ("the moment (turning
        # effect)"), read as the thing's (`features.aliases`), in them too
        self._aliases: dict[tuple[str, ...], str] = {}
        reference = list(self._analyse(self.question.reference_answers))
        self._aliases = reference_aliases(reference)
        for a in reference:
            read_aliases(a, self._aliases)
        # What the reference answers say of two things ("metal is a better conductor than
        # wood"), found either way round in an answer (`features.contrasts`)
        self.contrasts_ = Contrasts.of(reference)

    def _build(self) -> None:
        # The question's quantities and those its reference answers give
        self.quantities_: tuple[Quantity, ...] = tuple(self.question.quantities) + (
            reference_quantities(self.question) if self.reference_quantities else ())
        q = dataclasses.replace(self.question, quantities=self.quantities_)
        phrases: dict[str, list[tuple[str, ...]]] = {}
        # A teacher's "denser": "less dense" and "a lower density" say it the other way
        comparatives: dict[str, frozenset[str]] = {}
        said_of: dict[str, frozenset[str]] = {}  # "softer", "it is soft": not found in "soft iron"
        for name, listed in [*((feature_name("concept", c.name), c.phrases) for c in q.concepts),
                             *((feature_name("misconception", m.name), m.phrases) for m in q.misconceptions)]:
            phrases[name], comparatives[name], said_of[name] = rubric_phrase_keys(self.nlp_, listed, self.speller_)
        for p in self.reference_.phrases:
            phrases[feature_name("ref", p.name)] = [tuple(k) for k in p.keys]
        for p in self.terms_:
            phrases[feature_name("term", p.name)] = [tuple(k) for k in p.keys]
        rubric = {k: v for k, v in phrases.items() if k.startswith(("concept:", "misconception:"))}
        self._relations: RelationReader | None = None
        if q.relations:
            concept_keys = {c.name: phrases[feature_name("concept", c.name)] for c in q.concepts}
            links = link_keys_of(q, concept_keys,
                                 lambda texts: phrase_keys(self.nlp_, texts, self.speller_))
            self._relations = RelationReader(self.nlp_, q, concept_keys, links)
        # Words of the teacher's non-answer phrases; columns all of whose phrases are such
        # chatter ("I don't know" listed as a concept) do not make a non-answer an answer.
        self._non_answer_words = frozenset(k for keys in phrase_keys(self.nlp_, q.non_answers,
                                                                     self.speller_)
                                           for k in keys if is_content(k))
        self._question_words = frozenset(self.speller_.vocabulary.values())
        asked, written = question_text_keys(self.nlp_, q, self.speller_)
        self._asked = frozenset(k for k in asked if is_content(k))
        # "soft iron", "a big drum": in an answer, the word of degree names the thing (`question_names`)
        names = self.question_names_ = question_names(asked, written)
        self._chatter_columns = frozenset(
            column for column, keyed in phrases.items()
            if keyed and all(is_chatter(tuple(k for k in keys if is_content(k)),
                                        self._non_answer_words) for keys in keyed))
        # Rubric phrases match the words as written ("not a closed path": closed_path is
        # negated); reference words and terms match them with negated antonyms resolved
        # ("not the same path" says "different path"), see antonyms.resolve_negations.
        self.rubric_matcher_ = FeatureMatcher(self.nlp_, rubric, loose=rubric, comparatives=comparatives,
                                              names=names, said_of=said_of)
        text = {k: v for k, v in phrases.items() if k not in rubric}
        opposites = opposite_phrases(text)
        self.text_matcher_ = FeatureMatcher(self.nlp_, text, opposites)
        # Both in one: for the answers without a negated antonym (most), whose words as
        # written are the words with negations resolved, one pass of a matcher instead of two.
        self.matcher_ = FeatureMatcher(self.nlp_, {**rubric, **text}, opposites,
                                       loose=rubric, comparatives=comparatives, names=names, said_of=said_of)
        self._coverage = CoverageSets.of(self.reference_)  # coverage, precision as set sizes
        # The feature names _row looks up, in column order (worked out once, not per answer).
        self._concept_columns = [feature_name("concept", c.name) for c in q.concepts]
        self._misconception_columns = [feature_name("misconception", m.name) for m in q.misconceptions]
        self._phrase_columns = ([feature_name("ref", p.name) for p in self.reference_.phrases]
                                + [feature_name("term", p.name) for p in self.terms_])
        self._phrase_at = {c: j for j, c in enumerate(self._phrase_columns)}
        assert len(self._phrase_at) == len(self._phrase_columns), "phrase columns are unique"
        self._absent_phrases = [ABSENT] * len(self._phrase_columns)
        self._negative_means = [feature_name("concept", quantity.negative_means)
                                if quantity.negative_means else None for quantity in q.quantities]
        self._symbols = question_symbols(self.nlp_, q)

        self.feature_specs_: list[FeatureSpec] = feature_specs(q, self.reference_.phrases, self.terms_,
                                                               self.exemplars_, self.contrasts_.columns())
        self.descriptions_: dict[str, str] = {s.name: s.description for s in self.feature_specs_}
        own = {feature_name("ref", p.name): p for p in self.reference_.phrases} | {
            feature_name("term", p.name): p for p in self.terms_}
        self.opposites_: dict[str, str] = opposite_texts(opposites, self.descriptions_, own) | {
            feature_name("ref", name): other for name, _, other in self.contrasts_.columns()}
        self._columns = [s.name for s in self.feature_specs_]
        self._numeric = {s.name for s in self.feature_specs_ if s.kind == "numeric"}

    def question_restatements(self) -> frozenset[str]:
        """The `ref:*` and `term:*` features whose words are all words of the question itself
        or words that say nothing on their own (`lexicon.SAY_NOTHING_ALONE`: "than"): saying
        them restates the question, which is no reason for a mark."""
        self._check_fitted()
        return frozenset(feature_name(family, p.name)
                         for family, phrases in (("ref", self.reference_.phrases), ("term", self.terms_))
                         for p in phrases
                         if p.keys and all(k in self._asked or k in SAY_NOTHING_ALONE for k in p.keys[0]))

    # ------------------------------------------------------------------ transforming
    def _check_fitted(self) -> None:
        if not hasattr(self, "feature_specs_"):
            raise NotFittedError("this FeatureExtractor is not fitted yet: call fit(answers, "
                                 "marks) (marks may be None) before transform()")

    def _analyse(self, answers: Iterable[Any] = (), docs: Iterable[Any] | None = None
                 ) -> Iterator[Analysis]:
        """Each answer's doc, keys and negation, streamed through nlp.pipe (or read from
        the `docs` spaCy already made of them)."""
        size = max(1, self.batch_size)  # the tokens of a batch of docs are read at once
        if docs is not None:
            docs = iter(docs)
            while batch := list(islice(docs, size)):
                self._split_compounds(batch)
                yield from self._mended(analyse_batch(batch, self.speller_, self.use_parse_))
            return
        texts = ((t, t) for t in map(normalize, answers))
        piped = self.nlp_.pipe(texts, batch_size=self.batch_size, as_tuples=True)
        while batch := list(islice(piped, size)):
            self._split_compounds([d for d, _ in batch])
            yield from self._mended(analyse_batch([d for d, _ in batch], self.speller_,
                                                  self.use_parse_, [t for _, t in batch]))

    def _split_compounds(self, docs: list) -> None:
        if self._compounds is not None:  # None: the question writes no two words that join
            self._compounds.split(docs)

    def _mended(self, analyses: list[Analysis]) -> list[Analysis]:
        """The analyses with real-word slips read as the expected words (`real_words`) and
        the reference's other names of a thing as the thing (`aliases`)."""
        if self._real_words is not None:
            for a in analyses:
                self._real_words.mend(a.keys)
                if a.text_keys is not a.keys:
                    self._real_words.mend(a.text_keys)
        if self._aliases:
            for a in analyses:
                read_aliases(a, self._aliases)
        return analyses

    def read(self, answers: Iterable[Any]) -> list[Analysis]:
        """Each answer as the rubric reads it (words mended, negations marked), for tools that
        look at the words themselves (`grader suggest-rubric`)."""
        self._check_fitted()
        return list(self._analyse(answers))

    def transform(self, answers: Iterable[Any]) -> pd.DataFrame:
        """One row per answer, in order, with the columns of `feature_specs_`."""
        self._check_fitted()
        return self._transform(answers)

    def _transform(self, answers: Iterable[Any], own_marks: list | None = None,
                   docs: list | None = None) -> pd.DataFrame:
        rows, keys = [], []
        for a in self._analyse(answers, docs):
            polarity = content_polarity(a.text_keys, a.text_negated)
            compared = self.contrasts_.states(a)
            rows.append(self._row(a, polarity, compared))
            keys.append(self._similarity_keys(a, polarity, compared))
        if self.exemplars_ is not None:
            own = None if own_marks is None else list(zip(own_marks, keys))
            sims = self.exemplars_.similarity(keys, own).tolist()
            n_base = len(BASE_COLUMNS)
            rows = [r[:-n_base] + s + r[-n_base:] for r, s in zip(rows, sims)]
        return self._frame(rows)

    def transform_chunks(self, answers: Iterable[Any], chunk_size: int = 1000
                         ) -> Iterator[pd.DataFrame]:
        """The rows of `transform` in DataFrames of chunk_size rows (RangeIndex each)."""
        self._check_fitted()
        it = iter(answers)
        while chunk := list(islice(it, chunk_size)):
            yield self.transform(chunk)

    def _similarity_keys(self, a: Analysis, polarity: dict[str, bool],
                         compared: list[str] | None = None) -> frozenset[str]:
        """What an answer says, for its similarity to the marked answers: its content keys
        with their polarity and the reference's contrasts it makes, either way round (so
        that "wood conducts heat better" is not as close to "metal conducts heat better than
        wood" as its words alone are). `compared`: its `Contrasts.states`, if known."""
        keys = polarity_keys(polarity)
        if not self.contrasts_:
            return keys
        return keys | self.contrasts_.keys(self.contrasts_.states(a) if compared is None else compared)

    def _row(self, a: Analysis, polarity: dict[str, bool], compared: list[str] | None = None) -> list[Any]:
        """The row of one answer, before the similarity columns; `polarity`: its
        `content_polarity`, and `compared`: its `Contrasts.states` (worked out if not
        given), which the caller also needs."""
        doc = a.doc
        set_keys(doc, a.keys, a.norms)
        related = self._relations.states(doc, a.keys, a.negated) if self._relations else {}
        if a.text_keys == a.keys and a.text_negated == a.negated:  # no antonym resolved
            found = self.matcher_.states(doc, a.negated, a.keys, a.prefixed)
        else:
            found = self.rubric_matcher_.states(doc, a.negated, a.keys, a.prefixed)
            set_keys(doc, a.text_keys, a.norms)
            found.update(self.text_matcher_.states(doc, a.text_negated, a.text_keys))
        verdicts = answer_quantities(a, self.quantities_) if self.quantities_ else []
        for concept, verdict in zip(self._negative_means, verdicts):
            # "-9.8 m/s^2" with up positive says "downward"
            if concept and verdict.value < 0 and found.get(concept, ABSENT) == ABSENT:
                found[concept] = PRESENT
        get = found.get
        row: list[Any] = [get(c, ABSENT) for c in self._concept_columns]
        for verdict in verdicts:
            row += [verdict.status, verdict.value]
        row += [PRESENT if get(c) == PRESENT else ABSENT for c in self._misconception_columns]
        if self._relations:
            row += [related.get(c, ABSENT) for c in self._relations.columns]
        # The ~40 reference and term columns: absent but for the few the answer mentions.
        phrases = self._absent_phrases.copy()
        at = self._phrase_at
        for column, state in found.items():
            j = at.get(column)
            if j is not None:
                phrases[j] = state
        row += phrases
        row += self.contrasts_.states(a) if compared is None else compared
        coverage, precision = self._coverage(polarity)
        chatter = self._chatter_columns
        non_answer = is_non_answer(a.text, polarity,
                                   any(not c.startswith("term:") and c not in chatter
                                       for c in found)
                                   or not self._symbols.isdisjoint(k.lower() for k in a.keys),
                                   self._non_answer_words, self._question_words, self._asked)
        row += [coverage, precision, float(a.words), "yes" if non_answer else "no"]
        return row

    def _frame(self, rows: list[list[Any]]) -> pd.DataFrame:
        columns = list(zip(*rows)) if rows else [()] * len(self._columns)
        # dtype=object explicitly: pandas >= 3 would otherwise infer its `str` dtype.
        return frame_of_arrays([np.array(values, dtype=float if name in self._numeric else object)
                                for name, values in zip(self._columns, columns)], self._columns)

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild the fitted extractor, as JSON-able data."""
        self._check_fitted()
        return {
            "format": "physics-grader feature extractor",
            "version": FORMAT_VERSION,
            "question_id": self.question.id,
            "params": {"n_terms": self.n_terms, "model": self.model,
                       "batch_size": self.batch_size, "min_term_count": self.min_term_count,
                       "similarity": self.similarity, "reference_quantities": self.reference_quantities},
            "reference": [_phrase_dict(p) for p in self.reference_.phrases],
            "reference_polarities": [dict(p) for p in self.reference_.polarities],
            "terms": [_phrase_dict(p) for p in self.terms_],
            "vocabulary_extra": [list(k) for k in self.vocabulary_extra_],
            "exemplars": None if self.exemplars_ is None else self.exemplars_.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], question: Question) -> FeatureExtractor:
        """Rebuild an extractor saved with `to_dict` for the same question."""
        if not isinstance(d, dict) or d.get("version") != FORMAT_VERSION:
            raise ValueError("not a saved feature extractor of version "
                             f"{FORMAT_VERSION}: {str(d)[:80]!r}")
        if d.get("question_id") != question.id:
            raise ValueError(f"the saved extractor is for question {d.get('question_id')!r}, "
                             f"not {question.id!r}")
        # files written before the reference answers' values were read kept them as words
        fx = cls(question, **{"reference_quantities": False, **d["params"]})
        terms = [_phrase_from(p) for p in d["terms"]]
        fx._setup(extra=d["vocabulary_extra"])
        fx.reference_ = ReferenceModel([_phrase_from(p) for p in d["reference"]],
                                       [dict(p) for p in d["reference_polarities"]])
        fx.terms_ = terms
        saved = d.get("exemplars")  # absent in files written before similarity features
        fx.exemplars_ = None if saved is None else Exemplars.from_dict(saved)
        fx._build()
        return fx


def transform_stream(fx: FeatureExtractor, answers: Iterable[Any], chunk_size: int = 1000
                     ) -> Iterator[pd.DataFrame]:
    """Features of a long stream of answers, chunk by chunk (batch grading of exports)."""
    return fx.transform_chunks(answers, chunk_size)


def _phrase_dict(p: RefPhrase) -> dict[str, Any]:
    return {"name": p.name, "keys": [list(k) for k in p.keys], "text": p.text}


def _phrase_from(d: dict[str, Any]) -> RefPhrase:
    return RefPhrase(d["name"], [tuple(k) for k in d["keys"]], d["text"])
