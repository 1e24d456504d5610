"""The FOLD-RM learning loops with CON-FOLD's confidences and pruning, on encoded row indices.

Rows are identified by their index in the encoded training table; positives and negatives
are index arrays. Nothing here loops over examples in Python: coverage is computed with the
vectorised masks of `grader.confold.rule_eval`, literal choice with `grader.confold.literal_search`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable, NamedTuple, Sequence

import numpy as np

from grader.confold.encoding import EncodedTable
from grader.confold.literal_search import LiteralSearch
from grader.confold.rule_eval import any_rule_mask, literal_mask, rule_mask
from grader.confold.rules import Label, Literal, Rule
from grader.confold.slot_counts import SlotCounts


def wilson(n_pos: int, n: int, z: float = 3.0) -> float:
    """Centre of the Wilson score interval: CON-FOLD's confidence of a rule covering n
    training examples, n_pos of them of its class (0.5 when it covers none)."""
    z2 = z * z
    return float((n_pos + z2 / 2.0) / (n + z2))


@dataclass
class FoldLearner:
    """FOLD-RM's `learn_rule` and `fold` (the exception learner) over one encoded table."""

    table: EncodedTable
    search: LiteralSearch
    ratio: float = 0.5
    #: (n_slots, 2) mask of the literals that are evidence (`grader.confold.evidence`)
    evidence: np.ndarray | None = None

    def __post_init__(self) -> None:
        #: the slot and direction of every literal learned, to evaluate it from the slots
        #: (keyed with the value's type: True == 1 in Python, but not as categories)
        self._learned: dict[tuple, tuple[int, bool]] = {}

    def literal_rows(self, lit: Literal, rows: np.ndarray) -> np.ndarray:
        """`literal_mask(lit, table, rows)`; from the slot matrix for a learned literal."""
        learned = self._learned.get(_literal_key(lit))
        if learned is None:
            return literal_mask(lit, self.table, rows)
        return self.search.covers(learned[0], learned[1], rows)

    def learn_rule(self, pos: np.ndarray, neg: np.ndarray, used: Sequence[int] = (),
                   restrict: bool | np.ndarray | None = None, counts: SlotCounts | None = None
                   ) -> tuple[Rule, np.ndarray, np.ndarray]:
        """A rule body for `pos` against `neg` (head None). Literals are added until none
        helps or the rule covers at most `ratio` negatives per positive; the negatives it
        still covers then get exceptions. `used`: slots of the enclosing rules' literals.
        `restrict`: None, no restriction; True, the body uses only evidence literals and its
        exceptions anything; False, the other way round (and so on down the exceptions); an
        evidence mask (a label's own, `ConFold(label_evidence=)`): the body's first literal is
        evidence by that mask, the others and the exceptions anything.
        `counts`: `search.count(pos, neg)` if known.
        Returns (rule, positions in `pos`, positions in `neg` of the rows its body covers)."""
        found = self.learn_covering(pos, neg, used, restrict, counts)
        return found.rule, found.in_pos, found.in_neg

    def learn_covering(self, pos: np.ndarray, neg: np.ndarray, used: Sequence[int] = (),
                       restrict: bool | np.ndarray | None = None, counts: SlotCounts | None = None) -> "Learned":
        """`learn_rule`, also returning the rows the whole rule (body and exceptions) covers,
        known from learning it: its exceptions are learned on the rows its body covers, so
        what they cover there need not be evaluated again."""
        body = []
        banned = list(used)
        exceptions: list[Rule] = []
        allowed = restrict if isinstance(restrict, np.ndarray) else self.evidence if restrict else None
        in_pos, in_neg = np.arange(len(pos)), np.arange(len(neg))
        if counts is None:
            counts = self.search.count(pos, neg)
        while True:
            found = self.search.best(pos, neg, banned, allowed, counts)
            if found is None:  # no literal helps: stop here, without exceptions (as FOLD-RM)
                break
            _, lit, slot = found
            body.append(lit)
            banned.append(slot)
            if isinstance(restrict, np.ndarray):  # a label's own evidence: the body starts from it
                allowed = None
            second = lit.op in (">", "!=")
            self._learned[_literal_key(lit)] = (slot, second)
            keep_pos = self.search.covers(slot, second, pos)
            keep_neg = self.search.covers(slot, second, neg)
            kept = pos[keep_pos], neg[keep_neg]
            n_pos, n_neg = len(kept[0]), len(kept[1])
            done = n_neg <= n_pos * self.ratio
            if not done or n_neg:  # the counts are needed: for the next literal or the exceptions
                counts = self.search.narrow(counts, pos, keep_pos, neg, keep_neg, kept)
            pos, neg = kept
            in_pos, in_neg = in_pos[keep_pos], in_neg[keep_neg]
            if done:
                if n_neg:
                    exceptions, hit_neg, hit_pos = self._fold(neg, pos, banned, _flip(restrict),
                                                              self.search.swapped(counts))
                    rule = Rule(head=None, body=tuple(body), exceptions=exceptions)
                    return Learned(rule, in_pos, in_neg, in_pos[~hit_pos], in_neg[~hit_neg])
                break
        return Learned(Rule(head=None, body=tuple(body), exceptions=exceptions), in_pos, in_neg, in_pos, in_neg)

    def fold(self, pos: np.ndarray, neg: np.ndarray, used: Sequence[int] = (),
             restrict: bool | np.ndarray | None = None, counts: SlotCounts | None = None) -> list[Rule]:
        """Rules (a disjunction) covering `pos` but not `neg`: exceptions when called with
        a rule's covered negatives as `pos`. `restrict` and `counts` as in `learn_rule`."""
        return self._fold(pos, neg, used, restrict, counts)[0]

    def _fold(self, pos: np.ndarray, neg: np.ndarray, used: Sequence[int], restrict: bool | np.ndarray | None,
              counts: SlotCounts | None) -> tuple[list[Rule], np.ndarray, np.ndarray]:
        """`fold`, with the masks of `pos` and of `neg` where any of the rules holds."""
        rules: list[Rule] = []
        hit_pos = np.zeros(len(pos), dtype=bool)
        hit_neg = np.zeros(len(neg), dtype=bool)
        left = np.arange(len(pos))  # positions in the first `pos` of the rows still in play
        while len(pos):
            found = self.learn_covering(pos, neg, used, restrict, counts)
            if not found.rule.body:
                # An exception without literals would switch its parent off entirely; the
                # reference code can produce one, we stop instead.
                break
            if not found.cov_pos.size:
                break
            rules.append(found.rule)
            hit_neg[found.cov_neg] = True
            hit_pos[left[found.cov_pos]] = True
            if found.cov_pos.size == len(pos):
                break
            keep = np.ones(len(pos), dtype=bool)
            keep[found.cov_pos] = False
            kept = pos[keep]
            counts = self.search.narrow(counts, pos, keep, neg, None, (kept, neg))
            pos, left = kept, left[keep]
        return rules, hit_pos, hit_neg


class Learned(NamedTuple):
    """A rule learned for (pos, neg), with the positions in `pos` and in `neg` of the rows
    where its body holds (`in_*`) and where the whole rule does (`cov_*`), ascending."""

    rule: Rule
    in_pos: np.ndarray
    in_neg: np.ndarray
    cov_pos: np.ndarray
    cov_neg: np.ndarray


def covered_mask(rule: Rule, table: EncodedTable, rows: np.ndarray, in_body: np.ndarray,
                 literal_rows: Callable[[Literal, np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """`rule_mask(rule, table, rows)` when the positions `in_body` of `rows` are known to be
    those where the rule's body holds: only its exceptions are evaluated, on those rows.
    `literal_rows` as in `rule_mask`."""
    mask = np.zeros(len(rows), dtype=bool)
    if not rule.exceptions:
        mask[in_body] = True
        return mask
    unblocked = rule_mask(Rule(head=None, body=(), exceptions=rule.exceptions), table, rows[in_body],
                          literal_rows)
    mask[in_body[unblocked]] = True
    return mask


def _literal_key(lit: Literal) -> tuple:
    return (lit.feature, lit.op, type(lit.value), lit.value)


def _flip(restrict: bool | np.ndarray | None) -> bool | None:
    """The `restrict` of the exceptions of a rule learned with `restrict` (a label's own
    evidence mask counts as True: its exceptions are unrestricted)."""
    return None if restrict is None else not _restricted(restrict)


def _restricted(restrict: bool | np.ndarray | None) -> bool:
    """Must the rule rest on evidence (True, or a label's own evidence mask)?"""
    return restrict is not None and restrict is not False


def rule_confidence(rule: Rule, table: EncodedTable, pos: np.ndarray, neg: np.ndarray, z: float) -> float:
    tp = int(rule_mask(rule, table, pos).sum())
    fp = int(rule_mask(rule, table, neg).sum())
    return wilson(tp, tp + fp, z)


def prune_exceptions(rule: Rule, table: EncodedTable, pos: np.ndarray, neg: np.ndarray,
                     threshold: float, z: float,
                     in_body: tuple[np.ndarray, np.ndarray] | None = None,
                     literal_rows: Callable[[Literal, np.ndarray], np.ndarray] | None = None,
                     keep: Sequence[Rule] = ()) -> None:
    """CON-FOLD's improvement-threshold pruning (its Algorithm 2), in place.

    Each exception is removed in turn; if the top-level rule's confidence drops by less than
    `threshold` without it, it stays removed, otherwise the same test is applied to its own
    exceptions. Confidence is measured on this round's examples. `in_body`: the positions
    in `pos` and in `neg` of the rows where the rule's body holds, if known; `literal_rows`
    as in `rule_mask`. `keep`: exceptions (the objects) left as they are, with their own:
    a teacher's `unless`, which a small gain of confidence does not have to earn (see
    `drop_contradicted_exceptions`).
    """
    if in_body is None:
        body_only = Rule(head=None, body=rule.body)
        in_body = (np.flatnonzero(rule_mask(body_only, table, pos)),
                   np.flatnonzero(rule_mask(body_only, table, neg)))
    rows = np.concatenate([pos[in_body[0]], neg[in_body[1]]])
    is_pos = np.zeros(len(rows), dtype=bool)
    is_pos[:len(in_body[0])] = True

    def confidence() -> float:  # every row satisfies the body: only the exceptions decide
        covered = rule_mask(Rule(head=None, body=(), exceptions=rule.exceptions), table, rows, literal_rows)
        return wilson(int(is_pos[covered].sum()), int(covered.sum()), z)

    def loop(node: Rule) -> None:
        for exc in list(node.exceptions):
            if any(exc is k for k in keep):
                continue
            before = confidence()
            at = next(i for i, e in enumerate(node.exceptions) if e is exc)
            node.exceptions.pop(at)
            if before - confidence() < threshold:
                continue  # a tolerable loss of confidence: the exception goes
            node.exceptions.insert(at, exc)
            loop(exc)

    loop(rule)


def drop_contradicted_exceptions(rule: Rule, written: Sequence[Rule], table: EncodedTable, pos: np.ndarray,
                                 neg: np.ndarray, least: int) -> None:
    """Take from `rule` (in place) each of the teacher's exceptions (`written`) that the marked
    answers contradict: of the answers the rule's body holds on that it keeps the rule off,
    at least `least` and more than half have the rule's mark. The evidence a teacher would
    accept for "my `unless` is wrong"; a pruning on a small loss of confidence is not."""
    body = Rule(head=None, body=rule.body)
    in_pos, in_neg = pos[rule_mask(body, table, pos)], neg[rule_mask(body, table, neg)]
    for exc in [e for e in rule.exceptions if any(e is w for w in written)]:
        kept_off_pos = int(rule_mask(exc, table, in_pos).sum())
        kept_off_neg = int(rule_mask(exc, table, in_neg).sum())
        if kept_off_pos >= least and kept_off_pos > kept_off_neg:
            rule.exceptions = [e for e in rule.exceptions if e is not exc]


@dataclass
class ProgramLearner:
    """The CON-FOLD outer loop, and the treatment of a teacher's rules, on one table."""

    learner: FoldLearner
    labels: np.ndarray  # class index per training row
    classes: list
    improvement_threshold: float | None = None
    z: float = 3.0
    fold_rm_update: bool = False
    min_initial_precision: float = 0.5
    #: per class index: must its rules rest on evidence (`ConFold(evidence=...)`); None: no class
    needs_evidence: np.ndarray | None = None
    #: the answers of its label a teacher's initial rule must mark rightly to be kept (a learned
    #: rule given as initial, kept from an earlier model, needs one)
    min_initial_support: int = 1
    #: per class index: the evidence mask of a label with evidence of its own (`label_evidence`)
    evidence_by_class: dict[int, np.ndarray] | None = None
    #: per class index: `min_initial_support` for the labels with one of their own
    support_by_class: dict[int, int] | None = None
    #: names of initial rules kept as written, unsure, where no example meets them (`kept_unseen`)
    keep_unseen: frozenset[str] = frozenset()
    #: a teacher's rule -> the support it needs, where not its label's (`ConFold(initial_support=...)`)
    support_of: Callable[[Rule], int | None] | None = None

    def initial_support_of(self, rule: Rule) -> int:
        """The examples of its label a teacher's rule must mark rightly to be kept."""
        own = None if self.support_of is None else self.support_of(rule)
        if own is not None:
            return own
        return (self.support_by_class or {}).get(_class_index(self.classes, rule.head), self.min_initial_support)

    @property
    def table(self) -> EncodedTable:
        return self.learner.table

    def _restrict(self, head: Label) -> bool | np.ndarray | None:
        """`restrict` of `FoldLearner.learn_rule` for a rule giving `head`: None, False, True, or
        the label's own evidence mask."""
        if self.needs_evidence is None:
            return None
        index = _class_index(self.classes, head)
        if not self.needs_evidence[index]:
            return False
        return self.evidence_by_class.get(index, True) if self.evidence_by_class else True

    def _split(self, remaining: np.ndarray, head: Label) -> tuple[np.ndarray, np.ndarray]:
        target = _class_index(self.classes, head)
        is_pos = self.labels[remaining] == target
        return remaining[is_pos], remaining[~is_pos]

    def _after(self, rule: Rule, pos: np.ndarray, neg: np.ndarray,
               in_body: tuple[np.ndarray, np.ndarray] | None = None,
               covered: tuple[np.ndarray, np.ndarray] | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(covered positives mask, covered negatives mask, rows left for the next round).
        `in_body`: the positions in `pos` and `neg` where the rule's body holds, if known;
        `covered`: those where the whole rule holds, if known."""
        if covered is not None:
            cov_pos = np.zeros(len(pos), dtype=bool)
            cov_pos[covered[0]] = True
            cov_neg = np.zeros(len(neg), dtype=bool)
            cov_neg[covered[1]] = True
        elif in_body is None:
            cov_pos = rule_mask(rule, self.table, pos)
            cov_neg = rule_mask(rule, self.table, neg)
        else:
            cov_pos = covered_mask(rule, self.table, pos, in_body[0], self.learner.literal_rows)
            cov_neg = covered_mask(rule, self.table, neg, in_body[1], self.learner.literal_rows)
        kept_neg = neg if self.fold_rm_update else neg[~cov_neg]
        return cov_pos, cov_neg, np.sort(np.concatenate([pos[~cov_pos], kept_neg]))

    def apply_background(self, rule: Rule, remaining: np.ndarray) -> tuple[Rule, np.ndarray]:
        """A background label rule is kept as given; it gets a confidence from the data if
        it has none. The examples it covers are explained and leave the training set."""
        rule = copy.deepcopy(rule)
        rule.origin = "background"
        pos, neg = self._split(remaining, rule.head)
        cov_pos = rule_mask(rule, self.table, pos)
        cov_neg = rule_mask(rule, self.table, neg)
        if rule.confidence is None:
            rule.confidence = wilson(int(cov_pos.sum()), int(cov_pos.sum() + cov_neg.sum()), self.z)
        else:
            rule.fixed_confidence = True
        left = np.sort(np.concatenate([pos[~cov_pos], neg[~cov_neg]]))
        return rule, left

    def keep_unmarked(self, rule: Rule, remaining: np.ndarray) -> tuple[Rule, np.ndarray]:
        """A teacher's initial rule for a label no training example has: nothing to refine
        it on, so it is kept as written, as a background rule is (its confidence the given
        one, or Wilson's on the examples it covers, all of another label: 0.5 on none)."""
        kept, left = self.apply_background(rule, remaining)
        kept.origin = "initial"
        return kept, left

    def has_label(self, label: Label) -> bool:
        """Whether some training example has `label`."""
        return _class_index(self.classes, label) >= 0

    def supported_together(self, ways: list[Rule], remaining: np.ndarray) -> bool:
        """Do the ways of one teacher's rule (its `any:` alternatives) mark, together, as many of
        the examples left rightly as one rule must (`refine_initial`)? "distances backwards" is
        said by 2 marked answers one way and 1 each two other ways: 4 answers, one rule."""
        head = ways[0].head
        support = self.initial_support_of(ways[0])
        pos, _ = self._split(remaining, head)
        return int(any_rule_mask(ways, self.table, pos).sum()) >= max(support, 1)

    def kept_unseen(self, rule: Rule) -> bool:
        """Is `rule` an initial rule no example meets, for a label with a support of its own (a
        mark for a wrong idea, which few answers share) or named in `keep_unseen`? Such a rule
        is kept as written, unsure (`refine_initial`): nothing has shown it wrong, and 30 marked
        answers often show a teacher's wrong idea not once."""
        return ((_class_index(self.classes, rule.head) in (self.support_by_class or {})
                 or rule.name in self.keep_unseen)
                and not rule_mask(rule, self.table, np.arange(len(self.labels))).any())

    def refine_initial(self, rule: Rule, remaining: np.ndarray, other_way: bool = False
                       ) -> tuple[Rule | None, np.ndarray]:
        """Evaluate a teacher's initial rule on the examples left; learn exceptions for the
        negatives it covers (FOLD-RM does this for a learned rule once its body is complete),
        prune them like learned ones, and drop it (None) when it covers fewer positives than
        `min_initial_support` or is right less often than `min_initial_precision`; a rule for a
        wrong idea no example meets is kept as written at the confidence of nothing seen, 0.5
        (`kept_unseen`).
        `other_way`: the rule is another way of a teacher's rule kept before it (an alternative
        of its `any:`), whose answers may all be that way's: it needs no support of its own and
        is dropped only when wrong too often on the examples it reaches (kept as written, with
        the confidence of all the examples it covers, where it reaches none)."""
        support = 1 if rule.origin == "learned" else self.initial_support_of(rule)  # learned: kept from a model
        if other_way:
            support = 0
        teachers = rule.origin != "learned"  # not a learned rule kept from an earlier model
        rule = copy.deepcopy(rule)
        rule.origin = "initial"
        pos, neg = self._split(remaining, rule.head)
        cov_pos = rule_mask(rule, self.table, pos)
        if not cov_pos.any():
            if teachers and not other_way and self.kept_unseen(rule):
                rule.confidence, rule.fixed_confidence = wilson(0, 0, self.z), True
                return rule, remaining
            if not other_way or rule_mask(rule, self.table, neg).any():
                return None, remaining
            if rule.confidence is None:  # reaches nothing: as right as on the examples it covers
                every_pos, every_neg = self._split(np.arange(len(self.labels)), rule.head)
                n_pos = int(rule_mask(rule, self.table, every_pos).sum())
                rule.confidence = wilson(n_pos, n_pos + int(rule_mask(rule, self.table, every_neg).sum()), self.z)
            else:
                rule.fixed_confidence = True
            return rule, remaining
        written = list(rule.exceptions) if teachers else []  # pruned only on evidence against them
        drop_contradicted_exceptions(rule, written, self.table, pos, neg, max(self.min_initial_support, 1))
        cov_pos, cov_neg = rule_mask(rule, self.table, pos), rule_mask(rule, self.table, neg)
        if cov_neg.any():  # as for a learned rule once its body is complete
            used = [s for s in (self.learner.search.slot_of(l) for l in rule.body) if s is not None]
            rule.exceptions = list(rule.exceptions) + self.learner.fold(neg[cov_neg], pos[cov_pos], used,
                                                                        _flip(self._restrict(rule.head)))
        if self.improvement_threshold is not None:
            prune_exceptions(rule, self.table, pos, neg, self.improvement_threshold, self.z, keep=written)
        cov_pos, cov_neg, left = self._after(rule, pos, neg)
        tp, fp = int(cov_pos.sum()), int(cov_neg.sum())
        if tp == 0 or tp < support or tp / (tp + fp) < self.min_initial_precision:  # tp > 0 here
            return None, remaining
        if rule.confidence is None:
            rule.confidence = wilson(tp, tp + fp, self.z)
        else:
            rule.fixed_confidence = True
        return rule, left

    def _next_rule(self, remaining: np.ndarray, by_class: np.ndarray | None = None
                   ) -> tuple[Rule, np.ndarray, np.ndarray, Learned] | None:
        """CON-FOLD's next rule: for the commonest label left. When rules must rest on
        evidence and none is found for it (an empty body), the next commonest label is tried;
        None when no label gets one. Returns (rule, positives, negatives, what learning it
        found: the positions in each where its body and the whole rule hold).
        `by_class`: `search.count_by_class(remaining)`."""
        counts = np.bincount(self.labels[remaining], minlength=len(self.classes))
        if self.needs_evidence is None:
            order = [int(np.argmax(counts))]
        else:  # by count, ties to the first class as np.argmax does
            order = [int(i) for i in np.argsort(-counts, kind="stable") if counts[i]]
        for index in order:
            head = self.classes[index]
            pos, neg = self._split(remaining, head)
            restrict = self._restrict(head)
            counts = None if by_class is None else (by_class[index], by_class.sum(axis=0) - by_class[index])
            found = self.learner.learn_covering(pos, neg, (), restrict, counts)
            if _restricted(restrict) and not found.rule.body:
                continue
            rule = Rule(head=head, body=found.rule.body, exceptions=found.rule.exceptions, origin="learned")
            return rule, pos, neg, found
        return None

    def learn(self, remaining: np.ndarray) -> list[Rule]:
        """CON-FOLD's Algorithm 1 on the examples the given rules left unexplained."""
        rules: list[Rule] = []
        search = self.learner.search
        by_class = search.count_by_class(remaining, self.labels, len(self.classes))
        while remaining.size:
            found = self._next_rule(remaining, by_class)
            if found is None:
                break
            rule, pos, neg, learned = found
            in_body, covered = (learned.in_pos, learned.in_neg), (learned.cov_pos, learned.cov_neg)
            if self.improvement_threshold is not None and rule.exceptions:
                prune_exceptions(rule, self.table, pos, neg, self.improvement_threshold, self.z, in_body,
                                 self.learner.literal_rows)
                covered = None  # exceptions may have gone: evaluate them again
            cov_pos, cov_neg, left = self._after(rule, pos, neg, in_body, covered)
            tp, fp = np.count_nonzero(cov_pos), np.count_nonzero(cov_neg)
            if not tp:
                break
            rule.confidence = wilson(tp, tp + fp, self.z)
            rules.append(rule)
            if by_class is not None:  # the next round's counts: these rows leave
                leaving = pos[cov_pos] if self.fold_rm_update else np.concatenate([pos[cov_pos], neg[cov_neg]])
                by_class = search.uncount_by_class(by_class, leaving, left, self.labels)
            remaining = left
        return rules


def _class_index(classes: list, label: Label) -> int:
    for i, c in enumerate(classes):
        if type(c) is type(label) and c == label:
            return i
    for i, c in enumerate(classes):  # 1 and 1.0 name the same mark
        if not isinstance(c, (bool, str)) and not isinstance(label, (bool, str)) and c == label:
            return i
    return -1
