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
from dataclasses import dataclass

import numpy as np
from scipy.stats import hypergeom

#: Confidence of the promise (and of its interval: two-sided, each tail (1 - LEVEL) / 2).
LEVEL = 0.9


def wrong_upper(population: int, checked: int, wrong: int, alpha: float) -> int:
    """The largest number of wrong marks among `population` that `wrong` of `checked` checked
    at random leave plausible at level `alpha` (one-sided, exact)."""
    hi = population - (checked - wrong)
    candidates = np.arange(wrong, hi + 1)
    plausible = hypergeom.cdf(wrong, population, candidates, checked) > alpha
    return int(candidates[plausible].max()) if plausible.any() else wrong


def wrong_lower(population: int, checked: int, wrong: int, alpha: float) -> int:
    """The smallest number of wrong marks left plausible at level `alpha` (one-sided, exact)."""
    if wrong == 0:
        return 0
    hi = population - (checked - wrong)
    candidates = np.arange(wrong, hi + 1)
    plausible = hypergeom.sf(wrong - 1, population, candidates, checked) > alpha
    return int(candidates[plausible].min()) if plausible.any() else wrong


def vouches(population: int, checked: int, wrong: int, target: float, level: float = LEVEL) -> bool:
    """Whether the checks reject "fewer than `target` of the `population` marks are right"."""
    too_many = math.floor((1 - target) * population + 1e-9) + 1  # the fewest wrong that miss the target
    if too_many > population:
        return True
    return bool(hypergeom.cdf(wrong, population, too_many, checked) <= 1 - level + 1e-12)


def checks_needed(population: int, target: float, level: float = LEVEL) -> int:
    """The fewest random checks, all right, that vouch for `target` on `population` marks."""
    return _fewest_checks(population, 0, 0, target, level) or 0


def _fewest_checks(population: int, checked: int, wrong: int, target: float, level: float) -> int | None:
    """The fewest further checks, all right, after which `population` marks are vouched for;
    None when no number of them would do (too many wrong already)."""
    too_many = math.floor((1 - target) * population + 1e-9) + 1
    if too_many > population:
        return 0
    totals = np.arange(checked, population + 1)
    ok = hypergeom.cdf(wrong, population, too_many, totals) <= 1 - level + 1e-12
    return int(totals[ok][0] - checked) if ok.any() else None


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

    def message(self) -> str:
        """The advice in a teacher's words."""
        figures = (f"estimated {self.estimate:.0%} right (from {self.low:.0%} to {self.high:.0%}, "
                   f"{self.level:.0%} confidence)" if not math.isnan(self.estimate) else "")
        if self.action == "stop":
            return (f"you can stop marking: the {self.left} answers left to the machine are {figures}, "
                    f"from {self.checked} checked at random")
        if self.action == "check":
            return (f"check {self.more_checks} more of the machine's marks, drawn at random: if they are right, "
                    f"its marks can be vouched for at {self.target:.0%}" + (f" (now {figures})" if figures else ""))
        if self.left == 0:
            return ("mark more answers (those proposed first): the machine marks too few of the rest for checks "
                    "to save any work")
        return (f"mark more answers (those proposed first): {self.wrong} of {self.checked} checked machine marks "
                f"were wrong, too many to vouch for {self.target:.0%}" + (f" (now {figures})" if figures else ""))

    def to_dict(self) -> dict:
        return {"action": self.action, "message": self.message(), "target": self.target, "level": self.level,
                **{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in (
                    ("threshold", self.threshold), ("left", self.left), ("estimate", self.estimate),
                    ("low", self.low), ("high", self.high), ("checked", self.checked), ("wrong", self.wrong),
                    ("more_checks", self.more_checks))}}


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
                right: Sequence[bool], target: float, level: float = LEVEL) -> StopAdvice:
    """The advice for one class (or an exam's pooled classes). Per answer: its mark's
    `confidence`, whether the `machine` marks it (a proposed mark, not the teacher's), whether
    it was `checked` (drawn at random among the machine's marks) and, if so, whether its mark
    was `right`."""
    if not 0 < target < 1:
        raise ValueError(f"the target accuracy must be between 0 and 1 (e.g. 0.95), not {target!r}")
    conf = np.asarray(confidence, dtype=float)
    machine = np.asarray(machine, dtype=bool) & ~np.isnan(conf)
    checked = np.asarray(checked, dtype=bool) & machine
    wrong_mark = checked & ~np.asarray(right, dtype=bool)
    levels = np.unique(conf[machine])[::-1]  # most confident first
    best = None
    for t in levels:
        pool = machine & (conf >= t)
        n_pool, n_checked, n_wrong = int(pool.sum()), int((pool & checked).sum()), int((pool & wrong_mark).sum())
        if best is None and n_checked < checks_needed(n_pool, target, level):
            continue  # not enough checks here to vouch at all: the sequence starts further down
        if not vouches(n_pool, n_checked, n_wrong, target, level):
            break
        best = (t, n_pool, n_checked, n_wrong)
    if best is not None and best[1] > best[2]:  # something is left to the machine
        t, n_pool, n_checked, n_wrong = best
        return StopAdvice("stop", target, level, float(t), n_pool - n_checked,
                          *interval(n_pool, n_checked, n_wrong, level), n_checked, n_wrong, 0)
    n_pool, n_checked, n_wrong = int(machine.sum()), int(checked.sum()), int(wrong_mark.sum())
    estimate, low, high = interval(n_pool, n_checked, n_wrong, level)
    more = _fewest_checks(n_pool, n_checked, n_wrong, target, level) if n_pool > n_checked else None
    action = "check" if more is not None else "mark"
    return StopAdvice(action, target, level, math.nan, n_pool - n_checked, estimate, low, high, n_checked,
                      n_wrong, more or 0)
