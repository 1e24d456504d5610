"""Learned rules that give a teacher no reason for their mark: the "sensible rules" check.

Why: a teacher accepts a mark for what an answer says ("says there is no gap", "gives 9.8
m/s^2", "reads like the answers marked correct"), not for what it leaves out. The evidence
option (`grader.grading.evidence`) keeps learned rules for a mark above the lowest on what an
answer says (for a mark that gives no credit, such as Beetle's 3-way "contradictory", a wrong
idea stated counts); marks given `lowest_marks` and the teacher's rules, once refined, are not
held to it. This check reads the learned rules of a trained model
and names those whose conditions say nothing the answer says, or only that it mentions a
phrase, with or without a negation (a reason for no mark but the lowest), or only words of
the question itself ("correct if mentions 'switch'" when the question asks about a switch).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from knowledge.schema import split_feature_name

#: Values of a categorical feature that say what the answer says.
SAID = frozenset({"present", "negated", "correct"})
#: Numeric features a higher value of which is something the answer says.
HIGHER_SAYS = frozenset({"similarity", "coverage", "precision", "value"})
NOTHING_SAID = "rests on nothing the answer says"
EITHER_WAY = "says only that the answer mentions a phrase, with or without a negation"
RESTATES = "says only words of the question itself, or words such as \"than\" that say nothing on their own"


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


def rests_on_lack(rule, marks: Collection[str] | None = None) -> bool:
    """Does the rule rest only on what an answer lacks ("incorrect if it does not say the
    moments are equal"), and give one of `marks` (any mark if None)? A teacher's such rule for
    a mark that gives no credit is a catch-all: the grading model applies it after the rules
    learned from the marked answers (`ConFold(initial_last=...)`), so that an answer that says
    the right idea in other words, or a wrong idea, is marked by those first."""
    if marks is not None and str(rule.head) not in marks:
        return False
    return bool(rule.body) and all(literal_says(lit) == "lacks" for lit in rule.body)


def unsensible(rule, lowest: Sequence[str], restating: Collection[str] = ()) -> str | None:
    """Why a learned rule for a mark not in `lowest` gives a teacher no reason; None if it does.
    `restating`: the features that only restate the question
    (`FeatureExtractor.question_restatements`)."""
    if getattr(rule, "origin", "learned") != "learned" or str(rule.head) in set(map(str, lowest)):
        return None
    said = [lit for lit in rule.body if literal_says(lit) == "said"]
    if said:
        return RESTATES if all(str(lit.feature) in restating for lit in said) else None
    return EITHER_WAY if any(literal_says(lit) == "either way" for lit in rule.body) else NOTHING_SAID


def unsensible_rules(model, lowest: Sequence[str]) -> list[tuple[str, str]]:
    """(the rule as a marker reads it, with its conditions as written; why) for each learned rule
    of `model` no teacher would keep."""
    words = model.words()
    restating = model.extractor.question_restatements()
    out = []
    for rule in model.learner.rules_:
        why = unsensible(rule, lowest, restating)
        if why:
            text = words.conditions(rule.body) if rule.body else "always"
            written = ", ".join(f"{lit.feature} {lit.op} {lit.value}" for lit in rule.body)
            out.append((f"{rule.head} if {text}" + (f" [{written}]" if written else ""), why))
    return out
