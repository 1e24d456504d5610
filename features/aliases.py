"""Other names a reference answer gives a thing in brackets: "the moment (turning effect) of a
force", "the particles (domains) in the magnet", "the air resistance (drag)". The teacher says
the two name one thing, so an answer that says "the turning effect is bigger" says what "the
moment is bigger" says: the bracketed word is read with the key of the word before the bracket,
in reference answers and answers alike.

Only the text keys change (reference words, learned terms, coverage and the contrasts read
them); a teacher's phrases are found as written. A bracket is no other name when it holds a
formula or a number ("(moment = force x distance)"), a negation ("(not faster)"), more than two
content words ("(north facing north, or south facing south)") or a word of degree ("fewer times
per second (lower frequency)" compares, it names nothing), when it follows a word of degree
("vibrates more slowly (a lower frequency)") or a formula's term ("force x small distance
(nut)"), or when one word is given for two different things.
"""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import clause_start, content
from .degrees import degree_of
from .lexicon import is_content
from .negation import CUES
from .reading import Analysis

#: Words of a formula: a bracket after one, or holding one, names no thing.
_FORMULA = frozenset({"x", "=", "*", "/", "×", "+", "-"})
#: Most content words of a bracket that gives another name.
_MAX_WORDS = 2


def reference_aliases(reference: Sequence[Analysis]) -> dict[tuple[str, ...], str]:
    """{the keys of the bracketed words: the key of the word before the bracket}, from the
    reference answers; words given for two different things are left out."""
    found: dict[tuple[str, ...], set[str]] = {}
    for a in reference:
        lowers = [t.lower_ for t in a.doc]
        keys = a.text_keys
        for i, word in enumerate(lowers):
            if word != "(" or i == 0:
                continue
            close = next((j for j in range(i + 1, len(lowers)) if lowers[j] == ")"), None)
            if close is None:
                continue
            inside = range(i + 1, close)
            if any(lowers[j] in _FORMULA or any(c.isdigit() for c in lowers[j]) or keys[j] in CUES
                   for j in inside):
                continue
            named = list(content(keys, inside))
            head = keys[i - 1]
            if not named or any(_is_degree(keys[j]) for j in inside) or len(named) > _MAX_WORDS \
                    or named != list(range(named[0], named[-1] + 1)) or not is_content(head) or _is_degree(head) \
                    or any(w in _FORMULA for w in lowers[clause_start(lowers, i):i]):
                continue
            alias = tuple(keys[j] for j in named)
            if head not in alias:
                found.setdefault(alias, set()).add(head)
    return {alias: next(iter(heads)) for alias, heads in found.items() if len(heads) == 1}


def _is_degree(key: str) -> bool:
    """A word of degree ("slowly", "bigger"), which measures a thing rather than naming one."""
    return degree_of(key) != (key, 1) or key in ("more", "less")


def read_aliases(a: Analysis, aliases: dict[tuple[str, ...], str]) -> None:
    """Read another name of a thing in an answer as the thing (in place): its first word takes
    the thing's key ("turning effect" is read "moment effect", "air resistance" "drag
    resistance": the air of "air particles" stays air)."""
    keys = a.text_keys
    if not aliases or {alias[0] for alias in aliases}.isdisjoint(keys):
        return
    found = [(i, head) for alias, head in aliases.items() for i in range(len(keys) - len(alias) + 1)
             if tuple(keys[i:i + len(alias)]) == alias]
    if not found:
        return
    if a.text_keys is a.keys:
        a.text_keys = keys = list(a.keys)
    for i, head in found:
        keys[i] = head
