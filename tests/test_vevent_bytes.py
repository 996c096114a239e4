"""The shortcuts of the writers (issue #16) give the bytes the libraries give: the VEVENT's
``add`` shortcut against icalendar's own ``Component.add``, read back by icalendar."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

from scheduler.export.ical_text import _Event, content_lines, ical_bytes, text_value


def _fill(ev: Event) -> Event:
    ev.add("uid", "a-1@room.abc.tourney.invalid")
    ev.add("dtstamp", dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC))
    ev.add("sequence", 3)
    ev.add("summary", text_value("Post 88, Saco Bay; \\N night"))
    ev.add("dtstart", dt.date(2027, 3, 1))
    ev.add("dtend", dt.datetime(2027, 3, 2, 18, 30, tzinfo=ZoneInfo("America/New_York")))
    ev.add("description", "line one\nline two, with a comma; and ü" * 5)
    ev.add("x-tourney-kind", "occurrence")
    ev.add("X-Tourney-Occurrence", "12")
    ev.add("categories", "deadline")
    ev.add("location", "Hall", parameters={"ALTREP": "http://example.invalid/hall"})
    ev.add("comment", "first")
    ev.add("comment", "second")  # a repeated property: a list of two
    return ev


def test_the_add_shortcut_gives_icalendars_bytes() -> None:
    fast, slow = _fill(_Event()), _fill(Event())
    assert ical_bytes(fast) == slow.to_ical() == ical_bytes(slow)
    assert content_lines(fast) == [line for line in slow.content_lines() if line]
    assert list(fast.keys()) == list(slow.keys())  # same properties, same order
    # read back by icalendar: the values written
    back = Calendar.from_ical(b"BEGIN:VCALENDAR\r\n" + ical_bytes(fast) + b"END:VCALENDAR\r\n")
    (ev,) = back.walk("VEVENT")
    assert ev.decoded("SEQUENCE") == 3
    assert str(ev["SUMMARY"]) == "Post 88, Saco Bay; \\N night"
    assert [str(c) for c in cast("list[Any]", ev["COMMENT"])] == ["first", "second"]
    assert ev.decoded("DTSTART") == dt.date(2027, 3, 1)
    assert str(ev["X-TOURNEY-OCCURRENCE"]) == "12"


def test_a_property_set_twice_through_the_shortcut_is_a_list() -> None:
    ev = _Event()
    ev.add("x-tourney-kind", "occurrence")
    ev.add("x-tourney-kind", "series")  # not the shortcut: Component.add appends
    assert [str(v) for v in cast("list[Any]", ev["X-TOURNEY-KIND"])] == ["occurrence", "series"]
