"""The Start view: the answers worth marking first, and a question's model trained as they are marked.

For a question with no marked answers (`grader.app.starter`) it is where marking begins: the
proposed answers stand for the groups of similar answers, then (once a model can be trained)
the answers the model is least sure of. Every `RETRAIN_EVERY` marks, the question's model is
trained again in the background and the exam re-marked when it is ready. For a question with
marked answers it proposes the answers worth reviewing the same way.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from grader.app.review import with_decisions
from grader.app.review_store import ConflictError, NewDecision, ReviewStore
from grader.app.review_training import extended_training_text
from grader.app.model_cache import train_or_load
from grader.app.session import ExamSession, QuestionSession
from grader.app.settings import AppSettings
from grader.app.starter import NoModel, RetrainJobs, retrain_due, retrain_job
from grader.app.ui import (answer_key, ask_name, marker, md_escape, notice, ready_to_decide, show_notice,
                          shown_id)
from grader.grading.suggest import MIN_MARKED_FOR_MODEL, suggest
from features.text import is_missing


@st.cache_resource(show_spinner=False)
def retrain_jobs() -> RetrainJobs:
    """The background trainings, shared by every browser session."""
    return RetrainJobs()


def _model_status(qs: QuestionSession, n_marked: int) -> str:
    model = qs.model
    own = getattr(model, "own", model)
    general = getattr(model, "general", None) is not None
    if isinstance(model, NoModel):
        return (f"No model yet: the answers are not marked automatically until {MIN_MARKED_FOR_MODEL} "
                f"answers with at least two different marks are marked (no general model is configured: "
                f"setting GRADER_GENERAL_MODEL).")
    if own is None:
        return ("The general model (trained on other questions) marks the answers for now; most are "
                "flagged for review. This question's own model is trained once "
                f"{MIN_MARKED_FOR_MODEL} answers with at least two different marks are marked.")
    what = f"This question's model, trained on {qs.training_size} marked answers"
    return what + (", backed by the general model where it is less sure." if general else ".")


def _save(store: ReviewStore, exam_id: str, qid: str, aid: str, old_mark, key: str, text: str,
          version: int) -> None:
    mark = st.session_state.get(key)
    if not ready_to_decide(mark, key):
        return
    try:
        store.record(exam_id, qid, aid, marker=marker(), new_mark=mark, base_version=version,
                     old_mark=old_mark, answer_text=text, scope="starter")
    except ConflictError as exc:
        notice("warning", f"{shown_id(exam_id, aid)} was decided by {exc.current.marker} meanwhile "
                          f"({exc.current.new_mark}); it is left as they decided.")
        return
    except ValueError as exc:
        notice("error", str(exc))
        return
    notice("success", f"Saved: {shown_id(exam_id, aid)} gets {mark}.")


def _retrain(session: ExamSession, qs: QuestionSession, decisions, settings: AppSettings,
             marks: list[str]) -> None:
    """Start a background training when enough new marks came in since the last one."""
    if not qs.starter or not retrain_due(len(marks), qs.training_size, marks):
        return
    text, _ = extended_training_text(session, qs.id, decisions)
    job = retrain_job(qs.question_path, text, qs.training_path, settings.workdir / "models", train_or_load)
    retrain_jobs().submit((session.exam_id, qs.id), job)


@st.fragment(run_every=2)
def _training_status(key: tuple[str, str]) -> None:
    """While a training runs, say so; when it ends, run the page again (the exam is re-marked)."""
    jobs = retrain_jobs()
    state, number = jobs.state(key), jobs.number(key)
    if state == "running":
        st.info("Training this question's model on the marks so far, in the background; the exam is "
                "marked again when it is ready. You can go on marking.")
    elif state.startswith("failed"):
        st.warning(md_escape(f"The model could not be trained: {state[len('failed: '):]}"))
    elif state == "done" and st.session_state.get("start_trained") != (key, number):
        st.session_state["start_trained"] = (key, number)  # each finished training reruns the page once
        st.rerun(scope="app")


def start_view(session: ExamSession, store: ReviewStore, settings: AppSettings) -> None:
    show_notice()
    chosen = st.session_state.get("question")
    ids = list(session.questions)
    starters = [q for q in ids if session.questions[q].starter]
    qid = chosen if chosen in session.questions else (starters or ids)[0]
    if chosen not in session.questions and len(ids) > 1:
        # a select box shows its options as plain text: an escape would be shown ("vertical\_throw")
        qid = st.selectbox("Question", ids, index=ids.index(qid), key="start_question")
    qs = session.questions[qid]
    decisions = store.current(session.exam_id)
    table = with_decisions(qs.table, decisions).reset_index(drop=True)
    marked = table["reviewed"].to_numpy(dtype=bool)
    marks = [str(m) for m in table.loc[marked, "mark"]]
    st.caption(md_escape(f"{qid}: {getattr(qs.question, 'text', '')}"))
    a, b = st.columns(2)
    a.metric("Answers marked", f"{int(marked.sum())} of {len(table)}")
    b.metric("Marks the model learned from", qs.training_size)
    st.text(_model_status(qs, int(marked.sum())))
    if not isinstance(qs.model, NoModel):
        st.info("The model proposes a mark for every answer now: deciding the Groups view's groups, then "
                "the flagged answers left in the Review queue, is the quickest way through the rest of the "
                "class (one decision for each group, plus one for each answer you take out of it).")
    _retrain(session, qs, decisions, settings, marks)
    _training_status((session.exam_id, qid))

    n = st.number_input("Answers to propose", 1, 50, 10, key="start_n")
    unsure = None if isinstance(qs.model, NoModel) else table["confidence"].to_numpy(dtype=float)
    if unsure is not None and getattr(qs.model, "own", None) is not None:
        # as grader.grading.suggest.choice_confidence: the own model's view weighs the choice, so an
        # answer only the general model marks (rule G...) counts as one the model cannot mark
        unsure = np.where(table["rule"].astype(str).str.startswith("G").to_numpy(), np.nan, unsure)
    answers = table["answer"].fillna("").astype(str).tolist()
    picks = suggest(answers, marked, int(n), unsure)
    if not picks:
        st.success("Every answer of this question is marked.")
        return
    st.subheader("Mark these next")
    choices = list(qs.marks) or sorted(set(marks))
    if not choices:
        st.warning("The question file lists no marks: add its marks (`marks:` in the question file, "
                   "Rubric view) to mark answers here.")
        return
    for rank, pick in enumerate(picks, 1):
        row = table.iloc[pick.index]
        aid = row["answer_id"]
        with st.container(border=True):
            st.caption(md_escape(f"{rank}. {shown_id(session.exam_id, aid)}: {pick.reason}"))
            st.text(row["answer"] if str(row["answer"]).strip() else "(blank answer)")
            if not is_missing(row["proposed"]):
                st.caption(md_escape(f"proposed: {row['proposed']} ({row['explanation']})"))
            key = answer_key("start_mark", session.exam_id, qid, aid)  # no student id in a key
            with st.form(answer_key("start", session.exam_id, qid, aid), border=False):
                st.radio("Mark", choices, index=None, horizontal=True, key=key, format_func=md_escape)
                ask_name(key)
                st.form_submit_button("Save", on_click=_save,
                                      args=(store, session.exam_id, qid, aid, row["mark"], key, row["answer"],
                                            int(row["version"])))
            if len(pick.members) > 1:
                _group_form(session, store, qid, table.iloc[list(pick.members)], choices)


def _group_form(session: ExamSession, store: ReviewStore, qid: str, members: pd.DataFrame,
                choices: list[str]) -> None:
    """The answers a proposed answer stands for, marked at once: each member is shown (ticked;
    untick one to leave it out) and one mark is saved for every ticked answer, one decision
    per answer in the audit trail as in the Groups view."""
    key = answer_key("start_group", session.exam_id, qid, members["answer_id"].iloc[0])
    with st.expander(f"Mark the {len(members)} answers like it at once"):
        with st.form(key, border=False):
            shown = pd.DataFrame({"mark it": True, "answer": members["answer"].to_numpy(),
                                  "student": [shown_id(session.exam_id, a) for a in members["answer_id"]]})
            st.data_editor(shown, key=f"{key}|members", hide_index=True, width="stretch",
                           disabled=["answer", "student"], height=min(300, 38 + 35 * len(shown)),
                           column_config={"mark it": st.column_config.CheckboxColumn("mark it", width="small"),
                                          "answer": st.column_config.TextColumn("answer", width="large"),
                                          "student": st.column_config.TextColumn("student")})
            st.radio("Mark for the ticked answers", choices, index=None, horizontal=True,
                     key=f"{key}|mark", format_func=md_escape)
            ask_name(f"{key}|mark")
            st.form_submit_button("Apply to the ticked answers", on_click=_apply_group,
                                  args=(store, session.exam_id, members, key))


def _apply_group(store: ReviewStore, exam_id: str, members: pd.DataFrame, key: str) -> None:
    state = st.session_state
    mark = state.get(f"{key}|mark")
    if not ready_to_decide(mark, f"{key}|mark"):
        return
    edits = (state.get(f"{key}|members") or {}).get("edited_rows", {})
    left_out = {int(r) for r, change in edits.items() if change.get("mark it") is False}
    todo = [NewDecision(q, a, mark, int(v), old_mark=m, answer_text=t)
            for i, (q, a, m, t, v) in enumerate(zip(members["question_id"], members["answer_id"], members["mark"],
                                                    members["answer"], members["version"]))
            if i not in left_out]
    try:
        saved, conflicts = store.record_many(exam_id, todo, marker=marker())
    except ValueError as exc:
        notice("error", str(exc))
        return
    text = f"Saved mark {mark} for {len(saved)} answer(s)" + (f", {len(left_out)} left out." if left_out else ".")
    if conflicts:
        text += (f" {len(conflicts)} answer(s) were decided by someone else meanwhile and were left as "
                 "they are: " + "; ".join(f"{shown_id(exam_id, c.current.answer_id)}: {c.current.new_mark} by "
                                          f"{c.current.marker}" for c in conflicts) + ".")
    notice("warning" if conflicts else "success", text)
