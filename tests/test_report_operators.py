"""A statewide report draws the year calendars and usage bars of at most REPORT_OPERATORS
(12) operators, those with the most occurrences not placed first (issue #16 part 2: one
picture and one legend entry per operator made --report at N = 200 take minutes)."""

from __future__ import annotations

from typing import Any

from scheduler import solve
from scheduler.core.scenario import Scenario
from scheduler.export.report import REPORT_OPERATORS, report_html, report_operators
from scheduler.inputs.load import load_scenario


def _op(k: int) -> dict[str, Any]:
    return {"id": f"p{k:02d}", "name": f"Post {k}", "jurisdiction": "ME",
            "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
            "organized_on": "1990-01-01"}


def _game(tid: str, op: str, day: str) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": [op],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 4, "window": {"start": day, "end": day}}


def _posts(n: int) -> Scenario:
    """``n`` Maine posts p01..pNN with one game each on Jun 7 2027; the last post has two
    more on Jun 8 and 9: 3 games in June, at most 2 a month (ME-MONTHLY-LIMIT,
    17 M.R.S. § 1836(4)), so one of its games is not placed."""
    last = f"p{n:02d}"
    games = [_game(f"g{k:02d}", f"p{k:02d}", "2027-06-07") for k in range(1, n + 1)]
    games += [_game("x1", last, "2027-06-08"), _game("x2", last, "2027-06-09")]
    return load_scenario({"name": "posts", "notice_from": "2026-11-01",
                          "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
                          "operators": [_op(k) for k in range(1, n + 1)],
                          "tournaments": games})


def test_thirteen_operators_show_twelve_the_one_with_a_game_not_placed_first() -> None:
    assert REPORT_OPERATORS == 12
    plan = solve(_posts(13), jobs=1, seed=0)
    assert len(plan.unscheduled_list) == 1  # 3 June games of p13, 2 allowed: 3 - 2 = 1
    shown = report_operators(plan)
    # p13 (1 not placed) first, then p01..p11 in scenario order: 1 + 11 = 12; p12 left out
    assert shown == [f"p{k:02d}" for k in range(1, 12)] + ["p13"]
    page = report_html(plan)
    assert page.count('<h3 id="op-') == 12
    assert 'id="op-p13"' in page and 'id="op-p12"' not in page
    assert "13 operators: the year tables show 12 of them" in page


def test_twelve_operators_show_every_one_and_no_note() -> None:
    plan = solve(_posts(12), jobs=1, seed=0)
    assert report_operators(plan) == [f"p{k:02d}" for k in range(1, 13)]
    page = report_html(plan)
    assert page.count('<h3 id="op-') == 12
    assert "the year tables show" not in page
