"""Where a clause starts and ends, the first thing it names and whether it says something of
it, by word order: what the reference answers' contrasts (`features.comparisons`,
`features.statements`, `features.covariations`) and the loose phrases' clauses
(`features.loose`) are read with, on the fallback pipeline and a parsed one alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from spacy.attrs import LOWER
from spacy.lang.en.stop_words import STOP_WORDS

from .degrees import INTENSIFIERS, MORE_LESS, QUANTITY_NOUNS, degrees, plain_degrees
from .lexicon import MEANINGFUL, is_content, is_label_key
from .negation import CLAUSE_BREAKS
from .reading import Analysis

#: Tokens that end a clause: punctuation and the words that start another ("because", "so").
ENDS = frozenset({",", ";", ".", "!", "?", ":", "(", ")"}) | CLAUSE_BREAKS
#: Words that join two statements ("wood is an insulator and metal is a conductor").
JOINS = frozenset({"and", "or", "whereas", "while", "but"})
#: Words after which a word with an ending is a noun, not a verb ("same poles", "both bulbs").
_BEFORE_NOUNS = STOP_WORDS | MEANINGFUL


def clause_bounds(lowers: list[str], i: int) -> tuple[int, int]:
    """(start, stop) of the clause around token i."""
    stop = next((j for j in range(i, len(lowers)) if lowers[j] in ENDS), len(lowers))
    return clause_start(lowers, i), stop


def asides(lowers: list[str]) -> frozenset[int]:
    """The places of the words in brackets, the brackets with them: an aside within a clause
    ("brass (copper and zinc) is not magnetic") that neither ends the clause nor belongs to it.
    A bracket left open or never opened is no aside."""
    if "(" not in lowers:  # most texts: no word-by-word look
        return frozenset()
    out: set[int] = set()
    opened: int | None = None
    for j, w in enumerate(lowers):
        if w == "(":
            opened = j
        elif w == ")" and opened is not None:
            out.update(range(opened, j + 1))
            opened = None
    return frozenset(out)


def clause_start(words: list[str], i: int) -> int:
    """Where the clause token i is in starts: after the last word of `ENDS` before it."""
    return next((j + 1 for j in range(i - 1, -1, -1) if words[j] in ENDS), 0)


#: Prepositions that are content words elsewhere ("the magnet is near"), but start a phrase of
#: place before a clause's thing ("near the bar magnet its field is stronger"); not "on" or
#: "over", which say a state ("the switch is on", "it is over").
_PLACES = frozenset({"near", "inside", "within", "along", "through", "across", "behind", "above",
                     "below", "under", "outside", "towards", "against", "between", "beyond", "around"})
#: After a phrase of place, words that go on from its thing ("near the magnet its field") and
#: words that start another ("near the rock she is far from it").
_BACK_TO_PLACE = frozenset({"its", "their"})
_PERSONS = frozenset({"i", "you", "he", "she", "we", "they", "it", "this", "that"})


def _place_end(lowers: list[str], keys: list[str], j: int, end: int) -> int | None:
    """Where the phrase of place starting at word j ends ("near the bar magnet", "close to the
    magnet": after its thing), or None if word j starts none."""
    if not (lowers[j] in _PLACES or (lowers[j] == "close" and j + 1 < end and lowers[j + 1] == "to")):
        return None
    k = next((k for k in range(j + 1, end) if is_content(keys[k]) and lowers[k] != "to"), end)
    while k < end and is_content(keys[k]):
        k += 1
    return k


def subject(lowers: list[str], keys: list[str], start: int, end: int) -> tuple[int, ...]:
    """The first thing a clause names: its first content word and the plain ones right after
    it, up to a word with an ending or a preposition ("metal" in "metal conducts heat", "steel
    ball" in "the steel ball falls", "pressure" in "the pressure on the snow"; not the verb,
    whose words are no thing, nor a phrase of place: "field" in "close to the magnet the field
    is stronger", but "bar magnet" in "near the bar magnet its field is stronger"). After a
    word such as "same" or "one" the noun may have one ("like poles" is "same poles")."""
    first = next((j for j in range(start, end) if is_content(keys[j]) and keys[j] not in MORE_LESS), None)
    if first is None:
        return ()
    place = _place_end(lowers, keys, first, end)
    if place is not None:  # "near the bar magnet | its field ...", "close to the magnet | the field ..."
        if place < end and lowers[place] in _BACK_TO_PLACE:
            return subject(lowers, keys, first + 1, place)
        if place < end and lowers[place] in _PERSONS:
            return ()
        return subject(lowers, keys, place, end)
    run = [first]
    for j in range(first + 1, end):
        ending = keys[j] != lowers[j] and lowers[j].endswith(("s", "ed", "ing"))
        if not is_content(keys[j]) or lowers[j] in NAMING_ON or (ending and keys[j - 1] not in _BEFORE_NOUNS):
            break
        run.append(j)
        if ending:  # "like poles | repel"
            break
    return tuple(run)


#: Words after a thing that start a clause of their own rather than go on naming it.
_RELATIVES = frozenset({"that", "which", "who"})
#: Words between a thing and what is said of it ("like poles always repel").
_ADVERBS = frozenset({"also", "always", "still", "often", "only", "then", "just", "really", "both",
                      "all", "usually", "never", "now"})
#: Words that start a predicate though they say nothing themselves ("bulb C is ...", "poles
#: don't attract", "it can ...").
_LINKING = frozenset({"be", "have", "do", "not", "can", "could", "will", "would", "shall", "should",
                      "may", "might", "must"})
#: Words after a thing that go on naming it ("the side of the battery", "a switch for ...").
NAMING_ON = frozenset({"of", "with", "for", "that", "which", "who", "in", "on", "at", "to", "from", "by",
                        "between", "through", "across", "along", "into", "onto", "towards", "toward",
                        "within", "around", "behind", "beyond", "over", "under", "above", "below",
                        "before", "after", "against", "off", "up", "down", "out", "near", "'s"})


def states_something(lowers: list[str], keys: list[str], start: int, end: int) -> bool:
    """Does the text from start to end name a thing and say something of it with a verb
    ("like poles repel", "bulb C is in a closed path", "poles don't attract"), rather than
    name things only ("the negative side of the battery", "a switch for the bulb")?"""
    thing = subject(lowers, keys, start, end)
    if not thing:
        return False
    j = thing[-1] + 1
    for _ in range(_MOST_HOPS):  # "the moments | on both sides | are equal": the phrase names the thing
        if j >= end or lowers[j] not in NAMING_ON or lowers[j] in _RELATIVES:
            break
        named = subject(lowers, keys, j + 1, min(end, j + 4))
        if not named:
            break
        after = named[-1] + 1
        while after < end and keys[after] in _ADVERBS:
            after += 1
        if after < end and lowers[after] in NAMING_ON:
            j = after  # "the weight | of the boy | on the left | is ..."
        elif after < end and keys[after] in _LINKING:
            return True  # "the moments on both sides | are equal" (not "back into the bats | ears")
        else:
            break
    while j < end and keys[j] in _ADVERBS:
        j += 1
    return j < end and (keys[j] in _LINKING or (is_content(keys[j]) and lowers[j] not in NAMING_ON))


def content(keys: list[str], at) -> tuple[int, ...]:
    """The positions in `at` of content words, "more" and "less" left out."""
    return tuple(j for j in at if is_content(keys[j]) and keys[j] not in MORE_LESS)


@dataclass(frozen=True)
class Words:
    """An answer's words as the contrasts read them, worked out once per answer."""

    lowers: list[str]  # lower-case forms
    keys: list[str]  # with negated antonyms resolved ("not the same" is "different")
    negated: list[bool]  # denied as written (`denied`)
    #: denied once opposites took their negations ("not a closed path" is "an open path",
    #: nothing denied; `Analysis.text_negated`)
    left_denied: list[bool] = field(default_factory=list)
    #: keys as written, before opposites took their negations ("not magnetic": "magnetic")
    written_keys: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, a: Analysis) -> Words:
        strings = a.doc.vocab.strings  # one array, no Token object per word
        lowers = [strings[x] for x in a.doc.to_array(LOWER).tolist()]
        if "than" in a.keys or not CLAUSE_BREAKS.isdisjoint(a.keys):
            # "faster then light" is read "faster than light" (`lexicon`), and a misspelt word
            # that starts a clause ("becuase", "cos") starts one
            lowers = [key if key == "than" or key in CLAUSE_BREAKS else w for w, key in zip(lowers, a.keys)]
        return cls(lowers, a.text_keys, denied(a), a.text_negated, a.keys)

    @cached_property
    def degrees(self) -> list[tuple[int, int, str, int]]:
        """(start, end, scale, sign) of each word of degree (`degrees.degrees`)."""
        return degrees(self.lowers, self.keys, self.negated)

    @cached_property
    def plain_degrees(self) -> list[int]:
        """Where each word of degree that compares nothing is (`degrees.plain_degrees`)."""
        return plain_degrees(self.lowers, self.keys, self.degrees)


def denied(a: Analysis) -> list[bool]:
    """Is each word denied, as written: a negation that an opposite later in its scope used
    up ("not a better conductor": "conductor" read as "insulator") still denies the words
    before it, unless the word itself took its opposite ("not faster" is "slower")."""
    if not any(a.negated):  # most answers deny nothing
        return a.negated
    return [n and key == written for n, key, written in zip(a.negated, a.text_keys, a.keys)]

#: Words that count the things a phrase names ("on both sides", "of the two strings").
_COUNTING = frozenset({"one", "two", "both", "each", "all", "either", "every"})
#: Words that start a clause naming a place or a time within a thing's phrase ("the distance
#: to where she pushes").
_PLACE_CLAUSES = frozenset({"where", "when"})
_MOST_HOPS = 3  # phrases that go on naming a thing: "the area of the blade on the bread"


def noun_before(lowers: list[str], keys: list[str], start: int, i: int) -> int | None:
    """The thing a word of degree at token i is said of, without a noun after it: the last
    content word before it in its clause (not "much" in "much greater"), or, where that word
    ends a phrase that goes on naming a thing before it, after a preposition or a verb's -ing
    form ("the time for one swing", "the pressure on the snow", "the area of the blade on the
    bread", "the area touching the bread"), the word that phrase names; after a possessive,
    the owner ("the drum's skin is bigger": the drum), unless the word after it names a
    quantity of its own (`degrees.QUANTITY_NOUNS`: "the adult's moment is bigger")."""
    noun = next((j for j in range(i - 1, start - 1, -1)
                 if is_content(keys[j]) and keys[j] not in MORE_LESS and keys[j] not in INTENSIFIERS
                 and lowers[j] not in NAMING_ON), None)
    for _ in range(_MOST_HOPS):
        head = None if noun is None else _named_on_from(lowers, keys, start, noun)
        if head is None:
            break
        noun = head
    if noun is not None and noun - 1 == start and lowers[start] in _PERSONS and start >= 2 \
            and lowers[start - 1] in _PLACE_CLAUSES and lowers[start - 2] in NAMING_ON:
        # "the distance from the bolt to | where she pushes | is bigger": the verb of a clause
        # that names a place within the thing is none; the thing is before it
        return noun_before(lowers, keys, clause_start(lowers, start - 2), start - 2)
    return noun


def _named_on_from(lowers: list[str], keys: list[str], start: int, noun: int) -> int | None:
    """Where the word at `noun` ends a phrase after a preposition or an -ing form that goes on
    naming the thing before it ("the pressure | on the snow", "the area | touching the
    bread"), that thing's place; else None."""
    for j in range(noun - 1, max(start, noun - 3) - 1, -1):
        # "the adult's moment is bigger" measures the moment, a quantity of its own; "the drum's
        # skin is bigger" the drum
        possessed = lowers[j] == "'s" and keys[noun] in QUANTITY_NOUNS
        linking = (lowers[j] in NAMING_ON and not possessed) or (lowers[j].endswith("ing") and keys[j] != lowers[j])
        if linking:
            return next((k for k in range(j - 1, start - 1, -1) if is_content(keys[k]) and lowers[k] not in NAMING_ON),
                        None)
        if is_content(keys[j]) and keys[j] not in _COUNTING and not keys[j].isdigit():  # "of the two strings"
            return None
    return None


def than_sides(keys: list[str]) -> list[int]:
    """For each token, how many "than" come before it: the two things a comparison
    compares are on its two sides."""
    out, side = [], 0
    for key in keys:
        side += key == "than"
        out.append(side)
    return out


#: Words that start a relative clause: before "is" or "are" it says something of the thing
#: before it ("the drag which is smaller than her weight": the drag is smaller).
_RELATIVE = frozenset({"which", "who"})


def clause_ids(keys: list[str], lowers: list[str] | None = None, kept: frozenset[str] = frozenset()) -> list[int]:
    """The clause each token is in: a new one after punctuation (not "=", which students write
    for "is": "needle = magnet") or a clause break, but not
    after the commas of a list of labels ("magnets A, B and C", "A, B, and C": "magnet C" is
    said) nor at a "which is" ("the drag which is smaller than her weight"); with the
    tokens' lower-case forms (`lowers`), also after an "and" between two statements
    (`statement_joins`). `kept`: clause breaks that start no new clause (a phrase's own
    "when" in "stays magnetic when off")."""
    joins = statement_joins(lowers, keys) if lowers is not None else frozenset()
    out, clause = [], 0
    for i, key in enumerate(keys):
        if (key in CLAUSE_BREAKS and key not in kept) or (not any(c.isalnum() for c in key) and key != "=") \
                or i in joins:
            if not (key == "," and 0 < i and is_label_key(keys[i - 1]) and _label_follows(keys, i + 1)) \
                    and not (key in _RELATIVE and i + 1 < len(keys) and keys[i + 1] == "be"):
                clause += 1
        out.append(clause)
    return out


def statement_joins(lowers: list[str], keys: list[str]) -> frozenset[int]:
    """The "and", "or", "but", "whereas" and "while" that join two statements: the words
    on each side, up to the next join or clause end, name a thing and say something of it
    (`clauses.states_something`): "like poles repel | and unlike poles attract", not
    "terminal 1 and the positive terminal are separated", "A is connected to B and C" nor
    "in a closed path with a battery and a switch"."""
    if JOINS.isdisjoint(lowers):
        return frozenset()
    bounds = [-1, *(j for j, w in enumerate(lowers) if w in ENDS or w in JOINS), len(lowers)]
    said = [states_something(lowers, keys, start + 1, end) for start, end in zip(bounds, bounds[1:])]
    return frozenset(bounds[k + 1] for k in range(len(said) - 1)
                     if lowers[bounds[k + 1]] in JOINS and said[k] and said[k + 1])


def _label_follows(keys: list[str], i: int) -> bool:
    """A label at i, or "and"/"or" and a label ("A, B, and C")."""
    if i < len(keys) and keys[i] in ("and", "or"):
        i += 1
    return i < len(keys) and is_label_key(keys[i])
