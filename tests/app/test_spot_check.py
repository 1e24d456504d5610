"""Spot checks: the stratified sample, the estimate and the view (grader.app.spot_check)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from grader.app.spot_check import check_results, draw_sample, estimate, machine_marks, wilson_interval


def _table(n=200, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    proposed = rng.choice(["0", "0.5", "1"], n, p=[0.6, 0.1, 0.3]).astype(object)
    proposed[:5] = None
    return pd.DataFrame({"question_id": "q", "answer_id": [f"s{i:03d}" for i in range(n)],
                         "answer": [f"answer {i}" for i in range(n)], "proposed": proposed,
                         "confidence": np.where(proposed == None, np.nan, rng.uniform(0.3, 1, n)),  # noqa: E711
                         "mark": proposed, "reviewed": False})


def test_sample_is_automatic_stratified_and_repeatable():
    table = _table()
    sample = draw_sample(table, 0.7, 20, seed=3)
    pool = table[machine_marks(table, 0.7)]
    assert len(sample) == 20 and sample["answer_id"].is_unique
    assert set(sample["answer_id"]) <= set(pool["answer_id"])  # never a flagged or unmarked answer
    counts = sample["proposed"].value_counts()
    share = pool["proposed"].value_counts(normalize=True)
    assert set(counts.index) == set(share.index)  # every mark, the rare one too
    for mark, k in counts.items():
        assert abs(k - 20 * share[mark]) <= 1.0
    assert draw_sample(table, 0.7, 20, seed=3).equals(sample)
    assert not draw_sample(table, 0.7, 20, seed=4).equals(sample)
    assert len(draw_sample(table, 0.7, 10_000)) == len(pool)


def test_answers_decided_outside_the_checks_leave_the_sample_without_reshuffling_it():
    table = _table().assign(by_check=False)
    sample = draw_sample(table, 0.7, 20, seed=3)
    checked = sample.index[:5]
    table.loc[checked, ["reviewed", "by_check"]] = True  # five checks: still the machine's marks
    assert draw_sample(table, 0.7, 20, seed=3).index.equals(sample.index)
    decided = sample.index[10]
    table.loc[decided, "reviewed"] = True  # the marker decided one in a group: it is theirs
    again = draw_sample(table, 0.7, 20, seed=3)
    assert decided not in again.index and len(again) == 20
    assert set(checked) <= set(again.index)  # the checks done stay in the sample
    assert len(set(again.index) & set(sample.index)) >= 18


def test_results_and_estimate():
    table = _table()
    sample = draw_sample(table, 0.7, 10, seed=0).copy()
    results = check_results(sample, set())
    assert results.isna().all()
    assert math.isnan(estimate(sample, results, table, 0.7).accuracy)
    ids = list(zip(sample["question_id"], sample["answer_id"]))
    sample["reviewed"] = [True] * 6 + [False] * 4
    sample.loc[sample.index[5], "mark"] = "other"  # a decision that differs: wrong
    results = check_results(sample, {ids[6]})  # sent to the queue: wrong
    assert results.tolist() == [True] * 5 + [False, False, None, None, None]
    found = estimate(sample, results, table, 0.7)
    assert (found.checked, found.right) == (7, 5)
    assert found.low < found.accuracy < found.high
    assert "5 right of 7 checked" in found.message()


def test_wilson_interval_narrows_with_more_checks():
    lo10, hi10 = wilson_interval(0.9, 10)
    lo100, hi100 = wilson_interval(0.9, 100)
    assert lo10 < lo100 < 0.9 < hi100 < hi10
    assert wilson_interval(1.0, 20)[1] == pytest.approx(1.0)


def test_spot_check_view_updates_the_estimate_and_sends_wrong_ones_to_the_queue(app_env):
    from tests.app.test_app import _start, _view

    _, store = app_env
    at = _start()
    _view(at, "Spot checks")
    metric = lambda: next(m.value for m in at.metric if m.label == "Estimated accuracy of the automatic marks")  # noqa: E731
    assert metric() == "not checked yet"
    rights = [b for b in at.button if (b.key or "").startswith("spot_right|")]
    assert len(rights) == 20
    rights[0].click().run()
    assert not at.exception, at.exception
    assert metric() == "100%" and any("1 right of 1 checked" in t.value for t in at.text)
    wrong = next(b for b in at.button if (b.key or "").startswith("spot_wrong|"))
    qid = wrong.key.split("|")[1]  # the key holds the question, not the student's id
    wrong.click().run()
    assert not at.exception, at.exception
    assert metric() != "100%" and any("1 right of 2 checked" in t.value for t in at.text)
    # the right one is a saved decision with the proposed mark; the wrong one waits in the queue
    from grader.app.ui import answer_key

    exam_id = next(iter(store.exams()))[0]
    [right] = store.current(exam_id).values()
    assert right.comment == "spot check: right" and right.scope == "check"  # a check, not the marker's own
    assert rights[0].key == answer_key("spot_right", exam_id, right.question_id, right.answer_id)
    # the notice names the answer as the page shows it (anonymous marking is on by default)
    shown = re.search(r"answer [0-9a-f]{6}", next(i.value for i in at.info if "review queue" in i.value))[0]
    _view(at, "Review")
    options = at.selectbox(key="review_pick").options
    assert any(shown in o and qid in o for o in options)
    # deciding it there completes the check: its decision is taken as a check too
    from tests.app.test_app import _button

    at.selectbox(key="review_pick").select_index(options.index(next(o for o in options if shown in o
                                                                    and qid in o))).run()
    q, a = at.selectbox(key="review_pick").value
    radio = at.radio(key=answer_key("mark", exam_id, q, a))
    radio.set_value("0" if radio.value != "0" else "1")  # every sample question has marks 0 and 1
    _button(at, "Save the chosen mark").click().run()
    assert not at.exception, at.exception
    decided = store.current(exam_id)[(q, a)]
    assert decided.scope == "check" and decided.marker
