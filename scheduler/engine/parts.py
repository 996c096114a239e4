"""Solve the independent parts of a scenario: each alone, in this process or in a pool.

:func:`solve_part` is the whole solve of one part (or of an undivided scenario): the model
(:func:`scheduler.engine.model.build_model` and the objective's terms), the lexicographic stages
(:func:`scheduler.engine.objective.lexicographic`), the Plan of the best solution
(:func:`scheduler.engine.extract.extract`) audited by the independent check, the reasons of what was
not placed and, when required occurrences are missing, the minimal conflicts. :func:`solve_parts`
runs it over the parts (``jobs`` processes, Ctrl-C handled), :func:`not_reached` stands in
for a part the search never reached.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, replace
from typing import Any

from constraints.common import forget_sessions
from constraints.modelling import ModelContext
from constraints.registry import RULES, check
from constraints.requests import REQUESTED_MINIMUMS
from scheduler.core.errors import EXIT_INTERNAL, TourneyError
from scheduler.core.memo import gc_paused
from scheduler.core.pool import pool_context, process_pool
from scheduler.core.scenario import Scenario
from scheduler.engine.cpsat import Interrupted, Options
from scheduler.engine.explain import EXPLAIN_DETERMINISTIC_TIME, minimal_conflicts
from scheduler.engine.extract import audit_of, extract
from scheduler.engine.model import build_model
from scheduler.engine.objective import add_terms, lexicographic
from scheduler.engine.reasons import overasked, unscheduled
from scheduler.inputs.replan.assign import with_pins
from scheduler.inputs.replan.previous import PublishedOccurrence
from scheduler.result.plan import Plan, PlanStatus, Unscheduled

__all__ = ["AuditError", "Progress", "not_reached", "progress_of", "solve_in_pool",
           "solve_part", "solve_parts"]


class AuditError(TourneyError, RuntimeError):
    """The solver's own plan fails the independent check: a bug, never a user error."""

    exit_code = EXIT_INTERNAL

    def format_message(self) -> str:
        return f"tourney: {self}\nNothing was written. Please report this."

    def __init__(self, violations: list) -> None:
        self.violations = violations
        lines = "\n".join("  " + v.render() for v in violations)
        super().__init__(f"the plan fails its own audit (a bug in tourney):\n{lines}")

    def __reduce__(self) -> tuple[type, tuple[list]]:  # across the process pool
        return (AuditError, (self.violations,))


@dataclass(frozen=True)
class Progress:
    """What a long solve reports as it goes: parts done of all parts, the summed objective
    values and bounds of the parts done (``placed``, ``fees_usd``), and the stage now
    running in the current part (in-process solves only)."""

    parts_done: int
    parts: int
    placed: int
    placed_bound: float
    fees_usd: int
    fees_bound: float
    stage: str = ""

    @property
    def gap(self) -> float:
        """Relative gap of the placed objective of the parts done (0.0 when proven)."""
        return abs(self.placed_bound - self.placed) / max(1, abs(self.placed))


def progress_of(plans: Sequence[Plan], parts: int, stage: str = "") -> Progress:
    """The :class:`Progress` of ``plans`` (the parts done) of ``parts`` parts."""
    return Progress(len(plans), parts,
                    sum(p.objective.get("placed", 0) for p in plans),
                    sum(p.bound.get("placed", 0) for p in plans),
                    sum(p.objective.get("fees_usd", 0) for p in plans),
                    sum(p.bound.get("fees_usd", 0) for p in plans), stage)


@gc_paused()  # the part's objects die by reference counting as it is done
def solve_part(
    scenario: Scenario, opts: Options, previous: list[PublishedOccurrence] | None = None, *,
    stop: Callable[[], bool] | None = None, on_stage: Callable[[str], None] | None = None,
    extra: Callable[[ModelContext], None] | None = None,
) -> Plan:
    """The lexicographic solve of one part (or of a whole scenario), stages as
    :mod:`scheduler.engine.objective` says. ``previous`` (announced occurrences) pins and re-plans;
    ``extra`` adds constraints to the model before the search (alternatives); ``stop`` stops
    the search (Ctrl-C), ``on_stage(name)`` is called as each search begins
    (:data:`scheduler.engine.objective.SEARCHES`).

    Returns the Plan of the best solution found, without UIDs (:mod:`scheduler.result.publishing`
    sets them for the whole plan). Raises :class:`scheduler.engine.objective.SolverError` when no
    solution is found in time, :class:`Interrupted` when stopped before the first one,
    :class:`AuditError` when the independent check finds a violation (a bug).
    """
    if previous is not None:
        scenario = with_pins(scenario, previous)
    ctx = build_model(scenario)
    add_terms(ctx)
    if extra is not None:
        extra(ctx)
    out = lexicographic(ctx, opts, previous, stop=stop, note=on_stage)
    if out.best is None:  # stopped before the first stage found anything
        raise Interrupted("interrupted")
    plan = extract(ctx, out.best, PlanStatus.OPTIMAL if out.proven else PlanStatus.FEASIBLE,
                   opts.seed)
    plan = replace(plan, interrupted=out.stopped, objective=out.objective, bound=out.bound)
    # A fixed date or a per-period minimum that cannot be honoured is reported as an
    # unplaced required occurrence (exit 1), not as a violation of the plan.
    requests = ("FIXED-DATES", "REQUIRED", *REQUESTED_MINIMUMS)
    audit = audit_of(plan)
    violations = check(audit, rules=[r for r in RULES if r.id not in requests])
    if violations:
        raise AuditError(violations)
    plan = replace(plan, unscheduled_list=tuple(unscheduled(
        ctx, plan, reasons=not out.stopped, placed=audit.placed)))
    if not out.stopped:
        plan = replace(plan, overasked=tuple(overasked(ctx, plan)))
    if out.shortfall and not out.stopped:
        # deterministic time (the explanation of an infeasible request must not depend on
        # the machine's load): at most the stage limit, and at most EXPLAIN_DETERMINISTIC_TIME
        # per solve; a wall-clock limit only when the caller gave one
        det = min(EXPLAIN_DETERMINISTIC_TIME, opts.deterministic_time or
                  EXPLAIN_DETERMINISTIC_TIME)
        plan = replace(plan, conflicts=tuple(minimal_conflicts(
            scenario, time_limit=opts.time_limit, deterministic_time=det, seed=opts.seed)))
    return plan


def not_reached(part: Scenario) -> Plan:
    """A part the search never reached before it was stopped: nothing placed, every wanted
    occurrence unscheduled (status NOT_REACHED, ``interrupted``)."""
    # trivial bounds: every wanted occurrence placed (``all``: every day of the horizon), on
    # a preferred weekday, at no fee
    wanted = {t.id: t.count if isinstance(t.count, int) else len(list(part.horizon.days()))
              for t in part.tournaments}
    return Plan(
        part, (), (), tuple(
            Unscheduled(t.id, k, t.operators, "not planned: the search was stopped before "
                        "this part of the scenario was reached", (), k <= t.must_place)
            for t in part.tournaments
            for k in range(1, (t.count if isinstance(t.count, int) else 1) + 1)),
        PlanStatus.NOT_REACHED,
        objective={"placed": 0, "fees_usd": 0, "preferred": 0},
        bound={"placed": float(sum(t.priority * wanted[t.id] for t in part.tournaments)),
               "fees_usd": 0.0,
               "preferred": float(sum(wanted[t.id] for t in part.tournaments
                                      if t.prefer_weekdays))},
        interrupted=True)


def solve_parts(parts: Sequence[Scenario], prevs: Sequence[list[PublishedOccurrence] | None],
                opts: Options, jobs: int, progress: Callable[[Progress], None] | None
                ) -> list[Plan]:
    """The plan of each part (``prevs``: each part's announced occurrences), in order:
    ``jobs`` > 1 solves them in a process pool. Once the search is stopped (Ctrl-C) the
    parts under way return their best plan so far and the others are :func:`not_reached`.
    ``progress`` is called as parts (and, in this process, stages) finish."""
    if jobs > 1 and len(parts) > 1:
        return solve_in_pool(parts, prevs, opts, jobs, progress)
    plans: list[Plan] = []
    stopped = False

    def stage(name: str) -> None:
        if progress is not None:
            progress(progress_of(plans, len(parts), name))

    for part, prev in zip(parts, prevs, strict=True):
        plan: Plan | None = None
        if not stopped:
            # stopped before this part found a plan: it stays "not reached"
            with contextlib.suppress(Interrupted, KeyboardInterrupt):
                plan = solve_part(part, opts, prev, on_stage=stage)
            forget_sessions()  # the sessions of this part's occurrences: the next has others
        if plan is None:  # made only when needed (every wanted occurrence listed)
            plan = not_reached(part)
        stopped = stopped or plan.interrupted
        plans.append(plan)
        if progress is not None:
            progress(progress_of(plans, len(parts)))
    return plans


_STOP: Any = None  # the pool's stop Event, set in each worker process by _init_worker


def _init_worker(stop: Any) -> None:
    """Pool workers leave Ctrl-C to the parent, which sets ``stop`` instead."""
    global _STOP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOP = stop


def _pool_part(part: Scenario, opts: Options, prev: list[PublishedOccurrence] | None) -> Plan:
    if _STOP is not None and _STOP.is_set():
        return not_reached(part)
    try:
        return solve_part(part, opts, prev, stop=_STOP.is_set if _STOP is not None else None)
    except Interrupted:  # stopped before this part found a plan: the others still count
        return not_reached(part)
    finally:
        forget_sessions()  # the sessions of this part's occurrences: the next has others


def solve_in_pool(parts: Sequence[Scenario], prevs: Sequence[list[PublishedOccurrence] | None],
                  opts: Options, jobs: int,
                  progress: Callable[[Progress], None] | None,
                  task: Callable[..., Any] | None = None, extra: tuple[Any, ...] = ()
                  ) -> list[Any]:
    """Each part a task of a process pool (``task(part, opts, prev, *extra)``, by default
    the part's plan); Ctrl-C sets the workers' stop event, so each running part returns its
    best plan so far and the others are not reached."""
    stop = pool_context().Event()
    done: dict[int, Any] = {}
    run = task or _pool_part
    with process_pool(jobs, len(parts), initializer=_init_worker, initargs=(stop,)) as pool:
        pending = {pool.submit(run, part, opts, prev, *extra): i
                   for i, (part, prev) in enumerate(zip(parts, prevs, strict=True))}
        while pending:
            try:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:
                stop.set()
                if progress is not None:
                    progress(progress_of(firsts(done.values()), len(parts),
                                         "stopping: finishing the parts under way"))
                continue
            for f in finished:
                done[pending.pop(f)] = f.result()
                if progress is not None:
                    progress(progress_of(firsts(done.values()), len(parts)))
    return [done[i] for i in range(len(parts))]


def firsts(results: Iterable[Plan | list[Plan]]) -> list[Plan]:
    """The plan of each part done (its best one, when parts return alternatives)."""
    return [r[0] if isinstance(r, list) else r for r in results]
