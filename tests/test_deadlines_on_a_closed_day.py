"""A deadline that falls on a day the state office is closed (a weekend, a state holiday) says
so, with the last working day before it (issue #28): deadlines.csv (``file_by`` and ``what``),
plan.xlsx's Deadlines sheet, the calendars' deadline events and ``tourney deadlines``; one
home, scheduler/core/timing.py, for Montana's legal holidays (MCA 1-1-216, the ``holidays``
package's US-MT) and Maine's business days.

Hand-computed days (2027): Mar 7 is a Sunday, Mar 5 the Friday before; Presidents' Day
(Montana: "Lincoln's and Washington's Birthdays", the third Monday of February) is Mon
Feb 15, Fri Feb 12 the working day before; Thanksgiving is Thu Nov 25 and the day after it,
Fri Nov 26, is a Maine state holiday but not a Montana one. 2026: the general election day,
a Montana legal holiday, is Tue Nov 3.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import icalendar
import openpyxl
from typer.testing import CliRunner

from constraints.maine import application_due, is_maine_business_day, report_due
from scheduler.cli import app
from scheduler.core.timing import closed_note, last_office_day, office_closed
from scheduler.export.deadlines import deadlines_csv
from scheduler.export.write import write_plan
from scheduler.export.xlsx import plan_xlsx
from scheduler.result.deadlines import DEADLINE_COLUMNS
from scheduler.result.plan import Plan

from builders.scenarios import load, mt_large, mt_room, run

D = dt.date.fromisoformat


def test_the_office_days_of_each_state() -> None:
    assert (office_closed(D("2027-03-07"), "MT"), last_office_day(D("2027-03-07"), "MT")) \
        == ("a Sunday", D("2027-03-05"))
    assert (office_closed(D("2027-03-06"), "ME"), last_office_day(D("2027-03-06"), "ME")) \
        == ("a Saturday", D("2027-03-05"))
    assert office_closed(D("2027-02-15"), "MT") == "Lincoln's and Washington's Birthdays"
    assert last_office_day(D("2027-02-15"), "MT") == D("2027-02-12")
    assert office_closed(D("2026-11-03"), "MT") == "Election Day"
    assert last_office_day(D("2026-11-03"), "MT") == D("2026-11-02")
    # the day after Thanksgiving: Maine's offices close, Montana's do not
    assert office_closed(D("2027-11-26"), "MT") == ""
    assert office_closed(D("2027-11-26"), "ME") == "the day after Thanksgiving"
    assert last_office_day(D("2027-11-26"), "ME") == D("2027-11-24")  # Thu 25 Thanksgiving
    # a day the Governor closes Maine's offices (settings.closed_days), Maine's only
    assert office_closed(D("2027-03-03"), "ME", [D("2027-03-03")]) == \
        "a day the Governor closed state offices"
    assert office_closed(D("2027-03-03"), "MT", [D("2027-03-03")]) == ""
    # one home: a Maine business day is a day Maine's office is open
    for k in range(366):
        day = D("2027-01-01") + dt.timedelta(days=k)
        assert is_maine_business_day(day) == (office_closed(day, "ME") == "")
    assert closed_note(D("2027-03-05"), "MT") == ""
    assert closed_note(D("2027-03-07"), "MT") == (
        "due Sun, Mar 7, 2027 — the office is closed (a Sunday): file by Fri, Mar 5, 2027")


def test_maine_deadlines_never_fall_on_a_closed_day() -> None:
    # ME-APPLICATION-WINDOW and ME-REPORT count Maine business days, so each is one
    for k in range(366):
        day = D("2027-01-01") + dt.timedelta(days=k)
        assert office_closed(application_due(day), "ME") == ""
        assert office_closed(report_due(day), "ME") == ""


def _plan() -> Plan:
    # Sat 2027-02-20: notice due Mon Feb 15 (Presidents' Day) -> file by Fri Feb 12.
    # Fri 2027-03-12: notice due Sun Mar 7 -> file by Fri Mar 5.
    # The large-stakes permit of the permit year begun Jul 1, 2026: due the day before the
    # first day of play, Fri Feb 19 (open).
    return run(load(operators=[mt_room("room-a", name="Room A")], tournaments=[
        mt_large("winter", fixed_dates=["2027-02-20"], title="Winter Open"),
        mt_large("spring", fixed_dates=["2027-03-12"], title="Spring Open")]))


WINTER = ("Notify the Montana Gambling Control Division of Winter Open, first day Sat, Feb 20, "
          "2027; due Mon, Feb 15, 2027 — the office is closed (Lincoln's and Washington's "
          "Birthdays): file by Fri, Feb 12, 2027")
SPRING = ("Notify the Montana Gambling Control Division of Spring Open, first day Fri, Mar 12, "
          "2027; due Sun, Mar 7, 2027 — the office is closed (a Sunday): file by Fri, Mar 5, "
          "2027")
PERMIT = ("Buy or renew the Montana large-stakes permit for the permit year Jul 1, 2026 – "
          "Jun 30, 2027 ($120)")


def test_deadlines_csv_and_the_deadlines_sheet_say_the_day_to_file_by() -> None:
    plan = _plan()
    rows = list(csv.DictReader(io.StringIO(deadlines_csv(plan).decode("utf-8"))))
    assert [(r["date"], r["file_by"], r["operator"], r["what"], r["rule"]) for r in rows] == [
        ("2027-02-15", "2027-02-12", "Room A", WINTER, "MT-NOTICE"),
        ("2027-02-19", "2027-02-19", "Room A", PERMIT, "MT-PERMIT-FEES"),
        ("2027-03-07", "2027-03-05", "Room A", SPRING, "MT-NOTICE")]
    # plan.xlsx: the same columns, in the same order, the same words, dates as dates
    ws = openpyxl.load_workbook(io.BytesIO(plan_xlsx(plan)))["Deadlines"]
    sheet = list(ws.iter_rows(values_only=True))
    assert list(sheet[0]) == DEADLINE_COLUMNS
    assert [(r[0].date(), r[1].date(), r[2], r[3]) for r in sheet[1:]] == [
        (D("2027-02-15"), D("2027-02-12"), "Room A", WINTER),
        (D("2027-02-19"), D("2027-02-19"), "Room A", PERMIT),
        (D("2027-03-07"), D("2027-03-05"), "Room A", SPRING)]


def test_calendars_and_tourney_deadlines_say_the_day_to_file_by(tmp_path: Path) -> None:
    folder = write_plan(_plan(), tmp_path / "plan")
    cal = icalendar.Calendar.from_ical((folder / "calendars" / "room-a.ics").read_bytes())
    notices = {str(ev["SUMMARY"]): str(ev["DESCRIPTION"]) for ev in cal.walk("VEVENT")
               if str(ev.get("X-TOURNEY-DEADLINE", "")) == "mt-notice"}
    assert sorted(notices) == [
        "Notice due to the Montana Gambling Control Division: Spring Open (office closed: "
        "file by Fri, Mar 5, 2027)",
        "Notice due to the Montana Gambling Control Division: Winter Open (office closed: "
        "file by Fri, Feb 12, 2027)"]
    spring = next(v for k, v in notices.items() if "Spring" in k)
    assert ("Due Sun, Mar 7, 2027 — the office is closed (a Sunday): file by Fri, Mar 5, "
            "2027.") in spring
    # tourney deadlines: deadlines.csv's columns and words, then the ledger's state
    r = CliRunner().invoke(app, ["deadlines", str(folder), "--as-of", "2027-01-01",
                                 "--format", "csv"])
    assert r.exit_code == 0, r.output
    got = list(csv.DictReader(io.StringIO(r.stdout)))
    assert list(got[0]) == [*DEADLINE_COLUMNS, "state", "done_on", "entry"]
    assert [(x["date"], x["file_by"], x["what"], x["state"]) for x in got] == [
        ("2027-02-15", "2027-02-12", WINTER, "due"),
        ("2027-02-19", "2027-02-19", PERMIT, "due"),
        ("2027-03-07", "2027-03-05", SPRING, "due")]
    r = CliRunner().invoke(app, ["deadlines", str(folder), "--as-of", "2027-01-01"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == (f"2027-02-15  2027-02-12  Room A  {WINTER}  [due]  "
                                        "MT-NOTICE")
    assert r.stdout.splitlines()[1] == (f"2027-02-19              Room A  {PERMIT}  [due]  "
                                        "MT-PERMIT-FEES")
