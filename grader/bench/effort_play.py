"""One question's class marked as in the app, with known true marks standing for the teacher's.

The teacher marks answers one at a time, in the Start view's order (`grader.grading.suggest`,
weighed by the current model's confidences and asked again after every mark) or in a random
order; the question's model is trained at the app's cadence (`grader.app.starter.retrain_due`:
first at 10 marks of two marks, then every `RETRAIN_EVERY` new marks). At each point of the
curve the current model grades the answers not marked yet, and the teacher finishes the class
in one of two ways:
- *one by one*: the flagged answers (default threshold) go to the Review queue, one decision
  each, always right; the machine's other marks stay as they are;
- *by groups*: first the Groups view's groups (`grader.app.grouping.groups_to_decide`: the
  answers nobody has decided, alike to a leader with the same proposed mark), one mark a group,
  the mark most of its members deserve, costing one decision plus one for each member with
  another true mark (taken out and decided alone), so every grouped answer ends right; then the
  flagged answers in no group, one by one. The machine keeps the rest.
The stop estimate (`grader.grading.stop`, the target on the class's final marks) is asked about
the machine's marks of the second way, the app's workflow (Start, Groups, Review).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from grader.app.starter import RETRAIN_EVERY, NoModel, retrain_due
from grader.bench.beetle_data import scheme_question

#: The answers marked at the points of a curve: 10, 20, 30, ... while answers remain.
STEP = 10


@dataclass(frozen=True)
class Point:
    """What a class took and how it ended after `marked` answers were marked."""

    marked: int
    size: int  # answers in the class
    queue: int  # flagged answers, decided one by one
    auto: int  # answers left to the machine, one by one
    auto_right: int  # of them, marked right
    group_decisions: int  # decisions by groups: the groups, their members taken out, the flagged rest
    group_auto: int  # answers left to the machine, by groups
    group_auto_right: int  # of them, marked right
    grouped: int  # unmarked answers in groups of two or more
    grouped_pure: int  # of them, with the mark most of their group deserve
    checks: int = 0  # machine marks checked at random, as the stop estimate asks (`grader.grading.stop`)
    stop: bool = False  # whether the checks let the teacher stop here
    kept: int = 0  # unchecked machine marks the estimate is about (those vouched for when `stop`)
    kept_right: int = 0  # of them, right
    estimate: float = float("nan")  # the class's final marks: their estimated share right, and its interval
    low: float = float("nan")
    high: float = float("nan")
    machine_confidence: tuple[float, ...] = ()  # the machine's marks (by groups): their confidences
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
        """By groups, then the checks and the machine's marks not vouched for, decided one by one."""
        return self.marked + self.group_decisions + self.group_auto - self.kept

    @property
    def accuracy_at_stop(self) -> float:
        return (self.size - self.kept + self.kept_right) / self.size

    @property
    def accuracy(self) -> float:
        """Final marks right, one by one: the teacher's (all right) and the machine's as they are."""
        return (self.size - self.auto + self.auto_right) / self.size

    @property
    def accuracy_by_groups(self) -> float:
        return (self.size - self.group_auto + self.group_auto_right) / self.size


def checkpoints(size: int) -> list[int]:
    """10, 20, ... below the class size (all marked is hand marking)."""
    return list(range(STEP, size, STEP))


def decide_by_groups(group: np.ndarray, flagged: np.ndarray, truth: np.ndarray) -> tuple[int, np.ndarray, int, int]:
    """The Groups view, then the Review queue, on one class's unmarked answers (`group` is
    `groups_to_decide`'s, -1 for an answer decided already; `flagged` and `truth` per answer):
    (decisions, which answers the teacher decided, answers in groups of two or more, of them
    with the mark most of their group deserve). A group's mark is the one most of its members
    deserve; each member with another true mark is taken out and decided alone."""
    decided = np.zeros(len(group), dtype=bool)
    decisions = grouped = pure = 0
    for g in np.unique(group[group >= 0]):
        members = np.flatnonzero(group == g)
        if len(members) < 2:
            continue
        _, counts = np.unique(truth[members].astype(str), return_counts=True)
        decisions += 1 + len(members) - int(counts.max())
        grouped += len(members)
        pure += int(counts.max())
        decided[members] = True
    alone = flagged & ~decided & (group >= 0)
    decided |= alone
    return decisions + int(alone.sum()), decided, grouped, pure


def measure(model, question, texts: list[str], truth: np.ndarray, marked: np.ndarray, target: float,
            rng: np.random.Generator) -> Point:
    """The point of the curve for the current model and the answers marked so far; the
    machine's marks left by groups are also checked at random as the stop estimate asks (the
    checks a perfect machine would need to vouch for `target` of the class's final marks) and
    the estimate given."""
    from grader.app.grouping import groups_to_decide
    from grader.grading.stop import allowed_wrong, checks_needed, stop_advice

    judge = model if model is not None else NoModel(question)
    rest = np.flatnonzero(~marked)
    graded = judge.grade([texts[i] for i in rest])
    flagged = graded["flagged"].to_numpy(dtype=bool)
    proposed = graded["mark"].to_numpy(dtype=object)
    right = proposed == truth[rest]
    every = np.full(len(texts), None, dtype=object)
    every[rest] = proposed
    group = groups_to_decide(judge.features(texts), texts, every, marked)[0][rest]
    decisions, decided, grouped, pure = decide_by_groups(group, flagged, truth[rest])
    machine = ~decided
    checked = np.zeros(len(rest), dtype=bool)
    pool = np.flatnonzero(machine)
    wanted = checks_needed(len(pool), target, allowed=allowed_wrong(len(texts), target))
    checked[rng.choice(pool, min(len(pool), wanted), replace=False)] = True
    confidence = graded["confidence"].to_numpy(dtype=float)
    advice = stop_advice(confidence, machine, checked, right, target, class_size=len(texts))
    kept = machine & ~checked & ((confidence >= advice.threshold) if advice.action == "stop" else True)
    return Point(int(marked.sum()), len(texts), int(flagged.sum()), int((~flagged).sum()),
                 int(right[~flagged].sum()), decisions, int(machine.sum()), int(right[machine].sum()),
                 grouped, pure, int(checked.sum()), advice.action == "stop", int(kept.sum()),
                 int(right[kept].sum()), advice.class_estimate, advice.class_low, advice.class_high,
                 tuple(confidence[machine].tolist()), tuple(right[machine].tolist()))


def play(record: dict, texts: list[str], truth: Sequence[str], scheme: str, order: str,
         seed: int = 0, target: float = 0.97, question=None, first: Sequence[int] = ()) -> list[Point]:
    """The curve of one question's class: a point at each of `checkpoints(len(texts))`; the
    stop estimate vouches for `target`. `question`: the teacher's question file (default: the
    bare one, `as_question`); `first`: the answers the teacher marked before the others (those
    a rubric was written from), in `order` after them."""
    from grader.grading.suggest import choice_confidence, suggest

    question = as_question(record, scheme) if question is None else question
    first = [int(i) for i in first]
    truth = np.asarray(truth, dtype=object)
    n = len(texts)
    marked = np.zeros(n, dtype=bool)
    permutation = np.random.default_rng(seed).permutation(n)
    model, confidence, trained_on = None, None, 0
    points: list[Point] = []
    for goal in checkpoints(n):
        while marked.sum() < goal:
            size = min(RETRAIN_EVERY, goal - int(marked.sum()))
            batch = [i for i in first if not marked[i]][:size]
            if not batch and order == "suggested":  # the Start view's proposals, asked again after a retrain
                batch = [s.index for s in suggest(texts, marked, size, confidence)]
            if not batch:  # random order; or the Start view proposes no copy of an answer already marked
                batch = permutation[np.flatnonzero(~marked[permutation])[:size]].tolist()
            for i in batch:
                marked[i] = True
                marks = truth[marked].tolist()
                if retrain_due(len(marks), trained_on, marks):
                    model, trained_on = _train(question, texts, marked, marks), len(marks)
                    if order == "suggested":
                        confidence = choice_confidence(model, texts)
                    break
        points.append(measure(model, question, texts, truth, marked, target,
                              np.random.default_rng([seed, goal])))
    return points


def _train(question, texts: list[str], marked: np.ndarray, marks: list[str]):
    """The question's model on the marks so far, with the app's options."""
    from grader.grading.model import GradingModel

    with warnings.catch_warnings():  # marks listed, lowest first: nothing to warn about
        warnings.simplefilter("ignore")
        return GradingModel.train(question, [texts[j] for j in np.flatnonzero(marked)], marks)


def as_question(record: dict, scheme: str):
    """A Beetle question record as the teacher's question file: its text, its reference
    answers, the scheme's marks, lowest first, and the others that give no credit (no rubric)."""
    from knowledge.schema import Question

    return scheme_question(Question(record["question_id"], record["question"], tuple(record["reference_answers"])),
                           scheme)
