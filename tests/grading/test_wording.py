"""The wording model (features.text_model) and the wording support of a mark (grader.grading.wording)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from features.text_model import NgramScorer, answer_ngrams
from grader.confold.model_file import ModelFileError
from grader.grading.agreement import READER_WEIGHT
from grader.grading.model import GradingModel
from grader.grading.wording import WordingSupport, support_phrases
from tests.data import marked_answers, small_question

NEW = ["there's a gap in the circuit so the current can't flow", "the battery is flat i think",
       "the gap stops the current", "a break", "no idea"]


@pytest.fixture(scope="module")
def model() -> GradingModel:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks, n_resamples=8)


def test_ngrams_are_words_pairs_and_letter_sequences():
    grams = answer_ngrams("Gap, no current")
    assert {"w gap", "w no", "w current", "p gap no", "p no current", "c <ga", "c gap>", "c <gap"} <= grams
    assert not any(g.startswith("c ") and " " in g[2:] for g in grams)  # letters stay inside words


def test_scores_follow_the_marked_answers_and_survive_misspellings():
    answers, marks = marked_answers()
    scorer = NgramScorer.fit(answers, marks)
    good, bad = scorer.marks.index("1"), scorer.marks.index("0")
    scores = scorer.score(["there is a gapp in the circiut so no curent", "the batery is flatt"])
    assert scores[0, good] > 0.5 > scores[0, bad]
    assert scores[1, bad] > 0.5 > scores[1, good]
    assert ((scores >= 0) & (scores <= 1)).all()


def test_out_of_fold_scores_are_those_of_models_fitted_without_the_fold():
    answers, marks = marked_answers()
    answers, marks = answers[:40], marks[:40]
    scorer = NgramScorer.fit(answers, marks)
    oof = scorer.out_of_fold()
    fold = np.arange(len(answers)) % 5
    for k in (0, 3):
        # the slow way: a model fitted on the other folds' answers, with the full model's
        # vocabulary and idf (the fold is left out of the fit, not of the vocabulary)
        rest = [i for i in range(len(answers)) if fold[i] != k]
        X = scorer._rows([answer_ngrams(answers[i]) for i in range(len(answers))])
        Y = np.zeros((len(answers), len(scorer.marks)))
        Y[np.arange(len(answers)), [scorer.marks.index(m) for m in marks]] = 1
        K = X[rest] @ X[rest].T + 1.0
        dual = np.linalg.solve(K + np.eye(len(rest)), Y[rest])
        held = np.flatnonzero(fold == k)
        expected = np.round(np.clip((X[held] @ X[rest].T + 1.0) @ dual, 0, 1), 2)
        np.testing.assert_allclose(oof[held], expected, atol=0.011)


def test_grade_confidence_is_the_rule_lists_share_times_support(model):
    from grader.grading.agreement import list_share

    graded = model.grade(NEW)
    X = model.features(NEW)
    labels, _, index = model.learner.predict_rules(X)
    verdicts = model.agreement.verdicts(model.learner, X)
    assert graded["mark"].tolist() == [None if i < 0 else m for m, i in zip(labels, index)]  # no vote changes
    share = list_share(labels, np.where(index < 0, None, labels), verdicts)
    support, preferred = model.wording.judge(NEW, [None if i < 0 else m for m, i in zip(labels, index)], X=X)
    np.testing.assert_allclose(graded["confidence"].to_numpy(float), share * support, equal_nan=True)
    for i, row in graded.iterrows():
        if index[i] < 0:
            assert "worded" not in row["explanation"]
        elif support[i] == 1:
            assert row["explanation"].endswith(f"; answers worded like this one were marked {labels[i]} too")
        elif preferred[i] == labels[i]:
            assert row["explanation"].endswith(f"were not all marked {labels[i]} (wording support {support[i]:.2f})")
        else:
            assert row["explanation"].endswith(f"were more often marked {preferred[i]} (wording support {support[i]:.2f})")


def test_a_mark_the_wording_contradicts_is_less_sure_and_one_it_agrees_with_keeps_its_confidence():
    answers, marks = marked_answers()
    # "the battery is flat" reads like the answers marked 0: a rule marking it 1 gets little support
    wording = WordingSupport.fit(answers, marks)
    support, preferred = wording.judge(["the battery is flat"] * 2, ["1", "0"])
    assert support[0] < 0.5 and support[1] == 1.0 and preferred == ["0", "0"]
    assert np.isnan(wording.support(["the battery is flat"], [None])[0])
    assert np.isnan(wording.support(["the battery is flat"], ["2"])[0])  # a mark it was not fitted on
    phrases = support_phrases(np.array([0.2, 1.0, np.nan, 0.9]), ["1", "1", None, "1"], ["0", "1", None, "1"])
    assert phrases.tolist() == ["; but answers worded like this one were more often marked 0 (wording support 0.20)",
                                "; answers worded like this one were marked 1 too", "",
                                # the reader of features prefers the mark, the reader of words another:
                                # "were more often marked 1" of a mark 1 read as a contradiction
                                "; but answers worded like this one were not all marked 1 (wording support 0.90)"]


def test_explanation_overall_confidence_is_the_graded_confidence(model):
    graded = model.grade(NEW)
    for i, answer in enumerate(NEW):
        explanation = model.explain(answer)
        if explanation.rule_index is None:
            assert explanation.support is None and "worded" not in explanation.text()
            continue
        assert explanation.overall_confidence == pytest.approx(graded.loc[i, "confidence"])
        assert explanation.support_note in explanation.text()
        assert explanation.summary().endswith(explanation.support_note)
        assert graded.loc[i, "explanation"].endswith(explanation.support_note)


def test_model_file_keeps_the_wording_model(model, tmp_path):
    model.save(tmp_path / "m.json")
    loaded = GradingModel.load(tmp_path / "m.json")
    assert loaded.wording.to_dict() == model.wording.to_dict()
    np.testing.assert_array_equal(loaded.grade(NEW)["confidence"], model.grade(NEW)["confidence"])


def test_a_model_file_without_wording_grades_with_rule_and_agreement(model):
    data = json.loads(json.dumps(model.to_dict()))  # a copy: the model's params stay as they are
    del data["wording"]
    data["format_version"] = 2
    for later in ("list_confidence", "vote_unmarked", "vote"):  # options added after version 2
        data["params"].pop(later)
    older = GradingModel.from_dict(data)
    assert older.wording is None
    X = older.features(NEW)
    labels, rule_conf, _ = older.learner.predict_rules(X)
    share = older.agreement.agreement(older.learner, X, labels)
    np.testing.assert_allclose(older.grade(NEW)["confidence"].to_numpy(float), rule_conf * share, equal_nan=True)


@pytest.mark.parametrize("damage", [
    lambda w: w.update(weights=w["weights"][:-1]),
    lambda w: w.update(bias=[1.0]),
    lambda w: w.update(idf=["x"] * len(w["idf"])),
    lambda w: w.pop("vocabulary"),
])
def test_a_damaged_wording_model_is_a_model_file_error(model, damage):
    data = model.to_dict()
    damage(data["wording"])
    with pytest.raises(ModelFileError, match="damaged model file"):
        GradingModel.from_dict(data)


def test_wording_support_can_be_turned_off():
    answers, marks = marked_answers()
    plain = GradingModel.train(small_question(), answers, marks, n_resamples=0, wording_support=False)
    assert plain.wording is None and "wording" not in plain.to_dict()
    assert not plain.grade(NEW)["explanation"].str.contains("worded").any()


def test_feature_columns_standardise_numbers_and_spell_out_categories():
    import pandas as pd

    from grader.grading.wording import FeatureColumns
    from knowledge.schema import FeatureSpec

    X = pd.DataFrame({"coverage": [0.0, 0.5, 1.0, 0.5], "concept:gap": ["present", "absent", "negated", "absent"],
                      "same": ["absent"] * 4, "length": [3, 3, 3, 3]})
    specs = [FeatureSpec("coverage", "numeric"), FeatureSpec("concept:gap", "categorical", ("present", "negated", "absent")),
             FeatureSpec("same", "categorical", ("present", "absent")), FeatureSpec("length", "numeric")]
    columns = FeatureColumns.fit(X, specs)
    # the same value for every marked answer tells nothing: left out
    assert [(name, value) for name, value, _, _ in columns.columns] == [
        ("coverage", None), ("concept:gap", "present"), ("concept:gap", "negated"), ("concept:gap", "absent")]
    scale = columns.weight / 2.0  # four columns scaled together to unit length
    m = columns.matrix(X)
    np.testing.assert_allclose(m[:, 0], (X.coverage - 0.5) / X.coverage.std(ddof=0) * scale)
    np.testing.assert_allclose(m[:, 1:] / scale, [[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1]])
    again = FeatureColumns.from_dict(json.loads(json.dumps(columns.to_dict())))
    np.testing.assert_allclose(again.matrix(X), m)


def test_the_second_reader_reads_the_features_where_the_words_say_nothing():
    import pandas as pd

    from knowledge.schema import FeatureSpec

    texts = ["the same words"] * 20  # the words cannot tell the marks apart; a feature can
    marks = ["1"] * 10 + ["0"] * 10
    X = pd.DataFrame({"coverage": [0.9] * 10 + [0.1] * 10})
    specs = [FeatureSpec("coverage", "numeric")]
    plain = WordingSupport.fit(texts, marks)
    reading = WordingSupport.fit(texts, marks, X, specs)
    new = pd.DataFrame({"coverage": [0.9, 0.1]})
    assert plain.reader is None and plain.scores(texts[:2]).read is None
    words, read = reading.scores(texts[:2], new)
    np.testing.assert_allclose(words, plain.scores(texts[:2]).words)  # the same words' reader
    assert words[0].tolist() == words[1].tolist()
    column = {m: j for j, m in enumerate(reading.marks)}
    assert read[0, column["1"]] > read[0, column["0"]] and read[1, column["0"]] > read[1, column["1"]]
    assert reading.vote_scores(reading.scores(texts[:2], new))["1"].tolist() == read[:, column["1"]].tolist()
    # support: the product of both readers' (the words' reader is split evenly here)
    support, preferred = reading.judge(texts[:2], ["1", "1"], X=new)
    w = words[:, column["1"]] / words.max(axis=1)
    r = np.minimum(read[:, column["1"]] / read.max(axis=1), 1)
    np.testing.assert_allclose(support, np.round(np.minimum(w, 1) * r, 2))
    assert preferred == ["1", "0"]
    with pytest.raises(ValueError, match="features"):
        reading.scores(texts[:2])
    saved = WordingSupport.from_dict(json.loads(json.dumps(reading.to_dict())))
    np.testing.assert_allclose(saved.scores(texts[:2], new).read, read)


def test_a_grading_model_reads_the_features_and_a_crafted_column_is_refused(model, tmp_path):
    assert model.wording.reader is not None and model.wording.columns.columns
    assert model.params["vote_wording"] == READER_WEIGHT
    data = json.loads(json.dumps(model.to_dict()))
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    assert GradingModel.load(tmp_path / "m.json").grade(NEW).equals(model.grade(NEW))
    reader = data["wording"]["reader"]
    reader["feature_columns"]["columns"][0][0] = "concept:not_there"
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="not_there"):
        GradingModel.load(tmp_path / "bad.json")
    reader["feature_columns"]["columns"][0][0] = model.wording.columns.columns[0][0]
    for bad in ([0.0, 0.0], [0.0, float("inf")], ["x"]):  # a zero or infinite scale, a short entry
        crafted = json.loads(json.dumps(data))
        entry = crafted["wording"]["reader"]["feature_columns"]["columns"][0]
        entry[2:] = bad
        (tmp_path / "crafted.json").write_text(json.dumps(crafted), encoding="utf-8")
        with pytest.raises(ModelFileError):
            GradingModel.load(tmp_path / "crafted.json")
    reader["feature_columns"]["columns"] = reader["feature_columns"]["columns"][1:]
    (tmp_path / "short.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="columns, weights or marks differ"):
        GradingModel.load(tmp_path / "short.json")
    # a model file written before 2026-11-24 reads the words alone and votes without them
    del data["wording"]["reader"], data["params"]["vote_wording"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    old = GradingModel.load(tmp_path / "old.json")
    assert old.wording.reader is None and not old.voted_by_wording


def test_a_feature_the_same_but_for_rounding_is_left_out_and_the_model_saves_and_loads(tmp_path):
    # 4/9 computed two ways differs in its last bit: the spread (about 1e-17) was kept as a
    # scale, written rounded to 0, and the saved model could not be read back ("damaged
    # model file") after `grader train` had said it was written
    import pandas as pd

    from grader.grading.wording import FeatureColumns
    from knowledge.schema import FeatureSpec

    X = pd.DataFrame({"coverage": [4 / 9, 1 - 5 / 9] * 3, "length": [3, 4, 5, 3, 4, 5]})
    assert X.coverage.std() > 0
    specs = [FeatureSpec("coverage", "numeric"), FeatureSpec("length", "numeric")]
    columns = FeatureColumns.fit(X, specs)
    assert [name for name, _, _, _ in columns.columns] == ["length"]
    again = FeatureColumns.from_dict(json.loads(json.dumps(columns.to_dict())))
    np.testing.assert_allclose(again.matrix(X), columns.matrix(X))


def test_a_model_grades_alike_before_it_is_saved_and_after_it_is_loaded(tmp_path):
    # the model file keeps the wording model's numbers rounded; the model in memory kept them
    # whole, so `grader grade` with the saved model gave some answers another confidence
    # (0.2974 against 0.2817) than the model that had just been trained
    from pathlib import Path

    from knowledge import load_question
    from grader.exams.exam_io import read_marked_answers

    sample = Path(__file__).resolve().parents[2] / "sample_data" / "vertical_throw"
    question = load_question(sample / "question.yaml")
    marked = read_marked_answers(sample / "marked.csv", marks=question.marks)
    model = GradingModel.train(question, marked.answers, marked.marks)
    model.save(tmp_path / "m.json")
    loaded = GradingModel.load(tmp_path / "m.json")
    answers = ["well, a= -10 /ms^2 (up is positive).", "well, 9. 8m/s^2 because the ball is in free fall!!"]
    assert model.grade(answers)["confidence"].tolist() == loaded.grade(answers)["confidence"].tolist()
    for fresh, again in ((model.wording.scorer, loaded.wording.scorer), (model.wording.reader, loaded.wording.reader)):
        for name in ("idf", "weights", "bias", "extra_weights"):
            assert np.array_equal(getattr(fresh, name), getattr(again, name)), name
    assert model.wording.columns.columns == loaded.wording.columns.columns
