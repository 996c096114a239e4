"""Interval against day-indexed: two CP-SAT formulations of the same core problem, measured on
the components of the benchmark set (issue 6, section 2).

    .venv/bin/python benchmarks/formulations.py [--max N | --n N ...] [--time-limit S]
        [--deterministic-time D] [--configs lin0,lin1,lin2,max_lp,max_lp2] [--seed S]
        [--no-product] [--out CSV]

**The core problem** is the first lexicographic stage of ``scheduler/engine/objective.py``: maximise
``placed - big * shortfall`` (``placed``: priority-weighted occurrences; ``shortfall``:
required occurrences missing, plus fixed dates not met; ``big`` = the sum of every candidate's
priority + 1, as the product computes it) under exactly these rules, the same in both
formulations:

- allowed first days: the product's domain filter (``scheduler.engine.model.build_domain`` with
  every
  rule's ``allows``: HORIZON, WINDOW, WEEKDAYS, BLACKOUT, MT-DURATION, MT-NOTICE, ME-DURATION,
  ME-OTHER-GAMES, ME-APPLICATION-WINDOW), computed once per part in Python and shared;
- COUNT (at most ``count`` occurrences; fixed dates are among them), REQUIRED (``required``),
  FIXED-DATES, MIN-GAP (first days at least ``min_gap_days`` apart; one start a day at most),
  MAX-CONCURRENT (per operator and calendar day, small-stakes excluded: the ``concurrency:
  day`` reading, which :func:`core_of` sets on every operator), MT-LARGE-LIMIT (16
  counted large-stakes per operator and permit year, minus those held earlier; a shared
  tournament counts for each venue), MT-CHARITY-LIMIT (the first 3 charitable ones of a permit
  year are not counted; later ones are), MT-SMALL-DAILY (one small-stakes
  start per operator and day), ME-MONTHLY-LIMIT (2 games per organization and calendar month,
  by ``month_rule``), ME-SUPER-CRIBBAGE (15 a calendar year statewide).

Left out: MT-PERMIT-FEES and ME-FEES (they only price a plan: stage 2) and preferred weekdays
(stage 3). Every rule that can make a placement impossible is in, so the core optimum is the
product's stage-1 optimum; the formulation ``product`` (``build_model(part)`` with the fee
rules, objective as scheduler/engine/objective.py) checks that on every part.

**Formulations**

``day``       the product's own encoders of the core rules (``constraints/*.py``) on
              ``z[t, d]`` Booleans, one per allowed first day: sums of ``z`` per day, permit
              year and month (the product's model minus the fee rules).
``interval``  each possible occurrence ``k`` of tournament ``t`` an optional interval: start
              over the allowed first days (``Domain.FromValues``; occurrence ``k`` only on days
              where ``k`` earlier ones fit), presence ``p[k]``, size = calendar days touched
              (an ``element`` over the start where daylight saving makes it vary);
              ``p[k] => p[k-1]`` and ``p[k] => start[k] >= start[k-1] + max(min_gap_days, 1)``
              (MIN-GAP and the symmetry of identical occurrences), an absent occurrence's start
              fixed to its earliest day; ``k`` < min(count, the longest chain of allowed days);
              MAX-CONCURRENT as ``no_overlap`` (capacity 1) or ``cumulative`` per operator;
              MT-SMALL-DAILY as ``no_overlap`` of one-day intervals; every count per permit
              year / month / calendar year / fixed date through reified "starts in period"
              literals ``b <=> p[k] and start[k] in S`` (``p[k]`` itself when ``S`` holds the
              whole domain).
``product``   ``build_model(part)`` as shipped (fee rules too), stage 1 only: the cross-check.

**Solver settings** (``CONFIGS``): one worker and a fixed seed, ``linearization_level`` 0, 1
(CP-SAT's default) or 2 (``lin0``, ``lin1``, ``lin2``; the product runs ``lin2``); ``max_lp``:
``subsolvers: ["max_lp"]`` with one worker (CP-SAT then runs the max_lp search interleaved
with its LNS subsolvers in one thread); ``max_lp2``: the same with two workers and
``interleave_search`` (deterministic). Each solve stops at ``--deterministic-time`` (default
10) or ``--time-limit`` wall seconds (default 30); a part not proven optimal by then is a
time-out. Deterministic time (``solver.deterministic_time``) is the main measure: the machine
is shared and loaded, and wall times move with the load.

**Output**: a table per N, formulation and settings, printed and saved to ``--out`` (default
``benchmarks/results/formulations.csv``, columns :data:`SUMMARY_COLUMNS`), and one row per
part, formulation and settings beside it (``formulations-parts.csv``, :data:`PART_COLUMNS`).
Exit status 1 (after both files are written) when two proven optima of one part differ, or a
solution is better than another run's proven bound: the formulations would not be the same
problem.

    from benchmarks.formulations import core_of, day_indexed, interval, solve
    core = core_of(part)                      # shared allowed first days of one part
    built = interval(core)                    # a Built: model, size, build time
    result = solve(built, "lin2")             # a Result: status, objective, det. time
"""

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

from constraints.catalogue import COST_RULES  # noqa: E402
from constraints.modelling import ModelContext, Placement  # noqa: E402
from scheduler.core.scenario import Scenario  # noqa: E402
from scheduler.core.scenario_types import Tournament  # noqa: E402
from scheduler.engine.model import build_domain  # noqa: E402

FORMULATIONS = ("day", "interval", "product")
CONFIGS: dict[str, dict[str, object]] = {
    "lin0": {"linearization_level": 0},
    "lin1": {"linearization_level": 1},
    "lin2": {"linearization_level": 2},
    "max_lp": {"subsolvers": ["max_lp"]},
    "max_lp2": {"subsolvers": ["max_lp"], "num_workers": 2, "interleave_search": True},
}
"""CP-SAT parameters of each measured setting, on top of ``num_workers=1``, the seed and the
limits."""

PART_COLUMNS = ["n", "part", "operators", "tournaments", "formulation", "config", "variables",
                "constraints", "domain_s", "encode_s", "status", "objective", "bound",
                "det_time", "wall_s"]
"""Columns of ``formulations-parts.csv``: instance size ``n`` (operators), the part's index
among :func:`scheduler.engine.decompose.components` and its size, the formulation and setting, the
CP-SAT model's ``variables`` / ``constraints``, ``domain_s`` (wall s, allowed first days, shared
by ``day`` and ``interval``), ``encode_s`` (wall s, the formulation's own variables and
constraints; ``product``: the whole ``build_model``), the CP-SAT ``status`` (OPTIMAL, FEASIBLE,
UNKNOWN), ``objective`` / ``bound`` of stage 1 (priority-weighted placed − big × shortfall),
``det_time`` (CP-SAT deterministic time) and ``wall_s`` (wall seconds of the solve)."""

SUMMARY_COLUMNS = ["n", "formulation", "config", "parts", "variables", "constraints",
                   "build_s", "optimal", "timeouts", "det_time", "det_time_max", "wall_s",
                   "objective", "det_vs_day", "wall_vs_day"]
"""Columns of ``formulations.csv``, one row per N, formulation and setting: ``parts`` solved,
``variables`` / ``constraints`` summed over parts, ``build_s`` (wall s, domain + encoding,
summed), ``optimal`` (parts proven optimal) and ``timeouts`` (the others), ``det_time`` /
``wall_s`` summed over parts (a time-out counts its limit: then a lower bound),
``det_time_max`` the slowest part, ``objective`` the summed best objective, ``det_vs_day`` /
``wall_vs_day`` this row's ``det_time`` / ``wall_s`` over the ``day`` row's with the same
setting (above 1: slower than the day-indexed model)."""


# ------------------------------------------------------------------ the shared core
@dataclass
class Core:
    """One part's core problem: the scenario and the allowed first days of each tournament
    (``candidates[tid]``, date order, from the product's domain filter), built in
    ``domain_s`` wall seconds."""

    scenario: Scenario
    candidates: dict[str, list[Placement]]
    domain_s: float
    ctx: ModelContext
    """The context ``build_domain`` filled (its ``z`` are the ``day`` formulation's)."""

    @property
    def big(self) -> int:
        """The weight of one unit of shortfall: every candidate's priority summed, + 1 (as
        scheduler/engine/objective.py: ``sum(w for _, w in ctx.placed_terms) + 1``)."""
        return sum(t.priority * len(self.candidates.get(t.id, []))
                   for t in self.scenario.tournaments) + 1

    def offset(self, day: dt.date) -> int:
        """Days from the horizon's first day."""
        return (day - self.scenario.horizon.start).days


def core_of(part: Scenario) -> Core:
    """The allowed first days of every tournament of ``part`` (a validated Scenario, usually
    one of :func:`scheduler.engine.decompose.components`), by the product's own ``allows`` rules."""
    from constraints.registry import RULES

    part = part.model_copy(update={"operators": tuple(
        o.model_copy(update={"concurrency": "day"}) for o in part.operators)})
    t0 = time.perf_counter()
    ctx = ModelContext(part)
    build_domain(ctx, [(r.id, r.allows) for r in RULES if r.allows is not None],
                 [(r.id, r.allows_day) for r in RULES if r.allows_day is not None])
    return Core(part, ctx.candidates, time.perf_counter() - t0, ctx)


@dataclass
class Built:
    """A formulation's CP-SAT model of a core problem, objective set (maximise)."""

    formulation: str
    model: cp_model.CpModel
    domain_s: float
    encode_s: float

    @property
    def variables(self) -> int:
        return len(self.model.proto.variables)

    @property
    def constraints(self) -> int:
        return len(self.model.proto.constraints)


def _stage1(model: cp_model.CpModel, placed: Sequence[tuple[object, int]],
            penalties: Sequence[object], big: int) -> None:
    """maximize sum(priority * placed) - big * sum(penalties), as scheduler/engine/objective.py's
    stage 1."""
    placed_expr = cp_model.LinearExpr.weighted_sum([v for v, _ in placed],
                                                   [w for _, w in placed])
    short = cp_model.LinearExpr.weighted_sum(list(penalties),
                                             [1] * len(penalties))
    model.maximize(placed_expr - big * short)


# ------------------------------------------------------------------ (a) day-indexed
def day_indexed(core: Core) -> Built:
    """The product's day-indexed encoders of the core rules (every ``encode`` of
    ``constraints/*.py`` except the cost rules MT-PERMIT-FEES and ME-FEES) over the ``z`` of
    ``core``. Call it at most once per ``core`` (it adds to ``core.ctx.model``)."""
    from constraints.registry import RULES
    from scheduler.engine.objective import add_terms

    t0 = time.perf_counter()
    ctx = core.ctx
    for rule in RULES:
        if rule.encode is not None and rule.id not in COST_RULES:
            rule.encode(ctx)
            ctx.flush()
    add_terms(ctx)
    _stage1(ctx.model, ctx.placed_terms, [v * w for v, w in ctx.required_terms],
            sum(w for _, w in ctx.placed_terms) + 1)
    return Built("day", ctx.model, core.domain_s, time.perf_counter() - t0)


def product(part: Scenario) -> Built:
    """``build_model(part)`` as the product builds it (fee rules too) with
    scheduler/engine/objective.py's stage-1 objective; ``encode_s`` is the whole build,
    ``domain_s`` 0."""
    from scheduler.engine.model import build_model
    from scheduler.engine.objective import add_terms

    t0 = time.perf_counter()
    ctx = build_model(part)
    add_terms(ctx)
    _stage1(ctx.model, ctx.placed_terms, [v * w for v, w in ctx.required_terms],
            sum(w for _, w in ctx.placed_terms) + 1)
    return Built("product", ctx.model, 0.0, time.perf_counter() - t0)


# ------------------------------------------------------------------ (b) interval
@dataclass
class _Occ:
    """Occurrence ``k`` of a tournament: start (day offset), presence, allowed offsets."""

    t: Tournament
    k: int
    start: cp_model.IntVar
    present: cp_model.IntVar
    domain: list[int]
    members: dict[object, cp_model.IntVar | None] = field(default_factory=dict)
    interval: cp_model.IntervalVar | None = None
    unit: cp_model.IntervalVar | None = None


def chain_lengths(offsets: Sequence[int], gap: int) -> list[int]:
    """``L[i]``: the most first days, pairwise at least ``gap`` days apart, that can be chosen
    among ``offsets[:i + 1]`` ending with ``offsets[i]`` (``offsets`` sorted, distinct;
    ``gap`` >= 1). Non-decreasing; ``L[-1]`` is the most occurrences the days allow."""
    out: list[int] = []
    for i, o in enumerate(offsets):
        j = bisect.bisect_right(offsets, o - gap, 0, i)
        out.append(1 + (out[j - 1] if j else 0))
    return out


class _Interval:
    """Builds the interval formulation of one :class:`Core` (see :func:`interval`)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.m = cp_model.CpModel()
        self.sc = core.scenario
        self.occ: dict[str, list[_Occ]] = {}
        self.cand: dict[str, dict[int, Placement]] = {}
        self.horizon = core.offset(self.sc.horizon.end) + 1

    # -------------------------------------------------------------- variables
    def occurrences(self) -> None:
        m = self.m
        for t in self.sc.tournaments:
            cands = self.core.candidates.get(t.id, [])
            by_off = {self.core.offset(c.first_day): c for c in cands}
            self.cand[t.id] = by_off
            offs = sorted(by_off)
            gap = max(t.min_gap_days, 1)
            lengths = chain_lengths(offs, gap)
            most = lengths[-1] if lengths else 0
            n = min(t.count, most) if isinstance(t.count, int) else most
            occ: list[_Occ] = []
            for k in range(n):
                dom = [o for o, n_ in zip(offs, lengths, strict=True) if n_ >= k + 1]
                s = m.new_int_var_from_domain(cp_model.Domain.from_values(dom),
                                              f"start[{t.id},{k}]")
                p = m.new_bool_var(f"present[{t.id},{k}]")
                m.add(s == dom[0]).only_enforce_if(~p)  # an absent occurrence: no symmetry
                if occ:
                    prev = occ[-1]
                    m.add_implication(p, prev.present)
                    m.add(s >= prev.start + gap).only_enforce_if(p)
                occ.append(_Occ(t, k, s, p, dom))
            self.occ[t.id] = occ

    def member(self, o: _Occ, key: object, inside: Callable[[Placement], bool]
               ) -> cp_model.IntVar | None:
        """The literal "occurrence ``o`` is placed and starts on a day whose candidate
        satisfies ``inside``" (cached by ``key``); None when no allowed day does."""
        if key in o.members:
            return o.members[key]
        cands = self.cand[o.t.id]
        ins = [d for d in o.domain if inside(cands[d])]
        lit: cp_model.IntVar | None
        if not ins:
            lit = None
        elif len(ins) == len(o.domain):
            lit = o.present
        else:
            lit = self.m.new_bool_var(f"in[{o.t.id},{o.k},{key}]")
            outs = [d for d in o.domain if not inside(cands[d])]
            self.m.add_implication(lit, o.present)
            self.m.add_linear_expression_in_domain(o.start, _values(ins, o.domain)
                                                   ).only_enforce_if(lit)
            self.m.add_linear_expression_in_domain(o.start, _values(outs, o.domain)
                                                   ).only_enforce_if([o.present, ~lit])
        o.members[key] = lit
        return lit

    def span_interval(self, o: _Occ) -> cp_model.IntervalVar:
        """Occurrence ``o`` over the calendar days it touches (MAX-CONCURRENT)."""
        if o.interval is None:
            cands = self.cand[o.t.id]
            spans = {d: len(cands[d].timing.days) for d in o.domain}
            sizes = sorted(set(spans.values()))
            if len(sizes) == 1:
                o.interval = self.m.new_optional_fixed_size_interval_var(
                    o.start, sizes[0], o.present, f"iv[{o.t.id},{o.k}]")
            else:  # daylight saving moves the end of some starts past midnight
                size = self.m.new_int_var_from_domain(cp_model.Domain.from_values(sizes),
                                                      f"size[{o.t.id},{o.k}]")
                table = [spans.get(d, sizes[0]) for d in range(self.horizon)]
                self.m.add_element(o.start, table, size)
                end = self.m.new_int_var(0, self.horizon + max(sizes), f"end[{o.t.id},{o.k}]")
                o.interval = self.m.new_optional_interval_var(
                    o.start, size, end, o.present, f"iv[{o.t.id},{o.k}]")
        return o.interval

    def unit_interval(self, o: _Occ) -> cp_model.IntervalVar:
        """Occurrence ``o``'s first day as a one-day interval (MT-SMALL-DAILY)."""
        if o.unit is None:
            o.unit = self.m.new_optional_fixed_size_interval_var(
                o.start, 1, o.present, f"day[{o.t.id},{o.k}]")
        return o.unit

    def of_operator(self, oid: str) -> Iterable[_Occ]:
        for t in self.sc.tournaments:
            if oid in t.operators:
                yield from self.occ[t.id]

    def limit(self, lits: list[cp_model.IntVar | None], room: int) -> None:
        live = [v for v in lits if v is not None]
        if len(live) > room:
            self.m.add(sum(live) <= max(room, 0))

    # -------------------------------------------------------------- rules
    def rules(self) -> tuple[list[tuple[cp_model.IntVar, int]], list[object]]:
        """Every core rule; returns the objective's (placed literal, priority) terms and
        penalty terms (shortfall variables, missed fixed dates)."""
        from constraints.maine import MONTHLY_LIMIT, SUPER_CRIBBAGE_LIMIT, counted_months
        from constraints.montana import CHARITY_LIMIT, LARGE_LIMIT
        from constraints.montana.tally import held_count

        m, sc = self.m, self.sc
        placed: list[tuple[cp_model.IntVar, int]] = []
        penalties: list[object] = []
        for t in sc.tournaments:  # COUNT, REQUIRED, FIXED-DATES
            occ = self.occ[t.id]
            pres = [o.present for o in occ]
            placed.extend((p, t.priority) for p in pres)
            on_fixed: list[cp_model.LinearExprT] = []
            for d in t.fixed_dates:
                hits = [self.member(o, ("day", d), lambda c, d=d: c.first_day == d)
                        for o in occ]
                live = [v for v in hits if v is not None]
                penalties.append(1 - sum(live) if live else 1)
                on_fixed.extend(live)
            if isinstance(t.count, int) and t.fixed_dates and len(pres) > t.count - len(
                    t.fixed_dates):
                m.add(sum(pres) - sum(on_fixed) <= t.count - len(t.fixed_dates))
            if t.must_place:
                short = m.new_int_var(0, t.must_place, f"shortfall[{t.id}]")
                m.add(short >= t.must_place - sum(pres))
                penalties.append(short)
        for op in sc.operators:
            mine = list(self.of_operator(op.id))
            big_ones = [o for o in mine if not o.t.is_small]  # MAX-CONCURRENT
            if len(big_ones) > op.max_concurrent:
                ivs = [self.span_interval(o) for o in big_ones]
                if op.max_concurrent == 1:
                    m.add_no_overlap(ivs)
                else:
                    m.add_cumulative(ivs, [1] * len(ivs), op.max_concurrent)
            small = [o for o in mine if o.t.is_small]  # MT-SMALL-DAILY
            if len(small) > 1:
                m.add_no_overlap([self.unit_interval(o) for o in small])
            if op.jurisdiction == "MT":  # MT-LARGE-LIMIT, MT-CHARITY-LIMIT
                # N + hl + max(0, C + hc - 3) <= 16: the first 3 charitable are not counted
                large = [o for o in mine if o.t.is_large]
                years = sorted({op.permit_year_of(self.cand[o.t.id][d].first_day)
                                for o in large for d in o.domain})
                for py in years:
                    lits = [self.member(o, ("py", op.permit_year_start, py),
                                        lambda c, py=py, op=op:
                                        op.permit_year_of(c.first_day) == py)
                            for o in large]
                    hl, hc = held_count(op, sc, py, False), held_count(op, sc, py, True)
                    self.limit([v for v, o in zip(lits, large, strict=True)
                                if not o.t.charitable],
                               LARGE_LIMIT - hl - max(0, hc - CHARITY_LIMIT))
                    if any(o.t.charitable for o in large):
                        self.limit(lits, LARGE_LIMIT + CHARITY_LIMIT - hl - hc)
            if op.jurisdiction == "ME":  # ME-MONTHLY-LIMIT
                games = [o for o in mine if o.t.is_me_licensed_game]
                months = sorted({ym for o in games for d in o.domain
                                 for ym in counted_months(sc, self.cand[o.t.id][d].timing)})
                for ym in months:
                    lits = [self.member(o, ("month", ym), lambda c, ym=ym:
                                        ym in counted_months(sc, c.timing)) for o in games]
                    self.limit(lits, MONTHLY_LIMIT)
        cribbage = [o for t in sc.tournaments if t.type == "super-cribbage"
                    for o in self.occ[t.id]]  # ME-SUPER-CRIBBAGE
        years_c = sorted({self.cand[o.t.id][d].first_day.year for o in cribbage
                          for d in o.domain})
        for y in years_c:
            self.limit([self.member(o, ("year", y), lambda c, y=y: c.first_day.year == y)
                        for o in cribbage], SUPER_CRIBBAGE_LIMIT)
        return placed, penalties


def _values(subset: list[int], domain: list[int]) -> cp_model.Domain:
    """``subset`` of the sorted ``domain`` as a CP-SAT Domain: one range when ``subset`` is a
    run of consecutive elements of ``domain`` (the usual case: a period), else its values."""
    i = bisect.bisect_left(domain, subset[0])
    if domain[i:i + len(subset)] == subset:
        return cp_model.Domain(subset[0], subset[-1])
    return cp_model.Domain.from_values(subset)


def interval(core: Core) -> Built:
    """The interval formulation of ``core`` (see the module docstring): a new model, same
    rules and objective as :func:`day_indexed`."""
    t0 = time.perf_counter()
    b = _Interval(core)
    b.occurrences()
    placed, penalties = b.rules()
    _stage1(b.m, placed, penalties, core.big)
    return Built("interval", b.m, core.domain_s, time.perf_counter() - t0)


def build(formulation: str, core: Core) -> Built:
    """The model of ``core`` in ``formulation`` (a name of :data:`FORMULATIONS`; ``product``
    rebuilds ``core.scenario`` from scratch). Raises ``KeyError`` for another name."""
    builders: dict[str, Callable[[], Built]] = {
        "day": lambda: day_indexed(core), "interval": lambda: interval(core),
        "product": lambda: product(core.scenario)}
    return builders[formulation]()


# ------------------------------------------------------------------ solving and measuring
@dataclass(frozen=True)
class Result:
    """One solve: CP-SAT status name, stage-1 objective and bound (None without a solution),
    deterministic time and wall seconds."""

    status: str
    objective: int | None
    bound: float
    det_time: float
    wall_s: float


def solve(built: Built, config: str, *, seed: int = 0, deterministic_time: float = 60.0,
          time_limit: float = 60.0) -> Result:
    """Solve ``built`` with the setting ``config`` (a key of :data:`CONFIGS`), one worker unless
    the setting says otherwise, CP-SAT seed ``seed``, stopped at ``deterministic_time`` or
    ``time_limit`` wall seconds. Raises ``KeyError`` for an unknown setting and
    ``RuntimeError`` when CP-SAT finds the model invalid."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.random_seed = seed
    p.max_deterministic_time = deterministic_time
    p.max_time_in_seconds = time_limit
    for k, v in CONFIGS[config].items():
        if isinstance(v, list):
            getattr(p, k).extend(v)
        else:
            setattr(p, k, v)
    status = solver.solve(built.model)
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"{built.formulation}: invalid model: {built.model.validate()}")
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return Result(solver.status_name(status), round(solver.objective_value) if found else None,
                  solver.best_objective_bound, solver.deterministic_time, solver.wall_time)


def measure(n: int, parts: Sequence[Scenario], configs: Sequence[str], *,
            formulations: Sequence[str] = FORMULATIONS, seed: int = 0,
            deterministic_time: float = 60.0, time_limit: float = 60.0,
            log: Callable[[str], None] | None = None) -> pd.DataFrame:
    """Build every formulation of every part and solve it with every setting, alternating
    formulations (so that the machine's load hits them alike). Returns one row per part,
    formulation and setting, columns :data:`PART_COLUMNS` (``objective`` Int64, times
    float64 seconds)."""
    rows: list[dict[str, object]] = []
    for i, part in enumerate(parts):
        core = core_of(part)
        built = {f: build(f, core) for f in formulations}
        for config in configs:
            for f, b in built.items():
                r = solve(b, config, seed=seed, deterministic_time=deterministic_time,
                          time_limit=time_limit)
                rows.append({"n": n, "part": i, "operators": len(part.operators),
                             "tournaments": len(part.tournaments), "formulation": f,
                             "config": config, "variables": b.variables,
                             "constraints": b.constraints, "domain_s": b.domain_s,
                             "encode_s": b.encode_s, "status": r.status,
                             "objective": r.objective, "bound": r.bound,
                             "det_time": r.det_time, "wall_s": r.wall_s})
        if log is not None:
            last = [r for r in rows if r["part"] == i]
            slow = max(last, key=lambda r: float(r["det_time"]))
            log(f"N={n} part {i + 1}/{len(parts)}: {len(part.tournaments)} tournaments, "
                f"slowest {slow['formulation']}/{slow['config']} "
                f"{float(slow['det_time']):.3f} det ({slow['status']})")
    df = pd.DataFrame(rows, columns=PART_COLUMNS)
    df["objective"] = df["objective"].astype("Int64")
    return df


def disagreements(parts: pd.DataFrame) -> list[str]:
    """Parts (rows of :func:`measure`) where the runs contradict each other: two proven optima
    differ, or a solution beats another run's proven bound. Empty when every formulation and
    setting solved the same problem."""
    out: list[str] = []
    for (n, part), g in parts.groupby(["n", "part"], sort=True):
        opt = g[g["status"] == "OPTIMAL"]
        values = sorted(set(int(v) for v in opt["objective"]))
        if len(values) > 1:
            runs = ", ".join(f"{r.formulation}/{r.config}={r.objective}"
                             for r in opt.itertuples())
            out.append(f"N={n} part {part}: proven optima differ ({runs})")
        found = g["objective"].dropna()
        if len(found) and float(found.max()) > float(g["bound"].min()) + 1e-6:
            out.append(f"N={n} part {part}: a solution ({int(found.max())}) is above a proven "
                       f"bound ({g['bound'].min()})")
    return out


def summarise(parts: pd.DataFrame) -> pd.DataFrame:
    """One row per N, formulation and setting (columns :data:`SUMMARY_COLUMNS`) from the rows
    of :func:`measure`, in the order N, setting, formulation."""
    order = {c: i for i, c in enumerate(CONFIGS)}
    forder = {f: i for i, f in enumerate(FORMULATIONS)}
    rows = []
    for (n, f, config), g in parts.groupby(["n", "formulation", "config"], sort=False):
        rows.append({"n": n, "formulation": f, "config": config, "parts": len(g),
                     "variables": int(g["variables"].sum()),
                     "constraints": int(g["constraints"].sum()),
                     "build_s": round(float((g["domain_s"] + g["encode_s"]).sum()), 3),
                     "optimal": int((g["status"] == "OPTIMAL").sum()),
                     "timeouts": int((g["status"] != "OPTIMAL").sum()),
                     "det_time": float(g["det_time"].sum()),
                     "det_time_max": float(g["det_time"].max()),
                     "wall_s": float(g["wall_s"].sum()),
                     "objective": int(g["objective"].fillna(0).sum())})
    out = pd.DataFrame(rows)
    out["_k"] = [(r.n, order[r.config], forder[r.formulation]) for r in out.itertuples()]
    out = out.sort_values("_k").drop(columns="_k").reset_index(drop=True)
    day = out[out["formulation"] == "day"].set_index(["n", "config"])
    for col in ("det_time", "wall_s"):
        ref = [day[col].get((r.n, r.config), math.nan) for r in out.itertuples()]
        out[f"{col.split('_')[0]}_vs_day"] = [
            round(v / r, 2) if r and r == r else math.nan
            for v, r in zip(out[col], ref, strict=True)]
    for col in ("det_time", "det_time_max", "wall_s"):
        out[col] = out[col].round(4)
    return out[SUMMARY_COLUMNS]


def main(argv: Sequence[str] | None = None) -> int:
    from benchmarks.instances import INSTANCES, load_instance
    from scheduler.engine.decompose import components

    ap = argparse.ArgumentParser(description="Interval against day-indexed CP-SAT "
                                 "formulations of the core rules, on the benchmark set.")
    ap.add_argument("--max", type=int, default=200, help="largest N (default 200)")
    ap.add_argument("--n", type=int, nargs="*", help="these sizes only")
    ap.add_argument("--time-limit", type=float, default=30.0,
                    help="wall seconds per solve (default 30)")
    ap.add_argument("--deterministic-time", type=float, default=10.0,
                    help="CP-SAT deterministic time per solve (default 10)")
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help=f"settings to run, comma-separated (default {','.join(CONFIGS)})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-product", action="store_true",
                    help="leave out the product's full model (the cross-check)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/formulations.csv")
    args = ap.parse_args(argv)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    bad = [c for c in configs if c not in CONFIGS]
    if bad:
        print(f"unknown setting {', '.join(bad)}; known: {', '.join(CONFIGS)}", file=sys.stderr)
        return 2
    sizes = [n for n, _ in INSTANCES if (n in args.n if args.n else n <= args.max)]
    if not sizes:
        print(f"no benchmark instance selected; N = {', '.join(str(n) for n, _ in INSTANCES)}",
              file=sys.stderr)
        return 2
    forms = [f for f in FORMULATIONS if not (args.no_product and f == "product")]
    frames = []
    for n in sizes:
        parts = components(load_instance(n))
        frames.append(measure(n, parts, configs, formulations=forms, seed=args.seed,
                              deterministic_time=args.deterministic_time,
                              time_limit=args.time_limit,
                              log=lambda s: print(s, file=sys.stderr, flush=True)))
    parts_df = pd.concat(frames, ignore_index=True)
    table = summarise(parts_df)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, index=False)
    parts_df.to_csv(args.out.with_name(args.out.stem + "-parts.csv"), index=False,
                    float_format="%.4f")
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(table.to_string(index=False))
    print(f"\nwritten: {args.out} and {args.out.with_name(args.out.stem + '-parts.csv')}")
    problems = disagreements(parts_df)
    for p in problems:
        print("DISAGREE: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
