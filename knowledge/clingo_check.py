"""Run an exported program with a real ASP solver, to check that it means what the learner means.

clingo (a test dependency) is imported only here. The program must be written with
`write_program(..., dialect="clingo")`; each row of the feature table becomes facts whose first
argument is the row number:

    answer(0).  concept(0,gap,present).  coverage(0,num("bfe7777777777777")).  non_answer(0,no).

Exact numbers: clingo has only 32-bit integers, so a number is `num(K)` where K is the
16-hex-digit order key of the float (`grader.confold.asp_terms.float_key`): the IEEE-754 bits made
monotone. clingo compares strings lexicographically, so `V > "key(t)"` holds exactly when
`v > t` in floating point, for every float, with no scaling or rounding. A missing cell
(None, NaN, "", "?") is the category "?" as in the learner: it has no `num` fact, so order
comparisons on it are false, `== v` is false for any other v and `!=` (`not ...`) is true. A cell with a numeric reading gets a `num`
fact besides its categorical fact, as the learner keeps both readings.

Known limit: numbers are spelled one way (`3`, `float("0.5")`), so a literal `f == 3` does not
match a *text* cell "3" of a categorical column, which the Python evaluator's category lookup
does match (through `str(3)`). Learned rules never compare text categories with numbers.
"""

from __future__ import annotations

import math
import re
from typing import Sequence

import pandas as pd

from grader.confold.rules import PredicateDefinition, Rule
from knowledge.asp import write_program
from grader.confold.asp_terms import constant, feature_atom, float_key, unary_ok

_HEAD = re.compile(r"^(?:[0-9.eE+-]+::)?([a-z][A-Za-z0-9_]*)\(X,", re.MULTILINE)


def feature_facts(features: pd.DataFrame, target: str = "label") -> str:
    """The facts of a feature table (row ids 0..n-1) in the clingo dialect.

    Cells are read the way the learner reads them (`grader.confold.encoding`: column kinds, missing
    cells as the category "?", numeric readings), so that the check compares the *rules'*
    meaning, not two readings of the data.
    """
    from grader.confold.encoding import MISSING, NUMERIC_CODE, encode_column, infer_encoding

    lines = [f"answer(0..{len(features) - 1})."] if len(features) else []
    for column in features.columns:
        values = features[column]
        encoded = encode_column(values, infer_encoding(str(column), values))
        categories = encoded.encoding.categories
        head, _, tail = feature_atom(str(column), "@V@", "clingo", target).partition("(X,")
        unary = unary_ok(str(column), target)  # a true boolean cell is also `name(row)`
        for row in range(len(features)):
            prefix = f"{head}({row},{tail}"
            code = int(encoded.codes[row])
            number = float(encoded.num[row])
            if code == NUMERIC_CODE:
                value = number  # a number cell: `== 3` holds when it equals 3
            elif 1 <= code <= len(categories):
                value = categories[code - 1]
            else:
                value = MISSING if pd.isna(values.iloc[row]) else values.iloc[row]
            lines.append(prefix.replace("@V@", constant(value, "clingo")) + ".")
            if unary and value is True:
                lines.append(f"{column}({row}).")
            if not math.isnan(number):
                lines.append(prefix.replace("@V@", f'num("{float_key(number)}")') + ".")
    return "\n".join(lines) + "\n"


def _decode(symbol):
    import clingo
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.name in ("float", "int") and len(symbol.arguments) == 1:
        return (float if symbol.name == "float" else int)(symbol.arguments[0].string)
    if not symbol.arguments and symbol.name in ("true", "false"):
        return symbol.name == "true"
    if not symbol.arguments:
        return symbol.name
    return str(symbol)


def solve_marks(program_text: str, features: pd.DataFrame, target: str | None = None) -> list:
    """The label clingo derives for each row of `features` (None where no rule applies).

    One clingo run for the whole batch. Raises ValueError if the program has no single
    answer set or gives a row two labels (an ordered program never does).
    """
    import clingo

    if target is None:
        match = _HEAD.search(program_text)
        target = match.group(1) if match else "label"
    ctl = clingo.Control(["--warn=none", "--models=0"])
    ctl.add("base", [], program_text)
    ctl.add("base", [], feature_facts(features, target))
    ctl.ground([("base", [])])
    models: list[list] = []
    ctl.solve(on_model=lambda m: models.append(list(m.symbols(atoms=True))))
    if len(models) != 1:
        raise ValueError(f"the program has {len(models)} answer sets with these facts; "
                         "a stratified program has exactly one")
    labels: list = [None] * len(features)
    for symbol in models[0]:
        if symbol.name == target and len(symbol.arguments) == 2:
            row = symbol.arguments[0].number
            label = _decode(symbol.arguments[1])
            if labels[row] is not None and labels[row] != label:
                raise ValueError(f"row {row} gets two labels, {labels[row]!r} and {label!r}")
            labels[row] = label
    return labels


def solve_rules(rules: Sequence[Rule], features: pd.DataFrame,
                background: Sequence[Rule | PredicateDefinition] = ()) -> list:
    """`solve_marks` of the clingo program of `rules` (and `background`)."""
    program = write_program(rules, background, target="label", dialect="clingo")
    return solve_marks(program, features, target="label")
