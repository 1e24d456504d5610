"""Flagging to a target accuracy (grader.grading.flag_threshold) and the calibration error."""

from __future__ import annotations

import math

import numpy as np
import pytest

from grader.cli import main
from grader.grading.flag_threshold import choose_threshold, wilson_lower_bound
from grader.metrics import expected_calibration_error
from tests.data import QUESTION_YAML, marked_answers, write_marked_csv


def test_wilson_lower_bound():
    assert wilson_lower_bound(0, 0) == 0.0
    assert wilson_lower_bound(95, 100) == pytest.approx(0.9008, abs=1e-3)  # one-sided 95%
    assert wilson_lower_bound(950, 1000) < 0.95 < wilson_lower_bound(980, 1000)
    assert wilson_lower_bound(10, 10) < 1.0


def test_the_lowest_threshold_the_bound_vouches_for_is_chosen():
    conf = np.array([0.9] * 100 + [0.6] * 100 + [0.3] * 100)
    right = np.array([True] * 100 + [True] * 95 + [False] * 5 + [True] * 50 + [False] * 50)
    choice = choose_threshold(conf, right, 0.9)
    # 0.9 and above: 100/100 right (bound 0.974); 0.6 and above: 195/200 (bound 0.948); 0.3: 245/300
    assert choice.met and choice.threshold == 0.6 and choice.share_flagged == pytest.approx(1 / 3)
    assert choice.observed == pytest.approx(0.975) and choice.lower_bound >= 0.9
    assert "33% of answers flagged" in choice.message()


def test_a_target_the_answers_cannot_vouch_for_flags_everything():
    choice = choose_threshold([0.9] * 20 + [math.nan] * 5, [True] * 19 + [False] + [False] * 5, 0.95)
    assert not choice.met and choice.threshold == math.inf and choice.share_flagged == 1.0
    assert "cannot vouch for 95%" in choice.message() and choice.lower_bound < 0.95


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1])
def test_targets_outside_0_1_are_refused(bad):
    with pytest.raises(ValueError, match="between 0 and 1"):
        choose_threshold([0.5], [True], bad)


def test_the_bound_is_honest_on_calibrated_data():
    # confidences that are right as often as they say: the accuracy of new answers above the
    # chosen threshold reaches the target in (nearly) every run, not just on average
    chosen, honest = 0, []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        conf = rng.uniform(0.5, 1.0, 1000)
        choice = choose_threshold(conf, rng.random(1000) < conf, 0.85)
        if not choice.met:
            continue
        chosen += 1
        new = rng.uniform(0.5, 1.0, 20_000)
        keep = new >= choice.threshold
        honest.append((rng.random(keep.sum()) < new[keep]).mean() >= 0.85)
    assert chosen >= 50 and np.mean(honest) >= 0.9


def test_expected_calibration_error():
    rng = np.random.default_rng(0)
    conf = rng.uniform(0, 1, 50_000)
    truth = np.where(rng.random(50_000) < conf, "1", "0")
    assert expected_calibration_error(truth, ["1"] * 50_000, conf) < 0.01
    assert expected_calibration_error(["1", "0"], ["1", "1"], [1.0, 1.0]) == pytest.approx(0.5)
    assert expected_calibration_error(["1"], [None], [math.nan]) == 0.0  # no mark: wrong at confidence 0


def test_grade_to_a_target_accuracy_from_the_command_line(tmp_path, capsys):
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    answers, marks = marked_answers()
    marked = write_marked_csv(tmp_path / "marked.csv", answers, marks)
    exam = tmp_path / "exam.csv"
    exam.write_text("id,answer\na,there is a gap so no current\nb,the battery is flat\n", encoding="utf-8")
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(tmp_path / "m.json"),
                 "--resamples", "3"]) == 0
    assert "cross-validated confidences" in capsys.readouterr().out
    assert main(["grade", "--model", str(tmp_path / "m.json"), "--answers", str(exam), "--out",
                 str(tmp_path / "g.csv"), "--target-accuracy", "0.9"]) == 0
    assert "expected accuracy of automatic marks >= 90%" in capsys.readouterr().out
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model", str(tmp_path / "p.json"),
                 "--resamples", "0", "--no-calibrate"]) == 0
    capsys.readouterr()
    assert main(["grade", "--model", str(tmp_path / "p.json"), "--answers", str(exam), "--out",
                 str(tmp_path / "g2.csv"), "--target-accuracy", "0.9"]) == 2
    assert "no cross-validated confidences" in capsys.readouterr().err
    assert main(["grade", "--model", str(tmp_path / "p.json"), "--answers", str(exam), "--out",
                 str(tmp_path / "g3.csv"), "--target-accuracy", "0.9", "--flag-below", "0.5"]) == 2


def test_each_question_of_an_exam_is_flagged_to_a_target_accuracy_by_its_own_answers(tmp_path, capsys):
    """`grade --exam --target-accuracy` (refused before): every question gets the threshold its
    own cross-validated marked answers give, the one `grade --model` gives it alone; a model
    file without cross-validated confidences is refused before anything is trained."""
    import csv
    import io

    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    answers, marks = marked_answers()
    marked = write_marked_csv(tmp_path / "marked.csv", answers, marks)
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model",
                 str(tmp_path / "a.json"), "--resamples", "3"]) == 0
    export = tmp_path / "responses.csv"
    rows = [["student", "A", "B"]] + [[f"s{i}", a, answers[-1 - i]] for i, a in enumerate(answers[:40])]
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    export.write_text(buffer.getvalue(), encoding="utf-8")
    exam = tmp_path / "exam.yaml"
    exam.write_text("answers: responses.csv\nid_column: student\nquestions:\n"
                    "  - {id: qa, column: A, model: a.json}\n"
                    "  - {id: qb, column: B, question: q.yaml, training: marked.csv}\n", encoding="utf-8")
    (tmp_path / "models").mkdir()
    capsys.readouterr()
    assert main(["grade", "--exam", str(exam), "--out", str(tmp_path / "g.csv"), "--target-accuracy", "0.9",
                 "--save-models", str(tmp_path / "models"), "--no-progress"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert [line.split(": target accuracy 0.9: ")[0] for line in said[:2]] == ["qa", "qb"], said
    graded = list(csv.DictReader(io.StringIO((tmp_path / "g.csv").read_text(encoding="utf-8-sig"))))
    for qid, column, model in (("qa", "A", tmp_path / "a.json"), ("qb", "B", tmp_path / "models" / "qb.model.json")):
        alone = tmp_path / f"{qid}.csv"
        alone.write_text(buffer.getvalue(), encoding="utf-8")
        assert main(["grade", "--model", str(model), "--answers", str(alone), "--answer-column", column,
                     "--out", str(tmp_path / f"{qid}_graded.csv"), "--target-accuracy", "0.9", "--no-progress"]) == 0
        assert capsys.readouterr().out.splitlines()[0].split(": ", 1)[1] in said[0 if qid == "qa" else 1]
        own = list(csv.DictReader(io.StringIO((tmp_path / f"{qid}_graded.csv").read_text(encoding="utf-8-sig"))))
        assert [r[f"{qid}:flagged"] for r in graded] == [r["flagged"] for r in own]
    assert main(["train", "--question", str(question), "--answers", str(marked), "--model",
                 str(tmp_path / "a.json"), "--resamples", "0", "--no-calibrate", "--force"]) == 0
    capsys.readouterr()
    assert main(["grade", "--exam", str(exam), "--out", str(tmp_path / "g2.csv"), "--target-accuracy", "0.9"]) == 2
    err = capsys.readouterr().err
    assert "question 'qa'" in err and "no cross-validated confidences" in err and "training" not in err


def test_reliability_bins_are_the_points_of_the_calibration_error():
    from grader.metrics import reliability_bins

    truth = ["1", "1", "0", "1", "0"]
    pred = ["1", "0", "0", "1", None]
    conf = [0.95, 0.91, 0.35, 0.32, math.nan]
    bins = reliability_bins(truth, pred, conf)
    assert [(b["low"], b["answers"]) for b in bins] == [(0.0, 1), (0.3, 2), (0.9, 2)]
    assert bins[1]["accuracy"] == 1.0 and bins[2]["accuracy"] == 0.5
    expected = sum(b["answers"] * abs(b["accuracy"] - b["confidence"]) for b in bins) / 5
    assert expected_calibration_error(truth, pred, conf) == pytest.approx(expected)
