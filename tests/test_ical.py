"""iCalendar export (scheduler/export/ical.py) and checklist lines (scheduler/export/checklist.py).

Plans are built by hand (no solver): rows carry the dates a solver would produce, so every
expected value below is computed by hand in a comment next to the assertion.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events
import vobject
import yaml
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from constraints.base import License
from constraints.registry import checklist
from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.core.uid import DEFAULT_DOMAIN, lineage_key
from scheduler.export.checklist import readings
from scheduler.export.ical import calendar_files
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import OperatorOccurrence, Plan

ROOT = Path(__file__).resolve().parents[1]
DENVER = ZoneInfo("America/Denver")
NEW_YORK = ZoneInfo("America/New_York")
STAMP = dt.datetime(2026, 10, 1, 8, 30, tzinfo=dt.UTC)
ME_TITLE = "Elks Lodge #1234, Bangor; $100 buy-in ♠♥♦♣"
MT_UID = "mt-spring-1@tourney.test"
ME_UID = "me-winter-1@tourney.test"

def _rhs(host: str) -> str:
    """The right-hand side of the UIDs tourney writes for ``host`` in SCENARIO's lineage
    (scheduler.core.uid: ``<host>.<lineage>.<domain>``)."""
    return f"{host}.{lineage_key(load_scenario(SCENARIO))}.{DEFAULT_DOMAIN}"


SCENARIO = {
    "name": "Test year 2027",
    "horizon": {"start": "2026-10-01", "end": "2027-09-30"},
    "notice_from": "2026-10-01",
    "operators": [
        {"id": "mt-elks", "name": "Missoula Elks", "jurisdiction": "MT",
         "address": "112 N Pattee St, Missoula, MT", "live_tables": 2},
        {"id": "mt-club", "name": "Club Montana", "jurisdiction": "MT", "live_tables": 1},
        {"id": "me-elks", "name": "Elks Lodge #1234", "jurisdiction": "ME",
         "address": "Elks Lodge #1234, Bangor, ME", "local_approval": True,
         "beneficiaries": ["Bangor Food Bank"], "organized_on": "1990-01-01"},
        {"id": "me-pub", "name": "Harbor Pub", "jurisdiction": "ME", "local_approval": True,
         "beneficiaries": ["Portland Food Bank"], "organized_on": "1990-01-01",
         "licensed_establishment": "restaurant"},
    ],
    "tournaments": [
        {"id": "mt-spring", "title": "Spring Classic", "type": "large-stakes",
         "operators": ["mt-elks", "mt-club"], "days": 3, "start_time": "12:00", "hours": 10,
         "players": 120},
        {"id": "mt-daily", "title": "Daily Deepstack", "type": "small-stakes",
         "operators": ["mt-club"], "hours": 6},
        {"id": "me-winter", "title": ME_TITLE, "type": "tournament-game",
         "operators": ["me-elks"], "start_time": "18:00", "hours": 30, "players": 80,
         "entry_fee": 100, "prize_share": 0.8},
        {"id": "me-crib", "title": "Cribbage night", "type": "charitable-cribbage",
         "operators": ["me-pub"], "entry_fee": 20, "prize_share": 1},
    ],
}


def _scenario(**settings: object) -> Scenario:
    # load_scenario also checks every input rule, so the fixture is a valid scenario
    return load_scenario({**SCENARIO, "settings": settings})


def _plan(scenario: Scenario | None = None, licenses: list[License] | None = None) -> Plan:
    scenario = scenario or _scenario()
    mt = dict(
        tournament_id="mt-spring", occurrence=1, jurisdiction="MT", type="large-stakes",
        charitable=False, title="Spring Classic",
        # Fri 2027-03-12 12:00 .. Sun 2027-03-14 12:00 + 10 h = 22:00 (MDT from Mar 14)
        start=dt.datetime(2027, 3, 12, 12, tzinfo=DENVER),
        end=dt.datetime(2027, 3, 14, 22, tzinfo=DENVER),
        first_day=dt.date(2027, 3, 12), last_day=dt.date(2027, 3, 14),
        # MT-NOTICE: 2027-03-12 - 5 days = 2027-03-07
        notice_due=dt.date(2027, 3, 7), permit_year=dt.date(2026, 7, 1), counted=True,
        players=120, uid=MT_UID,
    )
    rows = [
        OperatorOccurrence(operator_id="mt-elks", license_id="mt-elks-large-2026", **mt),
        OperatorOccurrence(operator_id="mt-club", license_id="mt-club-large-2026", **mt),
        OperatorOccurrence(tournament_id="me-winter", occurrence=1, operator_id="me-elks",
                           jurisdiction="ME",
            type="tournament-game", charitable=False, title=ME_TITLE,
            # 2027-01-31 18:00 EST + 30 h = 2027-02-01 24:00 = 2027-02-02 00:00 EST (no DST
            # change in Jan/Feb); the game ends exactly at midnight, so its last day is Feb 1.
            start=dt.datetime(2027, 1, 31, 18, tzinfo=NEW_YORK),
            end=dt.datetime(2027, 2, 2, 0, tzinfo=NEW_YORK),
            first_day=dt.date(2027, 1, 31), last_day=dt.date(2027, 2, 1),
            notice_due=None, permit_year=None, counted=True, players=80,
            license_id="me-elks-pt-1", uid=ME_UID),
    ]
    if licenses is None:
        licenses = [
            License("mt-elks-large-2026", "mt-elks", "MT", "mt-large", "-",
                    dt.date(2026, 7, 1), dt.date(2027, 6, 30), 120, ("mt-spring#1",)),
            License("mt-club-large-2026", "mt-club", "MT", "mt-large", "-",
                    dt.date(2026, 7, 1), dt.date(2027, 6, 30), 120, ("mt-spring#1",)),
            License("me-elks-pt-1", "me-elks", "ME", "me-per-tournament", "51-100",
                    dt.date(2027, 1, 31), dt.date(2027, 2, 1), 75, ("me-winter#1",)),
        ]
    return Plan(scenario=scenario, rows=rows, license_list=licenses, unscheduled_list=[],
                status="OPTIMAL")


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return calendar_files(_plan(), STAMP)


def _events(data: bytes) -> list[icalendar.Event]:
    return list(icalendar.Calendar.from_ical(data).walk("VEVENT"))


def _by_uid(data: bytes) -> dict[str, icalendar.Event]:
    return {str(e["UID"]): e for e in _events(data)}


def _vobj(data: bytes) -> dict[str, object]:
    cal = vobject.readOne(data.decode("utf-8"))
    return {e.uid.value: e for e in cal.vevent_list}


# --------------------------------------------------------------------------- files
def test_file_names_one_per_operator_with_events(files: dict[str, bytes]) -> None:
    # mt-elks and mt-club co-host mt-spring; me-elks holds me-winter.
    assert sorted(files) == ["calendar.ics", "calendars/me-elks.ics", "calendars/mt-club.ics",
                             "calendars/mt-elks.ics"]


def test_calendar_properties(files: dict[str, bytes]) -> None:
    cal = icalendar.Calendar.from_ical(files["calendar.ics"])
    assert str(cal["VERSION"]) == "2.0"
    assert str(cal["PRODID"]) == "-//tourney//tourney 0.1//EN"
    assert str(cal["CALSCALE"]) == "GREGORIAN"
    assert str(cal["METHOD"]) == "PUBLISH"
    assert str(cal["NAME"]) == str(cal["X-WR-CALNAME"]) == "Test year 2027"
    # the only timed events are Maine ones, all in America/New_York
    assert str(cal["X-WR-TIMEZONE"]) == "America/New_York"
    # RFC 7986 §5.7: REFRESH-INTERVAL requires VALUE=DURATION
    assert b"\r\nREFRESH-INTERVAL;VALUE=DURATION:P1D\r\n" in files["calendar.ics"]
    per_op = icalendar.Calendar.from_ical(files["calendars/mt-elks.ics"])
    assert str(per_op["NAME"]) == "Test year 2027 — Missoula Elks"
    assert str(per_op["X-WR-CALNAME"]) == "Test year 2027 — Missoula Elks"
    # Montana events are all-day: no timed event, so no zone and no VTIMEZONE at all
    assert "X-WR-TIMEZONE" not in per_op
    assert not list(per_op.walk("VTIMEZONE"))


# --------------------------------------------------------------------------- Montana all-day
def test_mt_three_day_event_is_all_day(files: dict[str, bytes]) -> None:
    # Fri 2027-03-12 .. Sun 2027-03-14 inclusive -> DTSTART 20270312, DTEND = 14 + 1 = 20270315
    # (exclusive end of a DATE span, RFC 5545 §3.6.1; DATE values carry no TZID, §3.8.2.2/§3.3.4)
    data = files["calendar.ics"]
    ev = _by_uid(data)[MT_UID]
    assert type(ev["DTSTART"].dt) is dt.date and ev["DTSTART"].dt == dt.date(2027, 3, 12)
    assert type(ev["DTEND"].dt) is dt.date and ev["DTEND"].dt == dt.date(2027, 3, 15)
    assert "TZID" not in ev["DTSTART"].params and "TZID" not in ev["DTEND"].params
    assert b"\r\nDTSTART;VALUE=DATE:20270312\r\n" in data
    assert b"\r\nDTEND;VALUE=DATE:20270315\r\n" in data
    v = _vobj(data)[MT_UID]
    assert v.dtstart.value == dt.date(2027, 3, 12)  # type: ignore[attr-defined]
    assert v.dtend.value == dt.date(2027, 3, 15)  # type: ignore[attr-defined]
    assert [str(c) for c in ev["CATEGORIES"].cats] == ["large-stakes"]
    assert str(ev["X-TOURNEY-TOURNAMENT"]) == "mt-spring"
    assert str(ev["X-TOURNEY-OCCURRENCE"]) == "1"
    assert int(ev["SEQUENCE"]) == 0
    # DTSTAMP is the given stamp, in UTC
    assert ev["DTSTAMP"].dt == STAMP and b"DTSTAMP:20261001T083000Z\r\n" in data


def test_shared_tournament_once_per_file_with_all_venues(files: dict[str, bytes]) -> None:
    # one occurrence, two rows (mt-elks, mt-club): one VEVENT in calendar.ics, one in each
    # co-host's file, same UID everywhere; LOCATION lists both venues (address, else name).
    main = [e for e in _events(files["calendar.ics"]) if "X-TOURNEY-DEADLINE" not in e]
    assert [str(e["UID"]) for e in main].count(MT_UID) == 1
    loc = str(_by_uid(files["calendar.ics"])[MT_UID]["LOCATION"])
    assert loc == "112 N Pattee St, Missoula, MT / Club Montana"
    for op in ("mt-elks", "mt-club"):
        evs = [e for e in _events(files[f"calendars/{op}.ics"]) if str(e["UID"]) == MT_UID]
        assert len(evs) == 1
    assert MT_UID not in _by_uid(files["calendars/me-elks.ics"])
    desc = str(_by_uid(files["calendar.ics"])[MT_UID]["DESCRIPTION"])
    assert "mt-elks-large-2026" in desc and "mt-club-large-2026" in desc
    assert "Players: 120." in desc
    assert "(MT-DEALER, MCA 23-5-317(6))." in desc
    # a Montana event carries Montana's reading only (MT-ENTRY-CAP), not Maine's
    assert "reentry_counts_toward_cap: true" in desc and "month_rule" not in desc
    assert desc.rstrip().endswith("Not legal advice.")


# --------------------------------------------------------------------------- Maine timed
def test_me_30h_game_is_timed_with_vtimezone_first(files: dict[str, bytes]) -> None:
    # 2027-01-31 18:00 EST + 30 h = 2027-02-02 00:00 EST = 05:00 UTC (EST = UTC-5)
    data = files["calendar.ics"]
    assert b"\r\nDTSTART;TZID=America/New_York:20270131T180000\r\n" in data
    assert b"\r\nDTEND;TZID=America/New_York:20270202T000000\r\n" in data
    ev = _by_uid(data)[ME_UID]
    assert ev["DTSTART"].params["TZID"] == "America/New_York"
    assert ev["DTEND"].dt.astimezone(dt.UTC) == dt.datetime(2027, 2, 2, 5, tzinfo=dt.UTC)
    assert ev["DTEND"].dt - ev["DTSTART"].dt == dt.timedelta(hours=30)
    # §3.6.5: a VTIMEZONE for every TZID used, before the first VEVENT; no spurious UTC zone
    assert data.index(b"BEGIN:VTIMEZONE") < data.index(b"BEGIN:VEVENT")
    cal = icalendar.Calendar.from_ical(data)
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == ["America/New_York"]
    assert not cal.get_missing_tzids()
    # no floating times: every DATE-TIME DTSTART/DTEND has a TZID (or is UTC)
    for e in cal.walk("VEVENT"):
        for k in ("DTSTART", "DTEND"):
            if isinstance(e[k].dt, dt.datetime):
                assert e[k].dt.tzinfo is not None
    v = _vobj(data)[ME_UID]
    start, end = v.dtstart.value, v.dtend.value  # type: ignore[attr-defined]
    assert start.astimezone(dt.UTC) == dt.datetime(2027, 1, 31, 23, tzinfo=dt.UTC)
    assert end.astimezone(dt.UTC) == dt.datetime(2027, 2, 2, 5, tzinfo=dt.UTC)


def test_title_escaping_round_trip_and_line_folding(files: dict[str, bytes]) -> None:
    # "," and ";" must be escaped as "\," and "\;" in TEXT (§3.3.11); the suit symbols are
    # 3 UTF-8 octets each, so folding must count octets, not characters (§3.1).
    for data in files.values():
        assert data.endswith(b"\r\n")
        assert b"\n" not in data.replace(b"\r\n", b"") and b"\r" not in data.replace(b"\r\n", b"")
        for line in data.split(b"\r\n"):
            assert len(line) <= 75, line
        data.decode("utf-8")  # folding never splits a multi-octet character
    data = files["calendar.ics"]
    assert ME_TITLE.replace(",", "\\,").replace(";", "\\;").encode() in data.replace(
        b"\r\n ", b"")
    assert str(_by_uid(data)[ME_UID]["SUMMARY"]) == ME_TITLE
    assert str(_by_uid(data)[ME_UID]["LOCATION"]) == "Elks Lodge #1234, Bangor, ME"
    v = _vobj(data)[ME_UID]
    assert v.summary.value == ME_TITLE  # type: ignore[attr-defined]
    assert ME_TITLE in v.description.value  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- deadlines
def test_mt_notice_one_per_operator_with_alarm(files: dict[str, bytes]) -> None:
    # MT-NOTICE: first day 2027-03-12 - 5 days = Sun 2027-03-07, one notice per co-host
    events = _by_uid(files["calendar.ics"])
    for op in ("mt-elks", "mt-club"):
        ev = events[f"notice-{MT_UID}-{op}"]
        # Sun Mar 7: the office is closed; the working day before it is Fri Mar 5
        assert str(ev["SUMMARY"]) == ("Notice due to the Montana Gambling Control Division: "
                                      "Spring Classic (office closed: file by Fri, Mar 5, "
                                      "2027)")
        assert ("Due Sun, Mar 7, 2027 — the office is closed (a Sunday): file by Fri, Mar 5, "
                "2027.") in str(ev["DESCRIPTION"])
        assert type(ev["DTSTART"].dt) is dt.date and ev["DTSTART"].dt == dt.date(2027, 3, 7)
        assert ev["DTEND"].dt == dt.date(2027, 3, 8)
        (alarm,) = ev.walk("VALARM")
        assert str(alarm["ACTION"]) == "DISPLAY"
        assert str(alarm["DESCRIPTION"])
        assert alarm["TRIGGER"].dt == dt.timedelta(days=-7)
        assert f"notice-{MT_UID}-{op}" in _by_uid(files[f"calendars/{op}.ics"])
    # each operator's file holds only its own notice
    assert f"notice-{MT_UID}-mt-club" not in _by_uid(files["calendars/mt-elks.ics"])
    v = _vobj(files["calendar.ics"])[f"notice-{MT_UID}-mt-elks"]
    assert v.valarm.trigger.value == dt.timedelta(days=-7)  # type: ignore[attr-defined]


def test_me_licence_deadlines(files: dict[str, bytes]) -> None:
    # First covered day Sun 2027-01-31.
    # Window opens: 2027-01-31 - 90 days = 2026-11-02.
    # Due: 10 Maine business days before Jan 31: Jan 29, 28, 27, 26, 25, 22, 21, 20, 19
    #   (9), Jan 18 is Martin Luther King Jr. Day (state holiday), so the 10th is Fri Jan 15.
    # Report: 10 business days after valid_to Mon 2027-02-01: Feb 2, 3, 4, 5, 8, 9, 10, 11,
    #   12 (9), Feb 15 is Washington's Birthday (holiday), so the 10th is Tue Feb 16.
    events = _by_uid(files["calendars/me-elks.ics"])
    expect = {f"application-opens-me-elks-pt-1@{_rhs('me-elks')}": dt.date(2026, 11, 2),
              f"application-due-me-elks-pt-1@{_rhs('me-elks')}": dt.date(2027, 1, 15),
              f"report-me-elks-pt-1@{_rhs('me-elks')}": dt.date(2027, 2, 16)}
    for uid, day in expect.items():
        ev = events[uid]
        assert ev["DTSTART"].dt == day and ev["DTEND"].dt == day + dt.timedelta(days=1)
        assert len(ev.walk("VALARM")) == 1
    due, report = (f"{k}-me-elks-pt-1@{_rhs('me-elks')}" for k in ("application-due", "report"))
    assert str(events[due]["SUMMARY"]).startswith("Application due")
    assert "ME-REPORT, 16-633 CMR ch. 32 § 8" in str(events[report]["DESCRIPTION"])
    # Montana permits have no Maine deadlines
    assert not [u for u in _by_uid(files["calendar.ics"]) if "large-2026" in u]


def test_annual_licence_reports_every_month() -> None:
    # annual licence 2027-01-20 .. 2028-01-19: periods end Jan 31, Feb 28, ..., Dec 31 2027
    # and Jan 19 2028 -> 13 reports, the first due 10 business days after Sun 2027-01-31:
    # Feb 1, 2, 3, 4, 5, 8, 9, 10, 11, 12 -> Fri 2027-02-12.
    lic = License("me-elks-annual", "me-elks", "ME", "me-annual", "51-100",
                  dt.date(2027, 1, 20), dt.date(2028, 1, 19), 1500, ("me-winter#1",))
    events = _by_uid(calendar_files(_plan(licenses=[lic]), STAMP)["calendar.ics"])
    reports = sorted(u for u in events if u.startswith("report-me-elks-annual"))
    assert len(reports) == 13
    assert events[f"report-me-elks-annual-2027-01@{_rhs('me-elks')}"]["DTSTART"].dt \
        == dt.date(2027, 2, 12)
    # application dates come from the earliest covered game, 2027-01-31 (as above)
    assert events[f"application-due-me-elks-annual@{_rhs('me-elks')}"]["DTSTART"].dt \
        == dt.date(2027, 1, 15)


# --------------------------------------------------------------------------- determinism
def test_deterministic_bytes_and_uids(files: dict[str, bytes]) -> None:
    again = calendar_files(_plan(), STAMP)
    assert again == files
    assert [str(e["UID"]) for e in _events(again["calendar.ics"])] == \
        [str(e["UID"]) for e in _events(files["calendar.ics"])]


@pytest.mark.parametrize("make", ["_plan", "_series_plan"])
def test_deterministic_across_hash_seeds(make: str) -> None:
    # set iteration order depends on PYTHONHASHSEED; the bytes must not (also for the weekly
    # series, whose weeks and EXDATEs come from sets of days).
    files = calendar_files(globals()[make](), STAMP)
    code = ("import hashlib, tests.test_ical as t; from scheduler.export.ical import "
            f"calendar_files; f = calendar_files(t.{make}(), t.STAMP); "
            "print(hashlib.sha256(b''.join(k.encode() + f[k] for k in sorted(f))).hexdigest())")
    want = hashlib.sha256(b"".join(k.encode() + files[k] for k in sorted(files))).hexdigest()
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert out.stdout.strip() == want


def test_events_sorted_by_start_then_uid(files: dict[str, bytes]) -> None:
    # expected order: 2026-11-02 app opens, 2027-01-15 app due, 2027-01-31 18:00 game,
    # 2027-02-16 report, 2027-03-07 notices (club < elks by UID), 2027-03-12 MT game
    uids = [str(e["UID"]) for e in _events(files["calendar.ics"])]
    opens, due, report = (f"{k}-me-elks-pt-1@{_rhs('me-elks')}"
                          for k in ("application-opens", "application-due", "report"))
    assert uids == [opens, due, ME_UID, report, f"notice-{MT_UID}-mt-club",
                    f"notice-{MT_UID}-mt-elks", MT_UID]


def test_recurring_ical_events_sees_the_span(files: dict[str, bytes]) -> None:
    # the all-day MT event covers Mar 12-14 and not Mar 15 (exclusive DTEND)
    cal = icalendar.Calendar.from_ical(files["calendars/mt-elks.ics"])
    on_14 = recurring_ical_events.of(cal).at((2027, 3, 14))
    on_15 = recurring_ical_events.of(cal).at((2027, 3, 15))
    assert MT_UID in {str(e["UID"]) for e in on_14}
    assert MT_UID not in {str(e["UID"]) for e in on_15}


# --------------------------------------------------------------------------- weekly series
# A Montana small-stakes night placed every week is one recurring VEVENT: RRULE (RFC 5545
# §3.8.5.3) FREQ=WEEKLY with UNTIL = the last occurrence's day (a DATE, like DTSTART), and an
# EXDATE (RFC 5545 §3.8.5.1) for every week in between without an occurrence.
SERIES_UID = f"mt-daily.series@{_rhs('mt-club')}"
WEDNESDAYS = [dt.date(2027, 3, 3), dt.date(2027, 3, 10), dt.date(2027, 3, 24),
              dt.date(2027, 3, 31)]
"""Wednesdays of March 2027 are 3, 10, 17, 24, 31 (Mar 1 is a Monday); the 17th is a blackout
day of Club Montana, so the plan holds the night on the other four."""


def _series_scenario() -> Scenario:
    data = {**SCENARIO, "operators": [
        {**op, "blackout": ["2027-03-17"]} if op["id"] == "mt-club" else op
        for op in SCENARIO["operators"]]}  # type: ignore[attr-defined]
    return load_scenario(data)


def _small_rows(days: list[dt.date]) -> list[OperatorOccurrence]:
    """Rows of mt-daily (Club Montana, 12:00 + 6 h) on ``days``, numbered by date as the solver
    numbers them."""
    return [OperatorOccurrence(tournament_id="mt-daily", occurrence=k, operator_id="mt-club",
                               jurisdiction="MT",
                type="small-stakes", charitable=False, title="Daily Deepstack",
                start=dt.datetime.combine(day, dt.time(12), DENVER),
                end=dt.datetime.combine(day, dt.time(18), DENVER), first_day=day, last_day=day,
                notice_due=None, permit_year=dt.date(2026, 7, 1), counted=False, players=None,
                license_id="mt-club-small-2026", uid=f"mt-daily-{k}@mt-club.tourney")
            for k, day in enumerate(sorted(days), start=1)]


def _series_plan(days: list[dt.date] | None = None) -> Plan:
    plan = _plan(_series_scenario())
    return replace(plan, rows=sorted(
        [*plan.rows, *_small_rows(WEDNESDAYS if days is None else days)],
        key=lambda r: (r.first_day, r.tournament_id, r.occurrence, r.operator_id)))


def _expanded(data: bytes, tid: str = "mt-daily") -> list[dt.date]:
    """The days on which a calendar application shows ``tid``: every instance of every VEVENT
    (series expanded) between the horizon's start and end (2026-10-01 .. 2027-09-30)."""
    cal = icalendar.Calendar.from_ical(data)
    evs = recurring_ical_events.of(cal).between(dt.date(2026, 10, 1), dt.date(2027, 10, 1))
    return sorted(e["DTSTART"].dt for e in evs if str(e.get("X-TOURNEY-TOURNAMENT")) == tid)


def test_weekly_small_stakes_is_one_series_with_exdate() -> None:
    # 4 placed Wednesdays -> one VEVENT: DTSTART 20270303, DTEND 20270304 (one all-day day),
    # RRULE:FREQ=WEEKLY;UNTIL=20270331;BYDAY=WE (Mar 3 + 4 weeks = Mar 31) and
    # EXDATE;VALUE=DATE:20270317 (the blacked-out week), so it expands to 3, 10, 24, 31.
    files = calendar_files(_series_plan(), STAMP)
    data = files["calendar.ics"]
    mine = [e for e in _events(data) if str(e.get("X-TOURNEY-TOURNAMENT")) == "mt-daily"]
    assert [str(e["UID"]) for e in mine] == [SERIES_UID]
    assert b"\r\nDTSTART;VALUE=DATE:20270303\r\nDTEND;VALUE=DATE:20270304\r\n" in data
    assert b"\r\nRRULE:FREQ=WEEKLY;UNTIL=20270331;BYDAY=WE\r\n" in data
    assert b"\r\nEXDATE;VALUE=DATE:20270317\r\n" in data
    assert data.count(b"EXDATE") == 1
    (ev,) = mine
    assert type(ev["DTSTART"].dt) is dt.date and "X-TOURNEY-OCCURRENCE" not in ev
    desc = str(ev["DESCRIPTION"])
    assert ("every Wednesday from Wed 2027-03-03 to Wed 2027-03-31, 4 occurrences" in desc)
    assert "Wed 2027-03-17 (blackout day of Club Montana)" in desc
    assert "Tournament mt-daily, occurrences 1-4." in desc
    assert "licence/permit mt-club-small-2026." in desc
    # the expansion is exactly the plan's small-stakes first days
    plan_days = sorted(r.first_day for r in _series_plan().rows if r.type == "small-stakes")
    assert _expanded(data) == plan_days == WEDNESDAYS
    # large-stakes and Maine events are still one VEVENT per occurrence, without RRULE
    assert [str(e["UID"]) for e in _events(data) if "RRULE" in e] == [SERIES_UID]
    assert MT_UID in _by_uid(data) and ME_UID in _by_uid(data)
    # the series is in its operator's file (same VEVENT) and in no other operator's
    club = files["calendars/mt-club.ics"]
    assert _expanded(club) == WEDNESDAYS
    assert SERIES_UID not in _by_uid(files["calendars/mt-elks.ics"])
    # vobject reads the same rule set: 4 instances, the 17th excluded
    v = _vobj(data)[SERIES_UID]
    rset = v.getrruleset(addRDate=True)  # type: ignore[attr-defined]
    assert [x.date() for x in rset] == WEDNESDAYS
    assert v.dtstart.value == dt.date(2027, 3, 3)  # type: ignore[attr-defined]
    # deterministic: same plan, same bytes
    assert calendar_files(_series_plan(), STAMP) == files


def test_series_per_weekday_when_on_several_weekdays() -> None:
    # Wednesdays 3, 10, 24, 31 (17 blacked out), Saturdays 6 and 20 (13 skipped) and one
    # Thursday, the 11th. Numbered by date: 3->1, 6->2, 10->3, 11->4, 20->5, 24->6, 31->7.
    # -> a Wednesday series (EXDATE 20270317), a Saturday series
    #    (RRULE ...;UNTIL=20270320;BYDAY=SA, EXDATE 20270313), each UID naming its weekday, and
    #    the lone Thursday as an ordinary occurrence VEVENT (occurrence 4).
    sat = [dt.date(2027, 3, 6), dt.date(2027, 3, 20)]
    thu = [dt.date(2027, 3, 11)]
    days = sorted(WEDNESDAYS + sat + thu)
    data = calendar_files(_series_plan(days), STAMP)["calendar.ics"]
    events = _by_uid(data)
    mine = sorted(u for u, e in events.items() if str(e.get("X-TOURNEY-TOURNAMENT")) ==
                  "mt-daily")
    assert mine == ["mt-daily-4@mt-club.tourney", f"mt-daily.sat.series@{_rhs('mt-club')}",
                    f"mt-daily.wed.series@{_rhs('mt-club')}"]
    assert b"\r\nRRULE:FREQ=WEEKLY;UNTIL=20270331;BYDAY=WE\r\n" in data
    assert b"\r\nRRULE:FREQ=WEEKLY;UNTIL=20270320;BYDAY=SA\r\n" in data
    assert b"\r\nEXDATE;VALUE=DATE:20270313\r\n" in data
    assert b"\r\nEXDATE;VALUE=DATE:20270317\r\n" in data
    assert str(events["mt-daily-4@mt-club.tourney"]["X-TOURNEY-OCCURRENCE"]) == "4"
    wed = str(events[f"mt-daily.wed.series@{_rhs('mt-club')}"]["DESCRIPTION"])
    assert "Tournament mt-daily, occurrences 1, 3, 6-7." in wed
    sat_desc = str(events[f"mt-daily.sat.series@{_rhs('mt-club')}"]["DESCRIPTION"])
    assert "No occurrence in the week(s) of: Sat 2027-03-13." in sat_desc  # not a blackout
    # the union of the expansions is exactly the placed first days
    assert _expanded(data) == days
    for uid, want in ((f"mt-daily.wed.series@{_rhs('mt-club')}", WEDNESDAYS),
                      (f"mt-daily.sat.series@{_rhs('mt-club')}", sat)):
        rset = _vobj(data)[uid].getrruleset(addRDate=True)  # type: ignore[attr-defined]
        assert [x.date() for x in rset] == want


def test_single_small_stakes_occurrence_is_no_series() -> None:
    # one placed night: nothing recurs, so it stays the ordinary occurrence VEVENT
    data = calendar_files(_series_plan([dt.date(2027, 3, 3)]), STAMP)["calendar.ics"]
    assert b"RRULE" not in data and b"EXDATE" not in data
    assert _expanded(data) == [dt.date(2027, 3, 3)]
    assert "mt-daily-1@mt-club.tourney" in _by_uid(data)


# `tourney check` on the product's own calendar with a weekly series
_runner = CliRunner()
CHECK_SCENARIO = {
    "name": "Series check 2027",
    "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
    "notice_from": "2026-12-01",
    "operators": [{"id": "room", "name": "Bitterroot Card Room", "jurisdiction": "MT",
                   "live_tables": 2, "blackout": ["2027-03-17"]}],
    # count 4 on the four fixed Wednesdays; the window reaches into April, so only COUNT
    # (not WINDOW) forbids a fifth Wednesday such as Apr 7
    "tournaments": [{"id": "bounty", "title": "Wednesday Night Bounty", "type": "small-stakes",
                     "operators": ["room"], "start_time": "19:00", "hours": 4, "count": 4,
                     "entry_fee": 60, "weekdays": ["wed"],
                     "window": {"start": "2027-03-01", "end": "2027-04-30"},
                     "fixed_dates": [d.isoformat() for d in WEDNESDAYS]}],
}


def _check(scenario: Path, schedule: Path) -> tuple[int, list[tuple[object, ...]], str]:
    res = _runner.invoke(app, ["check", str(scenario), str(schedule), "--format", "json"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    found = [(v["rule"], v["operator_id"], v["tournament_id"], v["occurrence"], v["dates"])
             for v in json.loads(res.stdout)]
    return res.exit_code, found, res.stderr


def test_tourney_check_reads_the_weekly_series(tmp_path: Path) -> None:
    sc = tmp_path / "scenario.yaml"
    sc.write_text(yaml.safe_dump(CHECK_SCENARIO, sort_keys=False), encoding="utf-8")
    out = tmp_path / "plan"
    res = _runner.invoke(app, ["solve", str(sc), "--out", str(out), "--time-limit", "10"])
    assert res.exit_code == 0, res.output
    ics = (out / "calendar.ics").read_bytes()
    # the solved plan: one series, Mar 3 .. Mar 31, the blacked-out 17th excluded
    assert b"\r\nRRULE:FREQ=WEEKLY;UNTIL=20270331;BYDAY=WE\r\n" in ics
    assert b"\r\nEXDATE;VALUE=DATE:20270317\r\n" in ics
    assert _expanded(ics, "bounty") == WEDNESDAYS
    # the product's own calendar (licenses.csv beside it: fees checked too) is clean
    for f in ("calendar.ics", "calendars/room.ics"):
        assert _check(sc, out / f) == (0, [], ""), f

    def edited(old: bytes, new: bytes) -> Path:
        assert ics.count(old) == 1
        path = tmp_path / f"edited-{len(list(tmp_path.glob('edited-*')))}" / "calendar.ics"
        path.parent.mkdir()
        path.write_bytes(ics.replace(old, new))
        return path

    # a person extends the series by a week: UNTIL Apr 7 -> 5 Wednesdays, count is 4
    # (COUNT names the tournament's first occurrence, no single date)
    longer = edited(b"UNTIL=20270331", b"UNTIL=20270407")
    assert _check(sc, longer) == (1, [("COUNT", "room", "bounty", 1, "")], "")
    # a person deletes the EXDATE: the night is back on the blackout day Mar 17, the 3rd by
    # date (3, 10, 17, 24, 31), and there are 5 of 4
    no_exdate = edited(b"EXDATE;VALUE=DATE:20270317\r\n", b"")
    assert _check(sc, no_exdate) == (1, [("BLACKOUT", "room", "bounty", 3, "2027-03-17"),
                                         ("COUNT", "room", "bounty", 1, "")], "")


# --------------------------------------------------------------------------- checklist
_TAIL = re.compile(r"\((?:MT|ME)-[A-Z-]+, [^()]*(?:\([^()]*\))*[^()]*\)\.$")


def _tails(lines: list[str]) -> list[str]:
    """The "(RULE-ID, citation)." ending of each line (the citation itself may hold "(")."""
    return [m.group(0) for ln in lines if (m := _TAIL.search(ln))]


def test_checklist_lines() -> None:
    s = _scenario()
    large = checklist(s, s.tournament("mt-spring"))
    assert _tails(large) == [
        "(MT-RULES-POSTED, MCA 23-5-317(3)).", "(MT-SUPERVISOR, MCA 23-5-317(5)).",
        "(MT-DEALER, MCA 23-5-317(6)).", "(MT-CHIP-VALUE, MCA 23-5-317(7))."]
    small = checklist(s, s.tournament("mt-daily"))
    assert small[:4] == large and small[4].endswith("(MT-SMALL-TABLE, MCA 23-5-317(2)(d)).")
    game = checklist(s, s.tournament("me-winter"))
    assert _tails(game) == [
        "(ME-NO-CURRENCY, 17 M.R.S. § 1836(4)).", "(ME-DISPLAY, 17 M.R.S. § 1836(4)).",
        "(ME-PAYMENT, 17 M.R.S. § 1836(4)).", "(ME-REPORT, 16-633 CMR ch. 32 § 8)."]
    assert checklist(s, s.tournament("me-crib")) == []


def test_readings_name_each_switch() -> None:
    default = readings(_scenario())
    assert len(default) == 7 and default[-1] == "Not legal advice."
    assert "month_rule: touch" in default[0] and "tier_coverage: up" in default[1]
    assert "reentry_counts_toward_cap: true" in default[2]
    assert "surcharge_cap: license-fee" in default[3]
    assert "permit_year_count: each" in default[4]
    assert "progressive_count: round" in default[5]
    switched = readings(_scenario(month_rule="start", tier_coverage="exact",
                                  reentry_counts_toward_cap=False, surcharge_cap="flat",
                                  permit_year_count="first-day", progressive_count="once"))
    assert "month_rule: start" in switched[0] and "tier_coverage: exact" in switched[1]
    assert "reentry_counts_toward_cap: false" in switched[2]
    assert "surcharge_cap: flat" in switched[3]
    assert "permit_year_count: first-day" in switched[4]
    assert "progressive_count: once" in switched[5]
    # switched readings reach the event description
    data = calendar_files(_plan(_scenario(month_rule="start")), STAMP)["calendar.ics"]
    assert "month_rule: start" in str(_by_uid(data)[ME_UID]["DESCRIPTION"])


def test_empty_plan_gives_only_the_scenario_calendar() -> None:
    # nothing placed, no licences: calendar.ics only (no per-operator files, no VTIMEZONE)
    plan = Plan(scenario=_scenario(), rows=[], license_list=[], unscheduled_list=[],
                status="OPTIMAL")
    out = calendar_files(plan, STAMP)
    assert list(out) == ["calendar.ics"]
    cal = icalendar.Calendar.from_ical(out["calendar.ics"])
    assert not cal.subcomponents and str(cal["NAME"]) == "Test year 2027"


def _me_plan(start_time: str, hours: float, day: str) -> Plan:
    from scheduler.engine.solver import solve

    sc = load_scenario({
        "name": "dst", "horizon": {"start": "2027-03-01", "end": "2027-11-30"},
        "notice_from": "2027-01-04",
        "operators": [{"id": "post", "name": "Post", "jurisdiction": "ME",
                       "local_approval": True, "beneficiaries": ["X"],
                       "organized_on": "1990-01-01"}],
        "tournaments": [{"id": "g", "title": "G", "type": "tournament-game",
                         "operators": ["post"], "players": 40, "prize_share": 0.8,
                         "entry_fee": 50, "start_time": start_time, "hours": hours,
                         "fixed_dates": [day]}]})
    return solve(sc, time_limit=10)


def test_elapsed_time_across_spring_forward() -> None:
    # RFC 5545 §3.3.5 (form 3, local time with TZID): 2027-03-13 20:00 EST + 10 h of real
    # time: 01:00 UTC Mar 14 + 10 h = 11:00 UTC = 07:00 EDT (clocks went 02:00 -> 03:00)
    plan = _me_plan("20:00", 10, "2027-03-13")
    ev = next(e for e in icalendar.Calendar.from_ical(
        calendar_files(plan, STAMP)["calendar.ics"]).walk("VEVENT") if str(e["UID"]) ==
        plan.rows[0].uid)
    assert ev["DTSTART"].params["TZID"] == "America/New_York"
    assert ev["DTEND"].dt.replace(tzinfo=None) == dt.datetime(2027, 3, 14, 7, 0)
    assert ev["DTEND"].dt.astimezone(dt.UTC) == dt.datetime(2027, 3, 14, 11, 0, tzinfo=dt.UTC)


def test_repeated_hour_is_the_first_one() -> None:
    # 2027-11-07 01:30 happens twice in New York (EDT, then EST); the product takes the first
    # (fold=0): 01:30 EDT = 05:30 UTC, and + 2 h = 07:30 UTC = 02:30 EST
    plan = _me_plan("01:30", 2, "2027-11-07")
    row = plan.rows[0]
    assert row.start.astimezone(dt.UTC) == dt.datetime(2027, 11, 7, 5, 30, tzinfo=dt.UTC)
    assert row.end.astimezone(dt.UTC) == dt.datetime(2027, 11, 7, 7, 30, tzinfo=dt.UTC)
    text = calendar_files(plan, STAMP)["calendar.ics"].decode()
    # written in UTC: a TZID local 01:30 would be read as the first 01:30 either way, but a
    # UTC value cannot be misread by any client (§3.3.5)
    assert "DTSTART:20271107T053000Z" in text


def test_end_in_the_second_repeated_hour_is_written_in_utc() -> None:
    # 2027-11-06 10:00 EDT + 16 h = 2027-11-07 02:00 UTC... : 14:00 UTC + 16 h = 06:00 UTC
    # = 01:00 EST, the *second* 01:00 of the night. As TZID local time it would read 01:00
    # EDT (05:00 UTC, an hour short), so DTEND is written as 20271107T060000Z.
    plan = _me_plan("10:00", 16, "2027-11-06")
    ev = next(e for e in icalendar.Calendar.from_ical(
        calendar_files(plan, STAMP)["calendar.ics"]).walk("VEVENT") if str(e["UID"]) ==
        plan.rows[0].uid)
    assert ev["DTEND"].to_ical() == b"20271107T060000Z"
    assert ev["DTEND"].dt - ev["DTSTART"].dt == dt.timedelta(hours=16)
    assert "16 hours" in str(ev["DESCRIPTION"])


# --------------------------------------------------------------- RFC 5545 §3.1 line folding
@given(st.text(alphabet=st.sampled_from(list("ab\\^;,: é§—€\U0001D11E")), max_size=300))
def test_fold_matches_icalendars_folding(text: str) -> None:
    # tourney folds a slice at a time; the result must be icalendar's, octet for octet
    from icalendar.parser import _foldline

    from scheduler.export.ical_text import fold

    assert fold(text) == _foldline(text)


@pytest.mark.parametrize(("line", "expected"), [
    ("a" * 74, "a" * 74),                       # 74 octets fit on one line
    ("a" * 75, "a" * 74 + "\r\n a"),            # the 75th starts a continuation line
    ("a" * 73 + "\\n" + "b", "a" * 73 + "\r\n \\nb"),  # never split "\n" after its "\"
    ("a" * 73 + "§", "a" * 73 + "\r\n §"),      # "§" is 2 octets: 73 + 2 > 74
])
def test_fold_boundaries(line: str, expected: str) -> None:
    from scheduler.export.ical_text import fold

    assert fold(line) == expected


def test_events_serialized_once_equal_icalendars_own_output() -> None:
    # calendar_files writes each VEVENT's lines directly, once, and splices them into every
    # calendar it belongs to; icalendar reads the calendar and writes it back byte for byte
    plan = _plan()
    data = calendar_files(plan, STAMP)["calendar.ics"]
    assert icalendar.Calendar.from_ical(data).to_ical() == data
