"""Limit usage as each counted limit's own ``usage`` hook (issue #12): MT-LARGE-LIMIT and
MT-CHARITY-LIMIT (MCA 23-5-317(1)(a),(f)) from :func:`constraints.montana.large_tally`,
ME-MONTHLY-LIMIT (17 M.R.S. § 1836(4)) from :func:`constraints.maine.counted_months`,
ME-SUPER-CRIBBAGE (17 M.R.S. § 1836(4-A)) statewide per calendar year; and
:func:`scheduler.result.usage.limit_usage`, the generic loop over the registry that ``Plan.usage``
reads.

Each hook is read on a hand-built ``Audit`` at its boundary (the 16th and the 17th counted
tournament, the 2nd and the 3rd game of a month, the 15th and the 16th licence), beside the
independent check, which must flag exactly the schedules whose ``used`` exceeds ``limit``;
then once through ``solve()``. Every expected number is worked out in the comment beside it.

Calendar facts (2027): Jan 2 is a Saturday, Jan 31 a Sunday; Aug 2 is a Monday. Montana
permit years run Jul 1 - Jun 30 by default (2027-07-01 .. 2028-06-30).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from constraints.base import STATEWIDE, Audit, Occurrence, Usage
from constraints.registry import RULES
from scheduler.core.scenario import Scenario
from scheduler.result.usage import limit_usage, usage_table

from builders.scenarios import d, load, mt_large, mt_room, placed, run, violated


def usage_of(rule_id: str, audit: Audit) -> list[Usage]:
    """The ``usage`` records of one rule of the registry for ``audit``."""
    rule = next(r for r in RULES if r.id == rule_id)
    assert rule.usage is not None
    return list(rule.usage(audit))


def test_the_counted_limits_have_a_usage_hook() -> None:
    # the four counted limits of RULES.md, in registry order (Montana before Maine)
    assert [r.id for r in RULES if r.usage is not None] == [
        "MT-LARGE-LIMIT", "MT-CHARITY-LIMIT", "ME-MONTHLY-LIMIT", "ME-SUPER-CRIBBAGE"]


# ========================================================================== Montana
class TestLargeAndCharityUsage:
    """MT-LARGE-LIMIT (16 counted a permit year) and MT-CHARITY-LIMIT (the first 3 charitable
    ones not counted). room-a held 12 non-charitable and 2 charitable large-stakes
    tournaments in the 2027-07-01 permit year before the horizon (Aug 2027)."""

    @staticmethod
    def _sc() -> Scenario:
        return load(horizon={"start": "2027-08-01", "end": "2027-08-31"},
                    operators=[mt_room(held_in_current_permit_year={
                        "large_stakes": 12, "charitable": 2})],
                    tournaments=[mt_large("big", count=4),
                                 mt_large("c", count=2, charitable=True, charity_share=0.5)])

    def _placed(self, sc: Scenario, charitable: int) -> list[Occurrence]:
        big = [placed(sc, "big", f"2027-08-0{k + 1}", k) for k in (1, 2, 3, 4)]  # Aug 2-5
        return big + [placed(sc, "c", f"2027-08-{8 + k:02d}", k)  # Aug 9, 10
                      for k in range(1, charitable + 1)]

    def test_16th_counted(self) -> None:
        sc = self._sc()
        audit = Audit(sc, self._placed(sc, 1))
        # held: 12 non-charitable + 2 charitable; free charitable left: 3 - 2 = 1, so c#1 is
        # free. Counted: 12 held + big#1..#4 = 16 of 16, none of them charitable
        assert usage_of("MT-LARGE-LIMIT", audit) == [Usage(
            "MT-LARGE-LIMIT", "room-a", "2027-07-01", d("2027-07-01"), d("2028-06-30"),
            used=16, limit=16, charitable=0, held=12)]
        # not counted: 2 held + c#1 = 3 of 3, all charitable, 2 of them held
        assert usage_of("MT-CHARITY-LIMIT", audit) == [Usage(
            "MT-CHARITY-LIMIT", "room-a", "2027-07-01", d("2027-07-01"), d("2028-06-30"),
            used=3, limit=3, charitable=3, held=2)]
        assert violated(sc, audit.placed) == []

    def test_17th_counted(self) -> None:
        sc = self._sc()
        audit = Audit(sc, self._placed(sc, 2))
        # c#2 is the 4th charitable one of the permit year (2 held + c#1 + c#2): counted.
        # Counted: 12 held + 4 big + c#2 = 17 > 16; charitable counted: 0 held + c#2 = 1
        [large] = usage_of("MT-LARGE-LIMIT", audit)
        assert (large.used, large.limit, large.charitable, large.held) == (17, 16, 1, 12)
        # still 3 not counted: 2 held + c#1
        [free] = usage_of("MT-CHARITY-LIMIT", audit)
        assert (free.used, free.limit, free.held) == (3, 3, 2)
        # the check flags the 17th (c#2 on Aug 10), as the usage says
        assert violated(sc, audit.placed) == ["MT-LARGE-LIMIT"]

    def test_two_permit_years_in_period_order(self) -> None:
        # horizon Jun 1 - Jul 31 2027: permit years 2026-07-01 and 2027-07-01; one large on
        # Jun 30 (the last day of the first), one on Jul 1 (the first day of the second)
        sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"},
                  operators=[mt_room(held_in_current_permit_year={"large_stakes": 15})],
                  tournaments=[mt_large("big", count=2)])
        audit = Audit(sc, [placed(sc, "big", "2027-06-30", 1),
                           placed(sc, "big", "2027-07-01", 2)])
        use = [(u.rule, u.period, u.period_end, u.used, u.held) for u in limit_usage(
            _Plan(sc, audit.placed))]
        # 2026-07-01: 15 held + big#1 = 16 (held only counts in the current permit year);
        # 2027-07-01: big#2 = 1; both rules per permit year, the permit years in order
        assert use == [
            ("MT-LARGE-LIMIT", "2026-07-01", d("2027-06-30"), 16, 15),
            ("MT-CHARITY-LIMIT", "2026-07-01", d("2027-06-30"), 0, 0),
            ("MT-LARGE-LIMIT", "2027-07-01", d("2028-06-30"), 1, 0),
            ("MT-CHARITY-LIMIT", "2027-07-01", d("2028-06-30"), 0, 0)]


# ========================================================================== Maine
def me_org(**kw: Any) -> dict[str, Any]:
    """An eligible Maine organization (approved, one beneficiary, organized 1990)."""
    return {"id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
            "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
            "organized_on": "1990-01-01", **kw}


def me_game(**kw: Any) -> dict[str, Any]:
    """A tournament game of ``post``: 80 players, $100 entry, 80 % prizes, 12:00 for 10 h."""
    return {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


class TestMonthlyUsage:
    """ME-MONTHLY-LIMIT: at most 2 licensed games a month per organization; ``month_rule:
    touch`` counts a game in every month it touches, ``start`` in its first month only.
    Horizon Jan 1 - Mar 31 2027."""

    @staticmethod
    def _sc(month_rule: str) -> Scenario:
        return load(horizon={"start": "2027-01-01", "end": "2027-03-31"},
                    operators=[me_org()], settings={"month_rule": month_rule},
                    tournaments=[me_game(id="jan", count=2),
                                 me_game(id="long", start_time="18:00", hours=30)])

    def _rows(self, sc: Scenario, long: bool) -> list[tuple[str, dt.date, dt.date, int]]:
        games = [placed(sc, "jan", "2027-01-05", 1), placed(sc, "jan", "2027-01-20", 2)]
        if long:  # Sun Jan 31 18:00 + 30 h = Tue Feb 2 00:00: touches Jan 31 and Feb 1
            games.append(placed(sc, "long", "2027-01-31"))
        return [(u.period, u.period_start, u.period_end, u.used)
                for u in usage_of("ME-MONTHLY-LIMIT", Audit(sc, games))]

    def test_2nd_game_of_january(self) -> None:
        sc = self._sc("touch")
        # January: jan#1 + jan#2 = 2 of 2; February and March (of the horizon): 0
        assert self._rows(sc, long=False) == [
            ("2027-01", d("2027-01-01"), d("2027-01-31"), 2),
            ("2027-02", d("2027-02-01"), d("2027-02-28"), 0),
            ("2027-03", d("2027-03-01"), d("2027-03-31"), 0)]
        # (no licence bought in the audit: only ME-MONTHLY-LIMIT is read)
        assert "ME-MONTHLY-LIMIT" not in violated(sc, [placed(sc, "jan", "2027-01-05", 1),
                                                       placed(sc, "jan", "2027-01-20", 2)])

    def test_3rd_game_of_january_touch(self) -> None:
        sc = self._sc("touch")
        # January: jan#1 + jan#2 + long#1 = 3 > 2; February: long#1 (touches Feb 1) = 1
        assert [(p, n) for p, _, _, n in self._rows(sc, long=True)] == [
            ("2027-01", 3), ("2027-02", 1), ("2027-03", 0)]
        [row] = [u for u in usage_of("ME-MONTHLY-LIMIT", Audit(sc, [
            placed(sc, "jan", "2027-01-05", 1), placed(sc, "jan", "2027-01-20", 2),
            placed(sc, "long", "2027-01-31")])) if u.used > u.limit]
        assert (row.operator_id, row.limit, row.held) == ("post", 2, 0)

    def test_3rd_game_of_january_start(self) -> None:
        sc = self._sc("start")
        # `start`: long#1 counts in January only: January 3, February 0
        assert [(p, n) for p, _, _, n in self._rows(sc, long=True)] == [
            ("2027-01", 3), ("2027-02", 0), ("2027-03", 0)]


NATIONAL: dict[str, Any] = {
    "id": "acc", "name": "American Cribbage Congress", "jurisdiction": "ME",
    "organization_type": "national-cribbage-501c3", "local_approval": True,
    "beneficiaries": ["Maine Children's Cancer Program"]}


class TestSuperCribbageUsage:
    """ME-SUPER-CRIBBAGE: at most 15 licences a calendar year statewide, 11 of 2027's already
    issued outside the plan (``settings.super_cribbage_licenses_issued``)."""

    @staticmethod
    def _sc() -> Scenario:
        return load(operators=[NATIONAL], settings={"super_cribbage_licenses_issued": {2027: 11}},
                    tournaments=[{
                        "id": "sc", "title": "Super Cribbage", "type": "super-cribbage",
                        "operators": ["acc"], "players": 60, "entry_fee": 50,
                        "prize_share": 0.75, "charity_share": 0.5,
                        "organizer_member_years": 3, "start_time": "09:00", "hours": 10,
                        "count": 5}])

    @staticmethod
    def _placed(sc: Scenario, n: int) -> list[Occurrence]:
        # the first Saturdays of Jan - May 2027 (one game a month: ME-MONTHLY-LIMIT holds)
        days = ["2027-01-02", "2027-02-06", "2027-03-06", "2027-04-03", "2027-05-01"]
        return [placed(sc, "sc", day, k) for k, day in enumerate(days[:n], start=1)]

    def _usage(self, sc: Scenario, n: int) -> list[Usage]:
        return usage_of("ME-SUPER-CRIBBAGE", Audit(sc, self._placed(sc, n)))

    def test_15th_licence(self) -> None:
        sc = self._sc()
        # 11 issued + 4 placed = 15 of 15, 11 of them held (issued) before the plan
        assert self._usage(sc, 4) == [Usage(
            "ME-SUPER-CRIBBAGE", STATEWIDE, "2027", d("2027-01-01"), d("2027-12-31"),
            used=15, limit=15, held=11)]

    def test_16th_licence(self) -> None:
        sc = self._sc()
        # 11 issued + 5 placed = 16 > 15: the check flags sc#5 (the 16th licence)
        [u] = self._usage(sc, 5)
        assert (u.used, u.limit, u.held) == (16, 15, 11)
        # (no licence bought in the audit: only ME-SUPER-CRIBBAGE is read)
        assert [r for r in violated(sc, self._placed(sc, 5)) if r == "ME-SUPER-CRIBBAGE"] == [
            "ME-SUPER-CRIBBAGE"]
        assert "ME-SUPER-CRIBBAGE" not in violated(sc, self._placed(sc, 4))


# ========================================================================== through solve()
class _Plan:
    """What :func:`scheduler.result.usage.limit_usage` reads of a plan, from occurrences placed by
    hand: one row per occurrence and operator (``start``/``end`` from its timing)."""

    def __init__(self, sc: Scenario, occurrences: list[Occurrence]) -> None:
        self.scenario = sc
        self.rows = [_Row(p.tid, p.occurrence, p.timing.start, p.timing.end)
                     for p in occurrences for _ in p.tournament.operators]


class _Row:
    def __init__(self, tid: str, k: int, start: dt.datetime, end: dt.datetime) -> None:
        self.tournament_id, self.occurrence, self.start, self.end = tid, k, start, end


def test_solve_fills_the_16_and_plan_usage_reads_the_hook() -> None:
    # room-a held 14 non-charitable in the 2027-07-01 permit year; 3 required in Aug 2027:
    # 16 - 14 = 2 can be placed, the 3rd is not (MT-LARGE-LIMIT)
    sc = load(horizon={"start": "2027-08-01", "end": "2027-08-31"},
              operators=[mt_room(held_in_current_permit_year={"large_stakes": 14})],
              tournaments=[mt_large("big", count=3)])
    plan = run(sc)
    assert len(plan.rows) == 2
    assert [u.rule_ids for u in plan.unscheduled_list] == [("MT-LARGE-LIMIT",)]
    table = plan.usage()
    assert table.equals(usage_table(plan))
    # 14 held + 2 placed = 16 of 16; none charitable, so MT-CHARITY-LIMIT 0 of 3
    assert [tuple(r) for r in table[["rule_id", "used", "limit", "held"]].itertuples(
        index=False)] == [("MT-LARGE-LIMIT", 16, 16, 14), ("MT-CHARITY-LIMIT", 0, 3, 0)]
