"""Issue #12: every alternative of ``tourney solve --alternatives K`` is publishable as the
main plan is: in a re-plan its calendars cancel what it drops of the previous calendars, and
solved into a folder holding an earlier plan (no re-plan) an event that differs from that
plan's gets a higher SEQUENCE and a later DTSTAMP (RFC 5545 §3.8.7.4, RFC 5546 §2.1.4). The
same from Python (``solve_alternatives(..., previous=/replacing=)``) as from the CLI.

March 2027: the Saturdays are Mar 6, 13, 20, 27. One Montana room, a large-stakes tournament
``sat`` ``count`` times on Saturdays; MT-NOTICE, MCA 23-5-317(1)(d): its notice is due 5 days
before the first day (Mar 6 -> Mar 1, 13 -> 8, 20 -> 15, 27 -> 22).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import icalendar
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.engine.solver import solve_alternatives
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario

runner = CliRunner()


def _room(tmp: Path, name: str, *, count: int, blackout: bool = False) -> Path:
    room: dict[str, object] = {"id": "room", "name": "Room", "jurisdiction": "MT",
                               "live_tables": 1}
    if blackout:
        room["blackout"] = ["2027-03-13"]
    sat = {"id": "sat", "title": "Saturday Stack", "type": "large-stakes",
           "operators": ["room"], "weekdays": ["sat"], "count": count}
    data = {"name": "Room 2027", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-01", "operators": [room], "tournaments": [sat]}
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _ics(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.ics"))}


def _events(ics: Path) -> dict[str, tuple[dt.date, int, str]]:
    """UID (its part before '@') -> (DTSTART day, SEQUENCE, STATUS) of a calendar's events."""
    out = {}
    for ev in icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT"):
        start = ev.decoded("DTSTART")
        day = start.date() if isinstance(start, dt.datetime) else start
        out[str(ev["UID"]).split("@")[0]] = (day, int(ev["SEQUENCE"]),
                                             str(ev.get("STATUS", "")))
    return out


def _solve(args: list[str]) -> None:
    res = runner.invoke(app, ["solve", *args, "--jobs", "1"])
    assert res.exit_code == 0, res.output


def test_alternatives_solved_into_a_folder_holding_a_plan(tmp_path: Path) -> None:
    # v1 (count 2): sat-1 Mar 6, sat-2 Mar 13, written with its alternative. v2 closes the
    # room on Mar 13: the best plan Mar 6, 20; alternative 2 Mar 6, 27 (the next earliest).
    # Both replace the folder's plan (v1's best): sat-1 (Mar 6) is unchanged, SEQUENCE 0;
    # sat-2 moved (13 -> 20 and 13 -> 27) with its notice (8 -> 15 and 8 -> 22): 0 + 1.
    # Before, alternative-2 kept SEQUENCE 0 for the moved events.
    v1 = _room(tmp_path, "v1", count=2)
    v2 = _room(tmp_path, "v2", count=2, blackout=True)
    cli, py = tmp_path / "cli", tmp_path / "py"
    for out in (cli, py):
        _solve([str(v1), "--out", str(out), "--alternatives", "2"])
    _solve([str(v2), "--out", str(cli), "--alternatives", "2"])
    plans = solve_alternatives(load_scenario(v2), 2, replacing=py)
    write_plan(plans[0], py, alternatives=plans[1:])
    assert _ics(py) == _ics(cli)
    assert set(_ics(cli)) == {"calendar.ics", "calendars/room.ics",
                              "alternative-2/calendar.ics",
                              "alternative-2/calendars/room.ics"}
    assert _events(cli / "calendar.ics") == {
        "sat-1": (dt.date(2027, 3, 6), 0, ""), "notice-room.sat-1": (dt.date(2027, 3, 1), 0, ""),
        "sat-2": (dt.date(2027, 3, 20), 1, ""),
        "notice-room.sat-2": (dt.date(2027, 3, 15), 1, "")}
    assert _events(cli / "alternative-2" / "calendar.ics") == {
        "sat-1": (dt.date(2027, 3, 6), 0, ""), "notice-room.sat-1": (dt.date(2027, 3, 1), 0, ""),
        "sat-2": (dt.date(2027, 3, 27), 1, ""),
        "notice-room.sat-2": (dt.date(2027, 3, 22), 1, "")}


def test_alternatives_of_a_replan_cancel_what_they_drop(tmp_path: Path) -> None:
    # v1 (count 2) published sat-1 Mar 6 and sat-2 Mar 13 with their notices (Mar 1, 8).
    # v2 asks for 1. The plans that move nothing keep one of the two where it was: the best
    # plan one, alternative 2 (which must differ in a date) the other. Each calendar holds
    # every event v1 published: the kept occurrence and its notice as they were (SEQUENCE
    # 0), the dropped one and its notice STATUS:CANCELLED with SEQUENCE 0 + 1.
    v1, v2 = _room(tmp_path, "v1", count=2), _room(tmp_path, "v2", count=1)
    old, cli, py = tmp_path / "old", tmp_path / "cli", tmp_path / "py"
    _solve([str(v1), "--out", str(old)])
    published = _events(old / "calendar.ics")
    mar = {"sat-1": dt.date(2027, 3, 6), "sat-2": dt.date(2027, 3, 13),
           "notice-room.sat-1": dt.date(2027, 3, 1), "notice-room.sat-2": dt.date(2027, 3, 8)}
    assert published == {uid: (day, 0, "") for uid, day in mar.items()}
    _solve([str(v2), "--previous", str(old), "--out", str(cli), "--alternatives", "2"])
    plans = solve_alternatives(load_scenario(v2), 2, previous=old)
    write_plan(plans[0], py, alternatives=plans[1:])
    assert _ics(py) == _ics(cli)
    kept = []
    for ics in (cli / "calendar.ics", cli / "alternative-2" / "calendar.ics"):
        events = _events(ics)
        live = [u for u in ("sat-1", "sat-2") if events[u][2] != "CANCELLED"]
        assert len(live) == 1, events
        keep = live[0]
        drop = "sat-2" if keep == "sat-1" else "sat-1"
        assert events == {keep: (mar[keep], 0, ""),
                          f"notice-room.{keep}": (mar[f"notice-room.{keep}"], 0, ""),
                          drop: (mar[drop], 1, "CANCELLED"),
                          f"notice-room.{drop}": (mar[f"notice-room.{drop}"], 1, "CANCELLED")}
        kept.append(keep)
    assert sorted(kept) == ["sat-1", "sat-2"]  # the two plans differ
