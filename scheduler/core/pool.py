"""The one process pool of tourney: independent parts of a solve (``scheduler.engine.parts``) and
the variants of a sweep (``scheduler.studies.sweep``) each run as tasks of it.

Workers are started by ``fork`` where the platform has it: they start at once with everything
imported, and a script or notebook that calls ``solve()`` needs no
``if __name__ == "__main__"`` guard. Elsewhere (Windows, macOS without fork) ``spawn``.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any


def pool_context() -> BaseContext:
    """The multiprocessing context of every pool: ``fork`` where available, else ``spawn``.
    Objects shared with the workers (e.g. a stop ``Event``) are made from it."""
    return mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")


def process_pool(jobs: int, tasks: int, *, initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``min(jobs, tasks)`` worker processes (at least 1) of :func:`pool_context`;
    ``initializer(*initargs)`` runs in each worker as it starts."""
    return ProcessPoolExecutor(max_workers=max(1, min(jobs, tasks)), mp_context=pool_context(),
                               initializer=initializer, initargs=initargs)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes at once (Ctrl-C, or a task that failed): a
    running task stops now instead of finishing; the caller then shuts the pool down.
    ``ProcessPoolExecutor`` has no public call for it: its ``_processes`` are read (none
    when it has none)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()
