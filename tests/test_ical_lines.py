"""The calendars' content lines, written directly (scheduler.export.ical_text), are the lines
icalendar writes for the same ``Component.add`` calls (``to_ical``), and icalendar reads them
back to the values given: TEXT with any unicode, ``, ; \\``, line breaks and long lines,
DATE, DATE-TIME in UTC, in a zone and floating, INTEGER, X- values, CATEGORIES, durations, a
VALARM, a weekly RRULE, and each zone's VTIMEZONE."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from icalendar.parser import _foldline
from icalendar.prop import vRecur

from scheduler.export.ical_text import (
    Text,
    VEvent,
    escape_text,
    fold_line,
    new_event,
    text_value,
    vtimezone_lines,
)


class _Escaped(icalendar.vText):
    """What the calendars were first written with: icalendar's TEXT value type, escaped as
    RFC 5545 §3.3.11 says (no literal ``\\N`` read as a line break first)."""

    def to_ical(self) -> bytes:
        return escape_text(self).encode("utf-8")


def _twins(adds: list[tuple[str, Any]], alarm: list[tuple[str, Any]] | None = None
           ) -> tuple[VEvent, icalendar.Event]:
    """The same properties added to a :class:`VEvent` and to an ``icalendar.Event`` (a
    :class:`Text` as :class:`_Escaped`), and a VALARM with ``alarm`` in each."""
    mine, theirs = VEvent(), icalendar.Event()
    for name, value in adds:
        mine.add(name.upper(), value)
        theirs.add(name, _Escaped(value) if type(value) is Text else value)
    if alarm is not None:
        sub, ref = VEvent("VALARM"), icalendar.Alarm()
        for name, value in alarm:
            sub.add(name.upper(), value)
            ref.add(name, _Escaped(value) if type(value) is Text else value)
        mine.subcomponents.append(sub)
        theirs.add_component(ref)
    return mine, theirs


def _read(data: bytes) -> Any:
    """The one VEVENT of ``data`` read back by icalendar."""
    (ev,) = icalendar.Calendar.from_ical(
        b"BEGIN:VCALENDAR\r\n" + data + b"END:VCALENDAR\r\n").walk("VEVENT")
    return ev


def test_an_events_lines_are_icalendars() -> None:
    # what the calendars hold: escaped TEXT, a zoned DTSTART (TZID), an all-day DTEND
    # (VALUE=DATE), an integer, X- values, non-ASCII text, a property twice, a VALARM
    mine, theirs = _twins([
        ("uid", "t1#1@tourney"),
        ("dtstamp", dt.datetime(2027, 1, 1, tzinfo=dt.UTC)),
        ("sequence", 3),
        ("summary", text_value("Cribbage, Post 88; Saco Bay \\N — «café»")),
        ("dtstart", dt.datetime(2027, 6, 7, 20, 0, tzinfo=ZoneInfo("America/Denver"))),
        ("dtend", dt.date(2027, 6, 9)),
        ("x-tourney-kind", "occurrence"),
        ("X-Tourney-Occurrence", "12"),
        ("categories", ["deadline"]),
        ("description", "line one\nline two, with a comma; and ü \\N" * 5),
        ("comment", "first"),
        ("comment", "second"),
        ("exdate", dt.date(2027, 6, 14)),
        ("exdate", dt.date(2027, 6, 21)),
        ("rrule", "FREQ=WEEKLY;UNTIL=20270830;BYDAY=MO"),
        ("status", "CANCELLED"),
        ("transp", "TRANSPARENT"),
    ], [("action", "DISPLAY"), ("trigger", dt.timedelta(days=-14)),
        ("description", text_value("Notice due, see § 3"))])
    lines = mine.lines()
    assert lines == [str(line) for line in theirs.content_lines() if line]
    assert mine.to_ical() == theirs.to_ical()
    # BEGIN, 17 property lines (15 properties, COMMENT and EXDATE twice), BEGIN:VALARM, 3
    # in it, END:VALARM, END: 1 + 17 + 1 + 3 + 1 + 1 = 24
    assert len(lines) == 24
    assert "DTSTART;TZID=America/Denver:20270607T200000" in lines
    assert "DTEND;VALUE=DATE:20270609" in lines
    back = _read(mine.to_ical())
    assert back.decoded("SEQUENCE") == 3
    assert str(back["SUMMARY"]) == "Cribbage, Post 88; Saco Bay \\N — «café»"
    assert [str(c) for c in back["COMMENT"]] == ["first", "second"]
    assert back.decoded("DTEND") == dt.date(2027, 6, 9)
    assert str(back["X-TOURNEY-OCCURRENCE"]) == "12"
    assert back["RRULE"].to_ical() == b"FREQ=WEEKLY;UNTIL=20270830;BYDAY=MO"


def test_a_property_set_again_is_one_line() -> None:
    ev = new_event("a@b", dt.datetime(2027, 1, 1, tzinfo=dt.UTC), "T", 2)
    ev.set("SEQUENCE", 5)
    ev.set("DTSTAMP", dt.datetime(2027, 1, 2, 3, 4, 5, tzinfo=dt.UTC))
    assert ev.sequence == 5 and ev.uid == "a@b"
    assert ev.lines() == ["BEGIN:VEVENT", "SUMMARY:T", "DTSTAMP:20270102T030405Z", "UID:a@b",
                          "SEQUENCE:5", "END:VEVENT"]


def test_a_value_of_no_known_type_is_refused() -> None:
    with pytest.raises(TypeError):
        VEvent().add("GEO", (1.0, 2.0))
    with pytest.raises(TypeError):
        VEvent().add("URL", "https://example.invalid")  # a str of no TEXT property


def test_the_weekly_rrule_is_icalendars_own_text() -> None:
    # a series' RRULE is written as text; icalendar parses it and writes the same text, so a
    # cancelled series' RRULE (read from the previous calendar) is written as published
    for rule in ("FREQ=WEEKLY;UNTIL=20271227;BYDAY=MO", "FREQ=WEEKLY;UNTIL=20270101;BYDAY=SU"):
        assert vRecur.from_ical(rule).to_ical().decode() == rule


_PIECES = st.sampled_from([",", ";", "\\", "\\N", "\\n", "\n", "\r\n", "\r", "^", ":", '"',
                           "—", "é", "«café»", "𝄞", "漢字", " "])
_CHARS = st.characters(blacklist_categories=("Cs", "Cc"))
TEXTS = st.lists(st.one_of(_PIECES, st.text(_CHARS, max_size=40)), max_size=30).map("".join)
"""TEXT values: unicode (no surrogates, no control characters but line breaks), the
characters TEXT escapes, escapes written literally, and lines past 75 octets."""

NAMES = st.sampled_from(["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT",
                         "X-TOURNEY-OPERATOR-NAME"])


def _unescape_x(read: str) -> str:
    """icalendar leaves an X- property's value escaped: undone by hand (§3.3.11)."""
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m[1] in "nN" else m[1], read)


@settings(max_examples=300, deadline=None)
@given(name=NAMES, value=TEXTS)
def test_text_line_is_icalendars_and_reads_back(name: str, value: str) -> None:
    mine, theirs = _twins([(name, text_value(value))])
    assert mine.to_ical() == theirs.to_ical()
    direct = fold_line(f"{name}:{escape_text(value)}")
    assert mine.to_ical() == b"BEGIN:VEVENT\r\n" + direct + b"END:VEVENT\r\n"
    # read back: the same text, each line break (CRLF, CR, LF) as LF (RFC 5545 §3.3.11)
    read = str(_read(mine.to_ical())[name])
    if name.startswith("X-"):
        read = _unescape_x(read)
    assert read == value.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=300, deadline=None)
@given(name=NAMES, value=TEXTS)
def test_plain_str_value_line_is_icalendars(name: str, value: str) -> None:
    # a str added without text_value: icalendar's own TEXT (or X-) value type and escaping;
    # an X- value is written verbatim, so a line break in it is no content line (icalendar
    # refuses it; the calendars' X- values are ids, dates and numbers)
    assume(not (name.startswith("X-") and ("\n" in value or "\r" in value)))
    mine, theirs = _twins([(name, value)])
    assert mine.to_ical() == theirs.to_ical()
    assert mine.lines() == [str(line) for line in theirs.content_lines() if line]


@settings(max_examples=300, deadline=None)
@given(line=st.lists(st.one_of(_PIECES, st.text(_CHARS, max_size=60)), max_size=40)
       .map(lambda parts: "".join(parts).replace("\r", "").replace("\n", "")))
def test_folding_is_icalendars(line: str) -> None:
    # an unfolded content line (no line break): segments of at most 74 octets, never a
    # split character
    assert fold_line(line) == (_foldline(line) + "\r\n").encode("utf-8")
    for segment in fold_line(line)[:-2].split(b"\r\n "):
        assert len(segment) <= 74
        segment.decode("utf-8")  # whole characters only


ZONES = st.sampled_from(["UTC", "Etc/UTC", "GMT", "America/Denver", "America/New_York",
                         "Europe/Berlin", "Asia/Kolkata", "EST5EDT", None])


@settings(max_examples=300, deadline=None)
@given(day=st.dates(dt.date(1900, 1, 1), dt.date(2200, 12, 31)),
       seconds=st.integers(0, 24 * 3600 - 1), zone=ZONES,
       utc=st.booleans(), number=st.integers(-10**6, 10**6),
       shift=st.integers(-400 * 86400, 400 * 86400).map(lambda s: dt.timedelta(seconds=s)),
       cats=st.lists(TEXTS, min_size=1, max_size=4), kind=TEXTS.filter(
           lambda s: "\n" not in s and "\r" not in s))
def test_every_kind_of_value_is_icalendars_and_reads_back(
        day: dt.date, seconds: int, zone: str | None, utc: bool, number: int,
        shift: dt.timedelta, cats: list[str], kind: str) -> None:
    when = dt.datetime.combine(day, dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60))
    if zone is not None:
        when = when.replace(tzinfo=dt.UTC if utc and zone == "UTC" else ZoneInfo(zone))
    mine, theirs = _twins([
        ("dtend", day),  # VALUE=DATE
        ("dtstart", when),  # Z, TZID=<zone> or floating
        ("dtstamp", when.replace(tzinfo=dt.UTC)),
        ("sequence", number),
        ("x-tourney-kind", kind),
        ("categories", cats),
    ], [("trigger", shift), ("action", "DISPLAY")])
    assert mine.to_ical() == theirs.to_ical()
    back = _read(mine.to_ical())
    assert back.decoded("DTEND") == day
    start = back.decoded("DTSTART")
    assert start.replace(tzinfo=None) == when.replace(tzinfo=None)
    assert (start.utcoffset() == when.utcoffset()) if zone is not None else start.tzinfo is None
    assert back.decoded("SEQUENCE") == number
    assert str(back["X-TOURNEY-KIND"]) == kind
    assert [str(c) for c in back["CATEGORIES"].cats] == [
        c.replace("\\N", "\n").replace("\r\n", "\n").replace("\r", "\n") for c in cats]
    (alarm,) = back.walk("VALARM")
    assert alarm.decoded("TRIGGER") == shift


@pytest.mark.parametrize("tzid", ["America/New_York", "America/Denver", "America/Phoenix",
                                  "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
                                  "Europe/Dublin", "Pacific/Chatham", "UTC"])
@pytest.mark.parametrize(("first", "last"), [(dt.date(2027, 1, 1), dt.date(2029, 1, 1)),
                                             (dt.date(2026, 1, 1), dt.date(2030, 1, 1)),
                                             (dt.date(1970, 1, 1), dt.date(1975, 6, 1))])
def test_vtimezone_is_icalendars(tzid: str, first: dt.date, last: dt.date) -> None:
    theirs = icalendar.Timezone.from_tzid(tzid, first_date=first, last_date=last)
    lines = list(vtimezone_lines(tzid, first, last))
    assert lines == [str(line) for line in theirs.content_lines() if line]
    assert b"".join(fold_line(line) for line in lines) == theirs.to_ical()


def test_vtimezone_of_maine_2027() -> None:
    # America/New_York for 2027 and 2028: EST, then EDT from Mar 14 2027 03:00 (and Mar 12
    # 2028), EST from Nov 7 2027 02:00 (and Nov 5 2028)
    lines = vtimezone_lines("America/New_York", dt.date(2027, 1, 1), dt.date(2029, 1, 1))
    assert lines[:3] == ("BEGIN:VTIMEZONE", "TZID:America/New_York",
                         "COMMENT:This timezone only works from 2027-01-01 to 2029-01-01.")
    assert "DTSTART:20270314T030000" in lines and "RDATE:20280312T030000" in lines
    assert "DTSTART:20271107T020000" in lines and "RDATE:20281105T020000" in lines
