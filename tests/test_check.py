"""`tourney check SCENARIO SCHEDULE`: hand-made schedules, each violating one rule, and their
legal twins, audited through the CLI.

Every schedule here is written by hand: ``schedule.csv`` rows in the product's format
(``scheduler.result.plan.SCHEDULE_COLUMNS``, as ``scheduler/export/tables.py`` writes them) and
``.ics`` calendars, both as the product writes them and as a calendar application leaves them
after a person has edited them (an event dragged to another day, an event that only carries the
tournament's title, an all-day event stretched by a day, UTC times from a web calendar). Each
violating schedule must exit 1 and name exactly the rule, operator, tournament, occurrence and
dates; its twin must exit 0 with no violation at all.

Calendar facts used below (2027): Jan 1 is a Friday; Montana (America/Denver) is UTC-7 until
Mar 14 and UTC-6 until Nov 7; Maine (America/New_York) is UTC-5 / UTC-4 on the same days; Jan 18
is Martin Luther King Jr. Day, a Maine state holiday.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.result.plan import LICENSE_COLUMNS, SCHEDULE_COLUMNS

from builders.checkfiles import (
    HEADER,
    LIC_HEADER,
    NEW_YORK,
    at,
    check,
    cribbage,
    game,
    large,
    mt_rows,
    plus,
    post,
    room,
    row,
    saturdays,
    scenario,
    seventeen_saturdays,
    small,
    write_scenario,
    write_schedule,
)
from builders.scenarios import d

runner = CliRunner()
Found = tuple[str, str, str, int | None, str]  # rule, operator, tournament, occurrence, dates


# ------------------------------------------------------------------------------ .ics
def vcal(*events: str, prodid: str = "-//tourney//tourney 0.1//EN", head: str = "") -> str:
    body = "".join(events)
    text = (f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:{prodid}\nCALSCALE:GREGORIAN\n{head}"
            f"{body}END:VCALENDAR\n")
    return text.replace("\n", "\r\n")


def allday(summary: str, first: str, end_excl: str, *, uid: str, extra: str = "") -> str:
    """An all-day VEVENT: DTEND is the day after the last day (RFC 5545 §3.6.1)."""
    return (f"BEGIN:VEVENT\nSUMMARY:{summary}\nDTSTART;VALUE=DATE:{first}\n"
            f"DTEND;VALUE=DATE:{end_excl}\nDTSTAMP:20261201T000000Z\nUID:{uid}\n{extra}"
            "END:VEVENT\n")


def timed(summary: str, start: str, end: str, *, uid: str, tzid: str | None = "America/New_York",
          extra: str = "") -> str:
    """A timed VEVENT, in a TZID (the product) or in UTC (``tzid=None``, times end in Z)."""
    p = f";TZID={tzid}" if tzid else ""
    return (f"BEGIN:VEVENT\nSUMMARY:{summary}\nDTSTART{p}:{start}\nDTEND{p}:{end}\n"
            f"DTSTAMP:20261201T000000Z\nUID:{uid}\n{extra}END:VEVENT\n")


# The product's VTIMEZONE for Maine (as scheduler/export/ical.py writes it for 2027).
NY_VTIMEZONE = """BEGIN:VTIMEZONE
TZID:America/New_York
BEGIN:STANDARD
DTSTART:20270101T000000
TZNAME:EST
TZOFFSETFROM:-0500
TZOFFSETTO:-0500
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:20270314T030000
RDATE:20280312T030000
TZNAME:EDT
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
END:DAYLIGHT
BEGIN:STANDARD
DTSTART:20271107T020000
RDATE:20281105T020000
TZNAME:EST
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
END:STANDARD
END:VTIMEZONE
"""


def product_props(tid: str, occ: int, category: str) -> str:
    return (f"SEQUENCE:0\nCATEGORIES:{category}\nX-TOURNEY-OCCURRENCE:{occ}\n"
            f"X-TOURNEY-TOURNAMENT:{tid}\n")


# ------------------------------------------------------------------------------ running


def found(res: Any) -> list[Found]:
    """The violations of a JSON report (events that matched no tournament are left out: see
    ``unmatched``)."""
    return [(v["rule"], v["operator_id"], v["tournament_id"], v["occurrence"], v["dates"])
            for v in json.loads(res.stdout) if v["rule"] not in ("UNMATCHED", "NOT-CHECKED")]


def unmatched(res: Any) -> list[str]:
    """The messages of the UNMATCHED records of a JSON report."""
    return [v["message"] for v in json.loads(res.stdout) if v["rule"] == "UNMATCHED"]


def pair(tmp_path: Path, data: dict, bad: str, good: str, expected: list[Found], *,
         name: str = "schedule.csv", bad_licenses: str | None = None,
         good_licenses: str | None = None) -> list[dict]:
    """Check ``bad`` (exit 1, exactly ``expected``) and its legal twin ``good`` (exit 0, no
    violation); returns the bad schedule's JSON records (for message checks)."""
    sc = write_scenario(tmp_path, data)
    res = check(sc, write_schedule(tmp_path / "bad", bad, name, bad_licenses))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 1, res.output
    assert found(res) == expected
    assert res.stderr == ""  # every event matched
    records = json.loads(res.stdout)
    res = check(sc, write_schedule(tmp_path / "good", good, name, good_licenses))
    assert res.exit_code == 0, res.output
    assert found(res) == []
    assert res.stderr == ""
    return records


def test_header_is_the_products() -> None:
    # the hand-made files leave out the last columns, `sequence` and `recurrence_id`
    # (re-plans) and `status` (all `new` then), which the reader does not need: an older
    # schedule.csv stays readable
    assert [*HEADER.strip().split(","), "sequence", "recurrence_id", "status"] == \
        SCHEDULE_COLUMNS
    assert LIC_HEADER.strip().split(",") == LICENSE_COLUMNS


# ============================================================================== Montana
def test_mt_large_limit_16th_is_legal_17th_is_not(tmp_path: Path) -> None:
    # 17 consecutive Saturdays from Sat 2027-01-02: the 17th is 2027-01-02 + 16 x 7 days =
    # 2027-04-24. Nothing held before the plan: 0 + 16 = 16 <= 16 (legal); 0 + 17 > 16.
    t = large("weekly", "Saturday Deepstack", weekdays=["sat"])
    data = scenario([room()], [t])
    days = saturdays("2027-01-02", 17)
    assert days[-1] == d("2027-04-24")
    recs = pair(tmp_path, data, HEADER + mt_rows(t, "room", days),
                HEADER + mt_rows(t, "room", days[:16]),
                [("MT-LARGE-LIMIT", "room", "weekly", 17, "2027-04-24")])
    assert "17th counted large-stakes tournament of the 2026-07-01 permit year" in \
        recs[0]["message"]
    assert recs[0]["citation"] == "MCA 23-5-317(1)(a)"


def test_mt_large_limit_counts_held_in_current_permit_year_only(tmp_path: Path) -> None:
    # 14 held before the plan in the 2026-07-01 permit year: 14 + 2 = 16 legal, 14 + 3 = 17.
    # The August game is in the 2027-07-01 permit year, where nothing was held: 1 <= 16.
    t = large("weekly", "Saturday Deepstack")
    data = scenario([room(held_in_current_permit_year={"large_stakes": 14})], [t])
    recs = pair(tmp_path, data,
                HEADER + mt_rows(t, "room", ["2027-01-09", "2027-01-16", "2027-01-23",
                                             "2027-08-07"]),
                HEADER + mt_rows(t, "room", ["2027-01-09", "2027-01-16", "2027-08-07"]),
                [("MT-LARGE-LIMIT", "room", "weekly", 3, "2027-01-23")])
    assert "14 held before the plan" in recs[0]["message"]


def test_shared_progressive_counts_for_each_operator(tmp_path: Path) -> None:
    # A progressive on the premises of rooms A and B counts once for EACH (MCA 23-5-317(1)(d)).
    # Held before the plan: A 15, B 14. One occurrence: A 16, B 15 (legal). Two: A 17
    # (violation), B 16 (still legal), so only A is named.
    t = large("prog", "Big Sky Progressive", ops=("a", "b"))
    data = scenario([room("a", "Room A", held_in_current_permit_year={"large_stakes": 15}),
                     room("b", "Room B", held_in_current_permit_year={"large_stakes": 14})],
                    [t])
    pair(tmp_path, data, HEADER + mt_rows(t, "*", ["2027-01-09", "2027-01-16"]),
         HEADER + mt_rows(t, "*", ["2027-01-09"]),
         [("MT-LARGE-LIMIT", "a", "prog", 2, "2027-01-16")])


def test_mt_charity_limit_and_charitable_do_not_count_toward_16(tmp_path: Path) -> None:
    # MT-CHARITY-LIMIT: only the first 3 charitable of a permit year are not counted. 16
    # counted and 1 charitable held: Mar 6 and Apr 3 are the 2nd and 3rd charitable (free:
    # the twin is legal); May 1 is the 4th charitable, counted: 16 + 1 = 17th (MT-LARGE-LIMIT).
    t = large("charity", "Food Bank Charity Classic", charitable=True, charity_share=0.5)
    data = scenario([room(held_in_current_permit_year={"large_stakes": 16, "charitable": 1})],
                    [t])
    recs = pair(tmp_path, data,
                HEADER + mt_rows(t, "room", ["2027-03-06", "2027-04-03", "2027-05-01"]),
                HEADER + mt_rows(t, "room", ["2027-03-06", "2027-04-03"]),
                [("MT-LARGE-LIMIT", "room", "charity", 3, "2027-05-01")])
    assert "17th counted large-stakes tournament" in recs[0]["message"]
    assert ("it is its 4th charitable one, and only the first 3 (1 held before the plan, "
            "charity#1 and charity#2) are not counted") in recs[0]["message"]


def test_permit_year_boundary_the_16_restart_on_july_1(tmp_path: Path) -> None:
    # 16 Saturdays Jan 2..Apr 17 fill the 2026-07-01 permit year (0 + 16 = 16). One more on
    # Wed 2027-06-30 is its 17th (violation). Moved to Thu 2027-07-01 it is the 1st of the
    # 2027-07-01 permit year, which with the 15 Saturdays Jul 3..Oct 9 makes 1 + 15 = 16.
    t = large("weekly", "Deepstack")
    data = scenario([room()], [t])
    spring, autumn = saturdays("2027-01-02", 16), saturdays("2027-07-03", 15)
    assert (spring[-1], autumn[-1]) == (d("2027-04-17"), d("2027-10-09"))
    recs = pair(tmp_path, data,
                HEADER + mt_rows(t, "room", [*spring, "2027-06-30", *autumn]),
                HEADER + mt_rows(t, "room", [*spring, "2027-07-01", *autumn]),
                [("MT-LARGE-LIMIT", "room", "weekly", 17, "2027-06-30")])
    assert "2026-07-01 permit year" in recs[0]["message"]


@pytest.mark.parametrize(("start", "bad", "good", "py"), [
    (None, "2027-06-30", "2027-07-01", "2026-07-01"),       # default: July 1
    ("10-01", "2027-09-30", "2027-10-01", "2026-10-01"),    # permit_year_start switched
])
def test_permit_year_boundary_with_16_held(tmp_path: Path, start: str | None, bad: str,
                                           good: str, py: str) -> None:
    # 16 held in the permit year containing horizon.start: 16 + 1 = 17 the day before the
    # boundary; from the boundary on, nothing is held: 0 + 1.
    t = large("one", "One Night Stack")
    extra = {"permit_year_start": start} if start else {}
    data = scenario([room(held_in_current_permit_year={"large_stakes": 16}, **extra)], [t])
    recs = pair(tmp_path, data, HEADER + mt_rows(t, "room", [bad]),
                HEADER + mt_rows(t, "room", [good]),
                [("MT-LARGE-LIMIT", "room", "one", 1, bad)])
    assert f"17th counted large-stakes tournament of the {py} permit year" in \
        recs[0]["message"]


def test_mt_duration_stretched_all_day_event(tmp_path: Path) -> None:
    # 3 play days from Fri 2027-01-08 12:00, 14 h each: the last session ends Mon 02:00, so the
    # product's all-day event is Jan 8..11 (DTEND 20270112, exclusive). Stretched in a
    # calendar application to DTEND 20270114: Jan 8..13 = 6 calendar days > 5. Stretched to
    # DTEND 20270113 only: Jan 8..12 = 5 days (legal).
    t = large("series", "Winter Series", days=3, hours=14)
    data = scenario([room()], [t])
    uid = "series-1@room.tourney"
    edited = "SEQUENCE:1\nLAST-MODIFIED:20270103T101500Z\n" + \
        "X-TOURNEY-TOURNAMENT:series\nX-TOURNEY-OCCURRENCE:1\n"
    prodid = "-//Apple Inc.//macOS 14.5//EN"
    recs = pair(tmp_path, data,
                vcal(allday("Winter Series", "20270108", "20270114", uid=uid, extra=edited),
                     prodid=prodid),
                vcal(allday("Winter Series", "20270108", "20270113", uid=uid, extra=edited),
                     prodid=prodid),
                [("MT-DURATION", "room", "series", 1, "2027-01-08..2027-01-13")],
                name="calendar.ics")
    assert "6 calendar days" in recs[0]["message"]


def test_mt_duration_in_schedule_csv(tmp_path: Path) -> None:
    # The same tournament with last_day edited: Jan 8..13 is 6 days, Jan 8..12 is 5.
    t = large("series", "Winter Series", days=3, hours=14)
    data = scenario([room()], [t])
    s = at("2027-01-08", "12:00")
    pair(tmp_path, data,
         HEADER + row(t, 1, "room", s, at("2027-01-13", "02:00")),
         HEADER + row(t, 1, "room", s, at("2027-01-12", "02:00")),
         [("MT-DURATION", "room", "series", 1, "2027-01-08..2027-01-13")])


def test_mt_notice_day_minus_5_legal_minus_4_not(tmp_path: Path) -> None:
    # notice_from 2027-01-10 (the earliest filing day). First day Fri 2027-01-15: notice due
    # 2027-01-15 - 5 = 2027-01-10 = notice_from (legal; filed 5 days before). First day Thu
    # 2027-01-14: due 2027-01-09, the day before notice_from (only 4 days before: violation).
    t = large("t", "Thursday Stack")
    data = scenario([room()], [t], notice_from="2027-01-10")
    recs = pair(tmp_path, data, HEADER + mt_rows(t, "room", ["2027-01-14"]),
                HEADER + mt_rows(t, "room", ["2027-01-15"]),
                [("MT-NOTICE", "room", "t", 1, "2027-01-14")])
    assert "its notice was due 2027-01-09, before the earliest filing day 2027-01-10" in \
        recs[0]["message"]


def test_mt_notice_each_operator_of_a_progressive(tmp_path: Path) -> None:
    # Each operator of a multi-site tournament files its own notice: both are late.
    t = large("prog", "Progressive", ops=("a", "b"))
    data = scenario([room("a", "Room A"), room("b", "Room B")], [t], notice_from="2027-01-10")
    pair(tmp_path, data, HEADER + mt_rows(t, "*", ["2027-01-14"]),
         HEADER + mt_rows(t, "*", ["2027-01-15"]),
         [("MT-NOTICE", "a", "prog", 1, "2027-01-14"),
          ("MT-NOTICE", "b", "prog", 1, "2027-01-14")])


def test_mt_small_daily_two_on_one_day(tmp_path: Path) -> None:
    # Two small-stakes tournaments on Wed 2027-01-06 (13:00-16:00 and 19:00-23:00): at most
    # one a day. The twin moves the evening one to Thu 2027-01-07.
    early = small("early", "Matinee Small Stakes", start_time="13:00", hours=3)
    late = small("late", "Evening Small Stakes")
    data = scenario([room()], [early, late])
    e = row(early, 1, "room", at("2027-01-06", "13:00"), at("2027-01-06", "16:00"))
    pair(tmp_path, data,
         HEADER + e + row(late, 1, "room", at("2027-01-06", "19:00"), at("2027-01-06", "23:00")),
         HEADER + e + row(late, 1, "room", at("2027-01-07", "19:00"), at("2027-01-07", "23:00")),
         [("MT-SMALL-DAILY", "room", "early", 1, "2027-01-06")])


def test_mt_small_daily_within_one_calendar_day(tmp_path: Path) -> None:
    # Edited to run 19:00 -> 00:30 the next day: not within one day. Ending exactly at 00:00
    # (end exclusive) stays within Wed 2027-01-06: legal.
    late = small("late", "Evening Small Stakes")
    data = scenario([room()], [late])
    s = at("2027-01-06", "19:00")
    pair(tmp_path, data, HEADER + row(late, 1, "room", s, at("2027-01-07", "00:30")),
         HEADER + row(late, 1, "room", s, at("2027-01-07", "00:00")),
         [("MT-SMALL-DAILY", "room", "late", 1, "2027-01-06")])


def test_mt_play_hours_start_before_8am(tmp_path: Path) -> None:
    # A 4 h morning game moved to start 07:30 (play 07:30-08:00 falls in 2-8 a.m.); at 08:00
    # it is legal. The twin also has a large-stakes session 12:00 + 14 h = 02:00 exactly (the
    # limit, legal).
    morning = small("morning", "Morning Small Stakes", start_time="08:00")
    late = large("late", "Late Stack", hours=14)
    data = scenario([room()], [morning, late])
    deep = mt_rows(late, "room", ["2027-01-09"])
    assert "2027-01-10T02:00:00-07:00" in deep
    pair(tmp_path, data,
         HEADER + row(morning, 1, "room", at("2027-01-06", "07:30"),
                      at("2027-01-06", "11:30")) + deep,
         HEADER + row(morning, 1, "room", at("2027-01-06", "08:00"),
                      at("2027-01-06", "12:00")) + deep,
         [("MT-PLAY-HOURS", "room", "morning", 1, "2027-01-06")])


def test_mt_play_hours_session_extended_past_2am(tmp_path: Path) -> None:
    # The product's session runs 12:00 -> 02:00 (legal, see the twin above); edited to end at
    # 03:00 it is played from 02:00 to 03:00, between 2 a.m. and 8 a.m.
    late = large("late", "Late Stack", hours=14)
    data = scenario([room()], [late])
    sc = write_scenario(tmp_path, data)
    bad = HEADER + row(late, 1, "room", at("2027-01-09", "12:00"), at("2027-01-10", "03:00"))
    res = check(sc, write_schedule(tmp_path / "bad", bad))
    assert res.exit_code == 1
    assert found(res) == [("MT-PLAY-HOURS", "room", "late", 1, "2027-01-09")]


# ============================================================================== Maine
@pytest.mark.parametrize("fmt", ["csv", "ics"])
def test_me_monthly_touch_game_ending_at_midnight_of_the_1st(tmp_path: Path, fmt: str) -> None:
    # month_rule touch. A 12 h game from Sun 2027-01-31 12:00 ends at 00:00 on Feb 1 (end
    # exclusive): it touches only January, so February may hold 2 other games (Feb 6, Feb 13)
    # -> legal. Its end dragged to 00:01 it is conducted on Feb 1 too: 3 games in 2027-02.
    sunday = game("sunday", "Sunday Hold'em")
    holdem = game("holdem", "Saturday Hold'em")
    data = scenario([post()], [sunday, holdem], settings={"month_rule": "touch"})
    feb = [at("2027-02-06", "12:00", NEW_YORK), at("2027-02-13", "12:00", NEW_YORK)]
    s = at("2027-01-31", "12:00", NEW_YORK)
    if fmt == "csv":
        others = "".join(row(holdem, k + 1, "post", x, plus(x, 12)) for k, x in enumerate(feb))
        bad = HEADER + row(sunday, 1, "post", s, at("2027-02-01", "00:01", NEW_YORK)) + others
        good = HEADER + row(sunday, 1, "post", s, at("2027-02-01", "00:00", NEW_YORK)) + others
        name = "schedule.csv"
    else:
        # as a web calendar exports it: UTC times (EST = UTC-5), its own UIDs, the product's
        # X-TOURNEY properties kept
        others = "".join(timed("Saturday Hold'em", f"202702{dd}T170000Z",
                               f"202702{int(dd) + 1:02d}T050000Z", uid=f"g{dd}@google.com",
                               tzid=None, extra=product_props("holdem", k + 1, "x"))
                         for k, dd in enumerate(["06", "13"]))
        ev = "Sunday Hold'em"
        bad = vcal(timed(ev, "20270131T170000Z", "20270201T050100Z", uid="s1@google.com",
                         tzid=None, extra=product_props("sunday", 1, "x")), others,
                   prodid="-//Google Inc//Google Calendar 70.9054//EN")
        good = bad.replace("20270201T050100Z", "20270201T050000Z")
        name = "calendar.ics"
    recs = pair(tmp_path, data, bad, good,
                [("ME-MONTHLY-LIMIT", "post", "sunday", 1, "2027-02")], name=name)
    assert "3 tournament games in 2027-02 (sunday#1, holdem#1, holdem#2)" in recs[0]["message"]


def test_me_monthly_start_counts_only_the_starting_month(tmp_path: Path) -> None:
    # month_rule start. A game from Wed 2027-03-31 18:00 for 12 h runs into April 1.
    # Twin: Mar 6 + Mar 31 start in March (2), Apr 3 + Apr 10 in April (2): legal under
    # `start` (under `touch` April would hold 3, checked below). Bad: Mar 6, Mar 13 and
    # Mar 31 all start in March: 3 > 2.
    late = game("late", "Month-End Overnight", start_time="18:00")
    holdem = game("holdem", "Saturday Hold'em")
    data = scenario([post()], [holdem, late], settings={"month_rule": "start"})

    def h(days: list[str]) -> str:
        return "".join(row(holdem, k + 1, "post", at(x, "12:00", NEW_YORK),
                           at(x, "12:00", NEW_YORK) + dt.timedelta(hours=12))
                       for k, x in enumerate(days))
    s = at("2027-03-31", "18:00", NEW_YORK)
    overnight = row(late, 1, "post", s, plus(s, 12))
    assert "2027-04-01T06:00:00-04:00" in overnight
    good = HEADER + h(["2027-03-06", "2027-04-03", "2027-04-10"]) + overnight
    pair(tmp_path, data,
         HEADER + h(["2027-03-06", "2027-03-13", "2027-04-03", "2027-04-10"]) + overnight,
         good, [("ME-MONTHLY-LIMIT", "post", "holdem", 1, "2027-03")])
    # the same legal schedule under the default reading (touch) breaks April
    sc = write_scenario(tmp_path / "touch", {**data, "settings": {"month_rule": "touch"}})
    res = check(sc, write_schedule(tmp_path / "touch", good))
    assert res.exit_code == 1
    assert found(res) == [("ME-MONTHLY-LIMIT", "post", "late", 1, "2027-04")]


def test_me_duration_48h_legal_48h_1min_not(tmp_path: Path) -> None:
    # Fri 2027-01-08 12:00 EST -> Sun 2027-01-10 12:00 EST = 48 h (legal). Its end dragged to
    # 12:01: 48 h 1 min = 48.0167 h > 48.
    marathon = game("marathon", "Hold'em Marathon", hours=48)
    data = scenario([post()], [marathon])
    props = product_props("marathon", 1, "tournament-game")
    uid = "marathon-1@post.tourney"
    recs = pair(tmp_path, data,
                vcal(timed("Hold'em Marathon", "20270108T120000", "20270110T120100", uid=uid,
                           extra=props), head=NY_VTIMEZONE),
                vcal(timed("Hold'em Marathon", "20270108T120000", "20270110T120000", uid=uid,
                           extra=props), head=NY_VTIMEZONE),
                [("ME-DURATION", "post", "marathon", 1, "2027-01-08")], name="calendar.ics")
    assert "lasts 48.0167 hours" in recs[0]["message"]


def test_me_duration_is_elapsed_time_across_the_fall_back(tmp_path: Path) -> None:
    # Clocks fall back on Sun 2027-11-07 02:00 EDT. Sat Nov 6 12:00 EDT (16:00 UTC) to Mon
    # Nov 8 12:00 EST (17:00 UTC) looks like 48 h on the wall but is 49 h; to 11:00 EST it is
    # exactly 48 h.
    marathon = game("marathon", "Hold'em Marathon", hours=48)
    data = scenario([post()], [marathon])
    s = at("2027-11-06", "12:00", NEW_YORK)
    assert plus(s, 48) == at("2027-11-08", "11:00", NEW_YORK)
    pair(tmp_path, data, HEADER + row(marathon, 1, "post", s, at("2027-11-08", "12:00", NEW_YORK)),
         HEADER + row(marathon, 1, "post", s, plus(s, 48)),
         [("ME-DURATION", "post", "marathon", 1, "2027-11-06")])


def test_me_other_games_game_moved_onto_beano_night(tmp_path: Path) -> None:
    # Beano every Tuesday 18:00-22:00. The product's game Tue 2027-01-12 12:00-18:00 ends as
    # beano starts (end exclusive: no overlap). Dragged one hour later, 13:00-19:00, it
    # overlaps beano 18:00-19:00.
    tuesday = game("tuesday", "Tuesday Hold'em", hours=6)
    data = scenario([post(other_games=[{"weekday": "tue", "start": "18:00",
                                        "end": "22:00"}])], [tuesday])
    props = product_props("tuesday", 1, "tournament-game")
    uid = "tuesday-1@post.tourney"
    good = vcal(timed("Tuesday Hold'em", "20270112T120000", "20270112T180000", uid=uid,
                      extra=props), head=NY_VTIMEZONE)
    bad = vcal(timed("Tuesday Hold'em", "20270112T130000", "20270112T190000", uid=uid,
                     extra=props.replace("SEQUENCE:0", "SEQUENCE:2")), head=NY_VTIMEZONE)
    recs = pair(tmp_path, data, bad, good,
                [("ME-OTHER-GAMES", "post", "tuesday", 1, "2027-01-12")], name="calendar.ics")
    assert "other game session Tue 2027-01-12 18:00-22:00" in recs[0]["message"]


def test_me_application_window_10_business_days(tmp_path: Path) -> None:
    # notice_from Mon 2027-01-04. The due date is the 10th Maine business day before the first
    # day. Sat Jan 16: Jan 15, 14, 13, 12, 11, 8, 7, 6, 5, 4 -> due Jan 4 = notice_from: legal.
    # Fri Jan 15: Jan 14 .. 4 are 9, (Jan 1 New Year's Day) Dec 31 is the 10th -> due before
    # notice_from -> violation.
    holdem = game("holdem", "Hold'em Night")
    data = scenario([post()], [holdem], notice_from="2027-01-04")

    def one(day: str) -> str:
        return HEADER + row(holdem, 1, "post", at(day, "12:00", NEW_YORK),
                            at(day, "12:00", NEW_YORK) + dt.timedelta(hours=12))
    pair(tmp_path, data, one("2027-01-15"), one("2027-01-16"),
         [("ME-APPLICATION-WINDOW", "post", "holdem", 1, "2027-01-15")])


def test_me_super_cribbage_statewide_15_per_year(tmp_path: Path) -> None:
    # Two clubs, 8 super cribbage tournaments each (2 a month, Jan-Apr): 16 licences in 2027
    # statewide > 15; the 16th by date is club B's Sun 2027-04-11. Moved to Sun 2028-01-02 it
    # is the 1st licence of 2028 and 2027 holds 15 (legal).
    a = cribbage("crib-a", "Club A Super Cribbage", "club-a")
    b = cribbage("crib-b", "Club B Super Cribbage", "club-b")
    data = scenario([post("club-a", "Club A"), post("club-b", "Club B")], [a, b],
                    horizon={"start": "2027-01-01", "end": "2028-06-30"})
    sats = ["2027-01-02", "2027-01-09", "2027-02-06", "2027-02-13", "2027-03-06", "2027-03-13",
            "2027-04-03", "2027-04-10"]
    suns = [(d(x) + dt.timedelta(days=1)).isoformat() for x in sats[:7]]

    def rows(t: dict, op: str, days: list[str]) -> str:
        return "".join(row(t, k + 1, op, at(x, "12:00", NEW_YORK),
                           at(x, "12:00", NEW_YORK) + dt.timedelta(hours=10))
                       for k, x in enumerate(days))
    base = HEADER + rows(a, "club-a", sats)
    recs = pair(tmp_path, data, base + rows(b, "club-b", [*suns, "2027-04-11"]),
                base + rows(b, "club-b", [*suns, "2028-01-02"]),
                [("ME-SUPER-CRIBBAGE", "club-b", "crib-b", 8, "2027-04-11")])
    assert "16th super cribbage licence of 2027" in recs[0]["message"]


# ============================================================================== scenario requests
def test_horizon_play_past_midnight_on_the_last_day(tmp_path: Path) -> None:
    # 2 play days, 12:00 + 14 h (to 02:00). From Wed Dec 29: Dec 29, 30, 31 (the last session
    # ends Dec 31 02:00) -> inside. From Thu Dec 30: the last session ends Sat 2028-01-01
    # 02:00, a day outside the horizon.
    t = large("yearend", "Year-End Stack", days=2, hours=14)
    data = scenario([room()], [t])
    pair(tmp_path, data, HEADER + mt_rows(t, "room", ["2027-12-30"]),
         HEADER + mt_rows(t, "room", ["2027-12-29"]),
         [("HORIZON", "room", "yearend", 1, "2027-12-30")])


def test_window_first_day_only(tmp_path: Path) -> None:
    # window Mar 1..Mar 31 is about FIRST days: Wed Mar 31 may run to Apr 2 (legal); a first
    # day of Thu Apr 1 is outside.
    t = large("spring", "Spring Stack", days=2, hours=14,
              window={"start": "2027-03-01", "end": "2027-03-31"})
    data = scenario([room()], [t])
    pair(tmp_path, data, HEADER + mt_rows(t, "room", ["2027-04-01"]),
         HEADER + mt_rows(t, "room", ["2027-03-31"]),
         [("WINDOW", "room", "spring", 1, "2027-04-01")])


def test_weekdays_event_matched_only_by_its_title(tmp_path: Path) -> None:
    # A calendar application's own event: no product UID, no X-TOURNEY properties, only a
    # SUMMARY equal to the tournament's title (case and spaces aside). Sat 2027-01-09 is not a
    # Friday; Fri 2027-01-08 is. Matched by title, it is numbered occurrence 1.
    t = large("friday", "Friday Deepstack", weekdays=["fri"])
    data = scenario([room()], [t])
    prodid = "-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN"

    def cal(first: str, end: str) -> str:
        return vcal(allday("friday deepstack ", first, end,
                           uid="7c1e1a7e-58b3-4bd5-9e1f-0b8f7d2a11aa"), prodid=prodid)
    pair(tmp_path, data, cal("20270109", "20270110"), cal("20270108", "20270109"),
         [("WEEKDAYS", "room", "friday", 1, "2027-01-09")], name="calendar.ics")


PROGRESSIVE_EVENT = """BEGIN:VEVENT
SUMMARY:Big Sky Progressive
DTSTART;VALUE=DATE:{first}
DTEND;VALUE=DATE:{end}
DTSTAMP:20261201T000000Z
UID:prog-1@a.tourney
SEQUENCE:{seq}
CATEGORIES:large-stakes
DESCRIPTION:Big Sky Progressive\\nDates: Thu 2027-07-01 to Sat 2027-07-03 (all day\\, 3
  calendar day(s)); play starts Thu 2027-07-01 12:00 MDT and ends Sat 2027-07-03 02:00 MDT.
LOCATION:Room A / Room B
X-TOURNEY-OCCURRENCE:1
X-TOURNEY-TOURNAMENT:prog
END:VEVENT
"""


def test_blackout_of_the_second_operator_after_midnight(tmp_path: Path) -> None:
    # 2 play days 12:00 + 14 h. The product's event Thu Jul 1..Sat Jul 3 (DTEND 20270704)
    # avoids Room B's blackout on Jul 4. Dragged one day later (Fri Jul 2..Sun Jul 4) the last
    # session runs to 02:00 on Jul 4: Room B's blackout day (Room A has none).
    t = large("prog", "Big Sky Progressive", ops=("a", "b"), days=2, hours=14)
    data = scenario([room("a", "Room A"), room("b", "Room B", blackout=["2027-07-04"])], [t])
    good = vcal(PROGRESSIVE_EVENT.format(first="20270701", end="20270704", seq=0),
                head="METHOD:PUBLISH\n")
    bad = vcal(PROGRESSIVE_EVENT.format(first="20270702", end="20270705", seq=1),
               head="METHOD:PUBLISH\n")
    recs = pair(tmp_path, data, bad, good, [("BLACKOUT", "b", "prog", 1, "2027-07-04")],
                name="calendar.ics")
    assert "a blackout day of Room B" in recs[0]["message"]


def test_fixed_dates(tmp_path: Path) -> None:
    # Pinned to start Fri 2027-05-21; the row moved to Sat 2027-05-22. The violation concerns
    # the tournament (no occurrence) on the pinned date.
    t = large("championship", "State Championship", count=1, fixed_dates=["2027-05-21"])
    data = scenario([room()], [t])
    pair(tmp_path, data, HEADER + mt_rows(t, "room", ["2027-05-22"]),
         HEADER + mt_rows(t, "room", ["2027-05-21"]),
         [("FIXED-DATES", "room", "championship", None, "2027-05-21")])


def test_min_gap(tmp_path: Path) -> None:
    # min_gap_days 21: Jan 2 -> Jan 23 is 21 days (legal); Jan 2 -> Jan 22 is 20.
    t = large("monthly", "Monthly Stack", min_gap_days=21)
    data = scenario([room()], [t])
    pair(tmp_path, data, HEADER + mt_rows(t, "room", ["2027-01-02", "2027-01-22"]),
         HEADER + mt_rows(t, "room", ["2027-01-02", "2027-01-23"]),
         [("MIN-GAP", "room", "monthly", 2, "2027-01-22")])


def test_max_concurrent_counts_the_day_after_midnight(tmp_path: Path) -> None:
    # max_concurrent 1, concurrency: day (the per-day reading; in time, 02:00 is before 14:00
    # and both are legal: tests/test_concurrency_in_time.py). Saturday's 12:00 + 14 h session
    # ends Sun 02:00, so it is conducted on Sun 2027-01-10 too, the day the Sunday tournament
    # runs. The twin holds the Sunday one a week later; a small-stakes game on Saturday's
    # first day does not count.
    sat = large("saturday", "Saturday Deepstack", hours=14)
    sun = large("sunday", "Sunday Stack", start_time="14:00", hours=6)
    night = small("night", "Saturday Small Stakes")
    data = scenario([room(concurrency="day")], [sat, sun, night])
    base = mt_rows(sat, "room", ["2027-01-09"]) + mt_rows(night, "room", ["2027-01-09"])
    pair(tmp_path, data, HEADER + base + mt_rows(sun, "room", ["2027-01-10"]),
         HEADER + base + mt_rows(sun, "room", ["2027-01-17"]),
         [("MAX-CONCURRENT", "room", "saturday", 1, "2027-01-10")])


def test_count(tmp_path: Path) -> None:
    # count 2; 3 occurrences placed.
    t = large("weekly", "Weekly Stack", count=2)
    data = scenario([room()], [t])
    recs = pair(tmp_path, data,
                HEADER + mt_rows(t, "room", ["2027-02-06", "2027-02-13", "2027-02-20"]),
                HEADER + mt_rows(t, "room", ["2027-02-06", "2027-02-13"]),
                [("COUNT", "room", "weekly", 1, "")])
    assert "weekly is placed 3 times; 2 wanted" in recs[0]["message"]


# ============================================================================== cost rules
def test_mt_permit_fees_one_permit_per_permit_year(tmp_path: Path) -> None:
    # Jan 9 is in the 2026-07-01 permit year, Aug 7 in the 2027-07-01 one: two $120 permits.
    # Without the second, Aug 7 is held without a permit.
    t = large("weekly", "Weekly Stack")
    data = scenario([room()], [t])
    sched = HEADER + mt_rows(t, "room", ["2027-01-09", "2027-08-07"])
    first = ("room/large-stakes-permit/2026-07-01,room,MT,mt-large-stakes-permit,,2026-07-01,"
             "2027-06-30,120,weekly#1\n")
    second = ("room/large-stakes-permit/2027-07-01,room,MT,mt-large-stakes-permit,,2027-07-01,"
              "2028-06-30,120,weekly#2\n")
    recs = pair(tmp_path, data, sched, sched,
                [("MT-PERMIT-FEES", "room", "weekly", 2, "2027-08-07")],
                bad_licenses=LIC_HEADER + first, good_licenses=LIC_HEADER + first + second)
    assert "2027-07-01 permit year ($120)" in recs[0]["message"]


def test_mt_small_stakes_permit_costs_500(tmp_path: Path) -> None:
    night = small("night", "Wednesday Small Stakes")
    data = scenario([room()], [night])
    sched = HEADER + mt_rows(night, "room", ["2027-01-06"])
    lic = ("room/small-stakes-permit/2026-07-01,room,MT,mt-small-stakes-permit,,2026-07-01,"
           "2027-06-30,{fee},night#1\n")
    # the row is wrong (a small-stakes permit listed at $120): reported on the row, dated by
    # its validity; the tournament it lists is covered by it, so not reported again
    recs = pair(tmp_path, data, sched, sched,
                [("MT-PERMIT-FEES", "room", "night", 1, "2026-07-01..2027-06-30")],
                bad_licenses=LIC_HEADER + lic.format(fee=120),
                good_licenses=LIC_HEADER + lic.format(fee=500))
    assert "costs $500 per permit year" in recs[0]["message"]


def test_me_fees_licence_of_the_games_tier(tmp_path: Path) -> None:
    # An 80-player game is in the 51-100 tier: a $75 per-tournament licence; a 1-50 one ($40)
    # does not cover it: the row lists a game of another tier, and the game is not covered.
    holdem = game("holdem", "Hold'em Eighty", players=80)
    data = scenario([post()], [holdem])
    s = at("2027-01-09", "12:00", NEW_YORK)
    sched = HEADER + row(holdem, 1, "post", s, plus(s, 12))
    lic = ("post/per-tournament/2027-01-09/holdem-1,post,ME,me-per-tournament,{tier},"
           "2027-01-09,2027-01-09,{fee},holdem#1\n")
    recs = pair(tmp_path, data, sched, sched,
                [("ME-FEES", "post", "holdem", 1, "2027-01-09")] * 2,
                bad_licenses=LIC_HEADER + lic.format(tier="1-50", fee=40),
                good_licenses=LIC_HEADER + lic.format(tier="51-100", fee=75))
    assert "(80 players, tier 51-100)" in recs[0]["message"]
    assert "(80 players) is not covered" in recs[1]["message"]


def test_me_fees_tier_coverage_reading(tmp_path: Path) -> None:
    # A 40-player game under a 51-100 annual licence ($1,500): covered under tier_coverage up
    # (the default), not under exact (the row lists a game it does not cover, dated by the
    # row's validity, and the game is not covered).
    holdem = game("holdem", "Hold'em Forty")
    s = at("2027-01-09", "12:00", NEW_YORK)
    sched = HEADER + row(holdem, 1, "post", s, plus(s, 12))
    lic = LIC_HEADER + ("post/annual/51-100/2027-01-09,post,ME,me-annual,51-100,2027-01-09,"
                        "2028-01-08,1500,holdem#1\n")
    for coverage, code in (("up", 0), ("exact", 1)):
        folder = tmp_path / coverage
        sc = write_scenario(folder, scenario([post()], [holdem],
                                             settings={"tier_coverage": coverage}))
        res = check(sc, write_schedule(folder, sched, licenses=lic))
        assert res.exit_code == code, res.output
        assert found(res) == ([] if code == 0 else
                              [("ME-FEES", "post", "holdem", 1, "2027-01-09..2028-01-08"),
                               ("ME-FEES", "post", "holdem", 1, "2027-01-09")])


def test_fees_not_checked_without_licenses_csv(tmp_path: Path) -> None:
    t = large("weekly", "Weekly Stack")
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    res = check(sc, write_schedule(tmp_path / "s", HEADER + mt_rows(t, "room", ["2027-01-09"])),
                "table")
    assert res.exit_code == 0
    assert "(no licenses.csv beside it: fees not checked)" in res.stdout


# ============================================================================== calendars
def test_product_calendar_with_deadlines_and_cancelled_event(tmp_path: Path) -> None:
    # 17 Saturday events in the product's style (UID, X-TOURNEY properties), with the product's
    # notice deadline events between them (ignored). The 17th is the 17th counted tournament of
    # the permit year: violation. Cancelled in the calendar (STATUS:CANCELLED) it is not held:
    # 16, legal.
    t = large("weekly", "Saturday Deepstack")
    data = scenario([room()], [t])

    def cal(last_status: str) -> str:
        events = []
        for k, day in enumerate(saturdays("2027-01-02", 17), start=1):
            nxt = day + dt.timedelta(days=1)
            extra = product_props("weekly", k, "large-stakes") + \
                ("STATUS:CANCELLED\n" if k == 17 and last_status else "")
            events.append(allday("Saturday Deepstack", f"{day:%Y%m%d}", f"{nxt:%Y%m%d}",
                                 uid=f"weekly-{k}@room.tourney", extra=extra))
            due = day - dt.timedelta(days=5)
            events.append(allday("Notice due to the Montana Gambling Control Division: "
                                 "Saturday Deepstack", f"{due:%Y%m%d}",
                                 f"{due + dt.timedelta(days=1):%Y%m%d}",
                                 uid=f"notice-weekly-{k}@room.tourney-room",
                                 extra="CATEGORIES:deadline\nX-TOURNEY-DEADLINE:mt-notice\n"
                                       f"X-TOURNEY-TOURNAMENT:weekly\nX-TOURNEY-OCCURRENCE:{k}\n"))
        return vcal(*events, head="METHOD:PUBLISH\n")
    pair(tmp_path, data, cal(""), cal("cancelled"),
         [("MT-LARGE-LIMIT", "room", "weekly", 17, "2027-04-24")], name="calendar.ics")


def test_outlook_windows_time_zone(tmp_path: Path) -> None:
    # Outlook writes Windows zone names with their own VTIMEZONE. 12:00 -> Sun 12:01 EST is
    # 48 h 1 min (ME-DURATION); -> Sun 12:00 is 48 h.
    marathon = game("marathon", "Hold'em Marathon", hours=48)
    data = scenario([post()], [marathon])
    vtz = ("BEGIN:VTIMEZONE\nTZID:Eastern Standard Time\nBEGIN:STANDARD\n"
           "DTSTART:16011104T020000\nRRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\n"
           "TZOFFSETFROM:-0400\nTZOFFSETTO:-0500\nEND:STANDARD\nBEGIN:DAYLIGHT\n"
           "DTSTART:16010311T020000\nRRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\n"
           "TZOFFSETFROM:-0500\nTZOFFSETTO:-0400\nEND:DAYLIGHT\nEND:VTIMEZONE\n")

    def cal(end: str) -> str:
        return vcal(timed("Hold'em Marathon", "20270108T120000", end,
                          uid="040000008200E00074C5B7101A82E00800000000",
                          tzid='"Eastern Standard Time"'),
                    prodid="-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", head=vtz)
    pair(tmp_path, data, cal("20270110T120100"), cal("20270110T120000"),
         [("ME-DURATION", "post", "marathon", 1, "2027-01-08")], name="calendar.ics")


def test_one_operators_calendar_is_not_blamed_for_the_others_fixed_date(tmp_path: Path) -> None:
    # calendars/room.ics holds only Room's events: Post's pinned game is not expected there.
    # The same events in calendar.ics (the whole plan) miss Post's fixed date.
    t = large("weekly", "Weekly Stack")
    pinned = game("pinned", "Pinned Game", count=1, fixed_dates=["2027-02-06"])
    sc = write_scenario(tmp_path, scenario([room(), post()], [t, pinned]))
    # Whose calendar it is comes from its content (X-TOURNEY-OPERATOR, as tourney writes it
    # into calendars/room.ics), not its file name (issue #11 part 6)
    event = allday("Weekly Stack", "20270109", "20270110", uid="weekly-1@room.tourney",
                   extra=product_props("weekly", 1, "large-stakes"))
    res = check(sc, write_schedule(tmp_path / "plan", vcal(event, head="X-TOURNEY-OPERATOR:room\n"),
                                   "calendars/room.ics"))
    assert res.exit_code == 0, res.output
    text = vcal(event)
    res = check(sc, write_schedule(tmp_path / "plan", text, "calendar.ics"))
    assert res.exit_code == 1
    assert found(res) == [("FIXED-DATES", "post", "pinned", None, "2027-02-06")]


def test_product_plan_checks_clean(tmp_path: Path) -> None:
    # What `tourney solve` writes passes `tourney check`: schedule.csv (with licenses.csv
    # beside it, fees checked), calendar.ics and a per-operator calendar.
    data = scenario([room(), post(other_games=[{"weekday": "sat", "start": "19:00",
                                                "end": "23:00"}])],
                    [large("spring", "Spring Stack", count=2, weekdays=["sat"], days=2,
                           hours=14, window={"start": "2027-03-01", "end": "2027-03-31"}),
                     game("holdem", "Saturday Hold'em", count=3, weekdays=["sat"], hours=6,
                          window={"start": "2027-03-01", "end": "2027-04-30"})])
    sc = write_scenario(tmp_path, data)
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(sc), "--out", str(out), "--time-limit", "10"])
    assert res.exit_code == 0, res.output
    for f in ("schedule.csv", "calendar.ics", "calendars/room.ics", "calendars/post.ics"):
        res = check(sc, out / f)
        assert (res.exit_code, found(res), res.stderr) == (0, [], ""), f


def test_recurring_event_counts_every_instance(tmp_path: Path) -> None:
    # A person made "Saturday Deepstack" a weekly recurring event of 17 instances (Jan 2 ..
    # Apr 24): the 17th counted tournament of the permit year.
    t = large("weekly", "Saturday Deepstack")
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    text = vcal(allday("Saturday Deepstack", "20270102", "20270103", uid="r1@example.com",
                       extra="RRULE:FREQ=WEEKLY;COUNT=17\n"))
    res = check(sc, write_schedule(tmp_path, text, "calendar.ics"))
    assert res.exit_code == 1
    assert found(res) == [("MT-LARGE-LIMIT", "room", "weekly", 17, "2027-04-24")]


@pytest.mark.parametrize("case", ["timed", "all-day"])
def test_event_with_duration_instead_of_dtend(tmp_path: Path, case: str) -> None:
    marathon = game("marathon", "Hold'em Marathon", hours=48)
    series = large("series", "Winter Series", days=3, hours=14)
    sc = write_scenario(tmp_path, scenario([room(), post()], [marathon, series]))
    if case == "timed":
        # Fri 2027-01-08 12:00 + PT48H1M = 48 h 1 min > 48
        ev = ("BEGIN:VEVENT\nSUMMARY:Hold'em Marathon\nDTSTART;TZID=America/New_York:"
              "20270108T120000\nDURATION:PT48H1M\nUID:m1@example.com\nEND:VEVENT\n")
        expected = [("ME-DURATION", "post", "marathon", 1, "2027-01-08")]
    else:
        # all-day from Fri 2027-01-08 for P6D: Jan 8..13, 6 calendar days > 5
        ev = ("BEGIN:VEVENT\nSUMMARY:Winter Series\nDTSTART;VALUE=DATE:20270108\n"
              "DURATION:P6D\nUID:w1@example.com\nEND:VEVENT\n")
        expected = [("MT-DURATION", "room", "series", 1, "2027-01-08..2027-01-13")]
    res = check(sc, write_schedule(tmp_path, vcal(ev), "calendar.ics"))
    assert res.exit_code == 1
    assert found(res) == expected


def test_all_day_maine_event_counts_in_every_month_it_shows(tmp_path: Path) -> None:
    # "Sunday Hold'em" (12:00 + 12 h) turned into an all-day event over Sun Jan 31 and Mon Feb 1
    # (DTEND 20270202); February already holds 2 games: 3 under month_rule touch.
    sunday = game("sunday", "Sunday Hold'em")
    holdem = game("holdem", "Saturday Hold'em")
    sc = write_scenario(tmp_path, scenario([post()], [sunday, holdem]))
    others = "".join(timed("Saturday Hold'em", f"202702{dd}T120000", f"202702{dd}T235900",
                           uid=f"h{dd}@example.com") for dd in ("06", "13"))
    text = vcal(allday("Sunday Hold'em", "20270131", "20270202", uid="s@example.com"), others)
    res = check(sc, write_schedule(tmp_path, text, "calendar.ics"))
    assert res.exit_code == 1
    assert found(res) == [("ME-MONTHLY-LIMIT", "post", "sunday", 1, "2027-02")]


# ============================================================================== unmatched
def test_unmatched_calendar_event_is_reported_and_exits_1(tmp_path: Path) -> None:
    t = large("weekly", "Weekly Stack")
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    text = vcal(allday("Weekly Stack", "20270109", "20270110", uid="weekly-1@room.tourney"),
                allday("Staff Christmas Party", "20271218", "20271219", uid="xmas@example.com"))
    res = check(sc, write_schedule(tmp_path, text, "calendar.ics"))
    assert res.exit_code == 1
    assert found(res) == []  # the matched event is legal
    assert "not matched:" in res.stderr and "'Staff Christmas Party'" in res.stderr
    # the JSON report lists it too
    assert len(unmatched(res)) == 1 and "'Staff Christmas Party'" in unmatched(res)[0]
    assert "xmas@example.com" in res.stderr and "Weekly Stack" not in res.stderr


def test_unknown_tournament_in_schedule_csv_exits_1(tmp_path: Path) -> None:
    t = large("weekly", "Weekly Stack")
    ghost = large("ghost", "Ghost Stack")
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    path = write_schedule(tmp_path, HEADER + mt_rows(t, "room", ["2027-01-09"])
                          + mt_rows(ghost, "room", ["2027-01-16"]))
    res = check(sc, path)
    assert res.exit_code == 1
    assert found(res) == []
    assert f"{path}:3: tournament_id 'ghost' is not in the scenario" in res.stderr
    assert unmatched(res) == [f"{path}:3: tournament_id 'ghost' is not in the scenario"]


def test_title_shared_by_two_tournaments_does_not_match(tmp_path: Path) -> None:
    a = large("a1", "Deepstack")
    b = large("b1", "Deepstack")
    sc = write_scenario(tmp_path, scenario([room()], [a, b]))
    res = check(sc, write_schedule(tmp_path, vcal(allday("Deepstack", "20270109", "20270110",
                                                         uid="x@example.com")), "calendar.ics"))
    assert res.exit_code == 1 and "'Deepstack'" in res.stderr


# ============================================================================== unreadable input
GOOD_ROW = row(large("weekly", "Weekly Stack"), 1, "room", at("2027-01-09", "12:00"),
               at("2027-01-09", "22:00"))


@pytest.mark.parametrize(("name", "text", "says"), [
    ("schedule.csv", "tournament_id,occurrence,start,end\nweekly,1,2027-01-09,2027-01-10\n",
     "missing column(s) first_day, last_day"),
    ("schedule.csv", HEADER + GOOD_ROW.replace(",2027-01-09,2027-01-09,", ",2027-02-30,"
                                               "2027-01-09,"), "schedule.csv:2:"),
    ("schedule.csv", HEADER + GOOD_ROW.replace("2027-01-09T12:00:00-07:00",
                                               "2027-01-09T12:00:00"), "need a UTC offset"),
    ("schedule.csv", HEADER + GOOD_ROW.replace(",1,room,", ",first,room,"), "schedule.csv:2:"),
    ("schedule.csv", "", "the file is empty"),
    ("calendar.ics", "this is not a calendar\n", "not a readable iCalendar file"),
    ("calendar.ics", vcal(timed("Weekly Stack", "20270109T120000", "20270109T220000",
                                uid="weekly-1@room.tourney", tzid="")),
     "DTSTART without a time zone"),
])
def test_unreadable_schedule_exits_2_naming_the_file(tmp_path: Path, name: str, text: str,
                                                      says: str) -> None:
    sc = write_scenario(tmp_path, scenario([room()], [large("weekly", "Weekly Stack")]))
    path = write_schedule(tmp_path / "in", text, name)
    res = check(sc, path)
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)
    assert str(path) in res.stderr and says in res.stderr
    assert "Traceback" not in res.output and res.stdout == ""


def test_unreadable_licenses_csv_exits_2(tmp_path: Path) -> None:
    sc = write_scenario(tmp_path, scenario([room()], [large("weekly", "Weekly Stack")]))
    lic = LIC_HEADER + "p,room,MT,mt-large-stakes-permit,,2026-07-01,2027-06-30,lots,weekly#1\n"
    path = write_schedule(tmp_path, HEADER + GOOD_ROW, licenses=lic)
    res = check(sc, path)
    assert res.exit_code == 2
    assert str(tmp_path / "licenses.csv") in res.stderr and "Traceback" not in res.output


def test_missing_schedule_file_exits_2(tmp_path: Path) -> None:
    sc = write_scenario(tmp_path, scenario([room()], [large("weekly", "Weekly Stack")]))
    res = check(sc, tmp_path / "nope.csv")
    assert res.exit_code == 2 and f"{tmp_path / 'nope.csv'}: no such file" in res.stderr


@pytest.mark.parametrize("dtstart", ["DTSTART;VALUE=DATE:2027xx09", "DTSTART;VALUE=DATE:20271345",
                                     "DTSTART:garbage"])
def test_ics_with_a_bad_date_exits_2(tmp_path: Path, dtstart: str) -> None:
    sc = write_scenario(tmp_path, scenario([room()], [large("weekly", "Weekly Stack")]))
    text = vcal(allday("Weekly Stack", "20270109", "20270110", uid="weekly-1@room.tourney")
                .replace("DTSTART;VALUE=DATE:20270109", dtstart))
    path = write_schedule(tmp_path, text, "calendar.ics")
    res = check(sc, path)
    assert res.exit_code == 2
    assert isinstance(res.exception, SystemExit)
    assert str(path) in res.stderr


def test_empty_licenses_csv_exits_2(tmp_path: Path) -> None:
    sc = write_scenario(tmp_path, scenario([room()], [large("weekly", "Weekly Stack")]))
    path = write_schedule(tmp_path, HEADER + GOOD_ROW, licenses="")
    res = check(sc, path)
    assert res.exit_code == 2
    assert isinstance(res.exception, SystemExit)
    assert str(tmp_path / "licenses.csv") in res.stderr


# ============================================================================== output formats


def test_format_csv(tmp_path: Path) -> None:
    res = check(*seventeen_saturdays(tmp_path), fmt="csv")
    assert res.exit_code == 1
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert list(rows[0]) == ["rule", "citation", "operator_id", "tournament_id", "occurrence",
                             "dates", "message"]
    assert [(r["rule"], r["citation"], r["operator_id"], r["tournament_id"], r["occurrence"],
             r["dates"]) for r in rows] == [
        ("MT-LARGE-LIMIT", "MCA 23-5-317(1)(a)", "room", "weekly", "17", "2027-04-24")]


def test_format_table(tmp_path: Path) -> None:
    sc, path = seventeen_saturdays(tmp_path)
    res = check(sc, path, fmt="table")
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert lines[0].startswith("MT-LARGE-LIMIT, MCA 23-5-317(1)(a) | room | weekly#17 | "
                               "2027-04-24 | ")
    assert lines[-1] == (f"1 violation(s) in 17 occurrence(s) of {path} (no licenses.csv "
                         "beside it: fees not checked)")


def test_format_is_validated(tmp_path: Path) -> None:
    res = check(*seventeen_saturdays(tmp_path), fmt="xml")
    assert res.exit_code == 2 and "--format must be table, csv or json" in res.stderr


def test_clean_schedule_json_is_an_empty_list(tmp_path: Path) -> None:
    t = large("weekly", "Weekly Stack")
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    res = check(sc, write_schedule(tmp_path, HEADER + mt_rows(t, "room", ["2027-01-09"])))
    assert res.exit_code == 0 and json.loads(res.stdout) == []


# ------------------------------------------------------------------ edited product output
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def _solved(tmp_path: Path, example: str) -> Path:
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(EXAMPLES / example), "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def test_a_row_copied_with_other_dates_is_one_more_occurrence(tmp_path: Path) -> None:
    # Saturday Hold'em #1 is on Sat 2027-01-09 and #... a copy moved to Sat 2027-01-16 makes
    # a 3rd game in January 2027 (the plan already holds 2): ME-MONTHLY-LIMIT
    out = _solved(tmp_path, "maine-legion-post.yaml")
    sched = out / "schedule.csv"
    lines = sched.read_text().splitlines()
    first = next(ln for ln in lines if ln.startswith("saturday-holdem,1,"))
    assert ",2027-01-09," in first
    copy = first.replace("2027-01-10", "2027-01-17").replace("2027-01-09", "2027-01-16")
    sched.write_text("\n".join([*lines, copy]) + "\n")
    res = runner.invoke(app, ["check", str(EXAMPLES / "maine-legion-post.yaml"), str(sched),
                              "--format", "json"])
    assert res.exit_code == 1
    assert ("ME-MONTHLY-LIMIT", "post-212", "saturday-holdem", 1, "2027-01") in found(res)
    assert "saturday-holdem#1 appears again with other dates" in res.stderr


def test_days_that_contradict_the_times_are_unreadable(tmp_path: Path) -> None:
    out = _solved(tmp_path, "maine-legion-post.yaml")
    sched = out / "schedule.csv"
    text = sched.read_text()
    # move only start/end of Saturday Hold'em #1 to Tuesday 2027-01-12: first_day still says 9
    row = next(ln for ln in text.splitlines() if ln.startswith("saturday-holdem,1,"))
    sched.write_text(text.replace(row, row.replace("2027-01-09T", "2027-01-12T")
                                              .replace("2027-01-10T", "2027-01-13T")))
    res = runner.invoke(app, ["check", str(EXAMPLES / "maine-legion-post.yaml"), str(sched)])
    assert res.exit_code == 2
    assert "do not match start 2027-01-12T" in res.output and "Traceback" not in res.output


def test_missing_required_occurrence_is_reported(tmp_path: Path) -> None:
    # the Veterans championship is required: 1; deleting its row leaves 0 of 1
    out = _solved(tmp_path, "maine-legion-post.yaml")
    sched = out / "schedule.csv"
    kept = [ln for ln in sched.read_text().splitlines()
            if not ln.startswith("veterans-championship,")]
    sched.write_text("\n".join(kept) + "\n")
    (out / "licenses.csv").unlink()
    res = runner.invoke(app, ["check", str(EXAMPLES / "maine-legion-post.yaml"), str(sched),
                              "--format", "json"])
    assert res.exit_code == 1
    assert ("REQUIRED", "post-212", "veterans-championship", None, "") in found(res)


def test_deadlines_are_recognised_without_x_properties(tmp_path: Path) -> None:
    # a calendar app that drops X-TOURNEY-* and CATEGORIES: deadlines keep their UID prefix
    out = _solved(tmp_path, "maine-legion-post.yaml")
    ics = out / "calendar.ics"
    stripped = [ln for ln in ics.read_text().split("\r\n")
                if not ln.startswith(("X-TOURNEY", "CATEGORIES"))]
    ics.write_text("\r\n".join(stripped))
    res = runner.invoke(app, ["check", str(EXAMPLES / "maine-legion-post.yaml"), str(ics)])
    assert res.exit_code == 0, res.output + res.stderr


def test_two_operator_calendars_joined_count_each_event_once(tmp_path: Path) -> None:
    # the shared progressive is in both rooms' calendars; joined, it is still one event
    out = _solved(tmp_path, "montana-card-room.yaml")
    both = tmp_path / "both.ics"
    both.write_bytes((out / "calendars" / "room-a.ics").read_bytes() +
                     (out / "calendars" / "room-b.ics").read_bytes())
    res = runner.invoke(app, ["check", str(EXAMPLES / "montana-card-room.yaml"), str(both)])
    assert res.exit_code == 0, res.output + res.stderr


@pytest.mark.parametrize("typed", ["cancelled", "Canceled", "CANCELLED."])
def test_a_row_typed_cancelled_is_not_counted_toward_mt_large_limit(tmp_path: Path,
                                                                    typed: str) -> None:
    # 17 Saturdays from 2027-01-02, the 17th (2027-04-24) cancelled in the status column:
    # 16 counted <= 16, legal; "Canceled" is the US spelling, a full stop is dropped
    t = large("weekly", "Saturday Deepstack", weekdays=["sat"])
    days = saturdays("2027-01-02", 17)
    rows = mt_rows(t, "room", days).splitlines()
    text = (HEADER.rstrip("\n") + ",sequence,recurrence_id,status\n"
            + "".join(f"{r},0,,{'new' if k < 16 else typed}\n" for k, r in enumerate(rows)))
    sc = write_scenario(tmp_path, scenario([room()], [t]))
    res = check(sc, write_schedule(tmp_path / "s", text))
    assert res.exit_code == 0, res.output
    assert found(res) == []
    res = check(sc, write_schedule(tmp_path / "g", text.replace(f",{typed}\n", ",Gone\n")))
    assert res.exit_code == 2
    assert ("schedule.csv:18: status 'Gone' is not one of held, cancelled, filed, "
            "announced, new") in " ".join(res.output.split())


@pytest.mark.parametrize(("as_of", "exit_code"), [("2027-01-14", 0), ("2027-01-13", 2)])
def test_mt_notice_of_a_row_typed_held_is_judged_as_held_only_once_begun(
        tmp_path: Path, as_of: str, exit_code: int) -> None:
    # notice_from 2027-01-10; first day Thu 2027-01-14: notice due 2027-01-09, before it
    # (MT-NOTICE, as test_mt_notice_day_minus_5_legal_minus_4_not). Typed "held", the row is
    # history (it happened, its notice is not judged again) when the check runs as of its
    # first day 2027-01-14 or later; as of 2027-01-13 it has not begun, so "held" is refused
    # (exit 2) rather than hiding the late notice.
    t = large("t", "Thursday Stack")
    sc = write_scenario(tmp_path, scenario([room()], [t], notice_from="2027-01-10"))
    text = (HEADER.rstrip("\n") + ",status\n"
            + "".join(f"{r},held\n" for r in mt_rows(t, "room", ["2027-01-14"]).splitlines()))
    path = write_schedule(tmp_path / "s", text)
    res = runner.invoke(app, ["check", str(sc), str(path), "--format", "json",
                              "--as-of", as_of])
    assert res.exit_code == exit_code, res.output
    if exit_code == 0:
        assert found(res) == []
    else:
        said = " ".join(res.output.split())
        assert ("schedule.csv:2: status 'held', but t#1 begins 2027-01-14, after the day of "
                "the check (2027-01-13; --as-of, default today)") in said
        assert "not judged again on notice (MT-NOTICE, ME-APPLICATION-WINDOW)" in said


def test_check_reads_schedule_headers_in_any_case(tmp_path: Path) -> None:
    # A spreadsheet's "Status", " First Day" and "Last<no-break space> Day" are schedule.csv's
    # status, first_day and last_day: the row typed held on 2027-01-14 (notice due
    # 2027-01-09 < notice_from 2027-01-10) is not judged again on notice as of 2027-02-01
    # (0 violations; were "Status" not read as status it would be 1).
    t = large("t", "Thursday Stack")
    sc = write_scenario(tmp_path, scenario([room()], [t], notice_from="2027-01-10"))
    header = (HEADER.rstrip("\n").replace("first_day", " First Day")
              .replace("last_day", "Last\u00a0 Day") + ",Status\n")
    rows = "".join(f"{r},Held\n" for r in mt_rows(t, "room", ["2027-01-14"]).splitlines())
    res = runner.invoke(app, ["check", str(sc), str(write_schedule(tmp_path / "s", header + rows)),
                              "--format", "json", "--as-of", "2027-02-01"])
    assert res.exit_code == 0, res.output
    assert found(res) == []
    # two headers that are one column once read: refused, naming it
    twice = header.rstrip("\n") + ",status\n" + rows.replace(",Held\n", ",Held,held\n")
    res = runner.invoke(app, ["check", str(sc), str(write_schedule(tmp_path / "t", twice))])
    assert res.exit_code == 2
    assert "column 'status' appears twice" in " ".join(res.output.split())


def test_a_shared_occurrence_marked_held_at_one_venue_only_is_refused_before_it_begins(
        tmp_path: Path) -> None:
    # prog at rooms a and b, first day 2027-01-15: one row per venue (lines 2 and 3); only
    # room b's row says held. As of 2027-01-14 it has not begun: refused, naming line 3.
    t = large("prog", "Progressive", ops=("a", "b"))
    sc = write_scenario(tmp_path, scenario([room("a", "Room A"), room("b", "Room B")], [t]))
    rows = mt_rows(t, "*", ["2027-01-15"]).splitlines()
    assert len(rows) == 2
    text = HEADER.rstrip("\n") + ",status\n" + f"{rows[0]},new\n{rows[1]},held\n"
    res = runner.invoke(app, ["check", str(sc), str(write_schedule(tmp_path / "s", text)),
                              "--as-of", "2027-01-14"])
    assert res.exit_code == 2
    assert "schedule.csv:3: status 'held', but prog#1 begins 2027-01-15" in " ".join(
        res.output.split())


def test_me_fees_of_a_renumbered_occurrence_read_by_its_x_tourney_occurrence(
        tmp_path: Path) -> None:
    # A re-plan cancelled holdem#2 (Feb 6): the games of Mar 13 and Apr 3 keep their UIDs
    # "holdem-3@...", "holdem-4@..." and are holdem#2 and #3 now (X-TOURNEY-OCCURRENCE), as
    # licenses.csv covers them: each $75 per-tournament licence is valid on its game's day
    # (0 violations). Read by the UIDs' numbers, Mar 13 would be holdem#3, and the licence of
    # holdem#3, valid Apr 3, would list a game not on its day (ME-FEES).
    holdem = game("holdem", "Hold'em Eighty", players=80)
    sc = write_scenario(tmp_path, scenario([post()], [holdem]))
    events = [timed("Hold'em Eighty", f"2027{md}T120000", f"2027{md}T235959",
                    uid=f"holdem-{u}@post.0123456789.tourney.invalid",
                    extra=product_props("holdem", n, "tournament-game"))
              for md, u, n in (("0109", 1, 1), ("0313", 3, 2), ("0403", 4, 3))]
    lic = LIC_HEADER + "".join(
        f"post/per-tournament/{day}/holdem,post,ME,me-per-tournament,51-100,{day},{day},75,"
        f"holdem#{n}\n" for day, n in (("2027-01-09", 1), ("2027-03-13", 2),
                                        ("2027-04-03", 3)))
    path = write_schedule(tmp_path / "c", vcal(*events, head=NY_VTIMEZONE), "calendar.ics",
                          licenses=lic)
    res = check(sc, path)
    assert res.exit_code == 0, res.output
    assert found(res) == []
