"""The stop advice in the app (`grader.app.stop_view`): the Spot checks view's checks vouch for
the marks left to the machine, per question and pooled over the questions in view (issue 29)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from grader.app.spot_check import check_results
from grader.app.stop_view import POOLED, advice_lines, spot_sample, stop_advices


def _table(questions=("lens", "lever"), n=60, confidence=0.97) -> pd.DataFrame:
    rows = []
    for q in questions:
        for i in range(n):
            rows.append({"question_id": q, "answer_id": f"s{i}", "answer": f"answer {i} of {q}",
                         "proposed": "1" if i % 3 else "0", "confidence": confidence, "needs_human": False,
                         "reviewed": False, "mark": "1" if i % 3 else "0", "by_check": False})
    return pd.DataFrame(rows)


def _check(table: pd.DataFrame, sample: pd.DataFrame, wrong: int = 0) -> None:
    """The marker checks every sampled answer (decisions taken as checks): the first `wrong` get
    another mark."""
    for k, i in enumerate(sample.index):
        table.loc[i, ["reviewed", "by_check"]] = True
        if k < wrong:
            table.loc[i, "mark"] = "0" if table.loc[i, "proposed"] == "1" else "1"


def test_without_checks_each_question_and_the_pool_ask_for_random_checks():
    table = _table()
    sample = spot_sample(table, 0.5, 20)
    advices = dict(stop_advices(table, 0.5, sample, check_results(table.loc[sample.index], set()), 0.95))
    assert list(advices) == ["lens", "lever", POOLED]
    assert {a.action for a in advices.values()} == {"check"}
    assert advices[POOLED].more_checks < advices["lens"].more_checks + advices["lever"].more_checks


def test_checks_all_right_let_the_marker_stop_on_the_pool_with_the_answers_left_and_an_interval():
    table = _table()
    sample = spot_sample(table, 0.5, 50)
    _check(table, sample)
    advices = dict(stop_advices(table, 0.5, sample, check_results(table.loc[sample.index], set()), 0.9))
    pooled = advices[POOLED]
    assert pooled.action == "stop"
    assert pooled.left == len(table) - len(sample)
    assert pooled.checked == len(sample) and pooled.wrong == 0
    assert pooled.low < pooled.estimate <= pooled.high <= 1
    lines = advice_lines(table, 0.5, set(), 0.9, size=50)
    assert lines[-1][0] == "stop"
    assert lines[-1][1].startswith(f"{POOLED}: you can stop marking: the {pooled.left} answers left to the machine")
    assert "flagged answers left" not in lines[-1][1]
    # a flagged answer nobody decided: the promise counts it as the teacher's, and says so
    extra = table.iloc[[0]].assign(answer_id="s-new", answer="a new answer", confidence=0.2, reviewed=False)
    lines = advice_lines(pd.concat([table, extra], ignore_index=True), 0.5, set(), 0.9, size=50)
    assert lines[-1][0] == "stop" and lines[-1][1].endswith("(once you decide the 1 flagged answers left in the Review queue)")


def test_too_many_wrong_checks_say_mark_more_and_an_answer_sent_to_the_queue_counts_as_wrong():
    table = _table(questions=("lens",))
    sample = spot_sample(table, 0.5, 20)
    _check(table, sample, wrong=6)
    [(label, advice)] = stop_advices(table, 0.5, sample, check_results(table.loc[sample.index], set()), 0.95)
    assert (label, advice.action, advice.wrong) == ("lens", "mark", 6)
    fresh = _table(questions=("lens",))
    sent = {("lens", a) for a in sample["answer_id"][:3]}
    [(_, queued)] = stop_advices(fresh, 0.5, sample, check_results(fresh.loc[sample.index], sent), 0.95)
    assert (queued.checked, queued.wrong) == (3, 3)


def test_flagged_answers_are_not_left_to_the_machine_and_the_checks_are_drawn_among_its_marks():
    table = _table(questions=("lens",))
    table.loc[:9, "reviewed"] = True  # decided in the review queue
    table.loc[10:19, "confidence"] = 0.2  # flagged at 0.5
    sample = spot_sample(table, 0.5, 20)
    _check(table, sample)
    [(_, advice)] = stop_advices(table, 0.5, sample, check_results(table.loc[sample.index], set()), 0.8)
    # the answers decided outside the checks are the marker's: never drawn, not the machine's
    assert advice.left + advice.checked + advice.below == 40
    assert advice.class_size == 60  # the target is on the class's final marks
    assert np.isin(sample.index, np.arange(0, 20)).sum() == 0  # never a flagged or decided answer


def test_the_review_start_and_spot_check_views_say_whether_the_marker_can_stop(app_env):
    import pytest

    pytest.importorskip("streamlit")
    from tests.app.test_app import _plain, _start, _view

    at = _start()
    for view in ("Review", "Spot checks", "Start"):
        if view != "Review":
            _view(at, view)
        assert any(m.value.startswith("**Can I stop marking?** (target: 95%") for m in at.markdown), view
        said = [_plain(i.value) for i in at.info] + [_plain(s.value) for s in at.success]
        for question in ("open_circuit_bulb", "resistor_current", "vertical_throw", POOLED):
            assert any(s.startswith(f"{question}: {advice}")
                       for advice in ("check ", "mark more", "you can stop", "decide the ")
                       for s in said), (view, question, said)
    # flagging to a target accuracy: the stop advice vouches for that target
    at.sidebar.radio(key="flag_by").set_value("to a target accuracy").run()
    at.sidebar.slider(key="target_accuracy").set_value(0.9).run()
    assert not at.exception, at.exception
    assert any(m.value.startswith("**Can I stop marking?** (target: 90%") for m in at.markdown)
