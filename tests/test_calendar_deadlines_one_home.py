"""The calendars' deadline events read their days from the one list of a plan's deadlines,
:func:`scheduler.result.deadlines.list_deadlines` (issue #12), as deadlines.csv does.

The scenario of tests/test_deadlines_one_home.py: ``notice_from`` 2026-12-01, a Maine game
on Sat 2027-02-13, a Montana large-stakes tournament on Sat 2027-03-06.

- ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2): 90 days before Sat 2027-02-13 is Sun
  2026-11-15 (13 days back to Jan 31, 31 to Dec 31, 31 to Nov 30, 15 more), before
  notice_from, so the window opens Tue 2026-12-01; due Mon 2027-02-01 (the 10th Maine
  business day before).
- ME-REPORT (16-633 CMR ch. 32 § 8): the 10th business day after 2027-02-13 is Mon 2027-03-01.
- MT-NOTICE (MCA 23-5-317(1)(d)): Sat 2027-03-06 - 5 days = Mon 2027-03-01.
"""

from __future__ import annotations

import datetime as dt

import icalendar

from scheduler.export.ical import calendar_files
from scheduler.export.ical_text import CALENDAR_FILE
from scheduler.result.deadlines import list_deadlines

from builders.scenarios import HOLDEM_FEB_13, POST_212, load, mt_large, mt_room, run

D = dt.date.fromisoformat


def test_calendar_deadlines_are_the_listed_ones() -> None:
    mt = mt_large("deep", fixed_dates=["2027-03-06"], title="Deep stack")
    plan = run(load(operators=[mt_room("room-a"), POST_212], tournaments=[mt, HOLDEM_FEB_13]))
    listed = list_deadlines(plan.rows, plan.license_list, plan.scenario.notice_from)
    window = next(d for d in listed if d.rule == "ME-APPLICATION-WINDOW")
    # opens at notice_from; 90 days before is kept for the sentence
    assert (window.opens, window.date, window.earliest) == (
        D("2026-12-01"), D("2027-02-01"), D("2026-11-15"))
    ics = icalendar.Calendar.from_ical(
        calendar_files(plan, dt.datetime(2027, 1, 1, tzinfo=dt.UTC))[CALENDAR_FILE])
    days = sorted((str(ev["x-tourney-deadline"]), ev.decoded("dtstart"))
                  for ev in ics.walk("VEVENT") if "x-tourney-deadline" in ev)
    assert days == [("me-application-due", D("2027-02-01")),
                    ("me-application-opens", D("2026-12-01")),
                    ("me-report", D("2027-03-01")),
                    ("mt-notice", D("2027-03-01"))]
    # the same days as deadlines.csv's filing lines; the permit to buy (MT-PERMIT-FEES, by
    # Fri 2027-03-05, the day before play) is a line of deadlines.csv, not a calendar event
    assert {d for _, d in days} == {d.date for d in listed
                                    if d.rule != "MT-PERMIT-FEES"} | {window.opens}
    assert [(d.rule, d.date) for d in listed if d.rule == "MT-PERMIT-FEES"] == [
        ("MT-PERMIT-FEES", D("2027-03-05"))]
    due = next(ev for ev in ics.walk("VEVENT")
               if ev.get("x-tourney-deadline") == "me-application-due")
    assert "(90 days before is Sun 2026-11-15, before this plan's notice_from" in str(
        due["description"])
