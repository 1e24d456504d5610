"""Streamlit helpers shared by the page and every view: the resources cached for all
browser sessions (the review store, the open exams), the marker's name, one-shot notices,
and escaping user text for elements that render Markdown.

The views import this module and never each other's page; `page.main` ties them together.
"""

from __future__ import annotations

import json
import re
import threading
from concurrent.futures import Executor
from datetime import datetime, timezone
from pathlib import Path

import streamlit as st

from grader.app.background import BackgroundJobs, process_executor
from grader.app.cross_validation import READY, RUNNING, CrossValidations, calibrate_question, is_calibrated
from grader.app.review import local_time, pseudonym
from grader.app.review_store import ReviewStore
from grader.app.served_files import served_exam
from grader.app.session import ExamSession, QuestionSession, open_exam
from grader.app.settings import AppSettings
from grader.atomic_file import atomic_write_text
from grader.exams.exam_io import read_exam


# -- shared resources ------------------------------------------------------------------------

@st.cache_resource(show_spinner=False)
def get_store(db_path: str) -> ReviewStore:
    """One store object per database file, shared by every browser session."""
    return ReviewStore(db_path)


@st.cache_resource(show_spinner=False)
def _sessions() -> tuple[dict, threading.Lock]:
    """Open exams shared by every browser session, keyed by exam file and input stamp."""
    return {}, threading.Lock()


@st.cache_resource(show_spinner=False)
def _background_jobs() -> BackgroundJobs:
    """The server's background jobs (cross-validations), in one worker process."""
    return BackgroundJobs(process_executor)


@st.cache_resource(show_spinner=False)
def train_workers() -> Executor:
    """Worker processes that learn the resampled models of a retrain while the page's process
    fits the rest (`GradingModel.train(executor=...)`). The views a retrain starts from call
    this when they are shown, so the workers are ready (warm) by the time the marker saves."""
    from grader.grading.agreement import CHUNKS

    workers = process_executor(CHUNKS, warm=("grader.grading.agreement",))
    for _ in range(CHUNKS):  # start them now, not at the first retrain
        workers.submit(int)
    return workers


def cross_validations(settings: AppSettings) -> CrossValidations:
    """The cross-validated figures of the models, computed in the background when asked for."""
    return CrossValidations(settings.workdir / "models", _background_jobs())


#: How often a part of the page waiting for a background job looks again (seconds).
POLL_SECONDS = 1.0


def refresh_while_running(settings: AppSettings, questions: list[QuestionSession]) -> None:
    """While the cross-validation of one of `questions` runs in the background, look again
    every POLL_SECONDS and show the page again once none is left (the marker goes on
    meanwhile: only this empty fragment reruns)."""
    cv = cross_validations(settings)
    if any(cv.running(qs) for qs in questions):
        _poll(settings, tuple(questions))


@st.fragment(run_every=POLL_SECONDS)
def _poll(settings: AppSettings, questions: tuple[QuestionSession, ...]) -> None:
    cv = cross_validations(settings)
    if not any(cv.running(qs) for qs in questions):
        st.rerun()


def calibrate_session(session: ExamSession, settings: AppSettings, watch: bool = True) -> list[str]:
    """Attach to each question's model the calibration its cross-validation (run in the
    background, kept in the working folder) gives, grading its answers again, so that the
    confidences shown are probabilities (`cross_validation.calibrate_question`); while a job
    runs the page looks again, unless `watch` is False (a view where a redraw would take the
    marker's focus, such as the rubric editor: the next run picks the calibration up). The
    questions whose figures are not calibrated (yet)."""
    cv = cross_validations(settings)
    waiting = []
    for qs in session.questions.values():
        if qs.starter or is_calibrated(qs):  # nothing to read again at every rerun
            continue
        status, figures = cv.state(qs)  # starts the job the first time
        if status == READY:
            calibrate_question(qs, figures)
        elif status == RUNNING:
            waiting.append(qs)
    if waiting and watch:
        refresh_while_running(settings, waiting)
    return [q for q, qs in session.questions.items() if not is_calibrated(qs)]


def stop_target() -> float:
    """The accuracy the stop estimate vouches for: the sidebar's target, else the default."""
    from grader.grading.stop import DEFAULT_TARGET

    state = st.session_state
    return float(state.get("target_accuracy") or DEFAULT_TARGET) if state.get("flag_by", "").startswith("to a target") \
        else DEFAULT_TARGET


def show_stop_advice(table, threshold: float) -> None:
    """Whether the marker can stop, per question and pooled (`grader.app.stop_view`), from the
    Spot checks view's checks; plain text (it names questions, user text)."""
    from grader.app.stop_view import SAMPLE_SIZE, advice_lines

    state = st.session_state
    lines = advice_lines(table, threshold, state.get("spot_wrong", set()), stop_target(),
                         int(state.get("spot_size_kept", SAMPLE_SIZE)), int(state.get("spot_seed", 0)))
    with st.container(border=True, key="stop_advice"):
        st.markdown(f"**Can I stop marking?** (target: {stop_target():.0%} of the class's final marks right, "
                    "your decisions counted as right)")
        for action, text in lines:
            (st.success if action == "stop" else st.info)(md_escape(text))
        if any(action != "stop" for action, _ in lines):
            st.caption("Deciding the groups in the Groups view leaves the machine fewer answers, and so fewer "
                       "checks to vouch for them.")


def input_stamp(path: Path, settings: AppSettings) -> tuple:
    """What a session depends on: the exam's files and the extended training sets, by mtime."""
    files = [path]
    try:
        exam = read_exam(path)
        files += [exam.answers] + [p for q in exam.questions for p in (q.question, q.training) if p]
    except Exception:  # reported when the exam is opened
        pass
    extended = settings.workdir / "exams"
    if extended.is_dir():
        files += sorted(extended.glob("*/training/*.csv"))
    stamp = []
    for f in files:
        try:
            s = Path(f).stat()
            stamp.append((str(f), s.st_mtime_ns, s.st_size))
        except OSError:
            stamp.append((str(f), None, None))
    return tuple(stamp)


def get_session(path: Path, settings: AppSettings) -> ExamSession:
    """The open exam for `path`, opening it (with a progress bar) if its inputs changed; the
    questions whose inputs did not change are taken from the session open before."""
    served_exam(path, settings)  # refuse files outside the served folders before reading them
    cache, lock = _sessions()
    key = (str(Path(path).resolve()), input_stamp(path, settings))
    with lock:
        if key in cache:
            return cache[key]
        bar = st.progress(0.0, text="Opening the exam…")

        def progress(fraction: float, message: str) -> None:
            bar.progress(min(1.0, max(0.0, fraction)), text=message)

        previous = next((s for k, s in cache.items() if k[0] == key[0]), None)
        try:
            # a retrain (the exam was open): the marker waits for it, the workers help
            session = open_exam(path, settings, progress, previous=previous,
                                executor=train_workers() if previous is not None else None)
        finally:  # a file that cannot be opened leaves a message, not a bar that never ends
            bar.empty()
        for old in [k for k in cache if k[0] == key[0]]:
            del cache[old]
        cache[key] = session
        remember_session(settings, session)
        return session


def remember_session(settings: AppSettings, session: ExamSession) -> None:
    """Note the exam in the working folder so that it can be reopened from the sidebar."""
    folder = settings.workdir / "exams" / session.exam_id
    folder.mkdir(parents=True, exist_ok=True)
    info = {"path": str(session.path.resolve()), "name": session.name,
            "opened_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    atomic_write_text(folder / "session.json", json.dumps(info, indent=1))


def saved_sessions(settings: AppSettings) -> list[dict]:
    """Exams opened before, most recent first (each with its `exam_id`, its folder's name)."""
    found = []
    for f in (settings.workdir / "exams").glob("*/session.json"):
        try:
            info = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(info, dict) and Path(info.get("path", "")).exists():
            found.append({**info, "exam_id": f.parent.name})
    return sorted(found, key=lambda i: i.get("opened_at", ""), reverse=True)


# -- the marker and notices -----------------------------------------------------------------

def marker() -> str:
    """The marker's name as typed in the sidebar ("" if none)."""
    return str(st.session_state.get("marker", "")).strip()


MARKER_COOKIE = "grader_marker"


def remembered_marker() -> str | None:
    """The name this browser last used: from the page's address (`?marker=`, kept by a
    reload) or from the browser's cookie (kept for new tabs), else None."""
    name = st.query_params.get("marker")
    if not name:
        try:
            from urllib.parse import unquote

            cookie = st.context.cookies.get(MARKER_COOKIE)
            name = unquote(cookie) if isinstance(cookie, str) else None
        except Exception:  # no browser behind the session (tests, scripts)
            name = None
    return name.strip() or None if isinstance(name, str) else None


def remember_marker() -> None:
    """Keep the name in the address and in a cookie of this browser, so that a reload or a new
    tab does not credit decisions to the login name (callback of the name box)."""
    name = marker()
    if name:
        st.query_params["marker"] = name
    else:
        st.query_params.pop("marker", None)
    st.session_state["marker_cookie"] = name


def write_marker_cookie() -> None:
    """Set the cookie asked for by `remember_marker` (a one-line script of ours on the page:
    Streamlit can read cookies but not set them)."""
    import json

    # Always one element here, the script or an empty placeholder: an element that comes and
    # goes moves the sidebar's widgets below it, and a widget the browser draws again starts
    # from its default (see page.main), which would undo a choice the marker made there.
    slot = st.empty()
    name = st.session_state.pop("marker_cookie", None)
    if name is None:
        return
    # a JS string literal that cannot end the string or the <script> element, whatever the name
    value = json.dumps(name).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    slot.html(f"<script>document.cookie = '{MARKER_COOKIE}=' + encodeURIComponent({value}) + "
              "'; path=/; max-age=31536000; SameSite=Strict';</script>", unsafe_allow_javascript=True)


def ask_name(form_key: str) -> None:
    """In a decision form, while the marker has given no name: a box for it, so that the first
    decision asks for the name instead of crediting it to someone (`take_name` reads it)."""
    if not marker():
        st.text_input("Your name (saved with this decision and the next ones)", key=f"ask_name|{form_key}")


def take_name(form_key: str) -> None:
    """Form callback, before saving: a name typed into the form's box becomes the marker's
    name, in the sidebar and kept in this browser as one typed there."""
    name = str(st.session_state.pop(f"ask_name|{form_key}", "") or "").strip()
    if name and not marker():
        st.session_state["marker"] = name
        remember_marker()


def ready_to_decide(mark: str | None, form_key: str | None = None) -> bool:
    """A decision needs the marker's name (the audit trail) and a mark; say which is missing.
    `form_key`: the form that asked for the name (`ui.ask_name`), if it did."""
    if form_key is not None:
        take_name(form_key)
    if not marker():
        notice("error", "Type your name first: every decision is saved with it.")
        return False
    if not mark:
        notice("error", "Choose a mark first.")
        return False
    return True


def anonymous() -> bool:
    """Whether the marking views hide students' ids (the sidebar's setting)."""
    return bool(st.session_state.get("anonymous", True))


def shown_id(exam_id: str, answer_id: str) -> str:
    """A student's id as the marking views show it: a pseudonym under anonymous marking."""
    return pseudonym(exam_id, answer_id) if anonymous() else str(answer_id)


def answer_key(kind: str, exam_id: str, question_id: str, answer_id: str) -> str:
    """The key of a widget about one answer: the question and a hash of the student's id,
    never the id itself (Streamlit puts every key on the page, as a `st-key-<key>` class,
    where anonymous marking must not show an e-mail address)."""
    import hashlib

    digest = hashlib.sha256(f"{exam_id}\x00{answer_id}".encode("utf-8")).hexdigest()[:16]
    return f"{kind}|{question_id}|{digest}"


def shown_time(iso: object) -> str:
    """A stored UTC time in the browser's time zone (the server's when the browser does not
    say)."""
    try:
        zone = st.context.timezone
    except Exception:  # no browser behind the session (tests, scripts)
        zone = None
    return local_time(iso, zone)


def notice(kind: str, text: str) -> None:
    """Show `text` (an st.success/info/warning/error kind) once, on the next run of the page."""
    st.session_state["notice"] = (kind, text)


def show_notice() -> None:
    kind, text = st.session_state.pop("notice", (None, None))
    if kind:
        getattr(st, kind)(md_escape(text))


#: Every ASCII punctuation character: CommonMark lets each be escaped with a backslash, and
#: escaping all of them leaves no emphasis, link, code span, HTML tag, heading, list, table,
#: `$` math or `:red[...]` directive to open.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
#: Line breaks of any kind: a blank line would end the paragraph (and a code span around it).
_LINE_BREAKS = re.compile(r"[ \t]*(?:\r\n|[\r\n\v\f\x85\u2028\u2029])\s*")


def md_escape(text: object) -> str:
    """Text from a file or a marker, shown literally by an element that renders Markdown
    (st.markdown, captions, info/warning/error, button, radio and metric labels).

    Line breaks become spaces (a label is one line; a blank line would start a new block),
    every ASCII punctuation character is backslash-escaped, and a colon is followed by an
    invisible word joiner, because Streamlit turns `:name:` into an emoji or icon after the
    escapes are read.
    """
    flat = _LINE_BREAKS.sub(" ", str(text)).strip()
    return _PUNCTUATION.sub(r"\\\1", flat).replace(":", ":\u2060")
