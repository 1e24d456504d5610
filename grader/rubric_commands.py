"""`grader test-rubric`, `grader suggest-rubric` and `grader features`: a marking scheme tested on
marked answers, concepts and misconceptions proposed from them, and the features of answers as a
table or as facts for an ASP system.

Kept apart from `grader.cli` (which registers them) so that each module stays one idea: the
CLI's common commands there, rubric authoring here. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.output_guard import FEATURES, QUESTION_FILE, InputFile, check_output


def add_parsers(sub, add_columns, add_learning, add_force) -> None:
    """Register the two commands on the CLI's subparsers."""
    p = sub.add_parser("test-rubric", help="run a marking scheme on marked answers: each rule's record",
                       description="Run the rules of a question file (and the rules learned from the "
                       "answers, or those of --model) on answers a human marked, and print for every "
                       "rule how many answers it applies to, how many it marks, how many of those as "
                       "the human did, the answers it marks otherwise, and the answers no rule marks.")
    p.add_argument("--question", action=InputFile, what="question file", metavar="Q.yaml",
                   help="the question file whose rules to test (rules are learned from the answers "
                        "after its own; figures of learned rules are then on the answers they were "
                        "learned from)")
    p.add_argument("--model", action=InputFile, what="model file", metavar="model.json",
                   help="test this model's rules (as trained) instead of learning them here")
    p.add_argument("--answers", required=True, action=InputFile, what="answers file", metavar="marked.csv")
    p.add_argument("--examples", type=int, default=5, metavar="N",
                   help="wrongly marked and unmarked answers shown per list (default 5)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    add_columns(p)
    add_learning(p)

    p = sub.add_parser("suggest-rubric", help="propose concepts and misconceptions from marked answers",
                       description="Propose concepts and misconceptions with the phrases the class uses, "
                       "from the answers a teacher has marked (the words that separate the marks, grouped "
                       "into ideas; denied phrases of lower marks as misconceptions), each with the marked "
                       "answers that say it, and write the question file with them added for the teacher "
                       "to edit. The input question file is never replaced.")
    p.add_argument("--question", required=True, action=InputFile, what="question file", metavar="Q.yaml")
    p.add_argument("--answers", required=True, action=InputFile, what="answers file", metavar="marked.csv")
    p.add_argument("--out", type=Path, default=None, metavar="proposed.yaml",
                   help="where to write the question file with the proposals (default: Q.proposed.yaml "
                        "next to Q.yaml)")
    p.add_argument("--json", action="store_true", help="print the proposals as JSON")
    add_columns(p)
    add_force(p)

    p = sub.add_parser("features", help="the features of answers: a table, or facts for clingo",
                       description="The features a model reads in each answer, as CSV or as ASP "
                       "facts (`--format clingo`), so that `clingo rules.lp facts.lp` with the "
                       "program of `grader rules --format clingo` derives the marks `grader grade` gives.")
    p.add_argument("--model", required=True, action=InputFile, what="model file", metavar="model.json")
    p.add_argument("--answers", required=True, action=InputFile, what="answers file", metavar="answers.csv")
    p.add_argument("--format", choices=("csv", "clingo"), default="csv")
    p.add_argument("--out", type=Path, default=None, help="write here instead of printing")
    add_columns(p, mark=False)
    add_force(p)


def cmd_test_rubric(args: argparse.Namespace, load_marked, learning_params) -> int:
    from grader.grading.model import GradingModel
    from grader.grading.rubric_test import format_report, test_rubric

    if (args.question is None) == (args.model is None):
        raise ValueError("test-rubric needs --question (its rules, and rules learned from the answers) "
                         "or --model (a trained model's rules), not both")
    if args.model is not None:
        from grader.exams.exam_io import read_marked_answers

        model = GradingModel.load(args.model)
        marked = read_marked_answers(args.answers, id_column=args.id_column, answer_column=args.answer_column,
                                     mark_column=args.mark_column, marks=model.question.marks)
        note = f"rules of {args.model}"
    else:
        question, marked = load_marked(args, args.question)
        params = dict(learning_params(args), n_resamples=0)
        model = GradingModel.train(question, marked.answers, marked.marks, **params)
        note = (f"rules of {args.question}, then rules learned from these same answers (their figures "
                f"are on the answers they were learned from: expect fewer right on new answers)")
    report = test_rubric(model, marked.ids, marked.answers, marked.marks, examples=args.examples)
    if args.json:
        from dataclasses import asdict

        print(json.dumps(asdict(report), indent=1, ensure_ascii=False))
    else:
        sys.stdout.write(f"{note}\n{format_report(report)}")
    return 0


def cmd_suggest_rubric(args: argparse.Namespace, load_marked) -> int:
    from grader.exams.exam_io import atomic_write_text
    from grader.grading.rubric_proposals import known_order, propose, with_proposals
    from knowledge import check_question_text, read_question_file_text

    out = args.out or args.question.with_name(f"{args.question.stem}.proposed.yaml")
    check_output(out, QUESTION_FILE, [args.question, args.answers], args.force)
    question, marked = load_marked(args, args.question)
    proposals = propose(question, marked.ids, marked.answers, marked.marks,
                        order=known_order(question.marks, marked.marks))
    text = with_proposals(read_question_file_text(args.question), proposals, str(args.question))
    problems = check_question_text(text, args.question)
    if problems:  # a proposal the file cannot take: say it rather than write a broken file
        raise ValueError(f"the proposals would make {out} invalid: {problems[0]}")
    atomic_write_text(out, text)
    if args.json:
        from dataclasses import asdict

        print(json.dumps({"out": str(out), "proposals": [asdict(p) | {"reason": p.reason} for p in proposals]},
                         indent=1, ensure_ascii=False))
        return 0
    for p in proposals:
        print(f"{p.kind} {p.name}: {', '.join(p.phrases)}\n  {p.reason}")
    print(f"{len(proposals)} proposal(s) added to a copy of {args.question}: {out} (edit it, keep what you "
          f"agree with, then use it as the question file)" if proposals else
          f"no proposal: no phrase separates the marks of these {len(marked)} answers; {out} is a copy of "
          f"{args.question}")
    return 0


def cmd_features(args: argparse.Namespace) -> int:
    from grader.exams.exam_io import atomic_write_text, read_table, resolve_column
    from grader.grading.model import GradingModel

    if args.out is not None:
        check_output(args.out, FEATURES, [args.model, args.answers], args.force)
    model = GradingModel.load(args.model)
    frame, rows, _ = read_table(args.answers)
    answers = frame[resolve_column(args.answer_column, frame.columns, args.answers, "answer column")]
    if args.id_column in frame.columns or args.id_column != "id":
        ids = frame[resolve_column(args.id_column, frame.columns, args.answers, "id column")].tolist()
    else:
        ids = [str(r) for r in rows]
    X = model.features(answers.tolist())
    if args.format == "clingo":
        from knowledge.clingo_check import feature_facts

        target = model.learner.target_name_
        lines = [f"% features of {len(X)} answers of {args.answers}, read by {args.model}; row numbers "
                 f"count from 0, answer_id(Row, Id) names each row"]
        lines += [f"answer_id({i},{json.dumps(str(a), ensure_ascii=False)})." for i, a in enumerate(ids)]
        text = "\n".join(lines) + "\n" + feature_facts(X, target=target)
    else:
        text = X.assign(**{"id": ids}).set_index("id").to_csv()
    if args.out is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(args.out, text)
        print(f"features of {len(X)} answers written to {args.out}")
    return 0
