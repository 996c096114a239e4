"""Build the CP-SAT model of a scenario: variables once, then each rule adds itself.

The model is day-indexed: ``z[t, d]`` is a Boolean "an occurrence of tournament ``t`` has its
first day on ``d``", created only for days every *allows* rule accepts (horizon, window,
weekdays, blackouts of every co-host, MT notice, ME application window, duration, other
games), and only where the start time exists (CLOCK-CHANGE). Play hours (MT-PLAY-HOURS) are
an input rule and a check, not a filter of days.
Identical occurrences of one tournament are merged this way (they are numbered by date after
solving), which removes their symmetry. Counted limits are sums of ``z`` over the days of a
period; fees are Booleans of licences/permits with their USD fee.
"""

from __future__ import annotations

import datetime as dt
from itertools import compress
from zoneinfo import ZoneInfo

from constraints.catalogue import COST_RULES
from constraints.modelling import ModelContext, Placement
from constraints.registry import RULES
from scheduler.core.memo import gc_paused
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import (
    UTC,
    Timing,
    day_span,
    days_touched,
    timings,
    tournament_tz,
)

__all__ = ["build_domain", "build_model"]


def _gap_timing(t: Tournament, tz: object, day: dt.date) -> Timing:
    """Explain mode only: a timing for a start that does not exist (taken as the instant the
    clocks jump), so the day can be modelled and excluded by CLOCK-CHANGE."""
    start = dt.datetime.combine(day, t.start_time).replace(tzinfo=tz)  # type: ignore[arg-type]
    start = start.astimezone(UTC).astimezone(tz)  # type: ignore[arg-type]
    end = start + dt.timedelta(days=t.days - 1, hours=float(t.hours))
    return Timing(start, end, days_touched(start, end))


_Allow = tuple[str, object]


class _Rejections(dict[str, dict[dt.date, tuple[str, ...]]]):
    """``rejected[tid][day]``: the IDs of every rule that rejects ``day`` as a first day of
    ``tid``; computed for a tournament when first asked (reasons need it only for the
    tournaments not fully placed)."""

    def __init__(self, ctx: ModelContext, allows: list[_Allow],
                 allows_day: list[_Allow] | None = None) -> None:
        super().__init__()
        # what it reads of ``ctx``, not ``ctx`` itself (``ctx.rejected`` is this): no
        # reference cycle, so the model is freed as its part is done, not by the cyclic
        # garbage collector (a tenth of the model's CPU at N = 200, issue #27)
        self._scenario, self._explain = ctx.scenario, ctx.explain
        self._candidates = ctx.candidates
        self._allows = allows
        self._allows_day = allows_day or []

    def __missing__(self, tid: str) -> dict[dt.date, tuple[str, ...]]:
        sc = self._scenario
        t = sc.tournament(tid)
        tz = tournament_tz(sc, t)
        rej: dict[dt.date, tuple[str, ...]] = {}
        days = list(day_span(sc.horizon.start, sc.horizon.end))
        explain = self._explain
        # each day's first-day-only rejections, judged over the whole horizon at once
        # (a rule's ``allows_days`` when it has one); in explain mode none
        by_days = [()] * len(days) if explain else _by_days(sc, t, days, self._allows_day)
        # outside explain mode a candidate (build_domain) passed every rule: not rejected
        cands = set() if explain else {c.first_day for c in self._candidates.get(tid, [])}
        # the days every rule judges: outside explain mode not a day rejected by a first-day
        # rule (for reasons, a day outside the window, or weekdays, is put down to that
        # alone; explain mode needs every rule that excludes a day: its guards) nor a
        # candidate
        judged = [day for day, by_day in zip(days, by_days, strict=True)
                  if explain or not (by_day or day in cands)]
        bad = dict(zip(judged, _every_rule(sc, t, tz, judged, self._allows), strict=True))
        for day, by_day in zip(days, by_days, strict=True):  # in the order of the days
            rids = by_day or bad.get(day, ())
            if rids:
                rej[day] = rids
        self[tid] = rej
        return rej


def _every_rule(sc: Scenario, t: Tournament, tz: ZoneInfo, days: list[dt.date],
                allows: list[_Allow]) -> list[tuple[str, ...]]:
    """For each of ``days``: the IDs of every ``allows`` rule that rejects it as a first day
    of ``t``, in the order given (``("CLOCK-CHANGE",)`` for a start in the daylight-saving
    gap); each rule over all of them at once (its ``allows_many`` when it has one: the same
    answers)."""
    found = timings(t, tz, days)
    tms = [tm for tm in found if tm is not None]
    flags: list[tuple[str, list[bool]]] = []
    for rid, fn in allows:
        vec = _MANY.get(fn)  # type: ignore[call-overload]
        flags.append((rid, vec(sc, t, tms) if vec is not None
                      else [fn(sc, t, tm) for tm in tms]))  # type: ignore[operator]
    out: list[tuple[str, ...]] = []
    k = 0
    for tm in found:
        if tm is None:
            out.append(("CLOCK-CHANGE",))
            continue
        out.append(tuple(rid for rid, ok in flags if not ok[k]))
        k += 1
    return out


_VECTORIZED = {r.allows_day: r.allows_days for r in RULES
               if r.allows_day is not None and r.allows_days is not None}
_MANY = {r.allows: r.allows_many for r in RULES
         if r.allows is not None and r.allows_many is not None}


def _by_days(sc: Scenario, t: Tournament, days: list[dt.date],
             allows_day: list[_Allow]) -> list[tuple[str, ...]]:
    """For each of ``days``: the IDs of the ``allows_day`` rules that reject it as a first
    day of ``t``, in the order given (each rule's ``allows_days`` when it has one: the same
    answers, in one pass)."""
    oks: list[tuple[str, list[bool]]] = []
    for rid, fn in allows_day:
        many = _VECTORIZED.get(fn)  # type: ignore[call-overload]
        oks.append((rid, many(sc, t, days) if many is not None
                    else [fn(sc, t, d) for d in days]))  # type: ignore[operator]
    if not oks:
        return [()] * len(days)
    ids = [rid for rid, _ in oks]
    seen: dict[tuple[bool, ...], tuple[str, ...]] = {}  # each combination's IDs built once
    out: list[tuple[str, ...]] = []
    for flags in zip(*(ok for _, ok in oks), strict=True):
        rids = seen.get(flags)
        if rids is None:
            rids = seen[flags] = tuple(rid for rid, ok in zip(ids, flags, strict=True)
                                       if not ok)
        out.append(rids)
    return out


def _first_days_ok(sc: Scenario, t: Tournament, days: list[dt.date],
                   allows_day: list[_Allow]) -> list[bool]:
    """For each of ``days``: whether every ``allows_day`` rule accepts it as a first day of
    ``t`` (each rule's ``allows_days`` when it has one: the same answers, in one pass)."""
    ok = [True] * len(days)
    for _, fn in allows_day:
        many = _VECTORIZED.get(fn)  # type: ignore[call-overload]
        flags = (many(sc, t, days) if many is not None
                 else [fn(sc, t, d) for d in days])  # type: ignore[operator]
        if not all(flags):
            ok = [a and b for a, b in zip(ok, flags, strict=True)]
    return ok


def _candidates(sc: Scenario, t: Tournament, days: list[dt.date], allows: list[_Allow],
                allows_day: list[_Allow]) -> list[Placement]:
    """The first days of ``t`` among ``days`` that every rule allows, with their timing:
    the first-day tests over all of them at once, then the timing of each day left (none
    in the daylight-saving gap), then each rule's ``allows`` over the timings the rules
    before it left (its ``allows_many`` when it has one: the same answers, in one pass)."""
    if t.window is not None:  # WINDOW rejects every day outside the window: never visited
        origin = sc.horizon.start
        days = days[max(0, (t.window.start - origin).days):
                    max(0, (t.window.end - origin).days + 1)]
    ok = _first_days_ok(sc, t, days, allows_day)
    if not all(ok):
        days = list(compress(days, ok))
    found = timings(t, tournament_tz(sc, t), days)
    ok = [tm is not None for tm in found]
    if not all(ok):  # a start in the daylight-saving gap (CLOCK-CHANGE)
        days = list(compress(days, ok))
    tms = [tm for tm in found if tm is not None]
    many = _MANY
    for _, fn in allows:
        if not tms:
            break
        vec = many.get(fn)  # type: ignore[call-overload]
        ok = (vec(sc, t, tms) if vec is not None
              else [fn(sc, t, tm) for tm in tms])  # type: ignore[operator]
        if not all(ok):
            days, tms = list(compress(days, ok)), list(compress(tms, ok))
    return [Placement(t, d, tm) for d, tm in zip(days, tms, strict=True)]


def build_domain(ctx: ModelContext, allows: list[_Allow],
                 allows_day: list[_Allow] | None = None) -> None:
    """Create ``z`` for every (tournament, day) that no rule's ``allows`` rejects.

    ``allows_day`` (rules' cheaper first-day-only tests) skip days before their timing is
    computed. ``rejected[tid][day]`` gives the IDs of the rules that reject a day (for
    reasons; computed when asked). In explain mode every day is a candidate and the
    rejecting rules of each are listed in ``excluded``.
    """
    sc = ctx.scenario
    days = list(day_span(sc.horizon.start, sc.horizon.end))
    ctx.rejected = _Rejections(ctx, allows, allows_day)
    new_bool, z = ctx.new_bool, ctx.z
    for t in sc.tournaments:
        if not ctx.explain:
            cands = ctx.candidates[t.id] = _candidates(sc, t, days, allows, allows_day or [])
            tid = t.id
            if ctx.named:
                for c in cands:
                    z[(tid, c.first_day)] = new_bool(f"z[{tid},{c.first_day}]")
            else:
                z.update(zip([(tid, c.first_day) for c in cands], ctx.new_bools(len(cands)),
                             strict=True))
            continue
        tz = tournament_tz(sc, t)
        rej = ctx.rejected[t.id]
        # a day in the daylight-saving gap is a day like any other, excluded by CLOCK-CHANGE
        cands = ctx.candidates[t.id] = [
            Placement(t, day, tm if tm is not None else _gap_timing(t, tz, day))
            for day, tm in zip(days, timings(t, tz, days), strict=True)]
        for c in cands:
            v = new_bool(f"z[{t.id},{c.first_day}]" if ctx.named else "")
            z[(t.id, c.first_day)] = v
            for rid in rej.get(c.first_day, ()):
                ctx.excluded.setdefault((t.id, rid), []).append(v)




def build_model(scenario: Scenario, *, explain: bool = False,
                named: bool | None = None) -> ModelContext:
    """The full model of ``scenario``: domain, then every rule's encoding, in registry order.

    ``explain=True`` builds the model used to explain infeasibility: every day of the horizon
    is a candidate (days a rule excludes are listed in ``excluded`` for the caller to guard),
    and cost rules are left out. ``named`` (default: as ``explain``) names the first-day
    variables ``z[tournament,day]`` and the constraints of the hot encodings (their names
    cost model-building time and are read only to explain).
    """
    ctx = ModelContext(scenario, explain=explain,
                       named=explain if named is None else named)
    with gc_paused():
        build_domain(ctx, [(r.id, r.allows) for r in RULES if r.allows is not None],
                     [(r.id, r.allows_day) for r in RULES if r.allows_day is not None])
        for rule in RULES:
            if rule.encode is not None and not (explain and rule.id in COST_RULES):
                rule.encode(ctx)
                ctx.flush()
                added = len(ctx.model.proto.constraints) - len(ctx.rule_of_constraint)
                ctx.rule_of_constraint.extend([rule.id] * added)
    return ctx
