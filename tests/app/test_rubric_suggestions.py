"""The Rubric view's proposals from the marked answers: accept adds to the editor's text, reject hides."""

from __future__ import annotations

import csv

import pytest

from grader.app.rubric_suggestions import accept, key_of, proposal_table, proposals_for, shown
from tests.grading.test_rubric_proposals import LEVER_YAML, _marked


@pytest.fixture()
def files(tmp_path):
    question = tmp_path / "door.yaml"
    question.write_text(LEVER_YAML, encoding="utf-8")
    marked = tmp_path / "marked.csv"
    with marked.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("id", "answer", "mark"), *zip(*_marked())])
    return question, marked


def test_accepted_proposals_go_into_the_text_and_are_not_proposed_again(files):
    question, marked = files
    proposals = proposals_for(LEVER_YAML, question, marked)
    denied = next(p for p in proposals if "no torque" in p.phrases)
    text = accept(LEVER_YAML, denied)
    assert text.startswith(LEVER_YAML.split("concepts:")[0]) and "- " not in text.split("misconceptions:")[1][:5]
    again = proposals_for(text, question, marked)
    assert key_of(denied) not in {key_of(p) for p in again} and len(again) == len(proposals) - 1
    rejected = {key_of(again[0])}
    assert shown(again, rejected) == again[1:]
    table = proposal_table(again)
    assert list(table.columns) == ["kind", "name", "phrases", "why"] and len(table) == len(again)


def test_the_rubric_view_lists_proposals_and_accept_puts_one_in_the_editor(app_env):
    pytest.importorskip("streamlit")
    from tests.app.test_app import _open_rubric

    workdir, _ = app_env
    at, path, original = _open_rubric(workdir)
    assert not at.exception, at.exception
    accepts = [b for b in at.button if b.label == "Accept"]
    rejects = [b for b in at.button if b.label == "Reject"]
    assert accepts and len(accepts) == len(rejects)
    rejects[0].click().run()
    assert not at.exception, at.exception
    assert len([b for b in at.button if b.label == "Accept"]) == len(accepts) - 1  # hidden, text unchanged
    assert at.text_area(key="rubric|vertical_throw").value == original
    listed = [m.value for m in at.markdown if m.value.startswith(("**concept", "**misconception"))]
    assert len(listed) == len(accepts) - 1
    [b for b in at.button if b.label == "Accept"][0].click().run()
    assert not at.exception, at.exception
    text = at.text_area(key="rubric|vertical_throw").value
    assert text.startswith(original.split("concepts:")[0]) and text.count("# proposed: ") == 1
    now = [m.value for m in at.markdown if m.value.startswith(("**concept", "**misconception"))]
    assert listed[0] not in now  # accepted: in the text, not proposed again
    assert path.read_text(encoding="utf-8") == original  # nothing saved
