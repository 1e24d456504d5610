"""A grading model as one JSON file: what is written, how it is read back and checked.

Why a module of its own: the file is the contract between `grader train`, `grader grade`,
the app and batch runs resumed later, so its format (versioned, no pickle, written
atomically, its whole shape checked before anything in it is used) is kept in one place,
apart from what the model does with its parts (`grader.grading.model`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, NamedTuple

from grader.atomic_file import atomic_write_text
from grader.confold.model_file import ModelFileError
from grader.grading.agreement import ResampledAgreement
from grader.grading.model_schema import check_features_match, check_model_data
from grader.grading.wording import WordingSupport
from knowledge.schema import Question

MODEL_FORMAT = "physics-grader-model"
MODEL_FORMAT_VERSION = 3  # 2: resampled rule lists ("agreement"); 3: wording support; older files still load


class ModelParts(NamedTuple):
    """What a model file holds, rebuilt and checked (`parts_from_data`)."""

    question: Question
    extractor: Any
    learner: Any
    trained_on: dict
    params: dict
    agreement: ResampledAgreement | None
    wording: WordingSupport | None
    calibration: dict | None


def model_data(parts: ModelParts) -> dict:
    """The JSON-able data of a model file."""
    from knowledge import question_to_dict

    data = {"format": MODEL_FORMAT, "format_version": MODEL_FORMAT_VERSION,
            "question": question_to_dict(parts.question),
            "extractor": parts.extractor.to_dict(), "learner": parts.learner.to_dict(),
            "params": parts.params, "trained_on": parts.trained_on}
    if parts.agreement is not None:
        data["agreement"] = parts.agreement.to_dict()
    if parts.wording is not None:
        data["wording"] = parts.wording.to_dict()
    if parts.calibration is not None:
        data["calibration"] = parts.calibration
    return data


def parts_from_data(data: Any, source: str = "<model>") -> ModelParts:
    """The parts of a model file's data; ModelFileError naming `source` for anything that is
    not a model file of a version this grader reads, or is damaged."""
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise ModelFileError(f"{source}: not a grading model file (no \"format\": \"{MODEL_FORMAT}\")")
    version = data.get("format_version")
    if not isinstance(version, int):
        raise ModelFileError(f"{source}: no format_version")
    if version > MODEL_FORMAT_VERSION:
        raise ModelFileError(f"{source}: made by a newer version of the grader (model format "
                             f"{version}; this version reads up to {MODEL_FORMAT_VERSION}); upgrade")
    missing = [k for k in ("question", "extractor", "learner", "params", "trained_on") if k not in data]
    if missing:
        raise ModelFileError(f"{source}: damaged model file, missing {', '.join(missing)}")
    from features import FeatureExtractor
    from knowledge import question_from_dict

    try:
        check_model_data(data)  # the whole shape first: nothing below meets a crafted value
    except ModelFileError as e:
        raise ModelFileError(f"{source}: damaged model file ({e})") from None
    try:
        question = question_from_dict(data["question"])
        extractor = FeatureExtractor.from_dict(data["extractor"], question)
        learner = learner_from_data(data["learner"])
        agreement = ResampledAgreement.from_dict(data["agreement"]) if "agreement" in data else None
        if agreement is not None:
            agreement.check_features(learner)
        wording = WordingSupport.from_dict(data["wording"]) if "wording" in data else None
        check_features_match(extractor, learner, agreement, wording)
    except ModelFileError as e:
        raise ModelFileError(f"{source}: damaged model file ({e})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ModelFileError(f"{source}: damaged model file ({type(e).__name__}: {e})") from None
    calibration = dict(data["calibration"]) if "calibration" in data else None
    return ModelParts(question, extractor, learner, dict(data["trained_on"]), dict(data["params"]),
                      agreement, wording, calibration)


def learner_from_data(data: Any) -> Any:
    """The rule learner of a model file: boosted rules or (the default, older files) CON-FOLD."""
    from grader.confold import ConFold

    if isinstance(data, dict) and data.get("format") == "physics-grader/boosted-rules":
        from grader.boosting import BoostedRules

        return BoostedRules.from_dict(data)
    return ConFold.from_dict(data)


def write_model_json(path: str | Path, data: dict) -> None:
    """A model's data as one JSON file, written atomically; FileNotFoundError for a missing folder."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"{path.parent}: no such folder for the model file")
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def content_hash(value: object) -> str:
    """A short SHA-256 of `value` as JSON with sorted keys: the same value gets the same
    fingerprint in every process, which resuming an interrupted batch run relies on."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def model_fingerprint(data: dict) -> str:
    """The content hash of a model file's data without the time it was trained: retraining
    on the same answers gives the same fingerprint."""
    return content_hash(dict(data, trained_on={k: v for k, v in data.get("trained_on", {}).items()
                                               if k != "time"}))
