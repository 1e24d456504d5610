"""Concepts and misconceptions proposed from the answers a teacher has marked (`grader suggest-rubric`).

Why: a rubric is worth most when its phrases are the ones the class uses, and a teacher
writing it from the question alone guesses them. The marked answers show them: the words and
pairs of adjacent words (as the rubric reads them: misspellings mended, negations marked) that
separate the marks best, by their mutual information with the mark (`features.terms`), are
grouped into ideas: a phrase that finds mostly answers another one already finds adds nothing;
one that shares a word (or the start of one) with it and finds other answers of the same mark
joins it when the two together separate the marks better (an idea said several ways). A phrase the answers say denied ("no gap") is
proposed as a misconception when the answers that deny it have a lower mark than those that
say it; a phrase said by answers of a lower mark, when the order of the marks is known, too.
Every proposal carries the marked answers behind it, by mark, to show the teacher.
Phrases the teacher's file already has are not proposed again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from features.lexicon import feature_suffix, phrase_text
from features.negation import CUES
from features.nonanswer import is_chatter
from features.terms import answer_grams, mutual_information, written_forms

CONCEPT, MISCONCEPTION = "concept", "misconception"
#: A phrase joins an idea when at most this share of its answers already say the idea.
MAX_OVERLAP = 0.5
#: A phrase that finds this share of the answers an idea finds (of the two together) is the same idea.
SAME = 0.8
#: Phrases one proposed idea holds at most.
MAX_PHRASES = 6
#: Words YAML reads as true, false or nothing: never a proposal's name.
YAML_WORDS = frozenset({"y", "yes", "n", "no", "true", "false", "on", "off", "null"})
#: Ids shown beside a proposal's support.
SHOWN_IDS = 8


@dataclass
class Proposal:
    """One proposed concept or misconception and the marked answers that say it."""

    kind: str  # CONCEPT or MISCONCEPTION
    name: str
    phrases: list[str]
    mark: str  # the mark its answers have most often, relative to how common each mark is
    support: dict[str, list[str]] = field(default_factory=dict)  # mark -> ids of the answers saying it

    @property
    def description(self) -> str:
        return "says " + " or ".join(f"'{p}'" for p in self.phrases[:3])

    @property
    def reason(self) -> str:
        """The support as a teacher says it: "9 answers marked contradictory say 'no gap' (ids ...)"."""
        ids = self.support.get(self.mark, [])
        said = " or ".join(f"'{p}'" for p in self.phrases[:2]) + (" (or the like)" if len(self.phrases) > 2 else "")
        shown = ", ".join(ids[:SHOWN_IDS]) + (", ..." if len(ids) > SHOWN_IDS else "")
        text = f"{_answers(len(ids))} marked {self.mark} {'says' if len(ids) == 1 else 'say'} {said} ({shown})"
        others = [f"{_answers(len(v))} marked {m}" for m, v in sorted(self.support.items(), key=lambda kv: -len(kv[1]))
                  if m != self.mark and v]
        return text + (f"; also said by {', '.join(others)}" if others else "; no answer of another mark says it")


def _answers(n: int) -> str:
    return "1 answer" if n == 1 else f"{n} answers"


def propose(question, ids: Sequence[str], answers: Sequence[str], marks: Sequence[str],
            order: Sequence[str] = (), max_concepts: int = 8, max_misconceptions: int = 5,
            min_answers: int = 3) -> list[Proposal]:
    """The proposals for `question` from marked answers, best first (concepts, then
    misconceptions). `order`: the marks lowest first, when known (the question's `marks:`);
    without it a phrase the class says is proposed as a concept whatever its mark.
    `min_answers`: answers a phrase must be found in."""
    if not (len(ids) == len(answers) == len(marks)):
        raise ValueError(f"{len(ids)} ids, {len(answers)} answers and {len(marks)} marks")
    marks = [str(m) for m in marks]
    if len(answers) == 0 or len(set(marks)) < 2:
        return []
    from features.concepts import phrase_keys
    from features.extractor import FeatureExtractor
    from features.reference import question_keys

    fx = FeatureExtractor(question, n_terms=0, similarity=False).fit(list(answers))
    read = fx.read(list(answers))
    known = _known_words(phrase_keys(fx.nlp_, [p for c in (*question.concepts, *question.misconceptions)
                                               for p in c.phrases], fx.speller_))
    asked = question_keys(fx.nlp_, question, fx.speller_)
    candidates = _candidates([(a.keys, a.negated) for a in read], marks, order, min_answers, known, asked)
    chosen = _group(candidates, marks, {CONCEPT: max_concepts, MISCONCEPTION: max_misconceptions})
    # each phrase as the class writes it ("higher frequency", not its keys "more frequency")
    written = written_forms([(a.keys, a.keys, [t.lower_ for t in a.doc]) for a in read],
                            [g[1:] for group in chosen for g in group.grams])
    taken = {c.name for c in question.concepts} | {m.name for m in question.misconceptions} | {
        r.name for r in getattr(question, "relations", ())}
    out = []
    for kind in (CONCEPT, MISCONCEPTION):
        for group in (g for g in chosen if g.kind == kind):
            name = _free_name(feature_suffix(tuple(_phrase(group.grams[0], written).split())), taken)
            taken.add(name)
            support = {m: [str(ids[k]) for k in np.flatnonzero(group.has & (np.asarray(marks) == m))]
                       for m in dict.fromkeys(marks)}
            out.append(Proposal(kind, name, [_phrase(g, written) for g in group.grams], group.mark,
                                {m: v for m, v in support.items() if v}))
    return out


def known_order(listed: Sequence[str], marks: Sequence[str]) -> tuple[str, ...]:
    """The marks lowest first: as the question lists them, else numbers in their order; words
    read off the answers have none (())."""
    if listed:
        return tuple(listed)
    try:
        return tuple(sorted(set(map(str, marks)), key=float))
    except ValueError:
        return ()


@dataclass
class _Candidate:
    kind: str
    grams: list[tuple]  # (cue or "", *words): "" for the phrase said, a negation cue for it denied
    has: np.ndarray  # bool per answer
    mark: str
    mi: float


def _known_words(keyed: list[tuple[str, ...]]) -> list[tuple[frozenset[str], bool]]:
    """The words of each of the file's phrases, and whether it holds a negation ("no gap" says
    only the denied form: "gap" said is still worth proposing)."""
    return [(frozenset(k for k in keys if k not in CUES), any(k in CUES for k in keys)) for keys in keyed]


def _candidates(read: list[tuple[list[str], list[bool]]], marks: list[str], order: Sequence[str],
                min_answers: int, known: list[tuple[frozenset[str], bool]],
                asked: frozenset[str] = frozenset()) -> list[_Candidate]:
    """Every phrase said (or said denied) in at least `min_answers` answers, with its MI.
    Never a phrase of chatter alone ("think", "I know"), nor one made only of the words of the
    question (`asked`: "energy" for "describe the energy changes"), said as they are: no teacher
    gives credit for either, nor calls them a wrong idea. The question's words denied can be
    one ("no energy")."""
    plain: dict[tuple, set[int]] = {}
    denied: dict[tuple, set[int]] = {}
    cues: dict[tuple, Counter] = {}
    for k, (keys, negated) in enumerate(read):
        for gram, neg in answer_grams(keys, negated).items():
            (denied if neg else plain).setdefault(gram, set()).add(k)
            if neg:
                cues.setdefault(gram, Counter())[_cue_before(keys, gram)] += 1
    y = np.asarray(marks, dtype=object)
    rank = {m: i for i, m in enumerate(order)}
    out = []
    for gram in sorted(plain.keys() | denied.keys()):
        if all(len(w) < 2 for w in gram):
            continue  # a letter on its own is a label or a symbol
        if is_chatter(gram):
            continue  # "think", "know": how the answer is said, not what
        said = _rows(plain.get(gram, ()), len(marks))
        for rows, cue in ((said, ""), (_rows(denied.get(gram, ()), len(marks)), "denied")):
            if rows.sum() < min_answers or any(set(gram) <= words and (cue or not neg) for words, neg in known):
                continue  # too rare, or the teacher's file has it already
            mark = _typical_mark(rows, y)
            if (y[rows] == mark).sum() < min_answers:
                continue  # too few answers of its mark say it to show the teacher
            kind = CONCEPT
            if cue:
                if not _lower(mark, _typical_mark(said, y) if said.any() else None, rank):
                    continue  # denied as often by good answers: the concept with its negation says it
                kind, cue = MISCONCEPTION, cues[gram].most_common(1)[0][0]
            elif rank.get(mark) == 0 and len(rank) > 1:
                kind = MISCONCEPTION  # said by the answers of the lowest mark
            if all(w in asked for w in gram) and not cue:
                continue  # restates the question: no reason for credit, and no wrong idea
                # ("magnets" said by answers marked incorrect, of a question about magnets)
            out.append(_Candidate(kind, [(cue, *gram)], rows, mark, _mi(rows, y)))
    out.sort(key=lambda c: (-c.mi, len(c.grams[0]), c.grams[0]))
    return out


def _rows(rows, n: int) -> np.ndarray:
    has = np.zeros(n, dtype=bool)
    has[sorted(rows)] = True
    return has


def _cue_before(keys: list[str], gram: tuple[str, ...]) -> str:
    """The negation word before the gram's first word ("not", "no", "never"...); "not" if unseen."""
    for i, key in enumerate(keys):
        if key == gram[0]:
            for j in range(i - 1, max(-1, i - 8), -1):
                if keys[j] in CUES:
                    return "not" if keys[j] in ("cannot", "nope") else keys[j]
    return "not"


def _typical_mark(has: np.ndarray, y: np.ndarray) -> str:
    """The mark whose share among the answers in `has` is largest against its share in all."""
    marks, counts = np.unique(y[has], return_counts=True)
    base = {m: float((y == m).mean()) for m in marks}
    lift = [(c / has.sum() / base[m], c, str(m)) for m, c in zip(marks, counts)]
    return max(lift, key=lambda t: (t[0], t[1], t[2]))[2]


def _lower(mark: str, other: str | None, rank: dict[str, int]) -> bool:
    """Is `mark` below `other` (unknown order: different; no other: not the top mark)?"""
    if rank and mark in rank:
        top = max(rank.values())
        return rank[mark] < (rank[other] if other in rank else top + 1) and rank[mark] < top
    return other is None or mark != other


def _mi(has: np.ndarray, y: np.ndarray) -> float:
    joint = Counter(zip(has.tolist(), y.tolist()))
    return mutual_information(dict(joint), len(y))


def _group(candidates: list[_Candidate], marks: list[str], caps: dict[str, int]) -> list[_Candidate]:
    """Ideas from the candidates, best first. A candidate whose words hold those of a phrase an
    idea has, or that finds nearly the same answers as an idea, adds nothing; one whose words
    are part of a phrase an idea has replaces that phrase (it finds more); one found elsewhere
    among answers of the same mark and kind, akin to one of its phrases (`_akin`), joins that idea
    when together they separate the marks better; else it starts an idea while there is room."""
    y = np.asarray(marks, dtype=object)
    groups: list[_Candidate] = []
    parts: list[list[np.ndarray]] = []  # per idea, the answers each of its phrases finds
    for c in candidates:
        if c.mi <= 0:
            break
        gram, words = c.grams[0], set(c.grams[0][1:])
        same = [(g, p) for g, p in zip(groups, parts) if g.kind == c.kind]
        if any(any(set(h[1:]) <= words and bool(h[0]) == bool(gram[0]) for h in g.grams) for g, _ in same) or any(
                (c.has & g.has).sum() >= SAME * (c.has | g.has).sum() for g in groups):
            continue
        placed = False
        for g, p in same:
            inner = [j for j, h in enumerate(g.grams) if words < set(h[1:]) and bool(h[0]) == bool(gram[0])]
            if inner:  # "gap" for "gap between"
                g.grams[inner[0]], p[inner[0]] = gram, c.has
                placed = True
            elif (g.mark == c.mark and len(g.grams) < MAX_PHRASES and _akin(gram, g.grams)
                  and (c.has & g.has).sum() <= MAX_OVERLAP * c.has.sum()
                  and _mi(g.has | c.has, y) > g.mi):
                g.grams.append(gram)
                p.append(c.has)
                placed = True
            if placed:
                g.has = np.logical_or.reduce(p)
                g.mi = _mi(g.has, y)
                break
        if not placed and len(same) < caps[c.kind]:
            groups.append(_Candidate(c.kind, [gram], c.has.copy(), c.mark, c.mi))
            parts.append([c.has])
    return groups


def _akin(gram: tuple, grams: list[tuple]) -> bool:
    """Does `gram` share a word, or the start of one (3 letters or more), with one of `grams`?
    Nothing else says two phrases are one idea: "accelerate down" and "accelerate downwards",
    "9.8" and "9.81" are; "square" and "still", both said by good answers, are not."""
    words = gram[1:]
    return any(a == b or (min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a)))
               for other in grams for a in words for b in other[1:])


def _phrase(gram: tuple, written: dict[tuple, str]) -> str:
    cue, words = gram[0], gram[1:]
    text = written.get(words) or phrase_text(words)
    return f"{cue} {text}" if cue else text


def _free_name(name: str, taken: set[str]) -> str:
    name = name if name[:1].isascii() and name[:1].isalpha() else f"idea_{name}"
    name = "".join(ch if (ch.isascii() and ch.isalnum()) or ch == "_" else "_" for ch in name.lower())
    if name in YAML_WORDS:  # `no:` would be the key False
        name = f"{name}_said"
    out, k = name, 2
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    return out


SECTIONS = {CONCEPT: "concepts", MISCONCEPTION: "misconceptions"}


def added_to(question, proposals: Sequence[Proposal]):
    """`question` with the proposals as concepts and misconceptions (a teacher who accepts them all)."""
    from knowledge.rule_marks import with_marks
    from knowledge.schema import Concept, Misconception

    made = {CONCEPT: Concept, MISCONCEPTION: Misconception}
    new = {kind: tuple(made[kind](p.name, tuple(p.phrases), p.description) for p in proposals if p.kind == kind)
           for kind in made}
    out = with_marks(question, question.marks)  # a copy that keeps where its rules are in its file
    out.concepts = (*question.concepts, *new[CONCEPT])
    out.misconceptions = (*question.misconceptions, *new[MISCONCEPTION])
    return out


def with_proposals(text: str, proposals: Sequence[Proposal], where: str = "question file") -> str:
    """The question file's text with the proposals added at the end of its `concepts:` and
    `misconceptions:` sections (made when missing), each under a comment with its support; the
    rest of the text, the teacher's own entries and comments included, is kept as written."""
    import yaml

    lines = text.splitlines()
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        at = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise ValueError(f"{where}{at}: not YAML ({getattr(err, 'problem', None) or err})") from None
    if not isinstance(root, yaml.MappingNode):
        raise ValueError(f"{where}:1:1: a question file is a mapping of keys (id, question, ...)")
    inserts: list[tuple[int, list[str]]] = []  # (line index to insert before, lines)
    appended: list[str] = []
    for kind, section in SECTIONS.items():
        mine = [p for p in proposals if p.kind == kind]
        if not mine:
            continue
        node = next((v for k, v in root.value if getattr(k, "value", None) == section), None)
        if node is None:
            appended += [f"{section}:", *_entries(mine, 2)]
        elif isinstance(node, yaml.ScalarNode) and node.value in ("", "~", "null") or (
                isinstance(node, yaml.MappingNode) and node.flow_style and not node.value):
            key_line = next(k for k, v in root.value if v is node).start_mark.line
            lines[key_line] = f"{section}:"  # `concepts:` with nothing, or `{}`
            inserts.append((key_line + 1, _entries(mine, 2)))
        elif isinstance(node, yaml.MappingNode) and not node.flow_style:
            last = node.value[-1][1].end_mark
            end = last.line + (1 if last.column else 0)
            while end > 0 and not lines[end - 1].strip():
                end -= 1
            inserts.append((end, _entries(mine, node.value[0][0].start_mark.column)))
        else:
            m = node.start_mark
            raise ValueError(f"{where}:{m.line + 1}:{m.column + 1}: {section} is written on one line ({{...}}); "
                             f"write it one entry a line (block style) so that proposals can be added")
    for at, new in sorted(inserts, reverse=True):
        lines[at:at] = new
    if appended:
        lines += ["", "# proposed from the marked answers (grader suggest-rubric)", *appended]
    return "\n".join(lines) + "\n"


def _entries(proposals: Sequence[Proposal], indent: int) -> list[str]:
    import json

    pad = " " * indent
    out = []
    for p in proposals:
        out += [f"{pad}# proposed: {p.reason}".replace("\n", " "),
                f"{pad}{p.name}:",
                f"{pad}  phrases: [{', '.join(json.dumps(x, ensure_ascii=False) for x in p.phrases)}]",
                f"{pad}  description: {json.dumps(p.description, ensure_ascii=False)}"]
    return out
