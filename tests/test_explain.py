"""Minimal conflicting sets when required occurrences cannot all be placed (CP-SAT assumptions,
then shrinking by deletion), and their minimality checked by re-solving."""

from __future__ import annotations

from scheduler.engine.explain import _guarded_model, _infeasible, minimal_conflicts
from scheduler.engine.solver import solve

from builders.scenarios import load

ROOM = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1,
        "held_in_current_permit_year": {"large_stakes": 14}, "blackout": ["2027-03-13"]}
HORIZON = {"start": "2027-01-01", "end": "2027-06-30"}


def _large(tid: str, **kw: object) -> dict:
    return {"id": tid, "title": tid.title(), "type": "large-stakes", "operators": ["room"], **kw}


def two_conflicts() -> object:
    # Conflict 1: champs is pinned to 2027-03-13, a blackout day (BLACKOUT).
    # Conflict 2: 14 held + 2 required monthly + spring pinned on 2027-04-10 = 17 > 16 counted
    # large-stakes in the 2026-07-01 permit year (MT-LARGE-LIMIT).
    return load(horizon=HORIZON, notice_from="2026-12-01", operators=[ROOM],
                tournaments=[_large("monthly", count=6, required=2, weekdays=["sat"]),
                             _large("champs", fixed_dates=["2027-03-13"]),
                             _large("spring", fixed_dates=["2027-04-10"])])


def test_each_independent_conflict_is_reported_once() -> None:
    found = minimal_conflicts(two_conflicts())  # type: ignore[arg-type]
    assert [[(m.rule, m.text) for m in c] for c in found] == [
        [("REQUEST", "champs is pinned to start on 2027-03-13 (fixed_dates)"),
         ("BLACKOUT", "the blackout days of Room rule out 2027-03-13 for champs")],
        [("REQUEST", "monthly needs 2 occurrence(s) placed (required: 2)"),
         ("REQUEST", "spring is pinned to start on 2027-04-10 (fixed_dates)"),
         ("MT-LARGE-LIMIT", "room holds at most 16 counted large-stakes tournaments in the "
                            "2026-07-01 permit year (14 held before the plan)")],
    ]


def test_every_conflict_is_minimal() -> None:
    """Dropping any one member makes the rest feasible: verified by solving again."""
    sc = two_conflicts()
    g = _guarded_model(sc)  # type: ignore[arg-type]
    by_member = {m: i for i, m in g.members.items()}
    for conflict in minimal_conflicts(sc):  # type: ignore[arg-type]
        lits = [by_member[m] for m in conflict]
        assert _infeasible(g, lits, 10, 0)
        for k in range(len(lits)):
            assert not _infeasible(g, lits[:k] + lits[k + 1:], 10, 0)


def test_solve_attaches_conflicts_only_when_required_fail() -> None:
    plan = solve(two_conflicts(), time_limit=10)  # type: ignore[arg-type]
    assert not plan.required_met and len(plan.conflicts) == 2
    # without the pinned dates and with 2 of 6 free slots needed, nothing conflicts:
    # 14 held + 2 = 16 <= 16
    ok = load(horizon=HORIZON, notice_from="2026-12-01", operators=[ROOM],
              tournaments=[_large("monthly", count=6, required=2, weekdays=["sat"])])
    plan = solve(ok, time_limit=10)
    assert plan.required_met and plan.conflicts == ()
    assert len(plan.rows) == 2


def test_notice_conflict_names_mt_notice() -> None:
    # notice_from 2027-01-10: a start on 2027-01-14 needs its notice by 2027-01-09 (-5 days)
    sc = load(horizon=HORIZON, notice_from="2027-01-10", operators=[{**ROOM, "blackout": []}],
              tournaments=[_large("early", fixed_dates=["2027-01-14"])])
    [conflict] = minimal_conflicts(sc)
    assert [m.rule for m in conflict] == ["REQUEST", "MT-NOTICE"]


def test_three_required_into_two_slots() -> None:
    # 14 held + 3 required counted events in January (the 2026-07-01 permit year) = 17 > 16:
    # all three requests and the limit are needed (drop any request: 14 + 2 = 16 fits)
    sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"}, notice_from="2026-12-01",
              operators=[{**ROOM, "blackout": []}],
              tournaments=[_large(f"ev{k}", required=1) for k in range(3)])
    [conflict] = minimal_conflicts(sc, time_limit=10)
    assert conflict.minimal  # type: ignore[attr-defined]
    assert [(m.rule, m.text) for m in conflict] == [
        ("REQUEST", f"ev{k} needs 1 occurrence(s) placed (required: 1)") for k in range(3)] + [
        ("MT-LARGE-LIMIT", "room holds at most 16 counted large-stakes tournaments in the "
                           "2026-07-01 permit year (14 held before the plan)")]


def test_clock_change_is_named_in_a_conflict() -> None:
    # 02:30 does not exist on Sun 2027-03-14 in New York; the only allowed day (window
    # 03-14..03-14) is gone, so the required game conflicts with CLOCK-CHANGE and WINDOW
    post = {"id": "post", "name": "Post", "jurisdiction": "ME", "local_approval": True,
            "beneficiaries": ["X"], "organized_on": "1990-01-01"}
    sc = load(horizon={"start": "2027-03-01", "end": "2027-03-31"}, notice_from="2027-01-04",
              operators=[post],
              tournaments=[{"id": "owl", "title": "Owl", "type": "tournament-game",
                            "operators": ["post"], "players": 40, "prize_share": 0.8,
                            "start_time": "02:30", "hours": 3, "required": 1,
                            "window": {"start": "2027-03-14", "end": "2027-03-14"}}])
    [conflict] = minimal_conflicts(sc)
    assert [(m.rule, m.text) for m in conflict] == [
        ("REQUEST", "owl needs 1 occurrence(s) placed (required: 1)"),
        ("CLOCK-CHANGE", "02:30 does not exist on 2027-03-14 (the clocks spring forward), so "
                         "owl cannot start then"),
        ("WINDOW", "owl may start only from 2027-03-14 to 2027-03-14 (its window)")]
