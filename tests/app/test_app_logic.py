"""The app's logic without Streamlit: marks table, queue, groups, filters, export, settings."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from grader.app.export import csv_bytes, export_long, export_wide
from grader.app.review import (changed_marks, feature_groups, features_found, filter_table,
                               flagged, group_summary, progress_counts, proposed_table,
                               review_queue, with_decisions)
from grader.app.review_training import reviewed_examples
from grader.app.session import exam_id_for, read_exam_answers
from grader.app.settings import AppSettings
from grader.exams.exam_io import read_exam
from grader.app.review_store import ReviewStore


def _table() -> pd.DataFrame:
    answers = ["9.8 m/s2 down", "zero", "9.8 m/s2 down", "", "=HYPERLINK(\"x\")", "10 down"]
    grades = pd.DataFrame({
        "mark": ["1", "0", "1", None, "0", "0.5"],
        "confidence": [0.95, 0.55, 0.95, np.nan, 0.9, 0.65],
        "flagged": [False] * 6, "rule": ["R1", "R2", "R1", "", "R2", "R3"],
        "explanation": ["e"] * 6})
    features = pd.DataFrame({
        "concept:down": ["present", "absent", "present", "absent", "negated", "present"],
        "value:g": [9.8, np.nan, 9.8, np.nan, np.nan, 10.0],
        "non_answer": ["no", "no", "no", "yes", "no", "no"]})
    return proposed_table("q1", ["a", "b", "c", "d", "e", "f"], answers, grades, features)


def test_identical_features_share_a_group_and_different_ones_do_not():
    groups = _table()["group"].tolist()
    assert groups[0] == groups[2]
    assert len(set(groups)) == 5
    missing = feature_groups(pd.DataFrame({"x": [np.nan, np.nan, 1.0]}))
    assert missing[0] == missing[1] != missing[2]


def test_flags_follow_the_threshold_and_blank_or_unmarked_answers_are_always_flagged():
    t = _table()
    assert flagged(t, 0.7).tolist() == [False, True, False, True, False, True]
    assert flagged(t, 0.5).tolist() == [False, False, False, True, False, False]
    assert flagged(t, 0.99).all()


def test_queue_is_least_confident_first_and_drops_decided_answers(tmp_path):
    t = _table()
    assert review_queue(t, 0.7)["answer_id"].tolist() == ["d", "b", "f"]
    store = ReviewStore(tmp_path / "r.sqlite")
    store.record("exam", "q1", "b", marker="Ann", new_mark="0.5", base_version=0, old_mark="0")
    decided = with_decisions(t, store.current("exam"))
    assert review_queue(decided, 0.7)["answer_id"].tolist() == ["d", "f"]
    row = decided.set_index("answer_id").loc["b"]
    assert (row["mark"], row["proposed"], row["marker"], bool(row["reviewed"])) == (
        "0.5", "0", "Ann", True)
    assert row["version"] == store.latest("exam", "q1", "b").version
    counts = progress_counts(decided, 0.7)
    assert counts == {"answers": 6, "flagged": 3, "to review": 2, "reviewed": 1, "overridden": 1}


def test_filters_by_mark_flag_confidence_and_review():
    t = _table()
    assert filter_table(t, 0.7, marks=["1"])["answer_id"].tolist() == ["a", "c"]
    assert filter_table(t, 0.7, marks=["—"])["answer_id"].tolist() == ["d"]
    assert filter_table(t, 0.7, flag="not flagged")["answer_id"].tolist() == ["a", "c", "e"]
    assert filter_table(t, 0.7, confidence=(0.6, 0.92),
                        include_unscored=False)["answer_id"].tolist() == ["e", "f"]
    assert filter_table(t, 0.7, reviewed="reviewed").empty


def test_group_summary_lists_only_real_groups():
    summary = group_summary(_table())
    assert summary[["question_id", "size", "proposed"]].values.tolist() == [["q1", 2, "1"]]
    assert summary.loc[0, "example"] == "9.8 m/s2 down"


def test_features_found_puts_telling_features_in_words():
    row = {"concept:down": "present", "concept:gravity": "negated", "concept:zero": "absent",
           "quantity:g": "wrong_unit", "value:g": 9.8, "misconception:zero": "present",
           "non_answer": "no", "coverage": 0.5}
    found = features_found(row, {"concept:down": "says it points down", "misconception:zero": "thinks it stops"})
    assert found[0] == "thinks it stops"  # a wrong idea first
    assert "says it points down" in found
    assert "with a negation: mentions gravity" in found
    assert not any("zero" in f for f in found[1:])  # what the answer lacks is not listed
    assert any("wrong unit" in f for f in found)
    assert found[-1] == "says 50% of a reference answer's words"
    assert not any(name in " ".join(found) for name in row)  # no internal feature names


def test_features_found_name_the_antonym_that_said_a_reference_word_negated():
    row = {"ref:repel": "negated", "ref:pole": "negated"}
    descriptions = {"ref:repel": 'mentions "repel" (from the reference answer)',
                    "ref:pole": 'mentions "pole" (from the reference answer)'}
    found = features_found(row, descriptions, {"ref:repel": '"attract"'})
    assert 'denies it or says the opposite ("attract"): mentions "repel" (from the reference answer)' in found
    assert 'with a negation: mentions "pole" (from the reference answer)' in found


def test_changed_marks_lists_only_answers_whose_proposal_changed():
    before = _table()
    after = before.copy()
    after.loc[1, "proposed"] = "0.5"
    after.loc[3, "proposed"] = "0"
    changed = changed_marks(before, after)
    assert changed[["answer_id", "proposed_before", "proposed_after"]].values.tolist() == [
        ["b", "0", "0.5"], ["d", "—", "0"]]


def test_reviewed_examples_become_training_rows(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    store.record("exam", "q1", "e", marker="Ann", new_mark="1", base_version=0)
    store.record("exam", "q2", "a", marker="Ann", new_mark="1", base_version=0)
    rows = reviewed_examples(_table(), store.current("exam"), "q1")
    assert rows.values.tolist() == [["review:e", "=HYPERLINK(\"x\")", "1"]]


def test_long_export_has_final_marks_and_is_formula_safe(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    store.record("exam", "q1", "b", marker="Ann", new_mark="0.5", base_version=0,
                 comment="partly right")
    t = with_decisions(_table(), store.current("exam"))
    frame = export_long(t, 0.7)
    rows = list(csv.DictReader(io.StringIO(csv_bytes(frame).decode("utf-8-sig"))))
    assert [r["mark"] for r in rows] == ["1", "0.5", "1", "", "0", "0.5"]
    assert rows[1]["proposed_mark"] == "0" and rows[1]["reviewed_by"] == "Ann"
    assert rows[1]["comment"] == "partly right"
    assert rows[4]["answer"] == "'=HYPERLINK(\"x\")"
    assert [r["flagged"] for r in rows] == ["no", "yes", "no", "yes", "no", "yes"]


def _wide_exam(tmp_path: Path) -> Path:
    (tmp_path / "responses.csv").write_text(
        "\ufeffEmail address,Name,Response 1,Response 2\n"
        "a@x,Ann,9.8 down,open circuit\n"
        "b@x,Bob,\"zero\nat the top\",-\n"
        "a@x,Ann,10 down,gap\n", encoding="utf-8")
    (tmp_path / "exam.yaml").write_text(
        "name: Quiz\nanswers: responses.csv\nlayout: wide\nid_column: Email address\n"
        "questions:\n"
        "  - {id: q1, question: q1.yaml, column: Response 1, training: m1.csv}\n"
        "  - {id: q2, question: q2.yaml, column: Response 2, training: m2.csv}\n",
        encoding="utf-8")
    return tmp_path / "exam.yaml"


def test_wide_export_reads_into_answers_keeping_duplicate_attempts(tmp_path):
    exam = read_exam(_wide_exam(tmp_path))
    rows, answers, warnings = read_exam_answers(exam)
    assert answers["answer_id"].tolist()[:3] == ["a@x", "b@x", "a@x (row 4)"]
    assert answers["answer"].tolist()[:3] == ["9.8 down", "zero\nat the top", "10 down"]
    assert answers["row"].tolist() == [2, 3, 4, 2, 3, 4]
    assert len(warnings) == 1 and "row 4" in warnings[0]
    assert exam_id_for(tmp_path / "exam.yaml", "Quiz 3 (sample)").startswith("quiz-3-sample-")


def test_wide_export_puts_each_mark_in_its_student_row(tmp_path):
    exam = read_exam(_wide_exam(tmp_path))
    rows, answers, _ = read_exam_answers(exam)
    table = answers.assign(proposed=["1", "0", "1", "0", "0", "1"], confidence=0.9, rule="",
                           explanation="", group="g").drop(columns="row")
    store = ReviewStore(tmp_path / "r.sqlite")
    store.record("e", "q2", "b@x", marker="Ann", new_mark="0.5", base_version=0)
    wide = export_wide(rows, answers, with_decisions(table, store.current("e")), 0.7)
    assert list(wide.columns[:4]) == ["Email address", "Name", "Response 1", "Response 2"]
    assert wide["q1 mark"].tolist() == ["1", "0", "1"]
    assert wide["q2 mark"].tolist() == ["0", "0.5", "1"]
    assert wide["q2 reviewed by"].tolist() == ["", "Ann", ""]
    text = csv_bytes(wide).decode("utf-8-sig")
    assert "'-" in text  # the student's "-" cannot become a formula


def test_settings_come_from_the_environment_with_clear_errors(tmp_path):
    s = AppSettings.from_env({"GRADER_WORKDIR": str(tmp_path), "GRADER_MARKER": "Ann",
                              "GRADER_MAX_UPLOAD_MB": "2"})
    assert s.db_path == tmp_path / "reviews.sqlite"
    assert (s.marker, s.max_upload_bytes, s.flag_below) == ("Ann", 2 * 1024 * 1024, 0.7)
    assert AppSettings.from_env({"GRADER_DB": str(tmp_path / "x.db")}).db_path == tmp_path / "x.db"
    with pytest.raises(ValueError, match="GRADER_FLAG_BELOW"):
        AppSettings.from_env({"GRADER_FLAG_BELOW": "high"})
    with pytest.raises(ValueError, match="GRADER_MAX_UPLOAD_MB"):
        AppSettings.from_env({"GRADER_MAX_UPLOAD_MB": "-1"})
    with pytest.raises(ValueError, match="GRADER_MARKER: .*half of a character"):  # not UTF-8 in the environment
        AppSettings.from_env({"GRADER_MARKER": b"Ann\xe9".decode("utf-8", "surrogateescape")})


def test_the_app_flags_what_the_cli_flags_whatever_the_threshold():
    # "-" and "?" are blank answers for the CLI (flagged); the app flagged only empty text, and a
    # good mark for an answer that also states a misconception was not flagged in the app at all
    from grader.app.review import flagged, proposed_table
    from grader.grading.model import GradingModel
    from tests.data import marked_answers, small_question

    answers, marks = marked_answers()
    model = GradingModel.train(small_question(), answers, marks, n_resamples=0)
    new = ["-", "?", "there is a gap in the circuit so no current flows",
           "there is a gap in the circuit so no current flows, and the battery is flat"]
    grades = model.grade(new, flag_below=0.0)
    table = proposed_table("open_bulb", ["a", "b", "c", "d"], new, grades, model.features(new))
    assert flagged(table, threshold=0.0).tolist() == grades["flagged"].tolist() == [True, True, False, True]


def test_the_form_says_which_key_gives_which_mark():
    from grader.app.keys import mark_keys_help

    assert mark_keys_help(["0", "0.5", "1"]) == "Type the mark to choose it (0, 0.5, 1)."
    assert mark_keys_help(["correct", "partial", "wrong"]) == "Press 1 for correct, 2 for partial, 3 for wrong."
    assert mark_keys_help(["0", "half", "1"]).startswith("Press 1 for 0,")  # not all numbers: places


def test_the_queue_goes_question_by_question_when_asked():
    first = _table().assign(question_id="q2")
    second = _table().assign(question_id="q1", confidence=_table()["confidence"] - 0.05)
    both = pd.concat([first, second], ignore_index=True)
    mixed = review_queue(both, 0.7)
    assert mixed["question_id"].tolist()[:2] == ["q1", "q2"]  # least confident of all first
    ordered = review_queue(both, 0.7, by_question=["q2", "q1"])
    assert ordered["question_id"].tolist() == ["q2"] * 3 + ["q1"] * 3  # the exam's order
    assert ordered["answer_id"].tolist()[:3] == review_queue(first, 0.7)["answer_id"].tolist()


def test_a_marker_has_no_name_until_they_give_one():
    """The login name was every new browser's marker's name (decisions credited to "root")."""
    assert AppSettings.from_env({}).marker == ""
    assert AppSettings.from_env({"GRADER_MARKER": " Ann "}).marker == "Ann"
