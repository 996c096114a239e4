"""MT-PLAY-HOURS, ARM 23.16.1101: no tournament play between 2 a.m. and 8 a.m., judged on
every night a tournament is in play, whatever its start and end clock times.

The vehicle: room (Montana, America/Denver, timed calendar events) holds ``t``, a one-day
large-stakes tournament planned Sat 2027-03-06 12:00 for 10 h (to 22:00, MST, UTC-7).
``tourney check`` reads it back from schedule.csv and from the timed calendar.ics after a
person edited the times in a spreadsheet or a calendar app:

- Sat 12:00 to Sun 20:00 (32 h straight) plays through Sunday 2-8 a.m.: a violation (its
  start is after 08:00 and its end before 02:00 of the next morning, Monday, which is all
  the check used to look at);
- ending exactly Sun 02:00 is lawful (the quiet hours begin then), 02:01 is not;
- starting exactly Sat 08:00 is lawful, 07:59 is not.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
import yaml
from typer.testing import CliRunner

from constraints.base import Occurrence
from constraints.montana.games import quiet_hours_played
from scheduler.cli import app
from scheduler.core.timing import Timing, days_touched

from builders.scenarios import load, mt_large, mt_room, violated

runner = CliRunner()
DENVER = ZoneInfo("America/Denver")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The scenario and the plan folder it was solved into."""
    tmp = tmp_path_factory.mktemp("hours")
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1,
            "calendar_style": "timed"}
    t = {"id": "t", "title": "Saturday Stack", "type": "large-stakes", "operators": ["room"],
         "start_time": "12:00", "hours": 10, "fixed_dates": ["2027-03-06"], "required": 1}
    data = {"name": "Hours", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2027-02-01", "operators": [room], "tournaments": [t]}
    sc = tmp / "hours.yaml"
    sc.write_text(yaml.safe_dump(data, sort_keys=False))
    out = tmp / "plan"
    res = runner.invoke(app, ["solve", str(sc), "--out", str(out), "--jobs", "1"],
                        env={"SOURCE_DATE_EPOCH": "0"})
    assert res.exit_code == 0, res.output
    return sc, out


def _at(text: str) -> dt.datetime:
    """``"2027-03-07 20:00"`` in Denver (MST in early March 2027)."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=DENVER)


def _csv(out: Path, tmp: Path, start: dt.datetime, end: dt.datetime) -> Path:
    rows = list(csv.DictReader((out / "schedule.csv").open(encoding="utf-8")))
    last = (end - dt.timedelta(microseconds=1)).date()
    rows[0].update(start=start.isoformat(), end=end.isoformat(),
                   first_day=start.date().isoformat(), last_day=last.isoformat())
    path = tmp / "schedule.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return path


def _ics(out: Path, tmp: Path, start: dt.datetime, end: dt.datetime) -> Path:
    cal = icalendar.Calendar.from_ical((out / "calendar.ics").read_bytes())
    games = [ev for ev in cal.walk("VEVENT") if str(ev.get("X-TOURNEY-KIND")) == "occurrence"]
    assert len(games) == 1 and isinstance(games[0]["DTSTART"].dt, dt.datetime)  # timed
    ev = games[0]
    del ev["DTSTART"], ev["DTEND"]
    ev.add("DTSTART", start)
    ev.add("DTEND", end)
    path = tmp / "calendar.ics"
    path.write_bytes(cal.to_ical())
    return path


CASES = [
    # (start, end, lawful)
    ("2027-03-06 12:00", "2027-03-06 22:00", True),   # as planned
    ("2027-03-06 12:00", "2027-03-07 20:00", False),  # 32 h straight through Sun 2-8 a.m.
    ("2027-03-06 12:00", "2027-03-07 02:00", True),   # ends exactly 02:00
    ("2027-03-06 12:00", "2027-03-07 02:01", False),  # one minute into 2-8 a.m.
    ("2027-03-06 08:00", "2027-03-06 18:00", True),   # starts exactly 08:00
    ("2027-03-06 07:59", "2027-03-06 17:59", False),  # one minute before 08:00
]


@pytest.mark.parametrize("kind", ["csv", "ics"])
@pytest.mark.parametrize(("start", "end", "lawful"), CASES)
def test_check_judges_every_night_of_play(folder: tuple[Path, Path], tmp_path: Path,
                                          kind: str, start: str, end: str,
                                          lawful: bool) -> None:
    sc, out = folder
    edit = _csv if kind == "csv" else _ics
    path = edit(out, tmp_path, _at(start), _at(end))
    res = runner.invoke(app, ["check", str(sc), str(path)])
    if lawful:
        assert res.exit_code == 0, res.output
        assert "MT-PLAY-HOURS" not in res.output
    else:
        assert res.exit_code == 1, res.output
        assert "MT-PLAY-HOURS" in res.output
        assert "between 2 a.m. and 8 a.m." in res.output


def test_the_32_hour_message_names_the_morning(folder: tuple[Path, Path],
                                               tmp_path: Path) -> None:
    sc, out = folder
    path = _csv(out, tmp_path, _at("2027-03-06 12:00"), _at("2027-03-07 20:00"))
    res = runner.invoke(app, ["check", str(sc), str(path)])
    assert ("t#1 is played from Sat 2027-03-06 12:00 to Sun 2027-03-07 20:00, through Sun "
            "2027-03-07 between 2 a.m. and 8 a.m.") in res.output


@pytest.mark.parametrize(("end", "morning"), [
    # Sun 2027-03-14 the clocks spring forward at 02:00 MST, to 03:00 MDT: the quiet hours
    # begin at that instant; 03:00 MDT (= 02:00 MST) is exactly it, 03:01 MDT one minute in
    ("2027-03-14T03:00:00-06:00", None),
    ("2027-03-14T03:01:00-06:00", dt.date(2027, 3, 14)),
    # Sat 20:00 to Mon 01:00 runs through Sunday's 2-8 a.m. (the first morning it meets)
    ("2027-03-15T01:00:00-06:00", dt.date(2027, 3, 14)),
])
def test_quiet_hours_on_the_night_clocks_spring_forward(end: str,
                                                        morning: dt.date | None) -> None:
    start = _at("2027-03-13 20:00")
    assert quiet_hours_played(start, dt.datetime.fromisoformat(end), DENVER) == morning


@pytest.mark.parametrize(("days", "lawful"), [
    # a two-day tournament, 12:00 for 8 h a day: Sat 12:00 to Sun 20:00 is how the product
    # itself writes it (Sat 12-20, Sun 12-20), no night played
    (2, True),
    # a one-day tournament read over the same span is in play all 32 hours
    (1, False),
])
def test_a_span_is_read_by_the_tournament_s_play_days(days: int, lawful: bool) -> None:
    sc = load(horizon={"start": "2027-03-01", "end": "2027-03-31"}, operators=[mt_room()],
              tournaments=[mt_large("t", days=days, hours=8)])
    start, end = _at("2027-03-06 12:00"), _at("2027-03-07 20:00")
    occ = Occurrence(sc.tournament("t"), 1, Timing(start, end, days_touched(start, end)))
    assert ("MT-PLAY-HOURS" in violated(sc, [occ])) is not lawful
