"""`grader groups`: the groups of similar answers the app's Groups view shows, for scripts.

A batch user (or a script deciding a group at once) gets the same groups as the app
(`grader.app.grouping.groups_to_decide`): the answers not marked yet, alike in what the model
finds in them and in wording, gathered around a leader the model proposed the same mark for.
With `--marked` answers of two marks or more (as `grader suggest` takes them), the model
trained on them finds the features and proposes each answer's mark; without, as in the app
before any model, only answers with the same words are grouped.
Kept apart from `grader.cli` (which registers it) so that each module stays one idea.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from grader.general_commands import add_exam_arguments, exam_with_marks


def add_parser(sub, add_columns) -> None:
    """Register `groups` on the CLI's subparsers."""
    p = sub.add_parser("groups", help="the groups of similar answers of an exam",
                       description="Print the groups to decide (as the app's Groups view shows them): the answers "
                       "not marked yet, alike in what the rubric finds in them and in wording, each group with one "
                       "proposed mark, largest first: each group's size, its leader (the answer the others are "
                       "alike to) and its members; with --marked, the marks the model trained on the marked "
                       "answers proposes.")
    add_exam_arguments(p, "the answers to group", "the answers marked so far (id, answer, mark): they train the "
                       "model that finds what the answers say and proposes marks")
    p.add_argument("--json", action="store_true", help="print the groups as JSON")
    add_columns(p, mark=True)


def cmd_groups(args: argparse.Namespace, warn) -> int:
    from knowledge import load_question

    from grader.app.grouping import groups_to_decide
    from grader.app.starter import NoModel
    from grader.grading.suggest import MIN_MARKED_FOR_MODEL, current_model

    question = load_question(args.question)
    ids, texts, marks, extra = exam_with_marks(args, question, warn)
    model = current_model(question, texts + [a for a, _ in extra], marks + [m for _, m in extra])
    if model is None:
        note = (f"no model (fewer than {MIN_MARKED_FOR_MODEL} marked answers of two marks): only answers with "
                "the same words are grouped, and no mark is proposed")
        judge = NoModel(question)
        proposed, confidence = [None] * len(texts), [None] * len(texts)
    else:
        note = f"grouped on what the model trained on {sum(m is not None for m in marks) + len(extra)} marked answers finds"
        judge = model
        graded = model.grade(texts)
        proposed = graded["mark"].tolist()
        confidence = [None if c != c else round(float(c), 4) for c in graded["confidence"]]
    decided = [m is not None for m in marks]
    group, leaders = groups_to_decide(judge.features(texts), texts, proposed, decided)
    out = []
    for g, leader in enumerate(leaders):
        members = [i for i in range(len(texts)) if group[i] == g]
        if len(members) < 2:
            continue
        given = Counter(proposed[i] for i in members if proposed[i] is not None)
        out.append({"size": len(members), "leader": {"id": ids[leader], "answer": texts[leader]},
                    "proposed": given.most_common(1)[0][0] if given else None,
                    "proposed_marks": dict(sorted(given.items())),
                    "members": [{"id": ids[i], "answer": texts[i], "proposed": proposed[i],
                                 "confidence": confidence[i]} for i in members]})
    out.sort(key=lambda r: -r["size"])  # stable: leaders' order among equal sizes
    alone = [ids[i] for i in range(len(texts)) if group[i] >= 0 and sum(group == group[i]) == 1]
    if args.json:
        print(json.dumps({"note": note, "answers": len(texts), "marked": sum(decided), "groups": out, "alone": alone},
                         indent=1, ensure_ascii=False))
        return 0
    print(f"{len(out)} group(s) of two or more alike answers among the {len(texts) - sum(decided)} of {len(texts)} "
          f"answers not marked yet, largest first ({len(alone)} alike to no other; {note}):")
    for rank, r in enumerate(out, 1):
        marks_text = ", ".join(f"{m} ({n})" for m, n in r["proposed_marks"].items())
        print(f"{rank:3d}. {r['size']} answers like {r['leader']['id']}: "
              f"{json.dumps(r['leader']['answer'], ensure_ascii=False)}"
              + (f"; proposed {marks_text}" if marks_text else ""))
        print("     " + ", ".join(m["id"] for m in r["members"]))
    return 0
