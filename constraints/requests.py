"""The scenario's requests about rhythm and resources, for either state: how many first days
of a tournament per calendar month or ISO week, an even spread over the months, and the
tables and licensed dealers an operator has on each day.

Rules (each with its ``encode`` and its independent ``check`` side by side):

- ``PER-MONTH`` / ``PER-WEEK``: at most ``per_month.max`` (``per_week.max``) first days of a
  tournament in one calendar month (ISO week, Monday to Sunday). An occurrence counts in the
  month (week) of its **first day**. A hard rule.
- ``PER-MONTH-MIN`` / ``PER-WEEK-MIN``: at least ``per_month.min`` (``per_week.min``) first
  days in each month (week) that has a day in the tournament's window (the horizon when it has
  none), partial ones at the ends included. These are required occurrences: the model places
  them before any optional one (a unit of shortfall weighs as a missing ``required``
  occurrence); when they cannot all be met, the plan's conflicts name each unmet minimum as a
  request with the rules in its way (``minimums`` gives them to ``scheduler.engine.explain``).
- ``SPREAD``: ``spread: even``: the numbers of first days in the calendar months of the window
  (the horizon when it has none, partial months included) differ by at most 1. A hard rule.
- ``TABLES`` (and Montana's licensed dealers, :mod:`constraints.montana.conduct`, through
  :func:`capacity`): on every calendar day, the ``tables_needed`` (``dealers_needed``) of the
  operator's tournaments conducted that day (every day an occurrence touches,
  ``Timing.days``) sum to at most the operator's ``tables`` (``dealers``). No capacity
  given: no constraint. A tournament of several operators (a progressive) needs its tables
  and dealers at each of them.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Callable, Iterator

from ortools.sat.python import cp_model

from constraints.base import Audit, Occurrence, Rule, Violation, day_span
from constraints.modelling import ModelContext
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, PerPeriod, Tournament

Period = tuple[int, int]
"""A calendar month ``(year, month)`` or an ISO week ``(ISO year, week)``."""


# ------------------------------------------------------------------ periods
def month_of(day: dt.date) -> Period:
    """The calendar month ``(year, month)`` of ``day``."""
    return day.year, day.month


def week_of(day: dt.date) -> Period:
    """The ISO week ``(ISO year, week number)`` of ``day`` (weeks run Monday to Sunday)."""
    iso = day.isocalendar()
    return iso[0], iso[1]


def month_label(p: Period) -> str:
    """``2027-03``."""
    return f"{p[0]:04d}-{p[1]:02d}"


def week_label(p: Period) -> str:
    """``2027-W09`` (ISO 8601)."""
    return f"{p[0]:04d}-W{p[1]:02d}"


def month_days(p: Period) -> tuple[dt.date, dt.date]:
    """First and last day of the calendar month ``p``."""
    first = dt.date(p[0], p[1], 1)
    nxt = dt.date(p[0] + (p[1] == 12), p[1] % 12 + 1, 1)
    return first, nxt - dt.timedelta(days=1)


def week_days(p: Period) -> tuple[dt.date, dt.date]:
    """Monday and Sunday of the ISO week ``p``."""
    monday = dt.date.fromisocalendar(p[0], p[1], 1)
    return monday, monday + dt.timedelta(days=6)


def first_days(sc: Scenario, t: Tournament) -> tuple[dt.date, dt.date]:
    """The tournament's possible first days: its window within the horizon (the horizon
    when it has no window)."""
    if t.window is None:
        return sc.horizon.start, sc.horizon.end
    return max(t.window.start, sc.horizon.start), min(t.window.end, sc.horizon.end)


def periods(sc: Scenario, t: Tournament, key: Callable[[dt.date], Period]) -> list[Period]:
    """Every month (``key=month_of``) or ISO week (``week_of``) with a day among ``t``'s
    possible first days (:func:`first_days`), in order; partial ones at the ends included."""
    first, last = first_days(sc, t)
    out: list[Period] = []
    d = first
    while d <= last:
        p = key(d)
        if not out or out[-1] != p:
            out.append(p)
        d += dt.timedelta(days=1)
    return out


class PeriodKind:
    """One of the two periods: its field, rule IDs, key, label and days."""

    def __init__(self, name: str, field: str, rule: str, key: Callable[[dt.date], Period],
                 label: Callable[[Period], str],
                 span: Callable[[Period], tuple[dt.date, dt.date]]) -> None:
        self.name, self.field, self.rule, self.min_rule = name, field, rule, f"{rule}-MIN"
        self.key, self.label, self.span = key, label, span

    def of(self, t: Tournament) -> PerPeriod | None:
        pp: PerPeriod | None = getattr(t, self.field)
        return pp

    def dates(self, p: Period) -> str:
        return day_span(*self.span(p))


MONTH = PeriodKind("calendar month", "per_month", "PER-MONTH", month_of, month_label, month_days)
WEEK = PeriodKind("ISO week", "per_week", "PER-WEEK", week_of, week_label, week_days)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


# ------------------------------------------------------------------ SCENARIO checks of the fields
def _validate_min(k: PeriodKind) -> Callable[[Scenario], Iterator[TermProblem]]:
    def validate(sc: Scenario) -> Iterator[TermProblem]:
        """PER-MONTH-MIN / PER-WEEK-MIN: ``min`` ≤ ``max``; the minimums fit within
        ``count``."""
        for i, t in enumerate(sc.tournaments):
            pp = k.of(t)
            if pp is None:
                continue
            loc = ("tournaments", i, k.field)
            if pp.min is not None and pp.max is not None and pp.min > pp.max:
                yield TermProblem((*loc, "min"), k.min_rule,
                                  f"min ({pp.min}) exceeds max ({pp.max})")
            n = len(periods(sc, t, k.key))  # 0 when the window lies outside the horizon
            if pp.min and isinstance(t.count, int) and pp.min * n > t.count:
                yield TermProblem((*loc, "min"), k.min_rule,
                                  f"{pp.min} in each of the {n} {k.name}s of the window needs "
                                  f"{pp.min * n} occurrences but count is {t.count}")
    return validate


def over_capacity(sc: Scenario, rule: str, cap: str, need: str) -> Iterator[TermProblem]:
    """``rule``'s input check (TABLES; the dealers in :mod:`constraints.montana.conduct`): no
    tournament needs more of ``need`` a day than an operator of it has of ``cap``."""
    for i, t in enumerate(sc.tournaments):
        for j, oid in enumerate(t.operators):
            op = sc.operator(oid)  # known: the cross references are checked first
            have = getattr(op, cap)
            if have is not None and getattr(t, need) > have:
                yield TermProblem(("tournaments", i, need), rule,
                                  f"needs {getattr(t, need)} a day but {op.name} "
                                  f"(operators[{j}] {oid}) has {cap}: {have}")


def _validate_tables(sc: Scenario) -> Iterator[TermProblem]:
    """TABLES: no tournament needs more tables a day than an operator of it has."""
    return over_capacity(sc, "TABLES", "tables", "tables_needed")


# ------------------------------------------------------------------ PER-MONTH, PER-WEEK
def _by_period(ctx: ModelContext, t: Tournament, key: Callable[[dt.date], Period]
               ) -> dict[Period, list[cp_model.IntVar]]:
    out: dict[Period, list[cp_model.IntVar]] = defaultdict(list)
    for c, v in ctx.starts(t):
        out[key(c.first_day)].append(v)
    return out


def _encode_max(k: PeriodKind) -> Callable[[ModelContext], None]:
    def encode(ctx: ModelContext) -> None:
        """At most ``max`` first days of the tournament in each period (a hard rule)."""
        for t in ctx.scenario.tournaments:
            pp = k.of(t)
            if pp is None or pp.max is None:
                continue
            for p, lits in sorted(_by_period(ctx, t, k.key).items()):
                if len(lits) > pp.max:
                    ctx.model.add(sum(lits) <= pp.max).with_name(
                        f"{k.rule}: {t.id} starts at most {_times(pp.max)} in {k.label(p)}")
    return encode


def _check_max(k: PeriodKind) -> Callable[[Audit], Iterator[Violation]]:
    def check(a: Audit) -> Iterator[Violation]:
        for (tid, per), ps in sorted(_by_tournament_period(a, k).items()):
            v = _over_max(k, tid, per, ps)
            if v is not None:
                yield v
    return check


def _by_tournament_period(a: Audit, k: PeriodKind
                          ) -> dict[tuple[str, Period], list[Occurrence]]:
    """The occurrences of each tournament with a ``k`` request, by (tournament id, period of
    the first day), as placed."""
    by: dict[tuple[str, Period], list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        if k.of(p.tournament) is not None:
            by[(p.tid, k.key(p.first_day))].append(p)
    return by


def _over_max(k: PeriodKind, tid: str, per: Period, ps: list[Occurrence]) -> Violation | None:
    """PER-MONTH / PER-WEEK: the violation when ``ps`` (tournament ``tid``'s first days in
    period ``per``) are more than its ``max``."""
    t = ps[0].tournament
    pp = k.of(t)
    assert pp is not None
    if pp.max is None or len(ps) <= pp.max:
        return None
    return Violation(k.rule, t.operators[0], tuple(p.ref for p in ps), k.dates(per),
                     f"{tid} starts {_times(len(ps))} in {k.label(per)} "
                     f"({', '.join(f'{p.ref} {p.first_day}' for p in ps)}); "
                     f"{k.field}.max allows at most {pp.max}")


def _added_max(k: PeriodKind) -> Callable[[Audit, Occurrence], list[Violation]]:
    def added(a: Audit, p: Occurrence) -> list[Violation]:
        """PER-MONTH / PER-WEEK with ``p`` added (:attr:`Rule.added`): its period only."""
        if k.of(p.tournament) is None:
            return []
        key = (p.tid, k.key(p.first_day))
        by = a.memo(k.rule, lambda: _by_tournament_period(a, k))
        v = _over_max(k, *key, [*by.get(key, ()), p])
        return [] if v is None else [v]
    return added


def minimums(ctx: ModelContext) -> Iterator[tuple[cp_model.LinearExpr, int, str]]:
    """Every per-period minimum of every tournament (PER-MONTH-MIN, PER-WEEK-MIN): the sum of
    the tournament's ``z`` of first days in one month (ISO week) of its window, the minimum,
    and the request in words (for the explanation of a conflict)."""
    for t in ctx.scenario.tournaments:
        for k in (MONTH, WEEK):
            pp = k.of(t)
            if pp is None or not pp.min:
                continue
            by = _by_period(ctx, t, k.key)
            for p in periods(ctx.scenario, t, k.key):
                yield (cp_model.LinearExpr.sum(by.get(p, [])), pp.min,
                       f"{t.id} needs at least {pp.min} first day(s) in {k.label(p)} "
                       f"({k.field}.min, {k.min_rule})")


def _check_min(k: PeriodKind) -> Callable[[Audit], Iterator[Violation]]:
    def check(a: Audit) -> Iterator[Violation]:
        n: dict[tuple[str, Period], int] = defaultdict(int)
        for p in a.placed:
            n[(p.tid, k.key(p.first_day))] += 1
        for t in a.scenario.tournaments:
            pp = k.of(t)
            if pp is None or not pp.min or not a.covers(t):
                continue
            for per in periods(a.scenario, t, k.key):
                if n[(t.id, per)] < pp.min:
                    yield Violation(k.min_rule, t.operators[0], (t.id,), k.dates(per),
                                    f"{t.id} starts {_times(n[(t.id, per)])} in "
                                    f"{k.label(per)}; {k.field}.min asks at least {pp.min}")
    return check


# The minimums are requests, like REQUIRED: their shortfall is a term of the objective
# (scheduler/engine/objective.py, from :func:`minimums`), and their rules only check: a plan that
# cannot meet them is still a plan (its conflicts say why), and adding an occurrence never
# breaks them (so the reasons for an unplaced one do not name them).
PER_MONTH = Rule("PER-MONTH", encode=_encode_max(MONTH), check=_check_max(MONTH),
                 added=_added_max(MONTH))
PER_WEEK = Rule("PER-WEEK", encode=_encode_max(WEEK), check=_check_max(WEEK),
                added=_added_max(WEEK))
PER_MONTH_MIN = Rule("PER-MONTH-MIN", validate=_validate_min(MONTH), check=_check_min(MONTH))
PER_WEEK_MIN = Rule("PER-WEEK-MIN", validate=_validate_min(WEEK), check=_check_min(WEEK))
REQUESTED_MINIMUMS = ("PER-MONTH-MIN", "PER-WEEK-MIN")
"""Rules of required occurrences that the solver's own audit of its plan skips (as it skips
REQUIRED): a plan short of them reports the shortfall as a conflict."""


# ------------------------------------------------------------------ SPREAD
def _encode_spread(ctx: ModelContext) -> None:
    """``spread: even``: the first days per calendar month of the window lie between ``lo``
    and ``lo + 1`` (a hard rule)."""
    m = ctx.model
    for t in ctx.scenario.tournaments:
        if t.spread != "even":
            continue
        months = periods(ctx.scenario, t, month_of)
        if len(months) < 2:
            continue
        by = _by_period(ctx, t, month_of)
        top = max(len(v) for v in by.values()) if by else 0
        lo = m.new_int_var(0, top, f"spread_lo[{t.id}]")
        span = f"{month_label(months[0])}..{month_label(months[-1])}"
        for p in months:
            starts = cp_model.LinearExpr.sum(by.get(p, []))
            m.add(starts >= lo).with_name(
                f"SPREAD: {t.id} starts in {month_label(p)} as often as in any month of "
                f"{span}, less one at most")
            m.add(starts <= lo + 1).with_name(
                f"SPREAD: {t.id} starts in {month_label(p)} as often as in any month of "
                f"{span}, one more at most")


def _check_spread(a: Audit) -> Iterator[Violation]:
    n: dict[tuple[str, Period], list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        n[(p.tid, month_of(p.first_day))].append(p)
    for t in a.scenario.tournaments:
        if t.spread != "even" or not a.covers(t):
            continue
        months = periods(a.scenario, t, month_of)
        v = _uneven(a.scenario, t, {m: n.get((t.id, m), []) for m in months})
        if v is not None:
            yield v


def _uneven(sc: Scenario, t: Tournament, n: dict[Period, list[Occurrence]]
            ) -> Violation | None:
    """SPREAD: the violation when the numbers of ``t``'s first days in the months of its
    window (``n``: each month's occurrences, as placed, in calendar order) differ by more
    than 1."""
    if not n:
        return None
    counts = {p: len(ps) for p, ps in n.items()}
    most = max(counts, key=lambda p: (counts[p], p))
    least = min(counts, key=lambda p: (counts[p], p))
    if counts[most] - counts[least] <= 1:
        return None
    return Violation("SPREAD", t.operators[0], tuple(p.ref for p in n[most]),
                     day_span(*first_days(sc, t)),
                     f"{t.id} starts {_times(counts[most])} in {month_label(most)} but "
                     f"{_times(counts[least]) if counts[least] else 'never'} in "
                     f"{month_label(least)}; spread: even allows a difference of at "
                     "most 1 between the months of its window")


def _added_spread(a: Audit, p: Occurrence) -> list[Violation]:
    """SPREAD with ``p`` added (:attr:`Rule.added`): its tournament only, the months of its
    window counted once."""
    def build() -> dict[str, tuple[Tournament, dict[Period, list[Occurrence]]]]:
        n: dict[tuple[str, Period], list[Occurrence]] = defaultdict(list)
        for q in a.placed:
            n[(q.tid, month_of(q.first_day))].append(q)
        return {t.id: (t, {m: n.get((t.id, m), []) for m in periods(a.scenario, t, month_of)})
                for t in a.scenario.tournaments if t.spread == "even" and a.covers(t)}

    hit = a.memo("SPREAD", build).get(p.tid)
    if hit is None:
        return []
    t, n = hit
    m = month_of(p.first_day)
    v = _uneven(a.scenario, t, {**n, m: [*n[m], p]} if m in n else n)
    return [] if v is None else [v]


SPREAD = Rule("SPREAD", encode=_encode_spread, check=_check_spread, added=_added_spread)


# ------------------------------------------------------------------ TABLES, capacities
def capacity(rule: str, cap: str, need: str) -> tuple[Callable[[ModelContext], None],
                                                      Callable[[Audit], Iterator[Violation]]]:
    """A per-day capacity of each operator as a rule's model encoding and check: on every
    calendar day, the ``need`` of the operator's tournaments conducted that day (every day
    an occurrence touches) sums to at most its ``cap`` (None: no constraint).

    Parameters
    ----------
    rule : str
        The rule ID the constraints and violations carry (``TABLES``; Montana's dealers rule
        passes its own, :mod:`constraints.montana.conduct`).
    cap : str
        The :class:`scheduler.core.scenario.Operator` field of the capacity (e.g. ``tables``).
    need : str
        The :class:`scheduler.core.scenario.Tournament` field of a day's need (e.g.
        ``tables_needed``).

    Returns
    -------
    tuple
        ``(encode, check)``, the rule's ``encode`` and ``check``.
    """
    def have(op: Operator) -> int | None:
        v: int | None = getattr(op, cap)
        return v

    def encode(ctx: ModelContext) -> None:
        """On each calendar day, the needs of the operator's tournaments conducted that day
        (presence literals times need) sum to at most its capacity."""
        for op in ctx.scenario.operators:
            c = have(op)
            if c is None:
                continue
            per_day: dict[dt.date, list[tuple[cp_model.IntVar, int]]] = defaultdict(list)
            for cand, v in ctx.of_operator(op.id):
                k: int = getattr(cand.tournament, need)
                if k:
                    for d in cand.timing.days:
                        per_day[d].append((v, k))
            for d in sorted(per_day):
                terms = per_day[d]
                if sum(k for _, k in terms) > c:
                    ctx.model.add(cp_model.LinearExpr.weighted_sum(
                        [v for v, _ in terms], [k for _, k in terms]) <= c).with_name(
                        f"{rule}: {op.id}'s tournaments need at most its {c} {cap} on {d}")

    def check(a: Audit) -> Iterator[Violation]:
        for op in a.scenario.operators:
            c = have(op)
            if c is None:
                continue
            per_day = _needing(a, op, need)
            for d in sorted(per_day):
                v = _over(rule, cap, need, op, c, d, per_day[d])
                if v is not None:
                    yield v

    return encode, check


def capacity_added(rule: str, cap: str, need: str) -> Callable[[Audit, Occurrence],
                                                               list[Violation]]:
    """The :attr:`Rule.added` of :func:`capacity`'s ``check`` (same arguments): with one
    occurrence more, only its operators' days it touches can go over."""
    def added(a: Audit, p: Occurrence) -> list[Violation]:
        if not getattr(p.tournament, need):
            return []
        out: list[Violation] = []
        for op in a.operators_of(p):
            c: int | None = getattr(op, cap)
            if c is None:
                continue
            per_day = a.memo(f"{rule} {op.id}", functools.partial(_needing, a, op, need))
            out.extend(v for d in p.timing.days
                       if (v := _over(rule, cap, need, op, c, d, [*per_day.get(d, ()), p]))
                       is not None)
        return out
    return added


def _needing(a: Audit, op: Operator, need: str) -> dict[dt.date, list[Occurrence]]:
    """The operator's occurrences that need some of ``need``, on each day they touch, as
    placed."""
    per_day: dict[dt.date, list[Occurrence]] = defaultdict(list)
    for p in a.of_operator(op):
        if getattr(p.tournament, need):
            for d in p.timing.days:
                per_day[d].append(p)
    return per_day


def _over(rule: str, cap: str, need: str, op: Operator, c: int, d: dt.date,
          ps: list[Occurrence]) -> Violation | None:
    """The violation of ``rule`` when ``ps`` (the operator's occurrences on day ``d``) need
    more than its ``c`` of ``cap``."""
    total = sum(getattr(p.tournament, need) for p in ps)
    if total <= c:
        return None
    parts = " + ".join(f"{p.ref} {getattr(p.tournament, need)}" for p in ps)
    return Violation(rule, op.id, tuple(p.ref for p in ps), d.isoformat(),
                     f"{op.name}'s tournaments on {d} need {total} {cap} ({parts}); it has {c}")


_tables = capacity("TABLES", "tables", "tables_needed")
TABLES = Rule("TABLES", validate=_validate_tables, encode=_tables[0], check=_tables[1],
              added=capacity_added("TABLES", "tables", "tables_needed"))

RULES = [PER_MONTH, PER_MONTH_MIN, PER_WEEK, PER_WEEK_MIN, SPREAD, TABLES]
