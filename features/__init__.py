"""The spaCy feature extractor for short physics answers.

    from features import FeatureExtractor
    fx = FeatureExtractor(question, n_terms=30).fit(answers, marks)
    X = fx.transform(new_answers)        # pandas DataFrame, one row per answer
    fx.feature_specs_, fx.descriptions_  # every column with its type, values, description

Columns and values are those of `knowledge.schema`. How an answer is read, module by
module:

- `text`: any cell to clean text (HTML, unicode, superscript exponents, emoji).
- `nlp`: the one spaCy pipeline (en_core_web_sm, or blank English + lookup lemmatizer).
- `spelling`, `lexicon`: each token's key, its lemma with misspellings mended towards
  the question's words; diagram labels ("bulb A"); content words.
- `negation`: which tokens a negation applies to (parse-based or rule-based scope), and
  negated antonyms ("not the same" = "different") for reference words and terms.
- `concepts`: one PhraseMatcher for all phrases; present / negated / absent.
- `quantities`: numbers and units (pint) against the rubric's expected values, the units as
  students spell them read by `unit_spelling`;
  `answer_quantities`: the values one answer gives (not those it denies, or its symbol "g").
- `relations`: links the answer states between the rubric's concepts.
- `reference`: `ref:*` phrases, coverage and precision from the reference answers.
- `reference_quantities`: the values the reference answers give ("20 N m"), checked as
  quantities (`quantity:reference_value`) where the question file lists none of their kind.
- `terms`: `term:*` words and phrases ranked by mutual information with the marks.
- `nonanswer`: "I don't know", "help", empty.
- `text_model`: a word and letter n-gram model of the marked answers' wording (not a
  feature: the grading model's second reader, `grader.grading.wording`).
- `descriptions`: what each column means, in a teacher's words.
- `extractor`: the fit/transform object tying these together; `bench`: benchmarks.
"""

from .extractor import FeatureExtractor, NotFittedError, transform_stream
from .nlp import load_nlp

__all__ = ["FeatureExtractor", "NotFittedError", "load_nlp", "transform_stream"]
