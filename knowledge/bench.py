"""Figures for the knowledge package: `python -m knowledge.bench [--rows 10000]`.

Prints how long it takes to check a question file (what the app's editor does on each
change), to write and parse a large program, and to run the clingo check on a batch.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import pandas as pd

from grader.confold.rules import Literal, PredicateDefinition, Rule

ROOT = Path(__file__).resolve().parents[1]


def _timed(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _random_rules(n: int, seed: int = 0) -> list[Rule]:
    rng = random.Random(seed)
    def lit():
        if rng.random() < 0.5:
            return Literal(f"concept:c{rng.randrange(20)}", rng.choice(["==", "!="]),
                           rng.choice(["present", "negated", "absent"]))
        return Literal(rng.choice(["coverage", "precision", "length"]), rng.choice(["<=", ">"]),
                       round(rng.random(), 4))
    return [Rule(rng.choice(["0", "0.5", "1"]), tuple(lit() for _ in range(rng.randint(1, 4))),
                 [Rule(None, (lit(),)) for _ in range(rng.randint(0, 2))], confidence=rng.random())
            for _ in range(n)]


def _random_features(rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    data = {f"concept:c{i}": rng.choice(["present", "negated", "absent"], rows) for i in range(20)}
    data.update(coverage=rng.random(rows), precision=rng.random(rows),
                length=rng.integers(0, 60, rows))
    return pd.DataFrame(data)


def main(argv: list[str] | None = None) -> None:
    import knowledge
    from knowledge.asp import parse_program, write_program

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10000, help="rows for the clingo check")
    parser.add_argument("--rules", type=int, default=200, help="rules in the written/parsed program")
    args = parser.parse_args(argv)

    print("question files (check_question_text, best of 5):")
    for path in sorted(ROOT.glob("sample_data/*/question.yaml")):
        text = path.read_text(encoding="utf-8")
        knowledge.check_question_text(text, path)  # warm up (pint registry)
        seconds = _timed(lambda: knowledge.check_question_text(text, path))
        print(f"  {path.parent.name:<20} {len(text):>6} chars  {seconds * 1000:7.1f} ms")

    rules = _random_rules(args.rules)
    background = [PredicateDefinition("good", (Literal("coverage", ">", 0.5),))]
    text = write_program(rules, background, target="mark")
    w = _timed(lambda: write_program(rules, background, target="mark"))
    p = _timed(lambda: parse_program(text))
    assert parse_program(text).rules == rules
    print(f"program of {args.rules} rules ({len(text)} chars): write {w * 1000:.1f} ms, "
          f"parse {p * 1000:.1f} ms")

    try:
        from knowledge.clingo_check import feature_facts, solve_marks
    except ImportError:  # pragma: no cover
        return
    from grader.confold.rule_eval import apply_rules
    features = _random_features(args.rows)
    program = write_program(rules[:30], background, target="mark", dialect="clingo")
    start = time.perf_counter()
    facts = feature_facts(features, "mark")
    t_facts = time.perf_counter() - start
    start = time.perf_counter()
    labels = solve_marks(program, features, target="mark")
    t_solve = time.perf_counter() - start
    start = time.perf_counter()
    expected = apply_rules(rules[:30], features, background)[0]
    t_python = time.perf_counter() - start
    agree = all((a is None and b is None) or a == b for a, b in zip(labels, expected))
    print(f"clingo check, 30 rules x {args.rows} rows ({len(facts) / 1e6:.1f} MB of facts): "
          f"facts {t_facts:.2f} s, facts+ground+solve {t_solve:.2f} s, "
          f"Python evaluator {t_python * 1000:.1f} ms; same marks: {agree}")


if __name__ == "__main__":
    main()
