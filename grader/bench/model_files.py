"""Benchmark: crafted model files (`python -m grader.bench model_files [--files N] [--seed S]
[--question NAME]`).

Trains one small model on a sample question (`open_circuit_bulb`, or NAME: a folder of
sample_data/, e.g. `vertical_throw`, which has quantities), then writes N variants
of its file with one to three places changed (deleted, swapped for another value of the same
type from the file, truncated or repeated, or replaced by hostile JSON: 5,000-digit
numbers, 1e400, NaN, 3,000-deep nesting, 50,000-element lists, names of installed
packages) and loads each; a file that loads must grade, explain and print its rules. Prints:

- crashes: an exception other than ModelFileError (the documented refusal);
- slow: a load (and use) over 2 s of CPU time (the work the file asks, whatever else runs on
  the machine).

Both must be 0. `crafted()` is also the generator of tests/grading/test_model_file_crafted.py.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

SAMPLE_DATA = Path(__file__).resolve().parents[2] / "sample_data"
LIMIT_SECONDS = 2.0

#: Values a crafted file puts in place of a real one, as JSON text.
RAW = ["null", "true", "-1", "0", "1", "1" + "0" * 30, "1e308", "-1e308", "1e400", "NaN", "-Infinity",
       "9" * 5000, '"x"', '""', "[]", "{}", "[" * 3000 + "]" * 3000, '{"a":' * 2000 + "1" + "}" * 2000,
       "[" + ",".join(["0"] * 50_000) + "]", '"' + "a" * 200_000 + '"', "2.5", "-0.5", "[1,2]", '["a"]',
       '{"a":1}', "1000000000", "399", '"streamlit"', '"../../x"']


def paths(x: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON document (the first five elements of each list)."""
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x[:5]):
            yield from paths(v, path + (i,))


def values(x: Any) -> Iterator[Any]:
    """Every value in a JSON document (the first five elements of each list)."""
    yield x
    for v in (x.values() if isinstance(x, dict) else x[:5] if isinstance(x, list) else ()):
        yield from values(v)


def crafted(base: dict, rng: random.Random, places: list, known: list) -> str:
    """`base` as JSON text with one to three places changed (see the module docstring)."""
    data = copy.deepcopy(base)
    raws: list[str] = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(places)
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            current, r = parent[path[-1]], rng.random()
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(parent, (dict, list)):  # an earlier change replaced it
            continue
        same = [v for v in known if type(v) is type(current)]
        if r < 0.1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif r < 0.4 and same:
            parent[path[-1]] = copy.deepcopy(rng.choice(same))
        elif r < 0.55 and isinstance(current, list) and current:
            parent[path[-1]] = current[:rng.randrange(len(current))] + current[:rng.choice((0, 3))] * 2
        elif r < 0.65 and isinstance(current, (int, float)) and not isinstance(current, bool):
            parent[path[-1]] = rng.choice([-1, 0, 2, 10**6, 0.5, -3.5, 399, 1000])
        else:
            raws.append(rng.choice(RAW))
            parent[path[-1]] = f"__RAW{len(raws) - 1}__"
    text = json.dumps(data)
    for i, raw in enumerate(raws):
        text = text.replace(f'"__RAW{i}__"', raw)
    return text


def use(model: Any) -> None:
    """What the CLI and the app do with a loaded model."""
    model.grade(["there is a gap so no current flows", "idk", "9.8 m/s"])
    model.explain("a gap").text()
    model.features_found("a gap")
    for form in ("text", "asp", "yaml"):
        model.rules(form)


def run(n_files: int, seed: int, base: dict, folder: Path) -> Counter:
    """Counts of loaded / refused / crashes / slow over `n_files` crafted files."""
    from grader.confold.model_file import ModelFileError
    from grader.grading.model import GradingModel

    rng = random.Random(seed)
    places = [p for p in paths(base) if p]
    known = [v for v in values(base) if not isinstance(v, dict)][:3000]
    counts: Counter = Counter(loaded=0, refused=0, crashes=0, slow=0)
    path = folder / "model.json"
    for i in range(n_files):
        path.write_text(crafted(base, rng, places, known), encoding="utf-8")
        start = time.process_time()
        try:
            use(GradingModel.load(path))
            counts["loaded"] += 1
        except ModelFileError:
            counts["refused"] += 1
        except Exception as err:  # noqa: BLE001 - counted and shown: what the bench looks for
            counts["crashes"] += 1
            print(f"file {i}: {type(err).__name__}: {str(err)[:160]}", file=sys.stderr)
        if time.process_time() - start > LIMIT_SECONDS:
            counts["slow"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench model_files", description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=1200, help="crafted files to load (default 1200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--question", default="open_circuit_bulb", choices=("open_circuit_bulb", "vertical_throw",
                                                                           "resistor_current"))
    args = parser.parse_args(argv)
    sample = SAMPLE_DATA / args.question
    from grader.exams.exam_io import read_marked_answers
    from grader.grading.model import GradingModel
    from knowledge import load_question

    question = load_question(sample / "question.yaml")
    marked = read_marked_answers(sample / "marked.csv", marks=question.marks)
    base = GradingModel.train(question, marked.answers, marked.marks, n_resamples=3).to_dict()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        counts = run(args.files, args.seed, base, Path(folder))
    print(f"{args.files} crafted model files of {args.question} (seed {args.seed}) in {time.perf_counter() - start:.0f} s: "
          f"{counts['loaded']} loaded and used, {counts['refused']} refused with ModelFileError; "
          f"crashes {counts['crashes']}, over {LIMIT_SECONDS:g} s of CPU {counts['slow']}")
    return 0 if counts["crashes"] == counts["slow"] == 0 else 1
