"""ConFold(evidence=..., label_order=...): rules for a higher label rest on evidence."""

import numpy as np
import pandas as pd
import pytest

from grader import ConFold
from grader.confold.rules import Literal as L

EVIDENCE = {"concept:a": ["present"], "concept:b": ["present"], "sim": ">", "miss": []}
ORDER = ["0", "0.5", "1"]


def marks_table(seed=0, n=400):
    """Marks that a plain learner explains best by absences: 1 needs a and lacks b, 0.5 has a
    and b; a high similarity also gives 1; a misconception column correlates with 0."""
    rng = np.random.default_rng(seed)
    a = rng.choice(["present", "absent", "negated"], n)
    b = rng.choice(["present", "absent"], n)
    sim = rng.random(n).round(3)
    y = np.where((a == "present") & (b == "absent"), "1", np.where(a == "present", "0.5", "0"))
    y = np.where((a != "absent") & (sim > 0.9), "1", y)
    miss = np.where((y == "0") & (rng.random(n) < 0.7), "present", "absent")
    X = pd.DataFrame({"concept:a": a, "concept:b": b, "sim": sim, "miss": miss})
    return X, pd.Series(y, name="mark")


def is_evidence(lit: L, categories: dict) -> bool:
    """Independent statement of the rule: `== v` with v evidence, never `!= v`, a threshold
    in the evidence direction."""
    spec = EVIDENCE.get(lit.feature)
    if spec is None:
        return True
    if isinstance(spec, str):
        return lit.op == spec
    if lit.op == "==":
        return lit.value in spec
    return False


def bad_literals(rule, categories, must_be_evidence=True):
    """Literals at even depth (body, exceptions of exceptions) that are not evidence."""
    bad = [l for l in rule.body if must_be_evidence and not is_evidence(l, categories)]
    for exc in rule.exceptions:
        bad += bad_literals(exc, categories, not must_be_evidence)
    return bad


def categories_of(X):
    return {c: sorted(set(X[c])) for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rules_for_higher_marks_rest_on_evidence(seed):
    X, y = marks_table(seed)
    plain = ConFold(improvement_threshold=0.05, confidence_threshold=0.5).fit(X, y)
    cats = categories_of(X)
    # Without the option the learner does rest higher marks on what an answer lacks ...
    assert any(bad_literals(r, cats) for r in plain.rules_ if r.head != "0")
    model = ConFold(improvement_threshold=0.05, confidence_threshold=0.5, evidence=EVIDENCE,
                    label_order=ORDER).fit(X, y)
    # ... with it, no rule for 0.5 or 1 does, and the marks are still learned.
    assert {r.head for r in model.rules_} >= {"0.5", "1"}
    for rule in model.rules_:
        if rule.head != "0":
            assert bad_literals(rule, cats) == [], str(rule)
    assert np.mean(model.predict(X) == y.to_numpy()) > 0.9


def test_lowest_mark_and_exceptions_may_use_absence():
    X, y = marks_table(0)
    model = ConFold(evidence=EVIDENCE, label_order=ORDER).fit(X, y)
    literals = [l for r in model.rules_ for l in r.body if r.head == "0"]
    literals += [l for r in model.rules_ if r.head != "0" for e in r.exceptions for l in e.body]
    assert any(not is_evidence(l, categories_of(X)) for l in literals)


def test_threshold_direction():
    X, y = marks_table(3)
    model = ConFold(evidence=EVIDENCE, label_order=ORDER).fit(X, y)
    sims = [l for r in model.rules_ if r.head != "0" for l in r.body if l.feature == "sim"]
    assert sims and all(l.op == ">" for l in sims)
    flipped = ConFold(evidence=dict(EVIDENCE, sim="<="), label_order=ORDER).fit(X, y)
    assert all(l.op == "<=" for r in flipped.rules_ if r.head != "0" for l in r.body if l.feature == "sim")


def test_label_order_decides_which_label_is_free():
    X, y = marks_table(0)
    # With "1" as the lowest, rules for "0" must rest on evidence: a misconception is none.
    model = ConFold(evidence=EVIDENCE, label_order=["1", "0.5", "0"]).fit(X, y)
    for rule in model.rules_:
        if rule.head == "0":
            assert all(l.feature != "miss" for l in rule.body), str(rule)


def test_an_empty_group_first_says_no_label_is_lowest():
    X, y = marks_table(0)
    # labels in no known order: every label's rules rest on evidence, "0" (the first class) too
    model = ConFold(evidence=EVIDENCE, label_order=[(), *ORDER]).fit(X, y)
    cats = categories_of(X)
    assert any(r.head == "0" for r in model.rules_)
    for rule in model.rules_:
        assert bad_literals(rule, cats) == [], str(rule)
    free = ConFold(evidence=EVIDENCE, label_order=ORDER).fit(X, y)
    assert any(bad_literals(r, cats) for r in free.rules_ if r.head == "0")


def test_a_higher_mark_names_the_value_the_answer_has_never_a_value_it_lacks():
    X = pd.DataFrame({"concept:a": ["present", "absent"] * 20})
    y = pd.Series(np.where(X["concept:a"] == "present", "1", "0"), name="mark")
    model = ConFold(evidence={"concept:a": ["absent"]}, label_order=["1", "0"]).fit(X, y)
    # "0" is the higher label here: its rule says `== absent`, not `!= present`, which would
    # also give it to an answer with a value the marked answers never had ("negated")
    rules = [r for r in model.rules_ if r.head == "0"]
    assert rules and all(l.op == "==" for r in rules for l in r.body)
    assert (model.predict(X) == y.to_numpy()).all()
    assert model.predict(pd.DataFrame({"concept:a": ["negated"]}))[0] != "0"


def test_a_phrase_said_or_denied_is_no_reason_for_a_higher_mark():
    # 1: the answer says a or denies it (either way), 0: it does not mention a
    rng = np.random.default_rng(0)
    a = rng.choice(["present", "negated", "absent"], 300)
    X = pd.DataFrame({"concept:a": a})
    y = pd.Series(np.where(a != "absent", "1", "0"), name="mark")
    model = ConFold(evidence={"concept:a": ["present", "negated"]}, label_order=["0", "1"]).fit(X, y)
    higher = [l for r in model.rules_ if r.head == "1" for l in r.body]
    assert higher and all(l.op == "==" and l.value in ("present", "negated") for l in higher)
    assert (model.predict(X) == y.to_numpy()).all()


def test_no_evidence_at_all_leaves_higher_marks_to_other_rules():
    X, y = marks_table(0)
    model = ConFold(evidence={c: [] for c in ("concept:a", "concept:b", "miss")} | {"sim": []},
                    label_order=ORDER).fit(X, y)
    assert all(r.head == "0" for r in model.rules_)


def test_default_is_unchanged():
    X, y = marks_table(0)
    a = ConFold(improvement_threshold=0.05).fit(X, y)
    b = ConFold(improvement_threshold=0.05, evidence=None, label_order=ORDER).fit(X, y)
    assert [str(r) for r in a.rules_] == [str(r) for r in b.rules_]


@pytest.mark.parametrize("params, message", [
    ({"evidence": {"sim": "<"}}, "direction must be '>' or '<='"),
    ({"evidence": {"nope": ["present"]}}, "does not have: nope"),
    ({"evidence": ["present"]}, "must be None or a mapping"),
    ({"evidence": {"concept:a": 3}}, "must be a list of values"),
    ({"evidence": EVIDENCE, "label_order": ["0", "1"]}, "lacks the label(s) '0.5'"),
    ({"evidence": EVIDENCE, "label_order": []}, "label_order is empty"),
])
def test_bad_evidence_is_a_clear_error(params, message):
    X, y = marks_table(0, n=60)
    with pytest.raises(ValueError) as err:
        ConFold(**params).fit(X, y)
    assert message in str(err.value)


def test_evidence_is_a_parameter():
    model = ConFold(evidence=EVIDENCE, label_order=ORDER)
    assert model.get_params()["evidence"] is EVIDENCE and model.get_params()["label_order"] == ORDER
    assert ConFold().set_params(label_order=["a", "b"]).label_order == ["a", "b"]


def test_a_group_of_lowest_labels_is_free():
    from grader.confold.estimator import _needs_evidence

    assert _needs_evidence(["0", "0.5", "1"], [("0", "0.5"), "1"]).tolist() == [False, False, True]
    assert _needs_evidence(["0", "0.5", "1"], None).tolist() == [False, True, True]
    X, y = marks_table(1)
    model = ConFold(evidence=EVIDENCE, label_order=[("0", "0.5"), "1"]).fit(X, y)
    cats = categories_of(X)
    assert all(bad_literals(r, cats) == [] for r in model.rules_ if r.head == "1")


def wrong_idea_table(seed=0, n=300):
    """Marks 0 (nothing right), "wrong" (states the wrong idea `miss`) and 1 (says a)."""
    rng = np.random.default_rng(seed)
    a = rng.choice(["present", "absent"], n)
    miss = rng.choice(["present", "absent"], n, p=[0.55, 0.45])  # the commonest mark is "wrong"
    y = np.where(miss == "present", "wrong", np.where(a == "present", "1", "0"))
    return pd.DataFrame({"concept:a": a, "miss": miss}), pd.Series(y, name="mark")


def test_a_label_with_evidence_of_its_own():
    X, y = wrong_idea_table()
    evidence = {"concept:a": ["present"], "miss": []}  # a wrong idea is no reason for credit
    order = ["0", "wrong", "1"]
    plain = ConFold(evidence=evidence, label_order=order).fit(X, y)
    model = ConFold(evidence=evidence, label_order=order,
                    label_evidence={"wrong": {"concept:a": ["present"], "miss": ["present"]}}).fit(X, y)

    def uses_the_wrong_idea(rules, head):
        return any(lit.feature == "miss" and lit.op == "==" and lit.value == "present"
                   for r in rules if r.head == head for lit in r.body)

    assert not uses_the_wrong_idea(plain.rules_, "wrong")  # without it, no rule may say why
    assert uses_the_wrong_idea(model.rules_, "wrong")
    assert not uses_the_wrong_idea(model.rules_, "1")
    # a rule for the label starts from its evidence; its other conditions may be anything
    own = {"concept:a": ["present"], "miss": ["present"]}
    assert all(r.body and r.body[0].op == "==" and r.body[0].value in own[r.body[0].feature]
               for r in model.rules_ if r.head == "wrong")
    assert (model.predict(X) == y).mean() > (plain.predict(X) == y).mean()
    assert model.get_params()["label_evidence"] == {"wrong": {"concept:a": ["present"], "miss": ["present"]}}
    with pytest.raises(ValueError, match="label_evidence needs evidence"):
        ConFold(label_evidence={"wrong": {"miss": ["present"]}}).fit(X, y)
    with pytest.raises(ValueError, match="does not have: nope"):
        ConFold(evidence=evidence, label_order=order, label_evidence={"wrong": {"nope": ["present"]}}).fit(X, y)
