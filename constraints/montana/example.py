"""Montana's example scenario for ``tourney template --example montana``
(:data:`scheduler.core.workbook.EXAMPLES`): a raw mapping, as YAML gives it, shortened from
data/examples/montana-card-room.yaml."""

from __future__ import annotations

from typing import Any

EXAMPLE: dict[str, Any] = {
    "name": "Bitterroot Card Room 2027",
    "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
    "notice_from": "2026-12-20",
    "operators": [{
        "id": "room-a", "name": "Bitterroot Card Room", "jurisdiction": "MT",
        "address": "2815 Brooks St, Missoula, MT 59801", "live_tables": 6,
        "blackout": ["2027-07-03..2027-07-05", "2027-12-24..2027-12-26"],
        "held_in_current_permit_year": {"large_stakes": 9, "charitable": 1,
                                        "permits": ["large-stakes", "small-stakes"]},
    }],
    "tournaments": [{
        "id": "deepstack", "title": "Bitterroot Deepstack Series", "type": "large-stakes",
        "operators": ["room-a"], "days": 3, "start_time": "12:00", "hours": 14,
        "count": 4, "required": 2, "weekdays": ["fri"], "min_gap_days": 75,
        "priority": 20, "players": 240, "entry_fee": 375, "reentries": 3,
    }, {
        "id": "food-share-classic", "title": "Five Valleys Food Share Classic",
        "type": "large-stakes", "operators": ["room-a"], "charitable": True,
        "charity_share": "0.5", "start_time": "12:00", "hours": 12,
        "weekdays": ["fri", "sat"], "prefer_weekdays": ["sat"],
        "window": {"start": "2027-02-01", "end": "2027-03-31"}, "priority": 40,
        "players": 100, "entry_fee": 200, "reentries": 1,
    }, {
        "id": "wednesday-bounty", "title": "Wednesday Night Bounty", "type": "small-stakes",
        "operators": ["room-a"], "count": "all", "weekdays": ["wed"],
        "start_time": "19:00", "hours": 4, "players": 40, "entry_fee": 60,
    }, {  # flights: the workbook's Sessions sheet shows them as example rows
        "id": "spring-main", "title": "Bitterroot Spring Main Event",
        "type": "large-stakes", "operators": ["room-a"], "weekdays": ["thu"],
        "window": {"start": "2027-04-01", "end": "2027-04-30"},
        "sessions": [{"day": 1, "start": "11:00", "hours": 10, "name": "Day 1A"},
                     {"day": 2, "start": "11:00", "hours": 10, "name": "Day 1B"},
                     {"day": 4, "start": "12:00", "hours": 12, "name": "Day 2"}],
        "priority": 30, "players": 300, "entry_fee": 600, "reentries": 1,
    }],
}
