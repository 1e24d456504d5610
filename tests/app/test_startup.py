"""`./dev app` starts unattended: no e-mail prompt, no word of usage statistics (issue 15, item 5)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_the_app_starts_without_a_prompt_and_without_usage_statistics(tmp_path):
    # a fresh home: no ~/.streamlit/credentials.toml, as on a teacher's new machine
    env = dict(os.environ, HOME=str(tmp_path))
    process = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", "8593"],
                               cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    output = ""
    try:  # read what it prints until the URL shows, a prompt waits for input, or 60 s pass
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "URL:" not in output and "Email" not in output:
            ready, _, _ = select.select([process.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(process.stdout.fileno(), 4096).decode(errors="replace")
                if not chunk:
                    break
                output += chunk
    finally:
        process.kill()
        process.wait(10)
    assert "URL:" in output, output
    assert "Email" not in output and "usage statistics" not in output.lower(), output


def test_a_spawned_background_worker_does_not_draw_the_page(monkeypatch):
    """The cross-validation runs in processes started by `spawn`, which import the main
    script (app.py) again as `__mp_main__`: the page must not run there (it graded the whole
    exam in every worker, and failed outright once a widget's value came from its default)."""
    import runpy

    import grader.app.page

    def drawn():
        raise AssertionError("the page was drawn")

    monkeypatch.setattr(grader.app.page, "main", drawn)
    runpy.run_path(str(REPO / "app.py"), run_name="__mp_main__")
    with pytest.raises(AssertionError, match="the page was drawn"):
        runpy.run_path(str(REPO / "app.py"), run_name="__main__")
