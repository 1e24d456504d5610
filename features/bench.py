"""Benchmarks of the feature extractor.

    python -m features.bench [--answers 4000]          answers per second, memory
    python -m features.bench beetle-check --data ../shared/data/beetle-dev [--cv 4]
                                                        CON-FOLD accuracy on Beetle

The speed benchmark uses two questions and generated answers written here (a rubric-based
one with a quantity, and a reference-only one), so it runs on a fresh clone. The Beetle
check trains one ConFold per question on `split=train` and reports 5-, 3- and 2-way
accuracy on `split=test`, with no hand-written rubric (reference answers and marked
answers only).
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import random
import sys
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

from knowledge.schema import Concept, Misconception, Quantity, Question

from .extractor import FeatureExtractor, transform_stream

RUBRIC_QUESTION = Question(
    id="bench_vertical_throw",
    text="A ball is thrown straight up. What is its acceleration at the highest point? Explain.",
    reference_answers=("9.8 m/s^2 downward: gravity still acts at the top although the "
                       "velocity is zero.",),
    marks=("0", "0.5", "1"),
    concepts=(Concept("downward", ("downward", "down", "downwards", "towards the ground")),
              Concept("gravity", ("gravity", "gravitational force", "weight")),
              Concept("velocity_zero", ("velocity is zero", "stops", "speed is zero"))),
    quantities=(Quantity("acceleration", 9.8, "m/s^2", 0.02),),
    misconceptions=(Misconception("zero_at_top", ("acceleration is zero", "no acceleration")),),
)
REFERENCE_QUESTION = Question(
    id="bench_open_circuit",
    text="One wire is unclipped from the battery. Explain why the bulb does not light.",
    reference_answers=("The circuit is not complete: there is a gap between the wire and the "
                       "battery terminal, so no current can flow through the bulb.",),
    marks=("0", "0.5", "1"),
)
_PARTS = {
    "bench_vertical_throw": [
        "the acceleration is {v} {u} {dir}", "it is {v} {u}", "gravity pulls it {dir}",
        "the velocity is zero but the acceleration is not", "there is no acceleration at the top",
        "{v}", "the accelaration is still {v} {u} becuase of gravity", "i dont know",
        "it stops so the acceleration is zero", "<p>a = {v} {u}</p>", "g = {v} {u} 😀",
    ],
    "bench_open_circuit": [
        "the circuit is not complete", "there is a gap so no current flows",
        "the circut is open and the current cant flow through the bulb", "no closed path",
        "the battery is dead", "current is used up", "idk", "the wire is unclipped",
        "there is a gap between the wire and the terminal", "electrons cannot flow",
        "neither the bulb nor the battery is in a closed loop", "because the bulb is broken",
    ],
}


def generate_answers(question: Question, n: int, seed: int = 0) -> list[str]:
    """n answers to a bench question: random combinations of typical sentences."""
    rng = random.Random(seed)
    parts = _PARTS[question.id]
    values = ["9.8", "9,8", "10", "9.81", "-9.8", "nine point eight", "98", "0", "3e1", "1/2"]
    units = ["m/s^2", "m s^-2", "ms-2", "m/s²", "m/s", "N", "", "meters per second squared"]
    dirs = ["downward", "down", "towards the ground", "up", ""]
    out = []
    for _ in range(n):
        k = rng.choice((1, 1, 2, 3))
        text = ". ".join(rng.choice(parts) for _ in range(k))
        out.append(text.format(v=rng.choice(values), u=rng.choice(units), dir=rng.choice(dirs)))
    return out


def speed(n_answers: int, repeats: int = 3) -> None:
    for question in (RUBRIC_QUESTION, REFERENCE_QUESTION):
        answers = generate_answers(question, n_answers)
        marks = [str(len(a) % 3 * 0.5).rstrip("0").rstrip(".") for a in answers]
        fx = FeatureExtractor(question).fit(answers[:500], marks[:500])
        fx.transform(answers[:200])  # warm up caches the way a real batch would
        best = 0.0
        for r in range(repeats):
            fresh = FeatureExtractor.from_dict(fx.to_dict(), question)  # cold spelling cache
            answers = generate_answers(question, n_answers, seed=r + 1)
            t0 = time.perf_counter()
            X = fresh.transform(answers)
            best = max(best, len(answers) / (time.perf_counter() - t0))
        kind = "rubric" if question.concepts else "reference-only"
        print(f"{question.id:22s} ({kind:14s}): {best:8.0f} answers/s "
              f"({len(answers)} answers, {X.shape[1]} columns, best of {repeats})")
    # Memory: peak traced memory of streaming 2k and 8k answers should be about the same.
    fx = FeatureExtractor(RUBRIC_QUESTION).fit(generate_answers(RUBRIC_QUESTION, 300))
    for n in (n_answers // 2, n_answers * 2):
        answers = iter(generate_answers(RUBRIC_QUESTION, n, seed=7))
        gc.collect()
        tracemalloc.start()
        rows = sum(len(chunk) for chunk in transform_stream(fx, answers, chunk_size=500))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"transform_stream of {rows:6d} answers (chunks of 500): peak "
              f"{peak / 2**20:6.1f} MiB traced (answers generated up front not counted)")


SCHEMES = {"5way": lambda y: y,
           "3way": lambda y: y if y in ("correct", "contradictory") else "incorrect",
           "2way": lambda y: "correct" if y == "correct" else "incorrect"}


def beetle_check(data: Path, n_terms: int = 30, verbose: bool = False,
                 confold_params: dict | None = None, cv: int = 0) -> dict[str, float]:
    """5-/3-/2-way accuracy of one ConFold per question on Beetle's test split, or with
    `cv` > 1, cross-validated on the train split (k folds per question, seeded): 1929
    answers instead of 231, steadier for comparing two versions of the features."""
    import numpy as np
    import pandas as pd

    questions = {q["question_id"]: q for q in json.loads((data / "questions.json").read_text())}
    answers = pd.read_csv(data / "answers.csv")
    hits = {s: 0 for s in SCHEMES}
    fallback_hits = {s: 0 for s in SCHEMES}  # unmarked answers get the commonest train mark
    unmarked = {s: 0 for s in SCHEMES}
    total = 0
    t0 = time.perf_counter()
    for qid, group in answers.groupby("question_id", sort=True):
        q = questions[qid]
        question = Question(qid, q["question"], tuple(q["reference_answers"]))
        if cv > 1:
            train_all = group[group.split == "train"].reset_index(drop=True)
            order = np.random.default_rng(0).permutation(len(train_all))
            splits = [(train_all.drop(index=fold), train_all.loc[fold])
                      for fold in np.array_split(order, cv)]
        else:
            splits = [(group[group.split == "train"], group[group.split == "test"])]
        line = [f"{qid:40s}"]
        n_test = sum(len(test) for _, test in splits)
        if n_test == 0:
            continue
        total += n_test
        for scheme, relabel in SCHEMES.items():
            ok = 0
            for train, test in splits:
                y_train = [relabel(y) for y in train.label_5way]
                y_test = [relabel(y) for y in test.label_5way]
                predicted = _fit_predict(question, train.answer.tolist(), y_train,
                                         test.answer.tolist(), n_terms, confold_params)
                ok += sum(p == y for p, y in zip(predicted, y_test))
                commonest = max(set(y_train), key=y_train.count)
                fallback_hits[scheme] += sum((commonest if p is None else p) == y
                                             for p, y in zip(predicted, y_test))
                unmarked[scheme] += sum(p is None for p in predicted)
            hits[scheme] += ok
            line.append(f"{scheme} {ok / n_test:.2f}")
        if verbose:
            print("  ".join(line))
    result = {s: hits[s] / total for s in SCHEMES}
    where = f"{cv}-fold cross-validation on split=train" if cv > 1 else "split=test"
    print(f"Beetle ({data}), {where}: {total} answers, one ConFold per question and scheme "
          f"{confold_params or '(defaults)'}, n_terms={n_terms}, no rubric "
          f"[{time.perf_counter() - t0:.0f}s]")
    for s in SCHEMES:
        print(f"  {s}: accuracy {result[s]:.3f} (answers no rule marks count as wrong; "
              f"{unmarked[s]} of them), {fallback_hits[s] / total:.3f} with the commonest "
              "training mark for those")
    return result


def _fit_predict(question: Question, train: list[str], y_train: list[str], test: list[str],
                 n_terms: int, confold_params: dict | None) -> list:
    from grader import ConFold

    if len(set(y_train)) < 2:  # a fold with one mark: that mark
        return [y_train[0]] * len(test)
    fx = FeatureExtractor(question, n_terms=n_terms)
    X_train = fx.fit_transform(train, y_train)
    model = ConFold(**(confold_params or {})).fit(X_train, y_train)
    return list(model.predict(fx.transform(test)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m features.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="speed", choices=("speed", "beetle-check"))
    parser.add_argument("--answers", type=int, default=4000, help="answers per question (speed)")
    parser.add_argument("--data", type=Path, default=Path("../shared/data/beetle-dev"),
                        help="folder with questions.json and answers.csv (beetle-check)")
    parser.add_argument("--n-terms", type=int, default=30)
    parser.add_argument("--ratio", type=float, default=None, help="ConFold ratio")
    parser.add_argument("--z", type=float, default=None, help="ConFold z")
    parser.add_argument("--improvement-threshold", type=float, default=None)
    parser.add_argument("--confidence-threshold", type=float, default=None)
    parser.add_argument("--cv", type=int, default=0,
                        help="beetle-check: k-fold cross-validation on split=train instead")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per question")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    if args.command == "speed":
        speed(args.answers)
    else:
        if not (args.data / "answers.csv").exists():
            print(f"error: no answers.csv in {args.data}", file=sys.stderr)
            return 2
        params = {k: v for k, v in (("ratio", args.ratio), ("z", args.z),
                                    ("improvement_threshold", args.improvement_threshold),
                                    ("confidence_threshold", args.confidence_threshold))
                  if v is not None}
        beetle_check(args.data, args.n_terms, args.verbose, params, args.cv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
