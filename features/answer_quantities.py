"""The quantities one answer gives, read for the extractor's `quantity:*` and `value:*` columns.

`quantities` finds numbers and checks their units; here they are taken in the answer's
context: a number a negation covers ("it is not 9.8 m/s^2") is no value the answer gives,
and a quantity's symbol ("g downwards") gives its value where the question file says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from knowledge.schema import Quantity

from . import quantities as qty
from .reading import Analysis


def answer_quantities(a: Analysis, quantities: Sequence[Quantity]) -> list[qty.Check]:
    """The verdict on each expected quantity: numbers the answer denies ("not 9.8 m/s^2")
    do not count, and the quantity's symbol ("g") counts as its value when the question
    file says so."""
    said, denied = _split_denied(qty.find_numbers(a.text), a.doc, a.negated)
    verdicts = []
    for quantity in quantities:
        verdict = qty.check(quantity, said, quantities)
        if verdict.status == "missing" and quantity.symbol and quantity.symbol in a.text \
                and qty.symbol_said(a.doc, quantity.symbol, a.negated):
            verdict = qty.Check("correct", quantity.value)
        elif verdict.status == "missing" and denied \
                and qty.check(quantity, denied, quantities).status != "missing":
            verdict = qty.Check("negated", math.nan)  # "it is not 9.8 m/s^2"
        verdicts.append(verdict)
    return verdicts


def _split_denied(mentions: list[qty.Mention], doc: Any, negated: list[bool]
                  ) -> tuple[list[qty.Mention], list[qty.Mention]]:
    """(numbers the answer says, numbers it denies): a number inside a negation's scope
    ("not 9.8 m/s^2") is not a value the answer gives."""
    if not any(negated):
        return mentions, []
    said, denied = [], []
    for m in mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        (denied if span is not None and len(span) and negated[span.start] else said).append(m)
    return said, denied
