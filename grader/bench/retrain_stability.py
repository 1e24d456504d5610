"""`python -m grader.bench retrain-stability [--draws 5] [--ks 1,2,5,10] [--questions ...]`

How much learning from a few reviews disturbs the other marks. For each sample question the
marked answers are split at random (per draw) into a training half and a pool standing for
the exam's answers; a model trained on the half marks the pool. Then k answers of the pool
are "reviewed" (their true marks added to the training answers), the model is trained again,
and the benchmark counts how many of the *other* pool answers changed mark, and how their
accuracy moved. Two ways of training again are compared: from scratch (`fresh`) and keeping
the earlier model's rules that the new answers do not contradict (`keep`,
`GradingModel.train(keep_rules_of=...)`). Resampled agreement and wording support do not
change a mark, so they are off here (fast).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
QUESTIONS = ("vertical_throw", "open_circuit_bulb", "resistor_current")
FAST = {"n_resamples": 0, "wording_support": False}


def _marks(model, answers: list[str]) -> np.ndarray:
    return np.asarray(model.grade(answers)["mark"].tolist(), dtype=object)


def run_question(name: str, ks: list[int], draws: int, seed: int) -> pd.DataFrame:
    from grader.exams.exam_io import read_marked_answers
    from grader.grading.model import GradingModel
    from knowledge import load_question

    question = load_question(SAMPLES / name / "question.yaml")
    marked = read_marked_answers(SAMPLES / name / "marked.csv", marks=question.marks)
    answers, truth = list(marked.answers), np.asarray(marked.marks, dtype=object)
    rows = []
    for draw in range(draws):
        rng = np.random.default_rng([seed, draw])
        order = rng.permutation(len(answers))
        train, pool = order[: len(order) // 2], order[len(order) // 2:]
        base = GradingModel.train(question, [answers[i] for i in train], truth[train].tolist(), **FAST)
        before = _marks(base, [answers[i] for i in pool])
        for k in ks:
            added = rng.choice(len(pool), size=k, replace=False)
            rest = np.setdiff1d(np.arange(len(pool)), added)
            rows_train = np.concatenate([train, pool[added]])
            args = (question, [answers[i] for i in rows_train], truth[rows_train].tolist())
            for mode in ("fresh", "keep"):
                extra = {"keep_rules_of": base} if mode == "keep" else {}
                after = _marks(GradingModel.train(*args, **FAST, **extra), [answers[i] for i in pool[rest]])
                rows.append({"question": name, "draw": draw, "k": k, "mode": mode, "unreviewed": len(rest),
                             "changed": int((before[rest] != after).sum()),
                             "accuracy_before": float(np.mean(before[rest] == truth[pool[rest]])),
                             "accuracy_after": float(np.mean(after == truth[pool[rest]]))})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench retrain-stability", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ks", default="1,2,5,10", help="reviewed answers added (default 1,2,5,10)")
    parser.add_argument("--draws", type=int, default=5, help="random splits and reviews per question (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--questions", default=",".join(QUESTIONS), help="sample questions (default all three)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        ks = [int(k) for k in args.ks.split(",")]
    except ValueError:
        print(f"error: --ks {args.ks!r}: give whole numbers separated by commas", file=sys.stderr)
        return 2
    names = [q.strip() for q in args.questions.split(",") if q.strip()]
    unknown = [q for q in names if not (SAMPLES / q / "question.yaml").exists()]
    if unknown:
        print(f"error: no sample question {', '.join(unknown)} (have {', '.join(QUESTIONS)})", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    table = pd.concat([run_question(q, ks, args.draws, args.seed) for q in names], ignore_index=True)
    table["changed_share"] = table["changed"] / table["unreviewed"]
    summary = table.groupby(["k", "mode"]).agg(
        changed=("changed", "mean"), changed_share=("changed_share", "mean"),
        worst=("changed", "max"), accuracy_before=("accuracy_before", "mean"),
        accuracy_after=("accuracy_after", "mean")).reset_index()
    print(f"unreviewed marks that change when k reviewed answers are added ({', '.join(names)}; "
          f"{args.draws} draws each; half of the marked answers trained on, the other half the pool)")
    print(f"{'k':>3} {'mode':6} {'changed':>8} {'share':>7} {'worst':>6} {'acc before':>11} {'acc after':>10}")
    for r in summary.itertuples():
        print(f"{r.k:>3} {r.mode:6} {r.changed:8.1f} {r.changed_share:7.1%} {r.worst:6d} "
              f"{r.accuracy_before:11.3f} {r.accuracy_after:10.3f}")
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
