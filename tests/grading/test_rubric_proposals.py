"""Concepts and misconceptions proposed from marked answers (`grader suggest-rubric`)."""

from __future__ import annotations

import csv
import json

import pytest

import knowledge
from grader.cli import main
from grader.grading.rubric_proposals import CONCEPT, MISCONCEPTION, known_order, propose, with_proposals

#: A lever question (no circuit), with a comment and a concept of the teacher's own.
LEVER_YAML = """\
id: door_lever
# the teacher's note: keep me
question: Why is a door easier to open when you push far from the hinge?
marks: [incorrect, contradictory, correct]
reference_answers:
  - "The turning effect is the force times its distance from the hinge."
concepts:
  hinge:
    phrases: [hinge, pivot]   # the teacher's own
    description: names the pivot
"""

CORRECT = ["the torque is larger because the distance is bigger", "more torque with a longer distance",
           "a larger distance gives a larger torque", "the torque depends on the distance",
           "torque equals force times distance so more torque", "further out means more torque",
           "torque is bigger far away", "the torque increases with the lever arm"]
CONTRADICTORY = ["there is no torque on the door", "no torque acts at all", "the door feels no torque",
                 "it has no torque anywhere", "there is no torque whatever you do"]
INCORRECT = ["the door is heavy", "because it is made of wood", "the door is rusty", "i pushed hard",
             "doors are easy"]


def _marked():
    answers = CORRECT + CONTRADICTORY + INCORRECT
    marks = ["correct"] * len(CORRECT) + ["contradictory"] * len(CONTRADICTORY) + ["incorrect"] * len(INCORRECT)
    return [f"a{k}" for k in range(len(answers))], answers, marks


def _question(tmp_path):
    path = tmp_path / "door.yaml"
    path.write_text(LEVER_YAML, encoding="utf-8")
    return path, knowledge.load_question(path)


def test_the_phrases_of_the_class_are_proposed_with_the_answers_that_say_them(tmp_path):
    _, question = _question(tmp_path)
    ids, answers, marks = _marked()
    proposals = propose(question, ids, answers, marks, order=question.marks)
    concepts = {p.name: p for p in proposals if p.kind == CONCEPT}
    wrong = {p.name: p for p in proposals if p.kind == MISCONCEPTION}
    torque = next(p for p in concepts.values() if "torque" in p.phrases)
    assert torque.mark == "correct" and torque.support == {"correct": ids[:8]}
    denied = next(p for p in wrong.values() if "no torque" in p.phrases)
    assert denied.mark == "contradictory" and denied.support == {"contradictory": ids[8:13]}
    assert denied.reason.startswith("5 answers marked contradictory say 'no torque' (a8, a9, a10, a11, a12)")
    assert not any("hinge" in p.phrases for p in proposals)  # the teacher has it


def test_no_order_of_the_marks_no_guess_of_the_lowest(tmp_path):
    _, question = _question(tmp_path)
    ids, answers, marks = _marked()
    assert known_order((), ["1", "0.5", "0"]) == ("0", "0.5", "1") and known_order((), marks) == ()
    proposals = propose(question, ids, answers, marks)  # word marks in no known order
    denied = [p for p in proposals if "no torque" in p.phrases]
    assert denied and denied[0].kind == MISCONCEPTION  # denied where the plain phrase is marked otherwise
    assert propose(question, ids, answers, ["correct"] * len(ids)) == []  # one mark: nothing separates


def test_the_teachers_file_is_kept_as_written_and_the_proposals_added(tmp_path):
    path, question = _question(tmp_path)
    ids, answers, marks = _marked()
    proposals = propose(question, ids, answers, marks, order=question.marks)
    text = with_proposals(LEVER_YAML, proposals)
    kept = iter(text.splitlines())
    assert all(any(line == got for got in kept) for line in LEVER_YAML.splitlines())  # in order, as written
    out = tmp_path / "out.yaml"
    out.write_text(text, encoding="utf-8")
    loaded = knowledge.load_question(out)
    assert [c.name for c in loaded.concepts][0] == "hinge"
    assert {p.name for p in proposals} <= {c.name for c in (*loaded.concepts, *loaded.misconceptions)}
    assert "# proposed: 8 answers marked correct say" in text


def test_sections_are_made_and_one_line_sections_refused(tmp_path):
    _, question = _question(tmp_path)
    ids, answers, marks = _marked()
    proposals = propose(question, ids, answers, marks, order=question.marks)
    bare = "id: q\nquestion: Why?\nreference_answers: [the torque]\nconcepts: {}\n"
    text = with_proposals(bare, proposals)
    assert "concepts:\n  # proposed" in text and "\nmisconceptions:\n" in text
    with pytest.raises(ValueError, match=r"q.yaml:4:11: concepts is written on one line"):
        with_proposals(bare.replace("{}", "{a: [b]}"), proposals, "q.yaml")


def test_cli_writes_a_copy_and_never_the_input(tmp_path, capsys):
    path, _ = _question(tmp_path)
    ids, answers, marks = _marked()
    marked = tmp_path / "marked.csv"
    with marked.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("id", "answer", "mark"), *zip(ids, answers, marks)])
    assert main(["suggest-rubric", "--question", str(path), "--answers", str(marked), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    out = tmp_path / "door.proposed.yaml"
    assert report["out"] == str(out) and any("no torque" in p["phrases"] for p in report["proposals"])
    assert path.read_text(encoding="utf-8") == LEVER_YAML
    assert knowledge.load_question(out).misconceptions
    assert main(["suggest-rubric", "--question", str(path), "--answers", str(marked), "--out", str(path)]) == 2
    assert "also an input" in capsys.readouterr().err and path.read_text(encoding="utf-8") == LEVER_YAML
    # run again: the copy it wrote may hold the teacher's edits; it is kept, and said to be a question file
    out.write_text(out.read_text(encoding="utf-8") + "# my edit\n", encoding="utf-8")
    assert main(["suggest-rubric", "--question", str(path), "--answers", str(marked)]) == 2
    err = capsys.readouterr().err
    assert "does not look like" not in err and "may hold your edits" in err and "--force" in err, err
    assert out.read_text(encoding="utf-8").endswith("# my edit\n")


def test_a_word_yaml_reads_as_true_or_false_is_never_a_name(tmp_path):
    """'yes' alone separated the marks of the sample: `yes:` was the key True, and the file invalid
    ('yes' and 'no' are chatter now, never proposed; 'on' and 'off' are words YAML reads alike)."""
    path, question = _question(tmp_path)
    answers = ["on it does", "on", "on because of torque", "off", "off it does not", "off way"] * 2
    marks = ["correct"] * 3 + ["incorrect"] * 3
    proposals = propose(question, [f"y{k}" for k in range(12)], answers, marks * 2, order=question.marks)
    assert {p.name for p in proposals} & {"on_said", "off_said"}
    out = tmp_path / "out.yaml"
    out.write_text(with_proposals(LEVER_YAML, proposals), encoding="utf-8")
    names = {c.name for c in (*knowledge.load_question(out).concepts, *knowledge.load_question(out).misconceptions)}
    assert {p.name for p in proposals} <= names


def test_neither_chatter_nor_the_questions_own_words_are_proposed_as_ideas(tmp_path):
    _, question = _question(tmp_path)
    ids, answers, marks = _marked()
    # good answers that hedge and restate the question: "think" and "door" separate the marks
    answers = [f"i think the door {a}" if m == "correct" else a for a, m in zip(answers, marks)]
    said = [p for proposal in propose(question, ids, answers, marks, order=question.marks)
            for p in proposal.phrases]
    assert "torque" in said
    assert not {"think", "i think", "door", "think door"} & set(said), said


def test_the_questions_own_words_are_no_misconception(tmp_path):
    # "door" said by the answers marked incorrect was proposed as a misconception: a teacher
    # would not call restating the question a wrong idea
    _, question = _question(tmp_path)
    ids, answers, marks = _marked()
    answers = [f"{a} so the door opens" if m == "incorrect" else a for a, m in zip(answers, marks)]
    proposals = propose(question, ids, answers, marks, order=question.marks)
    wrong = [p for proposal in proposals if proposal.kind == MISCONCEPTION for p in proposal.phrases]
    assert "no torque" in wrong
    assert not {"door", "open", "door open"} & set(wrong), wrong


def test_a_proposal_shows_its_phrase_as_the_class_writes_it(tmp_path):
    # the phrases and names of proposals were their keys: 'more', 'more torque' for answers
    # that say "larger" and "bigger"; the teacher pastes and reads the class's words
    _, question = _question(tmp_path)
    answers = ["the torque is larger", "a larger torque", "larger torque far out", "the door is heavy",
               "it is rusty", "no idea"]
    ids = [f"a{k}" for k in range(len(answers))]
    proposals = propose(question, ids, answers, ["correct"] * 3 + ["incorrect"] * 3, order=question.marks)
    phrases = {p for proposal in proposals for p in proposal.phrases}
    names = {proposal.name for proposal in proposals}
    assert "larger" in phrases or "larger torque" in phrases, phrases
    assert not any("more" in p.split() for p in phrases) and "more" not in names, (phrases, names)
