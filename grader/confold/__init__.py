"""The CON-FOLD rule learner: the bottom layer, which knows nothing of questions or answers.

    from grader.confold import ConFold
    model = ConFold().fit(X, y)          # X: a pandas DataFrame of features, y: labels
    model.rules_, model.predict_with_confidence(X_new), model.explain(X_new), model.to_asp()

Modules, from the top down:

- `estimator`: `ConFold`, the scikit-learn-style estimator (parameters, fit, predict, explain, save).
- `fold`: the FOLD-RM loop with CON-FOLD's confidences, pruning and initial rules.
- `literal_search`: the best literal by information gain, vectorised over encoded columns.
- `rule_eval`: which rows a literal, a rule or an ordered rule list covers; derived predicates.
- `encoding`: a DataFrame as integer-coded columns (categorical) and floats (numeric).
- `rules`: `Literal`, `Rule`, `PredicateDefinition`, the objects the teacher's files parse into.
- `explain`: why a row got its label, rule by rule.
- `model_file`: the JSON model file; `asp_writer`, `asp_terms`: rules as answer set programs.

`Rule`, `Literal` and `PredicateDefinition` are imported at once; the estimator (numpy,
pandas) only when first used, so that parsing a teacher's file stays light.
"""

from __future__ import annotations

from grader.confold.rules import Literal, PredicateDefinition, Rule

__all__ = ["ConFold", "Explanation", "Literal", "ModelFileError", "PredicateDefinition", "Rule",
           "write_program"]

_LAZY = {
    "ConFold": "grader.confold.estimator",
    "Explanation": "grader.confold.explain",
    "ModelFileError": "grader.confold.model_file",
    "write_program": "grader.confold.asp_writer",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'grader.confold' has no attribute {name!r}")
