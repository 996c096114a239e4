"""Solve a scenario: one finished Plan (:func:`solve`), or the best few
(:func:`solve_alternatives`).

The work is done below, one responsibility a module (docs/architecture.md):
:mod:`scheduler.objective` (the objective's terms, the lexicographic stages: most
priority-weighted occurrences placed, required ones first; least fees in USD; most on
preferred weekdays), :mod:`scheduler.extract` (a Plan from a solution),
:mod:`scheduler.reasons` (why an occurrence was not placed), :mod:`scheduler.parts` (one
independent part solved and audited; the parts in a process pool),
:mod:`scheduler.alternatives` and :mod:`scheduler.publishing` (UIDs, re-plan and
replaced-folder publishing state). Every Plan returned here is finished: nothing is filled
in afterwards.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from scheduler.alternatives import alternatives
from scheduler.cpsat import DETERMINISTIC_TIME, Interrupted, Options, solve_interruptibly
from scheduler.decompose import components, merge, split_previous
from scheduler.extract import placed_of
from scheduler.load import validate_scenario
from scheduler.objective import STAGES, SolverError
from scheduler.parts import AuditError, Progress, solve_parts
from scheduler.plan import Plan, PlanStatus
from scheduler.publishing import identify, with_replaced
from scheduler.reasons import unscheduled
from scheduler.replan import PublishedOccurrence, read_previous
from scheduler.scenario import Scenario
from scheduler.timing import forget_timings

__all__ = ["DETERMINISTIC_TIME", "STAGES", "AuditError", "Interrupted", "Options",
           "PlanStatus", "Progress", "SolverError", "identify", "placed_of", "solve",
           "solve_alternatives", "solve_interruptibly", "unscheduled"]


def _options(seed: int, workers: int, jobs: int, time_limit: float | None,
             deterministic_time: float | None) -> Options:
    if seed < 0 or workers < 1 or jobs < 1:
        raise ValueError(f"seed must be at least 0, workers and jobs at least 1 (got seed "
                         f"{seed}, workers {workers}, jobs {jobs})")
    return Options(time_limit, deterministic_time, seed, workers)


def _trim_heap() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing
    elsewhere): the CP-SAT models of the parts solved leave them free but resident, and
    the writing of the plan does not reuse them (issue #16: about 13 MB after 15 parts of
    a statewide scenario)."""
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return
    if trim is not None:
        trim(0)


def _with_history(scenario: Scenario, ledger: Any) -> Scenario:
    """``scenario`` with its history from ``ledger`` (None: as it is)."""
    if ledger is None:
        return scenario
    # start-up time: sqlalchemy only when a ledger is given
    from scheduler.ledger.history import from_ledger

    return from_ledger(scenario, ledger)[0]


def solve(
    scenario: Scenario, *, time_limit: float | None = None,
    deterministic_time: float | None = DETERMINISTIC_TIME, seed: int = 0, workers: int = 1,
    jobs: int = 1, previous: list[PublishedOccurrence] | str | Path | None = None,
    replacing: str | Path | None = None,
    progress: Callable[[Progress], None] | None = None, ledger: Any = None,
) -> Plan:
    """Place the scenario's tournaments and choose the licences: one finished :class:`Plan`.

    The scenario is split into independent parts (:func:`scheduler.decompose.components`:
    operators linked by a shared tournament or the statewide super cribbage cap), each solved
    alone, in ``jobs`` processes (1: in this process), and merged into one Plan; the merged
    plan is an optimum of the whole scenario.

    Limits, per lexicographic stage and part: ``deterministic_time`` (CP-SAT deterministic
    time, the same on any machine and under any load; default 30) and ``time_limit`` (wall
    seconds; default none). ``seed`` fixes CP-SAT's random seed; ``workers`` CP-SAT search
    workers per part (more than one uses the deterministic interleaved search). Same scenario,
    seed, workers and deterministic limit give the same Plan, whatever ``jobs``.

    ``previous`` re-plans: the previous plan's folder or calendar.ics (read with
    :func:`scheduler.replan.read_previous`), or what that function returns, or a list of
    :class:`scheduler.replan.PublishedOccurrence`. Announced occurrences keep their UID, those past
    their filing deadline or ``locked`` are pinned, and after the three objectives the fewest
    occurrences move, then the fewest days. The plan carries the previous plan's publishing
    state (:func:`scheduler.publishing.identify`), so ``write_plan(plan, dir)`` writes the calendars
    ``tourney solve --previous`` writes, cancellations of dropped events included.

    ``replacing``: the folder the plan is to be written into, when it may hold an
    earlier plan that this one replaces without a re-plan (``tourney solve --out DIR``
    without ``--previous``): the plan then carries that plan's events
    (:func:`scheduler.publishing.with_replaced`), so a changed event gets a higher SEQUENCE and
    the calendars a later DTSTAMP, as the CLI writes them. Ignored for a re-plan and for a
    folder holding no plan.

    ``ledger`` (a :class:`scheduler.ledger.Ledger`, a ledger file or URL) takes the history
    from the ledger first (:func:`scheduler.ledger.history.from_ledger`: held counts and
    permits, super cribbage licences, held and filed occurrences pinned), as ``tourney solve
    --ledger``; it raises :class:`scheduler.ledger.LedgerError` for a ledger that cannot be
    read and :class:`scheduler.scenario.ScenarioError` for a YAML count that contradicts it.

    ``progress`` is called as parts and stages finish (:class:`Progress`). Ctrl-C stops the
    search: the best plan found so far comes back with ``interrupted`` set (its status
    FEASIBLE, its ``gap`` the distance to the proven bounds).

    Returns a :class:`Plan` whose ``status`` is :attr:`PlanStatus.OPTIMAL` when every stage
    of every part was proven optimal (else FEASIBLE). Raises
    :class:`~scheduler.problems.ScenarioError` when the scenario breaks an input rule
    (``MT-ENTRY-CAP``, ...: :func:`scheduler.load.validate_scenario`; a scenario built in
    Python has had only its fields checked); ``ValueError`` for a negative seed or fewer than
    1 worker or job; :class:`scheduler.replan.PreviousError` when ``previous`` is a path that
    cannot be read or ``replacing``'s calendar is not iCalendar; :class:`SolverError` when no
    solution is found in time, :class:`Interrupted` when stopped before any legal plan was
    found, :class:`AuditError` when the independent checker finds a violation in the solver's
    plan (a bug).
    """
    began = time.perf_counter()
    opts = _options(seed, workers, jobs, time_limit, deterministic_time)
    scenario = _with_history(scenario, ledger)
    validate_scenario(scenario)  # a scenario built in Python skips no input rule
    if isinstance(previous, str | Path):
        previous = read_previous(scenario, previous)
    parts = components(scenario)
    plans = solve_parts(parts, split_previous(parts, previous), opts, jobs, progress)
    forget_timings()  # the candidate days' timings: not needed to write the plan
    _trim_heap()
    if all(p.status == PlanStatus.NOT_REACHED for p in plans):
        raise Interrupted("interrupted")  # no part found any plan
    plan = identify(merge(scenario, plans), scenario, previous)
    if previous is None:
        plan = with_replaced(plan, replacing)
    return replace(plan, runtime_s=time.perf_counter() - began)


def solve_alternatives(
    scenario: Scenario, k: int, *, min_difference: int = 1, time_limit: float | None = None,
    deterministic_time: float | None = DETERMINISTIC_TIME, seed: int = 0, workers: int = 1,
    jobs: int = 1, previous: list[PublishedOccurrence] | str | Path | None = None,
    replacing: str | Path | None = None,
    progress: Callable[[Progress], None] | None = None, ledger: Any = None,
) -> list[Plan]:
    """Up to ``k`` legal plans, best first (``rank`` 1, 2, …): the best plan (what
    :func:`solve` returns), then each next plan the best one whose first days differ from
    every earlier plan's in at least ``min_difference`` occurrences (with several
    independent parts, each alternative changes one part:
    :func:`scheduler.alternatives.alternatives`). Fewer than ``k`` come back when no more
    exist.

    The other arguments are :func:`solve`'s. Every plan is publishable as the best one is:
    each carries the re-plan publishing state of ``previous`` (its calendars cancel what it
    drops of what the previous calendars published), and, without ``previous``, each carries
    the events of the plan ``replacing`` holds (:func:`scheduler.publishing.with_replaced`),
    since any of them may be published in its place: an event that differs from it gets a
    higher SEQUENCE and the calendars a later DTSTAMP (``tourney solve --alternatives K``
    writes plan k into ``alternative-<k>/``, replaced whole).

    Returns a list of 1 to ``k`` plans. Raises ``ValueError`` when ``k`` or
    ``min_difference`` is below 1 (and as :func:`solve`), and what :func:`solve` raises.
    """
    began = time.perf_counter()
    opts = _options(seed, workers, jobs, time_limit, deterministic_time)
    scenario = _with_history(scenario, ledger)
    validate_scenario(scenario)  # a scenario built in Python skips no input rule
    if isinstance(previous, str | Path):
        previous = read_previous(scenario, previous)
    plans = alternatives(scenario, opts, k, min_difference, previous, jobs, progress)
    if previous is None:
        plans = [with_replaced(p, replacing) for p in plans]
    spent = time.perf_counter() - began
    return [replace(p, runtime_s=spent) for p in plans]
