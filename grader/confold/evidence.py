"""Which literals count as evidence: the mask of literals a rule for a higher label may use.

Why: on ordered labels (marks), FOLD-RM happily learns `1 <- concept:downward == absent`
(full marks because something is missing) or `0.5 <- value:a > -9.81`. A marker gives a
higher mark for what an answer *says*; what it lacks belongs in exceptions and in rules for
the lowest mark. The learner knows nothing of the domain, so its user says, per feature,
which values are evidence (`ConFold(evidence=...)`):

* a collection of values, for a categorical or boolean column: `== v` is evidence when v is
  one of them (``("present",)`` allows `== 'present'` only; ``()`` allows nothing); `!= v` never
  is: it says what the answer lacks, or, when every other value is evidence, only that the
  answer mentions something said or denied (`concept:gap != absent`), and a marker gives a
  mark for which of the two it says;
* ``">"`` or ``"<="``, for a numeric column: thresholds in that direction only (``">"``: a
  higher value is evidence, as for a similarity); its categories are not evidence.

Features the mapping does not name are not restricted. The mask is computed once per fit,
from the search's slots, and the search only masks gains with it: the search itself is the
same with or without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

DIRECTIONS = (">", "<=")


def check_evidence(evidence: Any, features: Iterable[str]) -> None:
    """ValueError saying what is wrong with an `evidence` parameter (None is fine)."""
    if evidence is None:
        return
    if not isinstance(evidence, Mapping):
        raise ValueError(f"evidence must be None or a mapping from feature name to its evidence "
                         f"values (or '>' / '<='), got {type(evidence).__name__}")
    known = set(features)
    unknown = sorted(str(f) for f in evidence if f not in known)
    if unknown:
        raise ValueError(f"evidence names feature(s) the data does not have: {', '.join(unknown)}")
    for name, spec in evidence.items():
        if isinstance(spec, str):
            if spec not in DIRECTIONS:
                raise ValueError(f"evidence for {name!r}: a direction must be '>' or '<=', got {spec!r} "
                                 f"(a single category goes in a list: [{spec!r}])")
        elif not isinstance(spec, Iterable) or isinstance(spec, Mapping):
            raise ValueError(f"evidence for {name!r} must be a list of values or '>' / '<=', got {spec!r}")


def _key(value: Any) -> tuple:
    value = value.item() if isinstance(value, np.generic) else value
    return (type(value) is bool, value)  # True == 1 in Python; keep them apart


def evidence_mask(search: Any, evidence: Mapping[str, Any]) -> np.ndarray:
    """(n_slots, 2) bool: column 0 for `<=`/`==`, column 1 for `>`/`!=` of each slot of a
    `LiteralSearch`; True where the literal may be used in a rule for a higher label."""
    mask = np.ones((search.n_slots, 2), dtype=bool)
    for feat in search.features:
        if feat.name not in evidence:
            continue
        spec = evidence[feat.name]
        numeric = slice(feat.num_start, feat.cat_start)
        categories = slice(feat.cat_start, feat.cat_start + len(feat.categories))
        mask[numeric] = False
        mask[categories] = False
        if isinstance(spec, str):
            mask[numeric, 1 if spec == ">" else 0] = True
            continue
        good = {_key(v) for v in spec}
        for i, category in enumerate(feat.categories):  # `!=` (column 1) stays False
            mask[feat.cat_start + i, 0] = _key(category) in good
    return mask
