"""What the reference answers say of two things, as the extractor's columns: their
comparisons ("metal is a better conductor than wood", `comparisons`) and their statements of
two things ("wood is an insulator and metal is a conductor", `statements`), each found in an
answer the right way round (present) or the other way round (negated). An answer that swaps
the two things uses only the reference's words, which alone cannot tell it apart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .comparisons import Comparison, comparison_states, reference_comparisons
from .reading import Analysis
from .similarity import NEGATED_SUFFIX
from .statements import Statement, reference_statements, statement_states

#: The prefix of a contrast's key among an answer's words, for its similarity to the marked
#: answers (`similarity.Exemplars`); no word has a colon.
KEY_PREFIX = "said:"


@dataclass
class Contrasts:
    """The contrasts of one question's reference answers."""

    comparisons: list[Comparison] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)

    @classmethod
    def of(cls, reference: Sequence[Analysis]) -> Contrasts:
        """The contrasts of the reference answers, read as answers are."""
        comparisons = reference_comparisons(reference)
        names = {c.name for c in comparisons}
        return cls(comparisons, [s for s in reference_statements(reference) if s.name not in names])

    def __bool__(self) -> bool:
        return bool(self.comparisons or self.statements)

    def columns(self) -> list[tuple[str, str, str]]:
        """(feature name part, description, the text said the other way round), in column order."""
        return ([(c.name, f'says "{c.text}" (a comparison of the reference answer)', f'"{c.reversed_text}"')
                 for c in self.comparisons]
                + [(s.name, f'says "{s.text}" (from the reference answer)', f'"{s.crossed_text}"')
                   for s in self.statements])

    def states(self, a: Analysis) -> list[str]:
        """"present", "negated" or "absent" for each column, in one answer."""
        if not self:
            return []
        return comparison_states(a, self.comparisons) + statement_states(a, self.statements)

    def keys(self, states: Sequence[str]) -> frozenset[str]:
        """The contrasts an answer makes (`states`), as words for its similarity: "said:NAME",
        marked negated (`similarity.NEGATED_SUFFIX`) the other way round."""
        names = [c.name for c in self.comparisons] + [s.name for s in self.statements]
        return frozenset(KEY_PREFIX + name + ("" if state == "present" else NEGATED_SUFFIX)
                         for name, state in zip(names, states) if state != "absent")
