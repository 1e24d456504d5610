"""A model of the marked answers' wording: how much an answer reads like those of each mark.

A word-for-word comparison misses answers that say the same thing in other words or with
other spellings. A linear model over the answer's words, word pairs and letter sequences
(3 and 4 letters inside words, which survive misspellings and word endings) is fitted to the
marked answers, one score per mark. The grading model uses it as a second reader that
does not mark anything itself: a rule's mark is trusted more when the wording agrees with it
(`grader.grading.wording`). Cross-validated on Beetle, the same scores as features of the
rule learner did worse (the learner picked thresholds on them over clearer evidence).

Kernel ridge regression with a linear kernel on tf-idf rows (solved in the dual: one n x n
system for n marked answers, whatever the vocabulary size), kept in primal form (a weight
per n-gram and mark) for grading and saving. `out_of_fold` scores each training answer with
a model fitted without its fold.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

import numpy as np

MAX_VOCABULARY = 4000  # the n-grams in most answers: bounded model size and time
MIN_ANSWERS = 2  # an n-gram must occur in this many marked answers
RIDGE = 1.0  # regularisation, in units of the (unit-length) rows' self-similarity
FOLDS = 5
_WORD = re.compile(r"[^\W_]+")
_MAX_CACHED_WORDS = 200_000  # distinct words whose n-gram columns are remembered


class NgramColumns(NamedTuple):
    """The vocabulary columns of many answers, flattened once for every scorer that reads
    them (the words' reader and the reader of words and features share them): `indices`
    holds each answer's columns in increasing order, answer after answer, `lengths` how
    many each answer has."""

    lengths: np.ndarray  # int64, one per answer
    indices: np.ndarray  # int64, sum(lengths)


def flatten_columns(columns: Sequence[set[int]], width: int) -> NgramColumns:
    """`columns` (a set of column numbers < width per answer) as `NgramColumns`: one sort
    of row * width + column puts every answer's columns in order without a Python `sorted`
    per answer (the order `_sparse_scores` adds them in)."""
    lengths = np.fromiter(map(len, columns), dtype=np.int64, count=len(columns))
    flat = np.fromiter(chain.from_iterable(columns), dtype=np.int64, count=int(lengths.sum()))
    offsets = np.repeat(np.arange(len(columns), dtype=np.int64) * max(width, 1), lengths)
    return NgramColumns(lengths, np.sort(flat + offsets) - offsets)


def answer_ngrams(text: str) -> set[str]:
    """The distinct n-grams of one answer: words, adjacent word pairs, letter 3- and 4-grams."""
    words = _WORD.findall(text.lower())
    grams = {"w " + w for w in words}
    grams.update("p " + a + " " + b for a, b in zip(words, words[1:]))
    for w in words:
        padded = f"<{w}>"
        for n in (3, 4):
            grams.update("c " + padded[i:i + n] for i in range(len(padded) - n + 1))
    return grams


@dataclass
class NgramScorer:
    """A score per mark for any answer; fitted on marked answers (see the module docstring)."""

    marks: list[str] = field(default_factory=list)  # the marks, as text, in order
    vocabulary: list[str] = field(default_factory=list)
    idf: np.ndarray = field(default_factory=lambda: np.zeros(0))
    weights: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # vocabulary x marks
    bias: np.ndarray = field(default_factory=lambda: np.zeros(0))  # per mark
    #: weights of extra columns read beside the text (`with_extra`): extra columns x marks
    extra_weights: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    @classmethod
    def fit(cls, texts: Sequence[str], marks: Sequence[Hashable]) -> NgramScorer:
        names = sorted({str(m) for m in marks})
        grams = [answer_ngrams(t) for t in texts]
        df = Counter(g for gs in grams for g in gs)
        kept = sorted((g for g, n in df.items() if n >= MIN_ANSWERS), key=lambda g: (-df[g], g))
        vocabulary = sorted(kept[:MAX_VOCABULARY])
        n = len(texts)
        idf = np.log((1.0 + n) / (1.0 + np.array([df[g] for g in vocabulary], dtype=float))) + 1.0
        scorer = cls(names, vocabulary, idf)
        X = scorer._rows(grams)
        Y = _one_hot(marks, names)
        kernel = X @ X.T + 1.0
        dual = _solve(kernel, Y)
        scorer.weights = X.T @ dual
        scorer.extra_weights = np.zeros((0, len(names)))
        scorer.bias = dual.sum(axis=0)
        scorer._X, scorer._Y, scorer._kernel = X, Y, kernel  # for out_of_fold and with_extra, not saved
        return scorer._as_saved()

    def with_extra(self, extra: np.ndarray) -> NgramScorer:
        """A scorer over the same n-grams that also reads `extra` columns (answers x columns,
        on a scale comparable to the unit-length n-gram rows), fitted on the same answers
        (only right after `fit`, which keeps their rows)."""
        extra = np.asarray(extra, dtype=float).reshape(len(self._X), -1)
        kernel = self._kernel + extra @ extra.T  # the n-grams' kernel, worked out once in fit
        dual = _solve(kernel, self._Y)
        made = NgramScorer(self.marks, self.vocabulary, self.idf, self._X.T @ dual, dual.sum(axis=0),
                           extra.T @ dual)
        made._X, made._Y, made._kernel = np.hstack([self._X, extra]), self._Y, kernel
        return made._as_saved()

    def _as_saved(self) -> NgramScorer:
        """The scorer with its numbers as its model file holds them (`to_dict` rounds them), so
        that a model grades alike before it is saved and after it is loaded. In place."""
        self.idf, self.weights, self.bias, self.extra_weights = (
            _saved(self.idf), _saved(self.weights), _saved(self.bias), _saved(self.extra_weights))
        return self

    def out_of_fold(self) -> np.ndarray:
        """(training answers x marks) each answer scored by a model fitted without its fold."""
        X, Y = self._X, self._Y
        n = len(X)
        out = np.zeros_like(Y)
        folds = np.arange(n) % FOLDS
        kernel = self._kernel
        for k in range(min(FOLDS, n)):
            held, rest = folds == k, folds != k
            if not rest.any():
                continue
            dual = _solve(kernel[np.ix_(rest, rest)], Y[rest])
            out[held] = kernel[np.ix_(held, rest)] @ dual
        return _readable(out)

    def score(self, texts: Sequence[str], extra: np.ndarray | None = None,
              columns: NgramColumns | Sequence[set[int]] | None = None) -> np.ndarray:
        """(answers x marks) how much each answer reads like the answers of each mark;
        `extra`: the answers' extra columns, when the scorer was fitted with them; `columns`:
        `columns_of(texts)`, if already worked out."""
        if not len(texts):
            return np.zeros((0, len(self.marks)))
        raw = self._sparse_scores(self.columns_of(texts) if columns is None else columns)
        if len(self.extra_weights):
            if extra is None:
                raise ValueError("this text model also reads extra columns: give them")
            raw = raw + np.asarray(extra, dtype=float).reshape(len(texts), -1) @ self.extra_weights
        return _readable(raw)

    def columns_of(self, texts: Sequence[str]) -> NgramColumns:
        """The texts' vocabulary columns (what `score` reads; scorers that share the
        vocabulary, as `with_extra` makes them, share them)."""
        return flatten_columns([self._columns(t) for t in texts], len(self.vocabulary))

    def _sparse_scores(self, columns: NgramColumns | Sequence[set[int]]) -> np.ndarray:
        """`_rows(...) @ weights + bias` from each answer's vocabulary columns, without the
        dense answers x vocabulary matrix: an answer has a hundred of the 4,000 n-grams, so
        only their weight rows are summed (the same sums up to the order of the additions,
        which `_readable`'s rounding to 2 decimals does not see; see test_fast_paths)."""
        if not isinstance(columns, NgramColumns):
            columns = flatten_columns(columns, len(self.vocabulary))
        lengths, indices = columns
        values = self.idf[indices]
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        has = lengths > 0
        out = np.zeros((len(lengths), len(self.marks)))
        if not has.any():
            return out + self.bias
        at = starts[has]  # reduceat over non-empty rows only (an empty segment is not 0)
        norms = np.sqrt(np.add.reduceat(values * values, at))
        values = values / np.repeat(norms, lengths[has])  # the rows of unit length
        out[has] = np.add.reduceat(values[:, None] * self.weights[indices], at, axis=0)
        return out + self.bias

    def _columns(self, text: str) -> set[int]:
        """The vocabulary columns of `answer_ngrams(text)`, from the columns of each word's
        own n-grams (worked out once per distinct word: answers share most of their words)
        and of its word pairs."""
        index = self.__dict__.get("_index")
        if index is None:
            index = self.__dict__["_index"] = {g: j for j, g in enumerate(self.vocabulary)}
        of_word: dict[str, tuple[int, ...]] = self.__dict__.setdefault("_word_columns", {})
        words = _WORD.findall(text.lower())
        columns: set[int] = set()
        for w in words:
            cols = of_word.get(w)
            if cols is None:
                padded = f"<{w}>"
                grams = {"w " + w} | {"c " + padded[i:i + n] for n in (3, 4)
                                      for i in range(len(padded) - n + 1)}
                cols = tuple(index[g] for g in grams if g in index)
                if len(of_word) < _MAX_CACHED_WORDS:
                    of_word[w] = cols
            columns.update(cols)
        for a, b in zip(words, words[1:]):
            j = index.get("p " + a + " " + b)
            if j is not None:
                columns.add(j)
        return columns

    def _rows(self, grams: Sequence[set[str]]) -> np.ndarray:
        index = {g: j for j, g in enumerate(self.vocabulary)}
        X = np.zeros((len(grams), len(self.vocabulary)))
        for i, gs in enumerate(grams):
            cols = [index[g] for g in gs if g in index]
            X[i, cols] = self.idf[cols]
        norms = np.linalg.norm(X, axis=1, keepdims=True)
        return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)

    def to_dict(self) -> dict:
        return {"marks": self.marks, "vocabulary": self.vocabulary,
                "idf": _saved(self.idf).tolist(), "weights": _saved(self.weights).tolist(),
                "bias": _saved(self.bias).tolist(),
                **({"extra_weights": _saved(self.extra_weights).tolist()} if len(self.extra_weights) else {})}

    @classmethod
    def from_dict(cls, d: dict) -> NgramScorer:
        marks, vocabulary = [str(m) for m in d["marks"]], [str(g) for g in d["vocabulary"]]
        idf = np.asarray(d["idf"], dtype=float)
        weights = np.asarray(d["weights"], dtype=float).reshape(len(vocabulary), len(marks))
        bias = np.asarray(d["bias"], dtype=float)
        extra = np.asarray(d.get("extra_weights", []), dtype=float).reshape(-1, len(marks))
        if idf.shape != (len(vocabulary),) or bias.shape != (len(marks),) \
                or not (np.isfinite(idf).all() and np.isfinite(weights).all() and np.isfinite(bias).all()
                        and np.isfinite(extra).all()):
            raise ValueError("the saved text model is inconsistent: sizes or values are wrong")
        return cls(marks, vocabulary, idf, weights, bias, extra)


#: Decimals of the numbers a model file keeps (smaller files; the scores are read to 2).
_SAVED_DECIMALS = 6


def _saved(values: np.ndarray) -> np.ndarray:
    """The values as a model file keeps them: each rounded as Python's round() does, which
    JSON writes and reads back exactly."""
    values = np.asarray(values, dtype=float)
    return np.array([round(float(v), _SAVED_DECIMALS) for v in values.ravel()]).reshape(values.shape)


def _one_hot(marks: Sequence[Hashable], names: list[str]) -> np.ndarray:
    column = {m: j for j, m in enumerate(names)}
    Y = np.zeros((len(marks), len(names)))
    Y[np.arange(len(marks)), [column[str(m)] for m in marks]] = 1.0
    return Y


def _solve(kernel: np.ndarray, Y: np.ndarray) -> np.ndarray:
    return np.linalg.solve(kernel + RIDGE * np.eye(len(kernel)), Y)


def _readable(scores: np.ndarray) -> np.ndarray:
    """Scores clipped to 0-1 and rounded: thresholds a teacher reads ("0.62", not "0.6183")."""
    return np.round(np.clip(scores, 0.0, 1.0), 2)
