"""The SQLite decision store: audit trail, optimistic concurrency, nothing lost."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from grader.app.review_store import SPLIT, TAKEN_OUT, ConflictError, NewDecision, ReviewStore, StoreError


@pytest.fixture()
def store(tmp_path):
    return ReviewStore(tmp_path / "work" / "reviews.sqlite")


def test_latest_decision_is_the_current_mark_and_all_are_kept(store):
    first = store.record("exam", "q1", "alice", marker="Ann", new_mark="1", base_version=0,
                         old_mark="0.5", comment="units fine")
    second = store.record("exam", "q1", "alice", marker="Bob", new_mark="0.5",
                          base_version=first.version, old_mark="1")
    assert store.latest("exam", "q1", "alice") == second
    assert store.current("exam") == {("q1", "alice"): second}
    trail = store.history("exam", "q1", "alice")
    assert [(d.marker, d.old_mark, d.new_mark, d.comment) for d in trail] == [
        ("Ann", "0.5", "1", "units fine"), ("Bob", "1", "0.5", "")]
    assert trail[1].base_version == first.version
    assert trail[0].decided_at.endswith("+00:00")


def test_decisions_survive_reopening_the_file(tmp_path):
    path = tmp_path / "r.sqlite"
    saved = ReviewStore(path).record("e", "q", "a", marker="M", new_mark="0", base_version=0)
    assert ReviewStore(path).current("e") == {("q", "a"): saved}


def test_stale_save_is_refused_and_shows_the_other_decision(store):
    store.record("exam", "q1", "a", marker="Ann", new_mark="1", base_version=0)
    with pytest.raises(ConflictError) as info:
        store.record("exam", "q1", "a", marker="Bob", new_mark="0", base_version=0)
    assert info.value.current.marker == "Ann"
    assert info.value.current.new_mark == "1"
    assert "Ann" in str(info.value)
    assert len(store.history("exam")) == 1
    # Bob has now seen Ann's decision and keeps his explicitly
    kept = store.record("exam", "q1", "a", marker="Bob", new_mark="0",
                        base_version=info.value.current.version, old_mark="1")
    assert store.latest("exam", "q1", "a") == kept


def test_exams_and_questions_are_kept_apart(store):
    store.record("e1", "q1", "a", marker="M", new_mark="1", base_version=0)
    store.record("e2", "q1", "a", marker="M", new_mark="0", base_version=0)
    store.record("e1", "q2", "a", marker="M", new_mark="0.5", base_version=0)
    assert {k: d.new_mark for k, d in store.current("e1").items()} == {
        ("q1", "a"): "1", ("q2", "a"): "0.5"}
    assert {e for e, _, _ in store.exams()} == {"e1", "e2"}


def test_group_decision_saves_the_free_answers_and_reports_conflicts(store):
    other = store.record("exam", "q", "b", marker="Ann", new_mark="1", base_version=0)
    saved, conflicts = store.record_many(
        "exam", [NewDecision("q", a, "0", 0, old_mark="1") for a in ("a", "b", "c")],
        marker="Bob", comment="same wrong idea")
    assert [d.answer_id for d in saved] == ["a", "c"]
    assert all(d.scope == "group" and d.comment == "same wrong idea" for d in saved)
    assert [c.current for c in conflicts] == [other]
    assert store.latest("exam", "q", "b") == other


def test_empty_mark_or_marker_is_an_error(store):
    with pytest.raises(ValueError, match="marker"):
        store.record("e", "q", "a", marker=" ", new_mark="1", base_version=0)
    with pytest.raises(ValueError, match="new mark"):
        store.record("e", "q", "a", marker="M", new_mark="", base_version=0)
    assert store.history("e") == []


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="notes.sqlite"):
        ReviewStore(path)


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    ReviewStore(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE store_info SET value='99' WHERE key='schema_version'")
    with pytest.raises(StoreError, match="newer"):
        ReviewStore(path)


# Each marker runs in its own interpreter (not multiprocessing: its "spawn" re-imports the
# parent's __main__, which under Streamlit's AppTest in the same session is app.py).
_MARKER_SCRIPT = """
import json, sys
from grader.app.review_store import ConflictError, ReviewStore
path, marker, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = ReviewStore(path)
conflicts = 0
for i in range(n):
    # both markers work through the same answers; each reads the version first
    answer = f"s{i:03d}"
    latest = store.latest("exam", "q", answer)
    try:
        store.record("exam", "q", answer, marker=marker, new_mark=str(i % 3),
                     base_version=latest.version if latest else 0)
    except ConflictError:
        conflicts += 1
    store.record("exam", "q", f"{marker}-{i:03d}", marker=marker, new_mark="1", base_version=0)
print(json.dumps([marker, conflicts]))
"""


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "r.sqlite")
    ReviewStore(path)
    n = 60
    root = Path(__file__).resolve().parents[2]
    procs = [subprocess.Popen([sys.executable, "-c", _MARKER_SCRIPT, path, m, str(n)],
                              cwd=root, stdout=subprocess.PIPE, text=True)
             for m in ("ann", "bob")]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    conflicts = dict(json.loads(out) for out in outputs)
    store = ReviewStore(path)
    history = store.history("exam")
    # each marker's own answers: every save is there
    for m in ("ann", "bob"):
        assert sum(d.answer_id.startswith(m + "-") for d in history) == n
    # shared answers: every save that was not refused is there, on top of what it saw
    shared = [d for d in history if d.answer_id.startswith("s")]
    assert len(shared) == 2 * n - sum(conflicts.values())
    for answer in {d.answer_id for d in shared}:
        trail = [d for d in shared if d.answer_id == answer]
        assert trail[0].base_version == 0
        for before, after in zip(trail, trail[1:]):
            assert after.base_version == before.version  # nobody overwrote blindly


def test_names_and_comments_over_the_limits_are_refused_not_cut(store):
    from grader.app.review_store import MAX_COMMENT_CHARS, MAX_MARKER_CHARS

    with pytest.raises(ValueError, match=f"at most {MAX_MARKER_CHARS} characters; this one has 1,000,000"):
        store.record("exam", "q", "a", marker="M" * 1_000_000, new_mark="1", base_version=0)
    with pytest.raises(ValueError, match="at most 2,000 characters; this one has 2,001"):
        store.record("exam", "q", "a", marker="Ann", new_mark="1", base_version=0,
                     comment="c" * (MAX_COMMENT_CHARS + 1))
    with pytest.raises(ValueError, match="a comment has at most"):
        store.record_many("exam", [NewDecision("q", "a", "1", 0)], marker="Ann", comment="c" * 10**6)
    assert store.history("exam") == []  # nothing saved, nothing truncated
    full = store.record("exam", "q", "a", marker="M" * MAX_MARKER_CHARS, new_mark="1", base_version=0,
                        comment="c" * MAX_COMMENT_CHARS)
    assert store.latest("exam", "q", "a") == full and len(full.comment) == MAX_COMMENT_CHARS


def test_half_a_character_in_a_name_or_comment_is_refused_with_a_message(store):
    """A user name with bytes that are not UTF-8 reaches Python as a lone surrogate, which
    SQLite cannot store: it raised UnicodeEncodeError."""
    with pytest.raises(ValueError, match=r"a marker's name 'Ann\\udc80' has half of a character"):
        store.record("exam", "q", "a", marker="Ann\udc80", new_mark="1", base_version=0)
    with pytest.raises(ValueError, match="a comment .* has half of a character"):
        store.record_many("exam", [NewDecision("q", "a", "1", 0)], marker="Ann", comment="ok \ud800")
    assert store.history("exam") == []


def test_answers_taken_out_of_a_group_are_kept_across_reopening(tmp_path):
    path = tmp_path / "r.sqlite"
    ReviewStore(path).edit_groups("e", "q", ["a", "b"], TAKEN_OUT, marker="Ann")
    ReviewStore(path).edit_groups("e", "q", ["c"], SPLIT, marker="Ann")
    ReviewStore(path).edit_groups("other", "q", ["d"], TAKEN_OUT, marker="Ann")
    edits = ReviewStore(path).group_edits("e")
    assert edits == {TAKEN_OUT: {("q", "a"), ("q", "b")}, SPLIT: {("q", "c")}}
    with pytest.raises(ValueError, match="'out' or 'split'"):
        ReviewStore(path).edit_groups("e", "q", ["a"], "merge", marker="Ann")


def test_a_database_of_schema_version_2_gets_the_group_edits_table(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # as version 2 made it: decisions and store_info only
        db.executescript("CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "INSERT INTO store_info VALUES ('schema_version', '2');")
    store = ReviewStore(path)
    store.edit_groups("e", "q", ["a"], TAKEN_OUT, marker="Ann")
    assert store.group_edits("e")[TAKEN_OUT] == {("q", "a")}
