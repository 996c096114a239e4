"""MT-PERMIT-FEES (MCA 23-5-317(1)(b)) after a tournament held across July 1: it was
conducted under the permits of both permit years (RULES.md: "a tournament played Jun 29 -
Jul 2 needs the permits of both permit years"), whatever ``permit_year_count`` says about
how it counts toward the 16 (MT-LARGE-LIMIT). A re-plan with the ledger (``tourney solve
--ledger``) that starts after July 1 must not buy again the permit of the new permit year:
the room already had it to hold Jul 1 - Jul 3.

Every test runs on SQLite and on PostgreSQL (the ``ledger`` fixture).

The year: Last Chance Card Room held its Summer Classic Tue 2027-06-29 .. Sat 2027-07-03
(5 calendar days; permit years from July 1: days in 2026-07-01 and in 2027-07-01). The
re-plan's horizon starts Mon 2027-07-05 (in the 2027-07-01 permit year), notice_from the
same day, and wants 16 one-day Saturday deepstacks.

- ``each`` (default): the Classic counts in both permit years, so 1 held + 15 placed = 16
  of the 2027-07-01 permit year; the permit is already held: fees $0.
- ``first-day``: the Classic counts only in 2026-07-01, so all 16 are placed; but its
  Jul 1 - Jul 3 were played under the 2027-07-01 permit all the same: fees still $0, not
  $120.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from scheduler.export.write import write_plan
from scheduler.ledger import Ledger, api
from scheduler.ledger.history import from_ledger

from builders.scenarios import load, mt_large, mt_room, run

ROOM = mt_room("lastchance")


def _first_plan(tmp_path: Path) -> Path:
    """The plan that had the Classic: Jun 29 fixed, 5 days (12:00 for 12 h, to midnight)."""
    sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"}, notice_from="2027-06-01",
              operators=[ROOM],
              tournaments=[mt_large("classic", ("lastchance",), days=5, hours=12,
                                    fixed_dates=["2027-06-29"])])
    plan = run(sc)
    assert [(r.first_day, r.last_day) for r in plan.rows] == [
        (dt.date(2027, 6, 29), dt.date(2027, 7, 3))]
    return write_plan(plan, tmp_path / "plan-1")


def _replan(settings: dict[str, Any]) -> Any:
    return load(horizon={"start": "2027-07-05", "end": "2027-12-31"},
                notice_from="2027-07-05", settings=settings, operators=[ROOM],
                tournaments=[mt_large("weekly", ("lastchance",), count=16, weekdays=["sat"])])


@pytest.mark.parametrize(("settings", "held_count", "placed"), [
    ({}, 1, 15),                                    # each: 1 + 15 = 16
    ({"permit_year_count": "first-day"}, 0, 16),    # first-day: 0 + 16 = 16
])
def test_replan_after_july_1_keeps_the_permit_the_held_tournament_played_under(
        ledger: Ledger, tmp_path: Path, settings: dict[str, Any], held_count: int,
        placed: int) -> None:
    api.adopt(ledger, _first_plan(tmp_path), organization="Last Chance", by="ann")
    api.record_held(ledger, "classic#1", first_day=dt.date(2027, 6, 29),
                    last_day=dt.date(2027, 7, 3), by="ann", today=dt.date(2027, 7, 5))
    sc, _ = from_ledger(_replan(settings), ledger)
    held = sc.operator("lastchance").held_in_current_permit_year
    assert held.large_stakes == held_count
    plan = run(sc)
    assert len(plan.rows) == placed
    # Jul 1, 2 and 3 were played under the 2027-07-01 large-stakes permit (MT-PERMIT-FEES):
    # no second $120 for the permit year already paid for
    assert plan.total_fees_usd == 0
    assert plan.licenses.empty
