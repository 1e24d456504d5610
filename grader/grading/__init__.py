"""The grading model: a question file, the feature extractor and the CON-FOLD learner as one
object a teacher trains, saves and runs.

- `model`: `GradingModel` (train, grade, explain, save/load as one JSON file).
- `agreement`: `ResampledAgreement`, rule lists learned on bootstrap resamples; they vote on
  each answer's mark, and a mark's confidence is the share of all the lists giving it (times
  the wording support of `wording`).
- `general`: `GeneralModel`, one model for questions it has not seen (question-independent
  features in `general_features`); `seeded`: a question's own model backed by it;
  `suggest`: the answers worth marking next.
- `evaluation`: cross-validated figures of a question's model (accuracy, macro-F1, the
  accuracy of the automatic marks against the share flagged).
"""

from __future__ import annotations

__all__ = ["GeneralModel", "GradingModel", "ModelFileError"]

_LAZY = {"GradingModel": "grader.grading.model", "ModelFileError": "grader.grading.model",
         "GeneralModel": "grader.grading.general"}


def __getattr__(name: str):
    # Imported when first used, like the top package's names, so that a light module of the
    # package (`defaults`) is imported without spaCy and pandas.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'grader.grading' has no attribute {name!r}")
