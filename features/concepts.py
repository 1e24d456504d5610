"""Finding phrases in answers and deciding whether each is present, negated or absent.

One spaCy `PhraseMatcher` on `NORM` (where the extractor stores each token's mended
lemma, see `lexicon`) finds the phrases of every feature at once: rubric concepts and
misconceptions, reference words (`ref:*`) and learned terms (`term:*`). Phrases are
lemmatized like the answers, so "connects", "connected" and "connecting" all match
"connect", and "seperated" matches "separated" once mended.

A feature with several occurrences: **present wins**. It is *present* if at least one
occurrence lies outside every negation scope, *negated* if it occurs only inside
negation scopes, *absent* otherwise. ("Terminal 2 is connected to the negative terminal
and not to the positive one": connected is present.) A phrase that contains a negation
cue itself ("not connected" listed for a concept `disconnected`) is present when found.

Also here: the phrases that say a feature's negation (`opposite_phrases`) and the one-letter
symbols of a question that an answer may say alone (`question_symbols`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc

from knowledge.schema import Question

from .antonyms import DEGREES, antonym_phrases
from .degrees import MORE_LESS
from .lexicon import CARRIED, token_keys
from .loose import EXACT, MODALS, LooseMatcher, content_of, denied_before, has_cue, token_pattern
from .negation import CUES
from .phrase_measures import leaves_its_state, places_a_thing, said_less, said_of_its_word
from .question_names import named_places, splits_a_name
from .reading import as_less
from .spelling import Speller
from .text import normalize, normalize_characters

PRESENT, NEGATED, ABSENT = "present", "negated", "absent"
_AROUND = frozenset({".", ",", ";", ":", "!", "?", "(", ")", "[", "]", "\"", "'", "...", "!!", "??"})


_QUOTED = re.compile(r'"([^"\s]+)"')


def phrase_keys(nlp: Language, phrases: Sequence[str], speller: Speller | None = None,
                compared: set[str] | None = None, said_of: set[str] | None = None) -> list[tuple[str, ...]]:
    """The keys (lemmas, labels) of each phrase, as the matcher compares them. A word in
    double quotes inside a phrase ('"are" connected') is matched only as written (lower
    case): its key is EXACT + the word, so "is connected" is not "are connected".
    `compared`: where given, the keys of the phrases' words of comparison are added to it
    ("denser" -> "dense", "heavier" -> "heavy"; not "bigger", which is "more"): said with
    "less" in an answer ("less dense") they are said the other way (`FeatureMatcher`).
    `said_of`: where given, the keys of the words the phrases say of a thing are added to it:
    comparatives ("softer", "bigger") and words after "is" ("it is soft"; `question_names`)."""
    speller = speller or Speller({})
    out = []
    texts, quoted = [], []
    for phrase in map(normalize_characters, phrases):
        spans, plain, at = [], [], 0
        for m in _QUOTED.finditer(phrase):
            plain.append(phrase[at:m.start()])
            start = sum(map(len, plain))
            plain.append(m.group(1))
            spans.append((start, start + len(m.group(1))))
            at = m.end()
        plain.append(phrase[at:])
        texts.append("".join(plain))
        quoted.append(spans)
    for doc, spans in zip(nlp.pipe(texts), quoted):
        keys = token_keys(doc, speller)
        if compared is not None:
            compared.update(key for tok, key in zip(doc, keys)
                            if tok.lower_.endswith("er") and tok.lemma_.lower() != tok.lower_
                            and key not in MORE_LESS and key.isalpha())
        if said_of is not None:
            said_of.update(key for tok, key in zip(doc, keys)
                           if (tok.lower_.endswith("er") and tok.lemma_.lower() != tok.lower_)
                           or (tok.i and keys[tok.i - 1] == "be"))
        for tok in doc:
            if any(a <= tok.idx < b for a, b in spans):
                keys[tok.i] = EXACT + tok.lower_
        keys = _not_as_read_as_less(keys)
        # "non metal" denies "metal" as the answers' "non" does (`reading`): a phrase with a cue
        keys = ["not" if k == "non" and i + 1 < len(keys) and keys[i + 1].isalnum() else k
                for i, k in enumerate(keys)]
        # "goes up" is "more" (`lexicon.reword_in_context`); its "up" is no word to look for
        keys = [k for i, k in enumerate(keys)
                if k.strip() and not (k == CARRIED and i and keys[i - 1] in ("more", "less"))]
        if not MODALS.issuperset(keys):  # "must be closed" is found as "be closed" ("is closed")
            keys = [k for k in keys if k not in MODALS]
        if not all(map(_punctuation, keys)):  # a phrase "?" stays: it finds question marks
            while _punctuation(keys[-1]):  # "closed path." as "closed path"
                keys.pop()
            while _punctuation(keys[0]):  # "(closed path)"
                keys.pop(0)
        out.append(tuple(keys))
    return out


def rubric_phrase_keys(nlp: Language, phrases: Sequence[str], speller: Speller
                       ) -> tuple[list[tuple[str, ...]], frozenset[str], frozenset[str]]:
    """A concept's or wrong idea's phrases as the matcher finds them (`phrase_keys`, with
    their other forms), the keys of their words of comparison and the words they say of a
    thing (`FeatureMatcher`'s `comparatives` and `said_of`)."""
    compared: set[str] = set()
    said: set[str] = set()
    keyed = with_other_forms(phrase_keys(nlp, phrases, speller, compared, said), speller)
    return keyed, with_other_keys(frozenset(compared), speller), frozenset(said)


def with_other_keys(keys: frozenset[str], speller: Speller) -> frozenset[str]:
    """The keys and their other forms where the question uses them (`Speller.other_form`:
    "density" for "dense")."""
    return keys | {other for k in keys if (other := speller.other_form(k)) is not None}


def _not_as_read_as_less(keys: list[str]) -> list[str]:
    """A phrase's "not as dense (as)" and "not as much" as the answers read them
    (`reading.as_less`): "less dense", "less" (the negation used up), so that a teacher's
    "not as much force" finds "you don't need as much force". Words with an opposite stay
    ("not as fast" is found where "fast" is denied)."""
    if "not" not in keys or "as" not in keys:
        return keys
    cue = keys.index("not")
    at = next((i for i in range(cue + 1, len(keys)) if keys[i] == "as"), None)
    said = as_less(keys, at) if at is not None else None
    if said is None:
        return keys
    out = keys[:at] + (["less", CARRIED] + keys[at + 2:] if said == "much" else ["less"] + keys[at + 1:])
    return out[:cue] + out[cue + 1:]


def with_other_forms(keyed: list[tuple[str, ...]], speller: Speller) -> list[tuple[str, ...]]:
    """The phrases and, after them, each phrase with one word in its other form
    (`Speller.other_form`): a teacher's "vibrates faster" finds "the vibrations are faster",
    the reference's "light refracts" finds "the refraction of light". Added beside the words
    as they are, never in their place: on Beetle, reading "connection" as "connect" everywhere
    cost 5-way accuracy (docs/beetle.md, session 14). A word denied by its prefix is also
    found spelt out: "unbalanced forces" finds "the forces are not balanced"."""
    out = list(keyed)
    seen = set(out)
    for keys in keyed:
        for i, key in enumerate(keys):
            other = speller.other_form(key)
            base = speller.unprefixed(key)
            variants = ([keys[:i] + (other,) + keys[i + 1:]] if other is not None else []) + (
                [keys[:i] + ("not", base) + keys[i + 1:]] if base is not None else [])
            for variant in variants:
                if variant not in seen:
                    seen.add(variant)
                    out.append(variant)
    return out


#: Verbs after which "not" denies the word a phrase says: "is closed" / "is not closed".
_DENIED_AFTER = frozenset({"be", "have", "do"})


def denied_forms(keys: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A phrase with one word that counts after a form of "be", "have" or "do" ("is closed",
    "are connected") with "not" or "never" put before that word: "the switch is not closed"
    denies a teacher's "is closed". Phrases of more words are found with the negation
    between by `features.loose`; a one-word phrase by the answer's negation scopes."""
    words = content_of(keys)
    if len(words) != 1 or len(keys) < 2 or has_cue(keys):
        return []
    i = keys.index(words[0])
    if i == 0 or keys[i - 1] not in _DENIED_AFTER:
        return []
    return [keys[:i] + (cue,) + keys[i:] for cue in ("not", "never")]


def _with_denials(table: dict[str, Iterable[tuple[str, ...]]],
                  others: dict[str, Iterable[tuple[str, ...]]]) -> dict[str, list[tuple[str, ...]]]:
    """`table`'s phrases and, per column, the denied forms (`denied_forms`) of `others`'s
    phrases not quoted as written."""
    out = {column: list(keyed) for column, keyed in table.items()}
    for column, keyed in others.items():
        forms = [d for keys in keyed if not any(k.startswith(EXACT) for k in keys)
                 for d in denied_forms(keys)]
        if forms:
            out.setdefault(column, []).extend(forms)
    return out


def with_carried(keyed: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The phrases and, after them, each phrase whose "more" or "less" comes before a word
    with the placeholder of a word already read between: "as much" read "less" keeps its
    "much" (`reading._not_as_as`), so "less force" finds "you don't need as much force"."""
    out = list(keyed)
    for keys in keyed:
        at = [i for i in range(len(keys) - 1) if keys[i] in MORE_LESS and keys[i + 1] != CARRIED]
        for i in at:
            variant = keys[:i + 1] + (CARRIED,) + keys[i + 1:]
            if variant not in out:
                out.append(variant)
    return out


def _punctuation(key: str) -> bool:
    """Sentence punctuation around a phrase ("closed path.", "(closed path)"), not the signs
    of physics ("+ and -", "1.5 - 0", "%")."""
    return key in _AROUND


def phrase_doc(nlp: Language, keys: tuple[str, ...]) -> Doc:
    """A PhraseMatcher pattern on NORM: a doc whose tokens' norms are the keys."""
    pattern = Doc(nlp.vocab, words=list(keys))
    for tok, key in zip(pattern, keys):
        tok.norm_ = key
    return pattern


class FeatureMatcher:
    """All phrases of all features, matched in one pass over each doc."""

    def __init__(self, nlp: Language, phrases: dict[str, Iterable[tuple[str, ...]]],
                 opposites: dict[str, Iterable[tuple[str, ...]]] | None = None,
                 loose: Iterable[str] = (), comparatives: dict[str, frozenset[str]] | None = None,
                 names: frozenset[tuple[str, str]] = frozenset(),
                 said_of: dict[str, frozenset[str]] | None = None):
        """`phrases`: column -> the phrases that say it; `opposites`: column -> phrases
        that say its negation ("different" for "same"): found, they count as a negated
        occurrence, and negated ("not different"), as a plain one; `loose`: the columns
        whose phrases are also found in any word order with words between (`features.loose`);
        `comparatives`: column -> the keys of its phrases' words of comparison
        (`phrase_keys`), which an answer's "less" before them says the other way; `names`: the
        question's names with a word of degree (`question_names`), whose first word a phrase
        found without the second does not take where the phrase says that word of a thing
        (`said_of`: column -> those words, `phrase_keys`): "soft iron" says no "softer"."""
        self.nlp = nlp
        self.names = names
        self.said_of = {c: k for c, k in (said_of or {}).items() if k}
        self.comparatives = {c: k for c, k in (comparatives or {}).items() if k}
        self.matcher = PhraseMatcher(nlp.vocab, attr="NORM")
        self.token_matcher: Matcher | None = None  # phrases with words quoted as written
        self.columns = list(phrases)
        self._ids: dict[int, tuple[str, bool]] = {}
        self.loose = LooseMatcher({c: phrases[c] for c in loose if c in phrases}, self.comparatives, said_of)
        opposites = opposites or {}
        # A phrase's denied form ("is not closed" for "is closed") says its opposite, and back.
        said = _with_denials(phrases, opposites)
        denied = _with_denials(opposites, phrases)
        for flipped, table in ((False, said), (True, denied)):
            for column, keyed in table.items():
                keyed = with_carried([keys for keys in keyed if keys])
                match_key = f"{column}\x00opposite" if flipped else column
                plain = [self._pattern(keys) for keys in keyed
                         if not any(k.startswith(EXACT) for k in keys)]
                exact = [[token_pattern(k) for k in keys]
                         for keys in keyed if any(k.startswith(EXACT) for k in keys)]
                if plain:
                    self.matcher.add(match_key, plain)
                if exact:
                    self._add_tokens(match_key, exact)
                if plain or exact:
                    self._ids[nlp.vocab.strings[match_key]] = (column, flipped)

    def _add_tokens(self, key: str, patterns: list[list[dict]]) -> None:
        if self.token_matcher is None:
            self.token_matcher = Matcher(self.nlp.vocab)
        self.token_matcher.add(key, patterns)

    def _pattern(self, keys: tuple[str, ...]) -> Doc:
        return phrase_doc(self.nlp, keys)

    def states(self, doc: Doc, negated: list[bool], keys: list[str] | None = None,
               prefixed: frozenset[int] = frozenset()) -> dict[str, str]:
        """Column -> present/negated for the features found (absent ones are left out).
        `keys`: the tokens' norms, when the caller has them as a list (`lexicon.set_keys`);
        `prefixed`: the words denied by their own prefix (`reading.Analysis.prefixed`)."""
        found: dict[str, str] = {}
        ids = self._ids
        in_scope = any(negated)  # most answers negate nothing: no phrase of theirs is negated
        matches = self.matcher(doc)
        if self.token_matcher is not None:
            matches += self.token_matcher(doc)
        if keys is None:
            keys = [t.norm_ for t in doc]
        named = named_places(keys, self.names)
        has_out = "out" in keys
        denied_ends: dict[str, list[int]] = {}  # column -> where its negated matches end
        for match_id, start, end in sorted(matches, key=lambda m: m[1]):
            column, flipped = ids[match_id]
            if found.get(column) == PRESENT:
                continue
            if end - start > 1 and keys[end - 1] in MORE_LESS and _degree_of_next(doc, keys, end):
                continue  # "vibrates more slowly" says no "vibrates more"
            if end - start > 1 and keys[end - 2] == "be" and places_a_thing(keys, end - 1):
                continue  # "it is on the same path" says no "it is on"
            if named and column in self.said_of and splits_a_name(range(start, end), named, keys,
                                                                  self.said_of[column]):
                continue  # "soft iron" says no "softer"
            if has_out and column in self.loose.columns and leaves_its_state(keys, range(start, end)):
                continue  # "knocked out of line" says no "knocked out"
            if end - start == 2 and keys[end - 1] in DEGREES and column in self.loose.columns \
                    and not said_of_its_word(keys, start, end - 1):
                continue  # "it passes the vibrations quicker" says no "vibrates quicker"
            is_negated = column in self.comparatives and said_less(keys, range(start, end),
                                                                   self.comparatives[column])
            if in_scope and any(negated[start:end]):
                # A phrase that holds its own negation ("not connected", "no current") says
                # what it says: the cue inside it does not negate it ...
                is_negated = is_negated or CUES.isdisjoint(keys[start:end])
                # ... unless another negation covers the word before it: "it's not because
                # there is no gravity" denies "no gravity"
                is_negated = is_negated or denied_before(keys, negated, start)
            if is_negated == flipped and any(_continues(keys, e, start) for e in denied_ends.get(column, ())):
                is_negated = not is_negated  # "not separated by a gap" says no gap where both say it
            found[column] = NEGATED if is_negated != flipped else PRESENT
            if found[column] == NEGATED:
                denied_ends.setdefault(column, []).append(end)
        if self.loose.words:  # phrases in another order, with words between
            for column, state in self.loose.states(keys, negated, lambda: [t.lower_ for t in doc],
                                                   found, prefixed, named).items():
                if state == PRESENT or column not in found:
                    found[column] = state
        return found


#: Words by which a denied phrase goes on to the next phrase of its idea: "not separated by a
#: gap", "no longer connected with any wire".
_LINKING = frozenset({"by", "with", "a", "an", "the", "any"})


def _continues(keys: list[str], end: int, start: int) -> bool:
    """Does the phrase at `start` follow a denied phrase of the same idea ending at `end` with
    only linking words between (`_LINKING`)? Then the denial reaches it."""
    return end <= start and _LINKING.issuperset(keys[end:start])


def _degree_of_next(doc: Doc, keys: list[str], i: int) -> bool:
    """Does a "more" or "less" before token i measure it: a word of degree ("more slowly",
    "less quickly") or an adverb in -ly?"""
    return i < len(keys) and (keys[i] in DEGREES or (doc[i].is_alpha and doc[i].lower_.endswith("ly")))


def question_symbols(nlp: Language, question: Question) -> frozenset[str]:
    """Lower-case one-letter symbols the question or its reference answers use ("g", "v"):
    an answer that is only "g" says something, unlike a stray "x". Upper-case letters are
    content words already (labels: "bulb A"); stop words ("a", "i") are not symbols."""
    texts = [normalize(t) for t in (question.text, *question.reference_answers)]
    symbols = set()
    for doc in nlp.tokenizer.pipe(texts):
        for t in doc:
            before = doc[t.i - 1].text if t.i > 0 else ""
            after = doc[t.i + 1].text if t.i + 1 < len(doc) else ""
            in_unit = before in _UNIT_GLUE or after in _UNIT_GLUE  # the "m" and "s" of "m/s^2"
            if len(t.text) == 1 and t.text.isalpha() and t.text.islower() and not t.is_stop and not in_unit:
                symbols.add(t.lower_)
    return frozenset(symbols)


_UNIT_GLUE = frozenset("/^*·")


def opposite_phrases(phrases: dict[str, list[tuple[str, ...]]]
                     ) -> dict[str, list[tuple[str, ...]]]:
    """For each phrase with a word that has an antonym, the phrase with the antonym:
    saying "different path" (or "opposite path", the same key) is saying ref:same_path
    negated."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for column, keyed in phrases.items():
        for keys in keyed:
            if opposites := antonym_phrases(keys):
                out.setdefault(column, []).extend(opposites)
    return out
