"""Structured YAML rules: writing and reading give back the same rules; conditions parse."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.confold.rules import Literal, PredicateDefinition, Rule
from knowledge import KnowledgeError, rules_from_yaml, rules_to_yaml
from knowledge.yaml_rules import parse_condition, rules_from_dicts, rules_to_dicts

FEATURES = ["concept:gap", "non_answer", "colour", "Sex", "term:light bulb", "capital-gain", "p2"]
values = st.one_of(st.sampled_from(["present", "0.5", "light blue", "it's", 'say "hi"', "true", "?", "Ω", "-", ""]),
                   st.text(string.printable, max_size=6), st.integers(-10**6, 10**6), st.booleans(),
                   st.floats(allow_nan=False, allow_infinity=False))


@st.composite
def literals(draw):
    feature = draw(st.sampled_from(FEATURES))
    if draw(st.booleans()):
        return Literal(feature, draw(st.sampled_from(["==", "!="])), draw(values))
    return Literal(feature, draw(st.sampled_from(["<=", ">", "<", ">="])),
                   draw(st.floats(allow_nan=False, allow_infinity=False)))


def exceptions(depth):
    if depth == 0:
        return st.just([])
    return st.lists(st.builds(lambda b, e: Rule(None, tuple(b), e), st.lists(literals(), min_size=1, max_size=3),
                              exceptions(depth - 1)), max_size=2)


rules = st.builds(lambda h, b, e, c, f, o, n: Rule(h, tuple(b), e, c, f, o, n),
                  st.one_of(st.sampled_from(["0", "0.5", "1", "correct"]), st.integers(0, 3), st.floats(0, 1)),
                  st.lists(literals(), max_size=4), exceptions(2), st.one_of(st.none(), st.floats(0, 1)),
                  st.booleans(), st.sampled_from(["learned", "initial", "background"]),
                  st.one_of(st.none(), st.sampled_from(["r1", "open circuit"])))
definitions = st.builds(lambda n, b, e, d: PredicateDefinition(n, tuple(b), e, d), st.sampled_from(["p", "q_2"]),
                        st.lists(literals(), max_size=3), exceptions(1),
                        st.one_of(st.none(), st.sampled_from(["gives a plausible g", "is: 'x' # y"]),
                                  st.text(string.printable, max_size=200).map(lambda t: " ".join(t.split()))
                                  .filter(bool)))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(rules, definitions), max_size=6), st.sampled_from(["initial", "background"]))
def test_yaml_and_dict_round_trips(rule_list, origin):
    assert rules_from_yaml(rules_to_yaml(rule_list, origin), default_origin=origin) == rule_list
    assert rules_from_dicts(rules_to_dicts(rule_list, origin), default_origin=origin) == rule_list


@pytest.mark.parametrize("text, literal", [
    ("concept:gap == present", Literal("concept:gap", "==", "present")),
    ("coverage > 0.5", Literal("coverage", ">", 0.5)),
    ("0.5<coverage", None),
    ("value:acceleration >= -9", Literal("value:acceleration", ">=", -9.0)),
    ("not plausible_g", Literal("plausible_g", "!=", True)),
    ("plausible_g", Literal("plausible_g", "==", True)),
    ("not concept:gap == present", Literal("concept:gap", "!=", "present")),
    ('term:light bulb != "dim light"', Literal("term:light bulb", "!=", "dim light")),
    ("colour == 'light blue'", Literal("colour", "==", "light blue")),
    ("flag == true", Literal("flag", "==", True)),
    ("n == 3", Literal("n", "==", 3)),
])
def test_conditions(text, literal):
    if literal is None:
        with pytest.raises(ValueError):
            parse_condition(text)
    else:
        assert parse_condition(text) == literal


@pytest.mark.parametrize("text, message", [
    ("coverage > high", "coverage > needs a number"),
    ("not coverage > 0.5", "'not' before an order comparison"),
    ("coverage =< 0.5", "malformed condition"),
    ("coverage >> 0.5", "malformed condition"),
    ('colour == "unclosed', "malformed quoted value"),
    ("concept:gap ==", "malformed condition"),
])
def test_bad_conditions(text, message):
    with pytest.raises(ValueError, match=message):
        parse_condition(text)


def test_rules_from_yaml_reports_all_problems():
    text = "- mark: '1'\n  if: [coverage > x, 'a b c']\n  unles: []\n- {if: []}\n- [1]\n"
    with pytest.raises(KnowledgeError) as info:
        rules_from_yaml(text)
    messages = [p.message for p in info.value.problems]
    assert sorted(messages) == sorted(["coverage > needs a number, got 'x'", "malformed condition 'a b c'",
                                       "unknown key 'unles', did you mean 'unless'?",
                                       "missing key 'mark' (the label the rule gives)",
                                       "a rule must be a mapping or an ASP string, not list"])
