"""What ``solve(previous=...)`` and ``solve_alternatives(previous=...)`` take (issue #12
review): a folder, a file or what ``read_previous`` returns, as ``tourney solve --previous``
passes it; a bare list of PublishedOccurrence (``list(read_previous(...))`` too) is refused
with TypeError, since it holds none of what the previous calendars published and its
calendars would differ from the CLI's (shown below with a hand-made ``Previous``)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import icalendar
import pytest
from typer.testing import CliRunner

from scheduler.engine.solver import solve, solve_alternatives
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario
from scheduler.inputs.replan.previous import PublishedOccurrence
from scheduler.inputs.replan.read import Previous, read_previous

from builders.commands import march_room_scenario

runner = CliRunner()
# the March 2027 room (builders.commands.march_room_scenario) and its first plan written by
# the CLI (the fixture first_plan of tests/conftest.py), shared with tests/test_layers.py


def _cancelled(folder: Path) -> list[dt.date]:
    """The days of the STATUS:CANCELLED events of the folder's calendar.ics, sorted."""
    cal = icalendar.Calendar.from_ical((folder / "calendar.ics").read_bytes())
    days = []
    for ev in cal.walk("VEVENT"):
        if str(ev.get("STATUS", "")) == "CANCELLED":
            start = ev.decoded("DTSTART")
            days.append(start.date() if isinstance(start, dt.datetime) else start)
    return sorted(days)


def _stamps(folder: Path) -> set[str]:
    return set(re.findall(r"DTSTAMP:(\S+)", (folder / "calendar.ics").read_text()))


def test_a_bare_list_is_refused(tmp_path: Path, first_plan: Path) -> None:
    sc = load_scenario(march_room_scenario(tmp_path, "v2", drop_friday=True))
    announced = list(read_previous(sc, first_plan))
    hand = [PublishedOccurrence("sat", dt.date(2027, 3, 6), "sat-1@room.tourney")]
    for bare in (announced, hand, tuple(hand), []):
        with pytest.raises(TypeError, match=r"previous= takes the previous plan's folder.*"
                                            r"not a bare list.*Previous\(occurrences\)"):
            solve(sc, previous=bare)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="not a bare list"):
            solve_alternatives(sc, 2, previous=bare)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a value of type dict"):
        solve(sc, previous={"sat": hand})  # type: ignore[arg-type]


def test_what_the_cli_passes_gives_the_cli_calendars(tmp_path: Path, first_plan: Path) -> None:
    # v2 drops fri, wants 2 Saturdays, blacks out Mar 13: Mar 13 and Friday Mar 5 are
    # dropped. The folder (str or Path) and read_previous's Previous give the same plan;
    # its calendars cancel both and both MT notices (5 days before, MCA 23-5-317(1)(d):
    # Mar 5 - 5 = Feb 28, Mar 13 - 5 = Mar 8), stamped 1 s after v1's DTSTAMP (midnight UTC
    # of notice_from 2027-02-01)
    sc = load_scenario(march_room_scenario(tmp_path, "v2", drop_friday=True))
    by_path = solve(sc, previous=first_plan)
    assert solve(sc, previous=str(first_plan)) == by_path
    assert solve(sc, previous=read_previous(sc, first_plan)) == by_path
    out = write_plan(by_path, tmp_path / "py")
    assert _cancelled(out) == [
        dt.date(2027, 2, 28), dt.date(2027, 3, 5), dt.date(2027, 3, 8), dt.date(2027, 3, 13)]
    assert _stamps(first_plan) == {"20270201T000000Z"}
    assert _stamps(out) == {"20270201T000001Z"}
    # why a bare list is refused: wrapped by hand it re-plans the same occurrences, but
    # knows none of v1's events: the Friday's notice (Feb 28) stays live, and the calendars
    # are stamped as v1 was (midnight of Feb 1), so a subscriber keeps v1's copies
    hand = solve(sc, previous=Previous(list(read_previous(sc, first_plan))))
    assert hand.rows == by_path.rows and hand.cancelled == by_path.cancelled
    made = write_plan(hand, tmp_path / "hand")
    assert _cancelled(made) == [
        dt.date(2027, 3, 5), dt.date(2027, 3, 8), dt.date(2027, 3, 13)]
    assert _stamps(made) == {"20270201T000000Z"}


def test_a_schedule_csv_as_previous_is_read(tmp_path: Path, first_plan: Path) -> None:
    # the folder's schedule.csv is a previous plan as README and the docstring say: the
    # re-plan from it keeps the Saturdays that v2 still wants (Mar 6 and Mar 20; Mar 13 is
    # blacked out and fri dropped), as from the folder itself
    sc = load_scenario(march_room_scenario(tmp_path, "v2", drop_friday=True))
    from_csv = solve(sc, previous=first_plan / "schedule.csv")
    from_folder = solve(sc, previous=first_plan)
    days = [r.first_day for r in from_csv.rows]
    assert days == [dt.date(2027, 3, 6), dt.date(2027, 3, 20)]
    assert days == [r.first_day for r in from_folder.rows]


def test_previous_of_another_type_is_named(tmp_path: Path) -> None:
    sc = load_scenario(march_room_scenario(tmp_path, "v2", drop_friday=True))
    with pytest.raises(TypeError, match=r"not a value of type int \(3\)$"):
        solve(sc, previous=3)  # type: ignore[arg-type]
