"""A question's own model while few answers are marked, backed by the general model.

With ten or twenty marked answers a question's own model has few rules and leaves many
answers unmarked. The general model (`grader.grading.general`) has seen thousands of answers
to other questions. Seeded, the own model marks what its rules cover and the general model
marks the answers it leaves unmarked (before the own model can be trained, all of them). As
marks come in, the own model covers more and the general model less; the explanation says
which model marked (general rules are numbered G1, G2, ...).

Measured with `python -m grader.bench learning-curve --split train` (2-way, 23 Beetle questions,
2 seeds, accuracy on the unmarked answers after 10/20/40/80 marks in random order): the own
model alone 0.729/0.781/0.798/0.859, seeded this way 0.739/0.788/0.801/0.864; giving each
answer the mark of the more confident of the two instead did worse than the own model alone
(0.719/0.759/0.795/0.837): the general model's confidences, learned on other questions,
overrule the question's own evidence.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from grader.grading.general import GeneralGrader
from grader.grading.defaults import DEFAULT_FLAG_BELOW
from grader.grading.model import GradingModel
from grader.grading.model_file import content_hash


class SeededModel:
    """`grade` like a `GradingModel`: the own model (None before two marks are marked)
    and the general model for the same question."""

    def __init__(self, own: GradingModel | None, general: GeneralGrader):
        self.own = own
        self.general = general
        self.question = general.question

    def features(self, answers: Sequence[str]) -> pd.DataFrame:
        """The own model's features of the answers, or the general ones before there is one."""
        return self.general.features(answers) if self.own is None else self.own.features(answers)

    def rules(self, format: str = "text") -> str:
        general = "The general model's rules (for answers the question's own rules do not mark surely):\n"
        general += self.general.model.rules()
        return general if self.own is None else self.own.rules(format) + "\n" + general

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW,
              features: pd.DataFrame | None = None) -> pd.DataFrame:
        """`features`: `self.features(answers)` when the caller has it already."""
        if self.own is None:
            return self.general.grade(answers, flag_below, features)
        general = self.general.grade(answers, flag_below)
        X = self.own.features(answers) if features is None else features
        own = self.own.grade(answers, flag_below, X)
        # the answers the own model's rules leave: the vote of its resampled rule lists would
        # mark some of them, but the general model was measured better there (module docstring)
        left = self.own.learner.predict_rules(X)[2] < 0
        use_general = (own["mark"].isna().to_numpy() | left) & general["mark"].notna().to_numpy()
        out = own.copy()
        out.loc[use_general] = general.loc[use_general]
        return out

    @property
    def descriptions(self) -> dict[str, str]:
        return self.general.descriptions if self.own is None else self.own.descriptions

    @property
    def opposites(self) -> dict[str, str]:
        return {} if self.own is None else self.own.opposites

    def explain(self, answer: str):
        """The justification of the model that marked this answer (see `grade`)."""
        if self.own is None:
            return self.general.explain(answer)
        rule = str(self.grade([answer])["rule"].iloc[0])
        return self.general.explain(answer) if rule.startswith("G") else self.own.explain(answer)

    def fingerprint(self) -> str:
        return content_hash([None if self.own is None else self.own.fingerprint(), self.general.fingerprint()])
