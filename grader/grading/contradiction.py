"""Marks that an answer contradicts: a good mark for an answer that also states a known wrong idea.

"9.8 m/s^2 downwards. No wait, the acceleration is zero at the top" satisfies the rule for
full marks and also states the misconception the rubric names. A marking scheme usually
gives such contradictions the lowest mark, but a rule that looks at what is right cannot see
it, and a handful of marked answers rarely teaches it. So the grading model flags every
answer marked above the question's lowest mark that states one of the rubric's
misconceptions (one the rule that fired does not itself ask for) and says which: a human
decides. This needs numeric marks (to know which mark is the lowest) and a rubric with
misconceptions; without them nothing is flagged.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from knowledge.schema import Question, feature_name, mark_number


def contradiction_notes(question: Question, X: pd.DataFrame, marks: Sequence[object],
                        rule_features: Sequence[frozenset[str]]) -> np.ndarray:
    """For each answer: "" or the misconceptions it states although it got more than the
    lowest mark ("thinks the acceleration is zero at the top"). `rule_features`: the features
    the rule that marked each answer tests (its misconceptions are not held against it)."""
    notes = np.full(len(X), "", dtype=object)
    numbers = [mark_number(m) for m in question.marks]
    if not question.misconceptions or len(X) == 0 or not numbers or None in numbers:
        return notes
    lowest = min(numbers)
    columns = [(feature_name("misconception", m.name), m.description or m.name.replace("_", " "))
               for m in question.misconceptions]
    present = {c: (X[c].to_numpy(dtype=object) == "present") for c, _ in columns if c in X.columns}
    for i, mark in enumerate(marks):
        number = None if mark is None else mark_number(mark)
        if number is None or number <= lowest:
            continue
        stated = [text for c, text in columns if c in present and present[c][i] and c not in rule_features[i]]
        if stated:
            notes[i] = "; ".join(stated)
    return notes
