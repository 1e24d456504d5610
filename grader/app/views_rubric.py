"""Editing a question's rubric and retraining; learning from the markers' reviews.

The editor checks the unsaved text when the teacher pauses typing (`knowledge.check_question_text`) and
shows each problem with its line and column and the lines around it; saving is refused
while there are problems, and the previous version of the file is kept by
`knowledge.save_question_text`. After a retrain the page shows the evaluation figures and
the marks before and after.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from grader.app.review import NO_MARK, changed_marks
from grader.app.cross_validation import READY, RUNNING
from grader.app.review_training import forget_extended_training, reviewed_examples, write_extended_training
from grader.app.session import ExamSession, QuestionSession
from grader.app.settings import AppSettings
from grader.app.ui import (cross_validations, get_session, md_escape, refresh_while_running,
                           show_notice, shown_id, train_workers)
from grader.app.review_store import Decision, ReviewStore

_FIGURES = (("accuracy", "accuracy"), ("macro_f1", "macro-F1"), ("qwk", "quadratic weighted kappa"),
            ("ibs", "inverse Brier score"), ("answers", "marked answers"))


def figure_text(key: str, value: object) -> str:
    """A figure of the before/after table as a teacher reads it: a count as a whole number
    ("239", not "239.000"), a score with three decimals, "—" when there is none."""
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if key == "answers":
        return f"{int(round(float(value))):,}"
    return f"{float(value):.3f}"


def _pick_question(session: ExamSession, key: str) -> QuestionSession:
    chosen = st.session_state.get("question")
    if chosen in session.questions:
        return session.questions[chosen]
    qid = st.selectbox("Question", list(session.questions), key=key)
    return session.questions[qid]


def excerpt(text: str, line: int, column: int, context: int = 2) -> str:
    """The lines around a problem, numbered, with a caret under the column."""
    lines = text.splitlines() or [""]
    line = max(1, min(line, len(lines)))
    out = []
    for n in range(max(1, line - context), min(len(lines), line + context) + 1):
        out.append(f"{n:4d} | {lines[n - 1]}")
        if n == line:
            out.append("     | " + " " * max(0, column - 1) + "^")
    return "\n".join(out)


def _retrain_report(qid: str, before: QuestionSession, after: QuestionSession, what: str) -> dict:
    """What the page shows after a retrain; the figures of both models are looked up when
    shown (`figures_now`): the new model's cross-validation runs in the background."""
    return {"qid": qid, "what": what, "before_qs": before, "after_qs": after,
            "changed": changed_marks(before.table, after.table),
            "marks_before": _mark_counts(before), "marks_after": _mark_counts(after),
            "rules_before": _rules(before), "rules_after": _rules(after)}


def figures_now(qs: QuestionSession, settings: AppSettings, group: str | None = None) -> tuple[str, dict]:
    """(state, figures) of a model's cross-validation: READY with the figures, RUNNING or
    FAILED with only the number of marked answers (known without it)."""
    status, value = cross_validations(settings).state(qs, group)
    if status == READY:
        return status, value
    return status, {"answers": qs.training_size or None}


def _mark_counts(qs: QuestionSession) -> dict[str, int]:
    counts = qs.table["proposed"].fillna(NO_MARK).value_counts()
    order = list(qs.marks) + [NO_MARK]
    return {m: int(counts.get(m, 0)) for m in order}


def _rules(qs: QuestionSession) -> str:
    try:
        return qs.model.rules("text")
    except Exception:
        return ""


def show_retrain_report(qid: str, exam_id: str, settings: AppSettings) -> None:
    report = st.session_state.get("retrain_report")
    if not report or report["qid"] != qid:
        return
    with st.container(border=True):
        st.markdown(f"**After {report['what']}**")
        (b_state, before), (a_state, after) = (figures_now(report["before_qs"], settings, f"{qid} (before)"),
                                               figures_now(report["after_qs"], settings))
        rows = [{"figure": label, "before": figure_text(k, before.get(k)),
                 "after": figure_text(k, after.get(k))} for k, label in _FIGURES]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        st.caption("Cross-validated on the training set of each model (5 folds).")
        if RUNNING in (b_state, a_state):
            st.caption("Cross-validating in the background: the figures appear here when it is done. "
                       "The proposed marks below are already the new model's.")
            refresh_while_running(settings, [report["before_qs"], report["after_qs"]])
        counts = pd.DataFrame({"before": report["marks_before"], "after": report["marks_after"]})
        st.markdown("**Proposed marks of this exam's answers**")
        st.dataframe(counts.fillna(0).astype(int).T, width="stretch")
        changed = report["changed"]
        if changed.empty:
            st.info("No proposed mark of this exam changed.")
        else:
            st.markdown(f"**{len(changed)} proposed mark(s) of this exam changed**")
            shown = changed.assign(answer_id=[shown_id(exam_id, a) for a in changed["answer_id"]])
            st.dataframe(shown, hide_index=True, width="stretch")
        a, b = st.columns(2)
        with a.expander("Rules before"):
            st.code(report["rules_before"], language=None)
        with b.expander("Rules after"):
            st.code(report["rules_after"], language=None)


@st.cache_data(max_entries=20, show_spinner="Trying the rules on the marked answers…")
def _record(text: str, path: str, training_path: str, stamp: tuple
            ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, str]:
    from grader.app.rubric_check import record_table, rubric_record, wrong_idea_table, wrong_table

    report = rubric_record(text, Path(path), Path(training_path))
    summary = (f"On the {report.answers} marked answers: {report.marked} marked by a rule, {report.right} "
               f"as the human did, {report.unmarked_count} by no rule.")
    return record_table(report), wrong_table(report), wrong_idea_table(report), summary


def _show_record(text: str, path: Path, training_path: Path) -> None:
    """What each rule of the text in the editor does on the marked answers (`grader test-rubric`)."""
    try:
        stamp = (training_path.stat().st_mtime_ns, training_path.stat().st_size)
        rules, wrong, wrong_ideas, summary = _record(text, str(path), str(training_path), stamp)
    except Exception as exc:  # the record is a help; the editor works without it
        st.caption(md_escape(f"Could not try the rules on the marked answers: {exc}"))
        return
    st.markdown("**What the rules do** (teacher's rules first, then rules learned from the same answers)")
    st.caption(md_escape(summary))
    st.dataframe(rules, hide_index=True, width="stretch")
    if len(wrong):
        with st.expander(f"{len(wrong)} answer(s) marked otherwise than the human did, or by no rule"):
            st.dataframe(wrong, hide_index=True, width="stretch")
    if len(wrong_ideas):
        mark = wrong_ideas["human's mark"].iloc[0]
        with st.expander(md_escape(f"Wrong ideas found in {len(wrong_ideas)} answer(s) marked {mark}: check that "
                                   "their phrases say only the wrong idea")):
            st.dataframe(wrong_ideas, hide_index=True, width="stretch")


@st.cache_data(max_entries=20, show_spinner="Reading the marked answers for phrases to propose…")
def _proposals(text: str, path: str, training_path: str, stamp: tuple) -> list:
    from grader.app.rubric_suggestions import proposals_for

    return proposals_for(text, Path(path), Path(training_path))


def _accept(key: str, proposal, path: Path) -> None:
    """A button's callback: the proposal goes into the editor's text (run before the widgets)."""
    from grader.app.rubric_suggestions import accept

    try:
        st.session_state[key] = accept(st.session_state[key], proposal, str(path))
    except ValueError as exc:  # e.g. a section written on one line: said, the text unchanged
        st.session_state["rubric_proposal_problem"] = str(exc)


def _reject(rejected_key: str, proposal) -> None:
    from grader.app.rubric_suggestions import key_of

    st.session_state.setdefault(rejected_key, set()).add(key_of(proposal))


def _show_proposals(text: str, path: Path, training_path: Path, key: str, qid: str) -> None:
    """Concepts and misconceptions proposed from the marked answers, each to accept or reject."""
    from grader.app.rubric_suggestions import shown

    try:
        stamp = (training_path.stat().st_mtime_ns, training_path.stat().st_size)
        proposals = _proposals(text, str(path), str(training_path), stamp)
    except Exception as exc:  # a help; the editor works without it
        st.caption(md_escape(f"Could not propose phrases from the marked answers: {exc}"))
        return
    rejected_key = f"rubric_rejected|{qid}"
    todo = shown(proposals, st.session_state.get(rejected_key, set()))
    problem = st.session_state.pop("rubric_proposal_problem", None)
    if problem:
        st.error(md_escape(problem))
    with st.expander(f"Proposed from the marked answers: {len(todo)} concept(s) and misconception(s)"):
        if not todo:
            st.caption("No proposal left: no other phrase of the marked answers separates the marks.")
        st.caption("Phrases the class uses that separate the marks. Accept adds one to the text above "
                   "(nothing is saved until you save); edit it there as you like.")
        for i, p in enumerate(todo):
            st.markdown(f"**{md_escape(p.kind)} {md_escape(p.name)}**: {md_escape(', '.join(p.phrases))}")
            st.caption(md_escape(p.reason))
            a, b = st.columns(2)
            a.button("Accept", key=f"rubric_accept|{qid}|{i}", on_click=_accept, args=(key, p, path))
            b.button("Reject", key=f"rubric_reject|{qid}|{i}", on_click=_reject, args=(rejected_key, p))


#: How long the teacher pauses before the text is sent and checked (milliseconds).
PAUSE_MS = 800


def check_after_a_pause(label: str) -> None:
    """Send the text box's text to the app when the teacher pauses typing, as Ctrl+Enter
    would: Streamlit's text box sends it only then or when it loses the focus. A few lines of
    script on the page, with nothing from the teacher's text in them."""
    import json

    st.html("""<script>
(() => {
  const label = %s, pause = %d, doc = window.parent ? window.parent.document : document;
  const hook = () => {
    const box = doc.querySelector(`textarea[aria-label="${label}"]`);
    if (!box || box.dataset.checkAfterPause) return;
    box.dataset.checkAfterPause = "1";
    let timer = null;
    box.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => box.dispatchEvent(new KeyboardEvent("keydown",
        {key: "Enter", code: "Enter", keyCode: 13, which: 13, ctrlKey: true, bubbles: true})), pause);
    });
  };
  hook();
  new MutationObserver(hook).observe(doc.body, {childList: true, subtree: true});
})();
</script>""" % (json.dumps(label), PAUSE_MS), unsafe_allow_javascript=True)


def _reopen(session: ExamSession, settings: AppSettings) -> ExamSession:
    return get_session(session.path, settings)


def rubric_view(session: ExamSession, store: ReviewStore, settings: AppSettings) -> None:
    import knowledge

    train_workers()  # started now, ready when the teacher saves
    show_notice()
    qs = _pick_question(session, "rubric_question")
    path = qs.question_path
    key, src_key = f"rubric|{qs.id}", f"rubric_src|{qs.id}"
    stamp = (str(path), path.stat().st_mtime_ns)
    if st.session_state.get(src_key) != stamp:
        st.session_state[key] = knowledge.read_question_file_text(path)
        st.session_state[src_key] = stamp
    st.subheader(f"Rubric of {md_escape(qs.id)}")
    st.caption(f"{md_escape(path.resolve())} — concepts, quantities, misconceptions and rules (YAML, rules in YAML "
               "or ASP). Problems are shown when you pause typing; the file is only saved when there "
               "are none, and the previous version is kept.")
    edit, problems_col = st.columns([3, 2], gap="large")
    with edit:
        text = st.text_area("Question file", key=key, height=560, label_visibility="collapsed")
        check_after_a_pause("Question file")
    problems = knowledge.check_question_text(text, path)
    with problems_col:
        changed = text != knowledge.read_question_file_text(path)
        a, b = st.columns(2)
        save = a.button("Save and retrain", type="primary", disabled=bool(problems) or not changed,
                        width="stretch", key="rubric_save")
        if b.button("Discard my changes", width="stretch", key="rubric_discard",
                    disabled=not changed):
            st.session_state.pop(src_key, None)
            st.rerun()
        if problems:
            st.error(f"{len(problems)} problem(s): fix them before saving.")
            for p in problems:
                where = f"line {p.line}, column {p.column}"
                hint = f" (expected {p.expected})" if getattr(p, "expected", None) else ""
                st.markdown(f"**{where}**: {md_escape(p.message + hint)}")
                st.code(excerpt(text, p.line, p.column), language=None)
        elif changed:
            st.success("No problems found: the rubric can be saved.")
        else:
            st.success("No problems found.")
        if not problems:
            _show_record(text, path, qs.training_path)
            _show_proposals(text, path, qs.training_path, key, qs.id)
        history = sorted((path.parent / ".history").glob(f"{path.stem}*")) if (
            path.parent / ".history").is_dir() else []
        if history:
            st.caption(f"{len(history)} earlier version(s) kept in {md_escape(path.parent / '.history')}")
    if save:
        before = qs
        try:
            knowledge.save_question_text(path, text)
        except knowledge.KnowledgeError as exc:
            st.error(md_escape(str(exc)))
            return
        with st.spinner("Retraining with the new rubric…"):
            try:
                after = _reopen(session, settings).questions[qs.id]
            except Exception as exc:
                st.error(md_escape(f"The rubric was saved, but retraining failed: {exc}"))
                return
        st.session_state["retrain_report"] = _retrain_report(qs.id, before, after, "saving the rubric")
        st.session_state.pop(src_key, None)
        st.rerun()
    show_retrain_report(qs.id, session.exam_id, settings)


def learn_view(session: ExamSession, store: ReviewStore, settings: AppSettings,
               decisions: dict[tuple[str, str], Decision]) -> None:
    train_workers()  # started now, ready when the marker retrains
    show_notice()
    qs = _pick_question(session, "learn_question")
    reviewed = reviewed_examples(qs.table, decisions, qs.id)
    st.subheader(f"Learn from the reviews of {md_escape(qs.id)}")
    a, b = st.columns(2)
    a.metric("Training answers now", qs.training_size or "—")
    b.metric("Reviewed answers of this exam", len(reviewed))
    if qs.training_extended:
        st.info("This model already learns from reviewed answers of this exam as well as from "
                "the marked answers.")
    if reviewed.empty:
        st.caption("Review some answers first: their decided marks can then be added to the "
                   "marked answers the model learns from.")
    else:
        st.dataframe(reviewed[["answer", "mark"]], hide_index=True, width="stretch", height=240)
        if st.button(f"Add the {len(reviewed)} reviewed answers to the training set and retrain",
                     type="primary", key="learn_retrain"):
            before = qs
            write_extended_training(settings, session, qs.id, decisions)
            with st.spinner("Retraining…"):
                try:
                    after = _reopen(session, settings).questions[qs.id]
                except Exception as exc:
                    forget_extended_training(settings, session, qs.id)
                    st.error(md_escape(f"Retraining failed, the model is unchanged: {exc}"))
                    return
            st.session_state["retrain_report"] = _retrain_report(qs.id, before, after,
                                                                 "learning from the reviews")
            st.rerun()
    if qs.training_extended and st.button("Go back to the original marked answers only",
                                          key="learn_forget"):
        forget_extended_training(settings, session, qs.id)
        st.session_state.pop("retrain_report", None)
        st.rerun()
    show_retrain_report(qs.id, session.exam_id, settings)
