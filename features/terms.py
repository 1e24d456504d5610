"""Words and short phrases that separate the marks, learned from marked answers.

Candidates are the content words of the training answers and the pairs of adjacent
content words. Each candidate is a three-valued feature (present / negated / absent, as
for concepts) and they are ranked by their mutual information with the mark, as in the
boosting paper's feature ordering (seed 001): MI(F; C) = H(C) - H(C | F), estimated from
counts. The `n_terms` best, seen in at least `min_count` answers, become `term:*`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence

from .lexicon import CARRIED, flips_next, is_content
from .negation import CLAUSE_BREAKS
from .spelling import english_words

Gram = tuple[str, ...]


#: Two content words form a phrase when at most this many tokens lie between them, in the
#: same clause. 0: only adjacent words, because a learned term is found in new answers by
#: spaCy's phrase matcher, which compares adjacent tokens: a pair counted across other words
#: ("bulb ... path" in "the bulb in the path") became a term no answer was ever found to have
#: (190 of the 606 terms of Beetle's 23 questions, 3-way).
WINDOW = 0


def answer_grams(keys: list[str], negated: list[bool], window: int | None = None
                 ) -> dict[Gram, bool]:
    """Content words and pairs of adjacent content words -> negated? (present wins)."""
    window = WINDOW if window is None else window
    out: dict[Gram, bool] = {}
    last: list[int] = []  # content positions of the current clause, most recent last
    for i, key in enumerate(keys):
        if not is_content(key):
            if key in CLAUSE_BREAKS or not any(c.isalnum() for c in key):
                last = []
            continue
        g = (key,)
        out[g] = out.get(g, True) and negated[i]
        for j in last[-(window + 1):]:
            if i - j - 1 <= window:
                g2 = (keys[j], key)
                out[g2] = out.get(g2, True) and (negated[i] or negated[j])
        last.append(i)
    return out


def mutual_information(joint: dict[tuple[str, Hashable], int], n: int) -> float:
    """MI in bits from joint counts of (feature value, class) over n examples."""
    fv: Counter = Counter()
    cl: Counter = Counter()
    for (v, c), k in joint.items():
        fv[v] += k
        cl[c] += k
    mi = 0.0
    for (v, c), k in joint.items():
        if k:
            mi += k / n * math.log2(k * n / (fv[v] * cl[c]))
    return mi


def select_terms(grams_per_answer: Sequence[dict[Gram, bool]], marks: Sequence[Hashable],
                 n_terms: int, min_count: int = 3, exclude: set[Gram] | None = None
                 ) -> list[tuple[Gram, float]]:
    """The n_terms grams with the highest MI with the marks, best first: (gram, MI)."""
    exclude = exclude or set()
    n = len(marks)
    if n == 0 or n_terms <= 0:
        return []
    per_class = Counter(marks)
    seen: dict[Gram, Counter] = defaultdict(Counter)
    for grams, mark in zip(grams_per_answer, marks):
        for g, neg in grams.items():
            seen[g][("negated" if neg else "present", mark)] += 1
    scored = []
    for g, counts in seen.items():
        if g in exclude or sum(counts.values()) < min_count:
            continue
        joint = dict(counts)
        for c, total in per_class.items():
            joint[("absent", c)] = total - counts[("present", c)] - counts[("negated", c)]
        scored.append((mutual_information(joint, n), len(g), g))
    # Ties: the shorter phrase, then alphabetical, so the selection is reproducible.
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    return [(g, mi) for mi, _, g in scored[:n_terms]]


def written_forms(answers: Sequence[tuple[list[str], list[str], list[str]]], grams: Sequence[Gram]
                  ) -> dict[Gram, str]:
    """The commonest way the answers write each gram, lower case: a term whose key is "more"
    was learned from "higher" or "greater", and a teacher reads the word the class used.
    `answers`: each answer's keys with negated antonyms resolved, its keys as written, and its
    tokens' lower-case forms; a place where an antonym was resolved ("not the same" read as
    "different") does not count. A word whose meaning is carried by the word before it comes
    with that word ("goes up", key "more"), and a word read as its opposite with the word
    before it that makes it so ("less bright", key "dim"). Grams never found adjacent are
    left out."""
    wanted = {g for g in grams if 1 <= len(g) <= 2}
    counts: dict[Gram, Counter] = defaultdict(Counter)
    for keys, written, lowers in answers:
        def word(i: int) -> str:
            carried = i + 1 < len(keys) and keys[i + 1] == CARRIED
            return f"{lowers[i]} {lowers[i + 1]}" if carried else lowers[i]

        def text(i: int) -> str:  # with the word that gives it its opposite ("less bright")
            return f"{lowers[i - 1]} {word(i)}" if i and flips_next(lowers[i - 1], keys[i]) else word(i)
        content = [i for i, k in enumerate(keys) if is_content(k) and k == written[i]]
        for i in content:
            if (keys[i],) in wanted:
                counts[(keys[i],)][text(i)] += 1
        for j, i in zip(content, content[1:]):
            if i == j + 1 and (keys[j], keys[i]) in wanted:
                counts[(keys[j], keys[i])][f"{text(j)} {word(i)}"] += 1
    # English before a misspelling ("separated" before a commoner "seperated"), then the
    # commonest, then the alphabetically first, so that the text is reproducible
    english = english_words()
    return {g: min(c.items(), key=lambda kv: (not all(w in english for w in kv[0].split()), -kv[1], kv[0]))[0]
            for g, c in counts.items()}
