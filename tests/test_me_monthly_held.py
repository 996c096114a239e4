"""ME-MONTHLY-LIMIT (17 M.R.S. § 1836; RULES.md row): at most 2 licensed games per organization
per calendar month, counting the games already held in that month, before the plan's first
day (``operators[].held_in_current_month.games``, or the ledger's held entries with
``solve --ledger``).

The case of issue #22: a Maine re-plan whose horizon starts Thu 2026-10-15, after 2 games were
held on Sat Oct 3 and Sat Oct 10. October: 2 held, so 2 - 2 = 0 more; November: 2. The
tournament asks for 4 Saturday games (Oct 17, 24, 31; Nov 7, 14, 21, 28 are its 7 Saturdays),
so 2 are placed, both in November, and 2 are not placed (ME-MONTHLY-LIMIT).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from constraints.base import Audit
from constraints.maine.limits import ME_MONTHLY
from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, api
from scheduler.ledger.history import describe, from_ledger, read_history

from builders.plans import LINEAGE, SCHEDULE_COLUMNS, TODAY
from builders.scenarios import d, firsts, load, missing, placed, run, scenario

HORIZON = {"start": "2026-10-15", "end": "2026-11-30"}
NF = "2026-09-01"  # applications for every Saturday of the horizon are still on time
"""Also the day the plans are made as of (``as_of``): the suite's today, 2026-12-01
(conftest), is after the horizon, when nothing new can be placed."""


def post(**kw: Any) -> dict[str, Any]:
    return {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
            "organized_on": "1946-05-12", "local_approval": True,
            "beneficiaries": ["Post 212 Scholarship Fund"], **kw}


def holdem(**kw: Any) -> dict[str, Any]:
    """Saturday Hold'em of ``post``: 80 players, 12:00 for 10 h, up to 4 games."""
    return {"id": "holdem", "title": "Hold'em", "type": "tournament-game",
            "operators": ["post"], "players": 80, "entry_fee": 100, "prize_share": 0.8,
            "start_time": "12:00", "hours": 10, "count": 4, "weekdays": ["sat"], **kw}


def _sc(held: int | None = None, **kw: Any) -> Scenario:
    op = post() if held is None else post(held_in_current_month={"games": held})
    return load(horizon=HORIZON, notice_from=NF, as_of=NF, operators=[op],
                tournaments=[holdem()], **kw)


def _per_month(days: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for day in days:
        out[f"{day:%Y-%m}"] = out.get(f"{day:%Y-%m}", 0) + 1
    return out


# ------------------------------------------------------------------ the YAML count
def test_two_held_in_october_leave_none_in_october_and_two_in_november() -> None:
    plan = run(_sc(2))
    assert _per_month(firsts(plan)) == {"2026-11": 2}
    assert [("ME-MONTHLY-LIMIT" in why) for why in missing(plan)] == [True, True]


def test_one_held_in_october_leaves_one_more() -> None:
    # October: 2 - 1 = 1; November 2: 3 of the 4 placed
    plan = run(_sc(1))
    assert _per_month(firsts(plan)) == {"2026-10": 1, "2026-11": 2}


def test_none_held_two_a_month() -> None:
    plan = run(_sc())
    assert _per_month(firsts(plan)) == {"2026-10": 2, "2026-11": 2}


def _monthly(sc: Scenario, *days: str) -> list[str]:
    """The months ME-MONTHLY-LIMIT's check finds over, of games of ``holdem`` on ``days``."""
    audit = Audit(sc, [placed(sc, "holdem", day, k) for k, day in enumerate(days, start=1)])
    return [v.dates for v in ME_MONTHLY.check(audit)]


def test_check_counts_the_held_games() -> None:
    sc = _sc(2)
    # a third October game (2 held + 1): a violation; a November one: none
    assert _monthly(sc, "2026-10-17") == ["2026-10"]
    assert _monthly(sc, "2026-11-07", "2026-11-14") == []
    (v,) = ME_MONTHLY.check(Audit(sc, [placed(sc, "holdem", "2026-10-17")]))
    assert "2 held before the plan + 1 planned = 3 tournament games in 2026-10" in v.message
    # with 1 held, one October game is lawful and a second is the third
    assert _monthly(_sc(1), "2026-10-17") == []
    assert _monthly(_sc(1), "2026-10-17", "2026-10-24") == ["2026-10"]
    assert _monthly(_sc(0), "2026-10-17", "2026-10-24") == []


def test_usage_counts_the_held_games() -> None:
    plan = run(_sc(2))
    u = plan.usage()
    rows = [(f"{r.period_start:%Y-%m}", r.used, r.held)
            for r in u[u.rule_id == "ME-MONTHLY-LIMIT"].itertuples()]
    # October: 2 held + 0 planned; November: 0 held + 2 planned
    assert rows == [("2026-10", 2, 2), ("2026-11", 2, 0)]


def test_the_count_is_a_maine_field_and_must_be_possible() -> None:
    with pytest.raises(ScenarioError) as exc:
        load_scenario(scenario(operators=[{"id": "room-a", "name": "A", "jurisdiction": "MT",
                                           "live_tables": 2,
                                           "held_in_current_month": {"games": 1}}]))
    assert [(p.rule, p.path) for p in exc.value.problems] == [
        ("SCENARIO", "operators[0].held_in_current_month")]
    # month_rule start, horizon from Nov 1: no November game can have started before it
    with pytest.raises(ScenarioError) as exc:
        load_scenario(scenario(horizon={"start": "2026-11-01", "end": "2026-11-30"},
                               operators=[post(held_in_current_month={"games": 1})],
                               tournaments=[holdem()], settings={"month_rule": "start"}))
    assert [(p.rule, p.path) for p in exc.value.problems] == [
        ("ME-MONTHLY-LIMIT", "operators[0].held_in_current_month.games")]
    with pytest.raises(ScenarioError):
        load_scenario(scenario(operators=[post(held_in_current_month={"games": -1})]))


# ------------------------------------------------------------------ the ledger's count
def _first_plan(folder: Path) -> Path:
    """The plan of October 2026 as adopted: holdem#1..4 on Sat Oct 3, 10, 17, 24."""
    folder.mkdir(parents=True)
    days = ["2026-10-03", "2026-10-10", "2026-10-17", "2026-10-24"]
    with (folder / "schedule.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=SCHEDULE_COLUMNS, lineterminator="\n")
        w.writeheader()
        for k, day in enumerate(days, start=1):
            w.writerow({"tournament_id": "holdem", "occurrence": str(k), "operator_id": "post",
                        "jurisdiction": "ME", "type": "tournament-game",
                        "charitable": "false", "title": "Hold'em", "start": "", "end": "",
                        "first_day": day, "last_day": day, "notice_due": "",
                        "permit_year": "", "counted": "true", "players": "80",
                        "license_id": "", "uid": f"holdem-{k}@post.{LINEAGE}.tourney.invalid",
                        "sequence": "0", "recurrence_id": ""})
    with (folder / "licenses.csv").open("w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerow(
            ["license_id", "operator_id", "jurisdiction", "kind", "tier", "valid_from",
             "valid_to", "fee_usd", "covers"])
    return folder


@pytest.fixture
def october(ledger: Ledger, tmp_path: Path) -> Ledger:
    """The October plan adopted; holdem#1 (Oct 3) and holdem#2 (Oct 10) held."""
    api.adopt(ledger, _first_plan(tmp_path / "first"), organization="Post 212", by="ann")
    for k, day in ((1, "2026-10-03"), (2, "2026-10-10")):
        api.record_held(ledger, f"holdem#{k}", first_day=d(day), last_day=d(day), by="ann",
                        today=TODAY)
    return ledger


def test_replan_from_the_ledger_places_no_third_october_game(october: Ledger) -> None:
    sc, history = from_ledger(_sc(), october)
    assert history.me_held == {"post": 2}
    assert sc.operator("post").held_in_current_month.games == 2
    assert describe(history) == [
        "post: 2 licensed game(s) held in 2026-10 before 2026-10-15 (ME-MONTHLY-LIMIT)"]
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    assert _per_month(firsts(plan)) == {"2026-11": 2}


def test_a_planned_game_not_recorded_yet_counts_a_cancelled_one_does_not(
        october: Ledger) -> None:
    # horizon from Oct 25: Oct 17 and Oct 24 (holdem#3, #4) are before it, not recorded
    sc = load(horizon={"start": "2026-10-25", "end": "2026-11-30"}, notice_from=NF,
              operators=[post()], tournaments=[holdem()])
    h = read_history(october, sc)
    assert h.me_held == {"post": 4}
    assert describe(h) == [
        "post: 4 licensed game(s) held in 2026-10 before 2026-10-25 (ME-MONTHLY-LIMIT), of "
        "which 2 planned and not recorded yet, counted as held: holdem#3 on 2026-10-17, "
        "holdem#4 on 2026-10-24 (tourney record held or cancelled)"]
    api.record_cancelled(october, "holdem#3", by="ann")
    api.record_cancelled(october, "holdem#4", by="ann")
    assert read_history(october, sc).me_held == {"post": 2}


def test_a_typed_count_that_differs_from_the_ledger_is_an_input_error(
        october: Ledger) -> None:
    with pytest.raises(ScenarioError) as exc:
        from_ledger(_sc(1), october)
    (p,) = exc.value.problems
    assert (p.rule, p.path) == ("ME-MONTHLY-LIMIT", "operators[0].held_in_current_month.games")
    assert "the YAML says 1" in p.message and "the ledger records 2" in p.message
    sc, _ = from_ledger(_sc(2), october)  # the same count: fine
    assert sc.operator("post").held_in_current_month.games == 2


def test_cli_solve_with_the_ledger_says_what_it_counted(october: Ledger,
                                                        tmp_path: Path) -> None:
    path = tmp_path / "replan.yaml"
    path.write_text(yaml.safe_dump(scenario(horizon=HORIZON, notice_from=NF, as_of=NF,
                                            operators=[post()], tournaments=[holdem()])))
    out = tmp_path / "plan"
    r = CliRunner().invoke(app, ["solve", str(path), "--ledger", october.url, "--out",
                                 str(out), "--deterministic-time", "5", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert ("from the ledger: post: 2 licensed game(s) held in 2026-10 before 2026-10-15 "
            "(ME-MONTHLY-LIMIT)") in r.output
    assert "nothing" not in r.output
    with (out / "schedule.csv").open() as f:
        assert sorted(r["first_day"][:7] for r in csv.DictReader(f)) == ["2026-11", "2026-11"]
    r = CliRunner().invoke(app, ["check", str(path), str(out / "schedule.csv")])
    assert r.exit_code == 0, r.output


def test_the_count_and_closed_days_round_trip_through_a_workbook(tmp_path: Path) -> None:
    sc = _sc(2, settings={"closed_days": ["2026-11-27", "2026-12-24..2026-12-25"]})
    path = tmp_path / "year.xlsx"
    path.write_bytes(sc.to_xlsx())
    back = Scenario.from_excel(path)
    assert back == sc
    assert back.operator("post").held_in_current_month.games == 2
    assert back.settings.closed_days == (d("2026-11-27"), d("2026-12-24"), d("2026-12-25"))
