"""`grader test-rubric` (grader.grading.rubric_test): each rule's record on marked answers (issue 16)."""

from __future__ import annotations

import json

import pytest

from grader.cli import main
from grader.grading.model import GradingModel
from grader.grading.rubric_test import format_report, test_rubric as rubric_report
from tests.data import QUESTION_YAML, write_marked_csv

RULES = """background:
  - "0.99::mark(X,'0') :- misconception(X,battery_flat,present)."
initial_rules:
  - "mark(X,'1') :- concept(X,gap,present)."
"""
ANSWERS = [("a1", "there is a gap in the circuit", "1"),
           ("a2", "there is a gap and the battery is flat", "0"),
           ("a3", "the gap", "0"),
           ("a4", "the battery is flat", "0"),
           ("a5", "a break so no current", "1"), ("a9", "there is a gap so no current", "1"),
           ("a6", "no idea", "0"), ("a7", "the wires are too thin", "0"), ("a8", "the bulb is old", "0")]


@pytest.fixture()
def files(tmp_path):
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + RULES, encoding="utf-8")
    ids, answers, marks = zip(*ANSWERS)
    marked = write_marked_csv(tmp_path / "marked.csv", list(answers), list(marks))
    return question, marked


def test_the_teachers_rules_figures_are_those_counted_by_hand(files, capsys):
    question, marked = files
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    battery, gap = report["rules"][0], report["rules"][1]
    assert (battery["origin"], battery["mark"], battery["applies"], battery["marked"], battery["right"]) == \
        ("background", "0", 2, 2, 2)
    # the gap rule applies to a1, a2, a3, a5, a9; a2 was marked by the battery rule before it
    assert (gap["origin"], gap["mark"], gap["applies"], gap["marked"], gap["right"], gap["wrong_count"]) == \
        ("initial", "1", 5, 4, 3, 1)
    assert [(c["answer"], c["human_mark"]) for c in gap["wrong"]] == [("the gap", "0")]
    assert gap["text"] == "says the circuit has a gap"  # the rubric's words, not concept:gap
    assert report["answers"] == 9


def test_figures_agree_with_grading(files):
    question, marked = files
    from knowledge import load_question
    model = GradingModel.train(load_question(question), [a for _, a, _ in ANSWERS], [m for *_, m in ANSWERS],
                               n_resamples=0)
    ids, answers, marks = zip(*ANSWERS)
    report = rubric_report(model, ids, answers, marks, examples=0)
    graded = model.grade(list(answers))
    assert sum(r.marked for r in report.rules) + report.unmarked_count == len(answers)
    assert report.right == int((graded["mark"] == list(marks)).sum())
    for r in report.rules:
        mine = graded["rule"].str.startswith(f"R{r.number}:")
        assert r.marked == int(mine.sum())
        assert r.right == int((mine & (graded["mark"] == list(marks))).sum())
        assert r.wrong == [] and r.wrong_count == r.marked - r.right  # examples=0 keeps the counts only


def test_the_text_report_lists_rules_wrong_and_unmarked_answers(files, capsys):
    question, marked = files
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked)]) == 0
    out = capsys.readouterr().out
    assert "learned from these same answers" in out
    assert "R2 gives 1 to answers the human marked otherwise:" in out and "'the gap'" in out
    assert "precision" in out.splitlines()[3]


def test_question_or_model_not_both(files, capsys, tmp_path):
    question, marked = files
    assert main(["test-rubric", "--answers", str(marked)]) == 2
    assert "--question" in capsys.readouterr().err
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    assert main(["test-rubric", "--model", str(tmp_path / "m.json"), "--answers", str(marked)]) == 0
    assert f"rules of {tmp_path / 'm.json'}" in capsys.readouterr().out


def test_a_teachers_rule_the_learner_leaves_out_is_reported(tmp_path, capsys):
    question = tmp_path / "q.yaml"
    # full marks for blaming the battery: right on none of the answers it reaches, so left out
    question.write_text(QUESTION_YAML + "initial_rules:\n  - \"mark(X,'1') :- misconception(X,battery_flat,present).\"\n",
                        encoding="utf-8")
    ids, answers, marks = zip(*ANSWERS)
    marked = write_marked_csv(tmp_path / "marked.csv", list(answers), list(marks))
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    unused = [r for r in rules if r["note"]]
    assert len(unused) == 1 and unused[0]["origin"] == "initial" and unused[0]["marked"] == 0
    assert unused[0]["applies"] == 2 and "not used" in unused[0]["note"] and "on 0 of the 2" in unused[0]["note"]


def test_what_happened_to_each_teachers_rule_is_said_with_the_answers_behind_it(tmp_path, capsys):
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + "initial_rules:\n"
                        "  - \"mark(X,'1') :- concept(X,gap,present).\"\n"
                        "  - \"mark(X,'0') :- concept(X,current,negated).\"\n",
                        encoding="utf-8")
    rows = [(f"g{i}", text, "1") for i, text in enumerate(["there is a gap", "a gap in the circuit",
                                                           "the circuit has a gap", "because of the gap"])]
    rows += [(f"f{i}", text, "0") for i, text in enumerate(["there is a gap but the battery is flat",
                                                            "a gap, and the battery is dead", "gap and the battery is flat"])]
    rows += [("o1", "i do not know", "0"), ("o2", "the bulb is old", "0"), ("o3", "the wires are thin", "0")]
    ids, answers, marks = zip(*rows)
    marked = write_marked_csv(tmp_path / "marked.csv", list(answers), list(marks))  # ids a0, a1, ...
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    notes = {r["text"].split(" (unless")[0]: r["note"]
             for r in json.loads(capsys.readouterr().out)["rules"] if r["origin"] == "initial"}
    gap = notes["says the circuit has a gap"]
    assert gap.startswith("kept with exceptions the marked answers call for: not when blames the battery")
    assert "(3 of the 3 answers this keeps it off are marked otherwise: a4, a5, a6)" in gap
    assert notes["talks about the current, but with a negation"] == "not used: no marked answer meets its conditions yet"
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked)]) == 0
    text = capsys.readouterr().out
    assert "what happened to the teacher's rules:" in text and "marked otherwise: a4, a5, a6)" in text


def test_the_table_keeps_its_columns_with_long_marks(tmp_path, capsys):
    # a mark longer than six letters pushed its row's figures right of the header's
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML.replace('marks: ["0", "1"]', 'marks: ["0", partially_correct]')
                        + RULES.replace("'1'", "'partially_correct'"), encoding="utf-8")
    ids, answers, marks = zip(*ANSWERS)
    marked = write_marked_csv(tmp_path / "marked.csv", list(answers),
                              ["partially_correct" if m == "1" else m for m in marks])
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked)]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rule "))
    rows = lines[header + 1:lines.index("", header)]
    assert len(rows) >= 2 and any("partially_correct" in r for r in rows)
    end = lines[header].index("conditions")  # every row's conditions start under the header's
    assert all(r[end - 2:end] == "  " and r[end] != " " for r in rows)
    right = lines[header].index("applies") + len("applies")  # figures end under their heading
    assert all(r[right - 1].isdigit() and r[right] == " " for r in rows)


def test_a_rules_name_stays_in_the_table_when_its_conditions_are_cut(tmp_path, capsys):
    # the name came after the conditions, and a long rule lost it to the cut at 70 characters
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + """initial_rules:
  - name: gap_and_current_and_not_flat
    mark: "1"
    if: ["concept:gap == present", "concept:current == negated"]
    unless: ["misconception:battery_flat == present"]
""", encoding="utf-8")
    ids, answers, marks = zip(*ANSWERS)
    marked = write_marked_csv(tmp_path / "marked.csv", list(answers), list(marks))
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "  initial  " in line]
    assert rows and all("[gap_and_current_and_not_flat]" in row for row in rows), out
    assert any(row.endswith("...") for row in rows)  # cut, and the name still there


def test_a_rule_left_out_because_an_earlier_rule_marks_its_answers_first_says_which(tmp_path, capsys):
    # the note said "covers no answer with its mark, or is right less than half the time" of a
    # rule right on 3 of the 3 answers it applies to: the rule before it had marked one of them
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + "initial_rules:\n"
                        "  - name: blames_the_battery\n    mark: '0'\n"
                        "    if: [\"misconception:battery_flat == present\"]\n"
                        "  - name: no_current\n    mark: '0'\n    if: [\"concept:current == negated\"]\n",
                        encoding="utf-8")
    rows = [("there is no current because the battery is flat", "0"), ("no current flows", "0"),
            ("there is no current", "0"), ("the battery is flat", "0"), ("a dead battery", "0"),
            ("the battery is flat so it stops", "0"), ("there is a gap", "1"), ("a gap in the circuit", "1"),
            ("the circuit is broken", "1"), ("it has a gap so it is open", "1")]
    marked = write_marked_csv(tmp_path / "marked.csv", [a for a, _ in rows], [m for _, m in rows])
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    notes = {r["name"]: r["note"] for r in json.loads(capsys.readouterr().out)["rules"] if r["origin"] == "initial"}
    assert notes["no_current"] == (
        "not used: as the human on 3 of the 3 marked answers it applies to, but 1 of those is marked first by "
        "the rule before it (R1 [blames_the_battery]), which leaves 2; a teacher's rule is used once it is right "
        "on 3 of the answers it reaches")


WORDS_YAML = QUESTION_YAML.replace('marks: ["0", "1"]', "marks: [incorrect, contradictory, correct]")
WRONG_IDEA_RULES = """initial_rules:
  - name: blames_the_battery
    mark: contradictory
    if: ["misconception:battery_flat == present"]
  - name: says_current
    mark: correct
    if: ["concept:current == present"]
"""
SHOWN_ONCE = [("the battery is flat", "contradictory"), ("there is a gap", "correct"),
              ("a gap in the circuit", "correct"), ("the circuit has a break", "correct"),
              ("a gap so the current stops", "correct"), ("no idea", "incorrect"), ("the bulb is old", "incorrect"),
              ("it is dark", "incorrect"), ("the wires are thin", "incorrect"), ("it is broken", "incorrect")]


@pytest.mark.parametrize("no_credit", [True, False, None])
def test_a_rule_for_a_wrong_idea_is_used_once_one_marked_answer_shows_it(tmp_path, capsys, no_credit):
    # contradictory answers are few and split among many wrong ideas, each shown by one or two
    # of 30 marked answers: asking 3 of each dropped nearly every such rule of a teacher.
    # no_credit None: a file without marks (read off the answers), whose rules for
    # contradictory all ask for a wrong idea, so contradictory is taken for a no-credit mark
    question = tmp_path / "q.yaml"
    text = WORDS_YAML if no_credit is not None else "\n".join(
        line for line in WORDS_YAML.splitlines() if not line.startswith("marks:")) + "\n"
    question.write_text(text + ("no_credit: [contradictory]\n" if no_credit else "") + WRONG_IDEA_RULES,
                        encoding="utf-8")
    marked = write_marked_csv(tmp_path / "marked.csv", [a for a, _ in SHOWN_ONCE], [m for _, m in SHOWN_ONCE])
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    notes = {r["name"]: r["note"] for r in json.loads(capsys.readouterr().out)["rules"] if r["origin"] == "initial"}
    # a rule for credit still needs 3 marked answers (it has 1)
    assert notes["says_current"].startswith("not used yet") and notes["says_current"].endswith("right on 3")
    if no_credit or no_credit is None:
        assert notes["blames_the_battery"] == "kept as written"
    else:  # contradictory is then a mark above the lowest, like correct
        assert notes["blames_the_battery"] == ("not used yet: as the human on 1 of the 1 marked answers it "
                                               "applies to; a teacher's rule is used once it is right on 3")


def test_a_rule_for_a_wrong_idea_for_the_lowest_mark_is_used_once_one_marked_answer_shows_it(tmp_path, capsys):
    # where wrong ideas get the lowest mark (right / wrong marks), a teacher's rule for one
    # still needed 3 marked answers, as a rule for what an answer lacks does
    question = tmp_path / "q.yaml"
    two_marks = WORDS_YAML.replace("marks: [incorrect, contradictory, correct]", "marks: [incorrect, correct]")
    rules = WRONG_IDEA_RULES.replace("mark: contradictory", "mark: incorrect")
    question.write_text(two_marks + rules, encoding="utf-8")
    shown = [(a, "incorrect" if m == "contradictory" else m) for a, m in SHOWN_ONCE]
    marked = write_marked_csv(tmp_path / "marked.csv", [a for a, _ in shown], [m for _, m in shown])
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    notes = {r["name"]: r["note"] for r in json.loads(capsys.readouterr().out)["rules"] if r["origin"] == "initial"}
    assert notes["blames_the_battery"] == "kept as written"
    assert notes["says_current"].startswith("not used yet")


def test_the_reference_turned_round_is_a_wrong_idea_in_a_file_without_marks(tmp_path):
    from grader.grading.training import wrong_idea_marks
    from knowledge import load_question

    rules = WRONG_IDEA_RULES + ("  - name: turned_round\n    mark: contradictory\n"
                                "    if: [\"ref:turned_round == present\"]\n")
    text = "\n".join(line for line in WORDS_YAML.splitlines() if not line.startswith("marks:")) + "\n"
    (tmp_path / "q.yaml").write_text(text + rules, encoding="utf-8")
    assert wrong_idea_marks(load_question(tmp_path / "q.yaml")) == ("contradictory",)
    also = rules + "  - name: any_current\n    mark: contradictory\n    if: [\"concept:current == negated\"]\n"
    (tmp_path / "q2.yaml").write_text(text + also, encoding="utf-8")
    assert wrong_idea_marks(load_question(tmp_path / "q2.yaml")) == ()


def test_a_dropped_way_of_a_rule_says_what_its_ways_do_together(tmp_path, capsys):
    # a rule written with `any:` is one rule to its teacher: each way's note says the whole's figure
    rules = """initial_rules:
  - name: blames_something
    mark: contradictory
    if:
      - any: ["misconception:battery_flat == present", "concept:current == negated"]
"""
    question = tmp_path / "q.yaml"
    question.write_text(WORDS_YAML + rules, encoding="utf-8")
    marked = write_marked_csv(tmp_path / "marked.csv", [a for a, _ in SHOWN_ONCE], [m for _, m in SHOWN_ONCE])
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    notes = [r["note"] for r in json.loads(capsys.readouterr().out)["rules"] if r["name"] == "blames_something"]
    assert notes[0].endswith("(its 2 ways together: as the human on 1 of the 1); a teacher's rule is used once it "
                             "is right on 3")


UNLESS_FLAT = ("initial_rules:\n  - name: gap\n    mark: '1'\n    if: ['concept:gap == present']\n"
               "    unless: ['misconception:battery_flat == present']\n")
GAP_ANSWERS = ["there is a gap", "a gap in the circuit", "the circuit has a gap", "because of the gap",
               "a gap so no current", "there's a gap in it", "gap", "it has a gap", "the gap stops it",
               "a gap between the wires", "there is a break", "a break in the circuit"]


def _gap_notes(tmp_path, capsys, flat_mark: str, flat_answers: list[str]) -> tuple[str, dict]:
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + UNLESS_FLAT, encoding="utf-8")
    answers = GAP_ANSWERS + flat_answers + ["i do not know", "the bulb is old", "the wires are thin", "no idea"]
    marks = ["1"] * len(GAP_ANSWERS) + [flat_mark] * len(flat_answers) + ["0"] * 4
    marked = write_marked_csv(tmp_path / "marked.csv", answers, marks)
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    return next(r["note"] for r in rules if r["name"] == "gap"), rules


def test_a_teachers_exception_shown_on_one_answer_is_kept(tmp_path, capsys):
    note, rules = _gap_notes(tmp_path, capsys, "0", ["a gap but the battery is flat"])
    assert note == "kept as written"
    gap = next(r for r in rules if r["name"] == "gap")
    assert gap["marked"] == len(GAP_ANSWERS) and gap["right"] == len(GAP_ANSWERS)  # not the flat battery


def test_a_teachers_exception_the_answers_contradict_is_said_dropped_with_the_answers(tmp_path, capsys):
    flat = ["a gap and the battery is flat", "gap, battery is dead", "there is a gap and no battery"]
    note, _ = _gap_notes(tmp_path, capsys, "1", flat)
    assert note == ('kept, its exception "not when blames the battery" dropped (3 of the 3 answers it keeps the '
                    'rule off are marked 1: a12, a13, a14)')


def test_a_rule_for_a_wrong_idea_no_marked_answer_shows_is_said_to_be_kept_unsure(tmp_path, capsys):
    # nobody here blames the battery: the teacher's rule for it is kept, its marks unsure
    text = QUESTION_YAML.replace('marks: ["0", "1"]', "marks: [incorrect, contradictory, correct]\n"
                                 "no_credit: [contradictory]")
    question = tmp_path / "q.yaml"
    question.write_text(text + "initial_rules:\n"
                        "  - name: blames_the_battery\n    mark: contradictory\n"
                        "    if: [\"misconception:battery_flat == present\"]\n", encoding="utf-8")
    rows = [("there is a gap", "correct"), ("a gap in the circuit", "correct"), ("the circuit has a gap", "correct"),
            ("i do not know", "incorrect"), ("the bulb is old", "incorrect"), ("the wires are thin", "incorrect"),
            ("the current goes backwards", "contradictory")]
    answers, marks = zip(*rows)
    marked = write_marked_csv(tmp_path / "marked.csv", list(answers), list(marks))
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    notes = {r["name"]: r["note"] for r in json.loads(capsys.readouterr().out)["rules"] if r["origin"] == "initial"}
    assert notes["blames_the_battery"].startswith("kept as written, unsure: no marked answer meets its conditions yet")


def test_a_teachers_rule_with_its_own_confidence_that_meets_no_answer_here_is_not_said_unsure(tmp_path):
    # "0.9::" fixes the rule's confidence; read on answers none of which it meets, it is still
    # the teacher's rule kept as written, not one kept unsure at 0.5
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + "initial_rules:\n  - \"0.9::mark(X,'1') :- concept(X,gap,present).\"\n",
                        encoding="utf-8")
    from knowledge import load_question

    answers = ["there is a gap", "a gap in the circuit", "the circuit has a gap", "because of the gap",
               "i do not know", "the bulb is old", "the wires are thin"]
    marks = ["1"] * 4 + ["0"] * 3
    model = GradingModel.train(load_question(question), answers, marks, n_resamples=0)
    gap = next(r for r in model.learner.rules_ if r.origin == "initial")
    assert (gap.confidence, gap.fixed_confidence) == (0.9, True)
    report = rubric_report(model, ["b1", "b2"], ["the wires are thin", "no idea"], ["0", "0"])
    (note,) = [r.note for r in report.rules if r.origin == "initial"]
    assert "unsure" not in note and "0.5" not in note


def test_a_wrong_idea_found_in_answers_given_the_highest_mark_is_shown(tmp_path, capsys):
    # a teacher's phrase that finds more than they meant shows up as a wrong idea in answers
    # they gave full marks: the report says which, with the answers
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML + RULES, encoding="utf-8")
    answers = ANSWERS + [("a10", "there is a gap, the battery is flat is not why", "1"),
                         ("a11", "a gap, so the battery is dead is wrong", "1")]
    ids, texts, marks = zip(*answers)
    marked = write_marked_csv(tmp_path / "marked.csv", list(texts), list(marks))
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    (idea,) = json.loads(capsys.readouterr().out)["wrong_ideas"]
    assert (idea["name"], idea["mark"], idea["found_count"]) == ("battery_flat", "1", 2)
    assert [c["answer"] for c in idea["found"]] == [texts[-2], texts[-1]]
    # and which of its phrases found each answer: the one the teacher may want to change
    assert idea["found_by"] == [["battery is flat"], ["battery is dead"]]
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--examples", "1"]) == 0
    out = capsys.readouterr().out
    assert "the wrong idea [battery_flat] (battery is flat, battery is dead, no battery) is found in 2 answer(s) " \
           "the human marked 1 (first 1)" in out
    assert "'there is a gap, the battery is flat is not why'  (found by 'battery is flat')" in out
    from grader.app.rubric_check import rubric_record, wrong_idea_table
    table = wrong_idea_table(rubric_record(question.read_text(encoding="utf-8"), question, marked))
    assert table["answer"].tolist() == [texts[-2], texts[-1]] and set(table["wrong idea"]) == {"battery_flat"}
    assert table["found by"].tolist() == ["battery is flat", "battery is dead"]


def test_no_wrong_idea_is_shown_without_an_order_of_the_marks(tmp_path, capsys):
    # marks that are words, not listed in order: no mark is known to be the highest
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML.replace('marks: ["0", "1"]\n', ""), encoding="utf-8")
    answers = [("there is a gap", "good"), ("a break in it", "good"), ("the battery is flat", "bad"),
               ("no idea", "bad"), ("there is a gap, the battery is flat is not why", "good")] * 2
    marked = write_marked_csv(tmp_path / "marked.csv", [a for a, _ in answers], [m for _, m in answers])
    assert main(["test-rubric", "--question", str(question), "--answers", str(marked), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wrong_ideas"] == []
