"""Issue 15, items 6-12, the logic behind the marker's views (no Streamlit): undo, the
markers' progress, anonymous ids, local times, groups of alike answers, the LMS exports."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest

from grader.app.export import csv_bytes, export_wide, student_marks
from grader.exams.grade_files import (GRADED_COLUMNS, canvas_file, highest_marks, moodle_file,
                                      student_grades)
from grader.app.grouping import groups_to_decide, meaning_groups
from grader.app.review import (local_time, marker_stats, proposed_table, pseudonym, undoable,
                               with_decisions)
from grader.app.review_store import UNDO, ConflictError, ReviewStore


def _table() -> pd.DataFrame:
    grades = pd.DataFrame({"mark": ["1", "0", None], "confidence": [0.9, 0.4, np.nan],
                           "rule": ["r1", "r2", ""], "explanation": ["", "", ""]})
    features = pd.DataFrame({"concept:down": ["present", "absent", "absent"]})
    return proposed_table("q1", ["a", "b", "c"], ["9.8 down", "zero", ""], grades, features)


# -- undo (item 6) ----------------------------------------------------------------------------

def test_undo_puts_a_first_decision_back_in_the_queue_and_keeps_the_trail(tmp_path):
    store = ReviewStore(tmp_path / "d.sqlite")
    table = _table()
    d = store.record("e", "q1", "b", marker="Ann", new_mark="1", base_version=0, old_mark="0",
                     answer_text="zero")
    assert with_decisions(table, store.current("e"))["reviewed"].tolist() == [False, True, False]
    assert undoable(store.history("e"), "Ann") == d
    assert undoable(store.history("e"), "Bob") is None
    undo = store.undo("e", d, marker="Ann")
    assert undo.scope == UNDO and undo.base_version == d.version and undo.new_mark == "0"
    after = with_decisions(table, store.current("e"))
    assert after["reviewed"].tolist() == [False, False, False]
    assert after["mark"].fillna("none").tolist() == ["1", "0", "none"]  # the proposed marks again
    assert after["version"].tolist() == [0, undo.version, 0]  # the next save builds on the undo
    assert len(store.history("e")) == 2  # nothing deleted
    assert undoable(store.history("e"), "Ann") is None  # an undo is not undone
    again = store.record("e", "q1", "b", marker="Ann", new_mark="0", base_version=undo.version,
                         answer_text="zero")
    now = with_decisions(table, store.current("e"))
    assert now["mark"].tolist()[:2] == ["1", "0"] and now["reviewed"].tolist()[1] and again.version


def test_undo_of_an_override_gives_back_the_earlier_mark_and_walks_back(tmp_path):
    store = ReviewStore(tmp_path / "d.sqlite")
    table = _table()
    first = store.record("e", "q1", "a", marker="Bob", new_mark="0", base_version=0,
                         answer_text="9.8 down")
    mine1 = store.record("e", "q1", "c", marker="Ann", new_mark="0", base_version=0, answer_text="")
    mine2 = store.record("e", "q1", "a", marker="Ann", new_mark="1", base_version=first.version,
                         old_mark="0", answer_text="9.8 down")
    assert undoable(store.history("e"), "Ann") == mine2
    restored = store.undo("e", mine2, marker="Ann")
    row = with_decisions(table, store.current("e")).iloc[0]
    assert (row["mark"], row["reviewed"], restored.scope) == ("0", True, "restore")
    assert undoable(store.history("e"), "Ann") == mine1  # U again: the decision before
    with pytest.raises(ConflictError):  # taken back already: no longer the latest
        store.undo("e", mine2, marker="Ann")


# -- markers' progress (item 7) ----------------------------------------------------------------

def test_marker_stats_count_answers_overrides_and_time_without_breaks(tmp_path):
    store = ReviewStore(tmp_path / "d.sqlite")
    table = _table()
    import sqlite3

    store.record("e", "q1", "a", marker="Ann", new_mark="1", base_version=0)      # as proposed
    d = store.record("e", "q1", "b", marker="Ann", new_mark="1", base_version=0)  # override
    store.record("e", "q1", "b", marker="Ann", new_mark="0.5", base_version=d.version)  # again
    store.record("e", "q1", "c", marker="Bob", new_mark="0", base_version=0)      # no proposal
    times = ["2026-11-23T10:00:00+00:00", "2026-11-23T10:00:30+00:00",
             "2026-11-23T10:01:30+00:00", "2026-11-23T11:00:00+00:00"]
    with sqlite3.connect(store.path) as db:  # decision times as a marker would space them
        for version, t in zip(range(1, 5), times):
            db.execute("UPDATE decisions SET decided_at=? WHERE id=?", (t, version))
    stats = marker_stats(store.history("e"), table).set_index("marker")
    assert stats.loc["Ann", "decided"] == 2 and stats.loc["Ann", "overridden"] == 1
    assert stats.loc["Ann", "minutes"] == 1.5 and stats.loc["Ann", "per answer (s)"] == 45.0
    assert stats.loc["Bob", "decided"] == 1 and stats.loc["Bob", "overridden"] == 1
    assert stats.loc["Bob", "minutes"] == 0.0
    # an idle hour between two decisions is a break, not time spent marking
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE decisions SET decided_at=? WHERE id=3", ("2026-11-23T11:30:00+00:00",))
    stats = marker_stats(store.history("e"), table).set_index("marker")
    assert stats.loc["Ann", "minutes"] == 0.5


# -- anonymous marking and local time (items 9, 12) --------------------------------------------

def test_a_pseudonym_is_stable_per_exam_and_does_not_show_the_id():
    p = pseudonym("exam-1", "mia.abbott@students.example.org")
    assert p == pseudonym("exam-1", "mia.abbott@students.example.org")
    assert p != pseudonym("exam-2", "mia.abbott@students.example.org")
    assert p != pseudonym("exam-1", "lars.achterberg@students.example.org")
    assert "mia" not in p and "abbott" not in p and "@" not in p


def test_times_are_shown_in_the_markers_time_zone():
    assert local_time("2026-11-23T15:04:05+00:00", "Europe/Berlin") == "23 Nov 2026 16:04"
    assert local_time("2026-07-01T23:30:00+00:00", "Australia/Sydney") == "02 Jul 2026 09:30"
    assert local_time("") == ""


# -- groups of alike answers (item 10) -----------------------------------------------------------

def test_answers_alike_in_features_and_wording_group_and_others_do_not():
    answers = ["9.8 m/s^2 downwards", "9.8 m/s^2 downwards, gravity",
               "9.8 m/s2 down", "zero at the top", "it is zero at the top", "the battery is flat"]
    features = pd.DataFrame({
        "quantity:acceleration": ["correct", "correct", "correct", "missing", "missing", "missing"],
        "concept:downward": ["present", "present", "present", "absent", "absent", "absent"],
        "concept:gravity": ["absent", "present", "absent", "absent", "absent", "absent"],
        "misconception:zero": ["absent", "absent", "absent", "present", "present", "absent"],
    })
    groups = meaning_groups(features, answers)
    assert groups[0] == groups[1] == groups[2]  # one feature apart, same meaning
    assert groups[3] == groups[4] and groups[3] != groups[0]
    assert groups[5] not in (groups[0], groups[3])
    # identical features but nothing alike in the wording: not one group
    same = pd.DataFrame({"concept:downward": ["absent"] * 2})
    apart = meaning_groups(same, ["idk", "the battery is probably flat today"])
    assert apart[0] != apart[1]


def test_groups_to_decide_hold_undecided_answers_with_one_proposed_mark():
    answers = ["the pitch rises as the string gets shorter", "pitch rises when the string is shorter",
               "a shorter string gives a higher pitch", "the pitch rises as the string gets shorter",
               "the string is louder", "the louder string"]
    features = pd.DataFrame({"concept:pitch": ["present"] * 4 + ["absent"] * 2,
                             "concept:shorter": ["present"] * 4 + ["absent"] * 2,
                             "concept:loud": ["absent"] * 4 + ["present"] * 2})
    proposed = ["correct", "correct", "incorrect", "correct", "incorrect", "incorrect"]
    decided = [False, False, False, True, False, False]
    group, leaders = groups_to_decide(features, answers, proposed, decided)
    assert group[3] == -1  # decided already: in no group
    assert group[0] == group[1] and group[4] == group[5] and group[0] != group[4]
    # alike in wording and features, but the machine proposed another mark: a group of its own
    assert group[2] not in (group[0], group[4])
    assert all(group[leader] == g for g, leader in enumerate(leaders))
    # answers that differ in what they say stay apart even with the same proposed mark
    loose = groups_to_decide(features, answers, ["correct"] * 6, [False] * 6)[0]
    assert loose[0] != loose[4]
    assert groups_to_decide(features, answers, proposed, [True] * 6)[0].tolist() == [-1] * 6


# -- exports (item 11) ---------------------------------------------------------------------------

def _two_questions() -> pd.DataFrame:
    rows = []
    for q, marks in (("q1", ["1", "0.5", None]), ("q2", ["1", "1", "0"])):
        for sid, m in zip(["s1@x.org", "s2@x.org", "s3@x.org"], marks):
            rows.append({"question_id": q, "answer_id": sid, "mark": m})
    return pd.DataFrame(rows)


def _read(frame: pd.DataFrame) -> list[list[str]]:
    return list(csv.reader(io.StringIO(csv_bytes(frame).decode("utf-8-sig"))))


def test_student_totals_are_empty_when_a_mark_is_missing():
    marks = student_marks(_two_questions(), ["q1", "q2"])
    assert marks.to_dict("records") == [
        {"id": "s1@x.org", "q1": "1", "q2": "1", "total": "2"},
        {"id": "s2@x.org", "q1": "0.5", "q2": "1", "total": "1.5"},
        {"id": "s3@x.org", "q1": "", "q2": "0", "total": ""}]


def _grades(table: pd.DataFrame):
    graded = table.assign(row=table["answer_id"].map({"s1@x.org": 2, "s2@x.org": 3, "s3@x.org": 4,
                                                      "1001": 2}), student=table["answer_id"],
                          state="", feedback="")
    return student_grades(graded[GRADED_COLUMNS], ["q1", "q2"])


def test_the_moodle_file_has_the_identity_column_a_column_per_question_and_the_total():
    rows = _read(moodle_file(_grades(_two_questions()), "Email address", "Quiz 3"))
    assert rows[0] == ["Email address", "q1", "q2", "Quiz 3 total"]
    assert rows[1:] == [["s1@x.org", "1", "1", "2"], ["s2@x.org", "0.5", "1", "1.5"],
                        ["s3@x.org", "", "0", ""]]


def test_the_canvas_file_has_canvass_columns_and_points_possible():
    highest = highest_marks({"q1": ["0", "0.5", "1"], "q2": ["0", "1", "2"]})
    rows = _read(canvas_file(_grades(_two_questions()), "Quiz 3", highest))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "q1", "q2",
                       "Quiz 3 total"]
    assert rows[1] == ["Points Possible", "", "", "", "", "1", "2", "3"]
    assert rows[2] == ["", "", "", "s1@x.org", "", "1", "1", "2"]
    ids = _read(canvas_file(_grades(_two_questions().replace({"s1@x.org": "1001"})), "Q", highest))
    assert ids[2][:4] == ["", "", "1001", ""]  # not an e-mail: the SIS user id


def test_the_wide_export_carries_each_students_total():
    table = _two_questions().assign(answer=["a"] * 6, proposed=["1"] * 6, confidence=[0.9] * 6,
                                    reviewed=False, marker="", comment="")
    rows = pd.DataFrame({"_row": [2, 3, 4], "Email address": ["s1@x.org", "s2@x.org", "s3@x.org"]})
    answers = table[["question_id", "answer_id"]].assign(row=[2, 3, 4, 2, 3, 4])
    wide = export_wide(rows, answers, table, 0.7)
    assert wide["total"].tolist() == ["2", "1.5", ""]
