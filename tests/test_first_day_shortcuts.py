"""The solve's shortcuts give the answers of the plain readings they replace (issue #16):
WINDOW's and WEEKDAYS' ``allows_days`` (a whole list of days at once), the model's per-day
rejections (``ModelContext.rejected``: candidates skipped, first-day tests in one pass),
ME-APPLICATION-WINDOW's earliest first day (once per ``notice_from``) and MAX-CONCURRENT's
sessions (once per occurrence).

Calendar used below: 2027-01-01 is a Friday, so 2027-03-01 is a Monday (Jan 31 + Feb 28 =
59 days = 8 weeks + 3 days after a Friday) and the March Wednesdays are 3, 10, 17, 24, 31.
"""

from __future__ import annotations

import datetime as dt

from constraints.base import Occurrence, sessions_of
from constraints.common.filters import (
    day_in_window,
    day_on_weekday,
    days_in_window,
    days_on_weekday,
)
from constraints.maine import application_ok
from constraints.maine.organization import earliest_first_day_cached
from constraints.registry import RULES
from scheduler.core.timing import (
    days_touched,
    local,
    sessions,
    sessions_each,
    timing,
    timings,
    tournament_tz,
)
from scheduler.engine.model import build_model

from builders.scenarios import d, load, me_game, me_post, mt_large, mt_room

MARCH = [d("2027-02-28") + dt.timedelta(n) for n in range(33)]  # Feb 28 .. Apr 1


def _scenario():  # type: ignore[no-untyped-def]
    return load(
        operators=[mt_room()],
        tournaments=[
            mt_large("win", window={"start": "2027-03-01", "end": "2027-03-14"}),
            mt_large("wed", weekdays=["wed"], window={"start": "2027-03-01",
                                                      "end": "2027-03-31"}),
            mt_large("both", weekdays=["mon", "fri"]),
            mt_large("three", days=3, hours=6, window={"start": "2027-06-01",
                                                       "end": "2027-06-30"}),
        ])


def test_window_days_in_one_pass_match_each_day() -> None:
    sc = _scenario()
    t = sc.tournament("win")
    ok = days_in_window(sc, t, MARCH)
    # window Mar 1..14: Feb 28 out, Mar 1 in, Mar 14 in, Mar 15 out (14 days in of 33)
    assert (ok[0], ok[1], ok[14], ok[15]) == (False, True, True, False)
    assert sum(ok) == 14
    assert ok == [day_in_window(sc, t, x) for x in MARCH]
    # no window: every day
    assert days_in_window(sc, sc.tournament("both"), MARCH) == [True] * 33


def test_weekdays_in_one_pass_match_each_day() -> None:
    sc = _scenario()
    t = sc.tournament("wed")
    ok = days_on_weekday(sc, t, MARCH)
    # the Wednesdays Mar 3, 10, 17, 24, 31 are MARCH[3], [10], [17], [24], [31]
    assert [i for i, x in enumerate(ok) if x] == [3, 10, 17, 24, 31]
    assert ok == [day_on_weekday(sc, t, x) for x in MARCH]
    # Mondays and Fridays: Mar 1, 5, 8, ..., 29 (9) and Feb 28 a Sunday out: 9 of 33
    both = days_on_weekday(sc, sc.tournament("both"), MARCH)
    assert sum(both) == 9 and both[1] and not both[0]


def _plain_rejections(sc, t):  # type: ignore[no-untyped-def]
    """The per-day reading the model's rejections replace: every horizon day, the first-day
    tests then the timing tests, each rule asked of each day."""
    allows = [(r.id, r.allows) for r in RULES if r.allows is not None]
    allows_day = [(r.id, r.allows_day) for r in RULES if r.allows_day is not None]
    tz = tournament_tz(sc, t)
    out = {}
    for day in sc.horizon.days():
        by_day = tuple(rid for rid, fn in allows_day if not fn(sc, t, day))
        if by_day:
            out[day] = by_day
            continue
        tm = timing(t, tz, day)
        bad = ("CLOCK-CHANGE",) if tm is None else tuple(
            rid for rid, fn in allows if not fn(sc, t, tm))
        if bad:
            out[day] = bad
    return out


def test_rejections_are_the_plain_reading_and_the_candidates_complement() -> None:
    sc = _scenario()
    ctx = build_model(sc)
    for t in sc.tournaments:
        rej = ctx.rejected[t.id]
        assert list(rej.items()) == list(_plain_rejections(sc, t).items())
        cands = {c.first_day for c in ctx.candidates[t.id]}
        assert not cands & set(rej)
        assert len(cands) + len(rej) == 365  # 2027: every day one or the other
    # "win": Mar 1..14 are 14 candidates (MT-NOTICE is long past: notice_from 2026-12-01)
    assert len(ctx.candidates["win"]) == 14
    assert ctx.rejected["win"][d("2027-03-15")] == ("WINDOW",)
    # "wed" on Tue Mar 2: outside the weekdays only; on Sat Feb 27 outside both
    assert ctx.rejected["wed"][d("2027-03-02")] == ("WEEKDAYS",)
    assert ctx.rejected["wed"][d("2027-02-27")] == ("WINDOW", "WEEKDAYS")


def test_application_window_earliest_day_is_application_ok() -> None:
    # notice_from Mon 2027-01-04: the 10 Maine business days from it are Jan 4-8, 11-15 ->
    # Sat 2027-01-16, due Jan 4 (constraints.maine.application_earliest_first_day's example);
    # Fri Jan 15 is due Thu 2026-12-31 (Jan 1 a holiday), before notice_from
    assert earliest_first_day_cached(d("2027-01-04"), ()) == d("2027-01-16")
    assert not application_ok(d("2027-01-15"), d("2027-01-04"))
    assert application_ok(d("2027-01-16"), d("2027-01-04"))
    # the same answer as application_ok for every notice day of a year and first day after
    for n in range(0, 365, 3):
        notice = d("2026-12-01") + dt.timedelta(n)
        first = earliest_first_day_cached(notice, ())
        for k in range(0, 40):
            day = notice + dt.timedelta(k)
            assert (day >= first) == application_ok(day, notice), (notice, day)


def test_sessions_once_per_occurrence() -> None:
    sc = _scenario()
    t = sc.tournament("three")
    tm = timing(t, tournament_tz(sc, t), d("2027-06-07"))
    assert tm is not None
    p = Occurrence(t, 1, tm)
    first = sessions_of(sc, p)
    # three play days of 6 h from 12:00 Mountain (UTC-6 in June): 18:00-24:00 UTC each
    assert [(a.hour, b.hour) for a, b in first] == [(18, 0)] * 3
    assert first == sessions(sc, t, tm)
    assert sessions_of(sc, p) is first  # the same list, not computed again
    # another occurrence with an equal timing object is computed for itself
    again = Occurrence(t, 2, timing(t, tournament_tz(sc, t), d("2027-06-07")))  # type: ignore[arg-type]
    assert sessions_of(sc, again) == first


# ------------------------------------------------------------------ whole lists of timings
def _mixed():  # type: ignore[no-untyped-def]
    """Montana and Maine, with what each ``allows`` reads: a blackout range, a filed and a
    cancelled day, a notice day (notice_from 2027-03-01), other games (Tuesdays 18-22)."""
    return load(
        notice_from="2027-03-01",
        operators=[mt_room(blackout=["2027-07-01..2027-07-10"]), me_post()],
        tournaments=[
            mt_large("one", filed_dates=["2027-02-10"], cancelled_dates=["2027-08-02"]),
            mt_large("three", days=3, hours=6, window={"start": "2027-06-01",
                                                       "end": "2027-07-31"}),
            mt_large("late", start_time="20:00", hours=6, days=2),
            me_game(start_time="17:00", hours=4),
        ])


def test_each_rule_judges_a_list_of_timings_as_it_judges_each() -> None:
    sc = _mixed()
    many = [r for r in RULES if r.allows is not None and r.allows_many is not None]
    # every rule that filters timings has the list reading
    assert [r.id for r in RULES if r.allows is not None and r.allows_many is None] == []
    rejected: dict[tuple[str, str], int] = {}
    for t in sc.tournaments:
        tz = tournament_tz(sc, t)
        tms = [tm for day in sc.horizon.days() if (tm := timing(t, tz, day)) is not None]
        for r in many:
            ok = r.allows_many(sc, t, tms)  # type: ignore[misc]
            assert ok == [r.allows(sc, t, tm) for tm in tms], (r.id, t.id)  # type: ignore[misc]
            rejected[(r.id, t.id)] = ok.count(False)
    # BLACKOUT Jul 1..10: 10 first days of "one"; "three" (3 days) also from Jun 29 and 30
    assert rejected[("BLACKOUT", "one")] == 10
    assert rejected[("BLACKOUT", "three")] == 12
    # MT-NOTICE: first days before Mar 6 (Mar 6 - 5 = Mar 1), 31 + 28 + 5 = 64, less Feb 10
    # filed
    assert rejected[("MT-NOTICE", "one")] == 63
    # CANCELLED: Aug 2 alone
    assert rejected[("CANCELLED", "one")] == 1
    # ME-OTHER-GAMES: 17:00-21:00 meets the Tuesday 18-22 beano night: the 52 Tuesdays
    assert rejected[("ME-OTHER-GAMES", "g")] == 52
    # MT-DURATION: "late" plays two nights, 20:00 + 6 h: 3 calendar days, allowed
    assert rejected[("MT-DURATION", "late")] == 0


def _plain_timing(t, tz, day):  # type: ignore[no-untyped-def]
    """The instant-by-instant reading of scheduler.core.timing.timing (a one-session
    tournament): the start and the last play day's start must exist; Montana's end is the
    wall clock moved on, Maine's the elapsed hours."""
    start = local(day, t.start_time, tz)
    last = day + dt.timedelta(days=t.days - 1)
    last_start = local(last, t.start_time, tz)
    if start is None or last_start is None:
        return None
    hours = dt.timedelta(hours=float(t.hours))
    if t.type == "large-stakes":
        naive = dt.datetime.combine(last, t.start_time) + hours
        end = naive.replace(tzinfo=tz).astimezone(dt.UTC).astimezone(tz)
    else:
        end = (last_start.astimezone(dt.UTC) + hours).astimezone(tz)
    return start, end, days_touched(start, end)


def test_timings_are_the_instant_by_instant_reading_on_every_day() -> None:
    # 2027 in Denver and New York: clocks forward Sun Mar 14, back Sun Nov 7 (02:00); Montana
    # play days (wall clock) and Maine games (elapsed time) through both, a Maine start in
    # the gap (02:30) and one in the repeated hour (01:30)
    for zone in ("America/Denver", "America/New_York"):
        sc = load(operators=[mt_room(timezone=zone), me_post(timezone=zone, other_games=[])],
                  tournaments=[
                      mt_large("a", hours=10, days=3),
                      mt_large("c", start_time="23:30", hours="2.5", days=2),
                      me_game(id="g", start_time="20:00", hours=10),
                      me_game(id="h", start_time="01:30", hours="2.5"),
                      me_game(id="k", start_time="02:30", hours=3)])
        gaps = 0
        for t in sc.tournaments:
            tz = tournament_tz(sc, t)
            days = list(sc.horizon.days())
            for day, tm in zip(days, timings(t, tz, days), strict=True):
                plain = _plain_timing(t, tz, day)
                assert (tm is None) == (plain is None), (zone, t.id, day)
                if tm is None:
                    gaps += 1
                    continue
                assert tm == timing(t, tz, day)
                got = [(x.replace(tzinfo=None), x.tzinfo, x.fold) for x in (tm.start, tm.end)]
                assert got == [(x.replace(tzinfo=None), x.tzinfo, x.fold)
                               for x in plain[:2]], (zone, t.id, day)
                assert tm.days == plain[2]
        # 02:30 does not exist on Mar 14: "k" cannot start then; no other start is in a gap
        assert gaps == 1


def test_sessions_of_a_list_of_timings_are_each_ones() -> None:
    sc = _mixed()
    for t in sc.tournaments:
        tz = tournament_tz(sc, t)
        tms = [tm for day in sc.horizon.days() if (tm := timing(t, tz, day)) is not None]
        assert [list(s) for s in sessions_each(sc, t, tms)] == [
            sessions(sc, t, tm) for tm in tms]
