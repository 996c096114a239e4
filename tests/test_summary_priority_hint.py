"""The summary's hint "give X priority N to keep it" (``scheduler.export.summary.displaced``)
names only rivals that a higher priority can displace: an occurrence that must be placed
(``fixed_dates``, ``required``) is placed before any optional one whatever its priority, so
raising the priority of the tournament left out keeps nothing.

The room (permit years from July 1, MT-LARGE-LIMIT, MCA 23-5-317(1)(a)): the Summer Classic
fixed Tue 2027-06-29 .. Sat 2027-07-03 counts in the 2026-07-01 and 2027-07-01 permit years
(``permit_year_count: each``), so of 16 wanted Saturday deepstacks after Jul 5, 16 - 1 = 15
fit the new permit year, at any priority.
"""

from __future__ import annotations

from scheduler.core.scenario import Scenario
from scheduler.export.summary import summary_text

from builders.scenarios import load, mt_large, mt_room, run


def _room(priority: int) -> Scenario:
    return load(horizon={"start": "2027-06-01", "end": "2027-12-31"}, notice_from="2027-06-01",
                operators=[mt_room("lastchance")],
                tournaments=[mt_large("classic", ("lastchance",), days=5, hours=12,
                                      fixed_dates=["2027-06-29"]),
                             mt_large("weekly", ("lastchance",), count=16, weekdays=["sat"],
                                      window={"start": "2027-07-05"}, priority=priority)])


def test_no_priority_hint_against_a_fixed_date() -> None:
    plan = run(_room(1))
    assert sum(r.tournament_id == "weekly" for r in plan.rows) == 15
    assert "priority 2 to keep it" not in summary_text(plan)
    # the hint would have been false: at priority 2 still 15 (the Classic is fixed)
    assert sum(r.tournament_id == "weekly" for r in run(_room(2)).rows) == 15
