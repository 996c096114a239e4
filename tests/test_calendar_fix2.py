"""Calendars across plans, third round (issue #11, faults a re-test found):

A. another organization's plan given as ``--previous`` through a calendar file
   (``calendar.ics`` or a per-operator file) is refused as the folder is: the calendars name
   their operators (X-TOURNEY-OPERATOR-NAME);
B. publishing this year's plan after next year's leaves next year's deadlines alone;
C. a new occurrence never gets a UID that another plan of the lineage may have used.

CalDAV cases run against the real Radicale server of test_publish.py.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_calendar_across_plans import _other_org
from test_calendar_identity import _data, _solve, _write
from typer.testing import CliRunner

from scheduler.cli import app

runner = CliRunner()


# =========================================================================== A. whose plan
def test_calendar_files_name_their_operators(tmp_path: Path) -> None:
    # "Legion Post 88, Saco; Bay" needs TEXT escapes (RFC 5545 §3.3.11: \, and \;)
    _solve(_write(tmp_path, "one", _data(**{"post.name": "Legion Post 88, Saco; Bay"})),
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
    _solve(_write(tmp_path, "again", _data(**{"post.name": "Legion Post 88, Saco; Bay"})),
           tmp_path / "again", "--previous", str(tmp_path / "one" / "calendar.ics"))


def test_another_organizations_calendar_file_is_refused(tmp_path: Path) -> None:
    # the same operator ids (room, post), other names: before, calendar.ics (no names) and
    # calendars/room.ics (its name only in X-WR-CALNAME) were taken as this club's plan, its
    # lineage taken over and its events cancelled
    _solve(_write(tmp_path, "one", _data()), tmp_path / "one")
    other = _write(tmp_path, "two", _other_org())
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


def test_calendar_of_an_earlier_version_compares_operator_ids_only(tmp_path: Path) -> None:
    # a calendar.ics written before X-TOURNEY-OPERATOR-NAME existed names no operator: the
    # ids are compared, as before (room and post are the scenario's: accepted)
    _solve(_write(tmp_path, "one", _data()), tmp_path / "one")
    old = tmp_path / "old.ics"
    text = (tmp_path / "one" / "calendar.ics").read_bytes()
    old.write_bytes(re.sub(rb"X-TOURNEY-OPERATOR-NAME:[^\r]*\r\n", b"", text))
    assert b"X-TOURNEY-OPERATOR-NAME" in text and b"X-TOURNEY-OPERATOR-NAME" not in \
        old.read_bytes()
    _solve(_write(tmp_path, "two", _other_org()), tmp_path / "two", "--previous", str(old))

