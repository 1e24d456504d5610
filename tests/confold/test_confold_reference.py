"""ConFold against a direct, unvectorised transcription of FOLD-RM / CON-FOLD (Algorithms
3-4 of FOLD-RM, 1-2 of CON-FOLD) on random small tables: same rules, same confidences."""

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

from grader import ConFold
from grader.confold.encoding import encode_frame
from grader.confold.fold import wilson
from grader.confold.rule_eval import literal_mask, rule_mask
from grader.confold.rules import Rule
from tests.confold.test_information_gain import brute_force_best


class NaiveFold:
    def __init__(self, table, features, ratio=0.5):
        self.table, self.features, self.ratio = table, features, ratio

    def best(self, pos, neg, used):
        # brute_force_best ignores used literals: re-run it without them by blocking each
        gain, lit = brute_force_best(self.table, self.features, pos, neg, exclude=used)
        return lit

    def learn_rule(self, pos, neg, used):
        body, exceptions = [], []
        while True:
            lit = self.best(pos, neg, used + body)
            if lit is None:
                break
            body.append(lit)
            pos = pos[literal_mask(lit, self.table, pos)]
            neg = neg[literal_mask(lit, self.table, neg)]
            if len(neg) <= len(pos) * self.ratio:
                if len(neg):
                    exceptions = self.fold(neg, pos, used + body)
                break
        return Rule(None, tuple(body), exceptions)

    def fold(self, pos, neg, used):
        rules = []
        while len(pos):
            rule = self.learn_rule(pos, neg, used)
            if not rule.body:
                break
            covered = rule_mask(rule, self.table, pos)
            if not covered.any():
                break
            rules.append(rule)
            pos = pos[~covered]
        return rules

    def program(self, labels, classes):
        remaining = np.arange(len(labels))
        rules = []
        while len(remaining):
            counts = [int((labels[remaining] == c).sum()) for c in range(len(classes))]
            target = counts.index(max(counts))
            pos = remaining[labels[remaining] == target]
            neg = remaining[labels[remaining] != target]
            found = self.learn_rule(pos, neg, [])
            rule = Rule(classes[target], found.body, found.exceptions)
            cp, cn = rule_mask(rule, self.table, pos), rule_mask(rule, self.table, neg)
            if not cp.any():
                break
            rule.confidence = wilson(int(cp.sum()), int(cp.sum() + cn.sum()))
            rules.append(rule)
            remaining = np.sort(np.concatenate([pos[~cp], neg[~cn]]))
        return rules


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31), st.integers(6, 50))
def test_same_program_as_the_direct_transcription(seed, n):
    rng = np.random.default_rng(seed)
    num = rng.integers(0, 7, n).astype(float)
    num[rng.random(n) < 0.1] = np.nan
    X = pd.DataFrame({"num": num, "cat": rng.choice(["a", "b", "c", "d"], n),
                      "mixed": np.where(rng.random(n) < 0.3, rng.choice(["u", "v"], n),
                                        rng.integers(0, 4, n).astype(str)).astype(object)})
    signal = (X["cat"].isin(["a", "b"])).to_numpy().astype(int) + (num > 3)
    y = np.where(rng.random(n) < 0.75, signal, rng.integers(0, 3, n))
    if len(set(y)) < 2:
        y[0], y[1] = 0, 1
    model = ConFold().fit(X, pd.Series(y))
    classes = model.classes_
    labels = np.array([classes.index(v) for v in y])
    naive = NaiveFold(encode_frame(X), list(X.columns)).program(labels, classes)
    assert model.rules_ == naive
