"""The spaCy feature extractor for short physics answers.

`FeatureExtractor(question).fit(answers, marks).transform(answers)` gives the table of
concept, quantity, misconception, reference and learned-term features the CON-FOLD
learner learns rules from (column names and values: `knowledge.schema`).
"""

from .extractor import FeatureExtractor, NotFittedError, transform_stream
from .nlp import load_nlp

__all__ = ["FeatureExtractor", "NotFittedError", "load_nlp", "transform_stream"]
