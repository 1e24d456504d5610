"""`python -m grader.bench beetle --rubrics DIR --marked N`: what a teacher's rubric is worth.

A teacher writes a rubric for each question (`DIR/<question_id>/question.yaml`) from its text,
its reference answers and the answers `DIR/seen_ids.json` lists for it (15 a question), then
marks N answers in all: those, and N - 15 others drawn (seeded) from the question's
`split=train` answers. Graded: the rest of the class (the other train answers and the test
answers). Beside it, the bare question file (question text and reference answers, as the
plain `beetle` bench builds it) trained on the same N answers, graded on the same answers.
Then, on the test answers only: the bare file and the rubric each trained on every training
answer. Per question and pooled, 3-way and 2-way (unmarked answers count as wrong), with the
questions on which the rubric is better, the same or worse, and the spread across questions.

The rubrics are used as written; their rules give 5-way labels, mapped to a scheme as the
labels are (`beetle.relabel`). With `--train-only`, no test answer is read or graded: the rest
of the class is the other train answers (for development decisions). With `--proposals`, each
question file (bare and rubric) first gets every concept and misconception `grader
suggest-rubric` proposes from the answers that model is trained on (a teacher who accepts them
all). Every learned rule is read by the sensible-rules check (`grader.grading.sensible_rules`):
those that give no reason a teacher would accept for their mark are counted and listed.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd

from grader.bench.beetle_data import MARK_ORDER, load_beetle, relabel, train_and_grade
from grader.bench.parallel import run_tasks

SCHEMES = ("3way", "2way")
#: What each source is trained on and graded on: (short name, marked answers, graded answers).
SOURCES = {"bare_n": "bare + N", "rubric_n": "rubric + N", "bare_all": "bare + all", "rubric_all": "rubric + all"}


def load_rubrics(rubrics: Path, question_ids: list[str]) -> tuple[dict, dict[str, list[str]]]:
    """({question id: its rubric Question}, {question id: ids of the answers its writer saw}) for
    the questions that have a rubric folder; a clear error when the folder is not one."""
    from knowledge import load_question

    seen_file = rubrics / "seen_ids.json"
    if not seen_file.is_file():
        raise FileNotFoundError(f"{seen_file}: not found (--rubrics must be a folder with seen_ids.json "
                                f"and <question_id>/question.yaml)")
    try:
        seen = json.loads(seen_file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{seen_file}:{err.lineno}:{err.colno}: not JSON ({err.msg})") from None
    if not isinstance(seen, dict) or not all(isinstance(v, list) for v in seen.values()):
        raise ValueError(f"{seen_file}: expected {{question_id: [answer ids]}}")
    questions = {qid: load_question(rubrics / qid / "question.yaml") for qid in question_ids
                 if (rubrics / qid / "question.yaml").is_file()}
    if not questions:
        raise ValueError(f"{rubrics}: no <question_id>/question.yaml for any question of the data")
    return questions, {qid: [str(i) for i in ids] for qid, ids in seen.items()}


def for_scheme(question, scheme: str):
    """The rubric with its rules' marks mapped to `scheme` (the labels' mapping)."""
    def mapped(items):
        out = []
        for item in items:
            if getattr(item, "head", None) is not None:
                item = dataclasses.replace(copy.deepcopy(item), head=relabel(str(item.head), scheme))
            out.append(item)
        return tuple(out)

    return dataclasses.replace(question, background=mapped(question.background),
                               initial_rules=mapped(question.initial_rules), marks=())


def marked_ids(train: pd.DataFrame, seen: list[str], n: int, seed: int, index: int) -> list[str]:
    """The seen answers, then n - len(seen) other train answers drawn with a seed of their own
    per question (`index`); every train answer when there are no more than n."""
    ids = train.id.tolist()
    absent = [i for i in seen if i not in set(ids)]
    if absent:
        raise ValueError(f"seen_ids.json names {absent[0]!r}, which is not a train answer of its question")
    others = [i for i in ids if i not in set(seen)]
    k = max(0, min(n - len(seen), len(others)))
    drawn = np.random.default_rng([seed, index]).choice(len(others), size=k, replace=False)
    return list(seen) + [others[i] for i in sorted(drawn)]


def accepted(question, marked: pd.DataFrame, scheme: str):
    """`question` with every proposal `grader suggest-rubric` makes from `marked` accepted."""
    from grader.grading.rubric_proposals import added_to, propose

    marks = [relabel(y, scheme) for y in marked.label_5way]
    return added_to(question, propose(question, marked.id.tolist(), marked.answer.tolist(), marks,
                                      order=MARK_ORDER[scheme]))


def grade_question(record: dict, rubric, group: pd.DataFrame, seen: list[str], n: int, seed: int,
                   index: int, params: dict, train_only: bool, proposals: bool = False
                   ) -> tuple[pd.DataFrame, list[dict]]:
    """One row per graded answer of the question: its labels and each source's marks (the
    "all" sources on test answers only); and the learned rules the sensible-rules check finds."""
    from grader.grading.sensible_rules import unsensible_rules

    from knowledge.schema import Question

    bare = Question(record["question_id"], record["question"], tuple(record["reference_answers"]))
    train = group[group.split == "train"].reset_index(drop=True)
    chosen = set(marked_ids(train, seen, n, seed, index))
    marked = train[train.id.isin(chosen)].reset_index(drop=True)
    rest = group[~group.id.isin(chosen) & ((group.split == "train") | (not train_only))].reset_index(drop=True)
    test = rest[rest.split == "test"].reset_index(drop=True)
    out = pd.DataFrame({"question_id": bare.id, "id": rest.id.to_numpy(), "split": rest.split.to_numpy(),
                        "label_5way": rest.label_5way.to_numpy()})
    params = {**params, "calibrated": False}  # only the marks are compared: no confidence needed
    found: list[dict] = []
    for scheme in SCHEMES:
        question = {"bare": bare, "rubric": for_scheme(rubric, scheme)}
        for kind in ("bare", "rubric"):
            models: list = []
            q = accepted(question[kind], marked, scheme) if proposals else question[kind]
            marks, _, _ = train_and_grade(q, marked, rest, scheme, params, models)
            out[f"{kind}_n_{scheme}"] = pd.Series(marks, dtype=object).to_numpy()
            column = np.full(len(rest), None, dtype=object)
            if len(test):
                q = accepted(question[kind], train, scheme) if proposals else question[kind]
                marks, _, _ = train_and_grade(q, train, test, scheme, params, models)
                column[np.flatnonzero(rest.split.to_numpy() == "test")] = marks
            out[f"{kind}_all_{scheme}"] = column
            for model, source in zip(models, ("n", "all")):
                found += [{"question_id": bare.id, "scheme": scheme, "source": f"{kind}_{source}", "rule": rule,
                           "why": why} for rule, why in unsensible_rules(model, MARK_ORDER[scheme][:1])]
    return out, found


def run(data: Path, rubrics: Path, n: int, params: dict | None = None, jobs: int = 1, seed: int = 0,
        train_only: bool = False, proposals: bool = False) -> pd.DataFrame:
    """Grade every question that has a rubric (in `jobs` processes); the rows of `grade_question`,
    with the sensible-rules check's findings in `.attrs["unsensible"]` (a DataFrame)."""
    if n < 1:
        raise ValueError(f"--marked must be a number of answers, at least those the rubric's writer saw; got {n}")
    questions, answers = load_beetle(data)
    if "id" not in answers.columns:
        raise ValueError(f"{data / 'answers.csv'}: no column id (the rubric bench needs the answers' ids)")
    rubric_of, seen = load_rubrics(rubrics, sorted(questions))
    short = [qid for qid in rubric_of if len(seen.get(qid, ())) > n]
    if short:
        raise ValueError(f"--marked {n} is fewer than the {len(seen[short[0]])} answers the rubric of "
                         f"{short[0]} was written from")
    tasks = [(questions[qid], rubric_of[qid], group, seen.get(qid, []), n, seed, i, dict(params or {}), train_only,
              proposals)
             for i, (qid, group) in enumerate(answers.groupby("question_id", sort=True)) if qid in rubric_of]
    parts = run_tasks(grade_question, tasks, jobs)
    rows = pd.concat([p[0] for p in parts], ignore_index=True)
    rows.attrs["unsensible"] = pd.DataFrame([f for p in parts for f in p[1]],
                                            columns=["question_id", "scheme", "source", "rule", "why"])
    return rows


def accuracy(rows: pd.DataFrame, source: str, scheme: str) -> pd.Series:
    """Per question: the share of `rows` `source` marks as the label (unmarked: wrong)."""
    truth = np.array([relabel(y, scheme) for y in rows.label_5way], dtype=object)
    right = pd.Series(truth == rows[f"{source}_{scheme}"].to_numpy(dtype=object), index=rows.index)
    return right.groupby(rows.question_id.to_numpy()).mean()


def pooled(rows: pd.DataFrame, source: str, scheme: str) -> float:
    truth = np.array([relabel(y, scheme) for y in rows.label_5way], dtype=object)
    return float((truth == rows[f"{source}_{scheme}"].to_numpy(dtype=object)).mean()) if len(rows) else float("nan")


def _counts(better: pd.Series, worse: pd.Series) -> str:
    diff = (better - worse).dropna()
    return f"{int((diff > 1e-9).sum())} / {int((diff.abs() <= 1e-9).sum())} / {int((diff < -1e-9).sum())}"


def summary(rows: pd.DataFrame) -> dict:
    """Pooled figures, per-question counts and accuracies, per scheme."""
    test = rows[rows.split == "test"]
    out = {}
    for scheme in SCHEMES:
        per_q = {s: accuracy(rows, s, scheme) for s in ("bare_n", "rubric_n")}
        per_q.update({f"test {s}": accuracy(test, s, scheme) for s in ("rubric_n", "bare_all", "rubric_all")})
        out[scheme] = {
            "pooled": {s: pooled(rows, s, scheme) for s in ("bare_n", "rubric_n")}
            | {f"test {s}": pooled(test, s, scheme) for s in ("rubric_n", "bare_all", "rubric_all")},
            "rubric_n vs bare_n": _counts(per_q["rubric_n"], per_q["bare_n"]),
            "test rubric_all vs bare_all": _counts(per_q["test rubric_all"], per_q["test bare_all"]),
            "test rubric_n vs bare_all": _counts(per_q["test rubric_n"], per_q["test bare_all"]),
            "per_question": pd.DataFrame(per_q)}
    return out


def format_summary(result: dict, has_test: bool) -> str:
    """The table of pooled figures, then the spread across questions."""
    head = f"{'scheme':6s} {'bare + N':>8s} {'rubric + N':>10s}  {'rubric vs bare: better / same / worse':>37s}"
    if has_test:
        head += (f" | test: {'rubric + N':>10s} {'bare + all':>10s} {'rubric + all':>12s}  "
                 f"rubric + all vs bare + all")
    lines = [head]
    for scheme, r in result.items():
        p = r["pooled"]
        line = f"{scheme:6s} {p['bare_n']:8.3f} {p['rubric_n']:10.3f}  {r['rubric_n vs bare_n']:>37s}"
        if has_test:
            line += (f" |       {p['test rubric_n']:10.3f} {p['test bare_all']:10.3f} {p['test rubric_all']:12.3f}  "
                     f"{r['test rubric_all vs bare_all']}")
        lines.append(line)
    lines += ["", f"per question:{'':19s}{'min':>6s} {'25%':>6s} {'median':>6s} {'75%':>6s} {'max':>6s}"]
    for scheme, r in result.items():
        for column, values in r["per_question"].items():
            if values.notna().any() and (has_test or not column.startswith("test")):
                q = values.dropna().quantile([0, 0.25, 0.5, 0.75, 1]).to_numpy()
                lines.append(f"  {scheme} {column:24s}" + " ".join(f"{v:6.3f}" for v in q))
    return "\n".join(lines)


def format_unsensible(found: pd.DataFrame, shown: int = 10) -> str:
    """How many learned rules give no reason a teacher would accept, per source, and the first few."""
    if found.empty:
        return "\nsensible rules: every learned rule for a mark above the lowest rests on what the answer says"
    counts = found.groupby(["source", "why"]).size()
    lines = ["", f"sensible rules: {len(found)} learned rule(s) give no reason a teacher would accept "
                 f"(per source and reason):"]
    lines += [f"  {source:11s} {n:4d}  {why}" for (source, why), n in counts.items()]
    lines += [f"  {r.question_id} {r.scheme} {r.source}: {r.rule}" for r in found.head(shown).itertuples()]
    return "\n".join(lines)


def report(args, params: dict) -> int:
    """Run the rubric bench for `beetle.main`'s arguments; print and write what they ask for."""
    import sys
    import time

    t0 = time.perf_counter()
    try:
        rows = run(args.data, args.rubrics, args.marked, params, args.jobs, args.seed, args.train_only,
                   args.proposals)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    result = summary(rows)
    has_test = bool((rows.split == "test").any())
    print(f"Beetle rubric bench ({args.data}, rubrics {args.rubrics}"
          f"{', every proposal of suggest-rubric accepted' if args.proposals else ''}): {args.marked} marked answers a question "
          f"(those the rubric was written from and others drawn with seed {args.seed}); graded the rest of the "
          f"class: {len(rows)} answers ({int((rows.split == 'test').sum())} test), {rows.question_id.nunique()} "
          f"questions; training options {params or '(pipeline defaults)'} [{time.perf_counter() - t0:.0f}s]")
    print(format_summary(result, has_test))
    print(format_unsensible(rows.attrs["unsensible"]))
    if args.predictions:
        from grader.exams.exam_io import atomic_write_text

        atomic_write_text(args.predictions, rows.to_csv(index=False))
    if args.json:
        from grader.exams.exam_io import atomic_write_text

        figures = {scheme: {k: (v.round(4).to_dict() if isinstance(v, pd.DataFrame) else v) for k, v in r.items()}
                   for scheme, r in result.items()}
        unsensible = rows.attrs["unsensible"].to_dict(orient="records")
        atomic_write_text(args.json, json.dumps({"data": str(args.data), "rubrics": str(args.rubrics),
                                                 "marked": args.marked, "seed": args.seed, "params": params,
                                                 "proposals": args.proposals, "figures": figures,
                                                 "unsensible_rules": unsensible}, indent=1, default=str) + "\n")
    return 0
