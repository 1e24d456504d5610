"""Benchmark tasks in worker processes: one call per task, the results in the tasks' order.

Why apart: every per-question benchmark fans its questions out the same way, and the pool is
only worth starting for more than one job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor


def run_tasks(function: Callable, tasks: Sequence[tuple], jobs: int = 1) -> list:
    """`[function(*task) for task in tasks]`, in `jobs` processes when more than one."""
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(function, *zip(*tasks)))
    return [function(*task) for task in tasks]
