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
