"""ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2; RULES.md row): the licence application's due
date is the 10th Maine business day before the first day (the first day not counted); a first
day is impossible only when its due date is before ``notice_from``. Saturdays, Sundays and
holidays are lawful first days.

The case of the statute review: ``notice_from`` Mon 2027-04-05 (Patriots' Day is Mon
2027-04-19, a Maine State Government holiday).

- Sat 2027-04-17: business days before it: Apr 16 (1), 15 (2), 14 (3), 13 (4), 12 (5),
  [11, 10 weekend], 9 (6), 8 (7), 7 (8), 6 (9), 5 (10) -> due Mon 2027-04-05 = notice_from:
  lawful (the earlier reading started at Tue Apr 20, the 10th business day after Apr 5).
- Fri 2027-04-16: Apr 15, 14, 13, 12, 9, 8, 7, 6, 5 (9), [4, 3 weekend], Fri Apr 2 (10) ->
  due Fri 2027-04-02, before notice_from: impossible.
- Sun Apr 18 and Mon Apr 19 (Patriots' Day): the same 10 days before -> due Apr 5: lawful.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import icalendar

from constraints.base import Audit
from constraints.maine import (
    ME_APPLICATION,
    application_due,
    application_ok,
    application_window,
    earliest_first_day,
)
from scheduler.core.scenario import Scenario
from scheduler.export.write import write_plan
from scheduler.inputs.replan.assign import deadline_passed

from builders.scenarios import d, load, missing, placed, run

NF = "2027-04-05"
POST = {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Post 212 Scholarship Fund"]}


def _sc(**kw: Any) -> Scenario:
    """A Maine tournament game of ``post`` (80 players, 12:00 for 10 h), April 2027."""
    game = {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, "count": 1, **kw}
    return load(horizon={"start": "2027-04-01", "end": "2027-04-30"}, notice_from=NF,
                operators=[POST], tournaments=[game])


def test_due_dates_on_both_sides_of_the_boundary() -> None:
    assert application_due(d("2027-04-17")) == d("2027-04-05")
    assert application_due(d("2027-04-18")) == d("2027-04-05")
    assert application_due(d("2027-04-19")) == d("2027-04-05")  # Patriots' Day
    assert application_due(d("2027-04-16")) == d("2027-04-02")
    assert application_ok(d("2027-04-17"), d(NF))
    assert not application_ok(d("2027-04-16"), d(NF))
    assert earliest_first_day(d(NF)) == d("2027-04-17")


def test_model_places_saturday_april_17_and_refuses_friday_16() -> None:
    assert [r.first_day for r in run(_sc(fixed_dates=["2027-04-17"])).rows] == [
        d("2027-04-17")]
    plan = run(_sc(fixed_dates=["2027-04-16"]))
    assert plan.rows == () and missing(plan) == [("ME-APPLICATION-WINDOW",)]


def test_model_takes_the_earliest_lawful_day_of_a_window() -> None:
    # window Apr 12 .. Apr 17: Apr 12-16 are due before notice_from; Sat Apr 17 is the one
    # lawful day
    plan = run(_sc(window={"start": "2027-04-12", "end": "2027-04-17"}))
    assert [r.first_day for r in plan.rows] == [d("2027-04-17")]


def test_weekend_and_holiday_first_days_are_lawful() -> None:
    sc = _sc()
    for day in ("2027-04-17", "2027-04-18", "2027-04-19"):
        # the rule's own check (the licence, ME-FEES, is not bought here)
        assert list(ME_APPLICATION.check(Audit(sc, [placed(sc, "g", day)]))) == [], day
        t = sc.tournament("g")
        assert ME_APPLICATION.allows(sc, t, placed(sc, "g", day).timing), day


def test_check_of_friday_16_names_its_due_date() -> None:
    sc = _sc()
    (v,) = ME_APPLICATION.check(Audit(sc, [placed(sc, "g", "2027-04-16")]))
    assert v.rule == "ME-APPLICATION-WINDOW" and v.dates == "2027-04-16"
    assert v.message == (
        "g#1 starts 2027-04-16; its licence application had to be received by 2027-04-02 "
        "(10 Maine business days before), before the earliest filing day 2027-04-05; the "
        "earliest first day is 2027-04-17")


def test_deadlines_and_calendar_show_the_due_date(tmp_path: Path) -> None:
    plan = run(_sc(fixed_dates=["2027-04-17"]))
    # 90 days before Apr 17 is Sun 2027-01-17 (Apr 17 -> Mar 17 is 31 days, -> Feb 17 is 59,
    # -> Jan 17 is 90), before notice_from Apr 5 <= due Apr 5: the window is Apr 5 .. Apr 5
    assert application_window(d("2027-04-17"), d(NF)) == (d(NF), d(NF))
    write_plan(plan, tmp_path / "plan")
    with (tmp_path / "plan" / "deadlines.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["rule"] == "ME-APPLICATION-WINDOW"]
    assert [(r["date"], r["opens"]) for r in rows] == [("2027-04-05", "2027-04-05")]
    cal = icalendar.Calendar.from_ical((tmp_path / "plan" / "calendar.ics").read_bytes())
    due = [e for e in cal.walk("VEVENT") if "application must be received" in
           str(e.get("DESCRIPTION", "")) and e.decoded("DTSTART") == d(NF)]
    assert due and "received between Mon 2027-04-05 and Mon 2027-04-05" in str(
        due[0]["DESCRIPTION"])


def test_replan_keeps_only_what_is_past_its_due_date() -> None:
    sc = _sc()
    t = sc.tournament("g")
    # Apr 16's due date (Apr 2) has passed on Apr 5: it stays where it is; Apr 17's has not
    assert deadline_passed(sc, t, d("2027-04-16"))
    assert not deadline_passed(sc, t, d("2027-04-17"))
