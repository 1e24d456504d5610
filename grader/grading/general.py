"""The general model: one CON-FOLD model learned from several questions, for a question it has not seen.

A teacher with a new question and an unmarked exam has no marked answers to train on. The
general model is trained on other questions' marked answers, on features that do not depend
on the question (`grader.grading.general_features`), and marks the new question from its
question file alone. It is a starting point, not a marker: its rules were learned on other
questions, so its marks are less sure and most answers of a new question are flagged.

**The common scale.** Marks of different questions are put on one scale:

- if every training question has the same marks (e.g. all `correct`/`contradictory`/
  `incorrect`, or all `0`/`1`/`2`), those marks are the scale;
- otherwise each mark is placed by its position on its question's list of marks (lowest
  first): the lowest is `none`, the highest `full`, any mark in between `partial`.

Every point of the scale has a position from 0 (lowest) to 1 (highest). A new question with
the scale's marks gets them as they are; a question file without marks gets the scale's
marks; any other question gets, for each of the model's marks, its own mark at the nearest
position on its list (ties go to the lower mark).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from grader.confold.model_file import ModelFileError, read_json_file
from grader.confold.rules import Rule
from grader.grading.agreement import ResampledAgreement
from grader.grading.defaults import (DEFAULT_CONFIDENCE_THRESHOLD, DEFAULT_FLAG_BELOW,
                                     DEFAULT_IMPROVEMENT_THRESHOLD, DEFAULT_RESAMPLES)
from grader.grading.general_features import (GENERAL_FEATURES, condition_phrase, general_features,
                                             question_extractor)
from grader.grading.model import _as_text, agreement_phrases
from grader.grading.model_file import content_hash, write_model_json
from knowledge.schema import Question, marks_from_answers

GENERAL_FORMAT = "physics-grader-general-model"
GENERAL_FORMAT_VERSION = 1
LEVELS = ("none", "partial", "full")


def rule_text(rule: Rule) -> str:
    """A general rule on one line in a teacher's words, for the `rule` column and `rules()`:
    `full if states some of a reference answer unless (...)`."""
    def conditions(body) -> str:
        return " and ".join(condition_phrase(lit.feature, lit.op, lit.value) for lit in body) or "always"

    text = f"{rule.head} if {conditions(rule.body)}"
    if rule.exceptions:
        text += " unless " + " or ".join(f"({conditions(e.body)})" for e in rule.exceptions)
    return text
#: The note every mark of the general model carries: it was not trained on this question.
NOT_TRAINED_NOTE = "general model, no marked answers of this question"


def question_marks(question: Question, marks: Sequence[str]) -> tuple[str, ...]:
    """The question's marks lowest first, or those read off its marked answers."""
    return tuple(question.marks) if question.marks else marks_from_answers(marks)


def positions(marks: Sequence[str]) -> dict[str, float]:
    """Each mark's position on its list, lowest 0, highest 1 (a single mark: 1)."""
    k = len(marks)
    return {m: (i / (k - 1) if k > 1 else 1.0) for i, m in enumerate(marks)}


def level_of(position: float) -> str:
    return "none" if position <= 0 else "full" if position >= 1 else "partial"


def mark_map(scale: Sequence[str], scale_positions: dict[str, float], marks: Sequence[str]) -> dict[str, str]:
    """For each point of the scale, the question's mark at the nearest position (see the module)."""
    if not marks or set(marks) == set(scale):
        return {s: s for s in scale}
    own = positions(marks)
    return {s: min(marks, key=lambda m: (abs(own[m] - scale_positions[s]), own[m])) for s in scale}


class GeneralModel:
    """One model for questions it has not seen. Build with `train` or `load`."""

    def __init__(self, scale: list[str], scale_positions: dict[str, float], learner: Any,
                 agreement: ResampledAgreement | None, trained_on: dict, params: dict):
        self.scale = scale
        self.scale_positions = scale_positions
        self.learner = learner
        self.agreement = agreement
        self.trained_on = trained_on
        self.params = params

    @classmethod
    def train(cls, pairs: Sequence[tuple[Question, Sequence[str], Sequence[str]]], *,
              ratio: float = 0.5, z: float = 3.0,
              improvement_threshold: float | None = DEFAULT_IMPROVEMENT_THRESHOLD,
              confidence_threshold: float | None = DEFAULT_CONFIDENCE_THRESHOLD,
              n_resamples: int = DEFAULT_RESAMPLES, default_rule: bool = True) -> GeneralModel:
        """Learn from (question, answers, marks) of several questions; marks on the common scale.

        `default_rule` (on by default, unlike a question's model): the answers no learned rule
        covers get the commonest mark left, with its low confidence, so they are flagged but
        marked; left-out Beetle questions, 3-way accuracy 0.29 without it, 0.43 with it."""
        if len(pairs) < 1:
            raise ValueError("the general model needs the marked answers of at least one question")
        ids = [q.id for q, _, _ in pairs]
        repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
        if repeated:
            raise ValueError(f"question {repeated[0]!r} is given twice: give each question's marked answers once")
        lists = []
        for q, answers, marks in pairs:
            if len(answers) != len(marks):
                raise ValueError(f"question {q.id!r}: {len(answers)} answers but {len(marks)} marks")
            marks = [str(m).strip() for m in marks]
            own = question_marks(q, marks)
            unknown = sorted(set(marks) - set(own))
            if unknown:
                raise ValueError(f"question {q.id!r}: marks {', '.join(map(repr, unknown))} are not among "
                                 f"the question's marks ({', '.join(map(repr, own))})")
            lists.append((q, _as_text(answers), marks, own))
        same = all(set(own) == set(lists[0][3]) for *_, own in lists)
        if same:
            scale = list(lists[0][3])
            scale_positions = positions(scale)
        else:
            scale, scale_positions = list(LEVELS), {"none": 0.0, "partial": 0.5, "full": 1.0}
        tables, labels, described = [], [], []
        for q, answers, marks, own in lists:
            tables.append(features_for(q, answers))
            place = positions(own)
            labels += marks if same else [level_of(place[m]) for m in marks]
            described.append({"id": q.id, "answers": len(answers),
                              "marks": {m: c for m, c in Counter(marks).items()}})
        params = {"ratio": ratio, "z": z, "improvement_threshold": improvement_threshold,
                  "confidence_threshold": confidence_threshold, "n_resamples": n_resamples,
                  "default_rule": default_rule}
        model = cls.fit_features(pd.concat(tables, ignore_index=True), labels, scale, scale_positions, params)
        model.trained_on = {"questions": described, "answers": len(labels),
                            "scale": "the questions' own marks" if same else "positions (none, partial, full)",
                            "time": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        return model

    @classmethod
    def fit_features(cls, X: pd.DataFrame, labels: Sequence[str], scale: list[str],
                     scale_positions: dict[str, float], params: dict) -> GeneralModel:
        """Learn from a table of general features and marks on the scale (`train` without the
        feature extraction: the leave-questions-out benchmark extracts once)."""
        from grader.confold import ConFold

        labels = list(labels)
        if len(set(labels)) < 2:
            raise ValueError("all marked answers have the same mark on the common scale: the learner "
                             "needs answers with at least two different marks")
        learner = ConFold(**{k: v for k, v in params.items() if k != "n_resamples"})
        learner.fit(X, pd.Series(labels, name="mark"))
        agreement = ResampledAgreement(params.get("n_resamples", DEFAULT_RESAMPLES)).fit(learner, X, labels)
        return cls(scale, scale_positions, learner, agreement, {"answers": len(labels)}, dict(params))

    def for_question(self, question: Question) -> GeneralGrader:
        """The grader of one new question (the same `grade` as a `GradingModel`)."""
        return GeneralGrader(self, question)

    def decide(self, X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(scale marks, confidence, rule index, agreement) for a table of general features."""
        labels, confidence, index = self.learner.predict_rules(X)
        labels = np.asarray(labels, dtype=object)
        confidence = np.asarray(confidence, dtype=float)
        if self.agreement is None:
            agreement = np.full(len(labels), np.nan)
        else:
            agreement = self.agreement.agreement(self.learner, X, labels)
            confidence = np.where(np.isnan(agreement), confidence, confidence * agreement)
        return labels, confidence, np.asarray(index, dtype=np.int64), agreement

    def rules(self) -> str:
        """The model's rules, one per line, with their confidences."""
        return "".join(f"R{i + 1} [{r.confidence:.2f}]: {rule_text(r)}\n"
                       for i, r in enumerate(self.learner.rules_))

    # -- files ---------------------------------------------------------------------------

    def to_dict(self) -> dict:
        data = {"format": GENERAL_FORMAT, "format_version": GENERAL_FORMAT_VERSION,
                "scale": self.scale, "positions": self.scale_positions,
                "features": list(GENERAL_FEATURES), "learner": self.learner.to_dict(),
                "params": self.params, "trained_on": self.trained_on}
        if self.agreement is not None:
            data["agreement"] = self.agreement.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Any, source: str = "<general model>") -> GeneralModel:
        from grader.confold import ConFold

        if not is_general(data):
            raise ModelFileError(f"{source}: not a general model file (no \"format\": \"{GENERAL_FORMAT}\")")
        version = data.get("format_version")
        if not isinstance(version, int) or version > GENERAL_FORMAT_VERSION:
            raise ModelFileError(f"{source}: general model format {version!r}; this version reads up to "
                                 f"{GENERAL_FORMAT_VERSION}")
        try:
            scale = [str(s) for s in data["scale"]]
            scale_positions = {str(k): float(v) for k, v in data["positions"].items()}
            if sorted(scale_positions) != sorted(scale) or len(set(scale)) < 2:
                raise ValueError("the scale and its positions do not match")
            if list(data["features"]) != list(GENERAL_FEATURES):
                raise ValueError("made with other features than this version computes")
            learner = ConFold.from_dict(data["learner"])
            unknown = set(map(str, learner.classes_)) - set(scale)
            if unknown:
                raise ValueError(f"the rules give marks not on the scale: {sorted(unknown)}")
            agreement = ResampledAgreement.from_dict(data["agreement"]) if "agreement" in data else None
            if agreement is not None:
                agreement.check_features(learner)
            trained_on, params = dict(data["trained_on"]), dict(data["params"])
        except ModelFileError as e:
            raise ModelFileError(f"{source}: damaged general model file ({e})") from None
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ModelFileError(f"{source}: damaged general model file ({type(e).__name__}: {e})") from None
        return cls(scale, scale_positions, learner, agreement, trained_on, params)

    def save(self, path: str | Path) -> None:
        """Write the model as one JSON file (atomic replace)."""
        write_model_json(path, self.to_dict())

    @classmethod
    def load(cls, path: str | Path) -> GeneralModel:
        return cls.from_dict(read_json_file(path, "general model file"), str(path))

    def fingerprint(self) -> str:
        return content_hash({k: v for k, v in self.to_dict().items() if k != "trained_on"})


def is_general(data: Any) -> bool:
    """Whether a model file's JSON is a general model's."""
    return isinstance(data, dict) and data.get("format") == GENERAL_FORMAT


def features_for(question: Question, answers: Sequence[str], extractor: Any = None) -> pd.DataFrame:
    """The general features of answers to one question (`extractor`: one already fitted on it)."""
    texts = _as_text(answers)
    fx = extractor if extractor is not None else question_extractor(question)
    return general_features(fx.transform(texts), texts)


class GeneralGrader:
    """The general model applied to one question: `grade` as `GradingModel.grade` does."""

    def __init__(self, model: GeneralModel, question: Question):
        self.model = model
        self.question = question
        self.marks = mark_map(model.scale, model.scale_positions, list(question.marks))
        self.extractor = question_extractor(question)

    def features(self, answers: Sequence[str]) -> pd.DataFrame:
        return features_for(self.question, answers, self.extractor)

    def decide(self, answers: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(marks in the question's own marks, confidence; NaN where no rule applies)."""
        labels, confidence, index, _ = self.model.decide(self.features(answers))
        marks = np.asarray([None if i < 0 else self.marks[str(m)] for m, i in zip(labels, index)], dtype=object)
        return marks, confidence

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW,
              features: pd.DataFrame | None = None) -> pd.DataFrame:
        """Columns mark, confidence, flagged, rule, explanation, needs_human (as `GradingModel.grade`).
        `features`: `self.features(answers)` when the caller has it already."""
        texts = _as_text(answers)
        codes, unique = pd.factorize(np.asarray(texts, dtype=object))
        if features is None:
            X = self.features(list(unique))
        else:  # the rows of the first occurrence of each distinct answer
            X = features.iloc[np.unique(codes, return_index=True)[1]].reset_index(drop=True)
        labels, confidence, index, agreement = (a[codes] for a in self.model.decide(X))
        no_rule = index < 0
        blank = np.fromiter((not t for t in texts), dtype=bool, count=len(texts))
        needs_human = no_rule | blank
        with np.errstate(invalid="ignore"):
            flagged = needs_human | ~(confidence >= flag_below)
        rules = self.model.learner.rules_
        texts_of_rules = np.asarray([f"G{i + 1}: {rule_text(r)}" for i, r in enumerate(rules)] + [""], dtype=object)
        summaries = np.asarray(
            [f"mark {self.marks[str(r.head)]} by general rule {i + 1} (rule confidence {r.confidence:.2f}): "
             + ("; ".join(condition_phrase(lit.feature, lit.op, lit.value) for lit in r.body)
                  or "default rule")
             + (f"; none of its {len(r.exceptions)} exception(s) applies" if r.exceptions else "")
             for i, r in enumerate(rules)] + ["no rule applies: for a human marker"], dtype=object)
        explanation = f"{NOT_TRAINED_NOTE}: " + summaries[index]
        if self.model.agreement is not None and self.model.agreement.rule_lists_:
            explanation = explanation + agreement_phrases(agreement, len(self.model.agreement.rule_lists_), no_rule)
        if blank.any():
            explanation = np.where(blank, "blank answer (for a human marker): " + explanation, explanation)
        marks = np.asarray([None if i < 0 else self.marks[str(m)] for m, i in zip(labels, index)], dtype=object)
        return pd.DataFrame({"mark": pd.Series(marks, dtype=object), "confidence": confidence,
                             "flagged": flagged, "rule": texts_of_rules[index],
                             "explanation": explanation, "needs_human": needs_human,
                             # general rules weigh the model's own figures: nothing for a student
                             "feedback": [""] * len(texts)})

    def rules(self, format: str = "text") -> str:
        return self.model.rules()

    @property
    def descriptions(self) -> dict[str, str]:
        """What each general feature means, for showing an answer's features to a marker."""
        return {name: text for name, (_, text) in GENERAL_FEATURES.items()}

    def explain(self, answer: str):
        """The general rules' justification of one answer's mark (`.text()`), in the scale's marks."""
        return self.model.learner.explain(self.features([answer]), descriptions=self.descriptions)[0]

    def fingerprint(self) -> str:
        from knowledge import question_to_dict

        return content_hash([self.model.fingerprint(), question_to_dict(self.question)])
