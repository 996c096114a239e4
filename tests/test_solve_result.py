"""Issue #12, phase B (the engine and the result): the objective in its own module, a Plan
that is finished when ``solve`` returns it, and the same calendars from Python as from the
CLI when a plan is solved again into a folder that already holds one (not a re-plan).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import icalendar
import pytest
import yaml
from typer.testing import CliRunner

from constraints.common import COUNT, FIXED_DATES
from scheduler.cli import app
from scheduler.engine.model import build_model
from scheduler.engine.objective import add_terms
from scheduler.engine.solver import solve, solve_alternatives
from scheduler.export.summary import summary_text
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan, PlanStatus

from builders.scenarios import load, mt_large, mt_room

runner = CliRunner()


def _room_year(tmp: Path, name: str, *, blackout: bool) -> Path:
    """March 2027 at one Montana room: ``sat``, a large-stakes tournament 3 times on
    Saturdays (Mar 6, 13, 20, 27 exist); ``blackout`` closes the room on Mar 13."""
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}
    if blackout:
        room["blackout"] = ["2027-03-13"]
    sat = {"id": "sat", "title": "Saturday Stack", "type": "large-stakes",
           "operators": ["room"], "weekdays": ["sat"], "count": 3}
    data = {"name": "Room 2027", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-01", "operators": [room], "tournaments": [sat]}
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def _ics(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.ics"))}


def _sequences(ics: bytes) -> dict[tuple[str, dt.date], int]:
    """(SUMMARY, DTSTART day) -> SEQUENCE of each event of a calendar."""
    out = {}
    for ev in icalendar.Calendar.from_ical(ics).walk("VEVENT"):
        start = ev.decoded("DTSTART")
        day = start.date() if isinstance(start, dt.datetime) else start
        out[(str(ev["SUMMARY"])[:14], day)] = int(ev["SEQUENCE"])
    return out


def test_solved_again_into_its_folder_python_writes_the_calendars_the_cli_writes(
        tmp_path: Path) -> None:
    # v1: the 3 earliest Saturdays, Mar 6, 13, 20 (sat-1, sat-2, sat-3). v2 closes the room
    # on Mar 13: Mar 6, 20, 27. Solved into the same folder without --previous, the UIDs stay
    # (sat-k is still occurrence k) and an event whose content changed gets SEQUENCE 0 + 1:
    # sat-2 (Mar 13 -> Mar 20) and sat-3 (Mar 20 -> Mar 27), and their MT notices, due 5 days
    # before the first day (MT-NOTICE, MCA 23-5-317(1)(d)): Mar 15 and Mar 22. sat-1 and its
    # notice (Mar 6 - 5 = Mar 1) are unchanged: SEQUENCE 0.
    v1, v2 = _room_year(tmp_path, "v1", blackout=False), _room_year(tmp_path, "v2", blackout=True)
    cli, py = tmp_path / "cli", tmp_path / "py"
    for out in (cli, py):
        res = runner.invoke(app, ["solve", str(v1), "--out", str(out), "--jobs", "1"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["solve", str(v2), "--out", str(cli), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "holds an earlier plan" in res.output
    sc = load_scenario(v2)
    write_plan(solve(sc, replacing=py), py)
    assert _ics(py) == _ics(cli) and len(_ics(cli)) == 2  # calendar.ics, calendars/room.ics
    notice, stack = "Notice due to ", "Saturday Stack"
    assert _sequences((cli / "calendar.ics").read_bytes()) == {
        (notice, dt.date(2027, 3, 1)): 0, (stack, dt.date(2027, 3, 6)): 0,
        (notice, dt.date(2027, 3, 15)): 1, (stack, dt.date(2027, 3, 20)): 1,
        (notice, dt.date(2027, 3, 22)): 1, (stack, dt.date(2027, 3, 27)): 1}
    # without ``replacing`` the changed events would keep SEQUENCE 0: not what the CLI writes
    plain = tmp_path / "plain"
    write_plan(solve(sc), plain)
    assert (plain / "calendar.ics").read_bytes() != (cli / "calendar.ics").read_bytes()
    assert set(_sequences((plain / "calendar.ics").read_bytes()).values()) == {0}


def test_replacing_is_ignored_for_a_folder_without_a_plan(tmp_path: Path) -> None:
    # an empty folder holds no plan: the same Plan as without ``replacing``
    sc = load_scenario(_room_year(tmp_path, "v1", blackout=False))
    (tmp_path / "empty").mkdir()
    assert solve(sc, replacing=tmp_path / "empty") == solve(sc)


def test_a_plan_is_finished_and_immutable() -> None:
    # one 1-day large-stakes tournament, window Mon 2027-03-01 .. Wed 03-03: placed on the
    # earliest day, Mar 1, proven optimal
    sc = load(operators=[mt_room("a")],
              tournaments=[mt_large("open", ("a",),
                                    window={"start": "2027-03-01", "end": "2027-03-03"})])
    plan = solve(sc, seed=0)
    assert isinstance(plan, Plan) and plan.status is PlanStatus.OPTIMAL
    # the status prints as before: "OPTIMAL" in the summary (byte-identical outputs)
    assert plan.status == "OPTIMAL" and f"{plan.status}" == "OPTIMAL"
    assert summary_text(plan).startswith(f"{sc.name}: OPTIMAL plan, 1 occurrence placed")
    assert plan.runtime_s > 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.rank = 2  # type: ignore[misc]
    # alternatives have their own function and always come back as a list, best first
    alts = solve_alternatives(sc, 2, seed=0)
    assert [p.rank for p in alts] == [1, 2]
    assert [p.rows[0].first_day for p in alts] == [dt.date(2027, 3, 1), dt.date(2027, 3, 2)]
    assert alts[0] == plan  # runtime_s is not compared


def test_the_rules_state_constraints_the_objective_its_terms() -> None:
    # "open": window Thu 2027-03-04 .. Sun 03-07 (4 candidate first days), priority 2,
    # required 1, preferred on Saturdays (Mar 6 only); a fixed date Mar 5 for "fixed".
    sc = load(operators=[mt_room("a")], tournaments=[
        mt_large("open", ("a",), priority=2, required=1, prefer_weekdays=["sat"],
                 window={"start": "2027-03-04", "end": "2027-03-07"}),
        mt_large("fixed", ("a",), count=1, fixed_dates=["2027-03-05"],
                 window={"start": "2027-03-04", "end": "2027-03-07"})])
    ctx = build_model(sc)
    # the rules added no objective terms: COUNT and FIXED-DATES state constraints only
    assert (ctx.placed_terms, ctx.required_terms, ctx.preference_terms) == ([], [], [])
    assert FIXED_DATES.encode is None and COUNT.encode is not None
    add_terms(ctx)
    # placed: 4 days of "open" weighted 2, 4 days of "fixed" weighted 1 (its priority)
    assert sorted(w for _, w in ctx.placed_terms) == [1, 1, 1, 1, 2, 2, 2, 2]
    # required: the shortfall below must_place of "open" (required 1) and of "fixed" (1
    # fixed date), then the fixed date Mar 5 not taken: 3 terms of weight 1
    assert [w for _, w in ctx.required_terms] == [1, 1, 1]
    # preferred: the one Saturday of "open"'s window
    assert len(ctx.preference_terms) == 1
    plan = solve(sc, seed=0)
    # optimum: "open" on its preferred Saturday (Mar 6), "fixed" on its fixed date (Mar 5):
    # placed 2 + 1 = 3, one $120 permit (MT-PERMIT-FEES), preferred 1
    assert plan.objective == {"placed": 3, "fees_usd": 120, "preferred": 1}
    assert sorted((r.tournament_id, r.first_day) for r in plan.rows) == [
        ("fixed", dt.date(2027, 3, 5)), ("open", dt.date(2027, 3, 6))]



def test_solve_collects_no_garbage_inside_and_leaves_the_collector_as_it_was() -> None:
    # solve() pauses the cyclic garbage collector while it works (issue #27: a part's
    # model dies by reference counting; the collector would only scan it): off whenever
    # progress is reported, on again after, off after when it was off, and on again after
    # a refusal (seed -1 is refused before any work)
    import gc

    sc = load(operators=[mt_room("a")],
              tournaments=[mt_large("open", ("a",),
                                    window={"start": "2027-03-01", "end": "2027-03-03"})])
    was = gc.isenabled()
    inside: list[bool] = []
    try:
        gc.enable()
        solve(sc, seed=0, progress=lambda _: inside.append(gc.isenabled()))
        assert inside and not any(inside)  # reported at least once, always paused
        assert gc.isenabled()
        with pytest.raises(ValueError):
            solve(sc, seed=-1)
        assert gc.isenabled()
        assert len(solve_alternatives(sc, 2, seed=0)) == 2 and gc.isenabled()
        gc.disable()
        solve(sc, seed=0)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
