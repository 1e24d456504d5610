"""`python -m grader.bench titanic --data DIR`: CON-FOLD's Titanic example on the real file.

The CON-FOLD paper (and confold-notes.md) trains on the Titanic *test* file (418 rows) with
improvement threshold 0.1 and confidence threshold 0.5 and gets two rules, with confidences
0.98364 and 0.97205. This prints the program learned here and checks it against that.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.bench.uci import read_table
from grader.confold.estimator import ConFold

EXPECTED = [(0, "Sex", "!=", "female", 0.98364), (1, "Sex", "==", "female", 0.97205)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench titanic", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="directory with manifest.json")
    args = parser.parse_args(argv)
    spec = json.loads((args.data / "manifest.json").read_text())["titanic"]
    X, y = read_table(args.data / spec["test"], spec)
    y = y.astype(int)
    model = ConFold(improvement_threshold=0.1, confidence_threshold=0.5).fit(X, y)
    print(f"trained on {spec['test']} ({len(X)} rows)\n")
    print(model.to_asp())
    got = [(r.head, r.body[0].feature, r.body[0].op, r.body[0].value, round(r.confidence, 5))
           for r in model.rules_ if len(r.body) == 1 and not r.exceptions]
    ok = len(model.rules_) == 2 and got == EXPECTED
    print("matches the CON-FOLD reference program" if ok else f"DIFFERS from the reference: {EXPECTED}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
