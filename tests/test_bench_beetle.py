"""The Beetle benchmark's arithmetic: scheme mapping and accuracy with a share flagged,
on small hand-made tables (the Beetle data itself is not part of the project)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from grader.bench.beetle import (figures, flagged_accuracy, format_reliability, main, relabel, reliability,
                                 scheme_figures)
from tests.data import write_beetle_folder


def test_relabel_schemes():
    five = ["correct", "partially_correct_incomplete", "contradictory", "irrelevant", "non_domain"]
    assert [relabel(y, "5way") for y in five] == five
    assert [relabel(y, "3way") for y in five] == ["correct", "incorrect", "contradictory",
                                                  "incorrect", "incorrect"]
    assert [relabel(y, "2way") for y in five] == ["correct"] + ["incorrect"] * 4
    with pytest.raises(ValueError, match="unknown scheme"):
        relabel("correct", "4way")


def test_flagged_accuracy_flags_the_least_confident_and_the_unmarked_first():
    truth = ["a", "a", "b", "b", "a", "b", "a", "b", "a", "a"]
    pred = ["a", "b", None, "b", "a", "a", "a", "b", "a", "a"]
    conf = [0.9, 0.3, np.nan, 0.8, 0.95, 0.4, 0.7, 0.6, 0.99, 0.85]
    # 7 of 10 right; unmarked row 2 counts as wrong
    assert scheme_figures(truth, pred, conf)["accuracy"] == pytest.approx(0.7)
    # 20% flagged: rows 2 (unmarked) and 1 (0.3) -> the 8 left are all right except row 5
    assert flagged_accuracy(truth, pred, conf, 0.2) == pytest.approx(7 / 8)
    # 30%: also row 5 (0.4) -> all 7 left are right
    assert flagged_accuracy(truth, pred, conf, 0.3) == pytest.approx(1.0)
    assert flagged_accuracy(truth, pred, conf, 0.0) == pytest.approx(0.7)
    assert math.isnan(flagged_accuracy(truth, pred, conf, 1.0))


def test_reliability_says_how_often_each_band_of_confidence_is_right():
    truth = ["a", "a", "b", "b", "a", "b", "a", "b"]
    pred = ["a", "b", None, "b", "a", "a", "a", "a"]
    conf = [0.95, 0.2, np.nan, 1.0, 0.9, 0.6, 0.75, 0.5]
    rows = reliability(truth, pred, conf)
    assert [(r["from"], r["to"], r["answers"]) for r in rows] == [(0.0, 0.5, 1), (0.5, 0.7, 2), (0.7, 0.9, 1),
                                                                  (0.9, 1.0, 3)]
    # 0-0.5: the 0.2 mark is wrong; 0.5-0.7: 0.6 and 0.5 both wrong; 0.7-0.9: 0.75 right;
    # 0.9-1 (closed): 0.95, 1.0 and 0.9 all right; the unmarked answer is in no band
    assert [r["right"] for r in rows] == [0.0, 0.0, 1.0, 1.0]
    assert [r["mean_confidence"] for r in rows] == pytest.approx([0.2, 0.55, 0.75, (0.95 + 1.0 + 0.9) / 3])
    empty = reliability(["a"], [None], [np.nan])
    assert all(r["answers"] == 0 and math.isnan(r["right"]) for r in empty)
    text = format_reliability({"2way": rows})
    assert "0.55 -> 0.00 (2)" in text and "0.95 -> 1.00 (3)" in text
    with pytest.raises(ValueError, match="2 labels, 1 predictions"):
        reliability(["a", "b"], ["a"], [0.5])


def test_flagged_accuracy_breaks_ties_by_position():
    truth, pred = ["a", "a", "a", "a"], ["b", "a", "a", "a"]
    assert flagged_accuracy(truth, pred, [0.5] * 4, 0.25) == pytest.approx(1.0)
    assert flagged_accuracy(truth[::-1], pred[::-1], [0.5] * 4, 0.25) == pytest.approx(2 / 3)


def test_scheme_figures_counts_unmarked_and_nan_marks_as_wrong():
    f = scheme_figures(["x", "y", "y", "x"], ["x", float("nan"), None, "y"], [0.9, np.nan, np.nan, 0.6])
    assert f["accuracy"] == pytest.approx(0.25) and f["unmarked"] == pytest.approx(0.5)
    assert f["answers"] == 4 and 0 <= f["macro_f1"] < 1


def test_figures_own_scheme_and_mapped_down():
    rows = pd.DataFrame({
        "label_5way": ["correct", "irrelevant", "contradictory", "partially_correct_incomplete"],
        "mark_5way": ["correct", "non_domain", "irrelevant", None],
        "confidence_5way": [0.9, 0.8, 0.7, np.nan],
        "mark_3way": ["correct", "incorrect", "contradictory", "incorrect"],
        "confidence_3way": [0.9, 0.8, 0.7, 0.6],
        "mark_2way": ["correct", "incorrect", "correct", "incorrect"],
        "confidence_2way": [0.9, 0.8, 0.7, 0.6],
    })
    out = figures(rows)
    assert out["5way"]["own"]["accuracy"] == pytest.approx(0.25)
    # mapped to 3-way: non_domain -> incorrect (right), irrelevant -> incorrect (wrong: truth
    # contradictory), unmarked stays unmarked
    assert out["3way"]["mapped"]["accuracy"] == pytest.approx(0.5)
    assert out["3way"]["mapped"]["unmarked"] == pytest.approx(0.25)
    assert out["3way"]["own"]["accuracy"] == pytest.approx(1.0)
    # 2-way mapped: correct, incorrect, incorrect (right: contradictory is incorrect), None
    assert out["2way"]["mapped"]["accuracy"] == pytest.approx(0.75)
    assert out["2way"]["own"]["accuracy"] == pytest.approx(0.75)


def test_end_to_end_on_a_small_made_up_folder(tmp_path, capsys):
    write_beetle_folder(tmp_path, [("there is a gap", "correct"), ("dead battery", "irrelevant")])
    out = tmp_path / "figures.json"
    assert main(["--data", str(tmp_path), "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["figures"]["2way"]["own"]["answers"] == 2
    assert result["figures"]["2way"]["own"]["accuracy"] == pytest.approx(1.0)
    printed = capsys.readouterr().out
    assert "acc@30%flag" in printed and "confidence against the share right" in printed
    # both test answers are marked right: every band holding one says 1.00 right
    bands = result["reliability"]["2way"]
    assert sum(b["answers"] for b in bands) == 2
    assert all(b["right"] == 1.0 for b in bands if b["answers"]) and all(b["right"] is None for b in bands
                                                                        if not b["answers"])
    assert main(["--data", str(tmp_path / "nowhere")]) == 2
    # flagged as grade --target-accuracy flags: 20 marked answers vouch for 0.5 (not for 0.99)
    for target, met in ((0.5, 1), (0.99, 0)):
        assert main(["--data", str(tmp_path), "--json", str(out), "--resamples", "3",
                     "--target-accuracy", str(target)]) == 0
        to_target = json.loads(out.read_text())["target_accuracy"]["2way"]
        assert to_target["questions_met"] == met and to_target["answers"] == 2
        assert to_target["flagged"] == (0.0 if met else 1.0)
        assert f"flagged to a target accuracy of {target:g}" in capsys.readouterr().out
    # the boosted rule ensembles through the same path (they take no resamples)
    assert main(["--data", str(tmp_path), "--json", str(out), "--learner", "boosted", "--resamples", "0"]) == 0
    result = json.loads(out.read_text())
    assert result["params"]["learner"] == "boosted"
    assert result["figures"]["2way"]["own"]["accuracy"] == pytest.approx(1.0)
    assert main(["--data", str(tmp_path), "--learner", "boosted"]) == 2  # 20 resamples by default: said
    assert "resamples" in capsys.readouterr().err


def test_marks_read_off_the_answers_as_for_a_question_file_without_marks(monkeypatch):
    """`--marks read` trains as a teacher whose question file lists no marks: no order, no
    no-credit marks; the default lists each scheme's marks, lowest first, and its other
    no-credit labels as the question file's `no_credit`."""
    from grader.bench import beetle
    from grader.grading.model import GradingModel
    from knowledge.schema import Question

    seen = []

    class Stop(Exception):
        pass

    def fake_train(question, answers, marks, **params):
        seen.append((question.marks, question.no_credit, params))
        raise Stop

    monkeypatch.setattr(GradingModel, "train", fake_train)
    train = pd.DataFrame({"answer": ["a", "b"], "label_5way": ["correct", "irrelevant"]})
    question = Question("Q1", "Why?", ("Because.",))
    for params in ({"marks_listed": False}, {}):
        with pytest.raises(Stop):
            beetle._train_and_grade(question, train, train, "3way", params)
    (read_marks, read_none, read_params), (listed_marks, listed_none, listed_params) = seen
    assert read_marks == () and read_none == () and "marks_listed" not in read_params
    assert listed_marks == beetle.MARK_ORDER["3way"] and listed_none == ("contradictory",)
    assert "lowest_marks" not in listed_params


def test_target_figures_flag_each_question_below_its_own_threshold():
    from grader.bench.beetle_confidence import target_figures

    truth = np.array(["a", "a", "b", "a", "b", "a"], dtype=object)
    marks = np.array(["a", "b", "b", None, "b", "a"], dtype=object)
    confidence = np.array([0.9, 0.8, 0.4, np.nan, 0.95, 0.5])
    question = np.array(["q1", "q1", "q1", "q2", "q2", "q3"], dtype=object)
    threshold = np.array([0.6, 0.6, 0.6, 0.9, 0.9, np.inf])  # q3 could not vouch for the target
    f = target_figures(truth, marks, confidence, threshold, question, target=0.9)
    # automatic: q1's 0.9 (right) and 0.8 (wrong), q2's 0.95 (right); the unmarked and q3 flagged
    assert f["flagged"] == pytest.approx(3 / 6) and f["auto_accuracy"] == pytest.approx(2 / 3)
    assert (f["questions_met"], f["questions"]) == (2, 3) and f["vouched"] == pytest.approx(5 / 6)
    assert f["questions_short"] == 1  # q1's marks left are right half the time, below 0.9
    assert f["flagged_by_question"][0] == pytest.approx(1 / 3, abs=1e-3) and f["flagged_by_question"][-1] == 1.0
    assert f["auto_accuracy_by_question"][0] == pytest.approx(0.5) and f["auto_accuracy_by_question"][-1] == 1.0
