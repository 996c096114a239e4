"""Outputs that say what an operator needs (issue #14 part 3): event descriptions with only
the event's own readings, its money terms and "permit already held"; limit usage split into
held before the plan and planned; the one line saying more is wanted than the law allows;
reasons whose day counts add up; the tournament that gave way at equal priority; every
occurrence of a violation in ``tourney check --format json``. Every number by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
from icalendar import Calendar
from typer.testing import CliRunner

from constraints.base import Violation
from scheduler.check.auditing import check_records
from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.engine.solver import solve
from scheduler.export.figures import plot_usage
from scheduler.export.ical import calendar_files
from scheduler.export.summary import summary_text
from scheduler.export.write import dtstamp
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan

from builders.checkfiles import check, seventeen_saturdays

runner = CliRunner()

MT_ROOM = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}
ME_POST = {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
           "local_approval": True, "beneficiaries": ["Scholarships"]}


def run(sc: Scenario) -> Plan:
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    assert plan.status == "OPTIMAL"
    return plan


def march_room(room: dict[str, Any], **tournament: Any) -> Scenario:
    """A Montana room, March 2027, one large-stakes tournament of ``count`` Saturdays."""
    return load_scenario({
        "name": "march", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
        "notice_from": "2027-02-20", "operators": [room],
        "tournaments": [{"id": "sat", "title": "Sat", "type": "large-stakes",
                         "operators": ["room"], "weekdays": ["sat"], **tournament}]})


def game(tid: str, players: int, **kw: Any) -> dict[str, Any]:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": players, "prize_share": 0.8, **kw}


def february(dear_priority: int = 1) -> Scenario:
    """Post, February 2027 (one month: at most 2 licensed games, ME-MONTHLY-LIMIT): ``cheap``
    (40 players, tier 1-50, $40 a licence) twice, ``dear`` (100 players, tier 51-100, $75)
    once on a Saturday: 3 wanted, 2 fit."""
    return load_scenario({
        "name": "feb", "horizon": {"start": "2027-02-01", "end": "2027-02-28"},
        "notice_from": "2026-12-01", "operators": [ME_POST],
        "tournaments": [game("cheap", 40, count=2),
                        game("dear", 100, weekdays=["sat"], priority=dear_priority)]})


def descriptions(plan: Plan) -> list[str]:
    cal = Calendar.from_ical(calendar_files(plan, dtstamp(plan))["calendar.ics"])
    return [str(e["DESCRIPTION"]) for e in cal.walk("VEVENT")
            if e.get("X-TOURNEY-KIND") in ("occurrence", "series")]


# ------------------------------------------------------------------ event descriptions
def test_montana_event_has_its_reading_money_and_permit_already_held() -> None:
    # The room bought its 2026-07-01 large-stakes permit before the plan
    # (held_in_current_permit_year.permits): the plan buys none (MT-PERMIT-FEES), and
    # the event says "permit already held", not "none".
    room = {**MT_ROOM, "held_in_current_permit_year": {"permits": ["large-stakes"]}}
    plan = run(march_room(room, count=1, entry_fee=300, reentries=2, rebuy_fee=100,
                          max_rebuys=3, addon_fee=50))
    assert plan.license_list == ()
    [desc] = descriptions(plan)
    assert "- Room: permit already held (bought before the plan); notice to" in desc
    assert "licence/permit none" not in desc
    # $300 + 2 re-entries + 3 rebuys of $100 + a $50 add-on, in one line
    assert ("Entry fee: $300; re-entries: up to 2; rebuys: up to 3 at $100 each; "
            "add-on: $50.") in desc
    # only Montana's reading (MT-ENTRY-CAP); none of Maine's three
    assert "reentry_counts_toward_cap: true" in desc
    for maine in ("month_rule", "tier_coverage", "surcharge_cap"):
        assert maine not in desc


def test_permit_bought_in_the_plan_is_named_and_free_terms_say_none() -> None:
    # Nothing held: the plan buys the $120 permit and the event names it; no re-entry,
    # rebuy or add-on: each says "none"
    plan = run(march_room(MT_ROOM, count=1, entry_fee=250))
    [lic] = plan.license_list
    [desc] = descriptions(plan)
    # named in words, not by its id (room/large-stakes-permit/2026-07-01)
    assert ("- Room: Montana large-stakes permit for the permit year from Jul 1, 2026; notice "
            "to") in desc and lic.license_id not in desc
    assert "Entry fee: $250; re-entries: none; rebuys: none; add-on: none." in desc


def test_maine_event_has_only_maine_readings() -> None:
    plan = run(february())
    desc = descriptions(plan)[0]
    for reading in ("month_rule: touch", "tier_coverage: up", "surcharge_cap: license-fee"):
        assert reading in desc
    assert "reentry_counts_toward_cap" not in desc


# ------------------------------------------------------------------ held vs planned usage
def test_usage_splits_held_before_the_plan_from_planned() -> None:
    # 14 large-stakes held in the 2026-07-01 permit year + Sat Mar 6 and Mar 13 = 16 of 16;
    # held 14, planned 16 - 14 = 2 (MT-LARGE-LIMIT). 3 Saturdays wanted: the 3rd would be the
    # 17th.
    room = {**MT_ROOM, "held_in_current_permit_year": {"large_stakes": 14}}
    plan = run(march_room(room, count=3))
    usage = plan.usage()
    assert [(r.rule_id, r.used, r.held) for r in usage.itertuples()] == [
        ("MT-LARGE-LIMIT", 16, 14), ("MT-CHARITY-LIMIT", 0, 0)]
    assert usage["held"].dtype == "int64"
    text = summary_text(plan)
    assert ("MT-LARGE-LIMIT permit year 2026-07-01: 16/16 counted; 14 held before the plan "
            "+ 2 planned") in text
    # nothing charitable held: no split on that line
    assert "MT-CHARITY-LIMIT permit year 2026-07-01: 0/3 charitable not counted\n" in text
    # the chart: the bar is 16 high, its dotted foot 14
    bars = {a.get_gid(): a.get_height() for ax in plot_usage(plan).axes for a in ax.patches
            if isinstance(a.get_gid(), str)}
    assert bars["usage:MT-LARGE-LIMIT:room:2026-07-01"] == 16
    assert bars["usage-held:MT-LARGE-LIMIT:room:2026-07-01"] == 14
    assert "usage-held:MT-CHARITY-LIMIT:room:2026-07-01" not in bars


# ------------------------------------------------------------------ more than the law allows
def test_more_wanted_than_the_law_allows_is_said_up_front() -> None:
    # 2 + 1 = 3 licensed games wanted in February, at most 2 a month: at least 3 - 2 = 1
    # cannot be placed (ME-MONTHLY-LIMIT's own counting argument, read with the wanted counts)
    plan = run(february())
    line = ("3 wanted games of Post (2 + 1), at most 2 a month (ME-MONTHLY-LIMIT, month_rule: "
            "touch), 1 month(s) in the horizon (2027-02): at least 1 cannot be placed; "
            "17 M.R.S. § 1836.")
    assert plan.overasked == (line,)
    lines = summary_text(plan).splitlines()
    up_front = lines.index(f"More is wanted than the law allows: {line}")
    assert up_front < next(i for i, x in enumerate(lines) if x.startswith("Not placed"))


def test_nothing_overasked_when_everything_fits() -> None:
    # 2 Saturdays in March, nothing held: 2 of 16
    plan = run(march_room(MT_ROOM, count=2))
    assert plan.overasked == () and "More is wanted" not in summary_text(plan)


def test_montana_limit_overasked_counts_the_held_ones() -> None:
    # 14 held + 3 Saturdays wanted = 17 counted > 16: "3 wanted, 2 allowed"
    room = {**MT_ROOM, "held_in_current_permit_year": {"large_stakes": 14}}
    plan = run(march_room(room, count=3))
    [line] = plan.overasked
    assert line.startswith("3 wanted, 2 allowed: counted large-stakes tournaments of Room in "
                           "the 2026-07-01 permit year")
    assert "14 counted ones held before the plan" in line
    assert line.endswith("; MCA 23-5-317(1)(a).")


def _counts(reason: str) -> list[int]:
    return [int(n) for n in re.findall(r"\((\d+) days?\)", reason)]


def test_reason_day_counts_add_up() -> None:
    # dear may start on the 4 Saturdays of February 2027 (6, 13, 20, 27); the other
    # 28 - 4 = 24 days are excluded by WEEKDAYS. On each Saturday a 3rd game would break
    # ME-MONTHLY-LIMIT: 4 + 24 = 28.
    plan = run(february())
    [u] = plan.unscheduled_list
    assert u.tournament_id == "dear"
    assert u.reason.startswith(
        "4 of the 28 days of the horizon could be a first day: on 4 days one more occurrence "
        "would break ME-MONTHLY-LIMIT, 17 M.R.S. § 1836 (4 days); for example: ")
    assert u.reason.endswith("; 24 days excluded by: WEEKDAYS (24 days)")
    # with dear first (priority 2), cheap#2 is left out: of its 28 days, 1 holds cheap#1 and
    # on the other 27 a 3rd game breaks ME-MONTHLY-LIMIT (on Sat Feb 6 MAX-CONCURRENT too,
    # counted once): 1 + 27 = 28
    [u] = run(february(dear_priority=2)).unscheduled_list
    assert (u.tournament_id, u.occurrence) == ("cheap", 2)
    assert u.reason.startswith(
        "28 of the 28 days of the horizon could be a first day: 1 day already holds one of "
        "its occurrences, on 27 days one more occurrence would break ME-MONTHLY-LIMIT, "
        "17 M.R.S. § 1836 (27 days)")
    assert sum(_counts(u.reason)) + 1 == 28


def test_reason_exclusions_count_each_day_once() -> None:
    # March 2027 Saturdays, notice_from Feb 20: 4 Saturdays (6, 13, 20, 27) and 31 - 4 = 27
    # other days. The room held 16: no Saturday is left (MT-LARGE-LIMIT on 4 days).
    room = {**MT_ROOM, "held_in_current_permit_year": {"large_stakes": 16}}
    plan = run(march_room(room, count=1))
    [u] = plan.unscheduled_list
    counts = _counts(u.reason)
    assert u.reason.startswith("4 of the 31 days of the horizon could be a first day: on "
                               "4 days one more occurrence would break MT-LARGE-LIMIT")
    assert "27 days excluded by: WEEKDAYS (27 days)" in u.reason
    assert counts == [4, 27] and sum(counts) == 31


# ------------------------------------------------------------------ equal priority
def test_equal_priority_tournament_gave_way_to_a_cheaper_one() -> None:
    # cheap twice costs 2 x $40 = $80; cheap + dear would cost $40 + $75 = $115; both place
    # 2 games at priority 1, so the fee stage picks cheap twice and dear is left out
    plan = run(february())
    assert sorted(r.tournament_id for r in plan.rows) == ["cheap", "cheap"]
    assert plan.total_fees_usd == 80
    line = ("  dear (1 not placed) gave way to cheap under ME-MONTHLY-LIMIT at equal priority "
            "1: the plan takes the cheaper set; give dear priority 2 to keep it.")
    assert line in summary_text(plan).splitlines()
    # priority 2 keeps it: 2 x 2 + ... dear placed on Sat Feb 6 (its first Saturday),
    # cheap once ($40 + $75 = $115), and no tournament gave way at equal priority
    kept = run(february(dear_priority=2))
    assert sorted(r.tournament_id for r in kept.rows) == ["cheap", "dear"]
    assert kept.total_fees_usd == 115
    assert "gave way" not in summary_text(kept)


# ------------------------------------------------------------------ check --format json
def test_check_json_lists_every_occurrence_as_integers(tmp_path: Path) -> None:
    # 17 Saturdays from 2027-01-02: the 17th (Apr 24) breaks MT-LARGE-LIMIT
    res = check(*seventeen_saturdays(tmp_path), fmt="json")
    assert res.exit_code == 1
    [rec] = json.loads(res.stdout)
    assert rec["occurrences"] == [{"tournament_id": "weekly", "occurrence": 17}]
    assert rec["dates"] == "2027-04-24"


def test_check_records_split_every_ref() -> None:
    # one violation naming two occurrences, one naming a whole tournament, one naming a
    # ref that lists two in one string
    vs = [Violation("MAX-CONCURRENT", "room", ("a#1", "b#12"), "2027-03-06", "two at once"),
          Violation("COUNT", "room", ("a",), "", "whole tournament"),
          Violation("MIN-GAP", "room", ("a#2,a#3",), "2027-03-07", "too close")]
    recs = check_records(vs)
    assert [r["occurrences"] for r in recs] == [
        [{"tournament_id": "a", "occurrence": 1}, {"tournament_id": "b", "occurrence": 12}],
        [],
        [{"tournament_id": "a", "occurrence": 2}, {"tournament_id": "a", "occurrence": 3}]]
    # the first ref stays in the flat columns, its occurrence an int (fix14); none: null
    assert [(r["tournament_id"], r["occurrence"]) for r in recs] == [
        ("a", 1), ("a", None), ("a", 2)]


# ------------------------------------------------------------------ plan.schedule dtypes
def test_schedule_start_and_end_are_datetime64_utc_and_local() -> None:
    # cheap starts 12:00 for 10 h on Mon Feb 1 and Tue Feb 2 2027 in America/New_York
    # (EST = UTC-5): 12:00 EST = 17:00 UTC; 12:00 + 10 h = 22:00 EST = 03:00 UTC the next day
    s = run(february()).schedule
    assert str(s["start"].dtype) == "datetime64[ns, UTC]"
    assert str(s["start_local"].dtype) == "datetime64[ns]"
    assert list(s.columns[7:11]) == ["start", "end", "start_local", "end_local"]
    assert list(s["start"]) == [pd.Timestamp("2027-02-01 17:00", tz="UTC"),
                                pd.Timestamp("2027-02-02 17:00", tz="UTC")]
    assert list(s["end"]) == [pd.Timestamp("2027-02-02 03:00", tz="UTC"),
                              pd.Timestamp("2027-02-03 03:00", tz="UTC")]
    assert list(s["start_local"]) == [pd.Timestamp("2027-02-01 12:00"),
                                      pd.Timestamp("2027-02-02 12:00")]
    assert list(s["end_local"]) == [pd.Timestamp("2027-02-01 22:00"),
                                    pd.Timestamp("2027-02-02 22:00")]


# ------------------------------------------------------------------ calendar_style: timed
def timed_room(style: str | None) -> dict[str, Any]:
    """March 2027 in Montana (America/Denver, MST = UTC-7 until Mar 14): a Saturday
    large-stakes 12:00 for 10 h, two Tuesday small-stakes nights 18:00 for 4 h."""
    room = {**MT_ROOM, **({"calendar_style": style} if style else {})}
    return {"name": "march", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-20", "operators": [room],
            "tournaments": [
                {"id": "sat", "title": "Sat", "type": "large-stakes", "operators": ["room"],
                 "weekdays": ["sat"], "count": 1},
                {"id": "tue", "title": "Tue", "type": "small-stakes", "operators": ["room"],
                 "weekdays": ["tue"], "count": 2, "start_time": "18:00", "hours": 4,
                 "entry_fee": 20}]}


def test_montana_timed_events_have_the_session_start_and_end(tmp_path: Path) -> None:
    plan = run(load_scenario(timed_room("timed")))
    data = calendar_files(plan, dtstamp(plan))["calendar.ics"]
    # Sat Mar 6 12:00 + 10 h = 22:00; Tue Mar 2 and Mar 9 18:00 + 4 h = 22:00, each its own
    # VEVENT (no weekly series of a timed room)
    for line in (b"DTSTART;TZID=America/Denver:20270306T120000",
                 b"DTEND;TZID=America/Denver:20270306T220000",
                 b"DTSTART;TZID=America/Denver:20270302T180000",
                 b"DTEND;TZID=America/Denver:20270302T220000",
                 b"DTSTART;TZID=America/Denver:20270309T180000"):
        assert line + b"\r\n" in data
    assert b"RRULE" not in data and b"DTSTART;VALUE=DATE:20270306" not in data
    desc = [d for d in descriptions(plan) if d.startswith("Sat\n")][0]
    assert ("Dates: Sat 2027-03-06 to Sat 2027-03-06 (1 calendar day(s)); play starts "
            "Sat 2027-03-06 12:00 MST and ends Sat 2027-03-06 22:00 MST (America/Denver).") \
        in desc
    # tourney check reads the timed calendar back: legal, nothing unmatched
    (tmp_path / "s.yaml").write_text(json.dumps(timed_room("timed")), encoding="utf-8")
    (tmp_path / "c.ics").write_bytes(data)
    res = runner.invoke(app, ["check", str(tmp_path / "s.yaml"), str(tmp_path / "c.ics")])
    assert res.exit_code == 0, res.output


def test_montana_default_stays_all_day() -> None:
    # no calendar_style: all-day events, the Tuesday nights one weekly series
    plan = run(load_scenario(timed_room(None)))
    data = calendar_files(plan, dtstamp(plan))["calendar.ics"]
    assert b"DTSTART;VALUE=DATE:20270306\r\n" in data
    assert b"RRULE:FREQ=WEEKLY;UNTIL=20270309;BYDAY=TU" in data
    assert b"TZID=America/Denver:20270306T120000" not in data
