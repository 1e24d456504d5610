"""An exported program means what the learner means: clingo, given the program and the
features of each answer as facts, derives exactly the mark the Python evaluator gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("clingo")  # a test dependency (pyproject [test]); the check needs it

from grader.confold.rule_eval import apply_rules  # noqa: E402
from grader.confold.rules import Literal, PredicateDefinition, Rule  # noqa: E402
from knowledge.asp import write_program  # noqa: E402
from knowledge.clingo_check import solve_marks, solve_rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# Columns of the random tables: value pools chosen so that literals often hit, with
# missing cells, ties at thresholds, -0.0, and a mixed column (numbers and words).
POOLS = {
    "concept:gap": ["present", "negated", "absent", None, "?"],
    "non_answer": ["yes", "no"],
    "colour": ["red", "light blue", "it's", None],
    "coverage": [0.0, -0.0, 0.25, 0.5, 1 / 3, 0.7333333333333333, 1.0, np.nan],
    "value:acceleration": [-9.8, 0.0, 9.8, 9.81, 10.0, 1e-300, 1e300, np.nan],
    "length": [0, 1, 3, 12, 40],
    "mixed": [1.5, 2, "n/a", "?", 3.25, None],
    "flag": [True, False],
}
NUMERIC = ["coverage", "value:acceleration", "length", "mixed"]
CATEGORICAL = ["concept:gap", "non_answer", "colour", "mixed", "flag"]
LABELS = st.one_of(st.sampled_from(["0", "0.5", "1", "good answer"]), st.integers(0, 3),
                   st.sampled_from([0.5, 2.0]))


@st.composite
def tables(draw):
    n = draw(st.integers(1, 25))
    data = {}
    for name, pool in POOLS.items():
        data[name] = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    frame = pd.DataFrame(data)
    frame["length"] = frame["length"].astype("int64")
    frame["flag"] = frame["flag"].astype(bool)
    return frame


@st.composite
def literal(draw, predicates=()):
    kind = draw(st.sampled_from(["cat", "num", "pred"] if predicates else ["cat", "num"]))
    if kind == "cat":
        feature = draw(st.sampled_from(CATEGORICAL))
        pool = [v for v in POOLS[feature] if v is not None and not (isinstance(v, float) and np.isnan(v))]
        return Literal(feature, draw(st.sampled_from(["==", "!="])), draw(st.sampled_from(pool + ["?"])))
    if kind == "num":
        feature = draw(st.sampled_from(NUMERIC))
        pool = [float(v) for v in POOLS[feature] if isinstance(v, (int, float)) and not np.isnan(v)]
        threshold = draw(st.one_of(st.sampled_from(pool),
                                   st.floats(-20, 50, allow_nan=False), st.integers(-5, 45).map(float)))
        return Literal(feature, draw(st.sampled_from(["<=", ">", "<", ">="])), threshold)
    return Literal(draw(st.sampled_from(predicates)), draw(st.sampled_from(["==", "!="])),
                   draw(st.booleans()))  # `p == False` is `not p(X)`


def exceptions(predicates, depth):
    if depth == 0:
        return st.just([])
    return st.lists(st.builds(lambda b, e: Rule(None, tuple(b), e),
                              st.lists(literal(predicates), min_size=1, max_size=2),
                              exceptions(predicates, depth - 1)), max_size=2)


@st.composite
def programs(draw):
    definitions = []
    names = []
    for i in range(draw(st.integers(0, 3))):
        name = f"derived_{i}"
        for _ in range(draw(st.integers(1, 2))):  # several definitions of one name: or
            definitions.append(PredicateDefinition(name, tuple(draw(st.lists(literal(tuple(names)), min_size=1, max_size=3))),
                                                   draw(exceptions(tuple(names), 1))))
        names.append(name)  # later predicates may use earlier ones: stratified, no cycles
    rule = st.builds(lambda h, b, e, c: Rule(h, tuple(b), e, confidence=c), LABELS,
                     st.lists(literal(tuple(names)), max_size=3), exceptions(tuple(names), 2),
                     st.one_of(st.none(), st.floats(0, 1)))
    rules = draw(st.lists(rule, min_size=1, max_size=6))
    background_rules = [Rule(r.head, r.body, r.exceptions, r.confidence, True, "background")
                        for r in draw(st.lists(rule, max_size=2))]
    return rules, definitions + background_rules


def _same(clingo_labels, python_labels) -> None:
    assert len(clingo_labels) == len(python_labels)
    for row, (a, b) in enumerate(zip(clingo_labels, python_labels)):
        assert (a is None and b is None) or (a is not None and b is not None and a == b), \
            f"row {row}: clingo {a!r}, Python {b!r}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(), tables())
def test_random_programs_on_random_rows_give_the_python_evaluators_marks(program, frame):
    rules, background = program
    python_labels = apply_rules(rules, frame, background)[0]
    _same(solve_rules(rules, frame, background), python_labels)


def test_numeric_comparisons_are_exact_at_and_around_the_threshold():
    t = 0.7333333333333333
    values = [t, np.nextafter(t, 0), np.nextafter(t, 1), 11 / 15, -0.0, 0.0, np.nan, 1e308, -1e308]
    frame = pd.DataFrame({"coverage": values})
    for op in ("<=", ">", "<", ">="):
        for threshold in (t, 0.0, -0.0):
            rules = [Rule("hit", (Literal("coverage", op, threshold),))]
            _same(solve_rules(rules, frame), apply_rules(rules, frame)[0])
    # and the expected truth, independently of both implementations
    labels = solve_rules([Rule("hit", (Literal("coverage", "<=", t),))], frame)
    assert labels == ["hit", "hit", None, "hit", "hit", "hit", None, None, "hit"]


def test_solve_marks_reads_the_program_text_and_labels_keep_their_type():
    rules = [Rule(0.5, (Literal("length", ">", 3.0),)), Rule(2, (Literal("length", "<=", 1.0),)),
             Rule("x y", ())]
    text = write_program(rules, target="mark", dialect="clingo")
    frame = pd.DataFrame({"length": [5, 0, 2]})
    assert solve_marks(text, frame) == [0.5, 2, "x y"]


def test_a_program_that_gives_one_row_two_labels_is_refused():
    frame = pd.DataFrame({"length": [5]})
    text = 'answer(0..0).\nlabel(X,"a") :- answer(X).\nlabel(X,"b") :- answer(X).\n'
    with pytest.raises(ValueError, match="two labels"):
        solve_marks(text, frame, target="label")


# -- learned models ------------------------------------------------------------------------
@st.composite
def labelled_tables(draw):
    frame = draw(tables())
    n = len(frame)
    # labels that depend on the features (so that rules are learned) plus noise
    base = np.where(frame["concept:gap"].eq("present"), "1",
                    np.where(frame["length"].to_numpy() > 3, "0.5", "0"))
    noise = draw(st.lists(st.sampled_from(["0", "0.5", "1", None]), min_size=n, max_size=n))
    y = [b if m is None else m for b, m in zip(base, noise)]
    return frame, pd.Series(y, name="mark")


BACKGROUND = [PredicateDefinition("well_covered", (Literal("coverage", ">", 0.4),)),
              PredicateDefinition("well_covered", (Literal("length", ">=", 12.0),)),
              PredicateDefinition("no_gap", (Literal("concept:gap", "!=", "present"),),
                                  [Rule(None, (Literal("well_covered", "==", True),))])]


@pytest.mark.filterwarnings("ignore:column\\(s\\) .* have only missing values")  # random tables may have one
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(labelled_tables(), st.sampled_from([None, 0.1]), st.sampled_from([None, 0.5]), st.booleans())
def test_learned_models_exported_to_clingo_predict_what_confold_predicts(data, improvement, confidence,
                                                                         with_background):
    from grader import ConFold
    frame, y = data
    if y.nunique() < 2:
        return
    model = ConFold(improvement_threshold=improvement, confidence_threshold=confidence,
                    background=BACKGROUND if with_background else None).fit(frame, y)
    program = model.to_asp(dialect="clingo")
    _same(solve_marks(program, frame), model.predict(frame))


# -- the sample rubrics --------------------------------------------------------------------
SAMPLES = sorted(ROOT.glob("sample_data/*/question.yaml"))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.parent.name for p in SAMPLES])
def test_sample_rubrics_and_models_learned_from_them_mean_the_same_in_clingo(path):
    from grader import ConFold
    from knowledge import load_question
    features = pytest.importorskip("features")
    question = load_question(path)
    marked = pd.read_csv(path.parent / "marked.csv", dtype=str, keep_default_na=False)
    extractor = features.FeatureExtractor(question)
    X = extractor.fit_transform(marked["answer"].tolist(), marked["mark"].tolist())
    # the teacher's rules as written
    rubric = write_program(question.initial_rules, question.background, target="mark", dialect="clingo")
    expected = apply_rules(question.initial_rules, X, question.background)[0]
    assert any(label is not None for label in expected)
    _same(solve_marks(rubric, X), expected)
    # a model learned from the marked answers, starting from the rubric
    model = ConFold(background=question.background, initial_rules=question.initial_rules,
                    improvement_threshold=0.1).fit(X, marked["mark"].rename("mark"))
    _same(solve_marks(model.to_asp(dialect="clingo"), X), model.predict(X))
