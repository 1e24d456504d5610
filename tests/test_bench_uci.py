"""The UCI benchmark's speed-up line: only tables with a reference time count (issue 17)."""

from grader.bench.uci import speedup_summary


def test_speedup_uses_reference_seconds_over_cpu_seconds_and_names_untimed_tables():
    results = [{"table": "adult", "reference_seconds": 3.7, "fit_cpu_seconds": 0.1},
               {"table": "nursery", "reference_seconds": 1.3, "fit_cpu_seconds": 0.1},
               {"table": "eeg", "reference_seconds": 4.7, "fit_cpu_seconds": 0.1},
               {"table": "ecoli", "reference_seconds": None, "fit_cpu_seconds": 0.02},
               {"table": "cars", "error": "cannot read"}]
    line = speedup_summary(results)
    assert "adult x37.0" in line and "nursery x13.0" in line and "median x37.0" in line
    assert line.endswith("no reference time here for ecoli")
    assert "no table with a reference fit time" in speedup_summary(results[3:])


def test_the_boosted_learner_runs_on_a_table_of_the_manifest(tmp_path, capsys):
    import json

    import numpy as np
    import pandas as pd

    from grader.bench.uci import main

    rng = np.random.default_rng(0)
    a, b = rng.choice(["x", "y"], 200), rng.uniform(0, 1, 200)
    label = np.where((a == "x") & (b > 0.5), "yes", "no")
    (tmp_path / "t").mkdir()
    pd.DataFrame({"a": a, "b": b, "label": label}).to_csv(tmp_path / "t" / "t.csv", index=False)
    (tmp_path / "manifest.json").write_text(json.dumps({"t": {
        "columns": ["a", "b"], "numeric": ["b"], "label": "label", "file": "t/t.csv"}}))
    out = tmp_path / "out.json"
    assert main(["--data", str(tmp_path), "--tables", "t", "--learner", "boosted", "--rounds", "10",
                 "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["learner"] == "boosted"
    assert result["results"][0]["accuracy"] > 0.9
    assert result["results"][0]["rules"] >= 2
