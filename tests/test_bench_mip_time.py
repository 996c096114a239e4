"""benchmarks/mip.py's MAX-CONCURRENT rows read like the product's: in time (clique rows at
each session start, ``concurrency: time``, the default) or per calendar day
(``concurrency: day``), on a tiny Maine instance computed by hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import mip  # noqa: E402
from scheduler.core.scenario import Scenario  # noqa: E402
from scheduler.engine.model import build_model  # noqa: E402
from scheduler.inputs.load import load_scenario  # noqa: E402


def _game(tid: str, day: str, start: str, hours: int) -> dict[str, Any]:
    """A tournament game of ``post`` on exactly ``day`` at ``start`` for ``hours``."""
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": 40, "entry_fee": 100, "prize_share": 0.8, "start_time": start,
            "hours": hours, "window": {"start": day, "end": day}}


def _night_then_noon(second_start: str, concurrency: str = "time") -> Scenario:
    """Game ``late`` Jun 7 2027 20:00 for 6 h (to Jun 8 02:00) and game ``next`` Jun 8 at
    ``second_start`` for 4 h; the post runs at most 1 at once (``max_concurrent: 1``)."""
    return load_scenario({
        "name": "night then noon", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-11-01",
        "operators": [{"id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
                       "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
                       "organized_on": "1990-01-01", "max_concurrent": 1,
                       "concurrency": concurrency}],
        "tournaments": [_game("late", "2027-06-07", "20:00", 6),
                        _game("next", "2027-06-08", second_start, 4)]})


def _concurrent_rows(sc: Scenario) -> list[list[str]]:
    native = mip.formulate(build_model(sc))
    return [sorted(native.names[c] for c in cols)
            for cols, _, hi, rule in native.rows if rule == "MAX-CONCURRENT" and hi == 1]


def test_in_time_no_row_when_sessions_do_not_overlap() -> None:
    # late plays Jun 7 20:00 - Jun 8 02:00, next Jun 8 12:00 - 16:00: never both in play
    # (2 columns, each session start has 1 in play <= 1): no MAX-CONCURRENT row
    assert _concurrent_rows(_night_then_noon("12:00")) == []


def test_in_time_a_row_when_sessions_overlap() -> None:
    # next starts Jun 8 01:00, before late ends at 02:00: at 01:00 both are in play, 2 > 1
    assert _concurrent_rows(_night_then_noon("01:00")) == [
        ["z[late,2027-06-07]", "z[next,2027-06-08]"]]


def test_in_time_end_is_exclusive() -> None:
    # next starts Jun 8 02:00, the instant late ends: not in play together, no row
    assert _concurrent_rows(_night_then_noon("02:00")) == []


def test_per_day_a_row_for_the_shared_calendar_day() -> None:
    # concurrency: day: late touches Jun 7 and Jun 8, next Jun 8: one row for Jun 8
    # (2 > 1); Jun 7 has late alone (1 <= 1), no row
    assert _concurrent_rows(_night_then_noon("12:00", "day")) == [
        ["z[late,2027-06-07]", "z[next,2027-06-08]"]]
