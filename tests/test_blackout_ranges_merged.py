"""Blackout ranges are merged before they are expanded (issue 24, "Memory and time"): 1,000
ranges in a 28 KB file took 217 s. Now the days of overlapping ranges are made once, and the
BLACKOUT rule asks each candidate day in constant time.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import yaml

from scheduler.inputs.load import load_scenario

ROOT = Path(__file__).resolve().parent.parent
GB = 1024 ** 3


def _limit_memory() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (GB, GB))


def room(blackout: list[str], **tournament: object) -> dict[str, object]:
    return {"name": "blackouts", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-12-01",
            "operators": [{"id": "room", "name": "Room", "jurisdiction": "MT",
                           "live_tables": 2, "blackout": blackout}],
            "tournaments": [{"id": "deep", "title": "Deepstack", "type": "large-stakes",
                             "operators": ["room"], "start_time": "12:00", "hours": 10,
                             "count": 1, "entry_fee": 375, **tournament}]}


def _blackout(tmp_path: Path, days: list[str]) -> tuple[dt.date, ...]:
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(room(days)))
    return load_scenario(path).operators[0].blackout


def test_overlapping_and_touching_ranges_merge(tmp_path: Path) -> None:
    # Jan 1..3 and Jan 4..5 touch: Jan 1..5 (5 days); Jan 3..4 lies inside; Jan 10 alone and
    # Jan 10..11 overlap: Jan 10, 11. 5 + 2 = 7 days, sorted, each once
    days = _blackout(tmp_path, ["2027-01-10", "2027-01-01..2027-01-03", "2027-01-04..2027-01-05",
                                "2027-01-03..2027-01-04", "2027-01-10..2027-01-11"])
    assert [d.day for d in days] == [1, 2, 3, 4, 5, 10, 11]
    assert dt.date(2027, 1, 5) in days and dt.date(2027, 1, 6) not in days


def test_a_thousand_ranges_of_three_centuries_are_read_at_once(tmp_path: Path) -> None:
    # 999 ranges from January 1900 to 2027-12-24 (about 46,700 days each) and one from
    # 2027-12-26 to 2199-12-31: the only day open is Sat 2027-12-25, where the one Saturday
    # tournament is planned
    ranges = [f"1900-01-{1 + i % 28:02d}..2027-12-24" for i in range(999)]
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(room([*ranges, "2027-12-26..2199-12-31"],
                                        weekdays=["sat"])))
    assert 20_000 < path.stat().st_size < 60_000  # the finding: a 28 KB file
    start = time.monotonic()
    res = subprocess.run([sys.executable, "-c", "from scheduler.cli import main; main()",
                          "solve", "s.yaml", "--out", "plan"], cwd=tmp_path, text=True,
                         capture_output=True, timeout=120, preexec_fn=_limit_memory,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode in (0, 1), res.stderr[-2000:]
    assert time.monotonic() - start < 120
    assert ",2027-12-25," in (tmp_path / "plan" / "schedule.csv").read_text()
