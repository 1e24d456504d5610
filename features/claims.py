"""What a reference answer says of one thing in words that have opposites, found in answers
as said and as turned. "Like poles repel" is said by "same poles repel" and "unlike poles
attract", and turned by "like poles attract", "unlike poles repel" and "like poles do not
repel": the reference's words (or their opposites) are in all of them, and only how many of
them are turned tells them apart. Each word turned, or a denial of what is said, turns the
claim once; turned twice, it is said again.

`ref:<thing>_is_<what>` ("ref:pole_same_is_repel") is present where an answer says the claim
(turned an even number of times), negated where it turns it (an odd number), absent where no
clause of it names the thing with all its words (or their opposites) and says all that the
claim says (or its opposites).

A claim is a clause of a reference answer (`statements`: the first thing it names and the
content words after it) that names its thing in at most three words and says at most
three, at least one of them a word with an opposite that is no degree (`antonyms`: "same",
"attract", "open", "conductor"; degrees are read as comparisons and covariations), or
denied with "not" ("light does not need a medium": its denial is one turn; "tin is not
magnetic" is "tin is nonmagnetic"; a particle that ends the verb's phrase is denied with it:
"a slack rope does not pass the pulses on"; so is what follows a denied verb: "sound cannot
travel through a vacuum"; "not all metals are magnetic" denies "all metals are magnetic"). Read by
word order, on the fallback pipeline and a parsed one alike. Nothing here knows a topic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .antonyms import ANTONYMS, DEGREES
from .clauses import Words, asides
from .degrees import MORE_LESS, degree_at
from .lexicon import feature_suffix
from .negation import CUES
from .opposite_words import opposite_word
from .reading import Analysis
from .statements import NAME_NOTHING, answer_clauses, clauses_of, compares, formula, said_in

#: Words of what would be, were things otherwise ("if it were turned over, unlike poles
#: would face each other").
_SUPPOSED = frozenset({"would", "could", "might", "if", "were"})
#: Words of degree, read by comparisons and covariations, not as claims.
_DEGREE_KEYS = DEGREES | MORE_LESS | {"most", "least"}
#: Most words a claim's thing, and what it says, may have.
_MOST_WORDS = 3
#: Words whose opposite turns a claim: antonyms that are not two ends of a scale.
_OPPOSABLE = frozenset(k for k in ANTONYMS if k not in DEGREES)
#: Those that tell two kinds of a thing apart ("like poles", "an open path"); not a word
#: whose opposite is made with a prefix, which is part of a thing's name ("magnetic field").
_KINDS = frozenset(k for k in _OPPOSABLE if not (ANTONYMS[k].endswith(k) or k.endswith(ANTONYMS[k])))


@dataclass(frozen=True)
class Claim:
    """What a reference answer says of one thing, in words that have opposites."""

    name: str  # feature name part: pole_same_is_repel
    thing: tuple[str, ...]  # keys
    says: tuple[str, ...]  # keys
    text: str  # as written: "like poles repel"
    turned_text: str  # "like poles attract"
    denied: bool = False  # the reference denies what it says: "light does not need a medium"
    #: a noun that only names the kind of thing the claim's thing is ("material" in "iron is a
    #: magnetic material"): an answer may leave it out ("iron is magnetic")
    kind: str | None = None


def reference_claims(analyses: Sequence[Analysis]) -> list[Claim]:
    """The claims of the reference answers (read as answers are), each once."""
    out: dict[str, Claim] = {}
    for a in analyses:
        words = Words.of(a)
        lowers = words.lowers
        aside = asides(lowers)
        for c in clauses_of(lowers, a.text_keys):
            if not c.thing or not c.said or compares(lowers, a.text_keys, c) or formula(lowers, c):
                continue
            every = not_all(lowers, c)  # "not all metals are magnetic": a claim of every one, denied
            # the words as written there: the "not" is the claim's denial, taken by no opposite
            keys = a.keys if every else a.text_keys
            start = c.thing[0] - 1 if every else c.thing[0]
            span = [i for i in range(start, c.said[-1] + 1) if i not in aside]
            written = [lowers[i] for i in span]
            if _SUPPOSED.intersection(written):
                continue  # "unlike poles would face each other": what would be, not what is
            if _does_the_same(keys, span):
                continue  # "air molecules do the same": what another clause said, not "same"
            if any(keys[i] in _DEGREE_KEYS or degree_at(lowers, keys, i) for i in span):
                continue  # a word of degree: read by comparisons and covariations
            # "copper is not magnetic" says "copper is nonmagnetic": the denial taken by an opposite
            absorbed = any(a.keys[i] != keys[i] for i in span)
            if absorbed and CUES.isdisjoint(written):
                continue  # "no longer point in the same direction": the denial before the thing
            denial = True if every and _denied_once(lowers, c) else _denial(a, lowers, c)
            if denial is None:
                continue  # a denial of the thing, or of part of what is said
            thing = tuple(dict.fromkeys(_every_as_all(keys[i]) for i in c.thing))
            says = tuple(dict.fromkeys(keys[i] for i in c.said))
            if len(thing) > _MOST_WORDS or len(says) > _MOST_WORDS or set(thing) & set(says):
                continue
            if not (denial or set(thing) & _KINDS or set(says) & _OPPOSABLE) \
                    or not set(thing) - _OPPOSABLE - NAME_NOTHING:
                continue  # nothing to turn, or a thing named by no word of its own ("all", "the same")
            name = feature_suffix((*sorted(thing), "is", *(("not",) if denial else ()), *sorted(says)))
            turned = _undenied(written) if denial or absorbed else _turned(lowers, keys, c, span)
            out.setdefault(name, Claim(name, thing, says, " ".join(written), turned, denial,
                                       _kind_noun(keys, c, aside)))
    return list(out.values())


#: The denials a claim may hold, between its thing and what it says ("light does not need a
#: medium", "the bulb is not in a closed path"); "no" and "without" deny a thing, not a claim.
_DENIALS = frozenset({"not", "n't", "never", "cannot"})


def _does_the_same(keys: list[str], span: Sequence[int]) -> bool:
    """Does the clause say its thing "does the same" (as something said before it)?"""
    said = [keys[i] for i in span if keys[i] not in ("the", "a")]
    return any(k == "do" and said[n + 1:n + 2] == ["same"] for n, k in enumerate(said))


def _kind_noun(keys: list[str], clause, aside: frozenset[int]) -> str | None:
    """The noun of "X is a magnetic material" when it only names X's kind: the clause says
    what X is ("is", an article at most), with words that have opposites before a last noun
    that has none. "copper is a good conductor" has none (a conductor is what is said)."""
    between = [keys[i] for i in range(clause.thing[-1] + 1, clause.said[0]) if i not in aside]
    said = [keys[i] for i in clause.said]
    if "be" not in between or not set(between) <= {"be", "a", "an", "the", "not", "n't"} or len(said) < 2:
        return None
    if clause.said[-1] - clause.said[0] != len(said) - 1:
        return None  # words between what is said: "is magnetic so it is a material"
    *kinds, noun = said
    if noun in _OPPOSABLE or not all(k in _OPPOSABLE for k in kinds):
        return None
    return noun


def _denial(a: Analysis, lowers: list[str], clause) -> bool | None:
    """Does the clause deny what it says of its thing with one "not" before its verb (True;
    the words after the verb are outside the denial's scope but denied with it), deny nothing
    (False), or deny otherwise (None: its thing, or with "no")? A denial an opposite took is
    none ("not magnetic" reads "nonmagnetic")."""
    denied = a.text_negated
    # a particle that ends the verb's phrase is outside a denial's scope ("does not pass the
    # vibrations | on") but is denied with it
    said = [denied[i] for i in clause.said[:_without_particles(lowers, clause.said)]]
    if not any(said) and not any(denied[i] for i in clause.thing):
        return False
    between = lowers[clause.thing[-1] + 1:clause.said[0]]
    if not said[0] or any(denied[i] for i in clause.thing) or not _DENIALS.intersection(between):
        return None
    return True


#: Words that say a claim holds of every one of a kind: "not" before them denies the claim.
_EVERY = frozenset({"all", "every", "each"})


def _denied_once(lowers: list[str], clause) -> bool:
    """Is the "not" of "not all" the clause's only denial ("not all liquids mix with water",
    not "not all liquids do not mix")?"""
    return _DENIALS.isdisjoint(lowers[clause.thing[-1] + 1:clause.said[-1] + 1])


def _every_as_all(key: str) -> str:
    """"every metal" names what "all metals" does."""
    return "all" if key in _EVERY else key


def not_all(lowers: list[str], clause) -> bool:
    """Does the clause's thing start with "not all" or "not every" ("not all metals are
    magnetic")? It denies what the clause says of every one, not the thing itself."""
    first = clause.thing[0]
    return first > 0 and lowers[first] in _EVERY and lowers[first - 1] == "not"


#: Words that end a verb's phrase as a particle ("pass the vibrations on", "give the heat out").
_PARTICLES = frozenset({"on", "off", "out", "up", "down", "away", "back", "over", "along"})


def _without_particles(lowers: list[str], said: Sequence[int]) -> int:
    """How many words of what a clause says come before the particles that end it (at least
    one)."""
    n = len(said)
    while n > 1 and lowers[said[n - 1]] in _PARTICLES:
        n -= 1
    return n


def _undenied(written: list[str]) -> str:
    """A denied claim said: "light does not need a medium" -> "light needs a medium", "the needles
    no longer point the same way" -> "the needles point the same way"."""
    out: list[str] = []
    verb_s = False
    for k, w in enumerate(written):
        if w == "no" and written[k + 1:k + 2] == ["longer"] or w == "longer" and written[k - 1:k] == ["no"]:
            continue  # "no longer point the same way" -> "point the same way"
        if w in ("not", "n't", "never"):
            if out and out[-1] in ("do", "does", "did"):
                verb_s = out.pop() == "does"
            continue
        if w == "cannot":
            w = "can"
        elif verb_s:
            w, verb_s = w + ("es" if w.endswith(("s", "sh", "ch", "x", "o")) else "s"), False
        out.append(w)
    return " ".join(out)


def _turned(lowers: list[str], keys: list[str], clause, span: list[int]) -> str:
    """The claim's text (the words at `span`) with its first word that has an opposite turned
    ("like poles attract" for "like poles repel")."""
    at = next(i for i in (*clause.said, *clause.thing) if keys[i] in (_OPPOSABLE if i in clause.said else _KINDS))
    words = [lowers[i] for i in span]
    k = span.index(at)
    words[k] = opposite_word(lowers[at], keys[at])
    if k and words[k - 1] in ("a", "an"):  # "an open path" -> "a closed path"
        words[k - 1] = "an" if words[k][0] in "aeiou" else "a"
    return " ".join(words)


def claim_states(words: Words, claims: Sequence[Claim]) -> list[str]:
    """"present", "negated" or "absent" for each claim, in one answer."""
    states = ["absent"] * len(claims)
    if not claims:
        return states
    keys, negated = words.keys, words.left_denied
    clauses, borrowed = answer_clauses(words)
    for j, claim in enumerate(claims):
        for c in clauses:
            turns = _turns(claim.thing, [(_every_as_all(keys[i]), False) for i in c.thing])
            says = claim.says
            if claim.kind is not None and all(keys[i] != claim.kind for i in c.said):
                says = tuple(k for k in says if k != claim.kind)  # "iron is magnetic"
            found = said_in(words, c, borrowed, negated)
            if not_all(words.lowers, c):  # "not all metals are magnetic": the claim of every one
                found = [(k, False) for k, _ in found]  # denied once, not each word it reaches
                turns = None if turns is None else turns + 1
            said = _turns(says, found)
            if turns is None or said is None:
                continue
            if (turns + said + claim.denied) % 2 == 0:
                states[j] = "present"
                break
            states[j] = "negated"
    return states


def _turns(wanted: tuple[str, ...], found: list[tuple[str, bool]]) -> int | None:
    """How many times the words found turn the wanted ones (each word's opposite once, and a
    denial of them once, however many words it covers: "the light does not need a medium"
    denies "need a medium" once), or None when some wanted word is not among them either way."""
    turns, denied_once = 0, False
    for key in wanted:
        same = [denied for k, denied in found if k == key]
        other = [denied for k, denied in found if key in _OPPOSABLE and k == ANTONYMS[key]]
        if same:
            denied_once |= same[0]
        elif other:
            turns += 1
            denied_once |= other[0]
        else:
            return None
    return turns + denied_once
