"""A re-plan's calendars follow the truth (issue #22 item 4): ``tourney solve --previous``.

1. A venue that leaves the scenario, or leaves a shared tournament: its published future
   events are cancelled in its own calendar (STATUS:CANCELLED, same UID, SEQUENCE + 1), and
   the summary says so in plain words; its past events stay as published.
2. Any change to an event's content (title, description, place, time, status) raises its
   SEQUENCE over the previous plan's; an unchanged event keeps it.
3. A deadline event before the day the plan is made as of (today ``notice_from``,
   ``scheduler.core.timing.made_day``) is carried exactly as published, never rewritten.
4. After ``tourney publish`` the CalDAV server (a real Radicale, tests/conftest.py) holds
   exactly what the plan's calendars hold, cancellations included.

The plan of every test: March 2027 (``_data`` of test_calendar_identity.py: Saturday Stack
at room, Sat Mar 6 and 13; Saturday Hold'em at post, Mar 6 and 13; Wednesday Night at room,
a weekly series), notice_from 2027-01-15, with a second Montana room (room2, Hellgate Card
Room), the Two-Room Stack shared by room and room2 (one Sunday) and Hellgate Stack at room2
alone (one Sunday); the solver places them on Sun Mar 7 and Sun Mar 14 (asserted first).
MT-NOTICE is due 5 days before a first day (MCA 23-5-317(1)(d)): Mar 7 -> Tue Mar 2, Mar
14 -> Tue Mar 9.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import icalendar
import pytest

from scheduler.core.uid import DEFAULT_DOMAIN, lineage_key
from scheduler.inputs.load import load_scenario

from builders.caldav import ROOM2, SHARED, Server, calendar_of, march, publish, solve_to, yaml_at

# Hellgate Stack from Mar 8: the Sundays left are Mar 14, 21, 28, so the earliest days put
# the shared stack on Sun Mar 7 and Hellgate Stack on Sun Mar 14 (no tie to break)
HELL = {**SHARED, "id": "hell", "title": "Hellgate Stack", "operators": ["room2"],
        "window": {"start": "2027-03-08", "end": "2027-03-31"}}


def _v1() -> dict[str, Any]:
    data = march()
    data["operators"].append(dict(ROOM2))
    data["tournaments"] += [dict(SHARED), dict(HELL)]
    return data


def vevents(path: Path) -> dict[str, icalendar.Event]:
    """UID -> VEVENT of one calendar file (each UID once per file)."""
    events = icalendar.Calendar.from_ical(path.read_bytes()).walk("VEVENT")
    uids = [str(e["UID"]) for e in events]
    assert len(uids) == len(set(uids)), "a UID twice in one file"
    return {str(e["UID"]): e for e in events}


def _raw(path: Path) -> dict[str, str]:
    """UID -> the VEVENT's text exactly as written (CRLF, folded)."""
    text = path.read_bytes().decode("utf-8")
    out = {}
    for block in re.findall(r"BEGIN:VEVENT\r\n.*?END:VEVENT\r\n", text, re.S):
        uid = re.search(r"^UID:(.*?)\r$", re.sub(r"\r\n ", "", block), re.M)
        assert uid is not None
        out[uid.group(1)] = block
    return out


def _state(path: Path) -> dict[str, tuple[int, str]]:
    """UID -> (SEQUENCE, STATUS) of one calendar file."""
    return {u: (int(e.get("SEQUENCE", 0)), str(e.get("STATUS", "")))
            for u, e in vevents(path).items()}


@pytest.fixture(scope="module")
def v1(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The first plan's folder and the lineage's UID tail (``@<host>.<key>.<domain>``
    without the host)."""
    tmp = tmp_path_factory.mktemp("v1")
    src = yaml_at(tmp, "v1", _v1())
    solve_to(src, tmp / "v1")
    return tmp / "v1", f"{lineage_key(load_scenario(src))}.{DEFAULT_DOMAIN}"


def _uids(key: str) -> dict[str, str]:
    return {
        "shared": f"shared-1@room.{key}", "hell": f"hell-1@room2.{key}",
        "n-shared-room": f"notice-room.shared-1@room.{key}",
        "n-shared-room2": f"notice-room2.shared-1@room.{key}",
        "n-hell": f"notice-room2.hell-1@room2.{key}",
        "sat1": f"sat-1@room.{key}", "sat2": f"sat-2@room.{key}",
        "n-sat1": f"notice-room.sat-1@room.{key}", "n-sat2": f"notice-room.sat-2@room.{key}",
    }


def test_first_plan_is_as_the_tests_read_it(v1: tuple[Path, str]) -> None:
    folder, key = v1
    u = _uids(key)
    days = {uid: e.decoded("DTSTART") for uid, e in vevents(folder / "calendar.ics").items()}
    assert (days[u["shared"]], days[u["hell"]]) == (dt.date(2027, 3, 7), dt.date(2027, 3, 14))
    assert (days[u["n-shared-room2"]], days[u["n-hell"]]) == (dt.date(2027, 3, 2),
                                                               dt.date(2027, 3, 9))
    # room2's calendar: the shared stack, its notice, Hellgate Stack and its notice
    assert set(_state(folder / "calendars" / "room2.ics")) == {
        u["shared"], u["n-shared-room2"], u["hell"], u["n-hell"]}


# =========================================================================== 1. venues leave
def test_venue_that_leaves_the_scenario_has_its_future_events_cancelled(
        v1: tuple[Path, str], tmp_path: Path) -> None:
    # v2: room2 is gone; the shared stack is room's alone, Hellgate Stack is gone
    folder, key = v1
    u = _uids(key)
    v2 = march()
    v2["tournaments"].append({**SHARED, "operators": ["room"]})
    res = solve_to(yaml_at(tmp_path, "v2", v2), tmp_path / "v2", "--previous", str(folder))
    # 4 events were on room2's calendar, all on or after notice_from 2027-01-15: 4 cancelled
    line = ("Hellgate Card Room (room2) left the plan: its 4 future events are cancelled on "
            "its calendar (calendars/room2.ics).")
    assert line in res.output
    assert line in (tmp_path / "v2" / "summary.txt").read_text(encoding="utf-8")
    # its calendar is still written, every event cancelled under its UID, SEQUENCE 0 + 1
    assert _state(tmp_path / "v2" / "calendars" / "room2.ics") == {
        u["shared"]: (1, "CANCELLED"), u["n-shared-room2"]: (1, "CANCELLED"),
        u["hell"]: (1, "CANCELLED"), u["n-hell"]: (1, "CANCELLED")}
    # the whole plan: the shared stack goes on at room (its place changed: SEQUENCE 1);
    # what only room2 showed is cancelled there too
    whole = _state(tmp_path / "v2" / "calendar.ics")
    assert whole[u["shared"]] == (1, "")
    assert {x: whole[u[x]] for x in ("hell", "n-hell", "n-shared-room2")} == {
        "hell": (1, "CANCELLED"), "n-hell": (1, "CANCELLED"),
        "n-shared-room2": (1, "CANCELLED")}
    shared = vevents(tmp_path / "v2" / "calendar.ics")[u["shared"]]
    assert str(shared["LOCATION"]) == "Bitterroot Card Room"
    assert str(shared["X-TOURNEY-OPERATORS"]) == "room"
    # room's own calendar shows the shared stack live; nothing else changed: SEQUENCE 0
    room = _state(tmp_path / "v2" / "calendars" / "room.ics")
    assert room.pop(u["shared"]) == (1, "")
    assert set(room.values()) == {(0, "")}
    assert set(_state(tmp_path / "v2" / "calendars" / "post.ics").values()) == {(0, "")}


def test_venue_that_leaves_a_shared_tournament_has_its_copy_cancelled(
        v1: tuple[Path, str], tmp_path: Path) -> None:
    # v2: room2 stays (Hellgate Stack too) but leaves the Two-Room Stack
    folder, key = v1
    u = _uids(key)
    v2 = _v1()
    v2["tournaments"] = [{**t, "operators": ["room"]} if t["id"] == "shared" else t
                         for t in v2["tournaments"]]
    res = solve_to(yaml_at(tmp_path, "v2", v2), tmp_path / "v2", "--previous", str(folder))
    # room2 showed 2 events of it: the stack (Sun Mar 7) and its notice (Tue Mar 2)
    assert ("Hellgate Card Room (room2) left 'Two-Room Stack': its 2 future events are "
            "cancelled on its calendar (calendars/room2.ics).") in res.output
    assert "left the plan" not in res.output
    assert _state(tmp_path / "v2" / "calendars" / "room2.ics") == {
        u["shared"]: (1, "CANCELLED"), u["n-shared-room2"]: (1, "CANCELLED"),
        u["hell"]: (0, ""), u["n-hell"]: (0, "")}
    # the whole plan holds the stack once, live (room's), SEQUENCE 1 (its place changed)
    whole = _state(tmp_path / "v2" / "calendar.ics")
    assert whole[u["shared"]] == (1, "")
    assert whole[u["n-shared-room2"]] == (1, "CANCELLED")
    assert _state(tmp_path / "v2" / "calendars" / "room.ics")[u["shared"]] == (1, "")
    # unchanged: Hellgate Stack and its notice, byte for byte but DTSTAMP
    before, after = _raw(folder / "calendar.ics"), _raw(tmp_path / "v2" / "calendar.ics")
    for x in ("hell", "n-hell"):
        assert _no_stamp(after[u[x]]) == _no_stamp(before[u[x]])


def _no_stamp(block: str) -> str:
    """The event without DTSTAMP and X-TOURNEY-STATUS (schedule.csv's status: ``new`` in the
    first plan, ``announced`` in the re-plan; what happened, not the event's content)."""
    return re.sub(r"\r\n(DTSTAMP:[0-9TZ]+|X-TOURNEY-STATUS:[a-z]+)", "", block)


def test_venue_that_leaves_keeps_its_past_events_as_published(
        v1: tuple[Path, str], tmp_path: Path) -> None:
    # v2 made as of Wed 2027-03-10 (notice_from, scheduler.core.timing.made_day): room2 is gone.
    # Past on Mar 10: its notice of Tue Mar 2, the shared stack of Sun Mar 7 and the notice
    # of Tue Mar 9: carried as published in its calendar; future: Hellgate Stack of Sun
    # Mar 14, cancelled (SEQUENCE 1)
    folder, key = v1
    u = _uids(key)
    v2 = march()
    v2["notice_from"] = "2027-03-10"
    v2["tournaments"].append({**SHARED, "operators": ["room"]})
    res = solve_to(yaml_at(tmp_path, "v2", v2), tmp_path / "v2", "--previous", str(folder))
    assert ("Hellgate Card Room (room2) left the plan: its 1 future event is cancelled on "
            "its calendar (calendars/room2.ics).") in res.output
    mine = tmp_path / "v2" / "calendars" / "room2.ics"
    assert _state(mine) == {u["shared"]: (0, ""), u["n-shared-room2"]: (0, ""),
                            u["n-hell"]: (0, ""), u["hell"]: (1, "CANCELLED")}
    before = _raw(folder / "calendars" / "room2.ics")
    after = _raw(mine)
    for x in ("shared", "n-shared-room2", "n-hell"):
        assert after[u[x]] == before[u[x]]  # byte-identical, DTSTAMP included
    # the whole plan holds the shared stack once, room's; Hellgate Stack cancelled
    whole = _state(tmp_path / "v2" / "calendar.ics")
    assert whole[u["hell"]] == (1, "CANCELLED")
    assert whole[u["shared"]][1] == ""


# =========================================================================== 2. SEQUENCE
def test_renamed_event_gets_a_higher_sequence_and_unchanged_ones_keep_theirs(
        v1: tuple[Path, str], tmp_path: Path) -> None:
    folder, key = v1
    u = _uids(key)
    renamed = _v1()
    for t in renamed["tournaments"]:
        if t["id"] == "sat":
            t["title"] = "Saturday Big Stack"
    solve_to(yaml_at(tmp_path, "v2", renamed), tmp_path / "v2", "--previous", str(folder))
    first, second = _state(folder / "calendar.ics"), _state(tmp_path / "v2" / "calendar.ics")
    # the two stacks and their notices (the title is in the notice's SUMMARY): 0 -> 1
    changed = {u[x] for x in ("sat1", "sat2", "n-sat1", "n-sat2")}
    assert {x: second[x] for x in changed} == dict.fromkeys(changed, (1, ""))
    assert str(vevents(tmp_path / "v2" / "calendar.ics")[u["sat1"]]["SUMMARY"]) == \
        "Saturday Big Stack"
    # everything else: the same SEQUENCE (0), the same content
    assert set(first) == set(second)
    assert {x: s for x, s in second.items() if x not in changed} == \
        {x: (0, "") for x in first if x not in changed}
    before, after = _raw(folder / "calendar.ics"), _raw(tmp_path / "v2" / "calendar.ics")
    assert all(_no_stamp(after[x]) == _no_stamp(before[x]) for x in first if x not in changed)
    # re-planned again unchanged: SEQUENCE stays 1 (not 2); renamed again: 2
    solve_to(yaml_at(tmp_path, "v3", renamed), tmp_path / "v3", "--previous",
             str(tmp_path / "v2"))
    assert _state(tmp_path / "v3" / "calendar.ics") == second
    for t in renamed["tournaments"]:
        if t["id"] == "sat":
            t["title"] = "Saturday Biggest Stack"
    solve_to(yaml_at(tmp_path, "v4", renamed), tmp_path / "v4", "--previous",
             str(tmp_path / "v3"))
    fourth = _state(tmp_path / "v4" / "calendar.ics")
    assert {x: fourth[x] for x in changed} == dict.fromkeys(changed, (2, ""))


def test_new_start_time_and_description_raise_sequence(
        v1: tuple[Path, str], tmp_path: Path) -> None:
    # the Hold'em games start at 13:00 instead of 12:00 (same days): the two games change
    # (DTSTART), SEQUENCE 0 -> 1; the Saturday Stack's entry fee $300 -> $250 is only in its
    # DESCRIPTION: 0 -> 1 as well
    folder, key = v1
    data = _v1()
    for t in data["tournaments"]:
        if t["id"] == "hold":
            t["start_time"] = "13:00"
        if t["id"] == "sat":
            t["entry_fee"] = 250
    solve_to(yaml_at(tmp_path, "v2", data), tmp_path / "v2", "--previous", str(folder))
    after = _state(tmp_path / "v2" / "calendar.ics")
    assert after[f"hold-1@post.{key}"] == after[f"hold-2@post.{key}"] == (1, "")
    assert after[f"sat-1@room.{key}"] == after[f"sat-2@room.{key}"] == (1, "")
    assert after[f"hell-1@room2.{key}"] == (0, "")


# =========================================================================== 3. deadlines
def test_past_deadline_events_are_carried_as_published(
        v1: tuple[Path, str], tmp_path: Path) -> None:
    # v1 was made as of 2027-01-15: the Hold'em applications' windows "open" that day (90
    # days before Mar 6 is 2026-12-06, before notice_from). v2 is made as of 2027-02-01 with
    # nothing else changed: the re-plan computes the windows opening 2027-02-01, but the
    # events of Jan 15 are past: carried byte for byte (DTSTAMP and SEQUENCE 0 included).
    folder, key = v1
    data = _v1()
    data["notice_from"] = "2027-02-01"
    solve_to(yaml_at(tmp_path, "v2", data), tmp_path / "v2", "--previous", str(folder))
    before, after = _raw(folder / "calendar.ics"), _raw(tmp_path / "v2" / "calendar.ics")
    opens = [x for x in before if x.startswith("application-opens-")]
    assert len(opens) == 2
    for x in opens:
        assert after[x] == before[x]
        assert "DTSTART;VALUE=DATE:20270115" in after[x]
    post = _raw(tmp_path / "v2" / "calendars" / "post.ics")
    assert all(post[x] == before[x] for x in opens)
    # the deadlines after Feb 1 are written as the re-plan says (MT notices of Mar 1..9,
    # application due Feb 22 and Mar 1, reports): not carried
    assert vevents(tmp_path / "v2" / "calendar.ics")[
        f"notice-room.sat-1@room.{key}"].decoded("DTSTART") == dt.date(2027, 3, 1)


# =========================================================================== 4. publish
def test_server_holds_what_the_plans_calendars_hold(
        server: Server, v1: tuple[Path, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder, key = v1
    u = _uids(key)
    code, out = publish(server, folder, monkeypatch)
    assert code == 0, out
    # v2: room2 leaves the scenario, the Saturday Stack is renamed
    v2 = march(**{"sat.title": "Saturday Big Stack"})
    v2["tournaments"].append({**SHARED, "operators": ["room"]})
    solve_to(yaml_at(tmp_path, "v2", v2), tmp_path / "v2", "--previous", str(folder))
    code, out = publish(server, tmp_path / "v2", monkeypatch)
    assert code == 0, out
    for op in ("room", "room2", "post"):
        want = _state(tmp_path / "v2" / "calendars" / f"{op}.ics")
        got = {str(o.icalendar_component["UID"]): (
            int(o.icalendar_component.get("SEQUENCE", 0)),
            str(o.icalendar_component.get("STATUS", "")))
            for o in calendar_of(server, op).search(event=True)}
        assert got == want, op
    # room2's 4 events are on the server, cancelled (4 updated); room: the 2 renamed stacks,
    # their 2 notices and the shared stack (its place) updated
    assert "room2 (" in out and ": 0 created, 4 updated, 0 deleted, 0 unchanged" in out
    room = next(ln for ln in out.splitlines() if ln.startswith("room ("))
    assert room.endswith(": 0 created, 5 updated, 0 deleted, 2 unchanged"), out
    stored = {str(o.icalendar_component["UID"]): o.icalendar_component
              for o in calendar_of(server, "room2").search(event=True)}
    assert str(stored[u["hell"]]["STATUS"]) == "CANCELLED"
    # publishing again changes nothing: room 7 + room2 4 + post 8 (2 games, 2 windows
    # opening, 2 applications due, 2 reports) = 19 events
    code, out = publish(server, tmp_path / "v2", monkeypatch)
    assert code == 0 and out.splitlines()[-1].endswith(
        ": 0 created, 0 updated, 0 deleted, 19 unchanged."), out
