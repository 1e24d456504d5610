"""`python -m grader.bench uci --data DIR`: the learner on the UCI tables of DIR/manifest.json.

Per table: rows, accuracy, macro-F1, Inverse Brier Score, number of rules, fit seconds (and
predict microseconds per row), next to the reference implementation's figures from the
notes. Tables with a train/test pair use it; the others a random 80/20 split (fixed seed;
`--seeds N` averages accuracy, F1, IBS and rule count over N splits).
The process is pinned to one core, as the reference timings were measured; fit time is
wall-clock (time.perf_counter) and, since the machine may be shared, also CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from grader.atomic_file import atomic_write_text
from grader.confold.estimator import ConFold
from grader.metrics import accuracy, inverse_brier_score, macro_f1

#: The reference implementation of CON-FOLD (confold-notes.md): accuracy and fit seconds.
REFERENCE_ACCURACY = {"ecoli": 0.79, "cars": 0.98, "nursery": 0.95, "adult": 0.85, "credit_card": 0.81,
                      "eeg": 0.77, "dry_bean": 0.90, "page_blocks": 0.97, "intention": 0.90,
                      "mushroom": 1.00}
REFERENCE_SECONDS = {"adult": 3.7, "credit_card": 12.4, "eeg": 4.7, "dry_bean": 13.3, "nursery": 1.3}
TARGET_SECONDS = {"adult": 0.2, "credit_card": 0.5, "eeg": 0.3, "dry_bean": 0.5}
DEFAULT_TABLES = ["adult", "credit_card", "eeg", "dry_bean", "nursery", "ecoli", "cars", "page_blocks",
                  "intention", "mushroom"]


def read_csv_text(path: Path) -> tuple[pd.DataFrame, int]:
    """All cells as text; malformed lines (wrong number of fields) are skipped and counted."""
    try:
        return pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True), 0
    except pd.errors.ParserError:
        bad: list = []
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True,
                            engine="python", on_bad_lines=lambda line: bad.append(line) and None)
        return frame, len(bad)


def numeric_columns(frame: pd.DataFrame, spec: dict) -> tuple[set, bool]:
    """The manifest's numeric columns. Several manifest entries list none although every
    column holds measurements (dry_bean, eeg, page_blocks, ...), which the reference treated
    as numbers; for those, every column whose cells all read as numbers is numeric.
    Returns (columns, inferred?)."""
    listed = set(spec.get("numeric", []))
    if listed:
        return listed, False
    found = set()
    for name in spec["columns"]:
        text = frame[name].str.strip()
        present = ~text.isin(["", "?"])
        if present.any() and pd.to_numeric(text[present], errors="coerce").notna().all():
            found.add(name)
    return found, bool(found)


def read_table(path: Path, spec: dict, notes: list | None = None) -> tuple[pd.DataFrame, pd.Series]:
    """Numeric columns become numbers (a cell that is not one stays text: a mixed column);
    the others are categorical, whatever their values look like."""
    frame, n_bad = read_csv_text(path)
    frame.columns = [c.strip() for c in frame.columns]
    wanted = list(spec["columns"]) + [spec["label"]]
    absent = [c for c in wanted if c not in frame.columns]
    if absent:
        raise ValueError(f"{path}: no column(s) {', '.join(absent)} (the manifest lists them)")
    numeric, inferred = numeric_columns(frame, spec)
    if notes is not None and n_bad:
        notes.append(f"{path.name}: skipped {n_bad} malformed line(s)")
    if notes is not None and inferred:
        notes.append(f"{path.name}: manifest lists no numeric column; {len(numeric)} read as numbers")
    X = {}
    for name in spec["columns"]:
        text = frame[name].str.strip()
        if name in numeric:
            numbers = pd.to_numeric(text, errors="coerce")
            odd = numbers.isna() & ~text.isin(["", "?"])
            X[name] = numbers if not odd.any() else text.where(text != "", None)
        else:
            X[name] = text.astype("category")
    return pd.DataFrame(X, index=frame.index), frame[spec["label"]].str.strip().rename(spec["label"])


def load(data: Path, name: str, spec: dict, seed: int, notes: list | None = None):
    if "train" in spec:
        X_train, y_train = read_table(data / spec["train"], spec, notes)
        X_test, y_test = read_table(data / spec["test"], spec, notes)
        return X_train, y_train, X_test, y_test
    X, y = read_table(data / spec["file"], spec, notes)
    order = np.random.default_rng(seed).permutation(len(X))
    cut = int(round(0.8 * len(X)))
    train, test = order[:cut], order[cut:]
    return X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test]


def run_table(data: Path, name: str, spec: dict, args, seed: int) -> dict:
    notes: list[str] = []
    X_train, y_train, X_test, y_test = load(data, name, spec, seed, notes)
    if getattr(args, "learner", "confold") == "boosted":
        from grader.boosting import BoostedRules

        model = BoostedRules(n_rounds=args.rounds)
    else:
        model = ConFold(ratio=args.ratio, improvement_threshold=args.improvement_threshold,
                        confidence_threshold=args.confidence_threshold)
    start, cpu_start = time.perf_counter(), time.process_time()
    model.fit(X_train, y_train)
    fit_seconds = time.perf_counter() - start
    fit_cpu_seconds = time.process_time() - cpu_start
    start = time.perf_counter()
    labels, confidence = model.predict_with_confidence(X_test)
    predict_seconds = time.perf_counter() - start
    start = time.perf_counter()
    sample = X_test.iloc[:500]
    explanations = model.explain(sample)
    explain_seconds = time.perf_counter() - start
    return {
        "table": name, "rows": len(X_train) + len(X_test), "train_rows": len(X_train),
        "accuracy": accuracy(y_test, labels), "macro_f1": macro_f1(y_test, labels),
        "ibs": inverse_brier_score(y_test, labels, confidence), "rules": len(model.rules_),
        "fit_seconds": fit_seconds, "fit_cpu_seconds": fit_cpu_seconds,
        "predict_us_per_row": 1e6 * predict_seconds / max(1, len(X_test)),
        "explain_us_per_row": 1e6 * explain_seconds / max(1, len(explanations)),
        "reference_accuracy": REFERENCE_ACCURACY.get(name),
        "reference_seconds": REFERENCE_SECONDS.get(name), "target_seconds": TARGET_SECONDS.get(name),
        "notes": notes,
    }


def format_row(r: dict) -> str:
    ref = "" if r["reference_accuracy"] is None else f"{r['reference_accuracy']:.2f}"
    target = "" if r["target_seconds"] is None else f"{r['target_seconds']:.1f}"
    refs = "" if r["reference_seconds"] is None else f"{r['reference_seconds']:.1f}"
    return (f"{r['table']:<14}{r['rows']:>7}{r['accuracy']:>7.3f}{ref:>6}{r['macro_f1']:>7.3f}"
            f"{r['ibs']:>7.3f}{r['rules']:>6.0f}{r['fit_seconds']:>8.3f}{r['fit_cpu_seconds']:>7.3f}{target:>7}{refs:>6}"
            f"{r['predict_us_per_row']:>8.1f}{r['explain_us_per_row']:>8.1f}")


HEADER = (f"{'table':<14}{'rows':>7}{'acc':>7}{'ref':>6}{'macroF1':>7}{'IBS':>7}{'rules':>6}"
          f"{'fit_s':>8}{'cpu_s':>7}{'target':>7}{'ref_s':>6}{'pred_us':>8}{'expl_us':>8}")


def speedup_summary(results: list[dict]) -> str:
    """The fit speed-up over the reference CON-FOLD (its seconds / our fit CPU seconds) on
    the tables whose reference time the notes give, their median, and the tables without one."""
    timed = [r for r in results if "error" not in r and r.get("reference_seconds")]
    untimed = [r["table"] for r in results if "error" not in r and not r.get("reference_seconds")]
    if not timed:
        return "speed-up: no table with a reference fit time (confold-notes.md gives adult, " \
               "credit_card, eeg, dry_bean, nursery)"
    ups = {r["table"]: r["reference_seconds"] / max(r["fit_cpu_seconds"], 1e-9) for r in timed}
    text = ("speed-up over the reference CON-FOLD (reference s / fit CPU s): "
            + ", ".join(f"{t} x{u:.1f}" for t, u in ups.items())
            + f"; median x{float(np.median(list(ups.values()))):.1f}")
    if untimed:
        text += f"; no reference time here for {', '.join(untimed)}"
    return text


def write_json(path: Path, payload) -> None:
    atomic_write_text(path, json.dumps(payload, indent=1))


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench uci", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="directory with manifest.json")
    parser.add_argument("--tables", help=f"comma-separated (default: {','.join(DEFAULT_TABLES)}; 'all')")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--improvement-threshold", type=float, default=None)
    parser.add_argument("--confidence-threshold", type=float, default=None)
    parser.add_argument("--ratio", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0, help="seed of the 80/20 split")
    parser.add_argument("--seeds", type=int, default=1,
                        help="average accuracy, F1 and IBS over this many splits (seeds seed, seed+1, ...)")
    parser.add_argument("--repeat", type=int, default=1, help="fit this many times, report the fastest")
    parser.add_argument("--learner", choices=("confold", "boosted"), default="confold",
                        help="CON-FOLD (default) or boosted rule ensembles (grader.boosting)")
    parser.add_argument("--rounds", type=int, default=50, help="boosting rounds per class (--learner boosted)")
    args = parser.parse_args(argv)
    manifest_path = args.data / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        print(f"cannot read {manifest_path}: {err}", file=sys.stderr)
        return 2
    names = (list(manifest) if args.tables == "all" else
             args.tables.split(",") if args.tables else DEFAULT_TABLES)
    unknown = [n for n in names if n not in manifest]
    if unknown:
        print(f"not in the manifest: {', '.join(unknown)}", file=sys.stderr)
        return 2
    pin_to_one_core()
    print(HEADER, flush=True)
    results = []
    all_notes = []
    for name in names:
        try:
            seeds = [args.seed] if "train" in manifest[name] else range(args.seed, args.seed + max(1, args.seeds))
            splits = []
            for seed in seeds:
                runs = [run_table(args.data, name, manifest[name], args, seed) for _ in range(max(1, args.repeat))]
                splits.append(min(runs, key=lambda r: r["fit_seconds"]))
        except (OSError, ValueError) as err:
            print(f"{name:<14}error: {err}", flush=True)
            results.append({"table": name, "error": str(err)})
            continue
        best = dict(splits[0])
        for key in ("accuracy", "macro_f1", "ibs", "rules"):
            best[key] = float(np.mean([r[key] for r in splits]))
        best["seeds"] = len(splits)
        results.append(best)
        all_notes += [f"{name}: {n}" for n in best["notes"]]
        print(format_row(best), flush=True)
    print(speedup_summary(results))
    for note in all_notes:
        print(f"note: {note}")
    if args.json:
        write_json(args.json, {"learner": args.learner, "improvement_threshold": args.improvement_threshold,
                               "confidence_threshold": args.confidence_threshold, "seed": args.seed,
                               "seeds": args.seeds,
                               "results": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
