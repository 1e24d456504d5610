"""`python -m grader.bench beetle --data ../shared/data/beetle-dev [--cv K] [--baseline] [--json PATH]`

The grading pipeline on real student answers (Beetle, SemEval-2013 task 7): for each
question a `GradingModel` is trained through the product path (`GradingModel.train` with a
`Question` holding only the question text and its reference answers: no rubric) on
`split=train`, then grades `split=test` with `model.grade`. With `--cv K` it instead runs
K-fold cross-validation inside `split=train` (folds stratified by the 5-way label, seeded):
that is the figure to make development decisions on; the test split is for reporting.

How the 3-way and 2-way figures are produced: a teacher marks in one scheme, so the headline
figure ("own") is a model trained on that scheme's labels. The figure of the 5-way model with
its predictions mapped down ("mapped") is printed too (it costs nothing extra).

Per scheme and source: accuracy (an answer no rule marks counts as wrong), macro-F1 (same),
the share of answers left unmarked, and the accuracy of the automatically marked rest when the
20% and the 30% least confident answers of the whole set are flagged (unmarked answers count
as least confident; ties in confidence are broken by the answers' order in the file). Then
the spread across questions, and how often a mark of each confidence is right (a teacher
reads "confidence 0.95" as "right 95 times in 100": the table says whether it is). With
`--target-accuracy A`, each question is also flagged as `grade --target-accuracy A` flags it
(`beetle_confidence`): the share flagged and the accuracy of the marks left, on the evaluation answers.
With `--baseline`, a per-question decision tree on lemma presence and overlap with the reference
answers (`beetle_baseline`; needs scikit-learn) is trained on the same answers and graded on the
same evaluation answers (same folds): its accuracy beside the model's, per scheme and per question.
With `--rubrics DIR --marked N`, the rubric bench (`beetle_rubric`) runs instead.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from grader.bench.beetle_confidence import (CONFIDENCE_BANDS, format_reliability, format_target,  # noqa: F401
                                            is_unmarked, reliability, target_figures)
from grader.bench.beetle_data import (MARK_ORDER, NO_CREDIT, SCHEMES, load_beetle,  # noqa: F401 (other benches)
                                      question_ids, relabel)
from grader.bench.beetle_data import train_and_grade as _train_and_grade
from grader.bench.parallel import run_tasks
from grader.metrics import macro_f1

FLAG_SHARES = (0.2, 0.3)


def flagged_accuracy(y_true: Sequence, y_pred: Sequence, confidence: Sequence[float],
                     share: float) -> float:
    """Accuracy of the answers left to the machine when the `share` least confident answers
    are flagged for a human. Unmarked answers (None, NaN confidence) are the least confident;
    ties are broken by position (earlier answers are flagged first). NaN if nothing is left."""
    t = np.asarray(list(y_true), dtype=object)
    p = np.asarray(list(y_pred), dtype=object)
    conf = np.asarray(confidence, dtype=float)
    if not (len(t) == len(p) == len(conf)):
        raise ValueError(f"{len(t)} labels, {len(p)} predictions and {len(conf)} confidences")
    if not 0 <= share <= 1:
        raise ValueError(f"share must be in [0, 1], got {share!r}")
    marked = np.array([not is_unmarked(x) for x in p], dtype=bool)
    key = np.where(marked & ~np.isnan(conf), conf, -np.inf)
    order = np.argsort(key, kind="stable")
    n_flagged = math.ceil(share * len(t) - 1e-9)
    auto = order[n_flagged:]
    if len(auto) == 0:
        return float("nan")
    return float((marked[auto] & (p[auto] == t[auto])).mean())


def scheme_figures(y_true: Sequence, y_pred: Sequence, confidence: Sequence[float]) -> dict:
    """accuracy, macro-F1, share unmarked and flagged accuracies for one set of predictions."""
    t = list(y_true)
    p = [None if is_unmarked(x) else x for x in y_pred]
    correct = sum(a == b for a, b in zip(t, p) if b is not None)
    figures = {"answers": len(t), "accuracy": correct / len(t), "macro_f1": macro_f1(t, p),
               "unmarked": sum(x is None for x in p) / len(t)}
    for share in FLAG_SHARES:
        figures[f"accuracy_flag{round(share * 100)}"] = flagged_accuracy(t, p, confidence, share)
    return figures


# -- running the pipeline -----------------------------------------------------------------------


def grade_question(question_record: dict, group: pd.DataFrame, cv: int, params: dict,
                   seed: int = 0, baseline: bool = False) -> pd.DataFrame:
    """Predictions of each training scheme for one question's evaluation answers: the test
    split, or (cv > 1) every train answer graded by the model of the fold that left it out.
    `baseline`: also the decision tree's marks (`tree_<scheme>`), trained on the same answers."""
    from grader.grading.evaluation import stratified_folds
    from knowledge.schema import Question

    question = Question(question_record["question_id"], question_record["question"],
                        tuple(question_record["reference_answers"]))
    train_all = group[group.split == "train"].reset_index(drop=True)
    if cv > 1:
        fold_of = stratified_folds(train_all.label_5way.tolist(), cv, seed)
        splits = [(train_all[fold_of != k], train_all[fold_of == k]) for k in range(cv)]
    else:
        splits = [(train_all, group[group.split == "test"].reset_index(drop=True))]
    parts = []
    for train, test in splits:
        if len(test) == 0:
            continue
        part = pd.DataFrame({"question_id": question.id, "answer": test.answer.to_numpy(),
                             "label_5way": test.label_5way.to_numpy()})
        for scheme in SCHEMES:
            marks, confidence, threshold = _train_and_grade(question, train, test, scheme, params)
            part[f"mark_{scheme}"] = pd.Series(marks, dtype=object).to_numpy()
            part[f"confidence_{scheme}"] = confidence
            if params.get("target_accuracy"):
                part[f"threshold_{scheme}"] = threshold
        if baseline:
            from grader.bench.beetle_baseline import tree_columns

            for column, marks in tree_columns(question.reference_answers, train, test).items():
                part[column] = pd.Series(marks, dtype=object).to_numpy()
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def figures(predictions: pd.DataFrame) -> dict[str, dict[str, dict]]:
    """{scheme: {"own": figures, "mapped": figures}} from `grade_question` rows."""
    out: dict[str, dict[str, dict]] = {}
    for scheme in SCHEMES:
        truth = [relabel(y, scheme) for y in predictions.label_5way]
        own = scheme_figures(truth, predictions[f"mark_{scheme}"].tolist(),
                             predictions[f"confidence_{scheme}"].to_numpy())
        mapped_marks = [None if is_unmarked(m) else relabel(m, scheme) for m in predictions["mark_5way"]]
        mapped = scheme_figures(truth, mapped_marks, predictions["confidence_5way"].to_numpy())
        out[scheme] = {"own": own, "mapped": mapped}
    return out


def run(data: Path, cv: int = 0, params: dict | None = None, jobs: int = 1,
        seed: int = 0, baseline: bool = False) -> tuple[pd.DataFrame, dict]:
    """Grade every question (in `jobs` processes); (prediction rows, figures). `baseline`: the
    rows also hold the decision tree's marks (`grade_question`)."""
    questions, answers = load_beetle(data)
    groups = [(questions[qid], group) for qid, group in answers.groupby("question_id", sort=True)
              if qid in questions]
    params = dict(params or {})
    results = run_tasks(grade_question, [(q, g, cv, params, seed, baseline) for q, g in groups], jobs)
    predictions = pd.concat(results, ignore_index=True)
    return predictions, figures(predictions)


def format_figures(result: dict[str, dict[str, dict]]) -> str:
    lines = [f"{'scheme':7s} {'trained on':12s} {'accuracy':>8s} {'macro-F1':>8s} {'unmarked':>8s} "
             f"{'acc@20%flag':>11s} {'acc@30%flag':>11s}"]
    for scheme, sources in result.items():
        for source, f in sources.items():
            if scheme == "5way" and source == "mapped":
                continue
            trained = "5-way labels" if source == "mapped" or scheme == "5way" else f"{scheme[0]}-way labels"
            lines.append(f"{scheme:7s} {trained:12s} {f['accuracy']:8.3f} {f['macro_f1']:8.3f} "
                         f"{f['unmarked']:8.3f} {f['accuracy_flag20']:11.3f} {f['accuracy_flag30']:11.3f}")
    return "\n".join(lines)


def per_question_accuracy(predictions: pd.DataFrame) -> pd.DataFrame:
    """(questions x figures) each scheme's own-label accuracy on each question, and the
    accuracy left to the machine when the question's 30% least confident answers are flagged."""
    columns = {}
    qids = predictions.question_id.to_numpy()
    for scheme in SCHEMES:
        truth = np.array([relabel(y, scheme) for y in predictions.label_5way], dtype=object)
        marks = predictions[f"mark_{scheme}"].to_numpy(dtype=object)
        confidence = pd.to_numeric(predictions[f"confidence_{scheme}"], errors="coerce").to_numpy()
        columns[f"{scheme} accuracy"] = pd.Series(truth == marks).groupby(qids).mean()
        columns[f"{scheme} acc@30%flag"] = pd.Series({
            q: flagged_accuracy(truth[qids == q], marks[qids == q], confidence[qids == q], 0.3)
            for q in np.unique(qids)})
    return pd.DataFrame(columns)


def format_spread(by_question: pd.DataFrame, before: pd.DataFrame | None = None) -> str:
    """The spread of per-question accuracy (and, given an earlier run, how many questions
    got better or worse): a change should help on nearly every question, not only the mean."""
    lines = [f"per question ({len(by_question):2d}):  {'min':>6s} {'25%':>6s} {'median':>6s} "
             f"{'75%':>6s} {'max':>6s}" + ("   vs before: better / same / worse, largest drop"
                                           if before is not None else "")]
    for scheme in by_question.columns:
        q = by_question[scheme].quantile([0, 0.25, 0.5, 0.75, 1]).to_numpy()
        line = f"  {scheme:20s}" + " ".join(f"{v:6.3f}" for v in q)
        if before is not None and scheme in before.columns:
            diff = (by_question[scheme] - before[scheme].reindex(by_question.index)).dropna()
            line += (f"   {int((diff > 1e-9).sum())} / {int((diff.abs() <= 1e-9).sum())} / "
                     f"{int((diff < -1e-9).sum())}, {min(diff.min(), 0.0):+.3f}")
        lines.append(line)
    return "\n".join(lines)


def scheme_reliability(predictions: pd.DataFrame) -> dict[str, list[dict]]:
    """{scheme: `reliability` of its own-label marks} from `grade_question` rows."""
    return {scheme: reliability([relabel(y, scheme) for y in predictions.label_5way],
                                predictions[f"mark_{scheme}"].tolist(),
                                pd.to_numeric(predictions[f"confidence_{scheme}"], errors="coerce").to_numpy())
            for scheme in SCHEMES}


def scheme_calibration_error(predictions: pd.DataFrame) -> dict[str, float]:
    """{scheme: the 10-bin calibration error of its own-label marks} (`metrics.expected_calibration_error`:
    an unmarked answer counts as a wrong mark of confidence 0)."""
    from grader.metrics import expected_calibration_error

    return {scheme: expected_calibration_error(
        [relabel(y, scheme) for y in predictions.label_5way],
        [None if is_unmarked(m) else m for m in predictions[f"mark_{scheme}"]],
        pd.to_numeric(predictions[f"confidence_{scheme}"], errors="coerce").to_numpy()) for scheme in SCHEMES}


def _threshold(text: str) -> float | None:
    return None if text.lower() in ("none", "off") else float(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench beetle", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/beetle-dev"),
                        help="folder with questions.json and answers.csv")
    parser.add_argument("--cv", type=int, default=0, metavar="K",
                        help="K-fold cross-validation on split=train instead of grading split=test")
    parser.add_argument("--seed", type=int, default=0, help="seed of the CV folds")
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help="write the figures here")
    parser.add_argument("--jobs", type=int, default=1, help="questions graded in parallel processes")
    # Training options left out keep the pipeline's defaults (argparse.SUPPRESS: not in args).
    parser.add_argument("--ratio", type=float, default=argparse.SUPPRESS)
    parser.add_argument("--z", type=float, default=argparse.SUPPRESS, help="Wilson score z")
    parser.add_argument("--n-terms", type=int, default=argparse.SUPPRESS)
    parser.add_argument("--resamples", dest="n_resamples", type=int, default=argparse.SUPPRESS,
                        help="resampled models behind each confidence (0: the rule's confidence alone)")
    parser.add_argument("--improvement-threshold", type=_threshold, default=argparse.SUPPRESS,
                        metavar="T|none")
    parser.add_argument("--confidence-threshold", type=_threshold, default=argparse.SUPPRESS,
                        metavar="C|none")
    parser.add_argument("--default-rule", choices=("on", "off"), default=None,
                        help="a last rule for the answers no learned rule covers (pipeline default if omitted)")
    parser.add_argument("--wording", choices=("on", "off"), default=None,
                        help="confidence weighed by the wording support of the mark (pipeline default if omitted)")
    parser.add_argument("--evidence-rules", choices=("on", "off"), default=None,
                        help="rules for a mark above the lowest rest on what the answer says (pipeline default if omitted)")
    parser.add_argument("--vote", choices=("on", "off"), default=None,
                        help="the mark most of the resampled rule lists give (pipeline default if omitted)")
    parser.add_argument("--vote-wording", choices=("on", "off"), default=None,
                        help="the vote also weighs how much each answer reads like the marked answers of each "
                             "mark (pipeline default if omitted)")
    parser.add_argument("--reader-features", choices=("on", "off"), default=None,
                        help="the wording model also reads the extractor's features (pipeline default if omitted)")
    parser.add_argument("--marks", choices=("listed", "read"), default="listed",
                        help="listed: each question lists its marks, lowest first, and its other no-credit "
                             "labels as no_credit; read: marks read off the answers, as for a question file without "
                             "marks: (words in no known order)")
    parser.add_argument("--list-confidence", choices=("on", "off"), default=None,
                        help="a mark's confidence is the share of the rule lists giving it; off: the rule's "
                             "confidence times the resamples' agreement (pipeline default if omitted)")
    parser.add_argument("--learner", choices=("confold", "boosted"), default=argparse.SUPPRESS,
                        help="the rule learner (pipeline default, confold, if omitted; boosted needs --resamples 0)")
    parser.add_argument("--target-accuracy", type=float, default=None, metavar="A",
                        help="also flag each question as grade --target-accuracy A does (its own "
                             "cross-validated marked answers; 5 more models per question and fold) and "
                             "print the share flagged and the accuracy left on the evaluation answers")
    parser.add_argument("--raw-confidence", dest="calibrated", action="store_false",
                        help="the models' raw confidences: no model is calibrated on its own training "
                             "answers as grader train calibrates it (5 fewer models per question and fold)")
    parser.add_argument("--predictions", type=Path, default=None, metavar="CSV",
                        help="write every evaluation answer's marks and confidences here")
    parser.add_argument("--compare", type=Path, default=None, metavar="CSV",
                        help="an earlier run's --predictions: count the questions that got better or worse")
    parser.add_argument("--initial-support", dest="min_initial_support", type=int, default=argparse.SUPPRESS,
                        metavar="K", help="marked answers a teacher's initial rule must mark rightly to be kept "
                                          "(pipeline default if omitted)")
    parser.add_argument("--baseline", action="store_true",
                        help="also a per-question decision tree on lemma presence and overlap with the reference "
                             "answers, trained and graded on the same answers (same folds): its accuracy beside "
                             "the model's per scheme, and on how many questions the model is better / same / "
                             "worse (needs scikit-learn: pip install -e '.[bench]'; not with --rubrics)")
    parser.add_argument("--rubrics", type=Path, default=None, metavar="DIR",
                        help="the rubric bench (grader.bench.beetle_rubric): DIR/<question_id>/question.yaml "
                             "and DIR/seen_ids.json; each question trained on --marked answers, with its rubric "
                             "and with the bare file, graded on the rest of the class")
    parser.add_argument("--marked", type=int, default=30, metavar="N",
                        help="with --rubrics: marked answers a question (the seen ones and others drawn)")
    parser.add_argument("--proposals", action="store_true",
                        help="with --rubrics: accept every concept and misconception grader suggest-rubric proposes "
                             "from the answers each model is trained on (bare file and rubric)")
    parser.add_argument("--train-only", action="store_true",
                        help="with --rubrics: grade only the other train answers (no test answer read)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    params = {name: getattr(args, name) for name in
              ("ratio", "z", "n_terms", "improvement_threshold", "confidence_threshold", "n_resamples",
               "learner", "min_initial_support")
              if hasattr(args, name)}
    if args.default_rule is not None:
        params["default_rule"] = args.default_rule == "on"
    if args.wording is not None:
        params["wording_support"] = args.wording == "on"
    if args.evidence_rules is not None:
        params["evidence_rules"] = args.evidence_rules == "on"
    if args.vote is not None:
        params["vote"] = args.vote == "on"
    if args.vote_wording is not None:
        params["vote_wording"] = args.vote_wording == "on"
    if args.reader_features is not None:
        params["reader_features"] = args.reader_features == "on"
    if args.marks == "read":
        params["marks_listed"] = False
    if args.list_confidence is not None:
        params["list_confidence"] = args.list_confidence == "on"
    if args.target_accuracy is not None:
        params["target_accuracy"] = args.target_accuracy
    if not args.calibrated:
        params["calibrated"] = False
    if args.baseline:  # said before any model is trained
        from grader.bench.beetle_baseline import sklearn_missing

        problem = "--baseline is not available with --rubrics" if args.rubrics is not None else sklearn_missing()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    if args.rubrics is not None:
        from grader.bench.beetle_rubric import report

        return report(args, params)
    before = None
    if args.compare:
        try:
            before = per_question_accuracy(pd.read_csv(args.compare, dtype=str, keep_default_na=False))
        except (OSError, KeyError, pd.errors.ParserError) as e:
            print(f"error: --compare {args.compare}: not a --predictions file of this benchmark ({e})",
                  file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    try:
        predictions, result = run(args.data, args.cv, params, args.jobs, args.seed, args.baseline)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    where = (f"{args.cv}-fold cross-validation on split=train (seed {args.seed})" if args.cv > 1
             else "trained on split=train, graded split=test")
    print(f"Beetle ({args.data}), {where}: {len(predictions)} answers, "
          f"{predictions.question_id.nunique()} questions, one GradingModel per question and "
          f"scheme, no rubric; training options {params or '(pipeline defaults)'} "
          f"[{time.perf_counter() - t0:.0f}s]")
    print(format_figures(result))
    print(format_spread(per_question_accuracy(predictions), before))
    by_confidence = scheme_reliability(predictions)
    print(format_reliability(by_confidence))
    calibration_error = scheme_calibration_error(predictions)
    print("calibration error (10 bins, mean gap between a confidence and the share right): "
          + ", ".join(f"{scheme} {e:.3f}" for scheme, e in calibration_error.items()))
    to_target = {}
    if args.target_accuracy is not None:
        to_target = {scheme: target_figures(
            np.array([relabel(y, scheme) for y in predictions.label_5way], dtype=object),
            predictions[f"mark_{scheme}"].to_numpy(dtype=object),
            predictions[f"confidence_{scheme}"].to_numpy(dtype=float),
            predictions[f"threshold_{scheme}"].to_numpy(dtype=float), predictions.question_id.to_numpy(),
            args.target_accuracy) for scheme in SCHEMES}
        print(format_target(args.target_accuracy, to_target))
    against_tree = None
    if args.baseline:
        from grader.bench.beetle_baseline import baseline_comparison, format_baseline

        against_tree = baseline_comparison(predictions)
        print(format_baseline(against_tree))
    if args.predictions:
        from grader.exams.exam_io import atomic_write_text

        atomic_write_text(args.predictions, predictions.to_csv(index=False))
    if args.json:
        from grader.exams.exam_io import atomic_write_text

        figures_json = {scheme: {source: {k: (None if isinstance(v, float) and math.isnan(v) else v)
                                          for k, v in f.items()}  # NaN is not JSON
                                 for source, f in sources.items()}
                        for scheme, sources in result.items()}
        bands = {scheme: [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
                          for r in rows] for scheme, rows in by_confidence.items()}
        report = {"data": str(args.data), "cv": args.cv, "seed": args.seed, "params": params,
                  "figures": figures_json, "reliability": bands, "target_accuracy": to_target,
                  "calibration_error": {k: None if math.isnan(v) else v for k, v in calibration_error.items()}}
        if against_tree is not None:
            report["baseline"] = against_tree
        atomic_write_text(args.json, json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
