"""Answers unlike the ones a model was trained on (another question's, say) are flagged with a
warning instead of being marked in silence (issue 33: all 239 answers of another question got
mark 0 at confidence 0.96, 3 flagged)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from grader.grading.fit import MIN_ANSWERS, out_of_place, training_share
from grader.grading.model import GradingModel
from tests.data import SAMPLE, marked_answers, small_question

# a class answering the model's question (the bulb and the open switch), in other words
RIGHT = [f"{lead}{body}" for lead in ("", "I think ", "so ") for body in (
    "the switch leaves a gap so no current flows", "no current because the circuit is broken",
    "current cannot flow round an open circuit", "the battery is dead", "the bulb is broken",
    "there is a break so the current stops", "the wires are too thin", "gap in the circuit")]
# a class answering another question (a lever), in words of its own
WRONG = [f"{lead}{body}" for lead in ("", "I think ", "so ") for body in (
    "the longer handle gives more turning effect", "a seesaw balances when moments are equal",
    "moment equals force times distance from the pivot", "push further from the hinge",
    "heavier child sits nearer the fulcrum", "the spanner multiplies the effort",
    "levers trade distance for force", "clockwise moments equal anticlockwise ones")]


@pytest.fixture(scope="module")
def model() -> GradingModel:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks, n_resamples=3)


def test_a_class_of_the_question_is_graded_without_a_warning(model):
    grades = model.grade(RIGHT)
    assert grades.attrs["warnings"] == [] and not grades["flagged"].all()


def test_another_questions_answers_are_all_flagged_with_a_warning(model):
    grades = model.grade(WRONG + ["", ""])
    (warning,) = grades.attrs["warnings"]
    assert f"of {len(WRONG)} answers share no word with any answer the model was trained on" in warning
    assert grades["flagged"].all() and grades["needs_human"].all()
    assert grades["explanation"].str.startswith("unlike the answers the model was trained on").all()


def test_too_few_answers_say_nothing(model):
    assert model.grade(WRONG[:MIN_ANSWERS - 1]).attrs["warnings"] == []


def test_the_training_share_counts_answers_sharing_no_word_with_the_others():
    # "a b" twice shares with itself; "c" shares "c" with "c d"; "e" alone shares nothing
    assert training_share([["a", "b"], ["c"], ["c", "d"], ["e"], []], [2, 1, 1, 1, 1]) == pytest.approx(2 / 6)
    said = np.zeros(40, dtype=bool)
    no_word = np.arange(40) < 14  # 35% of the answers share no word
    assert out_of_place(no_word, said, 0.05) is not None
    assert out_of_place(no_word, said, 0.2) is None  # a class whose own answers are that varied
    assert out_of_place(no_word, np.arange(40) >= 15, 0.05) is None  # blanks do not count


def test_the_bundled_samples_warn_only_for_another_questions_answers():
    import knowledge

    data = {q: pd.read_csv(SAMPLE / q / "marked.csv", dtype=str, keep_default_na=False)
            for q in ("vertical_throw", "open_circuit_bulb")}
    train = data["vertical_throw"].iloc[::2]
    model = GradingModel.train(knowledge.load_question(SAMPLE / "vertical_throw" / "question.yaml"),
                               train["answer"].tolist(), train["mark"].tolist(), n_resamples=3)
    assert model.grade(data["vertical_throw"]["answer"].iloc[1::2].tolist()).attrs["warnings"] == []
    other = model.grade(data["open_circuit_bulb"]["answer"].tolist())
    assert other.attrs["warnings"] and other["flagged"].all()


def test_grade_warns_on_stderr_and_flags_every_row(model, tmp_path, capsys):
    from grader.app.session import grade_question
    from grader.cli import main

    model.save(tmp_path / "m.json")
    for name, answers in (("right", RIGHT), ("wrong", WRONG)):
        pd.DataFrame({"id": [f"s{i}" for i in range(len(answers))], "answer": answers}).to_csv(
            tmp_path / f"{name}.csv", index=False)
        assert main(["grade", "--model", str(tmp_path / "m.json"), "--answers", str(tmp_path / f"{name}.csv"),
                     "--out", str(tmp_path / f"{name}.graded.csv")]) == 0
        err = capsys.readouterr().err
        graded = pd.read_csv(tmp_path / f"{name}.graded.csv", dtype=str)
        assert ("share no word" in err) == (name == "wrong"), err
        assert (graded["flagged"] == "yes").all() == (name == "wrong")
    table, _ = grade_question("q1", model, [f"s{i}" for i in range(len(WRONG))], WRONG)  # the app's path
    assert "share no word" in table.attrs["warnings"][0]
