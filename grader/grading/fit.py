"""Do the answers being graded look like the ones the model was trained on?

A model trained on one question grades another question's answers without complaint: its
rules see no concept they know and give almost every answer the lowest mark, confidently.
What gives it away, for any topic, is the wording: nearly every answer of the question the
model knows shares a content word with some answer it was trained on, and answers to
another question mostly do not. An answer shares none exactly when all its `similarity:MARK`
features are 0 (`features.similarity`), so the check costs nothing beyond what grading has
computed. The share of such answers is compared with the training answers' own share
(each left out of the others, as the similarity features treat them); when it is well
above it, over enough answers, every answer is flagged and a warning says why.

On the bundled samples, a model's own held-out answers had 1-7% such answers and another
question's 39-73%; on Beetle's electricity questions, own answers 1-9% (questions on the
same circuits share much of their words, so the check catches another topic, not every
other question of one topic).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

#: Fewer answers than this are too few to tell a class that writes differently by chance.
MIN_ANSWERS = 20
#: The share of answers sharing no word with the training answers that marks them as out of
#: place: at least this, and this much above the training answers' own share.
MIN_SHARE = 0.3
ABOVE_TRAINING = 0.2


def training_share(keys: list[list[str]], count: list[int]) -> float:
    """The share of the training answers that share no content word with any other training
    answer, from the exemplars (distinct key sets with their counts)."""
    total = sum(count)
    if not total:
        return 0.0
    seen_in = Counter(k for ks in keys for k in ks)
    alone = sum(c for ks, c in zip(keys, count) if not ks or (c == 1 and all(seen_in[k] == 1 for k in ks)))
    return alone / total


def unmatched(X: pd.DataFrame) -> np.ndarray | None:
    """Per answer: shares no content word with any training answer (None without the
    similarity features: a model trained without them cannot tell)."""
    columns = [c for c in X.columns if c.startswith("similarity:")]
    if not columns:
        return None
    return ~(X[columns].to_numpy(dtype=float) > 0).any(axis=1)


def out_of_place(no_word: np.ndarray, blank: np.ndarray, baseline: float) -> str | None:
    """The warning when the answers look unlike the training answers, else None.
    `no_word`, `blank`: per answer (row), from `unmatched` and the blank test."""
    said = ~blank
    n = int(said.sum())
    if n < MIN_ANSWERS:
        return None
    k = int((no_word & said).sum())
    share = k / n
    if share < max(MIN_SHARE, baseline + ABOVE_TRAINING):
        return None
    return (f"{k} of {n} answers share no word with any answer the model was trained on, against "
            f"{baseline:.0%} of its training answers: is this the model of this question? Every "
            f"answer is flagged for a human marker")
