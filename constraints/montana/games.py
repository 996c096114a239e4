"""Montana, a tournament's terms: MT-ENTRY-CAP (MCA 23-5-317(1)(g)), MT-SATELLITE,
MT-CHARITY-SHARE (23-5-317(8)), MT-NO-RAKE, MT-DURATION (23-5-317(1)(c)) and MT-PLAY-HOURS
(ARM 23.16.1101).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from decimal import ROUND_UP, Decimal
from functools import lru_cache
from zoneinfo import ZoneInfo

from constraints.base import (
    Actuals,
    Audit,
    Rule,
    Violation,
    per_person_over,
    sessions_of,
    share_text,
    unrecorded,
    usd,
)
from constraints.montana.terms import (
    CHARITY_SHARE,
    ENTRY_CAP,
    MAX_DAYS,
    MT_TYPES,
    NO_PLAY_FROM,
    NO_PLAY_UNTIL,
    calendar_days,
    mins,
    mt,
)
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import Timing, tournament_tz

# ------------------------------------------------------------------ MT-ENTRY-CAP


def most_paid(t: Tournament, reentries_count: bool) -> Decimal:
    """MT-ENTRY-CAP: the most one participant can pay (USD)."""
    entries = 1 + (t.reentries if reentries_count else 0)
    return t.entry_fee * entries + t.rebuy_fee * t.max_rebuys + t.addon_fee


def _validate_entry(sc: Scenario) -> Iterator[TermProblem]:
    counts = sc.settings.reentry_counts_toward_cap
    for i, t in mt(sc):
        loc = ("tournaments", i)
        if t.is_large:
            paid = most_paid(t, counts)
            if paid > ENTRY_CAP:
                yield TermProblem((*loc, "entry_fee"), "MT-ENTRY-CAP",
                                  f"a participant could pay {usd(paid)} in all (entry "
                                  f"{usd(t.entry_fee)} x {1 + (t.reentries if counts else 0)}"
                                  f" + rebuys {usd(t.rebuy_fee)} x {t.max_rebuys} + add-on "
                                  f"{usd(t.addon_fee)}); the cap is {usd(ENTRY_CAP)}")


def _held_entry(a: Actuals) -> Iterator[Violation]:
    """MT-ENTRY-CAP on what was held (MCA 23-5-317(1)(g)): what the participants of a Montana
    large-stakes tournament paid (``entry_fees_usd``: entries, rebuys, add-ons and
    re-entries) is at most $1,875 each: ``entry_fees_usd <= 1875 * players`` (above it, at
    least one paid more). Under ``reentry_counts_toward_cap: false`` a re-entry is a new
    entry: ``<= 1875 * entries``. A figure not recorded: a note."""
    counts = a.scenario.settings.reentry_counts_toward_cap
    for x in a.held:
        if x.jurisdiction != "MT" or x.type != "large-stakes":
            continue
        per, who, opt = ((x.players, "players", "players (--players)") if counts
                         else (x.entries, "entries", "entries (--entries)"))
        missing = [m for m, v in (("entry fees (--entry-fees)", x.entry_fees_usd), (opt, per))
                   if v is None]
        if missing:
            yield unrecorded("MT-ENTRY-CAP", x, missing, "what each participant paid")
            continue
        assert per is not None
        v = per_person_over(x, ENTRY_CAP, per, who, "MT-ENTRY-CAP",
                            f"a participant pays at most {usd(ENTRY_CAP)} in all"
                            + (" (re-entries counted)" if counts else
                               " an entry (reentry_counts_toward_cap: false)"))
        if v is not None:
            yield v


MT_ENTRY_CAP = Rule("MT-ENTRY-CAP", validate=_validate_entry, actuals=_held_entry)


# ------------------------------------------------------------------ MT-SATELLITE


def _validate_satellite(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in mt(sc):
        s = t.satellite
        if s is not None and s.seat_value != s.expected_top_prize:
            yield TermProblem(("tournaments", i, "satellite", "seat_value"), "MT-SATELLITE",
                              f"a seat prize must equal the expected top prize "
                              f"({usd(s.expected_top_prize)})")


MT_SATELLITE = Rule("MT-SATELLITE", validate=_validate_satellite)


# ------------------------------------------------------------------ MT-CHARITY-SHARE


def _validate_charity(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in mt(sc):
        if t.charitable and (t.charity_share is None or t.charity_share < CHARITY_SHARE):
            yield TermProblem(("tournaments", i, "charity_share"), "MT-CHARITY-SHARE",
                              "a charitable tournament pays at least 50% of entry fees to a "
                              "charitable, educational or recreational nonprofit "
                              "(charity_share >= 0.5)")


def _held_charity(a: Actuals) -> Iterator[Violation]:
    """MT-CHARITY-SHARE on what was held (MCA 23-5-317(8)): a Montana tournament presented as
    charitable paid at least 50 % of its entry fees to a charitable, educational or
    recreational nonprofit: ``charity_usd * 2 >= entry_fees_usd``, exactly, in cents
    ($4,999.99 of $10,000 is 49.99 %, under). A figure not recorded: a note."""
    for x in a.held:
        if x.jurisdiction != "MT" or not x.charitable:
            continue
        missing = [m for m, v in (("entry fees (--entry-fees)", x.entry_fees_usd),
                                  ("charity paid (--charity)", x.charity_usd)) if v is None]
        if missing:
            yield unrecorded("MT-CHARITY-SHARE", x, missing, "the charity share")
            continue
        fees, paid = x.entry_fees_usd, x.charity_usd
        assert fees is not None and paid is not None
        if paid * 2 < fees:
            need = (fees * CHARITY_SHARE).quantize(Decimal("0.01"), ROUND_UP)
            yield Violation("MT-CHARITY-SHARE", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was presented as charitable and paid {usd(paid)} of "
                            f"{usd(fees)} entry fees to charity ({share_text(paid, fees)}); "
                            f"at least 50 % ({usd(need)}) goes to a charitable, educational "
                            "or recreational nonprofit")


MT_CHARITY_SHARE = Rule("MT-CHARITY-SHARE", validate=_validate_charity, actuals=_held_charity)


# ------------------------------------------------------------------ MT-NO-RAKE


def _validate_rake(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in mt(sc):
        if t.rake:
            yield TermProblem(("tournaments", i, "rake"), "MT-NO-RAKE",
                              "a rake-off may not be taken during a tournament")


MT_NO_RAKE = Rule("MT-NO-RAKE", validate=_validate_rake)


# ------------------------------------------------------------------ MT-DURATION


def _validate_duration(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in mt(sc):
        loc = ("tournaments", i)
        if t.is_large and t.sessions and calendar_days(t) > MAX_DAYS:
            last = t.sessions[-1]
            yield TermProblem((*loc, "sessions"), "MT-DURATION",
                              f"the sessions run from day 1 to day {calendar_days(t)} (the "
                              f"last, {last.label}, on day {last.day} from {last.start:%H:%M} "
                              f"for {last.hours} h); a tournament lasts at most {MAX_DAYS} "
                              "consecutive calendar days from its first session, empty days "
                              "between flights counted")
        elif t.is_large and calendar_days(t) > MAX_DAYS:
            yield TermProblem((*loc, "days"), "MT-DURATION",
                              f"{t.days} play days use {calendar_days(t)} calendar days (play "
                              f"past midnight uses the next day too); at most {MAX_DAYS}")


def _duration_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """MT-DURATION: first to last calendar day of play (empty days between flights
    counted) at most ``MAX_DAYS``."""
    return not t.is_large or (tm.last_day - tm.first_day).days + 1 <= MAX_DAYS


def _check_duration(a: Audit) -> Iterator[Violation]:
    for p in a.placed:
        n = (p.timing.last_day - p.first_day).days + 1
        if p.tournament.is_large and n > MAX_DAYS:
            yield Violation("MT-DURATION", p.tournament.operators[0], (p.ref,),
                            f"{p.first_day}..{p.timing.last_day}",
                            f"{p.ref} is conducted on {n} calendar days; at most {MAX_DAYS}")


def _held_duration(a: Actuals) -> Iterator[Violation]:
    """MT-DURATION on what was held (MCA 23-5-317(1)(c)): a Montana large-stakes tournament
    was conducted on at most 5 consecutive calendar days, its actual first to last day
    (inclusive; ARM 23.16.101: any part of a day counts)."""
    for x in a.held:
        n = (x.last_day - x.first_day).days + 1
        if x.jurisdiction == "MT" and x.type == "large-stakes" and n > MAX_DAYS:
            yield Violation("MT-DURATION", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held on {n} calendar days ({x.dates}); at most "
                            f"{MAX_DAYS} consecutive days")


def _duration_ok_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_duration_ok` of each of ``tms`` (MT-DURATION), in one pass."""
    if not t.is_large:
        return [True] * len(tms)
    return [(tm.days[-1] - tm.days[0]).days + 1 <= MAX_DAYS for tm in tms]


MT_DURATION = Rule("MT-DURATION", validate=_validate_duration, allows=_duration_ok,
                   check=_check_duration, actuals=_held_duration,
                   allows_many=_duration_ok_many)


# ------------------------------------------------------------------ MT-PLAY-HOURS


def _validate_play_hours(sc: Scenario) -> Iterator[TermProblem]:
    known = {x.id for x in sc.operators}
    for i, t in mt(sc):
        if all(sc.operator(o).late_hours_ordinance for o in t.operators if o in known):
            continue
        if t.sessions:
            for k, x in enumerate(t.sessions):
                s, e = (m - (x.day - 1) * 24 * 60 for m in x.minutes())
                if e - s > 18 * 60 or not (s >= NO_PLAY_UNTIL and e <= 24 * 60 + NO_PLAY_FROM):
                    yield TermProblem(("tournaments", i, "sessions", k, "hours"),
                                      "MT-PLAY-HOURS",
                                      f"{x.label}: play from {x.start:%H:%M} for {x.hours} h "
                                      "falls between 2 a.m. and 8 a.m.; start at 08:00 or "
                                      "later and stop by 02:00")
            continue
        s, e = mins(t)
        if e - s > 18 * 60 or not (s >= NO_PLAY_UNTIL and e <= 24 * 60 + NO_PLAY_FROM):
            yield TermProblem(("tournaments", i, "hours"), "MT-PLAY-HOURS",
                              f"play from {t.start_time:%H:%M} for {t.hours} h falls between "
                              f"2 a.m. and 8 a.m.; start at 08:00 or later and stop by 02:00")


def quiet_hours_played(start: dt.datetime, end: dt.datetime, tz: ZoneInfo) -> dt.date | None:
    """MT-PLAY-HOURS, ARM 23.16.1101: the first morning whose 2 a.m. to 8 a.m. play from
    ``start`` to ``end`` runs through, any part of it; None when it runs through none.

    Parameters
    ----------
    start, end : datetime.datetime
        Aware instants of one stretch of play, ``end`` exclusive (a session: play ending
        exactly at 02:00 does not run through the night, 02:01 does; play starting at 08:00
        does not, 07:59 does).
    tz : zoneinfo.ZoneInfo
        The operator's zone: each morning's 02:00 and 08:00 are read on its wall clock (the
        morning clocks spring forward, 02:00 is the instant they jump).

    Returns
    -------
    datetime.date or None
        The local day of that morning.
    """
    return _quiet_hours_played(start if start.tzinfo is dt.UTC else start.astimezone(dt.UTC),
                               end if end.tzinfo is dt.UTC else end.astimezone(dt.UTC), tz)


@lru_cache(maxsize=1 << 14)
def _quiet_hours_played(a: dt.datetime, b: dt.datetime, tz: ZoneInfo) -> dt.date | None:
    """:func:`quiet_hours_played` of the UTC instants ``a`` to ``b``, each (instants, zone)
    computed once: tournaments that start alike on one day have the same sessions."""
    day = a.astimezone(tz).date()
    while True:
        quiet_from = dt.datetime.combine(day, dt.time(NO_PLAY_FROM // 60), tz).astimezone(dt.UTC)
        if quiet_from >= b:
            return None
        quiet_until = dt.datetime.combine(day, dt.time(NO_PLAY_UNTIL // 60), tz)
        if a < quiet_until.astimezone(dt.UTC):
            return day
        day += dt.timedelta(days=1)


def _check_play_hours(a: Audit) -> Iterator[Violation]:
    """MT-PLAY-HOURS, ARM 23.16.1101, judged on every night a tournament is in play: each
    session of play (:func:`scheduler.core.timing.sessions`: one from start to end, a session a
    play day for a tournament of several ``days``, the scenario's ``sessions``) that runs
    through any part of a 2-8 a.m. stretch, whatever its start and end clock times (32
    hours from Saturday noon break Sunday's 2-8 a.m.); not when every operator has
    ``late_hours_ordinance``."""
    sc = a.scenario
    zone: dict[str, ZoneInfo | None] = {}  # each tournament's zone; None: not judged
    for p in a.placed:
        t = p.tournament
        if t.id not in zone:
            zone[t.id] = None if t.type not in MT_TYPES or all(
                sc.operator(o).late_hours_ordinance for o in t.operators) else \
                tournament_tz(sc, t)
        tz = zone[t.id]
        if tz is None:
            continue
        for start, end in sessions_of(sc, p):
            morning = quiet_hours_played(start, end, tz)
            if morning is None:
                continue
            s, e = start.astimezone(tz), end.astimezone(tz)
            yield Violation("MT-PLAY-HOURS", t.operators[0], (p.ref,), p.first_day.isoformat(),
                            f"{p.ref} is played from {s:%a %Y-%m-%d %H:%M} to "
                            f"{e:%a %Y-%m-%d %H:%M}, through {morning:%a %Y-%m-%d} between "
                            "2 a.m. and 8 a.m.")
            break


MT_PLAY_HOURS = Rule("MT-PLAY-HOURS", validate=_validate_play_hours, check=_check_play_hours)
