"""Solve a scenario: one finished Plan (:func:`solve`), or the best few
(:func:`solve_alternatives`).

The work is done below, one responsibility a module (docs/architecture.md):
:mod:`scheduler.engine.objective` (the objective's terms, the lexicographic stages: most
priority-weighted occurrences placed, required ones first; least fees in USD; most on
preferred weekdays), :mod:`scheduler.engine.extract` (a Plan from a solution),
:mod:`scheduler.engine.reasons` (why an occurrence was not placed), :mod:`scheduler.engine.parts`
(one
independent part solved and audited; the parts in a process pool),
:mod:`scheduler.engine.alternatives` and :mod:`scheduler.result.publishing` (UIDs, re-plan and
replaced-folder publishing state). Every Plan returned here is finished: nothing is filled
in afterwards.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from scheduler.core.memo import gc_paused
from scheduler.core.scenario import Scenario
from scheduler.core.timing import read_state_holidays
from scheduler.engine.alternatives import alternatives
from scheduler.engine.cpsat import DETERMINISTIC_TIME, Interrupted, Options
from scheduler.engine.decompose import components, merge, split_previous
from scheduler.engine.parts import Progress, solve_parts
from scheduler.inputs.load import made_as_of_passed, validate_scenario
from scheduler.inputs.replan.read import Previous, read_previous
from scheduler.result.plan import Plan, PlanStatus
from scheduler.result.publishing import identify, with_replaced

__all__ = ["solve", "solve_alternatives"]


def _options(seed: int, workers: int, jobs: int, time_limit: float | None,
             deterministic_time: float | None) -> Options:
    if seed < 0 or workers < 1 or jobs < 1:
        raise ValueError(f"seed must be at least 0, workers and jobs at least 1 (got seed "
                         f"{seed}, workers {workers}, jobs {jobs})")
    return Options(time_limit, deterministic_time, seed, workers)


def _previous(previous: object) -> None:
    """Refuse a ``previous`` that would not give the calendars ``tourney solve --previous``
    writes: anything but None, a path (``str`` or ``Path``) or a
    :class:`scheduler.inputs.replan.read.Previous`. Raises ``TypeError`` naming what to give."""
    if previous is None or isinstance(previous, str | Path | Previous):
        return
    base = "previous= takes the previous plan's folder, schedule.csv or calendar.ics, or a Previous"
    if not isinstance(previous, list | tuple):
        raise TypeError(f"{base}; not a value of type {type(previous).__name__} "
                        f"({previous!r:.60})")
    raise TypeError(f"{base}; not a bare list: wrap hand-made occurrences as "
                    "Previous(occurrences) (docs/api.md)")


@gc_paused()  # no collections while solving (scheduler.core.memo.gc_paused)
def solve(
    scenario: Scenario, *, time_limit: float | None = None,
    deterministic_time: float | None = DETERMINISTIC_TIME, seed: int = 0, workers: int = 1,
    jobs: int = 1, previous: Previous | str | Path | None = None,
    replacing: str | Path | None = None,
    progress: Callable[[Progress], None] | None = None,
    as_of: dt.date | None = None,
) -> Plan:
    """Place the scenario's tournaments and choose the licences: one finished :class:`Plan`.

    The scenario is split into independent parts (:func:`scheduler.engine.decompose.components`:
    operators linked by a shared tournament or the statewide super cribbage cap), each solved
    alone, in ``jobs`` processes (1: in this process), and merged into one Plan; the merged
    plan is an optimum of the whole scenario. The stages, in order
    (:data:`scheduler.engine.objective.STAGES`): most priority-weighted occurrences placed, required
    ones first; least licence and permit fees (USD), both in one CP-SAT search
    (:data:`scheduler.engine.objective.SEARCHES`); most on preferred weekdays. Same
    scenario, ``seed``, ``workers`` and ``deterministic_time`` give the same Plan, whatever
    ``jobs``.

    Parameters
    ----------
    scenario
        The scenario (:func:`scheduler.inputs.load.load_scenario`, or built in Python). It is first
        checked against the input rules (:func:`scheduler.inputs.load.validate_scenario`).
    time_limit
        Wall-clock limit per CP-SAT search and part, in seconds; None (default): no
        wall-clock limit, so the answer does not depend on the machine's load.
    deterministic_time
        CP-SAT deterministic-time limit per search and part (CP-SAT's own units, the same on
        any machine and under any load); default 30. None: no limit.
    seed
        CP-SAT's random seed, at least 0.
    workers
        CP-SAT search workers per part, at least 1 (more than one uses the deterministic
        interleaved search).
    jobs
        Processes solving parts at once, at least 1 (1: in this process).
    previous
        Re-plan: the previous plan's folder, its schedule.csv or calendar.ics (a ``str`` or
        ``Path``, read with :func:`scheduler.inputs.replan.read.read_previous`), or what
        that function returns (a :class:`scheduler.inputs.replan.read.Previous`), as
        ``tourney solve --previous`` passes it. Announced occurrences keep their UID; those
        past their filing deadline, or ``locked``, are pinned; after the plan's stages
        (placed and fees in one search, then preferences) the fewest occurrences move, then
        the fewest days. The plan carries the previous plan's publishing state
        (:func:`scheduler.result.publishing.identify`), so ``write_plan(plan, dir)`` writes
        the calendars ``tourney solve --previous`` writes, cancellations of dropped events
        (their MT notices too) and a later DTSTAMP included. A bare list of
        :class:`scheduler.inputs.replan.previous.PublishedOccurrence` is refused
        (``TypeError``): it holds none of what the previous calendars published. A
        ``Previous(occurrences)`` made by hand re-plans from those occurrences and publishes
        no cancellation of events it does not hold.
    replacing
        The folder the plan is to be written into when it may hold an earlier plan that this
        one replaces without a re-plan (``tourney solve --out DIR`` without
        ``--previous``): the plan carries that plan's events
        (:func:`scheduler.result.publishing.with_replaced`), so a changed event gets a higher
        SEQUENCE and the calendars a later DTSTAMP, as the CLI writes them. Ignored for a
        re-plan and for a folder holding no plan.
    progress
        Called as parts and stages finish, with a :class:`Progress` (parts done, the summed
        ``placed`` and ``fees_usd`` objectives and bounds, the stage running).
    as_of
        The day the plan is made as of (``tourney solve --as-of``), recorded in
        ``plan.scenario.as_of``: nothing new is placed whose MT notice or ME application is
        due before the later of it and ``notice_from`` (MT-NOTICE, ME-APPLICATION-WINDOW);
        an occurrence of ``previous`` whose deadline is before it stays on its day. None:
        ``scenario.as_of``, else today in the operators' zones
        (:func:`scheduler.core.timing.made_as_of`).

    Returns
    -------
    Plan
        The finished plan: its ``status`` is :attr:`PlanStatus.OPTIMAL` when every stage of
        every part was proven optimal, else FEASIBLE. Ctrl-C stops the search: the best plan
        found so far comes back with ``interrupted`` set (status FEASIBLE, its ``gap`` the
        distance to the proven bounds).

    Raises
    ------
    ScenarioError
        (:class:`scheduler.core.problems.ScenarioError`) the scenario breaks an input rule
        (``MT-ENTRY-CAP``, ``SCENARIO``, ...: :func:`scheduler.inputs.load.validate_scenario`; a
        scenario built in Python has had only its fields checked).
    ValueError
        ``seed`` below 0, or ``workers`` or ``jobs`` below 1.
    TypeError
        ``previous`` is not None, a path or a :class:`~scheduler.inputs.replan.read.Previous`
        (a bare list).
    PreviousError
        (:class:`scheduler.inputs.replan.previous.PreviousError`) ``previous`` is a path that
        cannot be read, or ``replacing``'s calendar is not iCalendar.
    SolverError
        No solution was found in time (or CP-SAT found the model invalid).
    Interrupted
        (:class:`scheduler.engine.cpsat.Interrupted`) stopped (Ctrl-C) before any part found a
        legal plan.
    AuditError
        The independent checker finds a violation in the solver's plan (a bug).
    """
    began = time.perf_counter()
    _previous(previous)  # before any work: a bare list would not publish as the CLI does
    opts = _options(seed, workers, jobs, time_limit, deterministic_time)
    scenario = made_as_of_passed(scenario, as_of)  # a loaded scenario stays passed
    validate_scenario(scenario)  # a scenario built in Python skips no input rule
    if isinstance(previous, str | Path):
        previous = read_previous(scenario, previous)
    parts = components(scenario)
    if jobs > 1:
        read_state_holidays(scenario)  # once, before the pool forks (each worker would)
    plans = solve_parts(parts, split_previous(parts, previous), opts, jobs, progress)
    if all(p.status == PlanStatus.NOT_REACHED for p in plans):
        raise Interrupted("interrupted")  # no part found any plan
    plan = identify(merge(scenario, plans), scenario, previous)
    if previous is None:
        plan = with_replaced(plan, replacing)
    return replace(plan, runtime_s=time.perf_counter() - began)


@gc_paused()  # no collections while solving (scheduler.core.memo.gc_paused)
def solve_alternatives(
    scenario: Scenario, k: int, *, min_difference: int = 1, time_limit: float | None = None,
    deterministic_time: float | None = DETERMINISTIC_TIME, seed: int = 0, workers: int = 1,
    jobs: int = 1, previous: Previous | str | Path | None = None,
    replacing: str | Path | None = None,
    progress: Callable[[Progress], None] | None = None,
    as_of: dt.date | None = None,
) -> list[Plan]:
    """Up to ``k`` legal plans, best first (``rank`` 1, 2, ...).

    The best plan (what :func:`solve` returns), then each next plan the best one whose first
    days differ from every earlier plan's in at least ``min_difference`` occurrences (with
    several independent parts, each alternative changes one part:
    :func:`scheduler.engine.alternatives.alternatives`). Every plan is publishable as the best one
    is: each carries the re-plan publishing state of ``previous`` (its calendars cancel what
    it drops of what the previous calendars published), and, without ``previous``, each
    carries the events of the plan ``replacing`` holds
    (:func:`scheduler.result.publishing.with_replaced`), since any of them may be published in its
    place: an event that differs from it gets a higher SEQUENCE and the calendars a later
    DTSTAMP (``tourney solve --alternatives K`` writes plan k into ``alternative-<k>/``,
    replaced whole).

    Parameters
    ----------
    scenario
        As :func:`solve`.
    k
        How many plans at most, at least 1 (1: the best plan alone).
    min_difference
        Occurrences, at least 1, whose first day must differ between any two plans.
    time_limit, deterministic_time, seed, workers, jobs, previous, replacing, progress,
    as_of
        As :func:`solve` (the limits are per stage and part of each plan; ``previous``: a
        folder, a file or a :class:`scheduler.inputs.replan.read.Previous`, a bare list raises
        ``TypeError``).

    Returns
    -------
    list of Plan
        1 to ``k`` plans, best first; fewer than ``k`` when no more exist. Each plan's
        ``runtime_s`` is the seconds the whole call took.

    Raises
    ------
    ValueError
        ``k`` or ``min_difference`` below 1 (and as :func:`solve`).
    ScenarioError, TypeError, PreviousError, LedgerError, SolverError, Interrupted, AuditError
        As :func:`solve`.
    """
    began = time.perf_counter()
    _previous(previous)  # before any work: a bare list would not publish as the CLI does
    opts = _options(seed, workers, jobs, time_limit, deterministic_time)
    scenario = made_as_of_passed(scenario, as_of)  # a loaded scenario stays passed
    validate_scenario(scenario)  # a scenario built in Python skips no input rule
    if isinstance(previous, str | Path):
        previous = read_previous(scenario, previous)
    plans = alternatives(scenario, opts, k, min_difference, previous, jobs, progress)
    if previous is None:
        plans = [with_replaced(p, replacing) for p in plans]
    spent = time.perf_counter() - began
    return [replace(p, runtime_s=spent) for p in plans]
