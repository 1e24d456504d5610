"""The physics grader. The folder tree is the architecture, each layer importing only those
below it:

- `grader.confold`: the CON-FOLD rule learner (bottom layer).
- `knowledge` (top-level package): the teacher's question files and rules.
- `features` (top-level package): the spaCy feature extractor.
- `grader.grading`: the grading model (question + features + learner), its confidence and
  its evaluation.
- `grader.exams`: exam exports in and out, batch grading.
- `grader.app`: the marker's Streamlit app and its review store; `grader.cli`: the command line.
- `grader.metrics`, `grader.atomic_file`, `grader.text_encoding`: small shared helpers with no
  project imports.
- `grader.bench`: benchmarks that print figures.

`from grader import ConFold, GradingModel, GeneralModel` works; each is imported when first used.
"""

from __future__ import annotations

__all__ = ["ConFold", "GeneralModel", "GradingModel"]

_LAZY = {"ConFold": "grader.confold.estimator", "GradingModel": "grader.grading.model",
         "GeneralModel": "grader.grading.general"}


def __getattr__(name: str):
    # Lazily, so that `import knowledge` (which needs grader.confold.rules) stays light.
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'grader' has no attribute {name!r}")
