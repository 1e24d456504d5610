"""How stable a mark is: the share of models learned from resamples of the marked answers
that give an answer the same mark.

Why: a rule's confidence is measured on the answers it was learned from, so every answer a
rule marks gets the same figure, and a rule learned from a handful of answers can look as
sure as one learned from hundreds. A mark that still comes out when the teacher's marked
answers are drawn again (bootstrap resamples, the learner run on each) rests on more than
the accident of which answers were in the training set; a mark that flips is one a human
should see. The grading model's confidence is the share of all the rule lists (its own and
the resampled ones) that give the mark (`list_share`), times the wording support; before
2026-11-23 it was the rule's confidence times this agreement (model files of then keep it).

Measured on real answers (Beetle train split, 5-fold cross-validation, two fold seeds,
`python -m grader.bench beetle --cv 5`): with the 30% least confident answers flagged, the
automatic rest was 0.899 correct (2-way) when ranked by the rule's confidence alone and
about 0.925 when ranked by confidence x agreement of 20 resamples (3-way: 0.785 -> 0.827);
10 resamples gave nearly as much, 30 no more.

Only the resamples' rule lists are kept: they are evaluated on the encoding and derived
predicates of the model trained on all the answers (a resample sees a subset of its rows).
"""

from __future__ import annotations

import logging
from concurrent.futures import Executor, Future
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from grader.confold.rule_eval import evaluate_ordered, rule_features
from grader.confold.rules import Rule
from grader.confold.subset_encoding import SubsetEncoder
from grader.grading.defaults import DEFAULT_RESAMPLES  # noqa: F401 (re-exported)

#: How much a mark's wording score (0-1) counts in the vote against its share of the rule lists
#: (`majority_vote`), chosen on cross-validation (docs/beetle.md): the words' reader alone 0.5
#: (of 0.25, 0.5, 1, 2), the reader of words and features 2 (of 0.25, 0.5, 1, 2, 3, 4, 8; the
#: first grid stopped at 1, its edge: with 30 marked answers the reader alone marked better than
#: the vote weighed at 1). At 2, 5-fold CV 3-way +0.8 point on both fold seeds, worse on 2 and 4
#: of 23 questions; 4 gained 0.1 more, worse on 6 of them.
WORDING_WEIGHT = 0.5
READER_WEIGHT = 2.0
#: Parts the resamples are split in when worker processes learn them (`ResampledAgreement.start`).
CHUNKS = 2

log = logging.getLogger(__name__)


def fit_resamples(learner_class: type, params: dict, target_name: Any, X: pd.DataFrame,
                  labels: np.ndarray, draws: Sequence[np.ndarray]) -> list[list[Rule]]:
    """The rule lists of a learner with `params` fitted on each resample (rows of X); plain
    arguments, so that it can run in a worker process. X's columns are read once for all
    resamples (the result is that of fitting X.iloc[rows]) when the learner can do that."""
    encoder = SubsetEncoder(X) if draws and hasattr(learner_class, "fit_subset") else None
    out = []
    for rows in draws:
        copy = learner_class(**params)
        y_rows = pd.Series(labels[rows], name=target_name)
        if encoder is not None:
            copy.fit_subset(encoder, rows, y_rows)
        else:
            copy.fit(X.iloc[rows].reset_index(drop=True), y_rows)
        out.append(copy.rules_)
    return out


class PendingAgreement:
    """Resamples being learned (`ResampledAgreement.start`); `result()` the fitted agreement."""

    def __init__(self, agreement: ResampledAgreement, job: tuple, parts: list, futures: list[Future]):
        self._agreement, self._job, self._parts, self._futures = agreement, job, parts, futures

    def result(self) -> ResampledAgreement:
        lists: list[list[Rule]] = []
        for i, part in enumerate(self._parts):
            try:
                lists += self._futures[i].result() if self._futures else fit_resamples(*self._job, part)
            except Exception as exc:  # a worker lost: this part learned here (a learner error raises again)
                if not self._futures:
                    raise
                log.warning("resamples learned in this process: %s", exc)
                lists += fit_resamples(*self._job, part)
        self._agreement.rule_lists_ = lists
        return self._agreement


class ResampledAgreement:
    """Rule lists learned from bootstrap resamples of the training set, to measure agreement.

    Parameters: ``n_resamples`` (0 turns the measure off: agreement is then NaN),
    ``random_state`` (the resamples are drawn with this seed, so that training twice on the
    same answers gives the same model). Fitted: ``rule_lists_`` (one ordered rule list per
    resample that had at least two marks).
    """

    def __init__(self, n_resamples: int = DEFAULT_RESAMPLES, random_state: int = 0):
        self.n_resamples = n_resamples
        self.random_state = random_state

    def fit(self, learner: Any, X: pd.DataFrame, y: Sequence,
            executor: Executor | None = None) -> ResampledAgreement:
        """Fit a copy of the (fitted) `learner`, same parameters and teacher's rules, on each
        resample of (X, y); with an `executor`, in its workers (`start`)."""
        return self.start(learner, X, y, executor).result()

    def start(self, learner: Any, X: pd.DataFrame, y: Sequence,
              executor: Executor | None = None) -> PendingAgreement:
        """`fit`, begun: with an `executor` (worker processes) the resamples are learned there,
        in CHUNKS parts, while the caller goes on (the grading model fits its wording model
        meanwhile); `.result()` waits for them. The resamples are drawn here, in order, so the
        rule lists are those `fit` learns without an executor."""
        if not (isinstance(self.n_resamples, int) and self.n_resamples >= 0):
            raise ValueError(f"n_resamples must be an integer >= 0, got {self.n_resamples!r}")
        labels = np.asarray(list(y), dtype=object)
        if len(labels) != len(X):
            raise ValueError(f"X has {len(X)} rows but y has {len(labels)} labels")
        rng = np.random.default_rng(self.random_state)
        draws = []
        for _ in range(self.n_resamples):
            rows = rng.integers(0, len(X), len(X))
            if len(set(labels[rows])) >= 2:  # the learner needs two marks; rare, skipped
                draws.append(rows)
        if not draws:  # nothing to learn (n_resamples=0): the learner is not asked for anything
            return PendingAgreement(self, (), [], [])
        job = (type(learner), learner.get_params(), learner.target_name_, X, labels)
        parts = [list(p) for p in np.array_split(np.arange(len(draws)), CHUNKS) if len(p)]
        futures = []
        if executor is not None and len(parts) > 1:
            try:
                futures = [executor.submit(fit_resamples, *job, [draws[i] for i in part]) for part in parts]
            except Exception as exc:  # no worker to be had: learned here (same rule lists)
                log.warning("resamples learned in this process: %s", exc)
                futures = []
        return PendingAgreement(self, job, [[draws[i] for i in part] for part in parts], futures)

    def verdicts(self, learner: Any, X: pd.DataFrame, table: Any = None
                 ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(labels, confidences, rule index) of each resampled rule list on the rows of X
        (None / NaN / -1 where none of its rules applies). `learner` is the model trained on
        all the answers; `table`: `learner.encode(X, rules)` for rules that include all the
        resampled ones, when the caller has it."""
        if not self.rule_lists_:
            return []
        if table is None:
            table = learner.encode(X, [r for rules in self.rule_lists_ for r in rules])
        return [evaluate_ordered(rules, table) for rules in self.rule_lists_]

    def agreement(self, learner: Any, X: pd.DataFrame, marks: Sequence,
                  verdicts: list | None = None) -> np.ndarray:
        """For each row, the share of resampled rule lists that give it `marks[i]` (a row no
        resample marks that way, or one with no mark, gets 0); NaN everywhere when there are
        no resamples. `verdicts`: those of `verdicts(learner, X)`, if already computed."""
        marks = np.asarray(list(marks), dtype=object)
        if verdicts is None:
            verdicts = self.verdicts(learner, X)
        if not verdicts:
            return np.full(len(marks), np.nan)
        agree = np.zeros(len(marks))
        for labels, _, _ in verdicts:
            agree += (labels == marks) & (marks != None)  # noqa: E711 (elementwise on objects)
        return agree / len(verdicts)


    def check_features(self, learner: Any, where: str = "agreement") -> None:
        """ModelFileError unless every feature the resampled rules use is one `learner` knows."""
        from grader.confold.model_file import ModelFileError
        known = set(learner.feature_names_in_) | {d.name for d in learner.predicates_}
        unknown = sorted(set(rule_features([r for rules in self.rule_lists_ for r in rules])) - known)
        if unknown:
            raise ModelFileError(f"{where}: rules use feature(s) {', '.join(unknown)}, which the model "
                                 f"does not have")

    def to_dict(self) -> dict:
        from grader.confold.model_file import rule_to_dict
        return {"n_resamples": self.n_resamples, "random_state": self.random_state,
                "rule_lists": [[rule_to_dict(r) for r in rules] for rules in self.rule_lists_]}

    @classmethod
    def from_dict(cls, data: Mapping, where: str = "agreement") -> ResampledAgreement:
        from grader.confold.model_file import ModelFileError, rule_from_dict
        if not isinstance(data, Mapping) or not isinstance(data.get("rule_lists"), list):
            raise ModelFileError(f"{where}: should be an object with a list 'rule_lists'")
        made = cls(int(data.get("n_resamples", 0)), int(data.get("random_state", 0)))
        made.rule_lists_ = [[rule_from_dict(r, f"{where}.rule_lists[{i}][{j}]") for j, r in enumerate(rules)]
                            for i, rules in enumerate(data["rule_lists"])]
        return made


def majority_vote(labels: np.ndarray, confidence: np.ndarray, verdicts: list, unmarked: bool = True,
                  wording: Mapping[str, np.ndarray] | None = None, wording_weight: float = WORDING_WEIGHT
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The mark most of the rule lists give each row: the main model's (`labels`, one vote)
    and the resampled ones (`verdicts`, one vote each); a tie keeps the main model's mark.
    An answer none of the main model's rules marks gets the mark most of the resampled lists
    that mark it give (`unmarked`; else, and when no list marks it, it stays unmarked, for a
    human).

    Why: the rules learned from one set of marked answers depend on which answers happened
    to be in it (on Beetle, 5-fold CV inside split=train, about 0.92 correct on the answers
    they were learned from against 0.73 on the others). The mark most resampled rule lists
    agree on depends less on that accident, and it is still a rule's mark: the rule of the
    first resample giving it. The resampled lists obey the same evidence rules as the main
    one, so a mark above the lowest still rests on what the answer says; marking the answers
    the main rules leave raised the 5-way macro-F1 from 0.540 to 0.629 (CV, docs/beetle.md)
    and their confidence (`list_share`) is low enough that they are flagged.
    `wording` (mark -> each row's wording score, 0-1, `WordingSupport.vote_scores`): a mark's
    share of the lists gets `wording_weight` times its wording score added, so that where the
    lists are split, the mark the answer reads like wins; only a mark some list gives can win,
    so every mark is still a rule's (docs/beetle.md: 5-fold CV, two fold seeds, with the
    reader of words and features: 5-way accuracy +0.023-0.027, 3-way +0.014-0.017, 2-way
    +0.006-0.008 over the plain vote, most questions better or the same).
    Returns (marks, rule confidences, borrowed): borrowed[i] is (resample, rule index) where
    the vote changed the main model's mark, else None."""
    marks = np.asarray(labels, dtype=object).copy()
    confidence = np.asarray(confidence, dtype=float).copy()
    borrowed = np.full(len(marks), None, dtype=object)
    if not verdicts or not len(marks):
        return marks, confidence, borrowed
    votes = np.vstack([np.asarray(v[0], dtype=object) for v in verdicts])  # resamples x answers
    candidates = sorted({m for m in marks if m is not None} | {m for m in votes.ravel() if m is not None},
                        key=str)
    if not candidates:  # no list marks anything
        return marks, confidence, borrowed
    counts = np.vstack([(votes == m).sum(axis=0) + 1.5 * (marks == m) for m in candidates])
    # the main model's vote counts 1, and 0.5 more breaks a tie in its favour
    score = counts / (len(verdicts) + 1)
    if wording is not None:
        zero = np.zeros(len(marks))
        score = score + wording_weight * np.vstack([np.asarray(wording.get(str(m), zero), dtype=float)
                                                    for m in candidates])
    score = np.where(counts > 0, score, -np.inf)  # only a mark some list gives
    winner = np.asarray(candidates, dtype=object)[score.argmax(axis=0)]
    winner[counts.max(axis=0) == 0] = None  # no list marks it
    voting = (marks != None) if not unmarked else np.ones(len(marks), dtype=bool)  # noqa: E711
    changed = np.flatnonzero(voting & (winner != None) & (winner != marks))  # noqa: E711 (elementwise)
    first = (votes[:, changed] == winner[changed]).argmax(axis=0)  # the first resample giving it
    for i, j in zip(changed, first):
        marks[i], confidence[i] = winner[i], verdicts[j][1][i]
        borrowed[i] = (int(j), int(verdicts[j][2][i]))
    return marks, confidence, borrowed


def list_share(main_labels: np.ndarray, marks: np.ndarray, verdicts: list) -> np.ndarray:
    """For each row with a mark, how many of all the rule lists (the main model's and the
    resampled ones) give it `marks[i]`, as the rule of succession (k + 1) / (n + 2): 19 of
    21 lists give 0.87, all 21 give 0.96, never 1. NaN for a row without a mark, and
    everywhere without resamples.

    Why it is the confidence of a mark (times the wording support): a learned rule's own
    confidence is measured on the answers it was learned from, where rules fit closely, and
    ranked the wrong marks worse than this share on cross-validation (Beetle, 5-fold CV in
    split=train, seeds 0 and 1, 30% flagged: 2-way 0.938 -> 0.942 and 0.933 -> 0.939 correct
    left to the machine, 3-way 0.840 -> 0.849 and 0.844 -> 0.844), and it reads as a
    probability: the mean gap between a confidence and the accuracy of the marks given with
    it fell from about 0.14 to 0.03-0.06 (docs/beetle.md). The plain share k / n ranked the
    same but gave 28-56% of the answers 1.00, and 4-9% of those were wrong."""
    marks = np.asarray(marks, dtype=object)
    if not verdicts:
        return np.full(len(marks), np.nan)
    given = marks != None  # noqa: E711 (elementwise on objects)
    agree = ((np.asarray(main_labels, dtype=object) == marks) & given).astype(float)
    for labels, _, _ in verdicts:
        agree += (np.asarray(labels, dtype=object) == marks) & given
    return np.where(given, (agree + 1) / (len(verdicts) + 3), np.nan)
