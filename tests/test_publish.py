"""`tourney publish`: a plan's operator calendars into CalDAV collections.

The pure parts (splitting a calendar by UID, comparing, planning the PUTs and DELETEs) are
tested on bytes; the command is tested against a real Radicale server (the dev extra) started
on 127.0.0.1 with a free port, a temporary storage folder and an htpasswd user, and read back
with the caldav client and from the storage folder. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import radicale  # noqa: F401  (the dev extra; a missing install fails here, never skips)
from icalendar import Calendar
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

from builders.caldav import (
    OPERATOR,
    Server,
    calendar_of,
    ical,
    publish,
    server_starts,
    starts_by_uid,
    stored_mtimes,
    vevent,
)
from builders.servers import free_port

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("no_proxy")  # 127.0.0.1 directly, never a proxy


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
    timed = vevent("game-1@op", dt.datetime(2027, 1, 9, 12, tzinfo=ZoneInfo("America/New_York")))
    data = ical(vevent("due-1/x"), timed, vevent("gone-1", STATUS="CANCELLED"), tz=True)
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
    a = ical(vevent("u1", LOCATION="A long location " * 8))
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
    assert not same_content(a, ical(vevent("u1", dt.date(2027, 1, 10),
                                           LOCATION="A long location " * 8)))
    assert not same_content(a, ical(vevent("u1", LOCATION="Another place")))
    assert not same_content(a, "not a calendar")


def test_plan_sync_creates_updates_deletes_and_leaves_the_rest() -> None:
    cal = OperatorCalendar("op", "Op", {
        "same": ical(vevent("same")),
        "moved": ical(vevent("moved", dt.date(2027, 3, 1))),
        "new/1": ical(vevent("new/1")),
    }, frozenset({"cancelled"}))
    base = "http://h/u/op/"
    server = [
        ServerObject(base + "same.ics", ical(vevent("same")).decode(), '"e1"'),
        ServerObject(base + "custom-name.ics", ical(vevent("moved")).decode(), '"e2"'),
        ServerObject(base + "cancelled.ics", ical(vevent("cancelled")).decode(), '"e3"'),
        ServerObject(base + "old.ics", ical(vevent("old")).decode(), '"e4"'),
        ServerObject(base + "same-copy.ics", ical(vevent("same")).decode(), '"e5"'),
        ServerObject(base + "broken.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", '"e6"'),
        # an event a person added by hand (no X-TOURNEY- property, foreign UID): left alone
        ServerObject(base + "staff.ics", ical(vevent("staff-meeting-1@example",
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


def test_publish_round_trip_is_idempotent_and_follows_edits(
        server: Server, plan_dir: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ics = plan_dir / "calendars" / f"{OPERATOR}.ics"
    want = starts_by_uid(ics.read_bytes())
    n = len(want)
    assert n > 10

    code, out = publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    assert f"{OPERATOR} ({server.url}{server.user}/{OPERATOR}/, new calendar): {n} created, " \
           "0 updated, 0 deleted, 0 unchanged" in out
    assert server_starts(server) == want  # same UIDs, same DTSTART (and zone) per UID
    name = Calendar.from_ical(ics.read_bytes())["X-WR-CALNAME"]
    assert calendar_of(server, OPERATOR).get_display_name() == str(name)
    assert len(stored_mtimes(server)) == n

    # something that is not ours: a task in the operator's calendar, and another calendar
    client_cal = calendar_of(server, OPERATOR)
    todo = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VTODO\r\n"
            b"UID:todo-1\r\nDTSTAMP:20270101T000000Z\r\nSUMMARY:Order chips\r\n"
            b"END:VTODO\r\nEND:VCALENDAR\r\n")
    client_cal.client.put(str(client_cal.url) + "todo-1.ics", todo.decode(),
                          {"Content-Type": "text/calendar"})
    other = calendar_of(server, OPERATOR).client.principal().make_calendar(
        name="Personal", cal_id="personal")
    other.add_event(ical(vevent("mine-1")).decode())

    # the same plan again: nothing written
    before = stored_mtimes(server)
    code, out = publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    assert f"0 created, 0 updated, 0 deleted, {n} unchanged" in out
    assert "new calendar" not in out
    assert stored_mtimes(server) == before

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
    want = starts_by_uid(ics.read_bytes())
    assert dropped not in want and str(moved["UID"]) in want and cancelled in want

    code, out = publish(server, plan_dir, monkeypatch)
    assert code == 0, out
    # the cancelled one is put as cancelled (updated), the dropped one deleted
    assert f"0 created, 2 updated, 1 deleted, {n - 3} unchanged" in out
    got = server_starts(server)
    assert got == want
    assert got[str(moved["UID"])][0] == moved["DTSTART"].to_ical().decode()
    assert [str(o.icalendar_component.get("STATUS", "")) for o in
            calendar_of(server, OPERATOR).search(event=True)
            if str(o.icalendar_component["UID"]) == cancelled] == ["CANCELLED"]
    assert len(stored_mtimes(server)) == n - 1 + 1  # and the task

    # nothing else touched: the task and the other calendar are still there
    assert "todo-1.ics" in stored_mtimes(server)
    assert set(server_starts(server, "personal")) == {"mine-1"}
    code, out = publish(server, plan_dir, monkeypatch)
    assert code == 0 and f"0 created, 0 updated, 0 deleted, {n - 1} unchanged" in out


def test_wrong_password_is_exit_2_without_traceback(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = publish(server, plan_dir, monkeypatch, password="wrong")
    assert code == 2
    assert f"refused user '{server.user}'" in out and PASSWORD_ENV in out


def test_server_down_and_bad_url_are_exit_2(
        server: Server, plan_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    down = f"http://127.0.0.1:{free_port()}/"
    code, out = publish(server, plan_dir, monkeypatch, url=down)
    assert code == 2 and "cannot reach the CalDAV server" in out, out
    assert "connection refused" in out
    for bad in ("cal.example.org", "ftp://127.0.0.1/", "http://127.0.0.1:notaport/"):
        code, out = publish(server, plan_dir, monkeypatch, url=bad)
        assert code == 2 and "--caldav must be an http:// or https:// URL" in out, out


def test_not_a_plan_folder_is_exit_2(server: Server, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = publish(server, tmp_path, monkeypatch)
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
