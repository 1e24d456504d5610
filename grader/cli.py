"""`grader`: train, grade, evaluate, explain and show rules from the command line.

Every documented error (a problem in a question file, a CSV that cannot be read, a damaged
model file, bad learner input, a missing file) is printed as `grader: error: <one line>`
with exit status 2; anything unexpected is one line with status 1. `--debug` shows the
traceback instead. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import warnings
from pathlib import Path
from typing import Sequence

from grader import general_commands, grade_commands, group_commands, rubric_commands, stop_commands
from grader.grading.defaults import (DEFAULT_CONFIDENCE_THRESHOLD, DEFAULT_FLAG_BELOW,
                                     DEFAULT_IMPROVEMENT_THRESHOLD, DEFAULT_RESAMPLES)
from grader.output_guard import MODEL, REPORT_JSON, InputFile, check_inputs, check_output, question_inputs

PROG = "grader"


def _version() -> str:
    """The installed package's version, or pyproject.toml's when run from a source tree."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("physics-grader")
    except PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, ValueError):
            return "unknown"


def _threshold(text: str) -> float | None:
    """A pruning threshold: a number in [0, 1], or "off" to disable that pruning."""
    if text.strip().lower() in ("off", "none"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1 or 'off', not {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not {value}")
    return value


def _fraction(text: str) -> float:
    value = _threshold(text)
    if value is None:
        raise argparse.ArgumentTypeError("expected a number between 0 and 1")
    return value


def _whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected a number of at least {minimum}, not {value}")
    return value


def _positive_int(text: str) -> int:
    return _whole_number(text, 1)


def _count(text: str) -> int:
    return _whole_number(text, 0)


def _add_columns(p: argparse.ArgumentParser, mark: bool = True) -> None:
    g = p.add_argument_group("columns of the answers file")
    g.add_argument("--id-column", default="id", metavar="NAME",
                   help="column identifying each answer (default: id; row numbers if a file has none)")
    g.add_argument("--answer-column", default="answer", metavar="NAME", help="default: answer")
    if mark:
        g.add_argument("--mark-column", default="mark", metavar="NAME", help="default: mark")


def _add_learning(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("learning")
    g.add_argument("--improvement-threshold", type=_threshold, default=DEFAULT_IMPROVEMENT_THRESHOLD,
                   metavar="T", help="CON-FOLD pruning: an exception is kept only if it raises its rule's "
                   f"confidence by this much (default {DEFAULT_IMPROVEMENT_THRESHOLD}; 'off' disables)")
    g.add_argument("--confidence-threshold", type=_threshold, default=DEFAULT_CONFIDENCE_THRESHOLD,
                   metavar="T", help="CON-FOLD pruning: drop rules less confident than this "
                   f"(default {DEFAULT_CONFIDENCE_THRESHOLD}; 'off' disables)")
    g.add_argument("--ratio", type=_fraction, default=0.5, help="FOLD-RM exception ratio (default 0.5)")
    g.add_argument("--z", type=float, default=3.0, help="z of the Wilson confidence (default 3.0)")
    g.add_argument("--n-terms", type=int, default=30, metavar="N",
                   help="words and phrases learned from the marked answers (default 30)")
    g.add_argument("--default-rule", action="store_true",
                   help="end the rules with a catch-all rule (the commonest mark of the answers the "
                        "other rules leave, with its own, usually low, confidence) instead of "
                        "leaving those answers unmarked")
    g.add_argument("--resamples", type=_count, default=DEFAULT_RESAMPLES, metavar="N",
                   help="also learn rules on N resamples of the marked answers; an answer's confidence is "
                        "the share of all the rule lists (the model's and the resamples') giving its "
                        f"mark, times the wording support (default {DEFAULT_RESAMPLES}; 0: the rule's "
                        "confidence instead of the share)")
    g.add_argument("--no-wording", dest="wording_support", action="store_false",
                   help="do not weigh an answer's confidence by how much the marked answers' wording "
                        "supports its mark")
    g.add_argument("--any-rules", dest="evidence_rules", action="store_false",
                   help="let a rule for a mark above the lowest rest on what an answer lacks (by default "
                        "such a rule rests on what the answer says; what it lacks only blocks a rule or "
                        "gives the lowest mark)")
    g.add_argument("--no-vote", dest="vote", action="store_false",
                   help="give each answer the mark of the model's own rule that fired, not the mark most "
                        "of the resampled rule lists give it")
    g.add_argument("--no-built-in-rules", dest="built_in_rules", action="store_false",
                   help="start from the question file's rules only (by default, unless the file's rules "
                        "say anything of it, an answer that says the reference answer the other way round "
                        "starts with the mark most such marked answers have)")


def _add_force(p: argparse.ArgumentParser) -> None:
    p.add_argument("--force", action="store_true",
                   help="replace an existing output file even if it is not the kind of file this "
                        "command writes (an input of the command is never replaced)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Mark short physics answers with rules learned from marked answers.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--verbose", action="store_true",
                        help="say more of what happens (which spaCy pipeline the extractor uses)")
    # --debug and --verbose are also accepted after the command (`grader train ... --debug`)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--verbose", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=lambda **kw: argparse.ArgumentParser(parents=[common], **kw))

    p = sub.add_parser("train", help="learn a model from marked answers",
                       description="Fit the feature extractor and CON-FOLD on marked answers and "
                       "write one model file.")
    p.add_argument("--question", required=True, action=InputFile, what="question file", metavar="Q.yaml")
    p.add_argument("--answers", required=True, action=InputFile, what="answers file", metavar="marked.csv")
    p.add_argument("--model", required=True, type=Path, metavar="model.json", help="model file to write")
    p.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                   help="do not keep cross-validated confidences in the model: its confidences are then the "
                        "raw ones, not probabilities, and grade --target-accuracy cannot use it (keeping "
                        "them trains 5 more models)")
    _add_force(p)
    _add_columns(p)
    _add_learning(p)

    p = sub.add_parser("grade", help="grade an exam export",
                       description="Grade every answer of a CSV export: the output has every input "
                       "column plus mark, confidence, flagged, rule and explanation. Either "
                       "--model with --answers, or --exam with an exam file.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", action=InputFile, what="model file", metavar="model.json")
    src.add_argument("--exam", action=InputFile, what="exam file", metavar="exam.yaml",
                     help="an exam file mapping questions to columns and models (see docs/cli.md)")
    p.add_argument("--answers", action=InputFile, what="answers file", metavar="exam.csv",
                   help="the export (with --model)")
    p.add_argument("--question", action=InputFile, what="question file", metavar="Q.yaml",
                   help="with a general model (grader train-general): the question to mark")
    p.add_argument("--out", required=True, type=Path, metavar="graded.csv")
    flag = p.add_mutually_exclusive_group()
    flag.add_argument("--flag-below", type=_fraction, default=None, metavar="C",
                      help=f"flag marks less confident than this (default {DEFAULT_FLAG_BELOW})")
    flag.add_argument("--target-accuracy", type=_fraction, default=None, metavar="A",
                      help="mark automatically only what the cross-validated marked answers vouch for "
                           "at this accuracy (lower bound), e.g. 0.95; flag the rest (with --exam: each "
                           "question's own threshold; models it trains keep their cross-validated "
                           "confidences)")
    p.add_argument("--answer-column", default="answer", metavar="NAME", help="with --model (default: answer)")
    p.add_argument("--id-column", default=None, metavar="NAME", help="checked for duplicate ids")
    p.add_argument("--chunk-size", type=_positive_int, default=2000, metavar="N")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="N",
                   help="grade in N processes at once (default 1); the output is the same")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--restart", action="store_true",
                   help="discard the output of an interrupted run instead of resuming it")
    p.add_argument("--save-models", type=Path, metavar="DIR",
                   help="with --exam: save the models trained for the exam in this folder")
    files = p.add_argument_group("grade files for a learning platform (with --exam; docs/cli.md)")
    files.add_argument("--moodle", type=Path, metavar="moodle.csv",
                       help="Moodle's grade import: one row per student, a mark per question, the total")
    files.add_argument("--canvas", type=Path, metavar="canvas.csv",
                       help="Canvas's gradebook import: one row per student under 'Points Possible'")
    files.add_argument("--canvas-comments", type=Path, metavar="comments.csv",
                       help="the feedback Canvas's import cannot take: a row per student and question")
    files.add_argument("--attempt", choices=("last", "highest", "first"), default="last",
                       help="which attempt of a student counts (default: last)")
    files.add_argument("--feedback", choices=("none", "comment", "comment-or-rule"), default="none",
                       help="feedback in the Moodle file and the comments file: comment-or-rule gives "
                            "the justification of the rule that gave each mark (default: none)")
    stop_commands.add_arguments(p, InputFile, _fraction)
    p.add_argument("--json", type=Path, default=None, metavar="stop.json",
                   help="also write the stop estimate (per question and, with --exam, pooled) as JSON for scripts")
    _add_force(p)

    p = sub.add_parser("evaluate", help="cross-validate on marked answers",
                       description="Cross-validated accuracy, macro-F1, quadratic weighted kappa, "
                       "IBS, and the accuracy of the automatic marks against the share flagged.")
    p.add_argument("--question", required=True, action=InputFile, what="question file", metavar="Q.yaml")
    p.add_argument("--answers", required=True, action=InputFile, what="answers file", metavar="marked.csv")
    p.add_argument("--folds", type=_positive_int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, metavar="report.json", help="also write the report as JSON")
    p.add_argument("--raw-confidence", dest="calibrated", action="store_false",
                   help="measure the raw confidences, not the probabilities a model trained by grader train "
                        "shows (each fold's model calibrated on its own training answers: 5 times slower)")
    _add_force(p)
    _add_columns(p)
    _add_learning(p)

    p = sub.add_parser("explain", help="the full justification of one answer's mark")
    p.add_argument("--model", required=True, action=InputFile, what="model file", metavar="model.json")
    p.add_argument("answer", nargs="?", default=None, help="the answer text (or --answers with --id)")
    p.add_argument("--answers", default=None, action=InputFile, what="answers file", metavar="exam.csv",
                   help="a file of answers: explain those --id names")
    p.add_argument("--id", dest="ids", action="append", default=[], metavar="ID",
                   help="the id of an answer of --answers (repeat for more)")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")
    g = p.add_argument_group("columns of the answers file")
    g.add_argument("--id-column", default="id", metavar="NAME", help="default: id")
    g.add_argument("--answer-column", default="answer", metavar="NAME", help="default: answer")

    p = sub.add_parser("rules", help="print a model's rules")
    p.add_argument("--model", required=True, action=InputFile, what="model file", metavar="model.json")
    p.add_argument("--format", choices=("text", "asp", "clingo", "yaml"), default="text",
                   help="text (readable), asp (the question file's syntax), clingo (runs in clingo as "
                        "printed, with the facts of `grader features --format clingo`), yaml")
    rubric_commands.add_parsers(sub, _add_columns, _add_learning, _add_force)
    general_commands.add_parsers(sub, _add_columns, _add_force, _fraction)
    group_commands.add_parser(sub, _add_columns)
    return parser


# -- commands ------------------------------------------------------------------------------


def _warn(messages: Sequence[str]) -> None:
    for m in messages:
        print(f"{PROG}: warning: {m}", file=sys.stderr)


def _learning_params(args: argparse.Namespace) -> dict:
    return {"ratio": args.ratio, "z": args.z, "improvement_threshold": args.improvement_threshold,
            "confidence_threshold": args.confidence_threshold, "n_terms": args.n_terms,
            "default_rule": args.default_rule, "n_resamples": args.resamples,
            "wording_support": args.wording_support, "evidence_rules": args.evidence_rules, "vote": args.vote,
            "built_in_rules": args.built_in_rules}


def _load_marked(args: argparse.Namespace, question_path: Path):
    from knowledge import load_question

    from grader.exams.exam_io import read_marked_answers

    question = load_question(question_path)
    marked = read_marked_answers(args.answers, id_column=args.id_column, answer_column=args.answer_column,
                                 mark_column=args.mark_column, marks=question.marks)
    _warn(marked.warnings)
    return question, marked


def cmd_train(args: argparse.Namespace) -> int:
    from grader.grading.model import GradingModel

    check_output(args.model, MODEL, [*question_inputs(args.question), args.answers], args.force)
    question, marked = _load_marked(args, args.question)
    model = GradingModel.train(question, marked.answers, marked.marks, **_learning_params(args))
    calibrated = ""
    if args.calibrate:
        from grader.grading.evaluation import TooFewToCrossValidate, calibrate

        try:
            calibrate(model, marked.answers, marked.marks)
            calibrated = (" with cross-validated confidences (its confidences are the probability that a "
                          "mark is right; for grade --target-accuracy)")
        except TooFewToCrossValidate as e:  # the model itself is fine: written without them
            _warn([f"{e}: the model is written without cross-validated confidences, so its confidences "
                   f"are raw ones, not probabilities, and grade --target-accuracy cannot use it until "
                   f"more answers are marked"])
    model.save(args.model)
    marks = ", ".join(f"{m}: {n}" for m, n in model.trained_on["marks"].items())
    print(f"trained on {len(marked)} answers ({marks}); {len(model.learner.rules_)} rules; "
          f"model written to {args.model}{calibrated}")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from grader.grading.evaluation import cross_validate
    from grader.exams.exam_io import atomic_write_text

    if args.json is not None:
        check_output(args.json, REPORT_JSON, [*question_inputs(args.question), args.answers], args.force)
    question, marked = _load_marked(args, args.question)
    report = cross_validate(question, marked.answers, marked.marks, folds=args.folds, seed=args.seed,
                            calibrated=args.calibrated, **_learning_params(args))
    print(report.text())
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(report.to_dict(), indent=1) + "\n")
        print(f"report written to {args.json}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from grader.grading.model import GradingModel

    answers = _answers_to_explain(args)
    model = GradingModel.load(args.model)
    reports = []
    for answer_id, answer in answers:
        explanation = model.explain(answer)
        found = model.features_found(answer)
        if args.json:
            reports.append({"explanation": explanation.to_dict(), "features_found": found}
                           | ({"id": answer_id, "answer": answer} if answer_id is not None else {}))
            continue
        if answer_id is not None:
            print(f"{'' if not reports else chr(10)}{answer_id}: {json.dumps(answer, ensure_ascii=False)}")
            reports.append(answer_id)
        print(explanation.text())
        print("found in the answer:")
        for phrase in model.words().said(found):
            print(f"  {phrase}")
    if args.json:
        print(json.dumps(reports if args.ids else reports[0], indent=1, default=str, ensure_ascii=False))
    return 0


def _answers_to_explain(args: argparse.Namespace) -> list[tuple[str | None, str]]:
    """[(id or None, answer text)]: the answer given on the command line, or those of
    `--answers` that `--id` names, in the order named (an unknown id is an error naming it)."""
    if (args.answer is None) == (not args.ids):
        raise ValueError("give an answer's text, or --answers exam.csv with --id ID (not both)")
    if args.answer is not None:
        return [(None, args.answer)]
    if args.answers is None:
        raise ValueError("--id needs --answers: the file whose answer it names")
    from grader.exams.exam_io import read_table, resolve_column

    frame, rows, _ = read_table(args.answers)
    ids = [str(i) for i in frame[resolve_column(args.id_column, frame.columns, args.answers, "id column")]]
    texts = frame[resolve_column(args.answer_column, frame.columns, args.answers, "answer column")].tolist()
    where: dict[str, list[int]] = {}
    for k, answer_id in enumerate(ids):
        where.setdefault(answer_id, []).append(k)
    unknown = [i for i in args.ids if i not in where]
    if unknown:
        raise ValueError(f"{args.answers}: no answer with id {unknown[0]!r}"
                         + (f" (and {len(unknown) - 1} other ids)" if len(unknown) > 1 else ""))
    # an id the file gives twice: each of its answers, named by its row
    return [(i if len(where[i]) == 1 else f"{i} (row {rows[k]})", "" if texts[k] is None else str(texts[k]))
            for i in args.ids for k in where[i]]


def cmd_rules(args: argparse.Namespace) -> int:
    from grader.grading.model import GradingModel

    text = GradingModel.load(args.model).rules(args.format)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


COMMANDS = {"train": cmd_train, "grade": lambda args: grade_commands.cmd_grade(args, _warn),
            "evaluate": cmd_evaluate,
            "explain": cmd_explain, "rules": cmd_rules,
            "test-rubric": lambda args: rubric_commands.cmd_test_rubric(args, _load_marked, _learning_params),
            "features": rubric_commands.cmd_features,
            "suggest-rubric": lambda args: rubric_commands.cmd_suggest_rubric(args, _load_marked),
            "train-general": lambda args: general_commands.cmd_train_general(args, _warn),
            "suggest": lambda args: general_commands.cmd_suggest(args, _warn),
            "groups": lambda args: group_commands.cmd_groups(args, _warn)}


# -- errors --------------------------------------------------------------------------------


def _error_lines(exc: BaseException) -> list[str]:
    """The one-line message(s) of a documented error."""
    problems = getattr(exc, "problems", None)
    if problems:  # KnowledgeError: one line per problem in the teacher's file
        return [str(p) for p in problems]
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return [f"{exc.filename}: {exc.strerror.lower()}"]
    text = " ".join(str(exc).split()) or type(exc).__name__
    return [text]


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"{PROG}: warning: {' '.join(str(message).split())}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 documented error, 1 other)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error argparse already printed
        return int(e.code or 0)
    verbose = _verbose_log() if args.verbose else None
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning  # one line, not Python's file:line form
            check_inputs(args)  # a mistyped file name, before the command imports anything
            status = COMMANDS[args.command](args)
            sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
            return status
    except BrokenPipeError:  # `grader rules ... | head`: the reader has what it wanted
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (grade resumes where it stopped when run again)", file=sys.stderr)
        return 130
    except (ValueError, OSError, UnicodeError) as e:  # KnowledgeError, CSV and model errors are ValueErrors
        if args.debug:
            raise
        for line in _error_lines(e):
            print(f"{PROG}: error: {line}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - the promise is one line, never a traceback
        if args.debug:
            raise
        print(f"{PROG}: error: unexpected {type(e).__name__}: {' '.join(str(e).split())} "
              f"(run with --debug for details)", file=sys.stderr)
        return 1
    finally:
        if verbose is not None:
            handler, level = verbose
            logging.getLogger().removeHandler(handler)
            logging.getLogger().setLevel(level)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of what
    the closed pipe did not take raises nothing (as the Python docs advise for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor: a test's stand-in
        pass


def _verbose_log() -> tuple[logging.Handler, int]:
    """--verbose: the project's INFO messages (the spaCy pipeline in use...) on stderr, one line
    each, for this command. Returns the handler and the root logger's level to restore."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter(f"{PROG}: %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return handler, level


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
