"""A finished plan (issue #12): the ME-FEES arithmetic of ``Plan.fees`` lives beside ME-FEES
(``constraints.maine.per_tournament_usd``); a plan's sequences and mappings cannot be changed
in place; the conveniences that draw, summarise and write are export functions of a plan."""

from __future__ import annotations

from typing import Any

import pytest

from constraints.maine import per_tournament_usd
from scheduler.load import load_scenario

ORG: dict[str, Any] = {
    "id": "post", "name": "Legion Post 212", "jurisdiction": "ME", "local_approval": True,
    "beneficiaries": ["Post 212 Scholarship Fund"], "organized_on": "1946-05-12",
    "owns_premises": True,  # ME-PLAYER-CAP: up to 300 players on premises the licensee owns
}


def me_game(tid: str, players: int) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": players, "entry_fee": 50, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10}


def me_scenario(games: list[dict[str, Any]]) -> Any:
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
