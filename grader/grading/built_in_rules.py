"""A rule every question gets unless its file says otherwise: an answer that says something
of the reference answer the other way round ("a shorter string gives a lower pitch" where the
reference has a longer one) earns the mark the marked answers that do so have.

Why: such answers are a few of any 30 marked, split among many ways of turning the reference
round, so the learner finds no rule for them and marks them by their words, which are the
reference's own; a teacher would not give them full credit. The rule is a starting point, not
the teacher's: it is given the mark most of the marked answers that turn the reference round
have, only when that mark is not the best one, and it is refined or dropped by the marked
answers like a learned rule kept from an earlier model (`ConFold(initial_rules=...)`). Where
no marked answer turns the reference round yet, the rule gives such answers no credit with a
low confidence of its own, as background (`_unseen_rule`): 30 marked answers often show none,
and the rest of the class then had them marked by the reference's words, as right. A
question file whose rules say anything of `ref:turned_round` gets none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pandas as pd

from grader.confold.fold import wilson
from grader.confold.rule_eval import rule_features
from grader.confold.rules import Literal, Rule
from knowledge.rule_marks import label_rules
from knowledge.schema import Question, mark_number

TURNED_ROUND = "ref:turned_round"
#: The name the rule carries while it is learned; once learned it is a learned rule like any
#: other (`grader.grading.training.learn`).
BUILT_IN = "built in: the reference turned round"


def best_mark(listed: Sequence[str], marks: Sequence[str]) -> str | None:
    """The best mark, where the file's list (lowest first) or the marks' numbers tell it."""
    if listed:
        return str(listed[-1])
    numbers = {m: mark_number(m) for m in set(marks)}
    if any(n is None for n in numbers.values()):
        return None  # words in no known order
    return max(numbers, key=lambda m: numbers[m])


def turned_round_rule(question: Question, X: pd.DataFrame, marks: Sequence[str],
                      listed: Sequence[str], no_credit: Sequence[str] = ()) -> Rule | None:
    """The built-in rule for `X`'s marked answers, or None: no column for it (the reference
    compares nothing), the teacher's rules use it, the best mark is not known, or it is the
    mark the marked answers that turn the reference round have most. Where none does, the
    rule of `_unseen_rule`."""
    if TURNED_ROUND not in X.columns:
        return None
    if any(TURNED_ROUND in rule_features([rule]) for rule in label_rules(question)):
        return None
    said = X[TURNED_ROUND].to_numpy() == "present"
    counts = Counter(str(m) for m, s in zip(marks, said) if s)
    best = best_mark(listed, marks)
    if best is None:
        return None
    if not counts:
        return _unseen_rule(listed, no_credit, marks)
    order = list(listed) if listed else sorted(counts, key=lambda m: mark_number(m))
    head = max(counts, key=lambda m: (counts[m], -order.index(m) if m in order else 0))
    if head == best:
        return None
    return Rule(head=head, body=(Literal(TURNED_ROUND, "==", "present"),), name=BUILT_IN, origin="initial")


#: The confidence of the rule no marked answer has shown yet: the Wilson centre of nothing
#: seen (0.5, whatever z), low enough that its marks go to a human.
UNSEEN_CONFIDENCE = wilson(0, 0)


def _unseen_rule(listed: Sequence[str], no_credit: Sequence[str], marks: Sequence[str]) -> Rule | None:
    """Where no marked answer turns the reference round yet, a teacher still gives such an
    answer no credit: the first of the file's no-credit marks ("contradictory"), else its
    lowest, with a low confidence fixed (its marks go to a human) and ahead of the rules
    learned (it marks no marked answer, so the learning is the same). A mark no marked answer
    has is passed over (the learner knows only those); None when the file lists no marks."""
    shown = set(map(str, marks))
    head = next((m for m in [*(m for m in listed if m in set(no_credit)), *listed[:1]] if m in shown), None)
    if head is None:
        return None
    return Rule(head=head, body=(Literal(TURNED_ROUND, "==", "present"),), confidence=UNSEEN_CONFIDENCE,
                fixed_confidence=True, name=BUILT_IN, origin="background")
