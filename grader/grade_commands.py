"""`grader grade`: an exam export graded with one question's model or an exam's models.

Kept apart from `grader.cli` (which registers it) so that each module stays one idea: which
files a run reads and may write, the models an exam file names or trains, and the resumable
batch run itself (`grader.exams.batch`). See docs/cli.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Sequence

from grader import general_commands
from grader.grading.defaults import DEFAULT_FLAG_BELOW
from grader.output_guard import GRADE_FILE, GRADED_CSV, MODEL, check_output, question_inputs


def cmd_grade(args: argparse.Namespace, warn: Callable[[Sequence[str]], None]) -> int:
    """Grade an export with one model (--model) or an exam's questions (--exam); `warn`
    prints warnings the way the rest of the command does."""
    grade_files = _grade_file_paths(args)
    if grade_files and args.exam is None:
        raise ValueError("--moodle, --canvas and --canvas-comments need --exam (its students, questions "
                         "and name)")
    exam = None
    if args.exam is not None:  # the exam file and every file it names, before any work
        from grader.exams.exam_file import check_named_files, read_exam

        if args.answers is not None:
            raise ValueError("grade --exam takes the export from the exam file; drop --answers")
        if args.question is not None:
            raise ValueError("grade --exam takes the questions from the exam file; drop --question")
        exam = read_exam(args.exam)
        check_named_files(exam)
    from grader.exams.batch import grade_file
    from grader.exams.chunk_graders import exam_grader
    from grader.grading.model import GradingModel

    progress = False if args.no_progress else None
    if args.model is not None:
        if args.answers is None:
            raise ValueError("grade --model needs --answers (the export to grade)")
        question_files = question_inputs(args.question) if args.question is not None else []
        check_output(args.out, GRADED_CSV, [args.model, args.answers, *question_files], args.force)
        _check_json(args, [args.model, args.answers, args.checked, *question_files])
        grader = general_commands.load_grader(args.model, args.question)
        answers = args.answers
        flag_below = DEFAULT_FLAG_BELOW if args.flag_below is None else args.flag_below
        if args.target_accuracy is not None and not isinstance(grader, GradingModel):
            raise ValueError("--target-accuracy needs a question's own model (its cross-validated "
                             "confidences); with a general model use --flag-below")
        if args.target_accuracy is not None:
            flag_below = _target_threshold(grader, args.target_accuracy)
        result = grade_file(answers, args.out, grader, answer_column=args.answer_column,
                            flag_below=flag_below, id_column=args.id_column,
                            chunk_size=args.chunk_size, progress=progress, resume=not args.restart,
                            jobs=args.jobs)
    else:
        inputs = _exam_inputs(args.exam, exam)
        check_output(args.out, GRADED_CSV, inputs, args.force)
        for path in grade_files.values():
            check_output(path, GRADE_FILE, [*inputs, args.out], args.force)
        _check_json(args, [*inputs, args.checked, *grade_files.values()])
        if args.save_models is not None:
            for q in exam.questions:
                if q.model is None:
                    check_output(args.save_models / f"{q.id}.model.json", MODEL, inputs, args.force)
        from grader.exams.exam_io import CSVReader

        with CSVReader(exam.answers) as reader:  # wrong column names: say so before training
            exam_grader(exam, {q.id: None for q in exam.questions}).bind(reader.columns, exam.answers)
        models = _exam_models(exam, args.save_models, warn, calibrated=args.target_accuracy is not None)
        flag_below = DEFAULT_FLAG_BELOW if args.flag_below is None else args.flag_below
        if args.target_accuracy is not None:  # each question's own threshold, from its own answers
            flag_below = {qid: _target_threshold(model, args.target_accuracy, f"{qid}: ")
                          for qid, model in models.items()}
        result = grade_file(exam.answers, args.out, exam_grader(exam, models, flag_below),
                            id_column=args.id_column or exam.id_column, chunk_size=args.chunk_size,
                            progress=progress, resume=not args.restart, jobs=args.jobs)
    warn(result.warnings)
    resumed = f" ({result.resumed} of them from the interrupted run)" if result.resumed else ""
    done = result.rows - result.resumed
    rate = f"; {done / result.seconds:.0f} rows/s" if done >= 1000 and result.seconds > 0 else ""
    print(f"graded {result.rows} rows into {result.out_path}{resumed}; {result.flagged} flagged "
          f"for review{rate}")
    if grade_files:
        _write_grade_files(exam, models, result.out_path, grade_files, args.attempt, args.feedback, warn)
    from grader import stop_commands  # whether the marks can be signed

    if args.model is not None:
        marks = getattr(getattr(grader, "question", None), "marks", ())
        stop = stop_commands.graded_stop_report(args, marks, warn)
        print("\n".join(stop_commands.stop_lines(stop)))
    else:
        stop = stop_commands.exam_stop_report(args, exam, warn)
        print("\n".join(stop_commands.exam_stop_lines(stop)))
    if args.json is not None:
        stop_commands.write_json(args.json, stop)
        print(f"wrote the stop estimate into {args.json}")
    return 0


def _check_json(args: argparse.Namespace, inputs: list) -> None:
    """`--json` is a file of its own: never an input, the graded output or a grade file."""
    from grader.output_guard import STOP_JSON

    if args.json is not None:
        check_output(args.json, STOP_JSON, [*inputs, args.out], args.force)


def _grade_file_paths(args: argparse.Namespace) -> dict[str, Path]:
    """The grade files asked for, by kind; each a file of its own, none the graded output."""
    paths = {kind: getattr(args, kind) for kind in ("moodle", "canvas", "canvas_comments")
             if getattr(args, kind, None) is not None}
    seen: dict[Path, str] = {Path(args.out).resolve(): "--out"}
    for kind, path in paths.items():
        option = "--" + kind.replace("_", "-")
        other = seen.setdefault(Path(path).resolve(), option)
        if other != option:
            raise ValueError(f"{path}: given to both {other} and {option}; each file needs a name of its own")
    return paths


def _write_grade_files(exam, models: dict, out_path: Path, paths: dict[str, Path], attempt: str,
                       feedback: str, warn: Callable[[Sequence[str]], None]) -> None:
    """Moodle's and Canvas's files of the graded exam, as the app's Export view writes them
    for the same marks (`grader.exams.grade_files`), and what was chosen or left out."""
    from knowledge import load_question

    from grader.exams.exam_io import write_csv_safely
    from grader.exams.grade_files import (canvas_comments, canvas_file, graded_output, highest_marks,
                                          moodle_file, student_grades)

    questions = [q.id for q in exam.questions]
    grades = student_grades(graded_output(exam, out_path, feedback), questions, attempt)
    warn(grades.notes)
    for kind, path in paths.items():
        if kind == "moodle":
            frame = moodle_file(grades, exam.id_column or "ID number", exam.name, feedback != "none")
        elif kind == "canvas_comments":
            frame = canvas_comments(grades)
        else:
            marks = {q.id: tuple(getattr(load_question(q.question), "marks", ()) or ()) if q.question else ()
                     for q in exam.questions}
            highest = highest_marks({q: marks[q] or tuple(getattr(models[q], "marks", ()) or ())
                                     for q in questions})
            frame = canvas_file(grades, exam.name, highest)
        write_csv_safely(frame, path)
        print(f"wrote {len(grades.table)} students' grades into {path}" if kind != "canvas_comments"
              else f"wrote {len(frame)} comments into {path}")


def _target_threshold(model, target: float, label: str = "") -> float:
    """The flag threshold that reaches `target` on the model's cross-validated marked answers,
    said as the teacher will read it; above any confidence (flag all) when none does."""
    choice = model.flag_threshold_for(target)
    print(f"{label}target accuracy {target:g}: {choice.message()}")
    return choice.threshold if choice.met else 1.01


def _exam_inputs(exam_path: Path, exam) -> list[Path]:
    """Every file grading an exam reads: the exam file, the files it names, and the rule files
    its question files name."""
    from grader.exams.exam_file import FILE_KINDS

    inputs = [Path(exam_path)]
    for file, what, _ in exam.named_files():
        inputs += question_inputs(file) if what == FILE_KINDS["question"] else [Path(file)]
    return inputs


def _exam_models(exam, save_dir: Path | None, warn: Callable[[Sequence[str]], None],
                 calibrated: bool = False) -> dict:
    """Load or train the model of each question of an exam, in the exam's order. `calibrated`
    (for a target accuracy): a model trained here keeps its cross-validated confidences
    (five more models each), and a model file without them is refused before anything is trained."""
    from knowledge import load_question

    from grader.exams.exam_io import read_marked_answers
    from grader.grading.evaluation import TooFewToCrossValidate, calibrate
    from grader.grading.model import GradingModel

    if save_dir is not None and not save_dir.is_dir():
        raise FileNotFoundError(f"{save_dir}: no such folder for the models")
    for q in exam.questions:
        if q.model is None and q.training is None:
            raise ValueError(f"{exam.source}: question {q.id!r} has no marked answers ('training') nor a "
                             f"'model': mark a starter set first (grader suggest, or the app's Start view), "
                             f"or grade it with grade --model general.json --question")
    models = {}
    for q in exam.questions:
        if q.model is None:
            continue
        models[q.id] = GradingModel.load(q.model)
        if calibrated and models[q.id].calibration is None:
            raise ValueError(f"--target-accuracy: the model of question {q.id!r} ({q.model}) has no "
                             f"cross-validated confidences (trained with --no-calibrate, or on too few answers for 5 "
                             f"folds): train it again without --no-calibrate, or use --flag-below")
    for q in exam.questions:
        if q.id in models:
            continue
        question = load_question(q.question)
        marked = read_marked_answers(q.training, marks=question.marks)
        warn(marked.warnings)
        print(f"training {q.id} on {len(marked)} marked answers...", file=sys.stderr)
        models[q.id] = GradingModel.train(question, marked.answers, marked.marks)
        if calibrated:
            try:
                calibrate(models[q.id], marked.answers, marked.marks)
            except TooFewToCrossValidate as e:
                raise ValueError(f"--target-accuracy: question {q.id!r}: {e}; mark more answers or "
                                 f"use --flag-below") from None
        if save_dir is not None:
            models[q.id].save(save_dir / f"{q.id}.model.json")
    return {q.id: models[q.id] for q in exam.questions}
