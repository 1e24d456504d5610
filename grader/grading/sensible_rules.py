"""Learned rules that give a teacher no reason for their mark: the "sensible rules" check.

Why: a teacher accepts a mark for what an answer says ("says there is no gap", "gives 9.8
m/s^2", "reads like the answers marked correct"), not for what it leaves out. The evidence
option (`grader.grading.evidence`) keeps learned rules for a mark above the lowest on what an
answer says (for a mark that gives no credit, such as Beetle's 3-way "contradictory", a wrong
idea stated counts); marks given `lowest_marks` and the teacher's rules, once refined, are not
held to it. This check reads the learned rules of a trained model
and names those whose conditions say nothing the answer says, or only that it mentions a
phrase, with or without a negation (a reason for no mark but the lowest).
"""

from __future__ import annotations

from collections.abc import Sequence

from knowledge.schema import split_feature_name

#: Values of a categorical feature that say what the answer says.
SAID = frozenset({"present", "negated", "correct"})
#: Numeric features a higher value of which is something the answer says.
HIGHER_SAYS = frozenset({"similarity", "coverage", "precision", "value"})
NOTHING_SAID = "rests on nothing the answer says"
EITHER_WAY = "says only that the answer mentions a phrase, with or without a negation"


def literal_says(literal) -> str:
    """"said", "either way" (a phrase mentioned, denied or not) or "lacks" for one condition."""
    family, name = split_feature_name(str(literal.feature))
    kind = family or name
    if literal.op == "==":
        return "said" if literal.value is True or literal.value in SAID else "lacks"
    if literal.op == "!=":
        return "either way" if literal.value in ("absent", "missing") else "lacks"
    if literal.op in (">", ">="):
        return "said" if kind in HIGHER_SAYS else "lacks"
    return "said" if kind == "value" else "lacks"


def unsensible(rule, lowest: Sequence[str]) -> str | None:
    """Why a learned rule for a mark not in `lowest` gives a teacher no reason; None if it does."""
    if getattr(rule, "origin", "learned") != "learned" or str(rule.head) in set(map(str, lowest)):
        return None
    says = {literal_says(lit) for lit in rule.body}
    if "said" in says:
        return None
    return EITHER_WAY if "either way" in says else NOTHING_SAID


def unsensible_rules(model, lowest: Sequence[str]) -> list[tuple[str, str]]:
    """(the rule as a marker reads it, with its conditions as written; why) for each learned rule
    of `model` no teacher would keep."""
    words = model.words()
    out = []
    for rule in model.learner.rules_:
        why = unsensible(rule, lowest)
        if why:
            text = words.conditions(rule.body) if rule.body else "always"
            written = ", ".join(f"{lit.feature} {lit.op} {lit.value}" for lit in rule.body)
            out.append((f"{rule.head} if {text}" + (f" [{written}]" if written else ""), why))
    return out
