"""Streaming, resumable grading of CSV exports (grader.exams.batch).

The streaming loop is tested with a tiny stand-in model (marks by keyword) so that the
checks are about chunks, resume and output, and fast; tests/grading/test_grading_model.py runs it with a real
GradingModel.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from grader.exams.batch import ResumeError, grade_file, partial_path
from grader.exams.chunk_graders import ColumnGrader, LongGrader, WideGrader


class KeywordModel:
    """Marks "1" when the answer mentions the keyword, "0" otherwise; no mark for "???"."""

    def __init__(self, keyword: str = "gap"):
        self.keyword = keyword
        self.calls = 0

    def grade(self, answers, flag_below=0.7):
        self.calls += 1
        has = np.array([self.keyword in a for a in answers])
        unknown = np.array(["???" in a for a in answers])
        blank = np.array([not a.strip() for a in answers])
        conf = np.where(unknown, np.nan, np.where(has, 0.9, 0.6))
        mark = np.where(unknown, None, np.where(has, "1", "0")).astype(object)
        return pd.DataFrame({"mark": mark, "confidence": conf,
                             "flagged": unknown | blank | ~(np.nan_to_num(conf) >= flag_below),
                             "rule": np.where(has, "R1: 1 <- gap", "R2: 0 <- default"),
                             "explanation": [f"keyword {self.keyword}"] * len(answers)})

    def fingerprint(self):
        return f"keyword:{self.keyword}"


def write_export(path: Path, n: int, extra=()) -> Path:
    rows = [["id", "name", "answer"]]
    for i in range(n):
        answer = ["there is a gap", "no idea", "", "=1+2 gap", "line one\nline two gap", "???"][i % 6]
        rows.append([f"s{i}", f"Student {i}", answer])
    rows += list(extra)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def read_output(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))


def test_output_has_every_input_column_and_row_plus_the_grades(tmp_path):
    src = write_export(tmp_path / "exam.csv", 13)
    result = grade_file(src, tmp_path / "graded.csv", KeywordModel(), chunk_size=5, progress=False)
    rows = read_output(tmp_path / "graded.csv")
    assert rows[0] == ["id", "name", "answer", "mark", "confidence", "flagged", "rule", "explanation", "feedback"]
    assert [r[0] for r in rows[1:]] == [f"s{i}" for i in range(13)]
    assert result.rows == 13 and result.resumed == 0
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["s0"][3:6] == ["1", "0.9000", "no"]
    assert by_id["s1"][3:6] == ["0", "0.6000", "yes"]  # below the flag threshold
    assert by_id["s2"][2:6] == ["", "0", "0.6000", "yes"]  # blank answer kept and flagged
    assert by_id["s3"][2] == "'=1+2 gap"  # a formula copied from the input is neutralised
    assert by_id["s4"][2] == "line one\nline two gap"
    assert by_id["s5"][3:6] == ["", "", "yes"]  # no rule: empty mark, flagged
    assert result.flagged == sum(r[5] == "yes" for r in rows[1:])
    assert not partial_path(tmp_path / "graded.csv").exists()


class Interrupt(Exception):
    pass


def interrupt_after(chunks: int):
    def hook(rows_written: int) -> None:
        hook.calls += 1
        if hook.calls == chunks:
            raise Interrupt
    hook.calls = 0
    return hook


@pytest.mark.parametrize("torn", [b"", b"s99,Student 99,there is", b's99,Student 99,"line one\r\nline'])
def test_an_interrupted_run_resumes_and_writes_each_row_once(tmp_path, torn):
    src = write_export(tmp_path / "exam.csv", 47)
    grade_file(src, tmp_path / "reference.csv", KeywordModel(), chunk_size=10, progress=False)
    out = tmp_path / "graded.csv"
    with pytest.raises(Interrupt):
        grade_file(src, out, KeywordModel(), chunk_size=10, progress=False, after_chunk=interrupt_after(3))
    assert not out.exists()
    partial = partial_path(out)
    assert len(read_output(partial)) == 1 + 30
    with open(partial, "ab") as f:  # a crash in the middle of writing a row
        f.write(torn)
    model = KeywordModel()
    result = grade_file(src, out, model, chunk_size=10, progress=False)
    assert result.resumed == 30 and result.rows == 47
    assert result.flagged == sum(r[5] == "yes" for r in read_output(tmp_path / "reference.csv")[1:])
    assert model.calls == 2  # only the 17 remaining rows were graded
    assert out.read_bytes() == (tmp_path / "reference.csv").read_bytes()


def test_resume_refuses_another_input_or_model_and_restart_discards(tmp_path):
    src = write_export(tmp_path / "exam.csv", 30)
    out = tmp_path / "graded.csv"
    with pytest.raises(Interrupt):
        grade_file(src, out, KeywordModel(), chunk_size=10, progress=False, after_chunk=interrupt_after(1))
    with pytest.raises(ResumeError, match="another input or model"):
        grade_file(src, out, KeywordModel("bulb"), chunk_size=10, progress=False)
    write_export(src, 31)
    with pytest.raises(ResumeError):
        grade_file(src, out, KeywordModel(), chunk_size=10, progress=False)
    result = grade_file(src, out, KeywordModel(), chunk_size=10, progress=False, resume=False)
    assert result.resumed == 0 and len(read_output(out)) == 32


def test_duplicate_ids_are_kept_and_reported(tmp_path):
    src = write_export(tmp_path / "exam.csv", 4, extra=[["s1", "Student 1", "second attempt gap"]])
    result = grade_file(src, tmp_path / "g.csv", KeywordModel(), id_column="id", progress=False)
    rows = read_output(tmp_path / "g.csv")
    assert [r[0] for r in rows[1:]] == ["s0", "s1", "s2", "s3", "s1"]
    assert result.warnings and "'s1' on rows 3 and 6" in result.warnings[0]


def test_wide_layout_grades_each_question_column_with_its_model(tmp_path):
    src = tmp_path / "responses.csv"
    src.write_text("\ufeffEmail address;Response 1;Response 2\n"
                   "a@x;a gap;the bulb\nb@x;nothing;gap\n", encoding="utf-8")
    grader = WideGrader([ColumnGrader(KeywordModel("gap"), "Response 1", prefix="q1:"),
                         ColumnGrader(KeywordModel("bulb"), "Response 2", prefix="q2:")])
    grade_file(src, tmp_path / "g.csv", grader, progress=False)
    rows = read_output(tmp_path / "g.csv")
    assert rows[0][:4] == ["Email address", "Response 1", "Response 2", "q1:mark"]
    assert "q2:explanation" in rows[0]
    marks = [(r[rows[0].index("q1:mark")], r[rows[0].index("q2:mark")]) for r in rows[1:]]
    assert marks == [("1", "1"), ("0", "0")]


def test_long_layout_picks_the_model_by_question(tmp_path):
    src = tmp_path / "long.csv"
    src.write_text("id,question,answer\n1,q1,gap\n2,q2,gap\n3,q2,bulb\n4,q9,gap\n", encoding="utf-8")
    grader = LongGrader({"q1": KeywordModel("gap"), "q2": KeywordModel("bulb")}, "question")
    grade_file(src, tmp_path / "g.csv", grader, progress=False)
    rows = read_output(tmp_path / "g.csv")
    assert [(r[3], r[5]) for r in rows[1:]] == [("1", "no"), ("0", "yes"), ("1", "no"), ("", "yes")]
    assert "no model for question 'q9'" in rows[4][7]


def test_each_question_of_a_long_export_can_have_its_own_flag_threshold(tmp_path):
    """`grade --exam --target-accuracy`: a question's rows are flagged by its own threshold."""
    src = tmp_path / "long.csv"
    src.write_text("id,question,answer\n1,q1,gap\n2,q2,bulb\n3,q1,wire\n4,q2,wire\n", encoding="utf-8")
    models = {"q1": KeywordModel("gap"), "q2": KeywordModel("bulb")}  # 0.9 with the keyword, else 0.6
    one = LongGrader(models, "question", flag_below=0.5)
    own = LongGrader(models, "question", flag_below={"q1": 0.5, "q2": 0.95})
    grade_file(src, tmp_path / "one.csv", one, progress=False)
    grade_file(src, tmp_path / "own.csv", own, progress=False)
    assert [r[5] for r in read_output(tmp_path / "one.csv")[1:]] == ["no", "no", "no", "no"]
    assert [r[5] for r in read_output(tmp_path / "own.csv")[1:]] == ["no", "yes", "no", "yes"]
    assert one.fingerprint() != own.fingerprint()  # a resumed run never mixes the two
    assert LongGrader(models, "question", flag_below={"q2": 0.95, "q1": 0.5}).fingerprint() == own.fingerprint()


def test_bad_columns_and_paths_are_clear_errors(tmp_path):
    src = write_export(tmp_path / "exam.csv", 3)
    with pytest.raises(ValueError, match="no answer column 'answr'.*did you mean 'answer'"):
        grade_file(src, tmp_path / "g.csv", KeywordModel(), answer_column="answr", progress=False)
    with pytest.raises(FileNotFoundError, match="no such folder"):
        grade_file(src, tmp_path / "missing" / "g.csv", KeywordModel(), progress=False)
    with pytest.raises(ValueError, match="overwrite the input"):
        grade_file(src, src, KeywordModel(), progress=False)
    clash = tmp_path / "clash.csv"
    clash.write_text("answer,mark\nx,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="already has column"):
        grade_file(clash, tmp_path / "g.csv", KeywordModel(), progress=False)


def test_progress_bar_only_when_asked_or_on_a_terminal(tmp_path, capsys):
    src = write_export(tmp_path / "exam.csv", 30)
    grade_file(src, tmp_path / "a.csv", KeywordModel(), chunk_size=10)  # stderr is not a terminal here
    assert capsys.readouterr().err == ""
    grade_file(src, tmp_path / "b.csv", KeywordModel(), chunk_size=10, progress=True)
    err = capsys.readouterr().err
    assert "grading" in err and "answers=30" in err


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 40), chunk=st.integers(1, 12), stop=st.integers(1, 6), cut=st.integers(0, 200))
def test_any_interruption_and_tear_resumes_to_the_same_file(tmp_path_factory, n, chunk, stop, cut):
    folder = tmp_path_factory.mktemp("resume")
    src = write_export(folder / "exam.csv", n)
    grade_file(src, folder / "reference.csv", KeywordModel(), chunk_size=chunk, progress=False)
    reference = (folder / "reference.csv").read_bytes()
    out = folder / "graded.csv"
    try:
        grade_file(src, out, KeywordModel(), chunk_size=chunk, progress=False, after_chunk=interrupt_after(stop))
    except Interrupt:
        partial = partial_path(out)
        size = partial.stat().st_size
        # tear the file anywhere after the header, as a crash in the middle of a write would
        header = len(reference.split(b"\r\n", 1)[0]) + 2
        if size > header:
            with open(partial, "r+b") as f:
                f.truncate(max(header, size - cut))
        grade_file(src, out, KeywordModel(), chunk_size=chunk, progress=False)
    assert out.read_bytes() == reference


def test_duplicates_are_found_across_a_resume(tmp_path):
    src = write_export(tmp_path / "exam.csv", 25, extra=[["s3", "Student 3", "again"]])
    out = tmp_path / "g.csv"
    with pytest.raises(Interrupt):
        grade_file(src, out, KeywordModel(), id_column="id", chunk_size=10, progress=False,
                   after_chunk=interrupt_after(1))
    result = grade_file(src, out, KeywordModel(), id_column="id", chunk_size=10, progress=False)
    assert result.resumed == 10
    assert result.warnings and "'s3' on rows 5 and 27" in result.warnings[0]


def test_a_header_only_export_grades_to_a_header_only_file(tmp_path):
    path = tmp_path / "empty_exam.csv"
    path.write_text("id,answer\n", encoding="utf-8")

    class NeverCalled:
        def grade(self, answers, flag_below=0.7):
            raise AssertionError("nothing to grade")

        def fingerprint(self):
            return "x"

    result = grade_file(path, tmp_path / "out.csv", NeverCalled(), progress=False)
    assert result.rows == 0
    assert (tmp_path / "out.csv").read_text(encoding="utf-8-sig").splitlines() == [
        "id,answer,mark,confidence,flagged,rule,explanation,feedback"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 60), chunk=st.integers(1, 12), jobs=st.integers(2, 3))
def test_several_jobs_write_the_same_file_as_one(tmp_path_factory, n, chunk, jobs):
    folder = tmp_path_factory.mktemp("jobs")
    src = write_export(folder / "exam.csv", n, extra=[["s1", "Student 1", "gap again"]])
    one = grade_file(src, folder / "one.csv", KeywordModel(), id_column="id", chunk_size=chunk,
                     progress=False)
    many = grade_file(src, folder / "many.csv", KeywordModel(), id_column="id", chunk_size=chunk,
                      progress=False, jobs=jobs)
    assert (folder / "many.csv").read_bytes() == (folder / "one.csv").read_bytes()
    assert (many.rows, many.flagged, many.warnings) == (one.rows, one.flagged, one.warnings)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 40), chunk=st.integers(1, 8), stop=st.integers(1, 6), cut=st.integers(0, 200))
def test_an_interrupted_run_with_jobs_resumes_to_the_same_file(tmp_path_factory, n, chunk, stop, cut):
    folder = tmp_path_factory.mktemp("resume_jobs")
    src = write_export(folder / "exam.csv", n)
    grade_file(src, folder / "reference.csv", KeywordModel(), chunk_size=chunk, progress=False)
    reference = (folder / "reference.csv").read_bytes()
    out = folder / "graded.csv"
    try:
        grade_file(src, out, KeywordModel(), chunk_size=chunk, progress=False, jobs=2,
                   after_chunk=interrupt_after(stop))
    except Interrupt:
        partial = partial_path(out)
        rows = read_output(partial)[1:]
        assert len(rows) == min(n, stop * chunk)  # only the chunks written, each row once
        header = len(reference.split(b"\r\n", 1)[0]) + 2
        size = partial.stat().st_size
        if size > header:
            with open(partial, "r+b") as f:
                f.truncate(max(header, size - cut))
        grade_file(src, out, KeywordModel(), chunk_size=chunk, progress=False, jobs=2)
    assert out.read_bytes() == reference


def test_a_worker_that_dies_is_a_clear_error_not_a_hang(tmp_path):
    # multiprocessing.Pool waited for good for the chunk of a worker killed mid-chunk (and
    # its terminate could deadlock); the executor says what happened and keeps what was written
    import os
    import threading

    class Dying(KeywordModel):
        def grade(self, answers, flag_below=0.7):
            if any("???" in str(a) for a in answers):  # from the second chunk on
                os._exit(9)  # the worker process is killed (out of memory, say)
            return super().grade(answers, flag_below)

    src = write_export(tmp_path / "exam.csv", 30)
    outcome = []

    def run():
        try:
            grade_file(src, tmp_path / "g.csv", Dying(), chunk_size=5, progress=False, jobs=2)
        except OSError as e:
            outcome.append(str(e))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "grading hung after a worker process died"
    assert outcome and "worker process stopped" in outcome[0]
    assert not (tmp_path / "g.csv").exists()  # no finished file from a broken run


def test_a_grading_error_in_a_worker_reaches_the_caller(tmp_path):
    class Broken(KeywordModel):
        def grade(self, answers, flag_below=0.7):
            raise ValueError("the model is broken")

    src = write_export(tmp_path / "exam.csv", 30)
    with pytest.raises(ValueError, match="the model is broken"):
        grade_file(src, tmp_path / "g.csv", Broken(), chunk_size=5, progress=False, jobs=2)
    with pytest.raises(ValueError, match="jobs"):
        grade_file(src, tmp_path / "g.csv", KeywordModel(), jobs=0)
