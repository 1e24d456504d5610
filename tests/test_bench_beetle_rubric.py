"""The rubric bench (`grader.bench.beetle_rubric`) on a small made-up folder (issue 30)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from grader.bench.beetle import main
from grader.bench.beetle_rubric import marked_ids, run

RUBRIC = """\
id: Q1
question: A bell rings in a jar and the air is pumped out. What do you hear?
reference_answers:
  - "The sound fades because sound needs a medium"
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
BAD = ["it is louder", "sound travels in a vacuum", "i do not know", "the bell breaks"]


@pytest.fixture()
def folder(tmp_path):
    (tmp_path / "questions.json").write_text(json.dumps([{
        "question_id": "Q1", "question": "A bell rings in a jar and the air is pumped out. What do you hear?",
        "reference_answers": ["The sound fades because sound needs a medium"]}]))
    rows = []
    for k in range(3):
        rows += [(f"g{k}{i}", "Q1", a, "correct", "train") for i, a in enumerate(GOOD)]
        rows += [(f"b{k}{i}", "Q1", a, "contradictory" if "vacuum" in a else "irrelevant", "train")
                 for i, a in enumerate(BAD)]
    rows += [("t1", "Q1", "the sound needs air", "correct", "test"),
             ("t2", "Q1", "it travels in a vacuum", "contradictory", "test")]
    pd.DataFrame(rows, columns=["id", "question_id", "answer", "label_5way", "split"]).to_csv(
        tmp_path / "answers.csv", index=False)
    rubrics = tmp_path / "rubrics"
    (rubrics / "Q1").mkdir(parents=True)
    (rubrics / "Q1" / "question.yaml").write_text(RUBRIC, encoding="utf-8")
    (rubrics / "seen_ids.json").write_text(json.dumps({"Q1": ["g00", "g01", "b00", "b01"]}))
    return tmp_path, rubrics


def test_the_marked_answers_are_the_seen_ones_and_others_drawn_with_the_seed():
    train = pd.DataFrame({"id": [f"a{i}" for i in range(20)]})
    first = marked_ids(train, ["a3", "a7"], 6, seed=0, index=0)
    assert first[:2] == ["a3", "a7"] and len(set(first)) == 6
    assert marked_ids(train, ["a3", "a7"], 6, seed=0, index=0) == first
    assert marked_ids(train, ["a3", "a7"], 6, seed=1, index=0) != first
    assert sorted(marked_ids(train, ["a3"], 50, seed=0, index=0)) == sorted(train.id)  # all there are
    with pytest.raises(ValueError, match="'zz', which is not a train answer"):
        marked_ids(train, ["zz"], 6, seed=0, index=0)


def test_the_rest_of_the_class_is_graded_beside_the_bare_file(folder):
    data, rubrics = folder
    rows = run(data, rubrics, 10, {"n_resamples": 0}, seed=3)
    assert len(rows) == 24 + 2 - 10 and not set(rows.id) & {"g00", "g01", "b00", "b01"}
    graded = rows.set_index("id")
    # the rubric's rules mapped to each scheme: contradictory in 3-way, incorrect in 2-way
    assert graded.loc["t2", "rubric_n_3way"] == "contradictory" and graded.loc["t2", "rubric_n_2way"] == "incorrect"
    assert graded.loc["t1", "rubric_all_2way"] == "correct"
    assert rows.loc[rows.split == "train", "bare_all_3way"].isna().all()  # the "all" models grade test answers only
    only_train = run(data, rubrics, 10, {"n_resamples": 0}, seed=3, train_only=True)
    assert set(only_train.split) == {"train"} and len(only_train) == 14


def test_the_command_prints_the_table_and_says_what_is_wrong(folder, capsys, tmp_path):
    data, rubrics = folder
    out = tmp_path / "rubric.json"
    assert main(["--data", str(data), "--rubrics", str(rubrics), "--marked", "10", "--resamples", "0",
                 "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "rubric + N" in printed and "rubric + all vs bare + all" in printed and "3way rubric_n" in printed
    figures = json.loads(out.read_text())["figures"]
    assert set(figures) == {"3way", "2way"} and 0 <= figures["3way"]["pooled"]["rubric_n"] <= 1
    assert main(["--data", str(data), "--rubrics", str(rubrics), "--marked", "3"]) == 2
    assert "fewer than the 4 answers the rubric of Q1 was written from" in capsys.readouterr().err
    assert main(["--data", str(data), "--rubrics", str(tmp_path / "nowhere")]) == 2
    assert "seen_ids.json: not found" in capsys.readouterr().err


def test_proposals_are_accepted_from_the_marked_answers_only(folder):
    from grader.bench.beetle_rubric import accepted
    from knowledge.schema import Question

    data, rubrics = folder
    answers = pd.read_csv(data / "answers.csv", dtype=str)
    marked = answers[answers.id.isin(["g00", "g01", "g02", "g10", "g11", "b00", "b01", "b02", "b10", "b11", "b12"])]
    bare = Question("Q1", "What do you hear?", ("The sound fades",))
    question = accepted(bare, marked, "3way")
    phrases = {p for c in question.concepts for p in c.phrases}
    # said by the answers marked correct ("need" alone is chatter, never proposed on its own)
    assert any("medium" in p or {"need", "needs"} & set(p.split()) for p in phrases), phrases
    assert not any("bell" in p for p in phrases)  # no answer of those marked says it
    assert bare.concepts == ()  # the bare file itself is not changed
    rows = run(data, rubrics, 10, {"n_resamples": 0}, seed=3, proposals=True)
    assert len(rows) == 16 and set(rows.attrs["unsensible"].columns) == {"question_id", "scheme", "source",
                                                                         "rule", "why"}
