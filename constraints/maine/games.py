"""Maine, a licensed game's terms: ME-ELIMINATION, ME-PLAYER-CAP, ME-ENTRY-CAP,
ME-RAFFLE, ME-HIGH-HAND, ME-DURATION (the 48 hours) and ME-OTHER-GAMES (17 M.R.S. § 1836(4)).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from decimal import Decimal

from constraints.base import Actuals, Audit, Rule, Violation, per_person_over, unrecorded, usd
from constraints.maine.terms import (
    ENTRY_CAP,
    MAX_HOURS,
    PER_TOURNAMENT_FEE,
    PLAYER_CAP,
    PLAYER_CAP_OWNED,
    RAFFLE_PRIZE_CAP,
    SUPER_CRIBBAGE_FEE,
    SUPER_CRIBBAGE_HOURS,
    SURCHARGE_CAP,
    TIER_MAX,
    TIERS,
    games,
    licensed,
    me,
    ops_of,
    sessions_span,
    tier_index,
)
from scheduler.core.fields import WEEKDAYS
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.timing import Timing, local

# ------------------------------------------------------------------ ME-ELIMINATION


def _validate_elimination(sc: Scenario) -> Iterator[TermProblem]:
    """ME-ELIMINATION: winners are determined by a process of elimination (every Maine
    tournament, charitable cribbage too)."""
    for i, t in me(sc):
        if not t.elimination:
            yield TermProblem(("tournaments", i, "elimination"), "ME-ELIMINATION",
                              "winners are determined by a process of elimination")


ME_ELIMINATION = Rule("ME-ELIMINATION", validate=_validate_elimination)


# ------------------------------------------------------------------ ME-PLAYER-CAP


def _validate_player_cap(sc: Scenario) -> Iterator[TermProblem]:
    """ME-PLAYER-CAP: a licensed game gives its player cap (it sets the licence tier); a
    tournament game has at most 150 players, 300 on premises the licensee owns."""
    for loc, t in games(sc):
        owned = all(o.owns_premises for _, o in ops_of(sc, t))
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


def _owned(sc: Scenario, oid: str) -> bool:
    """Whether operator ``oid`` of ``sc`` owns its premises (``owns_premises``; an operator
    the scenario does not have: no)."""
    return any(o.id == oid and o.owns_premises for o in sc.operators)


def _held_player_cap(a: Actuals) -> Iterator[Violation]:
    """ME-PLAYER-CAP on what was held (17 M.R.S. § 1836(4)): a tournament game was played by
    at most 100 players (unique persons, ``players``), 300 on premises the licensee owns
    (``owns_premises``). Super cribbage's 30 to 300 are ME-SUPER-CRIBBAGE's. ``players``
    not recorded: a note."""
    for x in a.held:
        if x.type != "tournament-game":
            continue
        if x.players is None:
            yield unrecorded("ME-PLAYER-CAP", x, ["players (--players)"], "the player cap")
            continue
        owned = _owned(a.scenario, x.operator_id)
        cap = PLAYER_CAP_OWNED if owned else PLAYER_CAP
        if x.players > cap:
            yield Violation("ME-PLAYER-CAP", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was played by {x.players} players; at most {cap}"
                            + ("" if owned else " (300 only on premises the licensee owns: "
                               "owns_premises)"))


ME_PLAYER_CAP = Rule("ME-PLAYER-CAP", validate=_validate_player_cap, actuals=_held_player_cap)


# ------------------------------------------------------------------ ME-ENTRY-CAP


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


def _validate_entry_cap(sc: Scenario) -> Iterator[TermProblem]:
    """ME-ENTRY-CAP, 17 M.R.S. § 1836(4): an entry fee of at most $100 per person, one entry
    fee only (no re-entry, rebuy or add-on), and a licence-fee surcharge (USD, all players
    together) within :func:`surcharge_cap`."""
    for loc, t in games(sc):
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


def _held_entry_cap(a: Actuals) -> Iterator[Violation]:
    """ME-ENTRY-CAP on what was held (17 M.R.S. § 1836(4)), for a licensed game (tournament
    game, super cribbage):

    - one entry per person: as many entries as players (``entries == players``; more is a
      re-entry, fewer a player who paid no entry fee);
    - at most $100 an entry: ``entry_fees_usd <= 100 * entries`` (players when entries are
      not recorded), exactly, in cents;
    - the licence-fee surcharge collected from all players together (``surcharge_usd``)
      within :func:`surcharge_cap` of the scenario's tournament ($125 under
      ``surcharge_cap: flat``, or when the scenario does not have it).

    A figure not recorded: a note."""
    sc = a.scenario
    known = {t.id: t for t in sc.tournaments}
    for x in a.held:
        if x.type not in ("tournament-game", "super-cribbage"):
            continue
        if x.players is not None and x.entries is not None and x.entries != x.players:
            why = ("a re-entry" if x.entries > x.players
                   else "a player without an entry fee")
            yield Violation("ME-ENTRY-CAP", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} sold {x.entries} entries to {x.players} players "
                            f"({why}); one entry per person (no re-entry, rebuy or add-on)")
        per = x.entries if x.entries is not None else x.players
        if x.entry_fees_usd is not None and per is not None:
            v = per_person_over(x, ENTRY_CAP, per,
                                "entries" if x.entries is not None else "players",
                                "ME-ENTRY-CAP", f"the entry fee is at most {usd(ENTRY_CAP)} "
                                "per person")
            if v is not None:
                yield v
        if x.surcharge_usd is not None:
            t = known.get(x.tournament_id)
            most, why = (surcharge_cap(sc, t) if t is not None
                         else (SURCHARGE_CAP, "the statute's $125"))
            if x.surcharge_usd > most:
                yield Violation("ME-ENTRY-CAP", x.operator_id, (x.ref,), x.dates,
                                f"{x.ref} collected a licence-fee surcharge of "
                                f"{usd(x.surcharge_usd)} from its players; at most "
                                f"{usd(most)} across all players ({why})")
        missing = [m for m, v in (("players (--players)", x.players),
                                  ("entries (--entries)", x.entries),
                                  ("entry fees (--entry-fees)", x.entry_fees_usd),
                                  ("the surcharge collected (--surcharge)", x.surcharge_usd))
                   if v is None]
        if missing:
            yield unrecorded("ME-ENTRY-CAP", x, missing,
                             "one entry per person, the entry fee and the surcharge")


ME_ENTRY_CAP = Rule("ME-ENTRY-CAP", validate=_validate_entry_cap, actuals=_held_entry_cap)


# ------------------------------------------------------------------ ME-RAFFLE


def _validate_raffle(sc: Scenario) -> Iterator[TermProblem]:
    """ME-RAFFLE: at most one 50/50 raffle per tournament, its prize at most the cap (USD)."""
    for loc, t in games(sc):
        if t.raffles > 1 or t.raffle_prize > RAFFLE_PRIZE_CAP:
            yield TermProblem((*loc, "raffles" if t.raffles > 1 else "raffle_prize"), "ME-RAFFLE",
                              f"at most one 50/50 raffle per tournament, prize at most "
                              f"{usd(RAFFLE_PRIZE_CAP)}")


ME_RAFFLE = Rule("ME-RAFFLE", validate=_validate_raffle)


# ------------------------------------------------------------------ ME-HIGH-HAND


def _validate_high_hand(sc: Scenario) -> Iterator[TermProblem]:
    """ME-HIGH-HAND: at most one high-hand competition per game."""
    for loc, t in games(sc):
        if t.high_hand_competitions > 1:
            yield TermProblem((*loc, "high_hand_competitions"), "ME-HIGH-HAND",
                              "at most one high-hand competition per game")


ME_HIGH_HAND = Rule("ME-HIGH-HAND", validate=_validate_high_hand)


# ------------------------------------------------------------------ ME-DURATION
def _hours_limit(t: Tournament) -> int:
    return SUPER_CRIBBAGE_HOURS if t.type == "super-cribbage" else MAX_HOURS


def _validate_game_terms(sc: Scenario) -> Iterator[TermProblem]:
    """ME-DURATION: a tournament game is one session completed within 48 hours of its start
    (``days: 1``); super cribbage's 72 hours are ME-SUPER-CRIBBAGE's
    (:func:`_validate_super_cribbage`). A game given as ``sessions`` is completed within 48
    hours of its first session's start (super cribbage 72: ME-SUPER-CRIBBAGE's too)."""
    for loc, t in games(sc):
        if t.sessions:
            span = sessions_span(t)
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


def _duration_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    return not licensed(t) or tm.elapsed_hours <= _hours_limit(t)


def _check_duration(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        t = p.tournament
        if licensed(t):
            # real elapsed time: subtract in UTC (same-zone aware datetimes subtract as wall
            # clocks in Python, which is an hour off across a daylight-saving change)
            h = (p.timing.end.astimezone(dt.UTC) -
                 p.timing.start.astimezone(dt.UTC)).total_seconds() / 3600
            if h > _hours_limit(t):
                yield Violation("ME-DURATION", t.operators[0], (p.ref,), p.first_day.isoformat(),
                                f"{p.ref} lasts {h:g} hours from its start; it must be "
                                f"completed within {_hours_limit(t)}")


def _held_duration(a: Actuals) -> Iterator[Violation]:
    """ME-DURATION on what was held (17 M.R.S. § 1836(4)), on its actual days (the ledger
    records no clock times): a licensed game whose first and last day are N days apart ran
    more than (N - 1) × 24 hours (from some time of its first day to past midnight of its
    last), so one N ≥ 3 days apart broke the 48 hours (super cribbage: N ≥ 4, 72 hours).
    Fewer days apart: within the hours or not, the days cannot tell; the plan's own times
    are judged by ``tourney check`` on the schedule."""
    for x in a.held:
        if x.type not in ("tournament-game", "super-cribbage"):
            continue
        limit = SUPER_CRIBBAGE_HOURS if x.type == "super-cribbage" else MAX_HOURS
        apart = (x.last_day - x.first_day).days
        if (apart - 1) * 24 >= limit:
            yield Violation("ME-DURATION", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held on {apart + 1} calendar days ({x.dates}): more "
                            f"than {(apart - 1) * 24} hours from its start; a game is "
                            f"completed within {limit} hours")


def _duration_ok_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_duration_ok` of each of ``tms`` (ME-DURATION), in one pass."""
    if not licensed(t):
        return [True] * len(tms)
    limit = _hours_limit(t)
    return [tm.elapsed_hours <= limit for tm in tms]


ME_DURATION = Rule("ME-DURATION", validate=_validate_game_terms, allows=_duration_ok,
                   check=_check_duration, actuals=_held_duration,
                   allows_many=_duration_ok_many)


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
    if not licensed(t):
        return True
    return not any(other_game_sessions(sc.operator(o), tm.start, tm.end) for o in t.operators)


def _check_other_games(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        if not licensed(p.tournament):  # registered charitable cribbage: not bound (4-B)
            continue
        for oid in p.tournament.operators:
            op = a.scenario.operator(oid)
            for s, e in other_game_sessions(op, p.timing.start, p.timing.end):
                yield Violation("ME-OTHER-GAMES", oid, (p.ref,), s.date().isoformat(),
                                f"{p.ref} ({p.timing.start:%Y-%m-%d %H:%M}-"
                                f"{p.timing.end:%Y-%m-%d %H:%M}) overlaps {op.name}'s other "
                                f"game session {s:%a %Y-%m-%d %H:%M}-{e:%H:%M}")


def _no_other_games_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_no_other_games` of each of ``tms`` (ME-OTHER-GAMES), in one pass: nothing to
    ask when no operator of ``t`` has other games."""
    if not licensed(t) or not any(sc.operator(o).other_games for o in t.operators):
        return [True] * len(tms)
    return [_no_other_games(sc, t, tm) for tm in tms]


ME_OTHER_GAMES = Rule("ME-OTHER-GAMES", allows=_no_other_games, check=_check_other_games,
                      allows_many=_no_other_games_many)
