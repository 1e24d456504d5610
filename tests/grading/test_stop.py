"""The stop estimate: exact bounds from random checks, thresholds tried in a fixed sequence."""

from __future__ import annotations

import math

import numpy as np
import pytest

from grader.grading.stop import checks_needed, interval, stop_advice, vouches


def test_checks_a_perfect_machine_needs_drawing_without_replacement():
    # 90 machine marks: at most 2 wrong for 97%; (87 choose n) / (90 choose n) <= 0.1 from n = 48
    assert checks_needed(90, 0.97) == 48 and checks_needed(90, 0.95) == 33
    assert vouches(90, 48, 0, 0.97) and not vouches(90, 47, 0, 0.97)
    assert not vouches(90, 60, 1, 0.97)  # one wrong in 60: 3 wrong of 90 stay plausible
    # 10 marks at 95%: none may be wrong; one wrong escapes 9 checks 1 time in 10
    assert not vouches(10, 8, 0, 0.95) and vouches(10, 9, 0, 0.95)


def test_interval_of_the_unchecked_marks():
    estimate, low, high = interval(100, 40, 4)
    assert estimate == pytest.approx(0.9) and low < estimate < high
    assert interval(100, 0, 0)[0] != interval(100, 0, 0)[0]  # NaN without checks
    assert interval(50, 50, 2)[0] != interval(50, 50, 2)[0]  # NaN: nothing left


def test_the_interval_holds_the_truth_at_least_as_often_as_it_claims():
    rng = np.random.default_rng(7)
    inside = 0
    trials = 400
    for _ in range(trials):
        population = int(rng.integers(30, 150))
        truth_wrong = int(rng.integers(0, population // 5))
        wrong = np.zeros(population, dtype=bool)
        wrong[:truth_wrong] = True
        n = int(rng.integers(5, population))
        sample = rng.choice(population, n, replace=False)
        left = np.setdiff1d(np.arange(population), sample)
        _, low, high = interval(population, n, int(wrong[sample].sum()))
        truth = 1 - wrong[left].mean()
        inside += low - 1e-12 <= truth <= high + 1e-12
    assert inside / trials >= 0.9


def test_a_perfect_machine_checked_enough_may_stop():
    conf = np.linspace(0.5, 1.0, 100)
    machine = np.ones(100, dtype=bool)
    checked = np.zeros(100, dtype=bool)
    checked[::2] = True  # 50 checks, spread over the confidences
    advice = stop_advice(conf, machine, checked, np.ones(100, dtype=bool), 0.95)
    assert advice.action == "stop" and advice.threshold == pytest.approx(0.5) and advice.left == 50
    assert advice.message().startswith("you can stop marking: the 50 answers left to the machine are estimated 100% right")
    assert advice.to_dict()["action"] == "stop"


def test_without_checks_it_says_how_many_to_check():
    conf = np.linspace(0.5, 1.0, 90)
    advice = stop_advice(conf, np.ones(90, bool), np.zeros(90, bool), np.ones(90, bool), 0.97)
    assert advice.action == "check" and advice.more_checks == 48 and math.isnan(advice.estimate)
    assert advice.message().startswith("check 48 more of the machine's marks")
    assert advice.to_dict()["estimate"] is None


def test_the_least_confident_marks_are_left_out_when_they_are_wrong():
    conf = np.linspace(0.0, 1.0, 200)
    right = conf >= 0.3  # the 60 least confident marks are all wrong
    checked = np.zeros(200, dtype=bool)
    checked[::2] = True
    advice = stop_advice(conf, np.ones(200, bool), checked, right, 0.95)
    kept = conf >= advice.threshold
    assert advice.action == "stop" and advice.threshold > 0.2 and right[kept].mean() >= 0.95


def test_too_many_wrong_says_mark_more():
    conf = np.linspace(0.0, 1.0, 40)
    right = np.arange(40) % 2 == 0  # half wrong at every confidence
    advice = stop_advice(conf, np.ones(40, bool), np.ones(40, bool), right, 0.95)
    assert advice.action == "mark" and "mark more answers" in advice.message()
    with pytest.raises(ValueError, match="between 0 and 1"):
        stop_advice(conf, np.ones(40, bool), np.ones(40, bool), right, 95)


def test_no_stop_when_nothing_would_be_left_to_the_machine():
    conf = np.linspace(0.5, 1.0, 5)
    advice = stop_advice(conf, np.ones(5, bool), np.ones(5, bool), np.ones(5, bool), 0.95)
    assert advice.action == "mark" and advice.left == 0
    assert "too few" in advice.message()


def test_bounds_match_a_search_over_every_count_of_wrong_marks():
    from scipy.stats import hypergeom

    from grader.grading.stop import wrong_lower, wrong_upper

    for population, checked, wrong in ((30, 10, 0), (30, 10, 2), (90, 33, 1), (12, 12, 3), (50, 1, 1)):
        counts = np.arange(wrong, population - (checked - wrong) + 1)
        upper = counts[hypergeom.cdf(wrong, population, counts, checked) > 0.05].max()
        lower = counts[hypergeom.sf(wrong - 1, population, counts, checked) > 0.05].min() if wrong else 0
        assert (wrong_lower(population, checked, wrong, 0.05), wrong_upper(population, checked, wrong, 0.05)) \
            == (lower, upper)


def test_a_large_class_is_advised_at_once():
    import time

    rng = np.random.default_rng(0)
    conf = rng.random(50_000)
    right = rng.random(50_000) < 0.995
    started = time.process_time()
    advice = stop_advice(conf, conf > 0.3, rng.random(50_000) < 0.03, right, 0.95)
    assert time.process_time() - started < 5  # a minute before the binary searches
    kept = (conf > 0.3) & (conf >= advice.threshold)
    assert advice.action == "stop" and right[kept].mean() >= 0.95


def test_a_sequence_failing_above_asks_for_checks_there_never_for_none():
    conf = np.r_[np.full(100, 0.99), np.full(900, 0.5)]
    checked = np.r_[np.arange(100) < 60, np.arange(900) < 240]
    right = np.ones(1000, dtype=bool)
    right[[0, 1]] = False  # two of the most confident checks are wrong
    advice = stop_advice(conf, np.ones(1000, bool), checked, right, 0.95)
    assert advice.action in ("check", "mark")
    assert advice.action == "mark" or advice.more_checks > 0


def test_a_target_on_the_whole_class_lets_the_machine_err_on_a_share_of_the_class():
    # 40 machine marks in a class of 90: 97% of the class allows 2 wrong among the 40 (not 1)
    assert checks_needed(40, 0.97) > checks_needed(40, 0.97, allowed=2)
    conf = np.linspace(0.99, 0.9, 40)
    checked = np.ones(40, dtype=bool)
    checked[[5, 12, 19, 26, 33, 39]] = False  # 34 checked, one wrong
    right = np.ones(40, dtype=bool)
    right[4] = False
    machine_only = stop_advice(conf, np.ones(40, dtype=bool), checked, right, 0.97)
    whole_class = stop_advice(conf, np.ones(40, dtype=bool), checked, right, 0.97, class_size=90)
    assert machine_only.action != "stop" and whole_class.action == "stop"
    assert 0.97 <= whole_class.class_low <= whole_class.class_estimate <= whole_class.class_high <= 1
    assert "with your decisions, the class's 90 marks are estimated" in whole_class.message()
    assert math.isnan(machine_only.class_low) and whole_class.to_dict()["class_size"] == 90


def test_a_machine_keeping_too_few_answers_to_miss_the_class_target_needs_no_check():
    # 2 machine marks in a class of 90: even both wrong, 88 of 90 (97.8%) are right
    conf = np.array([0.9, 0.6])
    advice = stop_advice(conf, np.ones(2, dtype=bool), np.zeros(2, dtype=bool), np.zeros(2, dtype=bool), 0.97,
                         class_size=90)
    assert advice.action == "stop" and advice.checked == 0 and advice.left == 2
    assert advice.estimate == pytest.approx(0.75) and (advice.low, advice.high) == (0.0, 1.0)
    assert advice.class_low == pytest.approx(88 / 90) and advice.class_high == 1.0
    assert "too few to bring the class's marks below 97% even if all were wrong" in advice.message()
    # three would be too many (87 of 90 is 96.7%): the least sure is the teacher's to decide
    three = stop_advice(np.array([0.9, 0.8, 0.6]), np.ones(3, dtype=bool), np.zeros(3, dtype=bool),
                        np.zeros(3, dtype=bool), 0.97, class_size=90)
    assert three.action == "stop" and (three.left, three.below, three.threshold) == (2, 1, 0.8)
    assert three.message().startswith("decide the 1 machine marks below 80% confidence")
    assert "then you can stop marking: the 2 answers left" in three.message()
    # nothing left to the machine: every mark is the teacher's
    none = stop_advice(np.array([0.9]), np.zeros(1, dtype=bool), np.zeros(1, dtype=bool), np.zeros(1, dtype=bool),
                       0.97, class_size=90)
    assert none.action == "stop" and none.class_low == 1.0 and "every mark will be yours" in none.message()


def test_with_every_answer_flagged_the_advice_is_to_decide_them_not_to_stop():
    # a class whose answers are all flagged: the teacher still has every answer to decide
    conf = np.full(50, 0.4)
    advice = stop_advice(conf, np.zeros(50, bool), np.zeros(50, bool), np.ones(50, bool), 0.95, class_size=50)
    assert advice.left == 0
    assert advice.message().startswith("decide the answers flagged for you") and "stop" not in advice.message()
