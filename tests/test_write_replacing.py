"""``write_plan`` into a folder that holds a plan (issue #12 review): only a re-plan or a
plan solved to replace that plan (``solve(..., replacing=folder)``, as ``tourney solve
--out`` solves it) is written there; any other plan is refused (WriteRefused, nothing
written), since its calendars would restart every event at SEQUENCE 0 (RFC 5545 §3.8.7.4)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.atomic_files import WriteRefused
from scheduler.engine.solver import solve
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario

runner = CliRunner()


def _scenario(tmp: Path, name: str, blackout: list[str]) -> Path:
    """March 2027 at one Montana room: ``sat`` (large-stakes, once, on a Saturday: Mar 6,
    13, 20 or 27); the earliest Saturday not blacked out is taken."""
    data: dict[str, Any] = {
        "name": "Room 2027", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
        "notice_from": "2027-02-01",
        "operators": [{"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1,
                       "blackout": blackout}],
        "tournaments": [{"id": "sat", "title": "Saturday Stack", "type": "large-stakes",
                         "operators": ["room"], "weekdays": ["sat"], "count": 1}]}
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}


def _sequences(folder: Path) -> dict[str, tuple[str, int]]:
    """UID (up to its @) -> (DTSTART, SEQUENCE) of calendar.ics's events."""
    text = (folder / "calendar.ics").read_text().replace("\r\n ", "")
    out = {}
    for ev in re.findall(r"BEGIN:VEVENT\r?\n(.*?)END:VEVENT", text, re.S):
        uid = re.search(r"^UID:([^@\r\n]+)", ev, re.M)
        start = re.search(r"^DTSTART[^:]*:(\S+)", ev, re.M)
        seq = re.search(r"^SEQUENCE:(\d+)", ev, re.M)
        assert uid and start and seq
        out[uid[1]] = (start[1], int(seq[1]))
    return out


def test_a_plan_not_solved_for_the_folder_is_refused(tmp_path: Path) -> None:
    v1, v2 = _scenario(tmp_path, "v1", []), _scenario(tmp_path, "v2", ["2027-03-06"])
    out = tmp_path / "plan"
    write_plan(solve(load_scenario(v1)), out)  # a new folder: written
    before = _files(out)
    sc2 = load_scenario(v2)
    with pytest.raises(WriteRefused, match=re.escape(
            f"{out.resolve()} holds an earlier plan, and this plan was not solved to replace "
            f"it: solve with replacing='{out.resolve()}' or previous='{out.resolve()}', or "
            "write to another folder (docs/api.md). Nothing was written")):
        write_plan(solve(sc2), out)
    assert _files(out) == before  # nothing written
    # solved for another folder holding a plan: refused here too
    other = tmp_path / "other"
    write_plan(solve(load_scenario(v1)), other)
    with pytest.raises(WriteRefused, match="not solved to replace it"):
        write_plan(solve(sc2, replacing=other), out)
    # an alternative not solved for the folder is named
    best = solve(sc2, replacing=out)
    alt = dataclasses.replace(best, rank=2, replaced_folder="")
    with pytest.raises(WriteRefused, match="and alternative 2 was not solved to replace it"):
        write_plan(best, out, alternatives=[alt])
    assert _files(out) == before


def test_solved_to_replace_it_writes_what_the_cli_writes(tmp_path: Path) -> None:
    # v1: the earliest Saturday, Mar 6; its MT notice due 5 days before (MCA 23-5-317(1)(d)):
    # Mar 1. v2 blacks out Mar 6: Mar 13, notice Mar 8. Same UIDs (no re-plan, same
    # lineage), both events changed: SEQUENCE 0 + 1 = 1, as the CLI writes them
    v1, v2 = _scenario(tmp_path, "v1", []), _scenario(tmp_path, "v2", ["2027-03-06"])
    cli, py = tmp_path / "cli", tmp_path / "py"
    for args in (["solve", str(v1), "--out", str(cli)], ["solve", str(v2), "--out", str(cli)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output  # the CLI passes replacing itself
    write_plan(solve(load_scenario(v1)), py)
    assert _sequences(py) == {
        "sat-1": ("20270306", 0), "notice-room.sat-1": ("20270301", 0)}
    write_plan(solve(load_scenario(v2), replacing=py), py)
    assert _sequences(py) == {"sat-1": ("20270313", 1), "notice-room.sat-1": ("20270308", 1)}
    assert _files(py) == _files(cli)


def test_a_replan_is_written_into_a_folder_holding_a_plan(tmp_path: Path) -> None:
    # v2 re-planned from v1 (previous=): Mar 6 is blacked out, so sat-1 moves to Mar 13
    # with SEQUENCE 0 + 1 = 1; written into v1's own folder, or into one holding another
    # plan (as `tourney solve --previous A --out B` writes it)
    v1, v2 = _scenario(tmp_path, "v1", []), _scenario(tmp_path, "v2", ["2027-03-06"])
    out, other = tmp_path / "plan", tmp_path / "other"
    write_plan(solve(load_scenario(v1)), out)
    write_plan(solve(load_scenario(v1)), other)
    sc2 = load_scenario(v2)
    replan = solve(sc2, previous=out)
    assert replan.replanned and replan.replaced_folder == ""
    write_plan(replan, other)
    write_plan(replan, out)
    assert _sequences(out)["sat-1"] == ("20270313", 1) == _sequences(other)["sat-1"]
