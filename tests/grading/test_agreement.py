"""Agreement of resampled models (grader.grading.agreement) and how the grading model uses it."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from grader import ConFold
from grader.grading.agreement import READER_WEIGHT, ResampledAgreement
from grader.confold.model_file import ModelFileError
from grader.grading.marker_text import mark_words
from grader.grading.model import GradingModel
from grader.confold.rule_eval import apply_rules
from tests.data import marked_answers, small_question

NEW = ["there's a gap in the circuit so the current can't flow", "the battery is flat i think",
       "the gap stops the current", "a break", "no idea"]


@pytest.fixture(scope="module")
def model() -> GradingModel:
    answers, marks = marked_answers()
    # the wording support is tested in test_wording.py: here the confidence is rule x agreement
    return GradingModel.train(small_question(), answers, marks, n_resamples=12, wording_support=False)


def _noisy_table(n: int = 120, seed: int = 3) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.choice(["x", "y", "z"], n), "b": rng.integers(0, 10, n).astype(float)})
    clean = np.where((X.a == "x") | (X.b > 6), "1", "0")
    flip = rng.random(n) < 0.15
    y = pd.Series(np.where(flip, np.where(clean == "1", "0", "1"), clean), name="mark")
    return X, y


def test_agreement_is_the_share_of_resampled_rule_lists_giving_the_mark():
    X, y = _noisy_table()
    learner = ConFold(improvement_threshold=0.05, confidence_threshold=0.5).fit(X, y)
    resampled = ResampledAgreement(n_resamples=9, random_state=1).fit(learner, X, y)
    assert len(resampled.rule_lists_) == 9
    labels = learner.predict(X)
    got = resampled.agreement(learner, X, labels)
    # the same share computed the slow way: each rule list applied on its own to the raw table
    votes = np.array([[p == m and m is not None for p, m in zip(apply_rules(rules, X)[0], labels)]
                      for rules in resampled.rule_lists_])
    np.testing.assert_allclose(got, votes.mean(axis=0))
    assert (got < 1).any() and (got > 0).any()  # noisy marks: the resamples disagree somewhere
    assert (resampled.agreement(learner, X, [None] * len(X)) == 0).all()  # no mark: nothing agrees


def test_resamples_differ_from_the_full_model_and_are_reproducible():
    X, y = _noisy_table()
    learner = ConFold().fit(X, y)
    one = ResampledAgreement(n_resamples=6, random_state=5).fit(learner, X, y)
    two = ResampledAgreement(n_resamples=6, random_state=5).fit(learner, X, y)
    assert one.to_dict() == two.to_dict()
    other = ResampledAgreement(n_resamples=6, random_state=6).fit(learner, X, y)
    assert other.to_dict() != one.to_dict()
    assert any(rules != learner.rules_ for rules in one.rule_lists_)


def test_resamples_with_a_single_mark_are_skipped():
    # one answer of 30 has the other mark: many bootstrap resamples miss it entirely
    X = pd.DataFrame({"a": ["x"] * 29 + ["y"]})
    y = pd.Series(["1"] * 29 + ["0"], name="mark")
    learner = ConFold().fit(X, y)
    resampled = ResampledAgreement(n_resamples=20, random_state=0).fit(learner, X, y)
    assert 0 < len(resampled.rule_lists_) < 20
    assert np.isfinite(resampled.agreement(learner, X, learner.predict(X))).all()


def test_no_resamples_means_no_agreement_and_the_rules_confidence():
    answers, marks = marked_answers()
    plain = GradingModel.train(small_question(), answers, marks, n_resamples=0, wording_support=False)
    decisions = plain.decide(plain.features(NEW), NEW)
    confidence, agreement = decisions.confidence, decisions.agreement
    assert np.isnan(agreement).all()
    np.testing.assert_allclose(confidence, plain.learner.predict_with_confidence(plain.features(NEW))[1])
    assert not plain.grade(NEW)["explanation"].str.contains("resampled").any()
    assert plain.explain(NEW[0]).resamples is None


@pytest.mark.parametrize("bad", [-1, 2.5, "3"])
def test_bad_resample_counts_are_refused(bad):
    X, y = _noisy_table(30)
    with pytest.raises(ValueError, match="n_resamples"):
        ResampledAgreement(n_resamples=bad).fit(ConFold().fit(X, y), X, y)


def test_grade_confidence_is_the_share_of_rule_lists_giving_the_mark(model):
    graded = model.grade(NEW)
    X = model.features(NEW)
    main, _, index = model.learner.predict_rules(X)
    verdicts = model.agreement.verdicts(model.learner, X)
    n = len(model.agreement.rule_lists_)
    for i, row in graded.iterrows():
        if row["mark"] is None:
            assert np.isnan(row["confidence"])
            continue
        # the rule of succession over the model's list and its n resampled ones
        giving = (main[i] == row["mark"]) + sum(v[0][i] == row["mark"] for v in verdicts)
        assert row["confidence"] == pytest.approx((giving + 1) / (n + 1 + 2))
        agreeing = sum(v[0][i] == row["mark"] for v in verdicts)
        assert row["explanation"].endswith(f"; {agreeing} of {n} resampled models agree")


def test_model_files_before_the_list_confidence_keep_rule_confidence_times_agreement(model, tmp_path):
    data = json.loads(json.dumps(model.to_dict()))  # a copy: the model's params stay as they are
    del data["params"]["list_confidence"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    old = GradingModel.load(tmp_path / "old.json")
    X = model.features(NEW)
    _, rule_conf, _ = model.learner.predict_rules(X)
    share = model.agreement.agreement(model.learner, X, model.learner.predict(X))
    np.testing.assert_allclose(old.grade(NEW)["confidence"].to_numpy(float), rule_conf * share, equal_nan=True)


def test_list_share_is_the_rule_of_succession_over_all_rule_lists():
    from grader.grading.agreement import list_share

    main = np.array(["1", None, "0", "1"], dtype=object)
    verdicts = [(np.array(["1", "1", "1", None], dtype=object), None, None),
                (np.array(["1", "1", "0", None], dtype=object), None, None)]
    got = list_share(main, np.array(["1", "1", "0", None], dtype=object), verdicts)
    # row 0: 3 of 3 lists -> 4/5; row 1: 2 of 3 (the main model gives none) -> 3/5; row 2: 2 of 3;
    # row 3: no mark -> no figure
    np.testing.assert_allclose(got, [4 / 5, 3 / 5, 3 / 5, np.nan])
    assert np.isnan(list_share(main, main, [])).all()  # no resamples: no figure


def test_explanation_shows_the_agreement_and_the_overall_confidence(model):
    graded = model.grade(NEW)
    for i, answer in enumerate(NEW):
        explanation = model.explain(answer)
        if explanation.rule_index is None:
            assert explanation.overall_confidence is None and "resampled" not in explanation.text()
            continue
        assert explanation.resamples == len(model.agreement.rule_lists_)
        assert explanation.overall_confidence == pytest.approx(graded.loc[i, "confidence"])
        assert f"{explanation.agreeing} of {explanation.resamples} models learned from resamples" in explanation.text()
        assert explanation.to_dict()["agreeing"] == explanation.agreeing


def test_model_file_keeps_the_resamples(model, tmp_path):
    model.save(tmp_path / "m.json")
    loaded = GradingModel.load(tmp_path / "m.json")
    assert loaded.agreement.to_dict() == model.agreement.to_dict()
    pd.testing.assert_frame_equal(loaded.grade(NEW), model.grade(NEW))


def test_version_1_model_files_still_grade_with_the_rules_confidence(model, tmp_path):
    data = model.to_dict()
    del data["agreement"]
    data["format_version"] = 1
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    old = GradingModel.load(tmp_path / "old.json")
    assert old.agreement is None
    X = model.features(NEW)
    np.testing.assert_allclose(old.grade(NEW)["confidence"].to_numpy(float),
                               model.learner.predict_with_confidence(X)[1], equal_nan=True)


@pytest.mark.parametrize("damage,message", [
    (lambda a: a.update(rule_lists="nope"), "model.agreement.rule_lists: should be a list, found text"),
    (lambda a: a["rule_lists"][0].append({"head": "1"}), r"rule_lists\[0\]\[\d+\] is missing the key 'body'"),
    (lambda a: a["rule_lists"][0].append({"head": "1", "body": [{"feature": "concept:nothing", "op": "==",
                                                                 "value": "present"}], "exceptions": []}),
     "concept:nothing, which the model does not have"),
])
def test_damaged_resamples_are_a_model_file_error(model, tmp_path, damage, message):
    data = model.to_dict()
    damage(data["agreement"])
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match=message):
        GradingModel.load(tmp_path / "m.json")


def test_majority_vote_takes_the_mark_most_rule_lists_give_and_keeps_the_main_mark_on_a_tie():
    from grader.grading.agreement import majority_vote

    nan = float("nan")
    main = np.array(["1", "1", None, "0"], dtype=object)
    verdicts = [(np.array(["0", "0", "1", None], dtype=object), np.array([0.7, 0.7, 0.6, nan]), np.array([2, 2, 0, -1])),
                (np.array(["0", "1", "1", None], dtype=object), np.array([0.8, 0.9, 0.5, nan]), np.array([1, 0, 3, -1])),
                (np.array(["0", None, None, "1"], dtype=object), np.array([0.9, nan, nan, 0.9]), np.array([4, -1, -1, 0]))]
    marks, confidence, borrowed = majority_vote(main, np.array([0.6, 0.6, nan, 0.8]), verdicts)
    # row 0: three lists say 0 against the main model's 1: the first of them justifies it
    # row 1: 1 (main and one resample) against 0 (one): kept; row 2: no rule of the main model
    # applies, two resamples give 1: it gets 1 from the first of them; row 3: 0 (main) against
    # 1 (one resample): a tie keeps the main model's mark
    assert marks.tolist() == ["0", "1", "1", "0"]
    assert borrowed.tolist() == [(0, 2), None, (0, 0), None]
    np.testing.assert_allclose(confidence, [0.7, 0.6, 0.6, 0.8])
    # as before 2026-11-23: what the main model's rules leave stays unmarked (for a human)
    marks, confidence, borrowed = majority_vote(main, np.array([0.6, 0.6, nan, 0.8]), verdicts, unmarked=False)
    assert marks.tolist() == ["0", "1", None, "0"] and borrowed.tolist() == [(0, 2), None, None, None]
    # an answer no list marks stays unmarked; no mark anywhere is no error
    none = np.array([None, None], dtype=object)
    marks, _, borrowed = majority_vote(none, np.array([nan, nan]), [(none, np.array([nan, nan]), np.array([-1, -1]))])
    assert marks.tolist() == [None, None] and borrowed.tolist() == [None, None]


def test_a_mark_the_vote_changes_is_justified_by_the_resampled_rule(model, tmp_path):
    import dataclasses

    model.save(tmp_path / "m.json")
    voting = GradingModel.load(tmp_path / "m.json")  # a copy whose resamples can be changed
    assert voting.params["vote"] is True  # on by default in new models
    flipped = [dataclasses.replace(r, head="0" if r.head == "1" else "1") for r in voting.learner.rules_]
    voting.agreement.rule_lists_ = [flipped] * 3  # three lists that say the opposite of the model
    main = model.learner.predict(model.features(NEW))
    graded = voting.grade(NEW)
    for i, answer in enumerate(NEW):
        if main[i] is None:
            continue
        assert graded.loc[i, "mark"] != main[i]
        assert graded.loc[i, "rule"].startswith("resample 1: ")
        assert graded.loc[i, "explanation"].startswith(f"{mark_words(graded.loc[i, 'mark'])} by a rule learned from "
                                                       f"resample 1")
        assert "3 of 3 resampled models agree" in graded.loc[i, "explanation"]
        explanation = voting.explain(answer)
        assert explanation.label == graded.loc[i, "mark"]
        assert "a rule learned from resample 1 of the marked answers" in explanation.text()
        assert explanation.overall_confidence == pytest.approx(graded.loc[i, "confidence"])
    # a model file written before the vote keeps the model's own marks
    data = voting.to_dict()
    del data["params"]["vote"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    old = GradingModel.load(tmp_path / "old.json")
    old.agreement.rule_lists_ = [flipped] * 3
    assert old.grade(NEW)["mark"].tolist() == [None if m is None else m for m in main]


def test_the_vote_marks_what_the_models_own_rules_leave_with_a_low_confidence(model, tmp_path):
    from grader.confold.rules import Rule

    model.save(tmp_path / "m.json")
    voting = GradingModel.load(tmp_path / "m.json")
    answers = NEW + ["purple elephants dance"]
    voting.learner.rules_ = voting.learner.rules_[:1]  # the model's own rules: its first one only
    main = voting.learner.predict(voting.features(answers))
    left = [i for i, m in enumerate(main) if m is None]
    assert left  # some answers none of the model's own rules marks
    anything = Rule(head="0", body=(), confidence=0.6)  # a resampled list that marks every answer 0
    voting.agreement.rule_lists_ = [[anything], []]  # and one that marks nothing
    graded = voting.grade(answers)
    for i in left:
        assert graded.loc[i, "mark"] == "0"
        assert graded.loc[i, "rule"].startswith("resample 1: ")
        assert "none of the model's own rules does" in graded.loc[i, "explanation"]
        assert graded.loc[i, "confidence"] == pytest.approx((1 + 1) / (3 + 2))  # 1 of the 3 lists
        assert graded.loc[i, "flagged"] and not graded.loc[i, "needs_human"]
        assert voting.explain(answers[i]).label == "0"
    voting.params["vote_unmarked"] = False  # a model file written before: they stay for a human
    graded = voting.grade(answers)
    assert graded.loc[left, "mark"].isna().all() and graded.loc[left, "needs_human"].all()


def _lists(columns: list[list]) -> list:
    """Resampled verdicts from per-list mark columns (confidence 0.7, rule index = list number)."""
    return [(np.array(c, dtype=object), np.full(len(c), 0.7), np.full(len(c), k)) for k, c in enumerate(columns)]


def test_the_wording_decides_a_split_vote_but_never_brings_a_mark_no_list_gives():
    from grader.grading.agreement import WORDING_WEIGHT, majority_vote

    main = np.array(["0", "0", "0"], dtype=object)
    # row 0: 11 of the 21 lists give 0 (the main one among them), 10 give 1: split;
    # row 1: 19 give 0, 2 give 1: a large majority; row 2: all 21 give 0
    columns = [["0", "0", "0"]] * 10 + [["1", "0", "0"]] * 8 + [["1", "1", "0"]] * 2
    verdicts = _lists(columns)
    reads_like_1 = {"0": np.array([0.1, 0.0, 0.0]), "1": np.array([0.9, 1.0, 1.0]), "2": np.ones(3)}
    plain, _, _ = majority_vote(main, np.full(3, 0.8), verdicts)
    assert plain.tolist() == ["0", "0", "0"]
    marks, confidence, borrowed = majority_vote(main, np.full(3, 0.8), verdicts, wording=reads_like_1)
    # row 0: 1 wins (10/21 + 0.5 x 0.9 against 11.5/21 + 0.5 x 0.1), justified by the first
    # list giving it; row 1: the majority stands although the wording prefers 1; row 2: 1 and 2
    # read best but no list gives them
    assert WORDING_WEIGHT == 0.5
    assert marks.tolist() == ["1", "0", "0"]
    assert borrowed.tolist() == [(10, 10), None, None]
    assert confidence.tolist() == [0.7, 0.8, 0.8]
    # the wording of a mark the model's own rules leave unmarked picks among the lists that mark it
    none = np.array([None], dtype=object)
    marks, _, borrowed = majority_vote(none, np.array([float("nan")]), _lists([["0"], ["1"], [None]]),
                                       wording={"0": np.array([0.2]), "1": np.array([0.6])})
    assert marks.tolist() == ["1"] and borrowed.tolist() == [(1, 1)]


def test_the_grading_model_votes_with_the_wording_and_says_so(tmp_path):
    from grader.grading.agreement import majority_vote

    answers, marks = marked_answers()
    weighed = GradingModel.train(small_question(), answers, marks, n_resamples=12)
    assert weighed.params["vote_wording"] == READER_WEIGHT and weighed.voted_by_wording  # the reader of features
    X = weighed.features(NEW)
    labels, rule_conf, _ = weighed.learner.predict_rules(X)
    lists = weighed.agreement.rule_lists_
    verdicts = weighed.agreement.verdicts(weighed.learner, X)
    by_mark = weighed.wording.vote_scores(weighed.wording.scores(NEW, X))
    expected, _, _ = majority_vote(np.asarray(labels, dtype=object), rule_conf, verdicts, wording=by_mark,
                                   wording_weight=READER_WEIGHT)
    assert weighed.grade(NEW)["mark"].tolist() == expected.tolist()
    # a mark it chose from a resampled list says how it was chosen, in the row and in `explain`
    import dataclasses
    flipped = [dataclasses.replace(r, head="0" if r.head == "1" else "1") for r in weighed.learner.rules_]
    weighed.agreement.rule_lists_ = [flipped] * 3
    weighed.params["vote_wording"] = 0.5  # light enough for the lists to outvote the reader here
    graded = weighed.grade(NEW)
    chosen = [i for i in range(len(NEW)) if graded.loc[i, "rule"].startswith("resample 1: ")]
    assert chosen
    for i in chosen:
        assert "the wording of the answer favour most, taken together" in graded.loc[i, "explanation"]
        assert "the wording of the answer favour most, taken together" in weighed.explain(NEW[i]).text()
    # a model file written before 2026-11-24 (no vote_wording) keeps the plain vote
    data = json.loads(json.dumps(weighed.to_dict()))
    del data["params"]["vote_wording"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    old = GradingModel.load(tmp_path / "old.json")
    old.agreement.rule_lists_ = lists
    assert not old.voted_by_wording
    plain, _, _ = majority_vote(np.asarray(labels, dtype=object), rule_conf, verdicts)
    assert old.grade(NEW)["mark"].tolist() == plain.tolist()
    # without the wording support there is nothing to weigh
    assert "vote_wording" not in GradingModel.train(small_question(), answers, marks, n_resamples=2,
                                                    wording_support=False).params


def test_a_mark_the_wording_weighed_vote_chose_says_so():
    from grader.grading.marker_text import vote_phrase

    assert vote_phrase(True, False) == "the mark most of the models give"
    # weighed with the wording, the mark need not be most models': the words say both
    assert vote_phrase(True, True) == "the mark the models and the wording of the answer favour most, taken together"
    assert vote_phrase(False, True).endswith("(none of the model's own rules does)")
    assert "wording" not in vote_phrase(False, False)
