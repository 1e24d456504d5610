"""The grading benchmark's export (grader.bench.grade): distinct answers, as the issue asks."""

from __future__ import annotations

import csv

from grader.bench.grade import make_export


def _pairs(path) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return [(r["question"], r["answer"]) for r in csv.DictReader(f)]


def test_every_answer_of_the_export_is_distinct(tmp_path):
    pools = {"q1": ["the bulb is in a closed path", "there is a gap"], "q2": ["9.8 m/s^2 down"]}
    path = tmp_path / "export.csv"
    distinct = make_export(path, 3000, pools, seed=1, batch=700)  # batches: repeats across them too
    pairs = _pairs(path)
    assert len(pairs) == 3000 and distinct == 3000
    assert len(set(pairs)) == 3000
    assert {q for q, _ in pairs} == {"q1", "q2"}


def test_the_distinct_count_is_honest_when_the_variations_run_out(tmp_path):
    path = tmp_path / "export.csv"
    distinct = make_export(path, 400, {"q": ["ab"]}, seed=0, attempts=5)  # few variations of "ab"
    pairs = _pairs(path)
    assert len(pairs) == 400
    assert distinct == len(set(pairs)) < 400
