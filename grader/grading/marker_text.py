"""Rules and justifications in a marker's words: what the answer gives, says or lacks.

Why: a teacher reads "1 mark: gives the acceleration at the top as 9.8 m/s^2 (correct within
0.25 m/s^2) and says the acceleration points down; no exception applies (does not think the
acceleration is zero at the top)", not `quantity:acceleration == correct`, `ref:s_2`,
`mark_0_5` or "not (missing: ...)". Every condition is said positively where the feature
allows it (`!= absent` of a two-valued feature is "mentions ..."), the opposite of a
condition that did not hold is said as its own statement, never as "not (...)", so no double
negatives; feature names appear nowhere, only the rubric's descriptions, the reference
answer's or the learned words in quotes, and the teacher's own predicates (their descriptions,
or their names).
"""

from __future__ import annotations

import math
import re
from typing import Any, Mapping, Sequence

from features.similarity import mark_suffix
from grader.confold.encoding import MISSING
from grader.confold.explain import Explanation, ExceptionCheck, LiteralCheck
from grader.confold.rules import Literal, PredicateDefinition, Rule
from knowledge.schema import Question, mark_number, split_feature_name

_OPPOSITE = {"==": "!=", "!=": "==", "<=": ">", ">": "<=", "<": ">=", ">=": "<"}
#: A value's bound in words: "gives the current above 0.4 A".
_BOUND_WORDS = {">": "above", "<=": "at most", "<": "below", ">=": "at least"}
_TEXT_FAMILIES = ("concept", "relation", "ref", "term", "misconception")
#: What a student can read as what their answer says: the rubric's ideas, quantities and
#: values (and the teacher's predicates); not the figures the model also weighs (overlap with
#: the reference answer or the marked answers, learned words, length), which are no feedback.
_STUDENT_FAMILIES = ("concept", "relation", "misconception", "quantity", "value")
_IRREGULAR = {"is": "is not", "are": "are not", "has": "does not have", "does": "does not do",
              "can": "cannot", "gives": "does not give", "goes": "does not go"}


def mark_words(mark: Any) -> str:
    """"1 mark", "0.5 marks", "mark 'good'"."""
    number = mark_number(str(mark))
    if number is None:
        return f"mark {mark}"
    return f"{mark} mark" if number == 1 else f"{mark} marks"


def negative(description: str) -> str:
    """"says X" -> "does not say X", "thinks X" -> "does not think X", for a description
    that starts with a verb (the rubric's style); "lacks: X" otherwise."""
    verb, _, rest = description.partition(" ")
    low = verb.lower()
    if low in _IRREGULAR:
        verb = _IRREGULAR[low]
    elif low.endswith("ies") and len(low) > 4:
        verb = f"does not {verb[:-3]}y"
    elif low.endswith(("ches", "shes", "sses", "xes", "zes")):
        verb = f"does not {verb[:-2]}"
    elif low.endswith("s") and not low.endswith(("ss", "us")) and len(low) > 2:
        verb = f"does not {verb[:-1]}"
    else:
        return f"lacks: {description}"
    return f"{verb} {rest}".strip()


def _number(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _share(x: Any) -> str:
    return f"{float(x):.0%}"


def vote_phrase(own_mark: bool, by_wording: bool) -> str:
    """How a mark the vote of the rule lists chose is said (`agreement.majority_vote`);
    `own_mark`: one of the model's own rules marks the answer too; `by_wording`: the vote
    weighed how much the answer reads like the marked answers of each mark."""
    models = "the models" if own_mark else "the models that mark this answer"
    # weighed with the wording, the mark chosen need not be most models' ("8 of 20 agree")
    said = (f"the mark {models} and the wording of the answer favour most, taken together" if by_wording
            else f"the mark most of {models} give")
    return said if own_mark else said + " (none of the model's own rules does)"


class MarkerWords:
    """Phrases for one question's rules: `phrase(literal)`, `rule_text(rule)`,
    `justification(explanation)`."""

    def __init__(self, question: Question, descriptions: Mapping[str, str],
                 categories: Mapping[str, Sequence] | None = None, vote_by_wording: bool = False,
                 opposites: Mapping[str, str] | None = None):
        self.question = question
        #: by reference phrase or term, the antonyms that also say it negated ('"open path"'
        #: for "closed path"): "negated" then reads 'says "open path", or mentions "closed
        #: path" with a negation'
        self.opposites = dict(opposites or {})
        self.vote_by_wording = vote_by_wording  # how the vote between the rule lists is said
        self.descriptions = dict(descriptions)
        self.categories = {k: [c for c in v if c != MISSING] for k, v in (categories or {}).items()}
        self.quantities = {q.name: q for q in question.quantities}
        self.marks = {mark_suffix(m): m for m in question.marks}
        #: the teacher's words for a derived predicate, where the question file gives them
        self.predicates = {d.name: d.description for d in question.background
                           if isinstance(d, PredicateDefinition) and d.description}

    # -- conditions ----------------------------------------------------------------------
    def _described(self, feature: str, name: str) -> str:
        desc = self.descriptions.get(feature) or f"mentions {name.replace('_', ' ')}"
        # ref/term descriptions end with where the words come from: the marker needs the words
        return re.sub(r' \((from the reference answer|a word that separates[^)]*)\)$', "", desc)

    def phrase(self, lit: Literal, tolerance: bool = True) -> str:
        """What a condition says, in words; `tolerance`: a correct quantity says how close it
        had to be (for markers, not for students)."""
        family, name = split_feature_name(lit.feature)
        op, value = lit.op, lit.value
        cats = self.categories.get(lit.feature)
        if op == "!=" and cats and value in cats and len(cats) == 2:  # the one other value
            op, value = "==", next(c for c in cats if c != value)
        if value is True and op in ("==", "!="):  # the teacher's derived predicate
            words = self.predicates.get(lit.feature) or lit.feature.replace("_", " ")
            if op == "==":
                return words
            # its description, or a name in the rubric's style ("says_the_circuit_is_open"),
            # reads as a sentence ("does not say the circuit is open")
            said = negative(words)
            return f"not {words}" if said.startswith("lacks:") else said
        if family in _TEXT_FAMILIES:
            return self._text_phrase(self._described(lit.feature, name), op, value,
                                     self.opposites.get(lit.feature))
        if family == "quantity":
            return self._quantity_phrase(name, op, value, tolerance)
        if family == "value":
            return self._value_phrase(name, op, value)
        if family == "similarity" and op in ("<=", ">", "<", ">="):
            mark = self.marks.get(name, name)
            more = {">": "more than", "<=": "at most", "<": "less than", ">=": "at least"}[op]
            share = "some" if op in (">", ">=") else "any"
            return f"says {more} {_share(value)} of what {share} answer marked {mark} said"
        if name in ("coverage", "precision") and op in ("<=", ">", "<", ">="):
            more = {">": "more than", "<=": "at most", "<": "less than", ">=": "at least"}[op]
            if name == "coverage":
                return f"covers {more} {_share(value)} of the reference answer's content words"
            return f"{more} {_share(value)} of its content words are in the reference answer"
        if name == "length" and op in ("<=", ">", "<", ">="):
            more = {">": "is longer than", "<=": "has at most", "<": "has fewer than", ">=": "has at least"}[op]
            return f"{more} {_number(value)} words"
        if name == "non_answer" and op in ("==", "!="):
            says_nothing = (value == "yes") == (op == "==")
            return ("is a non-answer (empty, 'I don't know', ...)" if says_nothing
                    else "is an attempt at an answer")
        desc = self.descriptions.get(lit.feature) or lit.feature.replace("_", " ")
        words = {"==": "is", "!=": "is other than", "<=": "is at most", ">": "is more than",
                 "<": "is less than", ">=": "is at least"}[op]
        return f"{desc} {words} {_number(value)}"

    def _text_phrase(self, desc: str, op: str, value: Any, opposite: str | None = None) -> str:
        # No top-level "or": these texts are joined with "and" in a rule ('has at most 7 words
        # and mentions "repel" or says "attract", ...' could be read two ways).
        no = negative(desc)
        if opposite:
            negated = f"says {opposite} (or {desc} with a negation)"
            not_negated = f"neither says {opposite} nor {desc} with a negation"
            mentioned = (f"{desc} or {opposite}" if desc.startswith("mentions ")
                         else f"{desc} (or says {opposite})")
        else:
            negated = f"{desc}, but with a negation"
            # not "does not say X with a negation", which reads two ways
            not_negated = (f"{desc} without a negation, if at all" if not no.startswith("lacks:")
                           else f"{desc} without a negation, or {no}")
            mentioned = desc
        said = {"present": desc, "absent": no, "negated": negated}
        if op == "==":
            return said.get(str(value), f"{desc}: {value}")
        return {"present": no, "absent": f"{mentioned}, with or without a negation",
                "negated": not_negated}.get(str(value), f"{desc}: not {value}")

    def _quantity_phrase(self, name: str, op: str, value: Any, tolerance: bool = True) -> str:
        q = self.quantities.get(name)
        what = (q.description or q.name) if q else name.replace("_", " ")
        if q is not None:
            tol = (f"{q.tolerance:g} {q.unit}" if q.absolute_tolerance else f"{q.tolerance * 100:g}%")
            correct = f"gives {what} as {q.value:g} {q.unit}" + (f" (correct within {tol})" if tolerance else "")
        else:
            correct = f"gives {what} correctly"
        states = {"correct": correct, "wrong_value": f"gives a wrong value for {what}",
                  "wrong_unit": f"gives {what} in a wrong unit", "no_unit": f"gives {what} without a unit",
                  "missing": f"does not give {what}", "negated": f"gives {what} with a negation"}
        if op == "==":
            return states.get(str(value), f"{what}: {value}")
        return {"correct": f"does not give {what} correctly", "missing": f"gives a value for {what}",
                "wrong_value": f"does not give a wrong value for {what}"}.get(
                    str(value), f"{what}: anything but {str(value).replace('_', ' ')}")

    def _value_words(self, name: str) -> tuple[str, str]:
        """What a value is and its unit (" m/s^2", or "" for a value the question does not name)."""
        q = self.quantities.get(name)
        return ((q.description or q.name) if q else name.replace("_", " ")), (f" {q.unit}" if q else "")

    def _value_phrase(self, name: str, op: str, value: Any) -> str:
        what, unit = self._value_words(name)
        if op in ("==", "!="):
            if value == MISSING:
                return f"gives no value for {what}" if op == "==" else f"gives a value for {what}"
            return f"gives {what} as {value}" if op == "==" else f"gives {what} other than {value}"
        return f"gives {what} {_BOUND_WORDS[op]} {_number(value)}{unit}"

    def opposite(self, lit: Literal) -> str:
        """The statement that is true when the condition is not: said on its own, not as "not (...)"."""
        return self.phrase(Literal(lit.feature, _OPPOSITE[lit.op], lit.value))

    def said(self, found: Mapping[str, Any]) -> list[str]:
        """What an answer says, in words, from `GradingModel.features_found` (feature -> value):
        concepts, misconceptions, quantities and values; not the similarity figures."""
        out = []
        for feature, value in found.items():
            family, name = split_feature_name(feature)
            if family == "similarity" or name in ("coverage", "precision", "non_answer"):
                continue
            if name == "length" and family is None:
                out.append(f"{_number(value)} words")
            elif family == "value":
                q = self.quantities.get(name)
                out.append(f"gives {(q.description or q.name) if q else name} as {_number(value)}"
                           f"{' ' + q.unit if q else ''}")
            else:
                out.append(self.phrase(Literal(feature, "==", value)))
        return out

    def conditions(self, body: Sequence[Literal]) -> str:
        """The conditions joined with "and"; a value given a lower and an upper bound is one
        condition ("gives the current between 0.49 and 0.51 A")."""
        texts, done = [], set()
        for i, lit in enumerate(body):
            if i in done:
                continue
            j = self._other_bound(body, i) if lit.feature.startswith("value:") else None
            if j is not None:
                done.add(j)
                texts.append(self._range_phrase(lit, body[j]))
            else:
                texts.append(self.phrase(lit))
        return " and ".join(texts) or "the default rule (no earlier rule applies)"

    @staticmethod
    def _other_bound(body: Sequence[Literal], i: int) -> int | None:
        """The later condition on the same value that bounds it from the other side, if any."""
        low = body[i].op in (">", ">=")
        for j in range(i + 1, len(body)):
            other = body[j]
            if other.feature == body[i].feature and other.op in (("<", "<=") if low else (">", ">=")):
                return j
        return None

    def _range_phrase(self, a: Literal, b: Literal) -> str:
        low, high = (a, b) if a.op in (">", ">=") else (b, a)
        what, unit = self._value_words(split_feature_name(low.feature)[1])
        if (low.op, high.op) == (">=", "<="):
            return f"gives {what} between {_number(low.value)} and {_number(high.value)}{unit}"
        return (f"gives {what} {_BOUND_WORDS[low.op]} {_number(low.value)} and {_BOUND_WORDS[high.op]} "
                f"{_number(high.value)}{unit}")

    # -- rules ---------------------------------------------------------------------------
    def rule_text(self, rule: Rule) -> str:
        """`1 mark if gives ... and says ...; exceptions: thinks ...` on one line."""
        text = f"{mark_words(rule.head)} if {self.conditions(rule.body)}"
        if rule.exceptions:
            text += "; exceptions: " + "; ".join(self._exception_text(e) for e in rule.exceptions)
        return text

    def _exception_text(self, exc: Rule) -> str:
        text = self.conditions(exc.body)
        if exc.exceptions:
            text += " (but not when " + " or ".join(self.conditions(e.body) for e in exc.exceptions) + ")"
        return text

    def rule_summary(self, index: int, rule: Rule, confidence: str) -> str:
        """The one-line reason of every mark the rule gives (the `explanation` column)."""
        text = f"{mark_words(rule.head)} by rule {index + 1} ({confidence}): {self.conditions(rule.body)}"
        if rule.exceptions:
            text += ("; no exception applies (exceptions: "
                     + "; ".join(self._exception_text(e) for e in rule.exceptions) + ")")
        return text

    def student_text(self, bodies: Sequence[Sequence[Literal]]) -> str:
        """The feedback of a mark given by rules with these conditions, for the student:
        what their answer says or lacks ("Your answer gives ... and says ..."), without rule
        numbers or figures; "" when the rules rest only on the model's own figures."""
        said = [self.phrase(lit, tolerance=False) for body in bodies for lit in body
                if lit.value is True or split_feature_name(lit.feature)[0] in _STUDENT_FAMILIES]
        said = list(dict.fromkeys(said))
        return f"Your answer {' and '.join(said)}." if said else ""

    # -- boosted rules (grader.boosting): a mark is the one whose applying rules weigh most --
    def _weighed(self, votes: Sequence[Any]) -> str:
        return "; ".join(f"rule {v.index + 1}, weight {v.vote:.2f}: {self.conditions(v.rule.body)}"
                         for v in votes)

    def ensemble_summary(self, e: Any) -> str:
        """The one-line reason of a mark given by boosted rules (`EnsembleExplanation`)."""
        if e.label is None:
            return (f"no rule for {mark_words(e.best)}, the mark the rules weigh most, applies: "
                    f"for a human marker")
        text = f"{mark_words(e.label)} by the weight of the rules that apply ({e.score:.2f}"
        if e.runner_up is not None:
            text += f" against {e.runner_up_score:.2f} for {mark_words(e.runner_up)}"
        return text + "): " + self._weighed(e.votes)

    def ensemble_justification(self, e: Any) -> str:
        """The full justification of a mark given by boosted rules, in the marker's words."""
        if e.label is None:
            lines = [self.ensemble_summary(e)]
        else:
            lines = [f"{mark_words(e.label)}: the rules that apply weigh most for it, "
                     f"probability {e.confidence:.2f}",
                     f"for {mark_words(e.best)}: {e.score:.2f} in all, {e.base:.2f} to start with"]
            lines += [f"  rule {v.index + 1} (weight {v.vote:.2f}): {self.conditions(v.rule.body)}"
                      for v in e.votes]
        if e.runner_up is not None:
            lines.append(f"for {mark_words(e.runner_up)}: {e.runner_up_score:.2f} in all"
                         + ("" if e.against else ", no rule for it applies"))
            lines += [f"  rule {v.index + 1} (weight {v.vote:.2f}): {self.conditions(v.rule.body)}"
                      for v in e.against]
        if e.support_note:
            lines.append(e.support_note)
        return "\n".join(lines)

    # -- one answer ----------------------------------------------------------------------
    def _check(self, check: LiteralCheck) -> Literal:
        return Literal(check.feature, check.op, check.value)

    def instead(self, check: LiteralCheck) -> str:
        """What the answer has instead, for a condition that did not hold: its own value
        ("does not give the acceleration"), not the negated condition."""
        actual = check.actual
        if isinstance(actual, bool):
            return self.phrase(Literal(check.feature, "==" if actual else "!=", True))
        if actual is None or (isinstance(actual, float) and math.isnan(actual)):
            return self.phrase(Literal(check.feature, "==", MISSING))
        if check.op in ("==", "!=") and isinstance(actual, str):
            return self.phrase(Literal(check.feature, "==", actual))
        return self.opposite(self._check(check))

    def _why_not(self, exc: ExceptionCheck) -> str:
        """Why an exception did not apply to this answer."""
        failed = [c for c in exc.literals if not c.held]
        if failed:
            return self.instead(failed[0])
        lifted = [e for e in exc.exceptions if e.held]
        said = " and ".join(self.phrase(self._check(c)) for c in exc.literals)
        return f"{said}, but {' and '.join(self.phrase(self._check(c)) for c in lifted[0].literals)}" if lifted else said

    def justification(self, e: Explanation) -> str:
        """The full justification of one answer's mark, in the marker's words."""
        if e.rule_index is None:
            lines = ["no rule gives a mark: this answer goes to a human marker"]
        else:
            said = " and ".join(self.phrase(self._check(c)) for c in e.literals) or "the default rule (no earlier rule applies)"
            line = f"{mark_words(e.label)}: {said}"
            if e.exceptions:
                line += "; no exception applies (" + "; ".join(self._why_not(x) for x in e.exceptions) + ")"
            lines = [line]
            who = {"background": "a rule the teacher wrote", "initial": "a rule the teacher wrote, checked on the marked answers",
                   "learned": "a rule learned from the marked answers"}.get(e.origin or "", "a rule")
            if (e.origin or "").startswith("resample "):  # the vote took the mark from a resampled model
                who = f"a rule learned from {e.origin} of the marked answers, {vote_phrase(True, self.vote_by_wording)}"
            # the rule's own figure, on the answers it was learned from: not the mark's probability
            conf = "" if e.confidence is None else f", rule confidence {e.confidence:.2f}"
            lines.append(f"rule {e.rule_index + 1}: {who}{conf}")
            lines += e._agreement_lines()
        if e.tried:
            lines.append("earlier rules that did not apply:")
            for t in e.tried:
                if t.failed is not None:
                    reason = self.instead(t.failed)
                elif t.blocked_by is not None:
                    reason = "an exception applies: " + " and ".join(self.phrase(self._check(c)) for c in t.blocked_by.literals)
                else:
                    reason = "it did not apply"
                lines.append(f"  rule {t.rule_index + 1} ({mark_words(t.label)}): {reason}")
        return "\n".join(lines)


def confidence_text(confidence: float | None) -> str:
    """"confidence 0.92", or "confidence ?" for a rule without one."""
    return "confidence ?" if confidence is None else f"confidence {confidence:.2f}"


def rules_text(learner: Any, words: MarkerWords, ensemble: bool = False) -> str:
    """A model's rules, numbered, one per line in the marker's words, with each rule's
    exceptions under it; for boosted rules (`ensemble`), each rule's weight and each mark's
    starting weight instead."""
    if ensemble:  # every rule that applies adds its weight to its mark's
        lines = [f"{mark_words(c)}: weight {w:.2f} to start with"
                 for c, w in zip(learner.classes_, learner.default_votes_)]
        lines += [f"R{i + 1} [weight {w:.2f}]: {mark_words(r.head)} if {words.conditions(r.body)}"
                  for i, (r, w) in enumerate(zip(learner.rules_, learner.votes_))]
        return "\n".join(lines) + "\n"
    lines = []
    for i, rule in enumerate(learner.rules_):
        lines.append(f"R{i + 1} [{rule.origin}, {confidence_text(rule.confidence)}]: "
                     f"{mark_words(rule.head)} if {words.conditions(rule.body)}")
        lines += [f"    exception: {words.conditions(e.body)}" for e in rule.exceptions]
    return "\n".join(lines) + "\n"
