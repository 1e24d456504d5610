"""Writing files so that a crash or a full disk never leaves a half-written one.

Every file the project writes for a user (models, rubrics, graded exams, reports) goes
through here: a temporary file in the same folder, fsync, then `os.replace`, so readers
see either the old file or the new one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Replace `path` with `data` atomically (the temporary file is removed on failure)."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except FileNotFoundError:  # else the message names our temporary file, not the user's
        raise FileNotFoundError(f"{path.parent}: no such folder for {path.name}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Replace `path` with `text` atomically; newlines are written as they are in `text`."""
    atomic_write_bytes(path, text.encode(encoding))
