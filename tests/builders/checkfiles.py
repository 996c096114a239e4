"""schedule.csv text for ``tourney check``, in the product's format, and running the command:
operators and tournaments of both states, wall-clock times in Montana and Maine, a row per
occurrence and operator, the files written beside a scenario.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml
from typer.testing import CliRunner

from scheduler.cli import app

from builders.scenarios import d

runner = CliRunner()

DENVER = ZoneInfo("America/Denver")
NEW_YORK = ZoneInfo("America/New_York")
UTC = dt.UTC

HEADER = ("tournament_id,occurrence,operator_id,jurisdiction,type,charitable,title,start,end,"
          "first_day,last_day,notice_due,permit_year,counted,players,license_id,uid\n")
LIC_HEADER = "license_id,operator_id,jurisdiction,kind,tier,valid_from,valid_to,fee_usd,covers\n"

# ------------------------------------------------------------------------------ scenarios
def room(oid: str = "room", name: str = "Bitterroot Card Room", **kw: Any) -> dict:
    return {"id": oid, "name": name, "jurisdiction": "MT", "live_tables": 2, **kw}


def post(oid: str = "post", name: str = "Legion Post 212", **kw: Any) -> dict:
    return {"id": oid, "name": name, "jurisdiction": "ME", "organized_on": "1946-05-12",
            "local_approval": True, "beneficiaries": ["Post 212 Scholarship Fund"], **kw}


def large(tid: str, title: str, ops: tuple[str, ...] = ("room",), **kw: Any) -> dict:
    return {"id": tid, "title": title, "type": "large-stakes", "operators": list(ops),
            "start_time": "12:00", "hours": 10, "count": 40, "entry_fee": 375, **kw}


def small(tid: str, title: str, **kw: Any) -> dict:
    return {"id": tid, "title": title, "type": "small-stakes", "operators": ["room"],
            "start_time": "19:00", "hours": 4, "count": "all", "entry_fee": 60, **kw}


def game(tid: str, title: str, ops: tuple[str, ...] = ("post",), **kw: Any) -> dict:
    return {"id": tid, "title": title, "type": "tournament-game", "operators": list(ops),
            "players": 40, "entry_fee": 50, "prize_share": 0.8, "start_time": "12:00",
            "hours": 12, "count": 12, **kw}


def cribbage(tid: str, title: str, op: str, **kw: Any) -> dict:
    return {"id": tid, "title": title, "type": "super-cribbage", "operators": [op],
            "players": 40, "entry_fee": 50, "prize_share": 0.8, "charity_share": 0.5,
            "organizer_member_years": 5, "start_time": "12:00", "hours": 10, "count": 12, **kw}


def scenario(operators: list[dict], tournaments: list[dict], **top: Any) -> dict:
    return {"name": "check test", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-12-01", "operators": operators, "tournaments": tournaments,
            **top}


# ------------------------------------------------------------------------------ schedule.csv


def at(day: str | dt.date, hm: str, tz: ZoneInfo = DENVER) -> dt.datetime:
    """Wall-clock ``hm`` on ``day`` in ``tz`` (no DST gap is used in these tests)."""
    day = d(day) if isinstance(day, str) else day
    return dt.datetime.combine(day, dt.time.fromisoformat(hm), tzinfo=tz)


def plus(start: dt.datetime, hours: float) -> dt.datetime:
    """Real elapsed hours after ``start``, shown in ``start``'s zone."""
    return (start.astimezone(UTC) + dt.timedelta(hours=hours)).astimezone(start.tzinfo)


def row(t: dict, occ: int, op: str, start: dt.datetime, end: dt.datetime, *,
        first: str | None = None, last: str | None = None) -> str:
    """One schedule.csv row in the product's format. ``first``/``last`` default to the days
    ``start``..``end`` touch (``end`` exclusive)."""
    first_d = d(first) if first else start.date()
    last_d = d(last) if last else (end - dt.timedelta(microseconds=1)).date()
    mt = t["type"] in ("large-stakes", "small-stakes")
    is_large = t["type"] == "large-stakes"
    charitable = bool(t.get("charitable", False))
    py = dt.date(first_d.year - (first_d.month < 7), 7, 1) if mt else None
    counted = (is_large and not charitable) or t["type"] in ("tournament-game", "super-cribbage")
    fields = [t["id"], str(occ), op, "MT" if mt else "ME", t["type"],
              "true" if charitable else "false", t["title"], start.isoformat(), end.isoformat(),
              first_d.isoformat(), last_d.isoformat(),
              (first_d - dt.timedelta(days=5)).isoformat() if is_large else "",
              py.isoformat() if py else "", "true" if counted else "false",
              str(t.get("players", "")), "", f"{t['id']}-{occ}@{op}.tourney"]
    return ",".join(fields) + "\n"


def mt_rows(t: dict, op: str, firsts: list[str | dt.date], *, occ0: int = 1) -> str:
    """Rows of a Montana tournament as the product times it: ``days`` play days from
    ``start_time``, each ``hours`` long; one row per operator of a shared tournament."""
    out = []
    for k, first in enumerate(firsts):
        day = d(first) if isinstance(first, str) else first
        start = at(day, t["start_time"])
        last_start = at(day + dt.timedelta(days=t.get("days", 1) - 1), t["start_time"])
        for o in t["operators"] if op == "*" else [op]:
            out.append(row(t, occ0 + k, o, start, plus(last_start, t["hours"])))
    return "".join(out)


def saturdays(first: str, n: int) -> list[dt.date]:
    return [d(first) + dt.timedelta(days=7 * k) for k in range(n)]


# ------------------------------------------------------------------------------ .ics

# ------------------------------------------------------------------------------ running
def write_scenario(folder: Path, data: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def write_schedule(folder: Path, text: str, name: str = "schedule.csv",
                   licenses: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    if licenses is not None:
        (path.parent / "licenses.csv").write_text(licenses, encoding="utf-8")
    return path


def check(sc: Path, schedule: Path, fmt: str = "json") -> Any:
    return runner.invoke(app, ["check", str(sc), str(schedule), "--format", fmt])


def seventeen_saturdays(tmp_path: Path) -> tuple[Path, Path]:
    """weekly (large-stakes at room) on the 17 Saturdays from 2027-01-02: the scenario and
    the schedule (MT-LARGE-LIMIT: the 17th is one too many)."""
    t = large("weekly", "Saturday Deepstack")
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    return sc, write_schedule(tmp_path, HEADER + mt_rows(t, "room",
                                                         saturdays("2027-01-02", 17)))
