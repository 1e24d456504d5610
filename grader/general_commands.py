"""`grader train-general` and `grader suggest`: starting from a bare exam.

`train-general` learns the general model (`grader.grading.general`) from several questions'
marked answers; `grader grade --model general.json --question new.yaml` then marks a question
it has not seen. `suggest` prints the next answers of an exam worth marking (`grader.grading.suggest`).
Kept apart from `grader.cli` (which registers them) so that each module stays one idea. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from grader import stop_commands
from grader.output_guard import MODEL, InputFile, check_output, note_inputs, question_inputs

_PAIR = re.compile(r"^(?P<question>.+?\.(?:ya?ml|YA?ML)):(?P<answers>.+)$")


def pair(text: str) -> tuple[Path, Path]:
    """`Q.yaml:marked.csv` -> (question file, marked answers file)."""
    match = _PAIR.match(text)
    if match is None:
        question, sep, answers = text.partition(":")
        if not sep or not question or not answers:
            raise argparse.ArgumentTypeError(f"expected QUESTION.yaml:MARKED.csv, not {text!r}")
        return Path(question), Path(answers)
    return Path(match["question"]), Path(match["answers"])


class PairFiles(argparse.Action):
    """`--pair Q.yaml:marked.csv`, repeated: appends the pair and notes both files in
    `namespace.input_files`, so that a mistyped name in the last pair is said before the first
    pairs are read (`output_guard.check_inputs`)."""

    def __call__(self, parser, namespace, value, option_string=None) -> None:
        question, answers = value
        setattr(namespace, self.dest, list(getattr(namespace, self.dest, None) or []) + [value])
        note_inputs(namespace, (question, "question file"), (answers, "answers file"))


def add_parsers(sub, add_columns, add_force, fraction) -> None:
    """Register train-general and suggest on the CLI's subparsers."""
    p = sub.add_parser("train-general", help="learn a general model for questions it has not seen",
                       description="Learn one model from several questions' marked answers, on features "
                       "that do not depend on the question (how much of the reference answers an answer "
                       "states or denies, the rubric's ideas and wrong ideas, quantities, hedging, "
                       "non-answers), with the marks on a common scale (docs/cli.md says how). "
                       "`grader grade --model general.json --question new.yaml` then marks a new question "
                       "from its question file alone.")
    p.add_argument("--pair", dest="pairs", action=PairFiles, required=True, type=pair,
                   metavar="Q.yaml:marked.csv", help="a question file and its marked answers (repeat)")
    p.add_argument("--model", required=True, type=Path, metavar="general.json", help="model file to write")
    p.add_argument("--resamples", type=int, default=None, metavar="N",
                   help="resampled models behind each confidence (default 20)")
    add_force(p)
    add_columns(p)

    p = sub.add_parser("suggest", help="the next answers of an exam worth marking",
                       description="Print the answers to mark next: with few marks, one answer of each "
                       "group of similar answers, largest groups first; once answers of two marks are "
                       "marked, the answers the model trained on them is least sure of, weighed by "
                       "how many similar answers their mark would settle.")
    add_exam_arguments(p, "the answers to choose from", "the answers marked so far (id, answer, mark)")
    p.add_argument("-n", type=int, default=20, metavar="N", help="how many answers to suggest (default 20)")
    p.add_argument("--general", action=InputFile, what="model file", default=None, metavar="general.json",
                   help="a general model: seeds the model while few answers are marked")
    p.add_argument("--json", action="store_true", help="print the suggestions as JSON")
    stop_commands.add_arguments(p, InputFile, fraction)
    add_columns(p, mark=True)


def add_exam_arguments(p: argparse.ArgumentParser, answers_help: str, marked_help: str) -> None:
    """--question, --answers and --marked: an exam's answers and those marked so far
    (read by `exam_with_marks`)."""
    p.add_argument("--question", required=True, action=InputFile, what="question file", metavar="Q.yaml")
    p.add_argument("--answers", required=True, action=InputFile, what="answers file", metavar="exam.csv",
                   help=answers_help)
    p.add_argument("--marked", action=InputFile, what="answers file", default=None, metavar="so_far.csv",
                   help=marked_help)


def cmd_train_general(args: argparse.Namespace, warn) -> int:
    from knowledge import load_question

    from grader.exams.exam_io import read_marked_answers
    from grader.grading.general import GeneralModel

    inputs = [p for q, a in args.pairs for p in (*question_inputs(q), a)]
    check_output(args.model, MODEL, inputs, args.force)
    pairs = []
    for question_path, answers_path in args.pairs:
        question = load_question(question_path)
        marked = read_marked_answers(answers_path, id_column=args.id_column, answer_column=args.answer_column,
                                     mark_column=args.mark_column, marks=question.marks)
        warn(marked.warnings)
        pairs.append((question, marked.answers, marked.marks))
    params = {} if args.resamples is None else {"n_resamples": max(0, args.resamples)}
    model = GeneralModel.train(pairs, **params)
    model.save(args.model)
    print(f"trained on {model.trained_on['answers']} answers of {len(pairs)} questions; marks on the "
          f"scale {', '.join(model.scale)} ({model.trained_on['scale']}); "
          f"{len(model.learner.rules_)} rules; general model written to {args.model}")
    return 0


def load_grader(model_path: Path, question_path: Path | None):
    """The grader of `grade --model`: a question's own model, or the general model bound to
    `--question` (a general model needs it; a question's model must not get one)."""
    from grader.confold.model_file import read_json_file
    from grader.grading.general import GeneralModel, is_general
    from grader.grading.model import GradingModel

    data = read_json_file(model_path, "grading model file")
    if is_general(data):
        if question_path is None:
            raise ValueError(f"{model_path} is a general model: give the question to mark with --question Q.yaml")
        from knowledge import load_question

        print(f"{model_path} is a general model, trained on other questions: expect most answers to be "
              f"flagged for a human, and mark a starter set (grader suggest) to train this question's own "
              f"model", file=sys.stderr)
        return GeneralModel.from_dict(data, str(model_path)).for_question(load_question(question_path))
    if question_path is not None:
        raise ValueError(f"{model_path} is a model of question {data.get('question', {}).get('id', '?')!r}, "
                         f"which holds its question: --question is only for a general model")
    return GradingModel.load(model_path)


def cmd_suggest(args: argparse.Namespace, warn) -> int:
    import json

    from knowledge import load_question

    from grader.grading.general import GeneralModel
    from grader.grading.suggest import MIN_MARKED_FOR_MODEL, next_answers

    if args.n < 1:
        raise ValueError(f"-n must be at least 1, not {args.n}")
    question = load_question(args.question)
    ids, texts, marks, extra = exam_with_marks(args, question, warn)
    general = GeneralModel.load(args.general) if args.general is not None else None
    all_texts = texts + [a for a, _ in extra]
    all_marks = marks + [m for _, m in extra]
    picks, model = next_answers(question, all_texts, all_marks, args.n, general)
    n_marked = sum(m is not None for m in all_marks)
    if model is None:
        how = (f"{n_marked} answer(s) marked: fewer than {MIN_MARKED_FOR_MODEL} of two marks, so these stand "
               f"for the groups of similar answers, largest first")
    elif getattr(model, "own", model) is None:
        how = (f"{n_marked} answer(s) marked: fewer than {MIN_MARKED_FOR_MODEL} of two marks, so weighed by "
               f"the general model's confidence")
    else:
        how = (f"{n_marked} answer(s) marked: weighed by the model trained on them"
               + (" and the general model" if general is not None else ""))
    stop = stop_commands.stop_report(args, question, model, ids, texts, marks, warn)
    if args.json:
        print(json.dumps({"note": how, "suggestions": [
            {"id": ids[s.index], "answer": texts[s.index], "reason": s.reason, "similar": s.similar,
             "model_mark": s.mark, "confidence": s.confidence} for s in picks], "stop": stop}, indent=1, ensure_ascii=False))
        return 0
    print(f"next {len(picks)} answer(s) to mark ({how}):")
    for rank, s in enumerate(picks, 1):
        print(f"{rank:3d}. {ids[s.index]}: {json.dumps(texts[s.index], ensure_ascii=False)} ({s.reason})")
    print("\n".join(stop_commands.stop_lines(stop)))
    return 0


def exam_with_marks(args: argparse.Namespace, question, warn) -> tuple[list[str], list[str], list, list]:
    """(ids, answers, marks, extra) of `--answers` with `--marked` (None: unmarked; extra: the
    (answer, mark) pairs of marked answers not in the exam, which still teach the model)."""
    from grader.exams.exam_io import read_marked_answers, read_table, resolve_column

    frame, rows, _ = read_table(args.answers)
    texts = frame[resolve_column(args.answer_column, frame.columns, args.answers, "answer column")]
    texts = ["" if t is None else str(t) for t in texts.tolist()]
    if args.id_column in frame.columns or args.id_column != "id":
        ids = [str(i) for i in frame[resolve_column(args.id_column, frame.columns, args.answers, "id column")]]
    else:
        ids = [str(r) for r in rows]
    marks: list[str | None] = [None] * len(texts)
    if args.marked is not None:
        marked = read_marked_answers(args.marked, id_column=args.id_column, answer_column=args.answer_column,
                                     mark_column=args.mark_column, marks=question.marks)
        warn(marked.warnings)
        position = {}
        for i, answer_id in enumerate(ids):
            position.setdefault(answer_id, i)
        unknown = [m for m in marked.ids if m not in position]
        if unknown:
            warn([f"{args.marked}: {len(unknown)} marked answer(s) are not in {args.answers} (ids "
                  f"{', '.join(map(repr, unknown[:5]))}{', ...' if len(unknown) > 5 else ''}): they still "
                  f"train the model but are not in the exam"])
        for answer_id, mark in zip(marked.ids, marked.marks):
            if answer_id in position:
                marks[position[answer_id]] = mark
        extra = [(a, m) for i, a, m in zip(marked.ids, marked.answers, marked.marks) if i not in position]
    else:
        extra = []
    return ids, texts, marks, extra
