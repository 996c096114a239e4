"""The year as it happens (issue #22, "Done when"): a Montana room and a Maine post live
January to March 2027 through the CLI, on SQLite and on a real PostgreSQL, with a real
Radicale, then re-plan as of 2027-03-01.

The scenario (``_V1``): Billings Card Room (billings, MT) plays Deepstack (deep) on Sat Jan
9, Feb 6, Mar 13, Apr 10 and Friday Freezeout (friday) on Fri Jan 22; Hellgate Card Room
(missoula, MT) plays Hellgate Stack on Sat Jan 16 and Apr 17; Legion Post 212 (post, ME)
plays Hold'em on Sat Jan 16, Feb 13, Apr 17. Made as of 2026-12-20.

What happens, recorded with ``tourney record ... --as-of`` the day after:
- deep#1 (Jan 9), hellgate#1 (Jan 16), holdem#1 (Jan 16) held as planned, their notices and
  application filed on time;
- friday#1's notice filed Tue Jan 19, due Sun Jan 17 (Jan 22 - 5, MCA 23-5-317(1)(d)): 2
  days late, the warning printed at once; the room cancels it (cancelled in the past);
- deep#2 (Sat Feb 6) ran a day longer: held Feb 6 to Sun Feb 7;
- holdem#2 (Feb 13) held; both Maine reports filed on time;
- deep#3 (Sat Mar 13) cancelled in February: the room is booked for a wedding (cancelled in
  the future).

The re-plan as of Mon 2027-03-01 (``_V2``): Hellgate Card Room leaves (its tournament too),
Deepstack is renamed Big Sky Deepstack and asks for 4 Saturdays (no fixed days now, 21 days
apart), Friday Freezeout for a Friday, and two tournaments are added: Spring Stack (MT, 2
Saturdays) and Stud Night (ME, 1 Saturday). By hand:
- MT-NOTICE, 5 days: a new Montana first day is on or after Mar 1 + 5 = Sat 2027-03-06;
- ME-APPLICATION-WINDOW, the 10th Maine business day before the first day on or after Mar
  1: Sat Mar 13 -> Mar 12, 11, 10, 9, 8, 5, 4, 3, 2, 1 (10th: Mon Mar 1, in time); Sat Mar
  6 -> Mar 5, 4, 3, 2, 1, Feb 26, 25, 24, 23, 22 (10th: Feb 22, too late). So a new Maine
  game is on or after Sat 2027-03-13.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import icalendar
import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.export.caldav.server import PASSWORD_ENV

from builders.caldav import Server, calendar_of, new_user
from builders.servers import new_database

D = dt.date.fromisoformat
runner = CliRunner()

BILLINGS = {"id": "billings", "name": "Billings Card Room", "jurisdiction": "MT",
            "live_tables": 2}
MISSOULA = {"id": "missoula", "name": "Hellgate Card Room", "jurisdiction": "MT",
            "live_tables": 2}
POST = {"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
        "organized_on": "1946-05-12", "local_approval": True,
        "beneficiaries": ["Post 212 Scholarship Fund"]}


def _mt(tid: str, title: str, ops: list[str], **kw: Any) -> dict[str, Any]:
    return {"id": tid, "title": title, "type": "large-stakes", "operators": ops,
            "start_time": "12:00", "hours": 10, **kw}


def _me(tid: str, title: str, **kw: Any) -> dict[str, Any]:
    return {"id": tid, "title": title, "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


_HORIZON = {"start": "2027-01-01", "end": "2027-06-30"}
_V1 = {"name": "Big Sky and Post 212 2027", "horizon": _HORIZON, "notice_from": "2026-12-20",
       "operators": [BILLINGS, MISSOULA, POST],
       "tournaments": [
           _mt("deep", "Deepstack", ["billings"], count=4,
               fixed_dates=["2027-01-09", "2027-02-06", "2027-03-13", "2027-04-10"]),
           _mt("friday", "Friday Freezeout", ["billings"], fixed_dates=["2027-01-22"]),
           _mt("hellgate", "Hellgate Stack", ["missoula"], count=2,
               fixed_dates=["2027-01-16", "2027-04-17"]),
           _me("holdem", "Hold'em", count=3,
               fixed_dates=["2027-01-16", "2027-02-13", "2027-04-17"])]}
_V2 = {**_V1, "operators": [BILLINGS, POST],
       "tournaments": [
           _mt("deep", "Big Sky Deepstack", ["billings"], count=4, weekdays=["sat"],
               min_gap_days=21),
           _mt("friday", "Friday Freezeout", ["billings"], weekdays=["fri"]),
           _me("holdem", "Hold'em", count=3,
               fixed_dates=["2027-01-16", "2027-02-13", "2027-04-17"]),
           _mt("spring", "Spring Stack", ["billings"], count=2, weekdays=["sat"],
               min_gap_days=14),
           _me("stud", "Stud Night", players=60, weekdays=["sat"])]}
AS_OF = D("2027-03-01")
MT_FIRST_NEW = D("2027-03-06")  # Mar 1 + 5 days (MT-NOTICE)
ME_FIRST_NEW = D("2027-03-13")  # its 10th Maine business day before is Mar 1
PERMIT = "{op}/large-stakes-permit/2026-07-01"
LICENCE = "post/per-tournament/{day}/holdem"

_FIGURES_MT = ["--players", "60", "--entries", "70", "--entry-fees", "14000",
               "--prizes", "13000"]
_FIGURES_ME = ["--players", "80", "--entries", "80", "--entry-fees", "8000", "--prizes",
               "6400", "--charity", "1000", "--expenses", "600"]
# (arguments of `tourney record`, the day it is recorded as of): January to March
_RECORDS: list[tuple[list[str], str | None]] = [
    (["licence", "--operator", "billings", "--number", "MT-1", "--kind",
      "mt-large-stakes-permit", "--fee", "120", "--valid-from", "2026-07-01", "--valid-to",
      "2027-06-30", "--plan-licence", PERMIT.format(op="billings")], None),
    (["licence", "--operator", "missoula", "--number", "MT-2", "--kind",
      "mt-large-stakes-permit", "--fee", "120", "--valid-from", "2026-07-01", "--valid-to",
      "2027-06-30", "--plan-licence", PERMIT.format(op="missoula")], None),
    (["filed", "mt-notice", "deep#1", "--on", "2027-01-03"], "2027-01-03"),
    (["filed", "mt-notice", "hellgate#1", "--on", "2027-01-05"], "2027-01-05"),
    (["filed", "me-application", "--licence", LICENCE.format(day="2027-01-16"), "--number",
      "ME-1", "--on", "2027-01-04"], "2027-01-04"),
    (["held", "deep#1", "--first-day", "2027-01-09", "--last-day", "2027-01-09",
      *_FIGURES_MT], "2027-01-10"),
    (["held", "hellgate#1", "--first-day", "2027-01-16", "--last-day", "2027-01-16",
      *_FIGURES_MT], "2027-01-17"),
    (["held", "holdem#1", "--first-day", "2027-01-16", "--last-day", "2027-01-16",
      *_FIGURES_ME], "2027-01-17"),
    (["filed", "mt-notice", "friday#1", "--on", "2027-01-19"], "2027-01-19"),  # 2 days late
    (["cancelled", "friday#1", "--note", "notice filed late"], None),
    (["filed", "mt-notice", "deep#2", "--on", "2027-01-30"], "2027-01-30"),
    (["filed", "me-application", "--licence", LICENCE.format(day="2027-02-13"), "--number",
      "ME-2", "--on", "2027-01-25"], "2027-01-25"),
    (["report", LICENCE.format(day="2027-01-16"), "--period-end", "2027-01-16", "--on",
      "2027-01-29"], "2027-01-29"),
    (["held", "deep#2", "--first-day", "2027-02-06", "--last-day", "2027-02-07",  # a day more
      *_FIGURES_MT], "2027-02-08"),
    (["held", "holdem#2", "--first-day", "2027-02-13", "--last-day", "2027-02-13",
      *_FIGURES_ME], "2027-02-14"),
    (["cancelled", "deep#3", "--note", "room booked for a wedding"], None),
    (["report", LICENCE.format(day="2027-02-13"), "--period-end", "2027-02-13", "--on",
      "2027-02-26"], "2027-02-26"),
]


@dataclass
class Year:
    """What the scripted year wrote and answered."""

    root: Path
    ledger: str
    server: Server
    said: dict[str, Any] = field(default_factory=dict)
    """command label -> its click Result."""

    def cli(self, label: str, *args: str, ok: tuple[int, ...] = (0,)) -> Any:
        res = runner.invoke(app, list(args), env={PASSWORD_ENV: self.server.password})
        assert res.exit_code in ok, f"{label}: {res.output}"
        assert "Traceback" not in res.output
        self.said[label] = res
        return res


def yaml_at(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def year(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[Year]:
    root = tmp_path_factory.mktemp(f"year-{request.param}")
    url = (f"sqlite:///{root / 'ledger.sqlite'}" if request.param == "sqlite"
           else new_database(request.getfixturevalue("postgres")))
    server = new_user(request.getfixturevalue("radicale"))  # a user of its own
    y = Year(root, url, server)
    v1, v2 = yaml_at(root / "v1.yaml", _V1), yaml_at(root / "v2.yaml", _V2)
    lg = ["--ledger", url]
    y.cli("init", "ledger", "init", "--name", "Big Sky and Post 212", *lg)
    y.cli("solve v1", "solve", str(v1), "--out", str(root / "v1"), "--as-of",
          "2026-12-20", "--jobs", "1")
    y.cli("adopt v1", "ledger", "adopt", str(root / "v1"), *lg)
    y.cli("publish v1", "publish", str(root / "v1"), "--caldav", server.url, "--user",
          server.user)
    for args, day in _RECORDS:
        words = [a for a in args[:3] if not a.startswith("--")]  # "record held deep#2"
        y.cli(" ".join(["record", *words]), "record", *args, *lg,
              *(("--as-of", day) if day else ()))
    y.cli("solve v2", "solve", str(v2), "--previous", str(root / "v1"), *lg, "--out",
          str(root / "v2"), "--as-of", AS_OF.isoformat(), "--jobs", "1")
    y.cli("adopt v2", "ledger", "adopt", str(root / "v2"), *lg)
    y.cli("publish v2", "publish", str(root / "v2"), "--caldav", server.url, "--user",
          server.user)
    yield y


def csv_rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "schedule.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def vevents(path: Path) -> dict[str, icalendar.Event]:
    return {str(e["UID"]): e
            for e in icalendar.Calendar.from_ical(path.read_bytes()).walk("VEVENT")}


def _state(events: dict[str, Any]) -> dict[str, tuple[int, str]]:
    return {u: (int(e.get("SEQUENCE", 0)), str(e.get("STATUS", ""))) for u, e in events.items()}


def _uid(root: Path, ref: str, op: str) -> str:
    tid, _, occ = ref.partition("#")
    return next(r["uid"] for r in csv_rows(root / "v1")
                if (r["tournament_id"], r["occurrence"], r["operator_id"]) == (tid, occ, op))


# --------------------------------------------------------------------------- record time
def test_a_late_notice_is_warned_at_once_and_recorded(year: Year) -> None:
    late = year.said["record filed mt-notice friday#1"]
    # Jan 22 - 5 = Sun Jan 17; filed Tue Jan 19: 2 days late (MCA 23-5-317(1)(d))
    assert late.stdout.startswith("Recorded mt-notice entry #")
    assert "MT-NOTICE, MCA 23-5-317(1)(d): friday#1" in late.stderr
    assert "filed 2027-01-19, 2 day(s) after it was due (2027-01-17" in late.stderr
    assert "recorded anyway" in late.stderr
    # on time (deep#2: due Mon Feb 1, filed Sat Jan 30): no warning
    assert year.said["record filed mt-notice deep#2"].stderr == ""
    # a held occurrence that ran a day longer is recorded as it ran, without a refusal
    assert year.said["record held deep#2"].stdout.startswith("Recorded held entry #")


# --------------------------------------------------------------------------- the re-plan
def test_nothing_cancelled_comes_back(year: Year) -> None:
    rows = csv_rows(year.root / "v2")
    live = {(r["tournament_id"], r["first_day"]) for r in rows if r["status"] != "cancelled"}
    # friday on Fri 2027-01-22 (past) and deep on Sat 2027-03-13 (future): not again
    assert ("friday", "2027-01-22") not in live and ("deep", "2027-03-13") not in live
    uids = {r["uid"] for r in rows}
    for ref in ("friday#1", "deep#3"):
        uid = _uid(year.root, ref, "billings")
        assert uid not in uids, ref
        # on the calendar: cancelled, SEQUENCE 0 -> 1 (RFC 5545 §3.8.7.4)
        assert _state(vevents(year.root / "v2" / "calendars" / "billings.ics"))[uid] == \
            (1, "CANCELLED"), ref
    assert "deep on 2027-03-13: cancelled (entry #" in year.said["solve v2"].output
    # the held stay held, on the days they were held
    held = sorted((r["tournament_id"], r["first_day"]) for r in rows if r["status"] == "held")
    assert held == [("deep", "2027-01-09"), ("deep", "2027-02-06"),
                    ("holdem", "2027-01-16"), ("holdem", "2027-02-13")]


def test_nothing_new_lands_before_as_of_plus_its_notice(year: Year) -> None:
    new = [(r["jurisdiction"], r["tournament_id"], D(r["first_day"]))
           for r in csv_rows(year.root / "v2") if r["status"] == "new"]
    assert {t for _, t, _ in new} == {"deep", "friday", "spring", "stud"}
    for state, tid, day in new:
        assert day >= (MT_FIRST_NEW if state == "MT" else ME_FIRST_NEW), (tid, day)
    # the two added tournaments are placed, in full
    assert sorted(t for _, t, _ in new if t in ("spring", "stud")) == ["spring", "spring",
                                                                       "stud"]


def test_the_dropped_venue_future_event_is_cancelled_on_radicale_too(year: Year) -> None:
    cal = year.root / "v2" / "calendars" / "missoula.ics"
    state = _state(vevents(cal))
    held, future = _uid(year.root, "hellgate#1", "missoula"), _uid(year.root, "hellgate#2",
                                                                   "missoula")
    assert state[future] == (1, "CANCELLED")       # Sat 2027-04-17, after Mar 1
    assert state[held] == (0, "")                  # Sat 2027-01-16, held: history as published
    assert ("Hellgate Card Room (missoula) left the plan: its 2 future events are cancelled"
            in year.said["solve v2"].output)       # the game and its notice (Apr 12)
    # after publish the server holds what each of the plan's calendars holds
    for op in ("billings", "missoula", "post"):
        want = _state(vevents(year.root / "v2" / "calendars" / f"{op}.ics"))
        got = {str(o.icalendar_component["UID"]): (
            int(o.icalendar_component.get("SEQUENCE", 0)),
            str(o.icalendar_component.get("STATUS", "")))
            for o in calendar_of(year.server, op).search(event=True)}
        assert got == want, op
    assert "missoula (" in year.said["publish v2"].output


def test_the_renamed_events_have_a_higher_sequence(year: Year) -> None:
    old = vevents(year.root / "v1" / "calendars" / "billings.ics")
    new = vevents(year.root / "v2" / "calendars" / "billings.ics")
    deep4 = _uid(year.root, "deep#4", "billings")
    assert str(old[deep4]["SUMMARY"]) == "Deepstack"
    assert str(new[deep4]["SUMMARY"]) == "Big Sky Deepstack"
    assert int(new[deep4]["SEQUENCE"]) == int(old[deep4].get("SEQUENCE", 0)) + 1 == 1
    # an event not renamed keeps its SEQUENCE: Hold'em on Apr 17
    h3 = _uid(year.root, "holdem#3", "post")
    p_old = vevents(year.root / "v1" / "calendars" / "post.ics")
    p_new = vevents(year.root / "v2" / "calendars" / "post.ics")
    assert int(p_new[h3].get("SEQUENCE", 0)) == int(p_old[h3].get("SEQUENCE", 0)) == 0


@pytest.mark.parametrize("plan", ["v1", "v2"])
@pytest.mark.parametrize("what", ["schedule.csv", "calendar.ics"])
def test_check_of_every_plan_written_is_clean(year: Year, plan: str, what: str) -> None:
    scenario, target = str(year.root / f"{plan}.yaml"), str(year.root / plan / what)
    # one today for every command: the year's (the plan's held rows began before it)
    alone = runner.invoke(app, ["check", scenario, target, "--as-of", AS_OF.isoformat()])
    assert alone.exit_code == 0, alone.output
    assert re.search(r"^0 violation\(s\) in \d+ occurrence\(s\)", alone.stdout, re.M)
    ledger = runner.invoke(app, ["check", scenario, target, "--ledger", year.ledger,
                                 "--as-of", AS_OF.isoformat()])
    assert ledger.exit_code == 0, ledger.output
    # 5 held: deep#1, deep#2, hellgate#1, holdem#1, holdem#2; 2 Maine reports owed, filed
    assert ("0 violation(s) in 5 held occurrence(s) and 2 report(s) owed in the ledger"
            in ledger.stdout)


def test_check_of_a_replan_with_notice_from_moved_to_today_is_clean(year: Year) -> None:
    # what a user does to keep a re-plan out of the past: notice_from = as-of day; the
    # held and filed occurrences before it are judged on what happened (their status)
    moved = yaml_at(year.root / "v3.yaml", {**_V2, "notice_from": AS_OF.isoformat()})
    out = year.root / "v3"
    year.cli("solve v3", "solve", str(moved), "--previous", str(year.root / "v2"),
             "--ledger", year.ledger, "--out", str(out), "--as-of", AS_OF.isoformat(),
             "--jobs", "1")
    for target in ("schedule.csv", "calendar.ics", "calendars/billings.ics",
                   "calendars/post.ics"):
        for extra in ([], ["--ledger", year.ledger]):
            res = runner.invoke(app, ["check", str(moved), str(out / target), *extra,
                                      "--as-of", AS_OF.isoformat()])
            assert res.exit_code == 0, (target, extra, res.output)


def test_deadlines_answer_from_the_ledger_alone(year: Year, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no plan folder, no ./tourney-ledger.sqlite
    res = runner.invoke(app, ["deadlines", "--as-of", AS_OF.isoformat(), "--ledger",
                              year.ledger, "--format", "csv"])
    assert res.exit_code == 0, res.output
    got = [(r["date"], r["state"], r["rule"], r["operator_id"], r["occurrence"])
           for r in csv.DictReader(res.stdout.splitlines())]
    # the adopted v2 (and v1's lineage: only its newest version): by hand
    assert ("2027-02-01", "done", "MT-NOTICE", "billings", "deep#2") in got
    assert ("2027-03-01", "done", "ME-REPORT", "post", "holdem#2") in got
    # deep#3 moved to Sat Mar 6 (a new occurrence): notice due Mon Mar 1, today: due
    assert ("2027-03-01", "due", "MT-NOTICE", "billings", "deep#3") in got
    # Stud Night on Sat Mar 13: application due Mon Mar 1 (10th Maine business day before)
    assert any(d == "2027-03-01" and s == "due" and r == "ME-APPLICATION-WINDOW"
               for d, s, r, _, _ in got)
    # nothing of Hellgate Card Room: it left with v2
    assert not any(op == "missoula" for _, _, _, op, _ in got)
    assert all(s in ("due", "done") for _, s, _, _, _ in got)


# --------------------------------------------------------------------------- Maine mid-month
def test_maine_replan_from_mid_october_places_no_third_october_game(
        url: str, tmp_path: Path) -> None:
    """ME-MONTHLY-LIMIT (17 M.R.S. § 1836): games held Sat Oct 3 and Oct 10 (recorded), a
    re-plan from Thu 2026-10-15: October has 2 - 2 = 0 left. Sat Oct 31 would be on time
    (its 10th Maine business day before: Oct 30, 29, 28, 27, 26, 23, 22, 21, 20, 19 ->
    Mon Oct 19, after Oct 15), so only the monthly limit keeps it out; November takes 2."""
    game = _me("holdem", "Hold'em", count=4, weekdays=["sat"])
    first = {"name": "Post 212 fall", "horizon": {"start": "2026-10-01", "end": "2026-11-30"},
             "notice_from": "2026-09-01", "operators": [POST], "tournaments": [game]}
    lg = ["--ledger", url]

    def cli(*args: str) -> Any:
        res = runner.invoke(app, list(args))
        assert res.exit_code == 0 and "Traceback" not in res.output, res.output
        return res

    cli("ledger", "init", "--name", "Post 212", *lg)
    cli("solve", str(yaml_at(tmp_path / "fall.yaml", first)), "--out", str(tmp_path / "v1"),
        "--as-of", "2026-09-01", "--jobs", "1")
    assert [r["first_day"] for r in csv_rows(tmp_path / "v1")][:2] == ["2026-10-03",
                                                                   "2026-10-10"]
    cli("ledger", "adopt", str(tmp_path / "v1"), *lg)
    for k, day, today in ((1, "2026-10-03", "2026-10-04"), (2, "2026-10-10", "2026-10-11")):
        cli("record", "held", f"holdem#{k}", "--first-day", day, "--last-day", day,
            "--as-of", today, *lg)
    later = {**first, "horizon": {"start": "2026-10-15", "end": "2026-11-30"}}
    res = cli("solve", str(yaml_at(tmp_path / "later.yaml", later)), *lg, "--out",
              str(tmp_path / "v2"), "--as-of", "2026-10-15", "--jobs", "1")
    assert ("post: 2 licensed game(s) held in 2026-10 before 2026-10-15 (ME-MONTHLY-LIMIT)"
            in res.output)
    months = sorted(r["first_day"][:7] for r in csv_rows(tmp_path / "v2"))
    assert months == ["2026-11", "2026-11"]
    cli("check", str(tmp_path / "later.yaml"), str(tmp_path / "v2" / "schedule.csv"))


# --------------------------------------------------------------------------- publish, funds
def test_publish_as_of_names_what_a_stale_plan_places_too_late(year: Year) -> None:
    from scheduler.cli.publish import stale_lines

    v1 = year.root / "v1"
    # deep#1 (MT-NOTICE, Jan 9 - 5) and holdem#1 (ME-APPLICATION-WINDOW, the 10th Maine
    # business day before Sat Jan 16: Jan 15, 14, 13, 12, 11, 8, 7, 6, 5, 4) are due Mon
    # 2027-01-04: on that day nothing is stale, a day later both are
    assert stale_lines(v1, D("2027-01-04")) == []
    assert stale_lines(v1, D("2027-01-05")) == [  # deadlines.csv's order: date, rule
        "holdem#1: ME-APPLICATION-WINDOW due 2027-01-04, before 2027-01-05",
        "deep#1: MT-NOTICE due 2027-01-04, before 2027-01-05"]
    # v2 places nothing whose notice or application is past as of its day
    assert stale_lines(year.root / "v2", AS_OF) == []
    assert year.said["publish v2"].stderr == ""


@pytest.mark.parametrize(("day", "want"), [
    # Stud Night's period ends Sat Mar 13: not due yet on Mar 13 itself; its report is due
    # the 10th Maine business day after (Mar 15-19, 22-26): Fri Mar 26; overdue on Mar 27.
    # Hold'em's periods of Jan 16 and Feb 13 are filed on time; Apr 17's not ended.
    ("2027-03-01", "2 not due yet, 2 filed"),
    ("2027-03-13", "2 not due yet, 2 filed"),
    ("2027-03-14", "1 not due yet, 1 due, 2 filed"),
    ("2027-03-26", "1 not due yet, 1 due, 2 filed"),
    ("2027-03-27", "1 not due yet, 1 overdue, 2 filed"),
])
def test_ledger_funds_as_of_says_which_reports_are_not_due_yet(
        year: Year, tmp_path: Path, day: str, want: str) -> None:
    res = runner.invoke(app, ["ledger", "funds", "--out", str(tmp_path / "f"), "--ledger",
                              year.ledger, "--as-of", day])
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[-1] == f"ME-REPORT as of {day}: {want}."


def test_check_ledger_exempts_what_it_records_in_a_calendar_without_statuses(
        year: Year, tmp_path: Path) -> None:
    # the re-plan with notice_from moved to Mar 1, its calendar stripped of X-TOURNEY-STATUS
    # (an older calendar, or one a calendar application wrote back)
    moved = yaml_at(tmp_path / "v4.yaml", {**_V2, "notice_from": AS_OF.isoformat()})
    out = tmp_path / "v4"
    year.cli("solve v4", "solve", str(moved), "--previous", str(year.root / "v2"),
             "--ledger", year.ledger, "--out", str(out), "--as-of", AS_OF.isoformat(),
             "--jobs", "1")
    cal = tmp_path / "bare.ics"
    cal.write_bytes(re.sub(rb"X-TOURNEY-STATUS:[a-z]+\r\n", b"",
                           (out / "calendar.ics").read_bytes()))
    bare = runner.invoke(app, ["check", str(moved), str(cal), "--format", "csv"])
    assert bare.exit_code == 1
    found = sorted((r["rule"], r["tournament_id"], r["dates"])
                   for r in csv.DictReader(bare.stdout.splitlines())
                   if r["rule"] not in ("NOT-CHECKED", "UNMATCHED"))
    # judged from notice_from Mar 1 alone: the 2 Deepstacks and 2 Hold'ems held in Jan/Feb
    # were due (Jan 4, Feb 1; Jan 4, Feb 1) before it
    assert [(rule, tid) for rule, tid, _ in found] == [
        ("ME-APPLICATION-WINDOW", "holdem"), ("ME-APPLICATION-WINDOW", "holdem"),
        ("MT-NOTICE", "deep"), ("MT-NOTICE", "deep")], found
    # the ledger records them held (and filed): history, judged on what happened
    res = runner.invoke(app, ["check", str(moved), str(cal), "--ledger", year.ledger,
                              "--as-of", AS_OF.isoformat()])
    assert res.exit_code == 0, res.output
