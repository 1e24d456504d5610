"""A small run of the robustness benchmark (grader.bench.robustness): no crash, no hang, no row lost."""

from __future__ import annotations

import random

from grader.bench.robustness import make_csv, mutate_text, run, _base_rows


def test_a_small_run_finds_no_crash_hang_or_lost_row():
    result = run(n_questions=80, n_csvs=60, seed=1)
    assert result["crashes"] == 0, result["examples"]
    assert result["hangs"] == 0, result["examples"]
    assert result["rows_lost_or_duplicated"] == 0, result["examples"]
    counts = result["counts"]
    assert counts.get("question refused", 0) > 0 and counts.get("csv refused", 0) > 0  # it does probe
    assert counts.get("question ok", 0) + counts.get("question refused", 0) == 80


def test_the_generators_are_reproducible_and_hostile():
    base = "id: q\nquantities:\n  a: {value: 9.8, unit: m/s^2, tolerance: 2%}\n"
    texts = [mutate_text(base, random.Random(s)) for s in range(200)]
    assert texts == [mutate_text(base, random.Random(s)) for s in range(200)]
    assert any("!!" in t for t in texts) and any("9" * 300 in t for t in texts)
    rows = _base_rows()
    files = [make_csv(rows, random.Random(s)) for s in range(100)]
    assert any(data.startswith(b"\xff\xfe") for data, _ in files)
    assert any(ids is not None for _, ids in files) and any(ids is None for _, ids in files)


def test_a_case_over_the_cpu_limit_is_a_hang():
    result = run(n_questions=3, n_csvs=2, seed=2, limit=1e-9)  # every case takes some CPU time
    assert result["hangs"] == 5 and result["crashes"] == 0
    assert len(result["examples"]["hang"]) == 5
