"""similarity:MARK features: closeness to the training answers of each mark."""

from __future__ import annotations

import pytest

from features import FeatureExtractor
from features.similarity import Exemplars, mark_suffix, polarity_keys
from knowledge.schema import Question


def test_containment_per_mark_and_polarity_counts():
    ex = Exemplars.fit([frozenset({"gap", "terminal"}), frozenset({"battery", "dead"}),
                        frozenset({"gap~not"})], ["good", "bad", "bad"])
    assert ex.marks == ["bad", "good"]
    sims = ex.similarity([frozenset({"gap", "terminal", "battery"}), frozenset({"gap~not"}),
                          frozenset()])
    # {gap, terminal, battery} says all of the good answer, half of {battery, dead}
    assert sims[0].tolist() == pytest.approx([1 / 2, 1.0])
    # "not gap" is not "gap": nothing in common with the good answer
    assert sims[1].tolist() == pytest.approx([1.0, 0.0])
    assert sims[2].tolist() == [0.0, 0.0]


def test_leave_one_out_ignores_the_answer_itself_but_not_its_twins():
    keys = [frozenset({"gap"}), frozenset({"gap"}), frozenset({"open", "switch"}), frozenset({"dead"})]
    marks = ["good", "good", "good", "bad"]
    ex = Exemplars.fit(keys, marks)
    own = list(zip(marks, keys))
    loo = ex.similarity(keys, own)
    assert loo[0, 1] == 1.0  # its twin is another training answer
    assert loo[2, 1] == 0.0  # alone: compared with "gap" only
    assert loo[3, 0] == 0.0  # the only bad answer: no other bad answer to compare with
    assert ex.similarity(keys)[3, 0] == 1.0  # without leave-one-out it would see itself


def test_mark_suffix_is_an_identifier():
    assert [mark_suffix(m) for m in ("correct", "0.5", 1, "Partially correct")] == [
        "correct", "mark_0_5", "mark_1", "partially_correct"]
    assert polarity_keys({"gap": False, "close": True}) == {"gap", "close~not"}


def test_extractor_columns_fit_transform_and_saved_model():
    q = Question("circuit", "Why does the bulb not light?", ("There is a gap in the circuit",))
    answers = ["there is a gap in the circuit", "a gap between the wires", "the battery is dead",
               "the bulb is broken", "there is no gap", "dead battery"]
    marks = ["1", "1", "0", "0", "0", "0"]
    fx = FeatureExtractor(q, n_terms=5)
    X = fx.fit_transform(answers, marks)
    assert {"similarity:mark_0", "similarity:mark_1"} <= set(X.columns)
    assert X["similarity:mark_1"].dtype == float
    # row 0 left out of its own comparison: closest mark-1 answer is row 1
    assert X.loc[0, "similarity:mark_1"] < 1.0
    new = fx.transform(["there is a gap in the circuit"])
    assert new.loc[0, "similarity:mark_1"] == 1.0
    again = FeatureExtractor.from_dict(fx.to_dict(), q).transform(answers)
    assert again.equals(fx.transform(answers))
    assert "similarity:mark_1" not in FeatureExtractor(q, similarity=False).fit_transform(answers, marks)


def test_chunks_give_the_same_result_and_exemplars_are_capped(monkeypatch):
    import features.similarity as sim

    keys = [frozenset({f"w{i % 7}", f"v{i % 3}"}) for i in range(50)]
    marks = ["a" if i % 2 else "b" for i in range(50)]
    ex = Exemplars.fit(keys, marks)
    whole = ex.similarity(keys, list(zip(marks, keys)))
    monkeypatch.setattr(sim, "CHUNK", 8)
    assert (ex.similarity(keys, list(zip(marks, keys))) == whole).all()
    monkeypatch.setattr(sim, "MAX_EXEMPLARS_PER_MARK", 2)
    many = [frozenset({"x"})] * 3 + [frozenset({"y"})] * 2 + [frozenset({"z"})] + [frozenset({"q"})]
    capped = Exemplars.fit(many, ["a"] * 6 + ["b"])
    assert [(capped.marks[m], k, n) for m, k, n in zip(capped.mark_of, capped.keys, capped.count)] == [
        ("a", ["x"], 3), ("a", ["y"], 2), ("b", ["q"], 1)]


def test_an_answer_that_turns_a_contrast_round_is_not_like_an_answer_that_makes_it():
    # "wood conducts heat better" shares every word with "metal conducts heat better than
    # wood" but says its comparison the other way round: it was 0.8 like it
    ex = Exemplars.fit([frozenset({"metal", "conduct", "heat", "better", "wood", "said:metal_better_than_wood"}),
                        frozenset({"wood", "slow"})], ["correct", "incorrect"])
    turned = frozenset({"wood", "conduct", "heat", "better", "metal", "said:metal_better_than_wood~not"})
    said = frozenset({"metal", "conduct", "heat", "better", "said:metal_better_than_wood"})
    sims = ex.similarity([turned, said])
    assert sims[0].tolist() == [0.0, 0.5] and sims[1, 0] == pytest.approx(5 / 6)


def test_a_contrast_turned_round_in_a_fitted_extractor():
    q = Question("spoons", "Why does the metal spoon get hot first?", ("Metal conducts heat better than wood.",))
    fx = FeatureExtractor(q).fit(["metal conducts heat better than wood", "wood is brown", "metal is better than wood",
                                  "it is brown"], ["correct", "incorrect", "correct", "incorrect"])
    X = fx.transform(["wood conducts heat better than metal"])
    assert X.iloc[0]["similarity:correct"] < 0.5
