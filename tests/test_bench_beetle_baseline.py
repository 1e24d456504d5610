"""The decision-tree baseline of `bench beetle --baseline` (`grader.bench.beetle_baseline`) on
hand-made lemma sets, a small made-up question and a small made-up Beetle folder."""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd
import pytest

from grader.bench import beetle, beetle_baseline
from grader.bench.beetle import main, relabel
from grader.bench.beetle_baseline import (MISSING_SKLEARN, baseline_comparison, decision_tree_class,
                                          format_baseline, lemma_sets, overlap_features, tree_marks)
from tests.data import write_beetle_folder

#: "gap" is in every correct answer and in no incorrect one: the only column that splits them.
TRAIN = ["the bulb has a gap", "there is a gap in the bulb", "a gap broke the circuit", "the bulbs have gaps",
         "the bulb has a fuse", "the wire is broken", "the battery died", "a circuit is closed"]
TRAIN_MARKS = ["correct"] * 4 + ["incorrect"] * 4
#: The lower-case alphabetic lemmas of TRAIN (the blank pipeline's lookup table).
TRAIN_VOCABULARY = {"a", "battery", "be", "break", "bulb", "circuit", "close", "die", "fuse", "gap", "have",
                    "in", "the", "there", "wire"}
REFERENCE = ["the switch is open"]


def test_overlap_takes_each_fraction_s_maximum_over_the_reference_answers():
    answer = frozenset({"gap", "circuit", "bulb"})
    first, second = frozenset({"gap", "circuit", "terminal"}), frozenset({"bulb"})
    # first: 2 of its 3 lemmas said, 2 shared of 4 in all; second: 1 of 1, 1 shared of 3
    assert overlap_features(answer, [first]) == pytest.approx((2 / 3, 2 / 4))
    assert overlap_features(answer, [second]) == pytest.approx((1.0, 1 / 3))
    # the coverage comes from the second reference, the Jaccard from the first
    assert overlap_features(answer, [first, second]) == pytest.approx((1.0, 0.5))
    assert overlap_features(answer, [second, first]) == pytest.approx((1.0, 0.5))  # whatever the order
    assert overlap_features(frozenset({"lamp"}), [first, second]) == (0.0, 0.0)
    assert overlap_features(frozenset(), [frozenset()]) == (0.0, 0.0)  # nothing to divide by
    assert overlap_features(answer, []) == (0.0, 0.0)


def test_lemma_sets_keep_lower_case_alphabetic_lemmas_only():
    assert lemma_sets(["The Bulbs HAVE 2 gaps, V = 1.5 volts!"]) == [frozenset({"the", "bulb", "have", "gap", "v",
                                                                                "volt"})]


def test_the_tree_learns_the_deciding_word_and_only_the_training_vocabulary(monkeypatch):
    fitted = []

    class RecordingTree(decision_tree_class()):
        def fit(self, X, y):
            fitted.append(np.asarray(X))
            return super().fit(X, y)

    monkeypatch.setattr(beetle_baseline, "decision_tree_class", lambda: RecordingTree)
    # "huge", "crack" and "everywhere" are only in the graded answers
    test = ["a huge gap in the wire", "the bulb has a crack", "gaps everywhere", "the wire died"]
    assert tree_marks(REFERENCE, TRAIN, TRAIN_MARKS, test) == ["correct", "incorrect", "correct", "incorrect"]
    (X,) = fitted
    assert X.shape == (len(TRAIN), len(TRAIN_VOCABULARY) + 2)  # a column per training lemma, 2 of overlap
    assert beetle_baseline.vocabulary_of(lemma_sets(TRAIN)) == sorted(TRAIN_VOCABULARY)
    # the two overlap columns: "the wire is broken" says "the" and "be" of {the, switch, be, open}
    assert X[5, -2:] == pytest.approx([2 / 4, 2 / 6])
    assert tree_marks(REFERENCE, TRAIN, TRAIN_MARKS, []) == []
    with pytest.raises(ValueError, match="8 training answers and 7 marks"):
        tree_marks(REFERENCE, TRAIN, TRAIN_MARKS[:-1], test)


def test_a_missing_scikit_learn_is_said_with_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn.tree now fails
    monkeypatch.setitem(sys.modules, "sklearn.tree", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install -e '\.\[bench\]'"):
        tree_marks(REFERENCE, TRAIN, TRAIN_MARKS, ["a gap"])
    # said before any model is trained (the folder is not even read)
    assert main(["--data", str(tmp_path / "nowhere"), "--baseline"]) == 2
    assert MISSING_SKLEARN in capsys.readouterr().err


def test_comparison_pools_answers_and_counts_questions_better_same_worse():
    rows = pd.DataFrame({"question_id": ["q1"] * 4 + ["q2"] * 2 + ["q3"] * 2,
                         "label_5way": ["correct", "correct", "irrelevant", "irrelevant", "correct", "irrelevant",
                                        "correct", "contradictory"]})
    rows["mark_2way"] = ["correct", "correct", "incorrect", None, "incorrect", "incorrect", "correct", "incorrect"]
    rows["tree_2way"] = ["correct", "incorrect", "correct", "correct", "correct", "incorrect", "correct",
                         "incorrect"]
    for scheme in ("5way", "3way"):  # both right everywhere
        rows[f"mark_{scheme}"] = rows["tree_" + scheme] = [relabel(y, scheme) for y in rows.label_5way]
    c = baseline_comparison(rows)["2way"]
    # model: q1 3/4 (the unmarked answer is wrong), q2 1/2, q3 2/2; tree: q1 1/4, q2 2/2, q3 2/2
    assert (c["own_accuracy"], c["tree_accuracy"]) == pytest.approx((6 / 8, 5 / 8))
    assert c["difference_points"] == pytest.approx(12.5)
    assert c["question_difference_points"] == pytest.approx({"min": -50.0, "median": 0.0, "max": 50.0})
    assert (c["questions_better"], c["questions_same"], c["questions_worse"]) == (1, 1, 1)
    for scheme in ("5way", "3way"):
        c = baseline_comparison(rows)[scheme]
        assert (c["own_accuracy"], c["tree_accuracy"], c["questions_same"]) == (1.0, 1.0, 3)
    text = format_baseline(baseline_comparison(rows))
    assert "0.750  0.625  +12.5 pts" in text and "1 / 1 / 1 (of 3)" in text


def test_cross_validation_trains_the_tree_on_each_fold_s_training_answers(monkeypatch):
    """`--cv`: the tree grades the same answers as the model, trained on the same fold."""
    model_train, tree_train = [], []

    def fake_model(question, train, test, scheme, params):
        model_train.append(sorted(train.answer))
        return ["correct"] * len(test), np.full(len(test), 0.9), float("nan")

    real_tree_columns = beetle_baseline.tree_columns

    def recording_tree_columns(references, train, test, nlp=None):
        tree_train.append(sorted(train.answer))
        return real_tree_columns(references, train, test, nlp)

    monkeypatch.setattr(beetle, "_train_and_grade", fake_model)
    monkeypatch.setattr(beetle_baseline, "tree_columns", recording_tree_columns)
    labels = ["correct"] * 4 + ["irrelevant"] * 4
    group = pd.DataFrame({"question_id": "Q1", "answer": TRAIN * 2, "label_5way": labels * 2, "split": "train"})
    record = {"question_id": "Q1", "question": "Why does the bulb not light?", "reference_answers": REFERENCE}
    rows = beetle.grade_question(record, group, cv=2, params={}, seed=0, baseline=True)
    assert sorted(rows.answer) == sorted(group.answer)  # every answer graded once
    assert len(tree_train) == 2 and tree_train == model_train[::3]  # one model per scheme, one tree call
    assert (rows.tree_2way == ["correct" if y == "correct" else "incorrect" for y in rows.label_5way]).all()
    assert (rows.tree_5way == rows.label_5way).all()
    assert "tree_2way" not in beetle.grade_question(record, group, cv=2, params={}).columns


@pytest.fixture()
def folder(tmp_path):
    return write_beetle_folder(tmp_path, [("there is a big gap", "correct"), ("dead battery", "irrelevant")])


def test_the_report_puts_the_tree_beside_the_model_only_when_asked(folder, capsys):
    out, predictions = folder / "figures.json", folder / "predictions.csv"
    assert main(["--data", str(folder), "--json", str(out), "--predictions", str(predictions), "--baseline"]) == 0
    printed = capsys.readouterr().out
    result = json.loads(out.read_text())
    assert set(result["baseline"]) == {"5way", "3way", "2way"}
    for scheme, c in result["baseline"].items():
        assert c["tree_accuracy"] == 1.0 and c["answers"] == 2 and c["questions"] == 1  # "gap" decides
        assert c["own_accuracy"] == pytest.approx(result["figures"][scheme]["own"]["accuracy"])
        assert c["difference_points"] == pytest.approx(100 * (c["own_accuracy"] - 1.0))
        counts = (c["questions_better"], c["questions_same"], c["questions_worse"])
        assert counts == ((0, 1, 0) if c["own_accuracy"] == 1.0 else (0, 0, 1))
        assert (f"  {scheme:7s} {c['own_accuracy']:6.3f}  1.000" in printed
                and f"{counts[0]} / {counts[1]} / {counts[2]} (of 1)" in printed)
    assert "decision-tree baseline" in printed and "better / same / worse" in printed
    assert pd.read_csv(predictions).tree_2way.tolist() == ["correct", "incorrect"]

    assert main(["--data", str(folder), "--json", str(out), "--predictions", str(predictions)]) == 0
    assert "decision-tree baseline" not in capsys.readouterr().out
    assert "baseline" not in json.loads(out.read_text())
    assert not any(c.startswith("tree_") for c in pd.read_csv(predictions).columns)


def test_no_baseline_in_the_rubric_bench(folder, capsys):
    assert main(["--data", str(folder), "--rubrics", str(folder), "--baseline"]) == 2
    assert "--baseline is not available with --rubrics" in capsys.readouterr().err
