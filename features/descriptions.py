"""What each feature column means, in a teacher's words: the texts the rule explanations,
the Review view and `grader test-rubric` show ("mentions "repel" or the like ("push apart")
(from the reference answer)", "says most of what an answer marked correct said")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from knowledge.schema import (CONCEPT_VALUES, TERM_VALUES, FeatureSpec, Question, feature_name,
                              rubric_feature_specs)

from .antonyms import antonym_phrases
from .lexicon import phrase_text
from .opposite_words import opposite_text
from .reference import RefPhrase, spaced_variants
from .similarity import Exemplars

#: The columns every question has, last in the table.
BASE_COLUMNS = ("coverage", "precision", "length", "non_answer")


def feature_specs(question: Question, reference: Sequence[RefPhrase], terms: Sequence[RefPhrase],
                  exemplars: Exemplars | None, contrasts: Sequence[tuple[str, str, str]] = ()
                  ) -> list[FeatureSpec]:
    """Every column of the extractor's table, in order, with its kind, values and description:
    the question file's own, then the reference answers' words, the learned terms, the
    reference answers' contrasts (`Contrasts.columns`: name, description, the other way
    round), the similarity to each mark's answers, and the base columns."""
    rubric = rubric_feature_specs(question)
    base = [s for s in rubric if s.name in BASE_COLUMNS]
    specs = [s for s in rubric if s.name not in BASE_COLUMNS]
    for p in reference:
        specs.append(FeatureSpec(feature_name("ref", p.name), "categorical", CONCEPT_VALUES,
                                 f'mentions "{p.text}"{_alike(p)} (from the reference answer)'))
    for p in terms:
        specs.append(FeatureSpec(feature_name("term", p.name), "categorical", TERM_VALUES,
                                 f'mentions "{p.text}" (a word that separates the marks '
                                 'in the marked answers)'))
    for name, description, _ in contrasts:
        specs.append(FeatureSpec(feature_name("ref", name), "categorical", CONCEPT_VALUES, description))
    for mark in (exemplars.marks if exemplars is not None else ()):
        specs.append(FeatureSpec(feature_name("similarity", mark), "numeric", None,
                                 f"says most of what an answer marked {mark} said "
                                 "(share of its words, 0-1)"))
    return specs + base


def opposite_texts(opposites: Mapping[str, Sequence[tuple[str, ...]]],
                   descriptions: Mapping[str, str],
                   phrases: Mapping[str, RefPhrase] | None = None) -> dict[str, str]:
    """The antonyms that also say a reference phrase or term negated, as text, per column:
    "open path" is the reference's "closed path" negated; "mentions "closed path", but with a
    negation" alone would hide it from the teacher. `phrases`: the column's phrase, whose own
    words the text keeps ("lower pitch" for "higher pitch", `opposite_words`)."""
    phrases = phrases or {}
    return {column: _opposite_text(keyed, phrases.get(column)) for column, keyed in opposites.items()
            if column in descriptions}


def _alike(p: RefPhrase, shown: int = 3) -> str:
    """' or the like ("repel", "push apart")' for a reference phrase a rubric concept lends its
    phrases to (the answer may say any of them), "" otherwise."""
    others = list(dict.fromkeys(t for t in map(phrase_text, _shown(p.keys[1:], p.keys[0])) if t != p.text))
    if not others:
        return ""
    return " or the like (" + ", ".join(f'"{t}"' for t in others[:shown]) + (", ..." if len(others) > shown else "") + ")"


def _shown(keyed: Sequence[tuple[str, ...]], base: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The phrases a description names: not the base phrase's words spaced or moved as answers
    put them (`reference.spaced_variants`), which say nothing new to a teacher."""
    hidden = set(spaced_variants(base))
    return [k for k in keyed if k not in hidden]


def _opposite_text(opposites: Sequence[tuple[str, ...]], phrase: RefPhrase | None = None,
                   shown: int = 2) -> str:
    """'"open path"' (or '"different state" or "unequal state"') from a phrase's antonym keys;
    in the phrase's own words where they line up with its keys."""
    readable = opposite_text(phrase.text, phrase.keys[0]) if phrase is not None else None
    if readable is not None:
        hidden = {v for base in antonym_phrases(phrase.keys[0]) for v in spaced_variants(base)}
        return f'"{readable}"' + (" or the like" if len([k for k in opposites if k not in hidden]) > 1 else "")
    texts = list(dict.fromkeys(map(phrase_text, opposites)))
    return " or ".join(f'"{t}"' for t in texts[:shown]) + (" or the like" if len(texts) > shown else "")
