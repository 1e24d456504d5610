"""A platform's whole export in without writing YAML (issue 32): the marker maps each response
column to its question in the app, and the app keeps it as an exam file that reopens."""

from __future__ import annotations

import pytest

from grader.app.settings import REPO
from grader.app.uploads import UploadError
from grader.app.wide_upload import (QuestionChoice, export_columns, likely_id_column, question_label,
                                    save_wide_upload, unchosen_responses)
from grader.exams.exam_io import read_exam

SAMPLE = REPO / "sample_data"
THROW = ("throw.yaml", (SAMPLE / "vertical_throw" / "question.yaml").read_bytes())
BULB = ("bulb.yaml", (SAMPLE / "open_circuit_bulb" / "question.yaml").read_bytes())
THROW_MARKED = ("throw-marked.csv", (SAMPLE / "vertical_throw" / "marked.csv").read_bytes())
EXPORT = ("Quiz 7 responses.csv",
          "Surname,Email address,State,Response 1,Response 2,Response 3\n"
          "Park,jo.park@school.example,Finished,10 m/s/s towards the floor,the switch is open,42\n"
          "Quinn,al.quinn@school.example,In progress,it stops so zero,,\n"
          "Overall average,,,,,\n".encode())


def _save(tmp_path, questions, marked=(THROW_MARKED,), export=EXPORT, id_column="Email address"):
    return save_wide_upload(tmp_path, questions=questions, marked=dict(marked), export=export,
                            id_column=id_column, max_bytes=10**7)


def test_a_wide_export_mapped_in_the_app_is_kept_as_an_exam_file_that_reads_back(tmp_path):
    path = _save(tmp_path, [QuestionChoice(BULB, "Response 2"),
                            QuestionChoice(THROW, "Response 1", "throw-marked.csv")])
    assert path.parent.parent == tmp_path / "uploads" and path.name == "exam.yaml"
    exam = read_exam(path)
    assert (exam.layout, exam.id_column, exam.name) == ("wide", "Email address", "Quiz 7 responses")
    assert [(q.id, q.column) for q in exam.questions] == [("open_circuit_bulb", "Response 2"),
                                                          ("vertical_throw", "Response 1")]
    assert exam.questions[0].training is None  # none marked yet: the app proposes answers to mark
    assert exam.questions[1].training.read_bytes() == THROW_MARKED[1]
    assert exam.answers.read_bytes() == EXPORT[1]  # every row and column kept, as uploaded
    assert not list(path.parent.glob("*.tmp*"))


def test_the_likely_id_column_and_the_response_columns_no_question_is_given():
    columns = export_columns(*EXPORT, max_bytes=10**7)
    assert columns == ["Surname", "Email address", "State", "Response 1", "Response 2", "Response 3"]
    assert likely_id_column(columns) == "Email address"
    assert likely_id_column(["Name", "ID number", "Answer"]) == "ID number"
    assert likely_id_column(["Name", "Answer"]) == "Name"
    assert unchosen_responses(columns, ["Response 1", None]) == ["Response 2", "Response 3"]


@pytest.mark.parametrize("questions, marked, message", [
    ([QuestionChoice(THROW, None)], (), r"^throw\.yaml: choose the column of Quiz 7 responses\.csv"),
    ([QuestionChoice(THROW, "Response 9")], (), r"^throw\.yaml: Quiz 7 responses\.csv has no column 'Response 9'"),
    ([QuestionChoice(THROW, "Email address")], (), "'Email address' identifies the students"),
    ([QuestionChoice(THROW, "Response 1"), QuestionChoice(BULB, "Response 1")], (),
     r"column 'Response 1' of Quiz 7 responses\.csv is chosen for both throw\.yaml and bulb\.yaml"),
    ([QuestionChoice(THROW, "Response 1"), QuestionChoice(("again.yaml", THROW[1]), "Response 2")], (),
     r"throw\.yaml and again\.yaml are both question 'vertical_throw'"),
    ([QuestionChoice(THROW, "Response 1")], (THROW_MARKED,),
     r"^throw-marked\.csv: choose the question these marked answers belong to"),
    ([QuestionChoice(THROW, "Response 1", "throw-marked.csv"), QuestionChoice(BULB, "Response 2", "throw-marked.csv")],
     (THROW_MARKED,), r"throw-marked\.csv is chosen as the marked answers of both throw\.yaml and bulb\.yaml"),
    ([QuestionChoice(("throw.yaml", THROW[1].replace(b"concepts:", b"concepst:", 1)), "Response 1")], (),
     r"^throw\.yaml has \d+ problem\(s\): line \d+, column 1: unknown key 'concepst'"),
    ([QuestionChoice(THROW, "Response 1", "m.csv")], (("m.csv", b"id,answer,mark\n1,g down,1\n2,up,7\n"),),
     r"^m\.csv: .*'7'"),
    ([], (), "at least one question file"),
])
def test_bad_files_or_choices_are_said_where_they_are(tmp_path, questions, marked, message):
    with pytest.raises(UploadError, match=message) as info:
        _save(tmp_path, questions, marked)
    assert "uploads" not in str(info.value)  # the marker's file names, never our storage path
    assert not list((tmp_path / "uploads").glob("*/exam.yaml"))  # no exam kept


def test_an_export_that_cannot_be_used_is_said_by_its_name(tmp_path):
    with pytest.raises(UploadError, match=r"^e\.csv: no answers \(only a header row\)"):
        _save(tmp_path, [QuestionChoice(THROW, "Response 1")], (), export=("e.csv", b"Email address,Response 1\n"))
    with pytest.raises(UploadError, match=r"^e\.csv is empty"):
        _save(tmp_path, [QuestionChoice(THROW, "Response 1")], (), export=("e.csv", b"  \n"))
    with pytest.raises(UploadError, match=r"has no column 'Email' to identify the students"):
        _save(tmp_path, [QuestionChoice(THROW, "Response 1")], (), id_column="Email")


def test_question_files_of_the_same_name_are_told_apart_by_their_id():
    assert question_label("question.yaml", THROW[1]) == "vertical_throw (question.yaml)"
    assert question_label("question.yaml", BULB[1]) == "open_circuit_bulb (question.yaml)"
    assert question_label("odd.yaml", b"id: [unclosed\n") == "odd.yaml"
    assert question_label("odd.yaml", b"- a list\n") == "odd.yaml"
