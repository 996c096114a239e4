"""report.html's year of an operator as a table (scheduler/export/year_table.py): what each
day cell holds, checked against facts worked out by hand for the scenarios of
tests/test_figures.py (the same facts as the calendar picture's).

MT: room-a holds ``big`` on Fri 2027-03-05 and Fri 2027-08-06 and a 3-day charitable
``charity`` Fri 2027-04-30 .. Sun 2027-05-02; blackouts 2027-07-04 and 2027-12-24..26.

ME: post holds a tournament game ``g`` on Sun 2027-01-31 (20:00 for 10 h: also Feb 1), Sat
2027-03-06, Sat 2027-03-13 and Sat 2027-04-03; beano every Tuesday 18:00-22:00.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from scheduler.export.year_table import year_table
from scheduler.result.plan import Plan

from builders.scenarios import (
    load,
    mt_large,
    mt_room,
    run,
    year_of_a_post,
    year_of_a_room,
)


@pytest.fixture(scope="module")
def mt_plan() -> Plan:
    return year_of_a_room()


@pytest.fixture(scope="module")
def me_plan() -> Plan:
    return year_of_a_post()


def _cells(table: dict[str, Any]) -> dict[dt.date | str, tuple[Any, ...]]:
    """Each day cell by its date (``Feb 30`` style keys for days that do not exist)."""
    out: dict[dt.date | str, tuple[Any, ...]] = {}
    for label, cells in table["months"]:
        month = dt.datetime.strptime(label, "%b %Y").date()
        for mday, cell in enumerate(cells, start=1):
            try:
                out[month.replace(day=mday)] = cell
            except ValueError:
                out[f"{label[:3]} {mday}"] = cell
    return out


def test_mt_year_bars_blackouts_notices_and_days_that_do_not_exist(mt_plan: Plan) -> None:
    table = year_table(mt_plan, "room-a")
    # rows: the 12 months of 2027, January first
    assert [label for label, _ in table["months"]] == [
        f"{dt.date(2027, m, 1):%b} 2027" for m in range(1, 13)]
    # no two occurrences share a day: one lane
    assert table["lanes"] == 1
    cells = _cells(table)
    big = ("bar-large-stakes first last", "big (big#1), Mar 5, 2027")
    assert cells[dt.date(2027, 3, 5)] == ("", (), [big])
    # charity Apr 30 .. May 2, split at the month end: Apr 30 closed on both sides (the
    # month's last day), May 1 opens the rest, May 2 closes it
    tip = "charity (charity#1), Apr 30 – May 2, 2027"
    assert [cells[dt.date(2027, m, d)][2] for m, d in ((4, 30), (5, 1), (5, 2))] == [
        [("bar-charitable first last", tip)], [("bar-charitable first", tip)],
        [("bar-charitable last", tip)]]
    # blackouts: 2027-07-04 and Dec 24, 25, 26 -> 4 hatched cells
    assert sorted(d for d, c in cells.items() if c[0] == "blackout") == [
        dt.date(2027, 7, 4), dt.date(2027, 12, 24), dt.date(2027, 12, 25),
        dt.date(2027, 12, 26)]
    # MT-NOTICE: first day - 5 days: Mar 5 -> Feb 28, Apr 30 -> Apr 25, Aug 6 -> Aug 1
    assert sorted(d for d, c in cells.items() if c[1]) == [
        dt.date(2027, 2, 28), dt.date(2027, 4, 25), dt.date(2027, 8, 1)]
    assert cells[dt.date(2027, 2, 28)][1] == (("notice", "▼"),)
    # days that do not exist: Feb 29, 30, 31 and the 31st of Apr, Jun, Sep, Nov -> 7 cells
    assert sorted(str(d) for d, c in cells.items() if c[0] == "off") == [
        "Apr 31", "Feb 29", "Feb 30", "Feb 31", "Jun 31", "Nov 31", "Sep 31"]
    assert table["legend"] == [
        ("bar", "bar-large-stakes", "", "MT large-stakes"),
        ("bar", "bar-charitable", "", "MT charitable large-stakes"),
        ("hatch", "blackout", "", "blackout"), ("mark", "notice", "▼", "MT notice due")]
    # big#1, big#2, charity#1: 3 occurrences
    assert table["title"] == "Room-A (room-a, MT): 3 occurrence(s), Jan 2027 to Dec 2027"
    assert table["note"] == ""


def test_me_year_other_games_and_application_deadlines(me_plan: Plan) -> None:
    table = year_table(me_plan, "post")
    cells = _cells(table)
    # late#1 Sun Jan 31 20:00 + 10 h ends Mon Feb 1 06:00: a piece in January (its last
    # day) and one in February (its first)
    tip = "Hold'em (late#1), Jan 31 – Feb 1, 2027"
    assert cells[dt.date(2027, 1, 31)][2] == [("bar-tournament-game first last", tip)]
    assert cells[dt.date(2027, 2, 1)][2] == [("bar-tournament-game first last", tip)]
    # beano every Tuesday of 2027: Jan 5 + 7 x 51 = Dec 28 -> 52 hatched days
    other = sorted(d for d, c in cells.items() if c[0] == "other-game")
    assert len(other) == 52
    assert (other[0], other[-1]) == (dt.date(2027, 1, 5), dt.date(2027, 12, 28))
    # ME-APPLICATION-WINDOW, 10 Maine business days before each first day (worked out in
    # tests/test_figures.py): Jan 15, Feb 22, Mar 1, Mar 22
    assert sorted(d for d, c in cells.items() if c[1]) == [
        dt.date(2027, 1, 15), dt.date(2027, 2, 22), dt.date(2027, 3, 1),
        dt.date(2027, 3, 22)]
    assert cells[dt.date(2027, 1, 15)][1] == (("application", "◆"),)
    assert table["legend"] == [
        ("bar", "bar-tournament-game", "", "ME tournament game"),
        ("hatch", "other-game", "", "other games of chance"),
        ("mark", "application", "◆", "ME application due")]


def test_deadlines_before_the_horizon_are_listed_under_the_table() -> None:
    # big on Mon 2027-01-04: notice due Dec 30 2026, before the horizon -> no mark, a note
    plan = run(load(operators=[mt_room()], tournaments=[
        mt_large("big", fixed_dates=["2027-01-04"])]))
    table = year_table(plan, "room-a")
    assert not any(c[1] for _, cells in table["months"] for c in cells)
    assert table["note"] == ("1 notice deadline(s) fall before the horizon "
                             "(the first on 2026-12-30)")


def test_occurrences_sharing_a_day_take_one_lane_each() -> None:
    # a large-stakes and a small-stakes tournament on Fri 2027-03-05 (two live tables):
    # 2 lanes, the first by ref (a#1) above
    plan = run(load(operators=[mt_room()], tournaments=[
        mt_large("a", fixed_dates=["2027-03-05"]),
        mt_large("b", type="small-stakes", fixed_dates=["2027-03-05"])]))
    table = year_table(plan, "room-a")
    assert table["lanes"] == 2
    slots = _cells(table)[dt.date(2027, 3, 5)][2]
    assert slots == [("bar-large-stakes first last", "a (a#1), Mar 5, 2027"),
                     ("bar-small-stakes first last", "b (b#1), Mar 5, 2027")]
    assert _cells(table)[dt.date(2027, 3, 6)][2] == [None, None]


def test_year_of_an_unknown_operator_says_which_exist(mt_plan: Plan) -> None:
    with pytest.raises(ValueError, match="unknown operator 'room-z'.*room-a"):
        year_table(mt_plan, "room-z")
