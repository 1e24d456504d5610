"""Crafted model files: every bad file is a ModelFileError naming the place, loads are quick,
and the extractor's spaCy setting never imports a package that is not a spaCy pipeline."""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time
from pathlib import Path

import pytest

from grader.confold.model_file import ModelFileError
from grader.grading.model import GradingModel
from tests.data import small_question, marked_answers

#: Values a crafted file puts in place of a real one, as JSON text.
RAW = ["null", "true", "-1", "0", "1", "1" + "0" * 30, "1e308", "-1e308", "1e400", "NaN", "-Infinity",
       "9" * 5000, '"x"', '""', "[]", "{}", "[" * 3000 + "]" * 3000, '{"a":' * 2000 + "1" + "}" * 2000,
       "[" + ",".join(["0"] * 50_000) + "]", '"' + "a" * 200_000 + '"', "2.5", "-0.5", "[1,2]", '["a"]',
       '{"a":1}', "1000000000", "399", '"streamlit"', '"../../x"']


@pytest.fixture(scope="module")
def saved() -> dict:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks, n_resamples=3).to_dict()


def _paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x[:5]):
            yield from _paths(v, path + (i,))


def _values(x):
    yield x
    for v in (x.values() if isinstance(x, dict) else x[:5] if isinstance(x, list) else ()):
        yield from _values(v)


def crafted(base: dict, rng: random.Random, paths: list, values: list) -> str:
    """`base` with one to three places changed: deleted, swapped for another value of the
    same type from the file, truncated or repeated, or replaced by hostile JSON text."""
    data = copy.deepcopy(base)
    raws = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(paths)
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            current, r = parent[path[-1]], rng.random()
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(parent, (dict, list)):  # an earlier change replaced it
            continue
        same = [v for v in values if type(v) is type(current)]
        if r < 0.1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif r < 0.4 and same:
            parent[path[-1]] = copy.deepcopy(rng.choice(same))
        elif r < 0.55 and isinstance(current, list) and current:
            parent[path[-1]] = current[:rng.randrange(len(current))] + current[:rng.choice((0, 3))] * 2
        elif r < 0.65 and isinstance(current, (int, float)) and not isinstance(current, bool):
            parent[path[-1]] = rng.choice([-1, 0, 2, 10**6, 0.5, -3.5, 399, 1000])
        else:
            raws.append(rng.choice(RAW))
            parent[path[-1]] = f"__RAW{len(raws) - 1}__"
    text = json.dumps(data)
    for i, raw in enumerate(raws):
        text = text.replace(f'"__RAW{i}__"', raw)
    return text


def test_only_model_file_errors_escape_and_every_load_is_quick(saved, tmp_path):
    rng = random.Random(20261123)
    paths = [p for p in _paths(saved) if p]
    values = [v for v in _values(saved) if not isinstance(v, dict)][:3000]
    path = tmp_path / "m.json"
    loaded = refused = 0
    slowest = 0.0
    for _ in range(300):
        path.write_text(crafted(saved, rng, paths, values), encoding="utf-8")
        start = time.perf_counter()
        try:
            model = GradingModel.load(path)
            model.grade(["there is a gap so no current flows", "idk"])  # a loaded model works
            model.explain("a gap")
            for form in ("text", "asp", "yaml"):
                model.rules(form)
            loaded += 1
        except ModelFileError as err:
            assert str(err).startswith(str(path))
            refused += 1
        slowest = max(slowest, time.perf_counter() - start)
    assert slowest < 2.0
    assert loaded > 10 and refused > 100  # both sides were exercised


@pytest.mark.parametrize("raw,where", [
    ("[" * 3000 + "]" * 3000, "nested more than 64 levels"),
    ("9" * 5000, "a number of 5000 digits"),
    ("1e400", "the number 1e400 is too large"),
    ("NaN", "NaN is not a number"),
])
def test_hostile_json_is_refused_before_parsing(saved, tmp_path, raw, where):
    data = copy.deepcopy(saved)
    data["extractor"]["params"]["batch_size"] = "__RAW__"
    (tmp_path / "m.json").write_text(json.dumps(data).replace('"__RAW__"', raw), encoding="utf-8")
    with pytest.raises(ModelFileError, match=where):
        GradingModel.load(tmp_path / "m.json")


@pytest.mark.parametrize("damage,where", [
    (lambda d: d["extractor"]["exemplars"]["mark_of"].__setitem__(0, 7),
     r"model.extractor.exemplars.mark_of\[0\]: 7 is not the index of one of the 2 marks"),
    (lambda d: d["extractor"]["params"].__setitem__("batch_size", 0),
     r"model.extractor.params.batch_size: 0 is outside 1..100000"),
    (lambda d: d["extractor"]["terms"].__setitem__(0, {"name": "t", "keys": [[1.5]], "text": "t"}),
     r"model.extractor.terms\[0\].keys\[0\]\[0\]: should be text, found a number"),
    (lambda d: d["learner"]["rules"][0]["body"][0].__setitem__("op", "=~"),
     r"model.learner.rules\[0\].body\[0\].op: '=~' is not one of"),
    (lambda d: d["agreement"]["rule_lists"][0][0].__setitem__("head", None),
     r"model.agreement.rule_lists\[0\]\[0\]: a rule needs a head"),
    (lambda d: d["learner"].__setitem__("target_name", "electricity flow"),
     r"model.learner.target_name: 'electricity flow' is not a valid name"),
    (lambda d: d["extractor"]["vocabulary_extra"].extend([["w"]] * 100_001),
     r"model.extractor.vocabulary_extra: a list of 100\d+ elements; at most 100000"),
])
def test_a_damaged_model_file_names_the_place(saved, tmp_path, damage, where):
    data = copy.deepcopy(saved)
    damage(data)
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match=where):
        GradingModel.load(tmp_path / "m.json")


def test_a_model_file_cannot_make_spacy_import_a_package(saved, tmp_path, monkeypatch):
    marker = tmp_path / "imported"
    (tmp_path / "planted_pkg.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name, why in (("planted_pkg", "installed package but not a spaCy pipeline"),
                      ("streamlit", "installed package but not a spaCy pipeline"),
                      ("../models/x", "not the name of a spaCy pipeline"),
                      ("xx_no_such_pipeline_sm", "which is not installed here")):
        data = copy.deepcopy(saved)
        data["extractor"]["params"]["model"] = name
        with pytest.raises(ModelFileError, match=f"model.extractor.params.model: .*{why}"):
            GradingModel.from_dict(data)
    assert not marker.exists() and "planted_pkg" not in sys.modules
    data = copy.deepcopy(saved)
    data["extractor"]["params"]["model"] = "blank"
    assert GradingModel.from_dict(data).grade(["a gap"]).shape[0] == 1


def test_a_fifo_is_not_a_model_file(tmp_path):
    os.mkfifo(tmp_path / "m.json")
    start = time.perf_counter()
    with pytest.raises(ModelFileError, match="not a regular file"):
        GradingModel.load(tmp_path / "m.json")
    assert time.perf_counter() - start < 2


def test_a_crafted_learner_file_is_a_model_file_error_too(saved, tmp_path):
    from grader.confold import ConFold

    base = saved["learner"]
    rng = random.Random(5)
    paths = [p for p in _paths(base) if p]
    values = [v for v in _values(base) if not isinstance(v, dict)][:3000]
    path = tmp_path / "learner.json"
    outcomes = set()
    for _ in range(200):
        path.write_text(crafted(base, rng, paths, values), encoding="utf-8")
        start = time.perf_counter()
        try:
            ConFold.load(path)
            outcomes.add("loaded")
        except ModelFileError:
            outcomes.add("refused")
        assert time.perf_counter() - start < 2
    assert outcomes == {"loaded", "refused"}


@pytest.mark.parametrize("damage,where", [
    (lambda d: d["agreement"].__setitem__("rule_lists", [d["learner"]["rules"] * 800] * 30),
     "rules and exceptions in all; a model file holds at most 20,000"),
    (lambda d: d["extractor"].__setitem__("terms", [{"name": f"t{i}", "keys": [["w", str(i)]] * 100, "text": "t"}
                                                    for i in range(120)]),
     "12,0\\d\\d phrases in all"),
    (lambda d: d["extractor"]["exemplars"].update(keys=[[f"w{i}_{j}" for j in range(200)] for i in range(800)],
                                                  mark_of=[i % 2 for i in range(800)], count=[1] * 800),
     "800 exemplars over 160,000 words; too large a table"),
])
def test_a_file_asking_too_much_work_of_the_loader_is_refused_quickly(saved, tmp_path, damage, where):
    data = copy.deepcopy(saved)
    damage(data)
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(ModelFileError, match=where):
        GradingModel.load(tmp_path / "m.json")
    assert time.perf_counter() - start < 2
