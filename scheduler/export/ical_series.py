"""Weekly series of a plan's calendars (RFC 5545 RRULE).

The placed occurrences of a Montana small-stakes tournament on one weekday (at least two)
are one recurring VEVENT: DTSTART the first occurrence's day,
``RRULE:FREQ=WEEKLY;UNTIL=<last occurrence's day>;BYDAY=..`` (RFC 5545 §3.8.5.3, UNTIL a DATE
like DTSTART) and an ``EXDATE;VALUE=DATE`` (§3.8.5.1) for every week in between without an
occurrence (blackouts, skipped weeks), so the expansion is exactly the placed days. UID
``<tournament>.series@<operator>.<lineage>.<domain>``, or ``<tournament>.<weekday>.series@...``
when the tournament is placed on several weekdays (one series per weekday); no
X-TOURNEY-OCCURRENCE (``tourney check`` numbers a series' occurrences by date, as the plan
does). schedule.csv gives each night the series UID and its RECURRENCE-ID.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from scheduler.core.fields import WEEKDAY_NAMES
from scheduler.core.scenario import Scenario
from scheduler.core.uid import KIND_PROPERTY, SERIES
from scheduler.export.ical_describe import Words, describe, licence_text, venue_lines
from scheduler.export.ical_text import (
    BYDAY,
    CalendarItem,
    all_day,
    date_text,
    ical_day,
    midnight,
    new_event,
    operator_of,
    play,
)
from scheduler.result.plan import OperatorOccurrence


def _numbers(occs: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    parts: list[str] = []
    for n in sorted(occs):
        if parts and n == int(parts[-1].rpartition("-")[2]) + 1:
            parts[-1] = f"{parts[-1].partition('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts)


def _licence_runs(scenario: Scenario, rows: list[OperatorOccurrence],
                  words: Mapping[str, str] | None = None) -> str:
    """One operator's licence over a series (``rows`` in date order): the licence, or each
    licence with the days it covers when it changes (e.g. a new permit year)."""
    runs: list[tuple[str, dt.date, dt.date]] = []
    for r in rows:
        lid = licence_text(scenario, r, words)
        if runs and runs[-1][0] == lid:
            runs[-1] = (lid, runs[-1][1], r.first_day)
        else:
            runs.append((lid, r.first_day, r.first_day))
    if len(runs) == 1:
        return runs[0][0]
    return "; ".join(f"{lid} ({ical_day(a)} to {ical_day(b)})" if a != b
                     else f"{lid} ({ical_day(a)})" for lid, a, b in runs)


def series_item(scenario: Scenario, uid: str, members: list[list[OperatorOccurrence]],
                stamp: dt.datetime, words: Words | None = None) -> CalendarItem:
    rows = members[0]
    first = rows[0]
    tid = first.tournament_id
    days = [rs[0].first_day for rs in members]
    start, until = days[0], days[-1]
    wd = start.weekday()
    placed = set(days)
    skipped: list[dt.date] = []
    week, d = dt.timedelta(weeks=1), start
    while d <= until:  # every week from the first night to the last
        if d not in placed:
            skipped.append(d)
        d += week
    # the series changes when any of its nights moved in a re-plan
    ev = new_event(uid, stamp, first.title, max(rs[0].sequence for rs in members))
    all_day(ev, first.first_day, first.last_day)
    play(ev, first)
    ev.add("RRULE", f"FREQ=WEEKLY;UNTIL={date_text(until)};BYDAY={BYDAY[wd]}")
    for d in skipped:
        ev.add("EXDATE", d)
    length = (first.last_day - first.first_day).days + 1
    n = len(members)
    later = (first.end.date() - first.start.date()).days
    ends = f"{first.end:%H:%M}" + ("" if not later else " the next day" if later == 1
                                   else f" {later} days later")
    dates = (f"Dates: every {WEEKDAY_NAMES[wd]} from {ical_day(start)} to {ical_day(until)}, "
             f"{n} occurrence{'s' if n != 1 else ''} (all day, {length} calendar day(s) "
             f"each); play starts {first.start:%H:%M} and ends {ends} (local time).")
    if skipped:
        blackout = {op.name: set(op.blackout) for r in rows
                    if (op := operator_of(scenario, r.operator_id)) is not None}
        notes = []
        for d in skipped:
            closed = [name for name, days_off in blackout.items() if d in days_off]
            notes.append(ical_day(d)
                         + (f" (blackout day of {', '.join(closed)})" if closed else ""))
        dates += f"\nNo occurrence in the week(s) of: {'; '.join(notes)}."
    venues = venue_lines(scenario, rows, [_licence_runs(scenario, [rs[i] for rs in members],
                                                        words) for i in range(len(rows))])
    describe(ev, scenario, tid, rows, dates, venues,
             f"occurrence{'s' if n != 1 else ''} {_numbers([rs[0].occurrence for rs in members])}",
             words)
    ev.add(KIND_PROPERTY, SERIES)
    return CalendarItem((midnight(start), uid), frozenset(r.operator_id for r in rows), ev, None,
                        (first.start.date(), members[-1][0].end.date()),
                        tuple((rs[0].tournament_id, rs[0].occurrence, rs[0].first_day)
                              for rs in members))
