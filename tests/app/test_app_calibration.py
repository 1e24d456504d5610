"""The app's confidences are probabilities once the question's background cross-validation
is done (issue 32): its raw pairs calibrate the model, the answers are graded again, and the
reliability plot measures the calibrated figure, nested, as `cross_validate(calibrated=True)`."""

from __future__ import annotations

import shutil
import time

import numpy as np
import pytest

pytest.importorskip("streamlit")

from grader import metrics  # noqa: E402
from grader.app.cross_validation import (NOT_CALIBRATED, cached_evaluation, calibrate_question,  # noqa: E402
                                         is_calibrated, threshold_for_target)
from grader.app.session import open_exam, prepare_sample  # noqa: E402
from grader.app.settings import AppSettings  # noqa: E402
from tests.app.test_app import _start  # noqa: E402
from tests.app.test_app_background import _cv_files, _wait_for_new  # noqa: E402


def test_the_cross_validation_calibrates_the_model_and_the_table_shows_probabilities(warm_workdir, tmp_path):
    workdir = tmp_path / "work"
    shutil.copytree(warm_workdir, workdir)
    settings = AppSettings.from_env({"GRADER_WORKDIR": str(workdir)})
    session = open_exam(prepare_sample(settings), settings)
    qs = next(iter(session.questions.values()))
    assert not is_calibrated(qs)  # opened: the raw confidence until the figures are attached
    before = qs.table["confidence"].to_numpy(float).copy()
    figures = cached_evaluation(qs, workdir / "models")
    assert calibrate_question(qs, figures)
    assert is_calibrated(qs)
    assert not calibrate_question(qs, figures)  # once
    after = qs.table["confidence"].to_numpy(float)
    marked = ~np.isnan(before)
    assert np.allclose(after[marked], qs.model.probability(before[marked]))
    assert not np.allclose(after[marked], before[marked])
    # the plot measures the probability each marked answer got from a model calibrated without it
    shown = np.asarray([np.nan if c is None else c for c in figures["probability"]], dtype=float)
    raw = np.asarray([np.nan if c is None else c for c in figures["calibration"]["confidence"]], dtype=float)
    correct = np.asarray(figures["calibration"]["correct"])
    assert not np.allclose(shown[~np.isnan(raw)], raw[~np.isnan(raw)])
    right = np.where(correct, "a", "b")
    expected = metrics.reliability_bins(right, np.full(len(right), "a", dtype=object), shown)
    assert [round(b["confidence"], 6) for b in figures["reliability"]] == [round(b["confidence"], 6) for b in expected]
    # flagging to a target accuracy chooses on that same figure
    choice = threshold_for_target([figures], 0.9)
    probabilities = {"calibration": {"confidence": figures["probability"], "correct": figures["calibration"]["correct"]}}
    assert choice.threshold == threshold_for_target([probabilities], 0.9).threshold


def _captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_the_review_card_says_the_figure_is_not_calibrated_until_the_cross_validation_is_done(app_env):
    workdir, _ = app_env
    for f in _cv_files(workdir, "vertical_throw"):
        f.unlink()
    at = _start()
    at.sidebar.selectbox(key="question").set_value("vertical_throw").run()
    assert not at.exception, at.exception
    assert NOT_CALIBRATED in _captions(at)
    _wait_for_new(workdir, "vertical_throw", set())
    time.sleep(0.5)
    at.run()
    assert not at.exception, at.exception
    assert NOT_CALIBRATED not in _captions(at)


def test_the_rubric_editor_is_not_redrawn_when_a_calibration_is_done(monkeypatch):
    """A calibration finishing in the background redrew the whole page, which took the focus
    from the rubric being typed: on that view the page does not look again for it (the next
    run picks it up); on the others it does."""
    from types import SimpleNamespace

    from grader.app import ui
    from grader.app.cross_validation import RUNNING

    class Running:
        def state(self, qs):
            return RUNNING, None

    watched = []
    monkeypatch.setattr(ui, "cross_validations", lambda settings: Running())
    monkeypatch.setattr(ui, "refresh_while_running", lambda settings, qss: watched.append(len(qss)))
    qs = SimpleNamespace(starter=False, model=SimpleNamespace(calibrated=False))
    monkeypatch.setattr(ui, "is_calibrated", lambda q: False)
    session = SimpleNamespace(questions={"q1": qs, "q2": qs})
    assert ui.calibrate_session(session, None, watch=False) == ["q1", "q2"]
    assert watched == []
    assert ui.calibrate_session(session, None) == ["q1", "q2"]
    assert watched == [2]
