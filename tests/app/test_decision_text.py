"""A decision belongs to the answer text it was made on: when the export is replaced and an id
holds another text, the answer goes back to the queue and the audit trail says why."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd

from grader.app.review import (DIFFERENT_TEXT, audit_trail, proposed_table, review_queue,
                               with_decisions)
from grader.app.review_store import NewDecision, ReviewStore
from grader.app.review_training import reviewed_examples


def _table(texts: list[str]) -> pd.DataFrame:
    n = len(texts)
    grades = pd.DataFrame({"mark": ["1"] * n, "confidence": [0.4] * n, "flagged": [True] * n,
                           "rule": ["R1"] * n, "explanation": ["e"] * n})
    features = pd.DataFrame({"length": np.arange(n, dtype=float)})
    return proposed_table("q1", [f"s{i}" for i in range(n)], texts, grades, features)


def test_a_decision_does_not_follow_its_id_to_another_text(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    first = _table(["9.8 m/s^2 downwards", "zero"])
    d = store.record("exam", "q1", "s0", marker="Ann", new_mark="1", base_version=0,
                     answer_text="9.8 m/s^2 downwards")
    assert d.answer_hash and store.latest("exam", "q1", "s0").answer_hash == d.answer_hash
    decided = with_decisions(first, store.current("exam"))
    assert decided["reviewed"].tolist() == [True, False]
    assert review_queue(decided, 0.7)["answer_id"].tolist() == ["s1"]

    replaced = _table(["i dont know", "zero"])  # the export replaced, same ids
    now = with_decisions(replaced, store.current("exam"))
    row = now.iloc[0]
    assert (bool(row["reviewed"]), row["marker"], row["mark"]) == (False, "", "1")  # the proposal
    assert review_queue(now, 0.7)["answer_id"].tolist() == ["s0", "s1"]
    # a new decision on the new text is based on the stored version: no false conflict
    again = store.record("exam", "q1", "s0", marker="Bob", new_mark="0", base_version=int(row["version"]),
                         answer_text="i dont know")
    assert with_decisions(replaced, store.current("exam")).iloc[0]["mark"] == "0"
    trail = audit_trail(store.history("exam"), replaced)
    assert trail.set_index("version").loc[d.version, "note"] == DIFFERENT_TEXT
    assert trail.set_index("version").loc[again.version, "note"] == ""


def test_white_space_alone_does_not_make_another_text(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    store.record("exam", "q1", "s0", marker="Ann", new_mark="0", base_version=0, answer_text="zero  at the top")
    assert with_decisions(_table(["zero at the top\n"]), store.current("exam"))["reviewed"].tolist() == [True]


def test_group_decisions_record_each_answer_text(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    saved, _ = store.record_many("exam", [NewDecision("q1", "s0", "1", 0, answer_text="up"),
                                          NewDecision("q1", "s1", "1", 0, answer_text="down")],
                                 marker="Ann")
    now = with_decisions(_table(["up", "sideways"]), store.current("exam"))
    assert now["reviewed"].tolist() == [True, False]
    assert len({d.answer_hash for d in saved}) == 2


def test_only_decisions_on_the_current_text_become_training_rows(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    for aid, text in (("s0", "old text"), ("s1", "zero")):
        store.record("exam", "q1", aid, marker="Ann", new_mark="0", base_version=0, answer_text=text)
    rows = reviewed_examples(_table(["new text", "zero"]), store.current("exam"), "q1")
    assert rows["answer"].tolist() == ["zero"]


def test_a_store_of_schema_1_is_migrated_and_its_decisions_keep_applying(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # the schema of version 1, with one decision
        db.executescript("""
            CREATE TABLE decisions (id INTEGER PRIMARY KEY AUTOINCREMENT, exam_id TEXT NOT NULL,
                question_id TEXT NOT NULL, answer_id TEXT NOT NULL, marker TEXT NOT NULL,
                decided_at TEXT NOT NULL, old_mark TEXT, new_mark TEXT NOT NULL,
                comment TEXT NOT NULL DEFAULT '', base_version INTEGER NOT NULL DEFAULT 0,
                scope TEXT NOT NULL DEFAULT 'answer');
            CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO store_info VALUES ('schema_version', '1');
            INSERT INTO decisions (exam_id, question_id, answer_id, marker, decided_at, new_mark)
                VALUES ('exam', 'q1', 's0', 'Ann', '2026-11-20T09:00:00+00:00', '0');""")
    store = ReviewStore(path)
    old = store.latest("exam", "q1", "s0")
    assert old.answer_hash is None and old.marker == "Ann"
    assert with_decisions(_table(["anything"]), store.current("exam"))["reviewed"].tolist() == [True]
    new = store.record("exam", "q1", "s0", marker="Bob", new_mark="1", base_version=old.version,
                       answer_text="anything")
    assert ReviewStore(path).latest("exam", "q1", "s0") == new  # reopening: no second migration
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM store_info").fetchone() == ("2",)


def test_in_the_app_a_replaced_answer_text_goes_back_to_the_queue(app_env):
    import csv
    import io
    import os
    from pathlib import Path

    from grader.app.review_store import answer_hash
    from tests.app.test_app import _button, _exam_id, _metric, _start
    from grader.app.ui import answer_key

    _, store = app_env
    at = _start()
    qid, aid = at.selectbox(key="review_pick").value
    path = Path(os.environ["GRADER_WORKDIR"]) / "sample_data" / "exam" / "responses.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
    column = rows[0].index({"vertical_throw": "Response 1", "open_circuit_bulb": "Response 2",
                            "resistor_current": "Response 3"}[qid])
    row = next(r for r in rows[1:] if r[rows[0].index("Email address")].strip() == aid)
    at.radio(key=answer_key("mark", _exam_id(), qid, aid)).set_value("0")
    _button(at, "Save the chosen mark").click().run()
    saved = store.latest(_exam_id(), qid, aid)
    assert saved.answer_hash == answer_hash(row[column])  # the text the marker saw
    assert int(_metric(at, "Reviewed")) == 1
    # the export is replaced: the same student id now holds another answer
    row[column] = "i dont know"
    out = io.StringIO(newline="")
    csv.writer(out).writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    again = _start()
    assert int(_metric(again, "Reviewed")) == 0
    assert store.history(_exam_id(), qid, aid) == [saved]  # the old decision is still there
