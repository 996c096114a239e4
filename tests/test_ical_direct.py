"""The calendars' content lines formatted directly (scheduler.export.ical_direct) are the
lines icalendar writes (``Event.add(...)`` then ``to_ical``), and icalendar reads them back
to the same value: TEXT values with any unicode, ``, ; \\``, line breaks, long lines."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import icalendar
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from icalendar.parser import _foldline

from scheduler.export.ical_direct import escape_text, fold_line
from scheduler.export.ical_text import content_lines, ical_bytes, text_value

_PIECES = st.sampled_from([",", ";", "\\", "\\N", "\\n", "\n", "\r\n", "\r", "^", ":", '"',
                           "—", "é", "«café»", "𝄞", "漢字", " "])
_CHARS = st.characters(blacklist_categories=("Cs", "Cc"))
TEXTS = st.lists(st.one_of(_PIECES, st.text(_CHARS, max_size=40)), max_size=30).map("".join)
"""TEXT values: unicode (no surrogates, no control characters but line breaks), the
characters TEXT escapes, escapes written literally, and lines past 75 octets."""

NAMES = st.sampled_from(["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT",
                         "X-TOURNEY-OPERATOR-NAME"])


def _property_bytes(ev: icalendar.Event) -> bytes:
    """The folded lines of ``ev``'s one property (between BEGIN:VEVENT and END:VEVENT)."""
    data = ev.to_ical()
    assert data.startswith(b"BEGIN:VEVENT\r\n") and data.endswith(b"END:VEVENT\r\n")
    return data[len(b"BEGIN:VEVENT\r\n"):-len(b"END:VEVENT\r\n")]


@settings(max_examples=300, deadline=None)
@given(name=NAMES, value=TEXTS)
def test_text_line_is_icalendars_and_reads_back(name: str, value: str) -> None:
    ev = icalendar.Event()
    ev.add(name, text_value(value))
    direct = fold_line(f"{name}:{escape_text(value)}")
    assert direct == _property_bytes(ev)
    assert ical_bytes(ev) == ev.to_ical()
    # read back: the same text, each line break (CRLF, CR, LF) as LF (RFC 5545 §3.3.11)
    back = icalendar.Event.from_ical(b"BEGIN:VEVENT\r\n" + direct + b"END:VEVENT\r\n")
    read = str(back[name])
    if name.startswith("X-"):  # icalendar leaves an X- property's value escaped: by hand
        read = re.sub(r"\\([\\;,nN])",
                      lambda m: "\n" if m[1] in "nN" else m[1], read)  # §3.3.11
    assert read == value.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=300, deadline=None)
@given(name=NAMES, value=TEXTS)
def test_plain_str_value_line_is_icalendars(name: str, value: str) -> None:
    # a str added without text_value: icalendar's own TEXT (or X-) value type and escaping;
    # an X- value is written verbatim, so a line break in it is no content line (icalendar
    # refuses it; the calendars' X- values are ids, dates and numbers)
    assume(not (name.startswith("X-") and ("\n" in value or "\r" in value)))
    ev = icalendar.Event()
    ev.add(name, value)
    assert ical_bytes(ev) == ev.to_ical()
    assert content_lines(ev) == [str(line) for line in ev.content_lines() if line]


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


@given(day=st.dates(dt.date(1900, 1, 1), dt.date(2200, 12, 31)),
       minutes=st.integers(0, 24 * 60 - 1),
       zone=st.sampled_from(["UTC", "America/Denver", "America/New_York", None]))
def test_date_and_date_time_lines_are_icalendars(day: dt.date, minutes: int,
                                                 zone: str | None) -> None:
    ev = icalendar.Event()
    ev.add("dtend", day)  # VALUE=DATE
    when = dt.datetime.combine(day, dt.time(minutes // 60, minutes % 60, 7))
    if zone == "UTC":
        ev.add("dtstamp", when.replace(tzinfo=dt.UTC))
        ev.add("created", when.replace(tzinfo=ZoneInfo("UTC")))
    elif zone is not None:
        ev.add("dtstart", when.replace(tzinfo=ZoneInfo(zone)))  # TZID=<zone>
    else:
        ev.add("dtstart", when)  # floating
    ev.add("sequence", minutes)
    ev.add("x-tourney-kind", "occurrence")
    ev.add("categories", ["a,b", "c;d"])
    assert ical_bytes(ev) == ev.to_ical()
