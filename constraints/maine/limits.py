"""Maine, the monthly limit: ME-MONTHLY-LIMIT (17 M.R.S. § 1836(4): 2 games a month; super
cribbage, ME-SUPER-CRIBBAGE, is :mod:`constraints.maine.cribbage`).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import cast

from constraints.base import (
    Actuals,
    Audit,
    Certificate,
    Occurrence,
    Rule,
    Usage,
    UsageText,
    Violation,
    counted_sum,
)
from constraints.maine.terms import (
    MONTHLY_LIMIT,
    licensed,
    nth,
)
from constraints.modelling import NO_MIN, ModelContext, overfull, sum_by
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator
from scheduler.core.timing import Timing, month_end


# ------------------------------------------------------------------ ME-MONTHLY-LIMIT
def counted_months(sc: Scenario, tm: Timing) -> tuple[tuple[int, int], ...]:
    """ME-MONTHLY-LIMIT: the months a game counts in (``month_rule``: every month it touches,
    or only its starting month)."""
    if sc.settings.month_rule == "start":
        return ((tm.first_day.year, tm.first_day.month),)
    return tm.months


def held_in_month(sc: Scenario, op: Operator, ym: tuple[int, int]) -> int:
    """ME-MONTHLY-LIMIT, 17 M.R.S. § 1836: the licensed games of Maine organization ``op``
    held before the plan that count in calendar month ``ym`` (``(year, month)``):
    ``held_in_current_month.games`` in the month containing ``horizon.start``, 0 in any
    other (the games held in the horizon are the plan's own, pinned by ``solve --ledger``)."""
    start = sc.horizon.start
    return op.held_in_current_month.games if ym == (start.year, start.month) else 0


def _validate_held_in_month(sc: Scenario) -> Iterator[TermProblem]:
    """ME-MONTHLY-LIMIT: ``held_in_current_month.games`` counts games held before
    ``horizon.start`` in its month, so under ``month_rule: start`` it is 0 when the horizon
    starts on the 1st (no game of that month can have started before it; under ``touch`` a
    game of the month before that ran past midnight into the 1st counts)."""
    start = sc.horizon.start
    if sc.settings.month_rule != "start" or start.day != 1:
        return
    for i, op in enumerate(sc.operators):
        if op.jurisdiction == "ME" and op.held_in_current_month.games:
            yield TermProblem(("operators", i, "held_in_current_month", "games"),
                              "ME-MONTHLY-LIMIT",
                              f"counts the games held before horizon.start ({start}) that "
                              f"started in its month (month_rule: start); the horizon starts "
                              f"on the month's first day, so none can have: it must be 0")


def _encode_monthly(ctx: ModelContext) -> None:
    """Per organization and calendar month: at most 2 licensed games counted in it, less the
    games held before the plan in that month (:func:`held_in_month`, never below 0)."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        items = [(c, v) for c, v in ctx.of_operator(op.id) if licensed(c.tournament)]
        for ym, lits in sum_by(items, lambda c: list(counted_months(sc, c.timing))).items():
            y, mo = cast(tuple[int, int], ym)
            held = held_in_month(sc, op, (y, mo))
            room = max(0, MONTHLY_LIMIT - held)
            if len(lits) > room:
                ctx.add_sum(lits, NO_MIN, room,
                            f"ME-MONTHLY-LIMIT: {op.id} conducts at most {MONTHLY_LIMIT} games "
                            f"in {y}-{mo:02d}"
                            + (f", {held} held before the plan: {room} left" if held else "")
                            + f" (month_rule: {sc.settings.month_rule})" if ctx.named else "")


def _check_monthly(a: Audit) -> Iterator[Violation]:
    """ME-MONTHLY-LIMIT: per organization and calendar month, the games placed counted in it
    plus those held before the plan (:func:`held_in_month`) at most 2."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        per_month = _games_by_month(a, op)
        for ym in sorted(per_month):
            v = _over_month(sc, op, ym, per_month[ym])
            if v is not None:
                yield v


def _games_by_month(a: Audit, op: Operator) -> dict[tuple[int, int], list[Occurrence]]:
    """The licensed games ``op`` holds by the months they count in, as placed."""
    per_month: dict[tuple[int, int], list[Occurrence]] = defaultdict(list)
    for p in a.of_operator(op):
        if licensed(p.tournament):
            for ym in counted_months(a.scenario, p.timing):
                per_month[ym].append(p)
    return per_month


def _over_month(sc: Scenario, op: Operator, ym: tuple[int, int], games: list[Occurrence]
                ) -> Violation | None:
    """ME-MONTHLY-LIMIT: the violation when ``games`` (``op``'s counted in month ``ym``) and
    those held before the plan are more than 2."""
    ps = sorted(games, key=lambda p: (p.first_day, p.ref))
    held = held_in_month(sc, op, ym)
    if len(ps) + held <= MONTHLY_LIMIT:
        return None
    refs = tuple(p.ref for p in ps)
    games_ = (f"{held} held before the plan + {len(ps)} planned = {held + len(ps)}"
              if held else f"{len(ps)}")
    return Violation("ME-MONTHLY-LIMIT", op.id, refs, f"{ym[0]}-{ym[1]:02d}",
                     f"{op.name} would conduct {games_} tournament games in "
                     f"{ym[0]}-{ym[1]:02d} ({', '.join(refs)}); at most "
                     f"{MONTHLY_LIMIT} a month (month_rule: {sc.settings.month_rule})")


def _added_monthly(a: Audit, p: Occurrence) -> list[Violation]:
    """ME-MONTHLY-LIMIT with ``p`` added (:attr:`Rule.added`): the months it counts in, at
    each of its Maine operators."""
    if not licensed(p.tournament):
        return []
    out: list[Violation] = []
    for op in a.operators_of(p):
        if op.jurisdiction != "ME":
            continue
        per_month = a.memo(f"ME-MONTHLY-LIMIT {op.id}",
                           functools.partial(_games_by_month, a, op))
        out.extend(v for ym in sorted(counted_months(a.scenario, p.timing))
                   if (v := _over_month(a.scenario, op, ym, [*per_month.get(ym, ()), p]))
                   is not None)
    return out


def _certify_monthly(ctx: ModelContext, tids: frozenset[str]) -> Iterator[Certificate]:
    """Per organization: the licensed games required of the tournaments ``tids`` against
    2 times the calendar months they can be counted in (ME-MONTHLY-LIMIT,
    17 M.R.S. § 1836(4)): every game counts in at least one of those months."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        demand = {t.id: t.required for t in sc.tournaments
                  if t.id in tids and op.id in t.operators and licensed(t) and t.required}
        found = (overfull(ctx, demand, lambda c: counted_months(sc, c.timing), MONTHLY_LIMIT)
                 if demand else None)
        if found is None:
            continue
        months = [f"{y}-{m:02d}" for y, m in found.slots]
        shown = ", ".join(months) if len(months) <= 3 else f"{months[0]}..{months[-1]}"
        where = "in the horizon" if found.whole_horizon else "they can be held in"
        yield Certificate(
            "ME-MONTHLY-LIMIT", op.id, found.tournaments, found.excluded,
            f"{found.required} required games of {op.name}"
            + (f" ({counted_sum([demand[t] for t in found.tournaments])})"
               if len(found.tournaments) > 1 else "") + ", at most "
            f"{MONTHLY_LIMIT} a month (ME-MONTHLY-LIMIT, month_rule: "
            f"{sc.settings.month_rule}), {len(months)} month(s) {where} ({shown}): at least "
            f"{found.required - MONTHLY_LIMIT * len(months)} cannot be placed")


def _monthly_usage(a: Audit) -> Iterator[Usage]:
    """ME-MONTHLY-LIMIT usage, 17 M.R.S. § 1836(4): per Maine operator with a licensed game in
    the scenario, every calendar month of the horizon (and any later month a game runs into),
    ``used`` = its licensed games counted in the month (:func:`counted_months`, under
    ``settings.month_rule``) plus those held before the plan (:func:`held_in_month`, also
    ``held``), of 2."""
    sc = a.scenario
    horizon: set[tuple[int, int]] = set()
    y, m = sc.horizon.start.year, sc.horizon.start.month
    while dt.date(y, m, 1) <= sc.horizon.end:
        horizon.add((y, m))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    playing = {o for t in sc.tournaments if licensed(t) for o in t.operators}
    for op in sc.operators:
        if op.jurisdiction != "ME" or op.id not in playing:
            continue
        per_month: dict[tuple[int, int], int] = defaultdict(int)
        for p in a.of_operator(op):
            if licensed(p.tournament):
                for ym in counted_months(sc, p.timing):
                    per_month[ym] += 1
        for y, m in sorted(horizon | set(per_month)):
            held = held_in_month(sc, op, (y, m))
            yield Usage("ME-MONTHLY-LIMIT", op.id, f"{y:04d}-{m:02d}", dt.date(y, m, 1),
                        month_end(y, m), per_month[(y, m)] + held, MONTHLY_LIMIT, held=held)


def _monthly_lines(records: Sequence[Usage]) -> Iterator[tuple[dt.date, str]]:
    """ME-MONTHLY-LIMIT's summary line for an operator: how many months are at 2 of 2 and
    which; none for an operator with no game counted."""
    used = [u for u in records if u.used]
    if used:
        full = [u.period for u in used if u.used == u.limit]
        yield used[0].period_start, (f"ME-MONTHLY-LIMIT: {len(full)} month(s) at "
                                     f"{MONTHLY_LIMIT}/{MONTHLY_LIMIT}"
                                     + (f" ({', '.join(full)})" if full else ""))


def held_months(sc: Scenario, first: dt.date, last: dt.date) -> list[tuple[int, int]]:
    """ME-MONTHLY-LIMIT: the months a game held ``first``..``last`` (inclusive) counts in:
    every month it touches, or only its first day's under ``month_rule: start``."""
    if sc.settings.month_rule == "start":
        return [(first.year, first.month)]
    out = [(first.year, first.month)]
    while out[-1] != (last.year, last.month):
        y, m = out[-1]
        out.append((y + 1, 1) if m == 12 else (y, m + 1))
    return out


def _held_monthly(a: Actuals) -> Iterator[Violation]:
    """ME-MONTHLY-LIMIT on what was held (17 M.R.S. § 1836): an operator held at most 2
    licensed games (tournament games, super cribbage) counted in each calendar month
    (:func:`held_months`, under ``settings.month_rule``); the 3rd and every later one of a
    month is reported, naming the month's games. For an operator whose month containing
    ``horizon.start`` the ledger does not record before it (not in
    ``Actuals.ledger_covers``: the ledger began later), the scenario's
    ``held_in_current_month.games`` (:func:`held_in_month`) is added to that month, as
    ``tourney solve --ledger`` does."""
    sc = a.scenario
    per_month: dict[tuple[str, tuple[int, int]], list[str]] = defaultdict(list)
    days: dict[str, str] = {}
    for x in sorted(a.held, key=lambda x: (x.first_day, x.ref)):
        if x.jurisdiction != "ME" or x.type not in ("tournament-game", "super-cribbage"):
            continue
        days[x.ref] = x.dates
        for ym in held_months(a.scenario, x.first_day, x.last_day):
            per_month[(x.operator_id, ym)].append(x.ref)
    ops = {o.id: o for o in sc.operators}
    for (oid, (y, m)), refs in sorted(per_month.items()):
        before = (held_in_month(sc, ops[oid], (y, m))
                  if oid in ops and oid not in a.ledger_covers else 0)
        for n, ref in enumerate(refs, start=before + 1):
            if n > MONTHLY_LIMIT:
                yield Violation("ME-MONTHLY-LIMIT", oid, (ref,), days[ref],
                                f"{oid} held its {nth(n)} tournament game of {y}-{m:02d} "
                                f"({ref}; the month's games: "
                                + (f"{before} held before the ledger began "
                                   "(held_in_current_month), " if before else "")
                                + f"{', '.join(refs)}); at most {MONTHLY_LIMIT} a month "
                                f"(month_rule: {sc.settings.month_rule})")


ME_MONTHLY = Rule("ME-MONTHLY-LIMIT", validate=_validate_held_in_month,
                  encode=_encode_monthly, check=_check_monthly, added=_added_monthly,
                  actuals=_held_monthly,
                  certificate=_certify_monthly, usage=_monthly_usage,
                  usage_text=UsageText(f"ME-MONTHLY-LIMIT: Maine games per month (limit "
                                       f"{MONTHLY_LIMIT})", _monthly_lines,
                                       chart_omits_unused=True),
                  counts=lambda t: t.is_me_licensed_game)
