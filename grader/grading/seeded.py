"""A question's own model while few answers are marked, backed by the general model.

With ten or twenty marked answers a question's own model has few rules, of low confidence,
and leaves many answers unmarked. The general model (`grader.grading.general`) has seen
thousands of answers to other questions. Seeded, each answer gets the mark of whichever of
the two is more confident about it: the general model where the own model gives no mark or
is less sure, the own model where its rules are better supported. As marks come in, the own
model's confidences grow and it takes over; the explanation says which model marked.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from grader.grading.general import GeneralGrader
from grader.grading.model import DEFAULT_FLAG_BELOW, GradingModel, content_hash


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

    def grade(self, answers: Sequence[str], flag_below: float = DEFAULT_FLAG_BELOW) -> pd.DataFrame:
        general = self.general.grade(answers, flag_below)
        if self.own is None:
            return general
        own = self.own.grade(answers, flag_below)
        own_conf = own["confidence"].to_numpy(dtype=float)
        general_conf = general["confidence"].to_numpy(dtype=float)
        with np.errstate(invalid="ignore"):
            use_general = ((own["mark"].isna().to_numpy() | (general_conf > own_conf))
                           & general["mark"].notna().to_numpy())
        out = own.copy()
        out.loc[use_general] = general.loc[use_general]
        return out

    @property
    def descriptions(self) -> dict[str, str]:
        return self.general.descriptions if self.own is None else self.own.descriptions

    def explain(self, answer: str):
        """The justification of the model that marked this answer (see `grade`)."""
        if self.own is None:
            return self.general.explain(answer)
        rule = str(self.grade([answer])["rule"].iloc[0])
        return self.general.explain(answer) if rule.startswith("G") else self.own.explain(answer)

    def fingerprint(self) -> str:
        return content_hash([None if self.own is None else self.own.fingerprint(), self.general.fingerprint()])
