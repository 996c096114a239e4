"""Monthly rhythms (PER-MONTH, PER-MONTH-MIN, PER-WEEK, PER-WEEK-MIN, SPREAD) and the
resources of a room (TABLES, MT-DEALER, MCA 23-5-317(6)): constraints/requests.py, issue #15
parts 4 and 5.

Each class solves tiny scenarios (the CP-SAT model) and runs the independent checker on
hand-made schedules, at the boundaries. The vehicle is a Montana large-stakes tournament of one
calendar day (12:00 for 10 h) in 2027; ``notice_from`` 2026-12-01 keeps MT-NOTICE out of the
way (first days from 2026-12-06). 2027-01-01 is a Friday; ISO week 2027-W01 runs Mon Jan 4 to
Sun Jan 10 (Jan 1-3 belong to 2026-W53).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from typer.testing import CliRunner

from constraints.base import Audit, License, Occurrence
from constraints.registry import check
from constraints.requests import month_of, periods, week_of
from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import PerPeriod
from scheduler.inputs.load import load_scenario

from builders.scenarios import (
    d,
    firsts,
    load,
    missing,
    mt_large,
    mt_room,
    placed,
    problems,
    run,
    scenario,
    violations,
)

large = mt_large
op = mt_room
ROOT = Path(__file__).resolve().parent.parent


def permits(oid: str = "room-a") -> list[License]:
    """The large-stakes permits of both permit years 2027 touches (Jul 1 boundary), $120 each,
    so MT-PERMIT-FEES says nothing in the checker tests."""
    return [License(f"{oid}/{y}", oid, "MT", "mt-large-stakes-permit", "", d(f"{y}-07-01"),
                    d(f"{y + 1}-06-30"), 120, ()) for y in (2026, 2027)]


def rules_of(sc: Scenario, occurrences: list[Occurrence]) -> list[tuple[str, str, str]]:
    """(rule, operator, dates) of every violation, with the permits bought."""
    return violations(sc, occurrences, permits())


def months(days: list[dt.date]) -> list[int]:
    return [x.month for x in days]


# =========================================================================== periods
class TestPeriods:
    def test_months_and_iso_weeks_of_the_window(self) -> None:
        # window Jan 30 .. Mar 2: Jan (partial), Feb, Mar (partial) = 3 months; ISO weeks:
        # Jan 30-31 (Sat, Sun) are 2027-W04, then W05..W09 (W09 = Mar 1-7): 6 weeks
        sc = load(operators=[op()], tournaments=[large("a", window={
            "start": "2027-01-30", "end": "2027-03-02"})])
        t = sc.tournament("a")
        assert periods(sc, t, month_of) == [(2027, 1), (2027, 2), (2027, 3)]
        assert periods(sc, t, week_of) == [(2027, w) for w in range(4, 10)]

    def test_jan_first_is_in_the_last_iso_week_of_2026(self) -> None:
        assert week_of(d("2027-01-01")) == (2026, 53)
        assert week_of(d("2027-01-04")) == (2027, 1)


# =========================================================================== PER-MONTH
class TestPerMonth:
    def test_without_it_a_monthly_event_bunches_in_january(self) -> None:
        # the last objective stage prefers earlier first days: Jan 1..12, one a day
        sc = load(operators=[op()], tournaments=[large("m", count=12)])
        assert months(firsts(run(sc))) == [1] * 12

    def test_twelve_monthly_over_a_year_one_per_month(self) -> None:
        # per_month: 1 = {min: 1, max: 1}; 12 months of 2027, 12 wanted: exactly one each,
        # each on the earliest day of its month (the 1st)
        sc = load(operators=[op()], tournaments=[large("m", count=12, per_month=1)])
        plan = run(sc)
        assert firsts(plan) == [dt.date(2027, k, 1) for k in range(1, 13)]
        assert plan.unscheduled_list == () and plan.conflicts == ()

    def test_max_one_a_month_thirteen_wanted(self) -> None:
        # 12 months x at most 1 = 12 placed; the 13th breaks PER-MONTH on every free day
        sc = load(operators=[op()], tournaments=[large("m", count=13, per_month={"max": 1})])
        plan = run(sc)
        assert months(firsts(plan)) == list(range(1, 13))
        (u,) = plan.unscheduled_list
        assert u.occurrence == 13 and u.rule_ids[0] == "PER-MONTH"
        assert "PER-MONTH" in u.reason and "per_month.max allows at most 1" in u.reason

    def test_max_two_a_month(self) -> None:
        # 2 a month x 12 = 24 of 30
        sc = load(operators=[op()], tournaments=[large("m", count=30, per_month={"max": 2})])
        plan = run(sc)
        assert months(firsts(plan)) == sorted(list(range(1, 13)) * 2)
        assert len(plan.unscheduled_list) == 6

    def test_required_thirteen_into_twelve_is_a_conflict_naming_the_rule(self) -> None:
        sc = load(operators=[op()], tournaments=[large(
            "m", count=13, required=13, per_month={"max": 1})])
        plan = run(sc)
        assert len(firsts(plan)) == 12 and not plan.required_met
        rules = {m.rule for c in plan.conflicts for m in c}
        assert "PER-MONTH" in rules

    def test_minimum_blocked_by_a_blackout_month_is_a_conflict(self) -> None:
        # March and August are all blackout: the minimum of 1 cannot be met in either; the
        # other 10 months get theirs; one conflict each: the month's request and BLACKOUT
        sc = load(operators=[op(blackout=["2027-03-01..2027-03-31", "2027-08-01..2027-08-31"])],
                  tournaments=[large("m", count=12, per_month=1)])
        plan = run(sc)
        assert months(firsts(plan)) == [1, 2, 4, 5, 6, 7, 9, 10, 11, 12]
        assert not plan.required_met  # tourney solve exits 1
        assert [[m.rule for m in c] for c in plan.conflicts] == [["REQUEST", "BLACKOUT"]] * 2
        assert [c[0].render() for c in plan.conflicts] == [
            f"request: m needs at least 1 first day(s) in 2027-{mm} (per_month.min, "
            "PER-MONTH-MIN)" for mm in ("03", "08")]
        # the independent check of the plan names the missing months
        audit = Audit(sc, [placed(sc, "m", x, k) for k, x in enumerate(firsts(plan), 1)],
                      permits())
        assert [(v.rule, v.dates) for v in check(audit)] == [
            ("PER-MONTH-MIN", "2027-03-01..2027-03-31"),
            ("PER-MONTH-MIN", "2027-08-01..2027-08-31")]

    def test_checker_max(self) -> None:
        sc = load(operators=[op()], tournaments=[large("m", count=3, per_month={"max": 1})])
        ok = [placed(sc, "m", "2027-03-31", 1), placed(sc, "m", "2027-04-01", 2)]
        assert rules_of(sc, ok) == []
        bad = [placed(sc, "m", "2027-03-01", 1), placed(sc, "m", "2027-03-31", 2)]
        assert rules_of(sc, bad) == [("PER-MONTH", "room-a", "2027-03-01..2027-03-31")]

    def test_checker_min(self) -> None:
        # window Feb 15..Apr 10: Feb, Mar, Apr; min 1 each; only Feb and Apr held
        sc = load(operators=[op()], tournaments=[large(
            "m", count=3, per_month={"min": 1},
            window={"start": "2027-02-15", "end": "2027-04-10"})])
        held = [placed(sc, "m", "2027-02-15", 1), placed(sc, "m", "2027-04-10", 2)]
        assert rules_of(sc, held) == [("PER-MONTH-MIN", "room-a", "2027-03-01..2027-03-31")]
        assert rules_of(sc, [*held, placed(sc, "m", "2027-03-31", 3)]) == []

    def test_scenario_errors(self) -> None:
        # min above max; 1 a month over 12 months needs 12 but count is 11; a bool is no count
        assert problems(scenario(operators=[op()], tournaments=[large(
            "m", count=24, per_month={"min": 2, "max": 1})])) == {
            ("PER-MONTH-MIN", "tournaments[0].per_month.min")}
        assert problems(scenario(operators=[op()], tournaments=[large(
            "m", count=11, per_month=1)])) == {
            ("PER-MONTH-MIN", "tournaments[0].per_month.min")}
        assert problems(scenario(operators=[op()], tournaments=[large(
            "m", count=12, per_month={"max": 0})])) == {
            ("SCENARIO", "tournaments[0].per_month.max")}


# =========================================================================== PER-WEEK
class TestPerWeek:
    def test_at_most_one_a_week(self) -> None:
        # Jan 4..31 = ISO weeks W01..W04, 4 weeks; 7 wanted -> 4, each on its Monday
        sc = load(horizon={"start": "2027-01-04", "end": "2027-01-31"}, operators=[op()],
                  tournaments=[large("w", count=7, per_week={"max": 1})])
        plan = run(sc)
        assert firsts(plan) == [d("2027-01-04"), d("2027-01-11"), d("2027-01-18"),
                                d("2027-01-25")]
        assert [u.rule_ids[0] for u in plan.unscheduled_list] == ["PER-WEEK"] * 3

    def test_checker(self) -> None:
        # Sun Jan 10 (W01) and Mon Jan 11 (W02) are in two weeks; Mon 4 and Sun 10 in one
        sc = load(operators=[op()], tournaments=[large("w", count=2, per_week={"max": 1})])
        assert rules_of(sc, [placed(sc, "w", "2027-01-10", 1),
                             placed(sc, "w", "2027-01-11", 2)]) == []
        assert rules_of(sc, [placed(sc, "w", "2027-01-04", 1),
                             placed(sc, "w", "2027-01-10", 2)]) == [
            ("PER-WEEK", "room-a", "2027-01-04..2027-01-10")]

    def test_checker_min(self) -> None:
        # window Jan 4..17 = W01, W02; min 1 a week; only W02 held
        sc = load(operators=[op()], tournaments=[large(
            "w", count=2, per_week={"min": 1},
            window={"start": "2027-01-04", "end": "2027-01-17"})])
        assert rules_of(sc, [placed(sc, "w", "2027-01-12")]) == [
            ("PER-WEEK-MIN", "room-a", "2027-01-04..2027-01-10")]


# =========================================================================== SPREAD
class TestSpread:
    def test_twelve_evenly_over_a_year(self) -> None:
        # 12 over 12 months differing by at most 1: one each (2 somewhere needs 0 elsewhere)
        sc = load(operators=[op()], tournaments=[large("m", count=12, spread="even")])
        assert months(firsts(run(sc))) == list(range(1, 13))

    def test_eighteen_over_a_year(self) -> None:
        # 18 = 12 x 1 + 6: six months get 2, six get 1 (earliest days: Jan..Jun get 2)
        sc = load(operators=[op()], tournaments=[large("m", count=18, spread="even")])
        per = [months(firsts(run(sc))).count(k) for k in range(1, 13)]
        assert sorted(per) == [1] * 6 + [2] * 6

    def test_a_closed_month_caps_the_others_at_one(self) -> None:
        # window Jan..Mar with February blacked out: Feb has 0, so Jan and Mar at most 1;
        # 5 wanted -> 2 placed, the rest blocked by SPREAD
        sc = load(operators=[op(blackout=["2027-02-01..2027-02-28"])], tournaments=[large(
            "m", count=5, spread="even", window={"start": "2027-01-01", "end": "2027-03-31"})])
        plan = run(sc)
        assert months(firsts(plan)) == [1, 3]
        assert {u.rule_ids[0] for u in plan.unscheduled_list} == {"SPREAD"}

    def test_checker(self) -> None:
        # window Jan..Mar: 2, 1, 1 is even; 2, 0, 1 is not (2 - 0 = 2 > 1)
        sc = load(operators=[op()], tournaments=[large(
            "m", count=4, spread="even", window={"start": "2027-01-01", "end": "2027-03-31"})])
        even = [placed(sc, "m", x, k) for k, x in enumerate(
            ["2027-01-01", "2027-01-15", "2027-02-01", "2027-03-01"], 1)]
        assert rules_of(sc, even) == []
        uneven = [placed(sc, "m", x, k) for k, x in enumerate(
            ["2027-01-01", "2027-01-15", "2027-03-01"], 1)]
        assert rules_of(sc, uneven) == [("SPREAD", "room-a", "2027-01-01..2027-03-31")]


# =========================================================================== TABLES, MT-DEALER
class TestDealersAndTables:
    DAY = ["2027-08-06"]

    def three(self, cap: str, need: str, pinned: bool = True) -> Scenario:
        # three tournaments pinned to Fri Aug 6, 5 each: 5 + 5 = 10 fits a capacity of 10,
        # 5 + 5 + 5 = 15 does not; c has the lowest priority, so c is the one left out
        fixed = self.DAY if pinned else []
        return load(operators=[op(max_concurrent=3, **{cap: 10})], tournaments=[
            large("a", fixed_dates=fixed, priority=2, **{need: 5}),
            large("b", fixed_dates=fixed, priority=2, **{need: 5}),
            large("c", fixed_dates=fixed, priority=1, **{need: 5})])

    def test_dealers_two_fit_the_third_does_not(self) -> None:
        plan = run(self.three("dealers", "dealers_needed"))
        assert sorted(r.tournament_id for r in plan.rows) == ["a", "b"]
        assert missing(plan) == [("MT-DEALER",)]
        assert "need 15 dealers" in plan.unscheduled_list[0].reason

    def test_tables_two_fit_the_third_does_not(self) -> None:
        plan = run(self.three("tables", "tables_needed"))
        assert sorted(r.tournament_id for r in plan.rows) == ["a", "b"]
        assert missing(plan) == [("TABLES",)]

    def test_a_multi_day_event_needs_them_on_every_day(self) -> None:
        # a runs Aug 6..8 needing 6; b (6) fits on Aug 9 but not on Aug 7 (6 + 6 = 12 > 10)
        sc = load(operators=[op(max_concurrent=2, dealers=10)], tournaments=[
            large("a", days=3, fixed_dates=["2027-08-06"], dealers_needed=6),
            large("b", dealers_needed=6, window={"start": "2027-08-07", "end": "2027-08-09"})])
        plan = run(sc)
        assert firsts(plan, "b") == [d("2027-08-09")]

    def test_checker_at_the_boundary(self) -> None:
        sc = self.three("dealers", "dealers_needed", pinned=False)
        two = [placed(sc, "a", "2027-08-06"), placed(sc, "b", "2027-08-06")]
        assert rules_of(sc, two) == []
        three = [*two, placed(sc, "c", "2027-08-06")]
        assert rules_of(sc, three) == [("MT-DEALER", "room-a", "2027-08-06")]

    def test_no_capacity_no_constraint(self) -> None:
        # needs without a capacity: all three on Aug 6
        sc = load(operators=[op(max_concurrent=3)], tournaments=[
            large(x, fixed_dates=self.DAY, dealers_needed=5, tables_needed=5) for x in "abc"])
        assert len(run(sc).rows) == 3

    def test_scenario_errors(self) -> None:
        # a need above the capacity on its own; dealers on a Maine operator
        assert problems(scenario(operators=[op(dealers=4)], tournaments=[
            large("a", dealers_needed=5)])) == {("MT-DEALER", "tournaments[0].dealers_needed")}
        assert problems(scenario(operators=[op(tables=4)], tournaments=[
            large("a", tables_needed=5)])) == {("TABLES", "tournaments[0].tables_needed")}
        me = {"id": "post-1", "name": "Post", "jurisdiction": "ME", "local_approval": True,
              "beneficiaries": ["Food Bank"], "organized_on": "1990-01-01", "dealers": 3}
        assert problems(scenario(operators=[me])) == {("MT-DEALER", "operators[0].dealers")}


# =========================================================================== the example
EXAMPLE = ROOT / "data" / "examples" / "monthly-series.yaml"
runner = CliRunner()


def test_bundled_example_solves_and_checks() -> None:
    sc = load_scenario(EXAMPLE)
    plan = run(sc)
    assert plan.required_met and plan.conflicts == () and plan.unscheduled_list == ()
    # per_month: 1 on the first Saturday of each month of 2027, but October: the championship
    # (Fri Oct 1 - Sun Oct 3) needs 10 dealers a day, the deepstack 8, the room has 12
    # (10 + 8 = 18 > 12): the deepstack moves from Sat Oct 2 to Sat Oct 9
    assert [str(x) for x in firsts(plan, "deepstack")] == [
        "2027-01-02", "2027-02-06", "2027-03-06", "2027-04-03", "2027-05-01", "2027-06-05",
        "2027-07-03", "2027-08-07", "2027-09-04", "2027-10-09", "2027-11-06", "2027-12-04"]
    # spread: even, 18 over 12 months = 6 months of 2 and 6 of 1; earlier first days win the
    # tie, so January to June get 2
    per = [months(firsts(plan, "poker-run")).count(k) for k in range(1, 13)]
    assert per == [2] * 6 + [1] * 6
    audit = Audit(sc, [placed(sc, r.tournament_id, r.first_day, r.occurrence)
                       for r in plan.rows], plan.license_list)
    assert check(audit) == []


def test_bundled_example_through_tourney_check(tmp_path: Path) -> None:
    # tourney solve writes schedule.csv; tourney check reads it back: clean (exit 0). Moved to
    # Sat Oct 2 (12:00 to 24:00), the 10th deepstack shares a day with the championship:
    # 10 + 8 = 18 dealers > 12, MT-DEALER (exit 1)
    res = runner.invoke(app, ["solve", str(EXAMPLE), "--out", str(tmp_path / "plan")])
    assert res.exit_code == 0, res.output
    schedule = tmp_path / "plan" / "schedule.csv"
    res = runner.invoke(app, ["check", str(EXAMPLE), str(schedule), "--format", "json"])
    assert res.exit_code == 0, res.output
    lines = schedule.read_text(encoding="utf-8").splitlines(keepends=True)
    moved = [ln.replace("2027-10-09", "2027-10-02").replace("2027-10-10", "2027-10-03")
             if ln.startswith("deepstack,10,") else ln for ln in lines]
    assert moved != lines
    schedule.write_text("".join(moved), encoding="utf-8")
    res = runner.invoke(app, ["check", str(EXAMPLE), str(schedule), "--format", "json"])
    assert res.exit_code == 1, res.output
    (v,) = json.loads(res.stdout)
    assert (v["rule"], v["dates"]) == ("MT-DEALER", "2027-10-02")
    assert "need 18 dealers (championship#1 10 + deepstack#10 8); it has 12" in v["message"]


def test_bundled_example_round_trips(tmp_path: Path) -> None:
    # to_yaml writes per_month: 1 as {min: 1, max: 1}; read back, the scenario is equal
    sc = load_scenario(EXAMPLE)
    assert sc.tournament("deepstack").per_month == PerPeriod(min=1, max=1)
    path = tmp_path / "again.yaml"
    path.write_text(sc.to_yaml(), encoding="utf-8")
    assert load_scenario(path) == sc
