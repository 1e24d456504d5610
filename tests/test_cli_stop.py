"""`grader suggest` says whether the teacher can stop marking, from spot checks kept out of training."""

from __future__ import annotations

import json

from grader.cli import main
from tests.data import QUESTION_YAML, marked_answers, write_rows


def test_suggest_says_what_to_check_and_reads_the_checks(tmp_path, capsys):
    answers, marks = marked_answers()
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    exam = write_rows(tmp_path / "exam.csv", [["id", "answer"]] + [[f"s{i}", a] for i, a in enumerate(answers)])
    so_far = write_rows(tmp_path / "so_far.csv", [["id", "answer", "mark"]]
                    + [[f"s{i}", a, m] for i, (a, m) in enumerate(zip(answers[:30], marks[:30]))])
    base = ["suggest", "--question", str(question), "--answers", str(exam), "--marked", str(so_far), "-n", "2"]
    assert main(base + ["--json"]) == 0
    stop = json.loads(capsys.readouterr().out)["stop"]
    assert stop["advice"]["checked"] == 0 and stop["advice"]["action"] in ("check", "mark")
    if stop["advice"]["action"] == "check":
        assert len(stop["check"]) == stop["advice"]["more_checks"] > 0
        assert not {int(i[1:]) for i in stop["check"]} & set(range(30))  # never a marked answer
    # the teacher checks every other unmarked answer: the truth is known for them
    checks = write_rows(tmp_path / "checks.csv", [["id", "answer", "mark"]]
                    + [[f"s{i}", answers[i], marks[i]] for i in range(30, 100, 2)])
    assert main(base + ["--checked", str(checks), "--stop-target", "0.9", "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)["stop"]["advice"]
    assert advice["target"] == 0.9 and advice["checked"] > 0 and advice["message"]
    assert main(base + ["--checked", str(checks)]) == 0
    assert "\nstop: " in capsys.readouterr().out
    # a check that is also a marked answer taught the model: refused, with the file named
    both = write_rows(tmp_path / "both.csv", [["id", "answer", "mark"], ["s3", answers[3], marks[3]]])
    assert main(base + ["--checked", str(both)]) == 2
    err = capsys.readouterr().err
    assert str(both) in err and "'s3'" in err and "kept out of the marked answers" in err


def test_grade_with_one_model_says_whether_its_marks_can_be_signed(tmp_path, capsys):
    answers, marks = marked_answers()
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    marked = write_rows(tmp_path / "marked.csv", [["id", "answer", "mark"]]
                        + [[f"s{i}", answers[i], marks[i]] for i in range(60)])
    model = tmp_path / "m.json"
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(model),
                 "--no-calibrate"]) == 0
    exam = write_rows(tmp_path / "exam.csv", [["id", "answer"]] + [[f"s{i}", answers[i]] for i in range(60, 100)])
    out = tmp_path / "graded.csv"
    capsys.readouterr()
    assert main(["grade", "--model", str(model), "--answers", str(exam), "--out", str(out), "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("graded 40 rows") and lines[1].startswith("stop: ")
    checks = write_rows(tmp_path / "checks.csv", [["id", "answer", "mark"]]
                        + [[f"s{i}", answers[i], marks[i]] for i in range(60, 100, 2)])
    assert main(["grade", "--model", str(model), "--answers", str(exam), "--out", str(out), "--no-progress",
                 "--checked", str(checks), "--stop-target", "0.8", "--restart"]) == 0
    said = capsys.readouterr().out
    assert "stop: " in said and ("checked at random" in said or "check" in said or "mark more" in said)


def test_grade_an_exam_gives_the_stop_estimate_per_question_and_pooled_and_writes_it_for_scripts(tmp_path, capsys):
    answers, marks = marked_answers()
    (tmp_path / "q.yaml").write_text(QUESTION_YAML, encoding="utf-8")
    write_rows(tmp_path / "marked.csv", [["id", "answer", "mark"]]
               + [[f"m{i}", answers[i], marks[i]] for i in range(50)])
    # two questions (the same rubric) answered by 50 students: each one's class is the other half
    write_rows(tmp_path / "export.csv", [["Student", "First", "Second"]]
               + [[f"s{i}", answers[50 + i % 50], answers[99 - i % 50]] for i in range(50)])
    exam = tmp_path / "exam.yaml"
    exam.write_text("answers: export.csv\nlayout: wide\nid_column: Student\nquestions:\n"
                    "  - {id: first, question: q.yaml, column: First, training: marked.csv}\n"
                    "  - {id: second, question: q.yaml, column: Second, training: marked.csv}\n", encoding="utf-8")
    out, stop = tmp_path / "graded.csv", tmp_path / "stop.json"
    run = ["grade", "--exam", str(exam), "--out", str(out), "--no-progress", "--json", str(stop)]
    assert main(run) == 0
    said = capsys.readouterr().out
    for label in ("first", "second", "all questions pooled"):
        assert f"\n{label}: stop: " in said
    report = json.loads(stop.read_text(encoding="utf-8"))
    assert report["format"] == "physics-grader-stop"
    assert set(report["questions"]) == {"first", "second"}
    assert report["pooled"]["advice"]["checked"] == 0
    pooled_more = report["pooled"]["advice"]["more_checks"]
    # the teacher checks every machine mark of both questions, all right but one
    rows = [["id", "question", "mark"]] + [[f"s{i}", "first", marks[50 + i]] for i in range(50)] \
        + [[f"s{i}", "second", marks[99 - i]] for i in range(50)]
    rows[1][2] = "0" if rows[1][2] != "0" else "1"
    checks = write_rows(tmp_path / "checks.csv", rows)
    assert main(run + ["--checked", str(checks), "--stop-target", "0.8", "--restart"]) == 0
    report = json.loads(stop.read_text(encoding="utf-8"))
    pooled = report["pooled"]["advice"]
    per = [report["questions"][q]["advice"] for q in ("first", "second")]
    assert pooled["checked"] == per[0]["checked"] + per[1]["checked"] > 0
    assert pooled["target"] == 0.8 and pooled_more >= 0
    # checks naming a question the exam does not have: refused at its row
    bad = write_rows(tmp_path / "bad.csv", [["id", "question", "mark"], ["s1", "first", marks[51]],
                                            ["s2", "third", "1"]])
    assert main(run + ["--checked", str(bad), "--restart"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}, row 3: question 'third'" in err
    # a check of an answer the question's model learned from: refused, with the file named
    trained = write_rows(tmp_path / "trained.csv", [["id", "question", "mark"], ["m1", "first", marks[1]]])
    assert main(run + ["--checked", str(trained), "--restart"]) == 2
    err = capsys.readouterr().err
    assert str(trained) in err and "'m1'" in err and "kept out of the marked answers" in err


def test_a_student_with_two_attempts_is_never_drawn_twice_for_a_check():
    # "check these: sean, sean": a --checked file holds one mark per id, read for the id's
    # first row, so the second could never be recorded and the estimate never reached its stop
    import numpy as np

    from grader.grading.stop import stop_advice
    from grader.stop_commands import _report

    ids = ["ann", "sean", "bo", "sean", "cy", "di", "sean", "ed"]
    machine = np.ones(len(ids), dtype=bool)
    nothing = np.zeros(len(ids), dtype=bool)
    advice = stop_advice(np.full(len(ids), 0.9), machine, nothing, nothing, 0.99, class_size=len(ids))
    assert advice.action == "check" and advice.more_checks >= len(set(ids))
    drawn = _report(advice, ids, machine, nothing)["check"]
    assert sorted(drawn) == sorted(set(ids))  # every student once, sean as his first row
