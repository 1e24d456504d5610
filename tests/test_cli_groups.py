"""`grader groups`: the app's groups of similar answers, for scripts."""

from __future__ import annotations

import json

from grader.cli import main
from tests.data import QUESTION_YAML, marked_answers, write_rows


def _exam(tmp_path):
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    answers, marks = marked_answers()
    rows = [[f"s{i}", a] for i, a in enumerate(answers)]
    rows += [["copy1", "There is a GAP in the circuit"], ["copy2", "there is a gap in the circuit"],
             ["copy3", "  there is a gap in  the circuit "]]
    exam = write_rows(tmp_path / "exam.csv", [["id", "answer"]] + rows)
    return question, exam, answers, marks


def test_without_marks_only_answers_with_the_same_words_are_grouped(tmp_path, capsys):
    question, exam, _, _ = _exam(tmp_path)
    assert main(["groups", "--question", str(question), "--answers", str(exam), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    copies = [g for g in report["groups"] if {m["id"] for m in g["members"]} >= {"copy1", "copy2", "copy3"}]
    assert len(copies) == 1 and copies[0]["size"] == 3 and copies[0]["proposed"] is None
    assert copies[0]["leader"]["id"] in {"copy1", "copy2", "copy3"}
    grouped = {m["id"] for g in report["groups"] for m in g["members"]}
    assert not grouped & set(report["alone"])
    assert len(grouped) + len(report["alone"]) == report["answers"] == 103
    assert "no model" in report["note"]


def test_with_marked_answers_the_groups_carry_proposed_marks(tmp_path, capsys):
    question, exam, answers, marks = _exam(tmp_path)
    so_far = write_rows(tmp_path / "so_far.csv", [["id", "answer", "mark"]]
                    + [[f"s{i}", a, m] for i, (a, m) in enumerate(zip(answers[:30], marks[:30]))])
    assert main(["groups", "--question", str(question), "--answers", str(exam), "--marked", str(so_far)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("marked answers finds):")
    assert "proposed 1 (" in out or "proposed 0 (" in out
    assert main(["groups", "--question", str(question), "--answers", str(exam), "--marked", str(so_far),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    sizes = [g["size"] for g in report["groups"]]
    assert sizes == sorted(sizes, reverse=True) and all(s >= 2 for s in sizes)
    member = report["groups"][0]["members"][0]
    assert member["proposed"] in ("0", "1") and 0 <= member["confidence"] <= 1
    # the groups to decide: the answers not marked yet, each group with one proposed mark
    grouped = {m["id"] for g in report["groups"] for m in g["members"]}
    assert report["marked"] == 30 and not grouped & {f"s{i}" for i in range(30)}
    assert len(grouped) + len(report["alone"]) == report["answers"] - 30
    assert all(len({m["proposed"] for m in g["members"]}) == 1 for g in report["groups"])


def test_a_missing_column_is_said_with_the_file(tmp_path, capsys):
    question, exam, _, _ = _exam(tmp_path)
    code = main(["groups", "--question", str(question), "--answers", str(exam), "--answer-column", "text"])
    err = capsys.readouterr().err
    assert code == 2 and str(exam) in err and "text" in err
    code = main(["groups", "--question", str(question), "--answers", str(tmp_path / "none.csv")])
    assert code == 2 and "none.csv: no such answers file" in capsys.readouterr().err
