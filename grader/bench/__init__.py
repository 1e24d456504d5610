"""Benchmarks: `python -m grader.bench <subcommand> ...` (each subcommand is its own module)."""
