"""Maine: 17 M.R.S. § 1836 (tournament games), § 1832(2) (eligibility) and 16-633 CMR ch. 32
(application window, reports).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal
from functools import lru_cache, partial
from typing import cast

from ortools.sat.python import cp_model

from constraints.base import (
    STATEWIDE,
    Actuals,
    Audit,
    Certificate,
    License,
    Occurrence,
    Rule,
    Usage,
    Violation,
    counted_sum,
    day_span,
    day_text,
    duty,
    licence_row_violation,
    usd,
)
from constraints.catalogue import cite
from constraints.modelling import (
    LicenseOption,
    ModelContext,
    covers_occurrence,
    covers_period,
    overfull,
    sum_by,
)
from scheduler.problems import TermProblem
from scheduler.scenario import ME_TYPES, WEEKDAYS, Operator, Scenario, Tournament
from scheduler.timing import (
    ME_APPLICATION_BUSINESS_DAYS,
    ME_APPLICATION_MAX_DAYS,
    ME_REPORT_BUSINESS_DAYS,
    Timing,
    application_due,
    application_earliest_first_day,
    application_ok,
    local,
    month_end,
    years_end,
    years_later,
)

MONTHLY_LIMIT = 2
"""ME-MONTHLY-LIMIT, 17 M.R.S. § 1836: tournament games per organization per calendar month."""
MAX_HOURS = 48
"""ME-DURATION, 17 M.R.S. § 1836(4): a game is completed within 48 hours of its start."""
SUPER_CRIBBAGE_HOURS = 72
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(E)."""
SUPER_CRIBBAGE_LIMIT = 15
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): licences statewide per (calendar) year."""
SUPER_CRIBBAGE_FEE = 75
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): USD per licence."""
PLAYER_CAP = 100
PLAYER_CAP_OWNED = 300
"""ME-PLAYER-CAP, 17 M.R.S. § 1836(4)."""
ENTRY_CAP = Decimal(100)
SURCHARGE_CAP = Decimal(125)
"""ME-ENTRY-CAP, 17 M.R.S. § 1836(4): USD, the licence-fee surcharge of all players together
(under ``surcharge_cap: license-fee`` also at most the licence fee: :func:`surcharge_cap`)."""
NATIONAL_CRIBBAGE = "national-cribbage-501c3"
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(A): ``organization_type`` of a nationally chartered
501(c)(3) organization of tournament cribbage."""
MEMBER_YEARS = 3
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(A): years its principal organizer has been a
member."""
PRIZE_SHARE = Decimal("0.75")
"""ME-PRIZES, 17 M.R.S. § 1836(5)."""
RAFFLE_PRIZE_CAP = Decimal(2000)
"""ME-RAFFLE, 17 M.R.S. § 1836(4): USD."""
CRIBBAGE_ENTRY_CAP = Decimal(25)
"""ME-CRIBBAGE-REG, 17 M.R.S. § 1836(4-B)(C): USD."""

TIERS = ("1-50", "51-100", "101-150", "151-200", "201-250", "251-300")
TIER_MAX = (50, 100, 150, 200, 250, 300)
PER_TOURNAMENT_FEE = (40, 75, 300, 400, 500, 600)
"""ME-FEES, 17 M.R.S. § 1836(3-A): USD per tournament licence by tier."""
MONTHLY_FEE = (100, 200)
"""ME-FEES, 17 M.R.S. § 1836(3-A): USD for one calendar month, tiers 1-50 and 51-100."""
ANNUAL_FEE = (750, 1500)
"""ME-FEES, 17 M.R.S. § 1836(3-A): USD for 12 months from the first day, tiers 1-50, 51-100."""


def tier_index(players: int) -> int:
    """ME-FEES: index into :data:`TIERS` of a game's player cap."""
    for i, m in enumerate(TIER_MAX):
        if players <= m:
            return i
    raise ValueError(f"{players} players is over every tier")


def _tier_covers(tier: int, coverage: str, players: int) -> bool:
    return tier in covering_tiers(players, coverage)


def covering_tiers(players: int, coverage: str) -> list[int]:
    """Monthly/annual tiers that may cover a game (``tier_coverage`` reading): ``up`` = its
    tier and every higher one of the two; ``exact`` = its own tier only."""
    i = tier_index(players)
    if i > 1:
        return []
    return [i] if coverage == "exact" else list(range(i, 2))


def annual_end(start: dt.date) -> dt.date:
    """ME-FEES, 17 M.R.S. § 1836(3-A): the last day (inclusive) of an annual licence whose
    first day is ``start``, 12 months from it: ``scheduler.timing.years_end(start, 1)``
    (from 2028-02-29: 2029-02-28; from 2027-03-01: 2028-02-29)."""
    return years_end(start, 1)


def _me(sc: Scenario) -> Iterator[tuple[int, Tournament]]:
    for i, t in enumerate(sc.tournaments):
        if t.type in ME_TYPES:
            yield i, t


def _licensed(t: Tournament) -> bool:
    return t.is_me_licensed_game


def surcharge_cap(sc: Scenario, t: Tournament) -> tuple[Decimal, str]:
    """ME-ENTRY-CAP, 17 M.R.S. § 1836(4): the most the licence-fee surcharge of ``t`` may
    total across all players (USD), and why, in words.

    ``surcharge_cap: flat``: $125. ``license-fee`` (default): the surcharge only "defray[s] the
    cost of the license fee", so it is also at most that fee: $75 for super cribbage
    (§ 1836(4-A)); for a tournament game the per-tournament fee of its player tier
    (§ 1836(3-A): 1-50 $40, 51-100 $75, over 100 at least $300), because which licence will
    cover the game (an annual licence shares its fee among many games) is not known before
    the plan is made. Without a valid player cap (reported by ME-PLAYER-CAP) the flat $125."""
    if sc.settings.surcharge_cap == "flat":
        return SURCHARGE_CAP, "surcharge_cap: flat"
    if t.type == "super-cribbage":
        fee, what = Decimal(SUPER_CRIBBAGE_FEE), "the $75 super cribbage licence fee"
    elif t.players is not None and t.players <= TIER_MAX[-1]:
        ti = tier_index(t.players)
        fee = Decimal(PER_TOURNAMENT_FEE[ti])
        what = f"the per-tournament licence fee of its tier {TIERS[ti]} players, {usd(fee)}"
    else:
        return SURCHARGE_CAP, "surcharge_cap: license-fee"
    return min(fee, SURCHARGE_CAP), f"{what}; surcharge_cap: license-fee"


# ------------------------------------------------------------------ input rules
def _ops_of(sc: Scenario, t: Tournament) -> list[tuple[int, Operator]]:
    return [(i, o) for i, o in enumerate(sc.operators) if o.id in t.operators]


def _holders(sc: Scenario) -> list[tuple[int, Operator]]:
    """The operators (index, operator) that hold a licensed Maine game of the scenario."""
    holders = {o for _, t in _me(sc) if _licensed(t) for o in t.operators}
    return [(i, op) for i, op in enumerate(sc.operators) if op.id in holders]


def _validate_local_approval(sc: Scenario) -> Iterator[TermProblem]:
    """ME-LOCAL-APPROVAL: an operator holding a licensed game has the local governing
    authority's approval (``local_approval: true``)."""
    for i, op in _holders(sc):
        if op.local_approval is not True:
            yield TermProblem(("operators", i, "local_approval"), "ME-LOCAL-APPROVAL",
                              "the local governing authority's approval is required "
                              "(local_approval: true)")


def _validate_beneficiary(sc: Scenario) -> Iterator[TermProblem]:
    """ME-BENEFICIARY: an operator holding a licensed game names at least one charitable
    organization the proceeds benefit (``beneficiaries``)."""
    for i, op in _holders(sc):
        if not op.beneficiaries:
            yield TermProblem(("operators", i, "beneficiaries"), "ME-BENEFICIARY",
                              "name at least one charitable organization the proceeds benefit")


def _validate_organization(sc: Scenario) -> Iterator[TermProblem]:
    """ME-ELIGIBLE for operators holding licensed games (17 M.R.S. § 1832(2)).

    A nationally chartered cribbage 501(c)(3) (``organization_type: national-cribbage-501c3``)
    is eligible only under 17 M.R.S. § 1836(4-A)(A): it needs no ``organized_on`` (the 2 years
    in Maine of § 1832(2) do not apply to it; ME-SUPER-CRIBBAGE checks its organizer's 3 years
    of membership instead) and may hold no licensed game but super cribbage."""
    national = {o.id for o in sc.operators if o.organization_type == NATIONAL_CRIBBAGE}
    for i, t in _me(sc):
        if t.type == "tournament-game":
            for oid in t.operators:
                if oid in national:
                    yield TermProblem(
                        ("tournaments", i, "operators"), "ME-ELIGIBLE",
                        f"{oid} is a nationally chartered cribbage 501(c)(3) (organization_type:"
                        f" {NATIONAL_CRIBBAGE}): 17 M.R.S. § 1836(4-A)(A) lets it conduct only "
                        f"super cribbage tournaments, not a tournament game")
    start = sc.horizon.start
    two_years_before = years_later(start, -2)  # from Feb 29: Feb 28
    for i, op in _holders(sc):
        if op.id in national:
            continue
        loc = ("operators", i)
        if op.organized_on is None:
            yield TermProblem((*loc, "organized_on"), "ME-ELIGIBLE",
                              "give the date the organization was organized in Maine "
                              "(at least 2 years before the plan)")
        elif op.organized_on > two_years_before:
            yield TermProblem((*loc, "organized_on"), "ME-ELIGIBLE",
                              f"the organization must be organized at least 2 years "
                              f"(on or before {two_years_before})")


def _games(sc: Scenario) -> Iterator[tuple[tuple[str, int], Tournament]]:
    """The licensed Maine games (tournament game, super cribbage) with their field path;
    charitable cribbage has its own terms (ME-CRIBBAGE-REG)."""
    for i, t in _me(sc):
        if t.type != "charitable-cribbage":
            yield ("tournaments", i), t


def _validate_elimination(sc: Scenario) -> Iterator[TermProblem]:
    """ME-ELIMINATION: winners are determined by a process of elimination (every Maine
    tournament, charitable cribbage too)."""
    for i, t in _me(sc):
        if not t.elimination:
            yield TermProblem(("tournaments", i, "elimination"), "ME-ELIMINATION",
                              "winners are determined by a process of elimination")


def _validate_player_cap(sc: Scenario) -> Iterator[TermProblem]:
    """ME-PLAYER-CAP: a licensed game gives its player cap (it sets the licence tier); a
    tournament game has at most 150 players, 300 on premises the licensee owns."""
    for loc, t in _games(sc):
        owned = all(o.owns_premises for _, o in _ops_of(sc, t))
        if t.players is None:
            yield TermProblem((*loc, "players"), "ME-PLAYER-CAP",
                              "give the player cap (it sets the licence tier)")
        elif t.type == "tournament-game":
            cap = PLAYER_CAP_OWNED if owned else PLAYER_CAP
            if t.players > cap:
                yield TermProblem((*loc, "players"), "ME-PLAYER-CAP",
                                  f"at most {cap} players"
                                  + ("" if owned else
                                     " (300 only on premises the licensee owns: owns_premises)"))


def _validate_entry_cap(sc: Scenario) -> Iterator[TermProblem]:
    """ME-ENTRY-CAP, 17 M.R.S. § 1836(4): an entry fee of at most $100 per person, one entry
    fee only (no re-entry, rebuy or add-on), and a licence-fee surcharge (USD, all players
    together) within :func:`surcharge_cap`."""
    for loc, t in _games(sc):
        if t.entry_fee > ENTRY_CAP:
            yield TermProblem((*loc, "entry_fee"), "ME-ENTRY-CAP",
                              f"the entry fee may not exceed {usd(ENTRY_CAP)} per person")
        for f in ("reentries", "max_rebuys", "rebuy_fee", "addon_fee"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "ME-ENTRY-CAP",
                                  "only one entry fee per person (no re-entry, rebuy or add-on)")
        most, why = surcharge_cap(sc, t)
        if t.license_surcharge_total > most:
            yield TermProblem((*loc, "license_surcharge_total"), "ME-ENTRY-CAP",
                              f"the licence-fee surcharge may total at most {usd(most)} across "
                              f"all players ({why})")


def _validate_prizes(sc: Scenario) -> Iterator[TermProblem]:
    """ME-PRIZES: at least 75% of the entry fees are paid as prizes (``prize_share``)."""
    for loc, t in _games(sc):
        if t.prize_share is None or t.prize_share < PRIZE_SHARE:
            yield TermProblem((*loc, "prize_share"), "ME-PRIZES",
                              "at least 75% of entry fees must be paid as prizes "
                              "(prize_share >= 0.75)")


def _validate_raffle(sc: Scenario) -> Iterator[TermProblem]:
    """ME-RAFFLE: at most one 50/50 raffle per tournament, its prize at most the cap (USD)."""
    for loc, t in _games(sc):
        if t.raffles > 1 or t.raffle_prize > RAFFLE_PRIZE_CAP:
            yield TermProblem((*loc, "raffles" if t.raffles > 1 else "raffle_prize"), "ME-RAFFLE",
                              f"at most one 50/50 raffle per tournament, prize at most "
                              f"{usd(RAFFLE_PRIZE_CAP)}")


def _validate_high_hand(sc: Scenario) -> Iterator[TermProblem]:
    """ME-HIGH-HAND: at most one high-hand competition per game."""
    for loc, t in _games(sc):
        if t.high_hand_competitions > 1:
            yield TermProblem((*loc, "high_hand_competitions"), "ME-HIGH-HAND",
                              "at most one high-hand competition per game")


def _validate_game_terms(sc: Scenario) -> Iterator[TermProblem]:
    """ME-DURATION: a tournament game is one session completed within 48 hours of its start
    (``days: 1``); super cribbage's 72 hours are ME-SUPER-CRIBBAGE's
    (:func:`_validate_super_cribbage`). A game given as ``sessions`` is completed within 48
    hours of its first session's start (super cribbage 72: ME-SUPER-CRIBBAGE's too)."""
    for loc, t in _games(sc):
        if t.sessions:
            span = _sessions_span(t)
            if t.type != "super-cribbage" and span > _hours_limit(t):
                yield TermProblem((*loc, "sessions"), "ME-DURATION",
                                  f"the sessions run {span:g} hours from the first one's start "
                                  f"to the last one's end; a game must be completed within "
                                  f"{_hours_limit(t)} hours of its start")
            continue
        if t.type != "super-cribbage" and t.hours > MAX_HOURS:
            yield TermProblem((*loc, "hours"), "ME-DURATION",
                              f"a game must be completed within {MAX_HOURS} hours of its start")
        if t.days != 1:
            yield TermProblem((*loc, "days"), "ME-DURATION",
                              "a Maine game is one session of `hours` from start_time (days: 1)")


def _sessions_span(t: Tournament) -> Decimal:
    """Hours from a game's first session's start to its last one's end (``sessions``,
    flights), the hours between sessions counted (wall clock; the check and the model read
    the real elapsed time)."""
    return Decimal(t.sessions[-1].minutes()[1] - t.sessions[0].minutes()[0]) / 60


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


def _validate_cribbage_reg(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _me(sc):
        if t.type != "charitable-cribbage":
            continue
        loc = ("tournaments", i)
        for _, op in _ops_of(sc, t):
            if op.licensed_establishment is None:
                yield TermProblem((*loc, "operators"), "ME-CRIBBAGE-REG",
                                  f"{op.id} must be a licensed restaurant or manufacturer "
                                  "(licensed_establishment)")
        if t.entry_fee > CRIBBAGE_ENTRY_CAP:
            yield TermProblem((*loc, "entry_fee"), "ME-CRIBBAGE-REG",
                              f"the entry fee may not exceed {usd(CRIBBAGE_ENTRY_CAP)}")
        for f in ("reentries", "max_rebuys", "rebuy_fee", "addon_fee", "license_surcharge_total"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "ME-CRIBBAGE-REG",
                                  "no fee may be charged except the entry fee")
        if t.prize_share is None or (t.prize_share + (t.charity_share or 0)) != 1:
            yield TermProblem((*loc, "prize_share"), "ME-CRIBBAGE-REG",
                              "all entry fees are awarded as prizes or donated "
                              "(prize_share + charity_share = 1)")


# ------------------------------------------------------------------ ME-DURATION
def _hours_limit(t: Tournament) -> int:
    return SUPER_CRIBBAGE_HOURS if t.type == "super-cribbage" else MAX_HOURS


def _duration_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return not _licensed(t) or tm.elapsed_hours <= _hours_limit(t)


def _check_duration(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        t = p.tournament
        if _licensed(t):
            # real elapsed time: subtract in UTC (same-zone aware datetimes subtract as wall
            # clocks in Python, which is an hour off across a daylight-saving change)
            h = (p.timing.end.astimezone(dt.UTC) -
                 p.timing.start.astimezone(dt.UTC)).total_seconds() / 3600
            if h > _hours_limit(t):
                yield Violation("ME-DURATION", t.operators[0], (p.ref,), p.first_day.isoformat(),
                                f"{p.ref} lasts {h:g} hours from its start; it must be "
                                f"completed within {_hours_limit(t)}")


ME_DURATION = Rule("ME-DURATION", validate=_validate_game_terms, allows=_duration_ok,
                   check=_check_duration)


# ------------------------------------------------------------------ ME-OTHER-GAMES
def other_game_sessions(op: Operator, start: dt.datetime, end: dt.datetime
                        ) -> list[tuple[dt.datetime, dt.datetime]]:
    """The operator's other gaming sessions that overlap [start, end) (aware datetimes)."""
    out = []
    day = start.date() - dt.timedelta(days=1)
    while day <= end.date():
        for g in op.other_games:
            if WEEKDAYS[day.weekday()] != g.weekday:
                continue
            s = local(day, g.start, op.tz)
            e_day = day + dt.timedelta(days=1) if g.end <= g.start else day
            e = local(e_day, g.end, op.tz)
            if s is None or e is None:
                continue
            if s < end and start < e:
                out.append((s, e))
        day += dt.timedelta(days=1)
    return out


def _no_other_games(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """ME-OTHER-GAMES binds licensed games only: a registered charitable cribbage tournament
    (§ 1836(4-B), ME-CRIBBAGE-REG) is not a licensed tournament game."""
    if not _licensed(t):
        return True
    return not any(other_game_sessions(sc.operator(o), tm.start, tm.end) for o in t.operators)


def _check_other_games(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        if not _licensed(p.tournament):  # registered charitable cribbage: not bound (4-B)
            continue
        for oid in p.tournament.operators:
            op = a.scenario.operator(oid)
            for s, e in other_game_sessions(op, p.timing.start, p.timing.end):
                yield Violation("ME-OTHER-GAMES", oid, (p.ref,), s.date().isoformat(),
                                f"{p.ref} ({p.timing.start:%Y-%m-%d %H:%M}-"
                                f"{p.timing.end:%Y-%m-%d %H:%M}) overlaps {op.name}'s other "
                                f"game session {s:%a %Y-%m-%d %H:%M}-{e:%H:%M}")


ME_OTHER_GAMES = Rule("ME-OTHER-GAMES", allows=_no_other_games, check=_check_other_games)


# ------------------------------------------------------------------ ME-APPLICATION-WINDOW
def earliest_first_day(notice_from: dt.date) -> dt.date:
    """ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: the earliest first day whose application,
    received on ``notice_from`` or later, is on time: at least the 10th Maine business day
    after ``notice_from``, with its ``application_due`` (10th Maine business day before it) on
    or after ``notice_from`` (:func:`scheduler.timing.application_earliest_first_day`)."""
    return application_earliest_first_day(notice_from)


def _application_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """ME-APPLICATION-WINDOW: a licensed game's first day is allowed iff
    :func:`scheduler.timing.application_ok` (or the application is already filed,
    ``filed_dates``)."""
    return (not _licensed(t) or tm.first_day in t.filed_dates
            or tm.first_day >= _earliest_first_day(sc.notice_from))


@lru_cache(maxsize=64)
def _earliest_first_day(notice_from: dt.date) -> dt.date:
    """:func:`application_earliest_first_day`, once per ``notice_from``: the model asks
    :func:`_application_ok` of every candidate day, and :func:`application_ok` is monotone in
    the first day (true exactly from this day on)."""
    return application_earliest_first_day(notice_from)


def _check_application(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        if not _licensed(p.tournament) or p.first_day in p.tournament.filed_dates:
            continue
        if not application_ok(p.first_day, a.scenario.notice_from):
            nf, due = a.scenario.notice_from, application_due(p.first_day)
            why = (f"its licence application had to be received by {due} (10 Maine business "
                   f"days before), before the earliest filing day {nf}" if due < nf else
                   f"it is fewer than 10 Maine business days after the earliest filing day "
                   f"{nf}")
            yield Violation("ME-APPLICATION-WINDOW", p.tournament.operators[0], (p.ref,),
                            p.first_day.isoformat(),
                            f"{p.ref} starts {p.first_day}; {why}; the earliest first day is "
                            f"{earliest_first_day(nf)}")


ME_APPLICATION = Rule("ME-APPLICATION-WINDOW", allows=_application_ok, check=_check_application)


def application_window_text(opens: dt.date, due: dt.date, first_day: dt.date,
                            earliest: dt.date) -> str:
    """ME-APPLICATION-WINDOW, 17 M.R.S. § 1836(4) / Chapter 32 § 4, as a deadline: the
    sentence saying when the licence application for a game starting ``first_day`` must be
    received, between ``opens`` and ``due`` (:func:`scheduler.timing.application_window`);
    ``earliest`` is the day 90 days before (:func:`scheduler.timing.application_opens`),
    noted when the window is shown from the plan's ``notice_from`` instead."""
    text = (f"The application must be received between {day_text(opens)} "
            f"and {day_text(due)}: at most {ME_APPLICATION_MAX_DAYS} days and at least "
            f"{ME_APPLICATION_BUSINESS_DAYS} Maine business days before the first day it "
            f"covers, {day_text(first_day)} ({cite('ME-APPLICATION-WINDOW')}).")
    if opens != earliest:
        text += (f" ({ME_APPLICATION_MAX_DAYS} days before is {day_text(earliest)}, before "
                 f"this plan's notice_from; the window is shown from notice_from.)")
    return text


def report_text(period: str, due: dt.date) -> str:
    """ME-REPORT (16-633 CMR ch. 32 § 8) as a deadline: the sentence saying the
    disposition-of-funds report for ``period`` (words, e.g. "the month ending ...") is due on
    ``due`` (:func:`scheduler.timing.report_due`)."""
    return (f"File the disposition-of-funds report for {period} by {day_text(due)}, "
            f"{ME_REPORT_BUSINESS_DAYS} business days after the period ends, also if the game "
            f"was cancelled ({cite('ME-REPORT')}).")


# ------------------------------------------------------------------ ME-MONTHLY-LIMIT
def counted_months(sc: Scenario, tm: Timing) -> tuple[tuple[int, int], ...]:
    """ME-MONTHLY-LIMIT: the months a game counts in (``month_rule``: every month it touches,
    or only its starting month)."""
    if sc.settings.month_rule == "start":
        return ((tm.first_day.year, tm.first_day.month),)
    return tm.months


def _encode_monthly(ctx: ModelContext) -> None:
    """Per organization and calendar month: at most 2 licensed games counted in it."""
    for op in ctx.scenario.operators:
        if op.jurisdiction != "ME":
            continue
        items = [(c, v) for c, v in ctx.of_operator(op.id) if _licensed(c.tournament)]
        for ym, lits in sum_by(items,
                               lambda c: list(counted_months(ctx.scenario, c.timing))).items():
            if len(lits) > MONTHLY_LIMIT:
                y, mo = cast(tuple[int, int], ym)
                ctx.model.add(sum(lits) <= MONTHLY_LIMIT).with_name(
                    f"ME-MONTHLY-LIMIT: {op.id} conducts at most {MONTHLY_LIMIT} games in "
                    f"{y}-{mo:02d} (month_rule: {ctx.scenario.settings.month_rule})")


def _check_monthly(a: Audit) -> Iterator[Violation]:
    for op in a.scenario.operators:
        if op.jurisdiction != "ME":
            continue
        per_month: dict[tuple[int, int], list[Occurrence]] = defaultdict(list)
        for p in a.of_operator(op):
            if _licensed(p.tournament):
                days = p.timing.days
                months = ({(days[0].year, days[0].month)}
                          if a.scenario.settings.month_rule == "start"
                          else {(d.year, d.month) for d in days})
                for ym in months:
                    per_month[ym].append(p)
        for ym in sorted(per_month):
            ps = sorted(per_month[ym], key=lambda p: (p.first_day, p.ref))
            if len(ps) > MONTHLY_LIMIT:
                refs = tuple(p.ref for p in ps)
                yield Violation("ME-MONTHLY-LIMIT", op.id, refs, f"{ym[0]}-{ym[1]:02d}",
                                f"{op.name} would conduct {len(ps)} tournament games in "
                                f"{ym[0]}-{ym[1]:02d} ({', '.join(refs)}); at most "
                                f"{MONTHLY_LIMIT} a month (month_rule: "
                                f"{a.scenario.settings.month_rule})")


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
    ``settings.month_rule``) of 2; ``held`` 0 (no game held before the plan is counted)."""
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
            yield Usage("ME-MONTHLY-LIMIT", op.id, f"{y:04d}-{m:02d}", dt.date(y, m, 1),
                        month_end(y, m), per_month[(y, m)], MONTHLY_LIMIT)


ME_MONTHLY = Rule("ME-MONTHLY-LIMIT", encode=_encode_monthly, check=_check_monthly,
                  certificate=_certify_monthly, usage=_monthly_usage)


# ------------------------------------------------------------------ ME-SUPER-CRIBBAGE
def super_cribbage_left(sc: Scenario, year: int) -> int:
    """ME-SUPER-CRIBBAGE: licences of calendar ``year`` left for this scenario: 15 less those
    issued statewide to organizations outside it (``settings.super_cribbage_licenses_issued``),
    never below 0."""
    return max(0, SUPER_CRIBBAGE_LIMIT
               - sc.settings.super_cribbage_licenses_issued.get(year, 0))


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
                         actuals=_held_super_cribbage, usage=_super_cribbage_usage)


# ------------------------------------------------------------------ on what was held
def _held_prizes(a: Actuals) -> Iterator[Violation]:
    """ME-PRIZES on what was held (17 M.R.S. § 1836(5)): a licensed Maine game (tournament
    game, super cribbage) paid at least 75 % of its entry fees as prizes:
    ``prizes_usd >= 0.75 * entry_fees_usd`` exactly, in cents (74.99 % is under). Figures
    not recorded: not judged."""
    for x in a.held:
        if (x.type not in ("tournament-game", "super-cribbage") or x.entry_fees_usd is None
                or x.prizes_usd is None):
            continue
        if x.prizes_usd < PRIZE_SHARE * x.entry_fees_usd:
            share = (x.prizes_usd / x.entry_fees_usd * 100).quantize(Decimal("0.01"))
            yield Violation("ME-PRIZES", x.operator_id, (x.ref,),
                            day_span(x.first_day, x.last_day),
                            f"{x.ref} paid {usd(x.prizes_usd)} in prizes of "
                            f"{usd(x.entry_fees_usd)} entry fees ({share}%); at least 75% "
                            f"({usd(PRIZE_SHARE * x.entry_fees_usd)}) must be paid as prizes")


def _held_cribbage_reg(a: Actuals) -> Iterator[Violation]:
    """ME-CRIBBAGE-REG on what was held (17 M.R.S. § 1836(4-B)): a charitable cribbage
    tournament awarded all its entry fees as prizes or donated them:
    ``prizes_usd + charity_usd >= entry_fees_usd``. Figures not recorded: not judged."""
    for x in a.held:
        if (x.type != "charitable-cribbage" or x.entry_fees_usd is None
                or x.prizes_usd is None or x.charity_usd is None):
            continue
        if x.prizes_usd + x.charity_usd < x.entry_fees_usd:
            kept = x.entry_fees_usd - x.prizes_usd - x.charity_usd
            yield Violation("ME-CRIBBAGE-REG", x.operator_id, (x.ref,),
                            day_span(x.first_day, x.last_day),
                            f"{x.ref} took {usd(x.entry_fees_usd)} in entry fees and paid "
                            f"{usd(x.prizes_usd)} in prizes and {usd(x.charity_usd)} to "
                            f"charity: {usd(kept)} was neither awarded nor donated")


def _held_report(a: Actuals) -> Iterator[Violation]:
    """ME-REPORT (16-633 CMR ch. 32 § 8): every disposition-of-funds report owed
    (:class:`~constraints.base.ReportOwed`, its due day from
    :func:`scheduler.timing.report_due`) filed on or before its due day; one not filed is
    late once its due day is before ``as_of``."""
    for r in a.reports:
        if r.filed_on is None and r.due < a.as_of:
            yield Violation("ME-REPORT", r.operator_id, (), r.period_end.isoformat(),
                            f"licence {r.license_id}: the disposition-of-funds report for "
                            f"the licensed period ending {r.period_end} was due {r.due} and "
                            f"is not filed (as of {a.as_of})")
        elif r.filed_on is not None and r.filed_on > r.due:
            yield Violation("ME-REPORT", r.operator_id, (), r.period_end.isoformat(),
                            f"licence {r.license_id}: the disposition-of-funds report for "
                            f"the licensed period ending {r.period_end} was filed "
                            f"{r.filed_on}, after it was due ({r.due})")


# ------------------------------------------------------------------ ME-FEES
def monthly_never_cheaper() -> bool:
    """ME-FEES: whether, for every mix of at most ``MONTHLY_LIMIT`` games a month that a
    monthly licence of some tier could cover, the per-tournament licences cost no more."""
    for tier in (0, 1):
        covered = [k for k in (0, 1) if k <= tier]  # the widest reading: tier_coverage up
        for a in covered:
            for b in [*covered, None]:
                per = PER_TOURNAMENT_FEE[a] + (PER_TOURNAMENT_FEE[b] if b is not None else 0)
                if per >= MONTHLY_FEE[tier]:
                    return False
    return MONTHLY_LIMIT == 2


def _encode_fees(ctx: ModelContext) -> None:
    """Every tournament game is covered by a per-tournament licence of its tier (exactly that
    game, valid over its days) or by an annual licence (12 months from a game's first day) of
    a covering tier (``tier_coverage``) that is valid on every day the game is conducted
    (``Timing.days``): a game starting on the annual licence's last day and running past
    midnight is not covered by it. Over 100 players: per-tournament only.

    Monthly licences are left out because they never cost less: a monthly licence covers only
    games conducted wholly within its calendar month, ME-MONTHLY-LIMIT allows at most 2 of
    those, and 2 per-tournament licences cost at most
    2 x $40 = $80 < $100 (1-50) or 2 x $75 = $150 < $200 (51-100), and $40 + $75 = $115 < $200
    when a 51-100 monthly licence would cover one game of each tier (see
    :func:`monthly_never_cheaper`)."""
    sc = ctx.scenario
    m = ctx.model
    cov = sc.settings.tier_coverage
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        games = [(c, v) for c, v in ctx.of_operator(op.id)
                 if c.tournament.type == "tournament-game"]
        if not games:
            continue
        # annual[tier]: (start days sorted, prefix counts); an annual licence starts on the first
        # day of a game it covers (a later start never costs more). prefix[k] counts the
        # licences bought among the first k start days, so the licences starting in a range
        # of days are prefix[j] - prefix[i]: each game's cover is a 3-term sum, not a sum over
        # the 365 possible starts of the year before it.
        annual: dict[int, tuple[list[dt.date], list[cp_model.LinearExpr]]] = {}
        for tier in (0, 1):
            on_day: dict[dt.date, list[cp_model.IntVar]] = defaultdict(list)
            span = 0  # the most calendar days after its first day a game of the tier runs into
            for c, v in games:
                if tier in covering_tiers(c.tournament.players or 1, cov):
                    on_day[c.first_day].append(v)
                    span = max(span, (c.timing.last_day - c.first_day).days)
            days = sorted(on_day)
            lits = []
            for d in days:
                var = m.new_bool_var(f"me-annual[{op.id},{TIERS[tier]},{d}]")
                lits.append(var)
                end = annual_end(d)
                ctx.add_license(LicenseOption(
                    var, op.id, "ME", "me-annual", TIERS[tier], d, end,
                    ANNUAL_FEE[tier], rank=3 + tier,
                    covers=covers_period(("tournament-game",), d, end,
                                         partial(_tier_covers, tier, cov))))
                # Symmetry breaking (cuts only plans that cost more or the same): bought only
                # when a game it covers starts that day, and a second annual licence of one
                # tier starts only after annual_end(first) - span: the games the second covers
                # and the first does not end after annual_end(first), so they start after
                # annual_end(first) - span, and the second can start on the first of them
                # (a game starting on the first licence's last day and running past midnight
                # needs the second). Licences of different tiers may overlap.
                m.add(sum(on_day[d]) >= var)
            prefix: list[cp_model.LinearExpr] = [cp_model.LinearExpr.constant(0)]
            for k, var in enumerate(lits):
                total = m.new_int_var(0, k + 1, f"me-annual-bought[{op.id},{TIERS[tier]},{k}]")
                m.add(total == prefix[-1] + var)
                prefix.append(total)
            for i, d in enumerate(days):
                j = bisect_right(days, annual_end(d) - dt.timedelta(days=span))
                if j - i > 1:
                    m.add(prefix[j] - prefix[i] <= 1)
            annual[tier] = (days, prefix)
        for c, v in games:
            t = c.tournament
            ti = tier_index(t.players or 1)
            per = m.new_bool_var(f"me-per-tournament[{t.id},{c.first_day}]")
            m.add_implication(per, v)
            ctx.add_license(LicenseOption(
                per, op.id, "ME", "me-per-tournament", TIERS[ti], c.first_day,
                c.timing.last_day, PER_TOURNAMENT_FEE[ti], rank=0,
                covers=covers_occurrence(t.id, c.first_day)))
            cover: cp_model.LinearExpr = cp_model.LinearExpr.sum([per])
            for k in covering_tiers(t.players or 1, cov):
                days, prefix = annual[k]
                # starts a with a <= first day and last day <= annual_end(a): the licence is
                # valid on every day the game is conducted (annual_end never decreases in a)
                lo = bisect_left(days, c.timing.last_day - dt.timedelta(days=366))
                while lo < len(days) and annual_end(days[lo]) < c.timing.last_day:
                    lo += 1
                hi = bisect_right(days, c.first_day)
                if hi > lo:
                    cover = cover + prefix[hi] - prefix[lo]
            m.add(cover >= v)


LICENCE_KINDS = ("me-per-tournament", "me-monthly", "me-annual", "me-super-cribbage")
"""ME-FEES, ME-SUPER-CRIBBAGE: the Maine licences.csv ``kind`` values."""


def statute_fee(kind: str, tier: str) -> int | None:
    """ME-FEES, 17 M.R.S. § 1836(3-A), (4-A): the fee (USD) of a licence of ``kind`` and
    ``tier`` (a :data:`TIERS` label); None when no such licence exists (e.g. an annual licence
    over 100 players)."""
    if kind == "me-super-cribbage":
        return SUPER_CRIBBAGE_FEE
    if tier not in TIERS:
        return None
    k = TIERS.index(tier)
    if kind == "me-per-tournament":
        return PER_TOURNAMENT_FEE[k]
    if kind in ("me-monthly", "me-annual") and k < 2:
        return (MONTHLY_FEE if kind == "me-monthly" else ANNUAL_FEE)[k]
    return None



def _label(kind: str) -> str:
    return {"me-per-tournament": "per-tournament licence", "me-monthly": "monthly licence",
            "me-annual": "annual licence",
            "me-super-cribbage": "super cribbage licence"}.get(kind, kind)


def _statutory_end(lic: License) -> dt.date:
    """The last day a Maine licence row covers: its ``valid_to``, but never past what the
    statute gives its kind (annual: 12 months from its first day; monthly: the end of its
    calendar month); a row valid longer covers no more."""
    if lic.kind == "me-annual":
        return min(lic.valid_to, annual_end(lic.valid_from))
    if lic.kind == "me-monthly":
        return min(lic.valid_to, month_end(lic.valid_from.year, lic.valid_from.month))
    return lic.valid_to


def _within(p: Occurrence, lic: License) -> bool:
    """ME-FEES: every day ``p`` is conducted (``Timing.days``) lies in the licence's validity."""
    return all(lic.valid_from <= d <= _statutory_end(lic) for d in p.timing.days)



def _licence_rows(a: Audit) -> Iterator[License]:
    """The licences.csv rows Maine answers for (every row Montana does not), of the
    operators the schedule covers."""
    for lic in a.licenses:
        if not (lic.jurisdiction == "MT" or lic.kind.startswith("mt-")) and (
                a.operators is None or lic.operator_id in a.operators):
            yield lic


def _a(label: str) -> str:
    """``label`` with its indefinite article ("an annual licence", "a monthly licence")."""
    return f"{'an' if label[:1] in 'aeiou' else 'a'} {label}"


def _check_licence_rows(a: Audit) -> Iterator[Violation]:
    """Each Maine row of licenses.csv against 17 M.R.S. § 1836(3-A), (4-A): a known kind of a
    Maine operator; a tier that exists for the kind and fits every game it lists (player cap,
    ``tier_coverage``); the statute's fee for kind and tier; the statute's validity (annual:
    12 months from its first day; monthly: one calendar month; per-tournament and super
    cribbage: exactly one game, valid over that game's days); every game it lists conducted
    wholly within its validity."""
    sc = a.scenario
    cov = sc.settings.tier_coverage
    ops = {o.id: o for o in sc.operators}
    placed = {p.ref: p for p in a.placed}
    for lic in _licence_rows(a):
        oid, kind, tier, refs = lic.operator_id, lic.kind, lic.tier, lic.covers
        bad = partial(licence_row_violation, "ME-FEES", lic)

        op = ops.get(oid)
        if op is None or op.jurisdiction != "ME":
            yield bad(f"operator {oid!r} is not a Maine organization of the scenario; a "
                      "tournament game licence is issued to a Maine organization "
                      "(17 M.R.S. § 1836(3-A))")
            continue
        if kind not in LICENCE_KINDS:
            yield bad(f"kind {kind!r} is not a Maine licence (me-per-tournament, me-monthly, "
                      "me-annual: 17 M.R.S. § 1836(3-A); me-super-cribbage: § 1836(4-A))")
            continue
        label = _label(kind)
        one_game = kind in ("me-per-tournament", "me-super-cribbage")
        cite = "17 M.R.S. § 1836(4-A)" if kind == "me-super-cribbage" else \
            "17 M.R.S. § 1836(3-A)"
        fee = statute_fee(kind, tier)
        if kind != "me-super-cribbage" and fee is None:
            tiers = TIERS if kind == "me-per-tournament" else TIERS[:2]
            yield bad(f"tier {tier!r} does not exist for {_a(label)} ({', '.join(tiers)} "
                      f"players; {cite})")
        elif fee is not None and lic.fee_usd != fee:
            yield bad(f"{_a(label)}" + ("" if kind == "me-super-cribbage" else f" of tier {tier}")
                      + f" costs {usd(fee)} ({cite}); it is listed at {usd(lic.fee_usd)}")
        # validity length
        if kind == "me-annual" and lic.valid_to != annual_end(lic.valid_from):
            yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; an annual licence is "
                      f"valid 12 months from its first day, {lic.valid_from}.."
                      f"{annual_end(lic.valid_from)} ({cite}: $750 / $1,500)")
        if kind == "me-monthly":
            first = lic.valid_from.replace(day=1)
            last = month_end(first.year, first.month)
            if (lic.valid_from, lic.valid_to) != (first, last):
                yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; a monthly licence "
                          f"is valid for one calendar month, e.g. {first}..{last} "
                          f"({cite}: $100 / $200)")
        if one_game and len(refs) != 1:
            yield bad(f"{_a(label)} covers exactly one game ({cite}: "
                      + ("$75 each" if kind == "me-super-cribbage" else "$40 to $600 each")
                      + f"); it lists {len(refs)}"
                      + (f": {', '.join(refs[:5])}{', ...' if len(refs) > 5 else ''}"
                         if refs else ""))
        for ref in refs:
            p = placed.get(ref)
            if p is None:
                continue  # a licence bought for a game not held: not unlawful
            t = p.tournament
            days = day_span(p.first_day, p.timing.last_day)
            want = "super-cribbage" if kind == "me-super-cribbage" else "tournament-game"
            if t.type != want:
                yield bad(f"it lists {ref}, a {t.type}; {_a(label)} covers a {want} "
                          f"({cite})", (ref,))
                continue
            players = t.players or 1
            own = TIERS[tier_index(players)]
            if kind == "me-per-tournament" and tier in TIERS and tier != own:
                yield bad(f"it lists {ref} ({players} players, tier {own}); a per-tournament "
                          f"licence is of its game's tier ({cite}: {own} "
                          f"{usd(PER_TOURNAMENT_FEE[TIERS.index(own)])})", (ref,))
            elif (kind in ("me-monthly", "me-annual") and tier in TIERS[:2]
                  and TIERS.index(tier) not in covering_tiers(players, cov)):
                yield bad(f"it lists {ref} ({players} players, tier {own}); a {tier} {label} "
                          f"does not cover it (tier_coverage: {cov}; {cite})", (ref,))
            if one_game and len(refs) == 1 and (lic.valid_from, lic.valid_to) != (
                    p.first_day, p.timing.last_day):
                yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; {_a(label)} is valid "
                          f"over its one game's days, {days} ({cite})", (ref,))
            elif not one_game and not all(lic.valid_from <= x <= lic.valid_to
                                          for x in p.timing.days):
                yield bad(f"it lists {ref}, conducted {days}, but is valid only "
                          f"{day_span(lic.valid_from, lic.valid_to)}: a licence covers a "
                          f"game only if every day the game is conducted lies within its "
                          f"validity ({cite})", (ref,))


def _check_fees(a: Audit) -> Iterator[Violation]:
    """Each Maine licences.csv row (:func:`_check_licence_rows`), then every licensed game:
    covered on every day it is conducted by a licence of a kind and tier that covers it. A
    per-tournament (or super cribbage) licence covers one game only: one that lists the game's
    tournament (matched by date, not by number) and is valid on its days; each such licence
    is used for one game."""
    yield from _check_licence_rows(a)
    cov = a.scenario.settings.tier_coverage
    used: set[int] = set()
    games = sorted((p for p in a.placed
                    if p.tournament.is_me_licensed_game),
                   key=lambda p: (p.first_day, p.ref))
    for p in games:
        t = p.tournament
        players = t.players or 1
        ti = tier_index(players)
        ok = False
        single: list[tuple[bool, int]] = []  # (lists this very ref, licence index)
        for i, lic in enumerate(a.licenses):
            if lic.operator_id != t.operators[0] or not _within(p, lic):
                continue
            if lic.kind in ("me-super-cribbage", "me-per-tournament"):
                if (lic.kind == ("me-super-cribbage" if t.type == "super-cribbage"
                                 else "me-per-tournament")
                        and (t.type == "super-cribbage" or lic.tier == TIERS[ti])
                        and i not in used
                        and any(ref.split("#")[0] == t.id for ref in lic.covers)):
                    single.append((p.ref not in lic.covers, i))
            elif (t.type == "tournament-game" and lic.kind in ("me-monthly", "me-annual")
                  and lic.tier in TIERS[:2]):
                ok |= TIERS.index(lic.tier) in covering_tiers(players, cov)
        if not ok and single:
            used.add(min(single)[1])
            ok = True
        if not ok:
            what = ("a super cribbage licence of its own ($75, 17 M.R.S. § 1836(4-A))"
                    if t.type == "super-cribbage" else "a licence of its tier")
            yield Violation("ME-FEES", t.operators[0], (p.ref,), p.first_day.isoformat(),
                            f"{p.ref} on {day_span(p.first_day, p.timing.last_day)} ({players} "
                            f"players) is not covered by {what} on every day it is conducted "
                            f"(tier_coverage: {cov})")


ME_FEES = Rule("ME-FEES", encode=_encode_fees, check=_check_fees)


def per_tournament_usd(sc: Scenario, covers: tuple[str, ...]) -> int:
    """ME-FEES, 17 M.R.S. § 1836(3-A): what per-tournament licences would cost for the
    occurrences ``covers``, each at :data:`PER_TOURNAMENT_FEE` of its game's own tier
    (:func:`tier_index` of its ``players``; a game without a cap as tier 1-50).

    Parameters
    ----------
    sc : Scenario
        The scenario the occurrences' tournaments belong to.
    covers : tuple of str
        Occurrences ``tournament_id#k``, e.g. an annual licence's
        :attr:`constraints.base.License.covers`.

    Returns
    -------
    int
        USD, the sum over ``covers`` (0 for none).

    Raises
    ------
    KeyError
        For a tournament id not in ``sc``.
    ValueError
        For a player cap over every tier (over 300).
    """
    return sum(PER_TOURNAMENT_FEE[tier_index(sc.tournament(ref.split("#")[0]).players or 1)]
               for ref in covers)

# ------------------------------------------------------------------ checklist (list kind)
def _licensed_game(sc: Scenario, t: Tournament) -> bool:
    # charitable cribbage (ME-CRIBBAGE-REG): registration, no licensed-game duties
    return sc.jurisdiction_of(t) == "ME" and t.is_me_licensed_game


# obligations the scheduler cannot enforce, printed with every licensed Maine game, in this
# order
CHECKLIST = [
    Rule("ME-NO-CURRENCY", checklist=duty(
        "ME-NO-CURRENCY", "No currency may be used in tournament play", _licensed_game)),
    Rule("ME-DISPLAY", checklist=duty(
        "ME-DISPLAY", "Display the rules of the tournament game and the licence issued for it "
        "at the game", _licensed_game)),
    Rule("ME-PAYMENT", checklist=duty(
        "ME-PAYMENT", "Pay every prize (including high-hand prizes) in cash or by check",
        _licensed_game)),
    Rule("ME-REPORT", checklist=duty(
        "ME-REPORT", f"File the disposition-of-funds report within {ME_REPORT_BUSINESS_DAYS} "
        "business days after the licensed period (after each calendar month under an annual "
        "licence), also if the game is cancelled", _licensed_game), actuals=_held_report),
]

RULES = [
    Rule("ME-LOCAL-APPROVAL", validate=_validate_local_approval),
    Rule("ME-BENEFICIARY", validate=_validate_beneficiary),
    Rule("ME-ELIGIBLE", validate=_validate_organization),
    Rule("ME-CRIBBAGE-REG", validate=_validate_cribbage_reg, actuals=_held_cribbage_reg),
    Rule("ME-ELIMINATION", validate=_validate_elimination),
    Rule("ME-PLAYER-CAP", validate=_validate_player_cap),
    Rule("ME-ENTRY-CAP", validate=_validate_entry_cap),
    Rule("ME-PRIZES", validate=_validate_prizes, actuals=_held_prizes),
    Rule("ME-RAFFLE", validate=_validate_raffle),
    Rule("ME-HIGH-HAND", validate=_validate_high_hand),
    ME_DURATION,
    ME_OTHER_GAMES,
    ME_APPLICATION,
    ME_MONTHLY,
    ME_SUPER_CRIBBAGE,
    ME_FEES,
    *CHECKLIST,
]
