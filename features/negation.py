"""Which tokens of an answer a negation applies to.

A concept is *negated* when one of its occurrences lies in the scope of a negation cue
("not connected", "isn't in a closed path", "there is no gap", "never touches",
"neither A nor B"). The scope is the negated predicate or noun phrase, not the whole
answer: in "terminal 2 is not connected to the positive terminal, so there is a gap"
only "connected" is negated, and "gap" is not.

Two strategies, the same contract (`negated_tokens(doc) -> list[bool]`):

- with a dependency parse (a trained pipeline): the head of the cue and the dependents
  that belong to the negated predicate (objects, complements, modifiers), not its subject,
  its subordinate clauses or the prepositional phrases after a lexical verb;
- without one (the blank fallback): a cue negates the tokens that follow it, up to the end
  of its clause (punctuation, "but", "because", "so", "which", "and"/"or" before a new
  subject and verb, ...) and up to a preposition that follows the first content word
  ("no gap | between ...", "not connected | to ...", "not separated | by a gap", but "not
  in the same path", "do not land at the same time"); "it's not because ..." denies the
  reason that follows; after the noun "no" denies, a preposition of place ends it too ("no
  friction | on the floor"). "neither ... (nor ...)" denies its subjects and their predicate too:
  "neither B nor C is in a closed path", "neither magnets are touching". A "not" that ends
  its clause after an auxiliary ("... but the pennies aren't", "B is not") leaves its
  predicate out: its subject is denied, as with "neither".
"""

from __future__ import annotations

import re

from spacy.attrs import LEMMA, LOWER
from spacy.strings import hash_string
from spacy.tokens import Doc, Token

#: Lemmas that negate what follows. The lemmatizer maps "n't", "nt" (isnt, dont) to "not";
#: "unable to pass through"; "a lack of air", "space lacks particles", "the absence of
#: friction", "devoid of air" (`LACKING`).
CUES = frozenset({"not", "no", "never", "neither", "nor", "without", "none", "nothing",
                  "nobody", "nowhere", "cannot", "nope", "unable", "lack", "absence", "devoid"})
#: Words that end a clause, and with it a negation scope.
CLAUSE_BREAKS = frozenset({"but", "because", "cause", "cuz", "so", "although", "though",
                           "however", "while", "whereas", "since", "therefore", "thus",
                           "hence", "then", "if", "when", "unless", "until", "which", "who",
                           "yet", "instead", "otherwise", "whereby", "where", "as long as"})
#: After "and"/"or", these start a new clause ("not connected and there is a gap").
NEW_SUBJECT = frozenset({"i", "you", "he", "she", "it", "we", "they", "there", "this", "that",
                         "these", "those", "its", "their", "his", "her", "my", "our"})
PREPOSITIONS = frozenset({"to", "from", "with", "between", "by", "than", "as", "for", "at",
                          "into", "onto", "across", "through", "via", "because"})
FUNCTION_LEMMAS = frozenset({"be", "do", "have", "the", "a", "an", "in", "on", "any", "there",
                             "it", "can", "will", "would", "should", "could", "must", "may",
                             "might", "that", "this", "same", "one", "of", "only", "even",
                             "ever", "really", "actually", "also", "just", "anything",
                             "able"})  # "not able to pass" denies "pass", as "cannot pass" does
#: After the noun a determiner cue denies, these start a phrase of place it does not deny
#: ("no friction | on the floor", "no gap | in the circuit"); after "not" they may belong
#: to the predicate denied ("not contained in a closed path").
PLACE_PREPOSITIONS = frozenset({"in", "on", "inside", "under", "over", "above", "below",
                                "behind", "near", "around", "along", "within", "outside"})
#: Pronouns that are only ever subjects: after the words a negation denies, one starts a new
#: clause, as students run sentences on without a full stop ("it" and "you" may be objects).
_SUBJECT_PRONOUNS = frozenset({"they", "he", "she", "we"})  # not "i": "not contained i a closed path"
#: After "not", words that make it no negation: "not only X but Y" and "not just X" say X.
_NOT_ONLY = frozenset({"only", "just", "merely", "simply"})
#: Auxiliaries before a negation of a lexical verb ("does not flow", "can't travel").
_LEXICAL_AUXILIARIES = frozenset({"do", "can", "ca", "could", "will", "wo", "would", "should", "shall",
                                  "must", "may", "might"})
#: Cues that name a lack: they deny their object ("a lack of air", "space lacks particles").
LACKING = frozenset({"lack", "absence", "devoid"})
NOUN_CUES = frozenset({"no", "none", "nothing", "nobody", "nowhere", "without"}) | LACKING
#: Cues that are the thing denied themselves: a place after them is not denied ("there is
#: nothing in space" says space); what follows otherwise is ("nothing moves", "nothing to vibrate").
PRONOUN_CUES = frozenset({"nothing", "nobody", "nowhere"})
#: A negated auxiliary as students misspell it, one token the tokenizer does not split:
#: "dosent", "doesent", "dosnt", "does'nt", "did'nt", "has'nt", "cannt", "wasent"; "arnt",
#: "wernt", "carnt", "havnt", "didint", "isint"; "shudnt", "cudnt", "wudnt" as texted.
MISSPELT_NEGATION = re.compile(r"(?:do|does|dose|dos|did|is|are|ar|was|were|wer|has|have|hav|had|could|cud|"
                               r"would|wud|should|shud|ca|can|car|wo|must|need)(?:[ei]?n'?t|'nt)")
MAX_SCOPE = 10  # tokens; beyond this a rule-based scope is a guess
#: Cues of two words, by their first: "it repels instead of attracting" denies attracting,
#: "it sinks rather than floats" floating ("instead" alone starts a clause, `CLAUSE_BREAKS`).
PAIRED_CUES = {"instead": "of", "rather": "than", "fail": "to"}  # by lemma: "the bulb fails to light"


#: Words after "it" that make it the subject of a clause of its own: a form of "be" or
#: "have", a modal, "all" ("the sound cant escape out of the tube | it all goes to the ears").
_FINITE = frozenset({"is", "was", "'s", "has", "had", "can", "could", "will", "would", "does", "did", "all",
                     "just", "then", "also", "still"})


def _finite_after(doc: Doc, i: int) -> bool:
    """Does the "it" at token i start a clause run on without a stop: is a finite verb or one
    of `_FINITE` next ("it goes", "it is", "it all ...")? After "let it", "make it" the verb
    has no ending ("doesnt let it spread"), so "it" stays the object."""
    if i + 1 >= len(doc):
        return False
    nxt = doc[i + 1].lower_
    return nxt in _FINITE or (nxt.endswith("s") and not nxt.endswith("ss") and doc[i + 1].lemma_ != nxt
                              and doc[i + 1].is_alpha)


def negation_scopes(doc: Doc, use_parse: bool | None = None,
                    keys: list[str] | None = None) -> list[list[int]]:
    """The token indices each negation cue of the doc applies to, cue by cue.

    `keys` (the tokens' lemmas, if already read) make the test for a cue cheap."""
    if use_parse is None:
        use_parse = doc.has_annotation("DEP")
    if keys is not None and CUES.isdisjoint(keys):  # "instead of" has the key "not" (`lexicon`)
        return []
    # The cues found from the token arrays (string ids), not a Python Token per token; and
    # where the keys are known, the tokens mended to a cue ("cannt", "dosent": `spelling`).
    ids = doc.to_array([LEMMA, LOWER]).tolist()
    cue = [lemma in _CUE_IDS or lower in _CUE_IDS for lemma, lower in ids]
    if keys is not None:
        cue = [c or k in CUES for c, k in zip(cue, keys)]
    for i, ((lemma, lower), (_, after)) in enumerate(zip(ids, ids[1:])):
        paired = _PAIRED_IDS.get(lemma) or _PAIRED_IDS.get(lower)
        if paired is not None and after == paired:
            cue[i] = True  # "instead of attracting", "rather than floats", "fails to light"
        elif cue[i] and after in _NOT_ONLY_IDS:
            cue[i] = False  # "not only does it vibrate (but ...)" says it vibrates
    if use_parse:
        return [sorted(i for i in set(_dependency_scope(doc, doc[c])) if not cue[i])
                for c, is_cue in enumerate(cue) if is_cue]
    return [sorted(i for i in set(_rule_scope(doc, doc[c], keys) or _elided_subject(doc, doc[c]))
                   if not cue[i])
            for c, is_cue in enumerate(cue) if is_cue]


def negated_tokens(doc: Doc, use_parse: bool | None = None) -> list[bool]:
    """One flag per token: is it inside the scope of a negation?"""
    flags = [False] * len(doc)
    for scope in negation_scopes(doc, use_parse):
        for i in scope:
            flags[i] = True
    return flags


_CUE_IDS = frozenset(hash_string(c) for c in CUES)
_PAIRED_IDS = {hash_string(first): hash_string(second) for first, second in PAIRED_CUES.items()}
_NOT_ONLY_IDS = frozenset(hash_string(w) for w in _NOT_ONLY)


def _is_cue(tok: Token) -> bool:
    return tok.lemma_ in CUES or tok.lower_ in CUES


def _rule_scope(doc: Doc, cue: Token, keys: list[str] | None = None) -> list[int]:
    """Tokens after the cue, up to the end of its clause (see the module docstring).
    `keys`: the tokens' mended lemmas, so that a misspelt "becuase" ends the clause too."""
    out: list[int] = []
    seen_content = False
    n = len(doc)
    no_longer = cue.i + 1 < n and doc[cue.i + 1].lower_ == "longer"  # "not now", a predicate's negation
    noun_cue = cue.lower_ in NOUN_CUES and not no_longer
    pronoun = cue.lower_ in PRONOUN_CUES
    # "can't travel | in a vacuum", "does not flow | in the wire": a lexical verb's place is
    # not what is denied; a copula's is ("is not in a closed path")
    lexical = not noun_cue and cue.i > 0 and doc[cue.i - 1].lemma_.lower() in _LEXICAL_AUXILIARIES
    reason = _denies_reason(doc, cue)
    if _not_there(doc, cue):
        return []  # "the air particles aren't there | in space": the subject is denied (`_elided_subject`)
    for i in range(cue.i + 1, min(n, cue.i + 1 + MAX_SCOPE)):
        tok = doc[i]
        low = tok.lower_
        if tok.is_punct and low not in ("-", "'", "/"):
            break
        if reason and i == cue.i + 1:
            continue  # "it's not | because it is heavy": the reason is what is denied
        if low in CLAUSE_BREAKS or low == "nor" or (keys is not None and keys[i] in CLAUSE_BREAKS):
            break  # "neither A nor B": nor negates B itself
        if low in ("and", "or") and _starts_clause(doc, i + 1):
            break
        if seen_content and tok.lemma_ in ("be", "have", "do") and _denies_predicate(doc, cue):
            # "neither A nor B | is in a closed path", "neither bulbs | are lit": what the
            # subjects are said to do is denied too
            return out + [i] + _rule_scope(doc, tok, keys)
        if seen_content and (low in PREPOSITIONS or tok.lemma_ in ("be", "have", "do")
                             or (_names_place(doc, i) and (noun_cue or lexical))) \
                and not _compares(doc, i) and not _same_follows(doc, i) and not _infinitive(doc, i):
            break  # "no gap | between the terminals", "not separated | by a gap", "no friction | on the floor"
        if pronoun and not seen_content and (low in PLACE_PREPOSITIONS or (low in PREPOSITIONS and low != "to")):
            break  # "there is nothing | in space", "nothing | between the terminals": the thing denied
        if _is_cue(tok):  # the next cue takes over
            break
        if seen_content and (low in _SUBJECT_PRONOUNS or (low == "it" and _finite_after(doc, i))):
            break  # "soft things dont reflect it well | they absorb it": a sentence run on
        if noun_cue and seen_content and low in _ARTICLES and doc[i - 1].is_alpha \
                and doc[i - 1].lemma_ not in FUNCTION_LEMMAS and doc[i - 1].lower_ not in ("and", "or"):
            break  # "without the magnet | the first clip falls", "no air | the sound can't travel"
        out.append(i)
        if tok.is_alpha and tok.lemma_ not in FUNCTION_LEMMAS and not (no_longer and i == cue.i + 1):
            seen_content = True
    return out


def _names_place(doc: Doc, i: int) -> bool:
    """Does token i start a phrase of place: a preposition of place, or "out of" ("can't
    escape | out of the tube" says the tube, as "can't travel | in a vacuum" says the vacuum)?"""
    low = doc[i].lower_
    return low in PLACE_PREPOSITIONS or (low == "out" and i + 1 < len(doc) and doc[i + 1].lower_ == "of")


def _compares(doc: Doc, i: int) -> bool:
    """Is token i the "as" of a comparison ("does not vibrate as fast", "not as much force"),
    which the negation reaches through, rather than a preposition ("not connected as the
    diagram shows")? The first "as" of a comparison comes before a word that starts no noun
    phrase or clause, and after no earlier "as" ("not as loud | as the other one")."""
    if doc[i].lower_ != "as" or i + 1 >= len(doc) or not doc[i + 1].is_alpha:
        return False
    after = doc[i + 1].lower_
    if after in _DETERMINERS or after in NEW_SUBJECT or after in ("a", "an", "well", "if", "soon", "long"):
        return False
    return not any(t.lower_ == "as" for t in doc[max(0, i - MAX_SCOPE):i])


def _denies_reason(doc: Doc, cue: Token) -> bool:
    """Is the cue the "not" of "it's not because ...", "that is not because ...", which denies
    the reason after it? Not "B and C were not because ...", where a predicate is left out
    and the reason is given (`_elided_subject`)."""
    i = cue.i
    if cue.lemma_ != "not" or i + 1 >= len(doc) or doc[i + 1].lower_ not in ("because", "cause", "cuz"):
        return False
    if i >= 1 and doc[i - 1].lower_ in ("its", "thats"):  # "its not because", without the apostrophe
        return True
    return (i >= 2 and (doc[i - 1].lemma_ == "be" or doc[i - 1].lower_ in ("'s", "’s", "s"))
            and doc[i - 2].lower_ in ("it", "that", "this"))  # the lookup table reads "'s" as "have"


#: Verbs whose "to" starts the verb they go on with ("does not need to see", "not able to pass").
_TO_VERBS = frozenset({"need", "have", "want", "able", "try", "seem", "mean", "manage", "ought"})  # not "go to"


def _infinitive(doc: Doc, i: int) -> bool:
    """Is token i the "to" of a verb after one of `_TO_VERBS` ("bats do not need | to see"),
    which the negation reaches through, rather than a preposition?"""
    return doc[i].lower_ == "to" and i > 0 and doc[i - 1].lemma_.lower() in _TO_VERBS


def _same_follows(doc: Doc, i: int) -> bool:
    """Is the preposition at i the start of a phrase of sameness ("do not land | at the same
    time", "not moving at the same speed"), which is what the negation denies, not where?"""
    return doc[i].lower_ in PREPOSITIONS and i + 2 < len(doc) and doc[i + 1].lower_ == "the" \
        and doc[i + 2].lower_ == "same"


_AUXILIARIES = frozenset({"be", "do", "have", "can", "will", "would", "should", "could", "must",
                          "may", "might", "shall"})


#: Words that say only that a thing is somewhere: "the particles are not there" denies the particles.
_THERE = frozenset({"there", "here", "present", "around"})


def _not_there(doc: Doc, cue: Token) -> bool:
    """Is the cue the "not" of "X is not there" ("the air particles aren't there in space",
    "the gap is not present"), which denies X itself, not the place after it?"""
    i = cue.i
    if cue.lemma_ != "not" or i + 1 >= len(doc) or doc[i + 1].lower_ not in _THERE or i == 0 \
            or doc[i - 1].lemma_ != "be":
        return False
    if i + 2 >= len(doc) or not doc[i + 2].is_alpha:
        return True
    after = doc[i + 2].lower_  # a place or the clause's end; not a purpose ("not there to stop it")
    return after != "to" and (after in PREPOSITIONS or after in PLACE_PREPOSITIONS or after in CLAUSE_BREAKS
                              or after in ("and", "or", "anymore", "any"))


def _elided_subject(doc: Doc, cue: Token) -> list[int]:
    """The subject of a predicate left out after "not" ("... but the pennies aren't", "A and
    C are in a closed path, B is not"): what it says of the subject is denied, so the
    subject is, as with "neither". Only when "not" ends its clause, after an auxiliary."""
    if cue.lemma_ != "not" and cue.lower_ != "never":
        return []
    after = cue.i + 1
    if after < len(doc) and doc[after].is_alpha and doc[after].lower_ not in CLAUSE_BREAKS \
            and doc[after].lower_ not in ("and", "or") and not _not_there(doc, cue):
        return []  # a predicate follows: the forward scope had it
    j = cue.i - 1
    while j >= 0 and doc[j].lemma_ in _AUXILIARIES:
        j -= 1
    if j == cue.i - 1:
        return []  # "the nail, not the penny": no auxiliary, no predicate left out
    out: list[int] = []
    while j >= 0 and len(out) < MAX_SCOPE:
        tok = doc[j]
        low = tok.lower_
        if low in ("and", "or") and j > 0 and len(doc[j - 1].text) == 1 and doc[j - 1].text.isalnum():
            j -= 1  # "A and B are not": both labels
            continue
        after_verb = out and (tok.lemma_ in _AUXILIARIES or (j > 0 and doc[j - 1].lemma_ in _AUXILIARIES))
        if (tok.is_punct and low not in ("-", "'", "/")) or low in CLAUSE_BREAKS or low in ("and", "or") \
                or _is_cue(tok) or after_verb:
            break  # "steel is magnetic | aluminium is not": a run-on sentence's verb ends the subject
        out.append(j)
        if low in _DETERMINERS and not (j > 0 and doc[j - 1].lower_ in _NAMING_PLACE):
            break  # "the see-saw is balanced | the magnet is not"; not "the gap between | the magnets"
        j -= 1
    return out


#: Prepositions before a noun inside a subject ("the gap between the magnets").
_NAMING_PLACE = PREPOSITIONS | PLACE_PREPOSITIONS | {"of"}
#: Words that may start the subject of a new clause after "and"/"or" ("and the pitch is").
_DETERMINERS = frozenset({"the", "a", "an", "each", "every", "both", "all", "some"})
#: Articles: after the noun a "no" or "without" denies, one starts another noun phrase.
_ARTICLES = frozenset({"the", "a", "an"})


def _starts_clause(doc: Doc, i: int) -> bool:
    """Does a new clause (with its own subject and verb) start at token i, after "and"/"or"?
    "and there is a gap", "and the pitch is high"; not "and the positive terminal"."""
    if i >= len(doc):
        return False
    if doc[i].lower_ in NEW_SUBJECT:
        return True
    if doc[i].lower_ in _DETERMINERS:  # "and the pitch is high"
        return _verb_follows(doc, i, 4, _CLAUSE_VERBS)
    return _bare_subject(doc, i)


#: Verbs after a subject with an article that show a clause starts ("and the pitch is high").
_CLAUSE_VERBS = frozenset({"be", "have", "do", "can", "will", "would", "should", "must"})


#: Words after which an -s form is a plural noun, not a verb ("pitch changes in it").
_AFTER_NOUNS = PREPOSITIONS | PLACE_PREPOSITIONS | {"of", "and", "or"}


def _bare_subject(doc: Doc, i: int) -> bool:
    """Does a clause start at token i with a noun and no article ("and sound needs air",
    "and magnets can touch")? The noun is followed by an auxiliary, or by a verb's -s form
    and its object ("needs air"); not by a plural that goes on the list ("no magnets or
    pitch changes in it")."""
    tok = doc[i]
    if not tok.is_alpha or tok.is_stop or tok.lemma_ in FUNCTION_LEMMAS or _is_cue(tok):
        return False
    return _verb_follows(doc, i, 3, _AUXILIARIES, s_form=True)


def _verb_follows(doc: Doc, i: int, within: int, verbs: frozenset[str], s_form: bool = False) -> bool:
    """Does one of `verbs` (lemmas) follow the subject that starts at token i, within `within`
    tokens and before punctuation, a negation or "and"/"or"? With `s_form`, a verb's -s form
    followed by its object does too ("needs air"), not a plural before a preposition."""
    for j in range(i + 1, min(len(doc), i + 1 + within)):
        word = doc[j]
        if word.is_punct or _is_cue(word) or word.lower_ in ("and", "or"):
            return False
        if word.lemma_ in verbs:
            return True
        if s_form and word.lower_ != word.lemma_ and word.lower_.endswith("s"):  # "needs", "vibrates"
            return j + 1 < len(doc) and doc[j + 1].is_alpha and doc[j + 1].lower_ not in _AFTER_NOUNS
    return False


def _denies_predicate(doc: Doc, cue: Token) -> bool:
    """Is the cue "neither" (or the "nor" after it), which denies the predicate of its
    subjects as well as the subjects?"""
    low = cue.lower_
    if low == "neither":
        return True
    if low != "nor":
        return False
    return any(t.lower_ == "neither" for t in doc[max(0, cue.i - MAX_SCOPE):cue.i])


_SKIP_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl", "aux", "auxpass",
                        "punct", "cc", "mark", "advcl", "parataxis", "neg", "det", "relcl",
                        "ccomp", "intj", "dep", "preconj"})


def _dependency_scope(doc: Doc, cue: Token) -> list[int]:
    """The negated predicate or noun phrase, read off the parse."""
    low, lemma = cue.lower_, cue.lemma_.lower()
    then = PAIRED_CUES.get(lemma) or PAIRED_CUES.get(low)
    if then is not None:  # "instead of attracting": what follows "of", not the verb it modifies
        return [t.i for child in cue.children if child.lower_ == then for t in child.subtree if t.i != child.i]
    if cue.dep_ == "det" or low in ("no", "none", "nothing", "nobody"):
        # "no gap between A and B": the noun and its modifiers, not the attached PPs.
        head = cue.head if cue.dep_ == "det" else cue
        return [t.i for t in _phrase(head, keep_preps=False) if t.i != cue.i]
    if low == "without":
        return [t.i for child in cue.children for t in _phrase(child, keep_preps=False)]
    if lemma in LACKING:  # "a lack of air", "space lacks particles": what it lacks
        return [t.i for child in cue.children if child.dep_ in ("prep", "dobj", "pobj")
                for t in child.subtree]
    if low == "neither":  # preconj of the first conjunct: all the conjuncts
        first = cue.head
        return [t.i for c in (first, *first.conjuncts) for t in _phrase(c, keep_preps=False)]
    if low == "nor":
        after = [c for c in cue.head.conjuncts if c.i > cue.i]
        return [t.i for t in _phrase(after[0], keep_preps=False)] if after else _rule_scope(doc, cue)
    head = cue.head if cue.head.i != cue.i else cue
    # A copula keeps its PP ("is not in the same path"); a lexical verb does not
    # ("not connected | to the battery").
    keep_preps = head.lemma_ == "be"
    return [t.i for t in _phrase(head, keep_preps=keep_preps) if t.i != cue.i]


def _phrase(head: Token, keep_preps: bool) -> list[Token]:
    out = [head]
    for child in head.children:
        if child.dep_ in _SKIP_DEPS or child.dep_ == "conj":
            continue
        if child.dep_ in ("prep", "agent") and not keep_preps:
            continue
        out.extend(child.subtree)
    return out
