"""`grader rules --format clingo` and `grader features --format clingo`: clingo, run on the printed
program and facts, derives for every answer the mark `grader grade` gives (issue 16)."""

from __future__ import annotations

import pytest

from grader.cli import main
from grader.exams.exam_io import read_marked_answers
from grader.grading.model import GradingModel
from knowledge import load_question
from tests.data import SAMPLE

import clingo  # noqa: E402 - a test dependency (pyproject [test])


def _clingo_marks(program: str, facts: str, n: int) -> list:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program + "\n" + facts)
    ctl.ground([("base", [])])
    marks: list = [None] * n
    models = []
    ctl.solve(on_model=lambda m: models.append(list(m.symbols(atoms=True))))
    assert len(models) == 1
    for s in models[0]:
        if s.name == "mark" and len(s.arguments) == 2:
            row = s.arguments[0].number
            assert marks[row] is None, f"row {row} gets two marks"
            marks[row] = s.arguments[1].string
    return marks


@pytest.mark.parametrize("name", ["vertical_throw", "open_circuit_bulb", "resistor_current"])
def test_clingo_derives_the_marks_grade_gives(name, tmp_path, capsys):
    folder = SAMPLE / name
    question = load_question(folder / "question.yaml")
    marked = read_marked_answers(folder / "marked.csv", marks=question.marks)
    model = GradingModel.train(question, marked.answers, marked.marks, n_resamples=0)
    model.save(tmp_path / "m.json")
    exam = tmp_path / "answers.csv"
    exam.write_text("id,answer\n" + "".join(f'{i},"{a.replace(chr(34), chr(34) * 2)}"\n'
                                            for i, a in zip(marked.ids, marked.answers)), encoding="utf-8")
    assert main(["rules", "--model", str(tmp_path / "m.json"), "--format", "clingo"]) == 0
    program = capsys.readouterr().out
    assert "::" not in program  # confidences are comments in the clingo dialect
    assert main(["features", "--model", str(tmp_path / "m.json"), "--answers", str(exam), "--format", "clingo",
                 "--out", str(tmp_path / "facts.lp")]) == 0
    facts = (tmp_path / "facts.lp").read_text(encoding="utf-8")
    assert f'answer_id(0,"{marked.ids[0]}").' in facts
    expected = [None if m is None else str(m) for m in model.grade(marked.answers)["mark"]]
    assert _clingo_marks(program, facts, len(marked.answers)) == expected


def test_the_feature_table_as_csv_and_its_output_file_guarded(tmp_path, capsys):
    folder = SAMPLE / "open_circuit_bulb"
    assert main(["train", "--question", str(folder / "question.yaml"), "--answers", str(folder / "marked.csv"),
                 "--model", str(tmp_path / "m.json"), "--resamples", "0"]) == 0
    capsys.readouterr()
    out = tmp_path / "features.csv"
    args = ["features", "--model", str(tmp_path / "m.json"), "--answers", str(folder / "marked.csv"), "--out", str(out)]
    assert main(args) == 0
    header = out.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[0] == "id" and "coverage" in header and "non_answer" in header
    assert main(args) == 0  # its own earlier output may be replaced
    assert main(args[:-1] + [str(folder / "marked.csv")]) == 2  # never an input
    assert "input" in capsys.readouterr().err
