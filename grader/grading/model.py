"""The grading model a teacher trains and runs: feature extractor + CON-FOLD + the question.

`GradingModel.train` fits the extractor on the marked answers (so that it learns the terms
that separate the marks), then CON-FOLD on the extracted features with the question's
background and initial rules (the steps are in `grader.grading.training`). `grade` marks new
answers, each with the rule that fired, its confidence, a one-line explanation and a flag
for the answers a human should look at:
no rule applied, the confidence is below the threshold, the answer is blank, or it got more
than the lowest mark while stating one of the rubric's wrong ideas (`contradiction`).

The model is saved as one versioned JSON file holding the question (rubric and rules), the
fitted extractor and the learned rules: no pickle, atomic write, clear errors on load
(`grader.grading.model_file`). One answer's full justification is in
`grader.grading.justification`, the rules in a marker's words in `grader.grading.marker_text`.
"""

from __future__ import annotations

import dataclasses
import math
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np
import pandas as pd

from grader.confold.estimator import ConFold
from grader.confold.model_file import ModelFileError, read_json_file  # noqa: F401 (one error for every unreadable model file, re-exported)
from grader.confold.rules import Rule
from grader.grading.agreement import ResampledAgreement, list_share, majority_vote
from grader.grading.contradiction import contradiction_notes
from grader.grading.defaults import (DEFAULT_CONFIDENCE_THRESHOLD, DEFAULT_FLAG_BELOW,  # noqa: F401 (re-exported)
                                     DEFAULT_IMPROVEMENT_THRESHOLD, DEFAULT_MIN_INITIAL_SUPPORT, DEFAULT_RESAMPLES)
from grader.grading.fit import out_of_place, training_share, unmatched
from grader.grading.justification import explain_answer
from grader.grading.marker_text import MarkerWords, confidence_text, rules_text, vote_phrase
from grader.grading.probability import ProbabilityMap
from grader.grading.model_file import ModelParts, model_data, model_fingerprint, parts_from_data, write_model_json
from grader.grading.wording import WordingSupport, support_phrases, weigh
from grader.grading.training import LEARNERS, as_text as _as_text, is_blank, learn, marks_order_note  # noqa: F401 (re-exported)
from knowledge.schema import Question


Progress = Callable[[float, str], None]
#: The options of `GradingModel.train` that a model's `params` record.
TRAIN_OPTIONS = ("ratio", "z", "improvement_threshold", "confidence_threshold", "n_terms", "default_rule",
                 "n_resamples", "wording_support", "evidence_rules", "lowest_marks", "vote", "list_confidence",
                 "learner", "min_initial_support", "built_in_rules")


class Decisions(NamedTuple):
    """The model's decisions on a set of answers, aligned with them."""

    marks: np.ndarray       # object: the mark, None where no rule applies
    confidence: np.ndarray  # the probability that the mark is right: `raw` through the model's
                            # `probability` map (`raw` itself for a model without calibration)
    rule_index: np.ndarray  # index in learner.rules_ of the rule that fired, -1 where none
    agreement: np.ndarray   # share of the resampled models giving the same mark; NaN if none were kept
    support: np.ndarray     # wording support of the mark (`grader.grading.wording`); NaN if none
    preferred: np.ndarray   # object: the mark the wording prefers, None where no support figure
    borrowed: np.ndarray    # object: (resample, rule index) where the vote of the resampled rule
                            # lists changed the mark (`agreement.majority_vote`), else None
    raw: np.ndarray         # share of the rule lists giving the mark (`agreement.list_share`; older
                            # files: rule confidence x agreement) x wording support; NaN where no mark


class GradingModel:
    """A trained model for one question. Build with `train` or `load`."""

    def __init__(self, question: Question, extractor: Any, learner: Any, trained_on: dict,
                 params: dict, agreement: ResampledAgreement | None = None,
                 wording: WordingSupport | None = None):
        self.question = question
        self.extractor = extractor
        self.learner = learner
        self.agreement = agreement  # None in model files written before it existed
        self.wording = wording  # None in model files written before it existed, or turned off
        #: cross-validated raw confidences and right/wrong of the marked answers
        #: (`grader.grading.evaluation.calibrate`): the confidence shown is fitted on them
        #: (`probability`), and flagging to a target accuracy; None until calibrated
        self.calibration: dict | None = None
        self.trained_on = trained_on
        self.params = params
        self._fingerprint: str | None = None
        self._rule_texts: list[str] | None = None
        self._summaries: list[str] | None = None
        self._student_texts: list[str] | None = None

    # -- training ------------------------------------------------------------------------

    @classmethod
    def train(cls, question: Question, answers: Sequence[str], marks: Sequence[str], *,
              ratio: float = 0.5, z: float = 3.0,
              improvement_threshold: float | None = DEFAULT_IMPROVEMENT_THRESHOLD,
              confidence_threshold: float | None = DEFAULT_CONFIDENCE_THRESHOLD,
              n_terms: int = 30, default_rule: bool = False,
              n_resamples: int = DEFAULT_RESAMPLES, wording_support: bool = True,
              evidence_rules: bool = True, lowest_marks: Sequence[str] | None = None,
              executor: Executor | None = None,
              keep_rules_of: GradingModel | None = None, vote: bool = True, vote_wording: bool = True,
              reader_features: bool = True,
              list_confidence: bool = True, learner: str = "confold",
              min_initial_support: int = DEFAULT_MIN_INITIAL_SUPPORT, built_in_rules: bool = True,
              progress: Progress | None = None) -> GradingModel:
        """Fit the extractor and CON-FOLD on marked answers.

        Marks are strings from the question's `marks`; if the question lists none, they are
        read off the answers (numeric-looking marks ordered as numbers). `default_rule`: a
        last rule gives the answers no learned rule covers the commonest mark left over, with
        its (usually low) confidence, instead of no mark (see `ConFold`). `n_resamples`: the
        learner is also run on this many resamples of the answers; they vote on the marks and an
        answer's confidence is the share of all the rule lists giving its mark (see `vote` and
        `list_confidence`; `grader.grading.agreement`; 0 turns this off and the confidence is
        the rule's). `wording_support`: the confidence is
        also multiplied by how much the marked answers' wording supports the mark
        (`grader.grading.wording`). `evidence_rules`: a learned rule for a mark above the
        lowest rests on what the answer says, not on what it lacks (`grader.grading.evidence`);
        `lowest_marks`: the marks that count as the lowest, whose rules may rest on what an answer
        lacks (default: the question's first; the question's `no_credit` marks are not lowest:
        their rules rest on what the answer says, a wrong idea included). Marks that
        are words, neither listed by the question nor given `lowest_marks`, have no order:
        the evidence rules are then off (with a warning).
        `keep_rules_of`: a model trained earlier on some of these answers (retraining after
        reviews): its learned rules come first, as rules the learner refines (exceptions for
        the answers that contradict them) or drops (`ConFold` initial rules), so that adding a
        few reviewed answers changes what they say and little else.
        `executor`: worker processes that learn the resamples while this process fits the
        wording model (the app, where a marker waits); the model is the same without it.
        `vote`: an answer gets the mark most of the rule lists (the
        model's and the resamples') give it, justified by the rule of the first list giving it
        (`grader.grading.agreement.majority_vote`), also when none of the model's own rules
        marks it; needs `n_resamples`. `vote_wording`: in that vote, a mark's share of the
        lists is weighed with how much the answer reads like the marked answers of that mark
        (needs `wording_support`). `reader_features`: that wording model also reads the
        extractor's features of each answer (the reference words it says or denies, its
        similarity to the answers of each mark, ...) beside its words and letter sequences.
        `list_confidence`: a mark's confidence is the share of
        the rule lists (the model's and the resamples') giving it (`agreement.list_share`),
        at most the rule's own for a teacher's rule or the default rule; else, as before
        2026-11-23, the rule's confidence times the share of the resamples giving it.
        `learner`: "confold" (ordered rules with exceptions) or "boosted" (`grader.boosting`:
        each mark's rules vote, the mark with the largest sum wins; its confidence is the
        ensemble's probability, so it takes no resamples, no teacher's label rules, no kept rules).
        `min_initial_support`: a teacher's initial rule is kept only when it marks at least this
        many marked answers as the human did (`ConFold`); else the answers' own rules decide. A
        rule for one of the question's `no_credit` marks needs one (`training.no_credit_support`).
        `built_in_rules`: the rules every question gets unless its file says otherwise
        (`grader.grading.built_in_rules`: an answer that says the reference the other way round),
        refined or dropped by the marked answers like a teacher's initial rule.
        """
        return cls(*learn(question, answers, marks, ratio=ratio, z=z, improvement_threshold=improvement_threshold,
                          confidence_threshold=confidence_threshold, n_terms=n_terms, default_rule=default_rule,
                          n_resamples=n_resamples, wording_support=wording_support, evidence_rules=evidence_rules,
                          lowest_marks=lowest_marks, keep_rules_of=keep_rules_of, vote=vote,
                          vote_wording=vote_wording, reader_features=reader_features,
                          list_confidence=list_confidence, learner=learner, min_initial_support=min_initial_support,
                          built_in_rules=built_in_rules, executor=executor, progress=progress))

    @property
    def calibration(self) -> dict | None:
        return self._calibration

    @calibration.setter
    def calibration(self, pairs: dict | None) -> None:
        self._calibration = pairs
        self._probability: ProbabilityMap | None = None

    @property
    def calibrated(self) -> bool:
        """Whether the confidences are probabilities fitted on cross-validated marked answers
        (else they are the raw confidences: trained with --no-calibrate, or on too few answers)."""
        return not self.probability.is_identity

    @property
    def probability(self) -> ProbabilityMap:
        """The map from a raw confidence to the probability that the mark is right
        (`grader.grading.probability`), fitted on `calibration`; the identity without it."""
        if self._probability is None:
            pairs = self._calibration
            self._probability = (ProbabilityMap() if not pairs else
                                 ProbabilityMap.fit(pairs["confidence"], pairs["correct"]))
        return self._probability

    def flag_threshold_for(self, target: float):
        """The `ThresholdChoice` for a target accuracy, from the calibration (ValueError if none)."""
        from grader.grading.flag_threshold import choose_threshold

        if self.calibration is None:
            raise ValueError("this model has no cross-validated confidences to choose a threshold from; "
                             "train it again with grader train (which keeps them unless --no-calibrate, "
                             "once there are enough marked answers for 5 folds)")
        # the pairs' raw confidences as the probabilities shown, so that the threshold is one on
        # the figure grade flags by (the map is monotone: the same answers are flagged)
        conf = self.probability([math.nan if c is None else c for c in self.calibration["confidence"]])
        return choose_threshold(conf, self.calibration["correct"], target)

    # -- using it ------------------------------------------------------------------------

    def features(self, answers: Sequence[str]) -> pd.DataFrame:
        """The features the extractor finds in each answer (one row per answer)."""
        return self.extractor.transform(_as_text(answers))

    def decide(self, X: pd.DataFrame, answers: Sequence[str] | None = None) -> Decisions:
        """Marks, confidences, rules and agreement for extracted features (see `Decisions`);
        with the `answers` the features were extracted from, also their wording support."""
        table = None  # X encoded once for the model's rules and the resampled rule lists
        if self.agreement is not None and self.agreement.rule_lists_ and isinstance(self.learner, ConFold):
            table = self.learner.encode(X, [*self.learner.rules_,
                                            *(r for rules in self.agreement.rule_lists_ for r in rules)])
        labels, rule_confidence, index = (self.learner.predict_rules(X) if table is None
                                          else self.learner.predict_rules(X, table))
        labels = np.asarray(labels, dtype=object)
        confidence = np.asarray(rule_confidence, dtype=float)
        borrowed = np.full(len(labels), None, dtype=object)
        scores = None  # the wording scores, worked out once for the vote and the support
        texts = None if answers is None else _as_text(answers)
        if self.wording is not None and texts is not None:
            scores = self.wording.scores(texts, X)
        if self.agreement is None:
            agreement = np.full(len(labels), np.nan)
        else:
            verdicts = self.agreement.verdicts(self.learner, X, table)
            main_labels = labels
            if self.params.get("vote") and verdicts:  # files saved before the vote: off
                labels, confidence, borrowed = majority_vote(
                    labels, confidence, verdicts, unmarked=bool(self.params.get("vote_unmarked")),
                    wording=self.wording.vote_scores(scores) if self.voted_by_wording and scores is not None
                    else None, wording_weight=self.vote_wording_weight)
            agreement = self.agreement.agreement(self.learner, X, labels, verdicts)
            if self.params.get("list_confidence"):  # files saved before 2026-11-23: rule x agreement
                confidence = self._list_confidence(main_labels, labels, confidence, index, borrowed, verdicts)
            else:
                confidence = np.where(np.isnan(agreement), confidence, confidence * agreement)
        support, preferred = np.full(len(labels), np.nan), [None] * len(labels)
        if scores is not None:
            support, preferred = self.wording.judge(texts, [
                None if i < 0 and b is None else m for m, i, b in zip(labels, index, borrowed)], scores)
            confidence = weigh(confidence, support)
        return Decisions(labels, self.probability(confidence), np.asarray(index, dtype=np.int64), agreement,
                         support, np.asarray(preferred, dtype=object), borrowed, confidence)

    def _list_confidence(self, main_labels: np.ndarray, labels: np.ndarray, rule_confidence: np.ndarray,
                         index: np.ndarray, borrowed: np.ndarray, verdicts: list) -> np.ndarray:
        """The share of the rule lists giving each mark (`agreement.list_share`; the rule's
        confidence where there are no resamples), at most the confidence of the rule that gave
        it when the rule is taken as written: a teacher's stated doubt (`0.9::`), a background
        rule, a rule for a mark no marked answer has, or the catch-all default rule that looks
        at nothing is not made sure by the resamples agreeing with it. A teacher's initial rule
        checked on the marked answers is trusted as a learned rule is: capped by its own
        figure on them, its marks were flagged far more often than learned rules' marks that
        were no more often right (docs/beetle.md). Model files written before keep every
        teacher's rule capped: their calibration was fitted on those figures."""
        share = list_share(main_labels, labels, verdicts)
        confidence = np.where(np.isnan(share), rule_confidence, share)
        marked = set(map(str, getattr(self.learner, "classes_", ()))) \
            if self.params.get("checked_rules_trusted") else set()  # before: none trusted
        for i in np.flatnonzero(~np.isnan(share)):
            b = borrowed[i]
            rule = self.borrowed_rule(b) if b is not None else self.learner.rules_[index[i]]
            as_written = rule.origin == "background" or (rule.origin == "initial" and str(rule.head) not in marked)
            if (as_written or rule.fixed_confidence or rule.name == "default") and rule.confidence is not None:
                confidence[i] = min(confidence[i], rule.confidence)
        return confidence

    def borrowed_rule(self, borrowed: tuple[int, int]) -> Rule:
        """The resampled rule a vote borrowed (see `Decisions.borrowed`)."""
        resample, index = borrowed
        return self.agreement.rule_lists_[resample][index]

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW,
              features: pd.DataFrame | None = None) -> pd.DataFrame:
        """Mark answers: columns mark (str or None), confidence (NaN if none), flagged,
        rule (short text of the rule that fired, "" if none), explanation (one line),
        needs_human (flagged whatever the threshold: no rule, a blank answer, a contradiction)
        and feedback (what the student reads: `student_texts`, "" when there is nothing to say).
        `features`: `self.features(answers)` when the caller has it already (the app shows
        both), so that the answers are not read twice."""
        texts = _as_text(answers)
        # Identical answers (common in real exams: "9.8 m/s^2 down", "idk") are analysed once.
        codes, unique = pd.factorize(np.asarray(texts, dtype=object))
        unique = list(unique)
        if features is None:
            X = self.extractor.transform(unique)  # `features`, of answers already as text
        else:
            if len(features) != len(texts):
                raise ValueError(f"{len(texts)} answers but {len(features)} rows of features")
            first = np.unique(codes, return_index=True)[1]  # each distinct answer's first row
            X = features.iloc[first].reset_index(drop=True)
        decisions = self.decide(X, unique)
        tested = self._rule_features() + [frozenset()]
        contradicted = contradiction_notes(self.question, X, decisions.marks, [
            tested[i] if b is None else frozenset(lit.feature for lit in self.borrowed_rule(b).body)
            for i, b in zip(decisions.rule_index, decisions.borrowed)])[codes]
        labels, confidences, index, agreement, support, preferred, borrowed, _ = (a[codes] for a in decisions)
        voted = np.array([b is not None for b in borrowed], dtype=bool)
        blank = np.fromiter((not t for t in texts), dtype=bool, count=len(texts))
        no_rule = (index < 0) & ~voted
        needs_human = no_rule | blank | (contradicted != "")  # whatever the threshold
        misplaced = self._out_of_place(X, codes, blank)
        if misplaced is not None:
            needs_human = np.ones_like(needs_human)
        with np.errstate(invalid="ignore"):
            flagged = needs_human | ~(confidences >= flag_below)
        rule_texts = np.asarray(self.rule_texts() + [""], dtype=object)
        summaries = np.asarray(self.rule_summaries() + ["no rule applies: for a human marker"], dtype=object)
        rule_column = rule_texts[index]
        explanation = summaries[index]  # index -1 picks the last entry
        feedback = np.asarray(self.student_texts() + [""], dtype=object)[index]
        if self.is_ensemble:  # every rule that applies for the mark, with its weight
            words = self.words()
            explained = self.learner.explain(X)
            explanation = np.asarray([words.ensemble_summary(e) for e in explained], dtype=object)[codes]
            feedback = np.asarray([words.student_text([v.rule.body for v in e.votes]) if e.label is not None
                                   else "" for e in explained], dtype=object)[codes]
        if voted.any():
            rule_column, explanation, feedback = rule_column.copy(), explanation.copy(), feedback.copy()
            for i in np.flatnonzero(voted):
                rule_column[i], explanation[i] = self._borrowed_texts(borrowed[i], bool(index[i] >= 0))
                feedback[i] = self.words().student_text([self.borrowed_rule(borrowed[i]).body])
        if blank.any():
            feedback = np.where(blank, "", feedback)
        if self.agreement is not None and self.agreement.rule_lists_:
            explanation = explanation + agreement_phrases(agreement, len(self.agreement.rule_lists_), no_rule)
        if self.wording is not None:
            explanation = explanation + support_phrases(support, labels, preferred)
        if (contradicted != "").any():
            explanation = explanation + np.where(contradicted != "", "; but it also shows a wrong idea the marking scheme names ("
                                                 + contradicted + "): for a human marker", "")
        if blank.any():
            explanation = explanation.copy()
            explanation[blank] = "blank answer (graded as a non-answer, for a human marker): " + explanation[blank]
        if misplaced is not None:
            explanation = "unlike the answers the model was trained on (see the warning), for a human marker: " \
                + explanation
        marks = np.asarray(labels, dtype=object)
        marks = np.where(no_rule, None, marks)
        graded = pd.DataFrame({"mark": pd.Series(marks, dtype=object), "confidence": confidences,
                               "flagged": flagged, "rule": rule_column,
                               "explanation": explanation, "needs_human": needs_human,
                               "feedback": feedback})
        graded.attrs["warnings"] = [] if misplaced is None else [misplaced]
        return graded

    def _out_of_place(self, X: pd.DataFrame, codes: np.ndarray, blank: np.ndarray) -> str | None:
        """The warning when these answers look unlike the training answers (`grader.grading.fit`)."""
        exemplars = getattr(self.extractor, "exemplars_", None)
        no_word = unmatched(X)
        if exemplars is None or no_word is None:
            return None
        return out_of_place(no_word[codes], blank, training_share(exemplars.keys, exemplars.count))

    def _borrowed_texts(self, borrowed: tuple[int, int], own_mark: bool = True) -> tuple[str, str]:
        """(rule column, one-line explanation) of a mark the vote took from a resampled rule;
        `own_mark`: whether one of the model's own rules marks the answer too."""
        rule = self.borrowed_rule(borrowed)
        where = f"resample {borrowed[0] + 1}"
        words = self.words()
        summary = words.rule_summary(0, rule, f"rule {confidence_text(rule.confidence)}")
        which = vote_phrase(own_mark, self.voted_by_wording)
        return (f"{where}: {words.rule_text(rule)}",
                summary.replace(" by rule 1 ", f" by a rule learned from {where} of the marked answers, "
                                            f"{which} ", 1))

    def explain(self, answer: str):
        """The full justification of the mark of one answer (`.text()`, `.summary()`,
        `.to_dict()`): the rule that gave the mark, the resampled one when the vote chose it
        (`grader.grading.justification`)."""
        return explain_answer(self, answer)

    def features_found(self, answer: str) -> dict[str, object]:
        """The features of one answer that say something: concepts, terms and misconceptions
        present or negated, quantities given, the numbers; not the long list of absences."""
        row = self.features([answer]).iloc[0]
        found: dict[str, object] = {}
        for name, value in row.items():
            if isinstance(value, float):
                if not math.isnan(value):
                    found[name] = round(value, 4)
            elif str(value) not in ("absent", "missing", "no"):
                found[name] = value
        return found

    @property
    def vote_wording_weight(self) -> float:
        """How much each mark's wording score weighs in the vote of the rule lists
        (`agreement.majority_vote`); 0 in model files written before 2026-11-24."""
        weight = self.params.get("vote_wording")
        if self.wording is None or isinstance(weight, bool) or not isinstance(weight, (int, float)):
            return 0.0
        return float(weight) if 0 < weight <= 10 else 0.0

    @property
    def voted_by_wording(self) -> bool:
        return self.vote_wording_weight > 0

    @property
    def is_ensemble(self) -> bool:
        """Boosted rules (`grader.boosting`): a mark is the one whose applying rules weigh most,
        not the first rule's in an ordered list."""
        return hasattr(self.learner, "votes_")

    @property
    def descriptions(self) -> dict[str, str]:
        return dict(getattr(self.extractor, "descriptions_", {}) or {})

    @property
    def opposites(self) -> dict[str, str]:
        """By reference phrase or term, the antonyms that also say it negated
        (`FeatureExtractor.opposites_`)."""
        return dict(getattr(self.extractor, "opposites_", {}) or {})

    # -- rules as text -------------------------------------------------------------------

    def words(self) -> MarkerWords:
        """The rules' conditions in the marker's words (`grader.grading.marker_text`)."""
        categories = {e.name: list(e.categories) for e in getattr(self.learner, "encodings_", [])}
        # the quantities the extractor reads: the question file's and its reference answers' values
        quantities = getattr(self.extractor, "quantities_", None)
        question = self.question if quantities is None else dataclasses.replace(self.question, quantities=quantities)
        return MarkerWords(question, self.descriptions, categories, self.voted_by_wording, self.opposites)

    def rule_texts(self) -> list[str]:
        """A short text for each top-level rule, e.g. `R2: 1 mark if gives ... and says ...`."""
        if self._rule_texts is None:
            words = self.words()
            self._rule_texts = [f"R{i + 1}: {words.rule_text(r)}" for i, r in enumerate(self.learner.rules_)]
        return self._rule_texts

    def _rule_features(self) -> list[frozenset[str]]:
        """The features each top-level rule tests (its own conditions, not its exceptions)."""
        return [frozenset(lit.feature for lit in r.body) for r in self.learner.rules_]

    def rule_summaries(self) -> list[str]:
        """The one-line explanation of a mark given by each rule, in the markers' words."""
        if self._summaries is None:
            words = self.words()
            self._summaries = [words.rule_summary(i, r, f"rule {confidence_text(r.confidence)}")
                               for i, r in enumerate(self.learner.rules_)]
        return self._summaries

    def student_texts(self) -> list[str]:
        """The feedback a student reads for a mark given by each rule: what the answer says or
        lacks in the rubric's words, "" for a rule resting only on the model's own figures."""
        if self._student_texts is None:
            words = self.words()
            self._student_texts = [words.student_text([r.body]) for r in self.learner.rules_]
        return self._student_texts

    def rules(self, format: str = "text") -> str:
        """The model's rules: "text" (numbered, readable), "asp" (the answer set program),
        "clingo" (the program in the dialect clingo runs, confidences as comments; facts from
        `knowledge.clingo_check.feature_facts`), "yaml" (structured YAML to copy into the question file's `initial_rules`: no confidences,
        and a rule resting on a learned feature no question file can name as a comment)."""
        if self.is_ensemble and format != "text":
            raise ValueError(f"boosted rules add up their weights, which no {format} program says; "
                             f"use the text format")
        if format == "asp":
            return self.learner.to_asp()
        if format == "clingo":
            return self.learner.to_asp(dialect="clingo")
        if format == "yaml":
            from knowledge.pasteable_rules import rules_to_paste

            return rules_to_paste(self.question, self.learner.rules_)
        if format != "text":
            raise ValueError(f"unknown rules format {format!r}; expected text, asp, clingo or yaml")
        return rules_text(self.learner, self.words(), self.is_ensemble)

    # -- files ---------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The model file's data (`grader.grading.model_file`)."""
        return model_data(ModelParts(self.question, self.extractor, self.learner, self.trained_on,
                                     self.params, self.agreement, self.wording, self.calibration))

    @classmethod
    def from_dict(cls, data: dict, source: str = "<model>") -> GradingModel:
        """The model of a model file's data; ModelFileError naming `source` if it is damaged."""
        parts = parts_from_data(data, source)
        model = cls(parts.question, parts.extractor, parts.learner, parts.trained_on, parts.params,
                    parts.agreement, parts.wording)
        model.calibration = parts.calibration
        return model

    def save(self, path: str | Path) -> None:
        """Write the model as one JSON file (atomic replace)."""
        write_model_json(path, self.to_dict())

    @classmethod
    def load(cls, path: str | Path) -> GradingModel:
        data = read_json_file(path, "grading model file")
        model = cls.from_dict(data, str(path))
        model._fingerprint = model_fingerprint(data)
        return model

    def fingerprint(self) -> str:
        """A short hash of what the model does (not of when it was trained): batch grading
        resumes an interrupted run only with the same model, and retraining on the same
        answers gives the same model."""
        if self._fingerprint is None:
            self._fingerprint = model_fingerprint(self.to_dict())
        return self._fingerprint


# -- rule text -----------------------------------------------------------------------------


def agreement_phrases(agreement: np.ndarray, n_resamples: int, no_rule: np.ndarray) -> np.ndarray:
    """"; 17 of 20 resampled models agree" for each answer ("" where no rule applies)."""
    agreeing = np.rint(np.nan_to_num(agreement) * n_resamples).astype(np.int64)
    phrases = np.asarray([f"; {k} of {n_resamples} resampled models agree" for k in range(n_resamples + 1)],
                         dtype=object)
    return np.where(no_rule, "", phrases[agreeing])
