"""`python -m grader.bench general --data ../shared/data/beetle-dev [--folds K] [--resamples N]`

The general model on questions it has not seen, leave-questions-out on Beetle: the questions
are split into K groups (K = the number of questions: leave one out); for each group a
`GeneralModel` is trained on the other questions' answers (the scheme's labels)
and marks the held-out questions' answers. Training uses split=train only; `--split train`
(the default) grades the held-out questions' split=train answers (development: decisions are
made on it), `--split test` their split=test answers (the report). Features are extracted
once per question.

Prints per scheme (3-way and 2-way, each trained on its own labels): accuracy and macro-F1
over all held-out answers (an answer no rule marks counts as wrong), the share flagged at the
default threshold and the accuracy of the rest, and the spread of per-question accuracy
(minimum, quartiles, maximum). The lexical baseline for comparison: a model of reference
overlap reaches about 0.47 (3-way) / 0.67 (2-way) accuracy on unseen questions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from grader.bench.beetle import load_beetle, relabel
from grader.metrics import macro_f1

SCHEMES = ("3way", "2way")


def beetle_features(data: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(answers with question_id and label_5way, their general features), extracted once."""
    from grader.grading.general import features_for
    from knowledge.schema import Question

    questions, answers = load_beetle(data)
    answers = answers[answers.question_id.isin(questions)].reset_index(drop=True)
    if answers.empty:
        raise ValueError(f"{data}: no answers of the questions in questions.json")
    tables = []
    for qid, group in answers.groupby("question_id", sort=False):
        record = questions[qid]
        question = Question(qid, record["question"], tuple(record["reference_answers"]))
        tables.append(features_for(question, group.answer.tolist()).set_index(group.index))
    return answers, pd.concat(tables).sort_index()


def leave_questions_out(answers: pd.DataFrame, X: pd.DataFrame, scheme: str, folds: int,
                        params: dict, seed: int = 0, split: str = "train") -> pd.DataFrame:
    """The answers of `split` each marked by a general model trained on the other questions'
    split=train answers: columns question_id, truth, mark, confidence."""
    trained = (answers.split == "train").to_numpy()
    graded = (answers.split == split).to_numpy()
    from grader.grading.general import GeneralModel, positions

    truth = np.asarray([relabel(y, scheme) for y in answers.label_5way], dtype=object)
    scale = sorted(set(truth))
    qids = answers.question_id.to_numpy()
    order = np.random.default_rng(seed).permutation(np.unique(qids))
    k = min(folds, len(order)) if folds > 0 else len(order)
    group_of = {q: i % k for i, q in enumerate(order)}
    fold = np.asarray([group_of[q] for q in qids])
    marks = np.empty(len(answers), dtype=object)
    confidence = np.full(len(answers), np.nan)
    for g in range(k):
        held, train = (fold == g) & graded, (fold != g) & trained
        if not held.any():
            continue
        model = GeneralModel.fit_features(X[train].reset_index(drop=True), truth[train].tolist(), scale,
                                          positions(scale), params)
        labels, conf, index, _ = model.decide(X[held].reset_index(drop=True))
        marks[held] = np.where(index < 0, None, labels)
        confidence[held] = conf
    return pd.DataFrame({"question_id": qids, "truth": truth, "mark": marks,
                         "confidence": confidence})[graded].reset_index(drop=True)


def figures(result: pd.DataFrame, flag_below: float) -> dict:
    right = (result.mark.to_numpy(dtype=object) == result.truth.to_numpy(dtype=object))
    with np.errstate(invalid="ignore"):
        auto = result.confidence.to_numpy(dtype=float) >= flag_below
    by_question = pd.Series(right).groupby(result.question_id.to_numpy()).mean()
    return {"answers": len(result), "accuracy": float(right.mean()),
            "macro_f1": macro_f1(result.truth.tolist(), [None if m is None else m for m in result.mark]),
            "flagged": float(1 - auto.mean()),
            "accuracy_unflagged": float(right[auto].mean()) if auto.any() else float("nan"),
            "per_question": by_question.quantile([0, 0.25, 0.5, 0.75, 1]).round(3).tolist()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench general", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/beetle-dev"))
    parser.add_argument("--folds", type=int, default=0, metavar="K",
                        help="groups of held-out questions (default 0: leave one question out)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the grouping of questions")
    parser.add_argument("--resamples", type=int, default=5, metavar="N",
                        help="resampled models behind each confidence (default 5)")
    parser.add_argument("--flag-below", type=float, default=0.7, metavar="C")
    parser.add_argument("--split", choices=("train", "test"), default="train",
                        help="the held-out questions' answers graded: split=train (development, the "
                             "default) or split=test (report); training always uses split=train")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        answers, X = beetle_features(args.data)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from grader.grading.defaults import DEFAULT_CONFIDENCE_THRESHOLD, DEFAULT_IMPROVEMENT_THRESHOLD

    params = {"ratio": 0.5, "z": 3.0, "improvement_threshold": DEFAULT_IMPROVEMENT_THRESHOLD,
              "confidence_threshold": DEFAULT_CONFIDENCE_THRESHOLD, "n_resamples": args.resamples,
              "default_rule": True}
    n_q = answers.question_id.nunique()
    how = "leave one question out" if args.folds <= 0 else f"{args.folds} groups of questions (seed {args.seed})"
    print(f"general model on Beetle ({args.data}), {how}: trained on the other questions' split=train "
          f"answers, graded the held-out questions' split={args.split} answers "
          f"({int((answers.split == args.split).sum())} of {n_q} questions); features extracted in "
          f"{time.perf_counter() - t0:.0f}s")
    print(f"{'scheme':7s} {'accuracy':>8s} {'macro-F1':>8s} {'flagged':>8s} {'acc unflagged':>13s}   "
          f"per question: min 25% median 75% max")
    for scheme in SCHEMES:
        result = leave_questions_out(answers, X, scheme, args.folds, params, args.seed, args.split)
        f = figures(result, args.flag_below)
        print(f"{scheme:7s} {f['accuracy']:8.3f} {f['macro_f1']:8.3f} {f['flagged']:8.3f} "
              f"{f['accuracy_unflagged']:13.3f}   " + " ".join(f"{v:.3f}" for v in f["per_question"]))
    print(f"[{time.perf_counter() - t0:.0f}s]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
