"""Solve a scenario: lexicographic CP-SAT solves, then a Plan audited by the checker.

Objective, lexicographic (each stage fixes the previous stage's value and starts from its
solution as a hint):

1. most priority-weighted occurrences placed, required occurrences first (a unit of required
   shortfall outweighs every optional placement);
2. least total licence and permit fees (USD), dates chosen jointly with the licences;
3. most occurrences on preferred weekdays.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import signal
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, overload

from ortools.sat.python import cp_model

from constraints.base import Audit, License, Placed, Rule
from constraints.catalogue import cite
from constraints.montana import large_tally
from constraints.registry import RULES, check
from scheduler.cpsat import DETERMINISTIC_TIME, Interrupted, Options, search, solve_interruptibly
from scheduler.decompose import components, merge, split_previous
from scheduler.explain import EXPLAIN_DETERMINISTIC_TIME, minimal_conflicts
from scheduler.model import Candidate, ModelContext, build_model
from scheduler.plan import Plan, Row, Unscheduled
from scheduler.pool import pool_context, process_pool
from scheduler.replan import Announced, Previous, assign, read_previous, with_pins
from scheduler.scenario import Scenario, Tournament
from scheduler.timing import Timing, _days_between, notice_due, timing, tournament_tz
from scheduler.uid import inherited_lineage, lineage_key, occurrence_uid

__all__ = ["DETERMINISTIC_TIME", "AuditError", "Interrupted", "Options", "Progress",
           "SolverError", "identify", "placed_of", "solve", "solve_interruptibly",
           "unscheduled"]

STAGES = ("placed", "fees_usd", "preferred")


class SolverError(RuntimeError):
    """The solver returned no usable answer (MODEL_INVALID, or UNKNOWN at the time limit)."""


class AuditError(RuntimeError):
    """The solver's own plan fails the independent check: a bug, never a user error."""

    def __init__(self, violations: list) -> None:
        self.violations = violations
        lines = "\n".join("  " + v.render() for v in violations)
        super().__init__(f"the plan fails its own audit (a bug in tourney):\n{lines}")

    def __reduce__(self) -> tuple[type, tuple[list]]:  # across the process pool
        return (AuditError, (self.violations,))


@dataclass
class _Stage:
    status: str
    value: int
    bound: float


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


_SOLVED = (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _run(ctx: ModelContext, solver: cp_model.CpSolver, name: str,
         stop: Callable[[], bool] | None = None) -> tuple[_Stage | None, bool]:
    """One lexicographic stage: (its result, or None when stopped before any solution;
    whether it was stopped)."""
    status, stopped = search(solver, ctx.model, stop)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"stage {name}: the model is invalid: {ctx.model.validate()}")
    if status not in _SOLVED:
        if stopped:
            return None, True
        raise SolverError(f"stage {name}: no solution within the time limit "
                          f"({cp_model.CpSolverStatus(status).name})")
    name_ = cp_model.CpSolverStatus(status).name
    return _Stage("FEASIBLE" if stopped else name_, round(solver.objective_value),
                  solver.best_objective_bound), stopped


def _weighted(terms: Sequence[tuple[cp_model.LinearExprT, int]]) -> cp_model.LinearExpr:
    return cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [w for _, w in terms])


def _hint(ctx: ModelContext, solver: cp_model.CpSolver) -> None:
    """The previous stage's solution as a complete hint for the next stage (every variable,
    so CP-SAT starts from a feasible solution)."""
    m = ctx.model
    m.clear_hints()
    values = solver.response_proto.solution
    hint = m.proto.solution_hint
    hint.vars.extend(range(len(values)))
    hint.values.extend(values)


@overload
def solve(scenario: Scenario, *, time_limit: float | None = ...,
          deterministic_time: float | None = ..., seed: int = ..., workers: int = ...,
          jobs: int = ..., previous: list[Announced] | str | Path | None = ...,
          alternatives: None = ..., min_difference: int = ...,
          progress: Callable[[Progress], None] | None = ...) -> Plan: ...


@overload
def solve(scenario: Scenario, *, time_limit: float | None = ...,
          deterministic_time: float | None = ..., seed: int = ..., workers: int = ...,
          jobs: int = ..., previous: list[Announced] | str | Path | None = ...,
          alternatives: int, min_difference: int = ...,
          progress: Callable[[Progress], None] | None = ...) -> list[Plan]: ...


def solve(
    scenario: Scenario, *, time_limit: float | None = None,
    deterministic_time: float | None = DETERMINISTIC_TIME, seed: int = 0, workers: int = 1,
    jobs: int = 1, previous: list[Announced] | str | Path | None = None,
    alternatives: int | None = None,
    min_difference: int = 1, progress: Callable[[Progress], None] | None = None,
) -> Plan | list[Plan]:
    """Place the scenario's tournaments and choose the licences.

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
    :class:`scheduler.replan.Announced`. Announced occurrences keep their UID, those past
    their filing deadline or ``locked`` are pinned, and after the three objectives the fewest
    occurrences move, then the fewest days. Every plan returned carries the previous plan's
    publishing state (:func:`identify`), so ``plan.write(dir)`` writes the calendars
    ``tourney solve --previous`` writes, cancellations of dropped events included.

    ``alternatives=K`` returns a list of up to K legal plans, best first (``rank`` 1, 2, …):
    each next plan is the best one whose first days differ from every earlier plan's in at
    least ``min_difference`` occurrences. Fewer than K come back when no more exist.

    ``progress`` is called as parts and stages finish (:class:`Progress`). Ctrl-C stops the
    search: the best plan found so far comes back with ``interrupted`` set (its status
    FEASIBLE, its ``gap`` the distance to the proven bounds).

    Returns a :class:`Plan` whose ``status`` is OPTIMAL when every stage of every part was
    proven optimal. Raises ``ValueError`` for a negative seed or fewer than 1 worker, job or
    alternative; :class:`scheduler.replan.PreviousError` when ``previous`` is a path that
    cannot be read; :class:`SolverError` when no solution is found in time,
    :class:`Interrupted` when stopped before any legal plan was found, :class:`AuditError`
    when the independent checker finds a violation in the solver's plan (a bug).
    """
    if seed < 0 or workers < 1 or jobs < 1:
        raise ValueError(f"seed must be at least 0, workers and jobs at least 1 (got seed "
                         f"{seed}, workers {workers}, jobs {jobs})")
    if isinstance(previous, str | Path):
        previous = read_previous(scenario, previous)
    opts = Options(time_limit, deterministic_time, seed, workers)
    if alternatives is not None:
        return _alternatives(scenario, opts, alternatives, min_difference, previous, jobs,
                             progress)
    parts = components(scenario)
    prevs = split_previous(parts, previous)
    if jobs > 1 and len(parts) > 1:
        plans = _solve_in_pool(parts, prevs, opts, jobs, progress)
    else:
        plans = []
        stopped = False

        def stage(name: str) -> None:
            if progress is not None:
                progress(_progress(plans, len(parts), name))

        for part, prev in zip(parts, prevs, strict=True):
            plan = _not_reached(part)
            if not stopped:
                # stopped before this part found a plan: it stays "not reached"
                with contextlib.suppress(Interrupted, KeyboardInterrupt):
                    plan = _solve_part(part, opts, prev, on_stage=stage)
            stopped = stopped or plan.interrupted
            plans.append(plan)
            if progress is not None:
                progress(_progress(plans, len(parts)))
    if all(p.status == "NOT_REACHED" for p in plans):
        raise Interrupted("interrupted")  # no part found any plan
    return identify(merge(scenario, plans), scenario, previous)


def identify(plan: Plan, scenario: Scenario, previous: list[Announced] | None) -> Plan:
    """Give the rows of a freshly solved ``plan`` of ``scenario`` their UIDs and SEQUENCEs
    (in place; returns ``plan``): the plan lineage is the previous plan's (a re-plan keeps
    its UIDs, :func:`scheduler.replan.assign`) or the scenario's own
    (:func:`scheduler.uid.lineage_key`); without ``previous`` occurrence ``n`` of a
    tournament is UID ``<tournament>-<n>@<first operator>.<lineage>.<domain>``, SEQUENCE 0.

    With a :class:`scheduler.replan.Previous` (what ``read_previous`` returns) the plan also
    gets the previous plan's publishing state (``previous_series``, ``previous_events``,
    ``previous_dtstamp``): its calendars update or cancel what the previous ones published.
    """
    if isinstance(previous, Previous):
        plan.previous_dtstamp = previous.dtstamp
        plan.previous_series = list(previous.series)
        plan.previous_events = list(previous.events)
    lineage = (inherited_lineage(a.uid for a in previous) if previous else None) \
        or lineage_key(scenario)
    plan.lineage = lineage
    known = {t.id: t for t in scenario.tournaments}
    if previous is None:
        plan.rows = [replace(r, uid=occurrence_uid(
            scenario, r.tournament_id, r.occurrence, known[r.tournament_id].operators[0],
            lineage), sequence=0) for r in plan.rows]
        return plan
    days: dict[str, list[dt.date]] = {}
    spans: dict[tuple[str, dt.date], str] = {}
    for r in plan.rows:
        if (r.tournament_id, r.first_day) not in spans:
            days.setdefault(r.tournament_id, []).append(r.first_day)
            spans[(r.tournament_id, r.first_day)] = f"{r.start.isoformat()}|{r.end.isoformat()}"
    ids, plan.cancelled = assign(scenario, previous, days, spans, lineage)
    plan.rows = [replace(r, uid=ids[(r.tournament_id, r.first_day)].uid,
                         sequence=ids[(r.tournament_id, r.first_day)].sequence)
                 for r in plan.rows]
    return plan


def _progress(plans: Sequence[Plan], parts: int, stage: str = "") -> Progress:
    return Progress(len(plans), parts,
                    sum(p.objective.get("placed", 0) for p in plans),
                    sum(p.bound.get("placed", 0) for p in plans),
                    sum(p.objective.get("fees_usd", 0) for p in plans),
                    sum(p.bound.get("fees_usd", 0) for p in plans), stage)


_STOP: Any = None  # the pool's stop Event, set in each worker process by _init_worker


def _init_worker(stop: Any) -> None:
    """Pool workers leave Ctrl-C to the parent, which sets ``stop`` instead."""
    global _STOP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOP = stop


def _pool_part(part: Scenario, opts: Options, prev: list[Announced] | None) -> Plan:
    if _STOP is not None and _STOP.is_set():
        return _not_reached(part)
    try:
        return _solve_part(part, opts, prev, stop=_STOP.is_set if _STOP is not None else None)
    except Interrupted:  # stopped before this part found a plan: the others still count
        return _not_reached(part)


def _solve_in_pool(parts: Sequence[Scenario], prevs: Sequence[list[Announced] | None],
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
                    progress(_progress(_firsts(done.values()), len(parts),
                                       "stopping: finishing the parts under way"))
                continue
            for f in finished:
                done[pending.pop(f)] = f.result()
                if progress is not None:
                    progress(_progress(_firsts(done.values()), len(parts)))
    return [done[i] for i in range(len(parts))]


def _firsts(results: Iterable[Plan | list[Plan]]) -> list[Plan]:
    """The plan of each part done (its best one, when parts return alternatives)."""
    return [r[0] if isinstance(r, list) else r for r in results]


def _not_reached(part: Scenario) -> Plan:
    """A part the search never reached before it was stopped: nothing placed, every wanted
    occurrence unscheduled."""
    # trivial bounds: every wanted occurrence placed (``all``: every day of the horizon), on
    # a preferred weekday, at no fee
    wanted = {t.id: t.count if isinstance(t.count, int) else len(list(part.horizon.days()))
              for t in part.tournaments}
    plan = Plan(part, [], [], [], "NOT_REACHED",
                objective={"placed": 0, "fees_usd": 0, "preferred": 0},
                bound={"placed": float(sum(t.priority * wanted[t.id] for t in part.tournaments)),
                       "fees_usd": 0.0,
                       "preferred": float(sum(wanted[t.id] for t in part.tournaments
                                              if t.prefer_weekdays))},
                interrupted=True)
    plan.unscheduled_list = [
        Unscheduled(t.id, k, t.operators, "not planned: the search was stopped before this "
                    "part of the scenario was reached", (), k <= t.must_place)
        for t in part.tournaments
        for k in range(1, (t.count if isinstance(t.count, int) else 1) + 1)]
    return plan


class _Stages:
    """Runs lexicographic stages on one model: each stage is a fresh CP-SAT solve (hinted
    with the previous stage's solution) whose value the next stages keep. Stops running
    stages once the search was stopped; ``best`` holds the latest solution."""

    def __init__(self, ctx: ModelContext, opts: Options, stop: Callable[[], bool] | None,
                 note: Callable[[str], None]) -> None:
        self.ctx, self.opts, self.stop, self.note = ctx, opts, stop, note
        self.best: cp_model.CpSolver | None = None
        self.done: dict[str, _Stage] = {}
        self.stopped = False

    def run(self, name: str, objective: cp_model.LinearExprT, *, maximize: bool) -> bool:
        """Optimize ``objective``; whether the stage found a solution and later stages may
        run (False once stopped)."""
        if self.stopped:
            return False
        m = self.ctx.model
        if self.best is not None:
            _hint(self.ctx, self.best)
        m.maximize(objective) if maximize else m.minimize(objective)
        self.note(name)
        solver = self.opts.solver()
        stage, self.stopped = _run(self.ctx, solver, name, self.stop)
        if stage is None:
            return False
        self.best = solver
        self.done[name] = stage
        return not self.stopped

    def value(self, expr: cp_model.LinearExprT) -> int:
        assert self.best is not None
        return int(self.best.value(expr))


def _solve_part(
    scenario: Scenario, opts: Options, previous: list[Announced] | None = None, *,
    stop: Callable[[], bool] | None = None, on_stage: Callable[[str], None] | None = None,
    extra: Callable[[ModelContext], None] | None = None,
) -> Plan:
    """The lexicographic solve of one part (or of a whole scenario). ``extra`` adds
    constraints to the model before the search (alternatives).

    Stages: placed (priority-weighted, a unit of required shortfall outweighing every optional
    placement); fees; preferred weekdays with earlier first days as the tie-break (a preferred
    day outweighs any total of day offsets, so equal plans are not chosen arbitrarily). A
    re-plan instead runs, after fees: preferred weekdays; fewest announced occurrences moved;
    then, with the kept ones fixed, fewest days moved (each new first day costs its distance
    to the nearest announced day of its tournament that was not kept, the days those
    occurrences move from), then earlier first days.
    """
    if previous is not None:
        scenario = with_pins(scenario, previous)
    ctx = build_model(scenario)
    if extra is not None:
        extra(ctx)
    m = ctx.model
    run = _Stages(ctx, opts, stop, on_stage or (lambda name: None))

    placed = _weighted(ctx.placed_terms)
    short = _weighted(ctx.required_terms)
    fees = _weighted(ctx.fee_terms)
    prefs = _weighted(ctx.preference_terms)
    big = sum(w for _, w in ctx.placed_terms) + 1
    stage1 = placed - big * short
    offsets = _weighted([(v, (day - scenario.horizon.start).days)
                         for (_, day), v in ctx.z.items()])
    weight = sum((day - scenario.horizon.start).days for _, day in ctx.z) + 1

    if run.run("placed", stage1, maximize=True):
        m.add(stage1 >= run.done["placed"].value)
        if run.run("fees_usd", fees, maximize=False):
            m.add(fees <= run.done["fees_usd"].value)
            if previous is None:
                run.run("preferred", prefs * weight - offsets, maximize=True)
            elif run.run("preferred", prefs, maximize=True):
                m.add(prefs >= run.done["preferred"].value)
                kept = _kept(ctx, previous)
                if run.run("moved", cp_model.LinearExpr.sum([v for _, v in kept]),
                           maximize=True):
                    for _, v in kept:
                        m.add(v == run.value(v))
                    left = [a for a, v in kept if not run.value(v)] + _unplaceable(ctx, previous)
                    run.run("days_moved", _weighted(_distance(ctx, left)) * weight + offsets,
                            maximize=False)
    if run.best is None:  # stopped before the first stage found anything
        raise Interrupted("interrupted")
    stages = run.done
    stopped = run.stopped or len(stages) < (3 if previous is None else 5)
    proven = not stopped and all(s.status == "OPTIMAL" for s in stages.values())
    plan = _extract(ctx, run.best, "OPTIMAL" if proven else "FEASIBLE", opts.seed, previous)
    plan.interrupted = stopped
    shortfall = run.value(short) if ctx.required_terms else 0
    plan.objective = {"placed": run.value(placed) if ctx.placed_terms else 0,
                      "fees_usd": run.value(fees), "preferred": run.value(prefs)}
    # "+ 0.0" turns CP-SAT's -0.0 into 0.0; a stage never reached has its trivial bound
    s3 = stages.get("preferred")
    plan.bound = {
        "placed": stages["placed"].bound + 0.0,
        "fees_usd": (stages["fees_usd"].bound if "fees_usd" in stages else 0) + 0.0,
        "preferred": ((s3.bound + weight - 1) // weight if s3 is not None and previous is None
                      else s3.bound if s3 is not None
                      else sum(w for _, w in ctx.preference_terms)) + 0.0}
    # A fixed date that cannot be honoured is reported as an unplaced required occurrence
    # (exit 1), not as a violation of the plan.
    violations = check(_audit(plan), rules=[r for r in RULES
                                            if r.id not in ("FIXED-DATES", "REQUIRED",
                                                            "PER-MONTH-MIN", "PER-WEEK-MIN")])
    if violations:
        raise AuditError(violations)
    plan.unscheduled_list = unscheduled(ctx, plan, reasons=not stopped)
    if shortfall and not stopped:
        # deterministic time (the explanation of an infeasible request must not depend on
        # the machine's load): at most the stage limit, and at most EXPLAIN_DETERMINISTIC_TIME
        # per solve; a wall-clock limit only when the caller gave one
        det = min(EXPLAIN_DETERMINISTIC_TIME, opts.deterministic_time or
                  EXPLAIN_DETERMINISTIC_TIME)
        plan.conflicts = minimal_conflicts(scenario, time_limit=opts.time_limit,
                                           deterministic_time=det, seed=opts.seed)
    return plan


def _alternatives(scenario: Scenario, opts: Options, k: int, min_difference: int,
                  previous: list[Announced] | None, jobs: int = 1,
                  progress: Callable[[Progress], None] | None = None) -> list[Plan]:
    """Up to ``k`` plans of the scenario, best first (see :func:`_part_alternatives`).

    With several independent parts, each alternative changes one part: every part's own
    alternatives are found (``jobs`` parts at once), and the k − 1 best single-part changes
    by the merged objective (placed, then fees, then preferred weekdays; then file order)
    give plans 2..k. Two such plans differ in at least ``min_difference`` first days (in the
    part that one of them changes). With ``min_difference`` 1 plan 2 is the true second best;
    beyond that a plan changing two parts at once is not considered.
    """
    if k < 1 or min_difference < 1:
        raise ValueError("alternatives and min_difference must be at least 1")
    parts = components(scenario)
    prevs = split_previous(parts, previous)
    if len(parts) == 1:
        return [identify(p, scenario, previous)
                for p in _part_alternatives(scenario, opts, previous, k, min_difference)]
    if jobs > 1:
        per_part: list[list[Plan]] = _solve_in_pool(
            parts, prevs, opts, jobs, progress, task=_part_alternatives,
            extra=(k, min_difference))
    else:
        per_part = []
        for part, prev in zip(parts, prevs, strict=True):
            per_part.append(_part_alternatives(part, opts, prev, k, min_difference))
            if progress is not None:
                progress(_progress(_firsts(per_part), len(parts)))
    firsts = [alts[0] for alts in per_part]
    best = merge(scenario, firsts)

    def loss(alt: Plan, base: Plan) -> tuple[int, int, int]:
        o, b = alt.objective, base.objective
        return (b["placed"] - o["placed"], o["fees_usd"] - b["fees_usd"],
                b["preferred"] - o["preferred"])

    changes = sorted((loss(alt, alts[0]), i, alt.rank, alt)
                     for i, alts in enumerate(per_part) for alt in alts[1:])
    plans = [best]
    for _, i, _, alt in changes[:k - 1]:
        plan = merge(scenario, [alt if j == i else first for j, first in enumerate(firsts)])
        plan.rank = len(plans) + 1
        plans.append(plan)
    return [identify(p, scenario, previous) for p in plans]


def _part_alternatives(scenario: Scenario, opts: Options, previous: list[Announced] | None,
                       k: int, min_difference: int) -> list[Plan]:
    """Up to ``k`` plans, best first. Each places as many (priority-weighted) occurrences as
    the best plan and differs from every earlier one in the first days of at least
    ``min_difference`` occurrences (a day z[t, d] chosen before and not now counts one);
    among those it is the best by fees, then preferred weekdays, then earliest days."""
    plans: list[Plan] = []
    chosen: list[list[tuple[str, dt.date]]] = []

    def differ(ctx: ModelContext) -> None:
        if plans:  # as many placed as the best plan, no more required ones missing
            best = plans[0]
            ctx.model.add(_weighted(ctx.placed_terms) >= best.objective["placed"])
            ctx.model.add(_weighted(ctx.required_terms) <= sum(
                u.required for u in best.unscheduled_list))
        for days in chosen:
            ctx.model.add(cp_model.LinearExpr.sum(
                [1 - ctx.z[key] for key in days if key in ctx.z]) >= min_difference)

    for rank in range(1, k + 1):
        try:
            plan = _solve_part(scenario, opts, previous, extra=differ)
        except SolverError:
            if not plans:
                raise
            break  # no further plan differs enough (infeasible) or none found in time
        plan.rank = rank
        plans.append(plan)
        if plan.interrupted:
            break
        chosen.append(sorted({(r.tournament_id, r.first_day) for r in plan.rows}))
    return plans


# ---------------------------------------------------------------------------- extraction
def _active(ctx: ModelContext, previous: list[Announced]) -> list[Announced]:
    return [a for a in previous if not a.cancelled and a.first_day in ctx.scenario.horizon
            and a.tournament_id in ctx.candidates]


def _kept(ctx: ModelContext, previous: list[Announced]
          ) -> list[tuple[Announced, cp_model.IntVar]]:
    """Announced occurrences that can stay on their day, with their ``z``."""
    return [(a, ctx.z[(a.tournament_id, a.first_day)]) for a in _active(ctx, previous)
            if (a.tournament_id, a.first_day) in ctx.z]


def _unplaceable(ctx: ModelContext, previous: list[Announced]) -> list[Announced]:
    """Announced occurrences whose day is no longer allowed at all (they must move)."""
    return [a for a in _active(ctx, previous) if (a.tournament_id, a.first_day) not in ctx.z]


def _distance(ctx: ModelContext, moving: list[Announced]) -> list[tuple[cp_model.IntVar, int]]:
    """[(z, days from the nearest day an announced occurrence of its tournament moves from)]."""
    by_t: dict[str, list[dt.date]] = defaultdict(list)
    for a in moving:
        by_t[a.tournament_id].append(a.first_day)
    out = [(v, min(abs((day - p).days) for p in by_t[tid]))
           for (tid, day), v in ctx.z.items() if by_t.get(tid)]
    return [(v, w) for v, w in out if w]


def _license_id(kind: str, operator_id: str, valid_from: dt.date, extra: str = "") -> str:
    short = kind.removeprefix("mt-").removeprefix("me-")
    return f"{operator_id}/{short}/{valid_from.isoformat()}" + (f"/{extra}" if extra else "")


def _extract(ctx: ModelContext, solver: cp_model.CpSolver, status: str, seed: int,
             previous: list[Announced] | None = None) -> Plan:
    sc = ctx.scenario
    placed: list[tuple[Tournament, int, Candidate]] = []
    for t in sc.tournaments:
        chosen = [c for c in ctx.candidates[t.id] if solver.value(ctx.z[(t.id, c.first_day)])]
        placed.extend((t, k, c) for k, c in enumerate(chosen, start=1))
    bought = sorted((o for o in ctx.licenses if solver.value(o.var)),
                    key=lambda o: (o.operator_id, o.rank, o.valid_from, o.kind, o.tier))
    covers: dict[int, list[str]] = defaultdict(list)
    license_of: dict[tuple[str, str], list[str]] = defaultdict(list)
    for t, k, c in placed:
        ref = f"{t.id}#{k}"
        for oid in t.operators:
            for i, o in enumerate(bought):
                if o.operator_id == oid and o.covers(t, c.timing):
                    covers[i].append(ref)
                    # every licence or permit it needs (MT: one per permit year it is played
                    # in, MT-PERMIT-FEES), so schedule.csv names them all
                    license_of[(ref, oid)].append(str(i))
                    if o.jurisdiction == "ME":
                        break
    licenses: list[License] = []
    ids: dict[str, str] = {}
    for i, o in enumerate(bought):
        refs = covers.get(i, [])
        if not refs:
            continue
        if o.kind in ("me-per-tournament", "me-super-cribbage"):
            # the tournament id (the date is in the id): stable while the game stays put,
            # whatever number it has (deadline UIDs are made from licence ids)
            extra = refs[0].split("#")[0]
        elif o.jurisdiction == "ME":
            extra = o.tier
        else:
            extra = ""
        lid = _license_id(o.kind, o.operator_id, o.valid_from, extra)
        ids[str(i)] = lid
        licenses.append(License(lid, o.operator_id, o.jurisdiction, o.kind, o.tier,
                                o.valid_from, o.valid_to, o.fee_usd, tuple(refs)))

    free = _free_charitable(sc, placed)
    rows: list[Row] = []
    for t, k, c in placed:
        ref = f"{t.id}#{k}"
        for oid in t.operators:
            op = sc.operator(oid)
            mt = op.jurisdiction == "MT"
            counted = (t.is_large and (ref, oid) not in free) or t.is_me_licensed_game
            rows.append(Row(
                tournament_id=t.id, occurrence=k, operator_id=oid,
                jurisdiction=op.jurisdiction, type=t.type, charitable=t.charitable,
                title=t.title, start=c.timing.start, end=c.timing.end,
                first_day=c.first_day, last_day=c.timing.last_day,
                notice_due=notice_due(c.first_day) if t.is_large else None,
                permit_year=op.permit_year_of(c.first_day) if mt else None,
                counted=counted, players=t.players,
                license_id=" ".join(ids[i] for i in license_of.get((ref, oid), ())
                                    if i in ids),
                uid="", sequence=0))  # set for the whole plan by replan.identify
    rows.sort(key=lambda r: (r.first_day, r.tournament_id, r.occurrence, r.operator_id))
    return Plan(sc, rows, licenses, [], status, seed=seed)


def _free_charitable(sc: Scenario, placed: list[tuple[Tournament, int, Candidate]]
                     ) -> set[tuple[str, str]]:
    """(ref, operator id) of the placed charitable large-stakes occurrences that are not
    counted toward the operator's 16 (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f); the reading of
    :func:`constraints.montana.large_tally`)."""
    out: set[tuple[str, str]] = set()
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        mine = [(c.first_day, t.id, k, t.charitable) for t, k, c in placed
                if t.is_large and op.id in t.operators]
        if any(ch for *_, ch in mine):
            for tally in large_tally(sc, op, mine).values():
                out.update((ref, op.id) for ref in tally.free)
    return out


def _audit(plan: Plan) -> Audit:
    return Audit(plan.scenario, placed_of(plan), plan.license_list)


def placed_of(plan: Plan) -> list[Placed]:
    """The plan's occurrences (one per occurrence, not per operator) for the checker."""
    seen: dict[tuple[str, int], Placed] = {}
    for r in plan.rows:
        if (r.tournament_id, r.occurrence) not in seen:
            seen[(r.tournament_id, r.occurrence)] = Placed(
                plan.scenario.tournament(r.tournament_id), r.occurrence,
                Timing(r.start, r.end, _days_between(r.start, r.end)))
    return list(seen.values())


# ---------------------------------------------------------------------------- reasons
_STOPPED = ("not placed when the search was stopped (interrupted); solve again without "
            "interrupting for the reason")


def unscheduled(ctx: ModelContext, plan: Plan, *, reasons: bool = True) -> list[Unscheduled]:
    """Every wanted occurrence not placed, with the reason computed from the rules.

    For each allowed first day, the occurrence is added to the plan and the checker says which
    rules it would break (against the placements already made); days no occurrence may take at
    all are attributed to the rules that excluded them. Without ``reasons`` (a search that
    was stopped) the reason says so and no rule is named.
    """
    sc = plan.scenario
    placed = placed_of(plan)
    # A candidate day passed every rule's domain filter, and a rule the model does not
    # encode across occurrences cannot be broken by adding one more: only those that link
    # occurrences (limits, gaps, concurrency) can block a candidate day.
    sched_rules = [r for r in RULES if r.check is not None and r.encode is not None
                   and r.id not in ("MT-PERMIT-FEES", "ME-FEES", "COUNT", "FIXED-DATES")]
    by_t: dict[str, list[Placed]] = defaultdict(list)
    for p in placed:
        by_t[p.tid].append(p)
    out: list[Unscheduled] = []
    for t in sc.tournaments:
        have = by_t.get(t.id, [])
        cands = ctx.candidates[t.id]
        wanted = len(cands) if t.count == "all" else t.count
        starts = {p.first_day for p in have}
        missing_fixed = [d for d in t.fixed_dates if d not in starts]
        if len(have) >= wanted and not missing_fixed:
            continue
        related = [p for p in placed if set(p.tournament.operators) & set(t.operators)
                   or (t.type == "super-cribbage" and p.tournament.type == "super-cribbage")]

        n = len(have)
        if not reasons:
            out.extend(Unscheduled(t.id, k, t.operators, _STOPPED, (), k <= t.must_place)
                       for k in range(n + 1, max(wanted, n + len(missing_fixed)) + 1))
            continue
        for d in missing_fixed:
            n += 1
            rej = ctx.rejected[t.id].get(d)
            if rej:
                rules = rej
                reason = f"its fixed date {d} is not allowed: " + _why_not(sc, t, n, d, rej)
            else:
                tally, example = _blocked(sc, t, related, starts,
                                          [c for c in cands if c.first_day == d], sched_rules, n)
                rules = tuple(sorted(tally))
                reason = (f"its fixed date {d} is taken: " +
                          "; ".join(f"{example[r]} ({cite(r)})" for r in rules)) if rules else \
                    f"its fixed date {d} competes with other required occurrences"
            out.append(Unscheduled(t.id, n, t.operators, reason, tuple(rules), True))
        rest = wanted - n
        if rest <= 0:
            continue
        reason, rules = _explain(
            t, ctx, *_blocked(sc, t, related, starts, cands, sched_rules, n + 1), len(cands))
        need = max(0, t.must_place - n)
        for k in range(rest):
            n += 1
            out.append(Unscheduled(t.id, n, t.operators, reason, rules, k < need))
    return out


def _why_not(sc: Scenario, t: Tournament, occurrence: int, day: dt.date,
             rule_ids: Sequence[str]) -> str:
    """The checker's own sentences for the rules that exclude ``day`` as a first day."""
    tm = timing(t, tournament_tz(sc, t), day)
    if tm is None:
        return (f"{t.start_time:%H:%M} does not exist on {day} in {tournament_tz(sc, t).key}: "
                "the clocks spring forward (CLOCK-CHANGE)")
    found = check(
        Audit(sc, [Placed(t, occurrence, tm)], []),
        rules=[r for r in RULES if r.id in rule_ids])
    if not found:
        return "; ".join(cite(r) for r in rule_ids)
    return "; ".join(f"{v.message} ({cite(v.rule)})" for v in found)


def _blocked(sc: Scenario, t: Tournament, related: list[Placed], starts: set[dt.date],
             days: list[Candidate], rules: list[Rule], occurrence: int = 0
             ) -> tuple[Counter[str], dict[str, str]]:
    """For each day, the rules one more occurrence of ``t`` starting then would break:
    how many days each rule blocks, and the checker's sentence for its first such day."""
    tally: Counter[str] = Counter()
    example: dict[str, str] = {}
    for c in days:
        if c.first_day in starts:
            continue
        trial = Audit(sc, [*related, Placed(t, occurrence, c.timing)], [])
        found = check(trial, rules=rules)
        tally.update({v.rule for v in found})
        for v in found:
            example.setdefault(v.rule, v.message)
    return tally, example


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _explain(t: Tournament, ctx: ModelContext, tally: Counter[str], example: dict[str, str],
             n_cands: int) -> tuple[str, tuple[str, ...]]:
    rej = Counter(r for rs in ctx.rejected[t.id].values() for r in rs)
    total = len(ctx.rejected[t.id]) + n_cands
    parts = []
    if n_cands == 0:
        parts.append(f"none of the {total} days of the horizon can be a first day")
    else:
        free = n_cands
        parts.append(f"{free} of the {total} days of the horizon could be a first day; on "
                     f"those days one more occurrence would break " +
                     ", ".join(f"{cite(r)} ({_days(k)})" for r, k in tally.most_common()))
        if tally:
            top = tally.most_common(1)[0][0]
            parts.append(f"for example: {example[top]}")
    if rej:
        parts.append("days excluded by: " +
                     ", ".join(f"{cite(r)} ({_days(k)})" for r, k in rej.most_common()))
    rules = tuple(r for r, _ in tally.most_common()) + tuple(
        r for r, _ in rej.most_common() if r not in tally)
    if not rules:
        rules = ("COUNT",)
    return "; ".join(parts), rules
