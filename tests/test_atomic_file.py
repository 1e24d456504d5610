"""grader.atomic_file: the one writer every user-facing file goes through."""

import os

import pytest

from grader.atomic_file import atomic_write_bytes, atomic_write_text


def test_replaces_the_file_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "model.json"
    target.write_text("old", encoding="utf-8")
    atomic_write_text(target, "new\r\n\u00e9")
    assert target.read_bytes() == "new\r\n\u00e9".encode("utf-8")
    assert os.listdir(tmp_path) == ["model.json"]


def test_missing_folder_is_named_not_the_temporary_file(tmp_path):
    target = tmp_path / "no_such_folder" / "report.json"
    with pytest.raises(FileNotFoundError) as info:
        atomic_write_bytes(target, b"{}")
    assert str(info.value) == f"{target.parent}: no such folder for report.json"
    assert ".tmp" not in str(info.value)
