"""One today (issue #22): every answer that depends on the day is given as of one day, in the
operator's time zone, and nothing new is placed whose notice or application is due before
the later of that day and ``notice_from`` (MT-NOTICE, MCA 23-5-317(1)(d);
ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.clock import latest_today, today_in
from scheduler.core.scenario import parse_scenario
from scheduler.core.timing import filing_from, made_as_of
from scheduler.engine.solver import solve

from builders.scenarios import d, load, mt_large, mt_room, placed, violated

runner = CliRunner()
UTC = dt.UTC
ME_POST = {"id": "post", "name": "Legion Post", "jurisdiction": "ME", "local_approval": True,
           "beneficiaries": ["Food Bank"], "organized_on": "1990-01-01"}


def _me_game(**kw: object) -> dict[str, object]:
    return {"id": "game", "title": "Game Night", "type": "tournament-game",
            "operators": ["post"], "start_time": "18:00", "hours": 5, "players": 40,
            "entry_fee": 50, "prize_share": 0.8, **kw}


# ------------------------------------------------------------------ today in a zone
def test_maine_today_at_2030_is_its_own_day_on_a_utc_clock() -> None:
    # 2027-03-06 01:30 UTC is Fri 2027-03-05 20:30 in Maine (EST, UTC-5) and 18:30 in
    # Montana (MST, UTC-7): a machine on UTC would say Mar 6
    at = dt.datetime(2027, 3, 6, 1, 30, tzinfo=UTC)
    assert at.date() == d("2027-03-06")
    assert today_in("America/New_York", at=at) == d("2027-03-05")
    assert today_in("America/Denver", at=at) == d("2027-03-05")
    # 05:30 UTC is 00:30 on Mar 6 in Maine, still 22:30 on Mar 5 in Montana
    later = dt.datetime(2027, 3, 6, 5, 30, tzinfo=UTC)
    assert today_in("America/New_York", at=later) == d("2027-03-06")
    assert today_in("America/Denver", at=later) == d("2027-03-05")
    # the latest of the operators' days: the day already begun somewhere
    assert latest_today(["America/Denver", "America/New_York"], at=later) == d("2027-03-06")
    # an as-of day given is the answer, whatever the clock
    assert today_in("America/New_York", d("2027-01-04"), at=later) == d("2027-01-04")


def test_notice_from_not_given_is_today_in_the_operators_zone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # SOURCE_DATE_EPOCH is the current time: 2027-03-06 01:30 UTC. 2027-01-01 is day
    # 57 * 365 + 14 leap days = 20819 since 1970-01-01; + 31 + 28 + 5 = day 20883;
    # 20883 * 86400 + 1.5 h (5400 s) = 1804291200 + 5400 = 1804296600
    at = dt.datetime(2027, 3, 6, 1, 30, tzinfo=UTC)
    assert int(at.timestamp()) == 1804296600
    monkeypatch.delenv("TOURNEY_AS_OF", raising=False)  # the suite's day (conftest)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(at.timestamp())))
    sc = parse_scenario({"name": "x", "horizon": {"start": "2027-03-01", "end": "2027-12-31"},
                         "operators": [ME_POST]})
    assert sc.notice_from == d("2027-03-05")  # Maine's day, not UTC's Mar 6
    assert made_as_of(sc).as_of == d("2027-03-05")
    assert made_as_of(sc, d("2027-02-01")).as_of == d("2027-02-01")
    # TOURNEY_AS_OF, when set, is the day of every command not given one
    monkeypatch.setenv("TOURNEY_AS_OF", "2027-01-15")
    assert made_as_of(sc).as_of == d("2027-01-15")
    monkeypatch.setenv("TOURNEY_AS_OF", "15/01/2027")
    with pytest.raises(ValueError, match="TOURNEY_AS_OF='15/01/2027' is not a date"):
        made_as_of(sc)


# ------------------------------------------------------------------ MT-NOTICE from as-of
def test_mt_notice_as_of_monday_march_1_first_new_day_is_march_6() -> None:
    # MT-NOTICE (RULES.md): notice_due = first_day - 5 days, not before the earliest filing
    # day = max(as_of Mon 2027-03-01, notice_from 2027-02-01) = Mar 1.
    # Fri Mar 5: due Feb 28 < Mar 1 -> refused; Sat Mar 6: due Mar 1 -> allowed (day -5).
    sc = load(horizon={"start": "2027-03-01", "end": "2027-03-31"},
              notice_from="2027-02-01", as_of="2027-03-01",
              operators=[mt_room()], tournaments=[mt_large("big", count=1)])
    assert filing_from(sc) == d("2027-03-01")
    assert "MT-NOTICE" in violated(sc, [placed(sc, "big", "2027-03-05")])
    assert "MT-NOTICE" not in violated(sc, [placed(sc, "big", "2027-03-06")])
    # notice_from later than as_of wins the same way
    later = sc.model_copy(update={"notice_from": d("2027-03-01"), "as_of": d("2027-02-01")})
    assert "MT-NOTICE" in violated(later, [placed(later, "big", "2027-03-05")])
    assert "MT-NOTICE" not in violated(later, [placed(later, "big", "2027-03-06")])


def test_solve_as_of_places_nothing_new_before_as_of_plus_notice() -> None:
    # window Mar 1..6, one occurrence: only Mar 6 can be noticed from Mar 1 (Mar 6 - 5)
    sc = load(horizon={"start": "2027-03-01", "end": "2027-03-31"}, notice_from="2027-02-01",
              operators=[mt_room()],
              tournaments=[mt_large("big", count=1,
                                    window={"start": "2027-03-01", "end": "2027-03-06"})])
    plan = solve(sc, as_of=d("2027-03-01"))
    assert plan.scenario.as_of == d("2027-03-01")
    assert [(r.first_day, r.status) for r in plan.rows] == [(d("2027-03-06"), "new")]
    # window Mar 1..5: nothing can be noticed in time from Mar 2 on (Mar 5 - 5 = Feb 28)
    early = sc.with_tournament("big", window={"start": "2027-03-01", "end": "2027-03-05"})
    plan = solve(early, as_of=d("2027-03-01"))
    assert plan.rows == ()
    assert "MT-NOTICE" in plan.unscheduled_list[0].rule_ids


def test_me_application_as_of_monday_march_1() -> None:
    # ME-APPLICATION-WINDOW: due = the 10th Maine business day before the first day.
    # Fri Mar 12: Mar 11, 10, 9, 8, 5, 4, 3, 2, 1, Feb 26 -> due Fri Feb 26 < Mar 1: refused.
    # Mon Mar 15: Mar 12, 11, 10, 9, 8, 5, 4, 3, 2, 1 -> due Mon Mar 1 = as-of: allowed.
    sc = load(horizon={"start": "2027-03-01", "end": "2027-06-30"}, notice_from="2027-01-04",
              as_of="2027-03-01", operators=[ME_POST], tournaments=[_me_game(count=1)])
    assert "ME-APPLICATION-WINDOW" in violated(sc, [placed(sc, "game", "2027-03-12")])
    assert "ME-APPLICATION-WINDOW" not in violated(sc, [placed(sc, "game", "2027-03-15")])


# ------------------------------------------------------------------ re-plans keep faith
YEAR = {"start": "2027-01-01", "end": "2027-03-31"}


def _write(path: Path, data: dict[str, object]) -> Path:
    path.write_text(yaml.safe_dump(data))
    return path


def _rows(folder: Path) -> list[dict[str, str]]:
    import csv

    return list(csv.DictReader((folder / "schedule.csv").open(encoding="utf-8")))


def _first_year(tmp_path: Path) -> tuple[dict[str, object], Path]:
    """Two Saturday large-stakes tournaments planned as of 2026-12-20 (notice_from too):
    the earliest Saturdays, Jan 2 and Jan 9 (notices due Dec 28 and Jan 4)."""
    base: dict[str, object] = {
        "name": "room year", "horizon": YEAR, "notice_from": "2026-12-20",
        "operators": [mt_room()],
        "tournaments": [mt_large("sat", count=2, weekdays=["sat"], title="Saturday Stack")]}
    out = tmp_path / "A"
    res = runner.invoke(app, ["solve", str(_write(tmp_path / "a.yaml", base)), "--out",
                              str(out), "--as-of", "2026-12-20"])
    assert res.exit_code == 0, res.output
    return base, out


def test_replan_later_keeps_the_past_and_places_new_after_today(tmp_path: Path) -> None:
    base, a = _first_year(tmp_path)
    days = sorted(r["first_day"] for r in _rows(a))
    assert len(days) == 2 and all(x < "2027-02-15" for x in days)
    # re-plan on Mon 2027-02-15 with a new Sunday tournament and notice_from moved to today
    later = {**base, "notice_from": "2027-02-15",
             "tournaments": [*base["tournaments"],  # type: ignore[misc]
                             mt_large("sun", count=1, weekdays=["sun"], title="Sunday")]}
    src = _write(tmp_path / "b.yaml", later)
    b = tmp_path / "B"
    res = runner.invoke(app, ["solve", str(src), "--out", str(b), "--previous", str(a),
                              "--as-of", "2027-02-15"])
    assert res.exit_code == 0, res.output
    rows = {(r["tournament_id"], r["first_day"]): r["status"] for r in _rows(b)}
    # the two Saturdays before today are history: on their days, filed (notice due before)
    assert {k: v for k, v in rows.items() if k[0] == "sat"} == {
        ("sat", x): "filed" for x in days}
    # the new Sunday: notice from Feb 15 -> first day >= Feb 20; first Sunday is Feb 21
    (sun,) = [k[1] for k in rows if k[0] == "sun"]
    assert sun >= "2027-02-21" and rows[("sun", sun)] == "new"
    summary = (b / "summary.txt").read_text(encoding="utf-8")
    assert "As of 2027-02-15" in summary
    for k, x in enumerate(days, start=1):
        assert f"Not recorded yet: sat#{k} (Saturday Stack) on {x}" in summary or \
            f"on {x}, before 2027-02-15" in summary
    # the product's own output checks clean, though notice_from is now after the filed ones
    res = runner.invoke(app, ["check", str(src), str(b / "schedule.csv")])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("0 violation(s)")


def test_check_judges_a_new_row_on_notice_and_a_filed_row_on_what_happened(
        tmp_path: Path) -> None:
    base, a = _first_year(tmp_path)
    day = sorted(r["first_day"] for r in _rows(a))[0]
    text = (a / "schedule.csv").read_text(encoding="utf-8")
    moved = _write(tmp_path / "c.yaml", {**base, "notice_from": "2027-02-15"})
    # the first plan's rows are `new`: judged from notice_from Feb 15, both are late
    res = runner.invoke(app, ["check", str(moved), str(a / "schedule.csv")])
    assert res.exit_code == 1 and res.output.count("MT-NOTICE") == 2, res.output
    # the same rows marked filed are history: not judged again on notice
    (tmp_path / "F").mkdir()
    filed = tmp_path / "F" / "schedule.csv"
    filed.write_text(text.replace(",new\n", ",filed\n"), encoding="utf-8")
    res = runner.invoke(app, ["check", str(moved), str(filed)])
    assert res.exit_code == 0, res.output
    assert day < "2027-02-15"


def test_check_ledger_clean_on_a_replan_from_the_ledger(tmp_path: Path, url: str) -> None:
    # SQLite and PostgreSQL: adopt, record the first Saturday held (notice filed on time)
    # and the second's notice filed, re-plan from the ledger on 2027-02-15, check with and
    # without the ledger: 0 violations
    from scheduler.ledger import Ledger, api

    base, a = _first_year(tmp_path)
    first, second = sorted(r["first_day"] for r in _rows(a))
    lg = Ledger(url)
    try:
        api.init(lg)
        api.adopt(lg, a)
        api.record_filed(lg, "mt-notice", filed_on=d("2026-12-21"), occurrence="sat#1",
                         today=d("2027-02-15"))
        api.record_filed(lg, "mt-notice", filed_on=d("2026-12-21"), occurrence="sat#2",
                         today=d("2027-02-15"))
        api.record_held(lg, "sat#1", first_day=d(first), last_day=d(first),
                        today=d("2027-02-15"))
    finally:
        lg.dispose()
    src = _write(tmp_path / "b.yaml", {**base, "notice_from": "2027-02-15"})
    b = tmp_path / "B"
    res = runner.invoke(app, ["solve", str(src), "--out", str(b), "--previous", str(a),
                              "--ledger", url, "--as-of", "2027-02-15"])
    assert res.exit_code == 0, res.output
    rows = {r["first_day"]: r["status"] for r in _rows(b)}
    assert rows == {first: "held", second: "filed"}
    summary = (b / "summary.txt").read_text(encoding="utf-8")
    assert f"Not recorded yet: sat#2 (Saturday Stack) on {second}" in summary
    assert f"on {first}" not in summary.split("Not recorded yet", 1)[-1]
    for extra in ([], ["--ledger", url]):  # one today: the re-plan's (sat#1 held before it)
        res = runner.invoke(app, ["check", str(src), str(b / "schedule.csv"), *extra,
                                  "--as-of", "2027-02-15"])
        assert res.exit_code == 0, res.output


# ------------------------------------------------------------------ deadlines on a clock
def test_maine_deadline_due_today_in_maine_is_not_overdue_on_a_utc_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a game on Fri 2027-03-19: its application is due the 10th Maine business day before,
    # Mar 18, 17, 16, 15, 12, 11, 10, 9, 8, 5 -> Fri 2027-03-05
    sc = {"name": "post", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
          "notice_from": "2027-01-04", "operators": [ME_POST],
          "tournaments": [_me_game(count=1, fixed_dates=["2027-03-19"])]}
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(_write(tmp_path / "s.yaml", sc)), "--out",
                              str(out), "--as-of", "2027-01-04"])
    assert res.exit_code == 0, res.output
    # 2027-03-06 01:30 UTC (1804296600, test above): 20:30 on Mar 5 in Maine -> due, exit 0
    monkeypatch.delenv("TOURNEY_AS_OF", raising=False)  # the suite's day (conftest)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1804296600")
    res = runner.invoke(app, ["deadlines", str(out)])
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if "ME-APPLICATION-WINDOW" in x)
    assert line.startswith("2027-03-05 ") and "[due]  ME-APPLICATION-WINDOW" in line
    # 05:30 UTC = 00:30 on Mar 6 in Maine: overdue, exit 1 (1804296600 + 4 h = 1804311000)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1804311000")
    res = runner.invoke(app, ["deadlines", str(out)])
    assert res.exit_code == 1
    assert any(x.startswith("2027-03-05 ") and "[overdue]  ME-APPLICATION-WINDOW" in x
               for x in res.output.splitlines())


@pytest.mark.parametrize(("name", "value", "said"), [
    ("TOURNEY_AS_OF", "junk", "TOURNEY_AS_OF='junk' is not a date (YYYY-MM-DD)"),
    ("SOURCE_DATE_EPOCH", "abc", "SOURCE_DATE_EPOCH='abc' is not a time")])
@pytest.mark.parametrize("argv", [["check", "nope.yaml", "nope.csv"],
                                  ["deadlines", "--as-of", "2027-01-01"]])
def test_every_command_refuses_a_day_or_instant_from_the_environment_that_is_none(
        name: str, value: str, said: str, argv: list[str]) -> None:
    # the environment's today and now are every command's: refused before the command
    # reads anything (exit 2, one line), never an internal error
    res = runner.invoke(app, argv, env={name: value})
    assert res.exit_code == 2, res.output
    assert said in res.output


@pytest.mark.parametrize("given", ["20270105", "2027-W01-2", "2027-1-5", "2027-02-30"])
def test_as_of_is_written_yyyy_mm_dd(given: str) -> None:
    # --as-of is a day as YYYY-MM-DD: 2027-01-05; the compact 20270105 and the ISO week
    # date 2027-W01-2 (both 2027-01-05 to Python) are refused as the help says, as are a
    # month without its zero and a day that does not exist
    res = runner.invoke(app, ["deadlines", "--as-of", given])
    assert res.exit_code == 2
    assert f"--as-of {given!r} is not a date (YYYY-MM-DD)" in res.output
