"""The bundled sample data stay consistent: the app, the examples and other tests rely on them.

Checks the marked answers (ids, marks, enough of each mark), the question files, and that the
exam export and exam.yaml agree. Files are read with plain pandas/PyYAML so a broken sample
file is told apart from a broken reader.
"""

from __future__ import annotations

import collections
import csv
from pathlib import Path

import pandas as pd
import pytest
import yaml

SAMPLE = Path(__file__).resolve().parent.parent / "sample_data"
QUESTION_IDS = ("vertical_throw", "open_circuit_bulb", "resistor_current")
EXAM_YAML = SAMPLE / "exam" / "exam.yaml"

MIN_ANSWERS = 150
MIN_PER_MARK = 20


def read_csv(path: Path) -> pd.DataFrame:
    """Read as the pipeline does: every cell a string, "NA" and blanks kept as text."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")


def question_yaml(qid: str) -> dict:
    with open(SAMPLE / qid / "question.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)


def exam() -> dict:
    with open(EXAM_YAML, encoding="utf-8") as f:
        return yaml.safe_load(f)


def normalised(text: str) -> str:
    return " ".join(text.casefold().split())


def test_sample_folders_are_the_ones_the_layout_promises():
    found = sorted(p.parent.name for p in SAMPLE.glob("*/question.yaml"))
    assert found == sorted(QUESTION_IDS)
    assert (SAMPLE / "README.md").is_file()


@pytest.mark.parametrize("path", sorted(SAMPLE.rglob("*.csv")), ids=lambda p: str(p.relative_to(SAMPLE)))
def test_every_csv_parses_with_pandas(path):
    frame = read_csv(path)
    assert len(frame) > 0
    assert not any(str(c).startswith("Unnamed") for c in frame.columns), "a blank or extra header column"
    # csv.reader would have given every row the header's width; pandas pads short rows with "".
    with open(path, encoding="utf-8-sig", newline="") as f:
        widths = {len(row) for row in csv.reader(f)}
    assert widths == {len(frame.columns)}, f"rows of different widths: {widths}"


@pytest.mark.parametrize("qid", QUESTION_IDS)
def test_question_file_basics(qid):
    q = question_yaml(qid)
    assert q["id"] == qid
    assert q["marks"] == ["0", "0.5", "1"]
    assert q["question"].strip() and q["reference_answers"]
    assert q["concepts"] and q["misconceptions"]
    assert any(" " in phrase for c in q["concepts"].values() for phrase in c["phrases"]), \
        "concepts should include multi-word phrases"
    for section in ("concepts", "misconceptions", "quantities"):
        for name, entry in (q.get(section) or {}).items():
            assert entry.get("description"), f"{section}.{name} has no description"
    assert len(q["background"]) >= 1
    assert len(q["initial_rules"]) >= 2


def test_rules_use_both_syntaxes_across_the_questions():
    kinds = collections.Counter()
    for qid in QUESTION_IDS:
        q = question_yaml(qid)
        for rule in q["background"] + q["initial_rules"]:
            kinds["asp" if isinstance(rule, str) else "structured"] += 1
    assert kinds["asp"] >= 2 and kinds["structured"] >= 2, kinds


def test_every_question_has_a_quantity_where_the_answer_is_a_number():
    for qid in ("vertical_throw", "resistor_current"):
        quantities = question_yaml(qid)["quantities"]
        assert quantities
        for entry in quantities.values():
            assert isinstance(entry["value"], (int, float)) and entry["unit"] and entry["tolerance"]


@pytest.mark.parametrize("qid", QUESTION_IDS)
def test_marked_answers(qid):
    frame = read_csv(SAMPLE / qid / "marked.csv")
    assert list(frame.columns) == ["id", "answer", "mark"]
    ids = frame["id"].str.strip()
    assert (ids != "").all()
    assert not ids.duplicated().any(), ids[ids.duplicated()].tolist()
    allowed = set(question_yaml(qid)["marks"])
    bad = frame.loc[~frame["mark"].isin(allowed), ["id", "mark"]]
    assert bad.empty, bad.to_string()
    assert len(frame) >= MIN_ANSWERS
    counts = frame["mark"].value_counts()
    assert set(counts.index) == allowed
    assert counts.min() >= MIN_PER_MARK, counts.to_dict()


@pytest.mark.parametrize("qid", QUESTION_IDS)
def test_marked_answers_repeat_only_short_common_answers(qid):
    """Real data repeat a few short answers ("0.5 A"), never long ones."""
    frame = read_csv(SAMPLE / qid / "marked.csv")
    counts = collections.Counter(normalised(a) for a in frame["answer"])
    repeated = {a: n for a, n in counts.items() if n > 1}
    assert all(len(a.split()) <= 10 for a in repeated), repeated
    assert sum(n - 1 for n in repeated.values()) <= 0.05 * len(frame), repeated


@pytest.mark.parametrize("qid", QUESTION_IDS)
def test_same_answer_has_same_mark(qid):
    frame = read_csv(SAMPLE / qid / "marked.csv")
    marks_per_answer = frame.groupby(frame["answer"].map(normalised))["mark"].nunique()
    assert (marks_per_answer == 1).all(), marks_per_answer[marks_per_answer > 1].to_dict()


def test_exam_yaml_names_the_export_columns():
    spec = exam()
    assert spec["layout"] == "wide"
    responses = read_csv(EXAM_YAML.parent / spec["answers"])
    assert spec["id_column"] in responses.columns
    columns = [q["column"] for q in spec["questions"]]
    assert len(set(columns)) == len(columns)
    assert set(columns) <= set(responses.columns), set(columns) - set(responses.columns)
    assert [q["id"] for q in spec["questions"]] == list(QUESTION_IDS)
    for q in spec["questions"]:
        question_path = (EXAM_YAML.parent / q["question"]).resolve()
        training_path = (EXAM_YAML.parent / q["training"]).resolve()
        assert question_path == SAMPLE / q["id"] / "question.yaml"
        assert training_path == SAMPLE / q["id"] / "marked.csv"


def test_exam_export_has_the_mess_the_pipeline_must_handle():
    spec = exam()
    path = EXAM_YAML.parent / spec["answers"]
    assert path.read_bytes().startswith(b"\xef\xbb\xbf"), "UTF-8 with a byte-order mark"
    responses = read_csv(path)
    assert len(responses) >= 75
    answers = responses[[q["column"] for q in spec["questions"]]].stack()
    assert (answers.str.strip() == "").any(), "a blank response"
    assert (answers.str.strip() == "-").any(), "a '-' for no response"
    assert answers.str.contains("\n").any(), "a line break inside an answer"
    assert answers.str.contains(",").any() and answers.str.contains('"').any()
    emails = responses[spec["id_column"]]
    assert (emails.str.contains("@")).all()
    assert emails.duplicated().sum() == 1, "exactly one student with a second attempt"


def test_exam_answers_are_not_copies_of_the_marked_ones():
    spec = exam()
    responses = read_csv(EXAM_YAML.parent / spec["answers"])
    for q in spec["questions"]:
        marked = {normalised(a) for a in read_csv(EXAM_YAML.parent / q["training"])["answer"]}
        copied = [a for a in responses[q["column"]] if normalised(a) in marked and len(a.split()) > 4]
        assert not copied, (q["id"], copied)


@pytest.mark.parametrize("qid", QUESTION_IDS)
def test_question_file_loads_without_problems(qid):
    from knowledge import load_question, validate_question

    question = load_question(SAMPLE / qid / "question.yaml")  # raises KnowledgeError listing problems
    assert question.id == qid
    assert question.marks == ("0", "0.5", "1")
    assert validate_question(question) == []
    raw = question_yaml(qid)
    assert [c.name for c in question.concepts] == list(raw["concepts"])
    assert len(question.background) == len(raw["background"])
    assert len(question.initial_rules) == len(raw["initial_rules"])


@pytest.mark.parametrize("qid", QUESTION_IDS)
def test_teacher_rules_give_the_reference_answers_full_marks(qid):
    """A rubric that does not give its own model answers the top mark is a broken rubric."""
    from features.extractor import FeatureExtractor
    from grader.confold.rule_eval import apply_rules
    from grader.confold.rules import PredicateDefinition
    from knowledge import load_question

    question = load_question(SAMPLE / qid / "question.yaml")
    references = list(question.reference_answers)
    features = FeatureExtractor(question).fit(references).transform(references)
    definitions = [r for r in question.background if isinstance(r, PredicateDefinition)]
    direct = [r for r in question.background if not isinstance(r, PredicateDefinition)]
    marks, _, _ = apply_rules(direct + question.initial_rules, features, background=definitions)
    assert list(marks) == [question.marks[-1]] * len(references)
