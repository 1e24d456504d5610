"""One class against the rest: constrained confidence-rated boosting of conjunctive rules.

This is the base setting of seed 001 (C2RIB, after SLIPPER: Cohen & Singer 1999) on a
propositional table. Each round:

1. split the examples at random into a growing set (2/3 of the weight) and a pruning set;
2. grow a conjunction on the growing set, one literal at a time, maximising
   sqrt(W+) - sqrt(W-) until no literal improves it or it covers no negative weight;
3. of its prefixes with a positive confidence on all examples, keep the one with the least
   loss on the pruning set; it becomes the round's rule unless the default rule (covering
   every example) has the larger z = (sqrt(W+) - sqrt(W-))^2;
4. the rule votes c = 1/2 ln((W+ + 1/2N) / (W- + 1/2N)) for the examples it covers (a
   positive vote: rules only speak for the class), and the weights are multiplied by
   exp(-y c) there.

With margin-based inclusion (`grader.boosting.feature_inclusion`) the rules may use only the
features included so far. Everything works on index arrays and weighted slot counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from grader.boosting.feature_inclusion import MarginMonitor, feature_ranking
from grader.boosting.weighted_search import WeightedSlots, allowed_slots
from grader.confold.encoding import EncodedTable
from grader.confold.literal_search import LiteralSearch
from grader.confold.rule_eval import literal_mask
from grader.confold.rules import Literal


@dataclass
class BinaryEnsemble:
    """What one class's boosting learned: rule bodies with their votes, the default vote (a
    constant, the sum of the default rule's rounds), and the learning history."""

    bodies: list[tuple[Literal, ...]] = field(default_factory=list)
    votes: list[float] = field(default_factory=list)
    default_vote: float = 0.0
    mean_margins: list[float] = field(default_factory=list)  # after each round
    min_margins: list[float] = field(default_factory=list)  # the hardest example's, after each round
    losses: list[float] = field(default_factory=list)  # mean exp(-y * score): what boosting lowers
    included: list[str] = field(default_factory=list)  # features in the order they were given
    included_at: list[int] = field(default_factory=list)  # the round each was given (0: at the start)


def confidence(w_pos: float, w_neg: float, smooth: float) -> float:
    """The paper's c(C, S) = 1/2 ln((W+ + smooth) / (W- + smooth)), smooth = 1/(2N)."""
    return 0.5 * math.log((w_pos + smooth) / (w_neg + smooth))


class BinaryBooster:
    """Boosts rules for one class (`is_pos`) on an encoded table; see the module doc."""

    def __init__(self, table: EncodedTable, search: LiteralSearch, n_rounds: int, max_literals: int,
                 rng: np.random.Generator, evidence: np.ndarray | None = None,
                 include_features: bool = True, initial_features: int = 2, window: int = 10,
                 alpha: float = 1.01):
        self.table = table
        self.search = search
        self.slots = WeightedSlots(search)
        self.n_rounds = n_rounds
        self.max_literals = max_literals
        self.rng = rng
        self.evidence = evidence
        self.include_features = include_features
        self.initial_features = initial_features
        self.window = window
        self.alpha = alpha

    def _covered(self, body: tuple[Literal, ...], rows: np.ndarray) -> np.ndarray:
        for lit in body:
            rows = rows[literal_mask(lit, self.table, rows)]
        return rows

    def _grow(self, pos: np.ndarray, neg: np.ndarray, weights: np.ndarray, allowed: np.ndarray
              ) -> tuple[Literal, ...]:
        body: list[Literal] = []
        allowed = allowed.copy()
        score = 0.0
        while len(body) < self.max_literals and weights[neg].sum() > 0:
            found = self.slots.best(pos, neg, weights, allowed)
            if found is None or found[0] - score <= 1e-12:
                break
            score, slot, second = found
            lit = self.search.literal(slot, second)
            allowed[slot] = False  # a value tested once is not offered again
            body.append(lit)
            pos = pos[literal_mask(lit, self.table, pos)]
            neg = neg[literal_mask(lit, self.table, neg)]
        return tuple(body)

    def _weights_of(self, body, pos, neg, weights) -> tuple[float, float]:
        return float(weights[self._covered(body, pos)].sum()), float(weights[self._covered(body, neg)].sum())

    def _prune(self, body, grow_pos, grow_neg, prune_pos, prune_neg, pos, neg, weights, smooth
               ) -> tuple[tuple[Literal, ...], float, float]:
        """The prefix of `body` with the least loss on the pruning set among those with a
        positive confidence on all examples: (body, W+, W-) on all examples; () if none."""
        best, best_loss, best_w = (), math.inf, (0.0, 0.0)
        prune_total = float(weights[prune_pos].sum() + weights[prune_neg].sum())
        for k in range(1, len(body) + 1):
            prefix = body[:k]
            w_pos, w_neg = self._weights_of(prefix, pos, neg, weights)
            if w_pos <= w_neg:  # c(C', E) <= 0
                continue
            c_grow = confidence(*self._weights_of(prefix, grow_pos, grow_neg, weights), smooth)
            p_pos, p_neg = self._weights_of(prefix, prune_pos, prune_neg, weights)
            loss = (prune_total - p_pos - p_neg) + p_pos * math.exp(-c_grow) + p_neg * math.exp(c_grow)
            if loss < best_loss - 1e-12:
                best, best_loss, best_w = prefix, loss, (w_pos, w_neg)
        return best, best_w[0], best_w[1]

    def fit(self, is_pos: np.ndarray) -> BinaryEnsemble:
        n = len(is_pos)
        smooth = 1.0 / (2 * n)
        y = np.where(is_pos, 1.0, -1.0)
        pos_all, neg_all = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
        weights = np.full(n, 1.0 / n)
        n_features = self.search.slots.shape[1]
        ranking = feature_ranking(self.search, is_pos)
        known = np.zeros(n_features, dtype=bool)
        result = BinaryEnsemble()

        def include(index: int, at_round: int) -> None:
            known[index] = True
            result.included.append(self.search.features[index].name)
            result.included_at.append(at_round)

        next_feature = 0
        if self.include_features:
            for index in ranking[:self.initial_features]:
                include(int(index), 0)
            next_feature = min(self.initial_features, n_features)
        else:
            known[:] = True
        monitor = MarginMonitor(self.window, self.alpha)
        score = np.zeros(n)  # the ensemble's summed vote per example
        total_abs = 0.0  # the sum of |vote| of every round, to normalise the margins
        for t in range(1, self.n_rounds + 1):
            order = self.rng.permutation(n)
            in_grow = np.zeros(n, dtype=bool)
            in_grow[order[np.cumsum(weights[order]) <= 2.0 / 3.0 + 1e-12]] = True
            grow_pos, grow_neg = pos_all[in_grow[pos_all]], neg_all[in_grow[neg_all]]
            prune_pos, prune_neg = pos_all[~in_grow[pos_all]], neg_all[~in_grow[neg_all]]
            allowed = allowed_slots(self.search, known, self.evidence)
            body = self._grow(grow_pos, grow_neg, weights, allowed)
            body, w_pos, w_neg = self._prune(body, grow_pos, grow_neg, prune_pos, prune_neg,
                                             pos_all, neg_all, weights, smooth)
            d_pos, d_neg = float(weights[pos_all].sum()), float(weights[neg_all].sum())
            if body and (math.sqrt(w_pos) - math.sqrt(w_neg)) ** 2 > (math.sqrt(d_pos) - math.sqrt(d_neg)) ** 2:
                vote = confidence(w_pos, w_neg, smooth)
                covered = np.zeros(n, dtype=bool)
                covered[self._covered(body, np.arange(n))] = True
                result.bodies.append(body)
                result.votes.append(vote)
            else:
                vote = confidence(d_pos, d_neg, smooth)
                covered = np.ones(n, dtype=bool)
                result.default_vote += vote
            score[covered] += vote
            total_abs += abs(vote)
            weights = weights * np.exp(-y * vote * covered)
            weights /= weights.sum()
            margin = float((y * score).mean() / total_abs) if total_abs > 0 else 0.0
            result.mean_margins.append(margin)
            result.min_margins.append(float((y * score).min() / total_abs) if total_abs > 0 else 0.0)
            result.losses.append(float(np.exp(-y * score).mean()))
            add = monitor.update(margin)  # never on the first two rounds
            if self.include_features and add and next_feature < n_features:
                include(int(ranking[next_feature]), t)
                next_feature += 1
        return result
