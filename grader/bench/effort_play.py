"""One question's class marked as in the app, with known true marks standing for the teacher's.

The teacher marks answers one at a time, in the Start view's order (`grader.grading.suggest`,
weighed by the current model's confidences and asked again after every mark) or in a random
order; the question's model is trained at the app's cadence (`grader.app.starter.retrain_due`:
first at 10 marks of two marks, then every `RETRAIN_EVERY` new marks). At each point of the
curve the current model grades the answers not marked yet; the flagged ones (default
threshold) go to the Review queue, which the teacher decides either one by one (one decision
each, always right) or by the Groups view's groups (`grader.app.grouping`): one mark for a
group, the true mark of its leader, costs one decision, plus one for each member whose true
mark differs (taken out and decided alone). Either way every flagged answer ends right; the
machine's marks left as they are end right or wrong.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from grader.app.starter import RETRAIN_EVERY, NoModel, retrain_due
from grader.bench.beetle import MARK_ORDER, NO_CREDIT

#: The answers marked at the points of a curve: 10, 20, 30, ... while answers remain.
STEP = 10


@dataclass(frozen=True)
class Point:
    """What a class took and how it ended after `marked` answers were marked."""

    marked: int
    size: int  # answers in the class
    queue: int  # flagged answers, decided one by one
    group_decisions: int  # the same queue decided by groups
    auto: int  # answers left to the machine
    auto_right: int  # of them, marked right
    grouped: int  # queued answers in groups of two or more
    grouped_pure: int  # of them, with the true mark of their group's leader
    checks: int = 0  # machine marks checked at random, as the stop estimate asks (`grader.grading.stop`)
    stop: bool = False  # whether the checks let the teacher stop here
    kept: int = 0  # unchecked machine marks the estimate is about (those vouched for when `stop`)
    kept_right: int = 0  # of them, right
    estimate: float = float("nan")  # their estimated share right, and its interval
    low: float = float("nan")
    high: float = float("nan")
    machine_confidence: tuple[float, ...] = ()  # the machine's marks (not flagged): their confidences
    machine_right: tuple[bool, ...] = ()  # and whether each is right (the exam's pooled stop, `effort_exam`)

    @property
    def decisions(self) -> int:
        """Marked + flagged answers decided one by one."""
        return self.marked + self.queue

    @property
    def decisions_by_groups(self) -> int:
        return self.marked + self.group_decisions

    @property
    def decisions_to_stop(self) -> int:
        """Everything but the machine marks vouched for is the teacher's (marked, decided, checked)."""
        return self.size - self.kept

    @property
    def accuracy_at_stop(self) -> float:
        return (self.size - self.kept + self.kept_right) / self.size

    @property
    def accuracy(self) -> float:
        """Final marks right: the teacher's (all right) and the machine's left as they are."""
        return (self.size - self.auto + self.auto_right) / self.size


def checkpoints(size: int) -> list[int]:
    """10, 20, ... below the class size (all marked is hand marking)."""
    return list(range(STEP, size, STEP))


def queue_by_groups(queue: np.ndarray, group: np.ndarray, leaders: Sequence[int],
                    truth: np.ndarray) -> tuple[int, int, int]:
    """(decisions, answers in groups of two or more, of them with their leader's true mark) to
    decide the queued answers `queue` by groups: a group's mark is the true mark of its leader
    (of its first queued answer when the leader is not queued)."""
    decisions = grouped = pure = 0
    for g in np.unique(group[queue]):
        members = queue[group[queue] == g]
        if len(members) == 1:
            decisions += 1
            continue
        leader = leaders[g] if leaders[g] in set(members.tolist()) else int(members[0])
        same = int((truth[members] == truth[leader]).sum())
        decisions += 1 + len(members) - same
        grouped += len(members)
        pure += same
    return decisions, grouped, pure


def measure(model, question, texts: list[str], truth: np.ndarray, marked: np.ndarray, target: float,
            rng: np.random.Generator) -> Point:
    """The point of the curve for the current model and the answers marked so far; the
    machine's marks are also checked at random as the stop estimate asks (the checks a perfect
    machine would need to vouch for `target`) and the estimate given."""
    from grader.app.grouping import group_answers
    from grader.grading.stop import checks_needed, stop_advice

    judge = model if model is not None else NoModel(question)
    rest = np.flatnonzero(~marked)
    graded = judge.grade([texts[i] for i in rest])
    flagged = graded["flagged"].to_numpy(dtype=bool)
    proposed = graded["mark"].to_numpy(dtype=object)
    right = proposed == truth[rest]
    auto_right = int(right[~flagged].sum())
    queue = rest[flagged]
    group, leaders = group_answers(judge.features(texts), texts)
    decisions, grouped, pure = queue_by_groups(queue, group, leaders, truth)
    machine = np.flatnonzero(~flagged)
    checked = np.zeros(len(rest), dtype=bool)
    checked[rng.choice(machine, min(len(machine), checks_needed(len(machine), target)), replace=False)] = True
    confidence = graded["confidence"].to_numpy(dtype=float)
    advice = stop_advice(confidence, ~flagged, checked, right, target)
    kept = ~flagged & ~checked & ((confidence >= advice.threshold) if advice.action == "stop" else True)
    return Point(int(marked.sum()), len(texts), len(queue), decisions, int((~flagged).sum()), auto_right,
                 grouped, pure, int(checked.sum()), advice.action == "stop", int(kept.sum()),
                 int(right[kept].sum()), advice.estimate, advice.low, advice.high,
                 tuple(confidence[~flagged].tolist()), tuple(right[~flagged].tolist()))


def play(record: dict, texts: list[str], truth: Sequence[str], scheme: str, order: str,
         seed: int = 0, target: float = 0.97) -> list[Point]:
    """The curve of one question's class: a point at each of `checkpoints(len(texts))`; the
    stop estimate vouches for `target`."""
    from grader.grading.suggest import choice_confidence, suggest

    question = as_question(record, scheme)
    truth = np.asarray(truth, dtype=object)
    n = len(texts)
    marked = np.zeros(n, dtype=bool)
    permutation = np.random.default_rng(seed).permutation(n)
    model, confidence, trained_on = None, None, 0
    points: list[Point] = []
    for goal in checkpoints(n):
        while marked.sum() < goal:
            size = min(RETRAIN_EVERY, goal - int(marked.sum()))
            batch = []
            if order == "suggested":  # the Start view's proposals, asked again after a retrain
                batch = [s.index for s in suggest(texts, marked, size, confidence)]
            if not batch:  # random order; or the Start view proposes no copy of an answer already marked
                batch = permutation[np.flatnonzero(~marked[permutation])[:size]].tolist()
            for i in batch:
                marked[i] = True
                marks = truth[marked].tolist()
                if retrain_due(len(marks), trained_on, marks):
                    model, trained_on = _train(question, texts, marked, marks, scheme), len(marks)
                    if order == "suggested":
                        confidence = choice_confidence(model, texts)
                    break
        points.append(measure(model, question, texts, truth, marked, target,
                              np.random.default_rng([seed, goal])))
    return points


def _train(question, texts: list[str], marked: np.ndarray, marks: list[str], scheme: str):
    """The question's model on the marks so far, with the app's options."""
    from grader.grading.model import GradingModel

    with warnings.catch_warnings():  # marks listed, lowest first: nothing to warn about
        warnings.simplefilter("ignore")
        return GradingModel.train(question, [texts[j] for j in np.flatnonzero(marked)], marks,
                                  lowest_marks=NO_CREDIT[scheme])


def as_question(record: dict, scheme: str):
    """A Beetle question record as the teacher's question file: its text, its reference
    answers and the scheme's marks, lowest first (no rubric)."""
    from knowledge.schema import Question

    return Question(record["question_id"], record["question"], tuple(record["reference_answers"]),
                    marks=MARK_ORDER[scheme])
