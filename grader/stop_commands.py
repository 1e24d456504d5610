"""The stop estimate on the command line: `grader suggest|grade ... --checked checks.csv [--stop-target A]`.

`grader.grading.stop` says, from random spot checks of the machine's marks kept out of
training, whether the teacher can stop marking. Here the checks are read from a file (id,
answer, mark: the teacher's mark of answers drawn at random among the machine's marks), the
class is the exam's unmarked answers as the current model marks them, and when more checks are
needed the answers to check are drawn at random (seeded: the same draw for the same files).
Kept apart from `grader.general_commands` so that each module stays one idea.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from grader.grading.defaults import DEFAULT_STOP_TARGET  # unless --stop-target says otherwise
from grader.output_guard import STOP_FORMAT


def add_arguments(p: argparse.ArgumentParser, input_file, fraction) -> None:
    """`--checked` and `--stop-target` on a command's parser."""
    p.add_argument("--checked", action=input_file, what="answers file", default=None, metavar="checks.csv",
                   help="spot checks: answers drawn at random among the machine's marks and marked by you "
                        "(id, answer, mark; with grade --exam id, question, mark), kept out of the marked "
                        "answers; they say whether you can stop marking")
    p.add_argument("--stop-target", type=fraction, default=DEFAULT_STOP_TARGET, metavar="A",
                   help=f"the accuracy the stop estimate vouches for (default {DEFAULT_STOP_TARGET})")


def stop_report(args: argparse.Namespace, question, model, ids: Sequence[str], texts: Sequence[str],
                marks: Sequence[str | None], warn) -> dict:
    """{"advice": StopAdvice.to_dict(), "check": ids to check next} for the exam's answers not
    marked yet, as `model` marks them (no model: nothing is left to the machine)."""
    import numpy as np

    open_ = np.asarray([m is None for m in marks], dtype=bool)
    if model is None:
        return _advise(args, question.marks, ids, np.full(len(texts), None, dtype=object),
                       np.full(len(texts), np.nan), np.zeros(len(texts), dtype=bool), warn, open_)
    graded = model.grade(list(texts))
    return _advise(args, question.marks, ids, graded["mark"].to_numpy(dtype=object),
                   graded["confidence"].to_numpy(dtype=float), open_ & ~graded["flagged"].to_numpy(dtype=bool),
                   warn, open_)


def graded_stop_report(args: argparse.Namespace, marks_scale: Sequence[str], warn) -> dict:
    """The same for `grader grade --model`: the class is the graded output `args.out` (its
    mark, confidence and flagged columns; ids from `--id-column`, else an id column, else the
    row numbers, as the answers files are read)."""
    import numpy as np
    import pandas as pd

    from grader.exams.exam_io import read_table, resolve_column

    frame, rows, _ = read_table(args.out)
    id_column = args.id_column or "id"
    if args.id_column or any(c.strip().casefold() == "id" for c in frame.columns):
        ids = [str(i).strip() for i in frame[resolve_column(id_column, frame.columns, args.out, "id column")]]
    else:
        ids = [str(r) for r in rows]
    proposed = frame["mark"].to_numpy(dtype=object)
    proposed = np.where(proposed == "", None, proposed)
    confidence = pd.to_numeric(frame["confidence"], errors="coerce").to_numpy(dtype=float)
    machine = (frame["flagged"].to_numpy(dtype=object) == "no") & np.asarray([p is not None for p in proposed])
    return _advise(args, marks_scale, ids, proposed, confidence, machine, warn, np.ones(len(ids), dtype=bool))


def exam_stop_report(args: argparse.Namespace, exam, warn) -> dict:
    """The stop estimate of `grader grade --exam`: per question of the graded output `args.out`
    and pooled over the exam (one class is often too few answers to vouch for the target
    alone). `--checked` has a question column beside id and mark (the exam's question ids);
    a check of an answer the question's model learned from is refused."""
    import numpy as np
    import pandas as pd

    from grader.exams.exam_io import read_marked_answers, read_table, resolve_column, written_text
    from grader.exams.grade_files import question_rows
    from grader.grading.stop import stop_advice
    from knowledge import load_question

    export, rows, _ = read_table(exam.answers)
    graded, _, _ = read_table(args.out)
    id_name = args.id_column or exam.id_column
    students = ([str(i).strip() for i in export[resolve_column(id_name, export.columns, exam.answers, "id column")]]
                if id_name else [f"row {r}" for r in rows])
    checks = _exam_checks(args, exam, warn) if args.checked is not None else {}
    parts, per_question = [], {}
    for q in exam.questions:
        at, prefix = question_rows(exam, export, q.id)
        ids = [students[i] for i in at]
        proposed = np.asarray([written_text(m) or None for m in graded[f"{prefix}mark"].to_numpy(object)[at]],
                              dtype=object)
        confidence = pd.to_numeric(graded[f"{prefix}confidence"], errors="coerce").to_numpy(float)[at]
        machine = (graded[f"{prefix}flagged"].to_numpy(object)[at] == "no") & np.asarray(
            [p is not None for p in proposed], dtype=bool)
        mine = checks.get(q.id, {})
        trained = set(read_marked_answers(q.training, marks=tuple(getattr(load_question(q.question), "marks", ())
                                                                  or ())).ids) if q.training and mine else set()
        if trained & set(mine):
            raise ValueError(f"{args.checked}: answer(s) {', '.join(map(repr, sorted(trained & set(mine))[:5]))} "
                             f"of {q.id} are also in its marked answers {q.training}: a spot check must be kept "
                             f"out of the marked answers the model learns from")
        position = _first_rows(ids)
        unknown = [c for c in mine if c not in position]
        if unknown:
            warn([f"{args.checked}: {len(unknown)} checked answer(s) of {q.id} are not in {exam.answers} (ids "
                  f"{', '.join(map(repr, unknown[:5]))}): left out of the estimate"])
        checked = np.zeros(len(ids), dtype=bool)
        right = np.zeros(len(ids), dtype=bool)
        for answer_id, mark in mine.items():
            if answer_id in position:
                checked[position[answer_id]] = True
                right[position[answer_id]] = proposed[position[answer_id]] == mark
        parts.append((q.id, ids, confidence, machine, checked, right))
        per_question[q.id] = _report(stop_advice(confidence, machine, checked, right, args.stop_target,
                                                 class_size=len(ids)), ids, machine, checked)
    joined = [np.concatenate([p[k] for p in parts]) for k in (2, 3, 4, 5)]
    pooled_ids = [f"{qid}: {i}" for qid, ids, *_ in parts for i in ids]
    pooled = _report(stop_advice(*joined, args.stop_target, class_size=len(pooled_ids)), pooled_ids, joined[1],
                     joined[2])
    return {"questions": per_question, "pooled": pooled}


def _exam_checks(args: argparse.Namespace, exam, warn) -> dict[str, dict[str, str]]:
    """{question id: {answer id: the teacher's mark}} from `--checked` (columns id, question,
    mark); a question the exam does not have, or a mark not on its scale, is an error naming the row."""
    from grader.exams.exam_io import read_table, resolve_column
    from knowledge import load_question

    frame, rows, _ = read_table(args.checked)
    column = {what: resolve_column(name, frame.columns, args.checked, f"{what} column")
              for what, name in (("id", args.id_column or "id"), ("question", "question"),
                                 ("mark", getattr(args, "mark_column", None) or "mark"))}
    scales = {q.id: tuple(getattr(load_question(q.question), "marks", ()) or ()) if q.question else ()
              for q in exam.questions}
    out: dict[str, dict[str, str]] = {}
    for r, answer_id, qid, mark in zip(rows, frame[column["id"]], frame[column["question"]], frame[column["mark"]]):
        answer_id, qid, mark = str(answer_id).strip(), str(qid).strip(), str(mark).strip()
        if qid not in scales:
            raise ValueError(f"{args.checked}, row {r}: question {qid!r} is not one of the exam's "
                             f"({', '.join(scales)})")
        if scales[qid] and mark not in scales[qid]:
            raise ValueError(f"{args.checked}, row {r}: mark {mark!r} is not one of {qid}'s marks "
                             f"({', '.join(scales[qid])})")
        if answer_id in out.setdefault(qid, {}):
            raise ValueError(f"{args.checked}, row {r}: {answer_id!r} of {qid} is checked twice")
        out[qid][answer_id] = mark
    return out


def _first_rows(ids: Sequence[str]) -> dict[str, int]:
    """{id: its first row}: the row a check of that id is read for, when an id is on several
    rows (a student's two attempts)."""
    return {answer_id: i for i, answer_id in reversed(list(enumerate(ids)))}


def _report(advice, ids: Sequence[str], machine, checked) -> dict:
    """{"advice", "check": ids to check next, drawn at random (seeded) among the machine's marks}.
    An id on several rows (a student's two attempts) is drawn only as its first row, the one a
    check of that id is read for (`--checked`): "check sean, sean" could not be recorded."""
    import numpy as np

    first = np.zeros(len(ids), dtype=bool)
    first[sorted(_first_rows(ids).values())] = True
    pool = np.flatnonzero(machine & ~checked & first)
    draw = np.random.default_rng(0).permutation(pool)[:advice.more_checks] if advice.action == "check" else []
    return {"advice": advice.to_dict(), "check": [ids[i] for i in sorted(draw)]}


def exam_stop_lines(report: dict) -> list[str]:
    """`exam_stop_report` as the teacher reads it: each question, then the exam pooled."""
    from grader.grading.stop import POOLED

    lines = []
    for label, part in [*report["questions"].items(), (POOLED, report["pooled"])]:
        lines += [f"{label}: {line}" for line in stop_lines(part)]
    return lines


def write_json(path, report: dict) -> None:
    """The stop estimate for scripts (`grader grade --json`), written atomically."""
    import json

    from grader.atomic_file import atomic_write_text

    atomic_write_text(path, json.dumps({"format": STOP_FORMAT, **report}, indent=1, ensure_ascii=False) + "\n")


def _advise(args: argparse.Namespace, marks_scale: Sequence[str], ids: Sequence[str], proposed, confidence,
            machine, warn, open_) -> dict:
    """The advice from `--checked` (answers whose `open_` is False were marked: a check among
    them is refused) and, when checks are wanting, the ids to check drawn at random."""
    import numpy as np

    from grader.exams.exam_io import read_marked_answers
    from grader.grading.stop import stop_advice

    checked = np.zeros(len(ids), dtype=bool)
    right = np.zeros(len(ids), dtype=bool)
    if args.checked is not None:
        checks = read_marked_answers(args.checked, id_column=args.id_column or "id",
                                     answer_column=getattr(args, "answer_column", None) or "answer",
                                     mark_column=getattr(args, "mark_column", "mark"), marks=marks_scale)
        warn(checks.warnings)
        position = _first_rows(ids)
        trained = [c for c in checks.ids if c in position and not open_[position[c]]]
        if trained:
            raise ValueError(f"{args.checked}: answer(s) {', '.join(map(repr, trained[:5]))} are also marked in "
                             f"{getattr(args, 'marked', None)}: a spot check must be kept out of the marked answers the model learns from")
        unknown = [c for c in checks.ids if c not in position]
        if unknown:
            warn([f"{args.checked}: {len(unknown)} checked answer(s) are not in {args.answers} (ids "
                  f"{', '.join(map(repr, unknown[:5]))}): left out of the estimate"])
        for answer_id, mark in zip(checks.ids, checks.marks):
            if answer_id in position:
                checked[position[answer_id]] = True
                right[position[answer_id]] = proposed[position[answer_id]] == mark
    return _report(stop_advice(confidence, machine, checked, right, args.stop_target, class_size=len(ids)), ids,
                   machine, checked)


def stop_lines(report: dict) -> list[str]:
    """The report as the teacher reads it."""
    lines = [f"stop: {report['advice']['message']}"]
    if report["check"]:
        lines.append("  check these (drawn at random among the machine's marks): " + ", ".join(report["check"]))
    return lines
