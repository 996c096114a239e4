"""Scenario builders for the rule tests: a scenario dict, loading it, the (rule, path) pairs of
a ScenarioError, a small deterministic solve and what it placed, an occurrence timed as the
model times it, and the rule IDs the independent checker reports for an Audit. Everything here
but the named operators and tournaments at the end is jurisdiction-neutral.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import pytest

from constraints.base import Audit, License, Occurrence
from constraints.registry import check
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.timing import timing, tournament_tz
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan


def d(text: str) -> dt.date:
    """``d("2027-01-15")`` → ``datetime.date(2027, 1, 15)``."""
    return dt.date.fromisoformat(text)


def scenario(**overrides: Any) -> dict[str, Any]:
    """A scenario dict: a one-year horizon (2027), ``notice_from`` fixed, no operators or
    tournaments unless given. Any top-level key may be overridden."""
    data: dict[str, Any] = {
        "name": "test",
        "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-12-01",
        "operators": [],
        "tournaments": [],
    }
    data.update(overrides)
    return data


def load(**overrides: Any) -> Scenario:
    """``load_scenario(scenario(**overrides))``."""
    return load_scenario(scenario(**overrides))


def problems(data: dict[str, Any]) -> set[tuple[str, str]]:
    """The (rule, path) pairs of the ScenarioError that loading ``data`` raises."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    return {(p.rule, p.path) for p in exc.value.problems}


def placed(sc: Scenario, tid: str, first_day: str | dt.date, occurrence: int = 1) -> Occurrence:
    """An occurrence of tournament ``tid`` starting on ``first_day``, timed as the model
    times it (scheduler.core.timing.timing in the first operator's zone)."""
    t = sc.tournament(tid)
    day = d(first_day) if isinstance(first_day, str) else first_day
    tm = timing(t, tournament_tz(sc, t), day)
    assert tm is not None, f"{tid} cannot start on {day}"
    return Occurrence(t, occurrence, tm)


def violations(sc: Scenario, occurrences: Iterable[Occurrence],
               licenses: Iterable[License] = ()) -> list[tuple[str, str, str]]:
    """(rule, operator_id, dates) of every violation the checker finds (no solver)."""
    audit = Audit(sc, list(occurrences), list(licenses))
    return [(v.rule, v.operator_id, v.dates) for v in check(audit)]


def violated(sc: Scenario, occurrences: Iterable[Occurrence],
             licenses: Iterable[License] = ()) -> list[str]:
    """The rule IDs of every violation the checker finds, in report order."""
    return [r for r, _, _ in violations(sc, occurrences, licenses)]


def run(sc: Scenario) -> Plan:
    """Solve a tiny scenario deterministically (one worker, seed 0); it must be proven optimal."""
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    assert plan.status == "OPTIMAL"
    return plan


def firsts(plan: Plan, tid: str | None = None) -> list[dt.date]:
    """Sorted first days of the placed occurrences (one per occurrence, not per operator)."""
    seen = {(r.tournament_id, r.occurrence): r.first_day for r in plan.rows
            if tid is None or r.tournament_id == tid}
    return sorted(seen.values())


def missing(plan: Plan, tid: str | None = None) -> list[tuple[str, ...]]:
    """The rule IDs given for each unscheduled occurrence (of ``tid``, or of all)."""
    return [u.rule_ids for u in plan.unscheduled_list if tid is None or u.tournament_id == tid]


def mt_room(oid: str = "room-a", **kw: Any) -> dict[str, Any]:
    """A Montana card room with two permitted live tables."""
    return {"id": oid, "name": oid.title(), "jurisdiction": "MT", "live_tables": 2, **kw}


def mt_large(tid: str, ops: tuple[str, ...] = ("room-a",), **kw: Any) -> dict[str, Any]:
    """A one-day large-stakes tournament, 12:00 for 10 h (ends 22:00, one calendar day)."""
    return {"id": tid, "title": tid, "type": "large-stakes", "operators": list(ops),
            "start_time": "12:00", "hours": 10, **kw}


def me_post(**kw: Any) -> dict[str, Any]:
    """An eligible Maine organization with a weekly beano night on Tuesdays."""
    return {"id": "post", "name": "Legion Post 1", "jurisdiction": "ME", "local_approval": True,
            "beneficiaries": ["Relief Fund"], "organized_on": "1990-01-01",
            "other_games": [{"weekday": "tue", "start": "18:00", "end": "22:00"}], **kw}


def me_game(**kw: Any) -> dict[str, Any]:
    """A legal tournament game of ``post``: 80 players (tier 51-100), $100 entry."""
    return {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


POST_212: dict[str, Any] = {
    "id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
    "organized_on": "1946-05-12", "local_approval": True,
    "beneficiaries": ["Post 212 Scholarship Fund"]}
"""An eligible Maine organization (no other games)."""
HOLDEM_FEB_13: dict[str, Any] = {
    "id": "holdem", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
    "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00", "hours": 10,
    "fixed_dates": ["2027-02-13"]}
"""A tournament game of POST_212 on Sat 2027-02-13, 80 players (tier 51-100)."""


# ------------------------------------------------------------------ a progressive tour (MT)
ROUNDS = {"r1": ("room-a", "2027-03-06"), "r2": ("room-b", "2027-03-13"),
          "r3": ("room-c", "2027-03-20"), "final": ("room-a", "2027-03-27")}
ROUND_1_NOTICE = d("2027-03-01")  # Sat Mar 6 - 5 days


def progressive(*, notice_from: str = "2027-02-24", settings: dict[str, Any] | None = None,
                fixed: bool = True, others: int = 0, **per_round: dict[str, Any]
                ) -> Scenario:
    """The progressive, each round fixed on its Saturday (``fixed``) or free on Saturdays in
    March; ``others``: that many optional one-day tournaments at room-a in April-May."""
    tournaments = []
    for tid, (room, day) in ROUNDS.items():
        kw: dict[str, Any] = ({"fixed_dates": [day], "required": 1} if fixed else
                              {"weekdays": ["sat"]})
        tournaments.append(mt_large(tid, (room,), **{**kw, **per_round.get(tid, {})}))
    if others:
        tournaments.append(mt_large("other", ("room-a",), count=others,
                                    window={"start": "2027-04-01", "end": "2027-05-31"}))
    return load(horizon={"start": "2027-03-01", "end": "2027-05-31"}, notice_from=notice_from,
                settings=settings or {},
                operators=[mt_room("room-a"), mt_room("room-b"), mt_room("room-c")],
                tournaments=tournaments,
                tours=[{"id": "tsp", "title": "Progressive", "progressive": True,
                        "stops": list(ROUNDS), "min_days_between": 7, "final": "final"}])


# Three Friday large-stakes nights in January 2027 at one Montana room, as YAML: the
# spreadsheet tests' scenario (Fridays Jan 1, 8, 15, 22, 29; 3 required, 7 days apart).
FRIDAY_NIGHTS_YAML = """\
name: Friday nights
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-01
operators:
  - {id: room-a, name: Room A, jurisdiction: MT, live_tables: 2}
tournaments:
  - id: friday
    title: Friday Stack
    type: large-stakes
    operators: [room-a]
    weekdays: [fri]
    window: {start: 2027-01-01, end: 2027-01-31}
    count: 3
    required: 3
    min_gap_days: 7
    start_time: "12:00"
    hours: 10
    entry_fee: 100
"""


def year_of_a_room(**room: Any) -> Plan:
    """The solved year of one Montana card room (``mt_room(**room)`` with blackouts Jul 4 and
    Dec 24-26): ``big`` on Fri Mar 5 and Fri Aug 6, the 3-day charitable ``charity`` from
    Fri Apr 30 (a year's picture or table: lanes, hatches, deadline marks)."""
    room = {"blackout": ["2027-07-04", "2027-12-24..2027-12-26"], **room}
    return run(load(operators=[mt_room(**room)], tournaments=[
        mt_large("big", fixed_dates=["2027-03-05", "2027-08-06"], count=2),
        mt_large("charity", charitable=True, charity_share=0.5, fixed_dates=["2027-04-30"],
                 days=3)]))


def year_of_a_post() -> Plan:
    """The solved year of one Maine Legion post (``me_post``: beano every Tuesday
    18:00-22:00): ``late`` at 20:00 on Sun Jan 31 (10 h: into Feb 1) and ``g`` on Sat Mar 6,
    Mar 13 and Apr 3 (notices from 2026-11-01)."""
    return run(load(operators=[me_post()], notice_from="2026-11-01", tournaments=[
        me_game(id="late", start_time="20:00", fixed_dates=["2027-01-31"]),
        me_game(fixed_dates=["2027-03-06", "2027-03-13", "2027-04-03"], count=3)]))
