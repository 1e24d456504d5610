"""One answer read for the extractor: its doc, token keys and negation, in one pass.

Rubric concepts are matched on the words as written ("not a closed path": closed_path is
negated); reference words, learned terms and coverage on the words with negated
antonyms resolved ("not the same path" says "different path"), see
`antonyms.resolve_negations`. The reference answers are read the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spacy.tokens import Doc

from .antonyms import ANTONYMS, resolve_negations
from .lexicon import CARRIED, is_content, read_tokens, read_tokens_batch, reword_in_context
from .negation import negation_scopes
from .spelling import DENYING_PREFIXES, Speller


@dataclass
class Analysis:
    """One answer read: its doc, token keys and negated flags, as written (for the rubric)
    and with negated antonyms resolved (for reference words, terms and coverage)."""

    doc: Doc
    keys: list[str]
    negated: list[bool]
    text_keys: list[str]
    text_negated: list[bool]
    norms: list[str]  # what token.norm_ holds now (see lexicon.set_keys)
    words: int  # tokens that are not punctuation or space
    text: str  # doc.text, kept: spaCy rebuilds it from the tokens at every access
    prefixed: frozenset[int] = frozenset()  # words denied by their own prefix ("nonmagnetic")


def analyse(doc: Doc, speller: Speller, use_parse: bool, text: str | None = None) -> Analysis:
    """`text`: the text the doc was made from (doc.text), when the caller has it."""
    return _analysed(doc, read_tokens(doc, speller), use_parse, doc.text if text is None else text, speller)


def analyse_batch(docs: Sequence[Doc], speller: Speller, use_parse: bool,
                  texts: Sequence[str] | None = None) -> list[Analysis]:
    """`analyse` of each doc, the tokens of the whole batch read at once
    (`lexicon.read_tokens_batch`); `texts`: the docs' texts, when the caller has them."""
    read = read_tokens_batch(docs, speller)
    if texts is None:
        texts = [doc.text for doc in docs]
    return [_analysed(doc, tokens, use_parse, text, speller) for doc, tokens, text in zip(docs, read, texts)]


def _analysed(doc: Doc, tokens: tuple[list[str], list[str], int], use_parse: bool, text: str,
              speller: Speller) -> Analysis:
    keys, norms, words = tokens
    reword_in_context(doc, keys)
    scopes = negation_scopes(doc, use_parse, keys)
    if scopes and "as" in keys:
        scopes = _not_as_as(keys, scopes)
    denied: set[int] = set()
    if any(k.startswith(DENYING_PREFIXES) for k in keys):
        denied = _denied_by_prefix(keys, speller)
        if denied:  # a prefix under another negation cancels it: "not unbalanced" is balanced
            covered = {i for scope in scopes for i in scope}
            scopes = [[i for i in scope if i not in denied] for scope in scopes] + [
                [i] for i in sorted(denied - covered)]
    negated = [False] * len(keys)
    for scope in scopes:
        for i in scope:
            negated[i] = True
    if not scopes:
        return Analysis(doc, keys, negated, keys, negated, norms, words, text)
    text_keys = list(keys)
    text_negated = resolve_negations(text_keys, scopes)
    return Analysis(doc, keys, negated, text_keys, text_negated, norms, words, text, frozenset(denied))


def _denied_by_prefix(keys: list[str], speller: Speller) -> set[int]:
    """The words that deny a question's word with a prefix, each its own negation: the key of
    "unbalanced" becomes "balance", denied; "non zero" (from "non-zero") denies "zero"."""
    denied = set()
    for i, key in enumerate(keys):
        if key == "non" and i + 1 < len(keys) and keys[i + 1].isalnum():
            denied.add(i + 1)
        elif (base := speller.denied_word(key)) is not None:
            keys[i] = base
            denied.add(i)
    return denied


def _not_as_as(keys: list[str], scopes: list[list[int]]) -> list[list[int]]:
    """"not as dense as water" says "less dense": the first "as" of a negated "as X (as)" is
    "less" and the negation is used up (X is said). Words with an opposite are left to it
    ("not as fast as" is "slower", `antonyms.resolve_negations`). "not as much" and "not as
    many" are "less" too (`as_less`)."""
    kept = []
    for scope in scopes:
        first = scope[0] if scope else -1
        if first >= 0 and keys[first] == "as" and first + 1 in scope and as_less(keys, first) == "less":
            keys[first] = "less"
            continue
        much = next((i for i in scope if keys[i] == "as" and i + 1 in scope and as_less(keys, i) == "much"), None)
        if much is not None:  # "you don't need as much force": you need less force
            keys[much], keys[much + 1] = "less", CARRIED
            continue
        kept.append(scope)
    return kept


#: Words that say how much a verb is done ("you don't have to push as hard": push less).
_HOW_HARD = frozenset({"strong"})  # the key of "hard" after a verb (`lexicon`)
#: Keys after "as X" that end the comparison ("not as dense as water", "not as dense.").
_COMPARISON_ENDS = frozenset({"as", ".", ",", ";", ":", "!", "?", "and", "but", "so", "because"})


def as_less(keys: list[str], at: int) -> str | None:
    """What a negated "as" at `at` says: "much" for "as much" / "as many" (less of what
    follows) and for "as hard" after a verb ("push as hard"), "less" for "as X" with X a word
    without an opposite, at the comparison's end ("as dense as water", "as dense"), else None
    ("not as a result of", "not as fast": the opposite reads it). The answers' reading and the
    rubric's phrases share it."""
    if at + 1 >= len(keys):
        return None
    word = keys[at + 1]
    if word in ("much", "many") or (word in _HOW_HARD and at and is_content(keys[at - 1])):
        return "much"  # "push as hard" after a verb: push as much
    ends = at + 2 >= len(keys) or keys[at + 2] in _COMPARISON_ENDS
    return "less" if ends and is_content(word) and word not in ANTONYMS else None
