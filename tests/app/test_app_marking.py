"""Issue 15, items 7-12 through Streamlit's AppTest: where the marker looks (position,
previous, the marking scheme), anonymous marking, groups of alike answers, undo, the LMS
exports, local times."""

from __future__ import annotations

import csv
import re

import pytest

pytest.importorskip("streamlit")

from grader.app.settings import AppSettings  # noqa: E402
from tests.app.test_app import _button, _exam_id, _metric, _plain, _start, _view, view_radio  # noqa: E402
from grader.app.ui import answer_key  # noqa: E402


def _save_a_mark(at) -> None:
    """Choose the first mark on the card (the first answer may have no proposed mark) and save."""
    qid, aid = at.selectbox(key="review_pick").value
    radio = at.radio(key=answer_key("mark", _exam_id(), qid, aid))
    radio.set_value(radio.value or radio.options[0])
    _button(at, "Save the chosen mark").click().run()


def _texts(at) -> list[str]:
    return ([_plain(m.value).replace("**", "") for m in at.markdown] + [_plain(c.value) for c in at.caption]
            + [t.value for t in at.text])


def test_the_card_says_where_the_marker_is_and_goes_back_as_well_as_forward(app_env):
    at = _start()
    queue = int(_metric(at, "To review"))
    assert any(t.startswith(f"Answer 1 of {queue} in the queue, question by question · vertical_throw: ")
               and t.endswith(f" in the queue · 0 of {_metric(at, 'Flagged')} flagged answers decided")
               for t in _texts(at))
    first = at.selectbox(key="review_pick").value
    _button(at, "Next").click().run()
    assert any(t.startswith(f"Answer 2 of {queue}") for t in _texts(at))
    _button(at, "‹ Previous").click().run()
    assert at.selectbox(key="review_pick").value == first
    _button(at, "‹ Previous").click().run()  # before the first: the last of the queue
    assert any(t.startswith(f"Answer {queue} of {queue}") for t in _texts(at))


def test_the_card_shows_the_marking_scheme_and_the_reference_answers(app_env):
    at = _start()
    at.sidebar.selectbox(key="question").set_value("vertical_throw").run()
    scheme = next(t.value for t in at.text if t.value.startswith("Marks: "))
    assert scheme.startswith("Marks: 0, 0.5, 1")
    assert "Reference answers:" in scheme and "9.8 m/s^2 downwards" in scheme
    assert "says the acceleration points down" in scheme  # what the rubric looks for
    assert "the acceleration at the top: 9.8 m/s^2" in scheme


def test_anonymous_marking_hides_student_ids_in_the_marking_views_not_in_the_export(app_env):
    at = _start()
    qid, aid = at.selectbox(key="review_pick").value
    assert "@" in aid  # the sample's ids are e-mail addresses

    def shown(at) -> str:
        parts = _texts(at) + [s.format_func(s.value) for s in at.selectbox
                              if s.key in ("review_pick", "group_pick")]
        parts += [str(df.value.to_dict()) for df in at.dataframe]
        return "\n".join(parts)

    assert at.sidebar.toggle(key="anonymous").value is True  # on by default
    assert aid not in shown(at) and "students.example.org" not in shown(at)
    for view in ("Groups", "Marks", "Spot checks", "Start"):
        _view(at, view)
        assert "students.example.org" not in shown(at), view
    _view(at, "Export")
    assert any("students.example.org" in str(df.value.to_dict()) for df in at.dataframe)
    _view(at, "Review")
    at.sidebar.toggle(key="anonymous").set_value(False).run()
    assert aid in shown(at)


def test_undo_takes_back_the_markers_last_decision(app_env):
    _, store = app_env
    at = _start()
    assert _button(at, "↶ Undo my last").disabled
    before = int(_metric(at, "To review"))
    qid, aid = at.selectbox(key="review_pick").value
    _save_a_mark(at)
    assert int(_metric(at, "To review")) == before - 1
    _button(at, "↶ Undo my last").click().run()
    assert not at.exception, at.exception
    assert int(_metric(at, "To review")) == before and int(_metric(at, "Reviewed")) == 0
    assert at.selectbox(key="review_pick").value == (qid, aid)  # the card shows it again
    assert [d.scope for d in store.history(_exam_id(), qid, aid)] == ["answer", "undo"]


def test_markers_progress_counts_each_markers_decisions(app_env):
    _, store = app_env
    at = _start()
    qid, aid = at.selectbox(key="review_pick").value
    store.record(_exam_id(), qid, aid, marker="Other Marker", new_mark="0", base_version=0)
    _save_a_mark(at)  # a conflict: Other Marker was first, nothing of Tess's is saved
    at = _start()
    _save_a_mark(at)
    stats = next(df.value for df in at.dataframe if "overridden" in df.value.columns)
    assert sorted(stats["marker"]) == ["Other Marker", "Tess Marker"]
    assert stats.set_index("marker").loc["Tess Marker", "decided"] == 1


def _groups_by_name():
    """The Groups view with students shown by name, and its group picker."""
    at = _start()
    at.sidebar.toggle(key="anonymous").set_value(False).run()
    _view(at, "Groups")
    return at, at.selectbox(key="group_pick")


def test_groups_show_a_sample_and_size_and_counts_update_at_once(app_env):
    _, store = app_env
    at, pick = _groups_by_name()
    label = pick.format_func(pick.value)
    match = re.match(r"(\d+) answers · (\S+) · e\.g\. “(.+)” · proposed .+ · 0 decided$", label)
    assert match, label
    size = int(match.group(1))
    qid, gid = pick.value
    members = next(df.value for df in at.dataframe if "decided by" in df.value.columns)
    assert list(members.columns) == ["answer", "student", "proposed", "mark", "decided by"]
    assert len(members) == size
    # take one answer out (as the button does for the selected rows): the group is smaller
    store.edit_groups(_exam_id(), qid, [members["student"].iloc[0]], "out", marker="Tess Marker")
    at.run()
    kept = at.selectbox(key="group_pick")
    if size > 2:
        assert kept.value == (qid, gid)
        assert kept.format_func(kept.value).startswith(f"{size - 1} answers")
        size -= 1
    _button(at, f"Apply to all {size} answers").click().run()
    assert not at.exception, at.exception
    assert int(_metric(at, "Reviewed")) == size  # the counts at the top, in the same run
    kept = at.selectbox(key="group_pick")
    if kept.value == (qid, gid):
        assert kept.format_func(kept.value).endswith(f"{size} decided")
    assert len(store.history(_exam_id(), qid)) == size
    assert members["student"].iloc[0] not in {d.answer_id for d in store.history(_exam_id(), qid)}


def test_the_lms_exports_are_offered_and_saved(app_env):
    workdir, store = app_env
    at = _start()
    _view(at, "Export")
    at.radio(key="export_shape").set_value("moodle").run()
    assert any("Grades › Import › CSV file" in _plain(i.value) for i in at.info)
    _button(at, "Save in the working folder").click().run()
    assert not at.exception, at.exception
    [path] = (workdir / "exports").glob("*-moodle-*.csv")
    with path.open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["Email address", "vertical_throw", "open_circuit_bulb", "resistor_current",
                       "Year 11 Physics — Quiz 3 (sample) total"]
    assert len(rows) - 1 == len({r[0] for r in rows[1:]})  # one row per student
    at.radio(key="export_shape").set_value("canvas").run()
    frame = next(df.value for df in at.dataframe if "SIS Login ID" in df.value.columns)
    assert frame.iloc[0]["Student"] == "Points Possible"


def test_an_exam_that_cannot_be_opened_leaves_no_progress_bar_and_the_sidebar_usable(app_env, tmp_path):
    """Issue 15, item 3: a training file with a mark the question does not have stopped the
    opening halfway: the progress bar stayed and the sidebar lost its controls."""
    import shutil

    from grader.app.settings import REPO

    sample = REPO / "sample_data"
    shutil.copy(sample / "exam" / "responses.csv", tmp_path / "responses.csv")
    shutil.copy(sample / "vertical_throw" / "question.yaml", tmp_path / "question.yaml")
    marked = (sample / "vertical_throw" / "marked.csv").read_text(encoding="utf-8-sig")
    (tmp_path / "marked.csv").write_text(marked.replace(",0.5\n", ",2\n", 1), encoding="utf-8")
    assert "2" in (tmp_path / "marked.csv").read_text(encoding="utf-8")
    exam = tmp_path / "exam.yaml"
    exam.write_text("name: broken training\nanswers: responses.csv\nlayout: wide\n"
                    "id_column: Email address\nquestions:\n  - id: vertical_throw\n"
                    "    question: question.yaml\n    column: Response 1\n    training: marked.csv\n",
                    encoding="utf-8")
    at = _start()
    at.sidebar.radio(key="open_source").set_value("An exam file on this computer").run()
    at.sidebar.text_input(key="open_path").set_value(str(exam))
    _button(at, "Open").click().run()
    assert not at.exception, at.exception
    messages = [_plain(e.value) for e in at.error]
    assert any(str(tmp_path / "marked.csv") in m and "'2'" in m for m in messages), messages
    assert not at.get("progress")  # the bar is gone with the failed opening
    assert at.sidebar.text_input(key="marker").value == "Tess Marker"


def test_a_group_splits_into_answers_with_identical_features(app_env):
    _, store = app_env
    at = _start()
    _view(at, "Groups")
    pick = at.selectbox(key="group_pick")
    qid, gid = pick.value
    covered_first = int(pick.format_func(pick.value).split()[0])
    covered = sum(int(label.split()[0]) for label in pick.options)
    _button(at, "Split by what the rubric finds").click().run()
    assert not at.exception, at.exception
    assert len(store.group_edits(_exam_id())["split"]) == covered_first  # kept in the store
    after = at.selectbox(key="group_pick")
    assert after.value != (qid, gid)  # the group as a whole is gone
    # its answers are in groups of identical features (two or more), the others on their own
    assert sum(int(label.split()[0]) for label in after.options) <= covered
    assert _button(at, "Split by what the rubric finds").disabled == after.value[1].startswith(gid + "/")


def _sidebar_places(at) -> dict[str, int]:
    """Where each keyed widget of the sidebar stands among the sidebar's elements."""
    return {node.key: i for i, node in at.sidebar.children.items() if getattr(node, "key", None)}


def test_the_sidebars_widgets_keep_their_places_when_a_name_is_typed(app_env):
    """Typing a name adds a one-run script (the cookie) and a too-long name a message. Either,
    drawn as a new element, moved the widgets below it, and the browser then redrew the flag
    slider and the anonymous toggle with their own defaults (0 and off), which the next click
    sent back: the browser test of the keys failed that way under load."""
    at = _start()
    places = _sidebar_places(at)
    assert {"marker", "flag_below", "anonymous", view_radio(at).key} <= set(places)
    at.sidebar.text_input(key="marker").set_value("Kay").run()  # the run that writes the cookie
    assert _sidebar_places(at) == places
    at.run()
    assert _sidebar_places(at) == places
    at.sidebar.text_input(key="marker").set_value("N" * 81).run()
    assert any("A name has at most 80 characters" in e.value for e in at.sidebar.error)
    assert _sidebar_places(at) == places
    settings = AppSettings.from_env()
    assert (at.sidebar.slider(key="flag_below").value, at.sidebar.toggle(key="anonymous").value) \
        == (settings.flag_below, settings.anonymous)


def test_the_sidebars_widgets_start_from_the_settings_in_the_browser_too(
        app_env, monkeypatch):
    """What the browser draws a widget with, should it draw it again, is the widget's own
    default: it was 0 for the slider and off for the toggle (their values were put in
    session_state instead), and the browser test of the keys saw both after a J in 2 runs of 5."""
    monkeypatch.setenv("GRADER_FLAG_BELOW", "0.42")
    monkeypatch.setenv("GRADER_ANONYMOUS", "yes")
    at = _start()
    slider, toggle = at.sidebar.slider(key="flag_below"), at.sidebar.toggle(key="anonymous")
    assert (slider.value, toggle.value) == (0.42, True)
    assert (list(slider.proto.default), toggle.proto.default) == ([0.42], True)
    name, view = at.sidebar.text_input(key="marker"), view_radio(at)
    assert (name.value, name.proto.default) == ("Tess Marker", "Tess Marker")
    assert (view.value, view.options[view.proto.default]) == ("Review", "Review")
    at.sidebar.radio(key="flag_by").set_value("to a target accuracy").run()
    assert list(at.sidebar.slider(key="target_accuracy").proto.default) == [0.95]
    assert not at.exception, at.exception


def test_the_groups_to_decide_hold_one_proposed_mark_and_a_decided_group_goes_to_the_end(app_env):
    _, store = app_env
    at, pick = _groups_by_name()
    assert any("group(s) to decide" in _plain(c.value) for c in at.caption)
    labels = list(pick.options)  # AppTest gives the labels shown
    # each group: answers nobody decided, with one proposed mark (never "0, 1")
    assert all(re.search(r" · proposed [^,]+ · 0 decided$", label) for label in labels), labels
    first = pick.value
    label = pick.format_func(first)
    size = int(label.split()[0])
    _button(at, f"Apply to all {size} answers").click().run()
    assert not at.exception, at.exception
    assert len(store.history(_exam_id(), first[0])) == size
    after = at.selectbox(key="group_pick")
    # the group decided goes to the end; the list opens on one still to decide
    assert after.options[-1] == label.replace(" · 0 decided", f" · {size} decided")
    assert after.value != first and after.format_func(after.value).endswith(" · 0 decided")


def test_the_start_views_question_list_shows_the_ids_as_they_are(app_env):
    # a select box shows plain text: a Markdown escape showed "vertical\_throw"
    at = _start()
    _view(at, "Start")
    options = list(at.selectbox(key="start_question").options)
    assert "vertical_throw" in options and not any("\\" in o for o in options)
