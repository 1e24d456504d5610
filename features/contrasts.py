"""What the reference answers say of two things, as the extractor's columns: their
comparisons ("metal is a better conductor than wood", `comparisons`), their statements of
two things ("wood is an insulator and metal is a conductor", `statements`), the
quantities they have go together ("a longer string gives a lower pitch", `covariations`)
those they say stay the same ("the pitch does not change", `invariants`), their formulas
("moment = force x distance", `formulas`) and what they say of one thing in words that have
opposites ("like poles repel", `claims`), each found in
an answer the right way round (present) or the other way round (negated). An answer that
swaps the two things uses only the reference's words, which alone cannot tell it apart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .antonyms import ANTONYMS
from .claims import Claim, claim_states, reference_claims
from .clauses import Words
from .comparisons import Comparison, comparison_states, reference_comparisons
from .covariations import Covariation, covariation_states, reference_covariations
from .degrees import scale_words
from .formulas import Formula, formula_states, reference_formulas
from .invariants import Invariant, invariant_states, reference_invariants
from .reading import Analysis
from .similarity import CONTRAST_PREFIX as KEY_PREFIX
from .similarity import NEGATED_SUFFIX
from .statements import Statement, reference_statements, statement_states


@dataclass
class Contrasts:
    """The contrasts of one question's reference answers."""

    comparisons: list[Comparison] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    covariations: list[Covariation] = field(default_factory=list)
    invariants: list[Invariant] = field(default_factory=list)
    formulas: list[Formula] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    def __post_init__(self) -> None:
        # The keys an answer needs for each kind to be found at all: most answers lack
        # them, and are not read word by word (`Contrasts.states`)
        self._compared = frozenset(w for c in self.comparisons for w in c.first | c.second)
        self._stated = frozenset(w for s in self.statements for w in s.thing | s.other_thing)
        self._scales = [tuple(scale_words(s) for s in c.scales) for c in self.covariations]
        self._kept = frozenset(w for i in self.invariants for w in scale_words(i.scale))
        self._formulated = frozenset(f.result for f in self.formulas)
        self._claimed = [tuple(frozenset(words) | {ANTONYMS[k] for k in words if k in ANTONYMS}
                               for words in (c.thing, c.says)) for c in self.claims]
        self._names = [name for name, _, _ in self._own_columns()]
        # any word some kind needs: an answer with none of them is read no further
        self._needed = (self._compared | self._stated | self._kept | self._formulated
                        | frozenset(w for pair in self._scales for words in pair for w in words)
                        | frozenset(w for pair in self._claimed for words in pair for w in words))

    @classmethod
    def of(cls, reference: Sequence[Analysis]) -> Contrasts:
        """The contrasts of the reference answers, read as answers are; a contrast whose
        column name another already has is left out (each has at least three words, so no
        reference phrase or term has one)."""
        seen: set[str] = set()
        parts: list[list] = []
        for found in (reference_comparisons(reference), reference_statements(reference),
                      reference_covariations(reference), reference_invariants(reference),
                      reference_formulas(reference), reference_claims(reference)):
            parts.append([])
            for contrast in found:
                if contrast.name not in seen:
                    seen.add(contrast.name)
                    parts[-1].append(contrast)
        return cls(*parts)

    def __bool__(self) -> bool:
        return bool(self.comparisons or self.statements or self.covariations or self.invariants or self.formulas
                    or self.claims)

    def columns(self) -> list[tuple[str, str, str]]:
        """(feature name part, description, the text said the other way round), in column order."""
        return self._own_columns() + ([("turned_round", "says something of the reference answer the other way round",
                                        "says nothing of the reference answer the other way round")] if self else [])

    def _own_columns(self) -> list[tuple[str, str, str]]:
        return ([(c.name, f'says "{c.text}" (from the reference answer)', f'"{c.reversed_text}"')
                 for c in self.comparisons]
                + [(s.name, f'says "{s.text}" (from the reference answer)', f'"{s.crossed_text}"')
                   for s in self.statements]
                + [(c.name, f'says {c.text} (from the reference answer)', c.reversed_text)
                   for c in self.covariations]
                + [(i.name, f'says "{i.text}" (from the reference answer)', f'"{i.changed_text}"')
                   for i in self.invariants]
                + [(f.name, f'says "{f.text}" (from the reference answer)', f'"{f.turned_text}"')
                   for f in self.formulas]
                + [(c.name, f'says "{c.text}" (from the reference answer)', f'"{c.turned_text}"')
                   for c in self.claims])

    def states(self, a: Analysis) -> list[str]:
        """"present", "negated" or "absent" for each column, in one answer."""
        if not self:
            return []
        said = set(a.text_keys)
        if said.isdisjoint(self._needed):
            return ["absent"] * (len(self._names) + 1)
        words = None
        out: list[str] = []
        for found, part, states in ((said & self._compared, self.comparisons, comparison_states),
                                    (said & self._stated, self.statements, statement_states),
                                    (any(said & one and said & other for one, other in self._scales),
                                     self.covariations, covariation_states),
                                    (said & self._kept, self.invariants, invariant_states),
                                    (said & self._formulated, self.formulas, formula_states),
                                    (any(said & thing and said & says for thing, says in self._claimed),
                                     self.claims, claim_states)):
            if found:
                words = words or Words.of(a)
                out += states(words, part)
            else:
                out += ["absent"] * len(part)
        return out + ["present" if "negated" in out else "absent"]

    def keys(self, states: Sequence[str]) -> frozenset[str]:
        """The contrasts an answer makes (`states`), as words for its similarity: "said:NAME",
        marked negated (`similarity.NEGATED_SUFFIX`) the other way round."""
        return frozenset(KEY_PREFIX + name + ("" if state == "present" else NEGATED_SUFFIX)
                         for name, state in zip(self._names, states) if state != "absent")
