"""The command line never writes over its own inputs, nor over a file of another kind
without --force; a refused run leaves every file byte for byte as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.cli import main
from grader.output_guard import GRADED_CSV, MODEL, REPORT_JSON, OutputRefused, check_output, sniff_kind
from tests.data import QUESTION_YAML, marked_answers, write_marked_csv


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("guard")
    question = folder / "question.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    marked = write_marked_csv(folder / "marked.csv", *marked_answers())
    model = folder / "model.json"
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(model)]) == 0
    exam = folder / "exam.csv"
    exam.write_text("id,answer\na,there is a gap so no current\nb,the battery is dead\n", encoding="utf-8")
    graded = folder / "graded.csv"
    assert main(["grade", "--model", str(model), "--answers", str(exam), "--out", str(graded),
                 "--no-progress"]) == 0
    return {"question": question, "marked": marked, "model": model, "exam": exam, "graded": graded}


@pytest.fixture
def files(made, tmp_path) -> dict[str, Path]:
    """A fresh copy of the files for each test, so a test may try to destroy them."""
    return {name: Path(shutil.copy(path, tmp_path / path.name)) for name, path in made.items()}


def refused(argv, files, capsys) -> str:
    before = {p: p.read_bytes() for p in files.values()}
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert {p: p.read_bytes() for p in files.values()} == before  # nothing changed
    return err


def train(files, out, *extra):
    return ["train", "--question", files["question"], "--answers", files["marked"], "--model", out, *extra]


@pytest.mark.parametrize("target", ["marked", "question"])
def test_train_never_writes_the_model_over_its_inputs(files, target, capsys):
    err = refused(train(files, files[target]), files, capsys)
    assert "also an input of the command" in err
    err = refused(train(files, files[target], "--force"), files, capsys)  # not even with --force
    assert "also an input of the command" in err


def test_an_input_reached_through_a_symlink_is_still_the_input(files, capsys, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(files["marked"])
    err = refused(train(files, link), files, capsys)
    assert "also an input" in err


def test_train_refuses_to_replace_a_csv_named_like_a_model_unless_forced(files, capsys, tmp_path):
    other = tmp_path / "other.json"  # a CSV by content, a model by name
    other.write_text("id,answer\n1,x\n", encoding="utf-8")
    files["other"] = other
    err = refused(train(files, other), files, capsys)
    assert "already exists and does not look like a model file" in err and "--force" in err
    assert main([str(a) for a in train(files, other, "--force")]) == 0
    assert json.loads(other.read_text(encoding="utf-8"))["format"] == "physics-grader-model"


def test_train_replaces_an_earlier_model(files, capsys):
    files["model"].write_text(files["model"].read_text(encoding="utf-8").replace('"answers": 100', '"answers": 7'),
                              encoding="utf-8")
    assert main([str(a) for a in train(files, files["model"])]) == 0
    assert json.loads(files["model"].read_text(encoding="utf-8"))["trained_on"]["answers"] == 100


@pytest.mark.parametrize("target", ["model", "exam"])
def test_grade_never_writes_over_its_inputs(files, target, capsys):
    err = refused(["grade", "--model", files["model"], "--answers", files["exam"], "--out", files[target],
                   "--force"], files, capsys)
    assert "also an input of the command" in err


def test_grade_refuses_to_write_over_a_model_or_a_marked_csv_unless_forced(files, capsys, tmp_path):
    argv = ["grade", "--model", files["model"], "--answers", files["exam"], "--no-progress", "--out"]
    for target in ("question", "marked"):  # not inputs of this command, but not graded CSVs either
        err = refused(argv + [files[target]], files, capsys)
        assert "already exists and" in err and ("not a graded CSV" in err or "does not look like a graded CSV" in err)
    other_model = Path(shutil.copy(files["model"], tmp_path / "graded2.csv"))
    files["other"] = other_model
    err = refused(argv + [other_model], files, capsys)
    assert "is a model file, not a graded CSV" in err
    assert main([str(a) for a in argv + [other_model, "--force"]]) == 0
    assert other_model.read_text(encoding="utf-8-sig").startswith("id,answer,mark")


def test_grade_replaces_an_earlier_graded_csv(files, capsys):
    files["graded"].write_text("id,answer,mark,confidence,flagged,rule,explanation\n", encoding="utf-8")
    assert main(["grade", "--model", str(files["model"]), "--answers", str(files["exam"]),
                 "--out", str(files["graded"]), "--no-progress"]) == 0
    assert len(files["graded"].read_text(encoding="utf-8-sig").splitlines()) == 3


def test_grade_with_an_exam_file_never_writes_over_the_files_it_names(files, capsys, tmp_path):
    exam = tmp_path / "exam.yaml"
    exam.write_text(f"answers: {files['exam']}\nlayout: long\nquestions:\n  - id: q1\n"
                    f"    question: {files['question']}\n    training: {files['marked']}\n", encoding="utf-8")
    files["exam_file"] = exam
    for target in (files["marked"], files["question"], exam, files["exam"]):
        err = refused(["grade", "--exam", exam, "--out", target, "--force"], files, capsys)
        assert "also an input of the command" in err
    # the models saved for the exam: q1.model.json here is the training CSV
    training = tmp_path / "saved" / "q1.model.json"
    training.parent.mkdir()
    training.write_bytes(files["marked"].read_bytes())
    exam.write_text(exam.read_text(encoding="utf-8").replace(str(files["marked"]), str(training)),
                    encoding="utf-8")
    files["training"] = training
    err = refused(["grade", "--exam", exam, "--out", tmp_path / "g.csv", "--save-models", training.parent,
                   "--force"], files, capsys)
    assert "also an input" in err and "q1.model.json" in err


def test_evaluate_never_writes_its_report_over_an_input_or_a_model(files, capsys):
    argv = ["evaluate", "--question", files["question"], "--answers", files["marked"], "--folds", "2", "--json"]
    err = refused(argv + [files["marked"], "--force"], files, capsys)
    assert "also an input" in err
    err = refused(argv + [files["model"]], files, capsys)
    assert "is a model file, not an evaluation report" in err


def test_sniffing_reads_content_not_names(files, tmp_path):
    assert sniff_kind(files["model"]) == MODEL
    assert sniff_kind(files["graded"]) == GRADED_CSV
    assert sniff_kind(files["marked"]) is None and sniff_kind(files["question"]) is None
    report = tmp_path / "r.csv"
    report.write_text(json.dumps({"n": 4, "folds": 2, "accuracy": 1.0, "qwk": 1.0, "curve": []}), encoding="utf-8")
    assert sniff_kind(report) == REPORT_JSON
    empty = tmp_path / "empty.csv"
    empty.touch()
    check_output(empty, MODEL, [files["marked"]])  # nothing to lose
    check_output(tmp_path / "new.json", MODEL, [files["marked"]])
    with pytest.raises(OutputRefused, match="not a regular file"):
        check_output(tmp_path, MODEL, [], force=True)


def test_a_rule_file_the_question_names_is_an_input_too(files, capsys, tmp_path):
    rules = tmp_path / "rules.lp"
    rules.write_text("mark(X,'1') :- concept(X,gap,present).\n", encoding="utf-8")
    files["question"].write_text(files["question"].read_text(encoding="utf-8")
                                 + "initial_rules:\n  - file: rules.lp\n", encoding="utf-8")
    files["rules"] = rules
    err = refused(train(files, rules, "--force"), files, capsys)
    assert "also an input of the command" in err


@pytest.mark.parametrize("name", ["graded.xlsx", "graded.XLS", "graded.ods"])
def test_csv_text_is_never_written_under_a_spreadsheets_own_name(tmp_path, name):
    # Excel refuses CSV text named .xlsx ("the file format or extension is not valid")
    with pytest.raises(OutputRefused, match=r"written as CSV text.*name it \.csv"):
        check_output(tmp_path / name, GRADED_CSV, [])
    check_output(tmp_path / "graded.csv", GRADED_CSV, [])  # a new .csv file is fine
    check_output(tmp_path / "model.xlsx.json", MODEL, [])  # other kinds keep any name
