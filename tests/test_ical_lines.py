"""scheduler.export.ical_text.content_lines, the faster serializer of the calendars' lines,
gives icalendar's own lines (``Component.content_lines``) property for property."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar

from scheduler.export.ical_text import content_lines, ical_bytes, text_value


def _event() -> icalendar.Event:
    """A VEVENT with what the calendars hold: escaped TEXT, a zoned DTSTART (TZID
    parameter), an all-day DTEND (VALUE=DATE), an integer, an X- property, a non-ASCII
    summary, two values of one property and a VALARM subcomponent."""
    ev = icalendar.Event()
    ev.add("uid", "t1#1@tourney")
    ev.add("dtstamp", dt.datetime(2027, 1, 1, tzinfo=dt.UTC))
    ev.add("sequence", 3)
    ev.add("summary", text_value("Cribbage, Post 88; Saco Bay \\N — «café»"))
    ev.add("dtstart", dt.datetime(2027, 6, 7, 20, 0, tzinfo=ZoneInfo("America/Denver")))
    ev.add("dtend", dt.date(2027, 6, 9))
    ev.add("x-tourney-kind", "occurrence")
    ev.add("comment", "first")
    ev.add("comment", "second")
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", dt.timedelta(days=-14))
    alarm.add("description", text_value("Notice due"))
    ev.add_component(alarm)
    return ev


def test_lines_equal_icalendars() -> None:
    ev = _event()
    want = [str(line) for line in ev.content_lines() if line]
    got = content_lines(ev)
    assert got == want
    # BEGIN, 9 property lines (8 properties, COMMENT twice), BEGIN:VALARM, 3 in it,
    # END:VALARM, END: 1 + 9 + 1 + 3 + 1 + 1 = 16
    assert len(got) == 16
    assert "DTSTART;TZID=America/Denver:20270607T200000" in got
    assert "DTEND;VALUE=DATE:20270609" in got


def test_bytes_equal_icalendars_to_ical() -> None:
    ev = _event()
    assert ical_bytes(ev) == ev.to_ical()
