"""Montana rules: MCA 23-5-317 (card-game tournaments) and ARM 23.16.1101 (play hours).

One class per rule ID of RULES.md (kinds input, sched, cost). Input rules are asserted on the
(rule, path) pairs of ScenarioError; sched and cost rules twice: once through a tiny solve
(``solve(sc, time_limit=10, seed=0, workers=1)``) and once through the independent checker
(``constraints.registry.check(Audit(...))``) with the illegal schedule and its legal twin.
Every expected number is computed by hand in the comment beside it.

Calendar facts used below (2027): Jan 1 Fri, Jan 15 Fri, Jun 30 Wed, Jul 1 Thu, Aug 1 Sun,
Aug 6 Fri. Montana permit years run Jul 1 - Jun 30 by default.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from constraints.base import License, Occurrence
from constraints.catalogue import cite
from constraints.montana import calendar_days, most_paid
from scheduler.core.timing import notice_due, timing
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
    violated,
    violations,
)

SUMMER = {"start": "2027-07-01", "end": "2027-08-31"}  # 62 days, all in permit year 2027-07-01


# --------------------------------------------------------------------------- builders
op = mt_room
large = mt_large



def charity(tid: str, ops: tuple[str, ...] = ("room-a",), **kw: Any) -> dict[str, Any]:
    return large(tid, ops, charitable=True, charity_share=0.5, **kw)


def small(tid: str, ops: tuple[str, ...] = ("room-a",), **kw: Any) -> dict[str, Any]:
    """A small-stakes tournament, 19:00 for 4 h (ends 23:00), $60."""
    return {"id": tid, "title": tid, "type": "small-stakes", "operators": list(ops),
            "start_time": "19:00", "hours": 4, "entry_fee": 60, **kw}


def one(t: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A scenario with room-a and the single tournament ``t`` (for input rules)."""
    return scenario(operators=[op()], tournaments=[t], **kw)


def permit(oid: str, py: str, *, small_stakes: bool = False, fee: int | None = None) -> License:
    """An MT permit for the permit year starting ``py`` (Jul 1 - Jun 30)."""
    start = d(py)
    end = dt.date(start.year + 1, start.month, start.day) - dt.timedelta(days=1)
    kind = "mt-small-stakes-permit" if small_stakes else "mt-large-stakes-permit"
    default = 500 if small_stakes else 120
    return License(f"{oid}/{kind}/{py}", oid, "MT", kind, "", start, end,
                   default if fee is None else fee, ())


def days_from(start: str, n: int) -> list[dt.date]:
    return [d(start) + dt.timedelta(days=i) for i in range(n)]


# =========================================================================== citations
@pytest.mark.parametrize(("rule", "citation"), [
    # the first clause of each row of RULES.md (the short form printed in messages)
    ("MT-PERMIT-PREREQ", "MCA 23-5-317(1)(a)"),
    ("MT-LARGE-LIMIT", "MCA 23-5-317(1)(a)"),
    ("MT-CHARITY-LIMIT", "MCA 23-5-317(1)(f)"),
    ("MT-PERMIT-YEAR", "MCA 23-5-317(1)(a)"),
    ("MT-DURATION", "MCA 23-5-317(1)(c)"),
    ("MT-NOTICE", "MCA 23-5-317(1)(d)"),
    ("MT-PROGRESSIVE", "MCA 23-5-317(1)(e)"),
    ("MT-ENTRY-CAP", "MCA 23-5-317(1)(g)"),
    ("MT-SATELLITE", "MCA 23-5-317(1)(h)"),
    ("MT-PERMIT-FEES", "MCA 23-5-317(1)(b)"),
    ("MT-SMALL-DAILY", "MCA 23-5-317(2)(a)"),
    ("MT-SMALL-ENTRY", "MCA 23-5-317(2)(c)"),
    ("MT-CHARITY-SHARE", "MCA 23-5-317(8)"),
    ("MT-NO-RAKE", "MCA 23-5-317(9)"),
    ("MT-PLAY-HOURS", "ARM 23.16.1101"),
])
def test_citation(rule: str, citation: str) -> None:
    assert cite(rule) == f"{rule}, {citation}"


# =========================================================================== input rules
class TestMtPermitPrereq:
    """MCA 23-5-317(1)(a), (2)(a): either tournament permit needs a permit for at least one
    live card game table on the premises (``live_tables >= 1``)."""

    def test_zero_tables_is_an_error(self) -> None:
        data = scenario(operators=[op(live_tables=0)], tournaments=[large("a")])
        assert problems(data) == {("MT-PERMIT-PREREQ", "operators[0].live_tables")}

    def test_missing_live_tables_is_an_error(self) -> None:
        room = op()
        del room["live_tables"]
        data = scenario(operators=[room], tournaments=[large("a")])
        assert problems(data) == {("MT-PERMIT-PREREQ", "operators[0].live_tables")}

    def test_small_stakes_permit_needs_a_table_too(self) -> None:
        """(2)(a) repeats the prerequisite for the small-stakes permit."""
        data = scenario(operators=[op(live_tables=0)], tournaments=[small("s")])
        assert problems(data) == {("MT-PERMIT-PREREQ", "operators[0].live_tables")}

    def test_one_table_is_enough(self) -> None:
        sc = load(operators=[op(live_tables=1)], tournaments=[large("a"), small("s")])
        assert sc.operator("room-a").live_tables == 1

    def test_only_operators_holding_a_tournament_need_a_table(self) -> None:
        # room-b has 0 tables but holds nothing: fine; once it co-hosts, operators[1] fails.
        ops = [op(), op("room-b", live_tables=0)]
        load(operators=ops, tournaments=[large("a")])
        data = scenario(operators=ops, tournaments=[large("a", ("room-a", "room-b"))])
        assert problems(data) == {("MT-PERMIT-PREREQ", "operators[1].live_tables")}


class TestMtProgressive:
    """MCA 23-5-317(1)(e): a progressive tournament is conducted by several large-stakes
    permitholders; (1)(d): each counts it and each files its notice."""

    def test_shared_large_stakes_loads(self) -> None:
        sc = load(operators=[op(), op("room-b")],
                  tournaments=[large("prog", ("room-a", "room-b"))])
        assert sc.tournament("prog").operators == ("room-a", "room-b")

    def test_shared_small_stakes_is_an_error(self) -> None:
        data = scenario(operators=[op(), op("room-b")],
                        tournaments=[small("s", ("room-a", "room-b"))])
        assert problems(data) == {("MT-PROGRESSIVE", "tournaments[0].operators")}

    def test_shared_maine_game_is_an_error(self) -> None:
        me = {"jurisdiction": "ME", "local_approval": True, "beneficiaries": ["Food Bank"],
              "organized_on": "1990-01-01"}
        game = {"id": "g", "title": "g", "type": "tournament-game", "operators": ["p1", "p2"],
                "players": 50, "entry_fee": 50, "prize_share": 0.8}
        data = scenario(operators=[{"id": "p1", "name": "P1", **me},
                                   {"id": "p2", "name": "P2", **me}], tournaments=[game])
        assert ("MT-PROGRESSIVE", "tournaments[0].operators") in problems(data)

    def test_every_operator_buys_its_own_permit(self) -> None:
        """Each permitholder of a progressive needs the large-stakes permit: 2 x $120 = $240."""
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op(), op("room-b")],
                  tournaments=[large("prog", ("room-a", "room-b"), fixed_dates=["2027-08-06"])])
        plan = run(sc)
        assert sorted(r.operator_id for r in plan.rows) == ["room-a", "room-b"]
        assert {r.first_day for r in plan.rows} == {d("2027-08-06")}
        assert sorted((lic.operator_id, lic.fee_usd) for lic in plan.license_list) == [
            ("room-a", 120), ("room-b", 120)]
        assert plan.total_fees_usd == 240  # 120 + 120

    def test_checker_flags_the_co_host_without_a_permit(self) -> None:
        sc = load(operators=[op(), op("room-b")], tournaments=[large("prog", ("room-a", "room-b"))])
        occ = [placed(sc, "prog", "2027-08-06")]
        assert violations(sc, occ, [permit("room-a", "2027-07-01")]) == [
            ("MT-PERMIT-FEES", "room-b", "2027-08-06")]
        assert violated(sc, occ, [permit("room-a", "2027-07-01"),
                                  permit("room-b", "2027-07-01")]) == []


class TestMtEntryCap:
    """MCA 23-5-317(1)(g): a participant pays at most $1,875 in all (entry, chips bought during
    play, re-entries unless ``reentry_counts_toward_cap: false``)."""

    def test_five_entries_of_375_is_exactly_the_cap(self) -> None:
        # 375 x (1 + 4 re-entries) = 375 x 5 = 1875 <= 1875
        sc = load_scenario(one(large("a", entry_fee=375, reentries=4)))
        assert most_paid(sc.tournament("a"), True) == 1875

    def test_five_entries_of_376_is_rejected(self) -> None:
        # 376 x 5 = 1880 > 1875
        data = one(large("a", entry_fee=376, reentries=4))
        assert problems(data) == {("MT-ENTRY-CAP", "tournaments[0].entry_fee")}

    def test_message_shows_the_total(self) -> None:
        from scheduler.core.problems import ScenarioError

        with pytest.raises(ScenarioError) as exc:
            load_scenario(one(large("a", entry_fee=376, reentries=4)))
        (p,) = exc.value.problems
        assert p.value == 376
        assert "$1,880" in p.message and "$1,875" in p.message  # 376 x 5 = 1880

    def test_four_entries_of_475_fail_by_default(self) -> None:
        # 475 x (1 + 3) = 1900 > 1875 (re-entries count: the conservative reading)
        data = one(large("a", entry_fee=475, reentries=3))
        assert problems(data) == {("MT-ENTRY-CAP", "tournaments[0].entry_fee")}

    def test_four_entries_of_475_pass_when_reentry_is_a_new_entry(self) -> None:
        # reentry_counts_toward_cap: false -> only one entry is capped: 475 <= 1875
        sc = load_scenario(one(large("a", entry_fee=475, reentries=3),
                               settings={"reentry_counts_toward_cap": False}))
        assert most_paid(sc.tournament("a"), False) == 475

    def test_rebuys_and_add_on_count(self) -> None:
        # 1000 + 250 x 3 + 125 = 1000 + 750 + 125 = 1875 -> OK
        load_scenario(one(large("a", entry_fee=1000, rebuy_fee=250, max_rebuys=3,
                                addon_fee=125)))
        # 1000 + 750 + 126 = 1876 -> rejected
        data = one(large("a", entry_fee=1000, rebuy_fee=250, max_rebuys=3, addon_fee=126))
        assert problems(data) == {("MT-ENTRY-CAP", "tournaments[0].entry_fee")}

    def test_rebuys_stay_capped_when_reentries_do_not_count(self) -> None:
        # switch off: 1000 + 250 x 3 + 126 = 1876 > 1875 still rejected; a single 1876 entry too
        off = {"reentry_counts_toward_cap": False}
        data = one(large("a", entry_fee=1000, rebuy_fee=250, max_rebuys=3, addon_fee=126),
                   settings=off)
        assert problems(data) == {("MT-ENTRY-CAP", "tournaments[0].entry_fee")}
        data = one(large("a", entry_fee=1876), settings=off)
        assert problems(data) == {("MT-ENTRY-CAP", "tournaments[0].entry_fee")}

    def test_cents(self) -> None:
        # 468.75 x 4 = 1875.00 -> OK; 468.76 x 4 = 1875.04 -> rejected
        load_scenario(one(large("a", entry_fee=468.75, reentries=3)))
        data = one(large("a", entry_fee=468.76, reentries=3))
        assert problems(data) == {("MT-ENTRY-CAP", "tournaments[0].entry_fee")}


class TestMtSatellite:
    """MCA 23-5-317(1)(h): a seat in a higher-level tournament as a prize only where the seat's
    value equals the expected top prize."""

    def test_equal_values_load(self) -> None:
        sat = {"seat_value": 1875, "expected_top_prize": 1875}
        load_scenario(one(large("a", satellite=sat)))

    @pytest.mark.parametrize("seat", [1874.99, 1875.01, 1500])
    def test_unequal_values_are_rejected(self, seat: float) -> None:
        sat = {"seat_value": seat, "expected_top_prize": 1875}
        assert problems(one(large("a", satellite=sat))) == {
            ("MT-SATELLITE", "tournaments[0].satellite.seat_value")}


class TestMtCharityShare:
    """MCA 23-5-317(8): a tournament represented as charitable pays at least 50% of the entry
    fees to a charitable, educational or recreational nonprofit."""

    def test_half_is_enough(self) -> None:
        load_scenario(one(large("c", charitable=True, charity_share=0.5)))

    def test_just_under_half_is_rejected(self) -> None:
        data = one(large("c", charitable=True, charity_share=0.49))
        assert problems(data) == {("MT-CHARITY-SHARE", "tournaments[0].charity_share")}

    def test_missing_share_is_rejected(self) -> None:
        data = one(large("c", charitable=True))
        assert problems(data) == {("MT-CHARITY-SHARE", "tournaments[0].charity_share")}

    def test_applies_to_small_stakes_too(self) -> None:
        data = one(small("s", charitable=True, charity_share=0.4))
        assert problems(data) == {("MT-CHARITY-SHARE", "tournaments[0].charity_share")}

    def test_not_charitable_needs_no_share(self) -> None:
        load_scenario(one(large("a")))


class TestMtNoRake:
    """MCA 23-5-317(9): no rake-off during a large-stakes or small-stakes tournament."""

    def test_rake_on_large_stakes(self) -> None:
        assert problems(one(large("a", rake=True))) == {("MT-NO-RAKE", "tournaments[0].rake")}

    def test_rake_on_small_stakes(self) -> None:
        assert problems(one(small("s", rake=True))) == {("MT-NO-RAKE", "tournaments[0].rake")}

    def test_no_rake_loads(self) -> None:
        load_scenario(one(large("a", rake=False)))


class TestMtSmallEntry:
    """MCA 23-5-317(2)(c): a small-stakes participant pays at most $80 in all and may not
    repurchase or add chips or re-enter."""

    def test_80_is_allowed(self) -> None:
        load_scenario(one(small("s", entry_fee=80)))

    @pytest.mark.parametrize("fee", [81, 80.01])
    def test_over_80_is_rejected(self, fee: float) -> None:
        assert problems(one(small("s", entry_fee=fee))) == {
            ("MT-SMALL-ENTRY", "tournaments[0].entry_fee")}

    @pytest.mark.parametrize(("field", "value"), [
        ("reentries", 1), ("max_rebuys", 1), ("rebuy_fee", 5), ("addon_fee", 10)])
    def test_no_rebuy_add_on_or_reentry(self, field: str, value: int) -> None:
        # entry 20 + 10 = 30 would be under $80: it is the purchase itself that is barred
        data = one(small("s", entry_fee=20, **{field: value}))
        assert problems(data) == {("MT-SMALL-ENTRY", f"tournaments[0].{field}")}


# =========================================================================== sched rules
class TestMtLargeLimit:
    """MCA 23-5-317(1)(a), (1)(d): at most 16 non-charitable large-stakes tournaments per
    operator per permit year, counting those held earlier in the permit year; a tournament on
    several operators' premises counts toward each operator's 16."""

    def test_twenty_wanted_three_charitable_places_nineteen(self) -> None:
        # wanted 17 counted + 3 charitable = 20; limit 16 counted + 3 charitable = 19
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op()],
                  tournaments=[large("a", count=17), charity("c", count=3)])
        plan = run(sc)
        assert len(firsts(plan)) == 19
        assert len(firsts(plan, "a")) == 16
        assert len(firsts(plan, "c")) == 3
        assert sum(r.counted for r in plan.rows) == 16
        assert [(u.tournament_id, u.occurrence) for u in plan.unscheduled_list] == [("a", 17)]
        assert "MT-LARGE-LIMIT" in plan.unscheduled_list[0].rule_ids

    def test_nine_held_leaves_seven_before_june_30(self) -> None:
        # permit year 2026-07-01..2027-06-30: 16 - 9 held = 7 more in Jan-Jun 2027
        sc = load(horizon={"start": "2027-01-01", "end": "2027-06-30"},
                  operators=[op(held_in_current_permit_year={"large_stakes": 9})],
                  tournaments=[large("a", count=30)])
        plan = run(sc)
        assert len(firsts(plan)) == 7
        assert len(plan.unscheduled_list) == 23  # 30 - 7
        assert all("MT-LARGE-LIMIT" in u.rule_ids for u in plan.unscheduled_list)

    def test_permit_year_from_july_1_gets_a_fresh_sixteen(self) -> None:
        # Jan-Jun 2027: 16 - 9 = 7; Jul-Aug 2027 (new permit year): 16; 7 + 16 = 23 of 30
        sc = load(horizon={"start": "2027-01-01", "end": "2027-08-31"},
                  operators=[op(held_in_current_permit_year={"large_stakes": 9})],
                  tournaments=[large("a", count=30)])
        plan = run(sc)
        days = firsts(plan)
        assert len(days) == 23
        assert sum(x <= d("2027-06-30") for x in days) == 7
        assert sum(x >= d("2027-07-01") for x in days) == 16
        assert plan.schedule.groupby("permit_year").size().to_dict() == {
            dt.datetime(2026, 7, 1): 7, dt.datetime(2027, 7, 1): 16}

    def test_shared_tournament_counts_for_both_operators(self) -> None:
        # room-a: 15 held -> room for 1 -> "prog" (shared) gets 1 of its 3.
        # room-b: 16 - 1 (prog) = 15 left for its own "b" (16 wanted); priority 2 keeps prog.
        # Jan-Feb 2027 (59 days) lies in the permit year 2026-07-01 that the 15 were held in
        sc = load(horizon={"start": "2027-01-01", "end": "2027-02-28"},
                  operators=[op(held_in_current_permit_year={"large_stakes": 15}),
                             op("room-b")],
                  tournaments=[large("prog", ("room-a", "room-b"), count=3, priority=2),
                               large("b", ("room-b",), count=16)])
        plan = run(sc)
        assert len(firsts(plan, "prog")) == 1
        assert len(firsts(plan, "b")) == 15
        counted = plan.schedule.query("counted").groupby("operator_id").size().to_dict()
        assert counted == {"room-a": 1, "room-b": 16}  # 1 prog; 1 prog + 15 b
        assert all("MT-LARGE-LIMIT" in rules for rules in missing(plan))

    def test_checker_sixteenth_ok_seventeenth_flagged(self) -> None:
        sc = load(operators=[op()], tournaments=[large("a", count=17)])
        days = days_from("2027-07-01", 17)  # Jul 1 .. Jul 17
        lic = [permit("room-a", "2027-07-01")]
        sixteen = [placed(sc, "a", x, k) for k, x in enumerate(days[:16], start=1)]
        assert violated(sc, sixteen, lic) == []
        seventeen = [placed(sc, "a", x, k) for k, x in enumerate(days, start=1)]
        assert violations(sc, seventeen, lic) == [("MT-LARGE-LIMIT", "room-a", "2027-07-17")]

    def test_checker_counts_those_held_before_the_plan(self) -> None:
        # held 9: 9 + 7 = 16 OK; 9 + 8 = 17 -> the 8th placed (Jan 22) is flagged
        sc = load(operators=[op(held_in_current_permit_year={"large_stakes": 9})],
                  tournaments=[large("a", count=8)])
        days = days_from("2027-01-15", 8)  # Jan 15 .. Jan 22
        seven = [placed(sc, "a", x, k) for k, x in enumerate(days[:7], start=1)]
        assert violated(sc, seven) == []  # permit of the current year already held
        eight = [placed(sc, "a", x, k) for k, x in enumerate(days, start=1)]
        assert violations(sc, eight) == [("MT-LARGE-LIMIT", "room-a", "2027-01-22")]

    def test_checker_charitable_ones_do_not_count(self) -> None:
        # 16 counted + 3 charitable in one permit year: no violation
        sc = load(operators=[op()], tournaments=[large("a", count=16), charity("c", count=3)])
        days = days_from("2027-07-01", 19)
        occ = [placed(sc, "a", x, k) for k, x in enumerate(days[:16], start=1)]
        occ += [placed(sc, "c", x, k) for k, x in enumerate(days[16:], start=1)]
        assert violated(sc, occ, [permit("room-a", "2027-07-01")]) == []

    def test_checker_shared_tournament_flags_only_the_full_operator(self) -> None:
        # room-a held 15: prog#1 is its 16th, prog#2 its 17th; room-b has 2 of 16
        sc = load(operators=[op(held_in_current_permit_year={"large_stakes": 15}),
                             op("room-b")],
                  tournaments=[large("prog", ("room-a", "room-b"), count=2)])
        lic = [permit("room-b", "2026-07-01")]  # room-a's permit for 2026-07-01 is held
        one_ = [placed(sc, "prog", "2027-02-05")]
        assert violated(sc, one_, lic) == []
        two = [*one_, placed(sc, "prog", "2027-02-12", 2)]
        assert violations(sc, two, lic) == [
            ("MT-LARGE-LIMIT", "room-a", "2027-02-12")]


class TestMtCharityLimit:
    """MCA 23-5-317(1)(f): the first 3 charitable large-stakes tournaments of an operator's
    permit year (held ones first) are not counted toward the 16; (1)(f) sets no cap, so a 4th
    and later charitable one is allowed and counted toward the 16 of MT-LARGE-LIMIT.
    (Rewritten from the earlier hard cap of 3; see also tests/test_charity_reading.py.)"""

    def test_four_wanted_four_placed_the_fourth_counted(self) -> None:
        # nothing held: 4 charitable fit (3 free + 1 counted of 16); counted in date order:
        # the first three are free, the 4th (latest first day) is counted
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op()],
                  tournaments=[charity("c", count=4)])
        plan = run(sc)
        assert len(firsts(plan)) == 4 and plan.unscheduled_list == ()
        rows = sorted(plan.rows, key=lambda r: r.first_day)
        assert [r.counted for r in rows] == [False, False, False, True]

    def test_held_charitable_are_the_free_ones_first(self) -> None:
        # 1 held: 3 - 1 = 2 placed are free, the other 2 of 4 are counted (4 placed)
        sc = load(horizon={"start": "2027-01-01", "end": "2027-06-30"},
                  operators=[op(held_in_current_permit_year={"charitable": 1})],
                  tournaments=[charity("c", count=4)])
        plan = run(sc)
        assert len(firsts(plan)) == 4 and plan.unscheduled_list == ()
        rows = sorted(plan.rows, key=lambda r: r.first_day)
        assert [r.counted for r in rows] == [False, False, True, True]

    def test_new_permit_year_fresh_three_free(self) -> None:
        # held 3 charitable in permit year 2026-07-01: the 2 in June 2027 are its 4th and 5th
        # (both counted); July 2027 starts permit year 2027-07-01: Jul 8, 15, 22 free, Jul 29
        # counted (its 4th)
        sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"},
                  notice_from="2027-05-01",
                  operators=[op(held_in_current_permit_year={"charitable": 3})],
                  tournaments=[charity("june", count=2, fixed_dates=["2027-06-10", "2027-06-17"]),
                               charity("july", count=4, fixed_dates=[
                                   "2027-07-08", "2027-07-15", "2027-07-22", "2027-07-29"])])
        plan = run(sc)
        assert {r.first_day.isoformat(): r.counted for r in plan.rows} == {
            "2027-06-10": True, "2027-06-17": True, "2027-07-08": False,
            "2027-07-15": False, "2027-07-22": False, "2027-07-29": True}
        use = plan.usage()
        assert [(r.rule_id, str(r.period_start.date()), r.used, r.limit)
                for r in use.itertuples()] == [
            ("MT-LARGE-LIMIT", "2026-07-01", 2, 16),    # 0 held + 0 + (5 - 3) charitable
            ("MT-CHARITY-LIMIT", "2026-07-01", 3, 3),   # the 3 held
            ("MT-LARGE-LIMIT", "2027-07-01", 1, 16),    # Jul 29
            ("MT-CHARITY-LIMIT", "2027-07-01", 3, 3)]   # Jul 8, 15, 22

    def test_checker_fourth_allowed_seventeenth_counted_flagged(self) -> None:
        # 4 charitable Aug 2-5: 3 free + 1 counted, legal. With 16 non-charitable too
        # (Jul 5..20) the 4th charitable (Aug 5) is the 17th counted: MT-LARGE-LIMIT
        sc = load(operators=[op()], tournaments=[charity("c", count=4), large("a", count=16)])
        days = days_from("2027-08-02", 4)
        lic = [permit("room-a", "2027-07-01")]
        four = [placed(sc, "c", x, k) for k, x in enumerate(days, start=1)]
        assert violated(sc, four, lic) == []
        sixteen = [placed(sc, "a", x, k) for k, x in enumerate(days_from("2027-07-05", 16),
                                                               start=1)]
        assert violations(sc, four + sixteen, lic) == [
            ("MT-LARGE-LIMIT", "room-a", "2027-08-05")]
        assert violated(sc, four[:3] + sixteen, lic) == []  # 3 free + 16 counted

    def test_checker_counts_held_charitable(self) -> None:
        # held 16 counted + 1 charitable: Feb 1, Feb 2 are the 2nd and 3rd charitable (free);
        # Feb 3 is the 4th charitable, counted: 16 + 1 = 17th counted
        sc = load(operators=[op(held_in_current_permit_year={"large_stakes": 16,
                                                              "charitable": 1})],
                  tournaments=[charity("c", count=3)])
        days = days_from("2027-02-01", 3)
        assert violated(sc, [placed(sc, "c", x, k) for k, x in
                             enumerate(days[:2], start=1)]) == []
        assert violations(sc, [placed(sc, "c", x, k) for k, x in
                               enumerate(days, start=1)]) == [
            ("MT-LARGE-LIMIT", "room-a", "2027-02-03")]


class TestMtPermitYear:
    """MCA 23-5-317(1)(a), (1)(b): "a year" is the permit year, July 1 - June 30 by default,
    switchable per operator (``permit_year_start``); a plan spanning a boundary is counted per
    permit year."""

    def test_permit_year_of(self) -> None:
        sc = load(operators=[op(), op("room-b", permit_year_start="01-01")])
        a, b = sc.operator("room-a"), sc.operator("room-b")
        assert a.permit_year_of(d("2027-06-30")) == d("2026-07-01")
        assert a.permit_year_of(d("2027-07-01")) == d("2027-07-01")
        assert b.permit_year_of(d("2026-12-31")) == d("2026-01-01")
        assert b.permit_year_of(d("2027-01-01")) == d("2027-01-01")

    def test_bad_permit_year_start_is_an_error(self) -> None:
        assert problems(scenario(operators=[op(permit_year_start="13-01")])) == {
            ("SCENARIO", "operators[0].permit_year_start")}

    def test_two_permit_years_in_one_plan(self) -> None:
        # June 2027 (permit year 2026-07-01): 16; July 2027 (2027-07-01): 16 -> 32 of 40
        sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"},
                  notice_from="2027-05-01", operators=[op()],
                  tournaments=[large("a", count=40)])
        plan = run(sc)
        assert plan.schedule.groupby("permit_year").size().to_dict() == {
            dt.datetime(2026, 7, 1): 16, dt.datetime(2027, 7, 1): 16}
        assert len(plan.unscheduled_list) == 8  # 40 - 32

    def test_calendar_permit_year_switch(self) -> None:
        # permit_year_start 01-01: June and July 2027 are one permit year -> 16 of 40
        sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"},
                  notice_from="2027-05-01", operators=[op(permit_year_start="01-01")],
                  tournaments=[large("a", count=40)])
        plan = run(sc)
        assert len(firsts(plan)) == 16
        assert set(plan.schedule["permit_year"]) == {dt.datetime(2027, 1, 1)}

    def test_calendar_permit_year_held_and_permit(self) -> None:
        # permit_year_start 01-01, horizon Jul-Dec 2027 inside permit year 2027-01-01:
        # 16 - 10 held = 6; the permit of that year is held already -> no fee
        sc = load(horizon={"start": "2027-07-01", "end": "2027-12-31"},
                  operators=[op(permit_year_start="01-01",
                                held_in_current_permit_year={"large_stakes": 10})],
                  tournaments=[large("a", count=20)])
        plan = run(sc)
        assert len(firsts(plan)) == 6
        assert plan.license_list == ()

    def test_calendar_permit_year_permit_period(self) -> None:
        sc = load(horizon={"start": "2027-07-01", "end": "2027-12-31"},
                  operators=[op(permit_year_start="01-01")], tournaments=[large("a")])
        (lic,) = run(sc).license_list
        assert (lic.valid_from, lic.valid_to, lic.fee_usd) == (
            d("2027-01-01"), d("2027-12-31"), 120)

    def test_co_hosts_with_different_permit_years(self) -> None:
        # shared, Jun-Jul 2027: room-a (Jul 1 years) could take 16 + 16, room-b (calendar
        # year) only 16 in all -> min(32, 16) = 16 of 40
        sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"},
                  notice_from="2027-05-01",
                  operators=[op(), op("room-b", permit_year_start="01-01")],
                  tournaments=[large("prog", ("room-a", "room-b"), count=40)])
        plan = run(sc)
        assert len(firsts(plan)) == 16
        assert all("MT-LARGE-LIMIT" in rules for rules in missing(plan))

    def test_checker_counts_per_permit_year(self) -> None:
        # 16 in June (Jun 1..16) + 1 on Jul 1: the 17th of the plan is the 1st of 2027-07-01
        sc = load(operators=[op()], tournaments=[large("a", count=17)])
        occ = [placed(sc, "a", x, k) for k, x in enumerate(days_from("2027-06-01", 16), start=1)]
        occ.append(placed(sc, "a", "2027-07-01", 17))
        lic = [permit("room-a", "2026-07-01"), permit("room-a", "2027-07-01")]
        assert violated(sc, occ, lic) == []
        # the same dates under a calendar permit year are 17 in 2027 -> the Jul 1 one flagged
        sc2 = load(operators=[op(permit_year_start="01-01")],
                   tournaments=[large("a", count=17)])
        occ2 = [placed(sc2, p.tid, p.first_day, p.occurrence) for p in occ]
        lic2 = [License("x", "room-a", "MT", "mt-large-stakes-permit", "", d("2027-01-01"),
                        d("2027-12-31"), 120, ())]
        assert violations(sc2, occ2, lic2) == [("MT-LARGE-LIMIT", "room-a", "2027-07-01")]


class TestMtDuration:
    """MCA 23-5-317(1)(c): a large-stakes tournament is conducted on at most 5 consecutive days;
    a day is any part of a midnight-to-midnight period (ARM 23.16.101)."""

    def test_three_days_of_14_hours_use_four_calendar_days(self) -> None:
        # day 3: 12:00 + 14 h = 02:00 on day 4 -> 3 + 1 = 4 calendar days <= 5
        sc = load_scenario(one(large("a", days=3, hours=14)))
        assert calendar_days(sc.tournament("a")) == 4

    def test_four_days_of_14_hours_use_five(self) -> None:
        sc = load_scenario(one(large("a", days=4, hours=14)))  # 4 + 1 = 5
        assert calendar_days(sc.tournament("a")) == 5

    def test_five_days_of_14_hours_use_six_and_are_rejected(self) -> None:
        # 5 play days + 1 (02:00 on day 6) = 6 > 5
        assert problems(one(large("a", days=5, hours=14))) == {
            ("MT-DURATION", "tournaments[0].days")}

    def test_five_days_ending_at_midnight_are_allowed(self) -> None:
        # 12:00 + 12 h = 24:00: the session ends at midnight, day 6 is not touched -> 5
        sc = load_scenario(one(large("a", days=5, hours=12)))
        assert calendar_days(sc.tournament("a")) == 5

    def test_five_days_ending_one_minute_past_midnight_are_rejected(self) -> None:
        # 12:00 + 12:01 = 00:01 on day 6 -> 6 calendar days
        assert problems(one(large("a", days=5, hours="12:01"))) == {
            ("MT-DURATION", "tournaments[0].days")}

    def test_six_play_days_are_rejected(self) -> None:
        assert problems(one(large("a", days=6))) == {("MT-DURATION", "tournaments[0].days")}

    def test_one_continuous_120_hour_session_uses_six_days(self) -> None:
        # ordinance: 12:00 day 1 + 120 h (= 5 x 24 h) = 12:00 day 6 -> 6 calendar days > 5
        data = scenario(operators=[op(late_hours_ordinance=True)],
                        tournaments=[large("a", hours=120)])
        assert problems(data) == {("MT-DURATION", "tournaments[0].days")}

    def test_solved_row_spans_four_calendar_days(self) -> None:
        # Fri Aug 6 12:00 .. Mon Aug 9 02:00 (day 3 = Sun Aug 8, + 14 h)
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op()],
                  tournaments=[large("a", days=3, hours=14, fixed_dates=["2027-08-06"])])
        (row,) = run(sc).rows
        assert (row.first_day, row.last_day) == (d("2027-08-06"), d("2027-08-09"))
        assert row.end.replace(tzinfo=None) == dt.datetime(2027, 8, 9, 2, 0)

    def test_checker_six_calendar_days_flagged(self) -> None:
        sc = load(operators=[op()], tournaments=[large("a", days=5, hours=12)])
        lic = [permit("room-a", "2027-07-01")]
        ok = placed(sc, "a", "2027-08-02")  # Aug 2 .. Aug 6 (ends 24:00)
        assert ok.timing.last_day == d("2027-08-06")
        assert violated(sc, [ok], lic) == []
        # the same tournament one minute longer (bypassing input validation): Aug 2 .. Aug 7
        t = sc.tournament("a").model_copy(update={"hours": Decimal(12) + Decimal(1) / 60})
        tm = timing(t, sc.operator("room-a").tz, d("2027-08-02"))
        assert tm is not None and len(tm.days) == 6
        assert violations(sc, [Occurrence(t, 1, tm)], lic) == [
            ("MT-DURATION", "room-a", "2027-08-02..2027-08-07")]


class TestMtNotice:
    """MCA 23-5-317(1)(d), (1)(f): notice to the department at least 5 days before the start
    (notice due = first day - 5); each operator of a multi-site tournament notifies."""

    def test_notice_due(self) -> None:
        assert notice_due(d("2027-01-15")) == d("2027-01-10")  # 15 - 5

    def test_earliest_first_day_is_notice_from_plus_5(self) -> None:
        # notice_from Jan 10 -> first day >= Jan 15; Jan 15..20 = 6 days of the 20 wanted
        sc = load(horizon={"start": "2027-01-01", "end": "2027-01-20"},
                  notice_from="2027-01-10", operators=[op()],
                  tournaments=[large("a", count=20)])
        plan = run(sc)
        assert firsts(plan) == days_from("2027-01-15", 6)
        assert plan.rows[0].notice_due == d("2027-01-10")
        assert len(plan.unscheduled_list) == 14  # 20 - 6
        assert "MT-NOTICE" in plan.unscheduled_list[0].rule_ids

    @pytest.mark.parametrize("make", [large, charity])
    def test_fixed_day_minus_4_is_unscheduled(self, make: Any) -> None:
        # Jan 14 - 5 = Jan 9 < Jan 10 -> impossible; Jan 15 - 5 = Jan 10 -> allowed
        sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"},
                  notice_from="2027-01-10", operators=[op()],
                  tournaments=[make("x", fixed_dates=["2027-01-14"]),
                               make("y", fixed_dates=["2027-01-15"])])
        plan = run(sc)
        assert firsts(plan, "y") == [d("2027-01-15")]
        assert firsts(plan, "x") == []
        (u,) = plan.unscheduled_list
        assert (u.tournament_id, u.rule_ids, u.required) == ("x", ("MT-NOTICE",), True)

    def test_small_stakes_need_no_notice(self) -> None:
        sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"},
                  notice_from="2027-01-10", operators=[op()],
                  tournaments=[small("s", fixed_dates=["2027-01-11"])])
        plan = run(sc)
        assert firsts(plan) == [d("2027-01-11")]
        assert plan.rows[0].notice_due is None

    def test_checker_day_minus_5_ok_minus_4_flagged(self) -> None:
        sc = load(notice_from="2027-01-10", operators=[op()], tournaments=[large("a")])
        assert violated(sc, [placed(sc, "a", "2027-01-15")]) == ["MT-PERMIT-FEES"]
        lic = [permit("room-a", "2026-07-01")]
        assert violated(sc, [placed(sc, "a", "2027-01-15")], lic) == []
        assert violations(sc, [placed(sc, "a", "2027-01-14")], lic) == [
            ("MT-NOTICE", "room-a", "2027-01-14")]

    def test_checker_each_operator_of_a_shared_tournament(self) -> None:
        sc = load(notice_from="2027-01-10", operators=[op(), op("room-b")],
                  tournaments=[large("prog", ("room-a", "room-b"))])
        lic = [permit("room-a", "2026-07-01"), permit("room-b", "2026-07-01")]
        assert violations(sc, [placed(sc, "prog", "2027-01-14")], lic) == [
            ("MT-NOTICE", "room-a", "2027-01-14"), ("MT-NOTICE", "room-b", "2027-01-14")]


class TestMtSmallDaily:
    """MCA 23-5-317(2)(a): "daily" small-stakes tournaments: at most one per operator per
    calendar day, each within that day."""

    def test_two_days_is_an_input_error(self) -> None:
        assert problems(one(small("s", days=2))) == {("MT-SMALL-DAILY", "tournaments[0].days")}

    def test_ending_at_midnight_is_allowed_past_it_is_not(self) -> None:
        load_scenario(one(small("s", start_time="19:00", hours=5)))  # 19 + 5 = 24:00
        # 20:00 + 5 h = 01:00 next day
        assert problems(one(small("s", start_time="20:00", hours=5))) == {
            ("MT-SMALL-DAILY", "tournaments[0].hours")}

    def test_two_on_the_same_day_never_both_placed(self) -> None:
        sc = load(horizon=SUMMER, operators=[op()],
                  tournaments=[small("s1", fixed_dates=["2027-08-04"]),
                               small("s2", fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert firsts(plan) == [d("2027-08-04")]  # one of the two
        (u,) = plan.unscheduled_list
        assert "MT-SMALL-DAILY" in u.rule_ids

    def test_other_operator_same_day_is_fine(self) -> None:
        sc = load(horizon=SUMMER, operators=[op(), op("room-b")],
                  tournaments=[small("s1", fixed_dates=["2027-08-04"]),
                               small("s2", ("room-b",), fixed_dates=["2027-08-04"])])
        plan = run(sc)
        assert firsts(plan) == [d("2027-08-04")] * 2
        assert plan.unscheduled_list == ()

    def test_every_wednesday(self) -> None:
        # count all, Wednesdays of Aug 2027: 4, 11, 18, 25; a second nightly game is blocked
        sc = load(horizon={"start": "2027-08-01", "end": "2027-08-31"}, operators=[op()],
                  tournaments=[small("wed", count="all", weekdays=["wed"], priority=2),
                               small("other", count=2, window={"start": "2027-08-04",
                                                                "end": "2027-08-04"})])
        plan = run(sc)
        assert firsts(plan, "wed") == [d(f"2027-08-{x:02d}") for x in (4, 11, 18, 25)]
        assert firsts(plan, "other") == []
        assert all("MT-SMALL-DAILY" in r for r in missing(plan, "other"))

    def test_checker(self) -> None:
        sc = load(operators=[op(), op("room-b")],
                  tournaments=[small("s1"), small("s2"), small("s3", ("room-b",))])
        lic = [permit("room-a", "2027-07-01", small_stakes=True),
               permit("room-b", "2027-07-01", small_stakes=True)]
        same = [placed(sc, "s1", "2027-08-04"), placed(sc, "s2", "2027-08-04")]
        assert violations(sc, same, lic) == [("MT-SMALL-DAILY", "room-a", "2027-08-04")]
        apart = [placed(sc, "s1", "2027-08-04"), placed(sc, "s2", "2027-08-05"),
                 placed(sc, "s3", "2027-08-04")]
        assert violated(sc, apart, lic) == []

    def test_checker_past_midnight(self) -> None:
        sc = load(operators=[op()], tournaments=[small("s")])
        t = sc.tournament("s").model_copy(update={"start_time": dt.time(20, 0),
                                                   "hours": Decimal(5)})
        tm = timing(t, sc.operator("room-a").tz, d("2027-08-04"))  # 20:00 + 5 h = 01:00
        assert tm is not None
        lic = [permit("room-a", "2027-07-01", small_stakes=True)]
        assert violated(sc, [Occurrence(t, 1, tm)], lic) == ["MT-SMALL-DAILY"]


class TestMtPlayHours:
    """ARM 23.16.1101: no tournament play between 2 a.m. and 8 a.m. unless a local ordinance
    extends hours (``late_hours_ordinance``)."""

    def test_noon_plus_14_hours_ends_at_2am(self) -> None:
        load_scenario(one(large("a", hours=14)))  # 12:00 + 14 h = 26:00 = 02:00

    def test_noon_plus_14_and_a_half_hours_is_rejected(self) -> None:
        # 12:00 + 14.5 h = 26:30 = 02:30 > 02:00
        assert problems(one(large("a", hours=14.5))) == {
            ("MT-PLAY-HOURS", "tournaments[0].hours")}

    def test_start_at_8_ok_at_7_59_rejected(self) -> None:
        load_scenario(one(large("a", start_time="08:00", hours=18)))  # 8 + 18 = 26:00
        assert problems(one(large("a", start_time="07:59", hours=4))) == {
            ("MT-PLAY-HOURS", "tournaments[0].hours")}
        # 08:00 + 18:01 = 02:01
        assert problems(one(large("a", start_time="08:00", hours="18:01"))) == {
            ("MT-PLAY-HOURS", "tournaments[0].hours")}

    def test_small_stakes_too(self) -> None:
        assert problems(one(small("s", start_time="07:00", hours=4))) == {
            ("MT-PLAY-HOURS", "tournaments[0].hours")}

    def test_ordinance_lifts_the_limit(self) -> None:
        data = scenario(operators=[op(late_hours_ordinance=True)],
                        tournaments=[large("a", hours=14.5), large("b", start_time="06:00")])
        load_scenario(data)

    def test_shared_tournament_needs_the_ordinance_everywhere(self) -> None:
        t = large("prog", ("room-a", "room-b"), hours=14.5)
        data = scenario(operators=[op(late_hours_ordinance=True), op("room-b")], tournaments=[t])
        assert problems(data) == {("MT-PLAY-HOURS", "tournaments[0].hours")}
        data = scenario(operators=[op(late_hours_ordinance=True),
                                   op("room-b", late_hours_ordinance=True)], tournaments=[t])
        load_scenario(data)

    def test_solved_row_ends_at_2am(self) -> None:
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op()],
                  tournaments=[large("a", hours=14, fixed_dates=["2027-08-06"])])
        (row,) = run(sc).rows
        assert row.start.replace(tzinfo=None) == dt.datetime(2027, 8, 6, 12, 0)
        assert row.end.replace(tzinfo=None) == dt.datetime(2027, 8, 7, 2, 0)
        assert row.last_day == d("2027-08-07")

    def test_checker(self) -> None:
        sc = load(operators=[op()], tournaments=[large("a", hours=14)])
        lic = [permit("room-a", "2027-07-01")]
        assert violated(sc, [placed(sc, "a", "2027-08-06")], lic) == []
        tz = sc.operator("room-a").tz
        late = sc.tournament("a").model_copy(update={"hours": Decimal("14.5")})
        tm = timing(late, tz, d("2027-08-06"))  # 12:00 + 14.5 h = 02:30
        assert tm is not None and tm.end.hour == 2 and tm.end.minute == 30
        assert violated(sc, [Occurrence(late, 1, tm)], lic) == ["MT-PLAY-HOURS"]
        early = sc.tournament("a").model_copy(update={"start_time": dt.time(7, 0),
                                                       "hours": 4})
        tm = timing(early, tz, d("2027-08-06"))
        assert tm is not None
        assert violated(sc, [Occurrence(early, 1, tm)], lic) == ["MT-PLAY-HOURS"]

    def test_checker_ordinance(self) -> None:
        sc = load(operators=[op(late_hours_ordinance=True)],
                  tournaments=[large("a", hours=14.5)])
        assert violated(sc, [placed(sc, "a", "2027-08-06")],
                        [permit("room-a", "2027-07-01")]) == []


# =========================================================================== cost rule
class TestMtPermitFees:
    """MCA 23-5-317(1)(b), (2)(b): large-stakes permit $120, small-stakes permit $500, per
    permit year, not prorated; bought only for a permit year in which it is used."""

    def test_one_permit_year_one_large_permit(self) -> None:
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op()],
                  tournaments=[large("a", count=3)])
        plan = run(sc)
        (lic,) = plan.license_list
        assert (lic.kind, lic.fee_usd) == ("mt-large-stakes-permit", 120)
        assert (lic.valid_from, lic.valid_to) == (d("2027-07-01"), d("2028-06-30"))
        assert sorted(lic.covers) == ["a#1", "a#2", "a#3"]

    def test_two_permit_years_two_permits(self) -> None:
        # Mar 5 (2026-07-01 year) and Sep 10 (2027-07-01 year): 2 x 120 = 240
        sc = load(operators=[op()],
                  tournaments=[large("a", count=2, fixed_dates=["2027-03-05", "2027-09-10"])])
        plan = run(sc)
        assert sorted((lic.valid_from, lic.fee_usd) for lic in plan.license_list) == [
            (d("2026-07-01"), 120), (d("2027-07-01"), 120)]
        assert plan.total_fees_usd == 240

    def test_not_bought_for_a_permit_year_without_events(self) -> None:
        # the horizon touches both permit years, events only after Jul 1 -> one $120 permit
        sc = load(operators=[op()],
                  tournaments=[large("a", count=2, window={"start": "2027-08-01",
                                                           "end": "2027-12-31"})])
        plan = run(sc)
        assert [(lic.valid_from, lic.fee_usd) for lic in plan.license_list] == [
            (d("2027-07-01"), 120)]

    def test_dates_chosen_to_need_a_single_permit(self) -> None:
        # 2 wanted, horizon 2027 spans permit years 2026-07-01 and 2027-07-01: both in one
        # permit year cost 120, one in each 240 -> the solver picks one permit year
        sc = load(operators=[op()], tournaments=[large("a", count=2)])
        plan = run(sc)
        assert len(firsts(plan)) == 2
        assert len({r.permit_year for r in plan.rows}) == 1
        assert plan.total_fees_usd == 120

    def test_not_prorated(self) -> None:
        # a plan in the last two months of a permit year still pays the full $120
        sc = load(horizon={"start": "2028-05-01", "end": "2028-06-30"},
                  notice_from="2028-04-01", operators=[op()], tournaments=[large("a")])
        (lic,) = run(sc).license_list
        assert (lic.valid_from, lic.valid_to, lic.fee_usd) == (
            d("2027-07-01"), d("2028-06-30"), 120)

    @pytest.mark.parametrize("held", [{"large_stakes": 9}, {"charitable": 1}])
    def test_current_permit_year_already_bought_when_events_were_held(
            self, held: dict[str, int]) -> None:
        # Mar 5 is in the current permit year (held > 0: permit bought); Sep 10 needs $120
        sc = load(operators=[op(held_in_current_permit_year=held)],
                  tournaments=[large("a", count=2, fixed_dates=["2027-03-05", "2027-09-10"])])
        plan = run(sc)
        assert [(lic.valid_from, lic.fee_usd) for lic in plan.license_list] == [
            (d("2027-07-01"), 120)]
        assert plan.total_fees_usd == 120

    def test_small_stakes_permit_500(self) -> None:
        # small + large in one permit year: 500 + 120 = 620
        sc = load(horizon=SUMMER, notice_from="2027-06-01", operators=[op()],
                  tournaments=[small("s", count=2), large("a")])
        plan = run(sc)
        assert sorted((lic.kind, lic.fee_usd) for lic in plan.license_list) == [
            ("mt-large-stakes-permit", 120), ("mt-small-stakes-permit", 500)]
        assert plan.total_fees_usd == 620

    def test_held_large_stakes_do_not_buy_the_small_permit(self) -> None:
        # held large-stakes cover only the large permit: a small-stakes night in March
        # still needs the $500 small-stakes permit of permit year 2026-07-01
        sc = load(horizon={"start": "2027-01-01", "end": "2027-06-30"},
                  operators=[op(held_in_current_permit_year={"large_stakes": 9})],
                  tournaments=[small("s", fixed_dates=["2027-03-03"]),
                               large("a", fixed_dates=["2027-03-05"])])
        plan = run(sc)
        assert [(lic.kind, lic.valid_from, lic.fee_usd) for lic in plan.license_list] == [
            ("mt-small-stakes-permit", d("2026-07-01"), 500)]

    def test_permits_already_bought_are_not_bought_again(self) -> None:
        # permits: [small-stakes] for permit year 2026-07-01 -> the March night is free, the
        # September night needs the $500 permit of 2027-07-01; the large-stakes permit of the
        # current year was not bought (no large-stakes held) -> $120 for the March tournament
        sc = load(operators=[op(held_in_current_permit_year={"permits": ["small-stakes"]})],
                  tournaments=[small("s", count=2, fixed_dates=["2027-03-03", "2027-09-08"]),
                               large("a", fixed_dates=["2027-03-05"])])
        plan = run(sc)
        assert sorted((lic.kind, lic.valid_from, lic.fee_usd) for lic in plan.license_list) == [
            ("mt-large-stakes-permit", d("2026-07-01"), 120),
            ("mt-small-stakes-permit", d("2027-07-01"), 500)]
        assert plan.total_fees_usd == 620  # 120 + 500

    def test_large_permit_already_bought_without_events(self) -> None:
        # permits: [large-stakes], nothing held yet -> March is free, September costs $120
        sc = load(operators=[op(held_in_current_permit_year={"permits": ["large-stakes"]})],
                  tournaments=[large("a", count=2, fixed_dates=["2027-03-05", "2027-09-10"])])
        plan = run(sc)
        assert [(lic.valid_from, lic.fee_usd) for lic in plan.license_list] == [
            (d("2027-07-01"), 120)]

    def test_unknown_permit_kind(self) -> None:
        data = scenario(operators=[op(held_in_current_permit_year={"permits": ["charity"]})])
        assert {r for r, _ in problems(data)} == {"SCENARIO"}

    def test_checker_permits_already_bought(self) -> None:
        sc = load(operators=[op(held_in_current_permit_year={"permits": ["small-stakes"]})],
                  tournaments=[small("s", count=2)])
        assert violated(sc, [placed(sc, "s", "2027-03-03")]) == []
        assert violations(sc, [placed(sc, "s", "2027-09-08")]) == [
            ("MT-PERMIT-FEES", "room-a", "2027-09-08")]

    def test_checker(self) -> None:
        sc = load(operators=[op()], tournaments=[large("a"), small("s")])
        occ = [placed(sc, "a", "2027-08-06"), placed(sc, "s", "2027-08-04")]
        both = [permit("room-a", "2027-07-01"),
                permit("room-a", "2027-07-01", small_stakes=True)]
        assert violated(sc, occ, both) == []
        assert violations(sc, occ, both[:1]) == [("MT-PERMIT-FEES", "room-a", "2027-08-04")]
        assert violations(sc, occ, both[1:]) == [("MT-PERMIT-FEES", "room-a", "2027-08-06")]
        # a permit of the wrong permit year does not count
        wrong = [permit("room-a", "2026-07-01"), both[1]]
        assert violations(sc, occ, wrong) == [("MT-PERMIT-FEES", "room-a", "2027-08-06")]
        # a permit listed at the wrong fee ($100, not $120) is reported on its own row (its
        # validity as the dates); the tournament it covers is not reported a second time
        assert violations(sc, occ, [permit("room-a", "2027-07-01", fee=100), both[1]]) == [
            ("MT-PERMIT-FEES", "room-a", "2027-07-01..2028-06-30")]

    def test_checker_held_means_permit_held(self) -> None:
        sc = load(operators=[op(held_in_current_permit_year={"large_stakes": 1})],
                  tournaments=[large("a", count=2)])
        assert violated(sc, [placed(sc, "a", "2027-03-05")]) == []
        # ...but only for the current permit year
        assert violations(sc, [placed(sc, "a", "2027-09-10")]) == [
            ("MT-PERMIT-FEES", "room-a", "2027-09-10")]


class TestHeldBeforeThePlan:
    """MT-LARGE-LIMIT / MT-CHARITY-LIMIT, MCA 23-5-317(1)(a), (1)(f): what was held before the
    plan cannot itself exceed the limits: at most 16 counted (large_stakes + the charitable
    ones beyond the first 3). More than 3 charitable is not an error by itself."""

    def test_sixteen_and_three_are_accepted(self) -> None:
        load_scenario(scenario(operators=[op(held_in_current_permit_year={
            "large_stakes": 16, "charitable": 3})]))

    def test_charitable_beyond_three_count_toward_sixteen(self) -> None:
        # 13 + max(0, 6 - 3) = 16 counted: accepted; 14 + 3 = 17: an error on charitable
        load_scenario(scenario(operators=[op(held_in_current_permit_year={
            "large_stakes": 13, "charitable": 6})]))
        assert problems(scenario(operators=[op(held_in_current_permit_year={
            "large_stakes": 14, "charitable": 6})])) == {
            ("MT-LARGE-LIMIT", "operators[0].held_in_current_permit_year.charitable")}

    def test_seventeen_is_an_error_four_charitable_is_not(self) -> None:
        assert problems(scenario(operators=[op(held_in_current_permit_year={
            "large_stakes": 17, "charitable": 4})])) == {
            ("MT-LARGE-LIMIT", "operators[0].held_in_current_permit_year.large_stakes")}
