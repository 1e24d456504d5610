"""Crafted model files: every bad file is a ModelFileError naming the place, loads are quick,
and the extractor's spaCy setting never imports a package that is not a spaCy pipeline."""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time

import pytest

from grader.bench.model_files import crafted, paths, run, values
from grader.confold.model_file import ModelFileError
from grader.grading.model import GradingModel
from tests.data import marked_answers, small_question


@pytest.fixture(scope="module")
def saved() -> dict:
    answers, marks = marked_answers()
    return GradingModel.train(small_question(), answers, marks, n_resamples=3).to_dict()


def test_only_model_file_errors_escape_and_every_load_is_quick(saved, tmp_path):
    """300 files of `python -m grader.bench model_files`: each loads and is used (grade,
    explain, rules in three forms) or is refused with ModelFileError, within 2 s."""
    counts = run(300, 20261123, saved, tmp_path)
    assert counts["crashes"] == 0 and counts["slow"] == 0, counts
    assert counts["loaded"] > 10 and counts["refused"] > 100  # both sides were exercised


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
    (lambda d: d["extractor"]["terms"].__setitem__(1, dict(d["extractor"]["terms"][0])),
     r"model.extractor.terms\[1\].name: '.*' names an earlier phrase too"),
    (lambda d: d["extractor"]["terms"].__setitem__(0, {"name": "t", "keys": [[1.5]], "text": "t"}),
     r"model.extractor.terms\[0\].keys\[0\]\[0\]: should be text, found a number"),
    (lambda d: d["learner"]["rules"][0]["body"][0].__setitem__("op", "=~"),
     r"model.learner.rules\[0\].body\[0\].op: '=~' is not one of"),
    (lambda d: d["agreement"]["rule_lists"][0][0].__setitem__("head", None),
     r"model.agreement.rule_lists\[0\]\[0\]: a rule needs a head"),
    (lambda d: d["agreement"]["rule_lists"][0][0]["body"][0].__setitem__("feature", "ref:nowhere"),
     "agreement: rules use feature.s. ref:nowhere"),
    (lambda d: d["learner"]["predicates"].append({"name": "flow~not", "body": [], "exceptions": []}),
     r"model.learner.predicates\[0\].name: 'flow~not' is not a valid name for a derived predicate"),
    (lambda d: d["question"].__setitem__("quantities", [{"name": "g", "value": 9.8, "unit": "concept:x",
                                                          "tolerance": 0.02, "absolute_tolerance": False}]),
     r"model.question.quantities\[0\].unit: 'concept:x' is not a unit"),
    (lambda d: d["learner"]["rules"][0]["body"][0].update(op="<="),
     r"model.learner.rules\[0\].body\[0\].value: <= compares with a number, not text"),
    (lambda d: d["learner"]["predicates"].extend(
        [{"name": "pa", "body": [{"feature": "pb", "op": "==", "value": True}], "exceptions": []},
         {"name": "pb", "body": [{"feature": "pa", "op": "==", "value": True}], "exceptions": []}]),
     "derived predicates depend on each other in a cycle: pa, pb"),
    (lambda d: d["learner"]["predicates"].append(
        {"name": "length", "body": [{"feature": "concept:gap", "op": "==", "value": "present"}], "exceptions": []}),
     r"derived predicate\(s\) length have the name of a feature"),
    (lambda d: d["learner"]["rules"][0].__setitem__("confidence", None),
     r"model.learner.rules\[0\]: a rule needs a confidence"),
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
    places = [p for p in paths(base) if p]
    known = [v for v in values(base) if not isinstance(v, dict)][:3000]
    path = tmp_path / "learner.json"
    outcomes = set()
    for _ in range(200):
        path.write_text(crafted(base, rng, places, known), encoding="utf-8")
        start = time.process_time()  # the work asked (CPU), not the load of a shared machine
        try:
            ConFold.load(path)
            outcomes.add("loaded")
        except ModelFileError:
            outcomes.add("refused")
        assert time.process_time() - start < 2
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
    start = time.process_time()  # the work asked (CPU), not the load of a shared machine
    with pytest.raises(ModelFileError, match=where):
        GradingModel.load(tmp_path / "m.json")
    assert time.process_time() - start < 2


def test_a_model_file_with_a_tower_of_powers_as_unit_is_refused_at_once(saved, tmp_path, capsys):
    """pint computed the power for ever: `grader rules` on such a model never returned."""
    from grader.cli import main
    from knowledge.numbers import unit_problem

    tower = "((((9)**99)**99)**99)**99 m/s^2"
    assert unit_problem(tower)  # checked first: the old check let it through, then hung
    data = copy.deepcopy(saved)
    data["question"]["quantities"] = [{"name": "g", "value": 9.8, "unit": tower, "tolerance": 0.02,
                                       "absolute_tolerance": False}]
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    start = time.process_time()
    with pytest.raises(ModelFileError, match=r"model.question.quantities\[0\].unit: .* is not a unit"):
        GradingModel.load(tmp_path / "m.json")
    assert main(["rules", "--model", str(tmp_path / "m.json")]) == 2
    assert "is not a unit" in capsys.readouterr().err and time.process_time() - start < 2.0
