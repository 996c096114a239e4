"""Independent parts (scheduler.engine.decompose): which operators belong together, and the merged
optimum of the parts equals the optimum of the undivided scenario."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scheduler.engine.cpsat import Options
from scheduler.engine.decompose import components
from scheduler.engine.extract import audit_of
from scheduler.engine.parts import solve_part
from scheduler.engine.solver import solve, solve_alternatives

from builders.scenarios import d, load, mt_large, mt_room

ROOT = Path(__file__).resolve().parent.parent


def me_org(oid: str) -> dict[str, Any]:
    return {"id": oid, "name": oid.title(), "jurisdiction": "ME", "local_approval": True,
            "beneficiaries": ["Relief Fund"], "organized_on": "1990-01-01"}


def super_cribbage(tid: str, oid: str) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "super-cribbage", "operators": [oid],
            "players": 60, "entry_fee": 50, "prize_share": 0.75, "charity_share": 0.5,
            "organizer_member_years": 5, "start_time": "12:00", "hours": 10}


def parts_of(sc: Any) -> list[list[str]]:
    return [[o.id for o in p.operators] for p in components(sc)]


def test_operators_linked_by_a_shared_tournament_or_super_cribbage_are_one_part() -> None:
    # a+b share "prog" (MT-SHARED counts it for both); c has its own; d has none; the Maine
    # posts e and f both run super cribbage (ME-SUPER-CRIBBAGE: 15 licences statewide), g
    # runs only a tournament game. Parts in file order: [a, b], [c], [d], [e, f], [g].
    sc = load(
        notice_from="2026-11-01",
        operators=[mt_room("a"), mt_room("b"), mt_room("c"), mt_room("d"),
                   me_org("e"), me_org("f"), me_org("g")],
        tournaments=[
            mt_large("prog", ("a", "b")), mt_large("c-open", ("c",)),
            super_cribbage("sc-e", "e"), super_cribbage("sc-f", "f"),
            {"id": "g-game", "title": "Hold'em", "type": "tournament-game",
             "operators": ["g"], "players": 80, "entry_fee": 100, "prize_share": 0.8,
             "start_time": "12:00", "hours": 10}])
    assert parts_of(sc) == [["a", "b"], ["c"], ["d"], ["e", "f"], ["g"]]
    parts = components(sc)
    assert [[t.id for t in p.tournaments] for p in parts] == [
        ["prog"], ["c-open"], [], ["sc-e", "sc-f"], ["g-game"]]
    # the parts' lookups find their own tournaments
    assert parts[0].tournament("prog").operators == ("a", "b")


def test_a_chain_of_shared_tournaments_joins_three_operators() -> None:
    # a-b share one tournament, b-c another: a, b and c are one part (b links them)
    sc = load(operators=[mt_room("a"), mt_room("c"), mt_room("b")],
              tournaments=[mt_large("ab", ("a", "b")), mt_large("bc", ("b", "c"))])
    assert parts_of(sc) == [["a", "c", "b"]]
    assert components(sc) == [sc]


def test_merged_optimum_equals_the_undivided_optimum_on_the_combined_example() -> None:
    # combined.yaml: 3 Montana rooms linked by their progressive, 3 Maine organizations on
    # their own, 2 cribbage clubs linked by the super cribbage cap → 5 parts
    from scheduler import load_scenario

    sc = load_scenario(ROOT / "data" / "examples" / "combined.yaml")
    assert len(components(sc)) == 5
    merged = solve(sc, seed=0)
    whole = solve_part(sc, Options(seed=0))
    assert merged.components == 5 and merged.status == whole.status == "OPTIMAL"
    assert merged.objective == whole.objective
    assert merged.bound == whole.bound
    # the lexicographic objective ends with the earliest-first tie-break, so even the dates
    # agree; and the licences and the unscheduled list come out in the same order
    assert [(r.tournament_id, r.first_day, r.operator_id) for r in merged.rows] == [
        (r.tournament_id, r.first_day, r.operator_id) for r in whole.rows]
    assert merged.license_list == whole.license_list
    assert merged.unscheduled_list == whole.unscheduled_list


def test_parts_solved_in_two_processes_give_the_same_plan() -> None:
    from scheduler import load_scenario

    sc = load_scenario(ROOT / "data" / "examples" / "combined.yaml")
    assert solve(sc, seed=0, jobs=2) == solve(sc, seed=0, jobs=1)


def test_merged_optimum_on_parts_with_limits_that_bind() -> None:
    # room a wants 18 large-stakes days, room b 10: a is held to 16 (MT-LARGE-LIMIT, MCA
    # 23-5-317(1)(a)), b places all 10. Placed = 16 + 10 = 26 in both solves; fees: one
    # $120 permit each (the 2026-07-01 permit year holds all of January-June 2027 ... and
    # the 2027-07-01 year is not needed as every occurrence fits by June): 2 × 120 = 240.
    window = {"window": {"start": "2027-01-04", "end": "2027-06-30"}}
    sc = load(operators=[mt_room("a"), mt_room("b")],
              tournaments=[mt_large("a-open", ("a",), count=18, **window),
                           mt_large("b-open", ("b",), count=10, **window)])
    merged = solve(sc, seed=0)
    whole = solve_part(sc, Options(seed=0))
    assert merged.components == 2
    assert merged.objective["placed"] == whole.objective["placed"]
    assert merged.objective["fees_usd"] == whole.objective["fees_usd"] == 240
    assert len({(r.tournament_id, r.occurrence) for r in merged.rows}) == 26
    assert [u.tournament_id for u in merged.unscheduled_list] == ["a-open", "a-open"]
    assert merged.objective == whole.objective


def test_a_stopped_search_returns_the_last_stages_plan_with_its_gap() -> None:
    # Stop before the preferred-weekday stage starts: the plan is the first search's
    # solution (placed and fees at once), legal (it passes the audit), FEASIBLE, marked
    # interrupted; "tue" is preferred, so the preferred bound is the trivial one: every
    # Tuesday of the window counted, Mar 2, 9, 16, 23 and 30 = 5, its gap |5 - found| /
    # max(1, found).
    sc = load(operators=[mt_room("a")],
              tournaments=[mt_large("open", ("a",), count=3, prefer_weekdays=["tue"],
                                    window={"start": "2027-03-01", "end": "2027-03-31"})])
    began: list[str] = []
    plan = solve_part(sc, Options(seed=0), on_stage=began.append,
                       stop=lambda: "preferred" in began)
    assert began == ["placed and fees_usd", "preferred"]
    assert plan.interrupted and plan.status == "FEASIBLE"
    assert plan.objective["placed"] == whole_placed(sc)
    assert plan.bound["preferred"] == 5.0
    found = plan.objective["preferred"]
    assert plan.gap["preferred"] == abs(5 - found) / max(1, found)
    from constraints.registry import check

    assert check(audit_of(plan)) == []


def whole_placed(sc: Any) -> int:
    return solve(sc, seed=0).objective["placed"]


def test_alternatives_differ_and_come_best_first() -> None:
    # One 1-day large-stakes tournament in a window of 3 days (Mon 2027-03-01 .. Wed 03-03),
    # preferred on no weekday: the best plan takes the earliest day (Mar 1); the next plan
    # must move it (min_difference 1): Mar 2; then Mar 3; a fourth does not exist.
    sc = load(operators=[mt_room("a")],
              tournaments=[mt_large("open", ("a",),
                                    window={"start": "2027-03-01", "end": "2027-03-03"})])
    plans = solve_alternatives(sc, 4, seed=0)
    assert [p.rank for p in plans] == [1, 2, 3]
    assert [p.rows[0].first_day for p in plans] == [d("2027-03-01"), d("2027-03-02"),
                                                    d("2027-03-03")]
    assert all(p.objective["placed"] == plans[0].objective["placed"] for p in plans)


def test_alternatives_may_cost_more() -> None:
    # Two 1-day occurrences in Mon 2027-06-28 .. Thu 07-01. The 2026-07-01 permit year ends
    # Jun 30: two days of Jun 28-30 need one $120 permit, a plan using Jul 1 a second one.
    # Best: {Jun 28, Jun 29} $120 (earliest). min_difference 1: {Jun 28, Jun 30} is still
    # $120 and the earliest such plan. min_difference 2 must leave Jun 28 and Jun 29:
    # {Jun 30, Jul 1}, two permit years, $240.
    sc = load(operators=[mt_room("a")],
              tournaments=[mt_large("open", ("a",), count=2,
                                    window={"start": "2027-06-28", "end": "2027-07-01"})])
    one = solve_alternatives(sc, 2, seed=0, min_difference=1)
    assert [p.objective["fees_usd"] for p in one] == [120, 120]
    assert [sorted(r.first_day for r in p.rows) for p in one] == [
        [d("2027-06-28"), d("2027-06-29")], [d("2027-06-28"), d("2027-06-30")]]
    two = solve_alternatives(sc, 2, seed=0, min_difference=2)
    assert [p.objective["fees_usd"] for p in two] == [120, 240]
    assert sorted(r.first_day for r in two[1].rows) == [d("2027-06-30"), d("2027-07-01")]


@pytest.mark.parametrize("bad", [0, -1])
def test_alternatives_must_be_positive(bad: int) -> None:
    sc = load(operators=[mt_room("a")], tournaments=[mt_large("open", ("a",))])
    with pytest.raises(ValueError, match="at least 1"):
        solve_alternatives(sc, bad)


def test_a_part_never_reached_lists_its_occurrences_with_trivial_bounds() -> None:
    # Stopped before this part: nothing placed; 3 occurrences of "open" (priority 2) and a
    # weekly night with count "all" are unscheduled. Bounds: placed ≤ 3 × 2 + 365 × 1 = 371
    # (every day of 2027 for "all"), preferred ≤ 3 (open prefers Saturdays), fees ≥ 0.
    from scheduler.engine.parts import not_reached
    from scheduler.export.summary import summary_text

    sc = load(operators=[mt_room("a")], tournaments=[
        mt_large("open", ("a",), count=3, priority=2, prefer_weekdays=["sat"]),
        {"id": "night", "title": "Night", "type": "small-stakes", "operators": ["a"],
         "start_time": "19:00", "hours": 4, "entry_fee": 60, "count": "all"}])
    plan = not_reached(sc)
    assert plan.rows == () and plan.interrupted
    assert [(u.tournament_id, u.occurrence) for u in plan.unscheduled_list] == [
        ("open", 1), ("open", 2), ("open", 3), ("night", 1)]
    assert plan.bound == {"placed": 371.0, "fees_usd": 0.0, "preferred": 3.0}
    assert plan.gap["placed"] == 371.0  # |371 - 0| / max(1, 0)
    assert "Interrupted" in summary_text(plan)


def test_progress_reports_each_stage_and_each_part() -> None:
    # two rooms without a shared tournament: 2 parts × 2 searches (placed and fees at once,
    # then preferred weekdays), then the part done
    from scheduler.engine.parts import Progress

    sc = load(operators=[mt_room("a"), mt_room("b")],
              tournaments=[mt_large("a-open", ("a",)), mt_large("b-open", ("b",))])
    seen: list[Progress] = []
    plan = solve(sc, seed=0, progress=seen.append)
    assert [(p.parts_done, p.stage) for p in seen] == [
        (0, "placed and fees_usd"), (0, "preferred"), (1, ""),
        (1, "placed and fees_usd"), (1, "preferred"), (2, "")]
    # each one-day occurrence earns its priority 1: placed 1, then 1 + 1 = 2
    assert [p.placed for p in seen if not p.stage] == [1, 2]
    assert seen[-1].gap == 0.0 and plan.objective["placed"] == 2


def test_a_replan_across_parts_keeps_uids_and_cancels_a_removed_tournament() -> None:
    # Previous plan: a-open on Mar 1 (room a), b-open on Mar 2 (room b), gone-open on Mar 3
    # (a tournament no longer in the scenario). Re-planned in 2 parts: a-open and b-open keep
    # their days and UIDs (nothing moves); gone-open goes to the first part and is cancelled
    # there, once, with SEQUENCE 0 + 1 = 1.
    from scheduler.engine.decompose import split_previous
    from scheduler.inputs.replan.previous import PublishedOccurrence
    from scheduler.inputs.replan.read import Previous

    window = {"start": "2027-03-01", "end": "2027-03-05"}
    sc = load(operators=[mt_room("a"), mt_room("b")],
              tournaments=[mt_large("a-open", ("a",), window=window),
                           mt_large("b-open", ("b",), window=window)])
    before = [PublishedOccurrence("a-open", d("2027-03-01"), "a-open-1@a.tourney"),
              PublishedOccurrence("b-open", d("2027-03-02"), "b-open-1@b.tourney"),
              PublishedOccurrence("gone-open", d("2027-03-03"), "gone-open-1@a.tourney")]
    parts = components(sc)
    assert [[a.tournament_id for a in p or []] for p in split_previous(parts, before)] == [
        ["a-open", "gone-open"], ["b-open"]]
    plan = solve(sc, seed=0, previous=Previous(before))
    assert [(r.tournament_id, r.first_day, r.uid) for r in plan.rows] == [
        ("a-open", d("2027-03-01"), "a-open-1@a.tourney"),
        ("b-open", d("2027-03-02"), "b-open-1@b.tourney")]
    assert [(c.tournament_id, c.uid, c.sequence) for c in plan.cancelled] == [
        ("gone-open", "gone-open-1@a.tourney", 1)]


def test_alternatives_of_several_parts_change_one_part_each() -> None:
    # Two rooms, each one 1-day tournament in a 3-day window Mar 1..3 (Mon..Wed), so two
    # parts. Best: both on Mar 1. Every single change costs nothing (no fee or weekday
    # differs), so ties go by file order then rank: plan 2 moves room a's to Mar 2, plan 3
    # moves it to Mar 3 (a's next alternative), plan 4 moves room b's to Mar 2.
    window = {"start": "2027-03-01", "end": "2027-03-03"}
    sc = load(operators=[mt_room("a"), mt_room("b")],
              tournaments=[mt_large("a-open", ("a",), window=window),
                           mt_large("b-open", ("b",), window=window)])
    for jobs in (1, 2):
        plans = solve_alternatives(sc, 4, seed=0, jobs=jobs)
        assert [p.rank for p in plans] == [1, 2, 3, 4]
        assert [[(r.tournament_id, r.first_day.day) for r in p.rows] for p in plans] == [
            [("a-open", 1), ("b-open", 1)],
            [("b-open", 1), ("a-open", 2)],
            [("b-open", 1), ("a-open", 3)],
            [("a-open", 1), ("b-open", 2)]]
        assert all(p.components == 2 and p.status == "OPTIMAL" for p in plans)


@pytest.mark.parametrize("bad", [{"seed": -1}, {"workers": 0}, {"jobs": 0}])
def test_solve_refuses_what_the_cli_refuses(bad: dict[str, int]) -> None:
    sc = load(operators=[mt_room("a")], tournaments=[mt_large("open", ("a",))])
    with pytest.raises(ValueError, match="at least"):
        solve(sc, **bad)
