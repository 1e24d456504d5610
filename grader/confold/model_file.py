"""Saving and loading a fitted ConFold as a versioned JSON document (never pickle).

JSON keeps the label types apart (the float 0.5, the string "0.5", the int 1, true), so the
classes, rule heads and literal values come back exactly. `to_dict`/`from_dict` let the
grading pipeline embed a model in its own file; `save` writes atomically.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from grader.atomic_file import atomic_write_text
from grader.confold.encoding import ColumnEncoding
from grader.confold.file_schema import MAX_RULE_DEPTH, ModelFileError, check_learner_data
from grader.confold.rules import Literal, PredicateDefinition, Rule

FORMAT = "physics-grader/confold-model"
FORMAT_VERSION = 1
#: Limits on what a model file may hold: a crafted file must fail clearly, not exhaust the
#: stack (deep nesting), the CPU (4,000-digit numbers) or memory (a 1 GB file).
MAX_MODEL_FILE_BYTES = 50_000_000
MAX_JSON_DEPTH = 64
MAX_NUMBER_CHARS = 40
PARAMS = ("ratio", "z", "improvement_threshold", "confidence_threshold", "fold_rm_update",
          "min_initial_precision", "default_rule", "min_initial_support")


def _value(v: Any) -> Any:
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        raise ModelFileError(f"cannot store the non-finite number {v!r} in a model file")
    if v is not None and not isinstance(v, (str, int, float, bool)):
        raise ModelFileError(f"cannot store a value of type {type(v).__name__} ({v!r}) in a model file")
    return v


def _literal_to_dict(lit: Literal) -> dict:
    return {"feature": lit.feature, "op": lit.op, "value": _value(lit.value)}


def rule_to_dict(rule: Rule) -> dict:
    return {"head": _value(rule.head), "body": [_literal_to_dict(l) for l in rule.body],
            "exceptions": [rule_to_dict(e) for e in rule.exceptions],
            "confidence": None if rule.confidence is None else float(rule.confidence),
            "fixed_confidence": bool(rule.fixed_confidence), "origin": rule.origin, "name": rule.name}


def predicate_to_dict(p: PredicateDefinition) -> dict:
    out = {"name": p.name, "body": [_literal_to_dict(l) for l in p.body],
           "exceptions": [rule_to_dict(e) for e in p.exceptions]}
    if p.description is not None:  # written only when given: files without one are as before
        out["description"] = p.description
    return out


def model_to_dict(model) -> dict:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "params": {k: _value(getattr(model, k)) for k in PARAMS},
        "target_name": model.target_name_,
        "classes": [_value(c) for c in model.classes_],
        "feature_names_in": list(model.feature_names_in_),
        "encodings": [_encoding_to_dict(e) for e in model.encodings_],
        "predicates": [predicate_to_dict(p) for p in model.predicates_],
        "rules": [rule_to_dict(r) for r in model.rules_],
    }


def _encoding_to_dict(e) -> dict:
    out = {"name": e.name, "kind": e.kind, "categories": [_value(c) for c in e.categories]}
    if e.named:  # values the teacher's rules name that training lacked; absent before
        out["named"] = [_value(c) for c in e.named]
    return out


def _get(data: Mapping, key: str, where: str, kind: type | tuple) -> Any:
    if not isinstance(data, Mapping):
        raise ModelFileError(f"{where} should be an object, found {type(data).__name__}")
    if key not in data:
        raise ModelFileError(f"{where} is missing the key {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _tuple(kind)):
        raise ModelFileError(f"{where}.{key} should be {_names(kind)}, found {type(value).__name__}")
    return value


def _tuple(kind) -> tuple:
    return kind if isinstance(kind, tuple) else (kind,)


def _names(kind) -> str:
    return " or ".join(k.__name__ for k in _tuple(kind))


def _literal_from(d: Any, where: str) -> Literal:
    try:
        return Literal(_get(d, "feature", where, str), _get(d, "op", where, str),
                       _get(d, "value", where, (str, int, float, bool)))
    except ModelFileError:
        raise
    except ValueError as err:
        raise ModelFileError(f"{where}: {err}") from None


def rule_from_dict(d: Any, where: str = "rule", depth: int = 0) -> Rule:
    if depth > MAX_RULE_DEPTH:
        raise ModelFileError(f"{where}: exceptions nested more than {MAX_RULE_DEPTH} levels deep")
    body = _get(d, "body", where, list)
    exceptions = _get(d, "exceptions", where, list)
    confidence = d.get("confidence")
    if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))):
        raise ModelFileError(f"{where}.confidence should be a number or null")
    head = d.get("head")
    if head is not None and not isinstance(head, (str, int, float, bool)):
        raise ModelFileError(f"{where}.head should be a label (text, number or boolean) or null")
    return Rule(head=head, body=tuple(_literal_from(l, f"{where}.body[{i}]") for i, l in enumerate(body)),
                exceptions=[rule_from_dict(e, f"{where}.exceptions[{i}]", depth + 1)
                            for i, e in enumerate(exceptions)],
                confidence=None if confidence is None else float(confidence),
                fixed_confidence=bool(d.get("fixed_confidence", False)),
                origin=str(d.get("origin", "learned")), name=d.get("name"))


def model_from_dict(cls, data: Any):
    where = "model"
    fmt = _get(data, "format", where, str)
    if fmt != FORMAT:
        raise ModelFileError(f"not a ConFold model: format is {fmt!r}, expected {FORMAT!r}")
    version = _get(data, "format_version", where, int)
    if version > FORMAT_VERSION:
        raise ModelFileError(f"this model file has format_version {version}, written by a newer "
                             f"version of the grader; this one reads up to version {FORMAT_VERSION}. "
                             f"Upgrade the grader to load it")
    if version < 1:
        raise ModelFileError(f"invalid format_version {version}")
    check_learner_data(data, where)  # the whole shape before anything is built from it
    params = _get(data, "params", where, dict)
    model = cls(**{k: params[k] for k in PARAMS if k in params})
    model.target_name_ = _get(data, "target_name", where, str)
    model.classes_ = list(_get(data, "classes", where, list))
    model.feature_names_in_ = [str(f) for f in _get(data, "feature_names_in", where, list)]
    model.n_features_in_ = len(model.feature_names_in_)
    encodings = []
    for i, e in enumerate(_get(data, "encodings", where, list)):
        w = f"model.encodings[{i}]"
        try:
            encodings.append(ColumnEncoding(_get(e, "name", w, str), _get(e, "kind", w, str),
                                            list(_get(e, "categories", w, list)),
                                            list(e.get("named", []))))
        except ModelFileError:
            raise
        except ValueError as err:
            raise ModelFileError(f"{w}: {err}") from None
    model.encodings_ = encodings
    model.predicates_ = []
    for i, p in enumerate(_get(data, "predicates", where, list)):
        w = f"model.predicates[{i}]"
        model.predicates_.append(PredicateDefinition(
            _get(p, "name", w, str),
            tuple(_literal_from(l, f"{w}.body[{j}]") for j, l in enumerate(_get(p, "body", w, list))),
            [rule_from_dict(e, f"{w}.exceptions[{j}]") for j, e in enumerate(_get(p, "exceptions", w, list))],
            p.get("description")))
    model.rules_ = [rule_from_dict(r, f"model.rules[{i}]") for i, r in enumerate(_get(data, "rules", where, list))]
    known = {e.name for e in encodings} | {p.name for p in model.predicates_}
    from grader.confold.rule_eval import rule_features
    unknown = [f for f in rule_features(model.rules_ + model.predicates_) if f not in known]
    if unknown:
        raise ModelFileError(f"model rules use feature(s) {', '.join(unknown)} that the model file "
                             f"does not describe")
    return model


def save_model(model, path: str | os.PathLike) -> None:
    """Write the model as JSON, atomically (never a half-written model file)."""
    text = json.dumps(model.to_dict(), indent=1, ensure_ascii=False, allow_nan=False)
    atomic_write_text(path, text + "\n")


def read_json_file(path: str | os.PathLike, kind: str = "model file") -> Any:
    """The JSON document in `path`. FileNotFoundError "PATH: no such model file";
    ModelFileError "PATH: not a KIND (...)" when it is not a regular file of at most
    MAX_MODEL_FILE_BYTES, not UTF-8 text, or not JSON within the limits of `parse_json`."""
    path = Path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ModelFileError(f"{path}: not a {kind} (not a regular file)")
        if info.st_size > MAX_MODEL_FILE_BYTES:
            raise ModelFileError(f"{path}: not a {kind} (larger than {MAX_MODEL_FILE_BYTES // 1_000_000} MB)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such model file") from None
    except UnicodeDecodeError as err:
        raise ModelFileError(f"{path}: not a {kind} (not UTF-8 text: {err.reason} at byte "
                             f"{err.start})") from None
    try:
        return parse_json(text)
    except ModelFileError as err:
        raise ModelFileError(f"{path}: not a {kind} ({err})") from None


def parse_json(text: str) -> Any:
    """JSON within limits: nesting at most MAX_JSON_DEPTH deep (checked before parsing, so the
    parser never recurses too deep), numbers of at most MAX_NUMBER_CHARS characters and
    finite (no NaN, no Infinity, no 1e999). ModelFileError says what and where."""
    _check_depth(text)
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise ModelFileError(f"invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}") from None


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # a JSON string (unrolled: twice as fast)


def _check_depth(text: str) -> None:
    """The deepest nesting of [ and { outside strings, counted with numpy (a file of many MB
    is checked in milliseconds)."""
    bare = _STRING.sub("", text).encode("utf-8", "replace")
    codes = np.frombuffer(bare, dtype=np.uint8)
    steps = (np.isin(codes, (ord("["), ord("{"))).astype(np.int32)
             - np.isin(codes, (ord("]"), ord("}"))).astype(np.int32))
    if steps.size and int(np.cumsum(steps).max()) > MAX_JSON_DEPTH:
        raise ModelFileError(f"nested more than {MAX_JSON_DEPTH} levels deep")


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise ModelFileError(f"a number of {len(text)} digits ({text[:12]}...); a model file holds "
                             f"numbers of at most {MAX_NUMBER_CHARS} characters")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise ModelFileError(f"a number of {len(text)} characters ({text[:12]}...)")
    value = float(text)
    if not math.isfinite(value):
        raise ModelFileError(f"the number {text} is too large")
    return value


def _refuse_constant(text: str) -> float:
    raise ModelFileError(f"{text} is not a number a model file may hold")


def load_model(cls, path: str | os.PathLike):
    try:
        data = read_json_file(path)
    except FileNotFoundError as err:
        raise ModelFileError(str(err)) from None
    try:
        return model_from_dict(cls, data)
    except ModelFileError as err:
        raise ModelFileError(f"{path}: {err}") from None
