"""A plan folder whose CSV files lost their columns is refused with the file and the missing
columns named (exit 2), by `tourney deadlines` and `tourney diff` alike, never an internal
error (tester finding, issue #12 review)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "examples" / "montana-card-room.yaml"


@pytest.fixture
def plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(EXAMPLE), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("name", ["schedule.csv", "licenses.csv", "deadlines.csv"])
def test_deadlines_names_the_file_and_its_missing_columns(plan: Path, name: str) -> None:
    (plan / name).write_text("a,b\n1,2\n", encoding="utf-8")
    res = runner.invoke(app, ["deadlines", str(plan)])
    assert res.exit_code == 2, res.output
    assert f"{name}: missing column(s)" in res.output
    assert "Traceback" not in res.output


def test_diff_names_licenses_csv_without_fee_usd(plan: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    res = runner.invoke(app, ["solve", str(EXAMPLE), "--out", str(other), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    (other / "licenses.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    res = runner.invoke(app, ["diff", str(plan), str(other)])
    assert res.exit_code == 2, res.output
    assert "licenses.csv: missing column(s) fee_usd" in res.output
