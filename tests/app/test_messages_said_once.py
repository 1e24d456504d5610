"""Issue 32, defect 7: words said twice in the app's messages ("decided on answer answer
b3f3b4"; a refused exam file's path twice in "Cannot open ...")."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from grader.app.served_files import cannot_open_text, served_exam
from grader.app.settings import AppSettings
from knowledge.local_files import FileRefused


def _conflict_page() -> None:
    import streamlit as st

    from grader.app.review_store import Decision
    from grader.app.views_review import conflict_panel

    theirs = Decision(exam_id="e", question_id="q1", answer_id="sam@school.example", marker="Bo",
                      new_mark="1", old_mark=None, comment="", decided_at="2026-11-20T09:00:00+00:00",
                      version=3, base_version=0)
    st.session_state["conflict"] = {"theirs": theirs, "aid": "sam@school.example", "qid": "q1", "mark": "0"}
    conflict_panel(None, "e")


@pytest.mark.parametrize("anonymous", [True, False])
def test_a_conflict_names_the_answer_once(anonymous):
    at = AppTest.from_function(_conflict_page)
    at.session_state["anonymous"] = anonymous
    at.run()
    assert not at.exception, at.exception
    [warning] = [w.value for w in at.warning]
    assert "decided on answer answer" not in warning
    assert ("decided on answer " if anonymous else "decided on sam") in warning.replace("\\", "")


def test_a_refused_exam_file_is_named_once(tmp_path):
    (tmp_path / "served").mkdir()
    settings = AppSettings.from_env({"GRADER_WORKDIR": str(tmp_path / "work"),
                                     "GRADER_SERVE_DIR": str(tmp_path / "served")})
    outside = tmp_path / "exam.yaml"
    outside.write_text("name: x\n", encoding="utf-8")
    with pytest.raises(FileRefused) as refused:
        served_exam(outside, settings)
    said = cannot_open_text(outside, refused.value)
    assert said.count(str(outside)) == 1 and said.startswith(f"Cannot open {outside}: the app opens")
    assert cannot_open_text(Path("a.yaml"), ValueError("no answers")) == "Cannot open a.yaml: no answers"
