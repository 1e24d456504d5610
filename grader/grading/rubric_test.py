"""Testing a marking scheme on answers a human marked: what each rule does, right and wrong.

Teachers who write marking rules by hand rely on one view above all (Moodle's pattern-match
questions, the Open University's Amati): run the rules on marked answers and see, per rule,
how many answers it marked, how many of them as the human did, and which it got wrong; and
which answers no rule marks. `test_rubric` computes that for a grading model's whole rule
list (the question's background and initial rules, then the learned ones), in rule order:
the first rule that applies gives the mark, so a rule can apply to an answer an earlier rule
already marked ("also applies to").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from features.phrases_found import phrases_found
from grader.confold.rule_eval import any_rule_mask, rule_mask
from grader.grading.built_in_rules import UNSEEN_CONFIDENCE
from knowledge.schema import feature_name


@dataclass
class AnswerCase:
    """One answer a rule marked wrongly, or that no rule marks."""

    answer_id: str
    answer: str
    human_mark: str
    rule_mark: str | None = None


@dataclass
class RuleReport:
    """What one rule does on the marked answers."""

    number: int  # 1-based position in the rule list
    origin: str  # background / initial / learned
    name: str | None
    mark: str
    text: str  # the rule's conditions in a marker's words
    applies: int  # answers its conditions hold for (no exception applying)
    marked: int  # answers it gave the mark to (no earlier rule applied)
    right: int  # of those, marked as the human did
    wrong_count: int  # marked otherwise than the human did
    wrong: list[AnswerCase] = field(default_factory=list)  # the first few of them
    note: str = ""  # e.g. why a teacher's rule is not used

    @property
    def precision(self) -> float | None:
        return self.right / self.marked if self.marked else None


@dataclass
class WrongIdeaReport:
    """A wrong idea of the rubric found in answers the human gave the highest mark: its phrases
    may find more than the teacher meant ("bigger" in "the distance is bigger")."""

    name: str
    description: str
    phrases: list[str]
    mark: str  # the highest mark
    found_count: int  # answers with that mark the wrong idea is found in
    found: list[AnswerCase] = field(default_factory=list)  # the first few of them
    found_by: list[list[str]] = field(default_factory=list)  # per answer of `found`: the phrases that find it


@dataclass
class RubricReport:
    """Every rule's report, the answers no rule marks, and the totals."""

    rules: list[RuleReport]
    unmarked_count: int
    unmarked: list[AnswerCase]  # the first few answers no rule marks
    answers: int
    right: int
    wrong_ideas: list[WrongIdeaReport] = field(default_factory=list)

    @property
    def marked(self) -> int:
        return sum(r.marked for r in self.rules)


def test_rubric(model, answer_ids: Sequence[str], answers: Sequence[str], human_marks: Sequence[str],
                examples: int = 5) -> RubricReport:
    """The report of `model`'s rules on answers marked by a human (`examples`: how many wrong
    or unmarked answers to keep per list; the counts are always complete)."""
    if not (len(answer_ids) == len(answers) == len(human_marks)):
        raise ValueError(f"{len(answer_ids)} ids, {len(answers)} answers and {len(human_marks)} marks")
    X = model.features(list(answers))
    learner = model.learner
    written_rules = [r for r in model.question.initial_rules if getattr(r, "head", None)]
    table = learner.encode(X, written_rules + list(learner.rules_))  # a dropped exception's columns too
    _, _, decided = learner.predict_rules(X)
    human = np.asarray([str(m) for m in human_marks], dtype=object)
    words = model.words()
    reports = []
    right_total = 0
    trained_marks = {str(m) for m in learner.classes_}
    written = {(str(r.head), tuple(r.body)): r for r in written_rules}
    first_learned = next((i for i, r in enumerate(learner.rules_) if r.origin == "learned"), len(learner.rules_))
    for i, rule in enumerate(learner.rules_):
        applies = rule_mask(rule, table)
        mine = decided == i
        right = mine & (human == str(rule.head))
        right_total += int(right.sum())
        wrong = [AnswerCase(str(answer_ids[k]), str(answers[k]), str(human[k]), str(rule.head))
                 for k in np.flatnonzero(mine & ~right)]
        if str(rule.head) not in trained_marks:
            note = UNMARKED
        elif _kept_unseen(rule, applies):
            note = UNSEEN if rule.origin == "initial" else UNSEEN_BUILT_IN
        elif rule.origin == "initial":
            note = _initial_note(rule, written.get((str(rule.head), tuple(rule.body))), table, human, answer_ids,
                                 words)
        else:
            note = ""
        if rule.origin == "initial" and i > first_learned:
            note = AFTER_LEARNED + (f"; {note}" if note else "")
        reports.append(RuleReport(i + 1, rule.origin, rule.name, str(rule.head),
                                  conditions_text(rule, words), int(applies.sum()), int(mine.sum()),
                                  int(right.sum()), len(wrong), wrong[:examples], note=note))
    reports += _dropped_rules(model, X, human, len(learner.rules_), words)
    unmarked = [AnswerCase(str(answer_ids[k]), str(answers[k]), str(human[k]))
                for k in np.flatnonzero(decided < 0)]
    return RubricReport(reports, len(unmarked), unmarked[:examples], len(answers), right_total,
                        _wrong_ideas(model, X, human, answer_ids, answers, examples))


def _wrong_ideas(model, X, human: np.ndarray, answer_ids: Sequence[str], answers: Sequence[str],
                 examples: int) -> list[WrongIdeaReport]:
    """The rubric's wrong ideas found in answers the human gave the highest mark, most first;
    none when no order of the marks is known (words not listed under `marks:`)."""
    question = model.question
    if not question.marks or model.params.get("marks_unordered"):
        return []
    best = str(question.marks[-1])
    out = []
    for m in question.misconceptions:
        column = feature_name("misconception", m.name)
        if column not in X.columns:
            continue
        found = np.flatnonzero((X[column].to_numpy() == "present") & (human == best))
        if found.size:
            cases = [AnswerCase(str(answer_ids[k]), str(answers[k]), best) for k in found[:examples]]
            by = phrases_found(model.extractor, m.phrases, [c.answer for c in cases])
            out.append(WrongIdeaReport(m.name, m.description, list(m.phrases), best, int(found.size), cases, by))
    return sorted(out, key=lambda w: -w.found_count)


test_rubric.__test__ = False  # not a pytest test, whatever its name


UNMARKED = "no answer it was trained on has this mark yet; kept as written"
#: A teacher's rule that rests only on what an answer lacks (`sensible_rules.rests_on_lack`).
AFTER_LEARNED = ("applied after the rules learned from the marked answers: it rests only on what an "
                 "answer does not say, so an answer those rules mark is marked by them")


def _kept_unseen(rule, applies: np.ndarray) -> bool:
    """Was `rule` kept, unsure, because no marked answer met it (`ConFold(keep_unseen=...)`, a
    no-credit mark's rule, the built-in rule before any marked answer turns the reference
    round)? Its confidence is then fixed at that of nothing seen; a teacher's own `0.9::` is
    fixed too, and is no such rule."""
    return bool(rule.fixed_confidence and rule.confidence == UNSEEN_CONFIDENCE and not applies.any()
                and rule.origin in ("initial", "learned"))


#: A teacher's rule for a wrong idea no marked answer shows yet (`ConFold`): kept, unsure.
UNSEEN = ("kept as written, unsure: no marked answer meets its conditions yet, so its marks have "
          f"confidence {UNSEEN_CONFIDENCE:.1f} and go to a human")
#: The built-in rule before any marked answer says the reference the other way round.
UNSEEN_BUILT_IN = ("built in: an answer that says the reference answer the other way round gets no credit; "
                   f"no marked answer does yet, so its marks have confidence {UNSEEN_CONFIDENCE:.1f} and go "
                   "to a human")


def _dropped_rules(model, X, human: np.ndarray, n_used: int, words) -> list[RuleReport]:
    """The question's initial rules the learner left out, with the answers they apply to and
    why: too few answers right, answers the rules before it mark first, or wrong too often.
    The learner weighs a teacher's rule on the answers the rules before it leave (background
    rules, then the teacher's kept rules in the file's order), so the reason is said there."""
    learned = model.learner.rules_
    position = {(str(r.head), tuple(r.body)): i for i, r in enumerate(learned) if r.origin == "initial"}
    initial = [r for r in model.question.initial_rules if getattr(r, "head", None) is not None]
    dropped = [(p, r) for p, r in enumerate(initial) if (str(r.head), tuple(r.body)) not in position]
    if not dropped:
        return []
    table = model.learner.encode(X, [r for _, r in dropped] + list(learned))
    marked_by = [rule_mask(r, table) for r in learned]  # the answers each rule applies to
    by_mark = getattr(model.learner, "label_min_initial_support", None) or {}
    out = []
    for k, (p, rule) in enumerate(dropped):
        support = int(by_mark.get(str(rule.head), model.params.get("min_initial_support", 1)))
        before = [i for i, r in enumerate(learned) if r.origin == "background"] + [
            position[key] for key in ((str(r.head), tuple(r.body)) for r in initial[:p]) if key in position]
        taken = np.zeros(len(human), dtype=bool)
        for i in before:
            taken |= marked_by[i]
        applies = rule_mask(rule, table)
        right = applies & (human == str(rule.head))
        n_applies, n_right, n_left = int(applies.sum()), int(right.sum()), int((right & ~taken).sum())
        if not n_applies:
            note = "not used: no marked answer meets its conditions yet"
        elif n_right < support:
            note = (f"not used yet: as the human on {n_right} of the {n_applies} marked answers it applies "
                    f"to{_together(rule, initial, table, human)}; a teacher's rule is used once it is right on "
                    f"{support}")
        elif n_left < max(support, 1):
            takers = [i for i in before if (marked_by[i] & right).any()]
            names = ", ".join(f"R{i + 1}" + (f" [{learned[i].name}]" if learned[i].name else "") for i in takers)
            note = (f"not used: as the human on {n_right} of the {n_applies} marked answers it applies to, but "
                    f"{n_right - n_left} of those {'is' if n_right - n_left == 1 else 'are'} marked first by the "
                    f"rule{'s' if len(takers) > 1 else ''} "
                    f"before it ({names}), which leaves {n_left}; a teacher's rule is used once it is right on "
                    f"{max(support, 1)} of the answers it reaches")
        else:
            left = int((applies & ~taken).sum())
            note = (f"not used: on the answers the rules before it leave, it is as the human on {n_left} of the "
                    f"{left} it applies to; a teacher's rule is used once it is right on at least "
                    f"{model.params.get('min_initial_precision', 0.5):.0%} of the answers it reaches")
        out.append(RuleReport(n_used + k + 1, "initial", rule.name, str(rule.head),
                              conditions_text(rule, words), n_applies, 0, 0, 0, note=note))
    return out


def _together(rule, initial: list, table, human: np.ndarray) -> str:
    """For one way of a teacher's rule written with `any:`, what its ways do together (the
    learner asks the support of them together, `ProgramLearner.supported_together`)."""
    ways = [r for r in initial if r.name and r.name == rule.name and str(r.head) == str(rule.head)]
    if len(ways) < 2:
        return ""
    applies = any_rule_mask(ways, table)
    right = int((applies & (human == str(rule.head))).sum())
    return f" (its {len(ways)} ways together: as the human on {right} of the {int(applies.sum())})"


KEPT = "kept as written"


def _initial_note(rule, written, table, human: np.ndarray, answer_ids: Sequence[str], words, shown: int = 3) -> str:
    """What the learner did to a teacher's initial rule it kept, and on which answers: the
    teacher's exceptions the marked answers contradict (dropped), and the exceptions it added,
    each with the marked answers it keeps the rule off."""
    if written is None:
        return ""
    added = [e for e in rule.exceptions if not any(e.body == w.body for w in written.exceptions)]
    dropped = [w for w in written.exceptions if not any(e.body == w.body for e in rule.exceptions)]
    if not added and not dropped:
        return KEPT
    gone, parts = [], []
    body_only = rule_mask(type(rule)(head=None, body=rule.body), table)
    for exc in dropped:  # the marked answers contradict the teacher's `unless`
        off = np.flatnonzero(body_only & rule_mask(exc, table))
        same = [k for k in off if human[k] == str(rule.head)]
        ids = ", ".join(str(answer_ids[k]) for k in same[:shown]) + (" ..." if len(same) > shown else "")
        text = words.conditions(exc.body) if exc.body else "always"
        gone.append(f"its exception \"not when {text}\" dropped ({len(same)} of the {len(off)} answers it keeps the "
                     f"rule off are marked {rule.head}{': ' + ids if ids else ''})")
    body = rule_mask(type(rule)(head=None, body=rule.body, exceptions=list(written.exceptions)), table)
    for exc in added:
        off = np.flatnonzero(body & rule_mask(exc, table))
        other = [k for k in off if human[k] != str(rule.head)]
        ids = ", ".join(str(answer_ids[k]) for k in other[:shown]) + (" ..." if len(other) > shown else "")
        text = words.conditions(exc.body) if exc.body else "always"
        parts.append(f"not when {text} ({len(other)} of the {len(off)} answers this keeps it off are marked "
                     f"otherwise{': ' + ids if ids else ''})")
    note = "kept" + (", " + "; ".join(gone) if gone else "")
    if parts:
        note += (";" if gone else "") + " with exceptions the marked answers call for: " + "; ".join(parts)
    return note


def conditions_text(rule, words) -> str:
    """A rule's conditions as the explanations word them ("says the acceleration points down");
    `words`: the model's `MarkerWords`."""
    text = words.conditions(rule.body) if rule.body else "always"
    if rule.exceptions:
        text += f" (unless one of {len(rule.exceptions)} exception(s) applies)"
    return text


def format_report(report: RubricReport, width: int = 70) -> str:
    """The report as text for a terminal: a table of rules, then the answers they got wrong."""
    mark_width = max([4] + [len(str(r.mark)) for r in report.rules])  # "partially_correct_incomplete"
    lines = [f"{report.answers} marked answers: {report.marked} marked by a rule, {report.right} of them "
             f"as the human marker did; {report.unmarked_count} marked by no rule", "",
             f"{'rule':>4}  {'from':10s} {'mark':{mark_width}s}  {'applies':>7}  {'marks':>5}  {'right':>5}  "
             f"{'precision':>9}  conditions"]
    for r in report.rules:
        precision = "-" if r.precision is None else f"{r.precision:.2f}"
        label = (f"[{r.name}] " if r.name else "") + r.text  # the name first: a long text is cut, not it
        lines.append(f"{'R' + str(r.number):>4}  {r.origin:10s} {str(r.mark):{mark_width}s}  {r.applies:7d}  "
                     f"{r.marked:5d}  {r.right:5d}  {precision:>9}  {_cut(label, width)}")
    noted = [r for r in report.rules if r.note]
    if noted:  # in full: the answers behind a change are part of it
        lines += ["", "what happened to the teacher's rules:"]
        lines += [f"  R{r.number}" + (f" [{r.name}]" if r.name else "") + f": {r.note}" for r in noted]
    for r in report.rules:
        if r.wrong:
            more = f" (first {len(r.wrong)} of {r.wrong_count})" if r.wrong_count > len(r.wrong) else ""
            lines += ["", f"R{r.number} gives {r.mark} to answers the human marked otherwise{more}:"]
            lines += [f"  {c.answer_id}: human {c.human_mark}: {_cut(c.answer, width)!r}" for c in r.wrong]
    if report.unmarked:
        more = (f" (first {len(report.unmarked)} of {report.unmarked_count})"
                if report.unmarked_count > len(report.unmarked) else "")
        lines += ["", f"answers no rule marks{more}:"]
        lines += [f"  {c.answer_id}: human {c.human_mark}: {_cut(c.answer, width)!r}" for c in report.unmarked]
    for w in report.wrong_ideas:
        more = f" (first {len(w.found)})" if w.found_count > len(w.found) else ""
        lines += ["", f"the wrong idea [{w.name}] ({_cut(', '.join(w.phrases), width)}) is found in "
                      f"{w.found_count} answer(s) the human marked {w.mark}{more}: check that its phrases say only the "
                      "wrong idea"]
        lines += [f"  {c.answer_id}: {_cut(c.answer, width)!r}" + _found_by(by) for c, by in zip(w.found, w.found_by)]
    return "\n".join(lines) + "\n"


def _found_by(phrases: list[str]) -> str:
    """Which phrases find an answer, as the report says it; nothing where no phrase does on
    its own (the phrases found it together)."""
    return f"  (found by {', '.join(repr(p) for p in phrases)})" if phrases else ""


def _cut(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."
