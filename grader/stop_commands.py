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

from grader.grading.stop import DEFAULT_TARGET as DEFAULT_STOP_TARGET  # unless --stop-target says otherwise


def add_arguments(p: argparse.ArgumentParser, input_file, fraction) -> None:
    """`--checked` and `--stop-target` on a command's parser."""
    p.add_argument("--checked", action=input_file, what="answers file", default=None, metavar="checks.csv",
                   help="spot checks: answers drawn at random among the machine's marks and marked by you "
                        "(id, answer, mark), kept out of --marked; they say whether you can stop marking")
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
        position = {answer_id: i for i, answer_id in reversed(list(enumerate(ids)))}
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
    advice = stop_advice(confidence, machine, checked, right, args.stop_target)
    pool = np.flatnonzero(machine & ~checked)
    draw = np.random.default_rng(0).permutation(pool)[:advice.more_checks] if advice.action == "check" else []
    return {"advice": advice.to_dict(), "check": [ids[i] for i in sorted(draw)]}


def stop_lines(report: dict) -> list[str]:
    """The report as the teacher reads it."""
    lines = [f"stop: {report['advice']['message']}"]
    if report["check"]:
        lines.append("  check these (drawn at random among the machine's marks): " + ", ".join(report["check"]))
    return lines
