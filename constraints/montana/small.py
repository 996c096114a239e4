"""Montana, small-stakes tournaments: MT-SMALL-ENTRY (MCA 23-5-317(2)(c): $80 in all) and
MT-SMALL-DAILY (23-5-317(2)(a): one a day, within one day).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Iterator

from constraints.base import (
    Actuals,
    Audit,
    Certificate,
    Occurrence,
    Rule,
    Violation,
    counted_sum,
    day_span,
    per_person_over,
    unrecorded,
    usd,
)
from constraints.modelling import NO_MIN, ModelContext, overfull, sum_by
from constraints.montana.terms import SMALL_ENTRY_CAP, calendar_days, mins, mt
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator

# ------------------------------------------------------------------ MT-SMALL-ENTRY


def _validate_small_entry(sc: Scenario) -> Iterator[TermProblem]:
    """MT-SMALL-ENTRY, MCA 23-5-317(2)(c): a small-stakes entry is at most $80 in all, with no
    rebuy, add-on or re-entry."""
    for i, t in mt(sc):
        if t.is_large:
            continue
        loc = ("tournaments", i)
        if t.entry_fee > SMALL_ENTRY_CAP:
            yield TermProblem((*loc, "entry_fee"), "MT-SMALL-ENTRY",
                              f"a small-stakes entry may not exceed {usd(SMALL_ENTRY_CAP)}")
        for f in ("reentries", "max_rebuys"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "MT-SMALL-ENTRY",
                                  "small-stakes: no rebuy, add-on or re-entry")
        for f in ("rebuy_fee", "addon_fee"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "MT-SMALL-ENTRY",
                                  "small-stakes: no rebuy, add-on or re-entry")


def _held_small_entry(a: Actuals) -> Iterator[Violation]:
    """MT-SMALL-ENTRY on what was held (MCA 23-5-317(2)(c)): a small-stakes tournament took
    at most $80 from each participant, ``entry_fees_usd <= 80 * players`` (above it, at least
    one paid more), and sold one entry per participant (no re-entry): ``entries <=
    players``. A figure not recorded: a note."""
    for x in a.held:
        if x.jurisdiction != "MT" or x.type != "small-stakes":
            continue
        if x.players is not None and x.entries is not None and x.entries > x.players:
            yield Violation("MT-SMALL-ENTRY", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} sold {x.entries} entries to {x.players} players; "
                            "small-stakes: no rebuy, add-on or re-entry")
        missing = [m for m, v in (("entry fees (--entry-fees)", x.entry_fees_usd),
                                  ("players (--players)", x.players)) if v is None]
        if missing:
            yield unrecorded("MT-SMALL-ENTRY", x, missing, "what each participant paid")
            continue
        assert x.players is not None
        v = per_person_over(x, SMALL_ENTRY_CAP, x.players, "players", "MT-SMALL-ENTRY",
                            f"a small-stakes participant pays at most {usd(SMALL_ENTRY_CAP)} "
                            "in all")
        if v is not None:
            yield v


MT_SMALL_ENTRY = Rule("MT-SMALL-ENTRY", validate=_validate_small_entry,
                      actuals=_held_small_entry)


# ------------------------------------------------------------------ MT-SMALL-DAILY
def _encode_small_daily(ctx: ModelContext) -> None:
    """At most one small-stakes tournament per operator per calendar day."""
    for op in ctx.scenario.operators:
        items = [(c, v) for c, v in ctx.of_operator(op.id) if c.tournament.is_small]
        for day, lits in sum_by(items, lambda c: [c.first_day]).items():
            if len(lits) > 1:
                ctx.add_sum(lits, NO_MIN, 1, f"MT-SMALL-DAILY: {op.id} holds at most one "
                                             f"small-stakes tournament on {day}"
                            if ctx.named else "")


def _check_small_daily(a: Audit) -> Iterator[Violation]:
    for op in a.scenario.operators:
        per_day: dict[dt.date, list[Occurrence]] = defaultdict(list)
        for p in a.of_operator(op):
            if p.tournament.is_small:
                for d in p.timing.days:
                    per_day[d].append(p)
                if len(p.timing.days) > 1:
                    yield _not_one_day(op, p)
        for d in sorted(per_day):
            v = _small_on(op, d, per_day[d])
            if v is not None:
                yield v


def _not_one_day(op: Operator, p: Occurrence) -> Violation:
    return Violation("MT-SMALL-DAILY", op.id, (p.ref,), p.first_day.isoformat(),
                     f"{p.ref} is not played within one calendar day")


def _small_on(op: Operator, d: dt.date, ps: list[Occurrence]) -> Violation | None:
    """MT-SMALL-DAILY: the violation when ``ps`` (the operator's small-stakes occurrences on
    day ``d``, as placed) are more than one."""
    if len(ps) <= 1:
        return None
    refs = tuple(p.ref for p in ps)
    return Violation("MT-SMALL-DAILY", op.id, refs, d.isoformat(),
                     f"{op.name} would conduct {len(refs)} small-stakes tournaments "
                     f"on {d} ({', '.join(refs)}); at most one a day")


def _small_by_day(a: Audit, op: Operator) -> dict[dt.date, list[Occurrence]]:
    per_day: dict[dt.date, list[Occurrence]] = defaultdict(list)
    for p in a.of_operator(op):
        if p.tournament.is_small:
            for d in p.timing.days:
                per_day[d].append(p)
    return per_day


def _added_small_daily(a: Audit, p: Occurrence) -> list[Violation]:
    """MT-SMALL-DAILY with ``p`` added (:attr:`Rule.added`): ``p`` itself and the days it
    touches, at each of its operators."""
    if not p.tournament.is_small:
        return []
    out: list[Violation] = []
    for op in a.operators_of(p):
        if len(p.timing.days) > 1:
            out.append(_not_one_day(op, p))
        per_day = a.memo(f"MT-SMALL-DAILY {op.id}", functools.partial(_small_by_day, a, op))
        out.extend(v for d in p.timing.days
                   if (v := _small_on(op, d, [*per_day.get(d, ()), p])) is not None)
    return out


def _certify_small_daily(ctx: ModelContext, tids: frozenset[str]) -> Iterator[Certificate]:
    """Per operator: the small-stakes occurrences required of the tournaments ``tids``
    against the days they can start, at most one a day (MT-SMALL-DAILY,
    MCA 23-5-317(2)(a)): a count over days, the model's own limit summed."""
    sc = ctx.scenario
    for op in sc.operators:
        demand = {t.id: t.required for t in sc.tournaments
                  if t.id in tids and op.id in t.operators and t.is_small and t.required}
        found = overfull(ctx, demand, lambda c: [c.first_day], 1) if demand else None
        if found is None:
            continue
        n = len(found.slots)
        days = ("no day they can start" if not n  # every day taken away (e.g. the window)
                else f"{n} days in the horizon" if found.whole_horizon
                else f"{n} days they can start")
        if n:
            days += f" ({day_span(found.slots[0], found.slots[-1])})"
        yield Certificate(
            "MT-SMALL-DAILY", op.id, found.tournaments, found.excluded,
            f"{found.required} required small-stakes tournaments at {op.name}"
            + (f" ({counted_sum([demand[t] for t in found.tournaments])})"
               if len(found.tournaments) > 1 else "") + ", at most one a day "
            f"(MT-SMALL-DAILY), {days}: at "
            f"least {found.required - n} cannot be placed")


def _validate_small_daily(sc: Scenario) -> Iterator[TermProblem]:
    """MT-SMALL-DAILY, MCA 23-5-317(2)(a): a small-stakes tournament is played within one
    calendar day (``days: 1``, ending by midnight)."""
    for i, t in mt(sc):
        loc = ("tournaments", i)
        if t.is_small and t.sessions and calendar_days(t) > 1:
            yield TermProblem((*loc, "sessions"), "MT-SMALL-DAILY",
                              "a small-stakes tournament is played within one day: its "
                              "sessions are all on day 1 and end by midnight")
            continue
        if t.is_small and t.days != 1:
            yield TermProblem((*loc, "days"), "MT-SMALL-DAILY",
                              "a small-stakes tournament is played within one day (days: 1)")
        if t.is_small and mins(t)[1] > 24 * 60:
            yield TermProblem((*loc, "hours"), "MT-SMALL-DAILY",
                              "a small-stakes tournament must end by midnight of its day")


def _held_small_daily(a: Actuals) -> Iterator[Violation]:
    """MT-SMALL-DAILY on what was held (MCA 23-5-317(2)(a)): an operator held at most one
    small-stakes tournament a calendar day, each within one day (its actual first and last
    day the same)."""
    per_day: dict[tuple[str, dt.date], list[str]] = defaultdict(list)
    for x in a.held:
        if x.jurisdiction != "MT" or x.type != "small-stakes":
            continue
        if x.last_day != x.first_day:
            yield Violation("MT-SMALL-DAILY", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held on {(x.last_day - x.first_day).days + 1} "
                            f"calendar days ({x.dates}); a small-stakes tournament is played "
                            "within one day")
        day = x.first_day
        while day <= x.last_day:
            per_day[(x.operator_id, day)].append(x.ref)
            day += dt.timedelta(days=1)
    for (oid, day), refs in sorted(per_day.items()):
        if len(refs) > 1:
            yield Violation("MT-SMALL-DAILY", oid, tuple(refs), day.isoformat(),
                            f"{oid} held {len(refs)} small-stakes tournaments on {day} "
                            f"({', '.join(refs)}); at most one a day")


MT_SMALL_DAILY = Rule("MT-SMALL-DAILY", validate=_validate_small_daily,
                      encode=_encode_small_daily, check=_check_small_daily,
                      added=_added_small_daily,
                      actuals=_held_small_daily,
                      certificate=_certify_small_daily, counts=lambda t: t.is_small)
