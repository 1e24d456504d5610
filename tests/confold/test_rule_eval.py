"""The literal semantics of hand-written rules (apply_rules), as the notes define them."""

import numpy as np
import pandas as pd
import pytest

from grader.confold.rule_eval import apply_rules
from grader.confold.rules import Literal as L, PredicateDefinition, Rule


@pytest.fixture
def table():
    return pd.DataFrame({
        "value:g": ["9.8", "abc", None, "10.5", "3"],          # mixed: numbers and a category
        "concept:gap": ["present", "absent", "present", "?", "negated"],
        "length": [1.0, 2, np.nan, 4, 5],
    })


def test_ordered_rules_background_first_and_derived_predicates(table):
    background = [
        PredicateDefinition("correct_value", (L("value:g", ">=", 9.7), L("value:g", "<=", 9.9))),
        Rule("0", (L("concept:gap", "==", "?"),), confidence=0.9, origin="background"),
    ]
    rules = [
        Rule("2", (L("correct_value", "==", True), L("concept:gap", "==", "present")), confidence=0.8),
        Rule("1", (L("concept:gap", "!=", "absent"),), exceptions=[Rule(None, (L("length", ">", 4.5),))]),
        Rule("0", (L("value:g", "==", "abc"),)),
    ]
    labels, conf, index = apply_rules(rules, table, background)
    assert labels.tolist() == ["2", "0", "1", "0", None]
    assert index.tolist() == [1, 3, 2, 0, -1]
    assert conf[0] == 0.8 and conf[3] == 0.9
    assert np.isnan(conf[[1, 2, 4]]).all()


def test_mixed_column_semantics(table):
    # A number never equals a category and satisfies every `!=`; a category fails order tests.
    rules = [Rule("eq", (L("value:g", "==", "abc"),)), Rule("le", (L("value:g", "<=", 100),)),
             Rule("ne", (L("value:g", "!=", "abc"),))]
    labels, _, _ = apply_rules(rules, table)
    assert labels.tolist() == ["le", "eq", "ne", "le", "le"]


def test_missing_is_a_category_of_its_own(table):
    labels, _, _ = apply_rules([Rule("m", (L("length", "==", "?"),))], table)
    assert labels.tolist() == [None, None, "m", None, None]
    labels, _, _ = apply_rules([Rule("small", (L("length", "<=", 100),))], table)
    assert labels.tolist() == ["small", "small", None, "small", "small"]


def test_exception_to_exception(table):
    rule = Rule("1", (), exceptions=[Rule(None, (L("length", ">", 1.5),),
                                          exceptions=[Rule(None, (L("concept:gap", "==", "negated"),))])])
    labels, _, _ = apply_rules([rule], table)
    # rows 1 and 3 are abnormal; row 4 is abnormal but its exception rescues it; NaN length is not > 1.5
    assert labels.tolist() == ["1", None, "1", None, "1"]


def test_missing_column_is_named(table):
    with pytest.raises(ValueError, match="'concept:speed'"):
        apply_rules([Rule("1", (L("concept:speed", "==", "present"),))], table)


def test_predicate_cycle_and_clash_are_errors(table):
    cyc = [PredicateDefinition("a", (L("b", "==", True),)), PredicateDefinition("b", (L("a", "==", True),))]
    with pytest.raises(ValueError, match="cycle"):
        apply_rules([Rule("1", (L("a", "==", True),))], table, cyc)
    with pytest.raises(ValueError, match="name of a data column"):
        apply_rules([Rule("1", (L("length", "==", True),))], table,
                    [PredicateDefinition("length", (L("concept:gap", "==", "present"),))])


def test_predicates_are_or_of_their_definitions(table):
    bg = [PredicateDefinition("p", (L("concept:gap", "==", "absent"),)),
          PredicateDefinition("p", (L("length", ">=", 5),))]
    labels, _, _ = apply_rules([Rule("y", (L("p", "==", True),)), Rule("n", (L("p", "!=", True),))], table, bg)
    assert labels.tolist() == ["n", "y", "n", "n", "y"]


def test_readable_rule_text():
    rule = Rule("2", (L("concept:gap", "==", "present"),),
                exceptions=[Rule(None, (L("value:g", ">", 10),), exceptions=[Rule(None, (L("ok", "==", True),))])],
                confidence=0.93)
    assert str(rule) == "'2' if concept:gap == 'present' and not (value:g > 10 and not (ok == True)) [0.930]"
    assert str(Rule(1, ())) == "1 if always"
