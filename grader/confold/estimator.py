"""`ConFold`: the CON-FOLD rule learner as a scikit-learn-style estimator.

CON-FOLD is FOLD-RM (ordered default rules with exceptions, learned by information gain)
plus a confidence per rule (Wilson score centre), two pruning methods and a teacher's rules:

* ``improvement_threshold``: after a rule is learned, each exception whose removal costs
  the rule less than this much confidence is removed (recursively into kept exceptions);
* ``confidence_threshold``: learned and initial rules below this confidence are removed
  at the end, so their answers go to later rules or to a human;
* both None: FOLD-RM's rules, with confidences.

Domain knowledge (the same `grader.confold.rules` objects the `knowledge/` package parses):

* ``background``: `PredicateDefinition`s become boolean columns that learned rules may use
  (`Literal(name, "==", True)`); background label `Rule`s are kept exactly as given and come
  *first* in the ordered program (the teacher's word comes first). They keep a given
  confidence, otherwise get one from the training data they cover.
* ``initial_rules``: come next, in order. Each is evaluated on the examples the rules before
  it left; exceptions are learned for the negatives it covers with the FOLD exception learner
  (as FOLD-RM does for a learned rule once its body is complete); the improvement threshold
  prunes its exceptions; it is dropped when it marks fewer than ``min_initial_support``
  examples (at least one) of its label rightly (``label_min_initial_support`` {label: n} in
  its place for the labels it names, e.g. a mark for a wrong idea, which few examples share;
  a rule given as "learned", kept from an earlier model, needs one), or is right less often
  than ``min_initial_precision``: a rule few answers show is left to the answers' own rules.
  A rule for a label with a support of its own that no example meets is kept as written, with
  the fixed confidence of nothing seen (0.5): such a label is a wrong idea, which few answers
  share, and nothing has shown the teacher's rule wrong; its marks go to a human. So is an
  initial rule whose name ``keep_unseen`` lists (a grading model's built-in rules, which the
  resamples may draw no example of).
  A rule with the name and label of one kept before it is another way of it (an alternative
  of its ``any:``) and needs no positives of its own.
  An initial rule for a label no training example has is kept as written (as a background
  rule, in its place), whatever its confidence: a low one sends its answers to a human.
* Learning then continues (CON-FOLD's loop) on what those rules leave unexplained; with
  ``learn_from_all``, on every example the background rules leave, the initial rules' too.
  The learned rules still come after the initial ones, so they mark what those leave, but
  they are learned from all the examples rather than from the few the initial rules leave
  over: a teacher's rules often cover most of 30 marked answers, and rules learned from the
  handful left marked the rest of the class worse than the bare file's rules (the rubric
  bench, docs/beetle.md). ``initial_last`` (a function of a rule): the initial rules it holds
  for are refined in their place but applied after the learned rules (a grading model's
  teacher's rules that rest only on what an answer lacks, a catch-all for what nothing else
  explains). ``initial_support`` (a function of a rule): the support an initial rule needs
  where it gives one, instead of its label's (a grading model's teacher's rules for a wrong
  idea, for no credit, need one answer).
* ``evidence`` and ``label_order``: for ordered labels (marks), a learned rule for any label
  but the lowest (the first of ``label_order``, which may be a tuple of labels that are all
  lowest, or an empty tuple when no label is: labels in no known order; the first of
  ``classes_`` when None) rests only on evidence: its body, and the exceptions of its
  exceptions, use only the literals ``evidence`` names as evidence
  (`grader.confold.evidence`); what an example lacks can still block it as an exception,
  or give the lowest label. When no evidence rule is found for the commonest label left, the
  next commonest is tried. None (the default): FOLD-RM's search, unrestricted.
  ``label_evidence`` ({label: evidence}) gives the labels it names an evidence of their own,
  in place of ``evidence`` (a wrong idea stated is a reason for a mark that gives no credit,
  never for one that gives credit): a learned rule for such a label starts from something
  the example has (its body's first condition is evidence); its other conditions may narrow
  it with anything ("says a gap, and does not name terminal 1").
* ``default_rule``: a last rule with an empty body, named "default", for the answers no
  other rule covers (FOLD-RM leaves them without a label). Its head is the commonest label
  of the training examples the final program (after the confidence threshold) leaves
  uncovered, its confidence the Wilson score on them; when none are left it is the commonest
  training label with confidence 0.5 (Wilson of 0 out of 0): low, so such answers still go to
  a human under any flagging threshold above that.

Data handling is in `grader.confold.encoding` (column kinds, missing values, mixed columns); at
predict time an unseen category matches no `==` literal (and every `!=`), and a column the
rules use must be present (ValueError naming it); columns the rules do not use may be absent.
A training column whose values are all missing is ignored by the learner (with a warning).
"""

from __future__ import annotations

import re
import warnings
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from grader.confold.encoding import (MISSING, EncodedTable, category_sort_key, check_frame, encode_frame,
                                      fit_column)
from grader.confold.evidence import check_evidence, evidence_mask
from grader.confold.fold import FoldLearner, ProgramLearner, wilson
from grader.confold.literal_search import LiteralSearch
from grader.confold.rule_eval import (add_derived_predicates, evaluate_ordered, name_rule_values, rule_features,
                                      split_background)
from grader.confold.rules import PredicateDefinition, Rule
from grader.confold.subset_encoding import SubsetEncoder


class ConFold:
    """Learns an ordered list of rules with exceptions and confidences from a table.

    Parameters: ``ratio`` (FOLD-RM: a rule may cover this many negatives per positive before
    exceptions are learned), ``z`` (Wilson score), ``improvement_threshold``,
    ``confidence_threshold``, ``background``, ``initial_rules`` (see the module doc),
    ``fold_rm_update`` (keep a rule's covered negatives for later rounds as FOLD-RM does,
    instead of CON-FOLD's dropping them), ``min_initial_precision``, ``learn_from_all`` (learned
    rules learned from every example, not only those the initial rules leave), ``initial_last``
    (which initial rules apply after the learned ones), ``default_rule`` (a
    last rule for the examples no other rule covers, see the module doc), ``evidence`` (per
    feature, the values that are evidence for a higher label, or '>' / '<=' for a numeric
    feature) and ``label_order`` (labels from lowest to highest) for rules that rest on
    evidence (see the module doc).
    """

    def __init__(self, ratio: float = 0.5, z: float = 3.0, improvement_threshold: float | None = None,
                 confidence_threshold: float | None = None,
                 background: Sequence[Rule | PredicateDefinition] | None = None,
                 initial_rules: Sequence[Rule] | None = None, fold_rm_update: bool = False,
                 min_initial_precision: float = 0.5, default_rule: bool = False,
                 evidence: Mapping[str, Any] | None = None, label_order: Sequence | None = None,
                 min_initial_support: int = 1, label_evidence: Mapping[Any, Mapping[str, Any]] | None = None,
                 label_min_initial_support: Mapping[Any, int] | None = None, keep_unseen: Sequence[str] = (),
                 learn_from_all: bool = False, initial_last: Callable[[Rule], bool] | None = None,
                 initial_support: Callable[[Rule], int | None] | None = None):
        self.ratio = ratio
        self.z = z
        self.improvement_threshold = improvement_threshold
        self.confidence_threshold = confidence_threshold
        self.background = background
        self.initial_rules = initial_rules
        self.fold_rm_update = fold_rm_update
        self.min_initial_precision = min_initial_precision
        self.default_rule = default_rule
        self.evidence = evidence
        self.label_order = label_order
        self.min_initial_support = min_initial_support
        self.label_evidence = label_evidence
        self.label_min_initial_support = label_min_initial_support
        self.keep_unseen = keep_unseen
        self.learn_from_all = learn_from_all
        self.initial_last = initial_last
        self.initial_support = initial_support

    def get_params(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("ratio", "z", "improvement_threshold",
                                              "confidence_threshold", "background", "initial_rules",
                                              "fold_rm_update", "min_initial_precision",
                                              "default_rule", "evidence", "label_order",
                                              "min_initial_support", "label_evidence",
                                              "label_min_initial_support", "keep_unseen",
                                              "learn_from_all", "initial_last", "initial_support")}

    def set_params(self, **params: Any) -> "ConFold":
        unknown = sorted(set(params) - set(self.get_params()))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; ConFold takes "
                             f"{', '.join(self.get_params())}")
        for key, value in params.items():
            setattr(self, key, value)
        return self

    # -- fitting ------------------------------------------------------------------------------
    def fit(self, X: pd.DataFrame, y: Any) -> "ConFold":
        """Learn the rules. `X`: DataFrame of categorical/numeric columns; `y`: labels of any
        type (strings, ints, floats such as 0.5 marks), none of them missing."""
        self._check_params()
        X = _string_columns(check_frame(X, "X"))

        def encode():
            fitted = [fit_column(name, X[name]) for name in X.columns]
            columns = {encoding.name: column for encoding, column in fitted}
            return [encoding for encoding, _ in fitted], EncodedTable(columns=columns, n_rows=len(X), frame=X)

        return self._fit(list(X.columns), len(X), y, encode)

    def fit_subset(self, encoder: SubsetEncoder, rows: np.ndarray, y: Any) -> "ConFold":
        """`fit(X.iloc[rows], y)` for the frame X of `encoder`, with the same result, but
        without inferring and encoding X's columns again for every subset (resamples)."""
        self._check_params()
        _string_columns(encoder.frame)  # the same check of column names as fit
        rows = np.asarray(rows, dtype=np.intp)
        return self._fit([str(c) for c in encoder.frame.columns], len(rows), y,
                         lambda: encoder.encode(rows))

    def _fit(self, columns: list[str], n_rows: int, y: Any, encode) -> "ConFold":
        text = _text_label_codes(y, n_rows)
        if text is None:
            labels = _labels(y, n_rows)
        if n_rows == 0:
            raise ValueError("X is empty: there are no examples to learn from")
        codes, classes = _class_codes(labels) if text is None else text
        if len(classes) < 2:
            raise ValueError(f"y has a single class ({classes[0]!r}): a classifier needs answers "
                             f"with at least two different labels")
        label_rules, definitions = split_background(list(self.background or ()))
        initial = list(self.initial_rules or ())
        for i, rule in enumerate(initial):
            if not isinstance(rule, Rule) or rule.head is None:
                raise ValueError(f"initial rule {i} must be a Rule with a head (the label it gives)")

        encodings, encoded = name_rule_values(*encode(), label_rules + initial + definitions)
        empty = [name for name, col in encoded.columns.items()
                 if (col.codes == col.encoding.code_of(MISSING)).all()]
        if empty:
            warnings.warn(f"column(s) {', '.join(empty)} have only missing values; the learner "
                          f"ignores them", stacklevel=3)
        table = add_derived_predicates(encoded, definitions)
        table.frame = None  # do not keep the training data alive through the model
        predicate_names = list(dict.fromkeys(d.name for d in definitions))
        search = LiteralSearch(table, columns + predicate_names, excluded=empty)
        check_evidence(self.evidence, columns + predicate_names)
        allowed, needs_evidence, by_class = None, None, None
        if self.evidence is not None:
            allowed = evidence_mask(search, self.evidence)
            needs_evidence = _needs_evidence(classes, self.label_order)
            by_class = _label_evidence_masks(self.label_evidence, classes, search, columns + predicate_names)
        elif self.label_evidence:
            raise ValueError("label_evidence needs evidence: the evidence of the labels it does not name")
        program = ProgramLearner(FoldLearner(table, search, self.ratio, allowed), codes, classes,
                                 self.improvement_threshold, self.z, self.fold_rm_update,
                                 self.min_initial_precision, needs_evidence, self.min_initial_support,
                                 by_class, _class_values(self.label_min_initial_support, classes),
                                 frozenset(self.keep_unseen or ()), self.initial_support)
        remaining = np.arange(n_rows)
        rules: list[Rule] = []
        for rule in label_rules:
            kept, remaining = program.apply_background(rule, remaining)
            rules.append(kept)
        after_background = remaining
        unmarked = set()  # a teacher's rules for labels no example has: kept as written
        kept_names: set = set()  # (name, head) of the teacher's rules kept: their other ways (`any:`) go with them
        ways: dict = {}  # (name, head) -> the ways of one teacher's rule
        for rule in initial:
            if rule.name:
                ways.setdefault((rule.name, rule.head), []).append(rule)
        for rule in initial:
            if program.has_label(rule.head):
                key = (rule.name, rule.head)
                if rule.name and rule.origin != "learned" and len(ways[key]) > 1 and rule is ways[key][0] \
                        and program.supported_together(ways[key], remaining):
                    kept_names.add(key)  # its ways together are shown by enough answers: each needs none of its own
                other_way = bool(rule.name) and key in kept_names
                kept, remaining = program.refine_initial(rule, remaining, other_way)
            else:
                kept, remaining = program.keep_unmarked(rule, remaining)
                unmarked.add(id(kept))
            if kept is not None:
                rules.append(kept)
                kept_names.add((rule.name, rule.head))
        rules += program.learn(after_background if self.learn_from_all else remaining)
        if self.initial_last is not None:  # refined in their place, applied after the learned rules
            ahead, last = [], []
            for rule in rules:
                (last if rule.origin == "initial" and self.initial_last(rule) else ahead).append(rule)
            rules = ahead + last
        if self.confidence_threshold is not None:
            rules = [r for r in rules if r.origin == "background" or id(r) in unmarked
                     or r.confidence >= self.confidence_threshold]
        if self.default_rule:
            rules.append(_default_rule(rules, table, codes, classes, self.z))

        self.rules_ = rules
        self.classes_ = classes
        self.feature_names_in_ = list(columns)
        self.n_features_in_ = len(self.feature_names_in_)
        self.encodings_ = encodings
        self.predicates_ = list(definitions)
        self.target_name_ = target_name(y)
        return self

    def _check_params(self) -> None:
        if not (isinstance(self.ratio, (int, float)) and self.ratio >= 0):
            raise ValueError(f"ratio must be a number >= 0, got {self.ratio!r}")
        if not (isinstance(self.z, (int, float)) and self.z > 0):
            raise ValueError(f"z must be a number > 0, got {self.z!r}")
        for name in ("improvement_threshold", "confidence_threshold"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and 0 <= value <= 1):
                raise ValueError(f"{name} must be None or a number in [0, 1], got {value!r}")
        if not (isinstance(self.min_initial_precision, (int, float))
                and not isinstance(self.min_initial_precision, bool) and 0 <= self.min_initial_precision <= 1):
            raise ValueError(f"min_initial_precision must be a number in [0, 1], got {self.min_initial_precision!r}")
        if not _is_count(self.min_initial_support):
            raise ValueError(f"min_initial_support must be a whole number >= 1, got {self.min_initial_support!r}")
        by_label = self.label_min_initial_support
        if by_label is not None and not isinstance(by_label, Mapping):
            raise ValueError(f"label_min_initial_support must be None or a mapping from a label to a whole "
                             f"number >= 1, got {type(by_label).__name__}")
        for label, k in (by_label or {}).items():
            if not _is_count(k):
                raise ValueError(f"label_min_initial_support for {label!r} must be a whole number >= 1, got {k!r}")
        if self.initial_last is not None and not callable(self.initial_last):
            raise ValueError(f"initial_last must be None or a function of a rule, got {self.initial_last!r}")
        if self.initial_support is not None and not callable(self.initial_support):
            raise ValueError(f"initial_support must be None or a function of a rule, got {self.initial_support!r}")
        for name in ("fold_rm_update", "default_rule", "learn_from_all"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")

    # -- prediction ---------------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "rules_"):
            raise ValueError("this ConFold is not fitted yet: call fit(X, y) or ConFold.load(path)")

    def encode(self, X: pd.DataFrame, rules: Sequence[Rule] | None = None):
        """The table rules are evaluated on: the columns `rules` (default: the model's own)
        use, encoded as in training, plus the derived predicates. Other rule lists learned
        on subsets of the training data (`grader.grading.agreement`) are evaluated on it too."""
        self._check_fitted()
        X = _string_columns(check_frame(X, "X"))
        derived = {d.name for d in self.predicates_}
        rules = self.rules_ if rules is None else rules
        needed = [f for f in rule_features(list(rules) + list(self.predicates_)) if f not in derived]
        absent = [f for f in needed if f not in X.columns]
        if absent:
            raise ValueError(f"X has no column(s) {', '.join(map(repr, absent))}, which the model's "
                             f"rules use")
        by_name = {e.name: e for e in self.encodings_}
        table = encode_frame(X, [by_name[f] for f in needed])
        return add_derived_predicates(table, self.predicates_)

    def predict_with_confidence(self, X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """(labels, confidences): the label and confidence of the rule that applied to each
        row; None and NaN where no rule applies (the answer goes to a human)."""
        labels, confidences, _ = self.predict_rules(X)
        return labels, confidences

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Labels (object array), None where no rule applies."""
        return self.predict_rules(X)[0]

    def predict_rules(self, X: pd.DataFrame, table: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(labels, confidences, index in `rules_` of the rule that applied or -1); `table`:
        `encode(X, rules)` for rules that include `rules_`, when the caller has it (the
        grading model encodes X once for its rules and the resampled rule lists)."""
        self._check_fitted()
        return evaluate_ordered(self.rules_, self.encode(X) if table is None else table)

    # -- explanations ---------------------------------------------------------------------------
    def iter_explain(self, X: pd.DataFrame, descriptions: Mapping[str, str] | None = None,
                     chunk_size: int = 1024) -> Iterator["Explanation"]:
        """Explanations row by row, computed a chunk of rows at a time (bounded memory)."""
        from grader.confold.explain import explain_table
        self._check_fitted()
        X = _string_columns(check_frame(X, "X"))
        for start in range(0, len(X), chunk_size):
            chunk = X.iloc[start:start + chunk_size]
            yield from explain_table(self.rules_, self.encode(chunk), chunk, descriptions,
                                     self.target_name_)

    def explain(self, X: pd.DataFrame, descriptions: Mapping[str, str] | None = None) -> list["Explanation"]:
        """For each row, which rule fired and why (see `grader.confold.explain.Explanation`)."""
        return list(self.iter_explain(X, descriptions))

    # -- output and persistence -------------------------------------------------------------------
    def to_asp(self, **kwargs: Any) -> str:
        """The answer set program (FOLD-RM style, confidences annotated); keyword arguments go
        to `grader.confold.asp_writer.write_program` (e.g. confidence_style="comment")."""
        from grader.confold.asp_writer import write_program
        self._check_fitted()
        kwargs.setdefault("target", self.target_name_)
        return write_program(self.rules_, background=self.predicates_, **kwargs)

    def to_dict(self) -> dict:
        from grader.confold.model_file import model_to_dict
        self._check_fitted()
        return model_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "ConFold":
        from grader.confold.model_file import model_from_dict
        return model_from_dict(cls, data)

    def save(self, path: str) -> None:
        """Write the fitted model as a versioned JSON file (atomic replace)."""
        from grader.confold.model_file import save_model
        save_model(self, path)

    @classmethod
    def load(cls, path: str) -> "ConFold":
        from grader.confold.model_file import load_model
        return load_model(cls, path)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items()
                           if k not in ("background", "initial_rules", "evidence"))
        return f"ConFold({params})"


def _label_evidence_masks(label_evidence: Mapping[Any, Mapping[str, Any]] | None, classes: list,
                          search: LiteralSearch, features: list[str]) -> dict[int, np.ndarray] | None:
    """{class index: its evidence mask} for the labels `label_evidence` names (in place of
    `evidence` for their rules); a clear error for a label y does not have."""
    if not label_evidence:
        return None
    if not isinstance(label_evidence, Mapping):
        raise ValueError(f"label_evidence must be a mapping from a label to its evidence, got "
                         f"{type(label_evidence).__name__}")
    out = {}
    for label, spec in label_evidence.items():
        index = _label_index(classes, label)
        if index is None:
            continue  # a label no training example has: it gets no learned rule
        check_evidence(spec, features)
        out[index] = evidence_mask(search, spec)
    return out or None


def _class_values(by_label: Mapping[Any, Any] | None, classes: list) -> dict[int, Any] | None:
    """{class index: value} for the labels `by_label` names that y has (others are ignored)."""
    indexed = ((_label_index(classes, label), value) for label, value in (by_label or {}).items())
    return {i: value for i, value in indexed if i is not None} or None


def _label_index(classes: list, label: Any) -> int | None:
    """The index of `label` among `classes`, None if y has no such label."""
    return next((i for i, c in enumerate(classes) if _same_label(c, label)), None)


def _is_count(value: Any) -> bool:
    """A whole number of at least 1 (not a bool)."""
    return not isinstance(value, bool) and isinstance(value, (int, np.integer)) and value >= 1


def _needs_evidence(classes: list, label_order: Sequence | None) -> np.ndarray:
    """Per class: True unless it is the lowest label (the first of `label_order`; a tuple
    or list there is a group of labels that are all lowest, e.g. marks that give no credit, and
    an empty one says no label is lowest)."""
    if label_order is None:
        lowest = [classes[0]]
    else:
        order = list(label_order)
        if not order:
            raise ValueError("label_order is empty: give the labels from the lowest")
        lowest = list(order[0]) if isinstance(order[0], (tuple, list)) else [order[0]]
        flat = lowest + order[1:]
        missing = [c for c in classes if not any(_same_label(c, o) for o in flat)]
        if missing:
            raise ValueError(f"label_order {order!r} lacks the label(s) {', '.join(map(repr, missing))} of y")
    return np.array([not any(_same_label(c, low) for low in lowest) for c in classes], dtype=bool)


def _same_label(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b or (
        not isinstance(a, (bool, str)) and not isinstance(b, (bool, str)) and a == b)


def _default_rule(rules: list[Rule], table, codes: np.ndarray, classes: list, z: float) -> Rule:
    """The last rule: the commonest label of the training rows `rules` leave uncovered, with
    its Wilson confidence on them (commonest label overall and 0.5 when none are left)."""
    _, _, index = evaluate_ordered(rules, table)
    left = codes[index < 0]
    if left.size:
        counts = np.bincount(left, minlength=len(classes))
        best = int(np.argmax(counts))
        confidence = wilson(int(counts[best]), int(left.size), z)
    else:
        best = int(np.argmax(np.bincount(codes, minlength=len(classes))))
        confidence = wilson(0, 0, z)
    return Rule(head=classes[best], body=(), exceptions=[], confidence=confidence,
                origin="learned", name="default")


def _string_columns(X: pd.DataFrame) -> pd.DataFrame:
    if all(isinstance(c, str) for c in X.columns):
        return X
    X = X.set_axis([str(c) for c in X.columns], axis=1)
    return check_frame(X, "X (column names as text)")


def _labels(y: Any, n_rows: int) -> list:
    if isinstance(y, pd.DataFrame):
        raise ValueError("y must be one column of labels (a Series, list or array), not a DataFrame")
    if y is None:
        raise ValueError("y is None: fit needs the labels")
    values = pd.Series(y, dtype=object) if not isinstance(y, pd.Series) else y
    labels = values.tolist()
    if len(labels) != n_rows:
        raise ValueError(f"X has {n_rows} rows but y has {len(labels)} labels")
    missing = np.flatnonzero(pd.isna(values.to_numpy(dtype=object)))
    if missing.size:
        raise ValueError(f"y has missing labels (None/NaN) at row(s) {', '.join(map(str, missing[:10]))}"
                         f"{' ...' if missing.size > 10 else ''}: every training example needs a label")
    if values.dtype != object:
        return labels  # Series.tolist() already gives Python scalars
    return [v.item() if isinstance(v, np.generic) else v for v in labels]


def _text_label_codes(y: Any, n_rows: int) -> tuple[np.ndarray, list] | None:
    """`_class_codes(_labels(y, n_rows))` for a Series of a text dtype without missing
    labels, straight from pandas' factorization (no list of Python labels made); None for
    any other y, which goes the general way (and gets its errors there)."""
    if not isinstance(y, pd.Series) or not isinstance(y.dtype, pd.StringDtype) or len(y) != n_rows:
        return None
    if y.isna().any():
        return None
    codes, uniques = pd.factorize(y, sort=False)
    uniques = [str(u) for u in uniques]
    order = sorted(range(len(uniques)), key=lambda i: _class_sort_key(uniques[i]))
    remap = np.empty(len(uniques), dtype=np.intp)
    remap[order] = np.arange(len(uniques))
    return remap[codes], [uniques[i] for i in order]


def _class_sort_key(label: Any) -> tuple:
    if isinstance(label, (int, float)) and not isinstance(label, bool):
        return (0, float(label), "")
    return (1, 0.0) + category_sort_key(label)


def _class_codes(labels: list) -> tuple[np.ndarray, list]:
    codes, uniques = pd.factorize(pd.Series(labels, dtype=object), sort=False)
    uniques = list(uniques)
    if any(isinstance(u, (bool, np.bool_)) for u in uniques) and len(set(map(type, labels))) > 1:
        # True == 1 in Python: keep the label True apart from the mark 1.
        keyed = pd.Series([(type(v) is bool, v) for v in labels], dtype=object)
        codes, keys = pd.factorize(keyed, sort=False)
        uniques = [k[1] for k in keys]
    order = sorted(range(len(uniques)), key=lambda i: _class_sort_key(uniques[i]))
    remap = np.empty(len(uniques), dtype=np.intp)
    remap[order] = np.arange(len(uniques))
    classes = [uniques[i] for i in order]
    classes = [c.item() if isinstance(c, np.generic) else c for c in classes]
    return remap[codes], classes


def target_name(y: Any) -> str:
    """The ASP predicate for the label: y's name, lower-cased and made a valid identifier."""
    name = getattr(y, "name", None)
    if not isinstance(name, str) or not name.strip():
        return "label"
    text = re.sub(r"[^a-z0-9_]+", "_", name.strip().lower()).strip("_")
    if not text:
        return "label"
    return text if text[0].isalpha() else f"label_{text}"


from grader.confold.explain import Explanation  # noqa: E402  (re-exported for type hints and users)
