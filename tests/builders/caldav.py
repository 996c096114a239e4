"""CalDAV for the tests: a real Radicale server on 127.0.0.1 (a free port, a temporary storage
folder, htpasswd users), ``tourney publish`` into it, and what it then holds; calendar bytes
built by hand; the March scenario of the calendar identity tests, written and solved by the
CLI. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime as dt
import http.client
import itertools
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import caldav
import icalendar
import pytest
import yaml
from icalendar import Calendar, Event, Timezone
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.caldav.server import PASSWORD_ENV

from builders.servers import free_port

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
OPERATOR = "post-212"
runner = CliRunner()


# --------------------------------------------------------------------------- calendar bytes
def ical(*events: Event, tz: bool = False) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//test//EN")
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", "Test calendar")
    if tz:
        cal.add_component(Timezone.from_tzid("America/New_York"))
    for ev in events:
        cal.add_component(ev)
    return cal.to_ical()


STAMP = dt.datetime(2026, 12, 20, tzinfo=dt.UTC)


def vevent(uid: str, start: dt.date = dt.date(2027, 1, 9), **props: str) -> Event:
    ev = Event()
    ev.add("uid", uid)
    ev.add("dtstamp", STAMP)
    ev.add("summary", props.pop("summary", uid))
    ev.add("dtstart", start)
    if props.pop("hand_made", "") != "yes":
        ev.add("x-tourney-tournament", uid)  # as every event tourney writes
    for k, v in props.items():
        ev.add(k, v)
    return ev


def starts_by_uid(data: bytes | str) -> dict[str, tuple[str, str]]:
    """UID → (DTSTART value, its TZID or VALUE) of every VEVENT."""
    out = {}
    for ev in Calendar.from_ical(data).walk("VEVENT"):
        start = ev["DTSTART"]
        kind = str(start.params.get("TZID") or start.params.get("VALUE") or "UTC")
        out[str(ev["UID"])] = (start.to_ical().decode(), kind)
    return out


# --------------------------------------------------------------------------- a real server
@dataclass(frozen=True)
class Server:
    url: str
    storage: Path
    user: str = "alice"
    password: str = "s3cret pass"




def answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        conn.request("OPTIONS", "/")
        return conn.getresponse().status < 500
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def radicale_server(root: Path, user: str = Server.user, password: str = Server.password
                    ) -> Iterator[Server]:
    """A real Radicale server on 127.0.0.1 (a free port) with one htpasswd user, its
    collections under ``root``; stopped when the block ends (shared by the publish tests)."""
    storage = root / "collections"
    (root / "users").write_text(f"{user}:{password}\n", encoding="utf-8")
    port = free_port()
    (root / "config").write_text(f"""\
[server]
hosts = 127.0.0.1:{port}
[auth]
type = htpasswd
htpasswd_filename = {root / "users"}
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = {storage}
[web]
type = none
[logging]
level = warning
""", encoding="utf-8")
    with open(root / "log", "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "radicale", "-C", str(root / "config")],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while not answers(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("Radicale did not start:\n"
                                + (root / "log").read_text(errors="replace"))
                time.sleep(0.1)
            yield Server(url=f"http://127.0.0.1:{port}/", storage=storage, user=user,
                         password=password)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


_USERS = itertools.count(1)


def new_user(radicale: Server) -> Server:
    """A new htpasswd user (same password) on the Radicale server ``radicale``: with rights
    ``owner_only`` it sees only its own collections, as on a server of its own (Radicale reads
    its htpasswd file at each login)."""
    user = f"user{next(_USERS)}"
    with (radicale.storage.parent / "users").open("a", encoding="utf-8") as f:
        f.write(f"{user}:{radicale.password}\n")
    return dataclasses.replace(radicale, user=user)


def publish(server: Server, plan: Path, monkeypatch: pytest.MonkeyPatch,
            url: str | None = None, password: str | None = None) -> tuple[int, str]:
    monkeypatch.setenv(PASSWORD_ENV, server.password if password is None else password)
    res = runner.invoke(app, ["publish", str(plan), "--caldav", url or server.url,
                              "--user", server.user])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def calendar_of(server: Server, cal_id: str) -> caldav.Calendar:
    client = caldav.DAVClient(url=server.url, username=server.user, password=server.password,
                              enable_rfc6764=False, timeout=10)
    for cal in client.principal().calendars():
        if str(cal.url).rstrip("/").endswith("/" + cal_id):
            return cal
    raise AssertionError(f"no calendar {cal_id} on the server")


def server_starts(server: Server, cal_id: str = OPERATOR) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for obj in calendar_of(server, cal_id).search(event=True):
        starts = starts_by_uid(obj.data)
        assert len(starts) == 1, "one UID per resource"
        out.update(starts)
    return out


def stored_mtimes(server: Server, cal_id: str = OPERATOR) -> dict[str, int]:
    folder = server.storage / "collection-root" / server.user / cal_id
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.ics")}


# --------------------------------------------------------------------------- the March scenario
MARCH_ROOM = {"id": "room", "name": "Bitterroot Card Room", "jurisdiction": "MT",
              "live_tables": 2}
MARCH_POST = {"id": "post", "name": "Legion Post 88", "jurisdiction": "ME",
              "organized_on": "1946-05-12", "local_approval": True,
              "beneficiaries": ["Post 88 Scholarship Fund"]}


def march(name: str = "Club 2027", year: int = 2027, domain: str | None = None,
               **tweak: Any) -> dict[str, Any]:
    """March of ``year``: Saturday Stack (MT large-stakes, room, 2 Saturdays, 12:00 + 10 h),
    Saturday Hold'em (ME game, post, 2 Saturdays, 12:00 + 6 h, timed) and Wednesday night (MT
    small-stakes, room, every Wednesday: a weekly series)."""
    sat = {"id": "sat", "title": "Saturday Stack", "type": "large-stakes", "operators": ["room"],
           "weekdays": ["sat"], "count": 2, "start_time": "12:00", "hours": 10,
           "entry_fee": 300}
    hold = {"id": "hold", "title": "Saturday Hold'em", "type": "tournament-game",
            "operators": ["post"], "weekdays": ["sat"], "count": 2, "start_time": "12:00",
            "hours": 6, "players": 40, "entry_fee": 50, "prize_share": 0.8}
    wed = {"id": "wed", "title": "Wednesday Night", "type": "small-stakes",
           "operators": ["room"], "weekdays": ["wed"], "count": "all", "start_time": "19:00",
           "hours": 4, "entry_fee": 40}
    data: dict[str, Any] = {
        "name": name, "horizon": {"start": f"{year}-03-01", "end": f"{year}-03-31"},
        "notice_from": f"{year}-01-15", "operators": [dict(MARCH_ROOM), dict(MARCH_POST)],
        "tournaments": [sat, hold, wed]}
    if domain:
        data["uid_domain"] = domain
    for key, value in tweak.items():  # "sat.start_time": "13:00", "room.blackout": [...]
        what, _, field = key.partition(".")
        for item in [*data["operators"], *data["tournaments"]]:
            if item["id"] == what:
                if value is None:
                    data["tournaments"].remove(item)
                else:
                    item[field] = value
    return data


def yaml_at(tmp: Path, name: str, data: dict[str, Any]) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def solve_to(scenario: Path, out: Path, *extra: str) -> Any:
    res = runner.invoke(app, ["solve", str(scenario), "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    return res


def csv_rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "schedule.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def vevents(data: bytes) -> dict[str, icalendar.Event]:
    return {str(e["UID"]): e for e in icalendar.Calendar.from_ical(data).walk("VEVENT")}


def client_view(versions: list[bytes]) -> dict[str, tuple[str, str]]:
    """What a calendar application holds after importing ``versions`` in order (RFC 5546
    §2.1.4: a higher SEQUENCE, or the same SEQUENCE and a later DTSTAMP, replaces; a
    CANCELLED one removes): UID -> (DTSTART, RRULE)."""
    held: dict[str, tuple[tuple[int, dt.datetime], bool, tuple[str, str]]] = {}
    for data in versions:
        for ev in icalendar.Calendar.from_ical(data).walk("VEVENT"):
            uid = str(ev["UID"])
            rank = (int(ev.get("SEQUENCE", 0)), ev.decoded("DTSTAMP"))
            if uid in held and held[uid][0] > rank:
                continue
            cancelled = str(ev.get("STATUS", "")).upper() == "CANCELLED"
            rrule = ev["RRULE"].to_ical().decode() if ev.get("RRULE") is not None else ""
            held[uid] = (rank, cancelled, (ev["DTSTART"].to_ical().decode(), rrule))
    return {u: v[2] for u, v in held.items() if not v[1]}



ROOM2 = {"id": "room2", "name": "Hellgate Card Room", "jurisdiction": "MT", "live_tables": 2,
         "address": "12 Front St, Missoula MT"}
SHARED = {"id": "shared", "title": "Two-Room Stack", "type": "large-stakes",
          "operators": ["room", "room2"], "weekdays": ["sun"], "count": 1,
          "start_time": "12:00", "hours": 10, "entry_fee": 300}


def shared_data(**tweak: Any) -> dict[str, Any]:
    """:func:`march` (March 2027) with a second Montana room and one large-stakes tournament
    played on both rooms' premises (SHARED, one Sunday)."""
    data = march(**tweak)
    data["operators"].append(dict(ROOM2))
    data["tournaments"].append(dict(SHARED))
    return data


def other_org(**tweak: Any) -> dict[str, Any]:
    """A copy of :func:`march` edited for another organization: the same scenario name,
    horizon and operator ids, its own operator names."""
    data = march(**tweak)
    data["operators"][0]["name"] = "Copper King Poker"
    data["operators"][1]["name"] = "Legion Post 12"
    return data


