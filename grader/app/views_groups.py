"""The Groups view: answers alike in meaning, decided together with one mark.

Answers are grouped by what the rubric finds in them and by their wording
(`grader.app.grouping`); the marker checks a group's answers, takes out any that do not
belong or splits the group by identical features, and applies one mark to the rest. Each
answer's decision is saved as in the review queue (`views_review`), against the version the
page showed. Student text is shown as plain text, never as Markdown/HTML.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from grader.app.grouping import groups_to_decide
from grader.app.review import NO_MARK, features_found, group_summary
from grader.app.review_store import SPLIT, TAKEN_OUT, NewDecision, ReviewStore
from grader.app.session import ExamSession
from grader.app.ui import ask_name, marker, md_escape, notice, ready_to_decide, show_notice, shown_id
from grader.app.views_review import answer_position, show_why


def _meaning_groups(session: ExamSession, qid: str, table: pd.DataFrame) -> dict[str, str]:
    """answer id -> its group to decide (`groups_to_decide`): the answers nobody had decided
    when the question's model was last trained, alike to a leader with the same proposed mark.
    Computed once per model, so the groups stay put while the marker decides them."""
    qs = session.questions[qid]
    cache = st.session_state.setdefault("meaning_groups", {})
    key = (session.exam_id, qid, qs.model_key, len(qs.table))
    if key not in cache:
        own = table[table["question_id"] == qid].set_index("answer_id")
        ids = qs.table["answer_id"].tolist()
        decided = own["reviewed"].reindex(ids).fillna(False).to_numpy(bool)
        labels, _ = groups_to_decide(qs.features, qs.table["answer"].tolist(),
                                     qs.table["proposed"].tolist(), decided)
        cache[key] = {a: f"m{g}" for a, g in zip(ids, labels) if g >= 0}
    return cache[key]


def grouped(session: ExamSession, store: ReviewStore, table: pd.DataFrame) -> pd.DataFrame:
    """The table with `group` set to the groups to decide, after the markers' splits (a group
    split into answers with identical features) and answers taken out, as the store keeps
    them (a reload shows the groups as they were left)."""
    edits = store.group_edits(session.exam_id)
    out, split = edits[TAKEN_OUT], edits[SPLIT]
    per_question = {q: _meaning_groups(session, q, table) for q in table["question_id"].unique()}
    groups = []
    for q, a, same_features in zip(table["question_id"], table["answer_id"], table["group"]):
        g = per_question[q].get(a, f"alone:{a}")
        if (q, a) in out:
            g = f"alone:{a}"
        elif (q, a) in split:
            g = f"{g}/{same_features}"
        groups.append(g)
    return table.assign(group=groups)


def _take_out(store: ReviewStore, exam_id: str, qid: str, answer_ids: list[str]) -> None:
    try:
        store.edit_groups(exam_id, qid, answer_ids, TAKEN_OUT, marker=marker())
    except ValueError as exc:  # a name over the limit
        notice("error", str(exc))
        return
    notice("info", f"Took {len(answer_ids)} answer(s) out of the group: they are decided one by "
                   "one in the Review view.")


def _split(store: ReviewStore, exam_id: str, qid: str, answer_ids: list[str]) -> None:
    try:
        store.edit_groups(exam_id, qid, answer_ids, SPLIT, marker=marker())
    except ValueError as exc:
        notice("error", str(exc))
        return
    st.session_state.pop("group_pick", None)
    notice("info", "Split the group into answers with identical features.")


def groups_view(session: ExamSession, store: ReviewStore, table: pd.DataFrame,
                threshold: float) -> None:
    show_notice()
    table = grouped(session, store, table)
    groups = group_summary(table)
    st.subheader("Groups of answers that mean the same")
    if groups.empty:
        st.info("No two answers left to decide are alike here.")
        return
    done = groups["reviewed"] >= groups["size"]
    groups = pd.concat([groups[~done], groups[done]], ignore_index=True)  # those left to decide first
    st.caption(f"{int((~done).sum())} group(s) to decide: answers nobody had decided, alike in what the "
               "rubric finds and in wording, each with one proposed mark, largest first"
               + (f" ({int(done.sum())} decided, at the end of the list)" if done.any() else "") + ". "
               "Check the answers, take out any that do not belong, and apply one mark to the rest. "
               "Deciding every group, then the flagged answers left in the Review queue, is the "
               "quickest way through a class.")
    keys = list(zip(groups["question_id"], groups["group"]))
    labels = {k: f"{r['size']} answers · {r['question_id']} · e.g. “{_short(r['example'])}” · "
                 f"proposed {r['proposed']} · {r['reviewed']} decided"
              for k, (_, r) in zip(keys, groups.iterrows())}
    if st.session_state.get("group_pick") not in labels:
        st.session_state["group_pick"] = keys[0]
    qid, gid = st.selectbox("Group", keys, format_func=lambda k: labels[k], key="group_pick")
    members = table[(table["question_id"] == qid) & (table["group"] == gid)]
    for q, a, v in zip(members["question_id"], members["answer_id"], members["version"]):
        st.session_state["seen"][(q, a)] = int(v)
    qs = session.questions[qid]
    first = members.iloc[0]
    # the members over the page's whole width: every column without sideways scrolling
    shown = pd.DataFrame({
        "answer": members["answer"].to_numpy(),
        "student": [shown_id(session.exam_id, a) for a in members["answer_id"]],
        "proposed": members["proposed"].fillna(NO_MARK).to_numpy(),
        "mark": members["mark"].fillna(NO_MARK).to_numpy(),
        "decided by": members["marker"].to_numpy()})
    event = st.dataframe(
        shown, hide_index=True, width="stretch", on_select="rerun",
        selection_mode="multi-row", key=f"group_members|{qid}|{gid}",
        height=min(400, 38 + 35 * len(shown)),
        column_config={"answer": st.column_config.TextColumn("answer", width="large"),
                       "student": st.column_config.TextColumn("student", width="medium"),
                       "proposed": st.column_config.TextColumn("proposed", width="small"),
                       "mark": st.column_config.TextColumn("mark", width="small"),
                       "decided by": st.column_config.TextColumn("decided by", width="medium")})
    chosen = [int(i) for i in getattr(getattr(event, "selection", None), "rows", []) or []
              if int(i) < len(members)]
    left, right = st.columns([3, 2], gap="large")
    with left:
        a, b = st.columns(2)
        a.button("Take the selected answers out" if len(chosen) != 1 else
                 "Take the selected answer out", key="group_take_out",
                 disabled=not chosen or len(chosen) >= len(members), width="stretch",
                 on_click=_take_out,
                 args=(store, session.exam_id, qid, [members["answer_id"].iloc[i] for i in chosen]),
                 help="Select rows in the table first; those answers leave the group.")
        b.button("Split by what the rubric finds", key="group_split_button", width="stretch",
                 disabled="/" in gid, on_click=_split,
                 args=(store, session.exam_id, qid, members["answer_id"].tolist()),
                 help="Split this group into answers with identical features.")
        found = features_found(qs.features.iloc[answer_position(qs, first["answer_id"])].to_dict(),
                               qs.descriptions, qs.opposites)
        st.markdown("**Found in the first answer of the group**")
        st.text("\n".join(f"• {f}" for f in found) if found else "nothing the rubric knows")
    with right:
        show_why(qs, first)
        marks = list(qs.marks) or sorted(qs.table["proposed"].dropna().unique())
        key = f"{qid}|{gid}"
        proposed = first["proposed"]
        with st.form(f"group|{key}"):
            st.radio("Mark for the whole group", marks,
                     index=marks.index(proposed) if proposed in marks else None,
                     horizontal=True, key=f"gmark|{key}", format_func=md_escape)
            st.text_input("Comment (optional)", key=f"gcomment|{key}")
            ask_name(f"gmark|{key}")
            st.form_submit_button(f"Apply to all {len(members)} answers", type="primary",
                                  width="stretch", on_click=_apply_group,
                                  args=(store, session.exam_id, members, key))


def _short(text: object, limit: int = 48) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def _apply_group(store: ReviewStore, exam_id: str, members: pd.DataFrame, key: str) -> None:
    state = st.session_state
    mark = state.get(f"gmark|{key}")
    comment = str(state.get(f"gcomment|{key}", "") or "")
    if not ready_to_decide(mark, f"gmark|{key}"):
        return
    out = store.group_edits(exam_id)[TAKEN_OUT]  # also those another marker took out meanwhile
    todo = [NewDecision(q, a, mark, state["seen"].get((q, a), 0), old_mark=m, answer_text=t)
            for q, a, m, t in zip(members["question_id"], members["answer_id"], members["mark"],
                                  members["answer"]) if (q, a) not in out]
    try:
        saved, conflicts = store.record_many(exam_id, todo, marker=marker(), comment=comment)
    except ValueError as exc:  # a name or comment over the limits
        notice("error", str(exc))
        return
    for d in saved:
        state["seen"][(d.question_id, d.answer_id)] = d.version
    state.pop("group_pick", None)  # on to the next group to decide (a decided one goes to the end)
    text = f"Saved mark {mark} for {len(saved)} answer(s) of the group."
    if conflicts:
        others = "; ".join(f"{shown_id(exam_id, c.current.answer_id)}: {c.current.new_mark} by "
                           f"{c.current.marker}"
                           for c in conflicts)
        notice("warning", text + f" {len(conflicts)} answer(s) were decided by someone else "
                               f"meanwhile and were left as they are: {others}.")
    else:
        notice("success", text)
