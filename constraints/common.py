"""The scenario's own requests, for either state: horizon, windows, weekdays, blackouts, counts,
fixed dates, minimum gaps and how many tournaments an operator runs at once (play sessions
overlapping in time, or per calendar day).

They are not statute rules but are enforced and checked the same way, under their own IDs
(``HORIZON``, ``WINDOW``, ``WEEKDAYS``, ``BLACKOUT``, ``COUNT``, ``FIXED-DATES``, ``MIN-GAP``,
``MAX-CONCURRENT``), plus the format rules of a scenario (``SCENARIO``) and fixed dates whose
start time the clocks skip (``CLOCK-CHANGE``). What a plan is worth (each placed occurrence's
``priority``, the shortfall below ``required`` and the fixed dates, ``prefer_weekdays``) is not
a constraint: it is the objective, in ``scheduler/objective.py``.
"""

from __future__ import annotations

import datetime as dt
import heapq
import itertools
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import TypeVar

from constraints.base import Audit, Occurrence, Rule, Violation
from constraints.modelling import ModelContext, sum_by
from scheduler.problems import TermProblem
from scheduler.scenario import ME_TYPES, MT_TYPES, WEEKDAYS, Operator, Scenario, Tournament
from scheduler.timing import Timing, local, sessions, years_end


def _weekday(day: dt.date) -> str:
    return WEEKDAYS[day.weekday()]


# ------------------------------------------------------------------ SCENARIO (cross references)
def validate_references(sc: Scenario) -> Iterator[TermProblem]:
    """Unique ids, known operators, types that match the operators' state, dates in range."""
    seen: set[str] = set()
    for i, o in enumerate(sc.operators):
        if o.id in seen:
            yield TermProblem(("operators", i, "id"), "SCENARIO", "operator id is used twice")
        seen.add(o.id)
        wrong = (("live_tables", "permit_year_start", "held_in_current_permit_year",
                  "late_hours_ordinance") if o.jurisdiction == "ME" else
                 ("owns_premises", "local_approval", "beneficiaries", "other_games",
                  "organization_type", "organized_on", "licensed_establishment"))
        for f in wrong:
            if f in o.model_fields_set:
                yield TermProblem(("operators", i, f), "SCENARIO",
                                  f"field applies only to "
                                  f"{'MT' if o.jurisdiction == 'ME' else 'ME'} operators")
    ops = {o.id: o for o in sc.operators}
    if sc.horizon.end < sc.horizon.start:
        yield TermProblem(("horizon", "end"), "SCENARIO", "horizon ends before it starts")
    elif sc.horizon.end > years_end(sc.horizon.start, 2):
        yield TermProblem(("horizon", "end"), "SCENARIO",
                          f"a horizon is at most 2 years (end on or before "
                          f"{years_end(sc.horizon.start, 2)})")
    tids: set[str] = set()
    for i, t in enumerate(sc.tournaments):
        loc = ("tournaments", i)
        if t.id in tids:
            yield TermProblem((*loc, "id"), "SCENARIO", "tournament id is used twice")
        tids.add(t.id)
        for j, oid in enumerate(t.operators):
            if oid not in ops:
                yield TermProblem((*loc, "operators", j), "SCENARIO",
                                  f"unknown operator id; known: {', '.join(sorted(ops))}")
        if len(set(t.operators)) != len(t.operators):
            yield TermProblem((*loc, "operators"), "SCENARIO", "an operator is listed twice")
        states = {ops[o].jurisdiction for o in t.operators if o in ops}
        allowed = MT_TYPES if states == {"MT"} else ME_TYPES if states == {"ME"} else ()
        if states and t.type not in allowed:
            yield TermProblem((*loc, "type"), "SCENARIO",
                              f"type must be one of {', '.join(allowed) or 'MT or ME types'} "
                              f"for {'/'.join(sorted(states))} operators")
        if t.count == "all" and not t.is_small:
            yield TermProblem((*loc, "count"), "SCENARIO",
                              "count \"all\" is only for small-stakes tournaments")
        horizon_days = (sc.horizon.end - sc.horizon.start).days + 1
        if isinstance(t.count, int) and 0 < horizon_days < t.count:
            yield TermProblem((*loc, "count"), "SCENARIO",
                              f"count exceeds the {horizon_days} days of the horizon (at most one "
                              "occurrence starts a day)")
        if isinstance(t.count, int):
            if len(t.fixed_dates) > t.count:
                yield TermProblem((*loc, "fixed_dates"), "SCENARIO",
                                  f"{len(t.fixed_dates)} fixed dates but count is {t.count}")
            if t.required > t.count:
                yield TermProblem((*loc, "required"), "SCENARIO",
                                  f"required ({t.required}) exceeds count ({t.count})")
        if t.window is not None:
            if t.window.end < t.window.start:
                yield TermProblem((*loc, "window", "end"), "SCENARIO",
                                  "window ends before it starts")
            elif t.window.end < sc.horizon.start or t.window.start > sc.horizon.end:
                yield TermProblem((*loc, "window"), "SCENARIO", "window lies outside the horizon")
        for j, d in enumerate(t.fixed_dates):
            if d not in sc.horizon:
                yield TermProblem((*loc, "fixed_dates", j), "SCENARIO",
                                  f"fixed date outside the horizon {sc.horizon.start}.."
                                  f"{sc.horizon.end}")
        if len(set(t.fixed_dates)) != len(t.fixed_dates):
            yield TermProblem((*loc, "fixed_dates"), "SCENARIO", "a fixed date is listed twice")
    tour_ids: set[str] = set()
    for j, tour in enumerate(sc.tours):
        if tour.id in tour_ids:
            yield TermProblem(("tours", j, "id"), "SCENARIO", "tour id is used twice")
        tour_ids.add(tour.id)


SCENARIO = Rule("SCENARIO", validate=validate_references)


# ------------------------------------------------------------------ CLOCK-CHANGE (fixed dates)
def validate_clock_change(sc: Scenario) -> Iterator[TermProblem]:
    """CLOCK-CHANGE: a fixed date whose start time does not exist in the first operator's time
    zone (the clocks spring forward past it, e.g. 02:30 on 2027-03-14 in America/Denver). A
    cross reference, checked with ``SCENARIO`` before the other input rules
    (:func:`constraints.registry.validate_terms`); the model leaves such days out of every
    other tournament's domain (``scheduler.model``)."""
    ops = {o.id: o for o in sc.operators}
    for i, t in enumerate(sc.tournaments):
        if not all(o in ops for o in t.operators):
            continue  # an unknown operator: SCENARIO names it
        tz = ops[t.operators[0]].tz
        for j, d in enumerate(t.fixed_dates):
            if t.sessions:  # each session's start on its own day (flights)
                for x in t.sessions:
                    day = d + dt.timedelta(days=x.day - 1)
                    if local(day, x.start, tz) is None:
                        yield TermProblem(("tournaments", i, "fixed_dates", j), "CLOCK-CHANGE",
                                          f"{x.label}'s start {x.start:%H:%M} does not exist "
                                          f"on {day} in {tz.key} (the clocks spring forward); "
                                          "choose another start time or day")
                continue
            if local(d, t.start_time, tz) is None:
                yield TermProblem(("tournaments", i, "fixed_dates", j), "CLOCK-CHANGE",
                                  f"{t.start_time:%H:%M} does not exist on {d} in "
                                  f"{tz.key} (the clocks spring forward); "
                                  "choose another start time or day")


CLOCK_CHANGE = Rule("CLOCK-CHANGE", validate=validate_clock_change)
REFERENCES = (SCENARIO, CLOCK_CHANGE)
"""The rules whose input checks are cross references: the other input rules run only when
these find nothing (:func:`constraints.registry.validate_terms`)."""


# ------------------------------------------------------------------ HORIZON
def _in_horizon(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return sc.horizon.start <= tm.first_day and tm.last_day <= sc.horizon.end


def _check_horizon(a: Audit) -> Iterator[Violation]:
    h = a.scenario.horizon
    for p in a.placed:
        if min(p.timing.days) < h.start or max(p.timing.days) > h.end:
            yield _v("HORIZON", p, f"{p.ref} runs {p.first_day}..{p.timing.last_day}, outside "
                     f"the horizon {a.scenario.horizon.start}..{a.scenario.horizon.end}")


HORIZON = Rule("HORIZON", allows=_in_horizon, check=_check_horizon)


# ------------------------------------------------------------------ WINDOW
def _in_window(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return t.window is None or tm.first_day in t.window


def _check_window(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        w = p.tournament.window
        if w is not None and p.first_day not in w:
            yield _v("WINDOW", p, f"{p.ref} starts on {p.first_day}, outside its window "
                     f"{w.start}..{w.end}")


def _day_in_window(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    return t.window is None or day in t.window


def _days_in_window(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`_day_in_window` of each of ``days`` (WINDOW), in one pass."""
    w = t.window
    if w is None:
        return [True] * len(days)
    start, end = w.start, w.end
    return [start <= d <= end for d in days]


WINDOW = Rule("WINDOW", allows=_in_window, check=_check_window, allows_day=_day_in_window,
              allows_days=_days_in_window)


# ------------------------------------------------------------------ WEEKDAYS
def _on_weekday(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return t.weekdays is None or _weekday(tm.first_day) in t.weekdays


def _check_weekdays(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        wd = p.tournament.weekdays
        if wd is not None and _weekday(p.first_day) not in wd:
            yield _v("WEEKDAYS", p, f"{p.ref} starts on a {_weekday(p.first_day)} "
                     f"({p.first_day}); allowed: {', '.join(wd)}")


def _day_on_weekday(sc: Scenario, t: Tournament, day: dt.date) -> bool:
    return t.weekdays is None or _weekday(day) in t.weekdays


def _days_on_weekday(sc: Scenario, t: Tournament, days: Sequence[dt.date]) -> list[bool]:
    """:func:`_day_on_weekday` of each of ``days`` (WEEKDAYS), in one pass: each weekday
    (0 = Monday) judged once."""
    if t.weekdays is None:
        return [True] * len(days)
    ok = [WEEKDAYS[k] in t.weekdays for k in range(7)]
    return [ok[d.weekday()] for d in days]


WEEKDAY_RULE = Rule("WEEKDAYS", allows=_on_weekday, check=_check_weekdays,
                    allows_day=_day_on_weekday, allows_days=_days_on_weekday)


# ------------------------------------------------------------------ BLACKOUT
def _blacked_out(sc: Scenario, t: Tournament, tm: Timing) -> list[tuple[str, dt.date]]:
    out: list[tuple[str, dt.date]] = []
    for oid in t.operators:
        bl = set(sc.operator(oid).blackout)
        out.extend((oid, d) for d in tm.days if d in bl)
    return out


def _no_blackout(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return not _blacked_out(sc, t, tm)


def _check_blackout(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        for oid in p.tournament.operators:
            for d in sorted(set(p.timing.days) & set(a.scenario.operator(oid).blackout)):
                yield Violation("BLACKOUT", oid, (p.ref,), d.isoformat(),
                            f"{p.ref} is conducted on {d}, a blackout day of "
                            f"{a.scenario.operator(oid).name}")


BLACKOUT = Rule("BLACKOUT", allows=_no_blackout, check=_check_blackout)


# ------------------------------------------------------------------ COUNT
def _encode_count(ctx: ModelContext) -> None:
    """At most ``count`` occurrences, the fixed dates among them. What each placed one earns
    (``priority``) and the shortfall below ``must_place`` are objective terms
    (:func:`scheduler.objective.add_terms`), not constraints."""
    m = ctx.model
    for t in ctx.scenario.tournaments:
        lits = [v for _, v in ctx.starts(t)]
        if isinstance(t.count, int) and len(lits) > t.count:
            m.add(sum(lits) <= t.count).with_name(
                f"COUNT: at most {t.count} occurrences of {t.id}")
        if isinstance(t.count, int) and t.fixed_dates:
            # fixed dates are among the `count` occurrences: the others may not take their place
            free = [v for c, v in ctx.starts(t) if c.first_day not in t.fixed_dates]
            if len(free) > t.count - len(t.fixed_dates):
                m.add(sum(free) <= t.count - len(t.fixed_dates)).with_name(
                    f"COUNT: {t.id}'s {len(t.fixed_dates)} fixed dates are among its "
                    f"{t.count} occurrences")


def _check_count(a: Audit) -> Iterator[Violation]:
    n: dict[str, list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        n[p.tid].append(p)
    for tid, ps in n.items():
        t = ps[0].tournament
        if isinstance(t.count, int) and len(ps) > t.count:
            yield Violation("COUNT", t.operators[0], tuple(p.ref for p in ps), "",
                            f"{tid} is placed {len(ps)} times; {t.count} wanted")


COUNT = Rule("COUNT", encode=_encode_count, check=_check_count)


def _check_required(a: Audit) -> Iterator[Violation]:
    n: dict[str, int] = defaultdict(int)
    for p in a.placed:
        n[p.tid] += 1
    for t in a.scenario.tournaments:
        if a.covers(t) and t.required > n[t.id]:
            yield Violation("REQUIRED", t.operators[0], (t.id,), "",
                            f"{t.id} must be placed {t.required} times (required) but is "
                            f"placed {n[t.id]} times")


REQUIRED = Rule("REQUIRED", check=_check_required)


# ------------------------------------------------------------------ FIXED-DATES
# A fixed date is a required occurrence on exactly that first day: in the model, a term of
# the objective's required shortfall (scheduler.objective.add_terms), so a date that cannot
# be honoured is reported as unplaced, not as an infeasible model.
def _check_fixed(a: Audit) -> Iterator[Violation]:
    starts = {(p.tid, p.first_day) for p in a.placed}
    for t in a.scenario.tournaments:
        if not a.covers(t):
            continue
        for d in t.fixed_dates:
            if (t.id, d) not in starts:
                yield Violation("FIXED-DATES", t.operators[0], (t.id,), d.isoformat(),
                                f"{t.id} is pinned to start on {d} but does not")


FIXED_DATES = Rule("FIXED-DATES", check=_check_fixed)


# ------------------------------------------------------------------ MIN-GAP
def _encode_min_gap(ctx: ModelContext) -> None:
    """At most one first day in every run of ``min_gap_days`` consecutive days."""
    for t in ctx.scenario.tournaments:
        g = t.min_gap_days
        if g <= 1:
            continue
        starts = ctx.starts(t)
        by_day = {c.first_day: v for c, v in starts}
        for c, _ in starts:
            window = [by_day[d] for k in range(g)
                      if (d := c.first_day + dt.timedelta(days=k)) in by_day]
            if len(window) > 1:
                ctx.model.add(sum(window) <= 1).with_name(
                    f"MIN-GAP: {t.id} starts at most once in {g} days from {c.first_day}")


def _check_min_gap(a: Audit) -> Iterator[Violation]:
    by_t: dict[str, list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        by_t[p.tid].append(p)
    for ps in by_t.values():
        ps.sort(key=lambda p: p.first_day)
        g = ps[0].tournament.min_gap_days
        for x, y in zip(ps, ps[1:], strict=False):
            gap = (y.first_day - x.first_day).days
            if gap < g:
                yield _v("MIN-GAP", y, f"{x.ref} ({x.first_day}) and {y.ref} ({y.first_day}) "
                         f"start {gap} days apart; at least {g} wanted")


MIN_GAP = Rule("MIN-GAP", encode=_encode_min_gap, check=_check_min_gap)


# ------------------------------------------------------------------ MAX-CONCURRENT
def _counts_concurrency(t: Tournament) -> bool:
    return not t.is_small


_K = TypeVar("_K")


def _in_play(items: Sequence[tuple[dt.datetime, dt.datetime, _K]]
             ) -> Iterator[tuple[dt.datetime, list[tuple[dt.datetime, dt.datetime, _K]]]]:
    """For each distinct session start (in time order), the sessions in play then (start ≤
    that instant < end). The most sessions in play at once is reached at some session's
    start, so these instants are the only ones to count."""
    todo = sorted(items, key=lambda x: (x[0], x[1]))
    active: list[tuple[dt.datetime, dt.datetime, _K]] = []
    i = 0
    for at in sorted({x[0] for x in todo}):
        while i < len(todo) and todo[i][0] <= at:
            active.append(todo[i])
            i += 1
        active = [x for x in active if x[1] > at]
        yield at, list(active)


def _clock(x: dt.datetime, tz: object, day: dt.date | None = None) -> str:
    local_ = x.astimezone(tz)  # type: ignore[arg-type]
    return f"{local_:%H:%M}" if local_.date() == day else f"{local_:%Y-%m-%d %H:%M}"


def _encode_max_concurrent(ctx: ModelContext) -> None:
    """At most ``max_concurrent`` of the operator's tournaments (small-stakes excluded) are
    conducted at once: with ``concurrency: time`` (the default), at every session start the
    tournaments whose sessions are in play; with ``day``, on each calendar day they touch."""
    for op in ctx.scenario.operators:
        items = [(c, v) for c, v in ctx.of_operator(op.id) if _counts_concurrency(c.tournament)]
        if op.concurrency == "day":
            for day, lits in sum_by(items, lambda c: list(c.timing.days)).items():
                if len(lits) > op.max_concurrent:
                    ctx.model.add(sum(lits) <= op.max_concurrent).with_name(
                        f"MAX-CONCURRENT: {op.id} runs at most {op.max_concurrent} at once on "
                        f"{day}")
            continue
        done: set[frozenset[int]] = set()
        for at, act in _in_play([(a, b, v) for c, v in items
                                 for a, b in sessions(ctx.scenario, c.tournament, c.timing)]):
            lits = list({v.index: v for _, _, v in act}.values())
            key = frozenset(v.index for v in lits)
            if len(lits) > op.max_concurrent and key not in done:
                done.add(key)
                ctx.model.add(sum(lits) <= op.max_concurrent).with_name(
                    f"MAX-CONCURRENT: {op.id} runs at most {op.max_concurrent} at once at "
                    f"{_clock(at, op.tz)}")


_Sessions = list[tuple[dt.datetime, dt.datetime]]
_SESSIONS: dict[tuple[int, int, int], tuple[Scenario, Tournament, Timing, _Sessions]] = {}
_SESSIONS_MAX = 20_000


def _sessions_of(sc: Scenario, p: Occurrence) -> _Sessions:
    """:func:`scheduler.timing.sessions` of ``p``, each (scenario, tournament, timing)
    computed once: the reasons of occurrences not placed check the same placed ones against
    each candidate day (``scheduler.reasons``). Keyed by the objects' identity (the entry
    holds them, so an id is not reused while it is kept); at most ``_SESSIONS_MAX`` kept.
    The list returned is shared: not to be changed."""
    t, tm = p.tournament, p.timing
    key = (id(sc), id(t), id(tm))
    hit = _SESSIONS.get(key)
    if hit is not None and hit[0] is sc and hit[1] is t and hit[2] is tm:
        return hit[3]
    if len(_SESSIONS) >= _SESSIONS_MAX:
        _SESSIONS.clear()
    out = sessions(sc, t, tm)
    _SESSIONS[key] = (sc, t, tm, out)
    return out


def forget_sessions() -> None:
    """Let go of what :func:`_sessions_of` keeps (each entry holds its scenario, tournament
    and timing): called when a part of a scenario is solved, since the next part checks
    other objects (issue #16: a statewide solve held every part's scenario through it)."""
    _SESSIONS.clear()


_SHOWN = 5  # sessions named in a MAX-CONCURRENT sentence; the rest are counted


def _check_max_concurrent(a: Audit) -> Iterator[Violation]:
    for op in a.scenario.operators:
        if op.concurrency == "day":
            yield from _check_per_day(a, op)
        else:
            yield from _check_in_time(a, op)


def _check_in_time(a: Audit, op: Operator) -> Iterator[Violation]:
    """MAX-CONCURRENT, ``concurrency: time``: at each session start (in time order), the
    tournaments in play then (start ≤ that instant < end). One violation per run of time
    over the limit (it ends when sessions ending leave at most ``max_concurrent`` in play),
    at the run's first session start whose set of tournaments was not already reported.
    Counted as sessions come and go, so a calendar repeating every second (5,000 sessions
    in play at once) costs one pass."""
    todo = sorted([(s, e, ref, p) for p in a.of_operator(op)
                   if _counts_concurrency(p.tournament)
                   for ref in (p.ref,) for s, e in _sessions_of(a.scenario, p)],
                  key=itemgetter(0, 1))
    active: dict[int, tuple[dt.datetime, dt.datetime, str, Occurrence]] = {}
    ends: list[tuple[dt.datetime, int]] = []  # a heap of (end, index in todo)
    per_ref: Counter[str] = Counter()  # sessions in play of each ref

    def end_at(t: dt.datetime) -> None:
        """Take out the sessions that end at ``t``."""
        while ends and ends[0][0] == t:
            gone = active.pop(heapq.heappop(ends)[1])
            per_ref[gone[2]] -= 1
            if not per_ref[gone[2]]:
                del per_ref[gone[2]]

    done: set[frozenset[str]] = set()
    reported_run = False  # this run of time over the limit has a violation already
    i = 0
    while i < len(todo):
        at = todo[i][0]
        while ends and ends[0][0] < at:  # a moment between starts: the run may end
            end_at(ends[0][0])
            if len(per_ref) <= op.max_concurrent:
                reported_run = False
        while i < len(todo) and todo[i][0] == at:
            active[i] = todo[i]
            heapq.heappush(ends, (todo[i][1], i))
            per_ref[todo[i][2]] += 1
            i += 1
        end_at(at)  # end-exclusive: one ending as another starts is not in play
        if len(per_ref) <= op.max_concurrent:
            reported_run = False
            continue
        if reported_run:
            continue
        first: dict[str, tuple[dt.datetime, dt.datetime, Occurrence]] = {}
        for s_, e_, ref, p in active.values():  # in (start, end) order
            first.setdefault(ref, (s_, e_, p))
        if frozenset(first) in done:
            continue
        done.add(frozenset(first))
        reported_run = True
        yield _concurrent(op, at, first)


def _concurrent(op: Operator, at: dt.datetime,
                first: dict[str, tuple[dt.datetime, dt.datetime, Occurrence]]) -> Violation:
    """The MAX-CONCURRENT violation at ``at``: every ref in ``refs``, the first
    :data:`_SHOWN` sessions in the sentence (a calendar repeating every minute puts
    hundreds in play at once), the others counted ("and 595 more")."""
    day = at.astimezone(op.tz).date()
    shown = [f"{ref} {_clock(s, op.tz, day)}-{_clock(e, op.tz, day)}"
             for ref, (s, e, _) in itertools.islice(first.items(), _SHOWN)]
    if len(first) > _SHOWN:
        shown.append(f"and {len(first) - _SHOWN:,} more")
    return Violation("MAX-CONCURRENT", op.id, tuple(first), day.isoformat(),
                     f"{op.name} would have {len(first)} tournaments in play at once "
                     f"at {_clock(at, op.tz)} ({', '.join(shown)}); at most "
                     f"{op.max_concurrent} at once")


def _check_per_day(a: Audit, op: Operator) -> Iterator[Violation]:
    per_day: dict[dt.date, list[Occurrence]] = defaultdict(list)
    for p in a.of_operator(op):
        if _counts_concurrency(p.tournament):
            for d in p.timing.days:
                per_day[d].append(p)
    for d in sorted(per_day):
        ps = per_day[d]
        if len(ps) > op.max_concurrent:
            yield Violation("MAX-CONCURRENT", op.id, tuple(p.ref for p in ps), d.isoformat(),
                            f"{op.name} would conduct {len(ps)} tournaments on {d} "
                            f"({', '.join(p.ref for p in ps)}); at most "
                            f"{op.max_concurrent} at once (concurrency: day)")


MAX_CONCURRENT = Rule("MAX-CONCURRENT", encode=_encode_max_concurrent,
                      check=_check_max_concurrent)


def _v(rule: str, p: Occurrence, message: str) -> Violation:
    return Violation(rule, p.tournament.operators[0], (p.ref,), p.first_day.isoformat(), message)


RULES = [SCENARIO, CLOCK_CHANGE, HORIZON, WINDOW, WEEKDAY_RULE, BLACKOUT, COUNT, REQUIRED,
         FIXED_DATES, MIN_GAP, MAX_CONCURRENT]
