"""Reading a file that another file names: only below an allowed folder, only a regular file,
only up to a size, and never blocking.

A question file (or an exam file, or an uploaded one) is not trusted to name any file on the
server: `file: /etc/passwd`, `../../secret`, a symlink out of the folder, `/dev/zero` or a
FIFO must be refused before a byte is read, and the refusal must not quote the file. The
checks use `os.stat` before opening (a FIFO or device is never opened) and open with
O_NONBLOCK, then compare the opened file with the checked one, so swapping the file in
between does not help either.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

#: The largest rule file a question file may name.
MAX_RULE_FILE_BYTES = 1_000_000


class FileRefused(ValueError):
    """A named file that may not be read; the message says why, never what the file holds."""


def inside(path: Path, folders: Iterable[Path]) -> bool:
    """Whether `path`, with symlinks and `..` resolved, lies in one of `folders`."""
    real = Path(os.path.realpath(path))
    for folder in folders:
        root = Path(os.path.realpath(folder))
        if real == root or root in real.parents:
            return True
    return False


def resolve_named_file(name: str, base_dir: Path | None, what: str = "rule file") -> Path:
    """The file a teacher's file names by `name`: relative, and below `base_dir` (the folder
    of the naming file) once symlinks and `..` are resolved."""
    if base_dir is None:
        raise FileRefused(f"{what} '{name}' cannot be read: a text without a folder (an upload "
                          f"or a pasted text) may only name files uploaded with it")
    if not name.strip() or "\0" in name:
        raise FileRefused(f"{what} name is empty or not a file name")
    path = Path(name)
    if path.is_absolute() or path.drive:
        raise FileRefused(f"{what} '{name}' is an absolute path; name a file next to the "
                          f"question file or in a folder below it")
    full = Path(base_dir) / path
    if not inside(full, [base_dir]):
        raise FileRefused(f"{what} '{name}' is outside the question file's folder; name a file "
                          f"next to the question file or in a folder below it")
    return full


def read_regular_file(path: Path, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of `path` if it is a regular file of at most `max_bytes`; FileRefused (a
    message without the path, for the caller to place) if it is a folder, device, FIFO or
    socket, or too large; OSError if it cannot be opened."""
    info = os.stat(path)
    _check(info, max_bytes, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        opened = os.fstat(fd)
        _check(opened, max_bytes, what)
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
            raise FileRefused(f"the {what} changed while it was being opened")
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > max_bytes:
        raise FileRefused(_too_large(max_bytes, what))
    return b"".join(chunks)


def check_regular_file(path: Path, max_bytes: int, what: str = "file") -> None:
    """FileRefused (a message without the path) unless `path` is a regular file of at most
    `max_bytes`; checked with `os.stat`, so a FIFO or device is never opened."""
    _check(os.stat(path), max_bytes, what)


def _check(info: os.stat_result, max_bytes: int, what: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise FileRefused("a folder, not a regular file")
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused("not a regular file (a device, pipe or socket)")
    if info.st_size > max_bytes:
        raise FileRefused(_too_large(max_bytes, what))


def _too_large(max_bytes: int, what: str) -> str:
    return f"too large: the limit for a {what} is {max_bytes / 1e6:g} MB"
