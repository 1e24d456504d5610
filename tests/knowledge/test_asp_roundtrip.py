"""knowledge.asp: writing rules as ASP and reading them back (both syntaxes), and errors."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.confold.rules import Literal, PredicateDefinition, Rule
from knowledge import KnowledgeError
from knowledge.asp import Program, parse_program, write_program

# -- strategies ----------------------------------------------------------------------------
CATEGORICAL = ["concept:gap", "non_answer", "color", "Sex", "term:light bulb", "misconception:x y",
               "ab1", "label_2", "answer", "feature:odd", "quantity:current"]
NUMERIC = ["coverage", "value:acceleration", "length", "capital-gain"]
TEXTS = ["present", "absent", "0.5", "1", "light bulb", "it's", 'say "hi"', "true", "?", "Ω",
         "back\\slash", "new\nline", "", "not", "x-y"]
PREDICATES = ["plausible_g", "circuit_open", "p2"]

values = st.one_of(st.sampled_from(TEXTS), st.text(string.printable, max_size=6),
                   st.integers(-10**6, 10**6), st.booleans(),
                   st.floats(allow_nan=False, allow_infinity=False))
thresholds = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-1000, 1000))
labels = st.one_of(st.sampled_from(["0", "0.5", "1", "correct", "partially correct"]),
                   st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False), st.booleans())


@st.composite
def literals(draw):
    kind = draw(st.sampled_from(["cat", "num", "pred"]))
    if kind == "cat":
        return Literal(draw(st.sampled_from(CATEGORICAL)), draw(st.sampled_from(["==", "!="])), draw(values))
    if kind == "num":
        return Literal(draw(st.sampled_from(NUMERIC)), draw(st.sampled_from(["<=", ">", "<", ">="])),
                       float(draw(thresholds)))
    return Literal(draw(st.sampled_from(PREDICATES)), draw(st.sampled_from(["==", "!="])), True)


def exceptions(depth):
    if depth == 0:
        return st.just([])
    return st.lists(st.builds(lambda body, exc: Rule(None, tuple(body), exc),
                              st.lists(literals(), max_size=3), exceptions(depth - 1)), max_size=2)


rules = st.builds(
    lambda head, body, exc, conf, fixed, origin, name: Rule(head, tuple(body), exc, conf, fixed, origin, name),
    labels, st.lists(literals(), max_size=4), exceptions(2),
    st.one_of(st.none(), st.floats(0, 1)), st.booleans(),
    st.sampled_from(["learned", "initial"]), st.one_of(st.none(), st.sampled_from(["r1", "open_circuit", "x-2"])))
background_rules = rules.map(lambda r: Rule(r.head, r.body, r.exceptions, r.confidence, r.fixed_confidence,
                                            "background", r.name))
#: descriptions as the readers keep them: one line, single spaces, at most 200 characters
descriptions = st.one_of(st.none(), st.sampled_from(["gives a plausible g", "says 'no' % or \"yes\": Ω"]),
                         st.text(string.printable, max_size=200).map(lambda t: " ".join(t.split())).filter(bool))
definitions = st.builds(lambda name, body, exc, desc: PredicateDefinition(name, tuple(body), exc, desc),
                        st.sampled_from(PREDICATES), st.lists(literals(), max_size=3), exceptions(1),
                        descriptions)


# -- round trips ---------------------------------------------------------------------------
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(rules, max_size=5), st.lists(st.one_of(background_rules, definitions), max_size=4),
       st.sampled_from(["prefix", "comment"]), st.sampled_from(["plain", "clingo"]),
       st.sampled_from(["label", "mark", "survived"]))
def test_parse_of_write_gives_back_the_same_rules(rule_list, background, style, dialect, target):
    text = write_program(rule_list, background, target=target, confidence_style=style, dialect=dialect)
    program = parse_program(text)
    assert program == Program(rule_list, background)
    # writing is deterministic, and writing what was read gives the same text
    assert write_program(program.rules, program.background, target=target,
                         confidence_style=style, dialect=dialect) == text


def test_fold_rm_encoding_of_ordered_rules_with_exceptions():
    rules_ = [
        Rule("land", (Literal("mammal", "==", True),), [Rule(None, (Literal("whale", "==", True),))],
             confidence=0.75),
        Rule("water", (Literal("fish", "==", True),)),
        Rule("water", (Literal("whale", "==", True),)),
    ]
    text = write_program(rules_, target="habitat", confidence_style="comment")
    lines = [line for line in text.splitlines() if line and not line.startswith("% rule")]
    assert lines == [
        "habitat(X,'land') :- habitat_1(X).  % confidence 0.75",
        "habitat_1(X) :- mammal(X), not ab1(X).",
        "ab1(X) :- whale(X).",
        "habitat(X,'water') :- habitat_2(X), not habitat_1(X).",
        "habitat_2(X) :- fish(X).",
        "habitat(X,'water') :- habitat_3(X), not habitat_2(X), not habitat_1(X).",
        "habitat_3(X) :- whale(X).",
    ]
    assert "0.75::habitat(X,'land') :- habitat_1(X)." in write_program(rules_, target="habitat")


def test_feature_atoms_and_numbers_are_spelled_as_the_schema_says():
    rule = Rule("0.5", (Literal("concept:gap", "==", "present"), Literal("coverage", ">", 0.5),
                        Literal("value:acceleration", "<=", 10.0), Literal("term:light bulb", "!=", "absent"),
                        Literal("plausible_g", "!=", True)), confidence=0.93)
    text = write_program([rule], target="mark")
    assert ("0.93::mark(X,'0.5') :- mark_1(X).\nmark_1(X) :- concept(X,gap,present), coverage(X,V1), "
            "V1 > 0.5, value(X,acceleration,V2), V2 <= 10, not term(X,'light bulb',absent), "
            "not plausible_g(X).") in text


def test_teacher_plain_form_in_file_order_with_exceptions_and_derived_predicates():
    text = """
    % a teacher's file: rules apply in this order
    0.9::mark(X,'1') :- quantity(X,acceleration,correct), concept(X,downward,present), not ab1(X).
    ab1(X) :- misconception(X,zero_at_top,present).
    plausible_g(X) :- value(X,acceleration,V), V >= 9, V <= 10.5.
    mark(X,'0') :- 0.2 >= C, coverage(X,C), not plausible_g(X).
    """
    program = parse_program(text)
    assert program.rules == [
        Rule("1", (Literal("quantity:acceleration", "==", "correct"), Literal("concept:downward", "==", "present")),
             [Rule(None, (Literal("misconception:zero_at_top", "==", "present"),))],
             confidence=0.9, fixed_confidence=True, origin="initial"),
        Rule("0", (Literal("coverage", "<=", 0.2), Literal("plausible_g", "!=", True)), origin="initial"),
    ]
    assert program.background == [PredicateDefinition(
        "plausible_g", (Literal("value:acceleration", ">=", 9.0), Literal("value:acceleration", "<=", 10.5)))]


def test_rule_comment_gives_name_and_origin_and_background_rules_go_to_background():
    text = "% rule: no_answer\n0.99::mark(X,'0') :- non_answer(X,yes).\nmark(X,'1') :- concept(X,gap,present)."
    program = parse_program(text, origin="background")
    assert [r.name for r in program.background] == ["no_answer", None]
    assert program.rules == []
    assert program.background[0].fixed_confidence and program.background[0].confidence == 0.99


def _problems(text: str) -> list[str]:
    with pytest.raises(KnowledgeError) as info:
        parse_program(text, source="rules.lp")
    assert str(info.value) == "\n".join(str(p) for p in info.value.problems)
    return [str(p) for p in info.value.problems]


def test_every_problem_of_a_file_is_reported_with_its_position():
    problems = _problems("mark(X,'1') :- concept(X,gap present).\n"
                         "mark(X,'0') :- coverage(X,V), V > high.\n"
                         "ab2(X) :- length(X,L), L < 3.\n"
                         "mark(X,'1') :- concept(X,gap,present)")
    assert problems[0].startswith("rules.lp:1:30: unexpected 'present'")
    assert problems[1].startswith("rules.lp:2:35: coverage is numeric and compared with a non-number")
    assert problems[2].startswith("rules.lp:3:1: exception ab2 is not used by any rule")
    assert problems[3].startswith("rules.lp:4:38: the rule does not end with '.'")
    assert len(problems) == 4


@pytest.mark.parametrize("text, problem", [
    ("% description: says there is a gap\nmark(X,'1') :- concept(X,gap,present).",
     "rules.lp:1:1: a description belongs before a derived predicate's rule"),
    ("gap(X) :- concept(X,gap,present).  % description: says there is a gap\nmark(X,'1') :- gap(X).",
     "rules.lp:1:36: a description goes on a line of its own"),
    ("gap(X) :- concept(X,gap,present).\nmark(X,'1') :- gap(X).\n% description: says there is a gap",
     "rules.lp:3:1: a description with no derived predicate's rule after it"),
    ("% description: " + "long " * 50 + "\ngap(X) :- concept(X,gap,present).\nmark(X,'1') :- gap(X).",
     "rules.lp:1:1: the description is 249 characters long (at most 200)"),
])
def test_a_description_stands_on_its_own_line_before_a_derived_predicate(text, problem):
    problems = _problems(text)
    assert any(p.startswith(problem) for p in problems), problems


def test_a_description_is_read_with_its_predicate():
    program = parse_program("% description:   says   there is a gap \ngap(X) :- concept(X,gap,present).\n"
                            "mark(X,'1') :- gap(X).")
    assert program.background == [PredicateDefinition("gap", (Literal("concept:gap", "==", "present"),),
                                                      description="says there is a gap")]


def test_exception_that_depends_on_itself_through_not_is_reported():
    problems = _problems("mark(X,'1') :- concept(X,gap,present), not ab1(X).\n"
                         "ab1(X) :- coverage(X,V), V > 0.5, not ab2(X).\n"
                         "ab2(X) :- not ab1(X).")
    assert any("rules.lp:3:15: exception ab1 depends on itself through not (ab1 -> ab2 -> ab1)" in p
               for p in problems)


@pytest.mark.parametrize("text, message", [
    ("mark(X,'1') :- coverage(X,V).", "variable V of coverage is not compared with a number"),
    ("mark(X,'1') :- V > 0.5.", "variable V is not bound by a feature atom"),
    ("mark(X,'1') :- not coverage(X,V), V > 0.5.", "'not' before coverage with a variable value"),
    ("mark(Y,'1') :- concept(X,gap,present).", "the first argument of concept must be the answer variable Y"),
    ("mark(X,'1') :- concept(X,gap,present). label(X,'0') :- concept(X,gap,absent).",
     "rules predict both mark/2 and label/2"),
    ("1.5::mark(X,'1') :- concept(X,gap,present).", "confidence 1.5 is not a probability"),
    ("mark(X,'1') :- concept(X,gap,'open).", "quoted string not closed on its line"),
    ("mark(X,'1') :- concept(X,gap,present) & x.", "unexpected character '&'"),
    ("mark(X,'1') :- mark_2(X).\nmark_2(X) :- a(X).\nmark(X,'0') :- mark_1(X).\nmark_1(X) :- b(X).",
     "rule mark_1 is not guarded by exactly the earlier rules"),
    ("mark(X,'1') :- coverage(X,V), V = 0.5.", "comparison '=' is not an order comparison"),
])
def test_malformed_rules_are_reported(text, message):
    assert any(message in p for p in _problems(text)), _problems(text)


def test_a_binary_or_foreign_file_gives_a_bounded_list_of_problems():
    problems = _problems("&" * 500)
    assert len(problems) == 21
    assert problems[-1].endswith("480 more unexpected characters (is this a rule file?)")
