"""benchmarks/formulations.py: the day-indexed and the interval formulation (and the product's
model) reach the same hand-computed stage-1 optimum on tiny scenarios, and the script runs on
N = 1 (values only; no timing is asserted).

Stage-1 objective (scheduler/engine/objective.py): priority-weighted occurrences placed − big ×
shortfall,
big = the sum of every candidate first day's priority + 1. Calendar facts: 2027-08-02 and
2027-03-01 are Mondays; the Montana permit year starting 2027-07-01 holds Aug-Dec 2027.
"""

from __future__ import annotations

import csv
import datetime as dt
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from builders.scenarios import load, mt_large, mt_room

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.formulations import FORMULATIONS, build, chain_lengths, core_of, solve  # noqa: E402
from scheduler.core.scenario import Scenario  # noqa: E402


def week(i: int) -> dict[str, str]:
    """The i-th week (1-based) from Monday 2027-08-02, Monday to Sunday."""
    start = dt.date(2027, 8, 2) + dt.timedelta(days=7 * (i - 1))
    return {"start": start.isoformat(), "end": (start + dt.timedelta(days=6)).isoformat()}


def optima(sc: Scenario, configs: tuple[str, ...] = ("lin2",)) -> set[tuple[str, int | None]]:
    """(status, objective) of every formulation and setting; one fresh core per formulation."""
    out = set()
    for f in FORMULATIONS:
        built = build(f, core_of(sc))
        for config in configs:
            r = solve(built, config, deterministic_time=20, time_limit=20)
            out.add((r.status, r.objective))
    return out


class TestSameOptimum:
    def test_sixteen_of_eighteen_large_stakes_in_one_permit_year(self) -> None:
        # 18 one-day requests of priority 1..18, each in its own week of Aug-Dec 2027 (one
        # permit year): MT-LARGE-LIMIT keeps 16, the optimum drops priorities 1 and 2:
        # 1 + 2 + ... + 18 = 171, 171 - 1 - 2 = 168
        sc = load(operators=[mt_room()], tournaments=[
            mt_large(f"t{i:02d}", priority=i, window=week(i)) for i in range(1, 19)])
        assert optima(sc, ("lin2", "max_lp")) == {("OPTIMAL", 168)}

    def test_a_shared_tournament_counts_for_each_venue(self) -> None:
        # room-a: 16 own one-day requests (priority 1, weeks 1-16) and a tour shared with
        # room-b (priority 5, week 17): 17 counted for room-a, so one own request goes:
        # 15 x 1 + 5 = 20
        own = [mt_large(f"a{i:02d}", priority=1, window=week(i)) for i in range(1, 17)]
        tour = mt_large("tour", ops=("room-a", "room-b"), priority=5, window=week(17))
        sc = load(operators=[mt_room("room-a"), mt_room("room-b")], tournaments=[*own, tour])
        assert optima(sc) == {("OPTIMAL", 20)}

    @pytest.mark.parametrize(("cap", "expected"), [(1, 2), (2, 3)])
    def test_max_concurrent_over_multi_day_occurrences(self, cap: int, expected: int) -> None:
        # `long` (priority 2, 3 days from 12:00 to 22:00) may start Mar 1 or 2, so it runs on
        # Mar 2 and 3 whatever its day; `short` (priority 1, one day) may start Mar 2 or 3.
        # One at a time: only `long` (2). Two at a time: both (2 + 1 = 3).
        sc = load(operators=[mt_room(max_concurrent=cap)], tournaments=[
            mt_large("long", days=3, priority=2,
                     window={"start": "2027-03-01", "end": "2027-03-02"}),
            mt_large("short", priority=1, window={"start": "2027-03-02", "end": "2027-03-03"})])
        assert optima(sc, ("lin2", "lin0")) == {("OPTIMAL", expected)}

    def test_monthly_limit_min_gap_and_a_required_shortfall(self) -> None:
        # A Maine game wanted 3 times in March 2027 (required 3, a week apart, priority 2);
        # ME-MONTHLY-LIMIT allows 2, so 1 required occurrence is missing. Every March day is
        # a candidate (31), big = 2 x 31 + 1 = 63: objective 2 x 2 - 63 x 1 = -59.
        org = {"id": "post", "name": "Post 1", "jurisdiction": "ME", "local_approval": True,
               "beneficiaries": ["Relief Fund"], "organized_on": "1990-01-01"}
        game: dict[str, Any] = {
            "id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, "count": 3, "required": 3, "min_gap_days": 7, "priority": 2,
            "window": {"start": "2027-03-01", "end": "2027-03-31"}}
        sc = load(operators=[org], tournaments=[game], notice_from="2026-11-01")
        assert optima(sc) == {("OPTIMAL", -59)}

    def test_fixed_date_is_one_of_the_count(self) -> None:
        # count 1 with a fixed date: the one occurrence must be on Aug 4 (FIXED-DATES, and
        # COUNT leaves no free occurrence); a rival (priority 9) wants exactly Aug 4 too and
        # one tournament runs at a time, so the rival goes: priority 1 placed, nothing missing
        sc = load(operators=[mt_room()], tournaments=[
            mt_large("flag", priority=1, fixed_dates=["2027-08-04"], window=week(1)),
            mt_large("rival", priority=9, window={"start": "2027-08-04", "end": "2027-08-04"})])
        assert optima(sc, ("lin2", "lin0")) == {("OPTIMAL", 1)}


def test_chain_lengths() -> None:
    # days 0, 1, 2, 14, 15, 30 at least 14 apart: ending on 0/1/2 one start, on 14/15 two
    # (0 then 14 or 15), on 30 three (0, 14, 30)
    assert chain_lengths([0, 1, 2, 14, 15, 30], 14) == [1, 1, 1, 2, 2, 3]


def test_script_on_n1(tmp_path: Path) -> None:
    out = tmp_path / "formulations.csv"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/formulations.py"), "--n", "1", "--configs",
         "lin2,max_lp", "--deterministic-time", "5", "--time-limit", "20", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open()))
    # 3 formulations x 2 settings, one part; every one proves the same optimum: 532, the
    # placed value the product and HiGHS agree on in benchmarks/results/benchmark.csv (N = 1,
    # no shortfall)
    assert [(r["formulation"], r["config"]) for r in rows] == [
        (f, c) for c in ("lin2", "max_lp") for f in FORMULATIONS]
    assert {(r["parts"], r["optimal"], r["timeouts"], r["objective"]) for r in rows} == {
        ("1", "1", "0", "532")}
    parts = list(csv.DictReader((tmp_path / "formulations-parts.csv").open()))
    assert len(parts) == 6 and {p["status"] for p in parts} == {"OPTIMAL"}
