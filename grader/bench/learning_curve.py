"""`python -m grader.bench learning-curve --data ../shared/data/beetle-dev [--questions N] [--seeds S]`

A teacher marking a bare exam, played with Beetle's labels as the teacher's marks. For each
question, all its answers (both splits; `--split train`: its split=train answers, for
development decisions) are the exam. The teacher marks answers in an order,
a few at a time; after every `--batch` marks the question's model is trained again on the
marks so far (as the app does), and after 10, 20, 40 and 80 marks the model marks the
answers still unmarked. Orders:

- `random`: the answers in a random order (mean over `--seeds` seeds);
- `suggested`: the order `grader suggest` proposes (representatives of groups of similar
  answers first, then the answers the current model is least sure of, weighed by how many
  answers they stand for), asked again after every batch;
- `... +general`: the same, with the question's model seeded by a general model trained on
  the *other* questions (leave one question out), which also marks before any answer is.

Printed per order and number of marks: accuracy on the answers still unmarked (an answer the
model gives no mark counts as wrong; before a model can be trained, every answer gets the
commonest mark marked so far), and accuracy on the whole exam counting the teacher's marks
as right. The first is what the issue's target is stated in; the second does not favour an
order that leaves the easy answers for last. Checkpoints beyond a question's size less 10
are skipped for that question.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from grader.bench.beetle import load_beetle, question_ids, relabel
from grader.bench.parallel import run_tasks

CHECKPOINTS = (10, 20, 40, 80)
ORDERS = ("random", "suggested", "random+general", "suggested+general")


def _predict(model, texts: list[str], marks: list[str | None]) -> np.ndarray:
    """The current model's marks of every answer; the commonest mark so far without a model."""
    if model is None:
        given = [m for m in marks if m is not None]
        common = Counter(given).most_common(1)[0][0] if given else None
        return np.asarray([common] * len(texts), dtype=object)
    return model.grade(texts)["mark"].to_numpy(dtype=object)


def play(question, texts: list[str], truth: np.ndarray, order: str, checkpoints: Sequence[int], batch: int,
         general=None, seed: int = 0) -> dict[int, tuple[float, float]]:
    """{marks: (accuracy on the unmarked answers, accuracy on the whole exam)} for one order."""
    with warnings.catch_warnings():  # "marks are words in no order", once per model trained: the
        warnings.simplefilter("ignore")  # bench's bare question files list no marks, by design
        return _play(question, texts, truth, order, checkpoints, batch, general, seed)


def _play(question, texts: list[str], truth: np.ndarray, order: str, checkpoints: Sequence[int], batch: int,
          general=None, seed: int = 0) -> dict[int, tuple[float, float]]:
    from grader.grading.suggest import choice_confidence, current_model, suggest

    n = len(texts)
    marks: list[str | None] = [None] * n
    rng = np.random.default_rng(seed)
    permutation = list(rng.permutation(n))
    seeded = general if order.endswith("+general") else None
    suggested = order.startswith("suggested")
    model = current_model(question, texts, marks, seeded)
    out: dict[int, tuple[float, float]] = {}
    k = 0
    targets = [c for c in checkpoints if c <= n - 10]
    while targets:
        if k == targets[0]:
            predicted = _predict(model, texts, marks)
            unmarked = np.asarray([m is None for m in marks])
            right = predicted == truth
            out[k] = (float(right[unmarked].mean()), float((right | ~unmarked).mean()))
            targets.pop(0)
            if not targets:
                break
        size = min(batch, targets[0] - k)
        if suggested:
            confidence = choice_confidence(model, texts)
            chosen = [s.index for s in suggest(texts, [m is not None for m in marks], size, confidence)]
        else:
            chosen = [i for i in permutation if marks[i] is None][:size]
        for i in chosen:
            marks[i] = truth[i]
        k += len(chosen)
        if suggested or k == targets[0]:  # random order: a model is only needed to be measured
            model = current_model(question, texts, marks, seeded)
    return out


def run_question(record: dict, group: pd.DataFrame, scheme: str, orders: Sequence[str], seeds: int,
                 checkpoints: Sequence[int], batch: int, general_data: dict | None) -> list[dict]:
    from grader.grading.general import GeneralModel
    from knowledge.schema import Question

    question = Question(record["question_id"], record["question"], tuple(record["reference_answers"]))
    texts = group.answer.tolist()
    truth = np.asarray([relabel(y, scheme) for y in group.label_5way], dtype=object)
    general = GeneralModel.from_dict(general_data) if general_data is not None else None
    rows = []
    for order in orders:
        runs = range(seeds) if order.startswith("random") else range(1)
        for seed in runs:
            for k, (rest, whole) in play(question, texts, truth, order, checkpoints, batch, general, seed).items():
                rows.append({"question_id": question.id, "order": order, "seed": seed, "marks": k,
                             "accuracy_rest": rest, "accuracy_exam": whole})
    return rows


def general_models(data: Path, scheme: str, qids: Sequence[str], resamples: int) -> dict[str, dict]:
    """For each question, a general model trained on the other questions' split=train answers."""
    from grader.bench.general import beetle_features
    from grader.grading.general import GeneralModel, positions
    from grader.grading.defaults import DEFAULT_CONFIDENCE_THRESHOLD, DEFAULT_IMPROVEMENT_THRESHOLD

    answers, X = beetle_features(data)
    truth = np.asarray([relabel(y, scheme) for y in answers.label_5way], dtype=object)
    scale = sorted(set(truth))
    params = {"ratio": 0.5, "z": 3.0, "improvement_threshold": DEFAULT_IMPROVEMENT_THRESHOLD,
              "confidence_threshold": DEFAULT_CONFIDENCE_THRESHOLD, "n_resamples": resamples,
              "default_rule": True}
    out = {}
    for qid in qids:
        rows = ((answers.question_id != qid) & (answers.split == "train")).to_numpy()
        model = GeneralModel.fit_features(X[rows].reset_index(drop=True), truth[rows].tolist(), scale,
                                          positions(scale), params)
        out[qid] = model.to_dict()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench learning-curve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/beetle-dev"))
    parser.add_argument("--questions", type=int, default=0, metavar="N",
                        help="the first N questions by id (default 0: all)")
    parser.add_argument("--seeds", type=int, default=3, help="random orders per question (default 3)")
    parser.add_argument("--scheme", choices=("2way", "3way"), default="2way")
    parser.add_argument("--batch", type=int, default=10, help="marks between two trainings (default 10)")
    parser.add_argument("--orders", default=",".join(ORDERS),
                        help=f"comma-separated, of {', '.join(ORDERS)} (default all)")
    parser.add_argument("--jobs", type=int, default=1, help="questions in parallel processes")
    parser.add_argument("--split", choices=("all", "train"), default="all",
                        help="the exam: every answer of a question (default), or its split=train answers "
                             "only (development: decisions are made on it)")
    args = parser.parse_args(argv)
    orders = [o.strip() for o in args.orders.split(",") if o.strip()]
    unknown = [o for o in orders if o not in ORDERS]
    if unknown or not orders or args.seeds < 1 or args.batch < 1:
        print(f"error: orders must be among {', '.join(ORDERS)}; --seeds and --batch at least 1",
              file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        questions, answers = load_beetle(args.data)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.split == "train":
        answers = answers[answers.split == "train"].reset_index(drop=True)
    qids = question_ids(questions, answers, args.questions)
    generals = {q: None for q in qids}
    if any(o.endswith("+general") for o in orders):
        generals = general_models(args.data, args.scheme, qids, resamples=5)
    tasks = [(questions[q], answers[answers.question_id == q].reset_index(drop=True), args.scheme, orders,
              args.seeds, CHECKPOINTS, args.batch, generals[q]) for q in qids]
    results = run_tasks(run_question, tasks, args.jobs)
    table = pd.DataFrame([r for rows in results for r in rows])
    n_answers = int(answers.question_id.isin(qids).sum())
    print(f"learning curve on Beetle ({args.data}), {args.scheme}: {len(qids)} question{'s' if len(qids) != 1 else ''}, {n_answers} answers "
          f"({'both splits' if args.split == 'all' else 'split=train'}), a model trained every {args.batch} marks, random orders: mean of {args.seeds} seeds "
          f"[{time.perf_counter() - t0:.0f}s]")
    # Mean over seeds within a question first, then over questions.
    per_question = table.groupby(["order", "marks", "question_id"])[["accuracy_rest", "accuracy_exam"]].mean()
    summary = per_question.groupby(["order", "marks"]).agg(["mean", "count"])
    print(f"{'order':18s} " + " ".join(f"{'@' + str(c):>14s}" for c in CHECKPOINTS)
          + "   (accuracy on the unmarked answers / on the whole exam; questions)")
    for order in orders:
        cells = []
        for c in CHECKPOINTS:
            if (order, c) in summary.index:
                row = summary.loc[(order, c)]
                cells.append(f"{row[('accuracy_rest', 'mean')]:.3f}/{row[('accuracy_exam', 'mean')]:.3f} "
                             f"{int(row[('accuracy_rest', 'count')]):2d}")
            else:
                cells.append(f"{'-':>14s}")
        print(f"{order:18s} " + " ".join(f"{c:>14s}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
