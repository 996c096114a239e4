"""Calendars across plans, second round (issue #11, faults a fresh tester found):

1. next year's plan made with ``--previous`` gives its weekly series a UID of its own: last
   year's series is history, left alone (on the server too);
2. a weekly series keeps its UID under ``--previous`` when its weekdays, the UID domain or
   the UID form (an earlier version's) change;
3. the lineage key names the organization (operator names, addresses, jurisdictions), so two
   organizations with the same scenario name do not share UIDs; publish warns about the
   default UID domain on a shared server;
4. ``--previous`` refuses another organization's plan;
5. X-TOURNEY-OPERATORS survives vobject and Radicale (publishing twice changes nothing);
6. ``tourney check`` reads Outlook's all-day flag on midnights written in UTC.

CalDAV cases run against the real Radicale server of tests/conftest.py.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import icalendar
import pytest
import recurring_ical_events
import vobject
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.uid import DEFAULT_DOMAIN, lineage_key
from scheduler.inputs.load import load_scenario

from builders.caldav import (
    Server,
    calendar_of,
    csv_rows,
    march,
    other_org,
    publish,
    shared_data,
    solve_to,
    vevents,
    yaml_at,
)

pytestmark = pytest.mark.usefixtures("no_proxy")  # 127.0.0.1 directly, never a proxy

runner = CliRunner()


def _series(data: bytes) -> dict[str, icalendar.Event]:
    return {u: e for u, e in vevents(data).items() if e.get("RRULE") is not None}


# =========================================================================== 1. next year
def test_next_years_series_has_its_own_uid_and_last_years_stays(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 2027 (Wednesdays of March 2027: 3, 10, 17, 24, 31) and 2028 made from it with
    # --previous (Wednesdays of March 2028: 1, 8, 15, 22, 29). The lineage goes on, so the
    # 2028 series' fresh UID wed.series@room.<key>... is last year's: it gets "-2".
    y27 = yaml_at(tmp_path, "y27", march(name="Series Club 2027"))
    solve_to(y27, tmp_path / "y27")
    solve_to(yaml_at(tmp_path, "y28", march(name="Series Club 2028", year=2028)), tmp_path / "y28",
             "--previous", str(tmp_path / "y27"))
    key = lineage_key(load_scenario(y27))
    old, new = (_series((tmp_path / y / "calendar.ics").read_bytes()) for y in ("y27", "y28"))
    assert list(old) == [f"wed.series@room.{key}.{DEFAULT_DOMAIN}"]
    assert list(new) == [f"wed.series-2@room.{key}.{DEFAULT_DOMAIN}"]
    ev = new[f"wed.series-2@room.{key}.{DEFAULT_DOMAIN}"]
    assert (ev.decoded("DTSTART"), int(ev["SEQUENCE"])) == (dt.date(2028, 3, 1), 0)
    # last year's series is history: not cancelled, not rewritten, in no file of 2028
    assert not any(f"wed.series@room.{key}".encode() in p.read_bytes()
                   for p in (tmp_path / "y28").rglob("*.ics"))
    assert {r["uid"] for r in csv_rows(tmp_path / "y28") if r["tournament_id"] == "wed"} == {
        f"wed.series-2@room.{key}.{DEFAULT_DOMAIN}"}
    # diff says the 2027 nights are history; publish agrees: nothing updated or deleted
    res = runner.invoke(app, ["diff", str(tmp_path / "y27"), str(tmp_path / "y28")])
    assert res.output.count(f"history    Wednesday Night (wed.series@room.{key}") == 5, \
        res.output
    code, out = publish(server, tmp_path / "y27", monkeypatch)
    assert code == 0, out
    code, out = publish(server, tmp_path / "y28", monkeypatch)
    assert code == 0, out
    # room: 2 Saturday Stacks + 2 notices + the series = 5 new ones, 2027's 5 kept
    assert "room (" in out and ": 5 created, 0 updated, 0 deleted, 0 unchanged" in out, out
    held = {str(e.icalendar_component["UID"]): e.icalendar_component
            for e in calendar_of(server, "room").search(event=True)}
    assert held[f"wed.series@room.{key}.{DEFAULT_DOMAIN}"].decoded("DTSTART") \
        == dt.date(2027, 3, 3)
    assert f"wed.series-2@room.{key}.{DEFAULT_DOMAIN}" in held


# =========================================================================== 2. inherited series
def _replan_series(tmp_path: Path, v2: dict[str, Any], previous: str = ""
                   ) -> tuple[dict[str, icalendar.Event], dict[str, icalendar.Event]]:
    """v1 = :func:`_data`, v2 re-planned from it (``previous``: the v1 path to give):
    the series of v1 and every event of v2."""
    if not (tmp_path / "v1").exists():
        solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    solve_to(yaml_at(tmp_path, "v2", v2), tmp_path / "v2", "--previous",
             previous or str(tmp_path / "v1"))
    return (_series((tmp_path / "v1" / "calendar.ics").read_bytes()),
            vevents((tmp_path / "v2" / "calendar.ics").read_bytes()))


def _nights(ev: icalendar.Event) -> list[dt.date]:
    one = icalendar.Calendar()
    one.add_component(ev)
    return sorted(x.decoded("DTSTART") for x in recurring_ical_events.of(one).between(
        (2000, 1, 1), (2100, 1, 1)))


MARCH_WEDS = [dt.date(2027, 3, d) for d in (3, 10, 17, 24, 31)]
MARCH_MONS = [dt.date(2027, 3, d) for d in (1, 8, 15, 22, 29)]


def test_series_keeps_its_uid_when_a_weekday_is_added(tmp_path: Path) -> None:
    # [wed] -> [wed, mon]: the Wednesdays keep their series (same UID, same nights:
    # SEQUENCE 0); the Mondays are a new series; nothing is cancelled
    v1, v2 = _replan_series(tmp_path, march(**{"wed.weekdays": ["wed", "mon"]}))
    (uid,) = v1
    assert _nights(v2[uid]) == MARCH_WEDS and int(v2[uid]["SEQUENCE"]) == 0
    mon = [e for u, e in v2.items() if u.startswith("wed.mon.series@")]
    assert len(mon) == 1 and _nights(mon[0]) == MARCH_MONS
    assert not [u for u, e in v2.items() if str(e.get("STATUS", "")) == "CANCELLED"]
    res = runner.invoke(app, ["diff", str(tmp_path / "v1"), str(tmp_path / "v2")])
    assert res.output.splitlines()[-1].startswith("0 moved, 5 added, 0 cancelled"), res.output


def test_series_keeps_its_uid_when_the_uid_domain_is_set(tmp_path: Path) -> None:
    # one-offs keep their UIDs (README); so does the series, in the domain it was announced in
    v1, v2 = _replan_series(tmp_path, march(domain="bitterroot.example.org"))
    (uid,) = v1
    assert uid.endswith(f".{DEFAULT_DOMAIN}") and _nights(v2[uid]) == MARCH_WEDS
    assert not [u for u in v2 if u.endswith("bitterroot.example.org")]
    assert not [u for u, e in v2.items() if str(e.get("STATUS", "")) == "CANCELLED"]


def test_series_of_an_earlier_version_keeps_its_uid(tmp_path: Path) -> None:
    # a calendar written before plan lineages: UIDs <local>@<operator>.tourney, no
    # X-TOURNEY-LINEAGE. Its one-offs and its series keep their UIDs, nothing is cancelled.
    solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    key = lineage_key(load_scenario(tmp_path / "v1.yaml"))
    text = (tmp_path / "v1" / "calendar.ics").read_text(encoding="utf-8")
    text = text.replace(f".{key}.{DEFAULT_DOMAIN}", ".tourney")
    text = "".join(ln for ln in text.splitlines(keepends=True)
                   if not ln.startswith("X-TOURNEY-LINEAGE"))
    legacy = tmp_path / "legacy.ics"
    legacy.write_text(text, encoding="utf-8", newline="")
    _, v2 = _replan_series(tmp_path, march(), str(legacy))
    assert _nights(v2["wed.series@room.tourney"]) == MARCH_WEDS
    assert {"sat-1@room.tourney", "sat-2@room.tourney", "hold-1@post.tourney"} <= set(v2)
    assert not [u for u, e in v2.items() if str(e.get("STATUS", "")) == "CANCELLED"
                and not u.startswith("notice-")], sorted(v2)


# =========================================================================== 3. organizations


def _twin(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with operator ids twin-room and twin-post."""
    ids = {"room": "twin-room", "post": "twin-post"}
    for o in data["operators"]:
        o["id"] = ids[o["id"]]
    for t in data["tournaments"]:
        t["operators"] = [ids[o] for o in t["operators"]]
    return data


def test_lineage_names_the_organization_and_the_default_domain_once(tmp_path: Path) -> None:
    base = lineage_key(load_scenario(yaml_at(tmp_path, "a", march())))
    # another organization: the operators' names, an address, a jurisdiction
    renamed = lineage_key(load_scenario(yaml_at(tmp_path, "b", other_org())))
    moved = march(**{"room.address": "1 Main St, Butte MT"})
    assert len({base, renamed, lineage_key(load_scenario(yaml_at(tmp_path, "c", moved)))}) == 3
    # writing the default domain is not setting it; setting it at the scenario or at every
    # operator is the same
    assert lineage_key(load_scenario(yaml_at(tmp_path, "d", march(domain=DEFAULT_DOMAIN)))) \
        == base
    mine = march(domain="bitterroot.example.org")
    each = march(**{"room.uid_domain": "bitterroot.example.org",
                    "post.uid_domain": "bitterroot.example.org"})
    assert lineage_key(load_scenario(yaml_at(tmp_path, "e", mine))) \
        == lineage_key(load_scenario(yaml_at(tmp_path, "f", each))) != base
    # what a plan's tournaments say is not the organization
    assert lineage_key(load_scenario(yaml_at(tmp_path, "g", march(**{"hold.id": None})))) == base


def test_two_organizations_with_the_same_scenario_name_keep_their_events(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two clubs copied the same file (name "Club 2027", operators room and post) and only
    # renamed their operators; both publish with the same account. Before, both plans had one
    # lineage and the same UIDs: the second publish overwrote and deleted the first's events.
    # (operator ids twin-room and twin-post: collections no other test of this module uses)
    solve_to(yaml_at(tmp_path, "one", _twin(march(name="Twin Club"))), tmp_path / "one")
    solve_to(yaml_at(tmp_path, "two", _twin(other_org(name="Twin Club"))), tmp_path / "two")
    one = set(vevents((tmp_path / "one" / "calendars" / "twin-room.ics").read_bytes()))
    two = set(vevents((tmp_path / "two" / "calendars" / "twin-room.ics").read_bytes()))
    assert len(one) == len(two) == 5 and not one & two
    code, out = publish(server, tmp_path / "one", monkeypatch)
    assert code == 0, out
    assert "warning" not in out  # nobody else's events there yet
    code, out = publish(server, tmp_path / "two", monkeypatch)
    assert code == 0, out
    # room: 2 Saturday Stacks + 2 notices + the Wednesday series = 5; post: 2 games + 3
    # deadlines each = 8; all created, none of the other club's touched
    assert "twin-room (" in out and ": 5 created, 0 updated, 0 deleted, 0 unchanged, 5 of " \
        "other plans left alone" in out, out
    assert "8 created, 0 updated, 0 deleted, 0 unchanged, 8 of other plans left alone" in out
    # both use the default domain on a shared calendar: told to set uid_domain
    assert "warning: calendar(s) twin-post (8 of other plans), twin-room (5 of other plans) " \
        "are shared" in out and "uid_domain" in out, out
    on_server = {str(e.icalendar_component["UID"])
                 for e in calendar_of(server, "twin-room").search(event=True)}
    assert one | two <= on_server


# =========================================================================== 4. whose plan
def test_previous_plan_of_another_organization_is_refused(tmp_path: Path) -> None:
    # the same operator ids, other names: another club's plan (its calendar names them)
    solve_to(yaml_at(tmp_path, "one", march()), tmp_path / "one")
    for prev in (tmp_path / "one", tmp_path / "one" / "calendars" / "room.ics"):
        res = runner.invoke(app, ["solve", str(yaml_at(tmp_path, "two", other_org())),
                                  "--out", str(tmp_path / "two"), "--previous", str(prev)])
        assert res.exit_code == 2, res.output
        assert "room (Bitterroot Card Room)" in res.output, res.output
        assert "room (Copper King Poker)" in res.output and "Nothing was written" in res.output
        assert not (tmp_path / "two").exists()
    # no operator id in common: a Maine post's plan given to a Montana room's scenario
    maine = march(**{"sat.id": None, "wed.id": None})
    maine["operators"] = [o for o in maine["operators"] if o["id"] == "post"]
    montana = march(**{"hold.id": None})
    montana["operators"] = [o for o in montana["operators"] if o["id"] == "room"]
    solve_to(yaml_at(tmp_path, "me", maine), tmp_path / "me")
    res = runner.invoke(app, ["solve", str(yaml_at(tmp_path, "mt", montana)), "--out",
                              str(tmp_path / "mt"), "--previous", str(tmp_path / "me")])
    assert res.exit_code == 2 and "post (Legion Post 88)" in res.output, res.output
    # the same organization, one operator renamed: still its plan
    renamed = march(**{"post.name": "Legion Post 88, Saco Bay"})
    solve_to(yaml_at(tmp_path, "ren", renamed), tmp_path / "ren", "--previous",
             str(tmp_path / "one"))


# A venue no longer in the scenario: its future events are cancelled on its calendar
# (issue #22; tests/test_replan_calendars_follow_the_plan.py).


# =========================================================================== 5. operators
def test_shared_tournament_operators_survive_vobject_and_radicale(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "P"
    solve_to(yaml_at(tmp_path, "s", shared_data()), out)
    shared = [e for e in vevents((out / "calendar.ics").read_bytes()).values()
              if str(e.get("X-TOURNEY-TOURNAMENT", "")) == "shared"
              and not e.get("X-TOURNEY-DEADLINE")]
    assert len(shared) == 1
    uid = str(shared[0]["UID"])
    # both libraries read both operators back
    assert str(shared[0]["X-TOURNEY-OPERATORS"]) == "room room2"
    text = (out / "calendar.ics").read_text(encoding="utf-8")
    read = [ev for ev in vobject.readOne(text).vevent_list if ev.uid.value == uid]
    assert read[0].x_tourney_operators.value == "room room2"
    code, first = publish(server, out, monkeypatch)
    assert code == 0, first
    # the server stores what it was given
    stored = [o.icalendar_component for o in calendar_of(server, "room2").search(event=True)
              if str(o.icalendar_component["UID"]) == uid]
    assert str(stored[0]["X-TOURNEY-OPERATORS"]) == "room room2"
    # publishing the same plan again changes nothing, in either room's calendar
    code, again = publish(server, out, monkeypatch)
    assert code == 0, again
    # room: 2 Saturday Stacks + 2 notices + the Wednesday series + the shared stack + its
    # notice = 7; room2: the shared stack + its notice = 2; post: 2 games + 3 deadlines each
    # = 8; 7 + 2 + 8 = 17
    total = next(ln for ln in again.splitlines() if ln.startswith("Published"))
    assert total.endswith(": 0 created, 0 updated, 0 deleted, 17 unchanged."), again


def test_previous_reads_operators_of_either_form(tmp_path: Path) -> None:
    # a calendar of an earlier version wrote "room,room2": a re-plan from it still sees both
    # operators (the cancelled shared tournament goes to both rooms' calendars)
    out = tmp_path / "v1"
    solve_to(yaml_at(tmp_path, "v1", shared_data()), out)
    ics = out / "calendar.ics"
    ics.write_bytes(ics.read_bytes().replace(b"X-TOURNEY-OPERATORS:room room2",
                                             b"X-TOURNEY-OPERATORS:room,room2"))
    data = shared_data()
    data["tournaments"] = [t for t in data["tournaments"] if t["id"] != "shared"]
    solve_to(yaml_at(tmp_path, "v2", data), tmp_path / "v2", "--previous", str(ics))
    for oid in ("room", "room2"):
        events = vevents((tmp_path / "v2" / "calendars" / f"{oid}.ics").read_bytes())
        gone = [e for e in events.values() if str(e.get("X-TOURNEY-TOURNAMENT")) == "shared"
                and not e.get("X-TOURNEY-DEADLINE")]
        assert [str(e["STATUS"]) for e in gone] == ["CANCELLED"], oid


# =========================================================================== 6. Outlook in UTC
OUTLOOK_UTC = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r
BEGIN:VEVENT\r
UID:040000008200E00074C5B7101A82E00800000001\r
DTSTAMP:20270201T000000Z\r
SUMMARY:Saturday Stack\r
DTSTART:20270306T070000Z\r
DTEND:20270307T070000Z\r
{flag}END:VEVENT\r
BEGIN:VEVENT\r
UID:040000008200E00074C5B7101A82E00800000002\r
DTSTAMP:20270201T000000Z\r
SUMMARY:Saturday Stack\r
DTSTART:20270320T060000Z\r
DTEND:20270321T060000Z\r
{flag}END:VEVENT\r
END:VCALENDAR\r
"""


@pytest.mark.parametrize("flag", ["X-MICROSOFT-CDO-ALLDAYEVENT:TRUE\r\n", ""])
def test_outlook_all_day_in_utc_is_read_as_all_day(tmp_path: Path, flag: str) -> None:
    # Sat 2027-03-06 and Sat 2027-03-20 all day at the room (America/Denver), written as UTC:
    # local midnight is 07:00Z before the switch to daylight time (Sun 2027-03-14, MST -7) and
    # 06:00Z after it (MDT -6). Read as timed, each is 00:00-24:00 local, through 02:00-08:00
    # (MT-PLAY-HOURS, ARM 23.16.1101); read as all-day, play is 12:00 + 10 h = 22:00.
    src = yaml_at(tmp_path, "s", march(**{"hold.id": None, "wed.id": None}))
    ics = tmp_path / "outlook.ics"
    ics.write_text(OUTLOOK_UTC.format(flag=flag), encoding="utf-8", newline="")
    res = runner.invoke(app, ["check", str(src), str(ics), "--format", "csv"])
    assert "MT-PLAY-HOURS" not in res.output, res.output
    assert res.exit_code == 0, res.output


def test_utc_times_that_are_not_local_midnights_stay_timed(tmp_path: Path) -> None:
    # 18:00Z to 18:00Z the next day is 11:00 to 11:00 MST (17:00Z is 11:00 MDT): a timed
    # 24-hour event through 02:00-08:00 local, which MT-PLAY-HOURS reports even with the flag
    src = yaml_at(tmp_path, "s", march(**{"hold.id": None, "wed.id": None}))
    ics = tmp_path / "outlook.ics"
    text = OUTLOOK_UTC.format(flag="X-MICROSOFT-CDO-ALLDAYEVENT:TRUE\r\n")
    text = text.replace("T070000Z", "T180000Z").replace("T060000Z", "T170000Z")
    ics.write_text(text, encoding="utf-8", newline="")
    res = runner.invoke(app, ["check", str(src), str(ics), "--format", "csv"])
    assert res.exit_code == 1 and "MT-PLAY-HOURS" in res.output, res.output


_ = (dt, icalendar, csv_rows)


# =========================================================================== minor
def test_carried_cancellation_is_the_event_that_cancelled_it(tmp_path: Path) -> None:
    # v2 drops Saturday Hold'em (cancelled: "... is cancelled in this plan."); v3, re-planned
    # from v2, carries each cancellation as v2 published it, DESCRIPTION included
    solve_to(yaml_at(tmp_path, "v1", march()), tmp_path / "v1")
    drop = yaml_at(tmp_path, "v2", march(**{"hold.id": None}))
    solve_to(drop, tmp_path / "v2", "--previous", str(tmp_path / "v1"))
    solve_to(drop, tmp_path / "v3", "--previous", str(tmp_path / "v2"))
    v2, v3 = (vevents((tmp_path / v / "calendar.ics").read_bytes()) for v in ("v2", "v3"))
    gone = sorted(u for u, e in v2.items() if str(e.get("STATUS", "")) == "CANCELLED")
    # 2 games + 3 deadlines each (application opens, due, report) = 8
    assert len(gone) == 8
    games = [u for u in gone if u.startswith("hold-")]
    assert len(games) == 2 and all("is cancelled in this plan" in str(v2[u]["DESCRIPTION"])
                                   for u in games)

    def lines(ev: icalendar.Event) -> list[bytes]:  # every property but DTSTAMP (re-stamped)
        return [ln for ln in ev.to_ical().replace(b"\r\n ", b"").split(b"\r\n")
                if not ln.startswith(b"DTSTAMP")]

    for uid in gone:
        assert lines(v3[uid]) == lines(v2[uid]), uid


def test_uid_domain_label_over_63_characters_is_refused(tmp_path: Path) -> None:
    # RFC 1035 §2.3.4: a label is at most 63 octets; 63 is accepted, 64 is not
    ok = yaml_at(tmp_path, "ok", march(domain="a" * 63 + ".example.org"))
    assert load_scenario(ok).uid_domain == "a" * 63 + ".example.org"
    bad = yaml_at(tmp_path, "bad", march(domain="a" * 64 + ".example.org"))
    res = runner.invoke(app, ["solve", str(bad), "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and "uid_domain" in res.output and "63" in res.output, res.output
    assert "Traceback" not in res.output


def test_check_operator_counts_its_own_and_warns_when_the_file_says_another(
        tmp_path: Path) -> None:
    src = yaml_at(tmp_path, "s", march())
    solve_to(src, tmp_path / "P")
    # the whole plan's calendar as room's: Saturday Stack 2 + Wednesday nights 5 = 7 of the
    # 2 + 2 (Saturday Hold'em, post's) + 5 = 9 occurrences it holds
    res = runner.invoke(app, ["check", str(src), str(tmp_path / "P" / "calendar.ics"),
                              "--operator", "room"])
    assert res.exit_code == 0, res.output
    assert "in 9 occurrence(s) of " in res.output and ", 7 of them room's" in res.output
    assert "warning" not in res.output
    # post's own calendar audited as room's: said, not silently done
    res = runner.invoke(app, ["check", str(src), str(tmp_path / "P" / "calendars" / "post.ics"),
                              "--operator", "room"])
    assert "warning:" in res.output and "says it is post's calendar" in res.output, res.output
    assert ", 0 of them room's" in res.output
