"""What counts as evidence for a higher mark, per feature: the learner's `evidence` option.

Why: a marker gives a higher mark for what an answer says, not for what it leaves out
(`1 <- concept:downward == absent` gave full marks because the direction was missing). The
learner knows nothing of physics; this module tells it which values of the extractor's
features are evidence an answer gives (`grader.confold.evidence`):

* a concept, a relation, a reference phrase or a learned term: "present" or "negated", each on
  its own (both are something the answer says: "no current flows" is the right idea for an
  open circuit; "mentions it, said or denied" is no reason for a mark, so `!= absent` is not
  evidence, see `grader.confold.evidence`);
* a quantity: "correct" (the value and unit within the tolerance);
* a similarity to the answers of a mark above the lowest: higher is evidence (">"); the
  coverage of the reference answer and the share of the answer found in it: higher (">");
* the teacher's derived predicates (background definitions): true;
* a reference phrase or learned term made only of the question's own words is not evidence:
  "correct if mentions 'switch'" for a question about a switch restates the question
  (`restating`, `FeatureExtractor.question_restatements`); the teacher's concepts always are;
* nothing else: a misconception, a non-answer and the answer's length are never evidence for
  a higher mark, and neither is a value on one side of a threshold (the quantity feature
  says whether it is right). They can still block a rule, as an exception, or give the lowest mark.

A mark that gives no credit (the question file's `no_credit`, "contradictory") is not the
lowest: its rules too rest on what the answer says, and for it a wrong idea the answer states
(a misconception) is such a thing, as is reading like the answers given that mark
(`feature_evidence(..., for_mark=)`). Reading like the answers of a no-credit mark is never a
reason for a mark that gives credit.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from features.similarity import mark_suffix
from knowledge.schema import FeatureSpec, split_feature_name

_SAID = ("present", "negated")
_BY_FAMILY: dict[str, Any] = {"concept": _SAID, "relation": _SAID, "ref": _SAID, "term": _SAID,
                              "quantity": ("correct",), "misconception": (), "value": ()}
_BY_NAME: dict[str, Any] = {"coverage": ">", "precision": ">", "length": (), "non_answer": ()}


def feature_evidence(specs: Sequence[FeatureSpec], marks: Sequence[str],
                     predicates: Iterable[str] = (), lowest: Sequence[str] | None = None,
                     no_credit: Sequence[str] = (), for_mark: str | None = None,
                     restating: Iterable[str] = ()) -> dict[str, Any]:
    """`ConFold(evidence=...)` for the extractor's features `specs`, the question's `marks`
    (lowest first), the names of its derived predicates, the marks that count as lowest
    (default: the first) and the other marks that give no credit; with `for_mark` (one of
    those), the evidence for that mark's rules (`ConFold(label_evidence=...)`). `restating`:
    the features that only restate the question, evidence for no mark."""
    restating = frozenset(restating)
    no_reason = {mark_suffix(m) for m in (*(lowest or marks[:1]), *no_credit)}
    own = None if for_mark is None else mark_suffix(for_mark)
    evidence: dict[str, Any] = {}
    for spec in specs:
        family, name = split_feature_name(spec.name)
        if spec.name in restating:
            evidence[spec.name] = ()
        elif family == "similarity":
            evidence[spec.name] = ">" if name == own or name not in no_reason else ()
        elif family == "misconception" and for_mark is not None:
            evidence[spec.name] = ("present",)  # a wrong idea stated: a reason for no credit
        elif family in _BY_FAMILY:
            evidence[spec.name] = _BY_FAMILY[family]
        elif family is None and name in _BY_NAME:
            evidence[spec.name] = _BY_NAME[name]
        else:  # a feature this module does not know: nothing is evidence, to be safe
            evidence[spec.name] = ()
    for name in predicates:
        evidence[name] = (True,)
    return evidence


def unordered_evidence(restating: Iterable[str]) -> dict[str, Any] | None:
    """`ConFold(evidence=...)` for marks in no known order, learned alike with no mark the
    lowest (`label_order=[(), *marks]`): a phrase made only of the question's words
    (`restating`) is no reason for any mark by being said or denied, though its being left
    out may be ("absent"); nothing else is restricted. None when no phrase restates it."""
    return {name: ("absent",) for name in restating} or None
