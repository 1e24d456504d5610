"""The one error type of the knowledge package, and the problems it carries.

Every mistake in a teacher's file becomes a `Problem` that says where it is (file, line,
column, 1-based) and what was expected. Loading a file collects *all* its problems and raises
one `KnowledgeError`, so a teacher fixes a file in one go instead of one error per run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


@dataclass(frozen=True)
class Problem:
    """One mistake in a file: `file:line:col: message (expected ...)`."""

    file: str
    line: int
    column: int
    message: str
    expected: str | None = None

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.message}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column,
                "message": self.message, "expected": self.expected}


class KnowledgeError(ValueError):
    """A question or rule file has problems; `problems` lists every one of them.

    `str()` gives one `file:line:col: message` line per problem. It subclasses ValueError so
    that callers that treat bad input generically still catch it.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid knowledge file")


def source_name(source: str | Path | None) -> str:
    """The name used for a file in messages; `<text>` for text that has no file yet."""
    return str(source) if source is not None else "<text>"


def did_you_mean(word: str, choices: Iterable[str], score_cutoff: float = 60) -> str:
    """", did you mean 'X'?" for the choice closest to a misspelt name, or "" when none is
    close: a teacher who wrote `concpet:gap` sees the fix, not just the refusal."""
    from rapidfuzz import process  # on demand: only files with a mistake need it
    best = process.extractOne(word, list(choices), score_cutoff=score_cutoff)
    return f", did you mean '{best[0]}'?" if best else ""
