"""The classes bench (`grader.bench.classes`) on a small made-up class of its own."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from grader.bench.classes import drawn_ids, load_class, main

BARE = """\
id: bell_jar
question: A bell rings in a jar and the air is pumped out. What do you hear? Explain.
reference_answers:
  - "The sound fades because sound needs a medium to travel through"
"""
RUBRIC = BARE + """\
concepts:
  medium:
    phrases: [medium, air]
misconceptions:
  vacuum:
    phrases: [travels in a vacuum]
initial_rules:
  - name: needs_a_medium
    mark: correct
    if: ["concept:medium == present"]
  - name: vacuum_carries_sound
    mark: contradictory
    if: ["misconception:vacuum == present"]
"""
GOOD = ["it fades since sound needs air", "sound needs a medium", "no air so it fades", "needs a medium to travel"]
WRONG = ["sound travels in a vacuum", "it travels in a vacuum so it is as loud"]
OTHER = ["it is louder", "i do not know", "the bell breaks", "the jar"]


def write_class(folder, rubric: bool = True, seen: str = "g0\ng1\nw0\no0\n"):
    folder.mkdir(parents=True)
    rows = []
    for k in range(4):
        rows += [(f"g{k * 4 + i}", a, "correct") for i, a in enumerate(GOOD)]
        rows += [(f"w{k * 2 + i}", a, "contradictory") for i, a in enumerate(WRONG)]
        rows += [(f"o{k * 4 + i}", a, "incorrect") for i, a in enumerate(OTHER)]
    pd.DataFrame(rows, columns=["id", "answer", "mark"]).to_csv(folder / "answers.csv", index=False)
    (folder / "question.yaml").write_text(BARE, encoding="utf-8")
    if rubric:
        (folder / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    (folder / "seen_ids.txt").write_text(seen, encoding="utf-8")
    return folder


def test_the_draw_keeps_the_seen_answers_first_and_does_not_depend_on_other_classes(tmp_path):
    cls = load_class(write_class(tmp_path / "bell"))
    first = drawn_ids(cls, 12, seed=0)
    assert first[:4] == ["g0", "g1", "w0", "o0"] and len(set(first)) == 12
    assert drawn_ids(cls, 12, seed=0) == first and drawn_ids(cls, 12, seed=1) != first


def test_a_mark_outside_the_three_is_named_with_its_row(tmp_path):
    folder = write_class(tmp_path / "bell")
    table = pd.read_csv(folder / "answers.csv")
    table.loc[5, "mark"] = "corect"
    table.to_csv(folder / "answers.csv", index=False)
    with pytest.raises(ValueError, match=r"answers.csv: row 7: mark 'corect'"):
        load_class(folder)


def test_a_seen_id_that_is_no_answer_is_named_with_its_line(tmp_path):
    folder = write_class(tmp_path / "bell", seen="g0\n\nnope\n")
    with pytest.raises(ValueError, match=r"seen_ids.txt:3: 'nope'"):
        load_class(folder)


def test_the_bench_prints_each_class_the_means_and_the_yardstick(tmp_path, capsys):
    write_class(tmp_path / "classes" / "bell")
    write_class(tmp_path / "classes" / "bell_bare", rubric=False)
    out = tmp_path / "marks.csv"
    assert main(["--data", str(tmp_path / "classes"), "--marked", "12", "--draws", "2",
                 "--predictions", str(out)]) == 0
    text = capsys.readouterr().out
    assert "bell_bare" in text and "rubric_3way" in text and "above the tree on" in text
    rows = pd.read_csv(out)
    # 40 answers, 12 marked: 28 graded per draw and class; the class without a rubric has no rubric marks
    assert len(rows) == 2 * 2 * 28 and set(rows["draw"]) == {0, 1}
    assert rows[rows["class"] == "bell_bare"]["rubric_3way"].isna().all()
    assert rows[rows["class"] == "bell"]["rubric_3way"].notna().mean() > 0.8
    assert main(["--data", str(tmp_path / "classes"), "--marked", "12", "--draws", "2",
                 "--compare", str(out)]) == 0
    assert "0 / 2 / 0" in capsys.readouterr().out  # the same marks again: every class the same


def test_the_classes_written_as_a_beetle_folder_keep_every_answer_and_the_rubric(tmp_path):
    write_class(tmp_path / "classes" / "bell")
    assert main(["--data", str(tmp_path / "classes"), "--write-beetle", str(tmp_path / "b")]) == 0
    answers = pd.read_csv(tmp_path / "b" / "answers.csv")
    assert len(answers) == 40 and set(answers.split) == {"train"} and set(answers.question_id) == {"bell_jar"}
    assert json.loads((tmp_path / "b" / "rubrics" / "seen_ids.json").read_text()) == {"bell_jar": ["g0", "g1", "w0", "o0"]}
    assert (tmp_path / "b" / "rubrics" / "bell_jar" / "question.yaml").read_text() == RUBRIC
    assert main(["--data", str(tmp_path / "classes"), "--write-beetle", str(tmp_path / "b")]) == 2  # never over it
