"""Loading, checking and saving question files, and questions as JSON-able dicts."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from grader.atomic_file import atomic_write_bytes, atomic_write_text
from knowledge.errors import KnowledgeError, Problem
from knowledge.numbers import unit_problem
from knowledge.question_file import read_question_text
from knowledge.schema import Concept, FeatureSpec, Misconception, Quantity, Question, Relation
from knowledge.validate import validate_question
from knowledge.yaml_rules import rules_from_dicts, rules_to_dicts

HISTORY_DIR = ".history"
DICT_FORMAT = "question"
DICT_VERSION = 1


def decode_question_text(data: bytes, source: str | Path) -> str:
    """A question file's text from its bytes, decoded as exam CSVs are (`grader.text_encoding`:
    a BOM, else UTF-8, else Windows-1252 for Western text, which teachers' editors still
    save), so a file reads the same from disk, from an upload, in the app's editor and as
    the CSVs beside it. KnowledgeError if it is not text."""
    from grader.text_encoding import NotText, decode_text

    try:
        return decode_text(data)
    except NotText as err:
        raise KnowledgeError([Problem(str(source), 1, 1, err.says("a question file"), "a UTF-8 YAML file")]) from None


def read_question_file_text(path: str | Path) -> str:
    """The text of a question file on disk, decoded as `decode_question_text` does."""
    return decode_question_text(Path(path).read_bytes(), path)


def _read_and_check(text: str, path: str | Path | None,
                    specs: Sequence[FeatureSpec] | None) -> tuple[Question | None, list[Problem]]:
    """The question and every problem of its text, the file's own problems first (those of
    an .lp rule file it names after), so the editor and the loader list them alike."""
    question, problems = read_question_text(text, path)
    if question is not None:
        problems = problems + validate_question(question, specs)
    return question, sorted(problems, key=lambda p: (p.file != str(path), p.file, p.line, p.column))


def check_question_text(text: str, path: str | Path | None = None,
                        specs: Sequence[FeatureSpec] | None = None) -> list[Problem]:
    """Every problem of a question file's text (form, rules, features, marks); [] if valid."""
    return _read_and_check(text, path, specs)[1]


def load_question(path: str | Path, specs: Sequence[FeatureSpec] | None = None) -> Question:
    """Read and validate a question file; raises `KnowledgeError` listing all problems."""
    path = Path(path)
    try:
        text = read_question_file_text(path)
    except OSError as err:
        raise KnowledgeError([Problem(str(path), 1, 1, f"cannot read the file: {err.strerror or err}")]) from None
    question, problems = _read_and_check(text, path, specs)
    if problems:
        raise KnowledgeError(problems)
    return question


def save_question_text(path: str | Path, text: str, specs: Sequence[FeatureSpec] | None = None) -> Path | None:
    """Validate `text`, keep the current file in `.history/NAME.TIMESTAMP.yaml`, then replace
    the file atomically. Raises `KnowledgeError` (and writes nothing) if the text is invalid.
    Returns the path of the kept previous version (None for a new file)."""
    path = Path(path)
    problems = check_question_text(text, path, specs)
    if problems:
        raise KnowledgeError(problems)
    kept = None
    if path.exists():
        history = path.parent / HISTORY_DIR
        history.mkdir(exist_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        kept = history / f"{path.stem}.{stamp}{path.suffix}"
        n = 1
        while kept.exists():
            kept = history / f"{path.stem}.{stamp}-{n}{path.suffix}"
            n += 1
        atomic_write_bytes(kept, path.read_bytes())
    atomic_write_text(path, text)
    return kept


def question_to_dict(q: Question) -> dict:
    """A JSON-able dict of the question (rules in the structured form)."""
    return {
        "format": DICT_FORMAT, "format_version": DICT_VERSION,
        "id": q.id, "question": q.text, "marks": list(q.marks),
        "reference_answers": list(q.reference_answers),
        "concepts": [{"name": c.name, "phrases": list(c.phrases), "description": c.description}
                     for c in q.concepts],
        "quantities": [{"name": x.name, "value": x.value, "unit": x.unit, "tolerance": x.tolerance,
                        "absolute_tolerance": x.absolute_tolerance, "description": x.description,
                        **_notation(x)}
                       for x in q.quantities],
        "misconceptions": [{"name": m.name, "phrases": list(m.phrases), "description": m.description}
                           for m in q.misconceptions],
        "background": rules_to_dicts(q.background, default_origin="background"),
        "initial_rules": rules_to_dicts(q.initial_rules, default_origin="initial"),
        "source": str(q.source) if q.source is not None else None,
        "non_answers": list(q.non_answers),
        "expected_words": list(q.expected_words),
        **({"no_credit": list(q.no_credit)} if q.no_credit else {}),
        "relations": [{"name": r.name, "members": list(r.members), "link": list(r.link),
                       "description": r.description, **({"ordered": True} if r.ordered else {})}
                      for r in q.relations],
    }


def _notation(q: Quantity) -> dict:
    """The notation options that are set (older readers see no new keys for plain quantities)."""
    return {k: v for k, v in (("bare_number", q.bare_number), ("symbol", q.symbol),
                              ("negative_means", q.negative_means)) if v}


def _optional_text(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"expected text or nothing, got {type(value).__name__}")
    return value


def question_from_dict(d: dict) -> Question:
    """The inverse of `question_to_dict`; raises KnowledgeError for a dict that is not one."""
    where = "<question dict>"
    if not isinstance(d, dict) or d.get("format") != DICT_FORMAT:
        raise KnowledgeError([Problem(where, 1, 1, "not a question dict", "format: question")])
    if not isinstance(d.get("format_version"), int) or d["format_version"] > DICT_VERSION:
        raise KnowledgeError([Problem(where, 1, 1, f"question dict version {d.get('format_version')!r} "
                                                   f"is newer than this program's ({DICT_VERSION})",
                                      "an update of the grader")])
    for x in d.get("quantities") or ():
        problem = unit_problem(str(x.get("unit", ""))) if isinstance(x, dict) else None
        if problem:
            raise KnowledgeError([Problem(where, 1, 1, f"quantity {x.get('name')!r}: {problem}", "a unit like m/s^2")])
    try:
        return Question(
            id=d["id"], text=d["question"], marks=tuple(d["marks"]),
            reference_answers=tuple(d["reference_answers"]),
            concepts=tuple(Concept(c["name"], tuple(c["phrases"]), c.get("description")) for c in d["concepts"]),
            quantities=tuple(Quantity(x["name"], float(x["value"]), x["unit"], float(x["tolerance"]),
                                      bool(x["absolute_tolerance"]), x.get("description"),
                                      bare_number=bool(x.get("bare_number", False)),
                                      symbol=_optional_text(x.get("symbol")),
                                      negative_means=_optional_text(x.get("negative_means")))
                             for x in d["quantities"]),
            misconceptions=tuple(Misconception(m["name"], tuple(m["phrases"]), m.get("description"))
                                 for m in d["misconceptions"]),
            background=rules_from_dicts(d["background"], default_origin="background"),
            initial_rules=rules_from_dicts(d["initial_rules"], default_origin="initial"),
            source=Path(d["source"]) if d.get("source") else None,
            non_answers=tuple(d.get("non_answers") or ()),
            expected_words=tuple(d.get("expected_words") or ()),
            no_credit=tuple(d.get("no_credit") or ()),
            relations=tuple(Relation(r["name"], tuple(r["members"]), tuple(r["link"]), r.get("description"),
                                     bool(r.get("ordered", False)))
                            for r in d.get("relations") or ()),
        )
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, KnowledgeError):
            raise
        raise KnowledgeError([Problem(where, 1, 1, f"damaged question dict: {err!r}")]) from None
