"""`python -m grader.bench classes --data DIR`: classes written apart from the code, marked as a teacher would.

Why: Beetle's questions are all about circuits, and marking quality is judged on other topics
too. A *class* is a folder of DIR holding what a teacher has for one question:

- `question.yaml`: the bare question file (question text and reference answers);
- `rubric.yaml` (optional): the question file the teacher wrote from the question, its
  references and the seen answers only;
- `answers.csv`: `id,answer,mark`, the marks `correct`, `contradictory` or `incorrect`;
- `seen_ids.txt`: the ids of the answers the rubric was written from, one a line.

For each of `--draws` draws, the teacher marks the seen answers and others drawn (seeded) up
to `--marked`; the rest of the class is graded with the bare file, with the rubric and with the
decision tree on lemmas of `bench beetle --baseline` (issue 31's yardstick: the bare file at
least 5 points above it). Printed per class (the mean over the draws) and as means over the
classes, 3-way and 2-way, with the classes that clear the yardstick and the spread across
classes; with `--compare` an earlier run's `--predictions`, the classes better / same / worse.
`--write-beetle OUT` writes the classes as a Beetle folder (every answer `split=train`, the
rubrics and `seen_ids.json` under `OUT/rubrics`) for the benches that read one (`effort`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from grader.bench.beetle_data import relabel, train_and_grade
from grader.bench.parallel import run_tasks

SCHEMES = ("3way", "2way")
MARKS = ("correct", "contradictory", "incorrect")
SOURCES = ("bare", "rubric", "tree")
#: Issue 31's yardstick: the bare file this much above the tree on topics beyond circuits.
BAR = 0.05


def load_class(folder: Path) -> dict:
    """One class: its bare question, rubric (or None), answers (`id`, `answer`, `label_5way`)
    and seen ids, with an error that names the file and row of anything wrong."""
    from knowledge import load_question

    answers_file, seen_file = folder / "answers.csv", folder / "seen_ids.txt"
    for f in (folder / "question.yaml", answers_file, seen_file):
        if not f.is_file():
            raise FileNotFoundError(f"{f}: not found (a class folder holds question.yaml, answers.csv, "
                                    f"seen_ids.txt and optionally rubric.yaml)")
    answers = pd.read_csv(answers_file, dtype=str, keep_default_na=False)
    missing = {"id", "answer", "mark"} - set(answers.columns)
    if missing:
        raise ValueError(f"{answers_file}: no column(s) {', '.join(sorted(missing))}")
    for row, (i, mark) in enumerate(zip(answers.id, answers.mark), start=2):
        if mark not in MARKS:
            raise ValueError(f"{answers_file}: row {row}: mark {mark!r} is not one of {', '.join(MARKS)}")
    repeated = answers.id[answers.id.duplicated()]
    if len(repeated):
        raise ValueError(f"{answers_file}: row {int(repeated.index[0]) + 2}: id {repeated.iloc[0]!r} again")
    seen = []
    for line, text in enumerate(seen_file.read_text(encoding="utf-8").splitlines(), start=1):
        if text.strip() and text.strip() not in set(answers.id):
            raise ValueError(f"{seen_file}:{line}: {text.strip()!r} is no answer id of {answers_file.name}")
        seen += [text.strip()] if text.strip() else []
    rubric_file = folder / "rubric.yaml"
    return {"name": folder.name, "question": load_question(folder / "question.yaml"),
            "rubric": load_question(rubric_file) if rubric_file.is_file() else None,
            "answers": answers.rename(columns={"mark": "label_5way"})[["id", "answer", "label_5way"]],
            "seen": seen}


def load_classes(data: Path, only: list[str] | None = None) -> list[dict]:
    """Every class folder of `data` (sorted by name), or those `only` names."""
    if not data.is_dir():
        raise FileNotFoundError(f"{data}: not a folder of classes")
    names = sorted(p.name for p in data.iterdir() if (p / "answers.csv").is_file())
    unknown = sorted(set(only or ()) - set(names))
    if unknown:
        raise ValueError(f"{data}: no class {unknown[0]!r} (classes: {', '.join(names)})")
    if not names:
        raise ValueError(f"{data}: no folder with an answers.csv")
    return [load_class(data / n) for n in names if not only or n in only]


def drawn_ids(cls: dict, marked: int, seed: int) -> list[str]:
    """The seen answers and others drawn up to `marked`; the draw depends on the class's name,
    not its place among the others (adding a class leaves the others' draws alone)."""
    others = [i for i in cls["answers"].id if i not in set(cls["seen"])]
    k = max(0, min(marked - len(cls["seen"]), len(others)))
    rng = np.random.default_rng([seed, zlib.crc32(cls["name"].encode())])
    return cls["seen"] + [others[i] for i in sorted(rng.choice(len(others), size=k, replace=False))]


def grade_class(cls: dict, marked: int, draws: int, seed: int, params: dict) -> pd.DataFrame:
    """One row per graded answer and draw: its mark and each source's marks in each scheme."""
    from grader.bench.beetle_baseline import tree_columns
    from grader.bench.beetle_rubric import for_scheme

    parts = []
    for draw in range(seed, seed + draws):
        chosen = set(drawn_ids(cls, marked, draw))
        answers = cls["answers"]
        train = answers[answers.id.isin(chosen)].reset_index(drop=True)
        rest = answers[~answers.id.isin(chosen)].reset_index(drop=True)
        out = pd.DataFrame({"class": cls["name"], "draw": draw, "id": rest.id, "mark": rest.label_5way})
        tree = tree_columns(cls["question"].reference_answers, train, rest)
        for scheme in SCHEMES:
            out[f"tree_{scheme}"] = tree[f"tree_{scheme}"]
            kinds = {"bare": cls["question"]}
            if cls["rubric"] is not None:
                kinds["rubric"] = for_scheme(cls["rubric"], scheme)
            for kind, question in kinds.items():
                marks, _, _ = train_and_grade(question, train, rest, scheme, {**params, "calibrated": False})
                out[f"{kind}_{scheme}"] = pd.Series(marks, dtype=object).to_numpy()
        parts.append(out)
    return pd.concat(parts, ignore_index=True)


def per_class(rows: pd.DataFrame) -> pd.DataFrame:
    """Each class's accuracy per source and scheme, the mean over its draws (unmarked: wrong)."""
    table = {}
    for scheme in SCHEMES:
        truth = np.array([relabel(m, scheme) for m in rows["mark"]], dtype=object)
        for source in SOURCES:
            column = f"{source}_{scheme}"
            if column in rows:
                right = pd.Series(truth == rows[column].to_numpy(dtype=object), index=rows.index)
                table[column] = right.groupby([rows["class"], rows["draw"]]).mean().groupby(level=0).mean()
    return pd.DataFrame(table)


def _counts(diff: pd.Series) -> str:
    diff = diff.dropna()
    return f"{int((diff > 1e-9).sum())} / {int((diff.abs() <= 1e-9).sum())} / {int((diff < -1e-9).sum())}"


def format_report(table: pd.DataFrame, before: pd.DataFrame | None = None) -> str:
    """The per-class table, the means, the yardstick, the spread, and the comparison."""
    columns = [c for c in table.columns]
    lines = [f"{'class':26s}" + "".join(f"{c:>13s}" for c in columns)]
    lines += [f"{name:26s}" + "".join(f"{v:13.3f}" for v in row) for name, row in table.iterrows()]
    lines.append(f"{'mean':26s}" + "".join(f"{table[c].mean():13.4f}" for c in columns))
    lines.append("")
    for scheme in SCHEMES:
        gap = table[f"bare_{scheme}"] - table[f"tree_{scheme}"]
        below = ", ".join(f"{n} {100 * g:+.1f}" for n, g in gap[gap < BAR - 1e-9].items())
        lines.append(f"{scheme}: bare file at least {100 * BAR:.0f} points above the tree on "
                     f"{int((gap >= BAR - 1e-9).sum())} of {len(gap)} classes" + (f" (below: {below})" if below else ""))
    lines += ["", f"spread across classes:{'':6s}{'min':>6s} {'25%':>6s} {'median':>6s} {'75%':>6s} {'max':>6s}"]
    for c in columns:
        q = table[c].dropna().quantile([0, 0.25, 0.5, 0.75, 1]).to_numpy()
        lines.append(f"  {c:26s}" + " ".join(f"{v:6.3f}" for v in q))
    if before is not None:
        lines += ["", "against --compare (mean before -> now, classes better / same / worse):"]
        for c in columns:
            if c in before and not c.startswith("tree"):
                shared = table.index.intersection(before.index)
                lines.append(f"  {c:12s} {before.loc[shared, c].mean():.4f} -> {table.loc[shared, c].mean():.4f} "
                             f"({_counts(table.loc[shared, c] - before.loc[shared, c])})")
    return "\n".join(lines)


def write_beetle(classes: list[dict], out: Path) -> None:
    """The classes as a Beetle folder: questions.json, answers.csv (all `split=train`), and
    `rubrics/<id>/question.yaml` with `rubrics/seen_ids.json` for the classes with a rubric."""
    from grader.exams.exam_io import atomic_write_text

    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out}: not empty (--write-beetle writes a new folder)")
    questions, answers, seen = [], [], {}
    for cls in classes:
        q = cls["question"]
        questions.append({"question_id": q.id, "question": q.text, "reference_answers": list(q.reference_answers)})
        answers.append(cls["answers"].assign(question_id=q.id, split="train"))
        if cls["rubric"] is not None:
            (out / "rubrics" / q.id).mkdir(parents=True, exist_ok=True)
            source = cls["rubric"].source
            atomic_write_text(out / "rubrics" / q.id / "question.yaml", Path(source).read_text(encoding="utf-8"))
            seen[q.id] = cls["seen"]
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "questions.json", json.dumps(questions, indent=1) + "\n")
    atomic_write_text(out / "answers.csv", pd.concat(answers, ignore_index=True)[
        ["question_id", "id", "answer", "label_5way", "split"]].to_csv(index=False))
    if seen:
        atomic_write_text(out / "rubrics" / "seen_ids.json", json.dumps(seen, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench classes", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, metavar="DIR", help="a folder of class folders")
    parser.add_argument("--only", default="", metavar="A,B", help="these classes only (folder names)")
    parser.add_argument("--marked", type=int, default=30, metavar="N", help="answers marked a class (seen + drawn)")
    parser.add_argument("--draws", type=int, default=5, help="draws of the marked answers per class")
    parser.add_argument("--seed", type=int, default=0, help="the first draw's seed")
    parser.add_argument("--jobs", type=int, default=1, help="classes graded in parallel processes")
    parser.add_argument("--marks", choices=("listed", "read"), default="listed",
                        help="the teacher lists the marks, lowest first (listed), or the file has no marks: (read)")
    parser.add_argument("--predictions", type=Path, default=None, metavar="CSV", help="write every mark here")
    parser.add_argument("--compare", type=Path, default=None, metavar="CSV", help="an earlier run's --predictions")
    parser.add_argument("--write-beetle", type=Path, default=None, metavar="OUT",
                        help="write the classes as a Beetle folder and stop")
    args = parser.parse_args(argv)
    try:
        classes = load_classes(args.data, [s for s in args.only.split(",") if s] or None)
        if args.write_beetle:
            write_beetle(classes, args.write_beetle)
            print(f"wrote {len(classes)} classes as a Beetle folder: {args.write_beetle}")
            return 0
        before = per_class(pd.read_csv(args.compare, dtype=str, keep_default_na=False)) if args.compare else None
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from grader.bench.beetle_baseline import sklearn_missing

    if sklearn_missing():
        print(f"error: {sklearn_missing()}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    params = {"marks_listed": args.marks == "listed"}
    parts = run_tasks(grade_class, [(c, args.marked, args.draws, args.seed, params) for c in classes], args.jobs)
    rows = pd.concat(parts, ignore_index=True)
    print(f"classes bench ({args.data}): {len(classes)} classes, {args.marked} marked a class (the seen answers "
          f"and others drawn), the rest graded, {args.draws} draws from seed {args.seed}; marks {args.marks} "
          f"[{time.perf_counter() - t0:.0f}s]")
    print(format_report(per_class(rows), before))
    if args.predictions:
        from grader.exams.exam_io import atomic_write_text

        atomic_write_text(args.predictions, rows.to_csv(index=False))
    return 0
