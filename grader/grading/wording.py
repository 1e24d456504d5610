"""Wording support: a second reader whose disagreement makes a rule's mark less certain.

Rules mark the answers and say why; how sure a mark is should also depend on evidence the
rule does not look at. A model of the marked answers' wording (`features.text_model`) scores
each answer per mark ("answers worded like this one were marked 1"). The wording support of
a rule's mark is its score relative to the best-scored mark: 1 when the wording agrees with
the rule, less the more the wording prefers another mark. The confidence of the mark is
multiplied by it, so a mark the wording contradicts is flagged sooner while one it agrees
with keeps its confidence (the default flag threshold keeps its meaning).

In 5-fold cross-validation on Beetle's train split (three fold seeds) this raised the
accuracy of the answers left to the machine with 30% flagged from 0.828 to 0.839 (3-way)
and from 0.929 to 0.936 (2-way), on every seed; see docs/beetle.md.

Since 2026-11-24 a second model of the same kind also reads the extractor's features of
each answer (`FeatureColumns`); it weighs the vote of the rule lists where they disagree
(`agreement.majority_vote`), and a mark's support is the product of both models' supports
(`WordingSupport`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from features.text import normalize
from features.text_model import NgramScorer
from knowledge.schema import FeatureSpec


#: How much the extractor's features weigh in the second reader against the n-grams (the
#: features are standardised and scaled to unit length together, like an n-gram row, then
#: multiplied by this). 5-fold CV inside Beetle's split=train: the reader's own held-out
#: accuracy rose with it up to about 2.5 (3-way 0.733 -> 0.753 at 1, 2-way 0.826 -> 0.858 at
#: 2.5, better on 16-19 of 23 questions); docs/beetle.md.
FEATURE_WEIGHT = 2.5
#: A numeric feature whose spread is below this (relative to its size) has one value on all
#: marked answers but for rounding ("4/9" computed two ways): it tells nothing, and its scale
#: would be written as 0.
_SAME = 1e-6
#: Decimals of a centre or scale that the model file keeps.
_SAVED_DECIMALS = 9


class FeatureColumns:
    """The extractor's features as numbers for the second reader: each numeric feature
    standardised on the marked answers, each value of a categorical one as 0/1 (columns that
    are the same for every marked answer are left out), all scaled together."""

    def __init__(self, columns: list[tuple[str, str | None, float, float]], weight: float = FEATURE_WEIGHT):
        self.columns = columns  # (feature, value or None for a number, centre, scale)
        self.weight = weight

    @classmethod
    def fit(cls, X: pd.DataFrame, specs: Sequence[FeatureSpec]) -> FeatureColumns:
        columns: list[tuple[str, str | None, float, float]] = []
        for spec in specs:
            if spec.name not in X.columns:
                continue
            if spec.kind == "numeric":
                values = _numbers(X[spec.name])
                centre, scale = float(values.mean()), float(values.std())
                if scale > _SAME * max(1.0, abs(centre)):  # not the same value but for rounding
                    # as the model file keeps them: a model grades alike before saving and after loading
                    columns.append((spec.name, None, round(centre, _SAVED_DECIMALS), round(scale, _SAVED_DECIMALS)))
            else:
                text = _texts(X[spec.name])
                for value in spec.values or ():
                    share = float((text == value).mean())
                    if 0 < share < 1:
                        columns.append((spec.name, str(value), 0.0, 1.0))
        return cls(columns)

    def matrix(self, X: pd.DataFrame) -> np.ndarray:
        """(answers x columns) the scaled numbers of each answer."""
        out = np.empty((len(X), len(self.columns)))
        names = list(dict.fromkeys(name for name, value, _, _ in self.columns if value is not None))
        codes, code_of = _distinct_texts(X, names)
        at = {name: i for i, name in enumerate(names)}
        for j, (name, value, centre, scale) in enumerate(self.columns):
            if value is None:
                out[:, j] = (_numbers(X[name]) - centre) / scale
            else:
                out[:, j] = codes[:, at[name]] == code_of.get(value, -2)
        return out * (self.weight / np.sqrt(max(len(self.columns), 1)))

    def to_dict(self) -> dict:
        return {"weight": self.weight, "columns": [[n, v, round(c, _SAVED_DECIMALS), round(s, _SAVED_DECIMALS)]
                                                 for n, v, c, s in self.columns]}

    @classmethod
    def from_dict(cls, data: dict) -> FeatureColumns:
        columns = [(str(n), None if v is None else str(v), float(c), float(s)) for n, v, c, s in data["columns"]]
        if not all(np.isfinite([c, s]).all() and s > 0 for _, _, c, s in columns):
            raise ValueError("the saved feature columns are inconsistent: a centre or scale is wrong")
        return cls(columns, float(data["weight"]))


def _texts(column: pd.Series) -> np.ndarray:
    return column.to_numpy(dtype=object).astype(str)


def _distinct_texts(X: pd.DataFrame, names: list[str]) -> tuple[np.ndarray, dict[str, int]]:
    """(a code per cell of the `names` columns, text -> its code): `_texts(X[name]) == value`
    is `codes[:, i] == code_of[value]`. The cells of all those columns (~40 per chunk of
    answers, each with a few distinct values) are factorized at once and the texts of the
    distinct values compared, not every cell's, column by column."""
    if not names:
        return np.zeros((len(X), 0), dtype=np.int64), {}
    cells = X[names].to_numpy(dtype=object)
    codes, uniques = pd.factorize(cells.ravel(), use_na_sentinel=False)
    if not all(type(u) is str for u in uniques):  # 1 == 1.0 == True: one code, three texts
        codes, uniques = pd.factorize(cells.astype(str).ravel())
    return codes.reshape(cells.shape), {u: i for i, u in enumerate(uniques)}


def _numbers(column: pd.Series) -> np.ndarray:
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    return np.where(np.isfinite(values), values, 0.0)


class Scores(NamedTuple):
    """Each answer's score per mark (answers x marks, in the order of `WordingSupport.marks`)
    from the words alone, and from the words and the extractor's features (None without)."""

    words: np.ndarray
    read: np.ndarray | None


class WordingSupport:
    """Two readers fitted on the marked answers: one of the words alone (`scorer`) and one of
    the words and the extractor's features (`reader`; None in model files written before
    2026-11-24). `judge(answers, marks)` gives each mark's support: the product of the two
    readers' supports (each the mark's score over the best mark's). The reader's scores also
    weigh the vote of the rule lists (`vote_scores`).

    Why two: the reader of words and features marks nearly as well as the rules (Beetle, CV:
    3-way 0.733 -> 0.753 alone against the words' reader), so it is the better judge where the
    rule lists are split; but it reads the rules' own evidence, so as a second opinion on a
    rule's mark the words' reader stays, and the product of both ranked the wrong marks best
    (docs/beetle.md)."""

    def __init__(self, scorer: NgramScorer, reader: NgramScorer | None = None,
                 columns: FeatureColumns | None = None):
        self.scorer = scorer
        self.reader = reader
        self.columns = columns  # how the reader reads the features; None without a reader

    @classmethod
    def fit(cls, answers: Sequence[str], marks: Sequence[str], X: pd.DataFrame | None = None,
            specs: Sequence[FeatureSpec] = ()) -> WordingSupport:
        """With the extractor's features of the answers (`X`, described by `specs`), also the
        reader of words and features."""
        scorer = NgramScorer.fit([normalize(a) for a in answers], marks)
        if X is None:
            return cls(scorer)
        columns = FeatureColumns.fit(X, specs)
        return cls(scorer, scorer.with_extra(columns.matrix(X)), columns)

    @property
    def marks(self) -> list[str]:
        return self.scorer.marks

    def scores(self, answers: Sequence[str], X: pd.DataFrame | None = None) -> Scores:
        """Both readers' scores of the answers, 0-1; `X`: the answers' features, which the
        reader of features needs."""
        texts = [normalize(a) for a in answers]
        if self.reader is None:
            return Scores(self.scorer.score(texts), None)
        if X is None:
            raise ValueError("this wording model also reads the answers' features: give them")
        columns = self.scorer.columns_of(texts)  # the reader shares the scorer's n-grams
        return Scores(self.scorer.score(texts, columns=columns),
                      self.reader.score(texts, self.columns.matrix(X), columns))

    def vote_scores(self, scores: Scores) -> dict[str, np.ndarray]:
        """Mark -> each answer's score, for the vote (`agreement.majority_vote`): the reader's,
        else the words'."""
        chosen = scores.words if scores.read is None else scores.read
        return {m: chosen[:, j] for j, m in enumerate(self.marks)}

    def judge(self, answers: Sequence[str], marks: Sequence[object],
              scores: Scores | None = None, X: pd.DataFrame | None = None) -> tuple[np.ndarray, list]:
        """(support, preferred): for each answer, how much the readers support the given mark
        (0-1: the product over the readers of its score relative to the best-scored mark; NaN
        where the mark is None, unknown to the model, or no mark scores above 0), and the mark
        they prefer (the reader's where there is one; None where support is NaN).
        `scores`: `self.scores(answers, X)`, if already computed."""
        support = np.full(len(answers), np.nan)
        preferred: list = [None] * len(answers)
        if not len(answers):
            return support, preferred
        if scores is None:
            scores = self.scores(answers, X)
        column = {m: j for j, m in enumerate(self.marks)}
        given = np.fromiter((-1 if mark is None else column.get(str(mark), -1) for mark in marks),
                            dtype=np.int64, count=len(answers))
        readers = [s for s in (scores.words, scores.read) if s is not None]
        bests = [s.max(axis=1) for s in readers]
        rows = np.flatnonzero((given >= 0) & np.logical_and.reduce([b > 0 for b in bests]))
        product = np.ones(len(rows))
        for s, best in zip(readers, bests):
            product = product * np.minimum(s[rows, given[rows]] / best[rows], 1.0)
        # np.round is what round() of a numpy float does: the figures of a per-answer loop
        support[rows] = np.round(product, 2)
        names = np.asarray(self.marks, dtype=object)
        for i, name in zip(rows.tolist(), names[np.argmax(readers[-1][rows], axis=1)].tolist()):
            preferred[i] = name
        return support, preferred

    def support(self, answers: Sequence[str], marks: Sequence[object], X: pd.DataFrame | None = None) -> np.ndarray:
        return self.judge(answers, marks, X=X)[0]

    def to_dict(self) -> dict:
        data = self.scorer.to_dict()
        if self.reader is not None:
            data["reader"] = {**self.reader.to_dict(), "feature_columns": self.columns.to_dict()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> WordingSupport:
        scorer = NgramScorer.from_dict(data)
        if "reader" not in data:
            return cls(scorer)
        reader, columns = NgramScorer.from_dict(data["reader"]), FeatureColumns.from_dict(data["reader"]["feature_columns"])
        if len(reader.extra_weights) != len(columns.columns) or reader.marks != scorer.marks:
            raise ValueError("the saved reader of features is inconsistent: its columns, weights or marks differ")
        return cls(scorer, reader, columns)


#: The least the wording support counts for in a confidence (`weigh`).
SUPPORT_FLOOR = 0.1


def weigh(confidence: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Confidence times the wording support (unchanged where there is no support figure), the
    support counted as at least SUPPORT_FLOOR. Why the floor: a mark no marked answer's wording
    resembles has a support of 0, and the product then said "confidence 0" of a mark every
    resampled rule list gave, which such marks are not (the sample questions' cross-validated
    marks of raw confidence under 0.1 were right about half the time): the wording can divide a
    confidence by ten, not wipe out what the rules agree on. The order of the marks is that of
    the plain product except among those supported less than the floor."""
    return np.where(np.isnan(support), confidence, confidence * np.maximum(support, SUPPORT_FLOOR))


def support_phrase(support: float, mark: object, preferred: object) -> str:
    """What the wording says about a mark, in a marker's words ("" without a figure)."""
    if support is None or np.isnan(support):
        return ""
    if support >= 1.0:
        return f"answers worded like this one were marked {mark} too"
    # "but": the figure is lowered by it, also where every rule list gives the mark
    if str(preferred) == str(mark):  # the reader of features prefers it, the reader of words another
        return f"but answers worded like this one were not all marked {mark} (wording support {support:.2f})"
    return f"but answers worded like this one were more often marked {preferred} (wording support {support:.2f})"


def support_phrases(support: np.ndarray, marks: Sequence[object], preferred: Sequence[object]) -> np.ndarray:
    """"; answers worded like this one were marked 1 too" for each answer ("" without a figure)."""
    return np.asarray([("; " + p) if p else "" for p in
                       (support_phrase(s, m, q) for s, m, q in zip(support, marks, preferred))],
                      dtype=object)
