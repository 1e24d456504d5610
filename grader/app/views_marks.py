"""The marks table with its filters and charts (the export is in `views_export`)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from grader.app.review import NO_MARK, filter_table, flagged
from grader.app.cross_validation import FAILED, NOT_CALIBRATED, RUNNING
from grader.app.session import ExamSession
from grader.app.settings import AppSettings
from grader.app.review_store import ReviewStore
from grader.app.ui import cross_validations, md_escape, refresh_while_running, show_notice, shown_id
from grader.app.views_review import answer_card, conflict_panel

_SHOWN = ["question_id", "answer_id", "answer", "mark", "proposed", "confidence", "flagged",
          "reviewed", "marker", "rule"]


#: What each cross-validated figure says, for a teacher (shown under the table and on hover).
FIGURE_HELP = {
    "accuracy": "the share of answers whose proposed mark is the teacher's mark.",
    "macro-F1": "how well each mark is found, averaged over the marks so that a rare mark "
                "counts as much as a common one (1 is perfect).",
    "QWK": "agreement with the teacher beyond chance, where proposing 0 for a 1 is worse than "
           "proposing 0.5 (quadratic weighted kappa: 1 is perfect, 0 is chance).",
    "IBS": "how well the confidences match how often the marks are right (inverse Brier score: "
           "1 is perfect).",
    "calibration error": "the mean distance between a confidence and the share of marks given "
                         "with it that were right (0 is perfect).",
}


def marks_view(session: ExamSession, store: ReviewStore, table: pd.DataFrame, threshold: float,
               settings: AppSettings) -> None:
    with st.container(border=True):
        a, b, c, d = st.columns([3, 2, 2.5, 2])  # room for every mark chip (issue 15)
        marks = sorted(table["mark"].fillna(NO_MARK).unique())
        chosen = a.multiselect("Mark", marks, default=marks, key="filter_marks")
        flag = b.radio("Flag", ["all", "flagged", "not flagged"], key="filter_flag",
                       horizontal=True)
        low, high = c.slider("Confidence", 0.0, 1.0, (0.0, 1.0), step=0.05, key="filter_conf")
        reviewed = d.radio("Reviewed", ["all", "reviewed", "not reviewed"], key="filter_reviewed",
                           horizontal=True)
    shown = filter_table(table, threshold, marks=chosen, flag=flag, confidence=(low, high),
                         include_unscored=low == 0.0, reviewed=reviewed)
    raw = [q for q in st.session_state.get("uncalibrated", []) if q in set(table["question_id"])]
    if raw:
        st.caption(md_escape(f"{', '.join(raw)}: {NOT_CALIBRATED}"))
    st.caption(f"{len(shown)} of {len(table)} answers — select a row to review that answer")
    event = st.dataframe(
        shown.assign(flagged=flagged(shown, threshold),
                     answer_id=[shown_id(session.exam_id, a) for a in shown["answer_id"]])[_SHOWN],
        hide_index=True,
        on_select="rerun", selection_mode="single-row", key="marks_table",
        width="stretch", height=min(560, 38 + 35 * max(1, len(shown))),
        column_config={
            "question_id": st.column_config.TextColumn("question"),
            "answer_id": st.column_config.TextColumn("student"),
            "answer": st.column_config.TextColumn("answer", width="large"),
            "confidence": st.column_config.ProgressColumn("confidence", min_value=0.0,
                                                          max_value=1.0, format="%.2f"),
            "proposed": st.column_config.TextColumn("proposed"),
        })
    rows = list(getattr(getattr(event, "selection", None), "rows", []) or [])
    if rows and rows[0] < len(shown):
        with st.container(border=True):
            show_notice()
            conflict_panel(store, session.exam_id)
            answer_card(session, store, shown.iloc[rows[0]])
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown("**Confidence of the proposed marks**")
        st.altair_chart(confidence_histogram(table, threshold), width="stretch")
    with right:
        st.markdown("**Accuracy of automatic marking against the share flagged**")
        figures = accuracy_curve_panel(session, threshold, settings)
    if figures:  # the whole width: six figures per question fit without scrolling sideways
        st.markdown("**Cross-validated figures of each question's model**")
        st.dataframe(pd.DataFrame(figures), hide_index=True, width="stretch",
                     column_config={k: st.column_config.NumberColumn(format="%.3f", help=FIGURE_HELP[k])
                                    for k in FIGURE_HELP})
        st.caption(" ".join(f"{k}: {v}" for k, v in FIGURE_HELP.items()))


def confidence_histogram(table: pd.DataFrame, threshold: float) -> alt.LayerChart:
    data = pd.DataFrame({"confidence": table["confidence"].fillna(0.0),
                         "status": flagged(table, threshold).map(
                             {True: "flagged", False: "marked automatically"})})
    bars = alt.Chart(data).mark_bar().encode(
        alt.X("confidence:Q", bin=alt.Bin(step=0.05, extent=[0, 1]),
              title="confidence (no rule = 0)"),
        alt.Y("count():Q", title="answers"),
        alt.Color("status:N", scale=alt.Scale(domain=["flagged", "marked automatically"],
                                              range=["#d98c3f", "#2f6f9f"]),
                  legend=alt.Legend(orient="top", title=None)))
    rule = alt.Chart(pd.DataFrame({"t": [threshold]})).mark_rule(strokeDash=[4, 3]).encode(x="t:Q")
    return (bars + rule).properties(height=260)


def accuracy_curve_panel(session: ExamSession, threshold: float, settings: AppSettings) -> list[dict]:
    """The cross-validated curve of each question, with the current threshold marked, and
    its reliability plot; returns each question's figures (for a table of their own)."""
    qid = st.session_state.get("question")
    ids = [qid] if qid in session.questions else list(session.questions)
    frames, figures, bins, waiting = [], [], [], []
    cv = cross_validations(settings)
    for q in ids:
        qs = session.questions[q]
        status, report = cv.state(qs)  # the figures, or a job started in the background
        if status == FAILED:
            st.warning(f"No evaluation for {md_escape(q)}: {md_escape(report)}")
            continue
        if status == RUNNING:
            waiting.append(q)
            continue
        curve = pd.DataFrame(report.get("curve", {}))
        if not curve.empty:
            frames.append(curve.assign(question=q))
        figures.append({"question": q, "answers": report.get("answers"),
                        "accuracy": report.get("accuracy"), "macro-F1": report.get("macro_f1"),
                        "QWK": report.get("qwk"), "IBS": report.get("ibs"),
                        "calibration error": report.get("ece")})
        bins += [dict(b, question=q) for b in report.get("reliability", [])]
    if frames:
        data = pd.concat(frames, ignore_index=True).dropna(subset=["share_flagged", "auto_accuracy"])
        line = alt.Chart(data).mark_line(point=alt.OverlayMarkDef(size=18)).encode(
            alt.X("share_flagged:Q", title="share of answers flagged for a human",
                  axis=alt.Axis(format="%")),
            alt.Y("auto_accuracy:Q", title="accuracy of the automatic marks",
                  scale=alt.Scale(zero=False)),
            alt.Color("question:N", legend=alt.Legend(orient="top", title=None, columns=2)),
            tooltip=["question", alt.Tooltip("threshold:Q", format=".2f"),
                     alt.Tooltip("share_flagged:Q", format=".0%"),
                     alt.Tooltip("auto_accuracy:Q", format=".1%")])
        here = (data.assign(d=(data["threshold"] - threshold).abs())
                .sort_values("d").groupby("question").head(1))
        dot = alt.Chart(here).mark_point(size=140, filled=True, color="#d98c3f").encode(
            x="share_flagged:Q", y="auto_accuracy:Q")
        st.altair_chart((line + dot).properties(height=260), width="stretch")
        st.caption("From 5-fold cross-validation on the marked answers; the orange dot is the threshold "
                   "set in the sidebar.")
    if bins:
        reliability_chart(pd.DataFrame(bins))
    if waiting:
        st.info(md_escape(f"Cross-validating {', '.join(waiting)} in the background (once; the result is "
                          "kept): the figures appear here when it is done, and you can go on marking."))
        refresh_while_running(settings, [session.questions[q] for q in waiting])
    return figures


def reliability_chart(bins: pd.DataFrame) -> None:
    """Confidence against the accuracy of the marks given with it (cross-validated): points on
    the diagonal mean a confidence of 0.8 is right 80% of the time."""
    st.markdown("**Does the confidence mean what it says?**")
    diagonal = alt.Chart(pd.DataFrame({"x": [0.0, 1.0], "y": [0.0, 1.0]})).mark_line(
        strokeDash=[4, 4], color="#999999").encode(x="x:Q", y="y:Q")
    points = alt.Chart(bins).mark_line(point=True).encode(
        alt.X("confidence:Q", title="confidence of the proposed marks", scale=alt.Scale(domain=[0, 1])),
        alt.Y("accuracy:Q", title="share of them that were right", scale=alt.Scale(domain=[0, 1])),
        alt.Color("question:N", legend=alt.Legend(orient="top", title=None, columns=2)),
        tooltip=["question", alt.Tooltip("confidence:Q", format=".2f"),
                 alt.Tooltip("accuracy:Q", format=".0%"), "answers:Q"])
    st.altair_chart((diagonal + points).properties(height=260), width="stretch")
    st.caption("Answers grouped by confidence (0-0.1, 0.1-0.2, …), from 5-fold cross-validation on the "
               "marked answers, each fold's model calibrated on its own marked answers only, as the "
               "confidence shown is on all of them. Above the dashed line the marks are more often right than their "
               "confidence says; the calibration error is the mean distance to it.")
