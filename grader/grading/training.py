"""Learning a grading model from marked answers: the steps behind `GradingModel.train`.

The extractor is fitted on the marked answers (it learns the terms that separate the marks),
the rule learner on the features it extracts, with the question's rules; the resampled rule
lists and the wording model come after. `GradingModel.train` documents every option; this
module holds the steps and the checks they need, so that the model module is about using a
trained model.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import warnings
from collections import Counter
from datetime import datetime, timezone
from functools import partial
from typing import Any, Callable, NamedTuple, Sequence

import pandas as pd

from grader.confold.rule_eval import rule_features
from grader.confold.rules import PredicateDefinition, Rule
from grader.grading.agreement import READER_WEIGHT, WORDING_WEIGHT, ResampledAgreement
from grader.grading.built_in_rules import BUILT_IN, turned_round_rule
from grader.grading.evidence import feature_evidence, unordered_evidence
from grader.grading.sensible_rules import rests_on_lack
from grader.grading.wording import WordingSupport
from knowledge.rule_marks import label_rules, unmarked_rule_notes, with_marks
from knowledge.schema import Question, mark_number, marks_from_answers

Progress = Callable[[float, str], None]

#: Said when marks are words in no known order: which is "higher" cannot be guessed (read off
#: the answers, "correct" would sort before "incorrect"), so rules for every mark are learned alike.
_UNORDERED_MARKS = ("the marks ({marks}) are words and the question file does not list them in order, so rules for "
                    "every mark are learned alike; list them under marks: in the question file, lowest first, so "
                    "that a rule for a higher mark rests on what an answer says rather than on what it lacks")

def marks_order_note(model: object) -> str | None:
    """What training said of a model whose marks are words in no known order (None otherwise):
    the app repeats it, since its models are trained out of the teacher's sight."""
    params = getattr(model, "params", None) or {}
    if not params.get("marks_unordered"):
        return None
    marks = getattr(getattr(model, "question", None), "marks", ()) or ()
    return _UNORDERED_MARKS.format(marks=", ".join(map(repr, marks)))


def _marks_unordered(question: Question, marks: Sequence[str], evidence_rules: bool,
                     lowest_marks: Sequence[str] | None) -> bool:
    """Whether the marks are words in no known order while evidence rules would need one."""
    ordered = bool(question.marks) or all(mark_number(m) is not None for m in set(marks))
    return evidence_rules and not ordered and not lowest_marks


def training_notes(question: Question, marks: Sequence[str], *, evidence_rules: bool = True,
                   lowest_marks: Sequence[str] | None = None) -> list[str]:
    """What training on these marked answers tells the teacher about the question file: marks
    in no known order, rules for marks no answer has yet. Said once for a set of marked
    answers: cross-validation trains on parts of it, and the parts' notes would repeat these
    (and a mark missing from one part is not missing from the teacher's answers)."""
    marks = [str(m).strip() for m in marks]
    notes = [] if question.marks else mark_slip_notes(marks)
    if _marks_unordered(question, marks, evidence_rules, lowest_marks):
        notes.append(_UNORDERED_MARKS.format(marks=", ".join(map(repr, marks_from_answers(marks)))))
    return notes + unmarked_rule_notes(question, marks)


#: Characters a mark typed in a hurry has for another: "l" or "I" for "1", "O" for "0".
_LOOK_ALIKE = str.maketrans({"l": "1", "I": "1", "|": "1", "O": "0", "o": "0"})


def mark_slips(marks: Sequence[str]) -> dict[str, str]:
    """{a rare mark: the common mark it looks like a slip of}, for marks read off the answers:
    a mark given at most twice, and at most a third as often as a mark it differs from only in
    capitals, in a look-alike character ("l" for "1") or in one letter of a word ("corect").
    Why: without `marks:` every mark given is a mark, so a slip silently becomes a mark of its
    own, with rules of its own learned from one answer."""
    from rapidfuzz.distance import OSA  # one letter added, dropped, changed, or two swapped

    counts = Counter(marks)
    slips = {}
    for rare, n in counts.items():
        if n > 2:
            continue
        for common, m in counts.most_common():
            if m < 3 * n or common == rare:
                continue
            if (rare.casefold() == common.casefold() or rare.translate(_LOOK_ALIKE) == common
                    or (min(len(rare), len(common)) >= 4 and OSA.distance(rare.casefold(), common.casefold()) == 1)):
                slips[rare] = common
                break
    return slips


def mark_slip_notes(marks: Sequence[str]) -> list[str]:
    """What a teacher is told of each mark that looks like a slip (`mark_slips`)."""
    counts = Counter(marks)
    return [f"the mark {rare!r} is given to {counts[rare]} answer{'s' if counts[rare] > 1 else ''} only and looks like "
            f"a slip for {common!r}, given to {counts[common]}: if it is, mend it in the marked answers (list the "
            f"marks under marks: in the question file and any mark outside them is named with its row)"
            for rare, common in mark_slips(marks).items()]


#: The rule learners `GradingModel.train(learner=...)` offers: CON-FOLD's ordered rules with
#: exceptions (the default), or boosted rule ensembles (`grader.boosting`, seed 001).
LEARNERS = ("confold", "boosted")


def is_blank(answer: object) -> bool:
    """No answer at all: missing, empty, or only punctuation and spaces (learning platforms
    write "-" for a question left unanswered). The one rule of the CLI and the app."""
    if answer is None or (isinstance(answer, float) and math.isnan(answer)):
        return True
    return not any(ch.isalnum() for ch in str(answer))





def as_text(answers: Sequence[object]) -> list[str]:
    """The answers as text, a blank one as "" (`is_blank`)."""
    return ["" if is_blank(a) else str(a) for a in answers]


class Trained(NamedTuple):
    """What `learn` gives `GradingModel` to be built from."""

    question: Question
    extractor: Any
    learner: Any
    trained_on: dict
    params: dict
    agreement: Any
    wording: Any


def learn(question: Question, answers: Sequence[str], marks: Sequence[str], *, ratio: float, z: float,
          improvement_threshold: float | None, confidence_threshold: float | None, n_terms: int,
          default_rule: bool, n_resamples: int, wording_support: bool, evidence_rules: bool,
          lowest_marks: Sequence[str] | None, keep_rules_of: Any, vote: bool, vote_wording: bool,
          reader_features: bool,
          list_confidence: bool,
          learner: str, executor: Any, progress: Progress | None, min_initial_support: int = 1,
          built_in_rules: bool = True) -> Trained:
    """Fit the extractor, the rule learner and the resampled rule lists (the options are
    those of `GradingModel.train`, which documents them)."""
    from features import FeatureExtractor
    from grader.confold import ConFold

    if learner not in LEARNERS:
        raise ValueError(f"unknown learner {learner!r}; expected one of {', '.join(LEARNERS)}")
    if learner == "boosted":
        _check_boosted_options(question, n_resamples, keep_rules_of, default_rule)
    answers = as_text(answers)
    marks = [str(m).strip() for m in marks]
    listed = tuple(str(m) for m in question.marks)  # the file's own list, lowest first
    if len(answers) != len(marks):
        raise ValueError(f"{len(answers)} answers but {len(marks)} marks")
    if not answers:
        raise ValueError("no marked answers to train on")
    # The teacher's no-credit marks besides the lowest: their rules rest on what the answer
    # says, a wrong idea included (`grader.grading.evidence`)
    no_credit = tuple(m for m in question.no_credit if question.marks and m != question.marks[0]
                      and m not in (lowest_marks or ()))
    for note in training_notes(question, marks, evidence_rules=evidence_rules, lowest_marks=lowest_marks):
        warnings.warn(note, stacklevel=3)
    # The marks whose teacher's rules are used once one marked answer shows them: the listed
    # no-credit marks, or, in a file without marks, those its rules give only for wrong ideas
    few_shown = (no_credit if evidence_rules else ()) if question.marks else wrong_idea_marks(question)
    marks_unordered = _marks_unordered(question, marks, evidence_rules, lowest_marks)
    if marks_unordered:  # no order to say which mark is higher: every mark learned alike
        evidence_rules = False
    if question.marks:
        unknown = sorted(set(marks) - set(question.marks))
        if unknown:
            raise ValueError(f"marks {', '.join(map(repr, unknown))} are not among the question's "
                             f"marks ({', '.join(map(repr, question.marks))})")
    else:  # the answers' marks, and those of rules written before any answer had them
        question = with_marks(question, marks_from_answers(marks + [str(r.head) for r in label_rules(question)]))
    if len(set(marks)) < 2:
        raise ValueError(f"all marked answers have the mark {marks[0]!r}: the learner needs "
                         f"answers with at least two different marks")
    report = progress or (lambda fraction, message: None)
    report(0.0, f"extracting features from {len(answers)} answers")
    extractor = FeatureExtractor(question, n_terms=n_terms)
    X = extractor.fit_transform(answers, marks)
    validate_rules(question, extractor)
    report(0.5, "learning rules")
    evidence, label_evidence, label_order = None, None, None
    if marks_unordered:  # no mark is the lowest, and none rests on restating the question
        evidence = unordered_evidence(extractor.question_restatements())
        label_order = [(), *question.marks] if evidence else None
    elif evidence_rules:
        predicates = [d.name for d in question.background if isinstance(d, PredicateDefinition)]
        restating = extractor.question_restatements()
        evidence = feature_evidence(extractor.feature_specs_, question.marks, predicates, lowest_marks, no_credit,
                                    restating=restating)
        label_evidence = {m: feature_evidence(extractor.feature_specs_, question.marks, predicates, lowest_marks,
                                              no_credit, for_mark=m, restating=restating)
                          for m in no_credit} or None
        label_order = _label_order(question.marks, lowest_marks)
    if learner == "boosted":
        from grader.boosting import BoostedRules

        rule_learner = BoostedRules(background=list(question.background) or None, evidence=evidence,
                                    label_order=label_order)
    else:
        built_in = _built_in(question, X, marks, listed, no_credit) if built_in_rules else []
        rule_learner = ConFold(ratio=ratio, z=z, improvement_threshold=improvement_threshold,
                               confidence_threshold=confidence_threshold, default_rule=default_rule,
                               background=(list(question.background)
                                           + [r for r in built_in if r.origin == "background"]) or None,
                               initial_rules=(list(question.initial_rules)
                                              + _kept_rules(keep_rules_of, list(X.columns))
                                              + [r for r in built_in if r.origin != "background"]) or None,
                               evidence=evidence, label_order=label_order, label_evidence=label_evidence,
                               min_initial_support=min_initial_support,
                               label_min_initial_support=no_credit_support(few_shown, min_initial_support),
                               keep_unseen=(BUILT_IN,),
                               # where a teacher wrote rules, the learned ones after them are
                               # learned from every marked answer, not the few theirs leave
                               learn_from_all=bool(question.initial_rules),
                               # a teacher's rule on what an answer lacks, for no credit, is a catch-all
                               initial_last=_catch_all(question, lowest_marks, marks_unordered),
                               # a teacher's rule for a wrong idea needs one answer, for the lowest mark too
                               initial_support=_wrong_idea_support(question, lowest_marks, marks_unordered,
                                                                   min_initial_support))
    rule_learner.fit(X, pd.Series(marks, name="mark"))
    for rule in rule_learner.rules_:  # kept and built-in rules are learned ones (not the teacher's)
        if rule.name in (KEPT_RULE, BUILT_IN):
            rule.origin, rule.name = "learned", None
    if n_resamples:
        report(0.7, f"learning rules again on {n_resamples} resamples of the answers")
    pending = ResampledAgreement(n_resamples).start(rule_learner, X, marks, executor)
    wording = WordingSupport.fit(answers, marks, X if reader_features else None,
                                 extractor.feature_specs_) if wording_support else None
    agreement = pending.result()
    counts = Counter(marks)
    trained_on = {"answers": len(answers),
                  "marks": {m: counts.get(m, 0) for m in question.marks},
                  "time": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    params = {"ratio": ratio, "z": z, "improvement_threshold": improvement_threshold,
              "confidence_threshold": confidence_threshold, "n_terms": n_terms,
              "n_resamples": n_resamples, "wording_support": wording_support,
              "evidence_rules": evidence_rules, "vote": vote, "list_confidence": list_confidence,
              "min_initial_support": min_initial_support}
    if vote:  # the vote also marks what the model's own rules leave (files before 2026-11-23: not)
        params["vote_unmarked"] = True
        if vote_wording and wording_support:  # files before 2026-11-24: the lists' vote alone
            params["vote_wording"] = READER_WEIGHT if wording.reader is not None else WORDING_WEIGHT
    # a teacher's checked rule is as sure as the rule lists agree (files before 2026-11-27: every
    # teacher's rule capped at its own confidence, `GradingModel._list_confidence`)
    params["checked_rules_trusted"] = True
    if learner != "confold":  # only when set, so that older readers of the model file see no change
        params["learner"] = learner
    if marks_unordered:  # said again where the model is used (`marks_order_note`)
        params["marks_unordered"] = True
    if lowest_marks:
        params["lowest_marks"] = [str(m) for m in lowest_marks]
    if default_rule:  # only when set, so that older readers of the model file see no change
        params["default_rule"] = True
    if not built_in_rules:  # likewise
        params["built_in_rules"] = False
    report(1.0, f"learned {len(rule_learner.rules_)} rules")
    return Trained(question, extractor, rule_learner, trained_on, params, agreement, wording)


#: The name a learned rule of an earlier model carries while it is refined (`keep_rules_of`).
KEPT_RULE = "kept from the earlier model"


def wrong_idea_marks(question: Question) -> tuple[str, ...]:
    """The marks the teacher's rules give only for a wrong idea said: every rule for the mark
    asks for one of the question's misconceptions ("contradictory if the answer says the
    walls absorb the sound") or for the reference turned round. Where the question file
    lists no marks, these are its no-credit marks besides the lowest as far as the file
    tells, and their rules need the support of a no-credit mark's (`no_credit_support`): on
    the classes of docs/beetle.md the teacher's rules for wrong ideas were otherwise "not
    used yet"."""
    rules: dict[str, list[Rule]] = {}
    for rule in label_rules(question):
        rules.setdefault(str(rule.head), []).append(rule)
    return tuple(m for m, group in rules.items() if all(any(_says_wrong_idea(lit) for lit in rule.body)
                                                       for rule in group))


def _says_wrong_idea(literal: Any) -> bool:
    """Does a rule's condition ask for a wrong idea: one of the question's misconceptions, or
    the reference answer turned round (`ref:turned_round`)?"""
    feature = str(literal.feature)
    return literal.op == "==" and literal.value == "present" and (
        feature.startswith("misconception:") or feature == "ref:turned_round")


def _wrong_idea_support(question: Question, lowest_marks: Sequence[str] | None, marks_unordered: bool,
                        min_initial_support: int) -> Callable[[Rule], int | None] | None:
    """`ConFold(initial_support=...)`: a teacher's rule for the lowest mark that asks for a wrong
    idea ("incorrect if it says the paper is magnetised", or a rubric's contradictory rule where
    contradictory and incorrect are one mark) is used once one marked answer shows it, as a
    no-credit mark's are (`no_credit_support`): each wrong idea is shown by one or two of 30
    marked answers. The lowest mark's other rules keep the support a rule needs. None without
    an order of marks."""
    if marks_unordered or not question.marks or min_initial_support <= 1:
        return None
    return partial(_support_of_wrong_idea, lowest=_lowest(question, lowest_marks))


def _lowest(question: Question, lowest_marks: Sequence[str] | None) -> frozenset[str]:
    """The marks that are all lowest: the file's first and `lowest_marks`."""
    return frozenset(map(str, (question.marks[0], *(lowest_marks or ()))))


def _support_of_wrong_idea(rule: Rule, lowest: frozenset[str]) -> int | None:
    return 1 if str(rule.head) in lowest and any(_says_wrong_idea(lit) for lit in rule.body) else None


def no_credit_support(no_credit: Sequence[str], min_initial_support: int) -> dict[str, int] | None:
    """`ConFold(label_min_initial_support=...)`: a teacher's rule for a no-credit mark that is
    not the lowest (a wrong idea, "contradictory") is used once one marked answer shows it. Why:
    such marks are few and split among many wrong ideas, each shown by one or two of 30 marked
    answers, so the support asked of a rule for credit dropped nearly all of them (docs/beetle.md)."""
    return {m: 1 for m in no_credit} if no_credit and min_initial_support > 1 else None


def _label_order(marks: Sequence[str], lowest: Sequence[str] | None) -> list:
    """`ConFold(label_order=...)`: the marks from the lowest, the lowest ones as one group."""
    if not lowest:
        return list(marks)
    low = tuple(str(m) for m in lowest)
    return [low] + [m for m in marks if m not in low]


def _check_boosted_options(question: Question, n_resamples: int, keep_rules_of: Any,
                           default_rule: bool) -> None:
    """ValueError naming the option the boosted learner cannot take."""
    problems = []
    if n_resamples:
        problems.append(f"{n_resamples} resamples (its confidence is its own rules' vote: use 0)")
    if keep_rules_of is not None:
        problems.append("the rules of an earlier model")
    if default_rule:
        problems.append("a default rule")
    if question.initial_rules or any(isinstance(r, Rule) for r in question.background):
        problems.append("the question's marking rules (they need the CON-FOLD learner)")
    if problems:
        raise ValueError("the boosted learner cannot take " + "; ".join(problems))


def _kept_rules(previous: Any, columns: list[str]) -> list[Rule]:
    """The learned rules of `previous` whose features the new extractor still makes (a
    learned term may be gone), as initial rules without their confidence."""
    if previous is None:
        return []
    known = set(columns) | {d.name for d in getattr(previous.learner, "predicates_", [])}
    kept = []
    for rule in previous.learner.rules_:
        if rule.origin != "learned" or rule.name == "default" or not rule.body:
            continue
        if set(rule_features([rule])) <= known:
            kept.append(dataclasses.replace(copy.deepcopy(rule), confidence=None, fixed_confidence=False,
                                            name=KEPT_RULE))
    return kept


def _catch_all(question: Question, lowest_marks: Sequence[str] | None, marks_unordered: bool):
    """Which of the teacher's rules apply after the learned ones (`ConFold(initial_last=...)`):
    those that rest only on what an answer lacks and give a mark with no credit (the lowest,
    `lowest_marks`, the file's `no_credit`); None without teacher's rules or an order of marks
    (a rule "1 if it is not a non-answer" stays where the teacher put it)."""
    if not question.initial_rules or marks_unordered or not question.marks:
        return None
    return partial(rests_on_lack, marks=_lowest(question, lowest_marks) | set(map(str, question.no_credit)))


def _built_in(question: Question, X: pd.DataFrame, marks: Sequence[str], listed: Sequence[str],
              no_credit: Sequence[str]) -> list[Rule]:
    """The built-in rules (`built_in_rules`) for these marked answers."""
    rule = turned_round_rule(question, X, marks, listed, no_credit)
    return [rule] if rule is not None else []


def validate_rules(question: Question, extractor: Any) -> None:
    """Check the question's rules against the features the fitted extractor produces."""
    from knowledge import KnowledgeError, validate_question

    problems = validate_question(question, specs=list(extractor.feature_specs_))
    if problems:
        raise KnowledgeError(problems)
