"""Issue #12 phase B (outputs and re-planning): each list-kind rule owns its checklist
sentence and each deadline rule its deadline sentence; the re-plan cancellation policy
(scheduler.inputs.replan.cancel) decides what the calendars cancel and which SEQUENCE they carry;
a previous calendar that cannot be read is an error naming the file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from constraints.maine import application_window_text, report_text
from constraints.montana import notice_text
from constraints.registry import checklist, checklist_rules
from scheduler.core.scenario import Scenario
from scheduler.core.timing import notice_due, years_later
from scheduler.inputs.load import load_scenario
from scheduler.inputs.replan.cancel import (
    dropped,
    dropped_series,
    replaced_sequence,
    sequence_floor,
    series_sequence,
    vanished,
)
from scheduler.inputs.replan.previous import (
    Cancelled,
    PreviousError,
    PreviousEvent,
    PreviousSeries,
    previous_operators,
)

from builders.scenarios import d

COMBINED = Path(__file__).resolve().parent.parent / "data" / "examples" / "combined.yaml"


def _scenario() -> Scenario:
    """The bundled combined example: horizon 2027-01-01 .. 2027-12-31, notice_from
    2026-12-20; big = hellgate-monthly (MT large-stakes), small = hellgate-wednesday (MT
    small-stakes), game = post-88-holdem (ME tournament-game), crib = harborview-cribbage
    (ME charitable cribbage)."""
    return load_scenario(COMBINED)


# ------------------------------------------------------------------ checklists (list kind)
def test_checklist_comes_from_the_rules_in_registry_order() -> None:
    sc = _scenario()
    # Montana: the 4 duties of every tournament (MCA 23-5-317(3), (5), (6), (7)); the 5th,
    # MT-SMALL-TABLE (2)(d), only for small-stakes
    assert checklist_rules(sc, sc.tournament("hellgate-monthly")) == [
        "MT-RULES-POSTED", "MT-SUPERVISOR", "MT-DEALER", "MT-CHIP-VALUE"]
    assert checklist_rules(sc, sc.tournament("hellgate-wednesday")) == [
        "MT-RULES-POSTED", "MT-SUPERVISOR", "MT-DEALER", "MT-CHIP-VALUE", "MT-SMALL-TABLE"]
    # Maine licensed game: 17 M.R.S. § 1836(4) duties and the report; cribbage: none
    assert checklist_rules(sc, sc.tournament("post-88-holdem")) == [
        "ME-NO-CURRENCY", "ME-DISPLAY", "ME-PAYMENT", "ME-REPORT"]
    assert checklist_rules(sc, sc.tournament("harborview-cribbage")) == []
    lines = checklist(sc, sc.tournament("post-88-holdem"))
    assert lines[0] == ("No currency may be used in tournament play "
                        "(ME-NO-CURRENCY, 17 M.R.S. § 1836(4)).")
    # the report's 10 business days come from scheduler.core.timing (ME_REPORT_BUSINESS_DAYS)
    assert "within 10 business days after the licensed period" in lines[3]


# ------------------------------------------------------------------ deadline sentences
def test_mt_notice_deadline_is_five_days_before() -> None:
    # first day Fri 2027-03-12; 5 days before: Sun 2027-03-07 (MT-NOTICE)
    due = notice_due(d("2027-03-12"))  # the day list_deadlines gives notice_text
    assert due == d("2027-03-07")
    text = notice_text("Room", "Big", d("2027-03-12"), due)
    assert text.startswith("Room must notify the Montana Gambling Control Division of Big by "
                           "Sun 2027-03-07, at least 5 days before its first day Fri "
                           "2027-03-12 (MT-NOTICE, MCA 23-5-317(1)(d)).")


def test_me_deadline_sentences() -> None:
    text = application_window_text(d("2027-02-01"), d("2027-02-15"), d("2027-03-01"),
                                   d("2026-12-01"))
    # 90 days before Mon 2027-03-01 is Tue 2026-12-01 (31 + 31 + 28 = 90 days)
    assert ("at most 90 days and at least 10 Maine business days before the first day it "
            "covers, Mon 2027-03-01") in text
    assert "(90 days before is Tue 2026-12-01, before this plan's notice_from" in text
    same = application_window_text(d("2026-12-01"), d("2027-02-15"), d("2027-03-01"),
                                   d("2026-12-01"))
    assert "notice_from" not in same
    assert report_text("the month ending Wed 2027-03-31", d("2027-04-14")) == (
        "File the disposition-of-funds report for the month ending Wed 2027-03-31 by Wed "
        "2027-04-14, 10 business days after the period ends, also if the game was cancelled "
        "(ME-REPORT, 16-633 CMR ch. 32 § 8).")


# ------------------------------------------------------------------ cancellation policy
def test_dropped_large_stakes_takes_its_notice_with_it() -> None:
    sc = _scenario()
    c = Cancelled("hellgate-monthly", d("2027-03-12"), "big-1@x", 2, ("hellgate",), "Big")
    out = dropped(sc, [c], [], [])
    # the notice (due 2027-03-12 - 5 days = 2027-03-07) and the occurrence, both SEQUENCE 2
    notice, occ = out
    assert (notice.kind, notice.start, notice.end, notice.sequence) == (
        "notice", d("2027-03-07"), d("2027-03-08"), 2)
    assert notice.operators_property is False
    assert (occ.kind, occ.start, occ.end, occ.summary) == (
        "occurrence", d("2027-03-12"), d("2027-03-13"), "Cancelled: Big")
    assert occ.description == "Big on Fri 2027-03-12 is cancelled in this plan."
    # a night announced only inside a weekly series is left to the series
    night = Cancelled("hellgate-wednesday", d("2027-03-10"), "small-1@x", 1, ("hellgate",),
                      "Small")
    series = PreviousSeries("small.series@x", "hellgate-wednesday",
                            (d("2027-03-03"), d("2027-03-10")), 0, ("hellgate",), "Small")
    assert dropped(sc, [night], [], [series]) == []


def test_dropped_series_cancelled_with_its_recurrence_unless_history() -> None:
    sc = _scenario()  # horizon 2027-01-01 .. 2027-12-31
    live = PreviousSeries("small.series@x", "small", (d("2027-03-03"), d("2027-03-17")), 4,
                          ("room",), "Small")
    last_year = PreviousSeries("old.series@x", "small", (d("2026-03-04"), d("2026-12-30")), 1,
                               ("room",), "Small")
    (c,) = dropped_series(sc, [live, last_year], written=set())
    assert (c.uid, c.sequence, c.rrule, c.last_day) == (
        "small.series@x", 5, "FREQ=WEEKLY;UNTIL=20270317;BYDAY=WE", d("2027-03-17"))
    assert dropped_series(sc, [live], written={"small.series@x"}) == []


def _ev(uid: str, day: str, seq: int, cancelled: bool = False) -> PreviousEvent:
    return PreviousEvent(uid, d(day), seq, "Cancelled: X" if cancelled else "X", ("room",),
                         cancelled, d(day), d(day) + dt.timedelta(days=1),
                         description="as published" if cancelled else "")


def test_vanished_carries_a_cancellation_until_its_day_is_before_notice_from() -> None:
    sc = _scenario()  # notice_from 2026-12-20, horizon from 2027-01-01
    events = [
        _ev("a@x", "2026-12-20", 3, cancelled=True),   # on notice_from: still carried
        _ev("b@x", "2026-12-19", 3, cancelled=True),   # the day before: dropped
        _ev("c@x", "2027-02-01", 1),                   # live, no longer written: + 1
        _ev("e@x", "2026-12-31", 1),                   # live, before the horizon: history
        _ev("w@x", "2027-02-02", 1),                   # still written
    ]
    out = {c.uid: c for c in vanished(sc, events, written={"w@x"})}
    assert sorted(out) == ["a@x", "c@x"]
    assert (out["a@x"].sequence, out["a@x"].summary, out["a@x"].carried,
            out["a@x"].description) == (3, "Cancelled: X", True, "as published")
    assert (out["c@x"].sequence, out["c@x"].summary, out["c@x"].carried) == (
        2, "Cancelled: X", False)


def test_sequences_never_go_down() -> None:
    old = _ev("a@x", "2027-02-01", 4)
    assert sequence_floor(None, 0, False) == 0
    assert sequence_floor(old, 2, False) == 4
    assert sequence_floor(old, 6, False) == 6
    gone = _ev("a@x", "2027-02-01", 4, cancelled=True)
    # a UID given back after its cancellation: one more than the cancellation's 4
    assert sequence_floor(gone, 0, False) == 5
    assert sequence_floor(gone, 0, True) == 4
    assert replaced_sequence(0, 3, unchanged=True) == 3
    assert replaced_sequence(0, 3, unchanged=False) == 4
    series = PreviousSeries("s@x", "small", (d("2027-03-03"), d("2027-03-10")), 2, ("room",),
                            "Small", "2027-03-03T18:00:00-07:00/2027-03-03T22:00:00-07:00")
    nights = (d("2027-03-03"), d("2027-03-10"))
    assert series_sequence(series, nights, series.play, 0) == 2
    assert series_sequence(series, (*nights, d("2027-03-17")), series.play, 0) == 3
    later = "2027-03-03T19:00:00-07:00/2027-03-03T23:00:00-07:00"  # play an hour later
    assert series_sequence(series, nights, later, 0) == 3


# ------------------------------------------------------------------ unreadable calendars
def test_unreadable_operator_calendar_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "calendars").mkdir()
    (tmp_path / "calendar.ics").write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR\r\n")
    bad = tmp_path / "calendars" / "room.ics"
    bad.write_text("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")  # cut short
    with pytest.raises(PreviousError, match="room.ics"):
        previous_operators(tmp_path, [])


# ------------------------------------------------------------------ dates without 366
def test_permit_year_end_and_read_window_by_calendar_years() -> None:
    op = _scenario().operator("hellgate")  # permit years Jul 1 - Jun 30 (MT-PERMIT-YEAR)
    assert op.permit_year_end(d("2027-06-30")) == d("2027-06-30")
    assert op.permit_year_end(d("2027-07-01")) == d("2028-06-30")  # 2028 a leap year: 366
    assert years_later(d("2028-02-29"), -1) == d("2027-02-28")
    assert years_later(d("2027-01-01"), 1) == d("2028-01-01")
