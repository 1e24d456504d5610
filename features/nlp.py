"""The one spaCy pipeline the extractor uses.

`en_core_web_sm` (or whatever `GRADER_SPACY_MODEL` / the `model` argument names) when it
is installed: its parser then scopes negation. Otherwise `spacy.blank("en")` with the
lookup lemmatizer of `spacy-lookups-data`, and negation is scoped by rules; this is said
once in a log line.

The blank pipeline lemmatizes lower-cased tokens: students start sentences and names
with capitals ("Terminals", "Bulbs") and the lookup table only knows lower-case forms.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import logging
import os
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

import numpy
import spacy
from spacy.attrs import LEMMA, LOWER
from spacy.errors import Errors
from spacy.language import Language
from spacy.pipeline import Lemmatizer
from spacy.tokens import Doc, Token

log = logging.getLogger(__name__)

DEFAULT_MODEL = "en_core_web_sm"
MODEL_ENV_VAR = "GRADER_SPACY_MODEL"
FALLBACK = "blank"  # model name that asks for the fallback pipeline directly


#: Where the context-free lookup table is wrong for answers ("does" is not a female deer;
#: "ca" and "wo" are what the tokenizer leaves of "can't" and "won't"). The irregular
#: comparisons keep their own word: the table reads "more" as "much" and "better" as "well",
#: two stop words, so "more force" and "a better conductor" lost the word that decides them,
#: and "worse" as "wrong", a word of non-answers. "matter" is not "matt", and "second" is
#: mostly the unit of time ("200 times a second"), which the table read as the number 2.
#: Words as students text them ("cuz", "bcos", "thru") are the words they stand for: "bcos"
#: was an unknown word, so it ended no clause where "because" does.
LEMMA_OVERRIDES = {"does": "do", "ca": "can", "wo": "will", "sha": "shall", "ai": "be",
                   "cos": "because", "coz": "because", "cuz": "because", "bc": "because",
                   "bcos": "because", "bcoz": "because", "bcuz": "because", "becos": "because",
                   "thru": "through", "tho": "though",
                   "us": "we", "lower": "low", "as": "as", "its": "its", "data": "data",
                   "more": "more", "most": "most", "less": "less", "least": "least",
                   "better": "better", "best": "best", "worse": "worse", "worst": "worst",
                   "matter": "matter", "second": "second", "number": "number"}  # not "numb"


class LowercaseLookupLemmatizer(Lemmatizer):
    """spaCy's lookup lemmatizer, looking up the lower-case form of each token.

    The lemma depends on the lower-case form alone, so a doc is lemmatized from its array
    of lower-case forms (`Doc.to_array` / `Doc.from_array`), one look-up per distinct form
    ever seen, instead of a Python `Token` per token: batch grading reads millions of tokens.
    """

    _MAX_CACHED = 500_000  # distinct lower-case forms remembered (memory stays bounded)

    def lookup_lemmatize(self, token: Token) -> list[str]:
        table = self.lookups.get_table("lemma_lookup", {})
        lower = token.lower_
        return [LEMMA_OVERRIDES.get(lower) or table.get(lower, lower)]

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """The docs of `stream` lemmatized a batch at a time (what `nlp.pipe` calls): one
        look-up per distinct lower-case form of the batch, spread back with numpy, instead of
        a dictionary look-up per token. The same lemmas as `__call__` doc by doc."""
        error_handler = self.get_error_handler()
        for docs in spacy.util.minibatch(stream, size=batch_size):
            try:
                self._lemmatize_batch(docs)
            except Exception as e:
                error_handler(self.name, self, docs, e)
            yield from docs

    def _lemmatize_batch(self, docs: list[Doc]) -> None:
        if not self._validated:
            self._validate_tables(Errors.E1004)
        docs = [doc for doc in docs if len(doc)]
        if not docs:
            return
        arrays = [doc.to_array([LOWER, LEMMA]) for doc in docs]
        attrs = numpy.concatenate(arrays)
        lowers, inverse = numpy.unique(attrs[:, 0], return_inverse=True)
        lemma_of = self._lemma_ids(lowers.tolist())
        lemmas = numpy.asarray(lemma_of, dtype=numpy.uint64)[inverse]
        if not self.overwrite:  # keep lemmas set before, as spaCy's does
            lemmas = numpy.where(attrs[:, 1] == 0, lemmas, attrs[:, 1])
        start = 0
        for doc, array in zip(docs, arrays):
            doc.from_array([LEMMA], lemmas[start:start + len(array)])
            start += len(array)

    def _lemma_ids(self, lowers: list[int]) -> list[int]:
        """The lemma's string id of each lower-case form's id (cached, see `_MAX_CACHED`)."""
        cache: dict[int, int] = self.__dict__.setdefault("_lemma_of_lower", {})
        strings = self.vocab.strings
        table = None
        lemmas = []
        for lower in lowers:
            lemma = cache.get(lower)
            if lemma is None:
                if table is None:
                    table = self.lookups.get_table("lemma_lookup", {})
                text = strings[lower]
                lemma = strings.add(LEMMA_OVERRIDES.get(text) or table.get(text, text))
                if len(cache) < self._MAX_CACHED:
                    cache[lower] = lemma
            lemmas.append(lemma)
        return lemmas

    def __call__(self, doc: Doc) -> Doc:
        if not self._validated:
            self._validate_tables(Errors.E1004)
        if not len(doc):
            return doc
        try:
            attrs = doc.to_array([LOWER, LEMMA])
            lowers, before = attrs.T.tolist()
            lemma_array = numpy.asarray(self._lemma_ids(lowers), dtype=numpy.uint64)
            if not self.overwrite and any(before):  # keep lemmas set before, as spaCy's does
                lemma_array = numpy.where(attrs[:, 1] == 0, lemma_array, attrs[:, 1])
            doc.from_array([LEMMA], lemma_array)
            return doc
        except Exception as e:
            self.get_error_handler()(self.name, self, [doc], e)


@Language.factory("lowercase_lookup_lemmatizer", default_config={"overwrite": False})
def make_lowercase_lookup_lemmatizer(nlp: Language, name: str, overwrite: bool) -> Lemmatizer:
    return LowercaseLookupLemmatizer(nlp.vocab, None, name, mode="lookup", overwrite=overwrite)


def has_parser(nlp: Language) -> bool:
    """True when the pipeline parses, so negation can follow the dependency tree."""
    return "parser" in nlp.pipe_names


def model_name(model: str | None = None) -> str:
    """The model asked for: the argument, else `$GRADER_SPACY_MODEL`, else en_core_web_sm."""
    return model or os.environ.get(MODEL_ENV_VAR) or DEFAULT_MODEL


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")


def pipeline_name_problem(name: object) -> str | None:
    """Why `name` may not be passed to `spacy.load`, or None if it may.

    `spacy.load` imports any installed package of that name (and loads any folder given as a
    path), so a model file saying `"model": "streamlit"` would run streamlit's import. Only
    "blank", an installed spaCy pipeline, or a plain name that nothing installed answers to
    (en_core_web_sm where it is not installed: the blank fallback is used) are accepted;
    the check imports nothing.
    """
    if name is None or name == FALLBACK:
        return None
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        return f"{str(name)[:60]!r} is not the name of a spaCy pipeline (like en_core_web_sm) or 'blank'"
    if is_installed_pipeline(name):
        return None
    if importlib.util.find_spec(name) is not None or spacy.util.is_package(name):
        return f"{name!r} is an installed package but not a spaCy pipeline"
    return None


def is_installed_pipeline(name: str) -> bool:
    """Whether `name` is installed as a spaCy pipeline package: registered under spaCy's
    `spacy_models` entry points, or a distribution shipping NAME/meta.json. Imports nothing."""
    if any(ep.name == name for ep in importlib.metadata.entry_points(group="spacy_models")):
        return True
    try:
        files = importlib.metadata.distribution(name).files or []
    except importlib.metadata.PackageNotFoundError:
        return False
    return any(str(f).replace("\\", "/") == f"{name}/meta.json" for f in files)


@lru_cache(maxsize=4)
def load_nlp(model: str | None = None) -> Language:
    """Load (once per model name) the pipeline; fall back to the blank one if it is missing.
    ValueError for a name that is not a spaCy pipeline (see `pipeline_name_problem`)."""
    name = model_name(model)
    problem = pipeline_name_problem(name)
    if problem is not None:
        raise ValueError(f"spaCy model setting: {problem}")
    if name != FALLBACK:
        try:
            if not is_installed_pipeline(name):  # spacy.load only ever sees a pipeline
                raise OSError(f"no spaCy pipeline {name!r} is installed")
            # The extractor needs tokens, lemmas and the parse; NER is dead weight.
            nlp = spacy.load(name, exclude=["ner"])
            split_letter_abbreviations(nlp)
            log.info("features: using spaCy model %s (dependency-based negation scope)", name)
            return nlp
        except (OSError, ImportError) as exc:
            # INFO, not WARNING: the fallback is a supported setup, said with `grader --verbose`
            # rather than before the output of every command
            log.info("features: spaCy model %r is not installed (%s); falling back to "
                        "spacy.blank('en') + lookup lemmatizer and rule-based negation scope",
                        name, type(exc).__name__)
    return _blank_pipeline()


def _blank_pipeline() -> Language:
    nlp = spacy.blank("en")
    split_letter_abbreviations(nlp)
    nlp.add_pipe("lowercase_lookup_lemmatizer", name="lemmatizer")
    nlp.initialize()  # loads the lemma table from spacy-lookups-data
    return nlp


_LETTER_DOT = re.compile(r"[A-Za-z]\.")
#: A full stop after a word of one letter is a suffix of its own ("magnet A." is "A", ".").
LETTER_DOT_SUFFIX = r"(?<=^[A-Za-z])\."


def split_letter_abbreviations(nlp: Language) -> None:
    """Read one letter and a full stop as two tokens, the spaCy way (special cases and
    suffixes): in answers they are labels ending a sentence ("it goes through bulb a.",
    "lever B."), which spaCy keeps whole as abbreviations or initials. Longer
    abbreviations ("e.g.") stay whole."""
    tokenizer = nlp.tokenizer
    rules = tokenizer.rules or {}
    kept = {k: v for k, v in rules.items() if not _LETTER_DOT.fullmatch(k)}
    if len(kept) != len(rules):
        tokenizer.rules = kept  # spaCy reloads its special cases and flushes its cache
    suffixes = [*(nlp.Defaults.suffixes or ()), LETTER_DOT_SUFFIX]
    tokenizer.suffix_search = spacy.util.compile_suffix_regex(suffixes).search
