"""The scenario's own requests (constraints/common/): HORIZON, WINDOW, WEEKDAYS, BLACKOUT,
COUNT, FIXED-DATES, MIN-GAP, MAX-CONCURRENT.

They are not statute rules but are enforced by the solver and verified by the checker the same
way, so each class tests a tiny solve and the independent checker (illegal schedule and its
legal twin), plus the SCENARIO errors of the fields involved. Montana large-stakes tournaments
(12:00 for 10 h, one calendar day) are the vehicle; one Maine test each shows that BLACKOUT
and MAX-CONCURRENT act in both states. Expected values are computed by hand beside them.

August 2027: Aug 1 is a Sunday, so the Wednesdays are 4, 11, 18, 25, the Fridays 6, 13, 20, 27
and the Saturdays 7, 14, 21, 28. ``notice_from`` 2027-07-01 keeps MT-NOTICE (first day >=
Jul 6) and ME-APPLICATION-WINDOW (first day >= Jul 16) out of the way.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from constraints.base import License

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
    violated,
    violations,
)

AUG = {"start": "2027-08-01", "end": "2027-08-31"}
NOTICE = "2027-07-01"


# --------------------------------------------------------------------------- builders
op = mt_room
large = mt_large



def small(tid: str, ops: tuple[str, ...] = ("room-a",), **kw: Any) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "small-stakes", "operators": list(ops),
            "start_time": "19:00", "hours": 4, "entry_fee": 60, **kw}


def me_org(oid: str = "post-1", **kw: Any) -> dict[str, Any]:
    return {"id": oid, "name": oid.title(), "jurisdiction": "ME", "local_approval": True,
            "beneficiaries": ["Food Bank"], "organized_on": "1990-01-01", **kw}


def me_game(tid: str, ops: tuple[str, ...] = ("post-1",), **kw: Any) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": list(ops),
            "start_time": "12:00", "hours": 10, "players": 50, "entry_fee": 50,
            "prize_share": 0.8, **kw}


def aug(**kw: Any) -> Any:
    """A loaded scenario over August 2027."""
    return load(horizon=AUG, notice_from=NOTICE, **kw)


def permits(*oids: str) -> list[License]:
    """Large- and small-stakes permits of the 2027-07-01 permit year ($120, $500)."""
    out = []
    for oid in oids:
        for kind, fee in (("mt-large-stakes-permit", 120), ("mt-small-stakes-permit", 500)):
            out.append(License(f"{oid}/{kind}", oid, "MT", kind, "", d("2027-07-01"),
                               d("2028-06-30"), fee, ()))
    return out


def aug_days(*days: int) -> list[dt.date]:
    return [dt.date(2027, 8, x) for x in days]


# =========================================================================== HORIZON
class TestHorizon:
    """HORIZON: every occurrence lies entirely inside the horizon, from its first to its last
    calendar day (play past midnight uses the next day)."""

    TEN = {"start": "2027-08-01", "end": "2027-08-10"}

    def test_three_day_tournament_must_end_by_the_last_day(self) -> None:
        # Aug 8..10 fits; Aug 9..11 does not
        sc = load(horizon=self.TEN, notice_from=NOTICE, operators=[op(max_concurrent=2)],
                  tournaments=[large("ok", days=3, fixed_dates=["2027-08-08"]),
                               large("late", days=3, fixed_dates=["2027-08-09"])])
        plan = run(sc)
        (row,) = plan.rows
        assert (row.tournament_id, row.first_day, row.last_day) == (
            "ok", d("2027-08-08"), d("2027-08-10"))
        assert missing(plan, "late") == [("HORIZON",)]

    def test_play_past_midnight_on_the_last_day(self) -> None:
        # 12:00 + 14 h = 02:00 Aug 11 (outside); 12:00 + 12 h = 24:00, Aug 11 not touched
        sc = load(horizon=self.TEN, notice_from=NOTICE, operators=[op(max_concurrent=2)],
                  tournaments=[large("long", hours=14, fixed_dates=["2027-08-10"]),
                               large("short", hours=12, fixed_dates=["2027-08-10"])])
        plan = run(sc)
        assert [(r.tournament_id, r.last_day) for r in plan.rows] == [
            ("short", d("2027-08-10"))]
        assert missing(plan, "long") == [("HORIZON",)]

    def test_horizon_limits_the_count(self) -> None:
        # 3-day blocks, one at a time, in 10 days: floor(10 / 3) = 3 of 5
        sc = load(horizon=self.TEN, notice_from=NOTICE, operators=[op()],
                  tournaments=[large("a", days=3, count=5)])
        plan = run(sc)
        assert len(firsts(plan)) == 3
        assert all(r.last_day <= d("2027-08-10") for r in plan.rows)
        assert len(plan.unscheduled_list) == 2

    def test_checker(self) -> None:
        sc = load(horizon=self.TEN, notice_from=NOTICE, operators=[op()],
                  tournaments=[large("a", days=3)])
        lic = permits("room-a")
        assert violated(sc, [placed(sc, "a", "2027-08-08")], lic) == []
        assert violations(sc, [placed(sc, "a", "2027-08-09")], lic) == [
            ("HORIZON", "room-a", "2027-08-09")]  # runs Aug 9..11
        assert violations(sc, [placed(sc, "a", "2027-07-31")], lic) == [
            ("HORIZON", "room-a", "2027-07-31")]  # starts before Aug 1

    def test_horizon_must_not_end_before_it_starts(self) -> None:
        data = scenario(horizon={"start": "2027-01-01", "end": "2026-12-31"}, operators=[op()])
        assert problems(data) == {("SCENARIO", "horizon.end")}

    def test_two_years_is_the_most(self) -> None:
        # 2027-01-01..2028-12-31 is exactly 2 years (365 + 366 = 731 days)
        load(horizon={"start": "2027-01-01", "end": "2028-12-31"}, operators=[op()])
        data = scenario(horizon={"start": "2027-01-01", "end": "2029-01-02"}, operators=[op()])
        assert problems(data) == {("SCENARIO", "horizon.end")}

    def test_two_years_and_one_day_is_rejected(self) -> None:
        # 2027-01-01..2029-01-01 = 731 + 1 = 732 days > 2 years
        data = scenario(horizon={"start": "2027-01-01", "end": "2029-01-01"}, operators=[op()])
        assert problems(data) == {("SCENARIO", "horizon.end")}


# =========================================================================== WINDOW
class TestWindow:
    """WINDOW: the allowed first days, both inclusive; an occurrence may run past its end."""

    W = {"start": "2027-08-05", "end": "2027-08-07"}

    def test_only_days_of_the_window(self) -> None:
        # 3 days in the window, one tournament a day -> 3 of 10
        sc = aug(operators=[op()], tournaments=[large("a", count=10, window=self.W)])
        plan = run(sc)
        assert firsts(plan) == aug_days(5, 6, 7)
        assert len(plan.unscheduled_list) == 7
        assert all("WINDOW" in rules for rules in missing(plan))

    def test_may_run_past_the_window_end(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", days=3, window={
            "start": "2027-08-07", "end": "2027-08-07"})])
        (row,) = run(sc).rows
        assert (row.first_day, row.last_day) == (d("2027-08-07"), d("2027-08-09"))

    def test_fixed_date_outside_the_window(self) -> None:
        sc = aug(operators=[op()],
                 tournaments=[large("a", window=self.W, fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert plan.rows == ()
        (u,) = plan.unscheduled_list
        assert (u.rule_ids, u.required) == (("WINDOW",), True)

    def test_checker(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", window=self.W)])
        lic = permits("room-a")
        for ok in ("2027-08-05", "2027-08-07"):
            assert violated(sc, [placed(sc, "a", ok)], lic) == []
        for bad in ("2027-08-04", "2027-08-08"):
            assert violations(sc, [placed(sc, "a", bad)], lic) == [("WINDOW", "room-a", bad)]

    def test_bad_windows(self) -> None:
        back = {"start": "2027-08-07", "end": "2027-08-05"}
        assert problems(scenario(horizon=AUG, operators=[op()],
                                 tournaments=[large("a", window=back)])) == {
            ("SCENARIO", "tournaments[0].window.end")}
        outside = {"start": "2027-09-01", "end": "2027-09-30"}
        assert problems(scenario(horizon=AUG, operators=[op()],
                                 tournaments=[large("a", window=outside)])) == {
            ("SCENARIO", "tournaments[0].window")}


# =========================================================================== WEEKDAYS
class TestWeekdays:
    """WEEKDAYS: the allowed weekdays of the first day."""

    def test_fridays_of_august(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", count=10, weekdays=["fri"])])
        plan = run(sc)
        assert firsts(plan) == aug_days(6, 13, 20, 27)
        assert len(plan.unscheduled_list) == 6  # 10 - 4

    def test_only_the_first_day_counts(self) -> None:
        # Fri-Sun: the Saturday and Sunday are play days, not first days
        sc = aug(operators=[op()],
                 tournaments=[large("a", days=3, weekdays=["fri"], fixed_dates=["2027-08-06"])])
        (row,) = run(sc).rows
        assert (row.first_day, row.last_day) == (d("2027-08-06"), d("2027-08-08"))

    def test_fixed_date_on_another_weekday(self) -> None:
        sc = aug(operators=[op()],
                 tournaments=[large("a", weekdays=["fri"], fixed_dates=["2027-08-07"])])
        assert missing(run(sc)) == [("WEEKDAYS",)]

    def test_checker(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", weekdays=["fri"])])
        lic = permits("room-a")
        assert violated(sc, [placed(sc, "a", "2027-08-06")], lic) == []
        assert violations(sc, [placed(sc, "a", "2027-08-07")], lic) == [
            ("WEEKDAYS", "room-a", "2027-08-07")]

    def test_unknown_weekday(self) -> None:
        assert problems(scenario(operators=[op()],
                                 tournaments=[large("a", weekdays=["fridays"])])) == {
            ("SCENARIO", "tournaments[0].weekdays[0]")}


# =========================================================================== BLACKOUT
class TestBlackout:
    """BLACKOUT: no occurrence is conducted on a blackout day of any of its operators, on any
    calendar day it touches."""

    WEEK = {"start": "2027-08-01", "end": "2027-08-07"}

    def test_single_day(self) -> None:
        # 7 days - 1 blackout = 6
        sc = load(horizon=self.WEEK, notice_from=NOTICE, operators=[op(blackout=["2027-08-04"])],
                  tournaments=[large("a", count=7)])
        assert firsts(run(sc)) == aug_days(1, 2, 3, 5, 6, 7)

    def test_range(self) -> None:
        # Aug 3..5 blacked out: 7 - 3 = 4
        sc = load(horizon=self.WEEK, notice_from=NOTICE,
                  operators=[op(blackout=["2027-08-03..2027-08-05"])],
                  tournaments=[large("a", count=7)])
        assert firsts(run(sc)) == aug_days(1, 2, 6, 7)

    def test_every_day_touched(self) -> None:
        # 2 days from Aug 3 touch Aug 4; 12:00 + 14 h from Aug 3 ends 02:00 Aug 4;
        # 12:00 + 12 h from Aug 3 ends 24:00 and does not touch Aug 4
        sc = aug(operators=[op(blackout=["2027-08-04"], max_concurrent=3)],
                 tournaments=[large("two", days=2, fixed_dates=["2027-08-03"]),
                              large("late", hours=14, fixed_dates=["2027-08-03"]),
                              large("fits", hours=12, fixed_dates=["2027-08-03"])])
        plan = run(sc)
        assert [r.tournament_id for r in plan.rows] == ["fits"]
        assert missing(plan, "two") == missing(plan, "late") == [("BLACKOUT",)]

    def test_co_host_blackout(self) -> None:
        sc = aug(operators=[op(), op("room-b", blackout=["2027-08-04"])],
                 tournaments=[large("prog", ("room-a", "room-b"), fixed_dates=["2027-08-04"])])
        assert missing(run(sc)) == [("BLACKOUT",)]

    def test_maine_operator(self) -> None:
        # Saturdays 7, 14, 21, 28 minus blackouts 7 and 14 -> 21 and 28
        sc = aug(operators=[me_org(blackout=["2027-08-07", "2027-08-14"])],
                 tournaments=[me_game("g", count=2, weekdays=["sat"])])
        assert firsts(run(sc)) == aug_days(21, 28)

    def test_checker(self) -> None:
        sc = aug(operators=[op(), op("room-b", blackout=["2027-08-04"])],
                 tournaments=[large("prog", ("room-a", "room-b")),
                              large("a", days=2)])
        lic = permits("room-a", "room-b")
        assert violations(sc, [placed(sc, "prog", "2027-08-04")], lic) == [
            ("BLACKOUT", "room-b", "2027-08-04")]
        assert violated(sc, [placed(sc, "prog", "2027-08-05")], lic) == []
        # room-a's own 2-day tournament is not affected by room-b's blackout
        assert violated(sc, [placed(sc, "a", "2027-08-03")], lic) == []

    def test_checker_second_day(self) -> None:
        sc = aug(operators=[op(blackout=["2027-08-04"])], tournaments=[large("a", days=2)])
        lic = permits("room-a")
        assert violations(sc, [placed(sc, "a", "2027-08-03")], lic) == [
            ("BLACKOUT", "room-a", "2027-08-04")]
        assert violated(sc, [placed(sc, "a", "2027-08-05")], lic) == []

    def test_reversed_range(self) -> None:
        assert problems(scenario(operators=[op(blackout=["2027-08-05..2027-08-03"])])) == {
            ("SCENARIO", "operators[0].blackout")}


# =========================================================================== COUNT
class TestCount:
    """COUNT: at most ``count`` occurrences; as many as the rules allow, ``required`` first,
    higher ``priority`` first."""

    def test_at_most_count(self) -> None:
        plan = run(aug(operators=[op()], tournaments=[large("a", count=3)]))
        assert len(firsts(plan)) == 3
        assert plan.unscheduled_list == ()

    def test_all_small_stakes(self) -> None:
        sc = aug(operators=[op()], tournaments=[small("s", count="all", weekdays=["wed"])])
        plan = run(sc)
        assert firsts(plan) == aug_days(4, 11, 18, 25)
        assert plan.unscheduled_list == ()

    def test_priority_decides(self) -> None:
        # one free day (Aug 6) for two one-day tournaments, one at a time: priority 5 wins
        one_day = {"start": "2027-08-06", "end": "2027-08-06"}
        sc = aug(operators=[op()],
                 tournaments=[large("low", window=one_day),
                              large("high", window=one_day, priority=5)])
        plan = run(sc)
        assert [r.tournament_id for r in plan.rows] == ["high"]
        # its one allowed day is taken; the other 30 days are outside its window
        assert missing(plan, "low") == [("MAX-CONCURRENT", "WINDOW")]

    def test_required_unmet(self) -> None:
        # required 2 but the window has a single day: 1 placed, 1 required missing
        sc = aug(operators=[op()],
                 tournaments=[large("a", count=2, required=2,
                                    window={"start": "2027-08-06", "end": "2027-08-06"})])
        plan = run(sc)
        assert firsts(plan) == aug_days(6)
        (u,) = plan.unscheduled_list
        assert (u.occurrence, u.required) == (2, True)
        assert not plan.required_met

    @pytest.mark.parametrize(("kw", "path"), [
        ({"count": 0}, "tournaments[0].count"),
        ({"count": "all"}, "tournaments[0].count"),  # only small-stakes may say all
        ({"count": 2, "required": 3}, "tournaments[0].required"),
    ])
    def test_bad_counts(self, kw: dict[str, Any], path: str) -> None:
        assert problems(scenario(operators=[op()], tournaments=[large("a", **kw)])) == {
            ("SCENARIO", path)}

    def test_checker(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", count=3)])
        lic = permits("room-a")
        three = [placed(sc, "a", x, k) for k, x in enumerate(aug_days(2, 3, 4), start=1)]
        assert violated(sc, three, lic) == []
        four = [*three, placed(sc, "a", "2027-08-05", 4)]
        assert violations(sc, four, lic) == [("COUNT", "room-a", "")]


# =========================================================================== FIXED-DATES
class TestFixedDates:
    """FIXED-DATES: required occurrences pinned to their first days; they count toward
    ``count`` and must still satisfy every rule."""

    def test_pinned(self) -> None:
        sc = aug(operators=[op()],
                 tournaments=[large("a", count=2, fixed_dates=["2027-08-06", "2027-08-20"])])
        assert firsts(run(sc)) == aug_days(6, 20)

    def test_pinned_plus_free(self) -> None:
        # count 3 = 2 fixed + 1 anywhere else
        sc = aug(operators=[op()],
                 tournaments=[large("a", count=3, fixed_dates=["2027-08-06", "2027-08-20"])])
        days = firsts(run(sc))
        assert len(days) == 3 and set(aug_days(6, 20)) <= set(days)

    def test_fixed_beats_a_higher_priority_optional(self) -> None:
        # both want Aug 6, one at a time: the required (fixed) one wins over priority 100
        sc = aug(operators=[op()],
                 tournaments=[large("opt", priority=100,
                                    window={"start": "2027-08-06", "end": "2027-08-06"}),
                              large("fix", fixed_dates=["2027-08-06"])])
        plan = run(sc)
        assert [r.tournament_id for r in plan.rows] == ["fix"]
        assert plan.required_met

    def test_fixed_date_that_breaks_a_rule(self) -> None:
        sc = aug(operators=[op(blackout=["2027-08-06"])],
                 tournaments=[large("a", fixed_dates=["2027-08-06"])])
        plan = run(sc)
        assert plan.rows == ()
        (u,) = plan.unscheduled_list
        assert (u.rule_ids, u.required) == (("BLACKOUT",), True)
        assert not plan.required_met

    def test_fixed_dates_are_among_count(self) -> None:
        # count 2 = the fixed Aug 6 + 1 free; Aug 6 is blacked out, so the free occurrence
        # may not take its place: 1 placed, the fixed one reported missing
        sc = aug(operators=[op(blackout=["2027-08-06"])],
                 tournaments=[large("a", count=2, fixed_dates=["2027-08-06"])])
        plan = run(sc)
        days = firsts(plan)
        assert len(days) == 1 and d("2027-08-06") not in days
        (u,) = plan.unscheduled_list
        assert (u.rule_ids, u.required) == (("BLACKOUT",), True)

    @pytest.mark.parametrize(("kw", "path"), [
        ({"count": 2, "fixed_dates": ["2027-08-02", "2027-08-03", "2027-08-04"]},
         "tournaments[0].fixed_dates"),
        ({"fixed_dates": ["2027-09-01"]}, "tournaments[0].fixed_dates[0]"),
        ({"count": 2, "fixed_dates": ["2027-08-02", "2027-08-02"]},
         "tournaments[0].fixed_dates"),
    ])
    def test_bad_fixed_dates(self, kw: dict[str, Any], path: str) -> None:
        assert problems(scenario(horizon=AUG, operators=[op()],
                                 tournaments=[large("a", **kw)])) == {("SCENARIO", path)}

    def test_checker(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", fixed_dates=["2027-08-06"])])
        lic = permits("room-a")
        assert violated(sc, [placed(sc, "a", "2027-08-06")], lic) == []
        assert violations(sc, [placed(sc, "a", "2027-08-07")], lic) == [
            ("FIXED-DATES", "room-a", "2027-08-06")]
        assert violations(sc, [], lic) == [("FIXED-DATES", "room-a", "2027-08-06")]


# =========================================================================== MIN-GAP
class TestMinGap:
    """MIN-GAP: at least ``min_gap_days`` days between consecutive first days."""

    def test_gap_of_seven_in_fifteen_days(self) -> None:
        # Aug 1..15, gap 7: only 1, 8, 15 fit three (1 + 7 = 8, 8 + 7 = 15)
        sc = load(horizon={"start": "2027-08-01", "end": "2027-08-15"}, notice_from=NOTICE,
                  operators=[op()], tournaments=[large("a", count=5, min_gap_days=7)])
        plan = run(sc)
        assert firsts(plan) == aug_days(1, 8, 15)
        assert len(plan.unscheduled_list) == 2
        assert all("MIN-GAP" in rules for rules in missing(plan))

    def test_fixed_dates_too_close(self) -> None:
        # Aug 1 and Aug 5 are 4 < 7 days apart: one of them is unscheduled
        sc = aug(operators=[op()],
                 tournaments=[large("a", count=2, min_gap_days=7,
                                    fixed_dates=["2027-08-01", "2027-08-05"])])
        plan = run(sc)
        assert len(firsts(plan)) == 1
        assert missing(plan) == [("MIN-GAP",)]

    def test_checker(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", count=2, min_gap_days=7)])
        lic = permits("room-a")
        # Aug 1 -> Aug 8 = 7 days: OK; Aug 1 -> Aug 7 = 6 days: flagged on the later one
        assert violated(sc, [placed(sc, "a", "2027-08-01"),
                             placed(sc, "a", "2027-08-08", 2)], lic) == []
        assert violations(sc, [placed(sc, "a", "2027-08-01"),
                               placed(sc, "a", "2027-08-07", 2)], lic) == [
            ("MIN-GAP", "room-a", "2027-08-07")]


# =========================================================================== MAX-CONCURRENT
class TestMaxConcurrent:
    """MAX-CONCURRENT: at most ``max_concurrent`` of an operator's tournaments in play at once
    (default 1; sessions overlapping in time, or with ``concurrency: day`` on one calendar
    day); Montana small-stakes tournaments are not counted."""

    def test_default_one_a_day(self) -> None:
        sc = aug(operators=[op()],
                 tournaments=[large("a", fixed_dates=["2027-08-04"]),
                              large("b", fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert len(plan.rows) == 1
        assert missing(plan) == [("MAX-CONCURRENT",)]

    def test_two_at_once(self) -> None:
        sc = aug(operators=[op(max_concurrent=2)],
                 tournaments=[large("a", fixed_dates=["2027-08-04"]),
                              large("b", fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert len(plan.rows) == 2 and plan.unscheduled_list == ()

    def test_multi_day_overlap(self) -> None:
        # "a" Aug 2..4 overlaps "b" on Aug 4; "c" on Aug 5 does not
        sc = aug(operators=[op()],
                 tournaments=[large("a", days=3, fixed_dates=["2027-08-02"], priority=2),
                              large("b", fixed_dates=["2027-08-04"]),
                              large("c", fixed_dates=["2027-08-05"])])
        plan = run(sc)
        assert sorted(r.tournament_id for r in plan.rows) in (["a", "c"], ["b", "c"])
        assert missing(plan) == [("MAX-CONCURRENT",)]

    def test_play_past_midnight_uses_the_next_day(self) -> None:
        # concurrency: day (the per-day reading): 12:00 + 14 h from Aug 2 ends 02:00 Aug 3:
        # clashes with a start on Aug 3; 12:00 + 12 h ends 24:00: does not. In time (the
        # default), 02:00 is before 12:00: both fit either way (tests/test_rhythms.py)
        late = aug(operators=[op(concurrency="day")],
                   tournaments=[large("a", hours=14, fixed_dates=["2027-08-02"]),
                                large("b", fixed_dates=["2027-08-03"])])
        assert len(run(late).rows) == 1
        fits = aug(operators=[op(concurrency="day")],
                   tournaments=[large("a", hours=12, fixed_dates=["2027-08-02"]),
                                large("b", fixed_dates=["2027-08-03"])])
        assert len(run(fits).rows) == 2
        in_time = aug(operators=[op()],
                      tournaments=[large("a", hours=14, fixed_dates=["2027-08-02"]),
                                   large("b", fixed_dates=["2027-08-03"])])
        assert len(run(in_time).rows) == 2

    def test_small_stakes_not_counted(self) -> None:
        sc = aug(operators=[op()],
                 tournaments=[large("a", fixed_dates=["2027-08-04"]),
                              small("s", fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert firsts(plan) == aug_days(4, 4) and plan.unscheduled_list == ()

    def test_shared_tournament_counts_for_the_co_host(self) -> None:
        sc = aug(operators=[op(), op("room-b")],
                 tournaments=[large("prog", ("room-a", "room-b"), fixed_dates=["2027-08-04"]),
                              large("b", ("room-b",), fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert len(firsts(plan)) == 1
        assert missing(plan) == [("MAX-CONCURRENT",)]

    def test_maine_operator(self) -> None:
        sc = aug(operators=[me_org()],
                 tournaments=[me_game("g1", fixed_dates=["2027-08-07"]),
                              me_game("g2", fixed_dates=["2027-08-07"])])
        plan = run(sc)
        assert len(plan.rows) == 1
        assert missing(plan) == [("MAX-CONCURRENT",)]

    def test_checker(self) -> None:
        sc = aug(operators=[op()], tournaments=[large("a", days=3), large("b"), small("s")])
        lic = permits("room-a")
        # a: Aug 2..4, b: Aug 4 -> 2 on Aug 4 only
        assert violations(sc, [placed(sc, "a", "2027-08-02"), placed(sc, "b", "2027-08-04")],
                          lic) == [("MAX-CONCURRENT", "room-a", "2027-08-04")]
        assert violated(sc, [placed(sc, "a", "2027-08-02"), placed(sc, "b", "2027-08-05"),
                             placed(sc, "s", "2027-08-03")], lic) == []

    def test_checker_two_allowed(self) -> None:
        sc = aug(operators=[op(max_concurrent=2)], tournaments=[large("a"), large("b")])
        occ = [placed(sc, "a", "2027-08-04"), placed(sc, "b", "2027-08-04")]
        assert violated(sc, occ, permits("room-a")) == []

    def test_at_least_one(self) -> None:
        assert problems(scenario(operators=[op(max_concurrent=0)])) == {
            ("SCENARIO", "operators[0].max_concurrent")}


class TestCountInput:
    """COUNT: at most one occurrence of a tournament starts a day, so a count above the days
    of the horizon is an input error (not a million unscheduled rows)."""

    WEEK = {"start": "2027-08-01", "end": "2027-08-07"}

    def test_count_of_the_horizon_days_is_accepted(self) -> None:
        load(horizon=self.WEEK, operators=[op()],
             tournaments=[large("a", count=7)])

    def test_one_more_than_the_horizon_days_is_an_error(self) -> None:
        # 2027-08-01..07 is 7 days; 8 cannot start on different days
        assert problems(scenario(horizon=self.WEEK, operators=[op()],
                                 tournaments=[large("a", count=8)])) == {
            ("SCENARIO", "tournaments[0].count")}
