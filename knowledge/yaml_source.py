"""YAML text to plain Python data, remembering where every key and value was.

PyYAML's `safe_load` forgets positions and silently keeps the last of two duplicate keys, so
question files are composed (`yaml.compose`) and converted node by node here: duplicate keys,
aliases and unknown tags become problems with their line and column.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import yaml

from knowledge.errors import Problem
from knowledge.numbers import number_problem

Position = tuple[int, int]
#: How deep a question file may nest ([ and { before parsing, all nodes after).
MAX_DEPTH = 100
_RESOLVER = yaml.resolver.Resolver()
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_STR, _INT, _FLOAT, _TIMESTAMP, _MAP, _SEQ = (f"tag:yaml.org,2002:{t}" for t in
                                              ("str", "int", "float", "timestamp", "map", "seq"))


class Located:
    """Positions (1-based line, column) of the objects of one YAML document."""

    def __init__(self, file: str, lines: list[str] | None = None):
        self.file = file
        self.lines = lines or []  # the text's lines, for the indentation of block scalars
        self.objects: dict[int, Position] = {}
        self.keys: dict[tuple[int, Any], Position] = {}
        self.values: dict[tuple[int, Any], Position] = {}
        self.styles: dict[int, str | None] = {}
        self.raw: dict[int, str] = {}
        # Per list, per item: (position, the text written when the item is a plain scalar).
        # By id of the list, since true/false and small numbers are shared objects.
        self.items: dict[int, list[tuple[Position, str | None]]] = {}
        self.value_raw: dict[tuple[int, Any], str] = {}  # (mapping id, key) -> text written
        self.keep: list[Any] = []  # keeps located objects alive so that their ids stay unique

    def of(self, where: Any, default: Position = (1, 1)) -> Position:
        """The position of an object, or of `("key"|"value", mapping, key)`."""
        if isinstance(where, tuple) and len(where) == 3 and where[0] in ("key", "value"):
            table = self.keys if where[0] == "key" else self.values
            pos = table.get((id(where[1]), where[2]))
            if pos is None:
                pos = self.objects.get(id(where[1]), default)
            return pos
        return self.objects.get(id(where), default)

    def problem(self, where: Any, message: str, expected: str | None = None,
                default: Position = (1, 1)) -> Problem:
        line, col = self.of(where, default)
        return Problem(self.file, line, col, message, expected)


def _pos(node: yaml.Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _is_plain(node: yaml.Node) -> bool:
    """A scalar written without quotes or tags, whose text YAML may read as true/false,
    a number or nothing ("off", "no", "1e3", "null")."""
    return isinstance(node, yaml.ScalarNode) and getattr(node, "style", None) is None \
        and bool(node.value)


class _Converter:
    def __init__(self, located: Located):
        self.located = located
        self.problems: list[Problem] = []
        self.seen: set[int] = set()
        self.constructor = yaml.constructor.SafeConstructor()

    def convert(self, node: yaml.Node, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            self.problems.append(Problem(self.located.file, *_pos(node), "YAML nested too deeply"))
            return None
        if id(node) in self.seen:
            self.problems.append(Problem(self.located.file, *_pos(node),
                                         "YAML aliases (*name) are not supported in question files",
                                         "the text written out"))
            return None
        self.seen.add(id(node))
        if not isinstance(node, yaml.ScalarNode) and node.tag not in (_MAP, _SEQ):
            self.problems.append(Problem(self.located.file, *_pos(node),
                                         f"YAML tags such as '{node.tag.replace('tag:yaml.org,2002:', '!!')}' "
                                         "are not supported: write the value plainly", "the value written plainly"))
            return None
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            first: dict = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.problems.append(Problem(self.located.file, *_pos(key_node),
                                                 "a key must be a plain name", "name: value"))
                    continue
                key = self.scalar(key_node)
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.problems.append(Problem(self.located.file, *_pos(key_node),
                                                 "YAML merge keys (<<) are not supported"))
                    continue
                try:
                    hash(key)
                except TypeError:
                    key = str(key)
                if key in first:
                    line, col = first[key]
                    self.problems.append(Problem(self.located.file, *_pos(key_node),
                                                 f"duplicate key '{key}' (first at line {line}, column {col})",
                                                 "each key once"))
                    continue
                first[key] = _pos(key_node)
                value = self.convert(value_node, depth + 1)
                out[key] = value
                self.located.keys[(id(out), key)] = _pos(key_node)
                self.located.values[(id(out), key)] = _pos(value_node)
                if _is_plain(value_node):
                    self.located.value_raw[(id(out), key)] = value_node.value
            self.remember(out, node)
            return out
        if isinstance(node, yaml.SequenceNode):
            out_list = [self.convert(item, depth + 1) for item in node.value]
            self.remember(out_list, node)
            self.located.items[id(out_list)] = [
                (_pos(item), item.value if _is_plain(item) else None) for item in node.value]
            return out_list
        value = self.scalar(node)
        if isinstance(value, str):
            value = "".join(value)  # a new object, so its id identifies this node
        self.remember(value, node)
        return value

    def scalar(self, node: yaml.Node) -> Any:
        """A plain value: text, a number, true/false or nothing. Explicit tags (`!!int abc`,
        `!!python/...`) are refused; what looks like a date stays text (`title: 2024-13-45`);
        numbers are bounded (`knowledge.numbers`)."""
        implicit = _RESOLVER.resolve(yaml.ScalarNode, node.value, (True, False)) \
            if getattr(node, "style", None) is None else _STR
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (implicit, _STR):
            self.problems.append(Problem(self.located.file, *_pos(node),
                                         f"YAML tags such as '{node.tag.replace('tag:yaml.org,2002:', '!!')}' "
                                         "are not supported: write the value plainly",
                                         "the value written plainly"))
            return None
        if node.tag in (_STR, _TIMESTAMP):
            lone = _LONE_SURROGATE.search(node.value)
            if lone:  # an escape such as "\ud800": no file, spreadsheet or database can hold it
                self.problems.append(Problem(self.located.file, *_pos(node),
                                             f"the text has half of a character (\\u{ord(lone.group()):04x}, "
                                             "a lone surrogate), which cannot be saved", "the character itself"))
                return _LONE_SURROGATE.sub("\ufffd", node.value)
            return node.value
        if node.tag in (_INT, _FLOAT) and number_problem(node.value):
            self.problems.append(Problem(self.located.file, *_pos(node), number_problem(node.value),
                                         "a number like 9.8"))
            return None
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            self.problems.append(Problem(self.located.file, *_pos(node),
                                         f"cannot read this value: {getattr(err, 'problem', err)}"))
            return None

    def remember(self, obj: Any, node: yaml.Node) -> None:
        self.located.objects[id(obj)] = _pos(node)
        self.located.styles[id(obj)] = getattr(node, "style", None)
        if isinstance(node, yaml.ScalarNode):
            self.located.raw[id(obj)] = node.value
        self.located.keep.append(obj)


def yaml_problem(err: yaml.MarkedYAMLError, text: str, file: str) -> Problem:
    """A YAML syntax error in a teacher's words, at the mistake rather than where PyYAML
    noticed it (an unclosed quote is noticed lines later, a missing colon on the next line)."""
    problem, context = err.problem or "", err.context or ""
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    lines = text.splitlines()
    quote = _unclosed_quote(lines, line)
    if quote and ("quoted scalar" in context or "expected <block end>" in problem
                  or "expected ','" in problem or "could not find expected ':'" in problem):
        q_line, q_col, char = quote
        return Problem(file, q_line, q_col, f"the quote {char} opened here is never closed on its line",
                       f"the same quote {char} at the end of the value")
    if "could not find expected ':'" in problem and err.context_mark is not None:
        start = err.context_mark
        return Problem(file, start.line + 1, start.column + 1,
                       "this line has no ':' after its name", "name: value")
    if "cannot start any token" in problem and ("\\t" in problem or "\t" in problem):
        return Problem(file, line, col, "a tab character: YAML is indented with spaces only", "spaces")
    if "mapping values are not allowed here" in problem and 1 <= line <= len(lines):
        here = lines[line - 1]
        indent = len(here) - len(here.lstrip(" "))
        above = next((t for t in reversed(lines[:line - 1]) if t.strip() and not t.lstrip().startswith("#")), "")
        if indent > len(above) - len(above.lstrip(" ")) and ":" in above and above.split(":", 1)[1].strip():
            return Problem(file, line, indent + 1, "this line is indented more than the line above it, "
                           "whose value is already given", "the same indentation as the line above")
    if "mapping values are not allowed here" in problem:
        return Problem(file, line, col, "a ':' inside a value: put the whole value in quotes",
                       "key: \"text with: a colon\"")
    if "flow" in context:  # a [list] or {mapping} on one line that is not closed
        opening = _last_open_bracket(lines, line, col)
        if opening is not None:
            o_line, o_col, char = opening
            what, bracket = ("list", "]") if char == "[" else ("mapping", "}")
            return Problem(file, o_line, o_col, f"the {what} opened here is not closed",
                           f"'{bracket}' after its last item")
    if "expected <block end>" in problem or "bad indentation" in problem:
        return Problem(file, line, col, "this line is not indented like the lines above it",
                       "the same indentation as the other items of this list or mapping")
    what = " ".join(x for x in (context, problem) if x)
    return Problem(file, line, col, f"invalid YAML: {what or err}")


def _last_open_bracket(lines: list[str], line: int, col: int) -> tuple[int, int, str] | None:
    """(line, column, bracket) of the last '[' or '{' before line:col that is not closed."""
    stack: list[tuple[int, int, str]] = []
    for n, text in enumerate(lines[:line], 1):
        end = col - 1 if n == line else len(text)
        quote = None
        for i, ch in enumerate(text[:end]):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "\"'" and (i == 0 or text[i - 1] in " [{,:"):
                quote = ch
            elif ch == "#" and (i == 0 or text[i - 1] == " "):
                break
            elif ch in "[{":
                stack.append((n, i + 1, ch))
            elif ch in "]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _unclosed_quote(lines: list[str], last: int) -> tuple[int, int, str] | None:
    """(line, column, quote) of the first value up to line `last` that opens a quote and does
    not close it on its line: question files write every quoted value on one line."""
    import re

    for n, text in enumerate(lines[:last], 1):
        m = re.match(r"\s*(?:-\s+)?(?:[^\s:#'\"][^:#]*:\s+)?([\"'])", text)
        if not m or text.lstrip().startswith("#"):
            continue
        char, rest = m.group(1), text[m.end():]
        closed = re.search(r'(?<!\\)"' if char == '"' else r"'(?!')", rest.replace("''", ""))
        if not closed:
            return n, m.start(1) + 1, char
    return None


_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\n]|\'\')*\'')


def _too_deep(text: str) -> Position | None:
    """(line, column) where [ and { outside quotes first nest deeper than MAX_DEPTH, or
    None; counted with numpy, so a file of many kilobytes of brackets is refused at once."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    bare = _QUOTED.sub(lambda m: " " * len(m.group()), text)  # same positions, no quoted text
    codes = np.frombuffer(bare.encode("utf-32-le"), dtype=np.uint32)
    steps = np.isin(codes, (ord("["), ord("{"))).astype(np.int32) - np.isin(codes, (ord("]"), ord("}")))
    over = np.flatnonzero(np.cumsum(steps) > MAX_DEPTH)
    if not over.size:
        return None
    at = int(over[0])
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def load_located(text: str, file: str) -> tuple[Any, Located, list[Problem]]:
    """Parse YAML text into data, positions and problems (invalid YAML gives one problem
    at the line and column PyYAML reports)."""
    located = Located(file, text.splitlines())
    deep = _too_deep(text)
    if deep is not None:  # PyYAML would recurse into it for seconds before giving up
        return None, located, [Problem(file, *deep, f"brackets [ or {{ nested too deeply (more than "
                                                     f"{MAX_DEPTH} levels); a file needs only a few")]
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        return None, located, [yaml_problem(err, text, file)]
    except yaml.YAMLError as err:
        return None, located, [Problem(file, 1, 1, f"invalid YAML: {err}")]
    except RecursionError:
        return None, located, [Problem(file, 1, 1, "invalid YAML: nested too deeply")]
    if node is None:
        return None, located, []
    converter = _Converter(located)
    data = converter.convert(node)
    return data, located, converter.problems
