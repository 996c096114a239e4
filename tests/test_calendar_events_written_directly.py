"""Each kind of event the calendars hold, made as its content lines directly
(scheduler.export.ical_events: an occurrence, all-day or timed; scheduler.export.ical_describe:
a deadline with its reminder), is the event icalendar writes for the same properties and
values (``Component.add`` of each, ``to_ical``), and icalendar reads its text back: any
unicode title, summary, description and UID, ``, ; \\``, line breaks, lines folded at 75
octets and never inside a character's UTF-8 octets."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduler.core.uid import DEADLINE_KIND, OCCURRENCE_PROPERTY, TOURNAMENT_PROPERTY
from scheduler.export.ical_describe import Words, _deadline
from scheduler.export.ical_events import _occurrence_item
from scheduler.export.ical_text import Text, VEvent, escape_text
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import STATUSES, OperatorOccurrence

STAMP = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
DENVER, NEW_YORK = ZoneInfo("America/Denver"), ZoneInfo("America/New_York")

SCENARIO = load_scenario({
    "name": "Events written directly",
    "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
    "notice_from": "2026-12-01",
    "operators": [
        # names and addresses with what TEXT escapes, non-ASCII and more than 75 octets
        {"id": "mt-elks", "name": "Missoula Elks; Lodge #383, «Garden City»",
         "jurisdiction": "MT", "live_tables": 2,
         "address": "112 N Pattee St, Missoula, MT 59802 — upstairs\\back room, ☂ entrance"},
        {"id": "mt-club", "name": "Club Montana", "jurisdiction": "MT", "live_tables": 1},
        {"id": "me-elks", "name": "Elks Lodge #1234", "jurisdiction": "ME",
         "address": "Elks Lodge #1234, Bangor, ME", "local_approval": True,
         "beneficiaries": ["Bangor Food Bank"], "organized_on": "1990-01-01"},
    ],
    "tournaments": [
        {"id": "mt-spring", "title": "Spring Classic", "type": "large-stakes",
         "operators": ["mt-elks", "mt-club"], "days": 3, "start_time": "12:00", "hours": 10,
         "players": 120},
        {"id": "me-winter", "title": "Winter game", "type": "tournament-game",
         "operators": ["me-elks"], "start_time": "18:00", "hours": 30, "players": 80,
         "entry_fee": 100, "prize_share": 0.8},
    ],
})

_PIECES = st.sampled_from([",", ";", "\\", "\\N", "\\n", "\n", "\r\n", "\r", "^", ":", '"',
                           "—", "é", "«café»", "𝄞", "漢字", " ", "a" * 70])
_CHARS = st.characters(blacklist_categories=("Cs", "Cc"))
TEXTS = st.one_of(
    st.lists(st.one_of(_PIECES, st.text(_CHARS, max_size=40)), max_size=20).map("".join),
    st.text(st.sampled_from("ab"), min_size=60, max_size=80),
    st.text(st.sampled_from("aé,\\\\"), min_size=30, max_size=80))
"""TEXT values: unicode (no surrogates, no control characters but line breaks), the
characters TEXT escapes, escapes written literally, and lines past 75 octets (and about
as long: a line of 74, 75 or 76 octets)."""


class _Escaped(icalendar.vText):
    """A :class:`Text` value as icalendar writes TEXT, escaped as RFC 5545 §3.3.11 says (no
    literal ``\\N`` read as a line break first: tests/test_ical_lines.py)."""

    def to_ical(self) -> bytes:
        return escape_text(self).encode("utf-8")


def _icalendars(ev: VEvent) -> Any:
    """The same event made by icalendar: each property of ``ev`` added with its value."""
    out = icalendar.Event() if ev.name == "VEVENT" else icalendar.Alarm()
    for name, value in ev.properties().items():
        out.add(name, _Escaped(value) if type(value) is Text else value)
    for sub in ev.subcomponents:
        out.add_component(_icalendars(sub))
    return out


def _read(data: bytes) -> Any:
    """The one VEVENT of ``data`` read back by icalendar."""
    (ev,) = icalendar.Calendar.from_ical(
        b"BEGIN:VCALENDAR\r\n" + data + b"END:VCALENDAR\r\n").walk("VEVENT")
    return ev


def _lf(text: str) -> str:
    """``text`` with each line break (CRLF, CR or LF) as LF: what TEXT reads back."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _rows(state: str, title: str, uid: str, sequence: int, status: str
          ) -> list[OperatorOccurrence]:
    if state == "MT":  # all day, two venues: Fri 2027-03-12 12:00 to Sun 22:00 (MDT)
        mt: dict[str, Any] = dict(
            tournament_id="mt-spring", occurrence=3, jurisdiction="MT", type="large-stakes",
            charitable=False, title=title, start=dt.datetime(2027, 3, 12, 12, tzinfo=DENVER),
            end=dt.datetime(2027, 3, 14, 22, tzinfo=DENVER), first_day=dt.date(2027, 3, 12),
            last_day=dt.date(2027, 3, 14), notice_due=dt.date(2027, 3, 7),
            permit_year=dt.date(2026, 7, 1), counted=True, players=120, license_id="",
            uid=uid, sequence=sequence, status=status)
        return [OperatorOccurrence(operator_id="mt-elks", **mt),
                OperatorOccurrence(operator_id="mt-club", **mt)]
    # timed, in the operator's zone: 2027-01-31 18:00 EST + 30 h
    return [OperatorOccurrence(
        tournament_id="me-winter", occurrence=1, operator_id="me-elks", jurisdiction="ME",
        type="tournament-game", charitable=True, title=title,
        start=dt.datetime(2027, 1, 31, 18, tzinfo=NEW_YORK),
        end=dt.datetime(2027, 2, 2, 0, tzinfo=NEW_YORK), first_day=dt.date(2027, 1, 31),
        last_day=dt.date(2027, 2, 1), notice_due=None, permit_year=None, counted=True,
        players=80, license_id="me-elks-pt-1", uid=uid, sequence=sequence, status=status)]


@settings(max_examples=200, deadline=None)
@given(state=st.sampled_from(["MT", "ME"]), title=TEXTS, uid=TEXTS.filter(bool),
       sequence=st.integers(0, 10**6), status=st.sampled_from(STATUSES))
def test_occurrence_event_is_icalendars(state: str, title: str, uid: str, sequence: int,
                                        status: str) -> None:
    rows = _rows(state, title, uid, sequence, status)
    item = _occurrence_item(SCENARIO, rows[0].tournament_id, rows[0].occurrence, rows, STAMP,
                            Words())
    mine = item.event.to_ical()
    assert mine == _icalendars(item.event).to_ical()
    back = _read(mine)
    assert str(back["SUMMARY"]) == _lf(title)
    assert str(back["UID"]) == _lf(uid.replace("\\N", "\n"))  # a plain str: icalendar's vText
    assert back.decoded("SEQUENCE") == sequence
    # the title opens the description; every venue is in LOCATION
    assert str(back["DESCRIPTION"]).startswith(_lf(title + "\nDates: "))
    if state == "MT":
        assert back.decoded("DTSTART") == dt.date(2027, 3, 12)
        assert back.decoded("DTEND") == dt.date(2027, 3, 15)  # the day after the last
        assert str(back["LOCATION"]) == (
            "112 N Pattee St, Missoula, MT 59802 — upstairs\\back room, ☂ entrance"
            " / Club Montana")
        assert str(back[OCCURRENCE_PROPERTY]) == "3"
    else:
        assert back.decoded("DTSTART") == dt.datetime(2027, 1, 31, 18, tzinfo=NEW_YORK)
        assert back["DTSTART"].params["TZID"] == "America/New_York"
        assert str(back["LOCATION"]) == "Elks Lodge #1234, Bangor, ME"
    _folded_at_75_octets(mine)


def _folded_at_75_octets(data: bytes) -> None:
    """Every line of ``data`` at most 74 octets, a continuation line a space and at most 74
    (RFC 5545 §3.1), each whole UTF-8 characters."""
    for line in data.split(b"\r\n"):
        assert len(line) <= (75 if line.startswith(b" ") else 74)
        line.decode("utf-8")


@settings(max_examples=200, deadline=None)
@given(summary=TEXTS, description=TEXTS, uid=TEXTS.filter(bool),
       kind=st.sampled_from(sorted(DEADLINE_KIND)), sequence=st.integers(0, 10**6),
       day=st.dates(dt.date(2000, 1, 1), dt.date(2100, 12, 31)),
       alarm=st.integers(-30, 0).map(lambda d: dt.timedelta(days=d)),
       tournament=st.from_regex(r"[a-z0-9][a-z0-9-]{0,80}", fullmatch=True))
def test_deadline_event_is_icalendars(summary: str, description: str, uid: str, kind: str,
                                      sequence: int, day: dt.date, alarm: dt.timedelta,
                                      tournament: str) -> None:
    item = _deadline(uid, STAMP, summary, day, description, kind, alarm, "mt-elks", sequence,
                     {TOURNAMENT_PROPERTY: tournament, OCCURRENCE_PROPERTY: "12"})
    mine = item.event.to_ical()
    assert mine == _icalendars(item.event).to_ical()
    back = _read(mine)
    assert str(back["SUMMARY"]) == _lf(summary)
    assert str(back["DESCRIPTION"]) == _lf(description + "\nNot legal advice.")
    assert back.decoded("DTSTART") == day
    assert back.decoded("DTEND") == day + dt.timedelta(days=1)
    assert str(back[TOURNAMENT_PROPERTY]) == tournament
    (reminder,) = back.walk("VALARM")
    assert str(reminder["DESCRIPTION"]) == _lf(summary)
    assert reminder.decoded("TRIGGER") == alarm
    _folded_at_75_octets(mine)
