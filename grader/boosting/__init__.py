"""Boosted rule ensembles: a second learner family beside CON-FOLD (seed 001).

    from grader.boosting import BoostedRules
    model = BoostedRules(n_rounds=50).fit(X, y)
    model.predict(X_new), model.predict_proba(X_new), model.rules_, model.votes_

Modules: `estimator` (`BoostedRules`, the scikit-learn-style estimator), `slipper` (one
class's confidence-rated boosting of conjunctive rules), `feature_inclusion` (mutual
information ranking and the margin monitor that brings features in), `weighted_search`
(weighted cover of every candidate literal, on CON-FOLD's slots). It imports only
`grader.confold`, whose encodings, literal search and rule objects it reuses.
"""

from __future__ import annotations

__all__ = ["BoostedRules"]


def __getattr__(name: str):
    if name == "BoostedRules":
        from grader.boosting.estimator import BoostedRules
        return BoostedRules
    raise AttributeError(f"module 'grader.boosting' has no attribute {name!r}")
