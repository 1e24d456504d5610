"""Work a marker need not wait for, run in the background and looked up by key.

Why: cross-validating a question's model trains five models (seconds), while the marks of
a retrained model are ready in well under a second. The page shows the marks at once and
the figures when their job is done. A job is known by a key that says exactly what it
computes (for cross-validation, the model's key: a hash of everything it was trained from),
so a result can only ever be shown for the model it was computed for; a newer job of the
same group (the same question, retrained again) cancels the older one if it has not
started, and the older one's result, if it finishes, is never asked for.

No Streamlit here: `grader.app.ui` keeps one `BackgroundJobs` for the server.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import CancelledError, Executor, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as WaitTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

#: How many finished jobs are remembered (their results are also on disk).
KEEP_DONE = 64

RUNNING, READY, FAILED, UNKNOWN = "running", "ready", "failed", "unknown"


def process_executor(workers: int = 1, warm: tuple[str, ...] = ()) -> Executor:
    """Worker processes (started by spawn, safe in a threaded server): CPU-heavy jobs run
    on other cores instead of taking turns with the page's own work for Python's lock.
    `warm`: modules each worker imports at once, so that the first job does not wait for it."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_import if warm else None, initargs=(warm,) if warm else ())


def _import(modules: tuple[str, ...]) -> None:
    import importlib

    for name in modules:
        importlib.import_module(name)


def thread_executor() -> Executor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="grader-background")


class BackgroundJobs:
    """Jobs keyed by what they compute; `submit` starts one (once per key), `state` says
    how it is going. Thread-safe: every browser session of the server shares one."""

    def __init__(self, executor_factory: Callable[[], Executor] = thread_executor):
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._jobs: OrderedDict[str, Future] = OrderedDict()
        self._latest: dict[str, str] = {}  # group -> key of its newest job
        self._lock = threading.Lock()

    def submit(self, key: str, group: str, fn: Callable[..., Any], *args: Any) -> Future:
        """Run `fn(*args)` in the background unless a job of this key is running or done;
        a pending job of the same group with another key is cancelled (it was superseded)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not job.cancelled() and not _broken(job):
                self._latest[group] = key
                return job
            older = self._latest.get(group)
            if older is not None and older != key and older in self._jobs:
                if self._jobs[older].cancel():
                    del self._jobs[older]
            self._latest[group] = key
            try:
                job = self._pool().submit(fn, *args)
            except (BrokenProcessPool, RuntimeError):  # the worker died: start a new one
                self._executor = None
                job = self._pool().submit(fn, *args)
            self._jobs[key] = job
            self._forget_old()
            return job

    def state(self, key: str) -> tuple[str, Any]:
        """(RUNNING, None), (READY, result), (FAILED, the exception) or (UNKNOWN, None) for a
        key never submitted, cancelled, or forgotten."""
        with self._lock:
            job = self._jobs.get(key)
        if job is None or job.cancelled():
            return UNKNOWN, None
        if not job.done():
            return RUNNING, None
        error = job.exception()
        return (FAILED, error) if error is not None else (READY, job.result())

    def latest(self, group: str) -> str | None:
        """The key of the newest job submitted for `group`."""
        with self._lock:
            return self._latest.get(group)

    def wait(self, key: str, timeout: float | None = None) -> tuple[str, Any]:
        """Wait for the job of `key` (at most `timeout` seconds), then its `state`."""
        with self._lock:
            job = self._jobs.get(key)
        if job is not None and not job.cancelled():
            try:
                job.exception(timeout=timeout)
            except (WaitTimeout, CancelledError):  # still running, or cancelled meanwhile
                pass
        return self.state(key)

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = self._factory()
        return self._executor

    def _forget_old(self) -> None:
        done = [k for k, j in self._jobs.items() if j.done()]
        for k in done[:max(0, len(done) - KEEP_DONE)]:
            del self._jobs[k]


def _broken(job: Future) -> bool:
    """A job lost with its worker process: submitting its key again runs it again."""
    return job.done() and isinstance(job.exception(), BrokenProcessPool)
