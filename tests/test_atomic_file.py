"""grader.atomic_file: the one writer every user-facing file goes through."""

import importlib
import os

import pytest

import grader.atomic_file as module
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


def test_a_new_file_gets_the_usual_permissions_and_a_replaced_file_keeps_its_own(tmp_path):
    mask = os.umask(0o022)
    try:
        importlib.reload(module)  # the umask is read at import
        new = tmp_path / "new.json"
        module.atomic_write_text(new, "{}")
        assert new.stat().st_mode & 0o777 == 0o644  # not mkstemp's private 0600
        kept = tmp_path / "kept.yaml"
        kept.write_text("old", encoding="utf-8")
        kept.chmod(0o640)
        module.atomic_write_text(kept, "new")
        assert kept.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(mask)
        importlib.reload(module)
