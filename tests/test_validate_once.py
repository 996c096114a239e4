"""validate_scenario runs the input rules once per scenario object: the loader's pass counts
(``tourney solve`` loads, then ``solve()`` validates), a changed copy is checked again."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from scheduler.core.problems import ScenarioError
from scheduler.inputs.load import _PASSED, load_scenario, validate_scenario


def _data(players: int) -> dict[str, Any]:
    """One Maine organization (premises not owned) and one tournament game of ``players``."""
    return {
        "name": "one game", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-11-01",
        "operators": [{"id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
                       "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
                       "organized_on": "1990-01-01"}],
        "tournaments": [{"id": "g1", "title": "g1", "type": "tournament-game",
                         "operators": ["post"], "players": players, "entry_fee": 100,
                         "prize_share": 0.8, "start_time": "12:00", "hours": 10}]}


def test_a_loaded_scenario_is_not_checked_again() -> None:
    sc = load_scenario(_data(100))  # 100 players: the cap off owned premises, allowed
    assert _PASSED.get(id(sc)) is sc
    assert validate_scenario(sc) is sc


def test_a_changed_copy_is_checked_again() -> None:
    sc = load_scenario(_data(100))
    # 101 players > 100 (ME-PLAYER-CAP, 17 M.R.S. § 1836(4)): a new object, checked again
    over = sc.with_tournament("g1", players=101)
    assert over is not sc and _PASSED.get(id(over)) is None
    with pytest.raises(ScenarioError, match="ME-PLAYER-CAP"):
        validate_scenario(over)
    assert _PASSED.get(id(over)) is None  # refused: not remembered as passed


def test_a_loaded_scenario_made_as_of_another_day_is_not_checked_again() -> None:
    # `tourney solve --as-of 2027-01-04` loads, sets the day (a copy), then solve() validates:
    # no input rule reads the as-of day, so the copy of a passed scenario passes as it is
    from scheduler.inputs.load import made_as_of_passed

    sc = load_scenario(_data(100))
    later = made_as_of_passed(sc, dt.date(2027, 1, 4))
    assert later is not sc and later.as_of == dt.date(2027, 1, 4)
    assert _PASSED.get(id(later)) is later
    assert validate_scenario(later) is later


def test_no_input_rule_reads_the_as_of_day() -> None:
    # 101 players (ME-PLAYER-CAP) refused alike as of 2026-12-01 and as of 2027-12-31: the
    # same problems whatever the day, which made_as_of_passed relies on
    from scheduler.core.timing import made_as_of

    over = load_scenario(_data(100)).with_tournament("g1", players=101)
    found = []
    for day in (dt.date(2026, 12, 1), dt.date(2027, 12, 31)):
        with pytest.raises(ScenarioError) as err:
            validate_scenario(made_as_of(over, day))
        found.append([(p.path, p.rule, p.message) for p in err.value.problems])
    assert found[0] == found[1] and found[0][0][1] == "ME-PLAYER-CAP"
