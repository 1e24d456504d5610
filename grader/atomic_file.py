"""Writing files so that a crash or a full disk never leaves a half-written one.

Every file the project writes for a user (models, rubrics, graded exams, reports) goes
through here: a temporary file in the same folder, fsync, then `os.replace`, so readers
see either the old file or the new one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once at import (setting the umask to read it is not thread-safe; the app has threads).
_NEW_FILE_MODE = 0o666 & ~_umask()


def _mode_for(path: Path) -> int:
    """The permissions the file should keep: the replaced file's, or what `open` would give
    a new one (mkstemp makes its files private, 0600, which other markers could not read)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return _NEW_FILE_MODE


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Replace `path` with `data` atomically (the temporary file is removed on failure)."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except FileNotFoundError:  # else the message names our temporary file, not the user's
        raise FileNotFoundError(f"{path.parent}: no such folder for {path.name}") from None
    try:
        os.chmod(tmp, _mode_for(path))
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
