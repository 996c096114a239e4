"""Re-planning with --previous: UIDs kept, pins, fewest moves, cancellations; tourney diff."""

from __future__ import annotations

import csv
import datetime as dt
import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.engine.solver import solve
from scheduler.inputs.replan.previous import PublishedOccurrence
from scheduler.inputs.replan.read import Previous

from builders.scenarios import load

runner = CliRunner()
ROOM = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}
MARCH = {"start": "2027-03-01", "end": "2027-03-31"}


def _large(**kw: object) -> dict:
    return {"id": "sat", "title": "Saturday Stack", "type": "large-stakes",
            "operators": ["room"], "weekdays": ["sat"], **kw}


def _short(text: str) -> str:
    """UIDs in ``text`` written as before plan lineages: ``sat-1@room.tourney`` for
    ``sat-1@room.<lineage>.tourney.invalid`` (scheduler.core.uid), and a notice as
    ``notice-<occurrence uid>-<operator>``; the lineage is tested in test_calendar_identity."""
    text = re.sub(r"notice-([a-z0-9-]+)\.([^@\s]+)@([a-z0-9-]+)\.[0-9a-f]{10}\.tourney\.invalid",
                  r"notice-\2@\3.tourney-\1", text)
    return re.sub(r"@([a-z0-9-]+)\.[0-9a-f]{10}\.tourney\.invalid", r"@\1.tourney", text)


def _rows(folder: Path) -> list[dict[str, str]]:
    rows = list(csv.DictReader((folder / "schedule.csv").open()))
    return [{**r, "uid": _short(r["uid"])} for r in rows]


def test_new_blackout_moves_only_the_occurrence_it_touches(tmp_path: Path) -> None:
    # Saturdays of March 2027: 6, 13, 20, 27; count 2 -> the earliest: 6 and 13.
    # Blacking out Mar 6 afterwards: a fresh plan would take 13 and 20 (both move, numbering
    # shifts); the re-plan keeps Mar 13 and moves only Mar 6 -> Mar 20 (1 moved, 7 days).
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=2)]}
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text(yaml.safe_dump(base))
    second.write_text(yaml.safe_dump({**base, "operators": [{**ROOM,
                                                             "blackout": ["2027-03-06"]}]}))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(first), "--out", str(a)]).exit_code == 0
    res = runner.invoke(app, ["solve", str(second), "--out", str(b), "--previous", str(a)])
    assert res.exit_code == 0, res.output
    before = {r["uid"]: r["first_day"] for r in _rows(a)}
    after = {r["uid"]: (r["first_day"], r["sequence"]) for r in _rows(b)}
    assert before == {"sat-1@room.tourney": "2027-03-06", "sat-2@room.tourney": "2027-03-13"}
    # the UID of the moved occurrence is kept and its SEQUENCE goes up by one
    assert after == {"sat-1@room.tourney": ("2027-03-20", "1"),
                     "sat-2@room.tourney": ("2027-03-13", "0")}
    res = runner.invoke(app, ["diff", str(a), str(b)])
    assert res.exit_code == 0
    assert _short(res.output).splitlines() == [
        "moved      Saturday Stack (sat-1@room.tourney): 2027-03-06..2027-03-06 -> "
        "2027-03-20..2027-03-20",
        "1 moved, 0 added, 0 cancelled; fees $120 -> $120 (+$0)"]


def test_past_notice_deadline_pins() -> None:
    # previous: Mar 20 and 27. notice_from 2027-03-16: Mar 20's notice was due Mar 15
    # (20 - 5) < Mar 16 -> pinned; Mar 27's is due Mar 22 -> free, and it stays (no move).
    previous = [PublishedOccurrence("sat", dt.date(2027, 3, d), f"sat-{k}@room.tourney")
                for k, d in enumerate([20, 27], start=1)]
    sc = load(horizon=MARCH, notice_from="2027-03-16", operators=[ROOM],
              tournaments=[_large(count=2)])
    plan = solve(sc, time_limit=10, previous=Previous(previous))
    assert sorted((r.first_day.day, _short(r.uid), r.sequence) for r in plan.rows) == [
        (20, "sat-1@room.tourney", 0), (27, "sat-2@room.tourney", 0)]
    assert sc.tournament("sat").fixed_dates == ()  # the scenario itself is unchanged
    assert plan.scenario.tournament("sat").fixed_dates == (dt.date(2027, 3, 20),)


def test_locked_tournament_keeps_its_days() -> None:
    # previous: Mar 27 only; prefer_weekdays [sat] is met anywhere, so a fresh plan would take
    # the earliest Saturday (Mar 6); locked keeps Mar 27 as a pinned date.
    previous = [PublishedOccurrence("sat", dt.date(2027, 3, 27), "sat-1@room.tourney")]
    sc = load(horizon=MARCH, notice_from="2027-02-01", operators=[ROOM],
              tournaments=[_large(count=1, locked=True)])
    plan = solve(sc, time_limit=10, previous=Previous(previous))
    assert [(r.first_day.day, _short(r.uid)) for r in plan.rows] == [(27, "sat-1@room.tourney")]
    assert [r.first_day.day for r in solve(sc, time_limit=10).rows] == [6]


def test_dropped_occurrence_is_cancelled_and_new_one_gets_a_fresh_uid() -> None:
    # previous: 3 occurrences (Mar 6, 13, 20); now count 2 and Mar 13 blacked out: Mar 6
    # (sat-1) and Mar 20 (sat-3) are kept on their days, Mar 13 (sat-2) has no place left ->
    # cancelled with SEQUENCE 0 + 1 = 1.
    prev = [PublishedOccurrence("sat", dt.date(2027, 3, d), f"sat-{k}@room.tourney")
            for k, d in enumerate([6, 13, 20], start=1)]
    sc = load(horizon=MARCH, notice_from="2027-02-01",
              operators=[{**ROOM, "blackout": ["2027-03-13"]}], tournaments=[_large(count=2)])
    plan = solve(sc, time_limit=10, previous=Previous(prev))
    assert sorted((r.first_day.day, _short(r.uid)) for r in plan.rows) == [
        (6, "sat-1@room.tourney"), (20, "sat-3@room.tourney")]
    assert [(_short(c.uid), c.first_day.day, c.sequence) for c in plan.cancelled] == [
        ("sat-2@room.tourney", 13, 1)]
    # count 3 again but Mar 6 and 13 blacked out: 20 and 27 remain; 27 is new -> sat-4
    sc = load(horizon=MARCH, notice_from="2027-02-01",
              operators=[{**ROOM, "blackout": ["2027-03-06", "2027-03-13"]}],
              tournaments=[_large(count=3)])
    plan = solve(sc, time_limit=10, previous=Previous(prev[2:]))
    assert sorted((r.first_day.day, _short(r.uid)) for r in plan.rows) == [
        (20, "sat-3@room.tourney"), (27, "sat-4@room.tourney")]


def test_unreadable_previous_is_a_clear_error(tmp_path: Path) -> None:
    src = tmp_path / "s.yaml"
    src.write_text(yaml.safe_dump({"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
                                   "operators": [ROOM], "tournaments": [_large()]}))
    res = runner.invoke(app, ["solve", str(src), "--previous", str(tmp_path / "nope")])
    assert res.exit_code == 2 and "no such file" in res.output


def test_moved_and_cancelled_in_the_calendar(tmp_path: Path) -> None:
    """RFC 5545 §3.8.7.4 SEQUENCE and §3.8.1.11 STATUS:CANCELLED after a re-plan."""
    import icalendar

    from scheduler.export.ical import calendar_files

    prev = [PublishedOccurrence("sat", dt.date(2027, 3, d), f"sat-{k}@room.tourney")
            for k, d in enumerate([6, 13, 20], start=1)]
    # count 2, Mar 6 blacked out: Mar 13 and 20 kept (SEQUENCE 0), Mar 6 cancelled (1)
    sc = load(horizon=MARCH, notice_from="2027-02-01",
              operators=[{**ROOM, "blackout": ["2027-03-06"]}], tournaments=[_large(count=2)])
    plan = solve(sc, time_limit=10, previous=Previous(prev))
    cal = icalendar.Calendar.from_ical(
        calendar_files(plan, dt.datetime(2027, 2, 1, tzinfo=dt.UTC))["calendar.ics"])
    events = {_short(str(e["UID"])): e for e in cal.walk("VEVENT")
              if not e.get("X-TOURNEY-DEADLINE")}
    assert {u: (int(e["SEQUENCE"]), str(e.get("STATUS", ""))) for u, e in events.items()} == {
        "sat-1@room.tourney": (1, "CANCELLED"), "sat-2@room.tourney": (0, ""),
        "sat-3@room.tourney": (0, "")}
    assert events["sat-1@room.tourney"].decoded("DTSTART") == dt.date(2027, 3, 6)


def test_previous_calendar_with_a_weekly_series(tmp_path: Path) -> None:
    # Wednesdays of March 2027: 3, 10, 17, 24, 31 (count all) written as one RRULE series;
    # re-planning from calendar.ics reads its 5 nights and keeps them (nothing moves)
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01", "operators": [ROOM],
            "tournaments": [{"id": "wed", "title": "Wednesday", "type": "small-stakes",
                             "operators": ["room"], "count": "all", "weekdays": ["wed"],
                             "entry_fee": 40, "start_time": "19:00", "hours": 4}]}
    src = tmp_path / "s.yaml"
    src.write_text(yaml.safe_dump(base))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    res = runner.invoke(app, ["solve", str(src), "--out", str(b), "--previous",
                              str(a / "calendar.ics")])
    assert res.exit_code == 0, res.output
    # schedule.csv names each night as the calendar does: the series UID and the night's
    # RECURRENCE-ID (issue #11 part 4)
    assert [(r["first_day"], r["uid"], r["sequence"], r["recurrence_id"]) for r in _rows(b)] \
        == [(f"2027-03-{d:02d}", "wed.series@room.tourney", "0", f"2027-03-{d:02d}")
            for d in [3, 10, 17, 24, 31]]


def test_bundled_example_one_new_blackout_moves_only_what_it_touches(tmp_path: Path) -> None:
    # maine-legion-post.yaml places Saturday Hold'em #2 on Sat 2027-02-06. Blacking out that
    # day and re-planning moves that one game only (a fresh solve would move 3).
    src = Path(__file__).resolve().parents[1] / "data" / "examples" / "maine-legion-post.yaml"
    data = yaml.safe_load(src.read_text())
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    assert ("saturday-holdem", "2027-02-06") in {(r["tournament_id"], r["first_day"])
                                                 for r in _rows(a)}
    data["operators"][0]["blackout"].append(dt.date(2027, 2, 6))
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(data))
    res = runner.invoke(app, ["solve", str(changed), "--out", str(b), "--previous", str(a)])
    assert res.exit_code == 0, res.output
    lines = _short(runner.invoke(app, ["diff", str(a), str(b)]).output).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("moved      Saturday Hold'em (saturday-holdem-2@post-212.tourney)"
                               ": 2027-02-06..2027-02-06 -> ")
    assert lines[1].startswith("1 moved, 0 added, 0 cancelled")


def test_replan_made_the_same_day_is_stamped_later(tmp_path: Path) -> None:
    """RFC 5545 §3.8.7.2: changed events get a new DTSTAMP. Both plans are made as of
    notice_from 2027-02-01 (DTSTAMP 20270201T000000Z); the re-plan is 1 s later."""
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=2)]}
    src = tmp_path / "s.yaml"
    src.write_text(yaml.safe_dump(base))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(src), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    assert "DTSTAMP:20270201T000000Z" in (a / "calendar.ics").read_text()
    assert "DTSTAMP:20270201T000001Z" in (b / "calendar.ics").read_text()


def test_fixed_date_in_a_daylight_saving_gap_is_an_input_error() -> None:
    # 2027-03-14: America/New_York springs forward at 02:00, so 02:30 does not exist
    from builders.scenarios import problems
    from builders.scenarios import scenario as build
    data = build(operators=[{"id": "post", "name": "Post", "jurisdiction": "ME",
                             "local_approval": True, "beneficiaries": ["X"],
                             "organized_on": "1990-01-01"}],
                 tournaments=[{"id": "g", "title": "G", "type": "tournament-game",
                               "operators": ["post"], "players": 40, "prize_share": 0.8,
                               "start_time": "02:30", "hours": 3,
                               "fixed_dates": ["2027-03-14"]}])
    assert problems(data) == {("CLOCK-CHANGE", "tournaments[0].fixed_dates[0]")}


def test_a_cancelled_uid_is_never_reused(tmp_path: Path) -> None:
    # A: Saturdays Mar 6, 13 (sat-1, sat-2). B: window to Mar 7 -> only Mar 6; sat-2 is
    # published as cancelled. C: back to March, count 2 -> Mar 13 is new again and must not
    # get sat-2 (clients ignore a lower SEQUENCE for a cancelled UID): it gets number 3, and,
    # added by a re-plan, names its horizon's start: sat.20270301-3.
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=2)]}
    short = {**base, "tournaments": [_large(count=2, window={"start": "2027-03-01",
                                                             "end": "2027-03-07"})]}
    paths = {}
    for name, data in (("a", base), ("b", short)):
        paths[name] = tmp_path / f"{name}.yaml"
        paths[name].write_text(yaml.safe_dump(data))
    a, b, c = tmp_path / "A", tmp_path / "B", tmp_path / "C"
    assert runner.invoke(app, ["solve", str(paths["a"]), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(paths["b"]), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    assert "STATUS:CANCELLED" in (b / "calendar.ics").read_text()
    assert runner.invoke(app, ["solve", str(paths["a"]), "--out", str(c), "--previous",
                               str(b)]).exit_code == 0
    assert sorted((r["first_day"], r["uid"]) for r in _rows(c)) == [
        ("2027-03-06", "sat-1@room.tourney"), ("2027-03-13", "sat.20270301-3@room.tourney")]


def test_more_pins_than_count_is_a_clear_error(tmp_path: Path) -> None:
    # A: Mar 6 and 13; now notice_from Mar 10 (both notices were due by Mar 8) and count 1
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=2)]}
    src, later = tmp_path / "a.yaml", tmp_path / "b.yaml"
    src.write_text(yaml.safe_dump(base))
    later.write_text(yaml.safe_dump({**base, "notice_from": "2027-03-10",
                                     "tournaments": [_large(count=1)]}))
    a = tmp_path / "A"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    res = runner.invoke(app, ["solve", str(later), "--out", str(tmp_path / "B"),
                              "--previous", str(a)])
    assert res.exit_code == 2
    assert "sat: 2 occurrences must stay where they are" in res.output
    assert "raise count to at least 2" in res.output


def test_rolling_horizon_leaves_history_alone(tmp_path: Path) -> None:
    # A: Saturdays Mar 6, 13 of March. B: horizon moves to Mar 10..31 (Mar 6 is history):
    # Mar 6 is neither cancelled nor moved; Mar 13 is kept; count 2 adds Mar 20 (new UID,
    # numbered above sat-2, naming the new horizon's start Mar 10: sat.20270310-3)
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=2)]}
    src, later = tmp_path / "a.yaml", tmp_path / "b.yaml"
    src.write_text(yaml.safe_dump(base))
    later.write_text(yaml.safe_dump({**base, "horizon": {"start": "2027-03-10",
                                                         "end": "2027-03-31"}}))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(later), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    assert sorted((r["first_day"], r["uid"]) for r in _rows(b)) == [
        ("2027-03-13", "sat-2@room.tourney"), ("2027-03-20", "sat.20270310-3@room.tourney")]
    assert "STATUS:CANCELLED" not in (b / "calendar.ics").read_text()


def test_removed_tournament_is_cancelled_in_its_operators_calendar(tmp_path: Path) -> None:
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=1),
                                                 {**_large(count=1), "id": "gala",
                                                  "title": "Spring Gala"}]}
    src, later = tmp_path / "a.yaml", tmp_path / "b.yaml"
    src.write_text(yaml.safe_dump(base))
    later.write_text(yaml.safe_dump({**base, "tournaments": [_large(count=1)]}))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(later), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    room = (b / "calendars" / "room.ics").read_text()
    assert "SUMMARY:Cancelled: Spring Gala" in room and "STATUS:CANCELLED" in room


def test_same_day_with_new_times_raises_sequence(tmp_path: Path) -> None:
    # RFC 5545 §3.8.7.4: DTSTART/DTEND changed -> SEQUENCE + 1, although the day is the same
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=1)]}
    src, later = tmp_path / "a.yaml", tmp_path / "b.yaml"
    src.write_text(yaml.safe_dump(base))
    later.write_text(yaml.safe_dump({**base, "tournaments": [_large(count=1,
                                                                    start_time="14:00")]}))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(later), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    assert [(r["first_day"], r["uid"], r["sequence"]) for r in _rows(b)] == [
        ("2027-03-06", "sat-1@room.tourney", "1")]
    lines = _short(runner.invoke(app, ["diff", str(a), str(b)]).output).splitlines()
    assert lines[0] == ("retimed    Saturday Stack (sat-1@room.tourney): "
                        "2027-03-06T12:00:00-07:00..2027-03-06T22:00:00-07:00 -> "
                        "2027-03-06T14:00:00-07:00..2027-03-07T00:00:00-07:00")


def test_notice_deadline_follows_its_occurrence() -> None:
    """The MT notice of a moved occurrence keeps its UID with the occurrence's SEQUENCE; the
    notice of a cancelled one is cancelled too (RFC 5545 §3.8.7.4, §3.8.1.11)."""
    import icalendar

    from scheduler.export.ical import calendar_files

    prev = [PublishedOccurrence("sat", dt.date(2027, 3, d), f"sat-{k}@room.tourney")
            for k, d in enumerate([6, 13], start=1)]
    # count 1 and Mar 6 blacked out: sat-2 (Mar 13) is kept, sat-1 (Mar 6) is cancelled
    sc = load(horizon=MARCH, notice_from="2027-02-01",
              operators=[{**ROOM, "blackout": ["2027-03-06"]}], tournaments=[_large(count=1)])
    plan = solve(sc, time_limit=10, previous=Previous(prev))
    cal = icalendar.Calendar.from_ical(
        calendar_files(plan, dt.datetime(2027, 2, 1, tzinfo=dt.UTC))["calendar.ics"])
    notices = {_short(str(e["UID"])): (e.decoded("DTSTART"), int(e["SEQUENCE"]),
                               str(e.get("STATUS", "")))
               for e in cal.walk("VEVENT") if str(e["UID"]).startswith("notice-")}
    # notice due = first day - 5: Mar 13 -> Mar 8; Mar 6 -> Mar 1 (cancelled, SEQUENCE 1)
    assert notices == {
        "notice-sat-2@room.tourney-room": (dt.date(2027, 3, 8), 0, ""),
        "notice-sat-1@room.tourney-room": (dt.date(2027, 3, 1), 1, "CANCELLED")}


def test_a_moved_occurrence_stays_near_its_old_day() -> None:
    # announced Jan 8 and May 3 (one permit year, so fees do not care); Jan 8 is blacked out
    # now. May 2 is as near to an announced day (May 3) as Jan 7 is to Jan 8, but the
    # occurrence that moves is the Jan 8 one: it lands on Jan 7 or Jan 9 (1 day), not on
    # May 2 (114 days from Jan 8)
    prev = [PublishedOccurrence("ev", dt.date(2027, 1, 8), "ev-1@room.tourney"),
            PublishedOccurrence("ev", dt.date(2027, 5, 3), "ev-2@room.tourney")]
    sc = load(horizon={"start": "2027-01-01", "end": "2027-06-30"}, notice_from="2026-12-01",
              operators=[{**ROOM, "blackout": ["2027-01-08"]}],
              tournaments=[{"id": "ev", "title": "Ev", "type": "large-stakes",
                            "operators": ["room"], "count": 2}])
    plan = solve(sc, time_limit=10, previous=Previous(prev))
    days = sorted(r.first_day for r in plan.rows)
    assert days[1] == dt.date(2027, 5, 3)
    assert days[0] in (dt.date(2027, 1, 7), dt.date(2027, 1, 9))
    assert {r.first_day: (_short(r.uid), r.sequence) for r in plan.rows}[days[0]] == (
        "ev-1@room.tourney", 1)


def _wednesdays(tmp_path: Path, name: str, **kw: object) -> Path:
    data = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01", "operators": [ROOM],
            "tournaments": [{"id": "wed", "title": "Wednesday", "type": "small-stakes",
                             "operators": ["room"], "count": "all", "weekdays": ["wed"],
                             "entry_fee": 40, "start_time": "19:00", "hours": 4, **kw}]}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _events(folder: Path, deadlines: bool = False) -> dict[str, tuple[int, str]]:
    """UID -> (SEQUENCE, STATUS) of calendar.ics (deadline events only when asked)."""
    import icalendar

    cal = icalendar.Calendar.from_ical((folder / "calendar.ics").read_bytes())
    return {_short(str(e["UID"])): (int(e["SEQUENCE"]), str(e.get("STATUS", "")))
            for e in cal.walk("VEVENT")
            if deadlines or not (e.get("X-TOURNEY-DEADLINE")
                                 or str(e["UID"]).startswith(("notice-", "application-",
                                                              "report-")))}


def test_weekly_series_is_updated_or_cancelled_by_its_uid(tmp_path: Path) -> None:
    # A: Wednesdays 3, 10, 17, 24, 31 as one series (SEQUENCE 0).
    # B: window to Mar 20 -> 3, 10, 17: the same series UID with SEQUENCE 1 (its nights
    #    changed); the dropped nights 24 and 31 get no CANCELLED events of their own.
    # C: only Mar 3 -> a single event; the series UID is published as CANCELLED (SEQUENCE 2).
    #    The single event is new in a re-plan: its UID names the horizon's start.
    a, b, c = tmp_path / "A", tmp_path / "B", tmp_path / "C"
    assert runner.invoke(app, ["solve", str(_wednesdays(tmp_path, "a")), "--out",
                               str(a)]).exit_code == 0
    assert _events(a) == {"wed.series@room.tourney": (0, "")}
    short = _wednesdays(tmp_path, "b", window={"start": "2027-03-01", "end": "2027-03-20"})
    assert runner.invoke(app, ["solve", str(short), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    assert _events(b) == {"wed.series@room.tourney": (1, "")}
    one = _wednesdays(tmp_path, "c", window={"start": "2027-03-01", "end": "2027-03-05"})
    assert runner.invoke(app, ["solve", str(one), "--out", str(c), "--previous",
                               str(b)]).exit_code == 0
    assert _events(c) == {"wed.series@room.tourney": (2, "CANCELLED"),
                          "wed.20270301-1@room.tourney": (0, "")}


def test_a_moved_maine_games_licence_deadlines_are_cancelled(tmp_path: Path) -> None:
    # The per-tournament licence of a game that moves is a new licence with new deadline
    # events; the old licence's application and report events are published as cancelled.
    src = Path(__file__).resolve().parents[1] / "data" / "examples" / "maine-legion-post.yaml"
    data = yaml.safe_load(src.read_text())
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    data["operators"][0]["blackout"].append(dt.date(2027, 2, 6))
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(data))
    assert runner.invoke(app, ["solve", str(changed), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    before, after = _events(a, deadlines=True), _events(b, deadlines=True)
    gone = sorted(u for u in before if after[u][1] == "CANCELLED")
    # only the moved game's old deadlines (none of the occurrences: the game keeps its UID)
    assert gone and all("2027-02-06" in u for u in gone)
    assert all(after[u] == (before[u][0] + 1, "CANCELLED") for u in gone)
    assert after["saturday-holdem-2@post-212.tourney"] == (1, "")


def test_a_uid_given_back_after_a_cancellation_has_a_higher_sequence(tmp_path: Path) -> None:
    # A: the Wednesday series (SEQUENCE 0). B: no Wednesday allowed -> the series is
    # cancelled (SEQUENCE 1). C: as A again -> the same series UID returns: SEQUENCE 2, so a
    # calendar that kept the cancelled copy (1) takes the new one.
    a, b, c = tmp_path / "A", tmp_path / "B", tmp_path / "C"
    full = _wednesdays(tmp_path, "a")
    none = _wednesdays(tmp_path, "b", window={"start": "2027-03-01", "end": "2027-03-02"})
    assert runner.invoke(app, ["solve", str(full), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(none), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    assert _events(b)["wed.series@room.tourney"] == (1, "CANCELLED")
    assert runner.invoke(app, ["solve", str(full), "--out", str(c), "--previous",
                               str(b)]).exit_code == 0
    assert _events(c)["wed.series@room.tourney"] == (2, "")


def test_moving_occurrences_pair_with_the_nearest_new_days() -> None:
    from scheduler.inputs.replan.assign import assign

    # leaving: Jun 5 and Aug 7; new days: May 22, Jun 12, Aug 14. Nearest pairs: Jun 5 ->
    # Jun 12 (7 days) and Aug 7 -> Aug 14 (7 days); May 22 is new. (Pairing in date order
    # would move Jun 5 -> May 22 and Aug 7 -> Jun 12: 14 + 56 = 70 days instead of 14.)
    sc = load(operators=[ROOM], tournaments=[_large(count=5)])
    prev = [PublishedOccurrence("sat", dt.date(2027, 6, 5), "sat-6@room.tourney"),
            PublishedOccurrence("sat", dt.date(2027, 8, 7), "sat-8@room.tourney")]
    ids, cancelled = assign(sc, prev, {"sat": [dt.date(2027, 5, 22), dt.date(2027, 6, 12),
                                                dt.date(2027, 8, 14)]})
    assert {d.isoformat(): (_short(i.uid), i.sequence) for (_, d), i in ids.items()} == {
        "2027-06-12": ("sat-6@room.tourney", 1), "2027-08-14": ("sat-8@room.tourney", 1),
        "2027-05-22": ("sat-9@room.tourney", 0)}
    assert cancelled == []


def test_diff_tells_history_from_cancellations(tmp_path: Path) -> None:
    # A: Saturdays Mar 6, 13. B: horizon from Mar 10 (Mar 6 is history), count 1 -> Mar 13
    base = {"name": "r", "horizon": MARCH, "notice_from": "2027-02-01",
            "operators": [ROOM], "tournaments": [_large(count=2)]}
    src, later = tmp_path / "a.yaml", tmp_path / "b.yaml"
    src.write_text(yaml.safe_dump(base))
    later.write_text(yaml.safe_dump({**base, "horizon": {"start": "2027-03-10",
                                                         "end": "2027-03-31"},
                                     "tournaments": [_large(count=1)]}))
    a, b = tmp_path / "A", tmp_path / "B"
    assert runner.invoke(app, ["solve", str(src), "--out", str(a)]).exit_code == 0
    assert runner.invoke(app, ["solve", str(later), "--out", str(b), "--previous",
                               str(a)]).exit_code == 0
    lines = _short(runner.invoke(app, ["diff", str(a), str(b)]).output).splitlines()
    assert lines[0] == ("history    Saturday Stack (sat-1@room.tourney): 2027-03-06..2027-03-06"
                        " (outside the new plan's horizon)")
    assert lines[-1].startswith("0 moved, 0 added, 0 cancelled")
