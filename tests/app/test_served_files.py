"""The app opens exam files, and the files they name, only below the folders it serves,
only regular files of bounded size; an upload's question file names only uploaded files
(and is read as the question reader reads it, not by plain YAML)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from grader.app.served_files import MAX_TEXT_FILE_BYTES, served_exam
from grader.app.settings import REPO, AppSettings
from grader.app.uploads import UploadError, save_upload
from knowledge.local_files import FileRefused
from tests.knowledge.test_knowledge_question import MINIMAL

SAMPLE = REPO / "sample_data"


@pytest.fixture
def served(tmp_path) -> tuple[AppSettings, Path]:
    """Settings serving tmp_path/served, and that folder with a copy of the sample exam."""
    folder = tmp_path / "served"
    shutil.copytree(SAMPLE, folder / "sample")
    settings = AppSettings.from_env({"GRADER_WORKDIR": str(tmp_path / "work"), "GRADER_SERVE_DIR": str(folder)})
    return settings, folder


def exam_text(answers: str) -> str:
    return (f"answers: {answers}\nlayout: long\nquestions:\n  - id: q\n"
            f"    question: sample/vertical_throw/question.yaml\n    training: sample/vertical_throw/marked.csv\n")


def test_an_exam_below_the_served_folder_opens(served):
    settings, folder = served
    exam = served_exam(folder / "sample" / "exam" / "exam.yaml", settings)
    assert [q.id for q in exam.questions] == ["vertical_throw", "open_circuit_bulb", "resistor_current"]


@pytest.mark.parametrize("path", ["/etc/passwd", "/dev/zero"])
def test_the_path_box_cannot_reach_system_files(served, path):
    with pytest.raises(FileRefused, match="opens exam files only below") as info:
        served_exam(Path(path), served[0])
    assert "root:" not in str(info.value)


def test_an_exam_file_cannot_name_files_outside_the_served_folder(served, tmp_path):
    settings, folder = served
    (tmp_path / "private.csv").write_text("id,answer\n1,secret answer text\n", encoding="utf-8")
    for answers in ("/etc/passwd", "../private.csv"):
        exam = folder / "exam.yaml"
        exam.write_text(exam_text(answers), encoding="utf-8")
        with pytest.raises(FileRefused, match="opens exam exports only below") as info:
            served_exam(exam, settings)
        assert "secret answer text" not in str(info.value) and "root:" not in str(info.value)
        assert str(info.value).startswith(f"{exam}:1:10: ")  # where the exam file names it


def test_a_symlink_out_of_the_served_folder_is_refused(served, tmp_path):
    settings, folder = served
    (tmp_path / "private.csv").write_text("id,answer\n1,secret\n", encoding="utf-8")
    (folder / "linked.csv").symlink_to(tmp_path / "private.csv")
    (folder / "exam.yaml").write_text(exam_text("linked.csv"), encoding="utf-8")
    with pytest.raises(FileRefused, match="only below"):
        served_exam(folder / "exam.yaml", settings)
    (folder / "linked.yaml").symlink_to(folder / ".." / "served" / "exam.yaml")  # stays inside
    (folder / "exam.yaml").write_text(exam_text("sample/exam/responses.csv"), encoding="utf-8")
    assert served_exam(folder / "linked.yaml", settings).answers.name == "responses.csv"


def test_a_fifo_or_an_oversized_file_is_refused_without_blocking(served):
    settings, folder = served
    os.mkfifo(folder / "pipe.yaml")
    start = time.perf_counter()
    with pytest.raises(FileRefused, match="not a regular file"):
        served_exam(folder / "pipe.yaml", settings)
    os.mkfifo(folder / "pipe.csv")
    (folder / "exam.yaml").write_text(exam_text("pipe.csv"), encoding="utf-8")
    with pytest.raises(FileRefused, match="not a regular file"):
        served_exam(folder / "exam.yaml", settings)
    assert time.perf_counter() - start < 2
    (folder / "big.yaml").write_bytes(b"#" * (MAX_TEXT_FILE_BYTES + 1))
    with pytest.raises(FileRefused, match="too large"):
        served_exam(folder / "big.yaml", settings)


def test_the_served_folder_is_a_setting_that_must_exist(tmp_path):
    assert AppSettings.from_env({"GRADER_SERVE_DIR": str(tmp_path)}).serve_dir == tmp_path
    assert AppSettings.from_env({}).serve_dir == Path.cwd()
    with pytest.raises(ValueError, match="GRADER_SERVE_DIR"):
        AppSettings.from_env({"GRADER_SERVE_DIR": str(tmp_path / "missing")})


@pytest.mark.parametrize("entry", ["/etc/passwd", "../../../../etc/passwd", "../../../../../../dev/zero"])
def test_an_uploaded_question_file_names_only_files_uploaded_with_it(tmp_path, entry):
    question = (MINIMAL + f"background:\n  - file: '{entry}'\n").encode()
    marked = (SAMPLE / "vertical_throw" / "marked.csv").read_bytes()
    with pytest.raises(UploadError, match="rule file") as info:
        save_upload(tmp_path, question=("q.yaml", question), marked=("m.csv", marked),
                    export=("e.csv", b"id,answer\n1,x\n"), id_column="id", answer_column="answer",
                    max_bytes=10**7)
    assert "root:" not in str(info.value)


def test_the_exam_file_box_refuses_a_system_file_with_a_message(app_env, tmp_path):
    from tests.app.test_app import _button, _plain, _start

    outside = tmp_path.parent / f"{tmp_path.name}-outside.yaml"  # beside the served folder
    outside.write_text("name: secret exam\nanswers: x.csv\nlayout: long\nquestions: []\n", encoding="utf-8")
    for path in ("/etc/passwd", str(outside)):
        at = _start()
        at.sidebar.radio(key="open_source").set_value("An exam file on this computer").run()
        at.sidebar.text_input(key="open_path").set_value(path)
        _button(at, "Open").click().run()
        assert not at.exception, at.exception
        messages = [_plain(e.value) for e in at.error]
        assert any("the app opens exam files only below" in m for m in messages), messages
        assert not any("root:" in m or "secret exam" in m for m in messages)


def test_an_upload_whose_yaml_has_a_date_like_title_opens(tmp_path):
    """`title: 2024-13-45` is free text for the question reader; plain YAML reads a bad date."""
    question = (MINIMAL + "title: 2024-13-45\n").encode()
    marked = b"id,answer,mark\n1,there is a gap,1\n2,the battery is flat,0\n"
    exam = save_upload(tmp_path, question=("q.yaml", question), marked=("m.csv", marked),
                       export=("e.csv", b"id,answer\n1,x\n"), id_column="id", answer_column="answer",
                       max_bytes=10**7)
    assert "id: q1" in exam.read_text(encoding="utf-8")
