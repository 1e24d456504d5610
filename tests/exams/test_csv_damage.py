"""Damaged and unreadable exports found by probing (issue 11): rows are never merged or lost
silently, unreadable files are a clear error with status 2, every answer keeps its own id."""

from __future__ import annotations

import os

import numpy as np
import pytest

from grader.app.session import _unique_ids
from grader.app.uploads import megabytes
from grader.cli import main
from grader.exams.csv_reader import CSVFormatError, read_table

LOST = 'id,answer\nr1,9.8 down\nr2,"gravity pulls it down\nr3,9.8 m/s^2\nr4,zero\nr5,"9.8 downwards"\nr6,ok\n'


def test_a_quote_that_swallows_rows_is_reported_with_the_rows(tmp_path):
    path = tmp_path / "exam.csv"
    path.write_text(LOST, encoding="utf-8")
    with pytest.raises(CSVFormatError, match=r"row 3: .*'r3', 'r4', 'r5'.*check the quotes of the answer on row 3"):
        read_table(path)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_a_swallowed_row_with_fewer_cells_than_the_header_is_reported(tmp_path, sep):
    # the quote opened in p1's answer closes inside p2's, so p2's line ends in the middle of
    # its row: fewer cells than the header on that line, the rest after the closing quote
    path = tmp_path / "exam.csv"
    path.write_text(f'id{sep}who{sep}answer{sep}note\np1{sep}Kim{sep}"no idea{sep}sorry\n'
                    f'p2{sep}Sam{sep}"it floats{sep} since it is light"{sep}\np3{sep}Jo{sep}sinks{sep}y\n',
                    encoding="utf-8")
    with pytest.raises(CSVFormatError, match=r"row 2: .*'p2'.*check the quotes of the answer on row 2"):
        read_table(path)


def test_a_row_swallowed_up_to_its_own_line_break_is_reported(tmp_path):
    # p1's stray quote closes at the quote opening p2's multi-line answer: the record ends
    # inside p2's row, and the rest of p2's answer is split off into records of its own
    path = tmp_path / "exam.csv"
    path.write_text('id\twho\tanswer\tnote\np1\t"Kim\tno idea\tx\np2\tSam\t"V = I R\nso I = 2 A"\tlate\n'
                    'p3\tJo\tsinks\ty\n', encoding="utf-8")
    with pytest.raises(CSVFormatError, match=r"row 2: .*'p2'"):
        read_table(path)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_answers_with_line_breaks_still_read(tmp_path, sep):
    path = tmp_path / "exam.csv"
    path.write_text(f'id{sep}answer\nr1{sep}"first line{sep}\nsecond line{sep} with more\nr3 is named here"\n'
                    f'r2{sep}ok\n', encoding="utf-8")
    frame, rows, _ = read_table(path)
    assert frame["id"].tolist() == ["r1", "r2"] and rows.tolist() == [2, 3]
    assert frame["answer"].iloc[0].count("\n") == 2


def test_a_grade_run_on_a_file_that_swallows_rows_exits_2(tmp_path, capsys):
    from tests.data import QUESTION_YAML, marked_answers, write_marked_csv

    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    answers, marks = marked_answers()
    marked = write_marked_csv(tmp_path / "marked.csv", answers, marks)
    exam = tmp_path / "exam.csv"
    exam.write_text(LOST, encoding="utf-8")
    out = tmp_path / "graded.csv"
    model = tmp_path / "m.json"
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(model)]) == 0
    capsys.readouterr()
    code = main(["grade", "--model", str(model), "--answers", str(exam), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "row 3" in err and "'r3'" in err and not out.exists()


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "utf-32"])
def test_utf16_and_utf32_without_or_with_a_bom_are_read(tmp_path, encoding):
    path = tmp_path / "exam.csv"
    path.write_bytes("id,answer\nr1,9.8 m/s² down\nr2,café\n".encode(encoding))
    frame, rows, _ = read_table(path)
    assert frame["answer"].tolist() == ["9.8 m/s² down", "café"]


@pytest.mark.parametrize("content,what", [
    (b"PK\x03\x04" + bytes(range(256)), "spreadsheet workbook"),
    (b"%PDF-1.4\n" + bytes(range(256)), "PDF"),
    (os.urandom(4096) + b"\x00\x00\x01", "not a text file"),
])
def test_files_that_are_no_text_are_a_clear_error_with_status_2(tmp_path, capsys, content, what):
    path = tmp_path / "exam.csv"
    path.write_bytes(content)
    with pytest.raises(CSVFormatError, match=what):
        read_table(path)
    from tests.data import QUESTION_YAML
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    code = main(["train", "--question", str(question), "--answers", str(path), "--model", str(tmp_path / "m.json")])
    err = capsys.readouterr().err
    assert code == 2 and what in err and "unexpected" not in err


def test_every_answer_keeps_its_own_id():
    warnings: list[str] = []
    ids = _unique_ids(["a", "a", "a (row 3)", "", "row 6"], np.array([2, 3, 4, 5, 6]), "x.csv", warnings)
    assert len(set(ids)) == 5 and ids[2] == "a (row 3)" and ids[4] == "row 6"
    assert len(warnings) == 1 and "'a' appears again on row 3" in warnings[0]


def test_upload_limits_are_shown_in_the_settings_megabytes():
    assert megabytes(20 * 1024 * 1024) == "20 MB"
    assert megabytes(int(20.5 * 1024 * 1024)) == "20.5 MB"


@pytest.mark.parametrize("line,where,words", [
    ("name: 2024-13-45", None, None),  # a name that looks like a date is a name
    ("name: !!int abc", ":1:7:", "YAML tags"),
    ("name: " + "[" * 500 + "]" * 500, ":1:", "nested too deeply"),
])
def test_exam_files_are_read_as_plain_values_with_located_problems(tmp_path, line, where, words):
    from grader.exams.exam_io import read_exam

    path = tmp_path / "exam.yaml"
    path.write_text(f"{line}\nanswers: x.csv\nquestions:\n  - {{id: q, column: a, model: m.json}}\n", encoding="utf-8")
    if words is None:
        assert read_exam(path).name == "2024-13-45"
    else:
        with pytest.raises(CSVFormatError, match=words) as info:
            read_exam(path)
        assert f"{path}{where}" in str(info.value)


def test_a_grade_run_that_ends_with_a_clear_error_leaves_nothing_to_resume(tmp_path, capsys):
    """The .partial file of a run refused for a damaged row was taken for an interrupted run:
    the corrected command was refused until --restart."""
    from tests.data import QUESTION_YAML, marked_answers, write_marked_csv

    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    answers, marks = marked_answers()
    model = tmp_path / "m.json"
    assert main(["train", "--question", str(question), "--answers",
                 str(write_marked_csv(tmp_path / "marked.csv", answers, marks)), "--model", str(model)]) == 0
    good = "".join(f"s{i},the switch is open so no current {i}\n" for i in range(1, 9))
    exam, out = tmp_path / "exam.csv", tmp_path / "graded.csv"
    exam.write_text("id,answer\n" + good + LOST.split("\n", 1)[1], encoding="utf-8")  # damaged after 2 chunks
    command = ["grade", "--model", str(model), "--answers", str(exam), "--out", str(out), "--chunk-size", "3"]
    assert main(command) == 2
    assert not list(tmp_path.glob("graded.csv*"))
    exam.write_text("id,answer\n" + good + LOST.split("\n", 1)[1].replace('r2,"', "r2,"), encoding="utf-8")
    capsys.readouterr()
    assert main(command) == 0, capsys.readouterr().err
    assert out.exists() and not list(tmp_path.glob("graded.csv.partial*"))
