"""Values found by fuzzing that made the question parsers fail or hang (issue 11): each is a
located problem now, found in well under a second."""

from __future__ import annotations

import time

import pytest

from knowledge import check_question_text
from knowledge.numbers import read_number, unit_problem
from tests.data import SAMPLE

BASE = (SAMPLE / "vertical_throw" / "question.yaml").read_text(encoding="utf-8")
LINES = BASE.splitlines()


def _line_of(text: str) -> int:
    return next(i for i, line in enumerate(LINES, 1) if text in line)


@pytest.mark.parametrize("old,new,message", [
    ("unit: m/s^2", "unit: '9**9**8 m/s^2'", "a power applies to a unit"),
    ("unit: m/s^2", "unit: 'm**(9**9**8)'", "a power applies to a unit"),
    ("tolerance: 0.25 m/s^2", "tolerance: '9**9**8 m/s^2'", "a power applies to a unit"),
    ("tolerance: 0.25 m/s^2", "tolerance: 1e400 m/s^2", "bad tolerance"),
    ("id: vertical_throw", "id: !!int abc", "YAML tags such as '!!int'"),
    ("id: vertical_throw", "id: !!python/object/apply:os.system ['true']", "YAML tags such as '!!python"),
    ("value: 9.8", "value: " + "9" * 400, "a number of 400 characters"),
    ("value: 9.8", "value: " + "9" * 400 + ".5", "a number of 402 characters"),
    ("0.99::mark(X,'0')", "0." + "9" * 400 + "::mark(X,'0')", "a number of 402 characters"),
    ("V >= 9.5", "V >= " + "9" * 4400, "a number of 4400 characters"),
    ("V >= 9.5", "V >= " + "9" * 400, "a number of 400 characters"),
])
def test_hostile_values_are_located_problems_found_fast(old, new, message):
    assert old in BASE
    line = _line_of(old)
    start = time.process_time()  # the work asked (CPU), not the load of a shared machine
    problems = check_question_text(BASE.replace(old, new, 1), "q.yaml")
    assert time.process_time() - start < 1.0
    assert [p for p in problems if message in p.message and p.line == line and p.column > 1], problems


TOWERS = ["((((9)**99)**99)**99)**99 m/s^2", "(9**99)**99 m", "9\u2079\u2079\u2079\u2079\u2079\u2079\u2079\u2079 m/s^2",
          "(9 m)**99,999,999", "(m\u2079\u2079)\u2079\u2079", "(9)^99 m"]


@pytest.mark.parametrize("key", ["unit: m/s^2", "tolerance: 0.25 m/s^2"])
@pytest.mark.parametrize("tower", TOWERS)
def test_towers_of_powers_are_located_problems_found_fast(key, tower):
    """Towers with brackets, commas or superscript digits passed the check and made pint
    compute a power of millions of digits: a question check never returned."""
    assert unit_problem(tower), tower  # checked first: the old check let it through, then hung
    line = _line_of(key)
    start = time.process_time()
    problems = check_question_text(BASE.replace(key, f"{key.split(':')[0]}: '{tower}'", 1), "q.yaml")
    assert time.process_time() - start < 1.0
    assert [p for p in problems if "a power applies to a unit" in p.message and p.line == line
            and p.column > 1], problems


@pytest.mark.parametrize("old,new", [("question: >", 'question: "\\ud800 A ball is thrown up."\ndescription: >'),
                                     ("id: vertical_throw", 'id: vertical_throw\ntitle: "Throw \\udfff"')])
def test_half_a_character_in_question_text_is_a_located_problem(old, new, tmp_path, capsys):
    """A YAML escape for a lone surrogate was kept, and writing the model raised UnicodeEncodeError."""
    from grader.cli import main

    assert old in BASE
    line = _line_of(old) + (old == "id: vertical_throw")
    text = BASE.replace(old, new, 1)
    problems = check_question_text(text, "q.yaml")
    assert [p for p in problems if "half of a character" in p.message and p.line == line], problems
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    code = main(["train", "--question", str(tmp_path / "q.yaml"), "--answers",
                 str(SAMPLE / "vertical_throw" / "marked.csv"), "--model", str(tmp_path / "m.json")])
    err = capsys.readouterr().err
    assert code == 2 and "half of a character" in err and "codec" not in err


def test_what_looks_like_a_date_stays_text():
    text = BASE.replace("marks:", "title: 2024-13-45\nmarks:", 1)
    assert check_question_text(text, "q.yaml") == []


def test_deep_nesting_is_one_problem():
    text = BASE.replace("id: vertical_throw", "id: vertical_throw\ndescription: " + "[" * 5000 + "]" * 5000, 1)
    problems = check_question_text(text, "q.yaml")
    assert len(problems) == 1 and "nested too deeply" in problems[0].message


@pytest.mark.parametrize("unit", ["m/s^2", "m s^-2", "m*s**-2", "kg*m^2/s^3", "(m/s)^2", "m^(-2)", "N/kg", "ohm",
                                  "m/s\u00b2", "m\u207b\u00b2", "(\u03bcm)^2", "1/(s**2)", "\u00b0C"])
def test_ordinary_units_pass_the_check(unit):
    assert unit_problem(unit) is None


@pytest.mark.parametrize("unit", ["m^999", "m^2^3", "10^3 m", "m^x", "m" * 61])
def test_unusual_powers_and_long_units_are_refused(unit):
    assert unit_problem(unit)


def test_numbers_are_read_within_bounds():
    assert read_number("12") == 12 and isinstance(read_number("12"), int)
    assert read_number("-0.5e-3") == pytest.approx(-0.0005)
    with pytest.raises(ValueError, match="at most 40"):
        read_number("9" * 41)


@pytest.mark.parametrize("opening", ["[", "{a: "])
def test_brackets_nested_too_deep_are_refused_at_once_where_they_pass_the_limit(opening):
    """PyYAML recursed into 3,000 brackets for about 2 s of CPU before giving up."""
    closing = "]" if opening == "[" else "}"
    line = _line_of("id: vertical_throw")
    text = BASE.replace("id: vertical_throw", "id: " + opening * 3000 + "1" + closing * 3000, 1)
    start = time.process_time()
    problems = check_question_text(text, "q.yaml")
    assert time.process_time() - start < 0.2
    assert [(p.line, p.column) for p in problems if "nested too deeply (more than 100 levels)" in p.message] == \
        [(line, 5 + 100 * len(opening))]


def test_brackets_inside_quotes_do_not_count_as_nesting():
    text = BASE.replace("id: vertical_throw", "id: vertical_throw\ntitle: '" + "[" * 300 + "'", 1)
    assert not [p for p in check_question_text(text, "q.yaml") if "nested" in p.message]
