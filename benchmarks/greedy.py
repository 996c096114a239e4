"""A greedy earliest-fit planner: what a person does by hand. The baseline of
``benchmarks/run.py``; the product must never do worse.

Dates. The requests are taken in two passes:

1. required occurrences: tournaments with ``required`` or ``fixed_dates``
   (``must_place > 0``), by priority (highest first, then file order): first each fixed date,
   then further occurrences up to ``must_place``;
2. every tournament by priority (highest first, then file order): further occurrences up to
   ``count`` (``count: all``: every day that fits).

Each occurrence goes on the earliest first day that is an allowed day of the product's model
(``ctx.candidates``: window, weekdays, blackouts, notice, play hours, ... — the rules'
``allows``) and on which the independent checker (``constraints.registry.check``, every
scheduling rule, no solver) finds no violation together with the occurrences already placed
that share an operator with it (and, for super cribbage, every super cribbage game:
ME-SUPER-CRIBBAGE is statewide). Placing more never makes a day legal again (every counted
rule is an upper limit), so the scan of a tournament resumes where its previous occurrence
was placed.

Fees. With the dates fixed, the licences are chosen by the product's own model
(``build_model``: every ``z`` fixed to the greedy days, minimise the fee terms with CP-SAT):
the cheapest licences and permits for those dates, i.e. a person who prices licences
perfectly. So the greedy fees are a lower bound on what a person would pay for these dates.

    from benchmarks.greedy import greedy
    result = greedy(part)        # a GreedyResult: days per tournament, placed, fees_usd
"""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from constraints.base import Audit, Occurrence, Rule

if TYPE_CHECKING:
    from constraints.modelling import ModelContext, Placement
    from scheduler.core.scenario import Scenario
    from scheduler.core.scenario_types import Tournament

NOT_CHECKED = ("MT-PERMIT-FEES", "ME-FEES", "COUNT", "REQUIRED", "FIXED-DATES")
"""Rules the date search leaves out: fees (no licence is bought yet) and the requests' own
counts, which the planner counts itself (as the solver's reasons do)."""


def scheduling_rules() -> list[Rule]:
    """The checker's rules that decide whether a date is legal (all but :data:`NOT_CHECKED`)."""
    from constraints.registry import RULES

    return [r for r in RULES if r.check is not None and r.id not in NOT_CHECKED]


@dataclass
class GreedyResult:
    """A greedy plan of one scenario (or part). ``days``: chosen first days per tournament id
    (sorted); ``placed``: priority-weighted occurrences placed (the product's ``placed``);
    ``occurrences``: how many; ``shortfall``: required occurrences missing (each fixed date
    not placed counts one, as in the product's first objective); ``fees_usd``: the cheapest
    licences for these dates (USD; None when not priced); times in wall seconds."""

    days: dict[str, list[dt.date]] = field(default_factory=dict)
    placed: int = 0
    occurrences: int = 0
    shortfall: int = 0
    fees_usd: int | None = None
    fee_status: str = ""
    build_s: float = 0.0
    dates_s: float = 0.0
    fees_s: float = 0.0
    checks: int = 0
    """How many trial audits the checker ran."""


def order(scenario: Scenario) -> list[Tournament]:
    """Tournaments by priority, highest first; ties in file order."""
    idx = {t.id: i for i, t in enumerate(scenario.tournaments)}
    return sorted(scenario.tournaments, key=lambda t: (-t.priority, idx[t.id]))


def objective(scenario: Scenario, days: Mapping[str, Iterable[dt.date]]) -> tuple[int, int, int]:
    """(shortfall, placed, occurrences) of a choice of first days, as the product's first
    objective counts them: ``shortfall`` = for each tournament, ``max(0, must_place - n)``
    plus every fixed date not among its days; ``placed`` = sum of ``priority`` per
    occurrence."""
    short = placed = n = 0
    for t in scenario.tournaments:
        ds = set(days.get(t.id, ()))
        short += max(0, t.must_place - len(ds)) + sum(d not in ds for d in t.fixed_dates)
        placed += t.priority * len(ds)
        n += len(ds)
    return short, placed, n


def greedy_days(ctx: ModelContext, rules: list[Rule] | None = None
                ) -> tuple[dict[str, list[dt.date]], int]:
    """The greedy first days (module docstring) of the scenario of ``ctx`` (its
    ``candidates`` give the allowed days), and the number of checker calls."""
    from constraints.registry import check

    sc = ctx.scenario
    rules = rules if rules is not None else scheduling_rules()
    by_op: dict[str, list[Occurrence]] = defaultdict(list)
    cribbage: list[Occurrence] = []
    days: dict[str, list[dt.date]] = defaultdict(list)
    resume: dict[str, int] = defaultdict(int)  # next candidate index to try, per tournament
    checks = 0

    def related(t: Tournament) -> list[Occurrence]:
        seen: dict[tuple[str, int], Occurrence] = {}
        for oid in t.operators:
            for p in by_op[oid]:
                seen[(p.tid, p.occurrence)] = p
        if t.type == "super-cribbage":
            for p in cribbage:
                seen[(p.tid, p.occurrence)] = p
        return list(seen.values())

    def fits(t: Tournament, c: Placement) -> bool:
        nonlocal checks
        checks += 1
        trial = Audit(sc, [*related(t), Occurrence(t, len(days[t.id]) + 1, c.timing)], [])
        return not check(trial, rules=rules)

    def place(t: Tournament, c: Placement) -> None:
        p = Occurrence(t, len(days[t.id]) + 1, c.timing)
        for oid in t.operators:
            by_op[oid].append(p)
        if t.type == "super-cribbage":
            cribbage.append(p)
        days[t.id].append(c.first_day)

    def fill(t: Tournament, upto: int) -> None:
        cands = ctx.candidates[t.id]
        taken = set(days[t.id])
        i = resume[t.id]
        while len(days[t.id]) < upto and i < len(cands):
            c = cands[i]
            i += 1
            if c.first_day not in taken and fits(t, c):
                place(t, c)
                taken.add(c.first_day)
        resume[t.id] = i

    ranked = order(sc)
    for t in ranked:  # pass 1: required occurrences
        if t.must_place <= 0:
            continue
        by_day = {c.first_day: c for c in ctx.candidates[t.id]}
        for d in t.fixed_dates:
            c = by_day.get(d)
            if c is not None and d not in days[t.id] and fits(t, c):
                place(t, c)
        fill(t, t.must_place)
    for t in ranked:  # pass 2: the rest, up to count
        fill(t, len(ctx.candidates[t.id]) if t.count == "all" else int(t.count))
    return {tid: sorted(ds) for tid, ds in days.items() if ds}, checks


def cheapest_fees(ctx: ModelContext, days: Mapping[str, Iterable[dt.date]], *,
                  time_limit: float | None = None) -> tuple[int | None, str]:
    """(USD, CP-SAT status) of the cheapest licences for these first days: every ``z`` of the
    product's model fixed (1 on a chosen day, 0 elsewhere), fee terms minimised. ``None`` and
    the status when CP-SAT finds no solution (INFEASIBLE would mean the checker and the model
    disagree on the dates). Changes ``ctx.model``. Raises ``KeyError`` for a day with no
    ``z`` (not an allowed day)."""
    from ortools.sat.python import cp_model

    from scheduler.engine.cpsat import Options

    chosen = {(tid, d) for tid, ds in days.items() for d in ds}
    missing = chosen - set(ctx.z)
    if missing:
        raise KeyError(f"days that are not allowed days of the model: {sorted(missing)[:5]}")
    m = ctx.model
    for key, v in ctx.z.items():
        m.add(v == (1 if key in chosen else 0))
    m.minimize(cp_model.LinearExpr.weighted_sum([v for v, _ in ctx.fee_terms],
                                                [w for _, w in ctx.fee_terms]))
    solver = Options(time_limit=time_limit).solver()
    status = solver.solve(m)
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, name
    return round(solver.objective_value), name


def greedy(scenario: Scenario, *, fees: bool = True,
           time_limit: float | None = None) -> GreedyResult:
    """The greedy plan of ``scenario`` (dates, then the cheapest licences for them when
    ``fees``): build the product's model, :func:`greedy_days`, :func:`cheapest_fees`
    (``time_limit``: its wall seconds)."""
    from scheduler.engine.model import build_model

    res = GreedyResult()
    t0 = time.perf_counter()
    ctx = build_model(scenario)
    res.build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    res.days, res.checks = greedy_days(ctx)
    res.dates_s = time.perf_counter() - t0
    res.shortfall, res.placed, res.occurrences = objective(scenario, res.days)
    if fees:
        t0 = time.perf_counter()
        res.fees_usd, res.fee_status = cheapest_fees(ctx, res.days, time_limit=time_limit)
        res.fees_s = time.perf_counter() - t0
    return res
