"""The ``--max-model`` estimate counts a shared tournament at every one of its operators (issue
24, "Memory and time"): each venue has its own variables and its own counts (MT-LARGE-LIMIT at
every venue, MCA 23-5-317(1)(d)). Before, 500 operators sharing 50 tournaments were estimated
at 18,250 pairs and ran over 300 s and 4.5 GB; now they are refused before any model is built.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from scheduler.engine.decompose import ModelTooLarge, check_model_size, model_size
from scheduler.inputs.load import load_scenario

ROOT = Path(__file__).resolve().parent.parent
GB = 1024 ** 3


def _limit_memory() -> None:  # runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (GB, GB))


def scenario(n_operators: int, n_shared: int, **tournament: Any) -> dict[str, Any]:
    rooms = [f"room-{i}" for i in range(n_operators)]
    return {
        "name": "shared", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-12-01",
        "operators": [{"id": r, "name": f"Room {i}", "jurisdiction": "MT", "live_tables": 2}
                      for i, r in enumerate(rooms)],
        "tournaments": [{"id": f"prog-{k}", "title": f"Progressive {k}", "type": "large-stakes",
                         "operators": rooms, "start_time": "12:00", "hours": 10, "count": 1,
                         "entry_fee": 375, **tournament} for k in range(n_shared)]}


def test_a_shared_tournament_counts_at_each_operator(tmp_path: Path) -> None:
    # the Saturdays of March 2027 (6, 13, 20, 27): 4 days, at 2 operators: 4 x 2 = 8 pairs
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario(2, 1, weekdays=["sat"], window={
        "start": "2027-03-01", "end": "2027-03-31"})))
    sc = load_scenario(path)
    cells, where = model_size(sc)
    assert cells == 8 and "prog-0 (4 days x 2 operators)" in where, where
    check_model_size(sc, 8)  # at the limit: allowed
    with pytest.raises(ModelTooLarge, match="would have 8 candidate"):
        check_model_size(sc, 7)


def test_500_operators_sharing_50_tournaments_are_refused_at_once(tmp_path: Path) -> None:
    # every day of 2027 (365) at 500 operators, 50 tournaments: 365 x 500 x 50 = 9,125,000
    # pairs, over the 200,000 allowed
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(scenario(500, 50)))
    res = subprocess.run([sys.executable, "-c", "from scheduler.cli import main; main()",
                          "solve", "s.yaml", "--out", "plan"], cwd=tmp_path, text=True,
                         capture_output=True, timeout=120, preexec_fn=_limit_memory,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 2, res.stderr[-2000:]
    assert "9,125,000 candidate (tournament, first day) pairs" in res.stderr, res.stderr[-2000:]
    assert not (tmp_path / "plan").exists()
