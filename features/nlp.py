"""The one spaCy pipeline the extractor uses.

`en_core_web_sm` (or whatever `GRADER_SPACY_MODEL` / the `model` argument names) when it
is installed: its parser then scopes negation. Otherwise `spacy.blank("en")` with the
lookup lemmatizer of `spacy-lookups-data`, and negation is scoped by rules; this is said
once in a log line.

The blank pipeline lemmatizes lower-cased tokens: students start sentences and names
with capitals ("Terminals", "Bulbs") and the lookup table only knows lower-case forms.
"""

from __future__ import annotations

import logging
import os
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.pipeline import Lemmatizer
from spacy.tokens import Token

log = logging.getLogger(__name__)

DEFAULT_MODEL = "en_core_web_sm"
MODEL_ENV_VAR = "GRADER_SPACY_MODEL"
FALLBACK = "blank"  # model name that asks for the fallback pipeline directly


#: Where the context-free lookup table is wrong for answers ("does" is not a female deer;
#: "ca" and "wo" are what the tokenizer leaves of "can't" and "won't").
LEMMA_OVERRIDES = {"does": "do", "ca": "can", "wo": "will", "sha": "shall", "ai": "be",
                   "cos": "because", "coz": "because", "cuz": "because", "bc": "because",
                   "us": "we", "lower": "low", "as": "as", "its": "its", "data": "data"}


class LowercaseLookupLemmatizer(Lemmatizer):
    """spaCy's lookup lemmatizer, looking up the lower-case form of each token."""

    def lookup_lemmatize(self, token: Token) -> list[str]:
        table = self.lookups.get_table("lemma_lookup", {})
        lower = token.lower_
        return [LEMMA_OVERRIDES.get(lower) or table.get(lower, lower)]


@Language.factory("lowercase_lookup_lemmatizer", default_config={"overwrite": False})
def make_lowercase_lookup_lemmatizer(nlp: Language, name: str, overwrite: bool) -> Lemmatizer:
    return LowercaseLookupLemmatizer(nlp.vocab, None, name, mode="lookup", overwrite=overwrite)


def has_parser(nlp: Language) -> bool:
    """True when the pipeline parses, so negation can follow the dependency tree."""
    return "parser" in nlp.pipe_names


def model_name(model: str | None = None) -> str:
    """The model asked for: the argument, else `$GRADER_SPACY_MODEL`, else en_core_web_sm."""
    return model or os.environ.get(MODEL_ENV_VAR) or DEFAULT_MODEL


@lru_cache(maxsize=4)
def load_nlp(model: str | None = None) -> Language:
    """Load (once per model name) the pipeline; fall back to the blank one if it is missing."""
    name = model_name(model)
    if name != FALLBACK:
        try:
            # The extractor needs tokens, lemmas and the parse; NER is dead weight.
            nlp = spacy.load(name, exclude=["ner"])
            log.info("features: using spaCy model %s (dependency-based negation scope)", name)
            return nlp
        except (OSError, ImportError) as exc:
            log.warning("features: spaCy model %r is not installed (%s); falling back to "
                        "spacy.blank('en') + lookup lemmatizer and rule-based negation scope",
                        name, type(exc).__name__)
    return _blank_pipeline()


def _blank_pipeline() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("lowercase_lookup_lemmatizer", name="lemmatizer")
    nlp.initialize()  # loads the lemma table from spacy-lookups-data
    return nlp
