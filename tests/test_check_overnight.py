"""`tourney check` reads back a calendar the product wrote in which a one-session Montana
tournament plays past midnight (tester finding): the all-day event shows the morning after
as one more day, which is the end of the session, not a second play day."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app

runner = CliRunner()


def _scenario(tmp: Path) -> Path:
    # late: Thu Mar 11 2027 18:00 + 8 h = Fri Mar 12 02:00 (touches the 11th and the 12th);
    # next: Fri Mar 12 11:00-21:00. One live table: they never overlap (02:00 < 11:00).
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}
    late = {"id": "late", "title": "Late Stack", "type": "large-stakes", "operators": ["room"],
            "start_time": "18:00", "hours": 8, "fixed_dates": ["2027-03-11"]}
    nxt = {"id": "next", "title": "Next Day", "type": "large-stakes", "operators": ["room"],
           "start_time": "11:00", "hours": 10, "fixed_dates": ["2027-03-12"]}
    data = {"name": "Midnight", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-01", "operators": [room], "tournaments": [late, nxt]}
    path = tmp / "midnight.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize("name", ["calendar.ics", "schedule.csv"])
def test_overnight_session_reads_back_without_violation(tmp_path: Path, name: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    sc, out = _scenario(tmp_path), tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(sc), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["check", str(sc), str(out / name)])
    assert res.exit_code == 0, res.output
    assert "0 violation(s) in 2 occurrence(s)" in res.output
