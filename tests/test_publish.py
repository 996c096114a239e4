"""`tourney publish`: a plan's operator calendars into CalDAV collections.

The pure parts (splitting a calendar by UID, comparing, planning the PUTs and DELETEs) are
tested on bytes; the command is tested against a real Radicale server (the dev extra) started
on 127.0.0.1 with a free port, a temporary storage folder and an htpasswd user, and read back
with the caldav client and from the storage folder. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import caldav
import pytest
import radicale  # noqa: F401  (the dev extra; a missing install fails here, never skips)
from icalendar import Calendar, Event, Timezone
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.caldav.calendars import (
    OperatorCalendar,
    read_calendar,
    resource_name,
    same_content,
)
from scheduler.export.caldav.server import PASSWORD_ENV
from scheduler.export.caldav.sync import ServerObject, plan_sync

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
OPERATOR = "post-212"
runner = CliRunner()


# --------------------------------------------------------------------------- helpers
def _ics(*events: Event, tz: bool = False) -> bytes:
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


def _event(uid: str, start: dt.date = dt.date(2027, 1, 9), **props: str) -> Event:
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


def _starts(data: bytes | str) -> dict[str, tuple[str, str]]:
    """UID → (DTSTART value, its TZID or VALUE) of every VEVENT."""
    out = {}
    for ev in Calendar.from_ical(data).walk("VEVENT"):
        start = ev["DTSTART"]
        kind = str(start.params.get("TZID") or start.params.get("VALUE") or "UTC")
        out[str(ev["UID"])] = (start.to_ical().decode(), kind)
    return out


# --------------------------------------------------------------------------- pure logic
def test_resource_names_are_url_safe_and_distinct() -> None:
    assert resource_name("spring-1.x_y") == "spring-1.x_y.ics"
    a = resource_name("application-due-post-212/per-tournament/2027-01-09/x-1")
    b = resource_name("application-due-post-212_per-tournament_2027-01-09_x-1")
    c = resource_name("saturday-holdem-1@post-212.tourney")
    for name in (a, b, c):
        assert name.endswith(".ics") and "/" not in name and "@" not in name
        assert all(ch.isalnum() or ch in "._-" for ch in name)
    assert a != b
    assert not resource_name("../..").startswith(".")
    assert len(resource_name("x" * 1000)) < 200


def test_one_resource_per_uid_with_only_the_zones_it_needs() -> None:
    timed = _event("game-1@op", dt.datetime(2027, 1, 9, 12, tzinfo=ZoneInfo("America/New_York")))
    data = _ics(_event("due-1/x"), timed, _event("gone-1", STATUS="CANCELLED"), tz=True)
    cal = read_calendar("op", data)
    assert cal.name == "Test calendar"
    # a cancelled event is put as cancelled: the server holds what the calendar holds
    assert sorted(cal.resources) == ["due-1/x", "game-1@op", "gone-1"]
    assert cal.cancelled == frozenset({"gone-1"})
    assert "STATUS:CANCELLED" in cal.resources["gone-1"].decode()
    game = Calendar.from_ical(cal.resources["game-1@op"])
    due = Calendar.from_ical(cal.resources["due-1/x"])
    assert [c.name for c in game.subcomponents] == ["VTIMEZONE", "VEVENT"]
    assert [c.name for c in due.subcomponents] == ["VEVENT"]
    for res in (game, due):  # RFC 4791 §4.1: no METHOD in a stored calendar object
        assert "METHOD" not in res and res["VERSION"] == "2.0"


def test_same_content_ignores_order_folding_and_dtstamp_only() -> None:
    a = _ics(_event("u1", LOCATION="A long location " * 8))
    text = a.decode()
    lines = text.split("\r\n")
    # the same event with its properties in another order, unfolded, LF line ends, new DTSTAMP
    unfolded = text.replace("\r\n ", "").split("\r\n")
    begin, end = unfolded.index("BEGIN:VEVENT"), unfolded.index("END:VEVENT")
    body = [ln.replace("20261220T000000Z", "20300101T000000Z")
            for ln in reversed(unfolded[begin + 1:end])]
    b = "\n".join([*unfolded[:begin + 1], *body, *unfolded[end:]])
    assert lines != b.split("\n")
    assert same_content(a, b)
    assert not same_content(a, _ics(_event("u1", dt.date(2027, 1, 10),
                                           LOCATION="A long location " * 8)))
    assert not same_content(a, _ics(_event("u1", LOCATION="Another place")))
    assert not same_content(a, "not a calendar")


def test_plan_sync_creates_updates_deletes_and_leaves_the_rest() -> None:
    cal = OperatorCalendar("op", "Op", {
        "same": _ics(_event("same")),
        "moved": _ics(_event("moved", dt.date(2027, 3, 1))),
        "new/1": _ics(_event("new/1")),
    }, frozenset({"cancelled"}))
    base = "http://h/u/op/"
    server = [
        ServerObject(base + "same.ics", _ics(_event("same")).decode(), '"e1"'),
        ServerObject(base + "custom-name.ics", _ics(_event("moved")).decode(), '"e2"'),
        ServerObject(base + "cancelled.ics", _ics(_event("cancelled")).decode(), '"e3"'),
        ServerObject(base + "old.ics", _ics(_event("old")).decode(), '"e4"'),
        ServerObject(base + "same-copy.ics", _ics(_event("same")).decode(), '"e5"'),
        ServerObject(base + "broken.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", '"e6"'),
        # an event a person added by hand (no X-TOURNEY- property, foreign UID): left alone
        ServerObject(base + "staff.ics", _ics(_event("staff-meeting-1@example",
                                                     hand_made="yes")).decode(), '"e7"'),
    ]
    plan = plan_sync(cal, server, base.rstrip("/"))
    got = sorted((c.action, c.uid, c.href, c.etag) for c in plan.changes)
    assert got == [
        ("create", "new/1", base + resource_name("new/1"), None),
        ("delete", "cancelled", base + "cancelled.ics", '"e3"'),
        ("delete", "old", base + "old.ics", '"e4"'),
        ("delete", "same", base + "same-copy.ics", '"e5"'),  # a second copy of one UID
        ("update", "moved", base + "custom-name.ics", '"e2"'),  # keeps the server's name
    ]
    assert plan.unchanged == ["same"]


# --------------------------------------------------------------------------- a real server
@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Talk to 127.0.0.1 directly even where a proxy is configured."""
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(var, "127.0.0.1,localhost")


@dataclass(frozen=True)
class Server:
    url: str
    storage: Path
    user: str = "alice"
    password: str = "s3cret pass"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(port: int) -> bool:
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
    port = _free_port()
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
            while not _answers(port):
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with radicale_server(tmp_path_factory.mktemp("radicale")) as srv:
        yield srv


@pytest.fixture(scope="module")
def plan_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("solve") / "plan"
    res = runner.invoke(app, ["solve", str(EXAMPLES / "maine-legion-post.yaml"),
                              "--out", str(out)])
    assert res.exit_code in (0, 1), res.output  # 1: optional games left out is still a plan
    assert (out / "calendars" / f"{OPERATOR}.ics").is_file()
    return out


def _publish(server: Server, plan: Path, monkeypatch: pytest.MonkeyPatch,
             url: str | None = None, password: str | None = None) -> tuple[int, str]:
    monkeypatch.setenv(PASSWORD_ENV, server.password if password is None else password)
    res = runner.invoke(app, ["publish", str(plan), "--caldav", url or server.url,
                              "--user", server.user])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def _calendar(server: Server, cal_id: str) -> caldav.Calendar:
    client = caldav.DAVClient(url=server.url, username=server.user, password=server.password,
                              enable_rfc6764=False, timeout=10)
    for cal in client.principal().calendars():
        if str(cal.url).rstrip("/").endswith("/" + cal_id):
            return cal
    raise AssertionError(f"no calendar {cal_id} on the server")


def _server_starts(server: Server, cal_id: str = OPERATOR) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for obj in _calendar(server, cal_id).search(event=True):
        starts = _starts(obj.data)
        assert len(starts) == 1, "one UID per resource"
        out.update(starts)
    return out


def _stored(server: Server, cal_id: str = OPERATOR) -> dict[str, int]:
    folder = server.storage / "collection-root" / server.user / cal_id
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.ics")}


def test_publish_round_trip_is_idempotent_and_follows_edits(
        server: Server, plan_dir: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ics = plan_dir / "calendars" / f"{OPERATOR}.ics"
    want = _starts(ics.read_bytes())
    n = len(want)
    assert n > 10

    code, out = _publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    assert f"{OPERATOR} ({server.url}{server.user}/{OPERATOR}/, new calendar): {n} created, " \
           "0 updated, 0 deleted, 0 unchanged" in out
    assert _server_starts(server) == want  # same UIDs, same DTSTART (and zone) per UID
    name = Calendar.from_ical(ics.read_bytes())["X-WR-CALNAME"]
    assert _calendar(server, OPERATOR).get_display_name() == str(name)
    assert len(_stored(server)) == n

    # something that is not ours: a task in the operator's calendar, and another calendar
    client_cal = _calendar(server, OPERATOR)
    todo = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VTODO\r\n"
            b"UID:todo-1\r\nDTSTAMP:20270101T000000Z\r\nSUMMARY:Order chips\r\n"
            b"END:VTODO\r\nEND:VCALENDAR\r\n")
    client_cal.client.put(str(client_cal.url) + "todo-1.ics", todo.decode(),
                          {"Content-Type": "text/calendar"})
    other = _calendar(server, OPERATOR).client.principal().make_calendar(
        name="Personal", cal_id="personal")
    other.add_event(_ics(_event("mine-1")).decode())

    # the same plan again: nothing written
    before = _stored(server)
    code, out = _publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    assert f"0 created, 0 updated, 0 deleted, {n} unchanged" in out
    assert "new calendar" not in out
    assert _stored(server) == before

    # edit the plan: drop one event, cancel one, move one
    cal = Calendar.from_ical(ics.read_bytes())
    events = [c for c in cal.subcomponents if c.name == "VEVENT"]
    games = [e for e in events if "X-TOURNEY-TOURNAMENT" in e]
    dropped, cancelled, moved = str(games[0]["UID"]), str(games[1]["UID"]), games[2]
    cal.subcomponents.remove(games[0])
    games[1].add("status", "CANCELLED")
    for prop in ("DTSTART", "DTEND"):
        when = moved.decoded(prop) + dt.timedelta(days=7)
        del moved[prop]
        moved.add(prop, when)
    ics.write_bytes(cal.to_ical())
    want = _starts(ics.read_bytes())
    assert dropped not in want and str(moved["UID"]) in want and cancelled in want

    code, out = _publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    # the cancelled one is put as cancelled (updated), the dropped one deleted
    assert f"0 created, 2 updated, 1 deleted, {n - 3} unchanged" in out
    got = _server_starts(server)
    assert got == want
    assert got[str(moved["UID"])][0] == moved["DTSTART"].to_ical().decode()
    assert [str(o.icalendar_component.get("STATUS", "")) for o in
            _calendar(server, OPERATOR).search(event=True)
            if str(o.icalendar_component["UID"]) == cancelled] == ["CANCELLED"]
    assert len(_stored(server)) == n - 1 + 1  # and the task

    # nothing else touched: the task and the other calendar are still there
    assert "todo-1.ics" in _stored(server)
    assert set(_server_starts(server, "personal")) == {"mine-1"}
    code, out = _publish(server, plan_dir, monkeypatch)
    assert code == 0 and f"0 created, 0 updated, 0 deleted, {n - 1} unchanged" in out


def test_wrong_password_is_exit_2_without_traceback(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _publish(server, plan_dir, monkeypatch, password="wrong")
    assert code == 2
    assert "refused user 'alice'" in out and PASSWORD_ENV in out


def test_server_down_and_bad_url_are_exit_2(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    down = f"http://127.0.0.1:{_free_port()}/"
    code, out = _publish(server, plan_dir, monkeypatch, url=down)
    assert code == 2 and "cannot reach the CalDAV server" in out, out
    assert "connection refused" in out
    for bad in ("cal.example.org", "ftp://127.0.0.1/", "http://127.0.0.1:notaport/"):
        code, out = _publish(server, plan_dir, monkeypatch, url=bad)
        assert code == 2 and "--caldav must be an http:// or https:// URL" in out, out


def test_not_a_plan_folder_is_exit_2(server: Server, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _publish(server, tmp_path, monkeypatch)
    assert code == 2 and "not a plan folder" in out


def test_password_comes_from_the_environment_or_the_prompt_never_a_flag(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["publish", str(plan_dir), "--caldav", server.url, "--user", server.user]
    res = runner.invoke(app, [*args, "--password", server.password])
    assert res.exit_code == 2 and "No such option" in res.output
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    res = runner.invoke(app, args, input="")
    assert res.exit_code == 2 and PASSWORD_ENV in res.output
    res = runner.invoke(app, args, input=server.password + "\n")
    assert res.exit_code == 0, res.output
    assert "Published 1 calendar(s)" in res.output
