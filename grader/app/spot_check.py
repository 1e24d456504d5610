"""Spot checks: a marker checks a random sample of the automatic marks of this exam.

Why: cross-validation says how good the marks were on the marked answers; a teacher wants to
know how good they are on *this* exam. The app draws a random sample of the machine's marks
(a proposed mark, not flagged, not decided by a marker other than by a check), stratified by
the proposed mark so that every mark is checked, and estimates the accuracy of all the machine's
marks from the checked ones, with an interval, updated after every check.

A check is a decision: "right" saves the proposed mark as the marker's decision; "wrong"
sends the answer to the review queue, where the marker gives the right mark (a decision the
app can learn from). A sampled answer whose decision differs from the proposed mark counts
as wrong, one whose decision equals it as right, a sampled answer sent to the queue and not
yet decided as wrong.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grader.app.review import flagged

#: Two-sided 95% normal quantile, for the interval of the estimate.
Z_95 = 1.959963984540054


def machine_marks(table: pd.DataFrame, threshold: float) -> pd.Series:
    """Per row, whether the machine's mark is the answer's: marked automatically and not decided
    by a marker other than as a spot check (an answer a marker decided is theirs; a check keeps
    it among the machine's marks, so that the checks stay a random draw of them)."""
    decided = table["reviewed"].astype(bool)
    if "by_check" in table:
        decided &= ~table["by_check"].astype(bool)
    return table["proposed"].notna() & ~flagged(table, threshold) & ~decided


def _priority(seed: int, question_id: object, answer_id: object) -> int:
    """A random order of the answers that depends on the seed and the answer alone: an answer
    decided meanwhile leaves the sample without reshuffling the others."""
    digest = hashlib.blake2b(f"{seed}\x1f{question_id}\x1f{answer_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def draw_sample(table: pd.DataFrame, threshold: float, size: int, seed: int = 0) -> pd.DataFrame:
    """`size` of the machine's marks (`machine_marks`) at random, stratified by proposed mark:
    each mark gets a share of the sample proportional to its answers, and at least one (the
    largest remainders get the rest); within a mark, the answers first in a seeded random order.
    Same table, threshold, size and seed: same sample."""
    pool = table[machine_marks(table, threshold)]
    if size <= 0 or pool.empty:
        return pool.iloc[:0]
    size = min(int(size), len(pool))
    counts = pool["proposed"].astype(str).value_counts().sort_index()
    available = counts.to_numpy()
    exact = available * (size / len(pool))
    quota = np.floor(exact).astype(int)
    if size >= len(counts):
        quota = np.maximum(quota, 1)  # every mark is checked
    for i in np.argsort(-(exact - quota), kind="stable"):  # largest remainders first
        if quota.sum() < size and quota[i] < available[i]:
            quota[i] += 1
    while quota.sum() > size:
        quota[int(np.argmax(quota))] -= 1
    order = np.array([_priority(seed, q, a) for q, a in zip(pool["question_id"], pool["answer_id"])], dtype=np.uint64)
    parts = []
    for mark, k in zip(counts.index, quota):
        at = np.flatnonzero((pool["proposed"].astype(str) == mark).to_numpy())
        first = at[np.argsort(order[at], kind="stable")[:int(k)]]
        parts.append(pool.iloc[np.sort(first)])
    return pd.concat(parts).sort_values(["question_id", "answer_id"], kind="stable")


@dataclass(frozen=True)
class SpotEstimate:
    """The estimated accuracy of all automatic marks, from the checked sample."""

    accuracy: float  # NaN until something is checked
    low: float
    high: float
    checked: int
    right: int
    automatic: int  # answers marked automatically

    def message(self) -> str:
        if not self.checked:
            return (f"No spot check yet: check some of the {self.automatic} automatic marks to "
                    f"estimate how many are right.")
        return (f"Estimated accuracy of all {self.automatic} automatic marks: {self.accuracy:.0%} "
                f"(95% interval {self.low:.0%} to {self.high:.0%}), from {self.right} right of "
                f"{self.checked} checked.")


def check_results(sample: pd.DataFrame, sent_to_queue: Collection[tuple[str, str]]) -> pd.Series:
    """Per sampled answer: True (right), False (wrong) or None (not checked yet). `sample`
    rows carry the current `mark` and `reviewed` (`grader.app.review.with_decisions`)."""
    out = []
    for q, a, proposed, mark, reviewed in zip(sample["question_id"], sample["answer_id"], sample["proposed"],
                                              sample["mark"], sample["reviewed"]):
        if reviewed:
            out.append(str(mark) == str(proposed))
        elif (q, a) in sent_to_queue:
            out.append(False)
        else:
            out.append(None)
    return pd.Series(out, index=sample.index, dtype=object)


def estimate(sample: pd.DataFrame, results: pd.Series, table: pd.DataFrame, threshold: float) -> SpotEstimate:
    """Stratified estimate: each mark's share of right checks, weighted by its share of the
    automatic marks (a mark with no check yet counts at the overall share); the interval is
    the Wilson score interval at that accuracy and the number checked."""
    pool = table[machine_marks(table, threshold)]
    done = results.notna().to_numpy()
    n = int(done.sum())
    right = int(sum(bool(r) for r in results[done]))
    if n == 0:
        return SpotEstimate(math.nan, math.nan, math.nan, 0, 0, len(pool))
    overall = right / n
    marks = sample["proposed"].astype(str).to_numpy()[done]
    ok = np.asarray([bool(r) for r in results[done]])
    weights = pool["proposed"].astype(str).value_counts(normalize=True)
    p = sum(w * (ok[marks == m].mean() if (marks == m).any() else overall) for m, w in weights.items())
    low, high = wilson_interval(p, n)
    return SpotEstimate(float(p), low, high, n, right, len(pool))


def wilson_interval(p: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a share `p` observed on `n` checks."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - spread), min(1.0, centre + spread)
