"""Facts as they happened (issue #22 § 3): ``tourney record held`` takes the days an
occurrence actually ran (a deepstack whose final table ran into Monday, a Tuesday night past
midnight) and an occurrence held that no plan had (``--unplanned``); ``tourney check
--ledger`` judges those days; every record command warns at once when the fact breaks a rule
(read by the rules' own ``actuals``), records it anyway, and names what it recorded.

Every test runs on SQLite and on a real PostgreSQL server (``ledger`` / ``url`` fixtures).
The plan folder is written by hand, in 2026 (before the machine's "today" of the record
commands), so every day below is computed by hand in a comment.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.audit import audit_ledger, judge_entry
from scheduler.ledger.history import read_history

from builders.plans import plan_row, write_plan_folder
from builders.scenarios import d, mt_large, mt_room, scenario

TODAY = dt.date(2026, 11, 30)
HOLDEM = "post-1/per-tournament/2026-10-10/holdem"


def write_plan(folder: Path) -> Path:
    """room-a (MT): deep#1 Fri 2026-09-04 .. Sun 09-06, tue#1 Tue 09-08, tue#2 Tue 09-15;
    post-1 (ME): holdem#1 Sat 2026-10-10 (per-tournament licence HOLDEM)."""
    rows = [plan_row("deep", 1, "room-a", "MT", "large-stakes", "2026-09-04", "2026-09-06"),
            plan_row("tue", 1, "room-a", "MT", "large-stakes", "2026-09-08"),
            plan_row("tue", 2, "room-a", "MT", "large-stakes", "2026-09-15"),
            plan_row("holdem", 1, "post-1", "ME", "tournament-game", "2026-10-10",
                     licence=HOLDEM)]
    return write_plan_folder(folder, rows, [
        [HOLDEM, "post-1", "ME", "me-per-tournament", "51-100", "2026-10-10", "2026-10-10", "75",
         "holdem#1"]])


@pytest.fixture
def adopted(ledger: Ledger, tmp_path: Path) -> Ledger:
    api.adopt(ledger, write_plan(tmp_path / "plan"), organization="Billings", by="ann")
    return ledger


def held(lg: Ledger, ref: str | None, first: str, last: str | None = None,
         **kw: Any) -> Any:
    return api.record_held(lg, ref, first_day=d(first), last_day=d(last or first), by="ann",
                           today=TODAY, **kw)


def notice(lg: Ledger, ref: str, on: str) -> Any:
    return api.record_filed(lg, "mt-notice", occurrence=ref, filed_on=d(on), by="ann",
                            today=TODAY)


def room_year(start: str = "2026-07-01") -> Any:
    return load_scenario(scenario(
        horizon={"start": start, "end": "2027-06-30"}, notice_from=start,
        operators=[mt_room()], tournaments=[mt_large("deep", days=3), mt_large("tue")]))


# --------------------------------------------------------------- the days it actually ran
def test_record_held_takes_the_days_it_actually_ran(adopted: Ledger) -> None:
    # the final table ran into Monday: planned Fri 09-04 .. Sun 09-06, held to Mon 09-07
    deep = held(adopted, "deep#1", "2026-09-04", "2026-09-07")
    # the Tuesday night ran past midnight: 09-08 .. Wed 09-09
    tue = held(adopted, "tue#1", "2026-09-08", "2026-09-09")
    assert (deep.first_day, deep.last_day) == (d("2026-09-04"), d("2026-09-07"))
    assert (tue.first_day, tue.last_day) == (d("2026-09-08"), d("2026-09-09"))
    # notices on time for the planned days: deep#1 due 09-04 - 5 = 08-30, tue#1 due 09-03
    notice(adopted, "deep#1", "2026-08-30")
    notice(adopted, "tue#1", "2026-09-03")
    # tue#2 was held a day early, Mon 09-14: its notice, filed 09-10 (on time for the
    # planned 09-15: due 09-10), was 1 day late for the day it ran (due 09-14 - 5 = 09-09)
    notice(adopted, "tue#2", "2026-09-10")
    held(adopted, "tue#2", "2026-09-14")
    found, actuals = audit_ledger(adopted, room_year(), as_of=TODAY)
    assert [(a.ref, a.first_day, a.last_day) for a in actuals.held] == [
        ("deep#1", d("2026-09-04"), d("2026-09-07")),
        ("tue#1", d("2026-09-08"), d("2026-09-09")),
        ("tue#2", d("2026-09-14"), d("2026-09-14"))]
    assert [(v.rule, v.refs, v.dates) for v in found] == [
        ("MT-NOTICE", ("tue#2",), "2026-09-14")]
    assert "filed 2026-09-10, 1 day(s) after it was due (2026-09-09" in found[0].message


def test_an_occurrence_no_plan_had_is_recorded_unplanned(adopted: Ledger) -> None:
    extra = held(adopted, None, "2026-09-22", unplanned=True, tournament="tue",
                 operator="room-a")
    assert (extra.uid, extra.occurrence, extra.tournament_id) == (
        "tue.held-20260922@room-a.ledger.tourney.invalid", 0, "tue")
    # the same again is a duplicate (a stable UID), corrected with --corrects
    with pytest.raises(LedgerError, match="already recorded.*--corrects 1"):
        held(adopted, None, "2026-09-22", unplanned=True, tournament="tue",
             operator="room-a")
    fixed = held(adopted, None, "2026-09-22", "2026-09-23", unplanned=True,
                 tournament="tue", operator="room-a", corrects=extra.id)
    assert fixed.supersedes_id == extra.id
    for bad, match in [({"tournament": "tue"}, "give --tournament ID and --operator OP"),
                       ({"tournament": "tue", "operator": "nowhere"},
                        "'nowhere': no adopted plan has this operator")]:
        with pytest.raises(LedgerError, match=match):
            held(adopted, None, "2026-09-29", unplanned=True, **bad)
    with pytest.raises(LedgerError, match="not the occurrence 'tue#1'"):
        held(adopted, "tue#1", "2026-09-29", unplanned=True, tournament="tue",
             operator="room-a")
    # judged as what it is: a Montana large-stakes tournament (the plan's tue) held with no
    # notice on record, on its actual days 09-22 .. 09-23
    found, actuals = audit_ledger(adopted, room_year(), as_of=TODAY)
    assert [(a.ref, a.jurisdiction, a.type, a.last_day) for a in actuals.held] == [
        ("tue#0", "MT", "large-stakes", d("2026-09-23"))]
    assert [(v.rule, v.dates) for v in found] == [("MT-NOTICE", "2026-09-22")]
    # and counted: held in the permit year 2026-07-01 before a horizon from 2026-10-01
    assert read_history(adopted, room_year("2026-10-01")).large_stakes == {"room-a": 1}


# ------------------------------------------------------------------ warnings at record time
def test_record_warns_at_once_by_the_rules_own_reading(adopted: Ledger) -> None:
    # on time: deep#1's notice on its due day 08-30 (day -5)
    assert judge_entry(adopted, notice(adopted, "deep#1", "2026-08-30"), as_of=TODAY) == []
    # 2 days late: tue#2 (planned 09-15, due 09-10) filed 09-12; not held yet: judged on
    # the days the plan has
    late = judge_entry(adopted, notice(adopted, "tue#2", "2026-09-12"), as_of=TODAY)
    assert [(v.rule, v.refs, v.dates) for v in late] == [
        ("MT-NOTICE", ("tue#2",), "2026-09-15")]
    assert "filed 2026-09-12, 2 day(s) after it was due (2026-09-10" in late[0].message
    # prizes at 70 %: $7,000 of $10,000 (75 % = $7,500); 75 % exactly is no warning
    api.record_filed(adopted, "me-application", license_ref=HOLDEM,
                     filed_on=d("2026-09-01"), by="ann", today=TODAY)
    game = held(adopted, "holdem#1", "2026-10-10", entry_fees_usd="10000",
                prizes_usd="7000")
    assert [(v.rule, v.refs) for v in judge_entry(adopted, game, as_of=TODAY)] == [
        ("ME-PRIZES", ("holdem#1",))]
    ok = held(adopted, "holdem#1", "2026-10-10", entry_fees_usd="10000", prizes_usd="7500",
              corrects=game.id)
    assert judge_entry(adopted, ok, as_of=TODAY) == []
    # the report of the period ending Sat 2026-10-10: 10 Maine business days after, Mon
    # 10-12 a holiday (Indigenous Peoples' Day): 10-13..16, 19..23, 26 -> due 2026-10-26
    late_report = api.record_report(adopted, HOLDEM, period_end=d("2026-10-10"),
                                    filed_on=d("2026-10-27"), by="ann", today=TODAY)
    assert [(v.rule, v.dates) for v in judge_entry(adopted, late_report, as_of=TODAY)] == [
        ("ME-REPORT", "2026-10-10")]
    on_time = api.record_report(adopted, HOLDEM, period_end=d("2026-10-10"),
                                filed_on=d("2026-10-26"), corrects=late_report.id, by="ann",
                                today=TODAY)
    assert judge_entry(adopted, on_time, as_of=TODAY) == []
    # a cancellation breaks nothing at record time
    assert judge_entry(adopted, api.record_cancelled(adopted, "tue#1", by="ann")) == []


def test_cli_record_warns_records_anyway_and_names_what_it_recorded(
        url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_LEDGER", url)
    monkeypatch.setenv("TOURNEY_USER", "ann")
    run = CliRunner().invoke
    assert run(app, ["ledger", "init"]).exit_code == 0
    assert run(app, ["ledger", "adopt", str(write_plan(tmp_path / "plan"))]).exit_code == 0
    r = run(app, ["record", "filed", "mt-notice", "tue#2", "--on", "2026-09-12"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Recorded mt-notice entry #1 in ")
    assert r.stderr.splitlines() == [
        "tourney: warning: MT-NOTICE, MCA 23-5-317(1)(d): tue#2 was held from 2026-09-15 at "
        "room-a; its notice was filed 2026-09-12, 2 day(s) after it was due (2026-09-10, 5 "
        "days before the first day)",
        "tourney: recorded anyway (the ledger keeps what happened); tourney check --ledger "
        "reports it."]
    # the deepstack's final table ran into Monday: recorded as it ran, no refusal
    r = run(app, ["record", "held", "deep#1", "--first-day", "2026-09-04", "--last-day",
                  "2026-09-07"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Recorded held entry #1 in ")
    assert "MT-NOTICE" in r.stderr  # held with no notice on record
    r = run(app, ["record", "held", "--unplanned", "--tournament", "tue", "--operator",
                  "room-a", "--first-day", "2026-09-22", "--last-day", "2026-09-22"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Recorded held entry #2 in ")
    r = run(app, ["record", "held", "--first-day", "2026-09-22", "--last-day", "2026-09-22"])
    assert r.exit_code == 2 and "give the occurrence" in r.output
    r = run(app, ["record", "cancelled", "tue#1"])
    assert r.exit_code == 0 and r.stdout.startswith("Recorded cancelled entry #3 in ")
    assert r.stderr == ""
