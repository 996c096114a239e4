"""Maine's example scenario for ``tourney template --example maine``
(:data:`scheduler.core.workbook.EXAMPLES`): a raw mapping, as YAML gives it, shortened from
data/examples/maine-legion-post.yaml."""

from __future__ import annotations

from typing import Any

EXAMPLE: dict[str, Any] = {
    "name": "American Legion Post 212 - 2027",
    "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
    "notice_from": "2026-12-20",
    "operators": [{
        "id": "post-212", "name": "American Legion Post 212, Sebasticook Valley",
        "jurisdiction": "ME", "address": "48 Main St, Pittsfield, ME 04967",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Sebasticook Valley Veterans Relief Fund",
                          "Post 212 Scholarship Fund"],
        "owns_premises": True,
        "other_games": [{"weekday": "tue", "start": "18:00", "end": "22:00"}],
        "blackout": ["2027-07-04", "2027-12-24..2027-12-26"],
    }],
    "tournaments": [{
        "id": "saturday-holdem", "title": "Saturday Hold'em", "type": "tournament-game",
        "operators": ["post-212"], "count": 12, "weekdays": ["sat"], "min_gap_days": 21,
        "start_time": "12:00", "hours": 12, "priority": 10, "players": 100,
        "entry_fee": 100, "prize_share": "0.8",
    }, {
        "id": "super-cribbage", "title": "Sebasticook Super Cribbage Weekend",
        "type": "super-cribbage", "operators": ["post-212"], "weekdays": ["fri"],
        "window": {"start": "2027-03-01", "end": "2027-03-31"}, "required": 1,
        "start_time": "09:00", "hours": 30, "priority": 40, "players": 120,
        "entry_fee": 60, "prize_share": "0.75", "charity_share": "0.5",
        "organizer_member_years": 8,
    }],
}
