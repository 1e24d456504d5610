"""User text (answer ids, marker names, marks, comments) appears literally in every element
that renders Markdown: no bold, links, code spans, HTML, math, emoji or colour directives;
and a name or comment over the limits is refused with a message."""

from __future__ import annotations

import csv
import io
import re
import string
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from grader.app.ui import md_escape
from tests.app.test_app import _button, _exam_id, _plain, _start
from grader.app.ui import answer_key  # noqa: E402

HOSTILE_ID = "mia\n\n**bold** [x](http://e) `tick` <b>tag</b> $x^2$ :smile: :red[red]"
HOSTILE_NAME = "**Boss** [click](http://evil.example)\n\n# Big :material/home: ~~s~~"


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("text", [HOSTILE_ID, HOSTILE_NAME, "1. item", "- item", "> quote", "    code",
                                  "| a | b |\n|---|---|", "a\\*b*", "***", "&amp; &lt;", "www.example.com",
                                  "line\r\nbreak\u2028sep"])
def test_escaped_text_renders_as_the_same_plain_text(text):
    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(md_escape(text))
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    children = tokens[1].children
    assert {c.type for c in children} <= {"text"}  # no strong, link, code, html, strikethrough
    shown = "".join(c.content for c in children).replace("\u2060", "")
    assert flat(shown) == flat(text)
    assert not re.search(r":[a-z_/]+[:\[]", md_escape(text))  # Streamlit's emoji, icons, colours


def _all_escaped(source: str) -> bool:
    """Every ASCII punctuation character of the Markdown source has its backslash, and every
    colon its word joiner (no emoji, icon or colour directive can start)."""
    i = 0
    while i < len(source):
        if source[i] == "\\" and i + 1 < len(source) and source[i + 1] in string.punctuation:
            if source[i + 1] == ":" and source[i + 2:i + 3] != "\u2060":
                return False
            i += 2
        elif source[i] in string.punctuation:
            return False
        else:
            i += 1
    return True


def _hostile_export(workdir: Path) -> str:
    """Give the first student of the sample export the hostile id; returns the id as read."""
    path = workdir / "sample_data" / "exam" / "responses.csv"
    text = path.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    rows[1][rows[0].index("Email address")] = HOSTILE_ID
    out = io.StringIO(newline="")
    csv.writer(out, quoting=csv.QUOTE_ALL).writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return HOSTILE_ID


def test_an_answer_id_with_a_blank_line_and_markdown_appears_literally(app_env):
    workdir, _ = app_env
    aid = _hostile_export(workdir)
    at = _start()
    at.sidebar.toggle(key="anonymous").set_value(False).run()  # ids shown: escaped
    at.toggle(key="review_all").set_value(True).run()
    at.selectbox(key="review_pick").set_value(("vertical_throw", aid.strip())).run()
    assert not at.exception, at.exception
    caption = next(c.value for c in at.caption if c.value.startswith("from "))
    assert "\n" not in caption
    assert _plain(caption) == "from " + flat(aid)
    assert _all_escaped(caption[len("from "):])


def test_a_marker_name_with_markdown_appears_literally_in_the_conflict_buttons(app_env):
    _, store = app_env
    at = _start()
    qid, aid = at.selectbox(key="review_pick").value
    store.record(_exam_id(), qid, aid, marker=HOSTILE_NAME, new_mark="1", base_version=0)
    at.radio(key=answer_key("mark", _exam_id(), qid, aid)).set_value("0")
    _button(at, "Save the chosen mark").click().run()
    assert not at.exception, at.exception
    warning = next(w.value for w in at.warning if "decided on answer" in w.value)
    assert _plain(warning).startswith(flat(HOSTILE_NAME) + " decided on answer")
    assert _all_escaped(warning[:warning.index(" decided")])
    label = next(b.label for b in at.button if b.label.startswith("Keep") and "my mark" not in b.label)
    assert _plain(label) == f"Keep {flat(HOSTILE_NAME)}'s mark (1)"
    assert _all_escaped(label[len("Keep "):label.rindex("'s mark")]) and "\n" not in label


def test_an_overlong_comment_or_name_is_refused_with_a_message(app_env):
    _, store = app_env
    at = _start()
    qid, aid = at.selectbox(key="review_pick").value
    at.radio(key=answer_key("mark", _exam_id(), qid, aid)).set_value("0")
    at.text_input(key=answer_key("comment", _exam_id(), qid, aid)).set_value("x" * 2001)
    _button(at, "Save the chosen mark").click().run()
    assert not at.exception, at.exception
    assert any("a comment has at most 2,000 characters" in _plain(e.value) for e in at.error)
    assert store.history(_exam_id()) == []
    at.sidebar.text_input(key="marker").set_value("N" * 81).run()
    assert any("A name has at most 80 characters" in e.value for e in at.sidebar.error)
