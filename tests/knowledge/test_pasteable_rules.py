"""`grader rules --format yaml`: a model's rules as a teacher copies them into a question file."""

from __future__ import annotations

import yaml

from grader.confold.rules import Literal as L, Rule
from knowledge import load_question
from knowledge.pasteable_rules import rules_to_paste
from tests.data import QUESTION_YAML

RULES = [
    Rule("0", (L("misconception:battery_flat", "==", "present"),), confidence=0.99, fixed_confidence=True,
         origin="background"),
    Rule("1", (L("concept:gap", "==", "present"),), name="gap", confidence=0.81, origin="initial",
         exceptions=[Rule(None, (L("length", "<", 3.0),))]),
    Rule("1", (L("similarity:1", ">", 0.25),), confidence=0.7),
    Rule("0", (L("ref:current", "==", "absent"),), confidence=0.6),
]


def test_the_rules_paste_into_a_question_file_as_written(tmp_path):
    question = tmp_path / "q.yaml"
    question.write_text(QUESTION_YAML, encoding="utf-8")
    text = rules_to_paste(load_question(question), RULES)
    assert "confidence" not in yaml.safe_dump(yaml.safe_load(text))  # comments aside: no confidences
    pasted = tmp_path / "pasted.yaml"
    pasted.write_text(QUESTION_YAML + "initial_rules:\n" + text, encoding="utf-8")
    rules = load_question(pasted).initial_rules
    # the background rule is the file's already; the similarity rule cannot be named in a file
    assert [(r.head, r.name, [l.feature for l in r.body]) for r in rules] == [
        ("1", "gap", ["concept:gap"]), ("0", None, ["ref:current"])]
    assert rules[0].exceptions[0].body == (L("length", "<", 3.0),) and rules[0].confidence is None
    assert "# left out, a question file cannot hold it (it rests on how alike an answer is to the marked " \
           "answers, similarity:1):\n# - mark: '1'\n#   if:\n#   - similarity:1 > 0.25\n" in text
