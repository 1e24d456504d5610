"""`BoostedRules`: an ensemble of short rules grown by confidence-rated boosting (seed 001).

Each class gets its own boosted rules (one class against the rest, `grader.boosting.slipper`):
every rule is a conjunction of literals that votes a positive amount for its class when it
fires, and each class has a constant default vote (negative for a rare class). A row's
score for a class is its default vote plus the votes of that class's rules that fire; the
label is the class with the largest score. So every label is explained by the rules that
fired for it and against the others, and the scores give probabilities (`predict_proba`).

The learner reuses CON-FOLD's machinery: the table is encoded (`grader.confold.encoding`),
derived predicates are added and literals are laid out in slots exactly as `ConFold` does
(`grader.confold.literal_search`), and rules are `grader.confold.rules.Rule` objects
evaluated by `grader.confold.rule_eval`, so the grading model's words for rule bodies and
the evidence restriction (`evidence`, `label_order`: rules for a label above the lowest use
only evidence literals, `grader.confold.evidence`) apply unchanged.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from grader.boosting.explain import EnsembleExplanation, Vote
from grader.boosting.slipper import BinaryBooster, BinaryEnsemble
from grader.confold.encoding import MISSING, check_frame, encode_frame, infer_encoding
from grader.confold.estimator import _class_codes, _labels, _needs_evidence, _string_columns, target_name
from grader.confold.evidence import check_evidence, evidence_mask
from grader.confold.literal_search import LiteralSearch
from grader.confold.rule_eval import (add_derived_predicates, name_rule_values, rule_features, rule_mask,
                                      split_background)
from grader.confold.rules import PredicateDefinition, Rule

PARAMS = ("n_rounds", "max_literals", "include_features", "initial_features", "window", "alpha",
          "require_rule", "random_state", "background", "evidence", "label_order")


class BoostedRules:
    """Confidence-rated boosted rules, one ensemble per class (see the module doc).

    Parameters: ``n_rounds`` (boosting rounds per class), ``max_literals`` (longest rule
    body), ``include_features`` (margin-based inclusion of features: start with the
    ``initial_features`` best by mutual information, add one when the margins' improvement
    slows, with the paper's ``window`` T_l and threshold ``alpha``; False: all features from
    the start), ``require_rule`` (a row gets a label only when a rule for that label fires;
    otherwise None, for a human, as with `ConFold`), ``random_state`` (the grow/prune splits),
    ``background`` (derived predicates, `PredicateDefinition`s; label rules are not taken),
    ``evidence`` and ``label_order`` (as for `ConFold`).

    Fitted: ``rules_`` (`Rule`s; head = the class a rule votes for, confidence = the logistic
    of twice its vote, its weighted precision when learned), ``votes_`` (each rule's vote),
    ``default_votes_`` (per class), ``classes_``, ``feature_names_in_``, ``encodings_``,
    ``predicates_``, ``target_name_``, ``history_`` (per class: the mean and smallest margin and
    the exponential loss after each round, the features in the order they were included, and
    the round each came in).
    """

    def __init__(self, n_rounds: int = 50, max_literals: int = 4, include_features: bool = True,
                 initial_features: int = 2, window: int = 10, alpha: float = 1.01,
                 require_rule: bool = True, random_state: int = 0,
                 background: Sequence[PredicateDefinition] | None = None,
                 evidence: Mapping[str, Any] | None = None, label_order: Sequence | None = None):
        self.n_rounds = n_rounds
        self.max_literals = max_literals
        self.include_features = include_features
        self.initial_features = initial_features
        self.window = window
        self.alpha = alpha
        self.require_rule = require_rule
        self.random_state = random_state
        self.background = background
        self.evidence = evidence
        self.label_order = label_order

    def get_params(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in PARAMS}

    def set_params(self, **params: Any) -> "BoostedRules":
        unknown = sorted(set(params) - set(PARAMS))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; BoostedRules takes {', '.join(PARAMS)}")
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def _check_params(self) -> None:
        for name in ("n_rounds", "max_literals", "initial_features", "window"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)) or not self.alpha > 0:
            raise ValueError(f"alpha must be a number > 0, got {self.alpha!r}")
        for name in ("include_features", "require_rule"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")

    # -- fitting ------------------------------------------------------------------------------
    def fit(self, X: pd.DataFrame, y: Any) -> "BoostedRules":
        """Boost rules for each class. `X`: DataFrame of categorical/numeric columns; `y`: labels."""
        self._check_params()
        X = _string_columns(check_frame(X, "X"))
        labels = _labels(y, len(X))
        if len(X) == 0:
            raise ValueError("X is empty: there are no examples to learn from")
        codes, classes = _class_codes(labels)
        if len(classes) < 2:
            raise ValueError(f"y has a single class ({classes[0]!r}): a classifier needs examples "
                             f"with at least two different labels")
        label_rules, definitions = split_background(list(self.background or ()))
        if label_rules:
            raise ValueError("BoostedRules takes derived predicates as background, not label rules "
                             f"({len(label_rules)} given): a teacher's marking rules need ConFold")
        columns = list(X.columns)
        encodings = [infer_encoding(name, X[name]) for name in columns]
        encodings, encoded = name_rule_values(encodings, encode_frame(X, encodings), definitions)
        empty = [name for name, col in encoded.columns.items()
                 if (col.codes == col.encoding.code_of(MISSING)).all()]
        if empty:
            warnings.warn(f"column(s) {', '.join(empty)} have only missing values; the learner "
                          f"ignores them", stacklevel=2)
        table = add_derived_predicates(encoded, definitions)
        table.frame = None
        names = columns + list(dict.fromkeys(d.name for d in definitions))
        search = LiteralSearch(table, names, excluded=empty)
        check_evidence(self.evidence, names)
        allowed = evidence_mask(search, self.evidence) if self.evidence is not None else None
        needs = (_needs_evidence(classes, self.label_order) if self.evidence is not None
                 else np.zeros(len(classes), dtype=bool))

        rules: list[Rule] = []
        votes: list[float] = []
        default_votes = np.zeros(len(classes))
        history = []
        for k, label in enumerate(classes):
            booster = BinaryBooster(table, search, int(self.n_rounds), int(self.max_literals),
                                    np.random.default_rng([int(self.random_state), k]),
                                    allowed if needs[k] else None, bool(self.include_features),
                                    int(self.initial_features), int(self.window), float(self.alpha))
            ensemble = booster.fit(codes == k)
            default_votes[k] = ensemble.default_vote
            merged = _merge(ensemble)
            for body, vote in merged:
                rules.append(Rule(head=label, body=body, confidence=float(_logistic(2 * vote)), origin="learned"))
                votes.append(vote)
            history.append({"label": label, "mean_margins": ensemble.mean_margins,
                            "min_margins": ensemble.min_margins, "losses": ensemble.losses,
                            "included": ensemble.included, "included_at": ensemble.included_at})
        self.rules_ = rules
        self.votes_ = np.asarray(votes, dtype=float)
        self.default_votes_ = default_votes
        self.classes_ = classes
        self.feature_names_in_ = columns
        self.n_features_in_ = len(columns)
        self.encodings_ = encodings
        self.predicates_ = list(definitions)
        self.target_name_ = target_name(y)
        self.history_ = history
        return self

    # -- prediction ---------------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "rules_"):
            raise ValueError("this BoostedRules is not fitted yet: call fit(X, y)")

    def encode(self, X: pd.DataFrame, rules: Sequence[Rule] | None = None):
        """The table the rules are evaluated on: the columns they use, encoded as in training,
        plus the derived predicates."""
        self._check_fitted()
        X = _string_columns(check_frame(X, "X"))
        derived = {d.name for d in self.predicates_}
        rules = self.rules_ if rules is None else rules
        needed = [f for f in rule_features(list(rules) + list(self.predicates_)) if f not in derived]
        absent = [f for f in needed if f not in X.columns]
        if absent:
            raise ValueError(f"X has no column(s) {', '.join(map(repr, absent))}, which the model's rules use")
        by_name = {e.name: e for e in self.encodings_}
        return add_derived_predicates(encode_frame(X, [by_name[f] for f in needed]), self.predicates_)

    def fired(self, X: pd.DataFrame) -> np.ndarray:
        """(rows x rules) bool: which rules fire for each row."""
        table = self.encode(X)
        out = np.zeros((table.n_rows, len(self.rules_)), dtype=bool)
        for j, rule in enumerate(self.rules_):
            out[:, j] = rule_mask(rule, table)
        return out

    def rule_classes(self) -> np.ndarray:
        """The index in `classes_` of the class each rule votes for."""
        index = {repr((type(c), c)): k for k, c in enumerate(self.classes_)}
        return np.asarray([index[repr((type(r.head), r.head))] for r in self.rules_], dtype=np.intp)

    def decision_function(self, X: pd.DataFrame, fired: np.ndarray | None = None) -> np.ndarray:
        """(rows x classes): each class's default vote plus the votes of its rules that fire."""
        fired = self.fired(X) if fired is None else fired
        membership = np.zeros((len(self.rules_), len(self.classes_)))
        membership[np.arange(len(self.rules_)), self.rule_classes()] = self.votes_
        return fired.astype(float) @ membership + self.default_votes_

    def predict_proba(self, X: pd.DataFrame, fired: np.ndarray | None = None) -> np.ndarray:
        """(rows x classes) probabilities: each class's logistic of twice its score (boosting's
        estimate of P(class | row) against the rest), normalised to sum to 1 over the classes."""
        p = _logistic(2 * self.decision_function(X, fired))
        return p / p.sum(axis=1, keepdims=True)

    def predict_rules(self, X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(labels, confidences, rule index): the class with the largest score, its probability,
        and the strongest rule for it that fired (-1 if none; with `require_rule` such a row
        gets no label: None, confidence NaN)."""
        fired = self.fired(X)
        proba = self.predict_proba(X, fired)
        best = proba.argmax(axis=1)
        of_rule = self.rule_classes()
        strength = np.where(fired & (of_rule[None, :] == best[:, None]), self.votes_[None, :], -np.inf)
        index = np.where(np.isfinite(strength.max(axis=1, initial=-np.inf)),
                         strength.argmax(axis=1) if len(self.rules_) else -1, -1).astype(np.int64)
        labels = np.asarray(self.classes_, dtype=object)[best]
        confidence = proba[np.arange(len(best)), best]
        if self.require_rule:
            none = index < 0
            labels = labels.copy()
            labels[none] = None
            confidence = np.where(none, np.nan, confidence)
        return labels, confidence, index

    def predict_with_confidence(self, X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        labels, confidence, _ = self.predict_rules(X)
        return labels, confidence

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Labels (object array); None where `require_rule` and no rule for the label fires."""
        return self.predict_rules(X)[0]

    def explain(self, X: pd.DataFrame, descriptions: Mapping[str, str] | None = None
                ) -> list[EnsembleExplanation]:
        """For each row, the rules that fired for its label and for the strongest other class,
        with their votes (see `grader.boosting.explain.EnsembleExplanation`)."""
        fired = self.fired(X)
        scores = self.decision_function(X, fired)
        labels, confidence, _ = self.predict_rules(X)
        of_rule = self.rule_classes()
        out = []
        for i in range(len(scores)):
            order = np.argsort(-scores[i], kind="stable")
            best = int(order[0])
            second = int(order[1]) if len(order) > 1 else None

            def votes(k: int | None) -> list[Vote]:
                if k is None:
                    return []
                hit = np.flatnonzero(fired[i] & (of_rule == k))
                hit = hit[np.argsort(-self.votes_[hit], kind="stable")]
                return [Vote(int(j), self.rules_[j], float(self.votes_[j])) for j in hit]

            out.append(EnsembleExplanation(
                labels[i], None if np.isnan(confidence[i]) else float(confidence[i]), self.classes_[best],
                float(scores[i, best]), float(self.default_votes_[best]), votes(best),
                None if second is None else self.classes_[second],
                math.nan if second is None else float(scores[i, second]), votes(second),
                self.target_name_, descriptions))
        return out

    # -- persistence ---------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """JSON-able data (`grader.boosting.model_file`), to embed in a grading model file."""
        from grader.boosting.model_file import boosted_to_dict
        self._check_fitted()
        return boosted_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "BoostedRules":
        """The model `to_dict` wrote; ModelFileError naming the place when the data is damaged."""
        from grader.boosting.model_file import boosted_from_dict
        return boosted_from_dict(cls, data)

    def save(self, path: str) -> None:
        """Write the fitted model as a versioned JSON file (atomic replace)."""
        import json

        from grader.atomic_file import atomic_write_text
        atomic_write_text(path, json.dumps(self.to_dict(), indent=1, ensure_ascii=False, allow_nan=False) + "\n")

    @classmethod
    def load(cls, path: str) -> "BoostedRules":
        from grader.confold.model_file import read_json_file
        return cls.from_dict(read_json_file(path, "boosted rules model file"))

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={getattr(self, k)!r}" for k in PARAMS if k not in ("background", "evidence"))
        return f"BoostedRules({params})"


def _logistic(x):
    """1 / (1 + e^-x), elementwise (no overflow warning for large |x|)."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -500.0, 500.0)))


def _merge(ensemble: BinaryEnsemble) -> list[tuple[tuple, float]]:
    """The class's rules with the same body merged (their votes add up), strongest first."""
    total: dict[tuple, float] = {}
    for body, vote in zip(ensemble.bodies, ensemble.votes):
        key = tuple(sorted(body, key=str))
        total[key] = total.get(key, 0.0) + vote
    first_body = {}
    for body in ensemble.bodies:
        first_body.setdefault(tuple(sorted(body, key=str)), body)
    return sorted(((first_body[k], v) for k, v in total.items()), key=lambda kv: -kv[1])
