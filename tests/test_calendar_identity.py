"""Calendars that stay right across versions, years and organizations (issue #11 parts 1-4, 6).

1. UIDs unique across years, plans and organizations (``scheduler.core.uid``: a UID domain and a
   plan-lineage key), kept by ``--previous``; ``tourney publish`` never overwrites or deletes
   another lineage's events (against the real Radicale server of tests/conftest.py).
2. A cancellation is carried in every later version until its date has passed, with the
   value type (timed or all-day) the event was published with.
3. ``--previous calendar.ics`` sees what the folder sees (times, a series' nights).
4. schedule.csv and calendar.ics share one identity (series UID + RECURRENCE-ID).
6. ``tourney check`` reads Outlook's midnight-to-midnight all-day events, and whose calendar a
   file is from its content (``--operator``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from dataclasses import replace
from pathlib import Path

import icalendar
import pytest
import recurring_ical_events
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.uid import DEFAULT_DOMAIN, lineage_key, parse
from scheduler.engine.solver import solve
from scheduler.export.caldav.calendars import OperatorCalendar
from scheduler.export.caldav.sync import ServerObject, plan_sync
from scheduler.export.ical import calendar_files
from scheduler.inputs.load import load_scenario
from scheduler.inputs.replan.previous import previous_events, previous_series
from scheduler.inputs.replan.read import read_previous

from builders.caldav import (
    Server,
    calendar_of,
    client_view,
    csv_rows,
    march,
    publish,
    solve_to,
    stored_mtimes,
    vevents,
    yaml_at,
)

pytestmark = pytest.mark.usefixtures("no_proxy")  # 127.0.0.1 directly, never a proxy

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# =========================================================================== 1. identity
def test_uid_names_the_domain_and_the_lineage(tmp_path: Path) -> None:
    # lineage key = first 10 hex digits of SHA-256 of the JSON list [name, horizon start,
    # horizon end, [[operator id, name, address, jurisdiction, organized_on, UID domain],
    # ...] sorted]
    src = yaml_at(tmp_path, "a", march(domain="legion-post-88.example.org"))
    text = ('["Club 2027","2027-03-01","2027-03-31",['
            '["post","Legion Post 88","","ME","1946-05-12","legion-post-88.example.org"],'
            '["room","Bitterroot Card Room","","MT","","legion-post-88.example.org"]]]')
    key = hashlib.sha256(text.encode()).hexdigest()[:10]
    assert lineage_key(load_scenario(src)) == key
    out = tmp_path / "A"
    solve_to(src, out)
    uids = {(r["tournament_id"], r["occurrence"]): r["uid"] for r in csv_rows(out)}
    assert uids[("sat", "1")] == f"sat-1@room.{key}.legion-post-88.example.org"
    assert uids[("hold", "2")] == f"hold-2@post.{key}.legion-post-88.example.org"
    # Wednesdays of March 2027: 3, 10, 17, 24, 31 -> one series, 5 rows with its UID
    assert [r["recurrence_id"] for r in csv_rows(out) if r["tournament_id"] == "wed"] == [
        "2027-03-03", "2027-03-10", "2027-03-17", "2027-03-24", "2027-03-31"]
    assert {uids[("wed", str(k))] for k in range(1, 6)} == {
        f"wed.series@room.{key}.legion-post-88.example.org"}
    events = vevents((out / "calendar.ics").read_bytes())
    assert all(u.endswith("@room." + key + ".legion-post-88.example.org")
               or u.endswith("@post." + key + ".legion-post-88.example.org") for u in events)
    assert {str(e["X-TOURNEY-LINEAGE"]) for e in events.values()} == {key}
    # the default domain when none is set: the reserved .invalid (RFC 6761)
    plain = yaml_at(tmp_path, "b", march())
    solve_to(plain, tmp_path / "B")
    assert csv_rows(tmp_path / "B")[0]["uid"].endswith(
        f".{lineage_key(load_scenario(plain))}.{DEFAULT_DOMAIN}")


def test_next_year_and_another_organization_share_no_uid(tmp_path: Path) -> None:
    # next year's plan made from a copy of this year's file (only the year changed), and
    # another organization whose room is also called "room": three plans, no UID in common
    plans = {"2027": march(), "2028": march(year=2028),
             "other": march(name="Saco Bay Club", domain="saco-bay.example.org")}
    seen: dict[str, set[str]] = {}
    for name, data in plans.items():
        solve_to(yaml_at(tmp_path, name, data), tmp_path / name)
        seen[name] = set(vevents((tmp_path / name / "calendar.ics").read_bytes()))
        assert len(seen[name]) > 5
    assert not seen["2027"] & seen["2028"]
    assert not seen["2027"] & seen["other"]
    assert not seen["2028"] & seen["other"]


def test_rerun_is_byte_identical_and_previous_keeps_the_lineage(tmp_path: Path) -> None:
    src = yaml_at(tmp_path, "a", march())
    solve_to(src, tmp_path / "A")
    solve_to(src, tmp_path / "A2")
    assert _files(tmp_path / "A") == _files(tmp_path / "A2")
    before = _files(tmp_path / "A")
    res = solve_to(src, tmp_path / "A")  # the same folder again: warned, same bytes
    assert "--previous" in res.output
    assert _files(tmp_path / "A") == before
    # next year re-planned from this year's plan: the lineage (and every kept UID) goes on
    nxt = yaml_at(tmp_path, "b", march(year=2028))
    solve_to(nxt, tmp_path / "B", "--previous", str(tmp_path / "A"))
    key = lineage_key(load_scenario(src))
    assert key != lineage_key(load_scenario(nxt))
    assert {parse(r["uid"]).lineage for r in csv_rows(tmp_path / "B")} == {key}  # type: ignore[union-attr]


def test_edited_scenario_in_the_same_folder_raises_sequence_and_dtstamp(tmp_path: Path) -> None:
    # v1: Saturday Stack on Mar 6 (sat-1) and Mar 13 (sat-2). v2 blacks out Mar 6 at the
    # room: a fresh plan numbers by date, sat-1 = Mar 13 and sat-2 = Mar 20: both UIDs now
    # name other dates, so both get SEQUENCE 0 + 1 = 1 and a DTSTAMP after v1's
    # (2027-01-15T00:00:00Z + 1 s), or clients that imported v1 would ignore the change.
    out = tmp_path / "P"
    solve_to(yaml_at(tmp_path, "v1", march()), out)
    v1 = vevents((out / "calendar.ics").read_bytes())
    res = solve_to(yaml_at(tmp_path, "v2", march(**{"room.blackout": ["2027-03-06"]})), out)
    assert "holds an earlier plan" in res.output and f"--previous {out}" in res.output
    v2 = vevents((out / "calendar.ics").read_bytes())
    sat = {u: e for u, e in v2.items() if u.startswith("sat-")}
    assert sorted((u.split("@")[0], e.decoded("DTSTART"), int(e["SEQUENCE"]))
                  for u, e in sat.items()) == [
        ("sat-1", dt.date(2027, 3, 13), 1), ("sat-2", dt.date(2027, 3, 20), 1)]
    for uid, ev in sat.items():
        assert v1[uid].decoded("DTSTART") != ev.decoded("DTSTART")
        assert ev.decoded("DTSTAMP") == dt.datetime(2027, 1, 15, 0, 0, 1, tzinfo=dt.UTC)
    # an event that did not change keeps its SEQUENCE: Saturday Hold'em (ME) is not touched
    hold = [u for u in v2 if u.startswith("hold-1@")]
    assert [int(v2[u]["SEQUENCE"]) for u in hold] == [0]


def test_publish_keeps_other_years_and_organizations(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Three lineages in the same collections room/ and post/ of one server: this year's plan,
    # next year's (a copy of the file), and another organization's.
    names = {"a27": march(), "a28": march(year=2028),
             "b27": march(name="Saco Bay Club", domain="saco-bay.example.org")}
    for name, data in names.items():
        solve_to(yaml_at(tmp_path, name, data), tmp_path / name)
    want: dict[str, set[str]] = {}
    for name in names:
        code, out = publish(server, tmp_path / name, monkeypatch)
        assert code == 0, out
        assert " 0 updated, 0 deleted" in out, out
        want[name] = set(vevents((tmp_path / name / "calendars" / "room.ics").read_bytes()))
    on_server = {str(e.icalendar_component["UID"])
                 for e in calendar_of(server, "room").search(event=True)}
    assert on_server == want["a27"] | want["a28"] | want["b27"]
    # this year's re-plan drops Saturday Hold'em: only its own events are cancelled (the
    # server holds what the plan's calendars hold: each put as STATUS:CANCELLED)
    v2 = yaml_at(tmp_path, "a27v2", march(**{"hold.id": None}))
    solve_to(v2, tmp_path / "a27v2", "--previous", str(tmp_path / "a27"))
    code, out = publish(server, tmp_path / "a27v2", monkeypatch)
    assert code == 0, out
    stored = {str(e.icalendar_component["UID"]): str(e.icalendar_component.get("STATUS", ""))
              for e in calendar_of(server, "post").search(event=True)}
    post = set(stored)
    key = lineage_key(load_scenario(tmp_path / "a27.yaml"))
    mine = {u: status for u, status in stored.items()
            if parse(u).lineage == key}  # type: ignore[union-attr]
    # 2 games, 2 windows opening, 2 applications due, 2 reports: 8, all cancelled
    assert len(mine) == 8 and set(mine.values()) == {"CANCELLED"}
    b_post = set(vevents((tmp_path / "b27" / "calendars" / "post.ics").read_bytes()))
    a28_post = set(vevents((tmp_path / "a28" / "calendars" / "post.ics").read_bytes()))
    assert b_post | a28_post <= post


def test_publish_refuses_to_overwrite_another_lineage_unless_taken_over(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A plan whose events carry the same UIDs as published ones but another lineage (a file
    # edited by hand, or copied between organizations): nothing is written, exit 2, the
    # events are named; --take-over replaces them.
    data = march(name="Takeover Club", domain="takeover.example.org")
    solve_to(yaml_at(tmp_path, "t", data), tmp_path / "T")
    code, out = publish(server, tmp_path / "T", monkeypatch)
    assert code == 0, out
    key = lineage_key(load_scenario(tmp_path / "t.yaml"))
    other = tmp_path / "X"
    shutil.copytree(tmp_path / "T", other)
    for f in (other / "calendars").glob("*.ics"):
        text = f.read_bytes().replace(f"X-TOURNEY-LINEAGE:{key}".encode(),
                                      b"X-TOURNEY-LINEAGE:0123456789")
        f.write_bytes(text.replace(b"SUMMARY:Saturday Stack", b"SUMMARY:Saturday Stack!"))
    before = stored_mtimes(server, "room")
    code, out = publish(server, other, monkeypatch)
    assert code == 2, out
    assert "another plan lineage" in out and "--take-over" in out
    assert f"sat-1@room.{key}.takeover.example.org (lineage {key})" in out
    assert stored_mtimes(server, "room") == before  # nothing changed
    monkeypatch.setenv("TOURNEY_CALDAV_PASSWORD", server.password)
    res = runner.invoke(app, ["publish", str(other), "--caldav", server.url, "--user",
                              server.user, "--take-over"])
    assert res.exit_code == 0, res.output
    # every event changes hands (its X-TOURNEY-LINEAGE), none is added or removed
    total = res.output.splitlines()[-1]
    assert total.endswith("0 created, 13 updated, 0 deleted, 0 unchanged."), total
    # room: 2 Saturday Stacks + their 2 notices + the Wednesday series = 5;
    # post: 2 Hold'em games + 3 deadlines each (window opens, due, report) = 8; 5 + 8 = 13


def test_plan_sync_leaves_other_lineages_and_history_alone() -> None:
    def obj(uid: str, lineage: str | None, day: str = "20270306") -> ServerObject:
        extra = f"X-TOURNEY-LINEAGE:{lineage}\r\n" if lineage else ""
        data = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VEVENT\r\n"
                f"UID:{uid}\r\nDTSTAMP:20270101T000000Z\r\nDTSTART;VALUE=DATE:{day}\r\n"
                f"X-TOURNEY-TOURNAMENT:t\r\n{extra}END:VEVENT\r\nEND:VCALENDAR\r\n")
        return ServerObject(f"http://h/c/{uid}.ics", data, '"e"')

    mine = "aaaaaaaaaa"
    cal = OperatorCalendar("room", "Room", {}, frozenset({"gone@x"}), mine,
                           ("2027-03-01", "2027-03-31"))
    plan = plan_sync(cal, [obj("dropped@x", mine), obj("old@x", mine, "20260307"),
                           obj("theirs@x", "bbbbbbbbbb"), obj("legacy@room.tourney", None),
                           obj("gone@x", "bbbbbbbbbb")], "http://h/c")
    # dropped (this lineage, in the horizon) and the legacy event are deleted; last year's
    # event of this lineage (history) and another lineage's are left alone; cancelling
    # another lineage's event is a conflict
    assert sorted(c.uid for c in plan.changes) == ["dropped@x", "gone@x", "legacy@room.tourney"]
    assert plan.others == 1
    assert plan.conflicts == [("gone@x", "bbbbbbbbbb")]


# =========================================================================== 2. cancellations


def _latest(data: bytes) -> dict[str, tuple[str, str]]:
    return client_view([data])


def test_cancellation_reaches_a_client_that_skipped_a_version(tmp_path: Path) -> None:
    # v1 with Saturday Hold'em (2 games, timed, and their licence deadlines); v2 drops it
    # (cancelled, SEQUENCE 0 + 1 = 1); v3 re-plans from v2 with nothing else changed: the
    # cancellations are still there, SEQUENCE 1, so a person who imported v1 and then v3
    # loses the games and their deadlines.
    solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    drop = yaml_at(tmp_path, "v2", march(**{"hold.id": None}))
    solve_to(drop, tmp_path / "v2", "--previous", str(tmp_path / "v1"))
    solve_to(drop, tmp_path / "v3", "--previous", str(tmp_path / "v2"))
    v1, v2, v3 = ((tmp_path / v / "calendar.ics").read_bytes() for v in ("v1", "v2", "v3"))
    holds = sorted(u for u in vevents(v1) if u.startswith("hold-"))
    assert len(holds) == 2
    for data in (v2, v3):
        ev = vevents(data)
        for uid in holds:
            assert (str(ev[uid]["STATUS"]), int(ev[uid]["SEQUENCE"])) == ("CANCELLED", 1)
            # a timed game is cancelled as a timed event in its zone, as it was published
            assert ev[uid]["DTSTART"].params.get("TZID") == "America/New_York"
            assert ev[uid]["DTSTART"].to_ical() == vevents(v1)[uid]["DTSTART"].to_ical()
    assert client_view([v1, v3]) == _latest(v3)
    assert client_view([v1, v2, v3]) == _latest(v3)
    assert not [u for u in client_view([v1, v3]) if u.startswith(("hold-", "application-",
                                                             "report-"))]


def test_cancellation_is_dropped_once_its_date_has_passed(tmp_path: Path) -> None:
    solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    drop = yaml_at(tmp_path, "v2", march(**{"hold.id": None}))
    solve_to(drop, tmp_path / "v2", "--previous", str(tmp_path / "v1"))
    sc = load_scenario(drop)
    plan = solve(sc, previous=read_previous(sc, tmp_path / "v2"), time_limit=10)
    plan = replace(plan, previous_events=previous_events(tmp_path / "v2"),
                   previous_series=previous_series(tmp_path / "v2"))
    stamp = dt.datetime(2027, 2, 1, tzinfo=dt.UTC)
    carried = {u for u, e in vevents(calendar_files(plan, stamp)["calendar.ics"]).items()
               if u.startswith("hold-") and str(e["STATUS"]) == "CANCELLED"}
    assert len(carried) == 2
    # made as of 2027-04-01, after both March games: the cancellations are history
    plan = replace(plan, scenario=sc.model_copy(update={"notice_from": dt.date(2027, 4, 1)}))
    data = calendar_files(plan, stamp)["calendar.ics"]
    assert not [u for u in vevents(data) if u.startswith("hold-")]


# =========================================================================== 3. --previous .ics
def test_previous_calendar_sees_what_the_folder_sees(tmp_path: Path) -> None:
    # v2: Saturday Stack 12:00 -> 13:00 (same days), Saturday Hold'em 12:00 -> 13:00, and a
    # blackout on Wed 2027-03-17 (the series loses a night). From the folder and from its
    # calendar.ics alone the re-plan gives the same bytes: SEQUENCE 0 + 1 = 1 for the retimed
    # games and for the series whose nights changed.
    solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    v2 = yaml_at(tmp_path, "v2", march(**{"sat.start_time": "13:00", "hold.start_time": "13:00",
                                         "room.blackout": ["2027-03-17"]}))
    solve_to(v2, tmp_path / "dir", "--previous", str(tmp_path / "v1"))
    solve_to(v2, tmp_path / "ics", "--previous", str(tmp_path / "v1" / "calendar.ics"))
    assert _files(tmp_path / "dir") == _files(tmp_path / "ics")
    seqs = {(r["tournament_id"], r["first_day"]): r["sequence"] for r in csv_rows(tmp_path / "ics")}
    assert seqs[("sat", "2027-03-06")] == "1" and seqs[("hold", "2027-03-06")] == "1"
    assert seqs[("wed", "2027-03-03")] == "1"  # the series' SEQUENCE


def test_previous_calendar_numbers_series_nights_as_the_folder(tmp_path: Path) -> None:
    # v2 keeps only the Wednesdays up to Mar 17 (window): from either input the series keeps
    # its UID and gets SEQUENCE 1 (UNTIL changed), the same rows in schedule.csv.
    solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    v2 = yaml_at(tmp_path, "v2", march(**{"wed.window": {"start": "2027-03-01",
                                                         "end": "2027-03-17"}}))
    solve_to(v2, tmp_path / "dir", "--previous", str(tmp_path / "v1"))
    solve_to(v2, tmp_path / "ics", "--previous", str(tmp_path / "v1" / "calendar.ics"))
    assert _files(tmp_path / "dir") == _files(tmp_path / "ics")
    wed = [(r["uid"], r["sequence"], r["recurrence_id"]) for r in csv_rows(tmp_path / "ics")
           if r["tournament_id"] == "wed"]
    series = next(r["uid"] for r in csv_rows(tmp_path / "v1") if r["tournament_id"] == "wed")
    assert wed == [(series, "1", "2027-03-03"), (series, "1", "2027-03-10"),
                   (series, "1", "2027-03-17")]


# =========================================================================== 4. one identity
def _instances(data: bytes) -> dict[tuple[str, str], dt.date]:
    """(UID, RECURRENCE-ID day or "") -> first day of every non-deadline, non-cancelled event
    or instance of a recurring one."""
    cal = icalendar.Calendar.from_ical(data)
    recurring = {str(e["UID"]) for e in cal.walk("VEVENT") if e.get("RRULE")}
    out = {}
    for ev in recurring_ical_events.of(cal).between((1900, 1, 1), (2200, 1, 1)):
        if ev.get("X-TOURNEY-DEADLINE") or str(ev.get("STATUS", "")) == "CANCELLED":
            continue
        start = ev.decoded("DTSTART")
        day = start.date() if isinstance(start, dt.datetime) else start
        uid = str(ev["UID"])
        out[(uid, day.isoformat() if uid in recurring else "")] = day
    return out


def test_every_row_of_the_bundled_demo_is_in_the_calendar_and_back(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    res = runner.invoke(app, ["solve", str(EXAMPLES / "combined.yaml"), "--out", str(out)])
    assert res.exit_code in (0, 1), res.output
    rows = csv_rows(out)
    found = _instances((out / "calendar.ics").read_bytes())
    keys = {(r["uid"], r["recurrence_id"]) for r in rows}
    assert len(rows) > 100 and any(r["recurrence_id"] for r in rows)
    for r in rows:
        key = (r["uid"], r["recurrence_id"])
        assert key in found, r
        assert found[key].isoformat() == r["first_day"]
    assert set(found) == keys


# =========================================================================== 6. reading back
OUTLOOK = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r
X-WR-CALNAME:{name}\r
BEGIN:VTIMEZONE\r
TZID:Mountain Standard Time\r
BEGIN:STANDARD\r
DTSTART:16011104T020000\r
RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r
TZOFFSETFROM:-0600\r
TZOFFSETTO:-0700\r
END:STANDARD\r
BEGIN:DAYLIGHT\r
DTSTART:16010311T020000\r
RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r
TZOFFSETFROM:-0700\r
TZOFFSETTO:-0600\r
END:DAYLIGHT\r
END:VTIMEZONE\r
BEGIN:VEVENT\r
UID:040000008200E00074C5B7101A82E00800000000\r
DTSTAMP:20270201T000000Z\r
SUMMARY:Saturday Stack\r
DTSTART;TZID="Mountain Standard Time":20270306T000000\r
DTEND;TZID="Mountain Standard Time":20270307T000000\r
{flag}END:VEVENT\r
END:VCALENDAR\r
"""


@pytest.mark.parametrize("flag", ["X-MICROSOFT-CDO-ALLDAYEVENT:TRUE\r\n", ""])
def test_outlook_all_day_event_is_read_as_all_day(tmp_path: Path, flag: str) -> None:
    # Outlook exports the all-day Saturday Stack of Sat 2027-03-06 as local midnight to
    # midnight. Read as a timed event it would be played 00:00-24:00, through 02:00-08:00
    # (MT-PLAY-HOURS, ARM 23.16.1101); read as the all-day event it is, play is 12:00 + 10 h
    # = 22:00: no violation.
    src = yaml_at(tmp_path, "s", march(**{"hold.id": None, "wed.id": None}))
    ics = tmp_path / "outlook.ics"
    ics.write_text(OUTLOOK.format(name="My calendar", flag=flag), encoding="utf-8",
                   newline="")
    res = runner.invoke(app, ["check", str(src), str(ics), "--format", "json"])
    assert "MT-PLAY-HOURS" not in res.output, res.output
    assert res.exit_code == 0, res.output


def test_check_decides_the_operator_from_the_content_not_the_name(tmp_path: Path) -> None:
    # The room's calendar renamed: still the room's (X-TOURNEY-OPERATOR), so Saturday
    # Hold'em (post's) is not missing from it. The whole plan's calendar renamed room.ics is
    # not the room's: a Saturday Hold'em fixed on Mar 27 that the file lacks is reported.
    src = yaml_at(tmp_path, "s", march())
    out = tmp_path / "P"
    solve_to(src, out)
    mine = tmp_path / "my calendar.ics"
    shutil.copy(out / "calendars" / "room.ics", mine)
    res = runner.invoke(app, ["check", str(src), str(mine)])
    assert res.exit_code == 0, res.output
    fixed = yaml_at(tmp_path, "f", march(**{"hold.fixed_dates": ["2027-03-27"]}))
    whole = tmp_path / "other" / "room.ics"
    whole.parent.mkdir()
    shutil.copy(out / "calendar.ics", whole)
    res = runner.invoke(app, ["check", str(fixed), str(whole), "--format", "csv"])
    assert res.exit_code == 1 and "FIXED-DATES" in res.output, res.output
    # --operator says it explicitly; an unknown one is exit 2 naming the operators
    res = runner.invoke(app, ["check", str(fixed), str(whole), "--operator", "room"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["check", str(fixed), str(whole), "--operator", "nobody"])
    assert res.exit_code == 2 and "post, room" in res.output
