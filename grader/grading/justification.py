"""The full justification of one answer's mark, as the app's "Full justification" and
`grader explain` show it.

Why a module of its own: grading a batch gives each answer a one-line explanation; a
marker who asks about one answer gets everything behind its mark (each condition of the
rule that fired checked against the answer, the exceptions that did not apply, how many
resampled rule lists agree, the wording support), worked out from the same decisions
`GradingModel.decide` takes, so that the justification never tells another story than the mark.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.confold.explain import Explanation, explain_table
from grader.grading.wording import support_phrase


def explain_answer(model: Any, answer: str) -> Explanation:
    """The justification of `answer`'s mark by `model` (a `GradingModel`, which calls this
    from its `explain`): the rule that gave the mark, the resampled one when the vote of the
    rule lists chose it."""
    X = model.features([answer])
    learner = model.learner
    if model.is_ensemble:
        explanation = learner.explain(X, descriptions=model.descriptions)[0]
        explanation.wording = model.words().ensemble_justification
        if model.wording is not None and explanation.label is not None:
            support, preferred = model.wording.judge([answer], [explanation.label], X=X)
            note_support(explanation, support[0], preferred[0])
        return explanation
    decisions = model.decide(X, [answer])  # the mark, after the vote of the resampled rule lists
    borrowed = decisions.borrowed[0]
    if borrowed is None:
        explanation = learner.explain(X, descriptions=model.descriptions)[0]
    else:
        rules = model.agreement.rule_lists_[borrowed[0]]
        explanation = next(explain_table(rules, learner.encode(X, rules), X, model.descriptions,
                                         learner.target_name_))
        explanation.origin = f"resample {borrowed[0] + 1}"  # said as such in the justification
    explanation.wording = model.words().justification
    if model.agreement is not None and model.agreement.rule_lists_ and explanation.rule_index is not None:
        share = decisions.agreement[0]
        explanation.resamples = len(model.agreement.rule_lists_)
        explanation.agreeing = round(share * explanation.resamples)
    if explanation.rule_index is not None:  # `decide` judged the same mark of the same answer
        note_support(explanation, decisions.support[0], decisions.preferred[0])
    if model.params.get("list_confidence") and explanation.rule_index is not None \
            and not np.isnan(decisions.confidence[0]):
        explanation.overall = float(decisions.confidence[0])  # the share of the rule lists, not the rule's
        if model.calibrated:  # the figure shown: a probability fitted on cross-validated marked answers
            explanation.confidence_name = "so the mark is right with a probability of about"
    return explanation


def note_support(explanation: Any, support: float, preferred: object) -> None:
    """The wording support of an explanation's mark and its phrase (nothing where there is
    no support figure)."""
    if not np.isnan(support):
        explanation.support = float(support)
        explanation.support_note = support_phrase(support, explanation.label, preferred)
