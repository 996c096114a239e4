"""Tours across venues (TOUR-WHOLE, TOUR-ORDER, TOUR-SPACING; constraints/tours.py) and a
progressive's rounds (MT-PROGRESSIVE, MCA 23-5-317(1)(e)): issue #15 part 3.

The vehicle is a Montana large-stakes tournament of one calendar day (12:00 for 10 h) at its
own room; ``notice_from`` 2026-12-01 keeps MT-NOTICE out of the way. The short horizon
2027-03-01..2027-03-20 is 20 days (day 0 = Mon Mar 1, day 7 = Mar 8, day 14 = Mar 15). The
model's last objective stage prefers earlier first days, so a free stop takes its earliest
allowed day.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import icalendar
import openpyxl
import pytest
from typer.testing import CliRunner

from constraints.base import Audit, License, Occurrence
from constraints.registry import check
from constraints.tours import needed_days
from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.engine.decompose import components
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
)
from builders.scenarios import violations as _violations

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "examples" / "two-room-progressive.yaml"
MARCH = {"start": "2027-03-01", "end": "2027-03-20"}  # 20 days
ROOMS = [mt_room("room-a"), mt_room("room-b"), mt_room("room-c")]


def stop(tid: str, room: str, **kw: Any) -> dict[str, Any]:
    return mt_large(tid, (room,), **kw)


def three(**tour: Any) -> list[dict[str, Any]]:
    return [{"id": "t", "title": "Tour", "stops": ["a", "b", "c"], **tour}]


def abc(**kw: Any) -> list[dict[str, Any]]:
    return [stop("a", "room-a", **kw), stop("b", "room-b", **kw), stop("c", "room-c", **kw)]


def days_of(plan: Any) -> dict[str, dt.date]:
    return {r.tournament_id: r.first_day for r in plan.rows}


def permits() -> list[License]:
    """The large-stakes permit of permit year 2026-07-01 for each room ($120), so
    MT-PERMIT-FEES says nothing in the checker tests."""
    return [License(f"{o}/2026", o, "MT", "mt-large-stakes-permit", "", d("2026-07-01"),
                    d("2027-06-30"), 120, ()) for o in ("room-a", "room-b", "room-c")]


def violations(sc: Scenario, occ: list[Occurrence]) -> list[tuple[str, str, str]]:
    return _violations(sc, occ, permits())


# =========================================================================== the model
class TestSpacing:
    def test_three_stops_seven_days_apart_in_twenty_days(self) -> None:
        # earliest first days: a day 0 (Mar 1), b day 0 + 7 = Mar 8, c day 7 + 7 = Mar 15;
        # the last, day 14, is within the 20 days (0..19)
        sc = load(horizon=MARCH, operators=ROOMS, tournaments=abc(),
                  tours=three(min_days_between=7))
        plan = run(sc)
        assert days_of(plan) == {"a": d("2027-03-01"), "b": d("2027-03-08"),
                                 "c": d("2027-03-15")}
        assert plan.unscheduled_list == ()

    def test_without_the_tour_all_three_take_day_zero(self) -> None:
        # three rooms, three independent tournaments: each takes Mar 1
        sc = load(horizon=MARCH, operators=ROOMS, tournaments=abc())
        assert firsts(run(sc)) == [d("2027-03-01")] * 3

    def test_thirteen_day_windows_cannot_hold_it_and_the_conflict_names_the_spacing(
            self) -> None:
        # windows Mar 1..13 (13 days, days 0..12): c would need day 14 > 12. Required, so the
        # explanation names the requests, TOUR-SPACING (both gaps: a->b, b->c) and c's window
        sc = load(horizon=MARCH, operators=ROOMS,
                  tournaments=abc(required=1, window={"start": "2027-03-01",
                                                      "end": "2027-03-13"}),
                  tours=three(min_days_between=7))
        plan = run(sc)
        assert plan.rows == () and not plan.required_met
        (conflict,) = plan.conflicts
        rules = [m.rule for m in conflict]
        assert rules.count("TOUR-SPACING") == 2 and "WINDOW" in rules
        texts = " ".join(m.render() for m in conflict)
        assert "tour t starts c at least 7 days after b (TOUR-SPACING)" in texts
        assert "c may start only from 2027-03-01 to 2027-03-13" in texts

    def test_fourteen_day_windows_hold_it_exactly(self) -> None:
        # windows Mar 1..14 (days 0..13): still 14 > 13, infeasible; Mar 1..15: day 14 fits
        sc = load(horizon=MARCH, operators=ROOMS,
                  tournaments=abc(window={"start": "2027-03-01", "end": "2027-03-15"}),
                  tours=three(min_days_between=7))
        assert days_of(run(sc))["c"] == d("2027-03-15")
        sc = sc.replace(tournaments=abc(window={"start": "2027-03-01", "end": "2027-03-14"}))
        plan = run(sc)
        # optional stops: the tour is placed whole or not at all (TOUR-WHOLE)
        assert plan.rows == () and len(plan.unscheduled_list) == 3

    def test_a_required_stop_whose_partner_cannot_be_placed_is_a_conflict(self) -> None:
        # b's room is blacked out all 20 days; a is required: a alone would break TOUR-WHOLE
        sc = load(horizon=MARCH, operators=[
                      mt_room("room-a"), mt_room("room-b", blackout=["2027-03-01..2027-03-20"])],
                  tournaments=[stop("a", "room-a", required=1), stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"]}])
        (conflict,) = run(sc).conflicts
        assert [m.render() for m in conflict] == [
            "request: a needs 1 occurrence(s) placed (required: 1)",
            "the blackout days of Room-B rule out 20 days (2027-03-01..2027-03-20) for b "
            "(BLACKOUT)",
            "tour t places a and b together (TOUR-WHOLE)"]
        assert conflict.minimal

    def test_windows_in_the_wrong_order_are_a_conflict_naming_the_order(self) -> None:
        # a (listed first) may start only Mar 10..20, b only Mar 1..9: b cannot follow a
        sc = load(horizon=MARCH, operators=ROOMS[:2],
                  tournaments=[stop("a", "room-a", required=1,
                                    window={"start": "2027-03-10", "end": "2027-03-20"}),
                               stop("b", "room-b", required=1,
                                    window={"start": "2027-03-01", "end": "2027-03-09"})],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"]}])
        (conflict,) = run(sc).conflicts
        assert sorted(m.rule for m in conflict) == [
            "REQUEST", "REQUEST", "TOUR-ORDER", "WINDOW", "WINDOW"]
        assert "tour t starts b after a ends (TOUR-ORDER)" in [m.render() for m in conflict]
        # in any order the same windows fit: b Mar 1, a Mar 10 (earliest days)
        sc = sc.replace(tours=[{"id": "t", "title": "T", "stops": ["a", "b"],
                                "order": "any"}])
        assert days_of(run(sc)) == {"b": d("2027-03-01"), "a": d("2027-03-10")}

    def test_maximum_pulls_the_first_stop_late(self) -> None:
        # b may start only from Mar 10; at most 3 days after a: a >= Mar 7 (10 - 3)
        sc = load(horizon=MARCH, operators=ROOMS[:2],
                  tournaments=[stop("a", "room-a"), stop("b", "room-b", window={
                      "start": "2027-03-10", "end": "2027-03-20"})],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"],
                          "max_days_between": 3}])
        assert days_of(run(sc)) == {"a": d("2027-03-07"), "b": d("2027-03-10")}


class TestOrder:
    def test_strict_order_puts_the_listed_first_stop_first(self) -> None:
        # stops [b, a]; a may start only Mar 1..5. b is listed first, so b Mar 1 and a the
        # day after b ends (b ends Mar 1 22:00): Mar 2
        sc = load(horizon=MARCH, operators=ROOMS[:2],
                  tournaments=[stop("a", "room-a", window={"start": "2027-03-01",
                                                             "end": "2027-03-05"}),
                               stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["b", "a"]}])
        assert days_of(run(sc)) == {"b": d("2027-03-01"), "a": d("2027-03-02")}

    def test_a_multi_day_stop_ends_before_the_next_starts(self) -> None:
        # a runs 3 days (Mar 1, 2, 3): b from Mar 4
        sc = load(horizon=MARCH, operators=ROOMS[:2],
                  tournaments=[stop("a", "room-a", days=3), stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"]}])
        assert days_of(run(sc)) == {"a": d("2027-03-01"), "b": d("2027-03-04")}

    def test_any_order_still_one_stop_a_day(self) -> None:
        # order any, no spacing: two stops cannot share a day; earliest: Mar 1 and Mar 2
        sc = load(horizon=MARCH, operators=ROOMS[:2],
                  tournaments=[stop("a", "room-a"), stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"], "order": "any"}])
        assert firsts(run(sc)) == [d("2027-03-01"), d("2027-03-02")]

    def test_any_order_with_a_final_and_spacing(self) -> None:
        # x may start only from Mar 10, y free, f the final: y Mar 1 (earliest), x Mar 10
        # (9 >= 2 days after y), f at least 2 days after x: Mar 12 (the final is last)
        sc = load(horizon=MARCH, operators=ROOMS,
                  tournaments=[stop("x", "room-a", window={"start": "2027-03-10",
                                                             "end": "2027-03-20"}),
                               stop("y", "room-b"), stop("f", "room-c")],
                  tours=[{"id": "t", "title": "T", "stops": ["x", "y", "f"], "order": "any",
                          "min_days_between": 2, "final": "f"}])
        assert days_of(run(sc)) == {"y": d("2027-03-01"), "x": d("2027-03-10"),
                                    "f": d("2027-03-12")}

    def test_any_order_stops_two_days_apart_either_way(self) -> None:
        # x only Mar 5, y free, at least 4 days apart either way round: y Mar 1 (4 before)
        sc = load(horizon=MARCH, operators=ROOMS[:2],
                  tournaments=[stop("x", "room-a", fixed_dates=["2027-03-05"]),
                               stop("y", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["x", "y"], "order": "any",
                          "min_days_between": 4}])
        assert days_of(run(sc)) == {"x": d("2027-03-05"), "y": d("2027-03-01")}
        # 5 apart: Mar 1 is 4 before Mar 5; y must go to Mar 10 (5 after)
        sc = sc.replace(tours=[{"id": "t", "title": "T", "stops": ["x", "y"], "order": "any",
                                "min_days_between": 5}])
        assert days_of(run(sc)) == {"x": d("2027-03-05"), "y": d("2027-03-10")}


class TestEachRoomsOwnRules:
    def test_a_full_room_drops_the_whole_tour(self) -> None:
        # room-a held 16 large-stakes tournaments this permit year: a would be its 17th
        # (MT-LARGE-LIMIT, 16 + 1 > 16), so neither a nor b is placed (TOUR-WHOLE)
        sc = load(horizon=MARCH,
                  operators=[mt_room("room-a", held_in_current_permit_year={
                      "large_stakes": 16}), mt_room("room-b")],
                  tournaments=[stop("a", "room-a"), stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"]}])
        plan = run(sc)
        assert plan.rows == ()
        assert "MT-LARGE-LIMIT" in missing(plan, "a")[0]

    def test_fifteen_held_leaves_room_for_the_stop(self) -> None:
        # 15 + 1 = 16 <= 16: the tour is placed, a Mar 1, b Mar 2
        sc = load(horizon=MARCH,
                  operators=[mt_room("room-a", held_in_current_permit_year={
                      "large_stakes": 15}), mt_room("room-b")],
                  tournaments=[stop("a", "room-a"), stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"]}])
        assert days_of(run(sc)) == {"a": d("2027-03-01"), "b": d("2027-03-02")}

    def test_each_stop_needs_its_rooms_notice(self) -> None:
        # notice_from Feb 26: a first day from Mar 3 (notice due 5 days before, MT-NOTICE);
        # b at least 7 days later: Mar 10; each row carries its own room's notice date
        sc = load(horizon=MARCH, notice_from="2027-02-26", operators=ROOMS[:2],
                  tournaments=[stop("a", "room-a"), stop("b", "room-b")],
                  tours=[{"id": "t", "title": "T", "stops": ["a", "b"],
                          "min_days_between": 7}])
        plan = run(sc)
        assert days_of(plan) == {"a": d("2027-03-03"), "b": d("2027-03-10")}
        assert {(r.operator_id, r.notice_due) for r in plan.rows} == {
            ("room-a", d("2027-02-26")), ("room-b", d("2027-03-05"))}

    def test_a_tour_joins_its_rooms_into_one_part(self) -> None:
        # three rooms with nothing shared are three parts; the tour makes them one
        sc = load(horizon=MARCH, operators=ROOMS, tournaments=abc())
        assert len(components(sc)) == 3
        (part,) = components(sc.replace(tours=three()))
        assert [t.id for t in part.tours] == ["t"]


# =========================================================================== the check
class TestCheck:
    def sc(self, **tour: Any) -> Scenario:
        return load(horizon={"start": "2027-03-01", "end": "2027-04-30"}, operators=ROOMS,
                    tournaments=abc(), tours=three(**tour))

    def test_seven_days_apart_is_clean_six_is_not(self) -> None:
        sc = self.sc(min_days_between=7)
        good = [placed(sc, "a", "2027-03-01"), placed(sc, "b", "2027-03-08"),
                placed(sc, "c", "2027-03-15")]
        assert violations(sc, good) == []
        # b Mar 7: 6 days after a (< 7); c Mar 15 is 8 after b (fine)
        bad = [good[0], placed(sc, "b", "2027-03-07"), good[2]]
        assert violations(sc, bad) == [("TOUR-SPACING", "room-b", "2027-03-01, 2027-03-07")]

    def test_maximum_twenty_one_and_twenty_two(self) -> None:
        sc = self.sc(max_days_between=21)
        ok = [placed(sc, "a", "2027-03-01"), placed(sc, "b", "2027-03-02"),
              placed(sc, "c", "2027-03-23")]  # 21 days after b
        assert violations(sc, ok) == []
        late = [*ok[:2], placed(sc, "c", "2027-03-24")]  # 22 days
        assert violations(sc, late) == [("TOUR-SPACING", "room-c", "2027-03-02, 2027-03-24")]

    def test_out_of_order_and_same_day(self) -> None:
        sc = self.sc()
        # b on a's day: TOUR-ORDER (b must start after a's last day, Mar 1)
        same = [placed(sc, "a", "2027-03-01"), placed(sc, "b", "2027-03-01"),
                placed(sc, "c", "2027-03-05")]
        assert violations(sc, same) == [("TOUR-ORDER", "room-b", "2027-03-01, 2027-03-01")]
        # c before b: strict order broken between b (Mar 5) and c (Mar 3)
        swapped = [placed(sc, "a", "2027-03-01"), placed(sc, "b", "2027-03-05"),
                   placed(sc, "c", "2027-03-03")]
        assert violations(sc, swapped) == [("TOUR-ORDER", "room-c", "2027-03-05, 2027-03-03")]

    def test_any_order_but_the_final_last(self) -> None:
        sc = self.sc(order="any", final="c")
        assert violations(sc, [placed(sc, "b", "2027-03-01"), placed(sc, "a", "2027-03-02"),
                               placed(sc, "c", "2027-03-03")]) == []
        # c (the final) before a: a ends Mar 4 after the final started Mar 3
        msgs = _messages(sc, [placed(sc, "b", "2027-03-01"), placed(sc, "a", "2027-03-04"),
                              placed(sc, "c", "2027-03-03")])
        assert msgs == ["TOUR-ORDER: tour t: c#1 starts on 2027-03-03 but a#1 runs until "
                        "2027-03-04; the final round's date is the last day"]

    def test_a_partial_tour(self) -> None:
        sc = self.sc()
        assert violations(sc, [placed(sc, "a", "2027-03-01"), placed(sc, "c", "2027-03-05")]) \
            == [("TOUR-WHOLE", "room-a", "2027-03-01, 2027-03-05")]
        assert violations(sc, []) == []  # none placed: a tour may be left out whole
        assert _messages(sc, [placed(sc, "b", "2027-03-01")]) == [
            "TOUR-WHOLE: tour t places b but not a, c; a tour's stops are placed all or none "
            "(in the listed order)"]
        sc = self.sc(order="any", min_days_between=7, final="c")
        assert _messages(sc, [placed(sc, "b", "2027-03-01")]) == [
            "TOUR-WHOLE: tour t places b but not a, c; a tour's stops are placed all or none "
            "(in any order, first days at least 7 days apart, c last)"]

    def test_one_rooms_calendar_is_not_judged_on_the_others(self) -> None:
        sc = self.sc()
        audit = Audit(sc, [placed(sc, "a", "2027-03-01")], permits(),
                      operators=frozenset({"room-a"}))
        assert [v.rule for v in check(audit)] == []


def _messages(sc: Scenario, occ: list[Occurrence]) -> list[str]:
    return [f"{v.rule}: {v.message}" for v in check(Audit(sc, occ, permits()))]


# =========================================================================== input checks
class TestValidate:
    def data(self, tours: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
        return scenario(horizon=MARCH, operators=ROOMS, tournaments=abc(), tours=tours, **kw)

    def test_unknown_stop_with_the_nearest_id(self) -> None:
        with pytest.raises(ScenarioError) as exc:
            load_scenario(self.data([{"id": "t", "title": "T", "stops": ["a", "bb"]}]))
        (p,) = exc.value.problems
        assert (p.rule, p.path) == ("TOUR-ORDER", "tours[0].stops[1]")
        assert "unknown tournament id; did you mean 'b'?" in str(exc.value)

    def test_a_stop_in_two_tours(self) -> None:
        assert problems(self.data([{"id": "t", "title": "T", "stops": ["a", "b"]},
                                   {"id": "u", "title": "U", "stops": ["c", "b"]}])) == {
            ("TOUR-ORDER", "tours[1].stops[1]")}

    def test_final_not_last_and_final_not_a_stop(self) -> None:
        assert problems(self.data(three(final="b"))) == {("TOUR-ORDER", "tours[0].final")}
        assert problems(self.data(three(final="z"))) == {("TOUR-ORDER", "tours[0].final")}

    def test_a_stop_is_one_occurrence(self) -> None:
        data = self.data(three())
        data["tournaments"][1]["count"] = 2
        assert problems(data) == {("TOUR-ORDER", "tours[0].stops[1]")}

    def test_spacing_the_horizon_cannot_hold(self) -> None:
        # 3 one-day stops, 7 apart: 7 + 7 + 1 = 15 days; 15-day horizon fits, 14 does not
        sc = load(horizon={"start": "2027-03-01", "end": "2027-03-15"}, operators=ROOMS,
                  tournaments=abc(), tours=three(min_days_between=7))
        assert needed_days(sc, sc.tours[0]) == 15
        with pytest.raises(ScenarioError) as exc:
            load_scenario(self.data(three(min_days_between=7)) | {
                "horizon": {"start": "2027-03-01", "end": "2027-03-14"}})
        assert [(p.rule, p.path) for p in exc.value.problems] == [
            ("TOUR-SPACING", "tours[0].min_days_between")]
        assert "3 stops at least 7 days apart need 15 days" in str(exc.value)
        assert "has 14" in str(exc.value)
        # and 13 days: the hand-computed case of the brief
        assert problems(self.data(three(min_days_between=7)) | {
            "horizon": {"start": "2027-03-01", "end": "2027-03-13"}}) == {
            ("TOUR-SPACING", "tours[0].min_days_between")}

    def test_days_needed_in_any_order_put_the_longest_stop_last(self) -> None:
        # stops of 5, 1, 1 days, at least 2 apart, listed order: max(2, 5) + max(2, 1) + 1 =
        # 5 + 2 + 1 = 8 days. In any order a 1-day stop goes last (it saves max(2, 1) - 1 = 1
        # day, the 5-day stop max(2, 5) - 5 = 0): 5 + 2 + 1 = 8 too
        data = self.data(three(min_days_between=2))
        data["tournaments"][0]["days"] = 5
        sc = load_scenario(data)
        assert needed_days(sc, sc.tours[0]) == 8
        data["tours"][0]["order"] = "any"
        sc = load_scenario(data)
        assert needed_days(sc, sc.tours[0]) == 8
        # 1, 1, 5 days listed, strict: 2 + 2 + 5 = 9; any order: 5 + 2 + 1 = 8
        data = self.data(three(min_days_between=2))
        data["tournaments"][2]["days"] = 5
        sc = load_scenario(data)
        assert needed_days(sc, sc.tours[0]) == 9
        data["tours"][0]["order"] = "any"
        sc = load_scenario(data)
        assert needed_days(sc, sc.tours[0]) == 8

    def test_maximum_needs_strict_order_and_not_below_minimum(self) -> None:
        assert problems(self.data(three(order="any", max_days_between=5))) == {
            ("TOUR-SPACING", "tours[0].max_days_between")}
        assert problems(self.data(three(min_days_between=5, max_days_between=4))) == {
            ("TOUR-SPACING", "tours[0].max_days_between")}

    def test_unknown_field_and_one_stop(self) -> None:
        assert ("SCENARIO", "tours[0].order") in problems(self.data(three(order="sorted")))
        assert ("SCENARIO", "tours[0].stops") in problems(self.data(
            [{"id": "t", "title": "T", "stops": ["a"]}]))


class TestProgressive:
    """MT-PROGRESSIVE, MCA 23-5-317(1)(e): a progressive's rounds are large-stakes
    tournaments of at least two permitholders, and it names the final round."""

    def data(self, **tour: Any) -> dict[str, Any]:
        return scenario(horizon=MARCH, operators=ROOMS, tournaments=abc(),
                        tours=three(progressive=True, final="c", **tour))

    def test_a_sound_progressive_loads(self) -> None:
        assert load_scenario(self.data()).tours[0].progressive

    def test_a_small_stakes_round(self) -> None:
        data = self.data()
        data["tournaments"][1].update(type="small-stakes", hours=4, entry_fee=50)
        assert problems(data) == {("MT-PROGRESSIVE", "tours[0].stops[1]")}

    def test_rounds_at_one_room_only(self) -> None:
        data = self.data()
        for t in data["tournaments"]:
            t["operators"] = ["room-a"]
        assert problems(data) == {("MT-PROGRESSIVE", "tours[0].stops")}

    def test_no_final(self) -> None:
        data = self.data()
        del data["tours"][0]["final"]
        assert problems(data) == {("MT-PROGRESSIVE", "tours[0].final")}


# =========================================================================== the example
class TestExample:
    def test_solves_as_hand_checked_audits_clean_and_imports(self, tmp_path: Path) -> None:
        # the example's header: notice_from Feb 24 -> first days from Mar 1; Round 1 Sat
        # Mar 6; Round 2 not Mar 13 (Bozeman blackout) -> Sat Mar 20; Final >= Mar 27
        runner = CliRunner()
        out = tmp_path / "plan"
        r = runner.invoke(app, ["solve", str(EXAMPLE), "-o", str(out), "--jobs", "1"])
        assert r.exit_code == 0, r.output
        rows = (out / "schedule.csv").read_text().splitlines()
        firsts_ = {line.split(",")[0]: line for line in rows[1:]}
        assert ",2027-03-06," in firsts_["tsp-round-1"]
        assert ",2027-03-20," in firsts_["tsp-round-2"]
        assert ",2027-03-27," in firsts_["tsp-final"]
        r = runner.invoke(app, ["check", str(EXAMPLE), str(out / "schedule.csv")])
        assert r.exit_code == 0, r.output
        assert "0 violation(s) in 9 occurrence(s)" in r.output
        for ics in sorted((out / "calendars").glob("*.ics")):
            cal = icalendar.Calendar.from_ical(ics.read_bytes())
            assert cal.walk("VEVENT")
        # moving Round 2 onto Round 1's day breaks TOUR-ORDER and TOUR-SPACING
        bad = tmp_path / "bad.csv"
        bad.write_text((out / "schedule.csv").read_text().replace("2027-03-20", "2027-03-06"))
        r = runner.invoke(app, ["check", str(EXAMPLE), str(bad)])
        assert r.exit_code == 1
        assert "TOUR-ORDER" in r.output and "TOUR-SPACING" in r.output


    def test_the_example_round_trips_through_yaml(self, tmp_path: Path) -> None:
        sc = load_scenario(EXAMPLE)
        assert [t.stops for t in sc.tours] == [("tsp-round-1", "tsp-round-2", "tsp-final")]
        path = tmp_path / "again.yaml"
        path.write_text(sc.to_yaml())
        assert load_scenario(path) == sc

    def test_the_example_round_trips_through_a_workbook_with_a_tours_sheet(
            self, tmp_path: Path) -> None:
        sc = load_scenario(EXAMPLE)
        path = tmp_path / "year.xlsx"
        path.write_bytes(sc.to_xlsx())
        wb = openpyxl.load_workbook(path)
        assert wb.sheetnames == ["Settings", "Operators", "Tournaments", "Sessions", "History",
                                 "Tours"]
        assert wb["Tours"]["C2"].value == "tsp-round-1, tsp-round-2, tsp-final"
        assert load_scenario(path) == sc
        # a wrong stop id is named by its cell
        wb["Tours"]["C2"].value = "tsp-round-1, tsp-round-3, tsp-final"
        wb.save(path)
        with pytest.raises(ScenarioError) as exc:
            load_scenario(path)
        assert "Tours!C2 (stops)" in str(exc.value) and "(TOUR-ORDER)" in str(exc.value)
        # a scenario without tours keeps the Tours sheet, its header row alone, to fill in
        path.write_bytes(sc.replace(tours=[]).to_xlsx())
        assert openpyxl.load_workbook(path)["Tours"].max_row == 1
