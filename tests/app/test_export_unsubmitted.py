"""Issue 32 (i32x): the long and wide exports gave marks for "In progress" attempts, which only
the grade files left ungraded; and rows without an id were said only at Export."""

from __future__ import annotations

import pandas as pd

from grader.app.export import exam_notes, export_long, export_wide, without_unsubmitted_marks
from grader.app.review import proposed_table

ROWS = pd.DataFrame({"_row": [2, 3, 4, 5], "Email": ["ann@x.example", "bo@x.example", "cy@x.example", ""],
                     "State": ["Finished", "In progress", "Finished", ""],
                     "R1": ["a gap", "the gap", "no", ""], "R2": ["gap", "gap", "x", ""]})
ANSWERS = pd.DataFrame({"question_id": ["q1"] * 4 + ["q2"] * 4,
                        "answer_id": ["ann@x.example", "bo@x.example", "cy@x.example", "row 5"] * 2,
                        "row": [2, 3, 4, 5] * 2})


def _table() -> pd.DataFrame:
    parts = []
    for q, column in (("q1", "R1"), ("q2", "R2")):
        texts = ROWS[column].tolist()
        grades = pd.DataFrame({"mark": ["1" if "gap" in t else "0" for t in texts], "confidence": 0.9,
                               "rule": "r", "explanation": "e", "feedback": ""})
        parts.append(proposed_table(q, ANSWERS.loc[ANSWERS["question_id"] == q, "answer_id"].tolist(), texts,
                                    grades, pd.DataFrame({"f": range(len(texts))})))
    return pd.concat(parts, ignore_index=True)


def test_an_attempt_in_progress_has_no_mark_in_the_long_and_wide_exports_and_it_is_said():
    table = _table()
    kept, notes = without_unsubmitted_marks(table, ANSWERS, ROWS)
    assert notes == ["1 attempt not submitted (In progress) left ungraded: row 3"]
    long = export_long(kept, 0.5)
    bo = long[long["id"] == "bo@x.example"]
    assert bo["mark"].isna().all() and bo["proposed_mark"].tolist() == ["1", "1"]  # the proposal stays
    assert long.loc[long["id"] == "ann@x.example", "mark"].tolist() == ["1", "1"]
    wide = export_wide(ROWS, ANSWERS, kept, 0.5)
    assert wide.loc[1, ["q1 mark", "q2 mark", "total"]].tolist() == ["", "", ""]  # no total short of a mark
    assert wide.loc[0, ["q1 mark", "q2 mark", "total"]].tolist() == ["1", "1", "2"]
    # before: the attempt in progress was exported with its proposed marks and total
    assert export_wide(ROWS, ANSWERS, table, 0.5).loc[1, "total"] == "2"


def test_an_export_without_a_state_column_keeps_every_mark():
    table = _table()
    kept, notes = without_unsubmitted_marks(table, ANSWERS, ROWS.drop(columns="State"))
    assert notes == [] and kept["mark"].tolist() == table["mark"].tolist()


def test_the_exam_says_at_opening_which_rows_have_no_id_and_which_attempts_were_not_submitted():
    notes = exam_notes(ROWS, "Email")
    assert notes[0].startswith("1 row without a student id left out of the grade files") and notes[0].endswith("row 5")
    assert notes[1] == "1 attempt not submitted (In progress) left ungraded: row 3 (in every export)"
    assert not any("@" in n for n in notes)  # rows, never ids: shown under anonymous marking too
    assert exam_notes(ROWS.drop(columns="State").assign(Email=["a", "b", "c", "d"]), "Email") == []
    assert len(exam_notes(ROWS, None)) == 1  # no id column: only the attempts
