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

from constraints.base import Occurrence
from constraints.common.filters import (
    day_in_window,
    day_on_weekday,
    days_in_window,
    days_on_weekday,
)
from constraints.common.spacing import sessions_of
from constraints.maine import application_ok
from constraints.maine.organization import earliest_first_day_cached
from constraints.registry import RULES
from scheduler.core.timing import sessions, timing, tournament_tz
from scheduler.engine.model import build_model

from builders.scenarios import d, load, mt_large, mt_room

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
