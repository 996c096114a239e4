"""The reason of an unplaced occurrence does not depend on the process's string hash seed:
two rules blocking the same number of days are named in the registry's order, so the same
input gives byte-identical unscheduled.csv in every run (they were named in a set's order)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
from scheduler import solve
from scheduler.inputs.load import load_scenario

def game(tid, day, priority):
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, "priority": priority, "window": {"start": day, "end": day}}

sc = load_scenario({
    "name": "ties", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
    "notice_from": "2026-11-01",
    "operators": [{"id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
                   "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
                   "organized_on": "1990-01-01"}],
    "tournaments": [game("g1", "2027-06-07", 3), game("g2", "2027-06-09", 2),
                    game("g3", "2027-06-09", 1)]})
plan = solve(sc, jobs=1, seed=0)
for u in plan.unscheduled_list:
    print(u.tournament_id, " ".join(u.rule_ids), u.reason, sep="|")
"""


def _reasons(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=300, check=True)
    return done.stdout


def test_tied_rules_are_named_in_the_registry_order_under_any_hash_seed() -> None:
    # g3 (priority 1) may start only Jun 9, 12:00-22:00: g2 plays then (MAX-CONCURRENT,
    # 1 at once) and g1 (Jun 7) + g2 are June's 2 games (ME-MONTHLY-LIMIT,
    # 17 M.R.S. § 1836(4)): its one candidate day is blocked by both, 1 day each (a tie)
    runs = {_reasons(seed) for seed in ("1", "2", "3", "4")}
    assert len(runs) == 1
    (line,) = runs.pop().splitlines()
    tid, rules, reason = line.split("|")
    assert tid == "g3"
    # common.py's MAX-CONCURRENT is registered before maine.py's ME-MONTHLY-LIMIT; WINDOW
    # excludes the other 364 days of 2027
    assert rules == "MAX-CONCURRENT ME-MONTHLY-LIMIT WINDOW"
    # each day is counted under one rule only (the day counts add up: 1 + 364 = 365), the
    # first of the tie in registry order
    assert "would break MAX-CONCURRENT (1 day);" in reason
    assert "364 days excluded by: WINDOW (364 days)" in reason
