"""The markers' decisions, kept in SQLite: an append-only audit trail.

Every decision a marker takes (accept the proposed mark, set another, comment) is a new
row; nothing is ever updated or deleted. The current mark of an answer is its latest
decision. Several markers may work on the same exam at once (several browser sessions,
several server processes): saves are *optimistic* — a decision carries the version of the
answer it was based on (the id of the latest decision the marker saw, 0 for none), and
when somebody else decided in between the save is refused with a `ConflictError` that
carries the other decision, so the app can show it instead of overwriting it. The marker
then keeps theirs explicitly by saving again on top of the version they have now seen.

A decision also records a fingerprint of the answer text it was made on
(`answer_hash`): when the export is replaced and the same id now holds another text, the
old decision no longer applies to it (see `grader.app.review.with_decisions`); it stays in
the audit trail. Decisions saved before fingerprints were kept (schema version 1, migrated
by adding the column) have none and keep applying.

The database runs in WAL mode (readers never block the writer) and each save is one
`BEGIN IMMEDIATE` transaction, so the check and the insert cannot interleave with another
process's save.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Iterator, Sequence

SCHEMA_VERSION = 2  # 2: decisions.answer_hash

#: The longest marker's name and comment a decision may carry: a name is shown on buttons and
#: in the trail, a comment in the export; a 100 MB comment is a mistake or an attack.
MAX_MARKER_CHARS = 80
MAX_COMMENT_CHARS = 2000

#: The scope of a row that takes back a first decision: the answer has no decision again.
UNDO = "undo"
#: The scope of a row that takes back an override: the earlier decision's mark again.
RESTORE = "restore"
#: The scope of a decision taken as a spot check of the machine's mark (the Spot checks view,
#: or the Review queue for an answer a check found wrong): the stop estimate counts it as a
#: check, where any other decision makes the answer the marker's.
CHECK = "check"
#: The new mark an undo row records when the answer had no proposed mark to go back to.
UNDONE_MARK = "(none)"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS decisions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    exam_id       TEXT NOT NULL,
    question_id   TEXT NOT NULL,
    answer_id     TEXT NOT NULL,
    marker        TEXT NOT NULL,
    decided_at    TEXT NOT NULL,
    old_mark      TEXT,
    new_mark      TEXT NOT NULL,
    comment       TEXT NOT NULL DEFAULT '',
    base_version  INTEGER NOT NULL DEFAULT 0,
    scope         TEXT NOT NULL DEFAULT 'answer',
    answer_hash   TEXT
);
CREATE INDEX IF NOT EXISTS decisions_by_answer
    ON decisions (exam_id, question_id, answer_id, id);
CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS group_edits (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    exam_id       TEXT NOT NULL,
    question_id   TEXT NOT NULL,
    answer_id     TEXT NOT NULL,
    kind          TEXT NOT NULL,
    marker        TEXT NOT NULL,
    edited_at     TEXT NOT NULL
);
"""
# group_edits came after schema version 2 without a version of its own: a table only added (the
# script above makes it in an older file), which a program that does not know it leaves alone.

#: What a marker did to the Groups view's groups (`ReviewStore.edit_groups`): an answer taken
#: out of its group (decided on its own), or an answer's group split by what the rubric finds.
TAKEN_OUT, SPLIT = "out", "split"


class StoreError(RuntimeError):
    """The decisions database cannot be opened or is not one of ours."""


@dataclass(frozen=True)
class Decision:
    """One marker's decision on one answer, as stored.

    `version` is the row id: it grows with every save, so the latest decision of an answer
    is the one with the highest version. `base_version` is the version the marker had seen
    (0: no decision yet). `scope` is "answer", "group" when the decision was taken for a
    whole group of answers at once, or, for `ReviewStore.undo`, "undo" (the decision it is
    based on is taken back and the answer has no decision again) or "restore" (taken back to
    the earlier decision's mark).
    """

    version: int
    exam_id: str
    question_id: str
    answer_id: str
    marker: str
    decided_at: str
    old_mark: str | None
    new_mark: str
    comment: str
    base_version: int
    scope: str = "answer"
    answer_hash: str | None = None  # of the answer text decided on; None: saved before v2

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class NewDecision:
    """A decision about to be saved (for `ReviewStore.record_many`)."""

    question_id: str
    answer_id: str
    new_mark: str
    base_version: int
    old_mark: str | None = None
    answer_text: str | None = None  # the text the marker saw (its fingerprint is stored)


class ConflictError(Exception):
    """Somebody else decided on this answer since the marker loaded it.

    `current` is that other decision (the latest one); nothing was saved.
    """

    def __init__(self, current: Decision, attempted_base: int):
        self.current = current
        self.attempted_base = attempted_base
        super().__init__(
            f"answer {current.answer_id!r} of question {current.question_id!r} was marked "
            f"{current.new_mark!r} by {current.marker} at {current.decided_at} "
            f"(version {current.version}) after you loaded it (version {attempted_base})")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


_COLUMNS = ("id", "exam_id", "question_id", "answer_id", "marker", "decided_at", "old_mark",
            "new_mark", "comment", "base_version", "scope", "answer_hash")
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM decisions"


def _decision(row: Sequence) -> Decision:
    return Decision(*row)


def answer_hash(text: str | None) -> str | None:
    """The fingerprint of an answer text a decision was made on (None for no text). Runs of
    white space count as one space: a re-saved export that only re-spaced a text keeps its
    decisions."""
    if text is None:
        return None
    return hashlib.sha256(" ".join(str(text).split()).encode("utf-8")).hexdigest()[:24]


class ReviewStore:
    """The decisions of all markers on all exams, in one SQLite file (`path`).

    Connections are opened per operation, so one store object can be shared by the
    threads Streamlit runs sessions in (e.g. through `st.cache_resource`).
    """

    def __init__(self, path: str | os.PathLike, *, timeout: float = 15.0):
        self.path = Path(path)
        self.timeout = timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
                db.execute("INSERT OR IGNORE INTO store_info VALUES ('schema_version', ?)",
                           (str(SCHEMA_VERSION),))
                found = db.execute(
                    "SELECT value FROM store_info WHERE key='schema_version'").fetchone()[0]
                if int(found) < SCHEMA_VERSION:
                    _migrate(db)
                    found = str(SCHEMA_VERSION)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot open the decisions database: {exc}") from exc
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create the decisions database: {exc}") from exc
        if int(found) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: decisions database schema version {found} is newer "
                             f"than this program's ({SCHEMA_VERSION}); upgrade the program")

    # -- connections -------------------------------------------------------------------
    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves.
        db = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout = %d" % int(self.timeout * 1000))
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # -- reading -------------------------------------------------------------------------
    def latest(self, exam_id: str, question_id: str, answer_id: str) -> Decision | None:
        """The current decision on one answer, or None if nobody decided yet."""
        with self._connect() as db:
            return self._latest(db, exam_id, question_id, answer_id)

    @staticmethod
    def _latest(db: sqlite3.Connection, exam_id: str, question_id: str,
                answer_id: str) -> Decision | None:
        row = db.execute(f"{_SELECT} WHERE exam_id=? AND question_id=? AND answer_id=? "
                         "ORDER BY id DESC LIMIT 1", (exam_id, question_id, answer_id)).fetchone()
        return _decision(row) if row else None

    def current(self, exam_id: str) -> dict[tuple[str, str], Decision]:
        """The latest decision on every decided answer of an exam, keyed by (question, answer)."""
        with self._connect() as db:
            rows = db.execute(
                f"{_SELECT} WHERE id IN (SELECT MAX(id) FROM decisions WHERE exam_id=? "
                "GROUP BY question_id, answer_id)", (exam_id,)).fetchall()
        return {(r[2], r[3]): _decision(r) for r in rows}

    def history(self, exam_id: str, question_id: str | None = None,
                answer_id: str | None = None) -> list[Decision]:
        """Every decision (oldest first): the audit trail of an exam, a question or an answer."""
        sql, args = f"{_SELECT} WHERE exam_id=?", [exam_id]
        if question_id is not None:
            sql, args = sql + " AND question_id=?", args + [question_id]
        if answer_id is not None:
            sql, args = sql + " AND answer_id=?", args + [answer_id]
        with self._connect() as db:
            return [_decision(r) for r in db.execute(sql + " ORDER BY id", args).fetchall()]

    def exams(self) -> list[tuple[str, int, str]]:
        """(exam id, number of decisions, time of the last one) for every exam in the store."""
        with self._connect() as db:
            return [tuple(r) for r in db.execute(
                "SELECT exam_id, COUNT(*), MAX(decided_at) FROM decisions GROUP BY exam_id "
                "ORDER BY MAX(id) DESC").fetchall()]

    def group_edits(self, exam_id: str) -> dict[str, set[tuple[str, str]]]:
        """{TAKEN_OUT: {(question, answer), ...}, SPLIT: {...}}: the answers markers took out
        of their groups, and those whose groups they split, kept across reloads."""
        found: dict[str, set[tuple[str, str]]] = {TAKEN_OUT: set(), SPLIT: set()}
        with self._connect() as db:
            for q, a, kind in db.execute("SELECT question_id, answer_id, kind FROM group_edits "
                                         "WHERE exam_id=?", (exam_id,)):
                found.setdefault(kind, set()).add((q, a))
        return found

    # -- writing -------------------------------------------------------------------------
    def edit_groups(self, exam_id: str, question_id: str, answer_ids: Iterable[str], kind: str, *,
                    marker: str) -> None:
        """Note that `answer_ids` were taken out of their group (`TAKEN_OUT`) or their group
        split (`SPLIT`), one row each, so that a reload shows the groups as the marker left
        them and a group's "apply to all" never reaches an answer taken out."""
        if kind not in (TAKEN_OUT, SPLIT):
            raise ValueError(f"a group edit is {TAKEN_OUT!r} or {SPLIT!r}, not {kind!r}")
        check_lengths(marker, "")
        with self._write() as db:
            db.executemany("INSERT INTO group_edits (exam_id, question_id, answer_id, kind, marker, "
                           "edited_at) VALUES (?,?,?,?,?,?)",
                           [(exam_id, question_id, a, kind, marker, _now()) for a in answer_ids])

    def record(self, exam_id: str, question_id: str, answer_id: str, *, marker: str,
               new_mark: str, base_version: int, old_mark: str | None = None,
               comment: str = "", scope: str = "answer", answer_text: str | None = None) -> Decision:
        """Save one decision, unless somebody else decided since `base_version`.
        `answer_text`: the text decided on (its fingerprint is kept with the decision).

        Raises `ConflictError` (carrying the other decision) when the answer's latest
        version is not `base_version`; nothing is saved then.
        """
        _check_text(marker=marker, new_mark=new_mark)
        check_lengths(marker, comment)
        with self._write() as db:
            latest = self._latest(db, exam_id, question_id, answer_id)
            if (latest.version if latest else 0) != base_version:
                raise ConflictError(latest, base_version)  # type: ignore[arg-type]
            return self._insert(db, exam_id, question_id, answer_id, marker, old_mark,
                                new_mark, comment, base_version, scope, answer_hash(answer_text))

    def record_many(self, exam_id: str, decisions: Iterable[NewDecision], *, marker: str,
                    comment: str = "", scope: str = "group"
                    ) -> tuple[list[Decision], list[ConflictError]]:
        """Save a decision for several answers in one transaction (a group decision).

        Answers somebody else decided on in the meantime are left alone and returned as
        conflicts; the others are saved. Returns (saved, conflicts).
        """
        saved: list[Decision] = []
        conflicts: list[ConflictError] = []
        check_lengths(marker, comment)
        with self._write() as db:
            for d in decisions:
                _check_text(marker=marker, new_mark=d.new_mark)
                latest = self._latest(db, exam_id, d.question_id, d.answer_id)
                if (latest.version if latest else 0) != d.base_version:
                    conflicts.append(ConflictError(latest, d.base_version))  # type: ignore[arg-type]
                    continue
                saved.append(self._insert(db, exam_id, d.question_id, d.answer_id, marker,
                                          d.old_mark, d.new_mark, comment, d.base_version, scope,
                                          answer_hash(d.answer_text)))
        return saved, conflicts

    def undo(self, exam_id: str, decision: Decision, *, marker: str) -> Decision:
        """Take back `decision` (still the latest on its answer, else `ConflictError`): the
        answer gets back what it had before. Before a first decision that is no decision at
        all (a row with scope "undo": back in the review queue, its proposed mark again);
        before an override, the earlier decision's mark (a new decision restating it). Nothing
        is deleted: the audit trail shows the decision and its undoing."""
        check_lengths(marker, "")
        with self._write() as db:
            latest = self._latest(db, exam_id, decision.question_id, decision.answer_id)
            if latest is None or latest.version != decision.version:
                raise ConflictError(latest, decision.version)  # type: ignore[arg-type]
            row = db.execute(f"{_SELECT} WHERE id=?", (decision.base_version,)).fetchone()
            before = _decision(row) if row else None
            if before is None or before.scope == UNDO:
                return self._insert(db, exam_id, decision.question_id, decision.answer_id, marker,
                                    decision.new_mark, decision.old_mark or UNDONE_MARK,
                                    f"undid the decision of {decision.decided_at}",
                                    decision.version, UNDO, decision.answer_hash)
            return self._insert(db, exam_id, decision.question_id, decision.answer_id, marker,
                                decision.new_mark, before.new_mark,
                                f"undid the decision of {decision.decided_at}: back to "
                                f"{before.marker}'s mark", decision.version, RESTORE,
                                decision.answer_hash)

    @staticmethod
    def _insert(db: sqlite3.Connection, exam_id: str, question_id: str, answer_id: str,
                marker: str, old_mark: str | None, new_mark: str, comment: str,
                base_version: int, scope: str, text_hash: str | None) -> Decision:
        decided_at = _now()
        cur = db.execute(
            "INSERT INTO decisions (exam_id, question_id, answer_id, marker, decided_at, "
            "old_mark, new_mark, comment, base_version, scope, answer_hash) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (exam_id, question_id, answer_id, marker, decided_at, old_mark, new_mark,
             comment or "", base_version, scope, text_hash))
        return Decision(cur.lastrowid, exam_id, question_id, answer_id, marker, decided_at,
                        old_mark, new_mark, comment or "", base_version, scope, text_hash)


def _migrate(db: sqlite3.Connection) -> None:
    """Schema 1 -> 2: add the answer_hash column (NULL for the decisions already saved, which
    keep applying). Two servers may migrate at once: the second finds the column there."""
    db.execute("BEGIN IMMEDIATE")
    try:
        columns = {row[1] for row in db.execute("PRAGMA table_info(decisions)")}
        if "answer_hash" not in columns:
            db.execute("ALTER TABLE decisions ADD COLUMN answer_hash TEXT")
        db.execute("UPDATE store_info SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION),))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def check_lengths(marker: str, comment: str | None = "") -> None:
    """ValueError (a message for the marker) when the name or comment is too long, or holds
    half of a character that SQLite cannot store (a lone surrogate: bytes of a user name
    that are not UTF-8); nothing is cut short or changed silently."""
    for what, text in (("a marker's name", marker), ("a comment", comment or "")):
        half = next((c for c in text if "\ud800" <= c <= "\udfff"), None)
        if half is not None:
            raise ValueError(f"{what} {text[:60]!r} has half of a character (\\u{ord(half):04x}), "
                             f"which cannot be stored (nothing was saved)")
    if len(marker) > MAX_MARKER_CHARS:
        raise ValueError(f"a marker's name has at most {MAX_MARKER_CHARS} characters; this one "
                         f"has {len(marker):,}. Use a shorter name")
    if comment is not None and len(comment) > MAX_COMMENT_CHARS:
        raise ValueError(f"a comment has at most {MAX_COMMENT_CHARS:,} characters; this one has "
                         f"{len(comment):,}. Shorten it (nothing was saved)")


def _check_text(**fields: str) -> None:
    for name, value in fields.items():
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"a decision needs a non-empty {name.replace('_', ' ')}")
