"""Maine business days (RULES.md "Maine business day"; ME-APPLICATION-WINDOW, 16-633 CMR ch. 32
§ 2; ME-REPORT, § 8): Monday to Friday except the Maine State Government holidays (4 M.R.S.
§ 1051, a Saturday one observed the Friday before, a Sunday one the Monday after) and
Thanksgiving Friday, and except ``settings.closed_days`` (days the Governor closes offices).

November-December 2027: Thanksgiving Thu Nov 25, Thanksgiving Friday Nov 26, Veterans Day
Thu Nov 11.

- First day Fri 2027-12-10: back Dec 9 (1), 8 (2), 7 (3), 6 (4), 3 (5), 2 (6), 1 (7), Nov 30
  (8), 29 (9), [28, 27 weekend, 26 Thanksgiving Friday, 25 Thanksgiving] Wed Nov 24 (10) ->
  due Wed 2027-11-24. Without Thanksgiving Friday it would be due on it, Fri Nov 26, one
  business day later.
- Licensed period ending Sat 2027-11-13: Nov 15 (1), 16, 17, 18, 19 (5), 22, 23, 24 (8),
  [25, 26], 29 (9), 30 (10) -> report due Tue 2027-11-30 (without Thanksgiving Friday: Mon
  Nov 29).
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from constraints.maine import (
    application_due,
    application_earliest_first_day,
    application_ok,
    is_maine_business_day,
    maine_holidays,
    report_due,
    thanksgiving_friday,
)
from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.export.checklist import readings
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, api
from scheduler.ledger.audit import audit_ledger

from builders.plans import LINEAGE, SCHEDULE_COLUMNS, TODAY
from builders.scenarios import d, load, missing, run, scenario

POST = {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Post 212 Scholarship Fund"]}


def _sc(notice_from: str, closed: list[str] | None = None, **kw: Any) -> Any:
    game = {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, "count": 1, **kw}
    return load(horizon={"start": "2027-11-01", "end": "2027-12-31"}, notice_from=notice_from,
                operators=[POST], tournaments=[game],
                settings={"closed_days": closed or []})


# ------------------------------------------------------------------ the days
def test_thanksgiving_friday_is_a_state_holiday() -> None:
    # the fourth Thursday of November, + 1 day
    assert thanksgiving_friday(2026) == d("2026-11-27")
    assert thanksgiving_friday(2027) == d("2027-11-26")
    assert thanksgiving_friday(2028) == d("2028-11-24")
    assert d("2027-11-26") in maine_holidays(2027)
    assert not is_maine_business_day(d("2027-11-26"))
    assert not is_maine_business_day(d("2027-11-25"))  # Thanksgiving Day
    assert is_maine_business_day(d("2027-11-24"))
    assert is_maine_business_day(d("2027-11-29"))


def test_weekend_holidays_are_observed_friday_and_monday() -> None:
    # Juneteenth Sat 2027-06-19 -> Fri Jun 18; Independence Day Sun 2027-07-04 -> Mon Jul 5;
    # New Year's Day Sat 2028-01-01 -> Fri 2027-12-31
    for day in ("2027-06-18", "2027-07-05", "2027-12-31"):
        assert not is_maine_business_day(d(day)), day
    assert is_maine_business_day(d("2027-06-17"))
    assert is_maine_business_day(d("2027-07-06"))


def test_a_closed_day_is_not_a_business_day() -> None:
    assert is_maine_business_day(d("2027-12-06"))
    assert not is_maine_business_day(d("2027-12-06"), (d("2027-12-06"),))


# ------------------------------------------------------------------ the application
def test_application_due_on_thanksgiving_friday_moves_one_business_day_earlier() -> None:
    assert application_due(d("2027-12-10")) == d("2027-11-24")
    # notice_from Fri Nov 26 (offices closed): Dec 10's application was due Nov 24, before it;
    # the 10 business days from Nov 26 on are Nov 29, 30, Dec 1, 2, 3, 6, 7, 8, 9, 10 -> the
    # earliest first day is Sat Dec 11 (due Mon Nov 29)
    assert not application_ok(d("2027-12-10"), d("2027-11-26"))
    assert application_earliest_first_day(d("2027-11-26")) == d("2027-12-11")
    assert application_due(d("2027-12-11")) == d("2027-11-29")
    # notice_from Wed Nov 24: Dec 10 is still on time
    assert application_ok(d("2027-12-10"), d("2027-11-24"))


def test_model_refuses_the_game_whose_application_fell_due_on_thanksgiving_friday() -> None:
    plan = run(_sc("2027-11-26", fixed_dates=["2027-12-10"]))
    assert plan.rows == () and missing(plan) == [("ME-APPLICATION-WINDOW",)]
    plan = run(_sc("2027-11-26", fixed_dates=["2027-12-11"]))
    assert [r.first_day for r in plan.rows] == [d("2027-12-11")]


def test_closed_days_both_ways_for_the_application() -> None:
    # Governor closes offices Mon Dec 6: Dec 10's 10 business days back are Dec 9, 8, 7, 3,
    # 2, 1, Nov 30, 29, 24, 23 -> due Tue Nov 23. With notice_from Wed Nov 24 it is refused
    # with the closed day and placed without it (due Nov 24).
    assert application_due(d("2027-12-10"), (d("2027-12-06"),)) == d("2027-11-23")
    plan = run(_sc("2027-11-24", fixed_dates=["2027-12-10"]))
    assert [r.first_day for r in plan.rows] == [d("2027-12-10")]
    plan = run(_sc("2027-11-24", ["2027-12-06"], fixed_dates=["2027-12-10"]))
    assert plan.rows == () and missing(plan) == [("ME-APPLICATION-WINDOW",)]


def test_deadlines_csv_reads_thanksgiving_friday_and_closed_days(tmp_path: Path) -> None:
    from scheduler.export.write import write_plan  # the writer, only in this test

    def due_days(closed: list[str] | None) -> list[tuple[str, str]]:
        plan = run(_sc("2027-11-01", closed, fixed_dates=["2027-12-10"]))
        out = tmp_path / f"plan-{len(closed or [])}"
        write_plan(plan, out)
        with (out / "deadlines.csv").open() as f:
            return [(r["rule"], r["date"]) for r in csv.DictReader(f)]
    # per-tournament licence valid Dec 10; report: Dec 13 (1), 14, 15, 16, 17 (5), 20, 21,
    # 22, 23 (9), [24 Christmas observed] 27 (10) -> Mon 2027-12-27
    assert due_days(None) == [("ME-APPLICATION-WINDOW", "2027-11-24"),
                              ("ME-REPORT", "2027-12-27")]
    # closed Dec 6 (application one business day earlier) and Dec 20 (report one later:
    # Dec 13-17, 21, 22, 23, 27 (9), 28 (10))
    assert due_days(["2027-12-06", "2027-12-20"]) == [("ME-APPLICATION-WINDOW", "2027-11-23"),
                                                       ("ME-REPORT", "2027-12-28")]


# ------------------------------------------------------------------ settings.closed_days
def test_closed_days_take_dates_and_ranges_sorted() -> None:
    sc = _sc("2027-11-01", ["2027-12-07..2027-12-08", "2027-12-06", "2027-12-07"])
    assert sc.settings.closed_days == (d("2027-12-06"), d("2027-12-07"), d("2027-12-08"))
    assert any("closed_days" in line and "2027-12-06, 2027-12-07, 2027-12-08" in line
               for line in readings(sc))
    assert not any("closed_days" in line for line in readings(_sc("2027-11-01")))


def test_a_bad_closed_day_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as exc:
        load_scenario(scenario(operators=[POST], settings={"closed_days": ["2027-02-30"]}))
    assert [p.path for p in exc.value.problems] == ["settings.closed_days"]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(scenario(operators=[POST],
                                            settings={"closed_days": ["next tuesday"]})))
    r = CliRunner().invoke(app, ["solve", str(path), "--out", str(tmp_path / "p")])
    assert r.exit_code == 2 and "settings.closed_days" in r.output
    assert "Traceback" not in r.output


# ------------------------------------------------------------------ the report, in the ledger
HOLDEM = "post/per-tournament/2027-11-13/holdem"


def _plan(folder: Path) -> Path:
    """post (ME): ``holdem#1`` on Sat 2027-11-13, a per-tournament licence for that day."""
    folder.mkdir(parents=True)
    with (folder / "schedule.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=SCHEDULE_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerow({"tournament_id": "holdem", "occurrence": "1", "operator_id": "post",
                    "jurisdiction": "ME", "type": "tournament-game", "charitable": "false",
                    "title": "Hold'em", "start": "", "end": "", "first_day": "2027-11-13",
                    "last_day": "2027-11-13", "notice_due": "", "permit_year": "",
                    "counted": "true", "players": "80", "license_id": HOLDEM,
                    "uid": f"holdem-1@post.{LINEAGE}.tourney.invalid", "sequence": "0",
                    "recurrence_id": ""})
    with (folder / "licenses.csv").open("w", newline="") as f:
        w2 = csv.writer(f, lineterminator="\n")
        w2.writerow(["license_id", "operator_id", "jurisdiction", "kind", "tier", "valid_from",
                     "valid_to", "fee_usd", "covers"])
        w2.writerow([HOLDEM, "post", "ME", "me-per-tournament", "51-100", "2027-11-13",
                     "2027-11-13", "75", "holdem#1"])
    return folder


def _report_rules(lg: Ledger, filed: str, closed: list[str] | None = None) -> list[str]:
    """The report's due day and the rules ``check --ledger`` (as of 2027-12-15) finds when
    the report is recorded filed on ``filed`` (correcting the current entry, if any)."""
    sc = load(horizon={"start": "2027-11-01", "end": "2027-12-31"}, operators=[POST],
              settings={"closed_days": closed or []})
    current = lg.reports()
    corrects = int(current["id"].iloc[-1]) if len(current) else None
    api.record_report(lg, HOLDEM, period_end=d("2027-11-13"), filed_on=d(filed),
                      corrects=corrects, by="ann", today=TODAY)
    violations, actuals = audit_ledger(lg, sc, as_of=d("2027-12-15"))
    (owed,) = actuals.reports
    return [f"due {owed.due}", *(v.rule for v in violations)]


def test_a_report_filed_on_its_due_day_is_not_late(ledger: Ledger, tmp_path: Path) -> None:
    api.adopt(ledger, _plan(tmp_path / "plan"), organization="Post 212", by="ann")
    api.record_filed(ledger, "me-application", license_ref=HOLDEM, filed_on=d("2027-10-01"),
                     by="ann", today=TODAY)
    # due Tue Nov 30 (Thanksgiving Friday is no business day): filed Nov 30 is on time,
    # Dec 1 is late
    assert _report_rules(ledger, "2027-11-30") == ["due 2027-11-30"]
    assert _report_rules(ledger, "2027-12-01") == ["due 2027-11-30", "ME-REPORT"]
    # Governor closes offices Mon Nov 29: Nov 15-19, 22, 23, 24 (8), 30 (9), Dec 1 (10) ->
    # due Wed Dec 1: filed Dec 1 is on time, Dec 2 late
    assert _report_rules(ledger, "2027-12-01", ["2027-11-29"]) == ["due 2027-12-01"]
    assert _report_rules(ledger, "2027-12-02", ["2027-11-29"]) == ["due 2027-12-01",
                                                                  "ME-REPORT"]


def test_closed_day_report_due_function() -> None:
    assert report_due(d("2027-11-13")) == d("2027-11-30")
    assert report_due(d("2027-11-13"), (d("2027-11-29"),)) == d("2027-12-01")
    assert report_due(d("2027-11-13"), [dt.date(2027, 11, 29)]) == d("2027-12-01")
