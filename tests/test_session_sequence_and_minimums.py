"""What a fresh tester of issue #15's parts found (a minimum not met that said nothing, a
re-timed session kept its SEQUENCE, reasons naming the wrong thing, messages): each fixed
with a hand-computed case.

The vehicle is a Montana large-stakes tournament of one calendar day (12:00 for 10 h) in 2027
(``conftest.mt_large``); ``notice_from`` 2026-12-01 keeps MT-NOTICE out of the way. 2027-01-01
is a Friday, so Jan 1-3 are ISO week 2026-W53; June 2027 has 4 Saturdays (5, 12, 19, 26).
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scheduler import solve
from scheduler.check.read import read_schedule
from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.export.diff import diff_plans
from scheduler.export.ical import calendar_files
from scheduler.export.summary import summary_text
from scheduler.export.write import write_plan
from scheduler.inputs.load import load_scenario

from builders.scenarios import firsts, load, mt_large, mt_room, run, scenario

JUNE_OFF = ["2027-06-01..2027-06-30"]


class TestMinimumShortfallIsReported:
    """PER-MONTH-MIN / PER-WEEK-MIN not met: a required unscheduled row naming the period."""

    def test_min_only_count_reached_elsewhere(self) -> None:
        # count 12, per_month.min 1, Saturdays, June blacked out: 11 months get one, the 12th
        # occurrence goes into some other month (no max), so 12 are placed and June is short
        # of 1; June has 30 days: 4 Saturdays (BLACKOUT, and WEEKDAYS too) + 26 other days
        # (WEEKDAYS): each day under the rule excluding most days, WEEKDAYS 26 + BLACKOUT 4
        sc = load(operators=[mt_room(blackout=JUNE_OFF)], tournaments=[mt_large(
            "deep", count=12, per_month={"min": 1}, weekdays=["sat"])])
        plan = run(sc)
        assert len(firsts(plan)) == 12 and not plan.required_met
        assert [(u.occurrence, u.required, u.rule_ids) for u in plan.unscheduled_list] == [
            (13, True, ("PER-MONTH-MIN", "BLACKOUT", "WEEKDAYS"))]
        reason = plan.unscheduled_list[0].reason
        assert reason == ("per_month.min asks at least 1 first day(s) in 2027-06 "
                          "(PER-MONTH-MIN), 1 missing: none of its 30 days can be a first "
                          "day: 30 days excluded by WEEKDAYS (26 days), BLACKOUT (4 days)")
        text = summary_text(plan)
        assert "12 occurrences placed, 1 not placed" in text
        assert f"  deep#13: {reason}" in text  # the line "see above" points to
        # the conflict names June's request and the blackout in its way
        assert [[m.rule for m in c] for c in plan.conflicts] == [["REQUEST", "BLACKOUT"]]
        assert "Conflict 1:" in text

    def test_per_month_one_blames_june_not_january(self) -> None:
        # per_month: 1 = {min: 1, max: 1}: 11 months hold one each, June none; the 12th
        # occurrence is June's (not "PER-MONTH in January", the next free Saturday's rule)
        sc = load(operators=[mt_room(blackout=JUNE_OFF)], tournaments=[mt_large(
            "deep", count=12, per_month=1, weekdays=["sat"])])
        plan = run(sc)
        assert [d.month for d in firsts(plan)] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]
        [u] = plan.unscheduled_list
        assert (u.occurrence, u.required, u.rule_ids[0]) == (12, True, "PER-MONTH-MIN")
        assert "in 2027-06 (PER-MONTH-MIN)" in u.reason and "BLACKOUT (4 days)" in u.reason
        assert "2027-01" not in u.reason

    def test_per_week_one_with_week_53_blacked_out(self) -> None:
        # horizon Jan 1..Feb 28 2027: ISO weeks 2026-W53 (Fri Jan 1..Sun Jan 3: 3 days in
        # the horizon) and 2027-W01..W08 = 9 weeks, count 9; W53's 3 days are blacked out
        sc = load(horizon={"start": "2027-01-01", "end": "2027-02-28"},
                  operators=[mt_room(blackout=["2027-01-01..2027-01-03"])],
                  tournaments=[mt_large("w", count=9, per_week=1)])
        plan = run(sc)
        assert len(firsts(plan)) == 8
        [u] = plan.unscheduled_list
        assert (u.occurrence, u.required, u.rule_ids) == (9, True, ("PER-WEEK-MIN",
                                                                   "BLACKOUT"))
        assert u.reason == ("per_week.min asks at least 1 first day(s) in 2026-W53 "
                            "(PER-WEEK-MIN), 1 missing: none of its 3 days can be a first "
                            "day: 3 days excluded by BLACKOUT (3 days)")


# ----------------------------------------------------------------- 2. a session retimed
def flights(day2: dict[str, Any]) -> Any:
    """A Main Event fixed on Thu 2027-06-10: Day 1A, Day 1B (11:00 for 10 h) and ``day2``
    on day 4 (Sun 2027-06-13)."""
    return load(horizon={"start": "2027-06-01", "end": "2027-06-30"}, notice_from="2027-05-01",
                operators=[mt_room()], tournaments=[{
                    "id": "main", "title": "Main Event", "type": "large-stakes",
                    "operators": ["room-a"], "fixed_dates": ["2027-06-10"],
                    "sessions": [{"day": 1, "start": "11:00", "hours": 10, "name": "Day 1A"},
                                 {"day": 2, "start": "11:00", "hours": 10, "name": "Day 1B"},
                                 {"day": 4, **day2, "name": "Day 2"}]}])


def sequences(folder: Path) -> dict[str, int]:
    """UID -> SEQUENCE of the occurrence events of calendar.ics."""
    text = (folder / "calendar.ics").read_text()
    return {m[0]: int(m[1]) for m in re.findall(r"UID:(main-\S+)\r?\nSEQUENCE:(\d+)", text)}


def test_a_retimed_session_gets_a_higher_sequence_and_shows_in_diff(tmp_path: Path) -> None:
    # Day 2 from 12:00 for 12 h to 14:00 for 10 h: both end at 00:00 on Mon Jun 14, so the
    # occurrence's span (Jun 10 11:00 .. Jun 14 00:00) is the same; only session 3 changed
    before = solve(flights({"start": "12:00", "hours": 12}), seed=0, workers=1)
    old = write_plan(before, tmp_path / "old")
    after = solve(flights({"start": "14:00", "hours": 10}), seed=0, workers=1, previous=old)
    new = write_plan(after, tmp_path / "new")
    seq = sequences(new)
    s1 = next(u for u in seq if ".s" not in u)
    s3 = s1.replace("main-1@", "main-1.s3@")
    # SEQUENCE 0 before; session 3 retimed: 0 + 1; sessions 1 and 2 unchanged: 0
    assert sequences(old) == dict.fromkeys(seq, 0)
    assert seq == {s1: 0, s1.replace("main-1@", "main-1.s2@"): 0, s3: 1}
    assert diff_plans(old, new).splitlines() == [
        f"retimed    Main Event ({s1}): session 3 2027-06-13T12:00:00-06:00.."
        "2027-06-14T00:00:00-06:00 -> 2027-06-13T14:00:00-06:00..2027-06-14T00:00:00-06:00",
        "1 moved, 0 added, 0 cancelled; fees $120 -> $120 (+$0)"]
    # re-planned again unchanged: session 3 keeps 1 (never lower), nothing in the diff
    again = solve(flights({"start": "14:00", "hours": 10}), seed=0, workers=1, previous=new)
    third = write_plan(again, tmp_path / "third")
    assert sequences(third) == seq
    assert diff_plans(new, third).splitlines()[:-1] == []


# ----------------------------------------------------------------- 3. a tour stop's reason
def test_an_unplaced_stop_is_blamed_on_its_own_tour() -> None:
    # tour t2 = s3 (room-a), s5 (room-b): placed on Mar 1 and 2; tour t3 = s6 (room-a), s7
    # (room-c, blacked out all March): s7 has no day, so s6 cannot be placed alone
    # (TOUR-WHOLE); s6's reason must name t3, not t2 (whose s5 at room-b is not among the
    # occurrences room-a's trial sees)
    sc = load(horizon={"start": "2027-03-01", "end": "2027-03-20"},
              operators=[mt_room("room-a"), mt_room("room-b"),
                         mt_room("room-c", blackout=["2027-03-01..2027-03-31"])],
              tournaments=[mt_large("s3", ("room-a",)), mt_large("s5", ("room-b",)),
                           mt_large("s6", ("room-a",)), mt_large("s7", ("room-c",))],
              tours=[{"id": "t2", "title": "T2", "stops": ["s3", "s5"]},
                     {"id": "t3", "title": "T3", "stops": ["s6", "s7"]}])
    plan = run(sc)
    assert sorted(r.tournament_id for r in plan.rows) == ["s3", "s5"]
    s6 = next(u for u in plan.unscheduled_list if u.tournament_id == "s6")
    assert s6.rule_ids[0] == "TOUR-WHOLE"
    assert "for example: tour t3 places s6 but not s7" in s6.reason
    assert "t2" not in s6.reason


# ----------------------------------------------------------------- 4. out of allowed days
def test_out_of_allowed_first_days_says_so() -> None:
    # count 7 Wednesdays in March 2027: the Wednesdays are Mar 3, 10, 17, 24, 31 = 5, all
    # used; the other 365 - 5 = 360 days: outside the window 365 - 31 = 334 (WINDOW), the
    # other 26 March days (WEEKDAYS); occurrences 6 and 7 are not placed
    sc = load(operators=[mt_room()], tournaments=[mt_large(
        "w", count=7, weekdays=["wed"], window={"start": "2027-03-01", "end": "2027-03-31"})])
    plan = run(sc)
    assert len(firsts(plan)) == 5
    assert [(u.occurrence, u.reason) for u in plan.unscheduled_list] == [
        (k, "every allowed first day is already used (5 Wednesdays in its window); 360 days "
            "excluded by: WINDOW (334 days), WEEKDAYS (26 days)") for k in (6, 7)]


# ----------------------------------------------------------------- 5. stdout closed early
def test_a_closed_standard_output_is_no_internal_error(tmp_path: Path) -> None:
    # `tourney solve ... | true`: the reader is gone before the summary is printed; the
    # plan is written all the same and tourney ends quietly with 141 (128 + SIGPIPE 13),
    # not 3 "internal error ... Nothing was written"
    yaml = tmp_path / "s.yaml"
    yaml.write_text("name: s\nhorizon: {start: 2027-03-01, end: 2027-03-31}\n"
                    "notice_from: 2027-02-01\noperators:\n"
                    "  - {id: r, name: Room, jurisdiction: MT, live_tables: 2}\n"
                    "tournaments:\n  - {id: m, title: M, type: large-stakes, operators: [r],"
                    " start_time: '12:00', hours: 10}\n")
    out = tmp_path / "plan"
    p = subprocess.Popen([sys.executable, "-m", "scheduler.cli", "solve", str(yaml), "-o",
                          str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    assert (p.wait(timeout=300), err) == (141, "")
    assert (out / "schedule.csv").read_text().count("\n") == 2  # header + m#1


# ----------------------------------------------------------------- 7. messages
def problems_of(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(path, rule, message) of each problem loading ``data`` raises."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    return [(p.path, p.rule, p.message) for p in exc.value.problems]


def test_a_tour_of_one_stop() -> None:
    got = problems_of(scenario(operators=[mt_room()], tournaments=[mt_large("s1")],
                               tours=[{"id": "t", "title": "T", "stops": ["s1"]}]))
    assert got == [("tours[0].stops", "SCENARIO", "a tour has at least 2 stops")]


def test_per_month_in_words() -> None:
    got = problems_of(scenario(operators=[mt_room()],
                               tournaments=[mt_large("m", per_month="monthly")]))
    assert got == [("tournaments[0].per_month", "SCENARIO",
                    "write a whole number N (exactly N a calendar month, e.g. per_month: 1) "
                    "or {min: N, max: M} (at least N, at most M a calendar month; either may "
                    "be left out)")]


def test_sessions_as_text() -> None:
    got = problems_of(scenario(operators=[mt_room()], tournaments=[{
        "id": "m", "title": "M", "type": "large-stakes", "operators": ["room-a"],
        "sessions": "Day 1A"}]))
    assert got == [("tournaments[0].sessions", "SCENARIO",
                    "write a list of sessions, e.g. [{day: 1, start: '11:00', hours: 10}]")]


def test_a_tour_id_used_twice_is_a_scenario_problem() -> None:
    tour = {"id": "t", "title": "T", "stops": ["a", "b"]}
    got = problems_of(scenario(operators=[mt_room()],
                               tournaments=[mt_large("a"), mt_large("b")], tours=[tour, tour]))
    assert ("tours[1].id", "SCENARIO", "tour id is used twice") in got
    assert not any(p == "tours[1].id" and r != "SCENARIO" for p, r, _ in got)


def test_super_cribbage_sessions_over_72_hours() -> None:
    # day 1 10:00 to day 4 20:00: 3 days x 24 h + 10 h = 82 h > 72 (§ 1836(4-A)); a
    # tournament game's 48 h (ME-DURATION) does not apply to super cribbage
    got = problems_of(scenario(
        operators=[{"id": "p", "name": "Post", "jurisdiction": "ME"}],
        tournaments=[{"id": "c", "title": "C", "type": "super-cribbage", "operators": ["p"],
                      "sessions": [{"day": 1, "start": "10:00", "hours": 10},
                                   {"day": 4, "start": "10:00", "hours": 10}]}]))
    mine = [(r, m) for p, r, m in got if p == "tournaments[0].sessions"]
    assert mine == [("ME-SUPER-CRIBBAGE", "the sessions run 82 hours from the first one's "
                     "start to the last one's end; a super cribbage game must be completed "
                     "within 72 hours of its start")]


def test_a_single_session_keeps_the_title() -> None:
    sc = load(horizon={"start": "2027-06-01", "end": "2027-06-30"}, notice_from="2027-05-01",
              operators=[mt_room()], tournaments=[
                  {"id": "c", "title": "C", "type": "large-stakes", "operators": ["room-a"],
                   "sessions": [{"day": 1, "start": "11:00", "hours": 10}]},
                  {"id": "n", "title": "N", "type": "large-stakes", "operators": ["room-a"],
                   "sessions": [{"day": 1, "start": "11:00", "hours": 10, "name": "Final"}]}])
    plan = run(sc)
    ics = calendar_files(plan, dt.datetime(2027, 1, 1, tzinfo=dt.UTC))["calendar.ics"].decode()
    titles = [x for x in re.findall(r"SUMMARY:(.*?)\r?\n", ics) if not x.startswith("Notice")]
    assert sorted(titles) == ["C", "N — Final"]  # which comes first is a tie of the days


# ----------------------------------------------------------------- 8. the files written
def test_the_wrote_line_names_every_file(tmp_path: Path) -> None:
    yaml = tmp_path / "s.yaml"
    yaml.write_text("name: s\nhorizon: {start: 2027-03-01, end: 2027-03-31}\n"
                    "notice_from: 2027-02-01\noperators:\n"
                    "  - {id: r, name: Room, jurisdiction: MT, live_tables: 2}\n"
                    "tournaments:\n  - {id: m, title: M, type: large-stakes, operators: [r],"
                    " start_time: '12:00', hours: 10}\n")
    out = tmp_path / "plan"
    res = CliRunner().invoke(app, ["solve", str(yaml), "-o", str(out)])
    assert res.exit_code == 0, res.output
    line = next(ln for ln in res.output.splitlines() if ln.startswith("Wrote "))
    named = line.split("(", 1)[1].rstrip(")").split(", ")
    assert named == ["schedule.csv", "licenses.csv", "unscheduled.csv", "deadlines.csv",
                     "calendar.ics", "calendars/", "plan.xlsx", "summary.txt", "scenario.yaml"]
    # every file of the folder but its hidden marker (.tourney-plan)
    assert sorted(p.name + ("/" if p.is_dir() else "") for p in out.iterdir()
                  if not p.name.startswith(".")) == sorted(named)


# ----------------------------------------------------------------- 6. check: the sessions
def _events(ics: str) -> list[str]:
    return re.findall(r"BEGIN:VEVENT\r\n.*?END:VEVENT\r\n", ics, re.S)


def test_check_names_sessions_that_do_not_match(tmp_path: Path) -> None:
    # the Main Event on Thu Jun 10 2027: Day 1A Jun 10 11:00-21:00, Day 1B Jun 11 11:00-21:00,
    # Day 2 Sun Jun 13 12:00-24:00 (MDT, -06:00)
    sc = flights({"start": "12:00", "hours": 12})
    out = write_plan(solve(sc, seed=0, workers=1), tmp_path / "plan")
    ics = (out / "calendar.ics").read_bytes().decode()
    s2 = next(e for e in _events(ics) if "X-TOURNEY-SESSION:2" in e)
    s3 = next(e for e in _events(ics) if "X-TOURNEY-SESSION:3" in e)
    gone = tmp_path / "gone.ics"
    gone.write_bytes(ics.replace(s2, "").encode())
    assert read_schedule(sc, gone).unmatched == [
        f"{gone}: main#1: session 2 (Day 1B) has no event, the scenario gives 3 sessions "
        "(SCENARIO)"]
    # Day 2 moved two days earlier, onto Day 1B's Jun 11: 12:00-24:00 overlaps 11:00-21:00
    moved = s3
    for a, b in (("20270613", "20270611"), ("20270614", "20270612"),
                 ("2027-06-13", "2027-06-11"), ("2027-06-14", "2027-06-12")):
        moved = moved.replace(a, b)
    onto = tmp_path / "onto.ics"
    onto.write_bytes(ics.replace(s3, moved).encode())
    assert read_schedule(sc, onto).unmatched == [
        f"{onto}: main#1: session 2 (Day 1B) (2027-06-11T11:00:00-06:00 .. "
        "2027-06-11T21:00:00-06:00) and session 3 (Day 2) (2027-06-11T12:00:00-06:00 .. "
        "2027-06-12T00:00:00-06:00) are in play at once; a tournament's sessions do not "
        "overlap (SCENARIO)"]
    # schedule.csv: the row ends Jun 13 20:00, before Day 2 ends (Jun 14 00:00): a note
    csv = (out / "schedule.csv").read_text()
    short = tmp_path / "short.csv"
    short.write_text(csv.replace("2027-06-14T00:00:00-06:00", "2027-06-13T20:00:00-06:00"))
    assert read_schedule(sc, short).unmatched == [
        f"{short}:2: main#1: start 2027-06-10T11:00:00-06:00 .. end 2027-06-13T20:00:00-06:00 "
        "is not the span of its 3 sessions (Day 1A, Day 1B, Day 2: 2027-06-10T11:00:00-06:00 "
        ".. 2027-06-14T00:00:00-06:00); read as one session from start to end (SCENARIO)"]
    # the calendar and schedule.csv as written match: nothing to say
    assert read_schedule(sc, out / "calendar.ics").unmatched == []
    assert read_schedule(sc, out / "schedule.csv").unmatched == []
