"""A small hand-written parser for the ASP rule subset teachers write and `write_program`
writes. It never depends on clingo (a test dependency only), never recurses on user input
beyond one level of function terms, and reports every problem with its line and column as a
`KnowledgeError`.

Grammar (comments start with `%`):

    clause   := [NUMBER "::"] atom [":-" element ("," element)*] "."
    element  := ["not"] atom | term CMP term
    atom     := name ["(" term ("," term)* ")"]
    term     := Variable | name | 'quoted' | "quoted" | [-]number | name "(" simple,... ")"
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from knowledge.errors import Problem
from knowledge.numbers import number_problem, read_number

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+) | (?P<nl>\n) | (?P<comment>%[^\n]*)
  | (?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<name>[a-z][A-Za-z0-9_]*) | (?P<var>[A-Z_][A-Za-z0-9_]*)
  | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
  | (?P<badstring>['"][^\n]*)
  | (?P<punct>:-|::|<=|>=|==|!=|<|>|=|\(|\)|,|\.|-)
  | (?P<bad>.)
""", re.VERBOSE)
_ANNOTATION = re.compile(r"%\s*rule\b\s*(?:\d+\s*)?(?:\(([^)]*)\))?\s*(?::\s*([A-Za-z_][\w-]*))?\s*$")
_CONFIDENCE_COMMENT = re.compile(r"%\s*confidence\s+([0-9.eE+-]+)\s*$")
#: `% description: gives a plausible g` before a derived predicate's clause: what it says
_DESCRIPTION = re.compile(r"%\s*description\s*:(.*)$")
_AB = re.compile(r"ab(\d+|_\w+)\Z")
ORDER_OPS = ("<=", ">", "<", ">=")
MAX_CHARACTER_PROBLEMS = 20
_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}
ORIGINS = ("learned", "initial", "background")


@dataclass
class Token:
    kind: str
    text: str
    line: int
    col: int


@dataclass
class Term:
    kind: str  # var, const, num, fn
    value: object
    line: int
    col: int
    args: tuple = ()


@dataclass
class Atom:
    name: str
    args: list[Term]
    negated: bool
    line: int
    col: int


@dataclass
class Comparison:
    left: Term
    op: str
    right: Term
    line: int
    col: int


@dataclass
class Clause:
    head: Atom
    body: list
    confidence: float | None
    annotation: re.Match | None
    line: int
    col: int
    comment_confidence: float | None = None
    description: Token | None = None  # the `% description: ...` comment before the clause


def description_text(comment: Token) -> str:
    """The text of a `% description: ...` comment, spaces made single."""
    return " ".join(_DESCRIPTION.match(comment.text).group(1).split())


def _unescape(text: str) -> str:
    out, i = [], 1
    while i < len(text) - 1:
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) - 1:
            nxt = text[i + 1]
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _key_to_float(key: str) -> float | None:
    """Inverse of `grader.confold.asp_terms.float_key`."""
    if not re.fullmatch(r"[0-9a-f]{16}", key):
        return None
    bits = int(key, 16)
    bits = (bits & ~(1 << 63)) if bits >> 63 else (~bits & 0xFFFFFFFFFFFFFFFF)
    return struct.unpack(">d", struct.pack(">Q", bits))[0]


class _Parser:
    def __init__(self, text: str, file: str, line0: int, col0: int, indent: int = 0):
        self.file, self.line0, self.col0, self.indent = file, line0, col0, indent
        self.problems: list[Problem] = []
        self.tokens: list[Token] = []
        self.comments: list[Token] = []
        self._tokenize(text)
        self.last = len(self.tokens) - 1
        self.comment_on_line = {c.line: c for c in self.comments}  # a line has one comment at most
        self.code_lines = {t.line for t in self.tokens}
        self.pos = 0
        self.comment_pos = 0

    # -- errors -------------------------------------------------------------------------
    def problem(self, line: int, col: int, message: str, expected: str | None = None) -> None:
        self.problems.append(Problem(self.file, line, col, message, expected))

    def _tokenize(self, text: str) -> None:
        line, line_start = self.line0, 0
        first_col, later_col = self.col0, 1 + self.indent
        tokens, comments = self.tokens, self.comments
        n_bad, more_at = 0, (line, 1)
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            if kind == "ws":
                continue
            start = m.start()
            col = start - line_start + (first_col if line == self.line0 else later_col)
            if kind == "nl":
                line, line_start = line + 1, m.end()
            elif kind == "comment":
                comments.append(Token(kind, m.group(), line, col))
            elif kind == "bad":
                n_bad += 1
                if n_bad == MAX_CHARACTER_PROBLEMS + 1:
                    more_at = (line, col)
                if n_bad <= MAX_CHARACTER_PROBLEMS:
                    self.problem(line, col, f"unexpected character {m.group()!r}",
                                 "a name, a Variable, a number, a quoted string or one of ( ) , . :- not")
            elif kind == "badstring":
                self.problem(line, col, "quoted string not closed on its line", "a closing quote")
            else:
                tokens.append(Token(kind, m.group(), line, col))
        if n_bad > MAX_CHARACTER_PROBLEMS:
            self.problem(*more_at, f"{n_bad - MAX_CHARACTER_PROBLEMS} more unexpected characters "
                                  "(is this a rule file?)")
        end_col = len(text) - line_start + (first_col if line == self.line0 else later_col)
        tokens.append(Token("eof", "", line, end_col))

    # -- token helpers -----------------------------------------------------------------
    def peek(self, offset: int = 0) -> Token:
        i = self.pos + offset
        return self.tokens[i] if i < self.last else self.tokens[self.last]

    def take(self) -> Token:
        tok = self.tokens[self.pos]
        if self.pos < self.last:
            self.pos += 1
        return tok

    def expect(self, text: str, what: str) -> Token:
        tok = self.peek()
        if tok.text != text or tok.kind == "string":
            if tok.kind == "eof" and text == ".":
                raise _Syntax(tok, "the rule does not end with '.'", what)
            raise _Syntax(tok, f"unexpected {_describe(tok)}", what)
        return self.take()

    # -- grammar -----------------------------------------------------------------------
    def clauses(self) -> list[Clause]:
        out = []
        while self.peek().kind != "eof":
            start = self.pos
            try:
                out.append(self.clause())
            except _Syntax as err:
                self.problem(err.token.line, err.token.col, err.message, err.expected)
                self.pos = max(self.pos, start + 1)
                while self.peek().kind != "eof" and self.peek().text != ".":
                    self.take()
                self.take()
        for comment in self.comments[self.comment_pos:]:  # after the last rule: before nothing
            if _DESCRIPTION.match(comment.text):
                self.problem(comment.line, comment.col, "a description with no derived predicate's rule after it",
                             "% description: ... on the line before p(X) :- ...")
        return out

    def clause(self) -> Clause:
        first = self.peek()
        annotation = description = None
        while self.comment_pos < len(self.comments) and \
                (self.comments[self.comment_pos].line, self.comments[self.comment_pos].col) < (first.line, first.col):
            comment = self.comments[self.comment_pos]
            m = _ANNOTATION.match(comment.text)
            annotation = m or annotation
            if _DESCRIPTION.match(comment.text):
                if comment.line in self.code_lines:  # after a rule on its line: which rule is meant?
                    self.problem(comment.line, comment.col, "a description goes on a line of its own",
                                 "% description: ... on the line before p(X) :- ...")
                else:
                    description = comment
            self.comment_pos += 1
        confidence = None
        if first.kind == "number" and self.peek(1).text == "::":
            confidence = float(self.take().text) if not number_problem(first.text) else None
            self.take()
            if confidence is None:
                self.problem(first.line, first.col, number_problem(first.text), "a number between 0 and 1")
            elif not 0.0 <= confidence <= 1.0:
                self.problem(first.line, first.col, f"confidence {first.text} is not a probability",
                             "a number between 0 and 1")
        head = self.atom(negated=False)
        body = []
        if self.peek().text == ":-":
            self.take()
            body.append(self.element())
            while self.peek().text == ",":
                self.take()
                body.append(self.element())
        end = self.expect(".", "',' or '.' at the end of the rule" if body else "':-' or '.'")
        clause = Clause(head, body, confidence, annotation, first.line, first.col, description=description)
        c = self.comment_on_line.get(end.line)
        if c is not None and c.col > end.col:
            m = _CONFIDENCE_COMMENT.match(c.text)
            if m:
                try:
                    clause.comment_confidence = float(m.group(1))
                except ValueError:
                    pass
        return clause

    def element(self):
        tok = self.peek()
        if tok.kind == "name" and tok.text == "not":
            self.take()
            return self.atom(negated=True)
        if tok.kind == "name" and self.peek(1).text not in ORDER_OPS + ("=", "==", "!="):
            return self.atom(negated=False)
        left = self.term()
        op = self.peek()
        if op.text not in ORDER_OPS + ("=", "==", "!="):
            raise _Syntax(op, f"unexpected {_describe(op)} after {_describe(tok)}",
                          "a comparison: one of <= > < >=")
        self.take()
        return Comparison(left, op.text, self.term(), op.line, op.col)

    def atom(self, negated: bool) -> Atom:
        tok = self.peek()
        if tok.kind != "name" or tok.text == "not":
            raise _Syntax(tok, f"unexpected {_describe(tok)}",
                          "an atom such as concept(X,gap,present)")
        self.take()
        args: list[Term] = []
        if self.peek().text == "(":
            opening = self.take()
            args.append(self.term(nested=True))
            while self.peek().text == ",":
                self.take()
                args.append(self.term(nested=True))
            if self.peek().text in (".", ":-") or self.peek().kind == "eof":
                raise _Syntax(opening, f"the parenthesis opened here after {tok.text} is never closed",
                              f"')' after the last argument of {tok.text}")
            self.expect(")", "',' or ')'")
        return Atom(tok.text, args, negated, tok.line, tok.col)

    def term(self, nested: bool = False) -> Term:
        tok = self.take()
        if tok.kind == "var":
            return Term("var", tok.text, tok.line, tok.col)
        if tok.kind == "string":
            return Term("const", _unescape(tok.text), tok.line, tok.col)
        if tok.kind == "number" or (tok.text == "-" and self.peek().kind == "number"):
            sign = 1
            if tok.text == "-":
                sign, tok2 = -1, self.take()
            else:
                tok2 = tok
            text = tok2.text
            if number_problem(text):
                self.problem(tok2.line, tok2.col, number_problem(text), "a number like 0.5")
                return Term("num", 0, tok.line, tok.col)
            value = read_number(text) * sign
            return Term("num", value, tok.line, tok.col)
        if tok.kind == "name":
            if nested and self.peek().text == "(":
                self.take()
                inner = [self.term()]
                while self.peek().text == ",":
                    self.take()
                    inner.append(self.term())
                self.expect(")", "')'")
                return Term("fn", tok.text, tok.line, tok.col, tuple(inner))
            if tok.text in ("true", "false"):
                return Term("const", tok.text == "true", tok.line, tok.col)
            return Term("const", tok.text, tok.line, tok.col)
        raise _Syntax(tok, f"unexpected {_describe(tok)}",
                      "a Variable, a name, a number or a quoted string")


class _Syntax(Exception):
    def __init__(self, token: Token, message: str, expected: str | None = None):
        super().__init__(message)
        self.token, self.message, self.expected = token, message, expected


def _describe(tok: Token) -> str:
    return "end of text" if tok.kind == "eof" else repr(tok.text)
