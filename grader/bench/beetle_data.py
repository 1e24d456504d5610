"""Beetle's answers, its mark schemes, and one model trained and graded through the product path.

Shared by the Beetle benches (`beetle`, `beetle_rubric`, `general`, `learning_curve`): the
labels of each scheme in a teacher's order, mapping a 5-way label to a scheme, reading a
Beetle folder, and `train_and_grade` (a `GradingModel` trained on some answers, grading others).
"""

from __future__ import annotations

import dataclasses
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from grader.grading.evaluation import TooFewToCrossValidate, calibrate
from grader.grading.flag_threshold import choose_threshold
from knowledge.rule_marks import with_marks

SCHEMES = ("5way", "3way", "2way")
#: Each scheme's labels from the lowest, as a teacher would order the marks: a rule for a label
#: above the lowest must rest on what the answer says (`GradingModel.train(evidence_rules=)`).
#: The labels that give no credit are the question's `no_credit` marks: for them a wrong idea
#: the answer states (a misconception) is such a reason.
MARK_ORDER = {"5way": ("non_domain", "irrelevant", "contradictory", "partially_correct_incomplete", "correct"),
              "3way": ("incorrect", "contradictory", "correct"), "2way": ("incorrect", "correct")}
NO_CREDIT = {"5way": ("non_domain", "irrelevant", "contradictory"), "3way": ("incorrect", "contradictory"),
             "2way": ("incorrect",)}
_THREE_WAY_KEPT = ("correct", "contradictory")


def relabel(label_5way: str, scheme: str) -> str:
    """A 5-way Beetle label in another scheme: 3-way keeps correct and contradictory and folds
    the rest into incorrect; 2-way is correct against everything else."""
    if scheme == "5way":
        return label_5way
    if scheme == "3way":
        return label_5way if label_5way in _THREE_WAY_KEPT else "incorrect"
    if scheme == "2way":
        return "correct" if label_5way == "correct" else "incorrect"
    raise ValueError(f"unknown scheme {scheme!r}; expected one of {', '.join(SCHEMES)}")


def load_beetle(data: Path) -> tuple[dict[str, dict], pd.DataFrame]:
    """(questions by id, answers table) of a Beetle folder, with a clear error if it is not one."""
    questions_file, answers_file = data / "questions.json", data / "answers.csv"
    for f in (questions_file, answers_file):
        if not f.is_file():
            raise FileNotFoundError(f"{f}: not found (--data must be a folder with questions.json "
                                    f"and answers.csv)")
    questions = {q["question_id"]: q for q in json.loads(questions_file.read_text(encoding="utf-8"))}
    answers = pd.read_csv(answers_file, dtype=str, keep_default_na=False)
    missing = {"question_id", "answer", "label_5way", "split"} - set(answers.columns)
    if missing:
        raise ValueError(f"{answers_file}: no column(s) {', '.join(sorted(missing))}")
    return questions, answers


def question_ids(questions: dict, answers: pd.DataFrame, first: int = 0) -> list[str]:
    """The ids of the questions that have answers, sorted; only the `first` ones when > 0."""
    qids = sorted(q for q in answers.question_id.unique() if q in questions)
    return qids[:first] if first > 0 else qids


def scheme_question(question, scheme: str):
    """`question` as the file of a teacher who lists the scheme's marks, lowest first, and the
    others that give no credit (`no_credit:`)."""
    return dataclasses.replace(with_marks(question, MARK_ORDER[scheme]), no_credit=NO_CREDIT[scheme][1:])


def train_and_grade(question, train: pd.DataFrame, test: pd.DataFrame, scheme: str,
                    params: dict, models: list | None = None) -> tuple[list, np.ndarray, float]:
    """(marks, confidences) of the test answers, and the flag threshold for
    `params["target_accuracy"]` (inf when the marked answers cannot vouch for it; NaN without one).
    The model is calibrated on its own training answers, as `grader train` does (its confidences
    are then probabilities), unless `params["calibrated"]` is False (the raw confidences).
    `models`: a list the trained model is appended to (for benches that read its rules)."""
    from grader.grading.model import GradingModel

    marks = [relabel(y, scheme) for y in train.label_5way]
    params = dict(params)
    target = params.pop("target_accuracy", None)
    calibrated = params.pop("calibrated", True)
    if len(set(marks)) < 2:  # the learner needs two marks: nothing is marked automatically
        return [None] * len(test), np.full(len(test), np.nan), math.inf if target else math.nan
    if params.pop("marks_listed", True):  # as a teacher who lists the marks
        question = scheme_question(question, scheme)
    with warnings.catch_warnings():  # "marks are words in no order": the header shows marks_listed
        warnings.simplefilter("ignore")
        model = GradingModel.train(question, train.answer.tolist(), marks, **params)
    if models is not None:
        models.append(model)
    if calibrated or target:
        try:
            calibrate(model, train.answer.tolist(), marks)
        except TooFewToCrossValidate:
            pass  # raw confidences, and no target can be vouched for (as grader train)
    pairs = model.calibration
    if not calibrated:
        model.calibration = None  # the raw confidences, and a threshold on them
    threshold = math.nan if not target else math.inf if pairs is None else (
        model.flag_threshold_for(target).threshold if calibrated
        else choose_threshold([math.nan if c is None else c for c in pairs["confidence"]], pairs["correct"],
                              target).threshold)
    graded = model.grade(test.answer.tolist())
    return graded["mark"].tolist(), graded["confidence"].to_numpy(dtype=float), threshold
