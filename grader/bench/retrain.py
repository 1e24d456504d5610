"""`python -m grader.bench retrain [--answers 250] [--reviews 10] [--repeat 3] [--before]`

What a marker waits for in the app (issue 17): (a) a rubric edit saved until the new marks
are shown, (b) a batch of reviews learned until the new marks are shown, (c) the Marks view
opened until it can be drawn. It drives the functions the app's views call (not Streamlit):
`knowledge.save_question_text`, `review_training.write_extended_training`,
`open_exam(previous=...)` (what `grader.app.ui.get_session` runs), `CrossValidations.state`
(the Marks view and the retrain report; the cross-validation runs in a worker process, as in
the app) and prints the wall
and CPU seconds of each, with the steps inside (features, main fit, resamples, wording
model, vote and grading, model files, cross-validation) and when the background
cross-validation was done.

On the three sample questions (the sample exam) and on a question with `--answers` marked
answers, all distinct (vertical_throw's, with variants worded differently added), graded
on the sample export's answers.

`--before`: the app's flow before issue 17, for comparison: the whole exam opened again
after a change and the cross-validation of both models waited for (the retrain report
showed their figures at once), and the Marks view cross-validating every question first.
"""

from __future__ import annotations

import argparse
import logging
import re
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: Words appended to a marked answer to make another distinct one (the mark stays right).
VARIANTS = (" I think.", " That is my answer.", " (my final answer)", " As we learned in class.",
            " I am fairly sure.", " That is what I remember.", " Hope this is right.", " See above.")


class Steps:
    """Wall and CPU seconds per step, each call counted once: a step's time leaves out the
    steps timed inside it, except inside an `opaque` step (cross-validation trains whole
    models: its inner steps are its own time)."""

    def __init__(self):
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self._stack: list[list] = []

    def wrap(self, owner, name: str, step: str, opaque: bool = False) -> None:
        import inspect

        static = inspect.getattr_static(owner, name)
        is_class_method = isinstance(static, classmethod)
        original = static.__func__ if is_class_method else getattr(owner, name)
        steps = self

        def timed(*args, **kwargs):
            if steps._stack and steps._stack[-1][3]:
                return original(*args, **kwargs)
            frame = [time.perf_counter(), time.process_time(), [0.0, 0.0], opaque]
            steps._stack.append(frame)
            try:
                return original(*args, **kwargs)
            finally:
                steps._stack.pop()
                wall, cpu = time.perf_counter() - frame[0], time.process_time() - frame[1]
                steps.wall[step] = steps.wall.get(step, 0.0) + wall - frame[2][0]
                steps.cpu[step] = steps.cpu.get(step, 0.0) + cpu - frame[2][1]
                if steps._stack:
                    steps._stack[-1][2][0] += wall
                    steps._stack[-1][2][1] += cpu

        timed.__wrapped__ = original
        setattr(owner, name, classmethod(timed) if is_class_method else timed)

    def reset(self) -> None:
        self.wall, self.cpu = {}, {}


def instrument(before: bool) -> Steps:
    """Time the steps of a retrain where they are defined (the app's code runs unchanged)."""
    from features import FeatureExtractor
    from grader.app import session
    from grader.confold import ConFold
    from grader.grading import agreement, model, training, wording

    steps = Steps()
    import knowledge

    steps.wrap(knowledge, "save_question_text", "rubric checked and saved")
    steps.wrap(session, "load_question", "read and check the question file")
    steps.wrap(session, "read_exam_answers", "read the export")
    steps.wrap(session, "proposed_table", "marks table")
    steps.wrap(training, "validate_rules", "rules checked against the features")
    if hasattr(session, "question_inputs"):
        steps.wrap(session, "question_inputs", "what changed (hashes)")
    try:
        from grader.app.cross_validation import CrossValidations
        steps.wrap(CrossValidations, "state", "cross-validation asked for (background)")
    except ImportError:
        pass
    steps.wrap(session, "read_marked_answers", "read the marked answers")
    steps.wrap(FeatureExtractor, "fit_transform", "features of the marked answers")
    steps.wrap(ConFold, "fit", "main fit")
    if hasattr(agreement, "PendingAgreement"):  # learned in worker processes when the app has them
        steps.wrap(agreement.ResampledAgreement, "start", "resamples: drawn and sent")
        steps.wrap(agreement.PendingAgreement, "result", "resamples: learned or waited for")
    else:
        steps.wrap(agreement.ResampledAgreement, "fit", "resamples: learned or waited for")
    steps.wrap(wording.WordingSupport, "fit", "wording model")
    steps.wrap(model.GradingModel, "save", "model file written")
    steps.wrap(model.GradingModel, "features", "features of the exam's answers")
    steps.wrap(model.GradingModel, "grade", "vote, agreement and grading")
    if before:  # now it runs in the worker process (which needs it as it is, to find it)
        try:
            from grader.app import cross_validation
            steps.wrap(cross_validation, "evaluate_to_file", "cross-validation (waited for)", opaque=True)
        except ImportError:  # the code before issue 17: evaluate lived in the session module
            steps.wrap(session, "evaluate", "cross-validation (waited for)", opaque=True)
    steps.wrap(model.GradingModel, "load", "models loaded from their files")
    return steps


def distinct_marked(answers: list[str], marks: list[str], n: int) -> tuple[list[str], list[str]]:
    """n marked answers, all distinct: the given ones, then variants with words appended."""
    out, out_marks, seen = [], [], set()
    for variant in ("",) + VARIANTS:
        for a, m in zip(answers, marks):
            text = a + variant
            if text not in seen:
                seen.add(text)
                out.append(text)
                out_marks.append(m)
            if len(out) == n:
                return out, out_marks
    raise SystemExit(f"cannot make {n} distinct answers from {len(answers)} (at most {len(seen)})")


def setup(workdir: Path, n_answers: int):
    """(settings, [sample exam, generated exam]) in a fresh working folder."""
    from grader.app.session import prepare_sample
    from grader.app.settings import AppSettings
    from grader.exams.exam_io import csv_text, read_marked_answers

    settings = AppSettings(workdir=workdir, db_path=workdir / "reviews.sqlite",
                           sample_exam=REPO / "sample_data" / "exam" / "exam.yaml", marker="bench",
                           max_upload_mb=20.0, flag_below=0.7, serve_dir=workdir)
    sample = prepare_sample(settings)
    base = sample.parent.parent / "vertical_throw"
    folder = sample.parent.parent / f"generated_{n_answers}"
    folder.mkdir()
    qid = f"vertical_throw_{n_answers}"
    text = (base / "question.yaml").read_text(encoding="utf-8")
    (folder / "question.yaml").write_text(re.sub(r"(?m)^id: .*$", f"id: {qid}", text, count=1), encoding="utf-8")
    marked = read_marked_answers(base / "marked.csv")
    answers, marks = distinct_marked(list(marked.answers), list(marked.marks), n_answers)
    (folder / "marked.csv").write_text(csv_text(["id", "answer", "mark"], [[f"g{i}", a, m] for i, (a, m) in
                                                                          enumerate(zip(answers, marks))]),
                                       encoding="utf-8")
    exam = sample.parent / f"exam-{n_answers}.yaml"
    exam.write_text(f"""name: "{n_answers} marked answers (generated)"
answers: responses.csv
layout: wide
id_column: Email address
questions:
  - id: {qid}
    question: ../{folder.name}/question.yaml
    column: Response 1
    training: ../{folder.name}/marked.csv
""", encoding="utf-8")
    return settings, [sample, exam]


def edited(text: str, k: int) -> str:
    """The question file with one more phrase for its first concept (as a teacher adds a synonym)."""
    new, n = re.subn(r"phrases: \[", f"phrases: [bench synonym {k}, ", text, count=1)
    if not n:
        raise SystemExit("the question file has no 'phrases: [' list to edit")
    return new


@contextmanager
def clock(out: dict, workers=None):
    w, c, k = time.perf_counter(), time.process_time(), workers_cpu(workers)
    yield
    out["wall"], out["cpu"] = time.perf_counter() - w, time.process_time() - c
    out["workers_cpu"] = workers_cpu(workers) - k


def _reopen(session, settings, before: bool, workers=None):
    from grader.app.session import open_exam
    if before:
        return open_exam(session.path, settings)
    return open_exam(session.path, settings, previous=session, executor=workers)


def workers_cpu(executor) -> float:
    """CPU seconds used so far by the worker processes of `executor` (Linux /proc)."""
    import os

    total = 0.0
    for pid in list(getattr(executor, "_processes", None) or {}):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def _figures(cv, qs, settings, before: bool):
    """What the view does for a model's figures: wait for them (before), or look them up."""
    if before:
        try:
            from grader.app.session import evaluate
        except ImportError:
            from grader.app.cross_validation import evaluate
        return evaluate(qs, settings.workdir / "models")
    return cv.state(qs)


def _wait_all(cv, sessions, start: float) -> float | None:
    """Seconds from `start` until every cross-validation of `sessions` is done (None: failed)."""
    from grader.app.cross_validation import FAILED
    for qs in sessions:
        status, value = cv.wait(qs, timeout=600)
        if status == FAILED:
            print(f"    cross-validation of {qs.id} failed: {value}")
            return None
    return time.perf_counter() - start


def _row(label: str, t: dict, steps: Steps, cv_after: float | None) -> dict:
    return {"step": label, "wall": t["wall"], "cpu": t["cpu"], "workers_cpu": t.get("workers_cpu", 0.0),
            "parts": dict(steps.wall),
            "parts_cpu": dict(steps.cpu), "cv_after": cv_after}


def run_exam(exam: Path, settings, steps: Steps, cv, args, workers=None) -> list[dict]:
    import knowledge
    from grader.app.review_store import Decision
    from grader.app.review_training import write_extended_training
    from grader.app.session import open_exam

    rows = []
    t: dict = {}
    with clock(t):
        session = open_exam(exam, settings)
    print(f"\n{session.name}: {', '.join(f'{q} ({qs.training_size} marked)' for q, qs in session.questions.items())}; "
          f"opened with every model trained in {t['wall']:.2f} s wall")
    # (c) the Marks view opened, no question cross-validated yet
    steps.reset()
    start = time.perf_counter()
    with clock(t):
        for qs in session.questions.values():
            _figures(cv, qs, settings, args.before)
    cv_after = None if args.before else _wait_all(cv, session.questions.values(), start)
    rows.append(_row("(c) Marks view opened", t, steps, cv_after))
    for qid in session.questions:
        for k in range(args.repeat):
            # (a) a rubric edit saved
            qs = session.questions[qid]
            text = edited(knowledge.read_question_file_text(qs.question_path), k)
            steps.reset()
            start = time.perf_counter()
            with clock(t, workers):
                if args.before:
                    _figures(cv, qs, settings, True)  # the figures of the model before (kept)
                knowledge.save_question_text(qs.question_path, text)
                session = _reopen(session, settings, args.before, workers)
                _figures(cv, session.questions[qid], settings, args.before)
            cv_after = None if args.before else _wait_all(cv, [session.questions[qid]], start)
            rows.append(_row(f"(a) rubric edit of {qid}", t, steps, cv_after))
        decided: dict = {}
        for k in range(args.repeat):
            # (b) a batch of reviews learned: the next `reviews` answers, each given another mark
            qs = session.questions[qid]
            table = qs.table.reset_index(drop=True)
            chosen = table.iloc[k * args.reviews:(k + 1) * args.reviews]
            if len(chosen) < args.reviews:
                break
            marks = list(qs.marks)
            decisions = {(qid, a): Decision(i + 1, session.exam_id, qid, a, "bench", "", p,
                                            marks[(marks.index(p) + 1) % len(marks)] if p in marks else marks[0],
                                            "", 0)
                         for i, (a, p) in enumerate(zip(chosen["answer_id"], chosen["proposed"]))}
            decided.update(decisions)
            steps.reset()
            start = time.perf_counter()
            with clock(t, workers):
                if args.before:
                    _figures(cv, qs, settings, True)
                write_extended_training(settings, session, qid, decided)
                session = _reopen(session, settings, args.before, workers)
                _figures(cv, session.questions[qid], settings, args.before)
            cv_after = None if args.before else _wait_all(cv, [session.questions[qid]], start)
            rows.append(_row(f"(b) {args.reviews} reviews of {qid} learned", t, steps, cv_after))
    return rows


def report(rows: list[dict]) -> None:
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r["step"], []).append(r)
    for label, rs in groups.items():
        wall = statistics.median(r["wall"] for r in rs)
        cpu = statistics.median(r["cpu"] for r in rs)
        cvs = [r["cv_after"] for r in rs if r["cv_after"] is not None]
        tail = f"; cross-validation done in the background after {statistics.median(cvs):.2f} s" if cvs else ""
        walls = ", ".join(f"{r['wall']:.2f}" for r in rs)
        runs = f" (median of {len(rs)}: {walls})" if len(rs) > 1 else ""
        workers = statistics.median(r["workers_cpu"] for r in rs)
        meanwhile = f" (+ {workers:.2f} s CPU in the worker processes meanwhile)" if workers else ""
        print(f"  {label}: {wall:.2f} s wall, {cpu:.2f} s CPU{meanwhile} until the marks are shown{runs}{tail}")
        parts = sorted({p for r in rs for p in r["parts"]}, key=lambda p: -statistics.median(
            r["parts"].get(p, 0.0) for r in rs))
        for p in parts:
            pw = statistics.median(r["parts"].get(p, 0.0) for r in rs)
            pc = statistics.median(r["parts_cpu"].get(p, 0.0) for r in rs)
            print(f"      {p:<36} {pw:6.3f} s wall {pc:6.3f} s CPU")
        rest_w = wall - sum(statistics.median(r["parts"].get(p, 0.0) for r in rs) for p in parts)
        rest_c = cpu - sum(statistics.median(r["parts_cpu"].get(p, 0.0) for r in rs) for p in parts)
        print(f"      {'everything else':<36} {max(0.0, rest_w):6.3f} s wall {max(0.0, rest_c):6.3f} s CPU"
              "  (the total's median less the steps' medians)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m grader.bench retrain", description=__doc__.split("\n\n")[1])
    ap.add_argument("--answers", type=int, default=250, help="marked answers of the generated question")
    ap.add_argument("--reviews", type=int, default=10, help="reviewed answers learned at once")
    ap.add_argument("--repeat", type=int, default=3, help="edits and batches of reviews per question")
    ap.add_argument("--only", choices=("sample", "generated"), help="only one of the two exams")
    ap.add_argument("--workers", type=int, default=2,
                    help="worker processes learning the resamples, as in the app (0: none)")
    ap.add_argument("--before", action="store_true", help="the app's flow before issue 17 (see above)")
    ap.add_argument("--keep", type=Path, help="work in this (new) folder and keep it")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    steps = instrument(args.before)
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="bench-retrain-"))
    workdir.mkdir(parents=True, exist_ok=True)
    cv = workers = None
    try:
        settings, exams = setup(workdir, args.answers)
        if not args.before:
            from grader.app.background import BackgroundJobs, process_executor
            from grader.app.cross_validation import CrossValidations
            cv = CrossValidations(settings.workdir / "models", BackgroundJobs(process_executor))
            if args.workers:  # as the app starts them (grader.app.ui.train_workers), warm
                workers = process_executor(args.workers, warm=("grader.grading.agreement",))
                for job in [workers.submit(time.sleep, 0.5) for _ in range(args.workers)]:
                    job.result()
        if args.only:
            exams = exams[:1] if args.only == "sample" else exams[1:]
        flow = "before issue 17" if args.before else f"the app now, {args.workers} worker processes"
        print(f"flow: {flow}; {args.reviews} reviews per batch, {args.repeat} edits and batches per question")
        for exam in exams:
            report(run_exam(exam, settings, steps, cv, args, workers))
    finally:
        if cv is not None:
            cv.jobs.shutdown()
        if workers is not None:
            workers.shutdown()
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
