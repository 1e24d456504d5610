"""Benchmarks of the feature extractor.

    python -m features.bench [--answers 4000]          answers per second, memory

The speed benchmark uses two questions and generated answers written here (a rubric-based
one with a quantity, and a reference-only one), so it runs on a fresh clone. Marking
quality on real answers is the grading model's benchmark, `python -m grader.bench beetle`
(features sit below the grading model and do not import it).
"""

from __future__ import annotations

import argparse
import gc
import logging
import random
import time
import tracemalloc
from collections.abc import Sequence

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
        best = best_cpu = 0.0
        for r in range(repeats):
            fresh = FeatureExtractor.from_dict(fx.to_dict(), question)  # cold spelling cache
            answers = generate_answers(question, n_answers, seed=r + 1)
            t0, c0 = time.perf_counter(), time.process_time()
            X = fresh.transform(answers)
            best = max(best, len(answers) / (time.perf_counter() - t0))
            best_cpu = max(best_cpu, len(answers) / (time.process_time() - c0))
        kind = "rubric" if question.concepts else "reference-only"
        print(f"{question.id:22s} ({kind:14s}): {best:8.0f} answers/s, {best_cpu:8.0f} per CPU s "
              f"({len(answers)} answers, {X.shape[1]} columns, best of {repeats}; per CPU s is "
              f"the fairer figure on a busy machine)")
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m features.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="speed", choices=("speed",))
    parser.add_argument("--answers", type=int, default=4000, help="answers per question")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    speed(args.answers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
