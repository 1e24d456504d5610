"""The review queue: one answer at a time, decided and saved, with undo.

A decision is saved the moment the marker submits it, based on the version of the answer
the page showed (kept in `st.session_state["seen"]`): if another marker decided in between,
the store refuses it and the page shows the other decision, letting the marker keep theirs
explicitly. Student text is always shown as plain text (`st.text`), never as Markdown/HTML.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import streamlit as st

from grader.app.keys import KEYS_HELP, NEXT_KEY, PREVIOUS_KEY, UNDO_KEY, keyboard_shortcuts, mark_keys_help
from grader.app.review import (NO_MARK, features_found, flagged, marker_stats,
                               review_queue, undoable)
from grader.app.cross_validation import NOT_CALIBRATED, is_calibrated
from grader.app.session import ExamSession, QuestionSession
from grader.app.review_store import CHECK, ConflictError, ReviewStore
from grader.app.ui import (answer_key, ask_name, marker, md_escape, notice, ready_to_decide, show_notice, shown_id,
                          shown_time)
from features.text import is_missing  # None, or the NaN a pandas merge leaves where no mark is


# -- saving ---------------------------------------------------------------------------------

def _save_one(store: ReviewStore, exam_id: str, qid: str, aid: str, old_mark: str | None,
              mark_key: str | None, comment_key: str, fixed_mark: str | None = None,
              answer_text: str | None = None) -> None:
    """Form callback: save the marker's decision on one answer, or record the conflict."""
    state = st.session_state
    mark = fixed_mark if fixed_mark is not None else state.get(mark_key)
    comment = str(state.get(comment_key, "") or "")
    if not ready_to_decide(mark, mark_key):
        return
    base = state["seen"].get((qid, aid), 0)
    try:
        # an answer a spot check found wrong: its decision completes the check
        scope = CHECK if (qid, aid) in state.get("spot_wrong", set()) else "answer"
        d = store.record(exam_id, qid, aid, marker=marker(), new_mark=mark, base_version=base,
                         old_mark=old_mark, comment=comment, answer_text=answer_text, scope=scope)
    except ValueError as exc:  # a name or comment over the limits: say so, keep the form
        notice("error", str(exc))
        return
    except ConflictError as exc:
        state["conflict"] = {"qid": qid, "aid": aid, "mark": mark, "comment": comment,
                             "old_mark": old_mark, "theirs": exc.current, "answer": answer_text}
        return
    state["seen"][(qid, aid)] = d.version
    state.pop("review_pick", None)
    notice("success", f"Saved: {shown_id(exam_id, aid)} ({qid}) gets {mark}.")


def _resolve_conflict(store: ReviewStore, exam_id: str, keep_mine: bool) -> None:
    state = st.session_state
    c = state.pop("conflict", None)
    if not c:
        return
    theirs = c["theirs"]
    if not keep_mine:
        state["seen"][(c["qid"], c["aid"])] = theirs.version
        notice("info", f"Kept {theirs.marker}'s mark {theirs.new_mark} for {shown_id(exam_id, c['aid'])}.")
        return
    try:
        d = store.record(exam_id, c["qid"], c["aid"], marker=marker() or "marker",
                         new_mark=c["mark"], base_version=theirs.version,
                         old_mark=theirs.new_mark, comment=c["comment"], answer_text=c.get("answer"))
    except ConflictError as exc:  # a third decision arrived meanwhile: show that one
        state["conflict"] = {**c, "theirs": exc.current}
        return
    except ValueError as exc:  # a name or comment over the limits
        notice("error", str(exc))
        return
    state["seen"][(c["qid"], c["aid"])] = d.version
    notice("success", f"Saved your mark {c['mark']} for {shown_id(exam_id, c['aid'])} over "
                      f"{theirs.marker}'s.")


def conflict_panel(store: ReviewStore, exam_id: str) -> None:
    c = st.session_state.get("conflict")
    if not c:
        return
    t = c["theirs"]
    with st.container(border=True):
        st.warning(md_escape(
            f"{t.marker} decided on {shown_id(exam_id, c['aid'])} ({c['qid']}) while you "
            f"were looking at it: mark {t.new_mark} at {shown_time(t.decided_at)}. Nothing of "
            f"yours was saved yet. "
            f"Your mark: {c['mark']}."))
        if t.comment:
            st.text(f"Their comment: {t.comment}")
        a, b = st.columns(2)
        a.button(f"Keep my mark ({md_escape(c['mark'])})", on_click=_resolve_conflict,
                 args=(store, exam_id, True), key="conflict_mine", type="primary")
        b.button(f"Keep {md_escape(t.marker)}'s mark ({md_escape(t.new_mark)})", on_click=_resolve_conflict,
                 args=(store, exam_id, False), key="conflict_theirs")


# -- one answer -------------------------------------------------------------------------------

#: The height of the student's answer box (pixels, about seven lines; longer answers scroll)
#: and of the room kept for the notice of the last save.
ANSWER_BOX_PX = 170
NOTICE_PX = 64


def answer_position(qs: QuestionSession, aid: str) -> int:
    return int(np.flatnonzero(qs.table["answer_id"].to_numpy() == aid)[0])


def answer_card(session: ExamSession, store: ReviewStore, row: pd.Series,
                keys_help: bool = False) -> None:
    """Everything about one answer and the form to decide on it (`keys_help`: say which keys
    work, under the form)."""
    qid, aid = row["question_id"], row["answer_id"]
    qs = session.questions[qid]
    st.session_state["seen"][(qid, aid)] = int(row["version"])
    st.caption(f"{md_escape(qid)}: {md_escape(getattr(qs.question, 'text', ''))}")
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown("**Student's answer**")
        # one height for every answer: a long one scrolls inside its box, and the form below (its
        # Save button) stays where it was from one answer to the next
        with st.container(border=True, height=ANSWER_BOX_PX):
            st.text(row["answer"] if str(row["answer"]).strip() else "(blank answer)")
        # escaped: never bold, a link or a broken code span
        st.caption(f"from {md_escape(shown_id(session.exam_id, aid))}")
        if row["reviewed"]:
            st.info(md_escape(f"Decided: {row['mark']} by {row['marker']} at "
                              f"{shown_time(row['decided_at'])}"
                              + (f" — {row['comment']}" if row["comment"] else "")))
        decision_form(session, store, row, qs, keys_help)
        if keys_help:
            st.caption(KEYS_HELP)
        marking_scheme(qs)
    with right:
        a, b = st.columns(2)
        a.metric("Proposed mark", md_escape(row["proposed"]) if not is_missing(row["proposed"]) else NO_MARK)
        conf = row["confidence"]
        b.metric("Confidence", "—" if pd.isna(conf) else f"{conf:.0%}",
                 help="How likely this mark is to be right, where the model is calibrated on its "
                      "cross-validated marked answers; it rests on the share of the rule lists that give "
                      "the mark and on how well the answer reads like the answers given it (see Why).")
        if not is_calibrated(qs):
            b.caption(NOT_CALIBRATED)
        show_why(qs, row)
        features = qs.features.iloc[answer_position(qs, aid)].to_dict()
        found = features_found(features, qs.descriptions, qs.opposites)
        with st.expander(f"Found in the answer ({len(found)})", expanded=True):
            st.text("\n".join(f"• {f}" for f in found) if found else "nothing the rubric knows")


def marking_scheme(qs: QuestionSession) -> None:
    """The question's marks, reference answers and what its rubric looks for, next to the
    answer being marked (plain text: they come from the teacher's file)."""
    with st.expander("Marking scheme and reference answers", expanded=True):
        st.text(scheme_text(qs))


def scheme_text(qs: QuestionSession) -> str:
    """The marking scheme of a question as plain text (see `marking_scheme`)."""
    question = qs.question
    lines = [f"Marks: {', '.join(qs.marks) or NO_MARK}"]
    references = list(getattr(question, "reference_answers", ()) or ())
    if references:
        lines += ["", "Reference answers:"] + [f"• {r}" for r in references]
    looks_for = [f"• {c.description or c.name}" for c in getattr(question, "concepts", ()) or ()]
    looks_for += [f"• {q.description or q.name}: {q.value:g} {q.unit}"
                  for q in getattr(question, "quantities", ()) or ()]
    looks_for += [f"• a known mistake: {m.description or m.name}"
                  for m in getattr(question, "misconceptions", ()) or ()]
    if looks_for:
        lines += ["", "The rubric looks for:"] + looks_for
    return "\n".join(lines)


def show_why(qs, row) -> None:
    """The proposed mark's justification: one line, the rule, and every condition folded."""
    st.markdown("**Why**")
    st.text(row["explanation"] or "no rule applies")
    if row["rule"]:
        st.code(row["rule"], language=None, wrap_lines=True)
    with st.expander("Full justification: every condition checked"):
        st.code(_explanation_text(qs, row), language=None, wrap_lines=True)


def _explanation_text(qs: QuestionSession, row: pd.Series) -> str:
    try:
        return qs.model.explain(row["answer"]).text()
    except Exception as exc:  # an explanation must never take the page down
        return f"{row['rule'] or 'no rule applies'}\n{row['explanation']}\n(full explanation unavailable: {exc})"


def decision_form(session: ExamSession, store: ReviewStore, row: pd.Series,
                  qs: QuestionSession, keys_help: bool = False) -> None:
    qid, aid = row["question_id"], row["answer_id"]
    marks = list(qs.marks) or sorted(qs.table["proposed"].dropna().unique())
    current = row["mark"] if row["mark"] in marks else None
    mark_key, comment_key = (answer_key(kind, session.exam_id, qid, aid)  # no student id in a key
                             for kind in ("mark", "comment"))
    # One way to save, whatever the key: the mark chosen in the radio (the proposed or current
    # mark is chosen at first, so accepting it is one click or Enter). With a second "Accept"
    # button, Enter in the comment box pressed the form's first button and saved the proposed
    # mark although the marker had chosen another.
    with st.form(answer_key("decide", session.exam_id, qid, aid), border=True):
        st.radio("Mark", marks, index=marks.index(current) if current else None,
                 horizontal=True, key=mark_key, format_func=md_escape,
                 help=f"Proposed: {md_escape(row['proposed'])}" if not is_missing(row["proposed"])
                 else "No rule proposes a mark")
        if keys_help:  # which key gives which mark, under the marks
            st.caption(md_escape(mark_keys_help([str(m) for m in marks])))
        st.text_input("Comment (optional)", key=comment_key)
        ask_name(mark_key)
        st.form_submit_button("Save the chosen mark", type="primary", width="stretch",
                              on_click=_save_one, args=(store, session.exam_id, qid, aid,
                                                        row["mark"], mark_key, comment_key, None,
                                                        row["answer"]))


# -- views ---------------------------------------------------------------------------------

def _label(row: pd.Series, exam_id: str) -> str:
    conf = "no rule" if pd.isna(row["confidence"]) else f"{row['confidence']:.0%}"
    mark = row["proposed"] if not is_missing(row["proposed"]) else NO_MARK
    return f"{shown_id(exam_id, row['answer_id'])} · {row['question_id']} · proposed {mark} · {conf}"


def review_view(session: ExamSession, store: ReviewStore, table: pd.DataFrame,
                threshold: float) -> None:
    with st.container(height=NOTICE_PX, border=False):  # the same room with or without a notice,
        show_notice()                                   # so that a save moves nothing below it
    conflict_panel(store, session.exam_id)
    title, switch = st.columns([3, 1.2], vertical_alignment="center")
    everything = switch.toggle("Pick from all answers", key="review_all",
                               help="Review any answer, not only the flagged ones nobody has "
                                    "decided on.")
    several = table["question_id"].nunique() > 1
    mixed = several and switch.toggle("Mix the questions", key="review_mixed",
                                      help="One queue of all questions, least confident first. "
                                           "Off: question by question, each question's answers "
                                           "least confident first.")
    queue = review_queue(table, threshold, also=st.session_state.get("spot_wrong", set()),
                         by_question=None if mixed else list(session.questions))
    pool = table if everything else queue
    is_flagged = flagged(table, threshold)
    decided = int((is_flagged & table["reviewed"]).sum())
    if not everything:
        if queue.empty:
            st.success("Nothing left to review: every flagged answer has a decision.")
            _undo_button(store, session.exam_id)
            _markers_progress(store, session, table)
            return
        title.subheader(f"Review queue — {len(queue)} flagged answer(s)")
    if pool.empty:
        st.info("No answers.")
        return
    keys = list(zip(pool["question_id"], pool["answer_id"]))
    labels = {k: _label(r, session.exam_id) for k, (_, r) in zip(keys, pool.iterrows())}
    pick = st.session_state.get("review_pick")
    if pick not in labels:
        st.session_state["review_pick"] = keys[0]
    pick_col, prev_col, next_col, undo_col = st.columns([6, 1.2, 1.2, 1.6],
                                                        vertical_alignment="bottom")
    pick_col.selectbox("Answer", keys, format_func=lambda k: labels[k], key="review_pick")
    position = keys.index(st.session_state["review_pick"])
    prev_col.button("‹ Previous", key=PREVIOUS_KEY, width="stretch", on_click=_go,
                    args=(keys[(position - 1) % len(keys)],), help="The previous answer (K or ←).")
    next_col.button("Next ›", key=NEXT_KEY, width="stretch", on_click=_go,
                    args=(keys[(position + 1) % len(keys)],), help="Look at the next answer; this "
                    "one stays in the queue (J or →).")
    with undo_col:
        _undo_button(store, session.exam_id)
    where = ("of all answers" if everything else
             "in the queue, least confident first" if mixed or not several else
             "in the queue, question by question")
    qid = keys[position][0]
    this_question = (f" · {md_escape(qid)}: {sum(k[0] == qid for k in keys)} in the queue"
                     if several and not mixed and not everything else "")
    st.markdown(f"**Answer {position + 1} of {len(keys)}** {where}{this_question} · {decided} of "
                f"{int(is_flagged.sum())} flagged answers decided")
    answer_card(session, store, pool.iloc[position], keys_help=True)
    keyboard_shortcuts()
    _markers_progress(store, session, table)


def _go(key: tuple[str, str]) -> None:
    st.session_state["review_pick"] = key


def _undo_button(store: ReviewStore, exam_id: str) -> None:
    last = undoable(store.history(exam_id), marker()) if marker() else None
    st.button("↶ Undo my last", key=UNDO_KEY, width="stretch", disabled=last is None,
              on_click=_undo, args=(store, exam_id),
              help=(f"Take back your decision on {md_escape(shown_id(exam_id, last.answer_id))} "
                    f"({md_escape(last.question_id)}): mark {md_escape(last.new_mark)} (U)."
                    if last else "You have no decision to take back."))


def _undo(store: ReviewStore, exam_id: str) -> None:
    """Button callback: take back the marker's last decision (the answer gets back what it had
    before; nothing is deleted from the audit trail)."""
    last = undoable(store.history(exam_id), marker()) if marker() else None
    if last is None:
        notice("info", "You have no decision to take back.")
        return
    try:
        d = store.undo(exam_id, last, marker=marker())
    except ConflictError as exc:
        notice("warning", f"{exc.current.marker} decided on {shown_id(exam_id, last.answer_id)} "
                          f"since: their decision stays.")
        return
    st.session_state["seen"][(d.question_id, d.answer_id)] = d.version
    st.session_state["review_pick"] = (d.question_id, d.answer_id)
    back = ("is back in the queue" if d.scope == "undo"
            else f"has its earlier mark {d.new_mark} again")
    notice("info", f"Undone: {shown_id(exam_id, last.answer_id)} ({last.question_id}) {back}.")


def _markers_progress(store: ReviewStore, session: ExamSession, table: pd.DataFrame) -> None:
    """Per marker counts for the instructor: answers decided, overridden, time spent."""
    stats = marker_stats(store.history(session.exam_id), session.table())
    if stats.empty:
        return
    with st.expander("Markers' progress", expanded=False):
        st.dataframe(stats, hide_index=True, width="stretch",
                     column_config={"marker": st.column_config.TextColumn("marker"),
                                    "minutes": st.column_config.NumberColumn(
                                        "time spent (min)", format="%.1f",
                                        help="Gaps between a marker's decisions; a pause over "
                                             "10 minutes counts as a break.")})
