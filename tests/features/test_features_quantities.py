"""Numbers and units in answers, checked against a rubric quantity (pint does the units)."""

from __future__ import annotations

import math

import pytest

from features import FeatureExtractor
from features.nlp import FALLBACK
from features.numerals import words_value
from features.quantities import check, find_numbers
from features.text import normalize
from knowledge.schema import Quantity, Question

G = Quantity("acceleration", 9.8, "m/s^2", tolerance=0.02, description="the acceleration")
VOLT = Quantity("voltage", 1.5, "V", tolerance=0.05, absolute_tolerance=True)
LIGHT = Quantity("speed", 3e8, "m/s", tolerance=0.01)
HALF = Quantity("ratio", 0.5, "", tolerance=0.01)


def verdict(answer: str, q: Quantity):
    return check(q, find_numbers(normalize(answer)))


@pytest.mark.parametrize("answer", [
    "9.8 m/s^2", "9,8 m/s^2", "9.8m/s^2", "a = 9.8 m/s2", "9.8 m s^-2", "9.8 ms-2",
    "9.8 m/s²", "9.8 m·s⁻²", "9.8 m/s/s", "9.81 m/s^2", "nine point eight metres per second squared",
    "it is 9.8 m/s^2 downwards because of gravity", "-9.8 m/s^2", "980 cm/s^2",
    "<p>9.8 m/s<sup>2</sup></p>", "0.0098 km/s^2", "9.8 m.s^-2 down", "9.8 m/s^2.",
])
def test_every_way_of_writing_the_acceleration_is_correct(answer):
    v = verdict(answer, G)
    assert v.status == "correct", answer
    assert abs(v.value) == pytest.approx(9.8, rel=0.02)


@pytest.mark.parametrize("answer, q, value", [
    ("3e8 m/s", LIGHT, 3e8), ("3E8 m/s", LIGHT, 3e8), ("3 x 10^8 m/s", LIGHT, 3e8),
    ("3x10^8 m/s", LIGHT, 3e8), ("3×10⁸ m/s", LIGHT, 3e8), ("3*10**8 m/s", LIGHT, 3e8),
    ("300,000,000 m/s", LIGHT, 3e8), ("300000 km/s", LIGHT, 3e8),
    ("1500 mV", VOLT, 1.5), ("1.5 V", VOLT, 1.5), ("1.5 volts", VOLT, 1.5), ("1,5 v", VOLT, 1.5),
    ("1/2", HALF, 0.5), ("one half", HALF, 0.5), ("0.5", HALF, 0.5), ("50 %", HALF, 0.5),
])
def test_number_forms_and_unit_conversion(answer, q, value):
    v = verdict(answer, q)
    assert v.status == "correct", answer
    assert v.value == pytest.approx(value)


@pytest.mark.parametrize("answer, status, value", [
    ("10 m/s^2", "wrong_value", 10.0),
    ("98 m/s^2", "wrong_value", 98.0),
    ("9.8 N", "wrong_unit", 9.8),
    ("9.8 Newtons downward", "wrong_unit", 9.8),
    ("9.8 m/s", "wrong_unit", 9.8),
    ("9.8", "no_unit", 9.8),
    ("about 10", "no_unit", 10.0),
    ("it falls down because of gravity", "missing", math.nan),
    ("", "missing", math.nan),
])
def test_wrong_value_wrong_unit_no_unit_missing(answer, status, value):
    v = verdict(answer, G)
    assert v.status == status
    assert (math.isnan(v.value) and math.isnan(value)) or v.value == pytest.approx(value)


def test_the_best_reading_wins_when_an_answer_has_several_numbers():
    assert verdict("first I said 10 m/s^2 but it is 9.8 m/s^2", G).status == "correct"
    assert verdict("terminal 2 reads 1500 mV", VOLT).status == "correct"


def test_english_words_are_not_read_as_units():
    # pint reads "a" as a year, "in" as an inch and "at" as an atmosphere
    assert verdict("9.8 in the downward direction", G).status == "no_unit"
    assert verdict("9.8 a second", G).status == "no_unit"


@pytest.mark.parametrize("words, value", [
    ("three", 3), ("twenty five", 25), ("twenty-five", 25), ("one hundred and five", 105),
    ("nine point eight", 9.8), ("half", 0.5), ("two thousand", 2000),
])
def test_number_words(words, value):
    assert words_value(words) == pytest.approx(value)


def test_one_as_a_pronoun_is_not_a_number():
    assert find_numbers("one of the bulbs is off") == []


def test_quantity_columns_in_the_extractor():
    q = Question("throw", "What is the acceleration at the top?",
                 ("9.8 m/s^2 downward",), quantities=(G, VOLT))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["9.8"])
    X = fx.transform(["9.8 m/s^2 and 1500 mV", "10 m/s2", "9.8", "no idea", "9.8 N"])
    assert list(X["quantity:acceleration"]) == ["correct", "wrong_value", "no_unit", "missing",
                                                "wrong_unit"]
    assert list(X["quantity:voltage"])[:2] == ["correct", "missing"]
    assert X["value:acceleration"].dtype == float
    assert X["value:acceleration"].iloc[1] == pytest.approx(10.0)
    assert math.isnan(X["value:acceleration"].iloc[3])
    assert X["value:voltage"].iloc[0] == pytest.approx(1.5)
    assert fx.descriptions_["quantity:acceleration"] == "the acceleration: value 9.8 m/s^2 within 2%"
    # an answer that is only a number is an answer
    assert X["non_answer"].iloc[2] == "no"


def test_a_value_the_answer_denies_is_not_given():
    q = Question("throw", "What is the acceleration at the top?", ("9.8 m/s^2 downward",), quantities=(G,))
    fx = FeatureExtractor(q, model=FALLBACK).fit(["9.8"])
    X = fx.transform(["the acceleration isn't 9.8 m/s^2", "it is not 9.8 m/s^2 downwards, it is 10 m/s^2",
                      "not 10 m/s^2, it is 9.8 m/s^2", "9.8 m/s^2, not zero", "9.8 m/s^2"])
    assert list(X["quantity:acceleration"]) == ["negated", "wrong_value", "correct", "correct", "correct"]
    assert math.isnan(X["value:acceleration"].iloc[0])
    assert X["value:acceleration"].iloc[1] == pytest.approx(10.0)


OHM = Quantity("resistance", 12, "ohm", tolerance=0.02)
MICRO = Quantity("current", 0.5, "uA", tolerance=0.02)
TEMP = Quantity("temperature", 20, "degC", tolerance=0.02)


@pytest.mark.parametrize("q,answer", [
    (OHM, "12 \u2126"), (OHM, "12 \u03a9"), (OHM, "12\u03a9"), (OHM, "12 ohms"),
    (MICRO, "0.5 \u00b5A"), (MICRO, "0.5 \u03bcA"), (MICRO, "0.5 uA"),
    (TEMP, "20 °C"), (TEMP, "20 \u2103"), (TEMP, "20 degrees C"), (TEMP, "20 deg celsius"), (TEMP, "20 C"),
    (TEMP, "68 degrees Fahrenheit"),
    (G, "9.8 m s^-2"), (G, "9.8 m.s-2"), (G, "9.8 ms⁻²"), (G, "9.8 m s⁻²"), (G, "9.8 m·s⁻²"),
])
def test_physics_notation_reads_as_the_same_unit(q, answer):
    assert verdict(answer, q).status == "correct"


def test_c_is_a_coulomb_where_a_charge_is_asked_and_ms_alone_is_milliseconds():
    assert verdict("5 C", Quantity("charge", 5, "C")).status == "correct"
    assert verdict("5 ms", Quantity("time", 0.005, "s")).status == "correct"


DENSITY = Quantity("density", 2.0, "g/cm^3")
PRESSURE = Quantity("pressure", 200, "Pa")
SPEED = Quantity("speed", 20, "m/s")


@pytest.mark.parametrize("q, answer", [
    (DENSITY, "2 grams per cubic centimetre"), (PRESSURE, "200 N per square metre"),
    (PRESSURE, "200 newtons per square meter"),  # "square", "cubic" before the unit they raise
    (SPEED, "20 metres a second"), (SPEED, "72 km an hour"),  # "a" for "per", as said aloud
    (SPEED, "20 M/S"), (SPEED, "72 KM/H"),  # in capitals: molar per siemens is no reading
    (Quantity("f", 440, "Hz"), "440 vibrations per second"), (Quantity("f", 2, "Hz"), "2 cycles a second"),
])
def test_units_as_students_say_them(q, answer):
    assert verdict(answer, q).status == "correct"


def test_capitals_read_in_lower_case_only_when_no_reading_in_capitals_fits():
    assert verdict("5 MV", Quantity("voltage", 0.005, "V")).status == "wrong_value"  # megavolts, not mV
    assert verdict("5 MV", Quantity("voltage", 5e6, "V")).status == "correct"
    assert verdict("5 KV", Quantity("voltage", 5000, "V")).status == "correct"  # pint has no "KV"
    assert verdict("20 M/S", Quantity("speed", 5, "m/s")).status == "wrong_value"
    assert verdict("a 2 m square", Quantity("length", 2, "m")).status == "correct"


def test_nm_is_a_newton_metre_where_a_moment_is_asked_and_a_nanometre_where_a_length_is():
    moment = Quantity("moment", 20, "N*m")
    assert verdict("20 Nm", moment).status == "correct"  # pint alone reads nanometres
    assert verdict("the moment is 10 x 2 = 20 Nm", moment).status == "correct"
    assert verdict("5 Nm", moment).status == "wrong_value"
    assert verdict("20 mN", moment).status == "wrong_unit"  # millinewtons, not "m N"
    assert verdict("500 nm", Quantity("wavelength", 5e-7, "m")).status == "correct"
    assert verdict("2 Ns", Quantity("impulse", 2, "N*s")).status == "correct"


def _question(**options):
    from knowledge.schema import Concept
    g = Quantity("acceleration", 9.8, "m/s^2", tolerance=0.03, **options)
    return Question("t", "What is the acceleration, in m/s^2?", ("9.8 m/s^2 downwards",),
                    concepts=(Concept("downward", ("down", "downwards")),), quantities=(g,))


def test_a_bare_number_counts_in_the_questions_unit_only_when_the_question_file_says_so():
    answers = ["9.8", "4.9", "9.8 N"]
    off = FeatureExtractor(_question(), model=FALLBACK).fit([]).transform(answers)
    on = FeatureExtractor(_question(bare_number=True), model=FALLBACK).fit([]).transform(answers)
    assert list(off["quantity:acceleration"]) == ["no_unit", "no_unit", "wrong_unit"]
    assert list(on["quantity:acceleration"]) == ["correct", "wrong_value", "wrong_unit"]


def test_the_symbol_g_gives_the_value_when_the_question_file_says_so():
    answers = ["g downwards", "it is not g", "9.8 g", "a = g", "gravity"]
    off = FeatureExtractor(_question(), model=FALLBACK).fit([]).transform(answers)
    on = FeatureExtractor(_question(symbol="g"), model=FALLBACK).fit([]).transform(answers)
    assert list(off["quantity:acceleration"]) == ["missing", "missing", "wrong_unit", "missing", "missing"]
    assert list(on["quantity:acceleration"]) == ["correct", "missing", "wrong_unit", "correct", "missing"]
    assert on["value:acceleration"].iloc[0] == pytest.approx(9.8)


def test_a_negative_value_states_the_direction_when_the_question_file_says_so():
    answers = ["-9.8 m/s^2", "9.8 m/s^2", "-9.8 m/s^2 downwards"]
    off = FeatureExtractor(_question(), model=FALLBACK).fit([]).transform(answers)
    on = FeatureExtractor(_question(negative_means="downward"), model=FALLBACK).fit([]).transform(answers)
    assert list(off["concept:downward"]) == ["absent", "absent", "present"]
    assert list(on["concept:downward"]) == ["present", "absent", "present"]


@pytest.mark.parametrize("answer, value", [
    ("half a second", 0.5), ("one and a half seconds", 1.5), ("three quarters of a second", 0.75),
    ("two and a half seconds", 2.5), ("a quarter of an hour", 900), ("two-thirds of a second", 2 / 3),
])
def test_fractions_said_in_words_take_the_unit_after_a_or_of_a(answer, value):
    got = verdict(answer, Quantity("time", value, "s", tolerance=0.01))
    assert got.status == "correct"  # before: "half a second" had no unit, "one and a half" was 0.5


@pytest.mark.parametrize("answer", ["440 1/s", "440 1 / s", "440 per second", "440 times a second"])
def test_a_frequency_as_a_reciprocal_second(answer):
    assert verdict(answer, Quantity("f", 440, "Hz", tolerance=0.01)).status == "correct"


def test_the_one_of_a_reciprocal_unit_is_not_a_number_of_its_own():
    assert [m.value for m in find_numbers("440 1/s")] == [440]


@pytest.mark.parametrize("unit", ["N*m", "Nm", "N m"])
def test_a_moment_in_joules_has_the_wrong_unit_and_work_in_newton_metres_the_right_one(unit):
    moment = Quantity("moment", 20, unit, tolerance=0.02)
    assert verdict("20 J", moment).status == "wrong_unit"  # same dimension, another quantity
    assert verdict("20 kJ", moment).status == "wrong_unit"
    assert verdict("20 N m", moment).status == "correct"
    work = Quantity("work", 20, "J", tolerance=0.02)
    assert verdict("20 Nm", work).status == "correct"
    assert verdict("20 J", work).status == "correct"


@pytest.mark.parametrize("answer, q", [
    ("20 n", Quantity("force", 20, "N")), ("3 kn", Quantity("force", 3000, "N")),
    ("5 j", Quantity("energy", 5, "J")), ("5 kj", Quantity("energy", 5000, "J")),
    ("5 kw", Quantity("power", 5000, "W")), ("50 pa", Quantity("pressure", 50, "Pa")),
    ("60 db", Quantity("level", 60, "dB")), ("0.5 t", Quantity("field", 0.5, "T")),
    ("20 nm", Quantity("moment", 20, "N*m")), ("20 n m", Quantity("moment", 20, "N*m")),
    ("20 n/kg", Quantity("g", 20, "N/kg")), ("the answer is 20 n because f = ma", Quantity("force", 20, "N")),
])
def test_units_in_lower_case_read_as_si_writes_them_where_nothing_else_fits(answer, q):
    assert verdict(answer, q).status == "correct"  # before: no unit, or decibarns for "db"


def test_units_in_lower_case_keep_their_own_reading_first():
    assert verdict("500 nm", Quantity("wavelength", 5e-7, "m")).status == "correct"  # nanometres
    assert verdict("2 ms", Quantity("time", 0.002, "s")).status == "correct"  # milliseconds
    assert verdict("20 kg", Quantity("force", 20, "N")).status == "wrong_unit"
    assert verdict("20 m", Quantity("force", 20, "N")).status == "wrong_unit"
    assert verdict("it is 5 in the box", Quantity("force", 5, "N")).status == "no_unit"


@pytest.mark.parametrize("answer, value", [("20 000 Hz", 20000), ("1 000 000 Hz", 1e6), ("a 2 100 Hz note", 2100)])
def test_thousands_grouped_with_spaces_before_a_unit_are_one_number(answer, value):
    assert verdict(answer, Quantity("f", value, "Hz")).status == "correct"  # before: 0 Hz, a wrong value


def test_numbers_spaced_without_a_unit_stay_apart():
    assert [m.value for m in find_numbers("bulbs 1 234")] == [1, 234]
    assert [m.value for m in find_numbers("20 000")] == [20, 0]


def test_a_number_past_the_largest_float_is_no_number():
    # "1e999" raised an OverflowError (10.0 ** 999) and stopped the grading of the batch
    assert [m.value for m in find_numbers("it is 1e999 A, or 2e3 A")] == [2000.0]
    assert [m.value for m in find_numbers("1e-999 A")] == [0.0]
