"""Rubric phrases found as students write them: in any word order, with a few words between.

A teacher lists "same electrical state"; a student writes "the electrical states of the two
terminals are the same". The phrase's content words (lemmas, misspellings mended, see
`lexicon`) are looked for in every order (up to MAX_PERMUTED words; longer phrases in the
order written), each at most MAX_GAP tokens from the next, within one clause: no
punctuation and no word that starts a new clause ("but", "because", ...) between, and on one
side of a "than" unless the phrase has one ("wood is a better conductor" is not found in
"metal is a better conductor than wood"). Two statements joined by "and", "or", "but",
"whereas" or "while" are two clauses where each names a thing and says something of it
("like poles repel and unlike poles attract" says no "unlike poles repel"; "terminal 1 and
the positive terminal are separated" is one).

A phrase that holds a negation cue ("no gap", "not separated") says that its content words
are denied: it is found where they are ("there isn't any gap", "it is not really
separated", "copper coins are not magnetic" for "copper is not magnetic"), by a cue before
the first denied word or by its own prefix ("non-magnetic", "nonmagnetic" for "not
magnetic"), and not where they are said ("there is a gap").

Done on the answer's list of keys rather than with spaCy's `Matcher` and `{0,8}` gaps
between the words: that matcher made grading four times slower. Most answers hold the
words of no phrase, which one set test per phrase rules out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import islice, product

from .clauses import JOINS, clause_ids, than_sides
from .lexicon import is_content
from .negation import CLAUSE_BREAKS, CUES, FUNCTION_LEMMAS
from .phrase_measures import (SAMENESS, acting_places, acts_on_another, degree_place, degree_places,
                              leaves_its_state, manner_places, measures, names_another, other_end_between,
                              particle_places, particle_with_its_word, placed_elsewhere, placed_places,
                              places_a_thing, said_less, said_of_its_word)
from .question_names import splits_a_name

MAX_GAP = 8  # tokens between two words of a phrase
MAX_PERMUTED = 3  # phrases of more content words are matched in their own order only
MAX_TRIED = 2000  # placings of a phrase's words tried in one answer (long answers repeat words)
EXACT = "\x00"  # starts a key to match as written (see concepts.phrase_keys); no token has it
PRESENT, NEGATED = "present", "negated"


#: Modal verbs: a phrase's are left out ("cannot pass through" is found in "is unable to pass
#: through", "must be closed" in "the switch is closed"), see `concepts.phrase_keys`.
MODALS = frozenset({"can", "could", "will", "would", "shall", "should", "may", "might", "must"})
#: Words of a phrase that need not be found: "the circuit is complete" is found in
#: "the circuits were complete" and "a complete circuit".
SKIPPED = frozenset({"the", "a", "an", "be", "have", "do", "it", "its", "there", "this", "that",
                     "these", "those", "of", "'s"}) | MODALS
#: Words that give a phrase a direction: its words are looked for in the order written
#: ("resistance divided by voltage" is not "voltage divided by resistance").
DIRECTED = frozenset({"by", "from", "to", "than", "over", "into", "onto", "per", "towards",
                      "toward", "under", "above", "below", "before", "after"})


#: Words a phrase's "to" is also found as: "into" and "onto" say where to, as "to" does.
_TO_ALIKE = frozenset({"into", "onto"})


def content_of(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The words of a phrase that must be found: all but articles, forms of "be", "have"
    and "do", and negation cues; words quoted as written are kept."""
    return tuple(k for k in keys if k.startswith(EXACT) or (k not in SKIPPED and k not in CUES))


def is_loose(keys: tuple[str, ...]) -> bool:
    """Can a phrase be found in another order or with words between? Not formulas:
    phrases with symbols or lower-case letters on their own ("12 / 6", "6 x 12"); labels
    and numbers are words ("bulb A", "terminal 2")."""
    return all(k.startswith(EXACT) or _is_word(k) for k in content_of(keys))


def _is_word(key: str) -> bool:
    return key.replace("'", "").isalnum() and not (len(key) == 1 and key.islower())


def has_cue(keys: tuple[str, ...]) -> bool:
    return not CUES.isdisjoint(keys)


def token_pattern(key: str) -> dict:
    """A spaCy Matcher token pattern for a key: as written (LOWER) or by key (NORM)."""
    return {"LOWER": key[len(EXACT):]} if key.startswith(EXACT) else {"NORM": key}


class LooseMatcher:
    """The loose phrases of some columns (see the module docstring)."""

    def __init__(self, phrases: dict[str, Iterable[tuple[str, ...]]],
                 comparatives: dict[str, frozenset[str]] | None = None,
                 said_of: dict[str, frozenset[str]] | None = None):
        """`comparatives`: column -> the keys of its phrases' words of comparison, which an
        answer's "less" before them says the other way ("less dense" for "denser"); `said_of`:
        column -> the words its phrases say of a thing (`question_names`)."""
        # (column, content words, whether the phrase holds a cue, in any order?)
        self._phrases: list[tuple[str, tuple[str, ...], frozenset[str], bool, bool]] = []
        #: by phrase, whether it may take words from both sides of a "than" (it has one)
        self._across_than: list[bool] = []
        #: by phrase, the places in its content words of those its cue denies (after the cue)
        self._denied: list[frozenset[int]] = []
        #: by phrase, (place of a word of degree, place of the word it measures): "more coils"
        self._degrees: list[tuple[tuple[int, int], ...]] = []
        #: by phrase, the places of its words of sameness ("same pressure")
        self._sameness: list[tuple[int, ...]] = []
        #: by phrase, the keys of its words of comparison ("denser": "dense")
        self._compared: list[frozenset[str]] = []
        #: by phrase, where it says what a thing is, the places of the thing and of what it is
        #: said to be (`_says_what_is`)
        self._what_is: list[tuple[int, int] | None] = []
        #: by phrase, (place of a word, place of the particle that finishes it): "pulled up"
        self._particles: list[tuple[tuple[int, int], ...]] = []
        #: by phrase, (place of a thing, place of the preposition said of it): "switch is on"
        self._placed: list[tuple[int, int] | None] = []
        #: by phrase, (place of a verb, place of the thing it acts on): "attracts the paper"
        self._acting: list[tuple[int, int] | None] = []
        #: by phrase, (place of a word, place of the word of degree after it): "vibrate faster"
        self._manner: list[tuple[tuple[int, int], ...]] = []
        #: by phrase, (place of a word of degree, place of the thing it is said in): "slower in metal"
        self._degree_place: list[tuple[int, int] | None] = []
        #: by phrase, its own clause breaks, which its words are found across ("stays magnetic when off")
        self._breaks: list[frozenset[str]] = []
        self.columns = frozenset(phrases)
        #: by phrase, the words it says of a thing, not found in a question's name (`question_names`)
        self._said_of: list[frozenset[str]] = []
        comparatives, said_of = comparatives or {}, said_of or {}
        for column, keyed in phrases.items():
            for keys in keyed:
                words = content_of(keys)
                cue = has_cue(keys)
                if not words or (len(words) == 1 and not cue) or not is_loose(keys):
                    continue  # the plain match says all
                plain = frozenset(k for k in words if not k.startswith(EXACT))
                any_order = len(words) <= MAX_PERMUTED and DIRECTED.isdisjoint(keys)
                if plain:
                    self._phrases.append((column, words, plain, cue, any_order))
                    self._denied.append(_denied_places(keys, words) if cue else frozenset())
                    self._across_than.append("than" in keys)
                    self._degrees.append(degree_places(words))
                    self._sameness.append(tuple(i for i, w in enumerate(words) if w in SAMENESS))
                    self._compared.append(comparatives.get(column, frozenset()).intersection(words))
                    self._what_is.append(_says_what_is(keys, words))
                    self._particles.append(particle_places(words))
                    self._placed.append(placed_places(keys, words))
                    self._acting.append(acting_places(keys, words))
                    self._manner.append(manner_places(words))
                    self._degree_place.append(degree_place(keys, words))
                    self._breaks.append(CLAUSE_BREAKS.intersection(keys))
                    self._said_of.append(said_of.get(column, frozenset()).intersection(words))
        self.words = frozenset(k for _, _, plain, _, _ in self._phrases for k in plain)
        # Each phrase under one of its words, so that an answer looks only at the phrases
        # whose words it may hold.
        self._by_word: dict[str, list[int]] = {}
        for n, (_, _, plain, _, _) in enumerate(self._phrases):
            self._by_word.setdefault(min(plain), []).append(n)

    def states(self, keys: list[str], negated: list[bool], lowers: Callable[[], list[str]],
               known: dict[str, str] | None = None, prefixed: frozenset[int] = frozenset(),
               named: frozenset[int] = frozenset()) -> dict[str, str]:
        """Column -> present/negated for the loose phrases found; `lowers` gives the
        tokens' lower-case forms, for words quoted as written (asked for only then);
        `known`: the states found already (columns present there are not looked for);
        `prefixed`: the words denied by their own prefix (`reading.Analysis.prefixed`)."""
        present = self.words.intersection(keys)
        if "to" in self.words and not _TO_ALIKE.isdisjoint(keys):
            present = present | {"to"}  # "electrons move onto the rod" says "move to the rod"
        if not present:
            return {}
        known = known or {}
        found: dict[str, str] = {}
        clauses: list[int] | None = None
        sided: Sequence[Hashable] | None = None
        lower: list[str] | None = None
        at: dict[str, list[int]] | None = None
        candidates = sorted(n for w in present for n in self._by_word.get(w, ()))
        for n in candidates:
            column, words, plain, cue, any_order = self._phrases[n]
            if PRESENT in (found.get(column), known.get(column)) or not plain <= present:
                continue
            if at is None:
                if lower is None and not JOINS.isdisjoint(keys):
                    lower = lowers()
                clauses = clause_ids(keys, lower)
                # a phrase without "than" is found on one side of the answer's "than"
                sided = list(zip(clauses, than_sides(keys))) if "than" in keys else clauses
                at = {}
                for i, k in enumerate(keys):
                    if k in present:
                        at.setdefault(k, []).append(i)  # "into" for a phrase saying "into"
                    if k in _TO_ALIKE:
                        at.setdefault("to", []).append(i)  # and for one saying "to"
            if lower is None and (len(plain) < len(words) or self._degrees[n] or self._sameness[n]):
                lower = lowers()  # words quoted as written; the things words of degree are said of
            parts = clauses if self._across_than[n] else sided
            if self._breaks[n]:  # its own "when" joins the answer's clauses too
                parts = clause_ids(keys, lower, self._breaks[n])
                if not self._across_than[n] and "than" in keys:
                    parts = list(zip(parts, than_sides(keys)))
            state = _phrase_state(words, at, lower, keys, negated, parts,
                                  cue, any_order, prefixed, self._denied[n], self._degrees[n],
                                  self._sameness[n], self._compared[n], self._what_is[n], self._particles[n],
                                  self._placed[n], self._acting[n], self._manner[n], named, self._said_of[n],
                                  self._degree_place[n])
            if state is not None and found.get(column) != PRESENT:
                found[column] = state
        return found


def _phrase_state(words: tuple[str, ...], at: dict[str, list[int]], lower: list[str] | None,
                  keys: list[str], negated: list[bool], clauses: Sequence[Hashable], cue: bool,
                  any_order: bool, prefixed: frozenset[int] = frozenset(),
                  denied_places: frozenset[int] = frozenset(),
                  degrees: tuple[tuple[int, int], ...] = (), sameness: tuple[int, ...] = (),
                  compared: frozenset[str] = frozenset(), what_is: tuple[int, int] | None = None,
                  particles: tuple[tuple[int, int], ...] = (), where: tuple[int, int] | None = None,
                  acting: tuple[int, int] | None = None, manner: tuple[tuple[int, int], ...] = (),
                  named: frozenset[int] = frozenset(), said_of: frozenset[str] = frozenset(),
                  degree_in: tuple[int, int] | None = None) -> str | None:
    """present/negated if the phrase is found, None if not: present wins over negated; a
    phrase with a cue is found (present) only where its words are denied by a cue just
    before them ("there isn't any gap", not "it never stops accelerating") or by their own
    prefix (`prefixed`: "non-magnetic"). `keys`: the answer's keys; `at`: where each word of
    the answer is; `clauses`: which part of the answer each token is in (clause, and side of a
    "than"); `degrees`: the phrase's words of degree and the words they measure
    (`degree_places`); `sameness`: the places of its words of sameness; `compared`: the keys
    of its words of comparison, said the other way after "less" (`said_less`); `what_is`: where
    the phrase says what a thing is, the places of the thing and of what it is said to be: not
    found where a word of place or agent stands between its words, nor where what it is said
    to be comes before the thing, unless right before it ("magnetic cards"; `_says_what_is`);
    `particles`: its words and the particles that finish them, found together
    (`particle_with_its_word`); `where`: a thing and the preposition said of it (`placed_places`),
    not found with the preposition first; `acting`: a verb and the thing it acts on (`acting_places`),
    not found where the verb acts on another thing ("it goes through the paper and attracts the
    steel", "attracts the door through the paper" say no "attracts the paper"; "the paper is
    attracted" does); `manner`: a word and the word of degree that says how it is done, not
    found where the degree says how another is (`said_of_its_word`); `named`: where the answer
    holds a name of the question (`question_names`), whose first word the phrase does not take
    without the second where it says that word of a thing (`said_of`); `degree_in`: a word of
    degree and the thing it is said in ("slower in metal"), not found where the answer's
    degree has a place of its own (`placed_elsewhere`). A phrase's "out" is not found in an
    "out of" a state (`leaves_its_state`)."""
    places = []
    for word in words:
        if word.startswith(EXACT):
            want = word[len(EXACT):]
            places.append([i for i, w in enumerate(lower or ()) if w == want])
        else:
            places.append(at[word])
    state = None
    for chosen in islice(product(*places), MAX_TRIED):
        if len(set(chosen)) < len(chosen) or len({clauses[i] for i in chosen}) > 1:
            continue
        if not any_order and not _in_order(chosen, degrees):
            continue
        ordered = sorted(chosen)
        if any(b - a - 1 > MAX_GAP for a, b in zip(ordered, ordered[1:])):
            continue
        if what_is and not _RELATING.isdisjoint(keys[ordered[0] + 1:ordered[-1]]):
            continue  # "your hands are further from the pivot" says no "the hands are the pivot"
        if what_is and _said_of_another(keys, chosen, what_is, words):
            continue  # "more cards ... a weaker magnetic force" says no "the cards are magnetic"
        if where and chosen[where[1]] < chosen[where[0]] and "be" not in keys[ordered[0] + 1:ordered[-1]]:
            continue  # "the lamp is on the same side as the switch" says no "the switch is on"
        if where and where[1] == len(words) - 1 and places_a_thing(keys, chosen[where[1]]):
            continue  # "the switch is on the same path as the lamp" says no "the switch is on"
        if acting and acts_on_another(keys, chosen[acting[0]], chosen[acting[1]], words):
            continue  # "through the paper and attracts the steel" says no "attracts the paper"
        if degree_in and placed_elsewhere(keys, chosen[degree_in[0]], chosen[degree_in[1]]):
            continue  # "fast in the metal and slow in the air" says no "slower in metal"
        if manner and not all(said_of_its_word(keys, chosen[w], chosen[d]) for w, d in manner):
            continue  # "the vibrations are passed on faster" says no "vibrate faster"
        if "out" in words and leaves_its_state(keys, chosen):
            continue  # "knocked out of line" says no "knocked out"
        if named and splits_a_name(chosen, named, keys, said_of):
            continue  # "the big drum vibrates" says no "bigger vibrations" (`question_names`)
        if particles and not particle_with_its_word(keys, chosen, particles):
            continue  # "pushing up from the magnet ... gravity pulling down" says no "pulled up"
        if degrees and not all(measures(keys, chosen[d], chosen[w], lower) for d, w in degrees):
            continue  # "fewer coils and a bigger battery" says no "more coils"
        if sameness and any(names_another(keys, chosen[s], chosen, lower) for s in sameness):
            continue  # "the pressure is bigger with the same force" says no "the same pressure"
        if other_end_between(keys, ordered):
            continue  # "strongest close up and weaker further away" says no "stronger further away"
        denied = any(negated[i] for i in chosen) or (bool(compared) and said_less(keys, chosen, compared))
        if cue:
            # the first denied word: "copper is not magnetic" is found in "the copper is
            # non-magnetic", where copper is said and magnetic denied
            first = next((i for i in ordered if negated[i]), ordered[0])
            if denied_places and first not in {chosen[k] for k in denied_places}:
                continue  # "they attract instead of repelling" is no "repel instead of attract"
            at_cue = _cue_before(keys, first) if denied else -1
            if at_cue >= 0 and denied_before(keys, negated, at_cue):
                state = NEGATED  # "it's not because there is no gap": the phrase itself denied
            elif at_cue >= 0 or (denied and first in prefixed):
                return PRESENT  # "not magnetic" in "it is not magnetic", "non-magnetic"
            elif denied and all(negated[i] for i in chosen) \
                    and _cue_after(keys, negated, ordered[-1]) >= 0:
                return PRESENT  # "no air particles" in "the air particles aren't there"
            continue
        if not denied:
            return PRESENT
        state = NEGATED
    return state


def _in_order(chosen: Sequence[int], degrees: tuple[tuple[int, int], ...]) -> bool:
    """Are the words found in the phrase's order, a word of degree before or after the word it
    measures ("a smaller distance gives a bigger moment" in "the distance is smaller, so the
    moment is bigger"; `measures` checks that it measures it)?"""
    places = list(chosen)
    for degree, word in degrees:
        places[degree] = chosen[word]
    return places == sorted(places)


#: Words that relate a thing to another, which is then not what the thing is ("aluminium is
#: attracted to the magnet" is no "aluminium is magnetic", "the distance between the hands and
#: the pivot is long" no "the hands are the pivot", "magnetism works through wood" no "wood is
#: magnetic").
_RELATING = frozenset({"from", "to", "by", "towards", "toward", "near", "between", "against", "away",
                       "through", "across", "past"})


def _says_what_is(keys: tuple[str, ...], words: tuple[str, ...]) -> tuple[int, int] | None:
    """Where a phrase says what a thing is, a form of "be" and no word of `_RELATING` between
    its words ("the hands are the pivot", "aluminium is magnetic"), the places in its content
    words of the thing's last word and of the first word said of it; else None. Where the
    answer has such a word between them, one thing is related to the other: "your hands are
    further from the pivot" does not say they are the pivot."""
    places = [i for i, k in enumerate(keys) if k in words]
    if not places:
        return None
    between = keys[places[0] + 1:places[-1]]
    if "be" not in between or not _RELATING.isdisjoint(between):
        return None
    be = places[0] + 1 + between.index("be")
    thing = [k for k in keys[:be] if k in words]
    said = [k for k in keys[be + 1:] if k in words]
    return (words.index(thing[-1]), words.index(said[0])) if thing and said else None


#: Verbs that say what a thing is ("the cards are magnetic", "the nail becomes magnetic", "the
#: middle has no magnetic field": it is not magnetic).
_BEING = frozenset({"be", "become", "get", "stay", "remain", "turn", "have"})


def _said_of_another(keys: list[str], chosen: Sequence[int], what_is: tuple[int, int],
                     words: tuple[str, ...]) -> bool:
    """Is what a phrase says a thing is found said of another word: right before a word the
    phrase does not have, which is not right before the thing, and either before the thing or
    after it with no "is" between ("the magnetic force gets weaker ... more cards" and "more
    cards and a weaker magnetic force" for "the cards are magnetic"; "magnetic cards", "the
    cards are magnetic things", "the open metal lid" and "the pivot is your hands" say theirs)?"""
    thing, said = chosen[what_is[0]], chosen[what_is[1]]
    after = said + 1
    if not (after < len(keys) and is_content(keys[after]) and keys[after] not in words and thing != after + 1):
        return False
    return said < thing or _BEING.isdisjoint(keys[thing + 1:said])


def _denied_places(keys: tuple[str, ...], words: tuple[str, ...]) -> frozenset[int]:
    """The places (in `words`, the phrase's content words, `content_of`) of the words after
    its first cue: those it denies ("magnetic" in "copper is not magnetic")."""
    cue = next(i for i, k in enumerate(keys) if k in CUES)
    return frozenset(range(len(words) - len(content_of(keys[cue + 1:])), len(words)))


def _cue_before(keys: list[str], i: int) -> int:
    """Where a negation cue stands before token i with only function words between, or -1."""
    for j in range(i - 1, max(-1, i - 4), -1):
        if keys[j] in CUES:
            return j
        if keys[j] not in SKIPPED and keys[j] not in FUNCTION_LEMMAS and keys[j] != "to":
            return -1  # "unable to pass", "not able to pass" ("able" is a function word) deny "pass"
    return -1


def _cue_after(keys: list[str], negated: list[bool], i: int) -> int:
    """Where a negation cue stands after token i with only function words and words it denies
    between ("the particles | are | not there", "the gap between the magnets isn't there"), or
    -1: the words before a cue are denied only when the negation's reading reaches back to
    them (`negation._elided_subject`)."""
    for j in range(i + 1, min(len(keys), i + 2 + MAX_GAP)):
        if keys[j] in CUES:
            return j
        if not negated[j] and keys[j] not in SKIPPED and keys[j] not in FUNCTION_LEMMAS:
            return -1
    return -1


def denied_before(keys: list[str], negated: list[bool], cue: int) -> bool:
    """Does another negation cover the word before a phrase's own cue ("it's not because there
    is | no gap")? Then the phrase that holds the cue is denied, not said."""
    return cue > 0 and negated[cue - 1] and keys[cue - 1] not in CUES
