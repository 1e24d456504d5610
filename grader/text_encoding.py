"""Which encoding a teacher's text file is in, and whether it is text at all.

Exam CSVs (`grader.exams.csv_reader`) and question files (`knowledge.question_io`) are
decoded by this one module, so that the same bytes read the same in either.

Exports come from spreadsheets and learning platforms on every system: UTF-8 with or without
a byte-order mark, UTF-16 from Excel's "Unicode text", Windows-1252 from older tools. A BOM
wins; UTF-16/32 without one is told by where the zero bytes of ASCII characters fall; a file
that is valid UTF-8 is UTF-8; otherwise charset-normalizer's guesses are tried, Windows-1252
first for Western-looking text. A workbook, a PDF or other binary data is refused with what
it seems to be, so the teacher knows to save it as text (CSV or YAML).
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

_SAMPLE_BYTES = 256 * 1024
#: How a file that is not text is described: "a PDF document" (raised as NotText).
NO_TEXT = "not a text file (it has zero bytes where text has none)"

Opener = Callable[[], BinaryIO]


class NotText(ValueError):
    """A file that is no text; the message says what it seems to be ("a PDF document")."""

    def says(self, kind: str) -> str:
        """The refusal in a teacher's words: "this is a PDF document, not a CSV file"."""
        return f"this is {self}" + ("" if str(self) == NO_TEXT else f", not {kind}")


def detect_encoding(path: str | Path) -> str:
    """The encoding of a text file: from its BOM, else UTF-16/32 from the pattern of zero
    bytes, else UTF-8 if it is valid, else a guess. A file that is no text (a workbook, a
    PDF, other binary data) is NotText saying what it seems to be."""
    path = Path(path)
    return _detect(lambda: open(path, "rb"))


def decode_text(data: bytes) -> str:
    """Bytes already read (an upload, a small file) as text, decoded as `detect_encoding`
    would decode them on disk; NotText if they are not text."""
    encoding = _detect(lambda: io.BytesIO(data))
    return data.decode(encoding)


def _detect(open_bytes: Opener) -> str:
    with open_bytes() as f:
        head = f.read(_SAMPLE_BYTES)
    for magic, what in _MAGIC.items():
        if head.startswith(magic):
            raise NotText(what)
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\x00" in head:
        return _wide_encoding(open_bytes, head)
    bad_at = _first_invalid_utf8(open_bytes)
    if bad_at is None:
        return "utf-8"
    with open_bytes() as f:
        sample = f.read(_SAMPLE_BYTES)
        if bad_at > len(sample):
            f.seek(max(0, bad_at - 4096))
            sample += b"\n" + f.read(8192)
    for encoding in _legacy_candidates(sample):
        if _decodes(open_bytes, encoding):
            return encoding
    return "latin-1"  # decodes any bytes; better than refusing the file


_MAGIC = {b"PK\x03\x04": "a spreadsheet workbook (.xlsx or .ods) or another zip file",
          b"\xd0\xcf\x11\xe0": "an old Excel workbook (.xls) or another Office file",
          b"%PDF": "a PDF document"}


def _wide_encoding(open_bytes: Opener, head: bytes) -> str:
    """UTF-16 or UTF-32 without a byte-order mark, told by where the zero bytes of ASCII
    characters fall; otherwise the file is not text."""
    data = head[: len(head) - len(head) % 4]
    zero = np.frombuffer(data, dtype=np.uint8) == 0
    if len(zero) >= 4:
        by_position = [zero[k::4].mean() for k in range(4)]
        for encoding, pattern in (("utf-32-le", (0, 1, 1, 1)), ("utf-32-be", (1, 1, 1, 0)),
                                  ("utf-16-le", (0, 1, 0, 1)), ("utf-16-be", (1, 0, 1, 0))):
            if all((share > 0.6) if z else (share < 0.1) for share, z in zip(by_position, pattern)) \
                    and _decodes(open_bytes, encoding):
                return encoding
    raise NotText(NO_TEXT)


def _first_invalid_utf8(open_bytes: Opener) -> int | None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with open_bytes() as f:
        while block := f.read(1 << 20):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as e:
                return offset + e.start
            offset += len(block)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return offset
    return None


_WESTERN = {"cp1252", "latin_1", "iso8859_15", "cp1250", "iso8859_2", "mac_roman", "cp850", "cp1257"}


def _legacy_candidates(sample: bytes) -> list[str]:
    """Encodings to try for a file that is not UTF-8, most likely first.

    Windows-1252 is by far the most common legacy encoding of Western exports, and on the
    few accented letters of a short English export charset-normalizer's guess is a coin
    toss (it may say Big5 for "it’s"). So cp1252 goes first when the non-ASCII bytes look
    like Western text (short runs between ASCII ones, as in "café", "Größe", "10 °C") or
    when the library itself names a Western relative; otherwise (runs of high bytes, as in
    Cyrillic or CJK text) the library's guesses go first.
    """
    from charset_normalizer import from_bytes

    guesses = [m.encoding for m in from_bytes(sample)]
    guesses = [g for g in guesses if g not in ("ascii", "utf_8")]
    if not guesses or guesses[0] in _WESTERN or _mean_high_run(sample) <= 2.5:
        return list(dict.fromkeys(["cp1252"] + guesses))
    return list(dict.fromkeys(guesses + ["cp1252"]))


def _mean_high_run(sample: bytes) -> float:
    """Mean length of the runs of consecutive non-ASCII bytes (1-2 in Western text such as
    "café" or "Größe"; whole words in Cyrillic, CJK or Greek text)."""
    high = np.frombuffer(sample, dtype=np.uint8) >= 0x80
    runs = int(np.count_nonzero(high[1:] & ~high[:-1])) + int(high[:1].sum())
    return float(high.sum() / runs) if runs else 0.0


def _decodes(open_bytes: Opener, encoding: str) -> bool:
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        with open_bytes() as f:
            while block := f.read(1 << 20):
                decoder.decode(block)
        decoder.decode(b"", final=True)
    except (UnicodeDecodeError, LookupError):
        return False
    return True
