"""A question file's rule-file entry reaches only a regular, bounded file below its folder,
and a refusal never quotes the refused file."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from knowledge import check_question_text, load_question
from knowledge.local_files import MAX_RULE_FILE_BYTES, FileRefused, read_regular_file, resolve_named_file
from tests.knowledge.test_knowledge_question import MINIMAL

SECRET = "mark(X,'1') :- concept(X,topsecrettoken,present).\n"  # parses as a rule: would be echoed


@pytest.fixture
def layout(tmp_path) -> tuple[Path, Path]:
    """(the question's folder, a secret file beside that folder)."""
    folder = tmp_path / "course" / "q1"
    folder.mkdir(parents=True)
    secret = tmp_path / "course" / "secret.lp"
    secret.write_text(SECRET, encoding="utf-8")
    return folder, secret


def problems(folder: Path, entry: str) -> list[str]:
    path = folder / "q.yaml"
    path.write_text(MINIMAL + f"initial_rules:\n  - file: '{entry}'\n", encoding="utf-8")
    start = time.perf_counter()
    found = [str(p) for p in check_question_text(path.read_text(encoding="utf-8"), path)]
    assert time.perf_counter() - start < 2
    return found


def assert_refused(found: list[str], why: str) -> None:
    assert len(found) == 1 and why in found[0], found
    assert "topsecrettoken" not in found[0] and "root:" not in found[0]


@pytest.mark.parametrize("entry", ["/etc/passwd", "../../../../etc/passwd", "/dev/zero"])
def test_system_files_are_refused_before_reading(layout, entry):
    found = problems(layout[0], entry)
    assert_refused(found, "absolute path" if entry.startswith("/") else "outside the question file's folder")


def test_a_dot_dot_path_out_of_the_folder_is_refused(layout):
    folder, secret = layout
    assert_refused(problems(folder, "../secret.lp"), "outside the question file's folder")
    assert_refused(problems(folder, f"sub/../../{secret.name}"), "outside the question file's folder")


def test_a_symlink_out_of_the_folder_is_refused(layout):
    folder, secret = layout
    (folder / "rules.lp").symlink_to(secret)
    assert_refused(problems(folder, "rules.lp"), "outside the question file's folder")
    (folder / "zero.lp").symlink_to("/dev/zero")
    assert_refused(problems(folder, "zero.lp"), "outside the question file's folder")


def test_a_fifo_in_the_folder_is_refused_without_blocking(layout):
    folder = layout[0]
    os.mkfifo(folder / "rules.lp")
    assert_refused(problems(folder, "rules.lp"), "not a regular file")


def test_a_folder_and_an_oversized_file_are_refused(layout):
    folder = layout[0]
    (folder / "rules").mkdir()
    assert_refused(problems(folder, "rules"), "a folder")
    (folder / "big.lp").write_bytes(b"% " + b"x" * MAX_RULE_FILE_BYTES + b"\n")
    assert_refused(problems(folder, "big.lp"), "too large")


def test_a_rule_file_below_the_folder_is_read(layout):
    folder = layout[0]
    (folder / "rules").mkdir()
    (folder / "rules" / "marks.lp").write_text("mark(X,'1') :- concept(X,gap,present).\n", encoding="utf-8")
    assert problems(folder, "rules/marks.lp") == []
    (folder / "q.yaml").write_text(MINIMAL + "initial_rules: rules/marks.lp\n", encoding="utf-8")
    assert len(load_question(folder / "q.yaml").initial_rules) == 1


def test_a_text_without_a_folder_names_no_files(layout):
    text = MINIMAL + "initial_rules:\n  - file: rules.lp\n"
    found = [str(p) for p in check_question_text(text, None)]
    assert len(found) == 1 and "may only name files uploaded with it" in found[0]


def test_reading_checks_the_kind_of_file_before_opening(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match="not a regular file"):
        read_regular_file(fifo, 100)
    with pytest.raises(FileRefused, match="not a regular file"):
        read_regular_file(Path("/dev/zero"), 100)
    grows = tmp_path / "f"
    grows.write_bytes(b"12345")
    assert read_regular_file(grows, 5) == b"12345"
    with pytest.raises(FileRefused, match="too large"):
        read_regular_file(grows, 4)
    with pytest.raises(FileRefused, match="empty"):
        resolve_named_file(" ", tmp_path)
