"""The learning core: the CON-FOLD rule learner and what it needs (see grader/confold.py)."""

from __future__ import annotations

__all__ = ["ConFold"]


def __getattr__(name: str):
    # Imported lazily so that `grader.rules` and `grader.rule_eval` stay light to import.
    if name == "ConFold":
        from grader.confold import ConFold
        return ConFold
    raise AttributeError(f"module 'grader' has no attribute {name!r}")
