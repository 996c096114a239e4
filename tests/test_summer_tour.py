"""The example of issue #15's "Done when": data/examples/summer-tour.yaml, a tour's summer
series with flights and a Day 2 at two rooms plus a two-room progressive, solves, is audited
clean and its calendar has one event per session."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from icalendar import Calendar
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "examples" / "summer-tour.yaml"


def test_summer_tour_solves_is_audited_and_shows_each_session(tmp_path: Path) -> None:
    plan = solve(load_scenario(EXAMPLE), seed=0)
    firsts = {(r.tournament_id, r.occurrence): r.first_day for r in plan.rows}
    # the progressive: Round 1 on the first Saturday of its window (Jul 1, 2027 is a
    # Thursday, so Sat Jul 3); the Final a Saturday at least 14 days later: Jul 3 + 14 =
    # Sat Jul 17 (TOUR-SPACING), in that order (TOUR-ORDER), both placed (TOUR-WHOLE)
    assert firsts[("progressive-r1", 1)] == dt.date(2027, 7, 3)
    assert firsts[("progressive-final", 1)] == dt.date(2027, 7, 17)
    # each Main Event is one tournament: Day 1A Thursday to Day 2 Sunday, 4 calendar days
    # (MT-DURATION allows 5); Billings' the first Thursday of June (Jun 3), Missoula's the
    # first of July (Jul 1)
    mains = {r.tournament_id: (r.first_day, r.last_day) for r in plan.rows
             if r.tournament_id.endswith("-main")}
    assert mains == {"billings-main": (dt.date(2027, 6, 3), dt.date(2027, 6, 6)),
                     "missoula-main": (dt.date(2027, 7, 1), dt.date(2027, 7, 4))}
    assert plan.required_met and not plan.unscheduled_list  # 7 wanted, 7 placed

    out = tmp_path / "plan"
    res = CliRunner().invoke(app, ["solve", str(EXAMPLE), "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, ["check", str(EXAMPLE), str(out / "schedule.csv")])
    assert res.exit_code == 0 and "0 violation(s) in 7 occurrence(s)" in res.output, res.output
    cal = Calendar.from_ical((out / "calendar.ics").read_bytes())
    sessions = [e for e in cal.walk("VEVENT") if e.get("X-TOURNEY-SESSION") is not None]
    # 2 Main Events x 3 sessions (Day 1A, Day 1B, Day 2) = 6 session events
    assert len(sessions) == 6
    assert sorted(str(e["SUMMARY"]).rsplit(" — ", 1)[-1] for e in sessions) == [
        "Day 1A", "Day 1A", "Day 1B", "Day 1B", "Day 2", "Day 2"]
