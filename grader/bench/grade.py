"""Benchmark: grading a CSV export end to end (`python -m grader.bench grade`).

Builds synthetic exports of 10,000 and 100,000 answers (by default) from the bundled sample
questions' marked answers with random variations (filler words, typos, case, extra
clauses, so that almost every answer is distinct as in a real exam), trains one model per
question once, then grades each export from CSV to CSV with `grader.exams.batch.grade_file` (a
long export with a question column, all three models) and prints answers per second and
the peak memory. Target: at least 2,000 answers per second on one core.

Also runnable as `python -m grader.bench.grade`.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SAMPLE = REPO / "sample_data"
QUESTIONS = ("vertical_throw", "open_circuit_bulb", "resistor_current")

_PREFIXES = ("", "", "", "I think ", "umm ", "well, ", "So ", "the answer is ", "basically ", "ok so ")
_SUFFIXES = ("", "", "", ".", " i think", " because of physics", " (not sure)", "!!", " lol", " thats it")


def vary(answer: str, rng: random.Random) -> str:
    """One plausible student variation of an answer."""
    text = answer
    if text and rng.random() < 0.3:  # a typo: drop or swap a letter
        i = rng.randrange(len(text))
        if rng.random() < 0.5:
            text = text[:i] + text[i + 1:]
        elif i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
    if rng.random() < 0.2:
        text = text.lower() if rng.random() < 0.5 else text.capitalize()
    return rng.choice(_PREFIXES) + text + rng.choice(_SUFFIXES)


def make_export(path: Path, n: int, pools: dict[str, list[str]], seed: int = 0) -> int:
    """A long export: id, student, question, answer. Returns the number of distinct
    (question, answer) pairs, since identical answers are analysed once per chunk."""
    rng = random.Random(seed)
    ids = list(pools)
    distinct = set()
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "student", "question", "answer"])
        for i in range(n):
            qid = ids[i % len(ids)]
            answer = vary(rng.choice(pools[qid]), rng)
            distinct.add((qid, answer))
            writer.writerow([f"a{i:07d}", f"student{i // len(ids):06d}@school.example", qid, answer])
    return len(distinct)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sizes", default="10000,100000",
                        help="numbers of answers, comma-separated (default 10000,100000)")
    parser.add_argument("--sample", type=Path, default=DEFAULT_SAMPLE,
                        help="the sample_data folder to take questions and answers from")
    parser.add_argument("--chunk-size", type=int, default=2000)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the exports here (default: a temp dir)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    parser.add_argument("--seed", type=int, default=0)


def run(args: argparse.Namespace) -> int:
    from knowledge import load_question

    from grader.atomic_file import atomic_write_text
    from grader.exams.batch import LongGrader, grade_file
    from grader.exams.exam_io import read_marked_answers
    from grader.grading.model import GradingModel

    sizes = [int(s) for s in str(args.sizes).split(",") if s.strip()]
    models, pools = {}, {}
    start = time.perf_counter()
    for qid in QUESTIONS:
        question = load_question(args.sample / qid / "question.yaml")
        marked = read_marked_answers(args.sample / qid / "marked.csv", marks=question.marks)
        models[qid] = GradingModel.train(question, marked.answers, marked.marks)
        pools[qid] = [a for a in marked.answers if a.strip()]
    train_seconds = time.perf_counter() - start
    print(f"trained {len(models)} models on {sum(len(p) for p in pools.values())} marked answers "
          f"in {train_seconds:.1f} s")
    grader = LongGrader(models, "question", "answer")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.workdir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print("answers/s: wall clock; per CPU s: this process's CPU time (robust to a busy machine)")
        print(f"{'answers':>9}  {'distinct':>8}  {'seconds':>8}  {'answers/s':>9}  {'per CPU s':>9}  "
              f"{'flagged':>8}  {'peak RSS MB':>11}")
        for n in sizes:
            src, out = folder / f"export_{n}.csv", folder / f"graded_{n}.csv"
            distinct = make_export(src, n, pools, seed=args.seed)
            cpu = time.process_time()
            result = grade_file(src, out, grader, chunk_size=args.chunk_size, progress=False, resume=False)
            cpu = time.process_time() - cpu
            row = {"answers": result.rows, "distinct_share": round(distinct / n, 3),
                   "seconds": round(result.seconds, 2), "cpu_seconds": round(cpu, 2),
                   "answers_per_second": round(result.rows / result.seconds),
                   "answers_per_cpu_second": round(result.rows / cpu),
                   "flagged_share": round(result.flagged / result.rows, 3),
                   "peak_rss_mb": round(_peak_rss_mb())}
            results.append(row)
            print(f"{row['answers']:>9}  {row['distinct_share']:>8.1%}  {row['seconds']:>8.2f}  "
                  f"{row['answers_per_second']:>9}  {row['answers_per_cpu_second']:>9}  "
                  f"{row['flagged_share']:>8.1%}  {row['peak_rss_mb']:>11}")
    if args.json:
        atomic_write_text(args.json, json.dumps({"train_seconds": round(train_seconds, 2),
                                                 "runs": results}, indent=1) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench grade", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
