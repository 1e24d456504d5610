"""Which answers a teacher should mark next, so that a few marks teach the most.

Powergrading's idea (Basu, Jacobs, Vanderwende 2013): answers fall into groups of similar
answers, and one mark on a group's representative says much about the whole group. Then
active learning: once a model can be trained, the answers it is least sure of are worth
more than those it already marks confidently.

Both are one greedy choice. Every answer is a tf-idf vector of its words, word pairs and
letter n-grams (`features.text_model.answer_ngrams`); an answer is *covered* as well as its
cosine similarity to the closest answer already marked or suggested. Each step suggests the
answer with the largest gain: the sum, over the unmarked answers (identical answers counted
each time), of how much closer it would bring them to a marked answer, weighed by how unsure
the current model is of the answers it would cover (1 - confidence; 1 everywhere before
there is a model). Before any model, that picks one representative of each group, largest
groups first, covering the answers' variety; with a model, the answers that are unsure *and*
stand for many others (a mark on them would change the most marks) come first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from features.text_model import answer_ngrams

MAX_VOCABULARY = 4000
#: A model is trained to weigh the choice once this many answers of two marks are marked.
MIN_MARKED_FOR_MODEL = 10
#: At most this many distinct answers are candidates (every answer still counts as covered or not).
MAX_CANDIDATES = 2000
#: Cosine similarity from which an answer counts as "similar" in a suggestion's reason.
SIMILAR = 0.5


@dataclass
class Suggestion:
    """One answer to mark: its position in the answers, why, and how many answers it stands for."""

    index: int
    reason: str
    similar: int  # unmarked answers similar to it and closer to it than to any marked one (itself included)
    confidence: float | None  # the current model's confidence in its mark, None before a model
    members: tuple[int, ...] = ()  # the positions of those `similar` answers (its own first)
    mark: str | None = None  # the current model's mark, when the caller gave the marks


def answer_vectors(texts: Sequence[str]) -> np.ndarray:
    """Unit-length tf-idf rows (answers x n-grams seen in at least two answers)."""
    grams = [answer_ngrams(t) for t in texts]
    df = Counter(g for gs in grams for g in gs)
    kept = sorted((g for g, n in df.items() if n >= 2), key=lambda g: (-df[g], g))[:MAX_VOCABULARY]
    index = {g: j for j, g in enumerate(kept)}
    n = len(texts)
    idf = np.log((1.0 + n) / (1.0 + np.array([df[g] for g in kept], dtype=float))) + 1.0
    X = np.zeros((n, len(kept)), dtype=np.float32)
    for i, gs in enumerate(grams):
        cols = [index[g] for g in gs if g in index]
        X[i, cols] = idf[cols]
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)


def suggest(answers: Sequence[str], marked: Sequence[bool], n: int,
            confidence: Sequence[float] | None = None,
            guesses: Sequence[str | None] | None = None) -> list[Suggestion]:
    """The next `n` unmarked answers to mark, best first (see the module docstring).

    `marked[i]`: answer i is marked already. `confidence[i]`: the current model's confidence
    in answer i's mark (NaN where it gives none), or None before there is a model.
    `guesses[i]`: that mark, named in the reason when given (a teacher reading "confidence
    0.40" asks: in which mark?)."""
    texts = ["" if a is None else str(a) for a in answers]
    marked = np.asarray(marked, dtype=bool)
    if len(marked) != len(texts):
        raise ValueError(f"{len(texts)} answers but {len(marked)} marked flags")
    if confidence is not None and len(confidence) != len(texts):
        raise ValueError(f"{len(texts)} answers but {len(confidence)} confidences")
    # Identical answers are one candidate with a weight: one mark settles them all.
    codes, unique = _factorize([" ".join(t.lower().split()) for t in texts])
    m = len(unique)
    count = np.bincount(codes[~marked], minlength=m).astype(float)  # unmarked copies
    done = np.zeros(m, dtype=bool)
    done[codes[marked]] = True
    unsure = np.ones(m)
    conf_u = np.full(m, np.nan)
    if confidence is not None:
        conf = np.asarray(confidence, dtype=float)
        for i in np.flatnonzero(~marked):
            conf_u[codes[i]] = conf[i]
        unsure = np.where(np.isnan(conf_u), 1.0, 1.0 - np.clip(conf_u, 0.0, 1.0))
    V = answer_vectors(unique)
    pool = _candidates(count, done)
    sim = V[pool] @ V.T  # candidates x distinct answers
    sim[np.arange(len(pool)), pool] = 1.0
    covered = (V @ V[done].T).max(axis=1) if done.any() else np.zeros(m)
    covered[done] = 1.0
    weight = count * np.maximum(unsure, 0.05)  # an answer the model is sure of still counts a little
    picks: list[Suggestion] = []
    open_ = np.ones(len(pool), dtype=bool)
    while len(picks) < n and open_.any():
        gain = np.maximum(sim - covered[None, :], 0.0) @ weight  # gain of suggesting each candidate
        gain = np.where(open_, gain, -np.inf)
        row = int(np.argmax(gain))
        best = int(pool[row])
        closer = (sim[row] > covered) & (sim[row] >= SIMILAR) & (count > 0)
        similar = int(count[closer].sum())
        first = int(np.flatnonzero((codes == best) & ~marked)[0])
        reason = (f"stands for {similar} answers like it" if similar > 1
                  else "unlike the other answers")
        guess = None if guesses is None or guesses[first] is None else str(guesses[first])
        if confidence is not None:
            reason += ("; the model gives it no mark" if np.isnan(conf_u[best])
                       else f"; the model's confidence in its mark: {conf_u[best]:.2f}" if guess is None
                       else f"; the model would mark it {guess}, with confidence {conf_u[best]:.2f}")
        alike = np.flatnonzero(closer[codes] & ~marked)
        members = (first,) + tuple(int(i) for i in alike if i != first)
        picks.append(Suggestion(int(first), reason, similar,
                                None if confidence is None or np.isnan(conf_u[best]) else float(conf_u[best]),
                                members, guess))
        covered = np.maximum(covered, sim[row])
        open_[row] = False
    return picks


def _candidates(count: np.ndarray, done: np.ndarray, limit: int = MAX_CANDIDATES) -> np.ndarray:
    """The distinct unmarked answers that may be suggested: all of them, or in a large exam
    the `limit` most repeated (ties: a fixed random draw), so that time and memory stay bounded."""
    open_ = np.flatnonzero((count > 0) & ~done)
    if len(open_) <= limit:
        return open_
    tiebreak = np.random.default_rng(0).random(len(open_))
    order = np.lexsort((tiebreak, -count[open_]))
    return np.sort(open_[order[:limit]])


def _factorize(texts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(t, len(index)) for t in texts), dtype=np.int64, count=len(texts))
    return codes, list(index)


def current_model(question, answers: Sequence[str], marks: Sequence[str | None], general=None,
                  n_resamples: int = 5, **train_options):
    """The model the suggestions are weighed with: the question's own model trained on the
    marked answers once `MIN_MARKED_FOR_MODEL` of at least two marks are marked, seeded with
    `general` (a `GeneralModel`) when one is given; the general model alone before that; None
    without either. Anything with `grade(answers)`."""
    from grader.grading.model import GradingModel
    from grader.grading.seeded import SeededModel

    given = [(a, m) for a, m in zip(answers, marks) if m is not None]
    own = None
    if len(given) >= MIN_MARKED_FOR_MODEL and len({m for _, m in given}) >= 2:
        own = GradingModel.train(question, [a for a, _ in given], [m for _, m in given],
                                 n_resamples=n_resamples, **train_options)
    if general is None:
        return own
    return SeededModel(own, general.for_question(question))


def choice_grades(model, answers: Sequence[str]):
    """The marks and confidences that weigh the choice (a table with `mark` and `confidence`):
    the question's own model's where there is one (an answer it leaves unmarked is the least
    sure, even where a general model marks it), else the general model's; None without a model."""
    if model is None:
        return None
    own = getattr(model, "own", model)
    judge = model if own is None else own
    return judge.grade(list(answers))


def choice_confidence(model, answers: Sequence[str]) -> np.ndarray | None:
    """The confidences of `choice_grades`; None without a model."""
    graded = choice_grades(model, answers)
    return None if graded is None else graded["confidence"].to_numpy(dtype=float)


def next_answers(question, answers: Sequence[str], marks: Sequence[str | None], n: int,
                 general=None) -> tuple[list[Suggestion], object]:
    """The next `n` answers to mark (`marks[i]` None where answer i is not marked yet), and the
    model that weighed them (see `current_model`)."""
    model = current_model(question, answers, marks, general)
    graded = choice_grades(model, answers)
    if graded is None:
        return suggest(answers, [m is not None for m in marks], n), model
    return suggest(answers, [m is not None for m in marks], n, graded["confidence"].to_numpy(dtype=float),
                   graded["mark"].tolist()), model
