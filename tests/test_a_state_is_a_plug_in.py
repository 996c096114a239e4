"""A state is a plug-in (issue #25): Toyland, a test-only jurisdiction in tests/toy_state/
(one type, ``toy-game``; one rule, TY-MONTHLY: at most 2 toy games per operator per calendar
month), plans, checks, writes calendars and records in the ledger with no edit outside its
own package; and no module of ``scheduler/`` names a state by its code or its types."""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
import toy_state
from typer.testing import CliRunner

from constraints.catalogue import cite
from constraints.registry import RULES, register, unregister
from scheduler import load_scenario, solve, write_plan
from scheduler.cli import app
from scheduler.core.jurisdiction import codes
from scheduler.ledger import Ledger, api

ROOT = Path(__file__).resolve().parents[1]

SCENARIO = """\
name: Toyland Game Nights 2027
horizon: {start: 2027-01-01, end: 2027-02-28}
notice_from: 2026-12-01
operators:
  - {id: toy-hall, name: Toy Hall, jurisdiction: TY, address: "1 Main St, Toyland"}
tournaments:
  - {id: saturday, title: Saturday Toy Game, type: toy-game, operators: [toy-hall],
     count: 5, weekdays: [sat], start_time: "18:00", hours: 4}
"""


@pytest.fixture
def toyland() -> Iterator[None]:
    """Toyland installed for one test, and gone after it (other tests see MT and ME only)."""
    register(toy_state.JURISDICTION)
    yield
    unregister(toy_state.JURISDICTION)


@pytest.fixture
def folder(toyland: None, tmp_path: Path) -> Path:
    path = tmp_path / "toyland.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def test_toyland_is_installed_by_its_own_object(toyland: None) -> None:
    assert codes() == ("MT", "ME", "TY")
    assert cite("TY-MONTHLY") == "TY-MONTHLY, Toy Code § 1"
    assert RULES[-1] is toy_state.TY_MONTHLY


def test_toyland_plans_at_most_two_games_a_month(folder: Path, tmp_path: Path) -> None:
    plan = solve(load_scenario(folder), seed=0)
    firsts = sorted(dt.date.fromisoformat(str(d)[:10])
                    for d in plan.schedule["first_day"])
    # Saturdays: Jan 2, 9, 16, 23, 30 (5) and Feb 6, 13, 20, 27 (4); TY-MONTHLY: 2 a month,
    # so 2 + 2 = 4 of the 5 wanted
    assert len(firsts) == 4
    assert [d.month for d in firsts] == [1, 1, 2, 2]
    assert all(d.weekday() == 5 for d in firsts)

    out = tmp_path / "plan"
    write_plan(plan, out)
    with (out / "schedule.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["jurisdiction"] for r in rows] == ["TY"] * 4
    assert [r["type"] for r in rows] == ["toy-game"] * 4
    ics = next(out.glob("*.ics"))
    events = icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    games = [e for e in events if str(e.get("SUMMARY", "")).startswith("Saturday Toy Game")]
    assert len(games) == 4
    # Toyland's zone, America/Chicago (no operator timezone given): 18:00 for 4 hours of
    # elapsed time, 18:00-22:00 on Sat 2027-01-02
    chicago = ZoneInfo("America/Chicago")
    first = min(games, key=lambda e: e.decoded("DTSTART"))
    assert first.decoded("DTSTART") == dt.datetime(2027, 1, 2, 18, 0, tzinfo=chicago)
    assert first.decoded("DTEND") == dt.datetime(2027, 1, 2, 22, 0, tzinfo=chicago)
    assert first["DTSTART"].params["TZID"] == "America/Chicago"

    # the check reads the schedule back: as planned it holds ...
    runner = CliRunner()
    res = runner.invoke(app, ["check", str(folder), str(out / "schedule.csv")])
    assert res.exit_code == 0, res.output
    # ... and a third January game breaks TY-MONTHLY (3 > 2)
    jan = [r for r in rows if r["first_day"].startswith("2027-01")]
    extra = dict(jan[0], occurrence="5", first_day="2027-01-30", last_day="2027-01-30",
                 start="2027-01-30T18:00:00-06:00", end="2027-01-30T22:00:00-06:00",
                 uid=jan[0]["uid"].replace("saturday-", "saturday-x"))
    bad = tmp_path / "bad.csv"
    with bad.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows([*rows, extra])
    res = runner.invoke(app, ["check", str(folder), str(bad)])
    assert res.exit_code == 1, res.output
    assert "TY-MONTHLY, Toy Code § 1" in res.output
    assert "3 toy games in 2027-01" in res.output

    # the ledger adopts the plan and records a game held
    ledger = Ledger(tmp_path / "ledger.sqlite")
    api.init(ledger)
    adopted = api.adopt(ledger, out, organization="Toy Hall", by="ann")
    assert adopted.version == 1
    ref = f"saturday#{rows[0]['occurrence']}"
    day = dt.date.fromisoformat(rows[0]["first_day"])
    api.record_held(ledger, ref, first_day=day, last_day=day, by="ann",
                    today=dt.date(2027, 3, 1))
    held = ledger.held()
    assert list(held["first_day"].astype(str)) == [str(day)]
    ledger.dispose()


def test_no_module_of_the_scheduler_names_a_state() -> None:
    # a state's code or type tuple lives in its own package, constraints/<state>/; the state
    # offices' holidays a deadline on a closed day names are its Jurisdiction's
    # office_holidays (constraints/montana/legal_holidays.py, constraints/maine/business_days.py)
    literal = re.compile(r'"MT"|"ME"|MT_TYPES|ME_TYPES')
    found = sorted({str(p.relative_to(ROOT)) for p in (ROOT / "scheduler").rglob("*.py")
                    if literal.search(p.read_text("utf-8"))})
    assert found == []
