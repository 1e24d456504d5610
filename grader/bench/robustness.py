"""Benchmark: hostile and careless input (`python -m grader.bench robustness`).

Generates mutated question files (YAML and the ASP rules in them) and mutated exam CSVs from
the bundled samples, with a fixed seed, and runs each through the project's readers in a
separate worker process, so that a parse that hangs in C code (a power tower inside pint)
is detected and the worker replaced. Prints:

- crashes: an exception that is not the project's own error (KnowledgeError, CSVFormatError
  and other ValueErrors with a message are the documented way to refuse a file);
- hangs: a case that took more than the limit (2 s) of CPU time in the worker, or that did
  not answer within ten times the limit at all (killed: a read that blocks, say). CPU time
  is what a file asks of the machine, whatever else runs on it;
- rows lost or duplicated: for CSV mutations that keep every row's identity (quotes, line
  breaks, encodings, separators, blank lines), a file that is read must give every row
  exactly once; refusing the file with an error is fine. A line of a broken multi-line
  answer read as a short row of its own (padded, so graded as blank and flagged) is counted
  apart: no real row is lost.

All three must be 0. `--questions N --csvs M` set the sizes (defaults 5000 and 1000).
"""

from __future__ import annotations

import argparse
import csv
import io
import multiprocessing as mp
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
LIMIT_SECONDS = 2.0
#: A worker that has not answered after this many limits is killed and its case is a hang.
KILL_AFTER_LIMITS = 10

HOSTILE_VALUES = ["!!int abc", "!!float x", "!!timestamp 2024-13-45", "2024-13-45", "!!binary ZZZ",
                  "!!python/object/apply:os.system ['true']", "!!set {a: null}", "'9**9**8 m/s^2'",
                  "'m**(9**9**8)'", "'m^999'", "'((((9)**99)**99)**99)**99 m/s^2'", "'(9 m)**99,999,999'",
                  "'9\u2079\u2079\u2079\u2079\u2079\u2079\u2079\u2079 m'", "'(m\u2079\u2079)\u2079\u2079'",
                  "1e400", "-1e400", ".nan", ".inf", "&a x", "*a", "~",
                  "'\\u0000'", "\"\\ud800\"", "[" * 300 + "]" * 300, "{a: " * 200 + "1" + "}" * 200]


# -- generating cases ------------------------------------------------------------------------

def _hostile(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "9" * rng.randint(300, 5000)
    if kind < 0.25:
        return "0." + "9" * rng.randint(300, 600)
    return rng.choice(HOSTILE_VALUES)


def mutate_text(text: str, rng: random.Random) -> str:
    """One or a few careless or hostile edits of a question file's text."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        kind = rng.randrange(8)
        if not text:
            return text
        at = rng.randrange(len(text))
        if kind == 7:  # the value of a quantity's unit, tolerance or value, or a rule's confidence
            spots = [m.span(1) for m in _KEYED.finditer(text)]
            if spots:
                start, end = rng.choice(spots)
                text = text[:start] + _hostile(rng) + text[end:]
        elif kind == 0:  # a value replaced by something hostile
            spots = [m.span() for m in _WORD.finditer(text)]
            start, end = rng.choice(spots) if spots else (at, at)
            text = text[:start] + _hostile(rng) + text[end:]
        elif kind == 1:  # truncated
            text = text[:at]
        elif kind == 2:  # a character deleted
            text = text[:at] + text[at + 1:]
        elif kind == 3:  # a syntax character inserted
            text = text[:at] + rng.choice(":-,.'\"%\n\t()[]{}#&*!|>") + text[at:]
        elif kind == 4:  # a line duplicated or moved
            lines = text.splitlines(keepends=True)
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines.insert(j, lines[i])
            text = "".join(lines)
        elif kind == 5:  # a number inside a rule made huge
            numbers = [m.span() for m in _NUMBER.finditer(text)]
            if numbers:
                start, end = rng.choice(numbers)
                text = text[:start] + "9" * rng.randint(300, 5000) + text[end:]
        else:  # a byte-level accident
            text = text[:at] + rng.choice(["\x00", "\ufeff", "\u202e", "\r", "\\", "\t\t"]) + text[at:]
    return text


def _base_rows() -> list[list[str]]:
    rows = []
    for path in sorted(SAMPLE.glob("*/marked.csv")):
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows += [[r["answer"]] for r in csv.DictReader(f)]
    return rows


def make_csv(rows: list[list[str]], rng: random.Random) -> tuple[bytes, list[str] | None]:
    """(file bytes, the ids a correct reading gives, or None when the mutation may change
    them): an export of 5-40 answers with one or a few mutations."""
    n = rng.randint(5, 40)
    answers = [rng.choice(rows)[0] for _ in range(n)]
    ids = [f"r{i + 1}" for i in range(n)]
    delimiter = rng.choice([",", ";", "\t"])
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=rng.choice(["\n", "\r\n"]))
    if rng.random() < 0.5:
        writer.writerow(["id", "answer"])
        writer.writerows(zip(ids, answers))
    else:  # cells after the answer: a quote closed inside the next answer leaves a short line
        writer.writerow(["id", "name", "answer", "note"])
        writer.writerows((i, f"N{k}", a, rng.choice(["", "late", "x"])) for k, (i, a) in enumerate(zip(ids, answers)))
    text = buffer.getvalue()
    keeps_ids = True
    for _ in range(rng.choice((1, 1, 2))):
        kind = rng.randrange(7)
        lines = text.splitlines(keepends=True)
        if kind == 6 and len(lines) > 3:  # a stray opening quote; the next answer holds a quote mid-way
            i = rng.randrange(1, len(lines) - 1)
            for k, mark in ((i, '"'), (i + 1, '" ')):
                cells = lines[k].rstrip("\r\n").split(delimiter)
                at = min(len(cells) - 1, 2 if len(cells) >= 4 else 1)
                cells[at] = mark + cells[at].strip('"') if k == i else \
                    cells[at].strip('"')[:5] + mark + cells[at].strip('"')[5:]
                lines[k] = delimiter.join(cells) + lines[k][len(lines[k].rstrip("\r\n")):]
            text = "".join(lines)
            continue
        if kind == 0 and len(lines) > 3:  # a quote opened in one row, maybe closed some rows later
            i = rng.randrange(1, len(lines) - 1)
            head, sep, rest = lines[i].partition(delimiter)
            lines[i] = head + sep + '"' + rest
            if rng.random() < 0.7:
                j = min(len(lines) - 1, i + rng.randint(1, 5))
                body = lines[j].rstrip("\r\n")
                lines[j] = body + '"' + lines[j][len(body):]
            text = "".join(lines)
        elif kind == 1:  # blank lines
            i = rng.randrange(1, len(lines) + 1)
            lines.insert(i, "\n")
            text = "".join(lines)
        elif kind == 2 and any(delimiter in line for line in lines[1:]):  # a genuine line break, quoted
            i = rng.choice([k for k in range(1, len(lines)) if delimiter in lines[k]])
            head, sep, rest = lines[i].partition(delimiter)
            body = rest.rstrip("\r\n").strip('"').replace('"', '""')
            lines[i] = f'{head}{sep}"{body}\nand more on a second line"' + rest[len(rest.rstrip("\r\n")):]
            text = "".join(lines)
        elif kind == 3:  # a byte-level accident
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(["\x00", '"', "\r", "\ufeff"]) + text[at:]
            keeps_ids = False
        elif kind == 4:  # the file cut short
            text = text[:rng.randrange(len(text))]
            keeps_ids = False
        # kind 5: left as written (only the encoding below changes)
    encoding = rng.choice(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32", "cp1252", "utf-8"])
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    if rng.random() < 0.03:  # not a CSV at all
        data = rng.choice([b"PK\x03\x04", b"%PDF-1.5\n", b""]) + rng.randbytes(rng.randint(0, 2000))
        keeps_ids = False
    return data, (ids if keeps_ids else None)


_WORD = __import__("re").compile(r"[A-Za-z0-9.%/^']+")
_NUMBER = __import__("re").compile(r"\d+(?:\.\d+)?")
_KEYED = __import__("re").compile(r"(?:unit|tolerance|value|confidence): *([^\n#]+)")


# -- running cases in a worker ---------------------------------------------------------------

def _run_case(kind: str, payload: bytes | str, folder: str) -> tuple[str, str, float]:
    """("ok"|"refused"|"crash", detail, CPU seconds) for one case, in the worker process."""
    start = time.process_time()
    result, detail = _case_outcome(kind, payload, folder)
    return result, detail, time.process_time() - start


def _case_outcome(kind: str, payload: bytes | str, folder: str) -> tuple[str, str]:
    try:
        if kind == "question":
            from knowledge import check_question_text

            problems = check_question_text(payload, "question.yaml")
            if any(p.line < 1 or p.column < 1 for p in problems):
                return "crash", f"a problem without a place: {problems[0]}"
            return ("refused" if problems else "ok"), ""
        path = Path(folder) / "exam.csv"
        path.write_bytes(payload)
        from grader.exams.csv_reader import read_table

        frame, _, _ = read_table(path)
        ids = frame[frame.columns[0]].tolist() if len(frame.columns) else []
        return "ok", "\x1f".join(map(str, ids))
    except ValueError as err:  # KnowledgeError, CSVFormatError: the documented refusals
        return ("refused", "") if str(err) else ("crash", f"{type(err).__name__} without a message")
    except Exception as err:  # noqa: BLE001 - what this benchmark counts
        return "crash", f"{type(err).__name__}: {str(err)[:200]}"


def _worker(conn, folder: str) -> None:
    while True:
        case = conn.recv()
        if case is None:
            return
        conn.send(_run_case(*case, folder))


class _Runner:
    """One worker process; replaced when a case takes longer than the limit."""

    def __init__(self, folder: str):
        self.folder = folder
        self.context = mp.get_context("spawn")
        self._start()

    def _start(self) -> None:
        self.conn, child = self.context.Pipe()
        self.process = self.context.Process(target=_worker, args=(child, self.folder), daemon=True)
        self.process.start()
        self.conn.send(("question", "id: warm\n"))  # imports happen here, not in a timed case
        self.conn.recv()

    def run(self, kind: str, payload, limit: float) -> tuple[str, str, float]:
        """(result, detail, CPU seconds); "hang" past `limit` CPU seconds or when killed."""
        start = time.perf_counter()
        self.conn.send((kind, payload))
        if not self.conn.poll(limit * KILL_AFTER_LIMITS):
            self.process.kill()
            self.process.join()
            self._start()
            return "hang", "", time.perf_counter() - start
        result, detail, seconds = self.conn.recv()
        return ("hang" if seconds > limit else result), detail, seconds

    def close(self) -> None:
        self.conn.send(None)
        self.process.join(5)


def run(n_questions: int, n_csvs: int, seed: int = 0, limit: float = LIMIT_SECONDS,
        report: Callable[[str], None] = lambda line: None) -> dict:
    """Generate and run the cases; the counts and a few examples of each failure."""
    rng = random.Random(seed)
    bases = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.glob("*/question.yaml"))]
    rows = _base_rows()
    counts: Counter = Counter()
    examples: dict[str, list[str]] = {}
    slowest = 0.0
    with tempfile.TemporaryDirectory() as folder:
        runner = _Runner(folder)
        try:
            for i in range(n_questions):
                text = mutate_text(rng.choice(bases), rng)
                result, detail, seconds = runner.run("question", text, limit)
                slowest = max(slowest, seconds)
                counts[f"question {result}"] += 1
                if result in ("crash", "hang"):
                    examples.setdefault(result, []).append(f"question file: {detail or text[:120]!r}")
                if (i + 1) % 1000 == 0:
                    report(f"  {i + 1} question files")
            for i in range(n_csvs):
                data, ids = make_csv(rows, rng)
                result, detail, seconds = runner.run("csv", data, limit)
                slowest = max(slowest, seconds)
                counts[f"csv {result}"] += 1
                if result in ("crash", "hang"):
                    examples.setdefault(result, []).append(f"csv: {detail or data[:120]!r}")
                elif result == "ok" and ids is not None:
                    read = Counter(detail.split("\x1f"))
                    if any(read[i] != 1 for i in ids):
                        counts["rows lost or duplicated"] += 1
                        examples.setdefault("rows", []).append(f"csv: {data[:200]!r}")
                    elif sum(read.values()) > len(ids):  # a stray line of a broken answer, padded
                        counts["csv with a stray line read as a row"] += 1
                if (i + 1) % 500 == 0:
                    report(f"  {i + 1} CSV files")
        finally:
            runner.close()
    return {"counts": dict(counts), "examples": {k: v[:5] for k, v in examples.items()},
            "crashes": counts["question crash"] + counts["csv crash"],
            "hangs": counts["question hang"] + counts["csv hang"],
            "rows_lost_or_duplicated": counts["rows lost or duplicated"], "slowest_seconds": slowest}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.bench robustness", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=5000, help="mutated question files (default 5000)")
    parser.add_argument("--csvs", type=int, default=1000, help="mutated exam CSVs (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=LIMIT_SECONDS, help="CPU seconds over which a case is a hang")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    result = run(args.questions, args.csvs, args.seed, args.limit, report=print)
    c = result["counts"]
    print(f"{args.questions} question files: {c.get('question ok', 0)} read, "
          f"{c.get('question refused', 0)} refused with located problems")
    print(f"{args.csvs} exam CSVs: {c.get('csv ok', 0)} read, {c.get('csv refused', 0)} refused with an error")
    print(f"crashes that are not the project's error: {result['crashes']}")
    print(f"hangs over {args.limit:g} s of CPU: {result['hangs']} (slowest case {result['slowest_seconds']:.2f} s)")
    print(f"rows lost or duplicated: {result['rows_lost_or_duplicated']} (files read with a stray line of a "
          f"broken answer as a row of its own, every real row once: {c.get('csv with a stray line read as a row', 0)})")
    for kind, lines in result["examples"].items():
        print(f"examples ({kind}):", *lines, sep="\n  ")
    print(f"[{time.perf_counter() - t0:.0f} s]")
    return 0 if result["crashes"] == result["hangs"] == result["rows_lost_or_duplicated"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
