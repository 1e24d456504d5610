"""When a teacher can stop marking: a promise on the marks left to the machine, from spot checks.

Cross-validated confidences describe the marked answers; a teacher signs the marks of *this*
class. What makes a promise about them valid is a random check of some machine marks, kept out
of training: among N machine marks with W wrong, the wrong ones among n checked at random
follow the hypergeometric law, so exact bounds on W follow (scipy; no normal approximation,
which is wrong at the few errors that matter here). To let the machine keep as many answers as
it can, the thresholds on the confidence are tried from the most to the least confident
(fixed-sequence testing: each test at the full level, stopping at the first that fails, keeps
the chance of a false promise at most 1 - level), and the checks, drawn at random among all
the machine's marks, serve every threshold at no extra cost. A threshold is tried only once
its answers hold enough checks to vouch for the target at all (that depends on where the
checks fell, not on whether they were right).

The promise is on the answers left to the machine (the checked ones are the teacher's
decisions); when it cannot be made, the advice says what to do next: check more answers at
random, or mark more (when the checks show the machine is too often wrong for the target).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy.stats import hypergeom

from grader.grading.defaults import DEFAULT_STOP_TARGET as DEFAULT_TARGET  # noqa: F401 (re-exported)
#: The label of the advice pooled over an exam's questions (the app and the command line).
POOLED = "all questions pooled"
#: Thresholds are tried on a grid of 1 / STEPS.
STEPS = 100
#: Confidence of the promise (and of its interval: two-sided, each tail (1 - LEVEL) / 2).
LEVEL = 0.9


def wrong_upper(population: int, checked: int, wrong: int, alpha: float) -> int:
    """The largest number of wrong marks among `population` that `wrong` of `checked` checked
    at random leave plausible at level `alpha` (one-sided, exact). P(at most `wrong` seen)
    falls as the wrong marks grow: a binary search."""
    lo, hi = wrong, population - (checked - wrong)  # plausible at lo (or nothing is)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if hypergeom.cdf(wrong, population, mid, checked) > alpha:
            lo = mid
        else:
            hi = mid - 1
    return lo


def wrong_lower(population: int, checked: int, wrong: int, alpha: float) -> int:
    """The smallest number of wrong marks left plausible at level `alpha` (one-sided, exact);
    P(at least `wrong` seen) grows with the wrong marks: a binary search."""
    if wrong == 0:
        return 0
    lo, hi = wrong, population - (checked - wrong)
    while lo < hi:
        mid = (lo + hi) // 2
        if hypergeom.sf(wrong - 1, population, mid, checked) > alpha:
            hi = mid
        else:
            lo = mid + 1
    return lo


def allowed_wrong(population: int, target: float) -> int:
    """The most wrong marks among `population` that still reach `target`."""
    return math.floor((1 - target) * population + 1e-9)


def vouches(population: int, checked: int, wrong: int, target: float, level: float = LEVEL,
            allowed: int | None = None) -> bool:
    """Whether the checks reject "fewer than `target` of the `population` marks are right"
    (or, given `allowed`, "more than `allowed` of them are wrong")."""
    too_many = (allowed_wrong(population, target) if allowed is None else allowed) + 1  # the fewest that miss
    if too_many > population:
        return True
    return bool(hypergeom.cdf(wrong, population, too_many, checked) <= 1 - level + 1e-12)


def checks_needed(population: int, target: float, level: float = LEVEL, allowed: int | None = None) -> int:
    """The fewest random checks, all right, that vouch for `target` on `population` marks
    (or for at most `allowed` of them wrong)."""
    return _fewest_checks(population, 0, 0, target, level, allowed) or 0


def _fewest_checks(population: int, checked: int, wrong: int, target: float, level: float,
                   allowed: int | None = None) -> int | None:
    """The fewest further checks, all right, after which `population` marks are vouched for;
    None when no number of them would do (too many wrong already). A binary search: more
    checks with no more wrong only make the promise easier."""
    if not vouches(population, population, wrong, target, level, allowed):
        return None
    lo, hi = checked, population  # vouches at hi
    while lo < hi:
        mid = (lo + hi) // 2
        if vouches(population, mid, wrong, target, level, allowed):
            hi = mid
        else:
            lo = mid + 1
    return lo - checked


@dataclass(frozen=True)
class StopAdvice:
    """What the checks say: stop (and what the machine's marks are worth), or what to do next."""

    action: str  # "stop", "check" or "mark"
    target: float
    level: float
    threshold: float  # machine marks at or above this confidence are vouched for (NaN if none)
    left: int  # answers left to the machine at that threshold, not checked
    estimate: float  # their estimated share right (NaN without checks among them)
    low: float
    high: float
    checked: int  # checks among the machine's marks at that threshold
    wrong: int  # of them, wrong
    more_checks: int  # random checks still to do, if they come out right ("check")
    class_size: int = 0  # when the target is on a whole class's final marks: its answers (else 0)
    below: int = 0  # machine marks under the threshold, not checked: the teacher's to decide ("stop")

    @property
    def class_estimate(self) -> float:
        """The estimated share of the class's final marks right (the teacher's decisions right);
        NaN when the target is on the machine's marks alone."""
        return self._on_class(self.estimate)

    @property
    def class_low(self) -> float:
        """The lowest share of the class's final marks right that the interval leaves."""
        return self._on_class(self.low)

    @property
    def class_high(self) -> float:
        return self._on_class(self.high)

    def _on_class(self, share: float) -> float:
        if not self.class_size:
            return math.nan
        if self.left == 0:
            return 1.0
        return math.nan if math.isnan(share) else 1 - (1 - share) * self.left / self.class_size

    def message(self) -> str:
        """The advice in a teacher's words."""
        figures = (f"estimated {self.estimate:.0%} right (from {self.low:.0%} to {self.high:.0%}, "
                   f"{self.level:.0%} confidence)" if not math.isnan(self.estimate) else "")
        if self.action == "stop" and self.below:
            return (f"decide the {self.below} machine marks below {self.threshold:.0%} confidence (set the flag "
                    f"threshold there to see them), then " + replace(self, below=0).message())
        if self.action == "stop" and self.class_size:
            whole = (f"with your decisions, the class's {self.class_size} marks are estimated {self.class_estimate:.0%} "
                     f"right (from {self.class_low:.0%} to {self.class_high:.0%}, {self.level:.0%} confidence)")
            if self.left == 0:
                return ("decide the answers flagged for you, and the class is marked: nothing is left to the "
                        "machine, so every mark will be yours")
            if self.checked == 0:
                return (f"you can stop marking: the {self.left} answers left to the machine are too few to bring the "
                        f"class's marks below {self.target:.0%} even if all were wrong; {whole}")
            return (f"you can stop marking: the {self.left} answers left to the machine are {figures}, from "
                    f"{self.checked} checked at random; {whole}")
        if self.action == "stop":
            return (f"you can stop marking: the {self.left} answers left to the machine are {figures}, "
                    f"from {self.checked} checked at random")
        whose = "the class's marks" if self.class_size else "its marks"
        if self.action == "check":
            return (f"check {self.more_checks} more of the machine's marks, drawn at random: if they are right, "
                    f"{whose} can be vouched for at {self.target:.0%}" + (f" (now {figures})" if figures else ""))
        if self.left == 0:
            return ("mark more answers (those proposed first): the machine marks too few of the rest for checks "
                    "to save any work")
        return (f"mark more answers (those proposed first): {self.wrong} of {self.checked} checked machine marks "
                f"were wrong, too many to vouch for {self.target:.0%}" + (" of the class's marks" if self.class_size else "")
                + (f" (now {figures})" if figures else ""))

    def to_dict(self) -> dict:
        return {"action": self.action, "message": self.message(), "target": self.target, "level": self.level,
                **{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in (
                    ("threshold", self.threshold), ("left", self.left), ("estimate", self.estimate),
                    ("low", self.low), ("high", self.high), ("checked", self.checked), ("wrong", self.wrong),
                    ("more_checks", self.more_checks), ("class_size", self.class_size),
                    ("class_estimate", self.class_estimate), ("class_low", self.class_low),
                    ("class_high", self.class_high), ("below", self.below))}}


def interval(population: int, checked: int, wrong: int, level: float = LEVEL) -> tuple[float, float, float]:
    """(estimate, low, high) of the share right among the `population - checked` marks not
    checked; NaN without checks."""
    left = population - checked
    if checked == 0 or left == 0:
        return math.nan, math.nan, math.nan
    alpha = (1 - level) / 2
    guess = wrong / checked * population - wrong  # wrong ones expected among the unchecked
    hi = wrong_upper(population, checked, wrong, alpha) - wrong
    lo = wrong_lower(population, checked, wrong, alpha) - wrong
    return 1 - guess / left, 1 - hi / left, 1 - lo / left


def stop_advice(confidence: Sequence[float], machine: Sequence[bool], checked: Sequence[bool],
                right: Sequence[bool], target: float, level: float = LEVEL,
                class_size: int | None = None) -> StopAdvice:
    """The advice for one class (or an exam's pooled classes). Per answer: its mark's
    `confidence`, whether the `machine` marks it (a proposed mark, not the teacher's), whether
    it was `checked` (drawn at random among the machine's marks) and, if so, whether its mark
    was `right`. By default `target` is on the machine's marks; given `class_size` (the
    answers of the class, or exam, the machine's and the teacher's together), it is on the
    class's final marks, the teacher's decisions counting as right: the machine may then be
    wrong on (1 - target) x class_size of its marks, which takes fewer checks to vouch for, and
    none when it keeps no more answers than that (their estimate is then their confidence, and
    the interval all that is possible: the class's share right is certain to be in it)."""
    if not 0 < target < 1:
        raise ValueError(f"the target accuracy must be between 0 and 1 (e.g. 0.95), not {target!r}")
    conf = np.asarray(confidence, dtype=float)
    machine = np.asarray(machine, dtype=bool) & ~np.isnan(conf)
    checked = np.asarray(checked, dtype=bool) & machine
    wrong_mark = checked & ~np.asarray(right, dtype=bool)
    # most confident first, on a grid of 0.01 so that a large class is tried at 101 thresholds at most
    levels = np.unique(np.floor(conf[machine] * STEPS + 1e-9) / STEPS)[::-1]
    pools = [machine & (conf >= t) for t in levels]
    counts = [(int(p.sum()), int((p & checked).sum()), int((p & wrong_mark).sum())) for p in pools]
    allowed = None if class_size is None else allowed_wrong(class_size, target)
    start = _start(counts, target, level, allowed)
    best, failed = None, None
    for t, (n_pool, n_checked, n_wrong) in zip(levels[start:], counts[start:]):
        if not vouches(n_pool, n_checked, n_wrong, target, level, allowed):
            failed = (n_pool, n_checked, n_wrong)
            break
        best = (t, n_pool, n_checked, n_wrong)
    if best is not None and best[1] > best[2]:  # something is left to the machine
        t, n_pool, n_checked, n_wrong = best
        figures = interval(n_pool, n_checked, n_wrong, level)
        if n_checked == 0:  # too few to miss the class's target even if all were wrong: their
            kept = machine & (conf >= t)  # confidence is the only estimate, any share is possible
            figures = (float(np.clip(np.mean(conf[kept]), 0, 1)), 0.0, 1.0)
        below = int((machine & ~checked & (conf < t)).sum())
        return StopAdvice("stop", target, level, float(t), n_pool - n_checked, *figures, n_checked, n_wrong, 0,
                          class_size or 0, below)
    if class_size and not machine.any():  # every mark is the teacher's
        return StopAdvice("stop", target, level, math.nan, 0, math.nan, math.nan, math.nan, 0, 0, 0, class_size)
    n_pool, n_checked, n_wrong = int(machine.sum()), int(checked.sum()), int(wrong_mark.sum())
    estimate, low, high = interval(n_pool, n_checked, n_wrong, level)
    # what would make the first threshold tried (the one that failed) vouch, or all the machine's marks
    first = failed if failed is not None and best is None else (n_pool, n_checked, n_wrong)
    more = _fewest_checks(*first, target, level, allowed) if first[0] > first[1] else None
    if more == 0:  # the sequence failed above: more checks there, drawn among all the machine's marks
        more = None
    action = "check" if more is not None else "mark"
    return StopAdvice(action, target, level, math.nan, n_pool - n_checked, estimate, low, high, n_checked,
                      n_wrong, more or 0, class_size or 0)


def _start(counts: list[tuple[int, int, int]], target: float, level: float, allowed: int | None) -> int:
    """Where the sequence starts: the most confident threshold whose answers hold enough checks
    to vouch for the target even with one of them wrong, else with none wrong, else the last.
    It depends on where the checks fell, never on whether they were right, so every test
    after it keeps the full level."""
    for slack in (1, 0):
        for i, (n_pool, n_checked, _) in enumerate(counts):
            if n_pool > n_checked and vouches(n_pool, n_checked, slack, target, level, allowed):
                return i
    return max(len(counts) - 1, 0)
