"""A finished plan (issue #12): the ME-FEES arithmetic of ``Plan.fees`` lives beside ME-FEES
(``constraints.maine.per_tournament_usd``); a plan's sequences and mappings cannot be changed
in place; the conveniences that draw, summarise and write are export functions of a plan."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import pickle
from typing import Any

import pytest

from constraints.base import License
from constraints.maine import per_tournament_usd
from scheduler.core.scenario import Scenario
from scheduler.inputs.load import load_scenario
from scheduler.result.conflict import Conflict, Member
from scheduler.result.plan import Plan, PlanStatus, Unscheduled

ORG: dict[str, Any] = {
    "id": "post", "name": "Legion Post 212", "jurisdiction": "ME", "local_approval": True,
    "beneficiaries": ["Post 212 Scholarship Fund"], "organized_on": "1946-05-12",
    "owns_premises": True,  # ME-PLAYER-CAP: up to 300 players on premises the licensee owns
}


def me_game(tid: str, players: int) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": players, "entry_fee": 50, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10}


def me_scenario(games: list[dict[str, Any]]) -> Scenario:
    return load_scenario({"name": "fees", "horizon": {"start": "2027-01-01",
                                                      "end": "2027-12-31"},
                          "notice_from": "2026-11-01", "operators": [ORG],
                          "tournaments": games})


# ============================================================== ME-FEES per-tournament cost
def test_per_tournament_usd_at_the_tier_boundaries() -> None:
    # PER_TOURNAMENT_FEE (17 M.R.S. § 1836(3-A)): 1-50 players $40, 51-100 $75,
    # 101-150 $300
    sc = me_scenario([me_game("fifty", 50), me_game("fiftyone", 51),
                      me_game("hundred", 100), me_game("hundredone", 101)])
    assert per_tournament_usd(sc, ("fifty#1",)) == 40
    assert per_tournament_usd(sc, ("fiftyone#1",)) == 75
    assert per_tournament_usd(sc, ("hundred#1",)) == 75
    assert per_tournament_usd(sc, ("hundredone#1",)) == 300
    # 3 x $40 (fifty#1..#3) + 2 x $75 (fiftyone#1, hundred#2) = 120 + 150 = 270
    assert per_tournament_usd(sc, ("fifty#1", "fifty#2", "fifty#3", "fiftyone#1",
                                   "hundred#2")) == 270
    assert per_tournament_usd(sc, ()) == 0
    with pytest.raises(KeyError):
        per_tournament_usd(sc, ("nobody#1",))


def annual_plan() -> Plan:
    """A plan made by hand (no solve) from lists and dicts, as a caller might: one annual
    licence of tier 51-100 ($1,500) covering fifty#1 (50 players), fiftyone#1 (51) and
    hundred#1 (100), one per-tournament licence for fifty#2 ($40)."""
    sc = me_scenario([me_game("fifty", 50), me_game("fiftyone", 51), me_game("hundred", 100)])
    day = dt.date(2027, 3, 6)
    annual = License("me-annual-post", "post", "ME", "me-annual", "51-100", day,
                     dt.date(2028, 3, 5), 1500, ("fifty#1", "fiftyone#1", "hundred#1"))
    single = License("me-fifty-2", "post", "ME", "me-per-tournament", "1-50", day, day, 40,
                     ("fifty#2",))
    conflict = Conflict((Member("REQUEST", "fifty needs 3 occurrence(s) placed"),
                         Member("ME-MONTHLY-LIMIT", "post holds at most 2 a month")))
    return Plan(sc, [], [annual, single], [Unscheduled("fifty", 3, ("post",), "r", ())],  # type: ignore[arg-type]
                PlanStatus.FEASIBLE, objective={"placed": 4, "fees_usd": 1540, "preferred": 0},
                bound={"placed": 5.0}, replaced_events={"u@x": (1, "ab")},
                conflicts=[conflict], overasked=["more is wanted"])  # type: ignore[arg-type]


def test_plan_fees_reads_per_tournament_usd() -> None:
    # the annual licence: 3 games at their own tiers' per-tournament fees, $40 (50 players)
    # + $75 (51) + $75 (100) = $190 against its $1,500; the per-tournament one: $40 = $40
    fees = annual_plan().fees()
    assert fees.to_dict("records") == [
        {"operator_id": "post", "jurisdiction": "ME", "kind": "me-annual", "licences": 1,
         "fee_usd": 1500, "per_tournament_usd": 190},
        {"operator_id": "post", "jurisdiction": "ME", "kind": "me-per-tournament",
         "licences": 1, "fee_usd": 40, "per_tournament_usd": 40}]


# ====================================================================== a finished plan
SEQUENCES = ("rows", "license_list", "unscheduled_list", "cancelled", "previous_series",
             "previous_events", "conflicts", "overasked")
MAPPINGS = ("objective", "bound", "replaced_events")


@pytest.mark.parametrize("name", SEQUENCES)
def test_a_plans_sequences_cannot_change(name: str) -> None:
    plan = annual_plan()
    value = getattr(plan, name)
    assert isinstance(value, tuple)  # given as a list, frozen when the plan was made
    with pytest.raises(AttributeError):
        value.append(None)
    with pytest.raises(TypeError):
        value[0] = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(plan, name, ())


@pytest.mark.parametrize("name", MAPPINGS)
def test_a_plans_mappings_cannot_change(name: str) -> None:
    plan = annual_plan()
    value = getattr(plan, name)
    key = next(iter(value))
    with pytest.raises(TypeError, match="cannot be changed"):
        value["new"] = 1
    with pytest.raises(TypeError, match="cannot be changed"):
        value[key] = 1
    for change in (lambda: value.update(new=1), lambda: value.pop(key), value.clear,
                   value.popitem, lambda: value.setdefault("new", 1),
                   lambda: value.__delitem__(key), lambda: value.__ior__({"new": 1})):
        with pytest.raises(TypeError, match="cannot be changed"):
            change()
    assert key in value and "new" not in value
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(plan, name, {})


def test_a_plans_mappings_read_as_dicts() -> None:
    plan = annual_plan()
    assert plan.objective == {"placed": 4, "fees_usd": 1540, "preferred": 0}
    assert repr(plan.objective) == "{'placed': 4, 'fees_usd': 1540, 'preferred': 0}"
    assert json.dumps(plan.objective) == '{"placed": 4, "fees_usd": 1540, "preferred": 0}'
    # |4 - 5.0| / max(1, 4) = 0.25 (placed only: no bound given for the other stages)
    assert plan.gap == {"placed": 0.25}
    # plans cross the process pool: a pickled plan is equal and still frozen
    again = pickle.loads(pickle.dumps(plan))
    assert again == plan and again.replaced_events == {"u@x": (1, "ab")}
    with pytest.raises(TypeError):
        again.objective["placed"] = 0  # type: ignore[index]
    # dataclasses.replace freezes a new mapping too
    other = dataclasses.replace(plan, objective={"placed": 5})
    assert other.objective == {"placed": 5} and plan.objective["placed"] == 4
    with pytest.raises(TypeError):
        other.objective["placed"] = 0  # type: ignore[index]


def test_a_conflict_cannot_change_and_reads_as_a_sequence() -> None:
    (conflict,) = annual_plan().conflicts
    assert len(conflict) == 2 and conflict.minimal and conflict.certificate is None
    assert [m.rule for m in conflict] == ["REQUEST", "ME-MONTHLY-LIMIT"]
    assert conflict[1].render() == ("post holds at most 2 a month (ME-MONTHLY-LIMIT, "
                                    "17 M.R.S. § 1836)")
    with pytest.raises(AttributeError):
        conflict.members.append(conflict[0])  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        conflict[0] = conflict[1]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        conflict.minimal = False  # type: ignore[misc]


def test_rows_of_gives_tuples() -> None:
    plan = annual_plan()
    assert plan.rows_of("post") == () and plan.rows_of_occurrence("fifty#1") == ()
