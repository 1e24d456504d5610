"""Issue 32: the grade files going back to a learning platform (Moodle, Canvas), in the app and
from `grader grade --moodle/--canvas`: one row per student, only ids the export named, the
attempt the teacher chose, unfinished attempts and rows without an id left out and said,
feedback per question, the same bytes from the app's logic and from the command line."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from grader.app.export import csv_bytes, graded_answers
from grader.app.review import proposed_table, with_decisions
from grader.app.review_store import ReviewStore
from grader.app.session import read_exam_answers
from grader.app.settings import REPO
from grader.exams.batch import grade_file
from grader.exams.chunk_graders import exam_grader
from grader.exams.exam_io import read_exam
from grader.exams.grade_files import (ATTEMPTS, FEEDBACK, GRADED_COLUMNS, canvas_comments, canvas_file,
                                      highest_marks, moodle_file, student_grades)


def _graded(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=GRADED_COLUMNS)


def _attempts() -> pd.DataFrame:
    """A student with two attempts (rows 3 and 4: the first scores more), one in progress,
    an average row without an id."""
    return _graded([
        ("q1", 2, "ann@school.example", "Finished", "1", ""), ("q2", 2, "ann@school.example", "Finished", "0", ""),
        ("q1", 3, "bo@school.example", "Finished", "1", ""), ("q2", 3, "bo@school.example", "Finished", "1", ""),
        ("q1", 4, "bo@school.example", "Finished", "0", ""), ("q2", 4, "bo@school.example", "Finished", "1", ""),
        ("q1", 5, "cy@school.example", "In progress", "0", ""), ("q2", 5, "cy@school.example", "In progress", "0", ""),
        ("q1", 6, "", "", "0.5", ""), ("q2", 6, "", "", "0.5", ""),
    ])


@pytest.mark.parametrize("attempt, counted", [("last", ["0", "1", "1"]), ("first", ["1", "1", "2"]),
                                              ("highest", ["1", "1", "2"])])
def test_one_row_per_student_with_the_attempt_the_teacher_chose(attempt, counted):
    grades = student_grades(_attempts(), ["q1", "q2"], attempt)
    assert grades.table["id"].tolist() == ["ann@school.example", "bo@school.example"]
    bo = grades.table.iloc[1]
    assert [bo["q1"], bo["q2"], bo["total"]] == counted
    row = "row 4" if attempt == "last" else "row 3"
    assert f"2 attempts of 1 student: {ATTEMPTS[attempt]} (rows 3, 4; counted: {row})" in grades.notes


def test_a_row_without_an_id_and_an_unfinished_attempt_are_left_out_and_said():
    notes = student_grades(_attempts(), ["q1", "q2"]).notes
    assert any(n.startswith("1 row without a student id left out of the grade files") and n.endswith("row 6")
               for n in notes)
    assert "1 attempt not submitted (In progress) left ungraded: row 5; 1 student with no other attempt " \
           "gets no grade" in notes
    rows = list(csv.reader(io.StringIO(csv_bytes(moodle_file(student_grades(_attempts(), ["q1", "q2"]),
                                                             "Email address", "Quiz")).decode("utf-8-sig"))))
    assert [r[0] for r in rows] == ["Email address", "ann@school.example", "bo@school.example"]


def test_an_unfinished_attempt_does_not_count_over_a_finished_one():
    graded = _graded([("q1", 2, "bo@school.example", "Finished", "1", ""),
                      ("q1", 3, "bo@school.example", "In progress", "0", "")])
    grades = student_grades(graded, ["q1"], "last")
    assert grades.table[["id", "q1"]].values.tolist() == [["bo@school.example", "1"]]
    assert grades.notes == ["1 attempt not submitted (In progress) left ungraded: row 3"]


def test_feedback_goes_in_a_column_per_question_for_moodle_and_a_file_for_canvas():
    graded = _graded([("q1", 2, "ann@school.example", "", "1", "good: you named the gap"),
                      ("q2", 2, "ann@school.example", "", "0", ""),
                      ("q1", 3, "1001", "", "0", "=see me")])
    grades = student_grades(graded, ["q1", "q2"])
    moodle = moodle_file(grades, "Email address", "Quiz", feedback=True)
    assert list(moodle.columns) == ["Email address", "q1", "q1 feedback", "q2", "q2 feedback", "Quiz total"]
    assert list(moodle_file(grades, "Email address", "Quiz").columns) == ["Email address", "q1", "q2", "Quiz total"]
    comments = list(csv.reader(io.StringIO(csv_bytes(canvas_comments(grades)).decode("utf-8-sig"))))
    assert comments == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Assignment", "Comment"],
                        ["", "", "", "ann@school.example", "", "q1", "good: you named the gap"],
                        ["", "", "1001", "", "", "q1", "'=see me"]]
    canvas = canvas_file(grades, "Quiz", highest_marks({"q1": ["0", "1"], "q2": ["0", "2"]}))
    assert "q1 feedback" not in canvas.columns and canvas.iloc[0].tolist()[-3:] == ["1", "2", "3"]


def test_feedback_is_the_comment_else_what_the_rule_that_gave_the_mark_tells_the_student(tmp_path):
    grades = pd.DataFrame({"mark": ["1", "0", "1"], "confidence": [0.9, 0.9, 0.9], "rule": ["r"] * 3,
                           "explanation": ["1 mark by rule 1 (rule confidence 0.90): names the gap"] * 3,
                           "feedback": ["Your answer names the gap.", "Your answer names no gap.",
                                        "Your answer names the gap."]})
    table = proposed_table("q1", ["a", "b", "c"], ["gap", "x", "gap"], grades, pd.DataFrame({"f": [1, 2, 1]}))
    store = ReviewStore(tmp_path / "d.sqlite")
    store.record("e", "q1", "b", marker="Ann", new_mark="1", base_version=0, answer_text="x")  # changed, no comment
    store.record("e", "q1", "c", marker="Ann", new_mark="1", base_version=0, answer_text="gap", comment="well put")
    table = with_decisions(table, store.current("e"))
    answers = pd.DataFrame({"question_id": "q1", "answer_id": ["a", "b", "c"], "row": [2, 3, 4]})
    rows = pd.DataFrame({"_row": [2, 3, 4], "id": ["a", "b", "c"]})
    feedback = {choice: graded_answers(table, answers, rows, "id", choice)["feedback"].tolist()
                for choice in FEEDBACK}
    assert feedback == {"none": ["", "", ""], "comment": ["", "", "well put"],
                        "comment-or-rule": ["Your answer names the gap.", "", "well put"]}


class _Keyword:
    """Marks "1" when the answer says "gap", else "0"; a justification a spreadsheet would run."""

    def grade(self, answers, flag_below=0.7):
        has = np.array(["gap" in a for a in answers])
        return pd.DataFrame({"mark": np.where(has, "1", "0").astype(object), "confidence": 0.9,
                             "flagged": False, "rule": "r",
                             "explanation": np.where(has, "1 mark by rule 1: names the gap", "0 marks by rule 2"),
                             "feedback": np.where(has, "-names the gap", "=no gap named")})

    def fingerprint(self):
        return "keyword"


def _exam(tmp_path: Path) -> Path:
    rows = [["Surname", "Email address", "State", "R1", "R2"],
            ["Ames", "ann@school.example", "Finished", "a gap", "-5 V"],
            ["Bell", "bo@school.example", "Finished", "no idea", "a gap"],
            ["Bell", "bo@school.example", "Finished", "the gap", "=gap"],
            ["Cole", "cy@school.example", "In progress", "x", "y"],
            ["Overall average", "", "", "", ""]]
    with (tmp_path / "export.csv").open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    (tmp_path / "exam.yaml").write_text(
        "name: Quiz 9\nanswers: export.csv\nlayout: wide\nid_column: Email address\nquestions:\n"
        "  - {id: q1, column: R1, model: q1.json}\n  - {id: q2, column: R2, model: q2.json}\n", encoding="utf-8")
    return tmp_path / "exam.yaml"


@pytest.mark.parametrize("attempt", list(ATTEMPTS))
def test_the_command_lines_grade_files_are_the_apps_byte_for_byte(tmp_path, attempt, capsys):
    from grader.grade_commands import _write_grade_files

    exam = read_exam(_exam(tmp_path))
    models = {"q1": _Keyword(), "q2": _Keyword()}
    grade_file(exam.answers, tmp_path / "graded.csv", exam_grader(exam, models), id_column=exam.id_column,
               progress=False)
    paths = {k: tmp_path / f"cli-{k}.csv" for k in ("moodle", "canvas", "canvas_comments")}
    notes = []
    _write_grade_files(exam, models, tmp_path / "graded.csv", paths, attempt, "comment-or-rule", notes.extend)

    rows, answers, _ = read_exam_answers(exam)  # the app's reading of the export, graded as the app does
    table = pd.concat([proposed_table(q.id, list(part["answer_id"]), list(part["answer"]),
                                      models[q.id].grade([str(a) for a in part["answer"]]),
                                      pd.DataFrame({"f": range(len(part))}))
                       for q in exam.questions for part in [answers[answers["question_id"] == q.id]]])
    graded = graded_answers(table, answers, rows, exam.id_column, "comment-or-rule")
    grades = student_grades(graded, ["q1", "q2"], attempt)
    app = {"moodle": moodle_file(grades, "Email address", "Quiz 9", feedback=True),
           "canvas": canvas_file(grades, "Quiz 9", highest_marks({"q1": (), "q2": ()})),
           "canvas_comments": canvas_comments(grades)}
    for kind, frame in app.items():
        assert paths[kind].read_bytes() == csv_bytes(frame), kind
    assert notes == grades.notes and len(notes) == 3
    moodle = list(csv.reader(io.StringIO(paths["moodle"].read_text(encoding="utf-8-sig"))))
    assert [r[0] for r in moodle] == ["Email address", "ann@school.example", "bo@school.example"]
    assert moodle[1] == ["ann@school.example", "1", "'-names the gap", "0", "'=no gap named", "1"]


def test_the_bundled_samples_moodle_file_has_one_row_per_student_each_one_the_export_names():
    exam = read_exam(REPO / "sample_data" / "exam" / "exam.yaml")
    rows, answers, _ = read_exam_answers(exam)
    table = answers.assign(mark="1", proposed="1", comment="", explanation="", feedback="")
    grades = student_grades(graded_answers(table, answers, rows, exam.id_column), [q.id for q in exam.questions])
    ids = moodle_file(grades, exam.id_column, exam.name)[exam.id_column].tolist()
    named = [i for i in rows["Email address"].str.strip() if i]
    assert len(ids) == len(set(ids)) and set(ids) <= set(named)
    assert not any("(row" in i for i in ids)
    finished = set(rows.loc[rows["State"].str.strip() == "Finished", "Email address"].str.strip()) - {""}
    assert set(ids) == finished
    assert any(n.startswith("2 attempts of 1 student: the last attempt counts") for n in grades.notes)


def test_grading_says_which_rows_have_no_id(tmp_path):
    """Issue 32, defect 2: a platform's "Overall average" row (no id) was graded without a word."""
    exam = read_exam(_exam(tmp_path))
    result = grade_file(exam.answers, tmp_path / "graded.csv", exam_grader(exam, {"q1": _Keyword(), "q2": _Keyword()}),
                        id_column=exam.id_column, progress=False)
    [said] = [w for w in result.warnings if "without an id" in w]
    assert "row 6 without an id in column 'Email address'" in said and "no grade file" in said


def test_grade_files_need_an_exam_and_a_file_of_their_own(tmp_path, capsys):
    from grader.cli import main
    from grader.output_guard import GRADE_FILE, sniff_kind

    (tmp_path / "m.json").write_text("{}", encoding="utf-8")
    (tmp_path / "a.csv").write_text("id,answer\n1,x\n", encoding="utf-8")
    assert main(["grade", "--model", str(tmp_path / "m.json"), "--answers", str(tmp_path / "a.csv"),
                 "--out", str(tmp_path / "g.csv"), "--moodle", str(tmp_path / "moodle.csv")]) != 0
    assert "--moodle, --canvas and --canvas-comments need --exam" in capsys.readouterr().err
    exam = _exam(tmp_path)
    assert main(["grade", "--exam", str(exam), "--out", str(tmp_path / "g.csv"),
                 "--moodle", str(tmp_path / "same.csv"), "--canvas", str(tmp_path / "same.csv")]) != 0
    assert "given to both --moodle and --canvas" in capsys.readouterr().err
    grades = student_grades(_attempts(), ["q1", "q2"])
    for frame in (moodle_file(grades, "Email address", "Quiz"), canvas_comments(grades),
                  canvas_file(grades, "Quiz", {})):
        (tmp_path / "f.csv").write_bytes(csv_bytes(frame))
        assert sniff_kind(tmp_path / "f.csv") == GRADE_FILE  # --force is not needed to write it again


def test_the_command_lines_choices_are_the_apps():
    from grader.cli import build_parser

    grade = build_parser()._subparsers._group_actions[0].choices["grade"]
    options = {a.dest: a.choices for a in grade._actions}
    assert tuple(options["attempt"]) == tuple(ATTEMPTS) and tuple(options["feedback"]) == tuple(FEEDBACK)
