"""Grade files for learning platforms: one row per student, only ids the export named.

Why a module of its own: the app's Export view and `grader grade --moodle/--canvas` must
write the same bytes for the same marks, so both hand the graded answers of an exam to
`student_grades` here, in one shape (`GRADED_COLUMNS`), and write what it returns.

What a platform's importer needs (checked against Moodle's CSV grade import and Canvas's
gradebook import): every row names a user the platform knows, once. Moodle stops the whole
import on a row whose id matches no user or is empty, so:

- an attempt counts once: among a student's attempts at a question the teacher's choice
  counts (`ATTEMPTS`, Moodle's own grading methods: last, highest, first); attempts are in
  the export's order (platforms list them as taken), "highest" by the attempt's total;
- a row without an id (a platform's "Overall average" row) is left out;
- an attempt the export's State column says is not finished ("In progress") is left
  ungraded, so that it is never sent as a 0;
- each of these is said in `StudentGrades.notes`, naming the spreadsheet rows (never the
  ids: the notes are shown under anonymous marking too).

Feedback (`FEEDBACK`): the marker's comment, else, when chosen, what the student's answer
says or lacks by the rule that gave the mark, in the rubric's words (the grading model's
`feedback` column: no rule numbers, confidences or votes; nothing for a mark resting only
on the model's own figures; never for a mark a marker changed, which that rule did not give). Moodle takes it as a column per question (mapped to the question's feedback when
importing); Canvas's gradebook import takes none, so it goes in a comments file of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from grader.exams.exam_io import Exam, read_table, resolve_column, rows_text, written_text

#: Which attempt counts when a student has several (Moodle's quiz grading methods).
ATTEMPTS = {"last": "the last attempt counts", "highest": "the attempt with the highest total counts",
            "first": "the first attempt counts"}
#: What goes back to the students with their marks.
FEEDBACK = {"none": "no feedback", "comment": "the marker's comment",
            "comment-or-rule": "the marker's comment, else what the answer says or lacks by the rule "
                               "that gave the mark, in the rubric's words"}
#: The column of a platform's export saying whether an attempt was submitted (Moodle: "State").
STATE_COLUMN = "state"
#: States of an attempt that was not submitted: graded by nobody, sent as no grade.
UNFINISHED_STATES = frozenset({"in progress", "overdue", "never submitted", "not submitted", "abandoned"})

#: One row per graded answer: its question, its spreadsheet row, the student's id as the
#: export holds it, the attempt's state ("" when the export has none), the current mark
#: (None when none) and the feedback for the student ("" when none).
GRADED_COLUMNS = ["question_id", "row", "student", "state", "mark", "feedback"]


def state_column(columns: Sequence[str]) -> str | None:
    """The export's State column, if it has one (its name ignoring case and spaces)."""
    return next((c for c in columns if str(c).strip().casefold() == STATE_COLUMN), None)


def unfinished(states: Sequence[str]) -> np.ndarray:
    """Whether each state is that of an attempt not submitted."""
    return np.fromiter((str(s).strip().casefold() in UNFINISHED_STATES for s in states), dtype=bool,
                       count=len(states))


def feedback_texts(choice: str, comments: Sequence[str], rule_feedback: Sequence[str],
                   marks: Sequence[object], proposed: Sequence[object]) -> list[str]:
    """The feedback of each answer under `choice` (a key of FEEDBACK): the comment, else
    (comment-or-rule) the rule's feedback for the student (the grading model's `feedback`)
    where the mark is the one the rule gave."""
    if choice not in FEEDBACK:
        raise ValueError(f"feedback {choice!r}: expected one of {', '.join(FEEDBACK)}")
    out = []
    for comment, why, mark, given in zip(comments, rule_feedback, marks, proposed):
        comment = "" if comment is None or comment != comment else str(comment).strip()
        if choice == "none":
            out.append("")
        elif comment or choice == "comment":
            out.append(comment)
        else:
            ruled = mark is not None and mark == mark and given is not None and str(mark) == str(given)
            out.append(str(why) if ruled and why == why and why is not None else "")
    return out


def number(mark: object) -> float | None:
    """A mark as a number, None when it is missing or a word."""
    if mark is None:
        return None
    try:
        value = float(str(mark))
    except (TypeError, ValueError):
        return None
    return value if value == value else None


def figure(value: float) -> str:
    """A mark or total as a spreadsheet reads it: 1.5, 2 (not 2.0), no float noise."""
    return f"{round(value, 6):g}"


def total_text(marks: Sequence[object]) -> str:
    """The sum of the marks, empty when one is missing or not a number, so that a learning
    platform never records a total short of a question."""
    values = [number(m) for m in marks]
    return figure(sum(values)) if values and None not in values else ""


def highest_marks(marks_by_question: Mapping[str, Sequence[str]]) -> dict[str, float | None]:
    """The most each question gives (its highest numeric mark), None when its marks are not
    numbers."""
    out = {}
    for q, marks in marks_by_question.items():
        numbers = [number(m) for m in marks]
        out[q] = max(numbers) if numbers and None not in numbers else None
    return out


@dataclass
class StudentGrades:
    """One row per student (`table`: id, each question's mark and feedback, total) and what
    was left out or chosen to get there (`notes`, for the teacher)."""

    questions: list[str]
    table: pd.DataFrame
    notes: list[str] = field(default_factory=list)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def no_id_note(rows: Sequence[int]) -> str:
    """What is said of the export's rows without a student id (names rows, never ids)."""
    rows = sorted(set(int(r) for r in rows))
    return (f"{_plural(len(rows), 'row')} without a student id left out of the grade files "
            f"(a platform's average row, or a student it cannot match): {rows_text(rows)}")


def unsubmitted_note(rows: Sequence[int], states: Sequence[str]) -> str:
    """What is said of attempts not submitted (`UNFINISHED_STATES`), left ungraded."""
    rows = sorted(set(int(r) for r in rows))
    said = ", ".join(sorted({str(s).strip() for s in states}))
    return f"{_plural(len(rows), 'attempt')} not submitted ({said}) left ungraded: {rows_text(rows)}"


def student_grades(graded: pd.DataFrame, questions: Sequence[str], attempt: str = "last") -> StudentGrades:
    """The grade of each student from `graded` (GRADED_COLUMNS), the attempt that counts
    chosen by `attempt` (a key of ATTEMPTS), in the order students first appear."""
    if attempt not in ATTEMPTS:
        raise ValueError(f"attempt {attempt!r}: expected one of {', '.join(ATTEMPTS)}")
    g = graded[graded["question_id"].isin(list(questions))].copy()
    g["student"] = [str(s).strip() for s in g["student"]]
    g["row"] = g["row"].astype(np.int64)
    notes = []
    blank = (g["student"] == "").to_numpy()
    if blank.any():
        notes.append(no_id_note(g.loc[blank, "row"].tolist()))
    undone = unfinished(g["state"].tolist()) & ~blank
    if undone.any():
        finished = set(g.loc[~undone & ~blank, "student"])
        alone = len(set(g.loc[undone, "student"]) - finished)
        note = unsubmitted_note(g.loc[undone, "row"].tolist(), g.loc[undone, "state"].tolist())
        if alone:
            note += f"; {_plural(alone, 'student')} with no other attempt get{'s' if alone == 1 else ''} no grade"
        notes.append(note)
    g = g[~blank & ~undone]
    scores = g.assign(_n=[number(m) or 0.0 for m in g["mark"]]).groupby("row")["_n"].sum()
    g["_score"] = g["row"].map(scores).to_numpy(float)
    g["_first"] = g.groupby("student")["row"].transform("min")
    order = {"last": (["row"], [False]), "first": (["row"], [True]),
             "highest": (["_score", "row"], [False, True])}[attempt]
    ranked = g.sort_values(["student", "question_id", *order[0]], ascending=[True, True, *order[1]],
                           kind="stable")
    counted = ranked.drop_duplicates(["student", "question_id"], keep="first")
    repeated = ranked[ranked.duplicated(["student", "question_id"], keep=False)]
    if not repeated.empty:
        involved = sorted(set(repeated["row"].tolist()))
        kept = sorted(set(counted.loc[counted["student"].isin(set(repeated["student"])), "row"].tolist()))
        n_students = repeated["student"].nunique()
        notes.append(f"{len(involved)} attempts of {_plural(n_students, 'student')}: {ATTEMPTS[attempt]} "
                     f"({rows_text(involved)}; counted: {rows_text(kept)})")
    counted = counted.sort_values(["_first", "student"], kind="stable")
    cell = {(s, q): (m, f) for s, q, m, f in zip(counted["student"], counted["question_id"],
                                                 counted["mark"], counted["feedback"])}
    students = list(dict.fromkeys(counted["student"]))
    out = pd.DataFrame({"id": students}, dtype=object)
    for q in questions:
        got = [cell.get((s, q), (None, "")) for s in students]
        out[q] = [_text(m) for m, _ in got]
        out[f"{q} feedback"] = [_text(f) for _, f in got]
    out["total"] = [total_text([cell.get((s, q), (None, ""))[0] for q in questions]) for s in students]
    return StudentGrades(list(questions), out, notes)


def _text(value: object) -> str:
    return "" if value is None or value != value else str(value)


def moodle_file(grades: StudentGrades, id_column: str, exam_name: str, feedback: bool = False) -> pd.DataFrame:
    """Moodle's CSV grade import: the identity column (named as in the export, e.g. "Email
    address", to map to the user's field of the same kind), a column per question (and, with
    `feedback`, its feedback next to it) and the exam's total, each mapped when importing."""
    columns = ["id"] + [c for q in grades.questions for c in ([q, f"{q} feedback"] if feedback else [q])]
    return grades.table[columns + ["total"]].rename(columns={"id": id_column or "ID number",
                                                             "total": f"{exam_name} total"})


CANVAS_IDS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def _canvas_ids(student: str) -> dict[str, str]:
    """Canvas's identity columns for an id: an e-mail address is the SIS Login ID (Canvas
    logins usually are), anything else the SIS User ID."""
    email = "@" in student
    return {"Student": "", "ID": "", "SIS User ID": "" if email else student,
            "SIS Login ID": student if email else "", "Section": ""}


def canvas_file(grades: StudentGrades, exam_name: str, highest: Mapping[str, float | None]) -> pd.DataFrame:
    """Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then one
    column per assignment (a question, and the exam's total), under a "Points Possible" row
    giving the most each one gives."""
    questions, total = grades.questions, f"{exam_name} total"
    points = {q: figure(highest[q]) if highest.get(q) is not None else "" for q in questions}
    points[total] = total_text([highest.get(q) for q in questions])
    rows = [{"Student": "Points Possible", "ID": "", "SIS User ID": "", "SIS Login ID": "",
             "Section": "", **points}]
    for r in grades.table.to_dict("records"):
        rows.append({**_canvas_ids(r["id"]), **{q: r[q] for q in questions}, total: r["total"]})
    return pd.DataFrame(rows, columns=[*CANVAS_IDS, *questions, total])


def canvas_comments(grades: StudentGrades) -> pd.DataFrame:
    """The feedback Canvas's gradebook import cannot take: one row per student and question
    with feedback, the student named as in the Canvas file, the question as its assignment."""
    rows = [{**_canvas_ids(r["id"]), "Assignment": q, "Comment": r[f"{q} feedback"]}
            for r in grades.table.to_dict("records") for q in grades.questions if r[f"{q} feedback"]]
    return pd.DataFrame(rows, columns=[*CANVAS_IDS, "Assignment", "Comment"])


def question_rows(exam: Exam, frame: pd.DataFrame, qid: str) -> tuple[np.ndarray, str]:
    """(the rows of the export `frame` holding question `qid`'s answers, the prefix of its
    columns in the graded output): every row and "qid:" in a wide export, the rows naming the
    question (or every row) and no prefix in a long one."""
    if exam.layout == "wide":
        return np.arange(len(frame)), f"{qid}:"
    if not exam.question_column:
        return np.arange(len(frame)), ""
    column = resolve_column(exam.question_column, frame.columns, exam.answers, "question column")
    return np.flatnonzero((frame[column].str.strip() == qid).to_numpy()), ""


def graded_output(exam: Exam, out_path: Path, feedback: str = "none") -> pd.DataFrame:
    """`GRADED_COLUMNS` of an exam graded by `grader grade --exam` into `out_path`: the marks
    and the students' feedback as that file holds them (read back to the text they were before being
    made formula-safe), the ids and states as the export holds them. Row i of the output is
    row i of the export (`grader.exams.batch`)."""
    frame, rows, _ = read_table(exam.answers)
    graded, _, _ = read_table(out_path)
    if len(graded) != len(frame):
        raise ValueError(f"{out_path}: {len(graded)} rows, but the export {exam.answers} has {len(frame)}: "
                         f"not its graded output")
    n = len(frame)
    id_col = resolve_column(exam.id_column, frame.columns, exam.answers, "id column") if exam.id_column else None
    state = state_column(list(frame.columns))
    students = frame[id_col].to_numpy(object) if id_col else np.full(n, "", dtype=object)
    states = frame[state].to_numpy(object) if state else np.full(n, "", dtype=object)
    parts = []
    for q in exam.questions:
        at, prefix = question_rows(exam, frame, q.id)
        marks = [written_text(m) or None for m in graded[f"{prefix}mark"].to_numpy(object)[at]]
        if f"{prefix}feedback" not in graded.columns:
            raise ValueError(f"{out_path}: no {prefix}feedback column (graded before grading wrote the "
                             f"students' feedback); grade the exam again")
        why = [written_text(e) for e in graded[f"{prefix}feedback"].to_numpy(object)[at]]
        parts.append(pd.DataFrame({"question_id": q.id, "row": rows[at], "student": students[at],
                                   "state": states[at], "mark": pd.Series(marks, dtype=object),
                                   "feedback": feedback_texts(feedback, [""] * len(at), why, marks, marks)},
                                  columns=GRADED_COLUMNS))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=GRADED_COLUMNS)
