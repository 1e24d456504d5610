"""A fitted `BoostedRules` as JSON data (never pickle), in the shape of a saved ConFold plus
the votes: the rules, encodings and derived predicates are written and checked by
`grader.confold.model_file` / `file_schema`, so a grading model file holds either learner."""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from grader.confold.file_schema import ModelFileError, check_learner_data
from grader.confold.model_file import model_from_dict, model_to_dict

FORMAT = "physics-grader/boosted-rules"
FORMAT_VERSION = 1
#: The parameters a file keeps (background and evidence act at fit time only).
SAVED_PARAMS = ("n_rounds", "max_literals", "include_features", "initial_features", "window", "alpha",
                "require_rule", "random_state")


def boosted_to_dict(model) -> dict:
    data = model_to_dict(_AsConFold(model))
    data.update(format=FORMAT, format_version=FORMAT_VERSION,
                params={k: getattr(model, k) for k in SAVED_PARAMS},
                votes=[float(v) for v in model.votes_], default_votes=[float(v) for v in model.default_votes_])
    return data


def boosted_from_dict(cls, data: Any):
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ModelFileError(f"not a boosted rules model (no \"format\": \"{FORMAT}\")")
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= FORMAT_VERSION:
        raise ModelFileError(f"boosted rules model: format_version {version!r}; this version reads 1 to "
                             f"{FORMAT_VERSION} (a newer grader wrote it? upgrade)")
    check_learner_data(data, "model")
    votes = _numbers(data, "votes", len(data["rules"]))
    default_votes = _numbers(data, "default_votes", len(data["classes"]))
    params = data.get("params")
    if not isinstance(params, Mapping):
        raise ModelFileError("model.params should be an object")
    made = cls(**{k: params[k] for k in SAVED_PARAMS if k in params})
    try:
        made._check_params()
    except ValueError as err:
        raise ModelFileError(f"model.params: {err}") from None
    shell = model_from_dict(_Shell, dict(data, format="physics-grader/confold-model", format_version=1))
    for name in ("rules_", "classes_", "feature_names_in_", "n_features_in_", "encodings_", "predicates_",
                 "target_name_"):
        setattr(made, name, getattr(shell, name))
    heads = {repr((type(c), c)) for c in made.classes_}
    for i, rule in enumerate(made.rules_):
        if repr((type(rule.head), rule.head)) not in heads or rule.exceptions:
            raise ModelFileError(f"model.rules[{i}]: a boosted rule votes for one of the classes and has "
                                 f"no exceptions")
    made.votes_ = np.asarray(votes, dtype=float)
    made.default_votes_ = np.asarray(default_votes, dtype=float)
    made.history_ = []
    return made


def _numbers(data: Mapping, key: str, length: int) -> list[float]:
    values = data.get(key)
    if not isinstance(values, list) or len(values) != length:
        raise ModelFileError(f"model.{key} should be a list of {length} numbers")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > 1e6:
            raise ModelFileError(f"model.{key}[{i}]: {v!r} is not a vote (a number within ±1e6)")
    return [float(v) for v in values]


class _AsConFold:
    """A fitted BoostedRules seen through ConFold's writer (the same attributes, no ConFold params)."""

    def __init__(self, model):
        self.__dict__.update({k: v for k, v in vars(model).items() if k.endswith("_")})

    def __getattr__(self, name: str) -> Any:  # ConFold's parameters: not written for this learner
        return None


class _Shell:
    """Receives ConFold's reader's attributes (its parameters are ignored)."""

    def __init__(self, **params: Any):
        pass
