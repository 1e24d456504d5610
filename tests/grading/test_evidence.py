"""What the grading model tells the learner is evidence (grader.grading.evidence)."""

from __future__ import annotations

from grader.grading.evidence import feature_evidence
from grader.grading.model import GradingModel
from knowledge.schema import FeatureSpec
from tests.data import marked_answers, small_question


def _spec(name, kind="categorical"):
    return FeatureSpec(name, kind)


def test_feature_evidence():
    specs = [_spec("concept:gap"), _spec("ref:s_2"), _spec("term:earth"), _spec("quantity:g"),
             _spec("value:g", "numeric"), _spec("misconception:flat"), _spec("similarity:mark_0", "numeric"),
             _spec("similarity:mark_0_5", "numeric"), _spec("similarity:mark_1", "numeric"),
             _spec("coverage", "numeric"), _spec("length", "numeric"), _spec("non_answer"), _spec("odd")]
    ev = feature_evidence(specs, ("0", "0.5", "1"), ["plausible_g"])
    assert ev["concept:gap"] == ev["ref:s_2"] == ev["term:earth"] == ("present", "negated")
    assert ev["quantity:g"] == ("correct",)
    assert ev["value:g"] == ev["misconception:flat"] == ev["length"] == ev["non_answer"] == ev["odd"] == ()
    assert ev["similarity:mark_0"] == () and ev["similarity:mark_0_5"] == ev["similarity:mark_1"] == ">"
    assert ev["coverage"] == ">" and ev["plausible_g"] == (True,)
    grouped = feature_evidence(specs, ("0", "0.5", "1"), lowest=("0", "0.5"))
    assert grouped["similarity:mark_0_5"] == () and grouped["similarity:mark_1"] == ">"


def test_grading_rules_for_the_higher_mark_rest_on_what_the_answer_says():
    answers, marks = marked_answers()
    model = GradingModel.train(small_question(), answers, marks, n_resamples=0, wording_support=False)
    assert model.params["evidence_rules"] is True
    for rule in model.learner.rules_:
        if rule.head == "1":
            assert all(lit.op in ("==", "!=", ">") for lit in rule.body), str(rule)
            assert not any(lit.op == "==" and lit.value == "absent" for lit in rule.body), str(rule)
            assert not any(lit.op == "!=" and lit.value in ("present", "negated") for lit in rule.body)
    plain = GradingModel.train(small_question(), answers, marks, n_resamples=0, wording_support=False,
                               evidence_rules=False, lowest_marks=["0"])
    assert plain.params["evidence_rules"] is False and plain.learner.get_params()["evidence"] is None


def test_word_marks_in_no_known_order_are_learned_alike(recwarn):
    """Read off the answers, "correct" sorts before "incorrect": taking that as the order made
    every rule for "incorrect" wait for evidence while "correct" could rest on what an answer
    lacks (on Beetle, 3-way accuracy fell from 0.74 to 0.56 with a quarter left unmarked)."""
    answers, marks = marked_answers()
    words = ["correct" if m == "1" else "incorrect" for m in marks]
    model = GradingModel.train(small_question(marks=()), answers, words, n_resamples=0, wording_support=False)
    assert model.params["evidence_rules"] is False
    # alike: no mark is the lowest, and every mark's evidence is the same (the question's own
    # words left out, never said: `test_sensible_rules`)
    params = model.learner.get_params()
    assert params["label_order"] == [(), "correct", "incorrect"]
    assert params["evidence"] and set(params["evidence"].values()) == {("absent",)}
    said = [str(w.message) for w in recwarn.list]
    assert len(said) == 1 and "'correct', 'incorrect'" in said[0] and "marks:" in said[0]


def test_word_marks_in_order_keep_the_evidence_rules(recwarn):
    answers, marks = marked_answers()
    words = ["correct" if m == "1" else "incorrect" for m in marks]
    listed = GradingModel.train(small_question(marks=("incorrect", "correct")), answers, words,
                                n_resamples=0, wording_support=False)
    assert listed.params["evidence_rules"] is True and listed.learner.get_params()["label_order"][0] == "incorrect"
    lowest = GradingModel.train(small_question(marks=()), answers, words, n_resamples=0, wording_support=False,
                                lowest_marks=["incorrect"])
    assert lowest.params["evidence_rules"] is True
    numbers = GradingModel.train(small_question(marks=()), answers, marks, n_resamples=0, wording_support=False)
    assert numbers.params["evidence_rules"] is True
    assert not recwarn.list


def test_numeric_marks_listed_highest_first_are_ordered_as_numbers():
    """A teacher who lists marks: ["1", "0"] means 0 as the lowest: the rules for 1 rest on what
    an answer says whatever order the numbers are listed in (1 was taken as the lowest)."""
    from grader.grading.model import GradingModel
    from tests.data import marked_answers, small_question

    assert small_question(("1", "0.5", "0")).marks == ("0", "0.5", "1")
    assert small_question(("10", "2", "0,5")).marks == ("0,5", "2", "10")
    assert small_question(("correct", "incorrect")).marks == ("correct", "incorrect")  # words: as listed
    answers, marks = marked_answers()
    listed = {}
    for order in (("0", "1"), ("1", "0")):
        model = GradingModel.train(small_question(order), answers, marks, n_resamples=0, wording_support=False)
        listed[order] = model.rules()
        assert model.question.marks == ("0", "1")
    assert listed[("1", "0")] == listed[("0", "1")]


def test_a_no_credit_mark_rests_on_what_the_answer_says_a_wrong_idea_included(tmp_path):
    """`no_credit:` says which marks besides the lowest give no credit. Their rules rest on what
    an answer says, as those of a mark with credit do, but for them a wrong idea stated (a
    misconception) is a reason, and so is reading like the answers given that mark; reading like
    the answers of a no-credit mark is never a reason for credit."""
    import dataclasses

    from grader.grading.sensible_rules import unsensible_rules

    answers, marks = marked_answers()
    words = ["correct" if m == "1" else "blank" if i % 3 == 0 else "incorrect" for i, m in enumerate(marks)]
    question = small_question(marks=("blank", "incorrect", "correct"))
    plain = GradingModel.train(question, answers, words, n_resamples=0, wording_support=False)
    assert "lowest_marks" not in plain.params
    assert plain.learner.get_params()["label_evidence"] is None
    told = GradingModel.train(dataclasses.replace(question, no_credit=("incorrect",)), answers, words,
                              n_resamples=0, wording_support=False)
    params = told.learner.get_params()
    assert params["label_order"] == ["blank", "incorrect", "correct"]  # the lowest is the first alone
    own = params["label_evidence"]["incorrect"]
    assert own["misconception:battery_flat"] == ("present",) and own["similarity:incorrect"] == ">"
    assert params["evidence"]["misconception:battery_flat"] == ()  # never a reason for credit
    assert params["evidence"]["similarity:incorrect"] == ()
    assert params["evidence"]["similarity:correct"] == ">"
    assert unsensible_rules(told, ["blank"]) == []  # every rule for incorrect or correct says why
    told.save(tmp_path / "m.json")  # the model file keeps the question's no-credit marks
    assert GradingModel.load(tmp_path / "m.json").question.no_credit == ("incorrect",)
    # an explicit lowest_marks (a group that may rest on what an answer lacks) still wins
    given = GradingModel.train(dataclasses.replace(question, no_credit=("incorrect",)), answers, words,
                               n_resamples=0, wording_support=False, lowest_marks=["blank", "incorrect"])
    assert given.params["lowest_marks"] == ["blank", "incorrect"]
    assert given.learner.get_params()["label_order"] == [("blank", "incorrect"), "correct"]
    assert given.learner.get_params()["label_evidence"] is None
