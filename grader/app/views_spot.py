"""The spot-check view: check a random sample of the automatic marks (`grader.app.spot_check`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from grader.app.review_store import CHECK, ConflictError, ReviewStore
from grader.app.session import ExamSession
from grader.app.spot_check import check_results, estimate
from grader.app.stop_view import SAMPLE_SIZE, spot_sample
from grader.app.ui import answer_key, marker, notice, show_notice, show_stop_advice, shown_id


def spot_check_view(session: ExamSession, store: ReviewStore, table: pd.DataFrame, threshold: float) -> None:
    state = st.session_state
    state.setdefault("spot_seed", 0)
    state.setdefault("spot_wrong", set())
    show_notice()
    st.subheader("Spot checks: is the automatic marking right on this exam?")
    a, b = st.columns([3, 1])
    size = a.slider("Answers to check", 5, 50, int(state.get("spot_size_kept", SAMPLE_SIZE)), step=5,
                    key="spot_size", help="Drawn at random from the automatically marked answers, every mark in "
                                          "proportion to how often it was given.")
    state["spot_size_kept"] = size  # the other views' stop advice uses the same sample
    b.button("Draw another sample", key="spot_redraw", on_click=_redraw)
    sample = spot_sample(table, threshold, size, seed=int(state["spot_seed"]))
    results = check_results(sample, state["spot_wrong"])
    found = estimate(sample, results, table, threshold)
    st.metric("Estimated accuracy of the automatic marks",
              "not checked yet" if not found.checked else f"{found.accuracy:.0%}")
    st.text(found.message())
    show_stop_advice(table, threshold)
    if sample.empty:
        st.info("No answer is marked automatically at this threshold.")
        return
    for (_, row), result in zip(sample.iterrows(), results):
        qid, aid = row["question_id"], row["answer_id"]
        with st.container(border=True):
            left, right = st.columns([4, 2])
            left.text(f"{shown_id(session.exam_id, aid)} · {qid} · proposed {row['proposed']} · "
                      f"confidence {row['confidence']:.0%}")
            left.text(row["answer"])
            if result is None:
                right.button("Right", key=answer_key("spot_right", session.exam_id, qid, aid), on_click=_right,
                             args=(store, session.exam_id, qid, aid, row["proposed"], row["answer"]))
                right.button("Wrong: to the review queue", key=answer_key("spot_wrong", session.exam_id, qid, aid),
                             on_click=_wrong, args=(qid, aid, session.exam_id))
            else:
                right.text("checked: right" if result else
                           ("checked: wrong, now marked " + str(row["mark"]) if row["reviewed"]
                            else "checked: wrong, in the review queue"))


def _redraw() -> None:
    st.session_state["spot_seed"] = int(st.session_state.get("spot_seed", 0)) + 1


def _right(store: ReviewStore, exam_id: str, qid: str, aid: str, mark: str, answer: str) -> None:
    """The proposed mark is right: it becomes the marker's decision."""
    base = st.session_state["seen"].get((qid, aid), 0)
    try:
        d = store.record(exam_id, qid, aid, marker=marker(), new_mark=mark, base_version=base,
                         old_mark=mark, comment="spot check: right", answer_text=answer, scope=CHECK)
    except ConflictError as exc:  # its message names the student: said as the page shows them
        notice("error", f"Not saved: {exc.current.marker} decided on {shown_id(exam_id, aid)} "
                        f"meanwhile ({exc.current.new_mark}).")
        return
    except ValueError as exc:
        notice("error", f"Not saved: {exc}")
        return
    st.session_state["seen"][(qid, aid)] = d.version


def _wrong(qid: str, aid: str, exam_id: str) -> None:
    st.session_state["spot_wrong"] = set(st.session_state.get("spot_wrong", set())) | {(qid, aid)}
    notice("info", f"{shown_id(exam_id, aid)} ({qid}) is in the review queue: give it the right "
                   "mark there.")
