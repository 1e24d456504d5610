"""Dispatcher for `python -m grader.bench SUBCOMMAND [options]`.

Each subcommand lives in its own module `grader.bench.<name>` with a `main(argv) -> int`;
modules are imported only when their subcommand runs, so one benchmark's dependencies (spaCy
for grading, say) do not slow down or break another.
"""

from __future__ import annotations

import importlib
import sys

SUBCOMMANDS = {
    "uci": ("grader.bench.uci", "the learner on the UCI tables of a manifest (accuracy, IBS, fit time)"),
    "titanic": ("grader.bench.titanic", "CON-FOLD's two-rule Titanic program from the real file"),
    "grade": ("grader.bench.grade", "the grading pipeline on marked answers"),
    "beetle": ("grader.bench.beetle", "the grading pipeline on the Beetle student answers"),
    "robustness": ("grader.bench.robustness", "mutated question files and exam CSVs: crashes, hangs, rows lost"),
    "retrain": ("grader.bench.retrain", "what a marker waits for in the app: rubric edit, reviews, Marks view"),
    "retrain-stability": ("grader.bench.retrain_stability",
                          "unreviewed marks that change when a few reviewed answers are added"),
    "model_files": ("grader.bench.model_files", "crafted model files: crashes and slow loads"),
    "general": ("grader.bench.general", "the general model leave-questions-out on Beetle (3-/2-way)"),
    "learning-curve": ("grader.bench.learning_curve", "a teacher marking a bare exam: suggested vs random order"),
    "effort": ("grader.bench.effort", "a teacher's decisions per answer and final accuracy, the app's workflow"),
    "classes": ("grader.bench.classes", "classes written apart from the code: bare file, rubric and the tree, 30 marked"),
}


def usage() -> str:
    lines = ["usage: python -m grader.bench SUBCOMMAND [options]", "", "subcommands:"]
    lines += [f"  {name:<14} {text}" for name, (_, text) in SUBCOMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(f"unknown subcommand {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module_name = SUBCOMMANDS[name][0]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name == module_name:
            print(f"subcommand {name!r} is not available yet ({module_name} does not exist)", file=sys.stderr)
            return 2
        raise
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
