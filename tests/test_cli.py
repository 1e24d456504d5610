"""The `grader` command line, run in-process through `main(argv)`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from grader import cli
from grader.cli import main
from tests.data import QUESTION_YAML, SAMPLE, marked_answers, write_marked_csv


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("cli")
    question = folder / "question.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    answers, marks = marked_answers()
    marked = write_marked_csv(folder / "marked.csv", answers, marks)
    model = folder / "model.json"
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(model)]) == 0
    exam = folder / "exam.csv"
    exam.write_bytes("\ufeffStudent;Answer text\r\nann;there is a gap so no current\r\n"
                     "bob;the battery is dead\r\ncy;\r\ndee;=1+1\r\n".encode("utf-8"))
    return {"folder": folder, "question": question, "marked": marked, "model": model, "exam": exam}


def run(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def read_csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))


def test_train_writes_a_model_file(files):
    data = json.loads(files["model"].read_text(encoding="utf-8"))
    assert data["format"] == "physics-grader-model"
    assert data["trained_on"]["answers"] == 100


def test_train_reports_what_it_learned(files, capsys, tmp_path):
    code, out, err = run(["train", "--question", files["question"], "--answers", files["marked"],
                          "--model", tmp_path / "m.json", "--improvement-threshold", "off",
                          "--confidence-threshold", "0.6"], capsys)
    assert code == 0
    assert out.startswith("trained on 100 answers (0: 50, 1: 50);") and "m.json" in out
    params = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["params"]
    assert params["improvement_threshold"] is None and params["confidence_threshold"] == 0.6


def test_default_rule_option_ends_the_rules_with_a_catch_all(files, capsys, tmp_path):
    model = tmp_path / "d.json"
    code, out, err = run(["train", "--question", files["question"], "--answers", files["marked"],
                          "--model", model, "--default-rule"], capsys)
    assert code == 0
    assert json.loads(model.read_text(encoding="utf-8"))["params"].get("default_rule") is True
    code, out, err = run(["rules", "--model", model, "--format", "yaml"], capsys)
    assert code == 0 and "name: default" in out and "if: []" in out
    plain = json.loads(files["model"].read_text(encoding="utf-8"))["params"]
    assert not plain.get("default_rule")


def test_resamples_option_sets_how_many_models_back_each_confidence(files, capsys, tmp_path):
    model = tmp_path / "r.json"
    code, out, err = run(["train", "--question", files["question"], "--answers", files["marked"],
                          "--model", model, "--resamples", "0"], capsys)
    assert code == 0
    data = json.loads(model.read_text(encoding="utf-8"))
    assert data["params"]["n_resamples"] == 0 and data["agreement"]["rule_lists"] == []
    default = json.loads(files["model"].read_text(encoding="utf-8"))
    assert len(default["agreement"]["rule_lists"]) == default["params"]["n_resamples"] > 0
    code, out, err = run(["train", "--question", files["question"], "--answers", files["marked"],
                          "--model", model, "--resamples", "-3"], capsys)
    assert code == 2 and "at least 0" in err


def test_grade_writes_every_column_plus_the_grades(files, capsys, tmp_path):
    out_path = tmp_path / "graded.csv"
    code, out, err = run(["grade", "--model", files["model"], "--answers", files["exam"], "--out", out_path,
                          "--answer-column", "answer text", "--flag-below", "0.5", "--no-progress"], capsys)
    assert code == 0, err
    rows = read_csv(out_path)
    assert rows[0] == ["Student", "Answer text", "mark", "confidence", "flagged", "rule", "explanation", "feedback"]
    assert [r[0] for r in rows[1:]] == ["ann", "bob", "cy", "dee"]
    assert rows[1][2] == "1" and rows[1][4] == "no"
    assert rows[3][4] == "yes"  # blank answer
    assert rows[4][1] == "'=1+1"
    assert out.startswith(f"graded 4 rows into {out_path}")


def test_explain_and_rules(files, capsys):
    code, out, _ = run(["explain", "--model", files["model"], "the gap stops the current"], capsys)
    assert code == 0 and out.startswith("1 mark: says the circuit has a gap") and "rule" in out
    assert "found in the answer:\n  says the circuit has a gap\n" in out and "concept:" not in out
    code, out, _ = run(["explain", "--model", files["model"], "--json", "the gap stops the current"], capsys)
    data = json.loads(out)
    assert code == 0 and data["explanation"]["label"] == "1"
    assert data["features_found"]["concept:gap"] == "present"
    code, text, _ = run(["rules", "--model", files["model"]], capsys)
    assert code == 0 and text.startswith("R1 [")
    code, asp, _ = run(["rules", "--model", files["model"], "--format", "asp"], capsys)
    assert code == 0 and "mark(X," in asp
    code, yaml_text, _ = run(["rules", "--model", files["model"], "--format", "yaml"], capsys)
    assert code == 0 and "mark:" in yaml_text


def test_evaluate_prints_and_writes_the_report(files, capsys, tmp_path):
    report = tmp_path / "report.json"
    code, out, err = run(["evaluate", "--question", files["question"], "--answers", files["marked"],
                          "--folds", "3", "--json", report], capsys)
    assert code == 0, err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["folds"] == 3 and data["n"] == 100
    assert f"{data['accuracy']:.3f}" in out and "flag below" in out


def test_grade_an_exam_file(capsys, tmp_path):
    out_path = tmp_path / "graded.csv"
    code, out, err = run(["grade", "--exam", SAMPLE / "exam" / "exam.yaml", "--out", out_path,
                          "--no-progress", "--save-models", tmp_path], capsys)
    assert code == 0, err
    rows = read_csv(out_path)
    source = read_csv(SAMPLE / "exam" / "responses.csv")
    assert rows[0][:len(source[0])] == source[0]
    for qid in ("vertical_throw", "open_circuit_bulb", "resistor_current"):
        assert f"{qid}:mark" in rows[0] and (tmp_path / f"{qid}.model.json").exists()
    assert len(rows) == len([r for r in source if r])
    marks = {r[rows[0].index("vertical_throw:mark")] for r in rows[1:]}
    assert marks <= {"", "0", "0.5", "1"} and len(marks) > 1


@pytest.mark.parametrize("argv,message", [
    (["train", "--question", "{folder}/nope.yaml", "--answers", "{marked}", "--model", "{folder}/x.json"],
     "nope.yaml"),
    (["train", "--question", "{question}", "--answers", "{marked}", "--model", "{folder}/x.json",
      "--answer-column", "answr"], "did you mean 'answer'"),
    (["grade", "--model", "{marked}", "--answers", "{exam}", "--out", "{folder}/g.csv"],
     "not a grading model file"),
    (["grade", "--model", "{model}", "--answers", "{exam}", "--out", "{folder}/g.csv"],
     "no answer column 'answer'"),
    (["grade", "--model", "{model}", "--out", "{folder}/g.csv"], "needs --answers"),
    (["grade", "--model", "{model}", "--answers", "{exam}", "--out", "{folder}/missing/g.csv",
      "--answer-column", "answer text"], "no such folder"),
    (["explain", "--model", "{folder}/none.json", "x"], "no such model file"),
    (["evaluate", "--question", "{question}", "--answers", "{marked}", "--folds", "1000"],
     "too few marked answers"),
])
def test_documented_errors_are_one_line_with_status_2(files, capsys, argv, message):
    code, out, err = run([a.format(**files) for a in argv], capsys)
    assert code == 2
    assert err.startswith("grader: error: ") and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_bad_question_file_lists_each_problem(files, capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(QUESTION_YAML.replace("marks:", "makrs:").replace("  gap:", "  gap: [", 1), encoding="utf-8")
    code, out, err = run(["train", "--question", bad, "--answers", files["marked"], "--model",
                          tmp_path / "m.json"], capsys)
    assert code == 2 and "Traceback" not in err
    assert all(line.startswith("grader: error: ") for line in err.strip().splitlines())
    assert "bad.yaml:" in err
    assert not (tmp_path / "m.json").exists()


def test_usage_errors_and_version(capsys):
    code, out, err = run(["grade", "--flag-below", "2", "--model", "m", "--out", "o"], capsys)
    assert code == 2 and "between 0 and 1" in err
    code, out, err = run(["--version"], capsys)
    assert code == 0 and out.startswith("grader ")


def test_unexpected_errors_are_one_line_with_status_1(files, capsys, monkeypatch):
    def boom(args):
        raise RuntimeError("disk\non fire")

    monkeypatch.setitem(cli.COMMANDS, "rules", boom)
    code, out, err = run(["rules", "--model", files["model"]], capsys)
    assert code == 1
    assert err == "grader: error: unexpected RuntimeError: disk on fire (run with --debug for details)\n"
    with pytest.raises(RuntimeError):
        main(["--debug", "rules", "--model", str(files["model"])])


def test_output_piped_into_a_reader_that_stops_ends_quietly(files, tmp_path):
    # `grader rules --model m.json | head -3`: head closes the pipe, and the command printed
    # "grader: error: [Errno 32] Broken pipe" as if something had gone wrong
    import subprocess
    import sys
    code = ("import sys; sys.argv = ['grader', 'rules', '--model', sys.argv[1]]\n"
            "from grader.cli import main; sys.exit(main())")
    proc = subprocess.Popen([sys.executable, "-c", code, str(files["model"])], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
    proc.stdout.close()  # the reader stops before the first line
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert err == ""
    assert proc.returncode == 1


def test_an_interrupted_grade_resumes_when_run_again(files, capsys, tmp_path, monkeypatch):
    from grader.grading.model import GradingModel

    src = tmp_path / "big.csv"
    answers, _ = marked_answers()
    with open(src, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["id", "answer"]] + [[f"s{i}", a] for i, a in enumerate(answers * 3)])
    argv = ["grade", "--model", files["model"], "--answers", src, "--chunk-size", "40", "--no-progress"]
    assert run(argv + ["--out", tmp_path / "reference.csv"], capsys)[0] == 0

    grade = GradingModel.grade
    calls = []

    def interrupted(self, answers, flag_below=0.7):
        calls.append(len(answers))
        if len(calls) == 4:
            raise KeyboardInterrupt
        return grade(self, answers, flag_below)

    monkeypatch.setattr(GradingModel, "grade", interrupted)
    code, out, err = run(argv + ["--out", tmp_path / "graded.csv"], capsys)
    assert code == 130 and "resumes" in err and "Traceback" not in err
    assert not (tmp_path / "graded.csv").exists()
    monkeypatch.setattr(GradingModel, "grade", grade)
    code, out, err = run(argv + ["--out", tmp_path / "graded.csv"], capsys)
    assert code == 0 and "(120 of them from the interrupted run)" in out
    assert (tmp_path / "graded.csv").read_bytes() == (tmp_path / "reference.csv").read_bytes()


def test_debug_is_accepted_after_the_command(files, monkeypatch):
    def boom(args):
        raise RuntimeError("boom")

    monkeypatch.setitem(cli.COMMANDS, "rules", boom)
    with pytest.raises(RuntimeError):
        main(["rules", "--model", str(files["model"]), "--debug"])


def test_warnings_are_one_line(files, capsys, monkeypatch):
    import warnings

    def warns(args):
        warnings.warn("column x has only\nmissing values", UserWarning)
        return 0

    monkeypatch.setitem(cli.COMMANDS, "rules", warns)
    code, out, err = run(["rules", "--model", files["model"]], capsys)
    assert code == 0 and err == "grader: warning: column x has only missing values\n"


def test_an_exam_run_that_trains_its_models_also_resumes(files, capsys, tmp_path, monkeypatch):
    from grader.grading.model import GradingModel

    exam = tmp_path / "exam.yaml"
    exam.write_text(f"answers: {files['exam']}\nlayout: long\nanswer_column: Answer text\nquestions:\n"
                    f"  - id: open_bulb\n    question: {files['question']}\n    training: {files['marked']}\n",
                    encoding="utf-8")
    argv = ["grade", "--exam", exam, "--out", tmp_path / "graded.csv", "--chunk-size", "1", "--no-progress"]
    grade = GradingModel.grade
    calls = []

    def interrupted(self, answers, flag_below=0.7):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return grade(self, answers, flag_below)

    monkeypatch.setattr(GradingModel, "grade", interrupted)
    assert run(argv, capsys)[0] == 130
    monkeypatch.setattr(GradingModel, "grade", grade)
    code, out, err = run(argv, capsys)  # trains the model again: the same model, so it resumes
    assert code == 0, err
    assert "(2 of them from the interrupted run)" in out
    assert [r[0] for r in read_csv(tmp_path / "graded.csv")] == ["Student", "ann", "bob", "cy", "dee"]


def test_an_exam_with_a_wrong_column_fails_before_training(files, capsys, tmp_path, monkeypatch):
    from grader.grading.model import GradingModel

    exam = tmp_path / "exam.yaml"
    exam.write_text(f"answers: {files['exam']}\nlayout: wide\nquestions:\n  - id: open_bulb\n"
                    f"    question: {files['question']}\n    training: {files['marked']}\n"
                    f"    column: Answer txt\n", encoding="utf-8")

    def no_training(*args, **kwargs):
        raise AssertionError("trained before checking the columns")

    monkeypatch.setattr(GradingModel, "train", no_training)
    code, out, err = run(["grade", "--exam", exam, "--out", tmp_path / "g.csv"], capsys)
    assert code == 2 and "no answer column 'Answer txt', did you mean 'Answer text'" in err


def test_the_spacy_fallback_is_said_with_verbose_not_by_every_command(files):
    """Issue 15, item 12: the fallback line came before the output of every command."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "grader.cli", "explain", "--model", str(files["model"]),
            "the gap stops the current"]
    env = {k: v for k, v in __import__("os").environ.items() if k != "GRADER_SPACY_MODEL"}
    env["GRADER_SPACY_MODEL"] = "en_core_web_sm_not_here"  # the fallback, whatever is installed
    quiet = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert quiet.returncode == 0, quiet.stderr
    assert "falling back" not in quiet.stderr and "rule" in quiet.stdout
    verbose = subprocess.run(argv[:3] + ["--verbose"] + argv[3:], capture_output=True, text=True,
                             env=env, timeout=300)
    assert verbose.returncode == 0, verbose.stderr
    assert "grader: features: spaCy model 'en_core_web_sm_not_here' is not installed" in verbose.stderr
    assert verbose.stdout == quiet.stdout


def test_help_and_argument_errors_come_before_spacy_and_pandas_are_imported():
    """`grader --help` and a mistyped option are answered at once: the command line imports
    the grading model (spaCy, pandas: about 1.5 s) only for a command that needs it."""
    import subprocess
    import sys

    probe = ("import sys\nfrom grader import cli\n"
             "try:\n    cli.main(['grade', '--no-such-option'])\nexcept SystemExit:\n    pass\n"
             "print(cli.main(['explain', '--model', 'no/such/model.json', 'an answer']))\n"
             "print(sorted(m for m in ('spacy', 'pandas', 'numpy', 'grader.grading.model') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["2", "[]"], done.stdout + done.stderr
    assert "grader grade: error:" in done.stderr
    assert "grader: error: no/such/model.json: no such model file" in done.stderr
    helped = subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--help"], capture_output=True,
                            text=True, timeout=120)
    assert helped.returncode == 0 and "default 0.7" in helped.stdout


@pytest.mark.parametrize("argv, message", [
    (["train", "--question", "{folder}", "--answers", "{marked}", "--model", "{folder}/m.json"],
     "{folder}: a folder, not a question file"),
    (["grade", "--exam", "{folder}/exam.yaml", "--out", "{folder}/g.csv"], "{folder}/exam.yaml: no such exam file"),
    (["features", "--model", "{model}", "--answers", "{folder}/none.csv"], "{folder}/none.csv: no such answers file"),
    (["suggest", "--question", "{question}", "--answers", "{marked}", "--marked", "{folder}/so_far.csv"],
     "{folder}/so_far.csv: no such answers file"),
    (["train-general", "--pair", "{question}:{marked}", "--pair", "{question}:{folder}/none.csv",
      "--model", "{folder}/g.json"], "{folder}/none.csv: no such answers file"),
])
def test_a_file_to_read_that_is_not_there_is_named_before_any_work(files, capsys, argv, message):
    code, out, err = run([a.format(**files) for a in argv], capsys)
    assert code == 2 and err == f"grader: error: {message.format(**files)}\n"


def test_files_an_exam_names_that_are_not_there_are_all_said_at_their_lines_before_any_work(tmp_path):
    """A typo in the last question's file name used to surface after the first questions'
    models were trained (seconds of work lost); now every missing file is named, at the line of
    the exam file naming it, before spaCy or pandas is even imported."""
    import shutil
    import subprocess
    import sys

    sample = Path(__file__).resolve().parents[1] / "sample_data"
    shutil.copytree(sample, tmp_path / "s")
    exam = tmp_path / "s" / "exam" / "exam.yaml"
    text = exam.read_text(encoding="utf-8")
    text = text.replace("training: ../resistor_current/marked.csv", "training: ../resistor_current/marks.csv")
    text = text.replace("question: ../vertical_throw/question.yaml", "question: ../vertical_throw")
    exam.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    folder_line = next(i for i, l in enumerate(lines, 1) if l.strip() == "question: ../vertical_throw")
    missing_line = next(i for i, l in enumerate(lines, 1) if "marks.csv" in l)
    probe = ("import sys\nfrom grader import cli\n"
             f"print(cli.main(['grade', '--exam', {str(exam)!r}, '--out', {str(tmp_path / 'g.csv')!r}]))\n"
             "print(sorted(m for m in ('spacy', 'pandas', 'grader.grading.model') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["2", "[]"], done.stdout + done.stderr
    errors = done.stderr.splitlines()
    assert errors == [
        f"grader: error: {exam}:{folder_line}:15: question 'vertical_throw': the question file "
        f"{exam.parent / '../vertical_throw'} is a folder, not a file",
        f"grader: error: {exam}:{missing_line}:15: question 'resistor_current': the marked answers file "
        f"{exam.parent / '../resistor_current/marks.csv'} does not exist"], done.stderr
    assert not (tmp_path / "g.csv").exists()


def test_a_question_without_marked_answers_is_said_before_the_others_are_trained(files, capsys):
    """It was said after the questions before it had been trained (seconds lost each time)."""
    folder = files["folder"]
    exam = folder / "unmarked_exam.yaml"
    exam.write_text(f"answers: exam.csv\nlayout: long\nquestion_column: Student\nanswer_column: Answer text\n"
                    f"questions:\n  - {{id: q1, question: question.yaml, training: marked.csv}}\n"
                    f"  - {{id: q2, question: question.yaml}}\n", encoding="utf-8")
    code, out, err = run(["grade", "--exam", exam, "--out", folder / "unmarked_graded.csv"], capsys)
    assert code == 2 and "question 'q2' has no marked answers" in err
    assert "training q1" not in err


def test_train_on_too_few_answers_to_cross_validate_writes_the_model_and_says_why_it_is_not_calibrated(
        files, capsys):
    """Four marked answers train a model, but not five folds: train used to fail outright
    (keeping cross-validated confidences is its default, not something the teacher asked for)."""
    folder = files["folder"]
    few = folder / "four.csv"
    few.write_text("id,answer,mark\n1,there is a gap,1\n2,the circuit is open,1\n3,the battery is dead,0\n"
                   "4,i dont know,0\n", encoding="utf-8")
    code, out, err = run(["train", "--question", files["question"], "--answers", few,
                          "--model", folder / "four.json"], capsys)
    assert code == 0 and "model written to" in out and "cross-validated confidences (for" not in out
    assert "too few marked answers for 5-fold cross-validation (4 answers" in err
    assert json.loads((folder / "four.json").read_text(encoding="utf-8")).get("calibration") is None
    code, out, err = run(["grade", "--model", folder / "four.json", "--answers", files["exam"],
                          "--answer-column", "Answer text", "--out", folder / "four_graded.csv",
                          "--target-accuracy", "0.9"], capsys)
    assert code == 2 and "no cross-validated confidences" in err


def test_explain_takes_answers_by_their_id_in_an_exam_file(files, capsys):
    exam = ["explain", "--model", files["model"], "--answers", files["exam"], "--id-column", "Student",
            "--answer-column", "Answer text"]
    code, out, err = run(exam + ["--id", "bob", "--id", "ann"], capsys)
    assert code == 0, err
    bob, ann = out.split("\n\nann: ")
    assert bob.startswith('bob: "the battery is dead"\n0 marks: ') and ann.startswith('"there is a gap so no current"\n1 mark: ')
    code, out, _ = run(exam + ["--id", "ann", "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and [r["id"] for r in report] == ["ann"] and report[0]["explanation"]["label"] == "1"
    code, _, err = run(exam + ["--id", "zed"], capsys)
    assert code == 2 and "no answer with id 'zed'" in err
    code, _, err = run(["explain", "--model", files["model"]], capsys)
    assert code == 2 and "give an answer's text, or --answers exam.csv with --id ID" in err


def test_explain_by_id_gives_every_answer_of_an_id_the_file_repeats(files, capsys, tmp_path):
    exam = tmp_path / "twice.csv"
    exam.write_text("id,answer\na1,there is a gap\na2,no idea\na1,the battery is dead\n", encoding="utf-8")
    code, out, err = run(["explain", "--model", files["model"], "--answers", exam, "--id", "a1"], capsys)
    assert code == 0, err
    assert 'a1 (row 2): "there is a gap"' in out and 'a1 (row 4): "the battery is dead"' in out
