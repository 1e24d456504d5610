"""The app's settings: where decisions, models and uploads live, which folder the app may
open exam files from, who the marker is.

Each setting is an environment variable with a default that works on a fresh clone, so
`streamlit run app.py` needs no configuration (see docs/app.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from grader.app.review_store import check_lengths

#: The repository root (the folder holding app.py and sample_data/).
REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class AppSettings:
    """Where things are and the defaults a marker starts with."""

    workdir: Path          # the app's working folder: models, uploads, exports, sample copy
    db_path: Path          # the SQLite file of the markers' decisions
    sample_exam: Path      # the exam opened when the app starts
    marker: str            # the marker's name shown in the name box at first ("": none, asked for)
    max_upload_mb: float   # uploads larger than this are refused with a message
    flag_below: float      # answers with a confidence below this go to the review queue
    serve_dir: Path = field(default_factory=Path.cwd)  # exam files may be opened only below this
    general_model: Path | None = None  # marks questions with no marked answers yet (grader train-general)
    anonymous: bool = True  # the marking views hide students' ids and names at first

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "AppSettings":
        """Read the `GRADER_*` environment variables; raise ValueError naming a bad one."""
        env = os.environ if environ is None else environ
        workdir = Path(env.get("GRADER_WORKDIR") or REPO / ".grader").expanduser()
        db = Path(env.get("GRADER_DB") or workdir / "reviews.sqlite").expanduser()
        sample = Path(env.get("GRADER_SAMPLE_EXAM")
                      or REPO / "sample_data" / "exam" / "exam.yaml").expanduser()
        marker = (env.get("GRADER_MARKER") or "").strip()  # none: asked for at the first decision
        try:
            check_lengths(marker)
        except ValueError as err:
            raise ValueError(f"setting GRADER_MARKER: {err}") from None
        max_mb = _number(env, "GRADER_MAX_UPLOAD_MB", 20.0, low=0.001, high=200.0)
        flag = _number(env, "GRADER_FLAG_BELOW", 0.7, low=0.0, high=1.0)
        serve = Path(env.get("GRADER_SERVE_DIR") or Path.cwd()).expanduser()
        if not serve.is_dir():
            raise ValueError(f"setting GRADER_SERVE_DIR={str(serve)!r} is not a folder")
        general = Path(env["GRADER_GENERAL_MODEL"]).expanduser() if (env.get("GRADER_GENERAL_MODEL") or "").strip() \
            else None
        if general is not None and not general.is_file():
            raise ValueError(f"setting GRADER_GENERAL_MODEL={str(general)!r} is not a file")
        anonymous = _yes_no(env, "GRADER_ANONYMOUS", True)
        return cls(workdir, db, sample, marker, max_mb, flag, serve, general, anonymous)

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)


def _number(env: Mapping[str, str], name: str, default: float, *, low: float,
            high: float) -> float:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"setting {name}={raw!r} is not a number") from None
    if not low <= value <= high:
        raise ValueError(f"setting {name}={raw!r} is outside {low:g}..{high:g}")
    return value


def _yes_no(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "yes", "true", "on"):
        return True
    if raw in ("0", "no", "false", "off"):
        return False
    raise ValueError(f"setting {name}={env.get(name)!r} is not yes or no (1/0, true/false, on/off)")
