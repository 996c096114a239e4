"""Flights and day 2s (issue #15 part 1): a tournament given as ``sessions`` is one tournament
for the law (counted once, one notice, MT-DURATION from the first flight to the final day)
and one calendar event per session.

June 2027, Montana (America/Denver, MDT = UTC-6 all month): Fri Jun 11 is day 1, so day 2 is
Sat Jun 12, day 4 Mon Jun 14, day 5 Tue Jun 15, day 6 Wed Jun 16.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from constraints.base import Occurrence
from scheduler.check.auditing import audit
from scheduler.check.read import read_schedule
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.timing import sessions, timing, tournament_tz
from scheduler.core.uid import parse, session_uid
from scheduler.export.write import to_ics, write_plan
from scheduler.inputs.load import load_scenario

from builders.scenarios import (
    d,
    firsts,
    load,
    missing,
    mt_large,
    mt_room,
    placed,
    problems,
    run,
    scenario,
    violated,
)

JUNE = {"start": "2027-06-01", "end": "2027-07-31"}
NOTICE = "2027-05-01"
FLIGHTS = [{"day": 1, "start": "11:00", "hours": 10, "name": "Day 1A"},
           {"day": 2, "start": "11:00", "hours": 10, "name": "Day 1B"},
           {"day": 4, "start": "12:00", "hours": 12, "name": "Day 2"}]


def main_event(**kw: Any) -> dict[str, Any]:
    return {"id": "main", "title": "Main Event", "type": "large-stakes",
            "operators": ["room-a"], "sessions": FLIGHTS, **kw}


def june(*tournaments: dict[str, Any], **room: Any) -> Any:
    return load(horizon=JUNE, notice_from=NOTICE, operators=[mt_room(**room)],
                tournaments=list(tournaments))


def raw(*tournaments: dict[str, Any]) -> dict[str, Any]:
    return scenario(horizon=JUNE, notice_from=NOTICE, operators=[mt_room()],
                    tournaments=list(tournaments))


class TestField:
    def test_sessions_replace_days_start_time_and_hours(self) -> None:
        assert problems(raw(main_event(days=2))) == {("SCENARIO", "tournaments[0]")}
        assert problems(raw(main_event(start_time="11:00"))) == {("SCENARIO", "tournaments[0]")}

    def test_sessions_are_sorted_and_do_not_overlap(self) -> None:
        # Day 1B at day 1 20:00 starts before Day 1A (11:00 + 10 h = 21:00) ends
        overlap = [FLIGHTS[0], {"day": 1, "start": "20:00", "hours": 3, "name": "Day 1B"}]
        assert problems(raw(main_event(sessions=overlap))) == {("SCENARIO", "tournaments[0]")}
        # back to back (21:00 end, 21:00 start) is allowed
        ok = [FLIGHTS[0], {"day": 1, "start": "21:00", "hours": 3}]
        assert june(main_event(sessions=ok)).tournament("main").sessions[1].label == "Day 1"

    def test_the_first_session_is_on_day_1(self) -> None:
        assert problems(raw(main_event(sessions=FLIGHTS[1:]))) == {
            ("SCENARIO", "tournaments[0]")}


class TestDurationInput:
    def test_five_calendar_days_from_the_first_flight_are_legal(self) -> None:
        # day 5 12:00 + 10 h = 22:00 on day 5: days 1..5 = 5 calendar days (MT-DURATION)
        five = [*FLIGHTS[:2], {"day": 5, "start": "12:00", "hours": 10, "name": "Day 2"}]
        june(main_event(sessions=five))

    def test_six_are_mt_duration(self) -> None:
        six = [*FLIGHTS[:2], {"day": 6, "start": "12:00", "hours": 10, "name": "Day 2"}]
        assert problems(raw(main_event(sessions=six))) == {
            ("MT-DURATION", "tournaments[0].sessions")}

    def test_a_final_day_past_midnight_uses_the_sixth_day(self) -> None:
        # day 5 16:00 + 10 h = 02:00 on day 6: 6 calendar days (play past midnight, ARM
        # 23.16.101)
        late = [*FLIGHTS[:2], {"day": 5, "start": "16:00", "hours": 10, "name": "Day 2"}]
        assert ("MT-DURATION", "tournaments[0].sessions") in problems(
            raw(main_event(sessions=late)))

    def test_play_hours_are_read_per_session(self) -> None:
        # Day 2 from 07:00 starts before 08:00 (ARM 23.16.1101)
        early = [*FLIGHTS[:2], {"day": 4, "start": "07:00", "hours": 10, "name": "Day 2"}]
        assert problems(raw(main_event(sessions=early))) == {
            ("MT-PLAY-HOURS", "tournaments[0].sessions[2].hours")}

    def test_maine_duration_counts_from_the_first_session(self) -> None:
        # day 1 10:00 to day 3 10:00 + 1 h = 49 h > 48 (ME-DURATION, 17 M.R.S. § 1836(4))
        me = {"id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
              "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
              "organized_on": "1990-01-01"}
        game = {"id": "g", "title": "G", "type": "tournament-game", "operators": ["post"],
                "players": 80, "entry_fee": 100, "prize_share": 0.8,
                "sessions": [{"day": 1, "start": "10:00", "hours": 8},
                             {"day": 3, "start": "10:00", "hours": 1}]}
        data = scenario(horizon=JUNE, notice_from=NOTICE, operators=[me], tournaments=[game])
        assert problems(data) == {("ME-DURATION", "tournaments[0].sessions")}
        # day 3 09:00 + 1 h: 48 h exactly, completed within 48 hours
        game["sessions"][1]["start"] = "09:00"
        load(horizon=JUNE, notice_from=NOTICE, operators=[me], tournaments=[game])


class TestTiming:
    def test_days_of_play_are_the_days_the_sessions_touch(self) -> None:
        sc = june(main_event())
        tm = placed(sc, "main", "2027-06-11").timing
        # Jun 13 (day 3) is empty: not a day of play; Day 2 12:00 + 12 h ends at 24:00
        assert tm.days == (d("2027-06-11"), d("2027-06-12"), d("2027-06-14"))
        assert (tm.start.isoformat(), tm.end.isoformat()) == (
            "2027-06-11T11:00:00-06:00", "2027-06-15T00:00:00-06:00")
        # in UTC (MDT + 6 h): 17:00-03:00, 17:00-03:00, 18:00-06:00
        got = sessions(sc, sc.tournament("main"), tm)
        assert [(a.isoformat(), b.isoformat()) for a, b in got] == [
            ("2027-06-11T17:00:00+00:00", "2027-06-12T03:00:00+00:00"),
            ("2027-06-12T17:00:00+00:00", "2027-06-13T03:00:00+00:00"),
            ("2027-06-14T18:00:00+00:00", "2027-06-15T06:00:00+00:00")]


class TestCheck:
    def test_five_days_legal_six_mt_duration(self) -> None:
        five = [*FLIGHTS[:2], {"day": 5, "start": "12:00", "hours": 10, "name": "Day 2"}]
        sc = june(main_event(sessions=five))
        t = sc.tournament("main")
        assert "MT-DURATION" not in violated(sc, [placed(sc, "main", "2027-06-11")])
        # the same event with its Day 2 on day 6 (Wed Jun 16): Jun 11..16 = 6 calendar days
        six = t.model_copy(update={"sessions": (*t.sessions[:2], t.sessions[2].model_copy(
            update={"day": 6}))})
        tm = timing(six, tournament_tz(sc, t), d("2027-06-11"))
        assert tm is not None and tm.last_day == d("2027-06-16")
        assert violated(sc, [Occurrence(t, 1, tm)]).count("MT-DURATION") == 1

    def test_play_hours_checked_per_session(self) -> None:
        sc = june(main_event())
        t = sc.tournament("main")
        early = t.model_copy(update={"sessions": (*t.sessions[:2], t.sessions[2].model_copy(
            update={"start": dt.time(7, 0)}))})
        tm = timing(early, tournament_tz(sc, t), d("2027-06-11"))
        assert tm is not None
        assert "MT-PLAY-HOURS" in violated(sc, [Occurrence(t, 1, tm)])
        assert "MT-PLAY-HOURS" not in violated(sc, [placed(sc, "main", "2027-06-11")])


class TestSolve:
    def test_counted_once_toward_the_16(self) -> None:
        # 15 held + the flighted main event = 16 (MT-LARGE-LIMIT): placed, once
        held = {"held_in_current_permit_year": {"large_stakes": 15}}
        plan = run(june(main_event(fixed_dates=["2027-06-11"]), **held))
        assert firsts(plan) == [d("2027-06-11")]
        (row,) = plan.rows
        assert (row.first_day, row.last_day, row.notice_due) == (
            d("2027-06-11"), d("2027-06-14"), d("2027-06-06"))  # notice: Jun 11 - 5 days
        # 16 held: the 17th is refused
        plan = run(june(main_event(window={"start": "2027-06-11", "end": "2027-06-20"}),
                        held_in_current_permit_year={"large_stakes": 16}))
        assert firsts(plan) == [] and missing(plan) == [("MT-LARGE-LIMIT", "WINDOW")]

    def test_one_notice_five_days_before_the_first_flight(self, tmp_path: Path) -> None:
        plan = run(june(main_event(fixed_dates=["2027-06-11"])))
        text = to_ics(plan, tmp_path / "c.ics").read_text()
        assert text.count("X-TOURNEY-KIND:notice") == 1
        assert "DTSTART;VALUE=DATE:20270606" in text  # Jun 11 - 5 days

    def test_an_empty_day_between_flights_is_free_for_dealers(self) -> None:
        # 3 dealers; main needs 3 on Jun 11, 12, 14; side needs 3 on Sun Jun 13, the empty day
        plan = run(june(main_event(fixed_dates=["2027-06-11"], dealers_needed=3),
                        mt_large("side", dealers_needed=3, window={"start": "2027-06-13",
                                                                    "end": "2027-06-13"}),
                        dealers=3))
        assert firsts(plan, "side") == [d("2027-06-13")]


class TestCalendar:
    def test_one_event_per_session_read_back_as_one_occurrence(self, tmp_path: Path) -> None:
        sc = june(main_event(fixed_dates=["2027-06-11"]))
        plan = run(sc)
        out = write_plan(plan, tmp_path / "plan")
        text = (out / "calendar.ics").read_text()
        uid = plan.rows[0].uid
        assert [line for line in text.splitlines() if line.startswith("SUMMARY:Main")] == [
            "SUMMARY:Main Event — Day 1A", "SUMMARY:Main Event — Day 1B",
            "SUMMARY:Main Event — Day 2"]
        for k in (1, 2, 3):
            assert f"UID:{session_uid(uid, k)}" in text
        assert session_uid(uid, 1) == uid
        p = parse(session_uid(uid, 3))
        assert p is not None and (p.kind, p.tournament_id, p.occurrence, p.session) == (
            "occurrence", "main", 1, 3)
        for name in ("calendar.ics", "schedule.csv"):
            read = read_schedule(sc, out / name)
            (occ,) = read.placed
            assert occ.timing.days == (d("2027-06-11"), d("2027-06-12"), d("2027-06-14"))
            assert len(occ.timing.sessions) == 3
            assert audit(sc, read) == []


EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "examples" / "summer-series.yaml"


def test_the_bundled_summer_series(tmp_path: Path) -> None:
    # Billings: Day 1A Thu Jun 3, Day 1B Fri Jun 4, Day 2 Sun Jun 6 (notice due May 29 =
    # Jun 3 - 5); the deepstack on Sat Jun 5, the day off (16 + 8 = 24 > 20 dealers on the
    # days of play); 3 sessions x 2 Main Events + 3 deepstacks = 9 games, + 5 notices = 14
    sc = load_scenario(EXAMPLE)
    plan = run(sc)
    assert plan.required_met and len(plan.unscheduled_list) == 0
    main = next(r for r in plan.rows if r.tournament_id == "billings-main")
    assert (main.first_day, main.last_day, main.notice_due) == (
        d("2027-06-03"), d("2027-06-06"), d("2027-05-29"))
    assert d("2027-06-05") in firsts(plan, "billings-side")
    out = write_plan(plan, tmp_path / "plan")
    text = (out / "calendar.ics").read_text()
    assert text.count("BEGIN:VEVENT") == 14 and text.count("X-TOURNEY-SESSION:") == 6
    read = read_schedule(sc, out / "calendar.ics")
    assert len(read.placed) == 5 and audit(sc, read) == []


def test_a_workbook_holds_sessions_one_row_each(tmp_path: Path) -> None:
    # summer-series: billings-main and missoula-main, 3 sessions each = 6 rows of Sessions
    sc = load_scenario(EXAMPLE)
    path = tmp_path / "year.xlsx"
    path.write_bytes(sc.to_xlsx())
    ws = openpyxl.load_workbook(path)["Sessions"]
    rows = [r for r in ws.iter_rows(min_row=2, values_only=True) if r[0]]
    assert [r[:2] for r in rows] == [("billings-main", 1), ("billings-main", 2),
                                     ("billings-main", 4), ("missoula-main", 1),
                                     ("missoula-main", 2), ("missoula-main", 4)]
    assert rows[0][2] == dt.time(11, 0) and rows[0][3] == 10 and rows[0][4] == "Day 1A"
    assert Scenario.from_excel(path) == sc


def test_concurrency_in_time_sees_each_session() -> None:
    # max_concurrent 1: Sun Jun 13 (the empty day) 12:00-22:00 is free; Sat Jun 12 (Day 1B,
    # 11:00-21:00) is not; the side event's window holds only those two days
    plan = run(june(main_event(fixed_dates=["2027-06-11"]),
                    mt_large("side", count=2, window={"start": "2027-06-12",
                                                      "end": "2027-06-13"}),
                    max_concurrent=1))
    assert firsts(plan, "side") == [d("2027-06-13")]


def test_check_reads_a_moved_day_2_from_the_calendar(tmp_path: Path) -> None:
    # Day 2 (session 3) moved by hand from Mon Jun 14 to Tue Jun 15: Jun 11..15 = 5 calendar
    # days, legal; to Wed Jun 16: Jun 11..16 = 6, MT-DURATION (MCA 23-5-317(1)(c))
    sc = june(main_event(fixed_dates=["2027-06-11"]))
    ics = to_ics(run(sc), tmp_path / "c.ics")
    text = ics.read_text()
    day2 = "DTSTART;VALUE=DATE:20270614\nDTEND;VALUE=DATE:20270615"
    assert day2 in text
    for moved, rules in (("15", []), ("16", ["MT-DURATION"])):
        ics.write_text(text.replace(day2, f"DTSTART;VALUE=DATE:202706{moved}\n"
                                          f"DTEND;VALUE=DATE:202706{int(moved) + 1}"))
        read = read_schedule(sc, ics)
        (occ,) = read.placed
        assert occ.timing.last_day == d(f"2027-06-{moved}")
        assert [v.rule for v in audit(sc, read)] == rules


def test_a_session_in_the_spring_gap_is_named() -> None:
    # Sun 2027-03-14 02:00-03:00 does not exist in America/Denver; a Day 2 at 02:30 on day 3
    # of an event fixed on Fri Mar 12 cannot start (late_hours_ordinance lets play at 02:30)
    gap = [{"day": 1, "start": "12:00", "hours": 10, "name": "Day 1"},
           {"day": 3, "start": "02:30", "hours": 4, "name": "Day 2"}]
    data = scenario(operators=[mt_room(late_hours_ordinance=True)], tournaments=[
        main_event(sessions=gap, fixed_dates=["2027-03-12"])])
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    (p,) = exc.value.problems
    assert (p.rule, p.path) == ("CLOCK-CHANGE", "tournaments[0].fixed_dates[0]")
    assert "Day 2's start 02:30 does not exist on 2027-03-14 in America/Denver" in p.message
