"""Features of an answer that mean the same thing whatever the question: the general model's input.

A model learned on some questions can mark another only through features that do not name
the question's words. Each one is computed from what `features.FeatureExtractor` already
finds in the answer, with an extractor fitted on the question file alone (no marked
answers: no learned terms, no similarity to marked answers):

- `coverage`, `precision`: how much of the best reference answer the answer states, and how
  much of the answer is in the reference answers (with polarity, see `features.reference`);
- `ref_said`, `ref_denied`: the share of the reference answers' words and word pairs the
  answer states, and the share it denies ("not in the same path"): the contradiction;
- `concepts_said`, `concepts_denied`: the same for the rubric's concepts (for a question
  without concepts, the reference figures again, so the column means one thing);
- `misconception`: the answer states one of the rubric's wrong ideas (yes/no);
- `quantities`: the rubric's quantities are all `correct`, some `wrong` (value, unit,
  denied), `partly` given, `missing`, or `not_asked` (the question has none);
- `hedging`: the answer hedges ("maybe", "I think", "not sure", a question mark);
- `non_answer`: "I don't know", "help", blank; `length`: words.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np
import pandas as pd

from knowledge.schema import Question, split_feature_name

#: The columns, in order, with their kind (numeric or categorical) and a marker's description.
GENERAL_FEATURES: dict[str, tuple[str, str]] = {
    "coverage": ("numeric", "share of a reference answer the answer states (0-1)"),
    "precision": ("numeric", "share of the answer that is in the reference answers (0-1)"),
    "ref_said": ("numeric", "share of the reference answers' words and phrases it states (0-1)"),
    "ref_denied": ("numeric", "share of the reference answers' words and phrases it denies (0-1)"),
    "concepts_said": ("numeric", "share of the marking scheme's ideas it states (0-1)"),
    "concepts_denied": ("numeric", "share of the marking scheme's ideas it denies (0-1)"),
    "misconception": ("categorical", "states a wrong idea the marking scheme names"),
    "quantities": ("categorical", "the quantities asked for"),
    "hedging": ("categorical", "hedges (maybe, I think, not sure, a question)"),
    "non_answer": ("categorical", "is a non-answer (I don't know, help, blank)"),
    "length": ("numeric", "number of words"),
}

QUANTITY_STATES = ("correct", "partly", "wrong", "missing", "not_asked")
_WRONG_QUANTITY = frozenset({"wrong_value", "wrong_unit", "no_unit", "negated"})
_WORD = re.compile(r"[a-z']+")
HEDGE_WORDS = frozenset({"maybe", "perhaps", "probably", "possibly", "might", "guess", "unsure",
                         "think", "suppose", "assume", "idk", "dunno"})
HEDGE_PAIRS = frozenset({("not", "sure"), ("not", "certain"), ("no", "idea"), ("i", "believe")})


def hedges(text: str) -> bool:
    """Whether an answer hedges: a hedging word, "not sure", or a question mark."""
    if "?" in text:
        return True
    words = _WORD.findall(text.lower())
    return any(w in HEDGE_WORDS for w in words) or any(p in HEDGE_PAIRS for p in zip(words, words[1:]))


def question_extractor(question: Question):
    """A feature extractor fitted on the question file alone (no marked answers needed)."""
    from features import FeatureExtractor

    return FeatureExtractor(question, n_terms=0, similarity=False).fit([], None)


def general_features(X: pd.DataFrame, answers: Sequence[str]) -> pd.DataFrame:
    """The general columns (see the module docstring) from an extractor's table `X` of `answers`."""
    n = len(X)
    families: dict[str, list[str]] = {}
    for column in X.columns:
        family, _ = split_feature_name(column)
        if family is not None:
            families.setdefault(family, []).append(column)

    def shares(family: str, value: str) -> np.ndarray:
        cols = families.get(family, [])
        if not cols:
            return np.zeros(n)
        return (X[cols].to_numpy(dtype=object) == value).mean(axis=1).astype(float)

    ref_said, ref_denied = shares("ref", "present"), shares("ref", "negated")
    if families.get("concept"):
        concepts_said, concepts_denied = shares("concept", "present"), shares("concept", "negated")
    else:
        concepts_said, concepts_denied = ref_said, ref_denied
    misconception = (X[families["misconception"]].to_numpy(dtype=object) == "present").any(axis=1) \
        if families.get("misconception") else np.zeros(n, dtype=bool)
    texts = [str(a) for a in answers]
    return pd.DataFrame({
        "coverage": X["coverage"].to_numpy(dtype=float),
        "precision": X["precision"].to_numpy(dtype=float),
        "ref_said": ref_said, "ref_denied": ref_denied,
        "concepts_said": concepts_said, "concepts_denied": concepts_denied,
        "misconception": pd.Series(np.where(misconception, "yes", "no"), dtype=object),
        "quantities": pd.Series(_quantity_states(X[families.get("quantity", [])]), dtype=object),
        "hedging": pd.Series(["yes" if hedges(t) else "no" for t in texts], dtype=object),
        "non_answer": pd.Series(X["non_answer"].to_numpy(dtype=object), dtype=object),
        "length": X["length"].to_numpy(dtype=float),
    }, columns=list(GENERAL_FEATURES))


def _quantity_states(Q: pd.DataFrame) -> list[str]:
    if Q.shape[1] == 0:
        return ["not_asked"] * len(Q)
    values = Q.to_numpy(dtype=object)
    out = []
    for row in values:
        states = set(map(str, row))
        if states & _WRONG_QUANTITY:
            out.append("wrong")
        elif states == {"correct"}:
            out.append("correct")
        elif "correct" in states:
            out.append("partly")
        else:
            out.append("missing")
    return out


# -- conditions in a teacher's words ---------------------------------------------------------

_SHARE_PHRASES = {
    "coverage": "states {amount} a reference answer",
    "precision": "has {amount} its words in the reference answers",
    "ref_said": "states {amount} the reference answers' words",
    "ref_denied": "denies {amount} the reference answers' words",
    "concepts_said": "states {amount} the marking scheme's ideas",
    "concepts_denied": "denies {amount} the marking scheme's ideas",
}
_OPS = {"<=": "at most", "<": "less than", ">": "more than", ">=": "at least"}
_STATE_PHRASES = {
    ("misconception", "yes"): "states a wrong idea the marking scheme names",
    ("misconception", "no"): "states none of the wrong ideas the marking scheme names",
    ("quantities", "correct"): "gives every quantity asked for, right",
    ("quantities", "partly"): "gives some of the quantities asked for, right",
    ("quantities", "wrong"): "gives a quantity asked for with a wrong value or unit",
    ("quantities", "missing"): "gives none of the quantities asked for",
    ("quantities", "not_asked"): "the question asks for no quantity",
    ("hedging", "yes"): "hedges (maybe, I think, not sure, a question)",
    ("hedging", "no"): "does not hedge",
    ("non_answer", "yes"): "is a non-answer (I don't know, help, blank)",
    ("non_answer", "no"): "is an attempt at an answer",
}


def condition_phrase(feature: str, op: str, value: object) -> str:
    """A condition of a general rule as a teacher reads it: "states at most 20% of a reference answer"."""
    if feature in _SHARE_PHRASES and op in _OPS and isinstance(value, (int, float)):
        amount = "none of" if op == "<=" and value <= 0 else \
            "some of" if op == ">" and value <= 0 else f"{_OPS[op]} {round(100 * float(value))}% of"
        return _SHARE_PHRASES[feature].format(amount=amount)
    if feature == "length" and op in _OPS and isinstance(value, (int, float)):
        return f"has {_OPS[op]} {float(value):g} words"
    phrase = _STATE_PHRASES.get((feature, str(value)))
    if phrase is not None and op in ("==", "!="):
        return phrase if op == "==" else f"not: {phrase}"
    return f"{feature.replace('_', ' ')} {op} {value}"
