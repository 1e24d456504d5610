"""Benchmark: grading a CSV export end to end (`python -m grader.bench grade`).

Builds synthetic exports of 10,000 and 100,000 answers (by default) from the bundled sample
questions' marked answers with random variations (filler words, typos, case, extra
clauses; a variation already in the export is drawn again, so that every answer is
distinct, and the share of distinct answers is printed), trains one model per
question once, then grades each export from CSV to CSV with `grader.exams.batch.grade_file` (a
long export with a question column, all three models) and prints answers per second and
the peak memory (resident set of this process, and of the largest worker with --jobs).
Each size is graded with each number of jobs in `--jobs` (default 1 and 2); the output of
every run with more jobs is checked to be byte-identical to the one-job output. Then
(unless --no-cli) `grader grade --exam` grades each export in a fresh process, start-up
included (imports, reading the three model files), with the same output checked.
Targets (issue 17): 10,000 distinct answers/s on one core, at least 1.8x that on 2 cores,
under 500 MB resident for 1,000,000 answers (`--sizes 1000000 --jobs 1`).

Also runnable as `python -m grader.bench.grade`.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

import numpy as np

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


def make_export(path: Path, n: int, pools: dict[str, list[str]], seed: int = 0,
                batch: int = 50_000, attempts: int = 200) -> int:
    """A long export: id, student, question, answer, every (question, answer) pair distinct
    as far as the variations allow (a row whose variation is already in the export is drawn
    again, up to `attempts` times). Returns the number of distinct pairs: identical answers
    are analysed once per chunk, so a benchmark of distinct answers must not repeat them.

    Rows are drawn a batch at a time and checked against the 64-bit hashes of the rows
    before (a sorted array), so that a million answers add 8 MB, not a set of strings, to
    the peak memory the benchmark reports."""
    rng = random.Random(seed)
    ids = list(pools)
    seen = np.empty(0, dtype=np.int64)  # sorted hashes of the rows written
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "student", "question", "answer"])
        for first in range(0, n, batch):
            rows = range(first, min(n, first + batch))
            answers = [vary(rng.choice(pools[ids[i % len(ids)]]), rng) for i in rows]
            hashes = np.fromiter((hash((ids[i % len(ids)], a)) for i, a in zip(rows, answers)),
                                 dtype=np.int64, count=len(answers))
            for _ in range(attempts):
                again = _repeated(hashes, seen)
                if not again.size:
                    break
                for j in again.tolist():
                    qid = ids[rows[j] % len(ids)]
                    answers[j] = vary(rng.choice(pools[qid]), rng)
                    hashes[j] = hash((qid, answers[j]))
            writer.writerows([f"a{i:07d}", f"student{i // len(ids):06d}@school.example",
                              ids[i % len(ids)], a] for i, a in zip(rows, answers))
            seen = np.union1d(seen, hashes)
    return len(seen)


def _repeated(hashes: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Positions of the hashes already in `seen` (sorted) or earlier in `hashes`."""
    at = np.searchsorted(seen, hashes)
    before = (at < len(seen)) & (seen[np.minimum(at, len(seen) - 1)] == hashes) if len(seen) else \
        np.zeros(len(hashes), dtype=bool)
    first = np.zeros(len(hashes), dtype=bool)
    first[np.unique(hashes, return_index=True)[1]] = True
    return np.flatnonzero(before | ~first)


def _peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def _cpu_seconds() -> float:
    """CPU time of this process and of its waited-for children (the --jobs workers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sizes", default="10000,100000",
                        help="numbers of answers, comma-separated (default 10000,100000)")
    parser.add_argument("--sample", type=Path, default=DEFAULT_SAMPLE,
                        help="the sample_data folder to take questions and answers from")
    parser.add_argument("--chunk-size", type=int, default=2000)
    parser.add_argument("--jobs", default="1,2",
                        help="numbers of worker processes to grade each size with, comma-separated (default 1,2)")
    parser.add_argument("--workdir", type=Path, default=None, help="keep the exports here (default: a temp dir)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-cli", action="store_true",
                        help="skip the end-to-end runs of `grader grade` in a fresh process (start-up included)")


def run(args: argparse.Namespace) -> int:
    from knowledge import load_question

    from grader.atomic_file import atomic_write_text
    from grader.exams.batch import grade_file
    from grader.exams.chunk_graders import LongGrader
    from grader.exams.exam_io import read_marked_answers
    from grader.grading.model import GradingModel

    sizes = [int(s) for s in str(args.sizes).split(",") if s.strip()]
    jobs = [int(j) for j in str(args.jobs).split(",") if j.strip()]
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
        print("answers/s: wall clock; per CPU s: CPU time of this process and its workers "
              "(robust to a busy machine)")
        print(f"{'answers':>9}  {'distinct':>8}  {'jobs':>4}  {'seconds':>8}  {'answers/s':>9}  "
              f"{'per CPU s':>9}  {'flagged':>8}  {'peak RSS MB':>11}  {'worker MB':>9}")
        for n in sizes:
            src = folder / f"export_{n}.csv"
            distinct = make_export(src, n, pools, seed=args.seed)
            first = None
            for n_jobs in jobs:
                out = folder / f"graded_{n}_{n_jobs}.csv"
                cpu = _cpu_seconds()
                result = grade_file(src, out, grader, chunk_size=args.chunk_size, progress=False,
                                    resume=False, jobs=n_jobs)
                cpu = _cpu_seconds() - cpu
                if first is None:
                    first = out
                elif out.read_bytes() != first.read_bytes():
                    raise SystemExit(f"{out} differs from {first}: jobs must not change the output")
                row = {"answers": result.rows, "distinct_share": round(distinct / n, 3), "jobs": n_jobs,
                       "seconds": round(result.seconds, 2), "cpu_seconds": round(cpu, 2),
                       "answers_per_second": round(result.rows / result.seconds),
                       "answers_per_cpu_second": round(result.rows / cpu),
                       "flagged_share": round(result.flagged / result.rows, 3),
                       "peak_rss_mb": round(_peak_rss_mb()),
                       "worker_peak_rss_mb": round(_peak_rss_mb(resource.RUSAGE_CHILDREN)) if n_jobs > 1 else None}
                results.append(row)
                worker = "" if row["worker_peak_rss_mb"] is None else row["worker_peak_rss_mb"]
                print(f"{row['answers']:>9}  {row['distinct_share']:>8.1%}  {n_jobs:>4}  {row['seconds']:>8.2f}  "
                      f"{row['answers_per_second']:>9}  {row['answers_per_cpu_second']:>9}  "
                      f"{row['flagged_share']:>8.1%}  {row['peak_rss_mb']:>11}  {worker:>9}", flush=True)
                if out != first:
                    out.unlink()
            speedups = [r for r in results if r["answers"] == n]
            if len(speedups) > 1:
                base = speedups[0]["answers_per_second"]
                print("           speed-up over one job (wall clock): "
                      + ", ".join(f"{r['jobs']} jobs x{r['answers_per_second'] / base:.2f}" for r in speedups[1:]))
        cli_results = [] if args.no_cli else _cli_runs(folder, models, sizes, jobs)
    if args.json:
        atomic_write_text(args.json, json.dumps({"train_seconds": round(train_seconds, 2),
                                                 "runs": results, "cli_runs": cli_results}, indent=1) + "\n")
    return 0


def _cli_runs(folder: Path, models: dict, sizes: list[int], jobs: list[int]) -> list[dict]:
    """`grader grade --exam` on each export in a fresh process: start-up (imports, reading
    the three model files) included. Run after the in-process runs, so that their worker
    memory figure is not this process's children's. The output must be the in-process one."""
    import yaml

    from grader.atomic_file import atomic_write_text

    for qid, model in models.items():
        model.save(folder / f"{qid}.model.json")
    print("end to end: `grader grade --exam` in a fresh process, start-up included "
          "(per CPU s: that process and its workers)")
    print(f"{'answers':>9}  {'jobs':>4}  {'seconds':>8}  {'answers/s':>9}  {'per CPU s':>9}  {'peak RSS MB':>11}")
    results = []
    for n in sizes:
        exam = folder / f"exam_{n}.yaml"
        atomic_write_text(exam, yaml.safe_dump({
            "answers": f"export_{n}.csv", "layout": "long", "question_column": "question",
            "answer_column": "answer",
            "questions": [{"id": qid, "model": f"{qid}.model.json"} for qid in models]}))
        for n_jobs in jobs:
            out = folder / f"cli_{n}_{n_jobs}.csv"
            command = [sys.executable, "-m", "grader.cli", "grade", "--exam", str(exam), "--out", str(out),
                       "--no-progress", "--restart", "--force", "--jobs", str(n_jobs)]
            start = time.perf_counter()
            with tempfile.TemporaryFile() as log:
                proc = subprocess.Popen(command, stdout=log, stderr=log)
                _, status, usage = os.wait4(proc.pid, 0)
                seconds = time.perf_counter() - start
                proc.returncode = os.waitstatus_to_exitcode(status)
                if proc.returncode:
                    log.seek(0)
                    raise SystemExit(f"grader grade failed ({proc.returncode}): {log.read().decode()[-2000:]}")
            if out.read_bytes() != (folder / f"graded_{n}_{jobs[0]}.csv").read_bytes():
                raise SystemExit(f"{out}: `grader grade` wrote another output than grade_file")
            out.unlink()
            cpu = usage.ru_utime + usage.ru_stime
            row = {"answers": n, "jobs": n_jobs, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
                   "answers_per_second": round(n / seconds), "answers_per_cpu_second": round(n / cpu),
                   "peak_rss_mb": round(usage.ru_maxrss / 1024)}
            results.append(row)
            print(f"{n:>9}  {n_jobs:>4}  {seconds:>8.2f}  {row['answers_per_second']:>9}  "
                  f"{row['answers_per_cpu_second']:>9}  {row['peak_rss_mb']:>11}", flush=True)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench grade", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
