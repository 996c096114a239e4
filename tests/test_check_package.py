"""``tourney check`` as a package (issue #12: modules over ~400 lines split by responsibility):
scheduler/check/ keeps one name for everything its importers use, spells ``X-TOURNEY-KIND``
only as :data:`scheduler.core.uid.KIND_PROPERTY`, and reads the days a timed event or a
schedule.csv row touches with :func:`scheduler.core.timing.days_touched` (end exclusive: a game
ending at 00:00 does not touch the next day).

Calendar facts: 2027-03-06 is a Saturday; Montana (America/Denver) is UTC-7 until Mar 14.
"""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path
from types import ModuleType

import pytest

import scheduler.check as check
from scheduler.check.kinds import SINGLE_PROPERTIES
from scheduler.check.read import read_schedule
from scheduler.check.schedule import ScheduleError
from scheduler.core.scenario import Scenario
from scheduler.core.uid import KIND_PROPERTY

from builders.scenarios import d, load, mt_large, mt_room

PACKAGE = Path(check.__file__).parent
HEADER = ("tournament_id,occurrence,operator_id,jurisdiction,type,charitable,title,start,end,"
          "first_day,last_day,notice_due,permit_year,counted,players,license_id,uid\n")


def _late() -> Scenario:
    # 18:00 for 6 hours: ends at 00:00 the next day, on the wall clock
    return load(operators=[mt_room()],
                tournaments=[mt_large("late", start_time="18:00", hours=6, count=1)])


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the string nodes that are docstrings (module, class, function, attribute)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)
                    and (i == 0 or isinstance(body[i - 1], ast.Assign))):
                out.add(id(stmt.value))
    return out


def test_every_module_is_under_400_lines() -> None:
    sizes = {p.name: len(p.read_text().splitlines()) for p in PACKAGE.glob("*.py")}
    assert len(sizes) == 9  # __init__ and eight modules, one responsibility each
    assert max(sizes.values()) < 400, sizes


def test_the_package_gathers_no_names() -> None:
    # each name is imported from the module that defines it (tests/test_import_paths.py):
    # the package holds only its modules
    assert [n for n, v in vars(check).items()
            if not n.startswith("_") and not isinstance(v, ModuleType)] == []
    assert ScheduleError.__module__ == "scheduler.check.schedule"


def test_the_kind_property_has_one_spelling() -> None:
    assert KIND_PROPERTY == "X-TOURNEY-KIND" and SINGLE_PROPERTIES[0] is KIND_PROPERTY
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        literal = [n.lineno for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and id(n) not in docs and "X-TOURNEY-KIND" in n.value]
        assert literal == [], f"{path.name}: lines {literal}"


def _csv(tmp_path: Path, end: str, last_day: str) -> Path:
    path = tmp_path / "schedule.csv"
    path.write_text(HEADER + f"late,1,room-a,MT,large-stakes,false,late,"
                    f"2027-03-06T18:00:00-07:00,{end},2027-03-06,{last_day},,,true,,,\n")
    return path


def test_a_row_ending_at_midnight_touches_one_day(tmp_path: Path) -> None:
    # 18:00 + 6 h = 00:00 on Mar 7, end exclusive: the last instant is Mar 6 23:59:59.999999
    read = read_schedule(_late(), _csv(tmp_path, "2027-03-07T00:00:00-07:00", "2027-03-06"))
    assert [o.timing.days for o in read.placed] == [(d("2027-03-06"),)]
    with pytest.raises(ScheduleError) as exc:
        read_schedule(_late(), _csv(tmp_path, "2027-03-07T00:00:00-07:00", "2027-03-07"))
    assert ("first_day 2027-03-06 .. last_day 2027-03-07 do not match" in str(exc.value)
            and "end exclusive, are 2027-03-06 .. 2027-03-06)" in str(exc.value))
    # one second later it touches Mar 7 too: 2 days
    read = read_schedule(_late(), _csv(tmp_path, "2027-03-07T00:00:01-07:00", "2027-03-07"))
    assert [o.timing.days for o in read.placed] == [(d("2027-03-06"), d("2027-03-07"))]


def _ics(tmp_path: Path, dtend: str) -> Path:
    # 01:00Z on Mar 7 is 18:00 on Mar 6 in Denver (UTC-7); 07:00Z is 00:00 on Mar 7
    path = tmp_path / "late.ics"
    path.write_text("\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hand//EN", "BEGIN:VEVENT",
        "UID:late-night@example.com", "SUMMARY:late", "DTSTAMP:20270101T000000Z",
        "DTSTART:20270307T010000Z", f"DTEND:{dtend}", "END:VEVENT", "END:VCALENDAR", ""]))
    return path


def test_a_timed_event_ending_at_midnight_touches_one_day(tmp_path: Path) -> None:
    read = read_schedule(_late(), _ics(tmp_path, "20270307T070000Z"))
    assert [(o.ref, o.timing.days) for o in read.placed] == [("late#1", (d("2027-03-06"),))]
    assert read.placed[0].timing.end == dt.datetime(2027, 3, 7, 7, tzinfo=dt.UTC)
    read = read_schedule(_late(), _ics(tmp_path, "20270307T070001Z"))
    assert [o.timing.days for o in read.placed] == [(d("2027-03-06"), d("2027-03-07"))]
