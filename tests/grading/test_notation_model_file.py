"""A model file keeps a quantity's notation options and grades the same after loading."""

from __future__ import annotations

import pandas as pd

from grader.grading.model import GradingModel
from knowledge.schema import Concept, Quantity, Question


def test_notation_options_survive_the_model_file(tmp_path):
    g = Quantity("acceleration", 9.8, "m/s^2", tolerance=0.03, bare_number=True, symbol="g",
                 negative_means="downward")
    question = Question("t", "What is the acceleration, in m/s^2?", ("9.8 m/s^2 downwards",), marks=("0", "1"),
                        concepts=(Concept("downward", ("down", "downwards")),), quantities=(g,))
    answers = ["9.8 down", "g downwards", "-9.8", "10 m/s^2 down", "zero", "4.9 up", "no idea", "it stops"] * 3
    marks = ["1", "1", "1", "1", "0", "0", "0", "0"] * 3
    model = GradingModel.train(question, answers, marks, n_resamples=0)
    model.save(tmp_path / "m.json")
    loaded = GradingModel.load(tmp_path / "m.json")
    assert loaded.question.quantities[0] == g
    pd.testing.assert_frame_equal(loaded.grade(["g down", "-9.8", "9.8"]), model.grade(["g down", "-9.8", "9.8"]))
