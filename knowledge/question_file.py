"""Question files: YAML text -> `Question` (with every problem reported), and back.

`read_question_text` builds the `Question` and lists problems of form (keys, types, units,
tolerances, rule syntax); `knowledge.validate` then checks the rules against the features
and marks. Where each rule and literal came from is kept on the question (an attribute
`_knowledge_positions`, not a dataclass field) so that validation can point at them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from grader.confold.rules import PredicateDefinition, Rule
from knowledge.asp import parse_program
from knowledge.errors import KnowledgeError, Problem, did_you_mean, source_name
from knowledge.local_files import MAX_RULE_FILE_BYTES, FileRefused, read_regular_file, resolve_named_file
from knowledge.question_quantities import read_quantities, unit_registry  # noqa: F401 (unit_registry re-exported)
from knowledge.schema import NAME, Concept, Misconception, Question, Relation
from knowledge.yaml_rules import DataReader, RuleFormatError, parse_condition
from knowledge.yaml_source import Located, load_located

TOP_KEYS = ("id", "question", "marks", "reference_answers", "concepts", "quantities",
            "misconceptions", "background", "initial_rules", "non_answers", "relations", "expected_words",
            "no_credit", "title", "description")
REQUIRED = ("id", "question", "reference_answers")
VOCABULARY_KEYS = ("phrases", "description")
RELATION_KEYS = ("members", "link", "description", "ordered")
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
class _Reader:
    def __init__(self, located: Located, base_dir: Path | None):
        self.located = located
        self.base_dir = base_dir
        self.problems: list[Problem] = []
        self.positions: dict[int, tuple] = {}

    def problem(self, where: Any, message: str, expected: str | None = None) -> None:
        self.problems.append(self.located.problem(where, message, expected))

    def unknown_keys(self, data: dict, allowed, what: str) -> None:
        for key in data:
            if key not in allowed:
                hint = did_you_mean(str(key), allowed)
                self.problem(("key", data, key), f"unknown key '{key}' in {what}{hint}",
                             ", ".join(allowed))

    def text(self, data: dict, key: str, required: bool = True) -> str | None:
        value = data.get(key)
        if value is None:
            if required and key not in data:
                self.problem(data, f"missing key '{key}'", f"{key}: ...")
            elif required:
                self.problem(("value", data, key), f"'{key}' is empty", "some text")
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.located.raw.get(id(value), str(value))
        if not isinstance(value, str):
            self.problem(("value", data, key), f"'{key}' must be text, not {_kind(value)}", "text")
            return None
        return value

    def strings(self, data: dict, key: str, what: str) -> list[str]:
        """A list of texts (or one text), read as written: `[off, on, yes, 1e3]` are words
        here, not true/false or numbers; a problem is located at its item."""
        value = data.get(key)
        if value is None:
            return []
        written = self.located.value_raw.get((id(data), key))
        if isinstance(value, (bool, int, float)) and written is not None:
            value = written  # `phrases: off`
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            self.problem(("value", data, key), f"'{key}' must be a list of {what}, not {_kind(value)}",
                         f"a list like [{what}, ...]")
            return []
        located = self.located.items.get(id(items), [])
        out = []
        for i, item in enumerate(items):
            position, raw = located[i] if i < len(located) else (None, None)
            if isinstance(item, (bool, int, float)) and raw is not None:
                item = raw  # `off`, `yes`, `1e3` written as a phrase
            if not isinstance(item, str) or not item.strip():
                line, col = position or self.located.of(("value", data, key))
                self.problems.append(Problem(self.located.file, line, col,
                                             f"each of '{key}' must be non-empty text", what))
                continue
            out.append(item)
        return out

    # -- vocabulary -------------------------------------------------------------------------
    def names(self, data: dict, key: str) -> list[tuple[str, Any]]:
        section = data.get(key)
        if section is None:
            return []
        if not isinstance(section, dict):
            self.problem(("value", data, key), f"'{key}' must be a mapping of names, not {_kind(section)}",
                         "NAME: {phrases: [...], ...}")
            return []
        out = []
        for name, entry in section.items():
            if not isinstance(name, str) or not NAME.match(name):
                self.problem(("key", section, name), f"invalid name {name!r} in {key}",
                             "lowercase letters, digits and _ starting with a letter")
                continue
            out.append((name, entry, section))
        return out

    def mappings(self, data: dict, key: str, what: str, allowed, expected: str) -> Iterator[tuple[str, dict]]:
        """(name, entry) of each entry of the `key` section that is a mapping, its unknown keys
        reported; an entry that is no mapping is reported at its place (`what`: "quantity",
        "relation"). A generator: each entry's problems come in the order of the file."""
        for name, entry, section in self.names(data, key):
            if not isinstance(entry, dict):
                self.problem(("value", section, name), f"{what} '{name}' must be a mapping", expected)
                continue
            self.unknown_keys(entry, allowed, f"{what} '{name}'")
            yield name, entry

    def vocabulary(self, data: dict, key: str, cls):
        out = []
        for name, entry, section in self.names(data, key):
            if isinstance(entry, list):
                entry = {"phrases": entry}
                self.located.objects[id(entry)] = self.located.of(("value", section, name))
                self.located.values[(id(entry), "phrases")] = self.located.of(("value", section, name))
                self.located.keep.append(entry)
            if not isinstance(entry, dict):
                self.problem(("value", section, name), f"{key[:-1]} '{name}' must be a mapping or a list of phrases",
                             "phrases: [...]")
                continue
            self.unknown_keys(entry, VOCABULARY_KEYS, f"{key[:-1]} '{name}'")
            phrases = self.strings(entry, "phrases", "phrases")
            if not phrases and "phrases" not in entry:
                self.problem(entry, f"missing key 'phrases' in {key[:-1]} '{name}'", "phrases: [...]")
            elif not phrases:
                self.problem(("value", entry, "phrases"), f"{key[:-1]} '{name}' has no phrases",
                             "at least one phrase")
            out.append(cls(name, tuple(phrases), self.text(entry, "description", required=False)))
        return tuple(out)

    def relations(self, data: dict, concepts: set[str]) -> tuple[Relation, ...]:
        """`relations: {NAME: {members: [concept, ...], link: [phrases], description, ordered}}`."""
        out = []
        for name, entry in self.mappings(data, "relations", "relation", RELATION_KEYS,
                                         "members: [concept, ...], link: [phrases]"):
            members = self.strings(entry, "members", "concept names")
            link = self.strings(entry, "link", "phrases")
            for key, got in (("members", members), ("link", link)):
                if not got and key not in entry:
                    self.problem(entry, f"missing key '{key}' in relation '{name}'", f"{key}: [...]")
            where = self.located.items.get(id(entry.get("members")), [])
            for i, member in enumerate(members):
                if member not in concepts:
                    line, col = where[i][0] if i < len(where) else self.located.of(("value", entry, "members"))
                    self.problems.append(Problem(
                        self.located.file, line, col, f"relation '{name}': '{member}' is not a concept "
                        f"of this question{did_you_mean(member, sorted(concepts))}", "a concept name"))
            ordered = entry.get("ordered", False)
            if not isinstance(ordered, bool):
                self.problem(("value", entry, "ordered"), f"ordered of relation '{name}' must be true or "
                             "false", "true or false")
                ordered = False
            elif ordered and len(members) != 2:
                self.problem(("value", entry, "ordered"), f"relation '{name}' is ordered and has "
                             f"{len(members)} members: an order links two", "two members")
            out.append(Relation(name, tuple(members), tuple(link),
                                self.text(entry, "description", required=False), ordered))
        return tuple(out)

    # -- rules ------------------------------------------------------------------------------
    def rules(self, data: dict, key: str) -> list[Rule | PredicateDefinition]:
        section = data.get(key)
        origin = "background" if key == "background" else "initial"
        if section is None:
            return []
        if isinstance(section, str) or (isinstance(section, dict) and "file" in section):
            items = [section]
        elif isinstance(section, list):
            items = section
        else:
            self.problem(("value", data, key), f"'{key}' must be a list of rules, not {_kind(section)}",
                         "a list of ASP strings or mappings (mark: ..., if: [...])")
            return []
        out: list[Rule | PredicateDefinition] = []
        for item in items:
            if isinstance(item, str) and _is_file_name(item):
                out += self.asp_file(item, item, origin)
            elif isinstance(item, dict) and "file" in item:
                self.unknown_keys(item, ("file",), "a rule file reference")
                name = item["file"]
                if isinstance(name, str):
                    out += self.asp_file(name, ("value", item, "file"), origin)
                else:
                    self.problem(("value", item, "file"), "file must be a path", "file: rules.lp")
            elif isinstance(item, str):
                out += self.asp_text(item, origin)
            else:
                out += self.structured(item, origin)
        for rule in out:
            if isinstance(rule, Rule) and rule.head is not None and not isinstance(rule.head, str):
                rule.head = _label_text(rule.head)
        if key == "initial_rules":
            for rule in out:
                if isinstance(rule, PredicateDefinition):
                    where = self.positions.get(id(rule))
                    self.problems.append(Problem(where[0] if where else self.located.file,
                                                 *(where[1] if where else (1, 1)),
                                                 f"derived predicate '{rule.name}' is defined in initial_rules",
                                                 "derived predicates under background"))
            out = [r for r in out if isinstance(r, Rule)]
        return out

    def asp_text(self, text: str, origin: str, file: str | None = None) -> list:
        if file is None:
            line, col = self.located.of(text)
            style = self.located.styles.get(id(text))
            indent = 0
            if style in ("'", '"'):
                col += 1
            elif style in ("|", ">"):
                line += 1
                content = self.located.lines[line - 1] if line - 1 < len(self.located.lines) else ""
                indent = len(content) - len(content.lstrip(" "))
                col = indent + 1
            file = self.located.file
        else:
            line, col, indent = 1, 1, 0
        try:
            program = parse_program(text, source=file, origin=origin, target="mark", line=line,
                                    column=col, indent=indent)
        except KnowledgeError as err:
            self.problems += err.problems
            return []
        for obj_id, (pos, lits, label_pos) in program.positions.items():
            self.positions[obj_id] = (file, pos, lits, label_pos)
        self.located.keep.append(program)
        return list(program.background) + list(program.rules)

    def asp_file(self, name: str, where: Any, origin: str) -> list:
        expected = "an .lp file next to the question file"
        try:  # only a regular file below the question's folder (knowledge.local_files)
            path = resolve_named_file(name, self.base_dir)
        except FileRefused as err:
            self.problem(where, str(err), expected)
            return []
        from grader.text_encoding import NotText, decode_text  # as the question file itself

        try:
            text = decode_text(read_regular_file(path, MAX_RULE_FILE_BYTES, "rule file"))
        except (OSError, NotText, FileRefused) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else \
                err.says("a rule file") if isinstance(err, NotText) else str(err)
            self.problem(where, f"cannot read rule file '{name}': {reason}", expected)
            return []
        return self.asp_text(text, origin, file=str(path))

    def structured(self, item: Any, origin: str) -> list:
        reader = DataReader(lambda msg, exp, where: self.problem(where, msg, exp), origin)
        out = []
        for rule, nodes in reader.rules(item):  # several when `if:` says an idea several ways (any:)
            head = item.get("mark")
            if isinstance(rule, Rule) and isinstance(head, (int, float)) and not isinstance(head, bool):
                rule.head = self.located.raw.get(id(head), rule.head)  # `mark: 0.50` is the mark "0.50"
            self.register(rule, item, ("value", item, "mark"), nodes)
            out.append(rule)
        return out

    def register(self, rule: Rule | PredicateDefinition, data: Any, head_where: Any = None,
                 nodes: list | None = None) -> None:
        """Remember where a structured rule and each of its conditions are (`nodes`: the data
        item of each body literal, when known; else the items of `if:`, one per literal)."""
        if isinstance(data, dict):
            conditions = data.get("if")
            unless = data.get("unless")
        else:
            conditions, unless = data, None
        conditions = [] if conditions is None else conditions if isinstance(conditions, list) else [conditions]
        unless = [] if unless is None else unless if isinstance(unless, list) else [unless]
        pos = self.located.of(data)
        self.positions[id(rule)] = (self.located.file, pos,
                                    [self.located.of(c, pos) for c in nodes] if nodes is not None else
                                    [self.located.of(c, pos) for c in conditions if _parses(c)],
                                    self.located.of(head_where, pos) if head_where else pos)
        for exc, exc_data in zip(rule.exceptions, unless):
            self.register(exc, exc_data)


def _parses(condition: Any) -> bool:
    try:
        parse_condition(condition)
    except RuleFormatError:
        return False
    return True


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false",
            int: "a number", float: "a number", type(None): "empty"}.get(type(value), type(value).__name__)


def _is_file_name(text: str) -> bool:
    return "\n" not in text and text.strip().endswith(".lp") and ":-" not in text


def _label_text(label: Any) -> str:
    if isinstance(label, bool):
        return "true" if label else "false"
    if isinstance(label, float) and label.is_integer():
        return str(int(label)) if abs(label) < 1e15 else repr(label)
    return str(label)


def _no_credit(r: _Reader, data: dict, marks: list[str]) -> tuple[str, ...]:
    """The marks `no_credit` lists (besides the lowest, marks that give no credit), each one of
    `marks`; a problem at the list for a mark that is not one, or without `marks` to name."""
    listed = r.strings(data, "no_credit", "marks")
    where = ("value", data, "no_credit")
    if listed and not marks:
        r.problem(where, "'no_credit' needs 'marks': the marks from the lowest to the highest",
                  "marks: [...] above no_credit")
        return ()
    out: list[str] = []
    for mark in listed:
        if mark not in marks:
            r.problem(where, f"no_credit names '{mark}', which is not one of the marks "
                      f"({', '.join(marks)}){did_you_mean(mark, marks)}", "a mark listed under marks")
        elif mark in out:
            r.problem(where, f"duplicate mark '{mark}' in no_credit", "each mark once")
        else:
            out.append(mark)
    if marks and set(marks) <= set(out) | {marks[0]}:
        r.problem(where, "no_credit lists every mark: none would give credit", "the marks that give no credit")
    return tuple(out)


def read_question_text(text: str, path: str | Path | None = None) -> tuple[Question | None, list[Problem]]:
    """Build the question from YAML text; returns it (None if unusable) and the problems of
    form. Rules are not yet checked against features and marks (see `knowledge.validate`)."""
    file = source_name(path)
    base_dir = Path(path).parent if path is not None else None
    data, located, problems = load_located(text, file)
    if data is None and not problems:
        problems.append(Problem(file, 1, 1, "the file is empty", "a question: id, question, reference_answers, ..."))
    if data is None:
        return None, problems
    if not isinstance(data, dict):
        return None, problems + [located.problem(data, f"a question file must be a mapping, not {_kind(data)}",
                                                 "id: ..., question: ..., reference_answers: [...]")]
    r = _Reader(located, base_dir)
    r.unknown_keys(data, TOP_KEYS, "the question file")
    for key in REQUIRED:
        if key not in data:
            r.problem(data, f"missing key '{key}'", f"{key}: ...")
    qid = r.text(data, "id", required="id" in data)
    if qid is not None and not ID.match(qid):
        r.problem(("value", data, "id"), f"invalid id {qid!r}", "letters, digits, _ and -")
    text_ = r.text(data, "question", required="question" in data)
    references = r.strings(data, "reference_answers", "reference answers")
    if "reference_answers" in data and not references:
        r.problem(("value", data, "reference_answers"), "no reference answer", "at least one reference answer")
    marks = r.strings(data, "marks", "marks")
    if "marks" in data and not marks and data.get("marks") is not None:
        r.problem(("value", data, "marks"), "'marks' is empty", "marks like [\"0\", \"0.5\", \"1\"]")
    seen: set[str] = set()
    for mark in marks:
        if mark in seen:
            r.problem(("value", data, "marks"), f"duplicate mark '{mark}'", "each mark once")
        seen.add(mark)
    no_credit = _no_credit(r, data, marks)
    question = Question(
        id=qid or "", text=text_ or "", reference_answers=tuple(references), marks=tuple(marks),
        concepts=r.vocabulary(data, "concepts", Concept),
        quantities=read_quantities(r, data),
        misconceptions=r.vocabulary(data, "misconceptions", Misconception),
        background=r.rules(data, "background"),
        initial_rules=r.rules(data, "initial_rules"),
        source=Path(path) if path is not None else None,
        non_answers=tuple(r.strings(data, "non_answers", "phrases")),
        expected_words=tuple(r.strings(data, "expected_words", "words")),
        no_credit=no_credit,
    )
    known = {c.name for c in question.concepts}
    question.relations = r.relations(data, known)
    sections = data.get("quantities") if isinstance(data.get("quantities"), dict) else {}
    for q in question.quantities:
        if q.negative_means is not None and q.negative_means not in known:
            entry = sections.get(q.name, {})
            r.problem(("value", entry, "negative_means"), f"negative_means of quantity '{q.name}' names no "
                      f"concept of this question: '{q.negative_means}'"
                      f"{did_you_mean(q.negative_means, sorted(known))}", "a concept name")
    question._knowledge_positions = r.positions  # type: ignore[attr-defined]
    question._knowledge_keep = located.keep  # type: ignore[attr-defined]
    return question, problems + r.problems
