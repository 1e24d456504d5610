"""Flagging to a target accuracy in the app (issue 13): the sidebar chooses the threshold from
the cross-validated marked answers and says what it expects."""

from __future__ import annotations

import math

from grader.app.cross_validation import threshold_for_target
from grader.grading.flag_threshold import choose_threshold
from tests.app.test_app import _metric, _start


def test_the_questions_in_view_are_pooled():
    a = {"calibration": {"confidence": [0.9, 0.8, None], "correct": [True, True, False]}}
    b = {"calibration": {"confidence": [0.95, 0.3], "correct": [True, False]}}
    pooled = threshold_for_target([a, b, {}], 0.5)
    assert pooled == choose_threshold([0.9, 0.8, math.nan, 0.95, 0.3], [True, True, False, True, False], 0.5)
    assert pooled.n == 5


def test_the_sidebar_flags_to_a_target_and_says_what_it_expects(app_env):
    at = _start()
    answers = int(_metric(at, "Answers"))
    at.sidebar.radio(key="flag_by").set_value("to a target accuracy").run()
    at.sidebar.slider(key="target_accuracy").set_value(0.80).run()
    assert not at.exception, at.exception
    said = " ".join(c.value for c in at.sidebar.caption)
    assert "Expected accuracy of automatic marks >= 80% (lower bound" in said.replace("\\", "")
    assert 0 < int(_metric(at, "Flagged")) < answers
    at.sidebar.slider(key="target_accuracy").set_value(0.99).run()  # more than ~200 answers a question can vouch for
    warned = " ".join(w.value for w in at.sidebar.warning).replace("\\", "")
    assert "cannot vouch for 99%" in warned and "every answer is flagged" in warned
    assert int(_metric(at, "Flagged")) == answers
