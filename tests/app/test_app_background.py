"""The app through AppTest: the Marks view and the retrain report do not wait for a
cross-validation; it runs in the background and its figures are shown once it is done."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("streamlit")

from tests.app.test_app import _button, _open_rubric, _plain, _start, _view  # noqa: E402

WAIT = 600  # seconds a background cross-validation may take on a busy machine


def _cv_files(workdir: Path, question: str) -> set[Path]:
    return set((workdir / "models").glob(f"{question}-*.cv5.*.json"))


def _wait_for_new(workdir: Path, question: str, known: set[Path]) -> None:
    deadline = time.monotonic() + WAIT
    while not _cv_files(workdir, question) - known:
        assert time.monotonic() < deadline, "the background cross-validation did not finish"
        time.sleep(1)


def _figures_tables(at):
    return [df.value for df in at.dataframe if "calibration error" in df.value.columns]


def test_the_marks_view_opens_at_once_and_shows_the_figures_when_the_background_job_is_done(app_env):
    workdir, _ = app_env
    for f in _cv_files(workdir, "vertical_throw"):  # this model never cross-validated
        f.unlink()
    at = _start()
    at.sidebar.selectbox(key="question").set_value("vertical_throw").run()
    started = time.monotonic()
    _view(at, "Marks")
    opened = time.monotonic() - started
    assert any(_plain(i.value).startswith("Cross-validating vertical_throw in the background") for i in at.info)
    assert not _figures_tables(at)
    assert any("answers — select a row" in c.value for c in at.caption)  # the marks are shown
    _wait_for_new(workdir, "vertical_throw", set())
    at.run()
    assert not at.exception, at.exception
    [table] = _figures_tables(at)
    assert 0 <= table["accuracy"].iloc[0] <= 1
    assert not any("in the background" in _plain(i.value) for i in at.info)
    assert opened < 60, opened  # the view did not train five models first


def test_the_retrain_report_shows_the_new_marks_at_once_and_the_figures_when_ready(app_env):
    workdir, _ = app_env
    at, path, original = _open_rubric(workdir)
    known = _cv_files(workdir, "vertical_throw")
    at.text_area(key="rubric|vertical_throw").set_value(original + "\n# a marker's note\n").run()
    _button(at, "Save and retrain").click().run()
    assert not at.exception, at.exception
    [figures] = [df.value for df in at.dataframe if list(df.value.columns) == ["figure", "before", "after"]]
    figures = figures.set_index("figure")
    waiting = any(c.value.startswith("Cross-validating in the background") for c in at.caption)
    assert waiting == (figures.loc["accuracy", "after"] == "—")
    assert figures.loc["accuracy", "before"] != "—"
    assert figures.loc["marked answers", "after"] == figures.loc["marked answers", "before"]
    assert any(m.value == "**Proposed marks of this exam's answers**" for m in at.markdown)
    _wait_for_new(workdir, "vertical_throw", known)
    at.run()
    assert not at.exception, at.exception
    [figures] = [df.value for df in at.dataframe if list(df.value.columns) == ["figure", "before", "after"]]
    assert 0 <= float(figures.set_index("figure").loc["accuracy", "after"]) <= 1
    assert not any(c.value.startswith("Cross-validating in the background") for c in at.caption)
