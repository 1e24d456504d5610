"""Versioned JSON model files: exact round trips, clear errors, atomic writes."""

import json
import os

import numpy as np
import pandas as pd
import pytest

from grader import ConFold
from grader.confold.model_file import FORMAT_VERSION, ModelFileError
from grader.confold.rules import Literal as L, PredicateDefinition


def fitted(labels=("0", "0.5", 1, 0.5, True)):
    rng = np.random.default_rng(0)
    n = 60
    X = pd.DataFrame({"concept:gap": rng.choice(["present", "absent", "negated"], n),
                      "value:g": np.where(rng.random(n) < 0.1, np.nan, rng.normal(9.8, 0.5, n).round(2)),
                      "mixed": rng.choice(["3", "4.5", "none", "?"], n).astype(object)})
    # the mark depends on the features, and uses labels of every type
    close = (X["value:g"] - 9.8).abs() <= 0.3
    which = np.select([X["concept:gap"] == "absent", X["concept:gap"] == "negated", close,
                       X["mixed"] == "none"], [0, 1, 2, 3], 4)
    y = pd.Series([labels[i] for i in which], name="mark", dtype=object)
    bg = [PredicateDefinition("close", (L("value:g", ">=", 9.5), L("value:g", "<=", 10.1)), [],
                              "gives a value close to g")]
    return ConFold(background=bg, improvement_threshold=0.05).fit(X, y), X


def test_round_trip_keeps_label_types_predictions_and_program(tmp_path):
    model, X = fitted()
    path = tmp_path / "model.json"
    model.save(path)
    loaded = ConFold.load(path)
    assert loaded.classes_ == model.classes_
    assert [type(c) for c in loaded.classes_] == [type(c) for c in model.classes_]
    assert len(loaded.classes_) == 5 and len(loaded.rules_) >= 4
    assert {(type(c), c) for c in loaded.classes_} == {(str, "0"), (str, "0.5"), (int, 1), (float, 0.5),
                                                       (bool, True)}
    a_labels, a_conf = model.predict_with_confidence(X)
    b_labels, b_conf = loaded.predict_with_confidence(X)
    assert [(type(v), v) for v in a_labels] == [(type(v), v) for v in b_labels]
    assert np.array_equal(a_conf, b_conf, equal_nan=True)
    assert loaded.rules_ == model.rules_ and loaded.predicates_ == model.predicates_
    assert loaded.predicates_[0].description == "gives a value close to g"
    assert loaded.get_params()["improvement_threshold"] == 0.05
    assert [e.to_dict() for e in loaded.encodings_] == [e.to_dict() for e in model.encodings_]
    assert os.listdir(tmp_path) == ["model.json"]  # no temporary file left behind


def test_to_dict_is_plain_json():
    model, _ = fitted()
    data = model.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert ConFold.from_dict(data).rules_ == model.rules_


def write(tmp_path, text):
    path = tmp_path / "m.json"
    path.write_text(text)
    return path


def test_newer_format_version(tmp_path):
    model, _ = fitted()
    data = model.to_dict()
    data["format_version"] = FORMAT_VERSION + 1
    with pytest.raises(ModelFileError, match="newer version .* Upgrade"):
        ConFold.load(write(tmp_path, json.dumps(data)))


def test_damaged_files(tmp_path):
    with pytest.raises(ModelFileError, match="invalid JSON at line 1"):
        ConFold.load(write(tmp_path, '{"format": '))
    with pytest.raises(ModelFileError, match="not a ConFold model"):
        ConFold.load(write(tmp_path, json.dumps({"format": "something else"})))
    with pytest.raises(ModelFileError, match="missing the key 'format'"):
        ConFold.load(write(tmp_path, "[1, 2]".replace("[1, 2]", "{}")))
    with pytest.raises(ModelFileError, match="should be an object"):
        ConFold.load(write(tmp_path, "[1, 2]"))
    with pytest.raises(ModelFileError, match="no such model file"):
        ConFold.load(tmp_path / "absent.json")
    model, _ = fitted()
    data = model.to_dict()
    del data["rules"]
    with pytest.raises(ModelFileError, match="missing the key 'rules'"):
        ConFold.load(write(tmp_path, json.dumps(data)))
    data = model.to_dict()
    data["rules"][0]["body"] = [{"feature": "x", "op": "~", "value": 1}]
    with pytest.raises(ModelFileError, match=r"rules\[0\]\.body\[0\]\.op: '~' is not one of =="):
        ConFold.load(write(tmp_path, json.dumps(data)))
    data = model.to_dict()
    data["predicates"][0]["description"] = ["not", "text"]
    with pytest.raises(ModelFileError, match=r"predicates\[0\]\.description: should be text"):
        ConFold.load(write(tmp_path, json.dumps(data)))
    data = model.to_dict()
    data["rules"][0]["body"] = [{"feature": "nowhere", "op": "==", "value": 1}]
    with pytest.raises(ModelFileError, match="nowhere"):
        ConFold.from_dict(data)


def test_save_replaces_atomically(tmp_path):
    model, _ = fitted()
    path = write(tmp_path, "old content")
    model.save(path)
    assert json.loads(path.read_text())["format_version"] == FORMAT_VERSION


def test_model_error_is_a_value_error():
    assert issubclass(ModelFileError, ValueError)
