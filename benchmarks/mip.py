"""The product's rules as a MIP a MIP modeller would write, solved by HiGHS (highspy): the
second peer of ``benchmarks/run.py``, beside the translated CP-SAT proto of
``benchmarks/highs.py``.

The variables are the product's: one binary start column ``z[t, d]`` per candidate first day
of ``build_model(part).candidates`` (the days every rule's ``allows`` accepts; nothing is read
from the CP-SAT proto). The rows are written directly over them, aggregated, with no big-M:

- COUNT: per tournament ``sum_d z[t, d] <= count`` (``count: all``: no row), and with fixed
  dates, the other days ``<= count - len(fixed_dates)``; REQUIRED: an integer shortfall
  column ``s[t] >= must_place - sum_d z[t, d]``, ``0 <= s[t] <= must_place``;
  FIXED-DATES: each fixed date adds ``1 - z[t, d]`` to the shortfall (1 when the day is not a
  candidate);
- MIN-GAP: a window row per candidate day ``c``: the starts on ``c .. c + min_gap_days - 1``
  sum to at most 1;
- MAX-CONCURRENT: per operator, the product's reading in time (``concurrency: time``, the
  default): a clique row at each session start (``scheduler.core.timing.sessions``) over the
  candidates (small-stakes excluded) with a session in play then (start <= that instant <
  end), ``<= max_concurrent``; with ``concurrency: day``, per calendar day the candidates
  conducted that day ``<= max_concurrent``;
- MT-LARGE-LIMIT / MT-CHARITY-LIMIT (MCA 23-5-317(1)(a), (1)(f)): per Montana operator and
  permit year, with N non-charitable and C charitable large-stakes starts and hl, hc held
  before the plan: ``N <= 16 - hl - max(0, hc - 3)`` and ``N + C <= 19 - hl - hc``;
- MT-SMALL-DAILY (MCA 23-5-317(2)(a)): per operator and day, at most one small-stakes start;
- ME-MONTHLY-LIMIT (17 M.R.S. § 1836(4)): per Maine organization and counted month, at most
  2 licensed games; ME-SUPER-CRIBBAGE: per calendar year at most the licences left of 15
  statewide, each start a $75 licence;
- MT-PERMIT-FEES (MCA 23-5-317(1)(b), (2)(b)): a binary purchase column per operator, kind
  and permit year ($120 large-stakes, $500 small-stakes; none when already held), with a
  coverage row ``z[t, d] <= permit`` for every permit year the occurrence is conducted in;
- ME-FEES (17 M.R.S. § 1836(3-A)): per game a per-tournament licence column and, per
  organization and tier (1-50, 51-100), an annual licence column for each day a game it may
  cover starts (bought only on such a day: ``a[k, d] <= sum of those starts``); coverage row
  ``z[t, d] <= per[t, d] + sum of the annual licences of a covering tier valid on every day
  the game is conducted``. Monthly licences never cost less (``monthly_never_cheaper``).

Every other rule the registry lists either filters first days (already in the candidates) or
checks input; a rule with an ``encode`` not written here raises ``NotImplementedError``
naming it, so a new rule cannot be left out silently.

The objective is the same lexicographic one as ``benchmarks/highs.py`` (its ``STAGES``):
(1) maximise ``placed - big * shortfall`` (``big`` = total priority + 1); (2) minimise fees
(USD); (3) maximise preferred-weekday starts; (3b) minimise the sum of first-day offsets,
each stage's optimum fixed as a row before the next, solved by
``benchmarks.highs.solve_staged`` with ``mip_rel_gap = 0``.

    from benchmarks.mip import solve_part
    result = solve_part(part, time_limit=60)   # a benchmarks.highs.HighsResult

highspy is imported when a model is solved (an optional dependency: ``bench``/``dev`` extras).
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from benchmarks.highs import STAGES, HighsResult, Mip, solve_staged
from constraints.base import Rule
from constraints.maine import (
    ANNUAL_FEE,
    MONTHLY_LIMIT,
    PER_TOURNAMENT_FEE,
    SUPER_CRIBBAGE_FEE,
    annual_end,
    counted_months,
    covering_tiers,
    super_cribbage_left,
    tier_index,
)
from constraints.montana import CHARITY_LIMIT, LARGE_LIMIT, LARGE_PERMIT_FEE, SMALL_PERMIT_FEE
from constraints.registry import RULES
from scheduler.core.fields import WEEKDAYS
from scheduler.core.timing import sessions

if TYPE_CHECKING:
    from constraints.modelling import ModelContext, Placement
    from scheduler.core.scenario import Scenario
    from scheduler.core.scenario_types import Operator

HANDLED = ("COUNT", "FIXED-DATES", "MIN-GAP", "MAX-CONCURRENT", "MT-LARGE-LIMIT",
           "MT-SMALL-DAILY", "MT-PERMIT-FEES", "ME-MONTHLY-LIMIT", "ME-SUPER-CRIBBAGE",
           "ME-FEES")
"""The rule IDs with an ``encode`` that :func:`formulate` writes as rows."""
UNUSED = ("PER-MONTH", "PER-WEEK", "SPREAD", "TABLES", "MT-DEALER", "TOUR-WHOLE", "TOUR-ORDER",
          "TOUR-SPACING", "MT-PROGRESSIVE")
"""Rules whose ``encode`` adds nothing unless a scenario asks (``per_month``, ``per_week``,
``spread``, ``tables``, ``dealers``, ``tours``, a progressive round filed to start within 5
days of the filing day): the generated benchmark scenarios never do, and
:func:`formulate` raises for a scenario that does."""


@dataclass
class Native:
    """The native MIP of one part: columns (all integer, bounds ``lower``/``upper``), rows,
    the stage pieces (coefficient by column, constant; keys as
    ``benchmarks.highs.stage_expressions``) and the start column of each (tournament id,
    first day)."""

    lower: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    rows: list[tuple[dict[int, float], float, float, str]] = field(default_factory=list)
    """(coefficient by column, lower, upper, rule ID) of every row."""
    z: dict[tuple[str, dt.date], int] = field(default_factory=dict)
    exprs: dict[str, tuple[dict[int, float], float]] = field(default_factory=dict)

    def col(self, name: str, upper: float = 1) -> int:
        """A new integer column ``0 <= x <= upper``; its index."""
        self.lower.append(0.0)
        self.upper.append(float(upper))
        self.names.append(name)
        return len(self.names) - 1

    def row(self, cols: dict[int, float], lo: float, hi: float, rule: str) -> None:
        self.rows.append((cols, lo, hi, rule))

    def at_most(self, cols: list[int], limit: int, rule: str) -> None:
        """``sum(cols) <= limit``, written only when it can bind (more columns than limit)."""
        if len(cols) > limit:
            self.row(dict.fromkeys(cols, 1.0), -math.inf, max(limit, 0), rule)

    def rows_by_rule(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for *_, rule in self.rows:
            out[rule] += 1
        return dict(out)

    def to_mip(self) -> Mip:
        """The rows in CSR form for :func:`benchmarks.highs.solve_staged`."""
        mip = Mip(np.array(self.lower, dtype=np.float64), np.array(self.upper, dtype=np.float64))
        for cols, lo, hi, _ in self.rows:
            mip.add_row(cols, lo, hi)
        mip.kinds = self.rows_by_rule()
        return mip


def check_rules(rules: Sequence[Rule] = RULES) -> None:
    """Raise ``NotImplementedError`` naming every rule of ``rules`` (default: the registry's)
    with an ``encode`` that :func:`formulate` has no rows for (not in :data:`HANDLED`)."""
    missing = [r.id for r in rules
               if r.encode is not None and r.id not in HANDLED and r.id not in UNUSED]
    if missing:
        raise NotImplementedError(f"the native MIP has no rows for rule(s) {', '.join(missing)}")


def formulate(ctx: ModelContext) -> Native:
    """The native MIP of a built model's candidates (module docstring): only
    ``ctx.scenario`` and ``ctx.candidates`` are read. Raises ``NotImplementedError`` for a
    registered rule with an ``encode`` it does not write (see :data:`HANDLED`)."""
    check_rules()
    asked = sorted({rid for rid in ctx.rule_of_constraint if rid in UNUSED})
    if asked:
        raise NotImplementedError(f"the native MIP has no rows for rule(s) {', '.join(asked)}")
    sc = ctx.scenario
    m = Native()
    cands = {t.id: ctx.candidates.get(t.id, []) for t in sc.tournaments}
    for t in sc.tournaments:
        for c in cands[t.id]:
            m.z[(t.id, c.first_day)] = m.col(f"z[{t.id},{c.first_day}]")
    placed: dict[int, float] = {}
    short: dict[int, float] = {}
    short_const = 0.0
    fees: dict[int, float] = {}
    preferred: dict[int, float] = {}
    offsets: dict[int, float] = {}

    # COUNT, REQUIRED, FIXED-DATES, MIN-GAP, the objective's terms
    for t in sc.tournaments:
        zs = {c.first_day: m.z[(t.id, c.first_day)] for c in cands[t.id]}
        if isinstance(t.count, int):
            m.at_most(list(zs.values()), t.count, "COUNT")
            if t.fixed_dates:
                m.at_most([v for d, v in zs.items() if d not in t.fixed_dates],
                          t.count - len(t.fixed_dates), "COUNT")
        for d, v in zs.items():
            placed[v] = t.priority
            offsets[v] = (d - sc.horizon.start).days
            if WEEKDAYS[d.weekday()] in t.prefer_weekdays:
                preferred[v] = 1
        if t.must_place:
            s = m.col(f"shortfall[{t.id}]", t.must_place)
            # s >= must_place - sum z  <=>  s + sum z >= must_place
            m.row({s: 1.0, **dict.fromkeys(zs.values(), 1.0)}, t.must_place, math.inf,
                  "REQUIRED")
            short[s] = 1
        for d in t.fixed_dates:
            short_const += 1
            if d in zs:
                short[zs[d]] = short.get(zs[d], 0) - 1
        g = t.min_gap_days
        if g > 1:
            for d in zs:
                window = [zs[e] for k in range(g) if (e := d + dt.timedelta(days=k)) in zs]
                m.at_most(window, 1, "MIN-GAP")

    for op in sc.operators:
        items = [(c, m.z[(c.tid, c.first_day)]) for t in sc.tournaments
                 if op.id in t.operators for c in cands[t.id]]
        # MAX-CONCURRENT: in time (clique rows at each session start), or per calendar day
        per_day: dict[dt.date, list[int]] = defaultdict(list)
        spans: list[tuple[dt.datetime, dt.datetime, int]] = []
        small_day: dict[dt.date, list[int]] = defaultdict(list)
        for c, v in items:
            if c.tournament.is_small:
                small_day[c.first_day].append(v)
            elif op.concurrency == "day":
                for d in c.timing.days:
                    per_day[d].append(v)
            else:
                spans.extend((a, b, v) for a, b in sessions(sc, c.tournament, c.timing))
        for d in sorted(per_day):
            m.at_most(per_day[d], op.max_concurrent, "MAX-CONCURRENT")
        for clique in _cliques(spans):
            m.at_most(clique, op.max_concurrent, "MAX-CONCURRENT")
        # MT-SMALL-DAILY: one small-stakes start a day, Montana or not (the product's reading)
        for d in sorted(small_day):
            m.at_most(small_day[d], 1, "MT-SMALL-DAILY")
        if op.jurisdiction == "MT":
            _montana(m, sc, op, items, fees)
        elif op.jurisdiction == "ME":
            # ME-MONTHLY-LIMIT
            per_month: dict[tuple[int, int], list[int]] = defaultdict(list)
            for c, v in items:
                if c.tournament.is_me_licensed_game:
                    for ym in counted_months(sc, c.timing):
                        per_month[ym].append(v)
            for ym in sorted(per_month):
                m.at_most(per_month[ym], MONTHLY_LIMIT, "ME-MONTHLY-LIMIT")
            # ME-FEES
            games = [(c, v) for c, v in items if c.tournament.type == "tournament-game"]
            cov = sc.settings.tier_coverage
            annual: dict[int, list[tuple[dt.date, int]]] = {}
            for tier in (0, 1):
                on_day: dict[dt.date, list[int]] = defaultdict(list)
                for c, v in games:
                    if tier in covering_tiers(c.tournament.players or 1, cov):
                        on_day[c.first_day].append(v)
                annual[tier] = []
                for d in sorted(on_day):
                    a = m.col(f"me-annual[{op.id},{tier},{d}]")
                    fees[a] = ANNUAL_FEE[tier]
                    annual[tier].append((d, a))
                    # bought only on a day a game it may cover starts
                    m.row({a: 1.0, **{v: -1.0 for v in on_day[d]}}, -math.inf, 0, "ME-FEES")
            for c, v in games:
                players = c.tournament.players or 1
                per = m.col(f"me-per-tournament[{c.tid},{c.first_day}]")
                fees[per] = PER_TOURNAMENT_FEE[tier_index(players)]
                cover = {per: 1.0}
                for k in covering_tiers(players, cov):
                    for d, a in annual[k]:
                        if d <= c.first_day and annual_end(d) >= c.timing.last_day:
                            cover[a] = 1.0
                # z <= per + annual licences valid on every day of the game
                m.row({**cover, v: -1.0}, 0, math.inf, "ME-FEES")

    # ME-SUPER-CRIBBAGE: statewide per calendar year of the first day; each start a licence
    per_year: dict[int, list[int]] = defaultdict(list)
    for t in sc.tournaments:
        if t.type == "super-cribbage":
            for c in cands[t.id]:
                v = m.z[(t.id, c.first_day)]
                per_year[c.first_day.year].append(v)
                fees[v] = fees.get(v, 0) + SUPER_CRIBBAGE_FEE
    for year in sorted(per_year):
        m.at_most(per_year[year], super_cribbage_left(sc, year), "ME-SUPER-CRIBBAGE")

    big = sum(placed.values()) + 1
    stage1 = dict(placed)
    for i, coef in short.items():
        stage1[i] = stage1.get(i, 0) - big * coef
    m.exprs = {"placed": (placed, 0.0), "shortfall": (short, short_const),
               "fees_usd": (fees, 0.0), "preferred": (preferred, 0.0),
               "offset_days": (offsets, 0.0), "stage1": (stage1, -big * short_const)}
    return m


def _cliques(spans: list[tuple[dt.datetime, dt.datetime, int]]) -> list[list[int]]:
    """The columns in play at each distinct session start of ``spans`` ((start, end, column),
    instants in UTC, end exclusive), in time order, each set once (a column with several
    sessions counted once): every set of pairwise-overlapping intervals shares the latest
    of their starts, so these rows cover every clique of the overlap graph."""
    todo = sorted(spans)
    out: list[list[int]] = []
    seen: set[frozenset[int]] = set()
    active: list[tuple[dt.datetime, dt.datetime, int]] = []
    i = 0
    for at in sorted({a for a, _, _ in todo}):
        while i < len(todo) and todo[i][0] <= at:
            active.append(todo[i])
            i += 1
        active = [x for x in active if x[1] > at]
        cols = sorted({v for _, _, v in active})
        key = frozenset(cols)
        if key not in seen:
            seen.add(key)
            out.append(cols)
    return out


def _montana(m: Native, sc: Scenario, op: Operator, items: list[tuple[Placement, int]],
             fees: dict[int, float]) -> None:
    """MT-LARGE-LIMIT / MT-CHARITY-LIMIT and MT-PERMIT-FEES rows of one Montana operator."""
    held = op.held_in_current_permit_year
    current = op.permit_year_of(sc.horizon.start)
    large: dict[dt.date, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    permits: dict[tuple[bool, dt.date], list[int]] = defaultdict(list)
    for c, v in items:
        t = c.tournament
        if t.is_large:
            large[op.permit_year_of(c.first_day)][int(t.charitable)].append(v)
        for py in op.permit_years_of(c.timing.days):
            permits[(t.is_large, py)].append(v)
    for py in sorted(large):
        hl, hc = (held.large_stakes, held.charitable) if py == current else (0, 0)
        non, char = large[py]
        m.at_most(non, LARGE_LIMIT - hl - max(0, hc - CHARITY_LIMIT), "MT-LARGE-LIMIT")
        if char:
            m.at_most(non + char, LARGE_LIMIT + CHARITY_LIMIT - hl - hc, "MT-LARGE-LIMIT")
    for is_large, py in sorted(permits, key=lambda k: (not k[0], k[1])):
        kind = "large-stakes" if is_large else "small-stakes"
        if py == current and (kind in held.permits
                              or (is_large and held.large_stakes + held.charitable > 0)):
            continue  # already held: no purchase
        p = m.col(f"mt-{kind}-permit[{op.id},{py}]")
        fees[p] = LARGE_PERMIT_FEE if is_large else SMALL_PERMIT_FEE
        for v in permits[(is_large, py)]:
            m.row({v: 1.0, p: -1.0}, -math.inf, 0, "MT-PERMIT-FEES")  # z <= permit


def solve_context(ctx: ModelContext, *, time_limit: float | None = None,
                  stages: int = len(STAGES)) -> HighsResult:
    """Formulate the native MIP of a built model's candidates and solve it with HiGHS stage by
    stage (``benchmarks.highs.STAGES``, the first ``stages``). ``translate_s`` is the
    formulation time (Python, wall s); ``kinds`` counts rows per rule ID. Requires highspy
    (``ImportError`` otherwise); raises ``NotImplementedError`` from :func:`formulate`."""
    res = HighsResult()
    t0 = time.perf_counter()
    native = formulate(ctx)
    mip = native.to_mip()
    res.translate_s = time.perf_counter() - t0
    res.kinds = dict(mip.kinds)
    left = None if time_limit is None else time_limit - res.translate_s
    solve_staged(mip, native.exprs, native.z, res, time_limit=left, stages=stages)
    return res


def solve_part(part: Scenario, *, time_limit: float | None = None,
               stages: int = len(STAGES)) -> HighsResult:
    """Build the product's model of ``part`` (``scheduler.engine.model.build_model``, for its
    candidate first days) and solve the native MIP with :func:`solve_context`; ``build_s`` is
    the build time (wall s)."""
    from scheduler.engine.model import build_model

    t0 = time.perf_counter()
    ctx = build_model(part)
    build = time.perf_counter() - t0
    left = None if time_limit is None else max(0.0, time_limit - build)
    res = solve_context(ctx, time_limit=left, stages=stages)
    res.build_s = build
    return res
