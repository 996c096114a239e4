"""MT-PROGRESSIVE, MCA 23-5-317(1)(d),(e): every operator on whose premises a round of a
progressive is played notifies the department at least 5 days before the progressive's
*first* round ("before the start of the tournament"); counting stays per round by default,
``settings.progressive_count: once`` counts the whole progressive once per venue and
permit year.

The progressive: four one-day rounds (12:00 for 10 h) on Saturdays at three rooms,
``r1`` Mar 6 at room-a, ``r2`` Mar 13 at room-b, ``r3`` Mar 20 at room-c and the ``final``
Mar 27 back at room-a (2027; all in the permit year 2026-07-01). Round 1 is Mar 6, so
every venue's notice is due Mar 6 - 5 = Mon Mar 1 (not Mar 8, Mar 15, Mar 22, 5 days
before each round's own first day).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import icalendar
import pytest
from typer.testing import CliRunner

from constraints.base import Actual, Actuals
from constraints.registry import check_actuals
from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.export.deadlines import plan_deadlines
from scheduler.export.summary import summary_text
from scheduler.export.write import write_plan
from scheduler.result.usage import limit_usage

from builders.scenarios import (
    ROUND_1_NOTICE,
    ROUNDS,
    d,
    load,
    mt_large,
    mt_room,
    placed,
    progressive,
    run,
    violations,
)


# ------------------------------------------------------------------ the deadlines
def test_every_venue_notice_is_due_5_days_before_round_1(tmp_path: Path) -> None:
    plan = run(progressive())
    # schedule.csv's notice_due, deadlines.csv, the calendars and `tourney deadlines`
    assert {(r.tournament_id, r.operator_id): r.notice_due for r in plan.rows} == {
        ("r1", "room-a"): ROUND_1_NOTICE, ("r2", "room-b"): ROUND_1_NOTICE,
        ("r3", "room-c"): ROUND_1_NOTICE, ("final", "room-a"): ROUND_1_NOTICE}
    lines = [(x.operator_id, x.occurrence, x.date, x.what) for x in plan_deadlines(plan)
             if x.rule == "MT-NOTICE"]  # the permits to buy (MT-PERMIT-FEES) are lines too
    assert [x[:3] for x in lines] == [
        ("room-a", "final#1", ROUND_1_NOTICE), ("room-a", "r1#1", ROUND_1_NOTICE),
        ("room-b", "r2#1", ROUND_1_NOTICE), ("room-c", "r3#1", ROUND_1_NOTICE)]
    assert lines[2][3] == ("Notify the Montana Gambling Control Division of r2, first day "
                           "Sat, Mar 13, 2027, 5 days before the progressive's first round "
                           "Sat, Mar 6, 2027")
    assert lines[1][3] == ("Notify the Montana Gambling Control Division of r1, first day "
                           "Sat, Mar 6, 2027")

    out = write_plan(plan, tmp_path / "plan")
    cal = icalendar.Calendar.from_ical((out / "calendars" / "room-c.ics").read_bytes())
    notices = [ev for ev in cal.walk("VEVENT")
               if str(ev.get("X-TOURNEY-KIND")) == "notice"]
    assert [ev["DTSTART"].dt for ev in notices] == [ROUND_1_NOTICE]
    text = str(notices[0]["DESCRIPTION"])
    assert "by Mon 2027-03-01, at least 5 days before the progressive's first round Sat " \
           "2027-03-06; this round's first day is Sat 2027-03-20" in text

    res = CliRunner().invoke(app, ["deadlines", str(out), "--as-of", "2027-02-24",
                                   "--format", "csv"], env={"TOURNEY_LEDGER": ""})
    assert res.exit_code == 0, res.output
    rows = [ln.split(",")[0] for ln in res.output.splitlines()[1:] if "MT-NOTICE" in ln]
    assert rows == ["2027-03-01"] * 4

    # a plan folder without deadlines.csv: read from schedule.csv's notice_due
    (out / "deadlines.csv").unlink()
    res = CliRunner().invoke(app, ["deadlines", str(out), "--as-of", "2027-02-24",
                                   "--format", "csv"], env={"TOURNEY_LEDGER": ""})
    assert res.exit_code == 0, res.output
    rows = [ln.split(",")[0] for ln in res.output.splitlines()[1:] if "MT-NOTICE" in ln]
    assert rows == ["2027-03-01"] * 4


# ------------------------------------------------------------------ the check
def _rounds(sc: Scenario) -> list[Any]:
    return [placed(sc, tid, day) for tid, (_, day) in ROUNDS.items()]


@pytest.mark.parametrize(("notice_from", "expected"), [
    # Mar 1 is round 1's notice day (day -5): every venue can still file on it
    ("2027-03-01", []),
    # Mar 2 (day -4): round 1 is filed (filed_dates), but room-b, room-c and room-a's final
    # were due Mar 1 too, though their own rounds are 11 to 25 days away
    ("2027-03-02", [("MT-PROGRESSIVE", "room-b", "2027-03-13"),
                    ("MT-PROGRESSIVE", "room-c", "2027-03-20"),
                    ("MT-PROGRESSIVE", "room-a", "2027-03-27")]),
])
def test_check_reads_every_venue_notice_against_round_1(notice_from: str,
                                                        expected: list[Any]) -> None:
    sc = progressive(notice_from=notice_from, r1={"filed_dates": ["2027-03-06"]})
    got = [v for v in violations(sc, _rounds(sc)) if v[0] in ("MT-PROGRESSIVE", "MT-NOTICE")]
    assert got == expected


def test_model_does_not_start_a_progressive_whose_later_notices_are_late() -> None:
    # notice_from Mar 2: round 1 on Mar 6 is possible only because its notice is filed; the
    # other venues' notices were due Mar 1, so with none of them filed no round can be
    # placed on its Saturday (the tour is whole: all or none, all optional here)
    free = {tid: {"window": {"start": day, "end": day}} for tid, (_, day) in ROUNDS.items()}
    free["r1"]["filed_dates"] = ["2027-03-06"]
    plan = run(progressive(notice_from="2027-03-02", fixed=False, **free))
    assert plan.rows == ()
    # its twin: every round's notice filed, so the progressive is placed as planned
    for tid, (_, day) in ROUNDS.items():
        free[tid]["filed_dates"] = [day]
    plan = run(progressive(notice_from="2027-03-02", fixed=False, **free))
    assert sorted(r.first_day.isoformat() for r in plan.rows) == sorted(
        day for _, day in ROUNDS.values())


# ------------------------------------------------------------------ the actuals
def _held(r2_filed: str) -> list[Actual]:
    filed = {"r1": "2027-03-01", "r2": r2_filed, "r3": "2027-02-26", "final": "2027-03-01"}
    return [Actual(tid, 1, room, "MT", "large-stakes", False, d(day), d(day),
                   notice_filed_on=d(filed[tid])) for tid, (room, day) in ROUNDS.items()]


@pytest.mark.parametrize(("r2_filed", "expected"), [
    ("2027-03-01", []),  # day -5 before round 1: on time
    # day -4 before round 1 (1 day late), though 11 days before its own round (on time for
    # MT-NOTICE, which reads its own first day)
    ("2027-03-02", [("MT-PROGRESSIVE", "room-b", "2027-03-13")]),
])
def test_actuals_read_every_venue_notice_against_round_1(r2_filed: str,
                                                         expected: list[Any]) -> None:
    got = [(v.rule, v.operator_id, v.dates)
           for v in check_actuals(Actuals(progressive(), _held(r2_filed)))
           if v.rule in ("MT-PROGRESSIVE", "MT-NOTICE")]
    assert got == expected


# ------------------------------------------------------------------ counting
@pytest.mark.parametrize(("reading", "others_placed"), [
    # round (default): room-a counts r1 and the final, 2 + 15 others = 17 > 16: 14 placed
    (None, 14),
    # once: the progressive counts once at room-a: 1 + 15 = 16: all 15 placed
    ("once", 15),
])
def test_room_a_counts_its_two_rounds(reading: str | None, others_placed: int) -> None:
    settings = {"progressive_count": reading} if reading else {}
    plan = run(progressive(settings=settings, others=15))
    assert sum(r.tournament_id == "other" for r in plan.rows) == others_placed
    used = {u.operator_id: u.used for u in limit_usage(plan) if u.rule == "MT-LARGE-LIMIT"}
    # room-b and room-c count their one round either way
    assert used == {"room-a": 16, "room-b": 1, "room-c": 1}
    assert f"progressive_count={reading or 'round'}" in summary_text(plan)


@pytest.mark.parametrize(("reading", "expected"), [
    # round: r1, final + 15 others = 17 counted: the 17th (the last other, Apr 15) flagged
    (None, [("MT-LARGE-LIMIT", "room-a", "2027-04-15")]),
    ("once", []),  # 1 + 15 = 16
])
def test_check_counts_the_progressive_once_per_venue(reading: str | None,
                                                     expected: list[Any]) -> None:
    settings = {"progressive_count": reading} if reading else {}
    sc = progressive(settings=settings, others=15)
    april = [d("2027-04-01") + dt.timedelta(days=i) for i in range(15)]  # Apr 1 .. Apr 15
    occ = _rounds(sc) + [placed(sc, "other", day, k) for k, day in enumerate(april, 1)]
    assert [v for v in violations(sc, occ) if v[0] == "MT-LARGE-LIMIT"] == expected


def test_once_counts_in_each_permit_year_a_round_is_played_there() -> None:
    # rounds across July 1 2027 under once: room-a plays r1 in June (permit year 2026-07-01)
    # and the final in July (2027-07-01): the progressive counts once in each; room-b's r2
    # (Jun 26) only in 2026-07-01, room-c's r3 (Jul 3) only in 2027-07-01
    days = {"r1": "2027-06-19", "r2": "2027-06-26", "r3": "2027-07-03", "final": "2027-07-10"}
    sc = load(horizon={"start": "2027-06-01", "end": "2027-07-31"}, notice_from="2027-05-01",
              settings={"progressive_count": "once"},
              operators=[mt_room("room-a"), mt_room("room-b"), mt_room("room-c")],
              tournaments=[mt_large(t, (ROUNDS[t][0],), fixed_dates=[days[t]], required=1)
                           for t in ROUNDS],
              tours=[{"id": "tsp", "title": "Progressive", "progressive": True,
                      "stops": list(ROUNDS), "min_days_between": 7, "final": "final"}])
    plan = run(sc)
    used = {(u.operator_id, u.period): u.used for u in limit_usage(plan)
            if u.rule == "MT-LARGE-LIMIT"}
    # (a permit year is listed for the horizon's start and for each occurrence's first day)
    assert used == {("room-a", "2026-07-01"): 1, ("room-a", "2027-07-01"): 1,
                    ("room-b", "2026-07-01"): 1,
                    ("room-c", "2026-07-01"): 0, ("room-c", "2027-07-01"): 1}
