"""The words an answer is compared on: mended lemmas, content words and diagram labels.

Every token gets a *key*: its lemma, lower case, with misspellings mended (`spelling`).
Single letters that name something in a diagram ("bulb A", "A and C", "switch y") get
the upper-case letter as key, so that they never match the article "a". The extractor
stores the key in `token.norm_`, which is what the phrase matchers compare.

A *content* word is one that carries meaning for marking: not a stop word, but spaCy's
stop list is cut back to keep words that decide physics answers ("same", "between", "enough",
"both", "off", "one", "other", "down", ...). Negation cues are not content words: they
decide the polarity of the content words instead (`negation`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from spacy.attrs import IS_PUNCT, IS_SPACE, LEMMA, LOWER, NORM
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from .antonyms import ANTONYMS, DEGREES
from .negation import CLAUSE_BREAKS, CUES, PAIRED_CUES
from .spelling import Speller
from .word_slips import then_is_than, too_misspelt

MEANINGFUL = frozenset({
    "same", "different", "other", "another", "between", "both", "each", "only", "off", "on",
    "up", "down", "out", "through", "together", "whole", "empty", "full", "first", "last",
    "against", "all", "every", "more", "less", "least", "most", "few", "above", "below",
    "before", "after", "over", "under", "part", "side", "back", "front", "top", "bottom",
    "move", "within", "across", "along", "around", "behind", "beyond", "towards", "toward",
    "into", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "twelve", "twenty", "fifteen", "fifty", "forty", "sixty", "hundred", "still", "again",
    "separate", "either", "whether", "no", "never", "per", "than", "increase", "enough", "much",
    "many", "amount",
})
#: Of those, the words that only join others ("more than", "per second", "either way") and
#: say nothing on their own: "correct if mentions 'than'" gives a teacher no reason for a mark
#: (`FeatureExtractor.question_restatements`). Words such as "still", "other" and "both" say
#: something ("the other bulbs are still lit").
SAY_NOTHING_ALONE = frozenset({"than", "per", "whether", "either"}) | {
    # prepositions that say where only with the thing after them ("the force on the lid"):
    # "correct if mentions 'on'" is no reason; "up", "off", "through" and "between" say
    # something alone ("the bulb is off", "it goes through")
    "on", "into", "onto", "across", "along", "within", "around", "towards", "toward", "against", "over",
    "under", "behind",
    # words of talk, not of physics, that spaCy's stop words leave out: "correct if mentions
    # 'like'" ("sound needs air just like light does") gives a teacher no reason either
    "like", "basically", "actually", "literally", "probably", "maybe", "thing", "stuff", "lot", "kind",
    "sort", "cos", "coz", "cuz", "bc", "bcoz", "bcos", "ok", "okay", "yeah", "um", "etc"}
#: The key of a word whose meaning the word before it carries: "longer" in "no longer" (the
#: negation is the "no"), "up" in "goes up" (the "more" is the "goes"); no content of its own.
CARRIED = "anymore"
STOP = frozenset(w for w in STOP_WORDS if w not in MEANINGFUL) | {"'s", "be", "do", "have", "get", CARRIED}

#: Words before a letter that make it a label whatever the topic: lists and pairs ("A and
#: C", "between A and B", "points X and Y"). The nouns that name the parts of one question's
#: diagram ("bulb", "magnet", "pulley") come from its own texts (`label_words`), never from
#: a list here: nothing in the reading may know the topic.
_LABEL_BEFORE = frozenset({"and", "or", "nor", ",", "&", "both", "neither", "either", "between",
                           "point", "points"})
#: Words that follow a label and never the article "a": verbs, prepositions, conjunctions,
#: punctuation ("magnet a repels", "bulb a in the circuit", "lever a has").
_LABEL_AFTER = frozenset({"and", "or", "nor", ",", ".", "&", "is", "are", "was", "were",
                          "will", "would", "and/or", ")", ";", "!", "?", ":", "in", "on", "to",
                          "with", "from", "at", "into", "onto", "by", "has", "have", "had",
                          "does", "did", "do", "can", "could", "should", "must", "may", "might",
                          "shall", "than", "because", "so", "but", "then", "also", "still",
                          "doesn't", "isn't", "aren't", "wasn't", "won't", "cannot"})
#: Words that follow the article "a" after a noun ("move the magnet a little", "a bit"):
#: there, a letter after a question's label noun stays the article.
_ARTICLE_BEFORE = frozenset({"little", "bit", "lot", "few", "great", "good", "long", "while",
                             "couple", "kind", "sort", "number", "way", "small", "large",
                             "short", "second", "third", "half", "quarter", "very", "more", "less"})
_NAME_CHARS = re.compile(r"[^a-z0-9_]+")
_READ_ATTRS = [LOWER, LEMMA, NORM, IS_PUNCT, IS_SPACE]


def _inflected(tok) -> bool:
    """A plural or a verb's -s form ("repels", "bulbs"), which the article "a" never
    precedes: the letter before it is a label."""
    lower = tok.lower_
    return (len(lower) > 3 and lower.isalpha() and lower.endswith("s")
            and not lower.endswith(("ss", "us", "is", "ics")) and tok.lemma_.lower() != lower)


def _is_letter(doc: Doc, i: int) -> bool:
    """Is token i a single letter other than "a" and "i" (the letter of a list of labels)?"""
    return i >= 0 and len(doc[i].text) == 1 and doc[i].is_alpha and doc[i].lower_ not in "ai"


def is_label(doc: Doc, i: int, nouns: frozenset[str] = frozenset()) -> bool:
    """Is token i a single letter naming a part of a diagram (bulb A, switch Y, magnet a)?
    `nouns`: the words that name such parts in the question's own texts (`label_words`)."""
    tok = doc[i]
    text = tok.text
    if len(text) != 1 or not text.isalpha() or text in "iI":
        return False
    prev = doc[i - 1].lower_ if i > 0 else ""
    nxt = doc[i + 1].lower_ if i + 1 < len(doc) else ""
    if nxt in _LABEL_AFTER or (nxt == "" and prev not in ("a", "the")):
        return True
    if prev in _LABEL_BEFORE:  # "A and C", "between A and B"; but "and a bulb" is the article,
        # unless a letter comes before: "bulbs c and a lit up"
        return text != "a" or not doc[i + 1].is_alpha or _is_letter(doc, i - 2)
    if prev in nouns and nxt not in _ARTICLE_BEFORE:
        return True
    if text == "A":  # capital A: a label unless it starts a sentence before a noun
        return (not tok.is_sent_start and i > 0) or (i + 1 < len(doc) and _inflected(doc[i + 1]))
    if text.isupper():
        return True
    return i > 0 and i + 1 < len(doc) and doc[i - 1].is_alpha and _inflected(doc[i + 1])


def label_words(docs: Sequence[Doc]) -> frozenset[str]:
    """The words a question's texts (its question, reference answers and phrases) put before
    a letter that is a label there ("Magnet A", "the magnets A and B", a phrase "pulley b"),
    with their lemma and plural: in the answers, a lower-case letter after them is a label
    too ("magnet a repels", "pulley b")."""
    words: set[str] = set()
    for doc in docs:
        for i in range(1, len(doc)):
            prev = doc[i - 1]
            if (len(prev.text) > 1 and prev.is_alpha and prev.lower_ not in STOP
                    and prev.lower_ not in _LABEL_BEFORE and is_label(doc, i)):
                lemma = prev.lemma_.lower() or prev.lower_
                plural = lemma + ("es" if lemma.endswith(("s", "x", "z", "ch", "sh")) else "s")
                words.update((prev.lower_, lemma, plural))
    return frozenset(words)


def is_label_key(key: str) -> bool:
    """Is the key a diagram label's ("A" for "bulb a"): the one upper-case letter `read_tokens`
    gives a label?"""
    return len(key) == 1 and key.isupper()


def token_keys(doc: Doc, speller: Speller) -> list[str]:
    """The key of every token (mended lemma, or upper-case letter for a label), read in
    context as an answer's are (`reword_in_context`): a teacher's phrase "no longer closed"
    has the keys of the answer "the path is no longer closed"."""
    keys = read_tokens(doc, speller)[0]
    reword_in_context(doc, keys)
    return keys


#: Words after "close to" that start what it is near ("close to the pivot", "close to it",
#: "close to zero"), where "close" is no verb ("close the switch to light the bulb").
_NEAR_WHAT = frozenset({"the", "a", "an", "it", "its", "them", "their", "each", "one", "this", "that",
                        "these", "those", "another", "his", "her", "our", "your", "my", "0", "zero"})


#: The ways of saying "back and forth" (its two words on either side of "and").
_BACKWARDS = ("back", "backward", "backwards")
_FORWARDS = ("forth", "forward", "forwards")
_BACK_AND_FORTH = frozenset({("to", "fro")} | {(b, f) for b in _BACKWARDS for f in _FORWARDS}
                            | {(f, b) for b in _BACKWARDS for f in _FORWARDS})
#: Pairs of words of direction joined by "and" that say one movement ("back and forth", "up
#: and down", "in and out"): the "and" joins no two statements.
PAIRED_DIRECTIONS = frozenset({("back", "forth"), ("up", "down"), ("down", "up"), ("in", "out"), ("out", "in")})
#: "a long way from": far; "a short way from": near (their -er forms: further, nearer).
_WAY_FROM = {"long": "far", "short": "near", "longer": "far", "shorter": "near"}
#: "goes up" / "goes down": more / less (`spelling.SYNONYM_KEYS`).
_GO_WHERE = {"up": "more", "down": "less"}
#: After "goes down", words that say where to: it moves ("your weight goes down into the
#: snow", "the ball goes up into the air"), nothing decreases.
_INTO_A_PLACE = frozenset({"into", "onto", "through", "towards", "toward", "inside", "under", "below",
                           "underneath", "beneath"})
#: Words that say the opposite of the word with an opposite after them: "a poor conductor"
#: is an insulator.
_POOR = frozenset({"poor", "bad"})
#: Verbs that deny what their object would do: "stops the sound from spreading", "prevents
#: the current from flowing", "keeps the heat from escaping"; and "stop" before a verb
#: ("the bell stops ringing" says it no longer rings).
_PREVENTING = frozenset({"stop", "prevent", "keep", "block"})
#: How far "from" may follow a preventing verb ("stops the sound waves from ...").
_MOST_FROM = 5


#: "like poles" / "unlike poles": the same / different poles.
_LIKE_MEANS = {"like": "same", "unlike": "different"}
#: Words after which "like" can start a noun phrase ("because like poles repel", "two like
#: charges"); after a verb it is the verb or a preposition ("it acts like magnets do").
_LIKE_AFTER = frozenset({"the", "two", "both", "all", "any", "and", "or", "but", "so", "because",
                         "as", "since", "if", "when", "while", "where", "with", "between", "of",
                         "have", "has", "had", "their", "there", "its", "these", "those", "our"})


def _before_plural_subject(doc: Doc, i: int) -> bool:
    """Is doc[i] ("like") at the start of a noun phrase of a plural noun ("like poles repel",
    a teacher's phrase "like poles"; not "like magnets, iron ...")?"""
    noun = doc[i + 1]
    if not (noun.is_alpha and noun.lower_.endswith("s") and noun.lemma_.lower() != noun.lower_):
        return False
    if i + 2 < len(doc) and doc[i + 2].lower_ in (",", ";", ":"):
        return False
    return i == 0 or doc[i - 1].is_punct or doc[i - 1].lower_ in _LIKE_AFTER


def _to_and_fro(doc: Doc, i: int) -> bool:
    """Is the word of direction at i the first of a pair that says one movement ("goes up and
    down": it moves, nothing increases)?"""
    return (i + 2 < len(doc) and doc[i + 1].lower_ == "and"
            and (doc[i].lower_, doc[i + 2].lower_) in PAIRED_DIRECTIONS)


def reword_in_context(doc: Doc, keys: list[str]) -> None:
    """Keys that the words around a token decide, in place:
    - "no longer" and "any longer" say "not now", not "long": the key of "longer" there is
      "anymore" (no content word of its own: "it is no longer a solid" says nothing of
      length; the negation is the "no" before it);
    - "close to the pivot", "close together" and "close by" say "near" (whose opposite is
      "far"), not the verb "close" (whose opposite is "open");
    - "a long way from the pivot" and "a long distance away" say "far", "a short way from" "near"
      ("a longer way from" further, "a shorter way" nearer);
    - "harder" after what a thing does says with more force ("push harder", "it hits the air
      harder": "strong"), not "difficult" ("it is harder to turn", "makes it harder");
    - "to and fro", "backwards and forwards" and "forwards and back" say "back and forth", and
      "goes" before a pair of directions ("goes in and out", "goes up and down") "moves";
    - "goes up" and "went down" say "more" and "less", as "increases" and "decreases" do: "the
      pitch goes up" says a teacher's "higher pitch";
    - "like" and "unlike" before a plural noun that starts a sentence's subject ("like poles
      repel", "between unlike charges") say "same" and "different", not the verb or
      preposition "like" ("it acts like magnets do", "like magnets, iron ...");
    - "instead of", "rather than" and "fails to" deny what follows, as "not" does ("it repels
      instead of attracting", "the bulb fails to light"; `negation.PAIRED_CUES`), in answers
      and in a teacher's phrases alike;
    - "speeds up" says "faster";
    - "stops X from V-ing" (also "prevents", "keeps", "blocks") denies V as "not" does, and
      "stops V-ing" too ("the bell stops ringing"); "keeps V-ing" says V;
    - "less" before a word of degree says its opposite ("less bright" is "less dim", "less
      big" is "less less"; `antonyms.DEGREES`), and "poor" or "bad" before a word with an
      opposite says the opposite ("a poor conductor" is a poor insulator), see `flips_next`;
    - "to" before an adjective said of the subject is "too" ("the magnet is to weak to pull
      it", "its to thin"), and "then" after a comparison is "than" ("sound is faster then
      light", "quicker in solids then air"), as students often write them (`word_slips`)."""
    if "long" in keys:
        for i in range(1, len(keys)):
            if keys[i] == "long" and doc[i].lower_ == "longer" and doc[i - 1].lower_ in ("no", "any"):
                keys[i] = CARRIED
    if "long" in keys or "short" in keys:
        for i in range(len(keys) - 2):
            if doc[i].lower_ in _WAY_FROM and doc[i + 1].lower_ in ("way", "distance") \
                    and doc[i + 2].lower_ in ("from", "away", "off"):
                keys[i], keys[i + 1] = _WAY_FROM[doc[i].lower_], CARRIED
    if "hard" in keys:
        for i in range(1, len(keys)):
            if keys[i] == "hard" and _hard_is_force(doc, i):
                keys[i] = "strong"
    if "and" in keys:
        for i in range(len(keys) - 2):
            if keys[i + 1] == "and" and (doc[i].lower_, doc[i + 2].lower_) in _BACK_AND_FORTH:
                keys[i], keys[i + 2] = "back", "forth"
    if "go" in keys:
        for i in range(len(keys) - 1):
            if keys[i] == "go" and (_to_and_fro(doc, i + 1) or keys[i + 1:i + 4:2] == ["back", "forth"]):
                keys[i] = "move"  # "it goes in and out", "goes backwards and forwards": it moves
            elif keys[i] == "go" and doc[i + 1].lower_ in _GO_WHERE and not (
                    i + 2 < len(keys) and doc[i + 2].lower_ in _INTO_A_PLACE):
                keys[i], keys[i + 1] = _GO_WHERE[doc[i + 1].lower_], CARRIED
    if "speed" in keys:
        for i in range(len(keys) - 1):
            if keys[i] == "speed" and doc[i + 1].lower_ == "up":
                keys[i], keys[i + 1] = "fast", CARRIED
    if not _PREVENTING.isdisjoint(keys):
        _deny_prevented(doc, keys)
    if not PAIRED_CUES.keys().isdisjoint(keys):
        for i in range(len(keys) - 1):
            if keys[i] in PAIRED_CUES and doc[i + 1].lower_ == PAIRED_CUES[keys[i]]:
                keys[i] = "not"
    if "like" in keys or "unlike" in keys:
        for i in range(len(keys) - 1):
            if doc[i].lower_ in _LIKE_MEANS and _before_plural_subject(doc, i):
                keys[i] = _LIKE_MEANS[doc[i].lower_]
    if "close" in keys:
        for i in range(len(keys)):
            if keys[i] == "close" and doc[i].lower_ == "close" and (
                    (i + 1 < len(keys) and _says_near(doc, keys, i + 1)) or _said_of_a_thing(doc, i)):
                keys[i] = "near"
    if "closely" in keys:
        for i in range(len(keys)):
            if keys[i] == "closely" and any(0 <= j < len(keys) and doc[j].lower_ in _PACKED for j in (i - 1, i + 1)):
                keys[i] = "near"
    if "less" in keys or not _POOR.isdisjoint(keys):
        for i in range(len(keys) - 1):
            if flips_next(doc[i].lower_, keys[i + 1]):
                keys[i + 1] = ANTONYMS[keys[i + 1]]
    if "to" in keys:
        for i in range(1, len(keys) - 1):
            if keys[i] == "to" and too_misspelt(doc, i):
                keys[i] = "too"
    if "then" in keys:
        for i in range(1, len(keys)):
            if keys[i] == "then" and then_is_than(doc, i):
                keys[i] = "than"


def flips_next(before: str, key: str) -> bool:
    """Does the word `before` (lower case) make the word after it (its key) say its opposite:
    "less" before a word of degree, "poor" or "bad" before any word with an opposite? The
    test is the same on the key before and after the swap, so a description can show the
    words as written ("less bright") for the key read ("dim")."""
    return key in ANTONYMS and (before == "less" and key in DEGREES or before in _POOR)


#: Words around "closely" that make it say "near" ("closely packed", "spaced closely").
_PACKED = frozenset({"packed", "together", "spaced", "arranged", "bunched", "grouped"})
#: Forms of "be", and the words of degree or negation between one and an adjective ("is really
#: close", "is not close").
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s", "'re"})
_DEGREE_WORDS = frozenset({"very", "really", "so", "quite", "too", "much", "more", "that", "not", "n't"})
#: Words that end what "close" is said of ("the magnet is close, so ...", "it was close and").
_AFTER_SAID = frozenset({",", ".", ";", "!", "?", "so", "and", "because", "but", "then", "which", "enough"})


#: Words before a "hard" that says "difficult" ("it's harder", "gets harder", "makes it
#: harder", "much harder"), with `_BE` and `_DEGREE_WORDS`.
_DIFFICULT_AFTER = frozenset({"its", "it's", "get", "gets", "getting", "got", "feel", "feels", "seem",
                              "seems", "become", "becomes", "make", "makes", "made", "find", "finds",
                              "even", "lot", "bit", "far", "way", "no", "a", "the", "and", "or", "so"})


def _hard_is_force(doc: Doc, i: int) -> bool:
    """Does the "hard" or "harder" at token i say how strongly something is done ("you push
    harder", "it hits the air harder", "the cone vibrates harder"), after what a thing does,
    rather than "difficult" ("it is harder to turn", "makes it harder") or what a thing is
    like ("a hard surface")?"""
    if doc[i].lower_ not in ("hard", "harder", "hardest"):
        return False
    after = doc[i + 1] if i + 1 < len(doc) else None
    if after is not None and (after.lower_ == "to" or (after.is_alpha and after.lower_ not in STOP_WORDS)):
        return False  # "harder to turn", "a hard surface"
    before = doc[i - 1].lower_
    if before in _BE or before in _DEGREE_WORDS or before in _DIFFICULT_AFTER or not doc[i - 1].is_alpha:
        return False
    return not (before in ("it", "them", "this", "that") and i > 1 and doc[i - 2].lower_ in _DIFFICULT_AFTER)


def _said_of_a_thing(doc: Doc, i: int) -> bool:
    """Is the "close" at token i an adjective said of the clause's thing ("the bar magnet is
    close, so its field ...", "the particles are really close"), not the verb ("close the
    switch") nor "closed" misspelt before a noun ("a close path")?"""
    j = i - 1
    while j >= 0 and doc[j].lower_ in _DEGREE_WORDS:
        j -= 1
    if j < 0 or doc[j].lower_ not in _BE:
        return False
    return i + 1 >= len(doc) or doc[i + 1].lower_ in _AFTER_SAID


def _deny_prevented(doc: Doc, keys: list[str]) -> None:
    """The "from" of "stops the sound from spreading" and the "stops" of "stops ringing" get
    the key "not", in place (`reword_in_context`)."""
    n = len(keys)
    for i in range(n - 1):
        if keys[i] not in _PREVENTING:
            continue
        if keys[i] == "stop" and _verb_in_ing(doc[i + 1]):
            keys[i] = "not"
            continue
        for j in range(i + 1, min(n - 1, i + 1 + _MOST_FROM)):
            if keys[j] in CLAUSE_BREAKS or not doc[j].is_alpha:
                break
            if doc[j].lower_ == "from" and _verb_in_ing(doc[j + 1]):
                keys[j] = "not"
                break


def _verb_in_ing(token) -> bool:
    lower = token.lower_
    return lower.endswith("ing") and token.is_alpha and token.lemma_ != lower and len(lower) > 4


def _says_near(doc: Doc, keys: list[str], i: int) -> bool:
    after = doc[i].lower_
    if after in ("together", "by"):
        return True
    if after != "to" or i + 1 >= len(keys):
        return False
    what = keys[i + 1]
    return doc[i + 1].lower_ in _NEAR_WHAT or what.isdigit() or is_label_key(what)


def read_tokens(doc: Doc, speller: Speller) -> tuple[list[str], list[str], int]:
    """One pass over the doc: (keys, the tokens' current norms, number of words).

    Python-level token access is the extractor's main cost, so everything per token is
    read here at once."""
    keys: list[str] = []
    norms: list[str] = []
    words = 0
    norm = speller.norm
    strings = doc.vocab.strings
    # The token attributes as one array (no Python Token object per token).
    for i, (lower_id, lemma_id, norm_id, punct, space) in enumerate(
            doc.to_array(_READ_ATTRS).tolist()):
        lower = strings[lower_id]
        if len(lower) == 1 and lower.isalpha() and is_label(doc, i, speller.label_words):
            keys.append(lower.upper())
        else:
            keys.append(norm(lower, strings[lemma_id]))
        norms.append(strings[norm_id])
        if not (punct or space):
            words += 1
    return keys, norms, words


_MAX_CACHED_PAIRS = 200_000  # (lower-case form, lemma) ids whose key a speller remembers


def read_tokens_batch(docs: Sequence[Doc], speller: Speller
                      ) -> list[tuple[list[str], list[str], int]]:
    """`read_tokens` of each doc, for a batch of docs at once: the token attributes of the
    whole batch in one array, a key worked out once per distinct lower-case form (and
    lemma) of the batch and spread back with numpy, so that the per-token Python work is
    the labels' context alone (single letters). The same lists as `read_tokens`."""
    arrays = [doc.to_array(_READ_ATTRS) for doc in docs]
    lengths = np.fromiter(map(len, arrays), dtype=np.int64, count=len(arrays))
    if not lengths.any():
        return [([], [], 0) for _ in docs]
    table = np.concatenate(arrays)
    lower_u, first, inverse = np.unique(table[:, 0], return_index=True, return_inverse=True)
    lemma_u = table[first, 1]
    if not (table[:, 1] == lemma_u[inverse]).all():  # a lemma not the lower-case form's alone
        return [read_tokens(doc, speller) for doc in docs]
    strings = docs[0].vocab.strings
    cache: dict[tuple[int, int], tuple[str, bool]] = speller.__dict__.setdefault("_key_of_ids", {})
    keys_u, letters_u = [], []
    for pair in zip(lower_u.tolist(), lemma_u.tolist()):
        hit = cache.get(pair)
        if hit is None:
            lower = strings[pair[0]]
            hit = (speller.norm(lower, strings[pair[1]]), len(lower) == 1 and lower.isalpha())
            if len(cache) < _MAX_CACHED_PAIRS:
                cache[pair] = hit
        keys_u.append(hit[0])
        letters_u.append(hit[1])
    keys = np.asarray(keys_u, dtype=object)[inverse]
    ends = np.cumsum(lengths)
    starts = ends - lengths
    letters = np.flatnonzero(np.asarray(letters_u, dtype=bool)[inverse])
    for at, d in zip(letters.tolist(), np.searchsorted(ends, letters, side="right").tolist()):
        if is_label(docs[d], at - int(starts[d]), speller.label_words):
            keys[at] = strings[int(table[at, 0])].upper()
    norm_u, norm_inverse = np.unique(table[:, 2], return_inverse=True)
    norms = np.asarray([strings[n] for n in norm_u.tolist()], dtype=object)[norm_inverse]
    counted = np.concatenate([[0], np.cumsum((table[:, 3] == 0) & (table[:, 4] == 0))])
    words = (counted[ends] - counted[starts]).tolist()
    key_list, norm_list = keys.tolist(), norms.tolist()
    return [(key_list[s:e], norm_list[s:e], n)
            for s, e, n in zip(starts.tolist(), ends.tolist(), words)]


@lru_cache(maxsize=200_000)  # called for every token of every answer; keys repeat
def is_content(key: str) -> bool:
    """Does the key carry meaning for marking (not a stop word, cue or punctuation)?"""
    if key in STOP or key in CUES:
        return False
    if len(key) == 1:
        return key.isupper() or key.isdigit()
    return any(c.isalnum() for c in key)


def set_keys(doc: Doc, keys: list[str], current: list[str] | None = None) -> None:
    """Store the keys in `token.norm_`, the attribute the phrase matchers compare.

    `current`: the norms the tokens have now (updated here), to touch only those that
    change."""
    if current is None:
        current = [t.norm_ for t in doc]
    for i, key in enumerate(keys):
        if current[i] != key:
            doc[i].norm_ = key
            current[i] = key


def feature_suffix(keys: tuple[str, ...]) -> str:
    """A valid feature name part for a phrase: `("positive", "terminal")` -> positive_terminal."""
    name = _NAME_CHARS.sub("_", "_".join(keys).lower()).strip("_")
    name = re.sub(r"_+", "_", name) or "x"
    return name if name[0].isalpha() else f"n{name}"


def phrase_text(keys: tuple[str, ...]) -> str:
    """A phrase's keys as readable text for descriptions."""
    return " ".join(keys)
