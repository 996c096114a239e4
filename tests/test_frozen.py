"""Nothing in a finished plan or a scenario changes in place (issue #12 review): the
scenario's one mapping, ``Settings.super_cribbage_licenses_issued`` (ME-SUPER-CRIBBAGE,
17 M.R.S. § 1836(4-A)), is a :class:`scheduler.core.frozen.FrozenDict`, so ``plan.usage()`` cannot
be changed behind the plan's back and a plan, a scenario and their settings hash;
``FrozenDict.__init__`` called again adds nothing."""

from __future__ import annotations

import copy
import datetime as dt
import pickle
from typing import Any

import pytest
from pydantic import BaseModel

from scheduler.core.frozen import FrozenDict
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Settings
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan, PlanStatus

ORG: dict[str, Any] = {
    "id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
    "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
    "organized_on": "1990-01-01",
}
CRIBBAGE: dict[str, Any] = {
    "id": "sc", "title": "Super Cribbage", "type": "super-cribbage", "operators": ["post"],
    "players": 60, "entry_fee": 50, "prize_share": 0.75, "charity_share": 0.5,
    "organizer_member_years": 5, "start_time": "12:00", "hours": 10,
}


def cribbage_scenario(issued: dict[int, int]) -> Scenario:
    """One Maine organization with one super cribbage game in 2027, and ``issued`` licences
    already issued statewide outside the scenario."""
    return load_scenario({"name": "sc", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
                          "notice_from": "2026-11-01", "operators": [ORG],
                          "tournaments": [CRIBBAGE],
                          "settings": {"super_cribbage_licenses_issued": issued}})


def empty_plan(sc: Scenario) -> Plan:
    """A plan made by hand with nothing placed (no solve)."""
    return Plan(sc, (), (), (), PlanStatus.FEASIBLE, objective={"placed": 0})


def cribbage_used(plan: Plan) -> list[tuple[str, int, int]]:
    u = plan.usage()
    u = u[u.rule_id == "ME-SUPER-CRIBBAGE"]
    return [(str(r.period_start.date()), int(r.used), int(r.limit)) for r in u.itertuples()]


# ===================================================== Settings.super_cribbage_licenses_issued
def test_issued_licences_cannot_change_under_a_plan() -> None:
    # ME-SUPER-CRIBBAGE usage of 2027: 0 placed + 11 issued outside = 11 of 15
    plan = empty_plan(cribbage_scenario({2027: 11}))
    assert cribbage_used(plan) == [("2027-01-01", 11, 15)]
    issued = plan.scenario.settings.super_cribbage_licenses_issued
    assert isinstance(issued, FrozenDict) and issued == {2027: 11}
    for change in (lambda: issued.__setitem__(2027, 14), lambda: issued.update({2027: 14}),
                   lambda: issued.pop(2027), issued.clear, lambda: issued.__delitem__(2027),
                   lambda: issued.setdefault(2028, 1), lambda: issued.__ior__({2027: 14}),
                   lambda: issued.__init__({2027: 14})):
        with pytest.raises(TypeError, match="cannot be changed"):
            change()
    # still 11 of 15: the plan's usage did not move
    assert issued == {2027: 11} and cribbage_used(plan) == [("2027-01-01", 11, 15)]


def test_issued_licences_sorted_and_frozen_however_given() -> None:
    s = Settings(super_cribbage_licenses_issued={2028: 3, 2027: 11})
    assert list(s.super_cribbage_licenses_issued.items()) == [(2027, 11), (2028, 3)]
    assert isinstance(Settings().super_cribbage_licenses_issued, FrozenDict)
    # model_copy validates nothing (the ledger adds its licences this way): frozen and sorted
    # all the same
    c = s.model_copy(update={"super_cribbage_licenses_issued": {2029: 1, 2027: 12}})
    assert isinstance(c.super_cribbage_licenses_issued, FrozenDict)
    assert list(c.super_cribbage_licenses_issued) == [2027, 2029]
    assert s.super_cribbage_licenses_issued == {2027: 11, 2028: 3}  # the original unchanged
    # pickled (the process pool), deep-copied, dumped: equal, and still frozen where kept
    for again in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s), s.model_copy(deep=True)):
        assert again == s and isinstance(again.super_cribbage_licenses_issued, FrozenDict)
    assert s.model_dump()["super_cribbage_licenses_issued"] == {2027: 11, 2028: 3}
    assert s.model_dump(mode="json")["super_cribbage_licenses_issued"] == {"2027": 11,
                                                                           "2028": 3}


def test_a_plan_its_scenario_and_settings_hash() -> None:
    a, b = cribbage_scenario({2027: 11}), cribbage_scenario({2027: 11})
    assert hash(a.settings) == hash(b.settings) and hash(a) == hash(b)
    assert hash(empty_plan(a)) == hash(empty_plan(b))
    assert cribbage_scenario({2027: 12}).settings != a.settings
    assert len({empty_plan(a), empty_plan(b)}) == 1


def _mutable_values(value: Any, where: str) -> list[str]:
    """Where in a scenario a list, dict or set (changeable in place) is held."""
    if isinstance(value, BaseModel):
        return [w for name in type(value).model_fields
                for w in _mutable_values(getattr(value, name), f"{where}.{name}")]
    if isinstance(value, FrozenDict):
        return [w for k, v in value.items() for w in _mutable_values(v, f"{where}[{k}]")]
    if isinstance(value, list | dict | set | bytearray):
        return [f"{where}: {type(value).__name__}"]
    if isinstance(value, tuple):
        return [w for i, v in enumerate(value) for w in _mutable_values(v, f"{where}[{i}]")]
    return []


def test_no_field_of_a_scenario_changes_in_place() -> None:
    # Settings, Operator (held before, other games, beneficiaries, blackout), Tournament
    # (sessions, weekdays, fixed dates, per-month, satellite) and Tour, all given as lists
    # and dicts: every one held as a tuple, a FrozenDict or a frozen model
    sc = load_scenario({
        "name": "all", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-11-01",
        "settings": {"super_cribbage_licenses_issued": {2027: 1}},
        "operators": [
            {**ORG, "blackout": ["2027-07-04"], "other_games": [
                {"weekday": "mon", "start": "18:00", "end": "22:00"}]},
            {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 3,
             "held_in_current_permit_year": {"large_stakes": 1, "permits": ["large-stakes"]}},
            {"id": "hall", "name": "Hall", "jurisdiction": "MT", "live_tables": 3}],
        "tournaments": [
            {**CRIBBAGE, "weekdays": ["sat"], "prefer_weekdays": ["sat"]},
            {"id": "a", "title": "A", "type": "large-stakes", "operators": ["room"],
             "fixed_dates": ["2027-03-06"], "per_month": {"max": 1},
             "sessions": [{"day": 1, "start": "11:00", "hours": 10},
                          {"day": 2, "start": "12:00", "hours": 8}]},
            {"id": "b", "title": "B", "type": "large-stakes", "operators": ["hall"]}],
        "tours": [{"id": "t", "title": "T", "stops": ["a", "b"], "order": "any"}]})
    assert _mutable_values(sc, "scenario") == []
    assert sc.operator("post").other_games[0].weekday == "mon"  # what was walked is there
    assert sc.tournament("a").sessions[1].day == 2 and sc.tours[0].stops == ("a", "b")
    assert sc.tournament("a").fixed_dates == (dt.date(2027, 3, 6),)


# ============================================================================= FrozenDict
def test_frozen_dict_init_again_adds_nothing() -> None:
    plan = empty_plan(cribbage_scenario({}))
    with pytest.raises(TypeError, match="cannot be changed"):
        plan.objective.__init__({"fees_usd": 0})  # type: ignore[misc]
    assert plan.objective == {"placed": 0}
    empty: FrozenDict[str, int] = FrozenDict()
    with pytest.raises(TypeError, match="cannot be changed"):
        empty.__init__({"a": 1})  # type: ignore[misc]
    assert empty == {}
    with pytest.raises(AttributeError):  # the guard itself cannot be reset
        empty._made = False  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        del empty._made  # type: ignore[attr-defined]
    # made as a dict is: from pairs, keywords, another mapping; equal to the dict
    assert FrozenDict([("a", 1)], b=2) == {"a": 1, "b": 2} == FrozenDict({"a": 1, "b": 2})
    assert hash(FrozenDict(a=1, b=2)) == hash(FrozenDict(b=2, a=1))
