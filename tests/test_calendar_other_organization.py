"""Calendars across plans, third round (issue #11, faults a re-test found):

A. another organization's plan given as ``--previous`` through a calendar file
   (``calendar.ics`` or a per-operator file) is refused as the folder is: the calendars name
   their operators (X-TOURNEY-OPERATOR-NAME);
B. publishing this year's plan after next year's leaves next year's deadlines alone;
C. a new occurrence never gets a UID that another plan of the lineage may have used.

CalDAV cases run against the real Radicale server of tests/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scheduler.cli import app

from builders.caldav import (
    Server,
    calendar_of,
    csv_rows,
    march,
    other_org,
    publish,
    shared_data,
    solve_to,
    yaml_at,
)

pytestmark = pytest.mark.usefixtures("no_proxy")  # 127.0.0.1 directly, never a proxy

runner = CliRunner()


# =========================================================================== A. whose plan
def test_calendar_files_name_their_operators(tmp_path: Path) -> None:
    # "Legion Post 88, Saco; Bay" needs TEXT escapes (RFC 5545 §3.3.11: \, and \;)
    solve_to(yaml_at(tmp_path, "one", march(**{"post.name": "Legion Post 88, Saco; Bay"})),
             tmp_path / "one")
    whole = (tmp_path / "one" / "calendar.ics").read_bytes().decode()
    room = (tmp_path / "one" / "calendars" / "room.ics").read_bytes().decode()
    post = (tmp_path / "one" / "calendars" / "post.ics").read_bytes().decode()
    assert re.findall(r"X-TOURNEY-OPERATOR-NAME:.*", whole) == [
        "X-TOURNEY-OPERATOR-NAME:post Legion Post 88\\, Saco\\; Bay\r",
        "X-TOURNEY-OPERATOR-NAME:room Bitterroot Card Room\r"]
    assert re.findall(r"X-TOURNEY-OPERATOR-NAME:.*", room) == [
        "X-TOURNEY-OPERATOR-NAME:room Bitterroot Card Room\r"]
    assert re.findall(r"X-TOURNEY-OPERATOR-NAME:.*", post) == [
        "X-TOURNEY-OPERATOR-NAME:post Legion Post 88\\, Saco\\; Bay\r"]
    # the organization's own calendar.ics is its plan: the escaped name reads back equal
    solve_to(yaml_at(tmp_path, "again", march(**{"post.name": "Legion Post 88, Saco; Bay"})),
             tmp_path / "again", "--previous", str(tmp_path / "one" / "calendar.ics"))


def test_another_organizations_calendar_file_is_refused(tmp_path: Path) -> None:
    # the same operator ids (room, post), other names: before, calendar.ics (no names) and
    # calendars/room.ics (its name only in X-WR-CALNAME) were taken as this club's plan, its
    # lineage taken over and its events cancelled
    solve_to(yaml_at(tmp_path, "one", march()), tmp_path / "one")
    other = yaml_at(tmp_path, "two", other_org())
    for prev in ("calendar.ics", "calendars/room.ics", "calendars/post.ics"):
        res = runner.invoke(app, ["solve", str(other), "--out", str(tmp_path / "two"),
                                  "--previous", str(tmp_path / "one" / prev)])
        assert res.exit_code == 2, (prev, res.output)
        assert "is a plan of other operators" in res.output, res.output
        assert "Nothing was written" in res.output and not (tmp_path / "two").exists()
    whole = " ".join(runner.invoke(app, [
        "solve", str(other), "--out", str(tmp_path / "two"), "--previous",
        str(tmp_path / "one" / "calendar.ics")]).output.split())
    assert "post (Legion Post 88), room (Bitterroot Card Room)" in whole, whole


def test_per_operator_file_names_the_co_hosts_of_its_events(tmp_path: Path) -> None:
    # room's file shows the Two-Room Stack, co-hosted by room2: it names room2 too, so a
    # club whose three operators have these ids and other names is refused through room.ics
    # (before, room2 came only from the event's X-TOURNEY-OPERATORS, without a name, and
    # passed as an operator in common)
    solve_to(yaml_at(tmp_path, "one", shared_data()), tmp_path / "one")
    room = (tmp_path / "one" / "calendars" / "room.ics").read_bytes().decode()
    assert re.findall(r"X-TOURNEY-OPERATOR-NAME:.*", room) == [
        "X-TOURNEY-OPERATOR-NAME:room Bitterroot Card Room\r",
        "X-TOURNEY-OPERATOR-NAME:room2 Hellgate Card Room\r"]
    other = shared_data()
    for o, name in zip(other["operators"], ("Copper King Poker", "Legion Post 12",
                                            "Copper King Annex"), strict=True):
        o["name"] = name
    res = runner.invoke(app, ["solve", str(yaml_at(tmp_path, "two", other)), "--out",
                              str(tmp_path / "two"), "--previous",
                              str(tmp_path / "one" / "calendars" / "room.ics")])
    assert res.exit_code == 2 and "is a plan of other operators" in res.output, res.output
    assert not (tmp_path / "two").exists()


def test_calendar_of_an_earlier_version_compares_operator_ids_only(tmp_path: Path) -> None:
    # a calendar.ics written before X-TOURNEY-OPERATOR-NAME existed names no operator: the
    # ids are compared, as before (room and post are the scenario's: accepted)
    solve_to(yaml_at(tmp_path, "one", march()), tmp_path / "one")
    old = tmp_path / "old.ics"
    text = (tmp_path / "one" / "calendar.ics").read_bytes()
    old.write_bytes(re.sub(rb"X-TOURNEY-OPERATOR-NAME:[^\r]*\r\n", b"", text))
    assert b"X-TOURNEY-OPERATOR-NAME" in text and b"X-TOURNEY-OPERATOR-NAME" not in \
        old.read_bytes()
    solve_to(yaml_at(tmp_path, "two", other_org()), tmp_path / "two", "--previous", str(old))


# =========================================================================== B. next year
def _ids(data: dict[str, Any], prefix: str) -> dict[str, Any]:
    """``data`` with operator ids ``<prefix>-room`` and ``<prefix>-post`` (collections no
    other test of this module uses)."""
    for o in data["operators"]:
        o["id"] = f"{prefix}-{o['id']}"
    for t in data["tournaments"]:
        t["operators"] = [f"{prefix}-{o}" for o in t["operators"]]
    return data


def test_publishing_this_year_again_leaves_next_years_deadlines_alone(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 2027 (March), then 2028 made from it with --previous (one lineage), both published;
    # then 2027 is published again. Before, the 2028 MT notices (due in late February and
    # March 2028, after 2027's first notice day) were taken for 2027's own and deleted.
    solve_to(yaml_at(tmp_path, "y27", _ids(march(name="Next 2027"), "b")), tmp_path / "y27")
    solve_to(yaml_at(tmp_path, "y28", _ids(march(name="Next 2028", year=2028), "b")),
             tmp_path / "y28", "--previous", str(tmp_path / "y27"))
    for year in ("y27", "y28"):
        code, out = publish(server, tmp_path / year, monkeypatch)
        assert code == 0, out
    code, out = publish(server, tmp_path / "y27", monkeypatch)
    assert code == 0, out
    # b-room: 2 Saturday Stacks + 2 notices + the Wednesday series = 5, unchanged; b-post:
    # 2 games + 3 licence deadlines each (opens, due, report) = 8, unchanged; 2028's left
    assert ": 0 created, 0 updated, 0 deleted, 5 unchanged" in out, out
    assert ": 0 created, 0 updated, 0 deleted, 8 unchanged" in out, out
    held = {str(e.icalendar_component["UID"]): e.icalendar_component
            for e in calendar_of(server, "b-room").search(event=True)}
    notices = sorted(str(ev.decoded("DTSTART")) for u, ev in held.items()
                     if u.startswith("notice-"))
    # the first two Saturdays of March: 2027-03-06, 03-13 and 2028-03-04, 03-11; notices
    # 5 days before (MT-NOTICE, MCA 23-5-317(1)(d)): 03-01, 03-08 and 2028-02-28, 03-06
    assert notices == ["2027-03-01", "2027-03-08", "2028-02-28", "2028-03-06"], notices
    assert len(held) == 10  # 5 of 2027 and 5 of 2028


# =========================================================================== C. new UIDs
def test_replan_of_this_year_never_takes_a_uid_next_years_plan_gave(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 2027 v1: Saturday Stack twice (sat-1, sat-2). 2028 made from v1 with --previous numbers
    # its new Saturdays on from v1's: 3 and 4. 2027 v2 (count 3), re-planned from v1, adds a
    # third Saturday: before, it was sat-3 too, the UID 2028 had published, and publishing
    # v2 moved 2028's game to 2027 under SEQUENCE 0. Now a re-plan's new occurrences name
    # their horizon's start: sat.20280301-3, -4 and sat.20270301-3.
    solve_to(yaml_at(tmp_path, "v1", _ids(march(name="Uid 2027"), "c")), tmp_path / "v1")
    solve_to(yaml_at(tmp_path, "y28", _ids(march(name="Uid 2028", year=2028), "c")),
             tmp_path / "y28", "--previous", str(tmp_path / "v1"))
    v2 = yaml_at(tmp_path, "v2", _ids(march(name="Uid 2027", **{"sat.count": 3}), "c"))
    solve_to(v2, tmp_path / "v2", "--previous", str(tmp_path / "v1"))

    def sats(folder: str) -> dict[str, str]:
        return {r["uid"].partition("@")[0]: r["first_day"] for r in csv_rows(tmp_path / folder)
                if r["tournament_id"] == "sat"}

    one, y28, two = sats("v1"), sats("y28"), sats("v2")
    assert sorted(one) == ["sat-1", "sat-2"], one
    assert sorted(y28) == ["sat.20280301-3", "sat.20280301-4"], y28
    assert sorted(two) == ["sat-1", "sat-2", "sat.20270301-3"], two
    assert {two[u] for u in one} == set(one.values())  # v1's Saturdays kept their UIDs
    # the same input gives the same UIDs, byte for byte
    solve_to(v2, tmp_path / "v2b", "--previous", str(tmp_path / "v1"))
    for f in ("calendar.ics", "calendars/c-room.ics", "schedule.csv"):
        assert (tmp_path / "v2" / f).read_bytes() == (tmp_path / "v2b" / f).read_bytes(), f
    # on the server: v1, 2028, then v2 of 2027; 2028's games stay 2028's
    for folder in ("v1", "y28", "v2"):
        code, out = publish(server, tmp_path / folder, monkeypatch)
        assert code == 0, out
    held = {str(e.icalendar_component["UID"]).partition("@")[0]:
            str(e.icalendar_component.decoded("DTSTART"))
            for e in calendar_of(server, "c-room").search(event=True)}
    assert {u: held[u] for u in y28} == y28, held
    assert {u: held[u] for u in two} == two, held


def test_other_operators_refusal_says_nothing_was_written_once(tmp_path: Path) -> None:
    # the error table adds "Nothing was written." to every PreviousError: the message itself
    # must not say it again (tester finding: it was printed twice)
    mt = Path(__file__).resolve().parent.parent / "data" / "examples" / "montana-card-room.yaml"
    me = Path(__file__).resolve().parent.parent / "data" / "examples" / "maine-legion-post.yaml"
    assert runner.invoke(app, ["solve", str(mt), "--out", str(tmp_path / "mt"),
                               "--jobs", "1"]).exit_code == 0
    res = runner.invoke(app, ["solve", str(me), "--out", str(tmp_path / "me"), "--previous",
                              str(tmp_path / "mt"), "--jobs", "1"])
    assert res.exit_code == 2, res.output
    assert " ".join(res.output.split()).count("Nothing was written") == 1, res.output
