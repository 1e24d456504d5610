"""The marks table behind the app: proposed marks, markers' decisions, queue, groups.

Everything here works on pandas DataFrames without Streamlit, so the app's logic is tested
directly. One row of the *marks table* is one answer to one question:

===============  ===========================================================================
question_id      the question (as in the exam file)
answer_id        the student's id (wide exports) or the answer's id (long exports)
answer           the student's text, as written
proposed         the mark the model proposes (None when no rule applies)
confidence       the confidence of the rule that fired (NaN when none)
rule             the rule that fired, short
explanation      one line of justification
group            answers of a question with identical features share a group
needs_human      flagged whatever the threshold (no rule, a blank answer, a contradiction)
feedback         what the student may read of the proposed mark's reasons ("" when nothing)
mark             the current mark: the latest marker's decision, else the proposed mark
reviewed         a marker decided on this answer (as it reads now)
marker, decided_at, comment    the latest decision, if any
version          the version a new decision is based on (0: nobody decided yet)

A decision belongs to the answer text it was made on: when the export was replaced and the
id now holds another text, the decision does not apply (the answer is unreviewed again and
back in the queue); `audit_trail` still lists it, "made on a different answer text".
===============  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from grader.app.review_store import CHECK, RESTORE, UNDO, Decision, answer_hash

NO_MARK = "—"  # how a missing mark is shown

PROPOSAL_COLUMNS = ["question_id", "answer_id", "answer", "proposed", "confidence", "rule",
                    "explanation", "group", "needs_human", "feedback"]
DECISION_COLUMNS = ["mark", "reviewed", "marker", "decided_at", "comment", "version", "by_check"]
TABLE_COLUMNS = PROPOSAL_COLUMNS + DECISION_COLUMNS


def feature_groups(features: pd.DataFrame) -> pd.Series:
    """A group key per row: rows with identical features (all columns) share it."""
    if features.shape[1] == 0:
        return pd.Series(["g0"] * len(features), index=features.index)
    normalised = features.astype(object).where(features.notna(), None).astype(str)
    hashes = pd.util.hash_pandas_object(normalised, index=False)
    return hashes.map(lambda h: f"g{int(h):016x}")


def proposed_table(question_id: str, answer_ids: Sequence[str], answers: Sequence[str],
                   grades: pd.DataFrame, features: pd.DataFrame) -> pd.DataFrame:
    """The marks table of one question before any decision (from `GradingModel.grade`)."""
    n = len(answers)
    if not (len(answer_ids) == n == len(grades) == len(features)):
        raise ValueError(f"question {question_id}: {len(answer_ids)} ids, {n} answers, "
                         f"{len(grades)} grades and {len(features)} feature rows do not match")
    marks = grades["mark"].astype(object).where(grades["mark"].notna(), None)
    table = pd.DataFrame({
        "question_id": question_id,
        "answer_id": [str(a) for a in answer_ids],
        "answer": [("" if a is None else str(a)) for a in answers],
        "proposed": [None if m is None or m == "" else str(m) for m in marks],
        "confidence": pd.to_numeric(grades["confidence"], errors="coerce").to_numpy(float),
        "rule": grades["rule"].fillna("").astype(str).to_numpy(),
        "explanation": grades["explanation"].fillna("").astype(str).to_numpy(),
        "group": feature_groups(features.reset_index(drop=True)).to_numpy(),
        # no rule, a blank answer (the grading model's one rule for it), a contradiction
        "needs_human": (grades["needs_human"].to_numpy(bool) if "needs_human" in grades
                        else np.fromiter((m is None for m in marks), dtype=bool, count=n)),
        # what the student may read of the rule's reasons (`GradingModel.student_texts`)
        "feedback": (grades["feedback"].fillna("").astype(str).to_numpy() if "feedback" in grades
                     else [""] * n),
    })
    return with_decisions(table, {})


def with_decisions(table: pd.DataFrame, decisions: Mapping[tuple[str, str], Decision]
                   ) -> pd.DataFrame:
    """The table with the current mark of every answer: its latest decision, if any."""
    out = table[[c for c in table.columns if c not in DECISION_COLUMNS]].copy()
    newest = [decisions.get((q, a)) for q, a in zip(out["question_id"], out["answer_id"])]
    latest = [d if d is not None and decided_on(d, text) else None
              for d, text in zip(newest, out["answer"])]
    out["mark"] = [d.new_mark if d else p for d, p in zip(latest, out["proposed"])]
    out["reviewed"] = np.array([d is not None for d in latest], dtype=bool)
    out["marker"] = [d.marker if d else "" for d in latest]
    out["decided_at"] = [d.decided_at if d else "" for d in latest]
    out["comment"] = [d.comment if d else "" for d in latest]
    out["by_check"] = np.array([d is not None and d.scope == CHECK for d in latest], dtype=bool)
    # the store's version check needs the newest decision, even one on another text
    out["version"] = np.array([d.version if d else 0 for d in newest], dtype=np.int64)
    return out


def decided_on(decision: Decision, answer_text: object) -> bool:
    """Whether `decision` sets the mark of this answer text: it was made on it (decisions saved
    before texts were fingerprinted have none and count as made on it) and is not an undo,
    which leaves the answer with no decision."""
    if decision.scope == UNDO:
        return False
    return decision.answer_hash is None or decision.answer_hash == answer_hash(
        "" if answer_text is None else str(answer_text))


DIFFERENT_TEXT = "made on a different answer text"


def audit_trail(history: Sequence[Decision], table: pd.DataFrame) -> pd.DataFrame:
    """Every decision, newest first, with a note on those made on an answer text the export
    no longer holds for that id (they no longer set the answer's mark)."""
    texts = dict(zip(zip(table["question_id"], table["answer_id"]), table["answer"]))
    trail = pd.DataFrame([d.to_dict() for d in history])
    trail["note"] = ["takes back the decision before it" if d.scope == UNDO
                     else DIFFERENT_TEXT if (d.question_id, d.answer_id) in texts
                     and not decided_on(d, texts[(d.question_id, d.answer_id)]) else ""
                     for d in history]
    return trail.sort_values("version", ascending=False)


def flagged(table: pd.DataFrame, threshold: float) -> pd.Series:
    """Answers a human should look at: those the grading model sends to one whatever the
    threshold (no rule, a blank answer, a contradiction: as the CLI flags them), and those
    whose confidence is below the threshold."""
    from grader.grading.model import is_blank

    conf = table["confidence"].to_numpy(float)
    no_mark = table["proposed"].isna().to_numpy()
    if "needs_human" in table:
        needs = table["needs_human"].to_numpy(bool)
    else:
        needs = np.fromiter((is_blank(a) for a in table["answer"]), dtype=bool, count=len(table))
    return pd.Series(needs | no_mark | np.isnan(conf) | (conf < threshold), index=table.index)


def review_queue(table: pd.DataFrame, threshold: float,
                 also: Collection[tuple[str, str]] = (),
                 by_question: Sequence[str] | None = None) -> pd.DataFrame:
    """Flagged answers nobody has decided on yet, least confident first; `also`: (question,
    answer) ids that go to the queue whatever their flag (a spot check found them wrong).
    `by_question`: the questions in this order, each question's answers together (a marker
    keeps one question's scheme in mind, as in Moodle's manual grading); None: mixed."""
    sent = pd.Series([(q, a) in also for q, a in zip(table["question_id"], table["answer_id"])],
                     index=table.index, dtype=bool)
    todo = table[(flagged(table, threshold) | sent) & ~table["reviewed"]]
    conf = todo["confidence"].fillna(-1.0)
    if by_question is None:
        return todo.assign(_c=conf).sort_values(["_c", "question_id", "answer_id"],
                                                kind="stable").drop(columns="_c")
    order = {q: i for i, q in enumerate(by_question)}
    place = todo["question_id"].map(order).fillna(len(order))
    return todo.assign(_q=place, _c=conf).sort_values(["_q", "_c", "answer_id"],
                                                      kind="stable").drop(columns=["_q", "_c"])


def filter_table(table: pd.DataFrame, threshold: float, *, marks: Sequence[str] | None = None,
                 flag: str = "all", confidence: tuple[float, float] = (0.0, 1.0),
                 include_unscored: bool = True, reviewed: str = "all") -> pd.DataFrame:
    """The rows a marker asked for: current mark in `marks` (NO_MARK for none),
    `flag` in all/flagged/not flagged, confidence within the range, `reviewed` in
    all/reviewed/not reviewed."""
    keep = pd.Series(True, index=table.index)
    if marks is not None:
        shown = table["mark"].fillna(NO_MARK)
        keep &= shown.isin(list(marks))
    is_flagged = flagged(table, threshold)
    if flag == "flagged":
        keep &= is_flagged
    elif flag == "not flagged":
        keep &= ~is_flagged
    conf = table["confidence"]
    in_range = conf.between(confidence[0], confidence[1])
    keep &= in_range | (conf.isna() & include_unscored)
    if reviewed == "reviewed":
        keep &= table["reviewed"]
    elif reviewed == "not reviewed":
        keep &= ~table["reviewed"]
    return table[keep]


def group_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Groups of two or more answers with identical features, largest first."""
    if table.empty:
        return pd.DataFrame(columns=["question_id", "group", "size", "proposed", "reviewed",
                                     "example"])
    g = table.groupby(["question_id", "group"], sort=False)
    summary = pd.DataFrame({
        "size": g.size(),
        "proposed": g["proposed"].agg(lambda s: ", ".join(sorted({str(v) if v is not None
                                                                  else NO_MARK for v in s}))),
        "reviewed": g["reviewed"].sum().astype(int),
        "example": g["answer"].agg(lambda s: s.value_counts().idxmax()),
    }).reset_index()
    summary = summary[summary["size"] >= 2]
    return summary.sort_values(["size", "question_id"], ascending=[False, True],
                               kind="stable").reset_index(drop=True)


def features_found(row: Mapping[str, object], descriptions: Mapping[str, str],
                   opposites: Mapping[str, str] | None = None) -> list[str]:
    """What the extractor found in one answer, in the marker's words (the rubric's
    descriptions, never a feature's internal name), most telling first. `opposites`: by
    reference phrase or term, the antonyms that also say it negated ('"open path"')."""
    opposites = opposites or {}
    found: list[tuple[int, str]] = []
    for name, value in row.items():
        family, _, plain = name.partition(":") if ":" in name else (None, "", name)
        desc = descriptions.get(name) or f"mentions {plain.replace('_', ' ')}"
        if value is None or (isinstance(value, float) and np.isnan(value)):
            continue
        if family in ("concept", "misconception", "term", "ref"):
            rank = {"misconception": 0, "concept": 1, "term": 3, "ref": 4}[family]
            if value == "present":
                found.append((rank, desc))
            elif value == "negated":
                found.append((rank, f"denies it or says the opposite ({opposites[name]}): {desc}" if name in opposites
                                  else f"with a negation: {desc}"))
        elif family == "quantity":
            if value != "missing":
                found.append((2, f"{desc} — {str(value).replace('_', ' ')}"))
        elif family == "value":
            found.append((2, f"{desc}: {float(value):g}"))
        elif name == "non_answer" and value == "yes":
            found.append((0, "a non-answer"))
        elif name == "coverage":
            found.append((5, f"says {float(value):.0%} of a reference answer's words"))
        elif name == "precision":
            found.append((5, f"{float(value):.0%} of its words are a reference answer's"))
        elif name == "length":
            found.append((5, f"{float(value):g} words long"))
    return [text for _, text in sorted(found, key=lambda t: t[0])]


def changed_marks(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Answers whose proposed mark or flag changed between two gradings of the same answers."""
    keys = ["question_id", "answer_id"]
    both = before[keys + ["answer", "proposed", "confidence"]].merge(
        after[keys + ["proposed", "confidence"]], on=keys, suffixes=("_before", "_after"))
    both["proposed_before"] = both["proposed_before"].fillna(NO_MARK)
    both["proposed_after"] = both["proposed_after"].fillna(NO_MARK)
    return both[both["proposed_before"] != both["proposed_after"]].reset_index(drop=True)


def progress_counts(table: pd.DataFrame, threshold: float) -> dict[str, int]:
    """Figures for the top of the page."""
    is_flagged = flagged(table, threshold)
    return {
        "answers": int(len(table)),
        "flagged": int(is_flagged.sum()),
        "to review": int((is_flagged & ~table["reviewed"]).sum()),
        "reviewed": int(table["reviewed"].sum()),
        "overridden": int((table["reviewed"] & (table["mark"].fillna(NO_MARK)
                                                != table["proposed"].fillna(NO_MARK))).sum()),
    }


def pseudonym(exam_id: str, answer_id: str) -> str:
    """What anonymous marking shows instead of a student's id: the same for the same student
    of an exam (so a marker can say "answer 3f9c2a" to a colleague), and not guessable from
    the id's order or spelling, since ids are often e-mail addresses or names."""
    import hashlib

    digest = hashlib.sha256(f"{exam_id}\x00{answer_id}".encode("utf-8")).hexdigest()
    return f"answer {digest[:6]}"


#: A pause between two decisions longer than this is a break, not time spent marking.
BREAK_SECONDS = 10 * 60


def marker_stats(history: Sequence[Decision], table: pd.DataFrame) -> pd.DataFrame:
    """Per marker: the answers they decided on (counting each answer once), how many of those
    got another mark than the proposed one, undos, and the time spent marking (the gaps
    between their consecutive decisions, a gap over BREAK_SECONDS counting as a break)."""
    columns = ["marker", "decided", "overridden", "undone", "minutes", "per answer (s)"]
    if not history:
        return pd.DataFrame(columns=columns)
    proposed = dict(zip(zip(table["question_id"], table["answer_id"]),
                        table["proposed"].fillna(NO_MARK)))
    rows = []
    frame = pd.DataFrame([d.to_dict() for d in history])
    frame["time"] = pd.to_datetime(frame["decided_at"], utc=True, errors="coerce")
    for name, mine in frame.sort_values("version").groupby("marker", sort=True):
        kept = mine[mine["scope"] != UNDO]
        answers = kept.drop_duplicates(["question_id", "answer_id"], keep="last")
        overridden = sum(proposed.get((q, a), NO_MARK) != m for q, a, m in
                         zip(answers["question_id"], answers["answer_id"], answers["new_mark"]))
        gaps = mine["time"].diff().dt.total_seconds().to_numpy(float)[1:]
        seconds = float(np.nansum(np.where(gaps <= BREAK_SECONDS, gaps, 0.0)))
        rows.append({"marker": name, "decided": len(answers), "overridden": int(overridden),
                     "undone": int((mine["scope"] == UNDO).sum()),
                     "minutes": round(seconds / 60, 1),
                     "per answer (s)": round(seconds / len(answers), 1) if len(answers) else None})
    return pd.DataFrame(rows, columns=columns)


def local_time(iso: object, zone: str | None = None) -> str:
    """A stored UTC time ("2026-11-23T15:04:05+00:00") as the marker's local time
    ("23 Nov 2026 16:04"), in the time zone `zone` (the browser's) or the computer's."""
    if not iso:
        return ""
    moment = pd.Timestamp(str(iso))
    if pd.isna(moment):
        return str(iso)
    if moment.tzinfo is None:
        moment = moment.tz_localize("UTC")
    try:
        moment = moment.tz_convert(zone) if zone else moment.tz_convert(
            datetime.now().astimezone().tzinfo)
    except Exception:  # an unknown zone name: the computer's
        moment = moment.tz_convert(datetime.now().astimezone().tzinfo)
    return moment.strftime("%d %b %Y %H:%M")


def undoable(history: Sequence[Decision], marker: str) -> Decision | None:
    """The marker's last decision that is still the latest on its answer (what U undoes), or
    None. Undoing again walks further back; an undo itself is never undone."""
    latest: dict[tuple[str, str], int] = {}
    for d in history:
        latest[(d.question_id, d.answer_id)] = max(d.version, latest.get((d.question_id, d.answer_id), 0))
    for d in sorted(history, key=lambda d: d.version, reverse=True):
        if (d.marker == marker and d.scope not in (UNDO, RESTORE)
                and latest[(d.question_id, d.answer_id)] == d.version):
            return d
    return None
