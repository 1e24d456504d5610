"""What a word of degree or sameness in a teacher's phrase measures in an answer: "more coils"
is not found in "fewer coils and a bigger battery", "same pressure" not in "the pressure is
bigger with the same force", "small area" in "the area of the blade on the bread is small".
"pulled up" not in "pushing up ... pulling down", "the switch is on" not in "the switch is on the
same path", "attracts the paper" not in "goes through the paper and attracts the steel". The
checks `loose.LooseMatcher` makes on each placing of a phrase's words."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spacy.lang.en.stop_words import STOP_WORDS

from .antonyms import ANTONYMS, DEGREES
from .clauses import clause_start, noun_before
from .degrees import INTENSIFIERS, MORE_LESS, REPEATED
from .lexicon import is_content
from .negation import PLACE_PREPOSITIONS, PREPOSITIONS

_ARTICLES = frozenset({"the", "a", "an"})
#: Every preposition, of place or not ("through", "at", "in").
_ALL_PREPOSITIONS = PREPOSITIONS | PLACE_PREPOSITIONS


def said_less(keys: list[str], at: Iterable[int], compared: frozenset[str]) -> bool:
    """Does a "less" stand right before one of the words at `at` that is a word of comparison
    (`compared`: "less dense" where a teacher wrote "denser")? Then it says it the other way.
    Not a word with an opposite on its scale: "less bright" is read "dim" already."""
    at = list(at)
    return any(keys[i] in compared and keys[i] not in DEGREES and i > 0 and keys[i - 1] == "less"
               and i - 1 not in at for i in at)


def other_end_between(keys: list[str], ordered: list[int]) -> bool:
    """Does the other end of the scale of one of the phrase's words of degree stand between
    the words found ("strongest close up and becomes weaker further away": "weaker" between
    "strongest" and "further away")? Then that word says something of another part. A word
    of the phrase is not one: "a smaller distance gives a bigger moment" is found as written."""
    found = set(ordered)
    for i in ordered:
        if keys[i] in DEGREES and any(keys[j] == ANTONYMS[keys[i]] and j not in found
                                      for j in range(ordered[0] + 1, ordered[-1])):
            return True
    return False


#: Words that count the thing after them ("both south poles", "two north poles"): in an
#: answer, said of another thing ("both pieces have a south pole"), they count that one.
COUNTING = frozenset({"both", "two", "2", "three", "3", "all", "every", "each"})


def degree_places(words: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """(place of a word of degree or count, place of the word it measures) in a phrase's content
    words: the word after it ("more coils", "a bigger iron nail": "iron", "both south poles"), or
    before it at the end ("the current is bigger")."""
    return tuple((i, i + 1 if i + 1 < len(words) else i - 1) for i, w in enumerate(words)
                 if (w in MORE_LESS or (w in COUNTING and i + 1 < len(words))) and len(words) > 1)


#: What never stands between a word of degree and the word it measures, nor (but "of")
#: between one said of a thing and a noun after it ("the pressure is bigger | with the same
#: force" says no "more force"; "a bigger amount of force" does).
_NOT_BETWEEN = frozenset({"and", "or", "but", ",", ";", "nor"}) | MORE_LESS | _ALL_PREPOSITIONS
#: Verbs that say a thing stays or becomes as it is said to be ("the pressure stays the same").
_STAYING = frozenset({"stay", "remain", "keep", "become", "seem", "look", "sound", "feel", "get", "go"})
#: Words of sameness ("the same force", "opposite poles"): one before a noun measures it.
SAMENESS = frozenset({"same", "different"})
#: Nouns that say how much of a thing there is: a degree said of them is said of the thing
#: ("the number of coils increases" says "more coils").
_MEASURE_NOUNS = frozenset({"number", "amount", "quantity", "count", "total", "level"})
_MOST_BETWEEN = 3  # tokens: "a much bigger current", "the current is much bigger"


def measures(keys: list[str], degree: int, word: int, lowers: list[str] | None = None) -> bool:
    """Can the word of degree at `degree` measure the word at `word` ("a bigger battery", "the
    number of turns is increased", "the area of the blade on the bread is less"), not a word of
    another part of a list ("fewer coils and a bigger battery" says no bigger number of coils)?
    `lowers`: the tokens' lower-case forms, for the -ing forms that go on naming a thing."""
    lo, hi = min(degree, word), max(degree, word)
    if degree > word and hi - lo - 1 > _MOST_BETWEEN and not (degree + 1 < len(keys) and is_content(keys[degree + 1])):
        return noun_before(lowers or keys, keys, clause_start(keys, word), degree) == word  # "the area touching the bread is small"
    if hi - lo - 1 > _MOST_BETWEEN or not _NOT_BETWEEN.isdisjoint(keys[lo + 1:hi]):
        return False
    if degree > word:  # after its word, not before another it measures: "the particles are
        # more closely packed" says no "the particles are bigger"
        if degree + 1 < len(keys) and is_content(keys[degree + 1]):
            return False
        # nor after a word that names what another is of: "the frequency of the vibration
        # increases" says no "bigger vibrations", "the number of turns is increased" more turns
        before = word - 1
        while before > 0 and keys[before] in _ARTICLES:
            before -= 1
        return not (before > 0 and keys[before] == "of" and keys[before - 1] not in _MEASURE_NOUNS)
    # before its word, at most one word of its own between ("a bigger iron nail", "a bigger
    # number of coils"): "big gaps between the particles" says no "bigger particles"
    return sum(map(is_content, keys[lo + 1:hi])) <= 1


def names_another(keys: list[str], at: int, chosen: Sequence[int], lowers: list[str] | None = None) -> bool:
    """Does the word of sameness at `at` stand right before a noun (articles aside) that is
    no word of the phrase found ("with the same force", for "same pressure")? Then it is
    said of that noun. A word of sameness after its noun may be far from it ("the electrical
    states of the two terminals are the same"), but is said of the thing its clause names
    (`clauses.noun_before`): "the turning effect on both sides of the tower is the same" says
    no "same side"."""
    j = at + 1
    while j < len(keys) and keys[j] in _ARTICLES:
        j += 1
    if j < len(keys) and is_content(keys[j]) and keys[j] not in STOP_WORDS and keys[j] not in MORE_LESS:
        return j not in chosen
    if at < max(chosen):
        return False
    start = clause_start(keys, min(chosen))
    thing = noun_before(lowers or keys, keys, start, at)
    if thing is not None and keys[thing] in _STAYING:  # "the pressure stays the same"
        thing = noun_before(lowers or keys, keys, start, thing)
    return thing is not None and thing not in chosen


#: Words that finish a verb's meaning ("pull up", "push apart", "line up"): in a teacher's
#: phrase, one after a word is that word's.
PARTICLES = frozenset({"up", "down", "out", "off", "away", "back", "apart", "together", "over", "around"})


def particle_places(words: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """(place of a word, place of the particle after it) in a phrase's content words."""
    return tuple((i, i + 1) for i in range(len(words) - 1)
                 if words[i + 1] in PARTICLES and words[i] not in PARTICLES)


def particle_with_its_word(keys: list[str], chosen: Sequence[int], particles: tuple[tuple[int, int], ...]) -> bool:
    """Does each of the phrase's particles follow its word in the answer ("pulls the magnet
    up", "bounces off the moth and back"), and is no other particle the word's own ("pushing up
    from the bottom magnet ... gravity pulling down" says no "pulled up")?"""
    for w, p in particles:
        word, particle = chosen[w], chosen[p]
        if particle < word or (word + 1 < len(keys) and keys[word + 1] in PARTICLES and word + 1 != particle):
            return False
    return True


#: Words that say where a thing is, or its state, and start a phrase of their own when said
#: before another thing ("the switch is on" / "the lamp is on the same side as the switch").
_PLACING = _ALL_PREPOSITIONS | {"off", "out", "up", "down", "of"}


#: Words that say a thing's state after "is" ("the switch is on"), and are prepositions
#: with a thing of their own where one follows ("the switch is on the same path").
STATE_WORDS = frozenset({"on", "off", "in", "out"})
#: Words that start the thing a preposition is said of ("on the same path", "on a closed path").
_OBJECT_STARTS = _ARTICLES | {"its", "their", "his", "her", "my", "your", "our", "one", "same", "both", "this",
                               "that", "these", "those", "each", "every", "another"}


def places_a_thing(keys: Sequence[str], i: int) -> bool:
    """Is the word of state at token i ("on") a preposition with a thing after it ("on the
    same path"), so that it says where something is, not its state ("the switch is on")?"""
    return keys[i] in STATE_WORDS and i + 1 < len(keys) and keys[i + 1] in _OBJECT_STARTS


def out_of_a_state(keys: Sequence[str], i: int) -> bool:
    """Is "out" at token i the "out of" of a state, a noun with no article after it ("knocked out
    of line", "shaken out of alignment", "out of order"), not the particle of a thing that comes
    out ("knocked out of it", "falls out of the magnet") nor the "run out of" of a thing used up
    ("it runs out of magnetism")?"""
    return (keys[i] == "out" and i + 2 < len(keys) and keys[i + 1] == "of" and is_content(keys[i + 2])
            and keys[i + 2] not in _OBJECT_STARTS and not (i and keys[i - 1] == "run"))


def leaves_its_state(keys: Sequence[str], places: Iterable[int]) -> bool:
    """Does a phrase found at `places` take the "out" of an "out of" state without the state
    (`out_of_a_state`): "the domains are knocked out of line" says no "knocked out"?"""
    taken = set(places)
    return any(out_of_a_state(keys, i) and i + 2 not in taken for i in taken)


def placed_places(keys: tuple[str, ...], words: tuple[str, ...]) -> tuple[int, int] | None:
    """For a phrase "X is P ..." whose P is a preposition or particle ("the switch is on", "the
    switch is in the path"), the places in its content words of X's last word and of P: P said
    before X, in an answer, starts a phrase about something else, where an adjective ("an open
    lid" for "the lid is open") would still be said of X."""
    if "be" not in keys:
        return None
    be = keys.index("be")
    before = [k for k in keys[:be] if k in words]
    after = [k for k in keys[be + 1:] if k in words]
    if not before or not after or after[0] not in _PLACING:
        return None
    return words.index(before[-1]), words.index(after[0])


#: Prepositions that give a degree its place ("slower in metal", "stronger at the poles").
_DEGREE_PLACES = PLACE_PREPOSITIONS | {"at", "through"}


def degree_place(keys: tuple[str, ...], words: tuple[str, ...]) -> tuple[int, int] | None:
    """(place of a word of degree, place of the thing it is said in) among a phrase's content
    words, where the phrase gives the degree a place ("slower in metal", "stronger at the
    poles"), else None."""
    for i in range(len(keys) - 2):
        if (keys[i] in DEGREES or keys[i] in MORE_LESS) and keys[i] in words and keys[i + 1] in _DEGREE_PLACES:
            j = i + 3 if keys[i + 2] in _ARTICLES else i + 2
            if j < len(keys) and keys[j] in words:
                return words.index(keys[i]), words.index(keys[j])
    return None


def placed_elsewhere(keys: list[str], degree: int, thing: int) -> bool:
    """Does the answer's word of degree at `degree` have a place of its own, another than the
    thing at `thing` ("fast in the metal and slow in the air" says no "slower in metal")?"""
    after = degree + 1
    if after >= len(keys) or keys[after] not in _DEGREE_PLACES:
        return False
    j = after + 2 if after + 1 < len(keys) and keys[after + 1] in _ARTICLES else after + 1
    return j < len(keys) and j != thing and is_content(keys[j])


def acting_places(keys: tuple[str, ...], words: tuple[str, ...]) -> tuple[int, int] | None:
    """(place of a verb, place of the thing it acts on) among a phrase's content words, where
    the phrase writes a word, an article and a word ("attracts the paper", "pulls a nail"),
    else None."""
    for i in range(len(keys) - 2):
        if keys[i] in _ALL_PREPOSITIONS:
            continue  # "with a switch": no verb
        if keys[i + 1] in _ARTICLES and keys[i] in words and keys[i + 2] in words:
            return words.index(keys[i]), words.index(keys[i + 2])
    return None


def acts_on_another(keys: list[str], verb: int, thing: int, words: tuple[str, ...]) -> bool:
    """Is the answer's verb at `verb` followed by an article and a word the phrase does not have
    (a thing of its own it acts on: "attracts the steel"), other than one word said of the
    phrase's thing at `thing` ("attracts the thin paper")?"""
    return (verb + 2 < len(keys) and keys[verb + 1] in _ARTICLES and keys[verb + 2] not in words
            and keys[verb + 2].isalnum() and thing != verb + 3)


def manner_places(words: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """(place of a word, place of the word of degree right after it that says how it is done)
    in a phrase's content words: "vibrate faster", "sound travels slower"."""
    return tuple((i, i + 1) for i in range(len(words) - 1)
                 if words[i + 1] in DEGREES and words[i + 1] not in MORE_LESS and words[i] not in DEGREES)


#: Words that start the thing a verb acts on ("passes the vibrations", "moves its arm").
_ACTED_ON_STARTS = _ARTICLES | {"its", "their", "his", "her", "your", "my"}


def said_of_its_word(keys: list[str], word: int, degree: int) -> bool:
    """Is the word of degree at `degree` said of the word at `word` (a phrase's "vibrate
    faster")? Before it ("faster vibrations") or after it with nothing between but small
    words, intensifiers, "more" and "less", words ending in -ly and a place ("vibrates a lot
    more quickly", "travels through water slower"), not after another word it says how is done
    ("the vibrations are passed on faster", "the vibration goes to the next one faster", "it
    passes the vibrations quicker")."""
    if degree < word:
        return True
    if word >= 2 and keys[word - 1] in _ACTED_ON_STARTS and is_content(keys[word - 2]) and keys[word - 2] != "be":
        return False  # "it passes the vibrations quicker": how the passing is done
    placed = False
    for k in keys[word + 1:degree]:
        placed = placed or k in _ALL_PREPOSITIONS
        if not placed and ((k == "go" and keys[word] in REPEATED)
                           or (is_content(k) and k not in INTENSIFIERS and k not in MORE_LESS and not k.endswith("ly"))):
            return False  # "the vibration goes to the next one faster": how it goes, not how often
    return True

