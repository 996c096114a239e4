"""`tourney sweep` and scheduler.studies.sweep: what-if grids solved by a local process pool or on
Dask, compared in one table.

The scenario is tiny and every number is worked out by hand:

- Montana room ``room``: a large-stakes tournament ``sat``, 4 wanted, on March 2027's
  Saturdays (6, 13, 20, 27). MT-NOTICE: notice due 5 days before the first day and on or
  after ``notice_from``. Notices from Mar 10: first days from Mar 15, so only the 20th and
  27th (2 placed); from Feb 24: all four (Mar 6's notice is due Mar 1). One $120 large-stakes
  permit for the 2026-07-01 permit year either way (MT-PERMIT-FEES).
- Maine post ``post``: a tournament game ``wed`` (40 players: $40 per-tournament licence,
  ME-FEES), 4 wanted, Wednesdays 18:00 for 12 h from Jun 23 to Jul 14 2027 (23, 30, 7, 14).
  The Jun 30 game runs into Jul 1. ME-MONTHLY-LIMIT, 2 a month: ``month_rule: touch``
  counts it in June and July, so at most 3 ({23, 30, 7}: June 2, July 2) = $120;
  ``start`` counts it in June only: all 4 = $160. ME-APPLICATION-WINDOW (notice_from + 10
  business days, by late March) does not reach June.

Grid ``notice_from: [2027-03-10, 2027-02-24]`` x ``settings.month_rule: [touch, start]``:

| variant | placed | not placed | fees |
|---|---|---|---|
| 03-10, touch | 2 + 3 = 5 | 2 + 1 = 3 | 120 + 120 = 240 |
| 03-10, start | 2 + 4 = 6 | 2 + 0 = 2 | 120 + 160 = 280 |
| 02-24, touch | 4 + 3 = 7 | 0 + 1 = 1 | 240 |
| 02-24, start | 4 + 4 = 8 | 0 | 280 |
"""

from __future__ import annotations

import logging
import socket
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.cli.generate import looks_like_address as _looks_like_address
from scheduler.core.scenario import Scenario
from scheduler.engine.objective import SolverError
from scheduler.inputs.load import load_scenario
from scheduler.studies.sweep import sweep
from scheduler.studies.sweep.table import Sweep
from scheduler.studies.sweep.variants import SweepError, VaryError, apply_changes, text
from scheduler.studies.sweep.vary import grid, read_vary

runner = CliRunner()

BASE: dict[str, Any] = {
    "name": "sweep test", "horizon": {"start": "2027-03-01", "end": "2027-07-31"},
    "notice_from": "2027-03-10",
    "operators": [
        {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1},
        {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
         "local_approval": True, "beneficiaries": ["Scholarships"]}],
    "tournaments": [
        {"id": "sat", "title": "Sat", "type": "large-stakes", "operators": ["room"],
         "count": 4, "weekdays": ["sat"], "window": {"start": "2027-03-01",
                                                     "end": "2027-03-31"}},
        {"id": "wed", "title": "Wed", "type": "tournament-game", "operators": ["post"],
         "players": 40, "prize_share": 0.8, "count": 4, "weekdays": ["wed"],
         "start_time": "18:00", "hours": 12,
         "window": {"start": "2027-06-23", "end": "2027-07-14"}}]}
GRID = {"notice_from": ["2027-03-10", "2027-02-24"], "settings.month_rule": ["touch", "start"]}
NAMES = ["notice_from=2027-03-10,month_rule=touch", "notice_from=2027-03-10,month_rule=start",
         "notice_from=2027-02-24,month_rule=touch", "notice_from=2027-02-24,month_rule=start"]
VARY = """\
grid:
  notice_from: [2027-03-10, 2027-02-24]
  settings.month_rule: [touch, start]
"""


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario(BASE)


@pytest.fixture(scope="module")
def in_process(base: Scenario) -> Sweep:
    return sweep(base, GRID, jobs=1, deterministic_time=10)


def _files(tmp_path: Path, vary: str = VARY) -> tuple[Path, Path]:
    sc = tmp_path / "scenario.yaml"
    sc.write_text(yaml.safe_dump(BASE, sort_keys=False), encoding="utf-8")
    v = tmp_path / "vary.yaml"
    v.write_text(vary, encoding="utf-8")
    return sc, v


def _assert_same(a: Sweep, b: Sweep) -> None:
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.usage_long, b.usage_long)
    pd.testing.assert_frame_equal(a.moved_long, b.moved_long)
    assert list(a.plans.values()) == list(b.plans.values())


# ------------------------------------------------------------------------------ the grid
def test_grid_is_the_cartesian_product_in_order(base: Scenario) -> None:
    variants = grid(base, GRID)
    # first key slowest: (03-10, touch), (03-10, start), (02-24, touch), (02-24, start)
    assert [v.name for v in variants] == NAMES
    assert [(str(v.scenario.notice_from), v.scenario.settings.month_rule)
            for v in variants] == [("2027-03-10", "touch"), ("2027-03-10", "start"),
                                   ("2027-02-24", "touch"), ("2027-02-24", "start")]
    zipped = grid(base, GRID, combine="zip")
    assert [v.name for v in zipped] == [NAMES[0], NAMES[3]]


def test_hand_computed_table_in_process(in_process: Sweep) -> None:
    t = in_process.table
    assert list(t.index) == NAMES
    assert t[["placed", "not_placed", "required_missing", "fees_usd"]].values.tolist() == [
        [5, 3, 0, 240], [6, 2, 0, 280], [7, 1, 0, 240], [8, 0, 0, 280]]
    assert list(t["status"]) == ["OPTIMAL"] * 4
    assert t["notice_from"].tolist() == ["2027-03-10", "2027-03-10", "2027-02-24", "2027-02-24"]
    # moved against the first variant (occurrences numbered in date order): start adds
    # wed#4 (Jul 14): 1; Feb 24 moves sat#1, #2 (20 -> 6, 27 -> 13) and adds #3, #4: 4;
    # both: 5
    assert t["moved"].tolist() == [0, 1, 4, 5]
    # MT-LARGE-LIMIT: 2 or 4 of 16 used, never full; ME-MONTHLY-LIMIT: June 2 + July 2 = 4
    # (touch counts Jun 30 in both months) with both months at the limit, in every variant
    assert t["MT-LARGE-LIMIT used"].tolist() == [2, 2, 4, 4]
    assert t["MT-LARGE-LIMIT at limit"].tolist() == [0, 0, 0, 0]
    assert t["ME-MONTHLY-LIMIT used"].tolist() == [4, 4, 4, 4]
    assert t["ME-MONTHLY-LIMIT at limit"].tolist() == [2, 2, 2, 2]
    assert in_process.fees_by_kind.loc[("post", "me-per-tournament")].tolist() == [
        120, 160, 120, 160]
    assert t["placed"].dtype == "int64"


def test_process_pool_gives_the_same_tables(base: Scenario, in_process: Sweep) -> None:
    _assert_same(in_process, sweep(base, GRID, jobs=2, deterministic_time=10))


def test_dask_local_cluster_gives_the_same_tables(base: Scenario, in_process: Sweep) -> None:
    # an embedded LocalCluster of 2 single-threaded workers in this process (no network)
    on_dask = sweep(base, GRID, engine="dask", jobs=2, deterministic_time=10,
                    cluster_kwargs={"processes": False})
    _assert_same(in_process, on_dask)


def test_dask_client_given_by_the_caller(base: Scenario, in_process: Sweep) -> None:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        done: list[tuple[int, int]] = []
        res = sweep(base, GRID, engine="dask", client=client, deterministic_time=10,
                    progress=lambda i, n, _: done.append((i, n)))
        assert client.status == "running"  # the caller's client is left open
    _assert_same(in_process, res)
    assert done == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_named_changes_nested_fields_and_readings(base: Scenario) -> None:
    res = sweep(base, {
        # held 15 of 16 large-stakes this permit year: 1 Saturday (Mar 6); the permit is
        # held already, so MT fees 0; Maine (touch) 3 games, $120
        "held 15": {"operators.room.held_in_current_permit_year.large_stakes": 15,
                    "notice_from": "2027-02-24"},
        # charitable Saturdays: the first 3 are not counted (MT-CHARITY-LIMIT), the 4th is
        # counted toward the 16: all 4 (Mar 6, 13, 20, 27), permit $120, plus Maine $120
        "charity": {"tournaments.sat.charitable": True, "tournaments.sat.charity_share": 0.5,
                    "notice_from": "2027-02-24"}}, jobs=1, deterministic_time=10)
    held = res.plans["held 15"].scenario.operator("room").held_in_current_permit_year
    assert (held.large_stakes, held.charitable) == (15, 0)
    assert res.placed.loc["room"].tolist() == [1, 4]
    assert res.totals["fees_usd"].tolist() == [120, 240]
    assert res.table["MT-LARGE-LIMIT at limit"].tolist() == [1, 0]    # 15 + 1 = 16
    assert res.table["MT-LARGE-LIMIT used"].tolist() == [16, 1]       # 15 + 1; Mar 27
    assert res.table["MT-CHARITY-LIMIT used"].tolist() == [0, 3]      # Mar 6, 13, 20
    assert res.table["tournaments.sat.charity_share"].tolist() == ["", "0.5"]


def test_apply_changes_and_text(base: Scenario) -> None:
    sc = apply_changes(base, {"tournaments.wed.window.end": "2027-07-07",
                              "horizon.end": "2027-08-31"})
    w = sc.tournament("wed").window
    assert w is not None and (str(w.start), str(w.end)) == ("2027-06-23", "2027-07-07")
    assert str(sc.horizon.end) == "2027-08-31" and str(sc.horizon.start) == "2027-03-01"
    assert base.tournament("wed").window.end.isoformat() == "2027-07-14"  # type: ignore[union-attr]
    assert [text(v) for v in (True, None, 0.5, 2.0, ["fri", "sat"], {"a": 1})] == [
        "true", "null", "0.5", "2", "[fri, sat]", "{a: 1}"]
    with pytest.raises(ValueError, match="did you mean 'notice_from'"):
        apply_changes(base, {"notice_frm": "2027-01-01"})


# ------------------------------------------------------------------------------ vary files
def test_vary_file_problems_name_file_line_key_and_value(tmp_path: Path, base: Scenario
                                                         ) -> None:
    _, v = _files(tmp_path, """\
grid:
  settings.month_rule: [touch, weekly]
  tournaments.sa.count: [2]
variants:
  - name: fine together
    set: {tournaments.sat.charitable: true, tournaments.sat.charity_share: 0.5}
  - set: {tournaments.sat.charitable: true}
  - set: {tournaments.sat.entry_fee: 2000, tournaments.sat.reentries: 0}
""")
    with pytest.raises(VaryError) as exc:
        read_vary(v, base)
    assert exc.value.problems == [
        f"{v}:2: grid: settings.month_rule = weekly: Input should be 'touch' or 'start' "
        "(SCENARIO)",
        f"{v}:3: grid: tournaments.sa.count = 2: no tournament has this id; did you mean "
        "'sat'? (SCENARIO)",
        # charitable needs charity_share >= 0.5: told at the key that was changed
        f"{v}:7: variants[1]: tournaments.sat.charitable = true: "
        "tournaments.sat.charity_share: a charitable tournament pays at least 50% of entry "
        "fees to a charitable, educational or recreational nonprofit (charity_share >= 0.5) "
        "(MT-CHARITY-SHARE, MCA 23-5-317(8))",
        # entry $2,000 > $1,875 even without re-entries (MT-ENTRY-CAP)
        f"{v}:8: variants[2]: tournaments.sat.entry_fee = 2000: a participant could pay "
        "$2,000 in all (entry $2,000 x 1 + rebuys $0 x 0 + add-on $0); the cap is $1,875 "
        "(MT-ENTRY-CAP, MCA 23-5-317(1)(g))"]


@pytest.mark.parametrize(("body", "expected"), [
    ("grd:\n  notice_from: [2027-02-24]\n", ":1: grd: unknown key; did you mean 'grid'?"),
    ("grid:\n  settings.month_rule: start\n",
     ":2: grid.settings.month_rule = start: expected a list of the values to try"),
    ("grid:\n  colour: [red]\n", ":2: grid.colour: unknown key: 'colour' is not a scenario "
                                 "field"),
    ("grid:\n  notice_from: [2027-02-24, 2027-03-01]\n  settings.month_rule: [touch]\n"
     "combine: zip\n", ":1: grid: combine: zip needs lists of the same length"),
    ("variants:\n  - {name: a, set: {tournaments.sat.count: 2}}\n"
     "  - {name: a, set: {tournaments.sat.count: 3}}\n", ":3: variants[1]: two variants are "
                                                        "named 'a'"),
    ("grid: [1, 2\n", ":2: not valid YAML"),
    ("baseline: false\n", ":1: no variants"),
])
def test_vary_file_structure_problems(tmp_path: Path, base: Scenario, body: str,
                                      expected: str) -> None:
    _, v = _files(tmp_path, body)
    with pytest.raises(VaryError) as exc:
        read_vary(v, base)
    assert any(p.startswith(f"{v}{expected}") for p in exc.value.problems), exc.value.problems


def test_baseline_and_listed_variants(tmp_path: Path, base: Scenario) -> None:
    _, v = _files(tmp_path, "baseline: true\n" + VARY + "variants:\n"
                  "  - name: priority\n    set: {tournaments.sat.priority: 5}\n"
                  "  - set: {operators.room.live_tables: 2}\n")
    variants = read_vary(v, base)
    assert [x.name for x in variants] == ["baseline", *NAMES, "priority",
                                          "room.live_tables=2"]
    assert variants[0].scenario == base and variants[0].changes == {}
    assert variants[5].scenario.tournament("sat").priority == 5


# ------------------------------------------------------------------------------ the CLI
def test_cli_writes_the_csv_and_the_same_bytes_again(tmp_path: Path) -> None:
    sc, v = _files(tmp_path)
    out = tmp_path / "res" / "results.csv"
    args = ["sweep", str(sc), "--vary", str(v), "--out", str(out), "--jobs", "1",
            "--deterministic-time", "10"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",")[:9] == ["variant", "notice_from", "settings.month_rule",
                                       "status", "placed", "not_placed", "required_missing",
                                       "fees_usd", "moved"]
    # the hand-computed rows, grid order
    assert lines[1:] == [
        '"notice_from=2027-03-10,month_rule=touch",2027-03-10,touch,OPTIMAL,5,3,0,240,0,4,2,0,0,'
        '2,0',
        '"notice_from=2027-03-10,month_rule=start",2027-03-10,start,OPTIMAL,6,2,0,280,1,4,2,0,0,'
        '2,0',
        '"notice_from=2027-02-24,month_rule=touch",2027-02-24,touch,OPTIMAL,7,1,0,240,4,4,2,0,0,'
        '4,0',
        '"notice_from=2027-02-24,month_rule=start",2027-02-24,start,OPTIMAL,8,0,0,280,5,4,2,0,0,'
        '4,0']
    usage = (tmp_path / "res" / "results.usage.csv").read_text().splitlines()
    # per variant: post's 5 months (Mar-Jul) + room's 2 rules for one permit year = 7 rows
    assert len(usage) == 1 + 4 * 7
    assert usage[7] == ('"notice_from=2027-03-10,month_rule=touch",room,MT-LARGE-LIMIT,'
                        '2026-07-01,2027-06-30,16,2')
    moved = (tmp_path / "res" / "results.moved.csv").read_text().splitlines()
    # sat#1-#4 and wed#4 differ between variants: 5 rows per variant
    assert len(moved) == 1 + 4 * 5 and moved[5] == (
        '"notice_from=2027-03-10,month_rule=touch",wed,4,')
    assert "notice_from=2027-02-24,month_rule=start  OPTIMAL       8" in res.stdout
    first = {p.name: p.read_bytes() for p in (tmp_path / "res").iterdir()}
    assert sorted(first) == ["results.csv", "results.moved.csv", "results.usage.csv"]
    assert runner.invoke(app, args).exit_code == 0
    assert {p.name: p.read_bytes() for p in (tmp_path / "res").iterdir()} == first


def test_cli_dask_embedded_cluster_writes_the_same_bytes(tmp_path: Path) -> None:
    # --dask without an address: a LocalCluster of worker processes on this machine
    sc, v = _files(tmp_path)
    a, b = tmp_path / "local.csv", tmp_path / "dask.csv"
    common = ["--vary", str(v), "--jobs", "1", "--deterministic-time", "10"]
    assert runner.invoke(app, ["sweep", str(sc), *common, "--out", str(a)]).exit_code == 0
    res = runner.invoke(app, ["sweep", str(sc), "--dask", *common, "--out", str(b)])
    assert res.exit_code == 0, res.output
    for suffix in (".csv", ".usage.csv", ".moved.csv"):
        assert (tmp_path / f"dask{suffix}").read_bytes() == \
            (tmp_path / f"local{suffix}").read_bytes()


def test_cli_bad_vary_file_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    sc, v = _files(tmp_path, "grid:\n  settings.month_rule: [touch, weekly]\n")
    out = tmp_path / "results.csv"
    res = runner.invoke(app, ["sweep", str(sc), "--vary", str(v), "--out", str(out)])
    assert res.exit_code == 2
    assert (f"{v}:2: grid: settings.month_rule = weekly: Input should be 'touch' or 'start'"
            in res.stderr)
    assert "Nothing was solved or written" in res.stderr and "Traceback" not in res.output
    assert list(tmp_path.iterdir()) == [sc, v]


def test_cli_unreachable_scheduler_exits_2(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port on this machine that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sc, v = _files(tmp_path)
    out = tmp_path / "results.csv"
    res = runner.invoke(app, ["sweep", str(sc), "--vary", str(v), "--out", str(out),
                              "--dask", f"tcp://127.0.0.1:{port}", "--timeout", "0.5"])
    assert res.exit_code == 2, res.output
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in res.stderr
    assert "Traceback" not in res.output and not out.exists()


def test_cli_failed_variant_exits_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import scheduler.studies.sweep as mod

    def no_solution(*_: Any, **__: Any) -> None:
        raise SolverError("stage placed: no solution within the time limit (UNKNOWN)")

    monkeypatch.setattr(mod, "_solve_variant", no_solution)
    sc, v = _files(tmp_path)
    out = tmp_path / "results.csv"
    res = runner.invoke(app, ["sweep", str(sc), "--vary", str(v), "--out", str(out),
                              "--jobs", "1"])
    assert res.exit_code == 3
    assert ("variant 'notice_from=2027-03-10,month_rule=touch' could not be solved: stage "
            "placed: no solution") in res.stderr
    assert not out.exists()


def test_cli_arguments(tmp_path: Path) -> None:
    sc, v = _files(tmp_path)
    res = runner.invoke(app, ["sweep", str(sc), "extra.yaml", "--vary", str(v)])
    assert res.exit_code == 2 and "unexpected argument(s): extra.yaml" in res.stderr
    res = runner.invoke(app, ["sweep", str(sc), "--vary", str(v), "--out", str(tmp_path)])
    assert res.exit_code == 2 and "it is a folder" in res.stderr
    assert [_looks_like_address(a) for a in ("tcp://h:8786", "scheduler:8786", "10.0.0.5:8786",
                                             "scenario.yaml", "C:/x.yaml")] == [
        True, True, True, False, False]


def test_api_errors(base: Scenario) -> None:
    with pytest.raises(ValueError, match="engine must be"):
        sweep(base, GRID, engine="spark")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="variants"):
        sweep(base, {"a": 1})
    with pytest.raises(SweepError, match="cannot reach the Dask scheduler") as exc:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        sweep(base, GRID, engine="dask", address=f"tcp://127.0.0.1:{port}", timeout=0.5)
    assert exc.value.exit_code == 2
