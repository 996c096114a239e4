"""Every CP-SAT solve of tourney goes through here: one parameter builder, one interruptible
search.

The lexicographic stages of :mod:`scheduler.engine.objective` and the conflict explanation of
:mod:`scheduler.engine.explain` both build their ``CpSolver`` with :func:`new_solver`, so both stop
on CP-SAT's *deterministic* time (the same answer on any machine and under any load; a
wall-clock ``time_limit`` only when asked for), with a fixed ``random_seed``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from ortools.sat.python import cp_model

from scheduler.core.errors import EXIT_INTERRUPTED, TourneyError

DETERMINISTIC_TIME = 30.0
"""Default CP-SAT deterministic time limit per search (placed and fees are one) and part (about
seconds on a typical machine, but the same on every machine and under any load)."""


class Interrupted(TourneyError, RuntimeError):
    """The user pressed Ctrl-C during a solve; the search was stopped."""

    exit_code = EXIT_INTERRUPTED

    def format_message(self) -> str:
        return "tourney: interrupted before any plan was found; nothing was written."


# The solve stages' parts are small and their LP is tight: the cuts, probing and symmetry
# detection cost more than they prune (measured on every search of N = 200 and 1,000:
# 0.80 and 0.82 of CP-SAT's CPU, every optimum the same value; docs/development.md).
_LEAN = {"add_cg_cuts": False, "add_mir_cuts": False, "add_zero_half_cuts": False,
         "add_clique_cuts": False, "cp_model_probing_level": 0, "symmetry_level": 0}


def new_solver(*, time_limit: float | None, deterministic_time: float | None, seed: int,
               workers: int = 1, repeated_presolve: bool = False) -> cp_model.CpSolver:
    """A ``CpSolver`` with tourney's parameters.

    Parameters
    ----------
    time_limit
        Wall-clock seconds (``max_time_in_seconds``); None: no wall-clock limit.
    deterministic_time
        CP-SAT deterministic time units (``max_deterministic_time``); None: no such limit.
    seed
        ``random_seed``.
    workers
        ``num_workers``; more than one uses the deterministic interleaved search.
    repeated_presolve
        False (the solve stages): one presolve pass (``max_presolve_iterations = 0``): the
        parts are small and their LP is tight, and the repeated rounds took more than half of
        the wall time on the benchmark set (same optima, checked against HiGHS by
        benchmarks/run.py); no cuts, probing or symmetry detection (``_LEAN``). True:
        CP-SAT's default rounds and settings (the conflict explanation).

    Every solver gets ``linearization_level = 2``: the fee stage needs the LP of the
    licence-covering clauses, and the conflict explanation the LP of the guarded limits (it
    proves pigeonhole conflicts, 17 required into 16 slots, at once).
    """
    solver = cp_model.CpSolver()
    p = solver.parameters
    if time_limit is not None:
        p.max_time_in_seconds = time_limit
    if deterministic_time is not None:
        p.max_deterministic_time = deterministic_time
    p.random_seed = seed
    p.num_workers = workers
    p.linearization_level = 2
    if not repeated_presolve:
        p.max_presolve_iterations = 0
        for name, value in _LEAN.items():
            setattr(p, name, value)
    if workers > 1:
        p.interleave_search = True  # deterministic multi-worker search
    return solver


@dataclass(frozen=True)
class Options:
    """How to search: wall-clock ``time_limit`` (seconds, per search and part; None: no wall
    limit), ``deterministic_time`` (CP-SAT's deterministic time units per search and part;
    None: no such limit), CP-SAT ``seed`` and ``workers``."""

    time_limit: float | None = None
    deterministic_time: float | None = DETERMINISTIC_TIME
    seed: int = 0
    workers: int = 1

    def solver(self) -> cp_model.CpSolver:
        """A solver of one lexicographic stage (:func:`new_solver`)."""
        return new_solver(time_limit=self.time_limit, deterministic_time=self.deterministic_time,
                          seed=self.seed, workers=self.workers)


def search(solver: cp_model.CpSolver, model: cp_model.CpModel,
           stop: Callable[[], bool] | None = None) -> tuple[int, bool]:
    """``solver.solve(model)`` in a worker thread, so that Ctrl-C in the main thread (or
    ``stop()`` turning true) stops the search with ``stop_search``. Returns (CP-SAT status,
    whether the search was stopped); a stopped search keeps its best solution."""
    if stop is not None and stop():
        return int(cp_model.UNKNOWN), True
    solver.parameters.catch_sigint_signal = False
    box: dict[str, int | BaseException] = {}
    finished = threading.Event()

    def work() -> None:
        try:
            box["status"] = int(solver.solve(model))
        except BaseException as exc:  # pragma: no cover - re-raised below
            box["error"] = exc
        finally:
            finished.set()

    threading.Thread(target=work, daemon=True).start()
    stopped = False
    try:
        while not finished.wait(0.05):
            if stop is not None and not stopped and stop():
                stopped = True
                solver.stop_search()
    except KeyboardInterrupt:
        stopped = True
        solver.stop_search()
        finished.wait()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return int(box["status"]), stopped  # type: ignore[arg-type]


def solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> int:
    """``solver.solve(model)``; Ctrl-C stops the search and raises :class:`Interrupted`."""
    status, stopped = search(solver, model)
    if stopped:
        raise Interrupted("interrupted")
    return status
