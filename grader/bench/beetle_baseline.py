"""A yardstick for `bench beetle --baseline`: a per-question decision tree on lemma presence
and overlap with the reference answers.

Why: a mark from the bare question file is worth something only if it beats what a plain
lexical classifier learns from the same marked answers. The issue's bar: on physics topics
other than electricity the model's marks must be at least 5 points above this tree (3-way
and 2-way). What the tree is: `sklearn.tree.DecisionTreeClassifier(random_state=0)` with
default parameters, trained per question on one binary column per lower-case alphabetic
lemma seen in that question's training answers, and two columns of overlap with the
reference answers (`overlap_features`). scikit-learn is needed only here (extra `bench`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from grader.bench.beetle_data import SCHEMES, relabel

MISSING_SKLEARN = "the decision-tree baseline needs scikit-learn: pip install -e '.[bench]'"


def decision_tree_class() -> type:
    """`sklearn.tree.DecisionTreeClassifier`, imported only when the baseline runs (a clear
    error if scikit-learn is not installed: the product does not need it)."""
    try:
        from sklearn.tree import DecisionTreeClassifier
    except ImportError as e:
        raise ModuleNotFoundError(MISSING_SKLEARN, name="sklearn") from e
    return DecisionTreeClassifier


def sklearn_missing() -> str | None:
    """What to install when scikit-learn is missing, else None (checked before a long run)."""
    try:
        decision_tree_class()
    except ModuleNotFoundError as e:
        return str(e)
    return None


def lemma_sets(texts: Sequence[str], nlp=None) -> list[frozenset[str]]:
    """Each text's lower-case alphabetic lemmas, the texts read by the pipeline in one `pipe`."""
    if nlp is None:
        from features.nlp import load_nlp

        nlp = load_nlp()
    return [frozenset(t.lemma_.lower() for t in doc if t.is_alpha) for doc in nlp.pipe(list(texts))]


def overlap_features(answer: frozenset[str] | set[str],
                     references: Sequence[frozenset[str] | set[str]]) -> tuple[float, float]:
    """(max over the reference answers R of |A∩R|/|R|, max of |A∩R|/|A∪R|) for the answer's
    lemmas A: how much of a reference answer it says, and how alike the two are. 0 where a
    fraction has nothing to divide by (an empty reference, or an answer and reference both empty)."""
    coverage = jaccard = 0.0
    for reference in references:
        shared = len(answer & reference)
        if reference:
            coverage = max(coverage, shared / len(reference))
        union = len(answer | reference)
        if union:
            jaccard = max(jaccard, shared / union)
    return coverage, jaccard


def _feature_matrix(answers: Sequence[frozenset[str]], vocabulary: Sequence[str],
                    references: Sequence[frozenset[str]]) -> np.ndarray:
    presence = np.array([[word in a for word in vocabulary] for a in answers], dtype=float)
    presence = presence.reshape(len(answers), len(vocabulary))
    overlap = np.array([overlap_features(a, references) for a in answers], dtype=float).reshape(len(answers), 2)
    return np.hstack([presence, overlap])


def vocabulary_of(train_lemmas: Sequence[frozenset[str]]) -> list[str]:
    """The lemma-presence columns: every lemma of the training answers, sorted (a word only the
    graded answers use is no column, as it would be for a model that never saw them)."""
    return sorted(set().union(*train_lemmas)) if train_lemmas else []


def tree_marks_of_lemmas(references: Sequence[frozenset[str]], train: Sequence[frozenset[str]],
                         train_marks: Sequence[str], test: Sequence[frozenset[str]]) -> list[str]:
    """`tree_marks` on texts already read into lemma sets (one reading serves every scheme)."""
    if len(train) != len(train_marks):
        raise ValueError(f"{len(train)} training answers and {len(train_marks)} marks")
    if not train:
        raise ValueError("the decision-tree baseline needs at least one training answer")
    if not test:
        return []
    vocabulary = vocabulary_of(train)
    tree = decision_tree_class()(random_state=0)
    tree.fit(_feature_matrix(train, vocabulary, references), list(train_marks))
    return [str(m) for m in tree.predict(_feature_matrix(test, vocabulary, references))]


def _read_once(references: Sequence[str], train: Sequence[str], test: Sequence[str],
               nlp) -> tuple[list[frozenset[str]], list[frozenset[str]], list[frozenset[str]]]:
    """The lemma sets of the reference, training and test answers, read in one `pipe`."""
    lemmas = lemma_sets([*references, *train, *test], nlp)
    return lemmas[:len(references)], lemmas[len(references):len(references) + len(train)], \
        lemmas[len(references) + len(train):]


def tree_marks(reference_answers: Sequence[str], train_answers: Sequence[str], train_marks: Sequence[str],
               test_answers: Sequence[str], nlp=None) -> list[str]:
    """The decision tree's mark of each test answer, trained on the marked training answers
    of one question (`nlp`: the project's pipeline, `features.nlp.load_nlp()`, if None)."""
    references, train, test = _read_once(reference_answers, train_answers, test_answers, nlp)
    return tree_marks_of_lemmas(references, train, train_marks, test)


def tree_columns(reference_answers: Sequence[str], train: pd.DataFrame, test: pd.DataFrame,
                 nlp=None) -> dict[str, list[str]]:
    """{"tree_<scheme>": marks of the test answers} for every scheme, each tree trained on the
    training answers' labels in that scheme (Beetle rows: `answer`, `label_5way`)."""
    references, train_lemmas, test_lemmas = _read_once(reference_answers, train.answer.tolist(),
                                                       test.answer.tolist(), nlp)
    return {f"tree_{scheme}": tree_marks_of_lemmas(references, train_lemmas,
                                                   [relabel(y, scheme) for y in train.label_5way], test_lemmas)
            for scheme in SCHEMES}


# -- the model against the tree -----------------------------------------------------------------


def baseline_comparison(predictions: pd.DataFrame) -> dict[str, dict]:
    """Per scheme, from `grade_question` rows with tree columns: the model's ("own") and the
    tree's pooled accuracy (an unmarked answer counts as wrong), the difference in points, its
    spread across questions (min / median / max) and the questions the model is better / the
    same / worse on. A mean can hide the questions where the tree wins."""
    qids = predictions.question_id.to_numpy()
    out = {}
    for scheme in SCHEMES:
        truth = np.array([relabel(y, scheme) for y in predictions.label_5way], dtype=object)
        own_right = pd.Series(truth == predictions[f"mark_{scheme}"].to_numpy(dtype=object), dtype=float)
        tree_right = pd.Series(truth == predictions[f"tree_{scheme}"].to_numpy(dtype=object), dtype=float)
        by_question = 100 * (own_right.groupby(qids).mean() - tree_right.groupby(qids).mean())
        own, tree = float(own_right.mean()), float(tree_right.mean())
        out[scheme] = {"answers": len(truth), "questions": len(by_question), "own_accuracy": own,
                       "tree_accuracy": tree, "difference_points": 100 * (own - tree),
                       "question_difference_points": {"min": float(by_question.min()),
                                                      "median": float(by_question.median()),
                                                      "max": float(by_question.max())},
                       "questions_better": int((by_question > 1e-9).sum()),
                       "questions_same": int((by_question.abs() <= 1e-9).sum()),
                       "questions_worse": int((by_question < -1e-9).sum())}
    return out


def format_baseline(comparison: dict[str, dict]) -> str:
    """`baseline_comparison` as text, one line per scheme."""
    spread_title = "per question own-tree, points: min / median / max"
    lines = ["decision-tree baseline (per question: lemma presence + overlap with the reference answers), "
             "same answers and folds:",
             f"  {'scheme':7s} {'own':>6s} {'tree':>6s} {'own-tree':>10s}   {spread_title}   "
             f"questions better / same / worse"]
    for scheme, c in comparison.items():
        q = c["question_difference_points"]
        spread = f"{q['min']:+.1f} / {q['median']:+.1f} / {q['max']:+.1f}"
        lines.append(f"  {scheme:7s} {c['own_accuracy']:6.3f} {c['tree_accuracy']:6.3f} "
                     f"{c['difference_points']:+6.1f} pts   {spread:{len(spread_title)}s}   "
                     f"{c['questions_better']} / {c['questions_same']} / {c['questions_worse']} "
                     f"(of {c['questions']})")
    return "\n".join(lines)
