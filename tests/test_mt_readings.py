"""The Montana readings ``permit_year_count`` (MT-LARGE-LIMIT, MCA 23-5-317(1)(a)) and
``progressive_count`` (MT-PROGRESSIVE, MCA 23-5-317(1)(d),(e)) are said wherever the other
switches are: the summary's ``Readings:`` line, the report's assumptions and the
description of every Montana large-stakes event (``progressive_count`` there only when the
scenario has a progressive), default or not (docs/law/RULES.md: every switch appears in the
output)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import icalendar
import pytest

from scheduler.core.scenario import Scenario
from scheduler.export.summary import summary_text
from scheduler.export.write import write_plan

from builders.scenarios import load, mt_large, mt_room, run

YEARS = {"each": "counts toward the 16 of each of them (permit_year_count: each, the default)",
         "first-day": "counts toward the 16 only in the permit year of its first day "
                      "(permit_year_count: first-day)"}
ROUNDS = {"round": "(progressive_count: round, the default)",
          "once": "in each permit year in which one is played there (progressive_count: once)"}


def scenario(settings: dict[str, Any], *, progressive: bool = True) -> Scenario:
    tours = [{"id": "p", "title": "P", "progressive": True, "stops": ["r1", "r2"],
              "final": "r2", "min_days_between": 7}] if progressive else []
    return load(horizon={"start": "2027-03-01", "end": "2027-03-31"}, settings=settings,
                operators=[mt_room("room-a"), mt_room("room-b")],
                tournaments=[mt_large("r1", ("room-a",), fixed_dates=["2027-03-06"]),
                             mt_large("r2", ("room-b",), fixed_dates=["2027-03-13"])],
                tours=tours)


def _descriptions(folder: Path) -> list[str]:
    cal = icalendar.Calendar.from_ical((folder / "calendar.ics").read_bytes())
    return [str(ev["DESCRIPTION"]) for ev in cal.walk("VEVENT")
            if str(ev.get("X-TOURNEY-KIND")) == "occurrence"]


@pytest.mark.parametrize(("years", "rounds"), [("each", "round"), ("first-day", "once")])
def test_summary_report_and_calendar_say_the_readings(tmp_path: Path, years: str,
                                                      rounds: str) -> None:
    plan = run(scenario({"permit_year_count": years, "progressive_count": rounds}))
    assert f"permit_year_count={years}, progressive_count={rounds}" in summary_text(plan)
    out = write_plan(plan, tmp_path / "plan", report=True)
    report = (out / "report.html").read_text(encoding="utf-8")
    assert YEARS[years] in report and ROUNDS[rounds] in report
    texts = _descriptions(out)
    assert len(texts) == 2
    for text in texts:
        flat = " ".join(text.split())
        assert YEARS[years] in flat and ROUNDS[rounds] in flat


def test_no_progressive_no_progressive_reading_in_the_events(tmp_path: Path) -> None:
    plan = run(scenario({"progressive_count": "once"}, progressive=False))
    out = write_plan(plan, tmp_path / "plan", report=True)
    for text in _descriptions(out):
        assert "progressive_count" not in text and "permit_year_count: each" in text
    # the report lists every switch
    assert ROUNDS["once"] in (out / "report.html").read_text(encoding="utf-8")
