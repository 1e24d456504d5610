"""Reading messy CSV exports and writing safe CSV (grader.exams.exam_io)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.exams.exam_io import (CSVFormatError, detect_format, marks_from_answers, neutralise, read_exam,
                            read_marked_answers, read_table, write_csv_safely)

ROWS = [["id", "answer", "mark"],
        ["s1", "Café: it’s 9,8 m/s² downward – 100 °C", "1"],
        ["s2", "NA", "0"],
        ["s3", "first line\nsecond line; with a semicolon, and a comma", "0.5"],
        ["s4", "", "0"],
        ["s5", "the bulb is not connected", "1"]]


def write_rows(path: Path, rows, encoding="utf-8", delimiter=",") -> Path:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    path.write_bytes(buffer.getvalue().encode(encoding))
    return path


@pytest.mark.parametrize("encoding,delimiter", [("utf-8", ","), ("utf-8-sig", ","), ("cp1252", ";"),
                                                ("utf-8-sig", ";"), ("utf-8", "\t"), ("cp1252", ","),
                                                ("utf-16", ";")])
def test_encodings_and_separators_are_detected(tmp_path, encoding, delimiter):
    path = write_rows(tmp_path / "marked.csv", ROWS, encoding, delimiter)
    fmt = detect_format(path)
    assert fmt.delimiter == delimiter
    marked = read_marked_answers(path, marks=("0", "0.5", "1"))
    assert marked.answers == [r[1] for r in ROWS[1:]]
    assert marked.ids == ["s1", "s2", "s3", "s4", "s5"]
    assert marked.marks == ["1", "0", "0.5", "0", "1"]


def test_row_numbers_count_records_not_lines(tmp_path):
    rows = ROWS[:4] + [["s4", "too", "many", "cells"]]
    path = write_rows(tmp_path / "bad.csv", rows)
    # s3's answer spans two physical lines, but a spreadsheet shows it as row 4; s4 is row 5
    with pytest.raises(CSVFormatError, match=r"bad\.csv: row 5: 4 cells but the header has 3") as info:
        read_table(path)
    # how the file was read, in words (was "separator detected: utf-8, comma-separated")
    assert "(read as UTF-8 text with a comma between cells)" in str(info.value)
    frame, rows_, _ = read_table(write_rows(tmp_path / "ok.csv", ROWS))
    assert rows_.tolist() == [2, 3, 4, 5, 6]
    assert frame.loc[1, "answer"] == "NA"  # "NA" is an answer, not a missing value


def test_short_rows_are_padded_and_blank_lines_skipped(tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("id,answer,mark\r\ns1,gravity\r\n\r\ns2,down,1\r\n", encoding="utf-8")
    frame, rows, _ = read_table(path)
    assert frame.values.tolist() == [["s1", "gravity", ""], ["s2", "down", "1"]]
    assert rows.tolist() == [2, 4]


def test_unmarked_rows_are_left_out_with_a_warning(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("id,answer,mark\ns1,a,1\ns2,b,\ns3,c,0\n", encoding="utf-8")
    marked = read_marked_answers(path)
    assert marked.ids == ["s1", "s3"]
    assert len(marked.warnings) == 1 and "(row 3)" in marked.warnings[0]


def test_wrong_column_name_lists_columns_and_closest_match(tmp_path):
    path = write_rows(tmp_path / "marked.csv", ROWS)
    with pytest.raises(CSVFormatError) as e:
        read_marked_answers(path, answer_column="anwser")
    assert "did you mean 'answer'" in str(e.value)
    assert "'id', 'answer', 'mark'" in str(e.value)
    # case and spaces are forgiven
    assert read_marked_answers(path, answer_column=" Answer ").answers[0].startswith("Café")


def test_duplicate_ids_in_marked_answers_are_an_error_with_rows(tmp_path):
    rows = ROWS + [["s2", "again", "1"]]
    with pytest.raises(CSVFormatError, match=r"duplicate ids.*'s2' on rows 3, 7"):
        read_marked_answers(write_rows(tmp_path / "dup.csv", rows))


def test_marks_are_matched_to_the_question_spelling(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("answer;mark\na;1.0\nb;0\nc;0,5\n", encoding="utf-8")
    marked = read_marked_answers(path, marks=("0", "0.5", "1"))
    assert marked.marks == ["1", "0", "0.5"]
    assert marked.ids == ["2", "3", "4"]  # no id column: spreadsheet rows are the ids
    path.write_text("answer,mark\na,1\nb,2\nc,two\nd,2\n", encoding="utf-8")
    with pytest.raises(CSVFormatError, match=r"'2' on rows 3, 5; 'two' on row 4"):
        read_marked_answers(path, marks=("0", "0.5", "1"))


def test_an_explicit_id_column_must_exist(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("answer,mark\na,1\nb,0\n", encoding="utf-8")
    with pytest.raises(CSVFormatError, match="no id column 'student'"):
        read_marked_answers(path, id_column="student")


def test_marks_from_answers_orders_numbers_numerically():
    assert marks_from_answers(["1", "0.5", "10", "0", "2"]) == ("0", "0.5", "1", "2", "10")
    assert marks_from_answers(["partially_correct", "correct", "incorrect"]) == (
        "correct", "incorrect", "partially_correct")


def test_empty_file_and_missing_file(tmp_path):
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    with pytest.raises(CSVFormatError, match="empty"):
        read_table(tmp_path / "empty.csv")
    with pytest.raises(FileNotFoundError, match="nope.csv"):
        read_table(tmp_path / "nope.csv")


@pytest.mark.parametrize("cell", ["=1+1", "+41 20", "-5", "@SUM(A1)", "\tcmd", "\rx", "=HYPERLINK(\"x\")",
                                  "\uff1dcmd"])
def test_formula_cells_are_neutralised(cell):
    assert neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["9.8 m/s^2", "a = F/m", "' quoted", "", "0.5"])
def test_plain_cells_are_left_alone(cell):
    assert neutralise(cell) == cell


@pytest.mark.parametrize("cell", ["-9.8 m/s^2", "-9.8 m s^-2, downwards", "+3 V across it", "-9,8 m/s²",
                                  "-10 N/kg", "-3 A1", "-9.8 m/s^2 (down)", "-1 cmd|' /C calc'!A0", "-2+3",
                                  "-A1", "+1 =2", "-9.8 m/s^2\r=1", "-HYPERLINK(\"x\")", "- no idea", "-"])
def test_every_cell_starting_with_a_sign_is_neutralised(cell):
    """Issue 32, defect 8: docs/cli.md says every cell starting with = + - @ tab or CR gets a
    quote; a signed number with a unit was left alone, and "+3 V across it" is a formula of
    three names to a spreadsheet, "-3 A1" one that reads another cell."""
    assert neutralise(cell) == "'" + cell


def test_a_neutralised_cell_reads_back_as_written():
    from grader.exams.exam_io import written_text

    for cell in ["-9.8 m/s^2", "=1+1", "' quoted", "'-5", "fine", ""]:
        assert neutralise(written_text(neutralise(cell))) == neutralise(cell)
        assert written_text(neutralise(cell)) == cell or cell.startswith("'")


def test_write_csv_safely_neutralises_and_replaces_atomically(tmp_path):
    import pandas as pd

    out = tmp_path / "graded.csv"
    out.write_text("old content", encoding="utf-8")
    frame = pd.DataFrame({"answer": ["=cmd|'/C calc'!A0", "fine", None], "mark": ["1", "-1", "0.5"],
                          "confidence": [0.5, float("nan"), 1.0]})
    write_csv_safely(frame, out)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # a BOM, so that spreadsheets read UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert rows == [["answer", "mark", "confidence"], ["'=cmd|'/C calc'!A0", "1", "0.5"],
                    ["fine", "'-1", ""], ["", "0.5", "1.0"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graded.csv"]  # no temp file left


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                                 max_size=20), min_size=2, max_size=2), min_size=1, max_size=8))
def test_written_cells_read_back_neutralised(tmp_path_factory, cells):
    import pandas as pd

    path = tmp_path_factory.mktemp("rt") / "out.csv"
    write_csv_safely(pd.DataFrame(cells, columns=["a", "b"]), path)
    frame, _, fmt = read_table(path)
    expected = [[neutralise(c) for c in row] for row in cells]
    assert frame.values.tolist() == expected
    assert fmt.delimiter == ","


EXAM = """\
name: Quiz 3
answers: responses.csv
layout: wide
id_column: Email address
questions:
  - id: vertical_throw
    question: ../vt/question.yaml
    column: Response 1
    training: ../vt/marked.csv
  - id: resistor_current
    model: models/rc.json
    column: Response 2
"""


def test_read_exam_resolves_paths_relative_to_the_file(tmp_path):
    path = tmp_path / "exam" / "exam.yaml"
    path.parent.mkdir()
    path.write_text(EXAM, encoding="utf-8")
    exam = read_exam(path)
    assert exam.layout == "wide" and exam.id_column == "Email address"
    assert exam.answers == path.parent / "responses.csv"
    vt, rc = exam.questions
    assert (vt.column, vt.question, vt.training, vt.model) == (
        "Response 1", path.parent / "../vt/question.yaml", path.parent / "../vt/marked.csv", None)
    assert rc.model == path.parent / "models/rc.json"


@pytest.mark.parametrize("change,message", [
    (("layout: wide", "layout: tall"), "layout must be 'wide' or 'long'"),
    (("    column: Response 2\n", ""), "'resistor_current' needs the 'column'"),
    (("name:", "nmae:"), "unknown key"),
    (("  - id: vertical_throw", "  - id: resistor_current"), "appears twice"),
    (("questions:", "questions: [\n"), r"exam\.yaml:\d+:\d+: the list opened here is not closed"),
    (("answers: responses.csv", "answers: [a, b]"), r"'answers' must be a file name, not \['a', 'b'\]"),
    (("model: models/rc.json", "model: 5"), "question 'resistor_current': 'model' must be a file name, not 5"),
])
def test_read_exam_errors(tmp_path, change, message):
    path = tmp_path / "exam.yaml"
    path.write_text(EXAM.replace(*change), encoding="utf-8")
    with pytest.raises(CSVFormatError, match=message):
        read_exam(path)


@pytest.mark.parametrize("change,line,column,message", [
    (("layout: wide", "layout: tall"), 3, 9, "layout must be 'wide' or 'long', not 'tall'"),
    (("name:", "nmae:"), 1, 1, "unknown key(s) nmae"),
    (("    column: Response 2\n", ""), 10, 5, "question 'resistor_current' needs the 'column'"),
    (("model: models/rc.json", "model: 5"), 11, 12, "question 'resistor_current': 'model' must be a file name"),
    (("    colum", "    nmae: x\n    colum"), 8, 5, "question 'vertical_throw': unknown key(s) nmae"),
    (("  - id: resistor_current", "  - id: vertical_throw"), 10, 5, "a question id appears twice: 'vertical_throw'"),
])
def test_read_exam_says_where_each_mistake_is(tmp_path, change, line, column, message):
    """Every mistake in an exam file is said at its line and column, as in a question file
    (they were said with the file name alone)."""
    path = tmp_path / "exam.yaml"
    path.write_text(EXAM.replace(*change, 1), encoding="utf-8")
    with pytest.raises(CSVFormatError) as info:
        read_exam(path)
    assert str(info.value).startswith(f"{path}:{line}:{column}: {message}"), str(info.value)


def test_every_missing_file_an_exam_names_is_listed_at_its_line(tmp_path):
    from grader.exams.exam_file import Exam, MissingFiles, check_named_files, missing_files

    path = tmp_path / "exam" / "exam.yaml"
    path.parent.mkdir()
    path.write_text(EXAM, encoding="utf-8")
    exam = read_exam(path)
    base = path.parent
    assert missing_files(exam) == [
        f"{path}:2:10: the exam export {base / 'responses.csv'} does not exist",
        f"{path}:7:15: question 'vertical_throw': the question file {base / '../vt/question.yaml'} does not exist",
        f"{path}:9:15: question 'vertical_throw': the marked answers file {base / '../vt/marked.csv'} does not exist",
        f"{path}:11:12: question 'resistor_current': the model file {base / 'models/rc.json'} does not exist"]
    (base / "responses.csv").write_text("x\n", encoding="utf-8")
    (tmp_path / "vt" / "question.yaml").mkdir(parents=True)
    (tmp_path / "vt" / "marked.csv").write_text("x\n", encoding="utf-8")
    (base / "models").mkdir()
    (base / "models" / "rc.json").write_text("{}", encoding="utf-8")
    with pytest.raises(MissingFiles) as info:
        check_named_files(exam)
    assert info.value.problems == [f"{path}:7:15: question 'vertical_throw': the question file "
                                   f"{base / '../vt/question.yaml'} is a folder, not a file"]
    (tmp_path / "vt" / "question.yaml").rmdir()
    (tmp_path / "vt" / "question.yaml").write_text("x\n", encoding="utf-8")
    check_named_files(exam)
    built = Exam(name="x", answers=tmp_path / "none.csv", layout="long", id_column=None, questions=())
    assert missing_files(built) == [f"the exam export {tmp_path / 'none.csv'} does not exist"]


def test_a_quote_never_closed_is_reported_at_its_row(tmp_path):
    path = tmp_path / "unclosed.csv"
    path.write_text('id,answer,mark\n1,fine,1\n2,"the bulb, it,0\n3,gap,1\n4,open,1\n', encoding="utf-8")
    with pytest.raises(CSVFormatError, match=r"row 3: a quote opened in this row is never closed"):
        read_table(path)
    # a multi-line answer in the last row, properly closed, is fine
    path.write_text('id,answer,mark\n1,"two\nlines",1\n2,"three\nlines\nhere",0', encoding="utf-8")
    assert read_table(path)[0]["answer"].tolist() == ["two\nlines", "three\nlines\nhere"]


@pytest.mark.parametrize("text,encoding", [
    ("it’s", "cp1252"), ("10 °C", "cp1252"), ("Größe", "cp1252"), ("½ a second", "cp1252"),
    ("café", "cp1252"), ("Ускорение направлено вниз, сила тяжести", "cp1251")])
def test_a_few_legacy_characters_are_decoded_right(tmp_path, text, encoding):
    # on a handful of accented bytes a statistical detector may guess an Asian encoding;
    # Western-looking bytes are read as Windows-1252, runs of them trust the detector
    path = write_rows(tmp_path / "one.csv", [["id", "answer"], ["1", text], ["2", "plain text"]], encoding)
    frame, _, fmt = read_table(path)
    assert frame["answer"].tolist() == [text, "plain text"]


def test_excel_sep_line_sets_the_separator_and_is_not_a_row(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_text("sep=;\r\nid;answer;mark\r\ns1;a, b and c;1\r\ns2;x;0\r\n", encoding="utf-8")
    frame, rows, fmt = read_table(path)
    assert fmt.delimiter == ";" and list(frame.columns) == ["id", "answer", "mark"]
    assert frame["answer"].tolist() == ["a, b and c", "x"] and rows.tolist() == [2, 3]

