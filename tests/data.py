"""A small question and marked answers written for the pipeline, evaluation and CLI tests."""

from __future__ import annotations

from pathlib import Path

from knowledge.schema import Concept, Misconception, Question

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_data"

#: A question on sound (no circuit), without rules: tests add the rules they need.
BELL_JAR_YAML = """\
id: bell_jar
question: A bell rings inside a jar and the air is pumped out. What do you hear, and why?
reference_answers:
  - "The sound fades because sound needs a medium such as air to travel through."
concepts:
  medium:
    phrases: [medium, needs air, through air]
  fades:
    phrases: [fades, quieter, softer]
  silent:
    phrases: [silent, no sound]
misconceptions:
  vacuum_carries:
    phrases: [travels in a vacuum, travels through a vacuum]
"""

QUESTION_YAML = """\
id: open_bulb
question: Why does the bulb not light when the switch is open?
marks: ["0", "1"]
reference_answers:
  - There is a gap in the circuit, so no current can flow through the bulb.
concepts:
  gap:
    phrases: [gap, break, open circuit, not a closed loop, incomplete circuit]
    description: says the circuit has a gap
  current:
    phrases: [current, electricity flow, charge flow, electrons flow]
    description: talks about the current
misconceptions:
  battery_flat:
    phrases: [battery is flat, battery is dead, no battery]
    description: blames the battery
"""


def small_question(marks: tuple[str, ...] = ("0", "1")) -> Question:
    return Question(
        id="open_bulb", text="Why does the bulb not light when the switch is open?",
        reference_answers=("There is a gap in the circuit, so no current can flow through the bulb.",),
        marks=marks,
        concepts=(Concept("gap", ("gap", "break", "open circuit", "not a closed loop", "incomplete circuit"),
                          "says the circuit has a gap"),
                  Concept("current", ("current", "electricity flow", "charge flow", "electrons flow"),
                          "talks about the current")),
        misconceptions=(Misconception("battery_flat", ("battery is flat", "battery is dead", "no battery"),
                                      "blames the battery"),))


_GOOD = ["there is a gap in the circuit so no current flows", "the switch makes a gap, current can't get round",
         "because of the gap no current goes through the bulb", "a break in the circuit stops the current",
         "it is an open circuit so the current stops", "the gap means current cannot flow",
         "theres a gap so the charge can't flow and no current", "open circuit, no current in the bulb",
         "the circuit has a break so there is no current", "gap in the loop so current is zero"]
_BAD = ["the battery is flat", "the bulb is broken", "idk", "because the battery is dead",
        "the wires are too thin", "it needs more voltage", "the bulb uses up all the electricity",
        "the switch is made of plastic", "maybe the bulb is old", "no battery"]
_FILLERS = ["", "I think ", "well ", "ok so ", "umm "]


def marked_answers() -> tuple[list[str], list[str]]:
    """50 answers marked 1 and 50 marked 0, all different."""
    answers, marks = [], []
    for i, filler in enumerate(_FILLERS):
        for good, bad in zip(_GOOD, _BAD):
            answers += [filler + good, filler + bad]
            marks += ["1", "0"]
    return answers, marks


def write_rows(path: Path, rows: list[list[str]]) -> Path:
    """A CSV file of these rows (the first is the header)."""
    import csv

    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def write_marked_csv(path: Path, answers: list[str], marks: list[str]) -> Path:
    import csv

    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "answer", "mark"])
        for i, (a, m) in enumerate(zip(answers, marks)):
            writer.writerow([f"a{i}", a, m])
    return path


def write_beetle_folder(path: Path, test_answers: list[tuple[str, str]]) -> Path:
    """A one-question Beetle folder (questions.json, answers.csv) with 10 answers marked
    correct and 10 irrelevant to train on, and `test_answers` ((answer, label_5way)) to grade."""
    import json

    import pandas as pd

    (path / "questions.json").write_text(json.dumps([{
        "question_id": "Q1", "question": "Why does the bulb not light?",
        "reference_answers": ["There is a gap in the circuit"]}]))
    good = ["there is a gap in the circuit", "the circuit has a gap", "a gap in the circuit",
            "because of the gap", "gap in circuit"]
    bad = ["the battery is dead", "i do not know", "the bulb is broken", "no idea", "it is off"]
    rows = [("Q1", a, "correct", "train") for a in good * 2] + \
           [("Q1", a, "irrelevant", "train") for a in bad * 2] + \
           [("Q1", a, label, "test") for a, label in test_answers]
    pd.DataFrame(rows, columns=["question_id", "answer", "label_5way", "split"]).to_csv(
        path / "answers.csv", index=False)
    return path
