"""Question files: loading, every kind of mistake with its position, saving with history."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import knowledge
from grader.confold.rules import Literal, PredicateDefinition, Rule
from knowledge import KnowledgeError, check_question_text, load_question, save_question_text
from knowledge.schema import FeatureSpec

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "question-format.md"

MINIMAL = """\
id: q1
question: Why does the bulb not light?
marks: ["0", "0.5", "1"]
reference_answers: ["The circuit is open, so no current flows."]
concepts:
  gap: {phrases: [gap, break]}
quantities:
  current: {value: 0.5, unit: A}
misconceptions:
  used_up: [used up]
"""


def problems_of(text: str, name: str = "q.yaml") -> list[str]:
    return [str(p) for p in check_question_text(text, name)]


def with_rules(rules_yaml: str, head: str = MINIMAL) -> str:
    return head + rules_yaml


# -- good files ------------------------------------------------------------------------------
def test_the_complete_example_of_the_reference_doc_is_valid_and_means_what_it_says(tmp_path):
    example = re.search(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    path = tmp_path / "question.yaml"
    path.write_text(example, encoding="utf-8")
    q = load_question(path)
    assert q.id == "vertical_throw" and q.marks == ("0", "0.5", "1")
    assert [c.name for c in q.concepts] == ["downward", "gravity"]
    assert q.concepts[1].phrases[0] == "gravity"
    assert q.quantities[0].tolerance == 0.25 and q.quantities[0].absolute_tolerance
    assert q.background[0] == PredicateDefinition(
        "plausible_g", (Literal("value:acceleration", ">=", 9.0), Literal("value:acceleration", "<=", 10.5)),
        description="gives a value of g between 9 and 10.5")
    assert q.background[2].name == "says_gravity_down" and q.background[2].description == "says gravity pulls it down"
    assert q.background[1] == Rule("0", (Literal("misconception:zero_at_top", "==", "present"),
                                         Literal("plausible_g", "!=", True)),
                                   confidence=0.95, fixed_confidence=True, origin="background",
                                   name="zero_without_g")
    first, second, third = q.initial_rules
    assert first.head == "1" and first.confidence == 0.9 and first.origin == "initial"
    assert second.exceptions == [Rule(None, (Literal("concept:downward", "==", "present"),))]
    assert third.exceptions[0].body == (Literal("coverage", "<", 0.2), Literal("length", "<", 4.0))
    assert third.exceptions[1].exceptions == [Rule(None, (Literal("plausible_g", "==", True),))]


SAMPLES = sorted(ROOT.glob("sample_data/*/question.yaml"))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.parent.name for p in SAMPLES])
def test_sample_question_files_load_and_survive_a_json_round_trip(path):
    q = load_question(path)
    assert q.marks and q.reference_answers and q.initial_rules
    again = knowledge.question_from_dict(json.loads(json.dumps(knowledge.question_to_dict(q))))
    assert again == q


def test_marks_are_optional_and_then_any_mark_is_accepted():
    text = MINIMAL.replace('marks: ["0", "0.5", "1"]\n', "") + \
        "initial_rules:\n  - \"mark(X,'2') :- concept(X,gap,present).\"\n"
    assert problems_of(text) == []
    q, _ = knowledge.question_file.read_question_text(text)
    assert q.marks == ()


def test_numeric_marks_keep_the_text_written():
    text = MINIMAL.replace('marks: ["0", "0.5", "1"]', "marks: [0, 0.5, 1.0]")
    q, problems = knowledge.question_file.read_question_text(text)
    assert problems == [] and q.marks == ("0", "0.5", "1.0")


def test_no_credit_names_marks_that_give_no_credit_besides_the_lowest():
    text = MINIMAL.replace('marks: ["0", "0.5", "1"]', "marks: [blank, wrong idea, partly right, right]\n"
                           "no_credit: [wrong idea]")
    q, problems = knowledge.question_file.read_question_text(text)
    assert problems == [] and q.no_credit == ("wrong idea",)
    again = knowledge.question_from_dict(json.loads(json.dumps(knowledge.question_to_dict(q))))
    assert again == q
    plain, _ = knowledge.question_file.read_question_text(MINIMAL)
    assert plain.no_credit == () and "no_credit" not in knowledge.question_to_dict(plain)


@pytest.mark.parametrize("lines, said", [
    ('marks: [blank, wrong, right]\nno_credit: [wrnog]', "no_credit names 'wrnog', which is not one of the marks"),
    ('marks: [blank, wrong, right]\nno_credit: [wrong, right]', "no_credit lists every mark"),
    ('marks: [blank, wrong, right]\nno_credit: [wrong, wrong]', "duplicate mark 'wrong' in no_credit"),
    ('no_credit: [wrong]', "'no_credit' needs 'marks'"),
])
def test_no_credit_mistakes_are_located(lines, said):
    text = MINIMAL.replace('marks: ["0", "0.5", "1"]\n', "") + lines + "\n"
    line = text.splitlines().index(lines.splitlines()[-1]) + 1
    problems = problems_of(text)
    assert len(problems) == 1 and said in problems[0], problems
    assert problems[0].startswith(f"q.yaml:{line}:"), problems


@pytest.mark.parametrize("tolerance, value, absolute", [
    ("2%", 0.02, False), ("0.05", 0.05, False), ("'0.01 A'", 0.01, True), ("'20 mA'", 0.02, True)])
def test_tolerances(tolerance, value, absolute):
    text = MINIMAL.replace("{value: 0.5, unit: A}", f"{{value: 0.5, unit: A, tolerance: {tolerance}}}")
    q, problems = knowledge.question_file.read_question_text(text)
    assert problems == []
    assert q.quantities[0].tolerance == pytest.approx(value) and q.quantities[0].absolute_tolerance == absolute


def test_nm_is_the_newton_metre_of_a_moment():
    # pint's own "Nm" is number_meter (length per mass): `unit: Nm` took every answer's
    # "20 N m" for a wrong unit, and "20 Nm" in an answer too
    from features.quantities import check, find_numbers

    text = MINIMAL.replace("{value: 0.5, unit: A}", "{value: 20, unit: Nm, tolerance: '0.5 N*m'}")
    q, problems = knowledge.question_file.read_question_text(text)
    assert problems == [] and q.quantities[0].tolerance == pytest.approx(0.5)
    moment = q.quantities[0]
    assert [check(moment, find_numbers(a)).status for a in ("20 Nm", "20 N m", "2000 N cm", "20 kg")] == \
        ["correct", "correct", "correct", "wrong_unit"]


def test_rules_in_a_separate_lp_file_and_its_errors_point_into_it(tmp_path):
    (tmp_path / "rules.lp").write_text("% teacher's rules\nmark(X,'1') :- concept(X,gap,present).\n"
                                       "mark(X,'0') :- concept(X,gapp,present).\n", encoding="utf-8")
    path = tmp_path / "q.yaml"
    path.write_text(MINIMAL + "initial_rules: rules.lp\n", encoding="utf-8")
    with pytest.raises(KnowledgeError) as info:
        load_question(path)
    assert [str(p) for p in info.value.problems] == [
        f"{tmp_path / 'rules.lp'}:3:16: unknown feature 'concept:gapp', did you mean 'concept:gap'? "
        "(expected a feature of this question (concept:NAME, quantity:NAME, value:NAME, misconception:NAME, "
        "ref:NAME, term:NAME, coverage, precision, length, non_answer) or a predicate defined under background)"]
    (tmp_path / "rules.lp").write_text("mark(X,'1') :- concept(X,gap,present).\n", encoding="utf-8")
    assert load_question(path).initial_rules == [Rule("1", (Literal("concept:gap", "==", "present"),),
                                                      origin="initial")]
    path.write_text(MINIMAL + "background:\n  - file: missing.lp\n", encoding="utf-8")
    assert problems_of(path.read_text(), str(path))[0].startswith(f"{path}:12:11: cannot read rule file 'missing.lp'")


# -- bad files: every problem, with its position -------------------------------------------
BAD = """\
id: bad question
question: What happens?
marks: ["0", "0.5", "1", "1"]
reference_answers: []
concepst:
  gap: [gap]
concepts:
  gap:
    phrases: [gap, break]
  gap:
    phrases: [hole]
quantities:
  current:
    value: fast
    unit: amperes_per_banana
    tolerance: -3%
  voltage:
    value: 6
    unit: V
    tolerance: 0.1 A
background:
  - "p(X) :- not q(X)."
  - "q(X) :- not p(X)."
initial_rules:
  - "mark(X,'2') :- concept(X,gapp,present)."
  - name: r1
    mark: "1"
    if: ["concept:gap > 0.5", "coverage == high", "non_answer = yes", "concept:gap == presnt"]
    unles: ["x"]
  - name: r1
    mark: "0"
    if: ["value:voltage <= 3"]
  - "mark(X,'1') :- concept(X,gap,present)"
"""


def test_a_file_with_many_mistakes_reports_all_of_them_in_order():
    got = problems_of(BAD, "bad.yaml")
    expected_starts = [
        "bad.yaml:1:5: invalid id 'bad question'",
        "bad.yaml:3:8: duplicate mark '1'",
        "bad.yaml:4:20: no reference answer",
        "bad.yaml:5:1: unknown key 'concepst' in the question file, did you mean 'concepts'?",
        "bad.yaml:10:3: duplicate key 'gap' (first at line 8, column 3)",
        "bad.yaml:14:12: the value of quantity 'current' must be a number",
        "bad.yaml:15:11: unknown unit 'amperes_per_banana'",
        "bad.yaml:16:16: bad tolerance '-3%' for quantity 'current'",
        "bad.yaml:20:16: bad tolerance '0.1 A' for quantity 'voltage'",
        "bad.yaml:22:18: 'p' depends on itself through not (p -> not q -> not p); the program would not be stratified",
        "bad.yaml:25:13: mark '2' is not one of the marks (expected one of 0, 0.5, 1)",  # at the mark; each mark once
        "bad.yaml:25:21: unknown feature 'concept:gapp', did you mean 'concept:gap'?",
        "bad.yaml:28:10: 'concept:gap' is categorical and is compared with a number (> 0.5)",
        "bad.yaml:28:31: 'coverage' is numeric and is compared with 'high'",
        "bad.yaml:28:51: malformed condition 'non_answer = yes'",
        "bad.yaml:28:71: 'concept:gap' never has the value 'presnt', did you mean 'present'?",
        "bad.yaml:29:5: unknown key 'unles', did you mean 'unless'?",
        "bad.yaml:30:5: duplicate rule name 'r1' (first at line 26)",
        "bad.yaml:33:43: the rule does not end with '.'",
    ]
    assert len(got) == len(expected_starts), "\n".join(got)
    for line, start in zip(got, expected_starts):
        assert line.startswith(start), (line, start)
    with pytest.raises(KnowledgeError) as info:
        knowledge.question_file  # noqa: B018 - the module is loaded
        raise KnowledgeError(check_question_text(BAD, "bad.yaml"))
    assert str(info.value).splitlines() == got


@pytest.mark.parametrize("text, start", [
    ("id: q\nquestion: [unclosed\n", "q.yaml:2:11: the list opened here is not closed"),
    ("id: q\n  question: x\n", "q.yaml:2:3: this line is indented more than the line above it"),
    ("", "q.yaml:1:1: the file is empty"),
    ("- a list\n", "q.yaml:1:1: a question file must be a mapping, not a list"),
    ("question: x\nreference_answers: [a]\n", "q.yaml:1:1: missing key 'id'"),
    ("id: q\nquestion: {a: 1}\nreference_answers: [a]\n", "q.yaml:2:11: 'question' must be text, not a mapping"),
    ("id: q\nquestion: x\nreference_answers: [a]\nconcepts: [gap]\n",
     "q.yaml:4:11: 'concepts' must be a mapping of names, not a list"),
    ("id: q\nquestion: x\nreference_answers: [a]\nconcepts:\n  gap: {words: [a]}\n",
     "q.yaml:5:9: unknown key 'words' in concept 'gap'"),
    ("id: q\nquestion: x\nreference_answers: [a]\nquantities:\n  i: {value: 1, unit: A, tolerance: 3}\n",
     "q.yaml:5:37: bad tolerance 3 for quantity 'i': a bare number is a relative tolerance between 0 and 1"),
    ("id: q\nquestion: x\nreference_answers: [a]\nquantities:\n  g: 9.8\n",
     "q.yaml:5:6: quantity 'g' must be a mapping (expected value: ..., unit: ..., tolerance: ...)"),
    ("id: q\nquestion: x\nreference_answers: [a]\nrelations:\n  link: [a]\n",
     "q.yaml:5:9: relation 'link' must be a mapping (expected members: [concept, ...], link: [phrases])"),
    ("id: q\nquestion: x\nreference_answers: [a]\nquantities:\n  g: {value: 9.8, unit: m/s^2, units: m}\n",
     "q.yaml:5:32: unknown key 'units' in quantity 'g', did you mean 'unit'?"),
    ("id: q\nquestion: x\nreference_answers: [a]\nquantities:\n  g: {value: 9.8, unit: m/s^2, symbol: 9g}\n",
     "q.yaml:5:40: symbol of quantity 'g' must be a short name like g (expected a symbol like g or c)"),
    ("id: q\nquestion: x\nreference_answers: [a]\nquantities:\n  g: {value: 9.8, unit: m/s^2, negative_means: Down}\n",
     "q.yaml:5:48: negative_means of quantity 'g' must name a concept"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: Plausible\n    if: [length > 3]\n",
     "q.yaml:5:13: invalid predicate name 'Plausible'"),
    ("id: q\nquestion: x\nreference_answers: [a]\nid: r\n", "q.yaml:4:1: duplicate key 'id'"),
    ("id: q\nquestion: x\nreference_answers: [a]\ninitial_rules:\n  - mark: '1'\n    if: [coverage > 0.5]\n    mark: '0'\n",
     "q.yaml:7:5: duplicate key 'mark'"),
    ("id: q\nquestion: x\nreference_answers: [a]\ninitial_rules:\n  - if: [coverage > 0.5]\n",
     "q.yaml:5:5: missing key 'mark'"),
    ("id: q\nquestion: x\nreference_answers: [a]\ninitial_rules:\n  - mark: '1'\n    if: [coverage > 0.5]\n    confidence: 2\n",
     "q.yaml:7:17: confidence 2 is not a probability"),
    ("id: q\nquestion: x\nreference_answers: [a]\ninitial_rules:\n  - \"p(X) :- coverage(X,V), V > 0.5.\"\n",
     "q.yaml:5:6: derived predicate 'p' is defined in initial_rules"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: coverage\n    if: [length > 3]\n",
     "q.yaml:5:5: derived predicate 'coverage' has the name of a feature"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - \"p(X) :- q(X).\"\n  - \"q(X) :- p(X).\"\n",
     "q.yaml:5:14: 'p' depends on itself (p -> q -> p)"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: p\n    description: [says, it]\n    if: [length > 3]\n",
     "q.yaml:6:18: a description is text, not list"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: p\n    description: '  '\n    if: [length > 3]\n",
     "q.yaml:6:18: the description is empty"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: p\n    description: says a lot\n    if: [length > 3]\n"
     "  - define: p\n    description: says little\n    if: [length < 2]\n",
     "q.yaml:8:5: derived predicate 'p' is described differently here than at line 5 ('says a lot')"),
    ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - |\n    % description: is long\n    mark(X,'0') :- length(X,V), V > 3.\n",
     "q.yaml:6:5: a description belongs before a derived predicate's rule"),
    ("id: q\nquestion: x\nreference_answers: [a]\ninitial_rules:\n  - |\n    mark(X,'1') :-\n       coverage(X,V), V > lots.\n",
     "q.yaml:7:27: coverage is numeric and compared with a non-number"),
    ("id: q\nquestion: x\nreference_answers: [a]\ninitial_rules:\n  - mark: '1'\n    if: [coverage > 0.5]\n    unless: [length < 3, 7]\n",
     "q.yaml:7:26: an exception must be a condition, a list or a mapping, not int"),
])
def test_single_mistakes_are_named_with_position(text, start):
    got = problems_of(text)
    assert any(line.startswith(start) for line in got), got


def test_a_description_is_bounded_as_it_is_read_in_yaml_as_in_asp():
    """The YAML reader counted the spaces it then made single, the ASP reader did not: a
    description aligned with runs of spaces was refused in YAML and kept in ASP."""
    words = "gives a value of g between 9.5 and 10.5 m/s^2, " * 3  # 140 characters
    assert len(" ".join(words.split())) <= 200
    padded = words.replace(" ", "    ")  # over 200 characters as typed
    assert len(padded) > 200
    yaml_text = ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: p\n"
                 f"    description: '{padded}'\n    if: [length > 3]\n")
    asp_text = ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - |\n"
                f"    % description: {padded}\n    p(X) :- length(X,V), V > 3.\n")
    read = []
    for text in (yaml_text, asp_text):
        assert problems_of(text) == []
        q, _ = knowledge.question_file.read_question_text(text, "q.yaml")
        read.append(q.background[0].description)
    assert read[0] == read[1] == " ".join(words.split())
    too_long = ("id: q\nquestion: x\nreference_answers: [a]\nbackground:\n  - define: p\n"
                f"    description: '{'word ' * 41}'\n    if: [length > 3]\n")
    assert any("the description is 204 characters long (at most 200)" in p for p in problems_of(too_long))


def test_validation_against_a_fitted_extractors_features():
    text = with_rules("initial_rules:\n  - \"mark(X,'1') :- term(X,wire,present), coverage(X,V), V > 0.5.\"\n")
    assert problems_of(text) == []  # term:* is open by default
    q, _ = knowledge.question_file.read_question_text(text, "q.yaml")
    specs = [FeatureSpec("term:bulb", "categorical", ("present", "negated", "absent")),
             FeatureSpec("coverage", "numeric")]
    problems = [str(p) for p in knowledge.validate_question(q, specs)]
    assert len(problems) == 1 and problems[0].startswith("q.yaml:12:21: unknown feature 'term:wire'")


# -- saving ----------------------------------------------------------------------------------
def test_save_keeps_the_previous_version_and_refuses_invalid_text(tmp_path):
    path = tmp_path / "q.yaml"
    assert save_question_text(path, MINIMAL) is None  # a new file: nothing to keep
    assert path.read_text(encoding="utf-8") == MINIMAL
    changed = MINIMAL.replace("Why does the bulb not light?", "Why is the bulb off?")
    kept = save_question_text(path, changed)
    assert kept is not None and kept.parent == tmp_path / ".history"
    assert kept.read_text(encoding="utf-8") == MINIMAL
    assert path.read_text(encoding="utf-8") == changed
    with pytest.raises(KnowledgeError, match=r"q.yaml:5:1: unknown key 'concepst'"):
        save_question_text(path, changed.replace("concepts:", "concepst:"))
    assert path.read_text(encoding="utf-8") == changed  # untouched
    assert len(list((tmp_path / ".history").iterdir())) == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    third = changed.replace("Why is the bulb off?", "Why is the lamp off?")
    save_question_text(path, third)
    assert sorted(p.read_text(encoding="utf-8") for p in (tmp_path / ".history").iterdir()) == sorted([MINIMAL, changed])


def test_question_dict_from_a_newer_version_or_damaged_is_refused():
    d = knowledge.question_to_dict(knowledge.question_file.read_question_text(MINIMAL)[0])
    with pytest.raises(KnowledgeError, match="newer"):
        knowledge.question_from_dict({**d, "format_version": 99})
    with pytest.raises(KnowledgeError, match="damaged"):
        knowledge.question_from_dict({k: v for k, v in d.items() if k != "concepts"})
    with pytest.raises(KnowledgeError, match="not a question dict"):
        knowledge.question_from_dict({"format": "model"})


def test_load_question_of_a_missing_file_is_a_knowledge_error(tmp_path):
    with pytest.raises(KnowledgeError, match="cannot read the file"):
        load_question(tmp_path / "nope.yaml")


def test_latin1_file_is_read():
    text = MINIMAL.replace("Why does", "Pourquoi l'ampoule ne s'allume-t-elle pas? Why does")
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "q.yaml"
        path.write_bytes(text.replace("Pourquoi", "Pourquoi é").encode("latin-1"))
        assert "é" in load_question(path).text


def test_a_windows_1252_question_file_reads_as_its_exam_csv_does(tmp_path):
    """charset-normalizer's first guess for a few accents is Central European (cp1250): "à"
    became "ŕ" and "²" became "˛" in the question, while the CSV reader got the same bytes right."""
    from grader.exams.csv_reader import read_table

    from tests.data import SAMPLE

    words = "Un chariot à 2 m/s² accélère; l'élève répond"
    # a file of some length, mostly English, with a few accents (a short one was read right)
    base = (SAMPLE / "vertical_throw" / "question.yaml").read_text(encoding="utf-8").encode("ascii", "ignore")
    text = base.decode("ascii").replace("question:", f"question: {words}.", 1)
    (tmp_path / "q.yaml").write_bytes(text.encode("cp1252"))
    (tmp_path / "a.csv").write_bytes(f"id,answer\nr1,{words}\n".encode("cp1252"))
    question = load_question(tmp_path / "q.yaml")
    assert words in question.text
    assert read_table(tmp_path / "a.csv")[0]["answer"][0] == words
    assert knowledge.decode_question_text(text.encode("cp1252"), "q.yaml") == text


def test_a_question_file_that_is_no_text_says_what_it_is(tmp_path):
    (tmp_path / "q.yaml").write_bytes(b"%PDF-1.4\n" + bytes(range(256)))
    with pytest.raises(KnowledgeError, match="q.yaml:1:1: this is a PDF document, not a question file"):
        load_question(tmp_path / "q.yaml")
