"""Links between the rubric's ideas: `relation:NAME` is present when an answer says that
concepts of the rubric (the relation's members) are linked by one of its link phrases.

    relations:
      t1_to_positive:
        members: [terminal_1, positive_terminal]
        link: [connected, joined]

is found in "terminal 1 is connected to the positive terminal", "the positive terminal and
terminal 1 are connected", "there is a connection between terminal 1 and the positive
terminal"; it is negated in "terminal 1 and the positive terminal are not connected"
and absent in "terminal 1 is connected to the negative one and the positive terminal to
terminal 6" (another member after the link, in a clause of its own).

Read by word order, on the fallback pipeline and a parsed one alike: within a clause, the
concept mentions are grouped into lists ("A and C", "both A and B", "neither B nor C",
"A, B and C"; "magnets A and B" and "the north and south poles" name both members when
"magnet B" and "north pole" are their phrases); a link phrase with a list before it and/or
a list after it (within NEAR tokens; nothing but function words between the link and the
list after it) states the link between the members of those lists. A list item after "and" followed by a
preposition starts a clause of its own ("A to X and B to Y"), and so does one after a link's
object followed by words of its own ("A is near X and B far from it", "... and B pushes
it"; not "... and B too"). A
clause that names members and a negation but no link ("A and C are in a closed path, B is
not") denies the link of the clause before it for them. A link is denied when a negation
covers it (`negation`); present wins over denied, as for concepts.

An `ordered` relation needs its first member before the link and its second after it ("GPE is
converted to KE"), or after "from" and "to" ("transferred from GPE to KE"); a passive with
"by" names the doer after the link ("B is pulled by A": A, then B).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from knowledge.schema import Question, Relation, feature_name

from .concepts import phrase_doc
from .lexicon import is_content, is_label_key
from .loose import EXACT
from .negation import CLAUSE_BREAKS, CUES

NEAR = 6  # tokens between a list of members and its link
_GLUE = frozenset({"and", "or", "nor", "neither", "either", "both", "the", "a", "an", ",", "&",
                   "its", "their", "also"})
_ELLIPSIS_AFTER = frozenset({"to", "from", "with", "in", "on", "at", "into", "onto"})
_SENTENCE_END = frozenset({".", "!", "?", ";", ":"})
_LIST_GLUE = frozenset({"and", "or", "nor", "the", "a", "an", ","})
#: words after the last item of a list that still share the link before it ("and B as well")
_SHARED_AFTER = frozenset({"too", "also", "both", "either", "respectively"})
PRESENT, NEGATED = "present", "negated"


class RelationReader:
    """The relations of a question, read in each answer (see the module docstring)."""

    def __init__(self, nlp: Language, question: Question,
                 concept_keys: dict[str, list[tuple[str, ...]]],
                 link_keys: dict[str, list[tuple[str, ...]]]):
        """`concept_keys`: concept name -> its phrases' keys; `link_keys`: relation name ->
        the keys of its link phrases (a link that names a concept stands for its phrases)."""
        self.relations: list[Relation] = list(question.relations)
        self.columns = [feature_name("relation", r.name) for r in self.relations]
        self.matcher = PhraseMatcher(nlp.vocab, attr="NORM")
        self._ids: dict[int, tuple[str, str]] = {}
        members = {m for r in self.relations for m in r.members}
        # Lists that give the members' shared word once (`_shared_noun_mentions`): "north"
        # is "north pole" in "the north and south poles" (by the last word: the words before
        # it and their concept), "B" is "magnet B" in "magnets A and B" (by the first word:
        # the label after it and its concept)
        self._modifiers: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self._labels: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for name in sorted(members):
            for keys in concept_keys.get(name, []):
                if len(keys) >= 2 and not any(k.startswith(EXACT) for k in keys):
                    self._modifiers.setdefault(keys[-1], []).append((keys[:-1], name))
                    if len(keys) == 2 and (keys[1].isdigit() or is_label_key(keys[1])):
                        self._labels.setdefault(keys[0], []).append((keys[1:], name))
        # "converted to" is also said "converted from X to Y": the link's verb before "from"
        from_keys = {name: [keys[:-1] for keys in keyed if len(keys) >= 2 and keys[-1] in ("to", "into")]
                     for name, keyed in link_keys.items()}
        for kind, table in (("concept", {c: concept_keys.get(c, []) for c in members}),
                            ("link", link_keys), ("from", from_keys)):
            for name, keyed in table.items():
                docs = [phrase_doc(nlp, keys) for keys in keyed
                        if keys and not any(k.startswith(EXACT) for k in keys)]
                if docs:
                    key = f"{kind}\x00{name}"
                    self.matcher.add(key, docs)
                    self._ids[nlp.vocab.strings[key]] = (kind, name)

    def states(self, doc: Doc, keys: list[str], negated: list[bool]) -> dict[str, str]:
        """`relation:NAME` -> present/negated for the relations the answer states."""
        mentions: list[tuple[int, int, str]] = []  # (start, end, concept)
        links: dict[str, list[tuple[int, int, bool]]] = {}  # (start, end, must go on "from X to Y")
        for match_id, start, end in self.matcher(doc):
            kind, name = self._ids[match_id]
            if kind == "concept":
                mentions.append((start, end, name))
            else:
                links.setdefault(name, []).append((start, end, kind == "from"))
        if not links or not mentions:
            return {}
        mentions = _longest(mentions + self._shared_noun_mentions(keys, mentions))
        lists = _lists(keys, mentions, {s for spans in links.values() for s, _, _ in spans},
                       {e for spans in links.values() for _, e, _ in spans})
        clause = _clauses(keys, lists)
        found: dict[str, str] = {}
        for rel, column in zip(self.relations, self.columns):
            for start, end, from_to in links.get(rel.name, ()):
                state = _state_at(rel, start, end, lists, clause, keys, negated, from_to)
                if state is not None and found.get(column) != PRESENT:
                    found[column] = state
        return found

    def _shared_noun_mentions(self, keys: list[str], mentions: list[tuple[int, int, str]]
                              ) -> list[tuple[int, int, str]]:
        """The members named by their first words before a list that gives the noun once:
        "north" in "the north and south poles" when "north pole" is a member's phrase."""
        out: list[tuple[int, int, str]] = []
        for start, end, _ in mentions:
            i = start
            while i > 0 and keys[i - 1] in _LIST_GLUE:
                i -= 1
            if _joins(keys[i:start]):
                for words, name in self._modifiers.get(keys[end - 1], ()):
                    if i >= len(words) and tuple(keys[i - len(words):i]) == words:
                        out.append((i - len(words), i, name))
            at = end  # "magnets A, B and C": each label after the first mention's noun
            while True:
                j = at
                while j < len(keys) and keys[j] in _LIST_GLUE:
                    j += 1
                if j == at or not _joins(keys[at:j]):
                    break
                item = next(((j, j + len(words), name) for words, name in self._labels.get(keys[start], ())
                             if tuple(keys[j:j + len(words)]) == words), None)
                if item is None:
                    break
                out.append(item)
                at = item[1]
        return out


def _joins(between: list[str]) -> bool:
    """Do these glue words join two items of one list ("and", ", ", "or the")?"""
    return bool(between) and not {"and", "or", "nor", ","}.isdisjoint(between)


def _longest(mentions: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Mentions in order, a mention inside a longer one left out ("positive terminal" is
    not also "terminal"); two concepts on the same words are both kept."""
    mentions.sort(key=lambda m: (m[0], -(m[1] - m[0])))
    out: list[tuple[int, int, str]] = []
    for m in mentions:
        if any(o[0] <= m[0] and m[1] <= o[1] and (o[0], o[1]) != (m[0], m[1]) for o in out):
            continue
        out.append(m)
    return out


#: A list of mentions: (first token, last token + 1, the concepts named)
Group = tuple[int, int, frozenset[str]]


def _lists(keys: list[str], mentions: list[tuple[int, int, str]], link_starts: set[int] = frozenset(),
           link_ends: set[int] = frozenset()) -> list[Group]:
    """The mentions grouped into lists joined by glue words ("A and B", "neither B nor C");
    `link_starts`, `link_ends`: where the answer's link phrases start and end."""
    groups: list[list] = []
    for start, end, name in mentions:
        if groups:
            g = groups[-1]
            between = keys[g[1]:start]
            joined = start <= g[1] or (all(k in _GLUE for k in between) and len(between) <= 3)
            after = keys[end] if end < len(keys) else ""
            # "A to X and B to Y": B starts a clause of its own
            if joined and start > g[1] and after in _ELLIPSIS_AFTER and "and" in between:
                joined = False
            # "A is near X and B far away", "A is joined to X and B is joined to Y": after a
            # link's object, B followed by words of its own (another link) starts a clause
            if joined and start > g[1] and "and" in between and _says_more(keys, end, link_starts) \
                    and any(0 <= g[0] - e <= NEAR for e in link_ends):
                joined = False
            if joined:
                g[1] = max(g[1], end)
                g[2].add(name)
                continue
        groups.append([start, end, {name}])
    return [(s, e, frozenset(n)) for s, e, n in groups]


def _says_more(keys: list[str], end: int, link_starts: set[int]) -> bool:
    """Do the words after a list item say something of their own: a content word or a link,
    after at most two function words ("B is joined to Y", "B further away"), not "B." or
    "B in the circuit"?"""
    for i in range(end, min(end + 3, len(keys))):
        if keys[i] in _SENTENCE_END or keys[i] in CLAUSE_BREAKS or keys[i] == ",":
            return False
        as_well = i > end and keys[i - 1] == "as" and keys[i] in ("well", "good")  # lemma of "well"
        if i in link_starts or (is_content(keys[i]) and keys[i] not in _SHARED_AFTER and not as_well
                                and not keys[i].endswith("ly")):  # "B too", "B as well", "B strongly"
            return True
    return False


def _clauses(keys: list[str], lists: list[Group]) -> list[int]:
    """The clause of each token: a new one after sentence punctuation, a clause break, a
    comma outside a list, or "and" before a list that starts a clause of its own."""
    in_list = [False] * len(keys)
    starts = set()
    for s, e, _ in lists:
        for i in range(s, e):
            in_list[i] = True
        starts.add(s)
    out, clause = [], 0
    for i, key in enumerate(keys):
        if key in _SENTENCE_END or key in CLAUSE_BREAKS or (key == "," and not in_list[i]):
            clause += 1
        elif key == "and" and i + 1 in starts and not in_list[i]:
            clause += 1
        out.append(clause)
    return out


def _state_at(rel: Relation, start: int, end: int, lists: list[Group], clause: list[int],
              keys: list[str], negated: list[bool], from_to: bool = False) -> str | None:
    """The relation's state from the link at start:end, or None when its members are not
    the lists around it. `from_to`: the link counts only before "from X to Y"."""
    c = clause[start]
    before = [g for g in lists if g[1] <= start and clause[g[0]] == c and start - g[1] <= NEAR]
    after = [g for g in lists if g[0] >= end and clause[g[0]] == c and g[0] - end <= NEAR
             and not any(is_content(k) and k not in _GLUE and k not in _ELLIPSIS_AFTER
                         for k in keys[end:g[0]])]
    first = before[-1][2] if before else frozenset()
    second = after[0][2] if after else frozenset()
    to = _list_after(after[0], ("to", "into"), lists, keys) if after and _after_from(after[0], keys) else None
    doer = _list_after(after[0], ("for",), lists, keys) if after and not before else None
    if to is not None:  # "transferred from X to Y": X, then Y
        first, second = second, to[2]
    elif doer is not None and clause[doer[0]] == c:  # "closer to the pivot for the heavier child"
        first = doer[2]
    elif from_to:
        return None
    elif _passive_by(keys, start, end):  # "B is pulled by A": A, then B
        first, second = second, first
    denied = any(negated[start:end]) and CUES.isdisjoint(keys[start:end])
    if rel.ordered:
        if rel.members[0] in first and rel.members[1] in second:
            return NEGATED if denied else PRESENT
        return None
    named = set(first | second)
    if set(rel.members) <= named:
        return NEGATED if denied else PRESENT
    # "A and C are in a closed path, B is not": the next clause names the members and a
    # negation, and nothing else
    nxt = [g for g in lists if clause[g[0]] == c + 1]
    if named and nxt and not denied and set(rel.members) <= nxt[0][2]:
        rest = [keys[i] for i, cl in enumerate(clause) if cl == c + 1]
        if not CUES.isdisjoint(rest) and len(rest) <= nxt[0][1] - nxt[0][0] + 4:
            return NEGATED
    return None


def _after_from(origin: Group, keys: list[str]) -> bool:
    """Does the list come after "from" ("transferred from X ...")?"""
    return "from" in keys[max(origin[0] - 2, 0):origin[0]]


def _list_after(origin: Group, words: tuple[str, ...], lists: list[Group], keys: list[str]) -> Group | None:
    """The list right after `origin` and one of `words` (and glue words): Y in "from X to Y",
    the heavier child in "closer to the pivot for the heavier child"."""
    for g in lists:
        between = keys[origin[1]:g[0]]
        if g[0] >= origin[1] and 0 < len(between) <= 3 and between[0] in words \
                and all(k in _GLUE for k in between[1:]):
            return g
    return None


def _passive_by(keys: list[str], start: int, end: int) -> bool:
    """Is the link a verb in the passive with its doer after "by" ("is pushed by")?"""
    return "be" in keys[max(start - 2, 0):start] and "by" in keys[end:end + 1]


def link_keys_of(question: Question, concept_keys: dict[str, list[tuple[str, ...]]],
                 read: Callable[[Sequence[str]], list[tuple[str, ...]]]
                 ) -> dict[str, list[tuple[str, ...]]]:
    """Relation name -> its link phrases' keys: a link naming a concept stands for the
    concept's phrases, any other is a phrase read with `read` (`concepts.phrase_keys`)."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for rel in question.relations:
        keyed: list[tuple[str, ...]] = []
        phrases: Sequence[str] = [p for p in rel.link if p not in concept_keys]
        for p in rel.link:
            if p in concept_keys:
                keyed += concept_keys[p]
        keyed += read(phrases)
        out[rel.name] = keyed + [k for k in map(_other_to, keyed) if k and k not in keyed]
    return out


def _other_to(keys: tuple[str, ...]) -> tuple[str, ...] | None:
    """A link ending in "to" said with "into", or the other way round: "converted to" and
    "converted into", "turns into" and "turns to" say the same."""
    swap = {"to": "into", "into": "to"}
    if len(keys) >= 2 and keys[-1] in swap:
        return keys[:-1] + (swap[keys[-1]],)
    return None
