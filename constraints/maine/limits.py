"""Maine, the counted limits: ME-MONTHLY-LIMIT (17 M.R.S. § 1836(4): 2 games a month)
and ME-SUPER-CRIBBAGE (17 M.R.S. § 1836(4-A): 15 licences statewide a year, the game's
terms and its charity share).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import cast

from constraints.base import (
    STATEWIDE,
    Actuals,
    Audit,
    Certificate,
    Occurrence,
    Rule,
    Usage,
    UsageText,
    Violation,
    counted_sum,
    day_span,
    usd,
)
from constraints.maine.terms import (
    MEMBER_YEARS,
    MONTHLY_LIMIT,
    NATIONAL_CRIBBAGE,
    PLAYER_CAP_OWNED,
    SUPER_CRIBBAGE_FEE,
    SUPER_CRIBBAGE_HOURS,
    SUPER_CRIBBAGE_LIMIT,
    TIERS,
    _licensed,
    _me,
    _sessions_span,
    tier_index,
)
from constraints.modelling import LicenseOption, ModelContext, covers_occurrence, overfull, sum_by
from scheduler.problems import TermProblem
from scheduler.scenario import Operator, Scenario
from scheduler.timing import Timing, month_end


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
        items = [(c, v) for c, v in ctx.of_operator(op.id) if _licensed(c.tournament)]
        for ym, lits in sum_by(items, lambda c: list(counted_months(sc, c.timing))).items():
            y, mo = cast(tuple[int, int], ym)
            held = held_in_month(sc, op, (y, mo))
            room = max(0, MONTHLY_LIMIT - held)
            if len(lits) > room:
                ctx.model.add(sum(lits) <= room).with_name(
                    f"ME-MONTHLY-LIMIT: {op.id} conducts at most {MONTHLY_LIMIT} games in "
                    f"{y}-{mo:02d}"
                    + (f", {held} held before the plan: {room} left" if held else "")
                    + f" (month_rule: {sc.settings.month_rule})")


def _check_monthly(a: Audit) -> Iterator[Violation]:
    """ME-MONTHLY-LIMIT: per organization and calendar month, the games placed counted in it
    plus those held before the plan (:func:`held_in_month`) at most 2."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        per_month: dict[tuple[int, int], list[Occurrence]] = defaultdict(list)
        for p in a.of_operator(op):
            if _licensed(p.tournament):
                for ym in counted_months(sc, p.timing):
                    per_month[ym].append(p)
        for ym in sorted(per_month):
            ps = sorted(per_month[ym], key=lambda p: (p.first_day, p.ref))
            held = held_in_month(sc, op, ym)
            if len(ps) + held > MONTHLY_LIMIT:
                refs = tuple(p.ref for p in ps)
                games = (f"{held} held before the plan + {len(ps)} planned = {held + len(ps)}"
                         if held else f"{len(ps)}")
                yield Violation("ME-MONTHLY-LIMIT", op.id, refs, f"{ym[0]}-{ym[1]:02d}",
                                f"{op.name} would conduct {games} tournament games in "
                                f"{ym[0]}-{ym[1]:02d} ({', '.join(refs)}); at most "
                                f"{MONTHLY_LIMIT} a month (month_rule: "
                                f"{sc.settings.month_rule})")


def _certify_monthly(ctx: ModelContext, tids: frozenset[str]) -> Iterator[Certificate]:
    """Per organization: the licensed games required of the tournaments ``tids`` against
    2 times the calendar months they can be counted in (ME-MONTHLY-LIMIT,
    17 M.R.S. § 1836(4)): every game counts in at least one of those months."""
    sc = ctx.scenario
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        demand = {t.id: t.required for t in sc.tournaments
                  if t.id in tids and op.id in t.operators and _licensed(t) and t.required}
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
    for op in sc.operators:
        if op.jurisdiction != "ME" or not any(
                _licensed(t) and op.id in t.operators for t in sc.tournaments):
            continue
        per_month: dict[tuple[int, int], int] = defaultdict(int)
        for p in a.of_operator(op):
            if _licensed(p.tournament):
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


ME_MONTHLY = Rule("ME-MONTHLY-LIMIT", validate=_validate_held_in_month,
                  encode=_encode_monthly, check=_check_monthly,
                  certificate=_certify_monthly, usage=_monthly_usage,
                  usage_text=UsageText(f"ME-MONTHLY-LIMIT: Maine games per month (limit "
                                       f"{MONTHLY_LIMIT})", _monthly_lines,
                                       chart_omits_unused=True),
                  counts=lambda t: t.is_me_licensed_game)


# ------------------------------------------------------------------ ME-SUPER-CRIBBAGE
def super_cribbage_left(sc: Scenario, year: int) -> int:
    """ME-SUPER-CRIBBAGE: licences of calendar ``year`` left for this scenario: 15 less those
    issued statewide to organizations outside it (``settings.super_cribbage_licenses_issued``),
    never below 0."""
    return max(0, SUPER_CRIBBAGE_LIMIT
               - sc.settings.super_cribbage_licenses_issued.get(year, 0))


def _validate_super_cribbage(sc: Scenario) -> Iterator[TermProblem]:
    """ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): 30 to 300 players, half the proceeds after
    prizes to charity, licences already issued at most 15 a year, and, when a nationally
    chartered cribbage 501(c)(3) conducts it ((4-A)(A)), a principal organizer who has been a
    member for at least 3 years (``organizer_member_years``; not asked of a Maine
    organization)."""
    for year, n in sc.settings.super_cribbage_licenses_issued.items():
        if n > SUPER_CRIBBAGE_LIMIT:
            yield TermProblem(("settings", "super_cribbage_licenses_issued", year),
                              "ME-SUPER-CRIBBAGE",
                              f"at most {SUPER_CRIBBAGE_LIMIT} super cribbage licences are "
                              f"issued statewide in a year")
    national = {o.id for o in sc.operators if o.organization_type == NATIONAL_CRIBBAGE}
    for i, t in _me(sc):
        if t.type != "super-cribbage":
            continue
        loc = ("tournaments", i)
        if t.sessions and _sessions_span(t) > SUPER_CRIBBAGE_HOURS:
            yield TermProblem((*loc, "sessions"), "ME-SUPER-CRIBBAGE",
                              f"the sessions run {_sessions_span(t):g} hours from the first "
                              f"one's start to the last one's end; a super cribbage game must "
                              f"be completed within {SUPER_CRIBBAGE_HOURS} hours of its start")
        elif t.hours > SUPER_CRIBBAGE_HOURS:
            yield TermProblem((*loc, "hours"), "ME-SUPER-CRIBBAGE",
                              f"a game must be completed within {SUPER_CRIBBAGE_HOURS} hours of "
                              "its start")
        if t.players is not None and not 30 <= t.players <= PLAYER_CAP_OWNED:
            yield TermProblem((*loc, "players"), "ME-SUPER-CRIBBAGE",
                              "a super cribbage tournament has at least 30 and at most 300 "
                              "players")
        if t.charity_share is None or t.charity_share < Decimal("0.5"):
            yield TermProblem((*loc, "charity_share"), "ME-SUPER-CRIBBAGE",
                              "50% of the proceeds after prizes go to a charity other than the "
                              "licensee (charity_share >= 0.5)")
        by = sorted(set(t.operators) & national)
        if by and (t.organizer_member_years is None
                   or t.organizer_member_years < MEMBER_YEARS):
            yield TermProblem((*loc, "organizer_member_years"), "ME-SUPER-CRIBBAGE",
                              f"conducted by the nationally chartered cribbage 501(c)(3) "
                              f"{', '.join(by)}: its principal organizer must have been a member "
                              f"of it for at least {MEMBER_YEARS} years")


def _encode_super_cribbage(ctx: ModelContext) -> None:
    """Statewide at most 15 super cribbage licences per calendar year (of the first day), every
    organization of the scenario together and the licences already issued outside it
    (``settings.super_cribbage_licenses_issued``); each licence costs $75."""
    sc = ctx.scenario
    items = [(c, v) for t in sc.tournaments if t.type == "super-cribbage"
             for c, v in ctx.starts(t)]
    for year, lits in sum_by(items, lambda c: [c.first_day.year]).items():
        left = super_cribbage_left(sc, cast(int, year))
        if len(lits) > left:
            issued = sc.settings.super_cribbage_licenses_issued.get(cast(int, year), 0)
            ctx.model.add(sum(lits) <= left).with_name(
                f"ME-SUPER-CRIBBAGE: at most {SUPER_CRIBBAGE_LIMIT} licences statewide in {year}"
                + (f", {issued} already issued outside the plan "
                   f"(settings.super_cribbage_licenses_issued): {left} left" if issued else ""))
    for c, v in items:
        t = c.tournament
        ctx.add_license(LicenseOption(
            v, t.operators[0], "ME", "me-super-cribbage", TIERS[tier_index(t.players or 1)],
            c.first_day, c.timing.last_day, SUPER_CRIBBAGE_FEE,
            covers=covers_occurrence(t.id, c.first_day)))


def _nth(n: int) -> str:
    """16 -> "16th", 21 -> "21st" (no licence count below 16 is ever printed)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _check_super_cribbage(a: Audit) -> Iterator[Violation]:
    per_year: dict[int, list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        if p.tournament.type == "super-cribbage":
            per_year[p.first_day.year].append(p)
    issued_by_year = a.scenario.settings.super_cribbage_licenses_issued
    for y in sorted(per_year):
        ps = sorted(per_year[y], key=lambda p: (p.first_day, p.ref))
        issued = issued_by_year.get(y, 0)
        for n, p in enumerate(ps, start=issued + 1):
            if n > SUPER_CRIBBAGE_LIMIT:
                yield Violation("ME-SUPER-CRIBBAGE", p.tournament.operators[0], (p.ref,),
                                p.first_day.isoformat(),
                                f"{p.ref} would need the {_nth(n)} super cribbage licence of {y} "
                                f"statewide"
                                + (f" ({issued} already issued outside the plan: "
                                   f"settings.super_cribbage_licenses_issued)" if issued else "")
                                + f"; at most {SUPER_CRIBBAGE_LIMIT}")


def _held_super_cribbage(a: Actuals) -> Iterator[Violation]:
    """ME-SUPER-CRIBBAGE on what was held (17 M.R.S. § 1836(4-A)): a super cribbage game's
    charity paid must be at least 50 % of its proceeds after prizes:
    ``charity_usd >= (entry_fees_usd - prizes_usd) / 2`` (figures not recorded: not
    judged)."""
    for x in a.held:
        if (x.type != "super-cribbage" or x.entry_fees_usd is None or x.prizes_usd is None
                or x.charity_usd is None):
            continue
        proceeds = x.entry_fees_usd - x.prizes_usd
        if x.charity_usd * 2 < proceeds:
            yield Violation("ME-SUPER-CRIBBAGE", x.operator_id, (x.ref,),
                            day_span(x.first_day, x.last_day),
                            f"{x.ref} paid {usd(x.charity_usd)} to charity, under 50% of its "
                            f"proceeds after prizes ({usd(x.entry_fees_usd)} entry fees - "
                            f"{usd(x.prizes_usd)} prizes = {usd(proceeds)}; 50% = "
                            f"{usd(proceeds / 2)})")


def _super_cribbage_usage(a: Audit) -> Iterator[Usage]:
    """ME-SUPER-CRIBBAGE usage, 17 M.R.S. § 1836(4-A): statewide (operator ``"(statewide)"``)
    per calendar year of the horizon, when the scenario has super cribbage: ``used`` = the
    licences of the super cribbage games placed in the year (by first day) plus those issued
    outside the plan (``settings.super_cribbage_licenses_issued``, also ``held``), of 15."""
    sc = a.scenario
    if not any(t.type == "super-cribbage" for t in sc.tournaments):
        return
    for year in range(sc.horizon.start.year, sc.horizon.end.year + 1):
        issued = sc.settings.super_cribbage_licenses_issued.get(year, 0)
        placed = sum(1 for p in a.placed
                     if p.tournament.type == "super-cribbage" and p.first_day.year == year)
        yield Usage("ME-SUPER-CRIBBAGE", STATEWIDE, f"{year:04d}", dt.date(year, 1, 1),
                    dt.date(year, 12, 31), placed + issued, SUPER_CRIBBAGE_LIMIT, held=issued)


ME_SUPER_CRIBBAGE = Rule("ME-SUPER-CRIBBAGE", validate=_validate_super_cribbage,
                         encode=_encode_super_cribbage, check=_check_super_cribbage,
                         actuals=_held_super_cribbage, usage=_super_cribbage_usage,
                         counts=lambda t: t.type == "super-cribbage")
