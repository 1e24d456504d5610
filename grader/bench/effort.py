"""`python -m grader.bench effort --data ../shared/data/beetle-dev [--scheme 2way|3way|both] [--questions N] [--seed S] [--seeds R] [--jobs J] [--exam-size Q] [--exams E] [--json PATH] [--rubrics DIR]`

A teacher's effort: how many decisions a class takes and how many final marks are wrong. Each
question's class is all its answers (both splits), Beetle's labels standing for the teacher's
marks; the app's workflow is played on it (`grader.bench.effort_play`): the Start view's
order (and, beside it, random orders: the mean of `--seeds` seeds), the app's retraining
cadence, and the rest of the class finished one by one (the Review queue of flagged answers) or
by groups (the Groups view's groups of the answers left, then the flagged ones in none).

Printed per scheme, as a curve against the answers marked (10, 20, ...; a question with fewer
answers counts as fully marked, by hand, from there): decisions per answer (marked + decided,
over the class) and final accuracy (the teacher's marks, all right, and the machine's left as
they are), pooled over the questions; then per question the fewest decisions per answer
reaching the target accuracy (0.97 2-way, 0.95 3-way; hand marking, 1.0, always does) and
its spread across questions; at each point, the questions that reach the target within the
issue's budget of decisions (0.40 2-way, 0.55 3-way) and the spread of their figures; and the
purity of the groups (unmarked answers in groups of two or more that deserve the mark most of
their group deserve). The per-question fewest is the best stopping point
*knowing the truth*: what a stop signal could at best reach. Then the stop estimate: where it
tells the teacher to stop, per question and pooled over exams of `--exam-size` questions drawn
at random (`grader.bench.effort_exam`), what that cost and how close its estimate was.
With `--rubrics`, each question with a teacher's rubric is played with it and with the bare
question file instead, and the two compared at the stop (`grader.bench.effort_rubric`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from grader.bench.beetle import load_beetle, question_ids, relabel
from grader.bench.effort_exam import exam_stop_figures
from grader.bench.effort_rubric import KINDS, compare_stops, rubric_question, rubric_tasks
from grader.bench.parallel import run_tasks

TARGETS = {"2way": 0.97, "3way": 0.95}
#: The decisions per answer the issue allows for the target (issue 29).
BUDGETS = {"2way": 0.40, "3way": 0.55}
ORDERS = ("suggested", "random")
#: How the teacher finishes a class: (its decisions, its final accuracy) columns.
POLICIES = {"one by one": ("decisions", "accuracy"), "by groups": ("decisions_by_groups", "accuracy_by_groups")}


def run_one(record: dict, texts: list[str], labels: list[str], scheme: str, order: str, seed: int,
            rubric=None, first: Sequence[int] = (), name: str | None = None) -> list[dict]:
    """The curve of one question, scheme, order and seed, as table rows (their `order` is
    `name` when given). With `rubric` (a question file, its marks as the labels'), the teacher
    marks with it instead of the bare question file; `first`: the answers marked before the
    others (those the rubric was written from)."""
    from grader.bench.effort_play import play

    truth = [relabel(y, scheme) for y in labels]
    question = None if rubric is None else rubric_question(rubric, scheme)
    rows = []
    for p in play(record, texts, truth, scheme, order, seed, TARGETS[scheme], question, first):
        rows.append(dict(asdict(p), question_id=record["question_id"], scheme=scheme, order=name or order, seed=seed,
                         decisions=p.decisions, decisions_by_groups=p.decisions_by_groups, accuracy=p.accuracy,
                         accuracy_by_groups=p.accuracy_by_groups,
                         decisions_to_stop=p.decisions_to_stop, accuracy_at_stop=p.accuracy_at_stop))
    return rows


def with_hand_marked(table: pd.DataFrame) -> pd.DataFrame:
    """Per scheme, order and question, the curve averaged over seeds and extended to every
    checkpoint of the largest class: a class smaller than a checkpoint is fully marked there."""
    mean = table.groupby(["scheme", "order", "question_id", "marked"], as_index=False).agg(
        size=("size", "first"), decisions=("decisions", "mean"), decisions_by_groups=("decisions_by_groups", "mean"),
        accuracy=("accuracy", "mean"), accuracy_by_groups=("accuracy_by_groups", "mean"),
        grouped=("grouped", "mean"), grouped_pure=("grouped_pure", "mean"))
    marks = sorted(mean.marked.unique())
    parts = [mean]
    for (scheme, order, qid), rows in mean.groupby(["scheme", "order", "question_id"]):
        size = int(rows["size"].iloc[0])
        missing = [k for k in marks if k not in set(rows.marked)]
        parts.append(pd.DataFrame({"scheme": scheme, "order": order, "question_id": qid, "marked": missing,
                                   "size": size, "decisions": float(size), "decisions_by_groups": float(size),
                                   "accuracy": 1.0, "accuracy_by_groups": 1.0, "grouped": 0.0, "grouped_pure": 0.0}))
    out = pd.concat(parts, ignore_index=True).astype({"marked": int, "size": int})
    return out.sort_values(["scheme", "order", "question_id", "marked"], ignore_index=True)


def fewest_decisions(curves: pd.DataFrame, target: float, column: str, accuracy: str = "accuracy") -> pd.Series:
    """Per question, the fewest decisions per answer (`column` / class size) at a point whose
    final accuracy (`accuracy`) reaches `target`; 1.0 (hand marking) when none does."""
    share = curves[column] / curves["size"]
    reached = share.where(curves[accuracy] >= target - 1e-12)
    return reached.groupby(curves["question_id"]).min().fillna(1.0).clip(upper=1.0)


def pooled(curves: pd.DataFrame) -> pd.DataFrame:
    """Per point, each policy's decisions per answer and final accuracy ("<policy> accuracy")
    over all the questions' answers."""
    g = curves.groupby("marked")
    total = g["size"].sum()
    out = {}
    for policy, (column, accuracy) in POLICIES.items():
        out[policy] = g[column].sum() / total
        out[f"{policy} accuracy"] = (curves[accuracy] * curves["size"]).groupby(curves["marked"]).sum() / total
    return pd.DataFrame(out)


def report(table: pd.DataFrame, scheme: str, orders: Sequence[str] = ORDERS) -> tuple[str, dict]:
    """The printed summary of one scheme, and its figures for --json (`orders`: the values of the
    table's `order` column to show, in order)."""
    target = TARGETS[scheme]
    curves = with_hand_marked(table[table.scheme == scheme])
    pools = {order: pooled(curves[curves.order == order]) for order in orders if (curves.order == order).any()}
    lines = [f"{scheme[0]}-way, target accuracy {target:.2f}: decisions per answer / final accuracy, pooled "
             f"over {curves.question_id.nunique()} questions (hand marking: 1.000 / 1.000)",
             f"{'marked':>6s}  " + "  ".join(f"{order + ', ' + policy:>25s}" for order in pools for policy in POLICIES)]
    figures: dict = {"target": target, "pooled": {}, "fewest": {}, "spread": {}}
    for k in sorted(curves.marked.unique()):
        cells = [f"{pools[o].loc[k, p]:.3f} / {pools[o].loc[k, p + ' accuracy']:.3f}" for o in pools for p in POLICIES]
        lines.append(f"{k:6d}  " + "  ".join(f"{c:>25s}" for c in cells))
    for order, pool in pools.items():
        figures["pooled"][order] = {str(k): {**row.to_dict()} for k, row in pool.iterrows()}
    lines.append(f"fewest decisions per answer reaching {target:.2f} (per question; pooled curve's; "
                 "spread across questions min / median / max)")
    per_question = {}
    for order, pool in pools.items():
        own = curves[curves.order == order]
        for policy, (column, accuracy) in POLICIES.items():
            fewest = fewest_decisions(own, target, column, accuracy)
            per_question[f"{order}, {policy}"] = fewest
            at_pool = pool[policy].where(pool[f"{policy} accuracy"] >= target - 1e-12).min()
            at_pool = 1.0 if np.isnan(at_pool) else min(1.0, float(at_pool))
            weighted = float((fewest * own.groupby("question_id")["size"].first()).sum()
                             / own.groupby("question_id")["size"].first().sum())
            name = f"{order}, {policy}"
            figures["fewest"][name] = {"per_question": fewest.round(4).to_dict(), "pooled_curve": at_pool,
                                       "per_question_stops": weighted}
            figures["spread"][name] = [float(fewest.min()), float(fewest.median()), float(fewest.max())]
            lines.append(f"  {name:25s} pooled curve {at_pool:.3f}, each question at its best {weighted:.3f}; "
                         f"spread {fewest.min():.3f} / {fewest.median():.3f} / {fewest.max():.3f}")
    lines.append("per question (" + ", ".join(per_question) + "):")
    for qid in sorted(curves.question_id.unique()):
        lines.append(f"  {qid:28.28s} " + "  ".join(f"{s[qid]:.3f}" for s in per_question.values()))
    grouped = curves.groupby(["order", "question_id"])[["grouped", "grouped_pure"]].sum()
    for order in pools:
        g = grouped.loc[order]
        purity = (g.grouped_pure / g.grouped).dropna()
        total = float(g.grouped_pure.sum() / g.grouped.sum()) if g.grouped.sum() else float("nan")
        figures.setdefault("group_purity", {})[order] = {"pooled": total, "per_question": purity.round(4).to_dict()}
        lines.append(f"group purity ({order}): {total:.3f} of the unmarked answers in groups of two or more deserve "
                     f"the mark most of their group deserve; per question min / median / max "
                     + (f"{purity.min():.3f} / {purity.median():.3f} / {purity.max():.3f}" if len(purity) else "-"))
    lines.append(f"per question at each point, by groups: questions reaching {target:.2f} within {BUDGETS[scheme]:.2f} "
                 "decisions per answer; final accuracy and decisions per answer min / median / max")
    figures["per_point"] = {}
    for order in pools:
        own = curves[curves.order == order]
        for k, at in own.groupby("marked"):
            at = at[at.marked < at["size"]]  # the classes still being marked there
            if at.empty:
                continue
            share = at.decisions_by_groups / at["size"]
            good = int(((at.accuracy_by_groups >= target - 1e-12) & (share <= BUDGETS[scheme] + 1e-12)).sum())
            figures["per_point"].setdefault(order, {})[str(k)] = {
                "questions": len(at), "within_budget_at_target": good,
                "accuracy": [float(at.accuracy_by_groups.min()), float(at.accuracy_by_groups.median()),
                             float(at.accuracy_by_groups.max())],
                "decisions": [float(share.min()), float(share.median()), float(share.max())]}
            lines.append(f"  {order:9s} {k:3d}: {good:2d} of {len(at):2d}; accuracy {at.accuracy_by_groups.min():.3f} / "
                         f"{at.accuracy_by_groups.median():.3f} / {at.accuracy_by_groups.max():.3f}; decisions "
                         f"{share.min():.3f} / {share.median():.3f} / {share.max():.3f}")
    return "\n".join(lines), figures


def stop_figures(table: pd.DataFrame, order: str) -> tuple[str, dict]:
    """Where the tool tells the teacher to stop (the first point whose checks vouch for the
    target; never: the whole class by hand), what it cost and how honest its estimate was."""
    rows = table[table.order == order]
    stops, honest = [], []
    for (qid, seed), curve in rows.groupby(["question_id", "seed"]):
        size = int(curve["size"].iloc[0])
        stopped = curve[curve["stop"]].sort_values("marked")
        first = stopped.iloc[0] if len(stopped) else None
        stops.append({"question_id": qid, "seed": seed, "size": size, "stopped": first is not None,
                      "marked": None if first is None else int(first.marked),
                      "decisions": 1.0 if first is None else first.decisions_to_stop / size,
                      "accuracy": 1.0 if first is None else float(first.accuracy_at_stop)})
        if first is not None and first.kept > 0:
            truth = first.accuracy_at_stop  # the class's final marks, as the estimate
            honest.append({"question_id": qid, "estimate": float(first.estimate), "truth": float(truth),
                           "within_3_points": bool(abs(first.estimate - truth) <= 0.03 + 1e-12),
                           "inside": bool(first.low - 1e-12 <= truth <= first.high + 1e-12)})
    stops = pd.DataFrame(stops)
    per_question = stops.groupby("question_id").agg(size=("size", "first"), decisions=("decisions", "mean"),
                                                    accuracy=("accuracy", "mean"), stopped=("stopped", "mean"))
    weights = per_question["size"] / per_question["size"].sum()
    at_points = rows[rows["estimate"].notna() & (rows["kept"] > 0)]
    truth_all = (at_points["size"] - at_points["kept"] + at_points["kept_right"]) / at_points["size"]
    inside_all = float(((at_points["low"] - 1e-12 <= truth_all) & (truth_all <= at_points["high"] + 1e-12)).mean()) \
        if len(at_points) else float("nan")
    within_all = float(((at_points["estimate"] - truth_all).abs() <= 0.03 + 1e-12).mean()) if len(at_points) else float("nan")
    honest = pd.DataFrame(honest, columns=["question_id", "estimate", "truth", "within_3_points", "inside"])
    figures = {"decisions": float((per_question.decisions * weights).sum()),
               "accuracy": float((per_question.accuracy * weights).sum()),
               "spread_decisions": [float(per_question.decisions.min()), float(per_question.decisions.median()),
                                    float(per_question.decisions.max())],
               "lowest_accuracy": float(per_question.accuracy.min()),
               "questions_stopped": float(per_question.stopped.mean()),
               "at_stop": {"within_3_points": float(honest.within_3_points.mean()) if len(honest) else None,
                           "inside_interval": float(honest.inside.mean()) if len(honest) else None,
                           "curves": len(honest)},
               "every_point": {"within_3_points": within_all, "inside_interval": inside_all, "points": len(at_points)},
               "per_question": per_question.round(4).to_dict("index")}
    text = (f"  {order}: the tool says stop on {figures['questions_stopped']:.0%} of the classes; there "
            f"{figures['decisions']:.3f} decisions per answer (checks included; never stopped: 1.0), final accuracy "
            f"{figures['accuracy']:.3f} (lowest question {figures['lowest_accuracy']:.3f}); decisions spread "
            + " / ".join(f"{v:.3f}" for v in figures["spread_decisions"])
            + f"\n    its estimate at the stop: within 3 points of the truth on "
            + (f"{figures['at_stop']['within_3_points']:.0%}, truth inside the 90% interval on "
               f"{figures['at_stop']['inside_interval']:.0%} of {len(honest)} stops" if len(honest) else "- (no stop)")
            + f"; at every point: {within_all:.0%} within 3 points, {inside_all:.0%} inside, of {len(at_points)}")
    return text, figures


def _plain(value):
    """`value` as plain JSON: numpy numbers as Python ones, NaN as null (NaN is not JSON)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.integer, np.bool_)):
        return value.item()
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench effort", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/beetle-dev"))
    parser.add_argument("--scheme", choices=("2way", "3way", "both"), default="both")
    parser.add_argument("--questions", type=int, default=0, metavar="N", help="the first N questions by id (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="the first random order's seed")
    parser.add_argument("--seeds", type=int, default=3,
                        help="random orders per question (default 3; with --rubrics, one order: the Start view's)")
    parser.add_argument("--jobs", type=int, default=1, help="curves played in parallel processes")
    parser.add_argument("--exam-size", type=int, default=10, metavar="Q",
                        help="questions in an exam, for the stop estimate pooled over an exam (default 10)")
    parser.add_argument("--exams", type=int, default=20, metavar="E",
                        help="exams drawn at random among the questions for it (default 20)")
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help="write every point and the figures here")
    parser.add_argument("--rubrics", type=Path, default=None, metavar="DIR",
                        help="the teachers' rubrics (<question_id>/question.yaml and seen_ids.json): each question "
                             "with one is marked with it and with the bare question file, the answers its rubric "
                             "was written from first, then in the Start view's order")
    args = parser.parse_args(argv)
    if min(args.seeds, args.jobs, args.exam_size, args.exams) < 1:
        print("error: --seeds, --jobs, --exam-size and --exams must be at least 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        questions, answers = load_beetle(args.data)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    qids = sorted(question_ids(questions, answers, args.questions),
                  key=lambda q: -int((answers.question_id == q).sum()))  # longest class first
    schemes = ("2way", "3way") if args.scheme == "both" else (args.scheme,)
    orders = KINDS if args.rubrics else ORDERS
    if args.rubrics:  # each question with a rubric: the bare file and the rubric, seen answers first
        try:
            qids, tasks = rubric_tasks(questions, answers, qids, schemes, args.rubrics, args.seed)
        except (FileNotFoundError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    else:
        tasks = []
        for qid in qids:
            group = answers[answers.question_id == qid]
            for scheme in schemes:
                for order in ORDERS:
                    for seed in (range(args.seed, args.seed + args.seeds) if order == "random" else [args.seed]):
                        tasks.append((questions[qid], group.answer.tolist(), group.label_5way.tolist(), scheme,
                                      order, seed))
    results = run_tasks(run_one, tasks, args.jobs)
    table = pd.DataFrame([r for rows in results for r in rows])
    n_answers = int(answers.question_id.isin(qids).sum())
    how = (f"each marked with the bare question file and with the teacher's rubric ({args.rubrics}), the answers "
           "the rubric was written from first, then in the Start view's order" if args.rubrics
           else f"random orders: mean of {args.seeds} seeds from {args.seed}")
    print(f"a teacher's effort on Beetle ({args.data}): {len(qids)} questions, {n_answers} answers (both splits), "
          f"the app's workflow; {how} [{time.perf_counter() - t0:.0f}s]")
    per_answer = ["machine_confidence", "machine_right"]  # for the exams' pooled stop; not written out
    out = {"data": str(args.data), "seed": args.seed, "seeds": args.seeds,
           "points": table.drop(columns=per_answer).to_dict("records")}
    for scheme in schemes:
        text, figures = report(table, scheme, orders)
        print(text)
        print(f"the stop estimate, deciding by groups (random checks of the machine's marks, as many as would vouch "
              f"for {TARGETS[scheme]:.2f} of the class's final marks if all right; exact bounds, 90% confidence; the "
              "estimate and the truth are the class's final marks):")
        figures["stop"] = {}
        for order in orders:
            text, figures["stop"][order] = stop_figures(table[table.scheme == scheme], order)
            print(text)
        if args.rubrics:
            text, figures["rubric_against_bare"] = compare_stops(figures["stop"]["bare"], figures["stop"]["rubric"])
            print(text)
            out[scheme] = figures
            continue
        print("the stop estimate on a question alone and pooled over an exam (checks drawn at random among all "
              "its questions' machine marks, as many as would vouch for the target if all right; the same number "
              "of answers marked on each question), the target on the machine's marks or on the final marks:")
        figures["exam_stop"] = {}
        for scope in ("machine", "class"):
            for size in sorted({1, args.exam_size}):
                for order in ORDERS:
                    text, figures["exam_stop"][f"{order}, {size}, {scope}"] = exam_stop_figures(
                        table[table.scheme == scheme], order, TARGETS[scheme], size, args.exams, args.seed, scope)
                    print(text)
        out[scheme] = figures
    if args.json:
        from grader.exams.exam_io import atomic_write_text

        atomic_write_text(args.json, json.dumps(_plain(out), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
