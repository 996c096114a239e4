"""The objective of a solve: its terms, its lexicographic stages, their weights and hints.

The rules (``constraints/*``) state constraints and fee terms only; this module adds what a
plan is worth, from the scenario's own requests, and runs the stages on the model:

1. ``placed``: most priority-weighted occurrences placed (each placed occurrence earns its
   tournament's ``priority``, COUNT), required occurrences first: a unit of required
   shortfall (below ``must_place``, REQUIRED; a fixed date not taken, FIXED-DATES) outweighs
   every optional placement;
2. ``fees_usd``: least total licence and permit fees (USD; the rules' fee terms, dates chosen
   jointly with the licences);
3. ``preferred``: most occurrences on preferred weekdays, earlier first days breaking ties (a
   preferred day outweighs any total of day offsets, so equal plans are not chosen
   arbitrarily).

A re-plan (``previous``) instead runs, after ``preferred``: ``moved``, the most announced
occurrences kept on their day; then, with the kept ones fixed, ``days_moved``, the fewest
days moved (each new first day costs its distance to the nearest announced day of its
tournament that was not kept), then earlier first days.

Stages 1 and 2 are one CP-SAT search (:data:`SEARCHES`): maximize
``W · stage1 − fees`` with ``W`` one more than the widest span the fees can take (their
largest total minus their smallest, :func:`fee_span`), so one more unit of ``stage1`` outweighs
any fees and the order placed > fees holds exactly: the search's optimum is
``W · placed* − fees*`` with the same ``placed*`` and ``fees*`` as two searches, one after the
other (tests/test_objective_fused.py). Each later stage is a fresh CP-SAT search that keeps
the previous stages' values (a constraint) and starts from the previous search's solution (a
complete hint).
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from constraints.modelling import ModelContext
from constraints.requests import minimums
from scheduler.core.errors import EXIT_INTERNAL, TourneyError
from scheduler.core.fields import WEEKDAYS
from scheduler.engine.cpsat import Options, search
from scheduler.inputs.replan.previous import PublishedOccurrence

__all__ = ["FUSED", "SEARCHES", "STAGES", "Outcome", "SolverError", "Stage", "Stages", "add_terms",
           "fee_span", "lexicographic", "weighted"]

STAGES = ("placed", "fees_usd", "preferred")
"""The stages every solve runs, in order (the objective's values); a re-plan adds ``moved``
and ``days_moved``."""

FUSED = "placed and fees_usd"
"""The name of the first search, stages 1 and 2 at once (what progress shows)."""

SEARCHES = (FUSED, "preferred")
"""The CP-SAT searches every solve runs, in order; a re-plan adds ``moved`` and
``days_moved``."""


class SolverError(TourneyError, RuntimeError):
    """The solver returned no usable answer (MODEL_INVALID, or UNKNOWN at the time limit)."""

    exit_code = EXIT_INTERNAL

    def format_message(self) -> str:
        return f"tourney: {self}. Try a longer --time-limit. Nothing was written."


def add_terms(ctx: ModelContext) -> None:
    """Add the objective's terms to ``ctx`` (after the rules' ``encode``, which add the fee
    terms): ``placed_terms`` (each ``z`` of a tournament, weighted by its ``priority``,
    COUNT), ``required_terms`` (the shortfall below ``must_place``, REQUIRED, then each fixed
    date not taken, FIXED-DATES, then each per-month or per-week minimum's shortfall,
    PER-MONTH-MIN and PER-WEEK-MIN; weight 1 each) and ``preference_terms`` (each ``z`` on one
    of the tournament's ``prefer_weekdays``, weight 1). Adds one integer variable and one
    constraint per tournament with ``must_place`` > 0."""
    m = ctx.model
    for t in ctx.scenario.tournaments:
        starts = ctx.starts(t)
        lits = [v for _, v in starts]
        ctx.placed_terms.extend((v, t.priority) for v in lits)
        if t.must_place:
            short = m.new_int_var(0, t.must_place, f"shortfall[{t.id}]")
            m.add(short >= t.must_place - sum(lits))
            ctx.required_terms.append((short, 1))
        prefer = set(t.prefer_weekdays)
        if prefer:
            ctx.preference_terms.extend(
                (v, 1) for c, v in starts if WEEKDAYS[c.first_day.weekday()] in prefer)
    for t in ctx.scenario.tournaments:
        for d in t.fixed_dates:
            z = ctx.z.get((t.id, d))
            ctx.required_terms.append((1 - z if z is not None else 1, 1))
    # PER-MONTH-MIN, PER-WEEK-MIN: at least ``min`` first days in each period of the window,
    # the shortfall below it weighed like a missing required occurrence
    for n, (in_period, least, _) in enumerate(minimums(ctx)):
        gap = m.new_int_var(0, least, f"minimum_short[{n}]")
        m.add(gap >= least - in_period)
        ctx.required_terms.append((gap, 1))


def weighted(terms: Sequence[tuple[cp_model.LinearExprT, int]]) -> cp_model.LinearExpr:
    """The linear expression ``sum(weight * term)`` of ``[(term, weight)]``."""
    return cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [w for _, w in terms])


@dataclass
class Stage:
    """One finished stage: its CP-SAT status name, objective value and proven bound."""

    status: str
    value: int
    bound: float


_SOLVED = (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _run(ctx: ModelContext, solver: cp_model.CpSolver, name: str,
         stop: Callable[[], bool] | None = None) -> tuple[Stage | None, bool]:
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
    return Stage("FEASIBLE" if stopped else name_, round(solver.objective_value),
                 solver.best_objective_bound), stopped


def _hint(ctx: ModelContext, solver: cp_model.CpSolver) -> None:
    """The previous stage's solution as a complete hint for the next stage (every variable,
    so CP-SAT starts from a feasible solution)."""
    m = ctx.model
    m.clear_hints()
    values = solver.response_proto.solution
    hint = m.proto.solution_hint
    hint.vars.extend(range(len(values)))
    hint.values.extend(values)


class Stages:
    """Runs lexicographic searches on one model: each is a fresh CP-SAT solve (hinted
    with the previous search's solution) whose value the next searches keep. Stops running
    stages once the search was stopped; ``best`` holds the latest solution."""

    def __init__(self, ctx: ModelContext, opts: Options, stop: Callable[[], bool] | None,
                 note: Callable[[str], None]) -> None:
        self.ctx, self.opts, self.stop, self.note = ctx, opts, stop, note
        self.best: cp_model.CpSolver | None = None
        self.done: dict[str, Stage] = {}
        self.stopped = False

    def run(self, name: str, objective: cp_model.LinearExprT, *, maximize: bool) -> bool:
        """Optimize ``objective``; whether the stage found a solution and later stages may
        run (False once stopped). Raises :class:`SolverError` (see :func:`_run`)."""
        return self.search(name, objective, maximize=maximize) is not None and not self.stopped

    def search(self, name: str, objective: cp_model.LinearExprT, *, maximize: bool
               ) -> Stage | None:
        """Optimize ``objective`` under ``name`` (recorded in ``done``); the search's result,
        None when it was not run or stopped before any solution."""
        if self.stopped:
            return None
        m = self.ctx.model
        if self.best is not None:
            _hint(self.ctx, self.best)
        m.maximize(objective) if maximize else m.minimize(objective)
        self.note(name)
        solver = self.opts.solver()
        stage, self.stopped = _run(self.ctx, solver, name, self.stop)
        if stage is None:
            return None
        self.best = solver
        self.done[name] = stage
        return stage

    def value(self, expr: cp_model.LinearExprT) -> int:
        assert self.best is not None
        return int(self.best.value(expr))


@dataclass
class Outcome:
    """The stages' result on one model: ``best`` the last solution (None when stopped before
    the first stage found one), ``stopped`` (the search was stopped or a stage not reached),
    ``proven`` (every stage OPTIMAL), ``objective`` (``placed``, ``fees_usd``, ``preferred``:
    priority-weighted count, USD, count), ``bound`` (the proven bound of each; a stage not
    reached has its trivial one) and ``shortfall`` (required occurrences not placed)."""

    best: cp_model.CpSolver | None
    stopped: bool
    proven: bool
    objective: dict[str, int]
    bound: dict[str, float]
    shortfall: int


def lexicographic(ctx: ModelContext, opts: Options,
                  previous: list[PublishedOccurrence] | None = None,
                  *, stop: Callable[[], bool] | None = None,
                  note: Callable[[str], None] | None = None) -> Outcome:
    """Run the stages (module docstring) on ``ctx``, whose terms :func:`add_terms` added.

    ``opts`` gives each stage's limits and seed; ``previous`` (announced occurrences) adds the
    re-plan stages; ``stop`` is polled to stop the search (Ctrl-C); ``note(name)`` is called
    as each stage begins. Raises :class:`SolverError` when a stage finds no solution in time
    (or the model is invalid).
    """
    scenario, m = ctx.scenario, ctx.model
    run = Stages(ctx, opts, stop, note or (lambda name: None))

    placed = weighted(ctx.placed_terms)
    short = weighted(ctx.required_terms)
    fees = weighted(ctx.fee_terms)
    prefs = weighted(ctx.preference_terms)
    big = sum(w for _, w in ctx.placed_terms) + 1
    stage1 = placed - big * short
    offsets = weighted([(v, (day - scenario.horizon.start).days)
                        for (_, day), v in ctx.z.items()])
    weight = sum((day - scenario.horizon.start).days for _, day in ctx.z) + 1

    low, high = fee_span(ctx)
    if _fused(run, stage1, fees, low, high):
        m.add(stage1 >= run.done["placed"].value)
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
                run.run("days_moved", weighted(_distance(ctx, left)) * weight + offsets,
                        maximize=False)
    stages = run.done
    if run.best is None:  # stopped before the first stage found anything
        return Outcome(None, True, False, {}, {}, 0)
    stopped = run.stopped or len(stages) < (3 if previous is None else 5)
    proven = not stopped and all(s.status == "OPTIMAL" for s in stages.values())
    objective = {"placed": run.value(placed) if ctx.placed_terms else 0,
                 "fees_usd": run.value(fees), "preferred": run.value(prefs)}
    # "+ 0.0" turns CP-SAT's -0.0 into 0.0; a stage never reached has its trivial bound
    s3 = stages.get("preferred")
    bound = {
        "placed": stages["placed"].bound + 0.0,
        "fees_usd": (stages["fees_usd"].bound if "fees_usd" in stages else 0) + 0.0,
        "preferred": ((s3.bound + weight - 1) // weight if s3 is not None and previous is None
                      else s3.bound if s3 is not None
                      else sum(w for _, w in ctx.preference_terms)) + 0.0}
    shortfall = run.value(short) if ctx.required_terms else 0
    return Outcome(run.best, stopped, proven, objective, bound, shortfall)


def fee_span(ctx: ModelContext) -> tuple[int, int]:
    """(least, largest) total of the fee terms over their variables' domains, in USD: the
    fees of any plan lie between them (0 and the sum of every fee, for licence Booleans of
    non-negative fees)."""
    variables = ctx.model.proto.variables
    low = high = 0
    for v, w in ctx.fee_terms:
        domain = list(variables[v.index].domain)  # the proto's list has no [-1]
        ends = (domain[0] * w, domain[-1] * w)
        low, high = low + min(ends), high + max(ends)
    return low, high


def _fused(run: Stages, stage1: cp_model.LinearExpr, fees: cp_model.LinearExpr,
           low: int, high: int) -> bool:
    """Stages 1 and 2 in one search (:data:`FUSED`): maximize ``W · stage1 − fees``, ``W =
    high − low + 1``. Records ``placed`` (stage 1) and ``fees_usd`` in ``run.done`` as two
    searches would; whether later stages may run.

    With fees in [low, high], an optimum ``V = W · s − f`` has exactly one ``s`` with ``W · s``
    in [V + low, V + high] (W values in a row), ``s = ⌊(V + high) / W⌋``, and ``f = W · s −
    V``; a solution with one unit less of stage 1 is worth at most ``W · (s − 1) − low < W · s
    − high``, so ``s`` is stage 1's optimum and ``f`` the least fees among its optima. A proven
    bound ``B`` of the search bounds stage 1 by ``⌊(B + high) / W⌋`` and, at the stage 1 value
    found, the fees from below by ``W · s − B``.
    """
    scale = high - low + 1
    found = run.search(FUSED, stage1 * scale - fees, maximize=True)
    if found is None:
        return False
    value, bound = found.value, math.floor(found.bound + 1e-6)
    placed = (value + high) // scale
    fee = scale * placed - value
    placed_bound = (bound + high) // scale
    fees_bound = max(low, scale * placed - bound)
    run.done.pop(FUSED)
    run.done["placed"] = Stage(found.status, placed, float(placed_bound))
    run.done["fees_usd"] = Stage(found.status, fee, float(fees_bound))
    return not run.stopped


# ---------------------------------------------------------------------------- re-plan terms
def _active(ctx: ModelContext, previous: list[PublishedOccurrence]) -> list[PublishedOccurrence]:
    return [a for a in previous if not a.cancelled and a.first_day in ctx.scenario.horizon
            and a.tournament_id in ctx.candidates]


def _kept(ctx: ModelContext, previous: list[PublishedOccurrence]
          ) -> list[tuple[PublishedOccurrence, cp_model.IntVar]]:
    """Announced occurrences that can stay on their day, with their ``z``."""
    return [(a, ctx.z[(a.tournament_id, a.first_day)]) for a in _active(ctx, previous)
            if (a.tournament_id, a.first_day) in ctx.z]


def _unplaceable(ctx: ModelContext, previous: list[PublishedOccurrence]
                 ) -> list[PublishedOccurrence]:
    """Announced occurrences whose day is no longer allowed at all (they must move)."""
    return [a for a in _active(ctx, previous) if (a.tournament_id, a.first_day) not in ctx.z]


def _distance(ctx: ModelContext, moving: list[PublishedOccurrence]
              ) -> list[tuple[cp_model.IntVar, int]]:
    """[(z, days from the nearest day an announced occurrence of its tournament moves from)]."""
    by_t: dict[str, list[dt.date]] = defaultdict(list)
    for a in moving:
        by_t[a.tournament_id].append(a.first_day)
    out = [(v, min(abs((day - p).days) for p in by_t[tid]))
           for (tid, day), v in ctx.z.items() if by_t.get(tid)]
    return [(v, w) for v, w in out if w]
