"""One rule for every writer: never over an input, never over a file it did not write,
never over another organization's plan (refused, exit 2 / WriteRefused, nothing changed).

- ``tourney solve --out`` into the plan folder of other operators (another organization's);
- ``to_ics(plan, path)`` over the scenario file, over a file inside a plan folder, over a
  file that is not a calendar tourney wrote (its own earlier calendar is replaced);
- ``tourney ledger funds --out DIR`` over a funds.csv or funds.html it did not write (its
  own are replaced).

Real solves of a one-room scenario, a real SQLite ledger.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scheduler import load_scenario, solve
from scheduler.cli import app
from scheduler.core.atomic_files import WriteRefused
from scheduler.export.write import to_ics
from scheduler.ledger import Ledger, api

from builders.commands import TINY, tree
from builders.plans import write_me_plan

runner = CliRunner()


def _scenario(folder: Path, name: str, operator: tuple[str, str]) -> Path:
    oid, oname = operator
    data = {**TINY, "name": name,
            "operators": [{**TINY["operators"][0], "id": oid, "name": oname}],
            "tournaments": [{**TINY["tournaments"][0], "operators": [oid]}]}
    path = folder / f"{oid}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_solve_out_into_another_organizations_plan_is_refused(tmp_path: Path) -> None:
    theirs = _scenario(tmp_path, "Their room", ("their-room", "Their Room"))
    mine = _scenario(tmp_path, "My room", ("my-room", "My Room"))
    plan = tmp_path / "plan"
    r = runner.invoke(app, ["solve", str(theirs), "--out", str(plan), "--time-limit", "10"])
    assert r.exit_code == 0, r.output
    before = tree(plan)
    r = runner.invoke(app, ["solve", str(mine), "--out", str(plan), "--time-limit", "10"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == (
        f"tourney: --out {plan} holds the plan of other operators (their-room (Their Room)) "
        "than this scenario's: another organization's plan is never written over; give "
        "another --out. Nothing was changed; nothing was solved.")
    assert tree(plan) == before
    # the same organization solving again into its own plan: replaced (with its warning)
    r = runner.invoke(app, ["solve", str(theirs), "--out", str(plan), "--time-limit", "10"])
    assert r.exit_code == 0, r.output


def test_to_ics_never_writes_over_an_input_a_plan_folder_or_a_foreign_file(
        tmp_path: Path) -> None:
    path = _scenario(tmp_path, "My room", ("my-room", "My Room"))
    plan = solve(load_scenario(path), seed=0, time_limit=10)
    scenario_bytes = path.read_bytes()
    with pytest.raises(WriteRefused, match="is not a calendar tourney wrote"):
        to_ics(plan, path)
    assert path.read_bytes() == scenario_bytes
    other = tmp_path / "other.ics"
    other.write_bytes(b"BEGIN:VCALENDAR\r\nPRODID:-//Someone//EN\r\nEND:VCALENDAR\r\n")
    with pytest.raises(WriteRefused, match="is not a calendar tourney wrote"):
        to_ics(plan, other)
    folder = tmp_path / "plan"
    runner.invoke(app, ["solve", str(path), "--out", str(folder), "--time-limit", "10"])
    before = tree(folder)
    for inside in (folder / "calendar.ics", folder / "calendars" / "my-room.ics",
                   folder / "new.ics"):
        with pytest.raises(WriteRefused, match="is inside the plan folder"):
            to_ics(plan, inside)
    assert tree(folder) == before
    mine = to_ics(plan, tmp_path / "cal.ics")
    assert to_ics(plan, mine) == mine  # its own calendar: replaced


def test_ledger_funds_never_replaces_a_funds_file_it_did_not_write(tmp_path: Path) -> None:
    lg = Ledger(tmp_path / "ledger.sqlite")
    api.init(lg)
    api.adopt(lg, write_me_plan(tmp_path / "plan"), organization="Post", by="ann")
    lg.dispose()
    out = tmp_path / "funds"
    out.mkdir()
    mine = out / "funds.csv"
    mine.write_text("my own sums\n", encoding="utf-8")
    r = runner.invoke(app, ["ledger", "funds", "--out", str(out), "--ledger", lg.url])
    assert r.exit_code == 2
    assert r.stderr.strip() == (
        f"tourney: --out {mine} exists and was not written by `tourney ledger funds`: it is "
        "never replaced; move it, or give another folder. Nothing was written.")
    assert mine.read_text(encoding="utf-8") == "my own sums\n"
    assert not (out / "funds.html").exists()
    mine.unlink()
    (out / "funds.html").write_text("<p>notes</p>", encoding="utf-8")
    r = runner.invoke(app, ["ledger", "funds", "--out", str(out), "--ledger", lg.url])
    assert r.exit_code == 2 and "funds.html exists and was not written" in r.stderr
    (out / "funds.html").unlink()
    for _ in range(2):  # written, then its own files replaced
        r = runner.invoke(app, ["ledger", "funds", "--out", str(out), "--ledger", lg.url])
        assert r.exit_code == 0, r.output
