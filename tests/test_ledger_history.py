"""The planner and the audit read the ledger (issue #13 § 2): ``tourney solve --ledger`` takes
its history from it, ``tourney check --ledger`` audits what was held.

Every ledger test runs on SQLite and on a real PostgreSQL server (the fixtures ``url`` and
``ledger`` of tests/conftest.py); the plan folders are written by hand so every count and
date below is computed by hand in a comment. The rules' readings of actuals are also
tested alone, on plain values, at their boundaries.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import threading
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from constraints.base import Actual, Actuals, ReportOwed
from constraints.maine import report_due
from constraints.registry import check_actuals
from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.ledger import Ledger, api
from scheduler.ledger.audit import audit_ledger, read_actuals
from scheduler.ledger.history import from_ledger, read_history, with_history

from builders.plans import (
    GALA,
    PAST,
    REPO,
    TODAY,
    YEAR_CRIB,
    YEAR_HOLDEM,
    mt_scenario,
    write_year_plan,
)
from builders.scenarios import d, firsts, missing, mt_large, mt_room, run, scenario

# ----------------------------------------------------------------------- plan folders


@pytest.fixture
def year(ledger: Ledger, tmp_path: Path) -> Ledger:
    """A ledger with the plan of :func:`write_year_plan` adopted."""
    api.adopt(ledger, write_year_plan(tmp_path / "plan"), organization="Big Sky Tour", by="ann")
    return ledger


def held(lg: Ledger, ref: str, first: str, last: str | None = None, **kw: Any) -> None:
    api.record_held(lg, ref, first_day=d(first), last_day=d(last or first), by="ann",
                    today=TODAY, **kw)


def hold_past(lg: Ledger, n: int) -> None:
    """Record ``past#1..n`` held (on the days the plan has them)."""
    for k in range(1, n + 1):
        held(lg, f"past#{k}", PAST[k - 1])


# ---------------------------------------------------------------- solve --ledger: counts
def test_held_before_the_horizon_are_counted_in_their_permit_year(year: Ledger) -> None:
    hold_past(year, 9)
    for k in (1, 2, 3):
        held(year, f"gala#{k}", GALA[k - 1])
    held(year, "june#1", "2026-06-30")  # the permit year before 2026-07-01: not counted
    api.record_cancelled(year, "past#10", by="ann")  # cancelled: not counted
    h = read_history(year, mt_scenario())
    assert h.organization == "Big Sky Tour"
    # 9 past held (2026-07-06 .. 2026-08-31) in the permit year 2026-07-01, before 2027-01-01
    assert h.large_stakes == {"room-a": 9}
    assert h.charitable == {"room-a": 3}
    sc = with_history(mt_scenario(), h)
    got = sc.operator("room-a").held_in_current_permit_year
    assert (got.large_stakes, got.charitable) == (9, 3)


@pytest.mark.parametrize(("reading", "counted"), [
    # each (default): cross#1 played Jun 30 - Jul 2 2026 falls in the permit year 2026-07-01
    # too (Jul 1, 2), the one that holds horizon.start 2027-01-01: 1 held there
    ("each", 1),
    # first-day: its first day Jun 30 is in the permit year before: 0
    ("first-day", 0),
])
def test_held_across_july_1_counts_in_the_permit_year_it_reaches(year: Ledger, reading: str,
                                                                 counted: int) -> None:
    held(year, "cross#1", "2026-06-30", "2026-07-02")
    sc = load_scenario(scenario(horizon={"start": "2027-01-01", "end": "2027-02-28"},
                                settings={"permit_year_count": reading},
                                operators=[mt_room()], tournaments=[]))
    assert read_history(year, sc).large_stakes.get("room-a", 0) == counted


def test_fifteen_held_and_one_wanted_is_placed(year: Ledger) -> None:
    hold_past(year, 15)
    sc, _ = from_ledger(mt_scenario([mt_large("b", window={"start": "2027-01-10",
                                                           "end": "2027-01-20"})]), year)
    plan = run(sc)
    # 15 held + 1 = 16 <= 16 (MT-LARGE-LIMIT): placed
    assert len(firsts(plan, "b")) == 1


def test_sixteen_held_and_the_seventeenth_is_not_placed(year: Ledger) -> None:
    hold_past(year, 16)
    sc, _ = from_ledger(mt_scenario([mt_large("b", window={"start": "2027-01-10",
                                                           "end": "2027-01-20"})]), year)
    plan = solve(sc, time_limit=10, seed=0, workers=1)  # as solve --ledger
    # 16 held: the 17th would exceed 16 (MT-LARGE-LIMIT)
    assert firsts(plan, "b") == []
    assert missing(plan, "b") and all("MT-LARGE-LIMIT" in r for r in missing(plan, "b"))


def test_a_yaml_count_that_contradicts_the_ledger_names_both(year: Ledger) -> None:
    hold_past(year, 15)
    sc = mt_scenario(held_in_current_permit_year={"large_stakes": 12})
    with pytest.raises(ScenarioError) as exc:
        from_ledger(sc, year)
    (p,) = exc.value.problems
    assert p.path == "operators[0].held_in_current_permit_year.large_stakes"
    assert (p.value, p.rule) == (12, "MT-LARGE-LIMIT")
    assert "the YAML says 12" in p.message and "the ledger records 15" in p.message
    assert "MT-LARGE-LIMIT" in exc.value.render()
    # the same count typed is no contradiction
    same, _ = from_ledger(mt_scenario(held_in_current_permit_year={"large_stakes": 15}), year)
    assert same.operator("room-a").held_in_current_permit_year.large_stakes == 15
    # the charitable count likewise, under MT-CHARITY-LIMIT: 0 typed, 1 recorded
    held(year, "gala#1", GALA[0])
    with pytest.raises(ScenarioError) as exc:
        from_ledger(mt_scenario(held_in_current_permit_year={"large_stakes": 15,
                                                             "charitable": 0}), year)
    assert [(p.path.rsplit(".", 1)[1], p.value, p.rule) for p in exc.value.problems] == [
        ("charitable", 0, "MT-CHARITY-LIMIT")]


def test_a_permit_bought_is_not_bought_again(year: Ledger) -> None:
    want = [mt_large("b", window={"start": "2027-01-10", "end": "2027-01-20"})]
    without = run(mt_scenario(want))
    assert without.total_fees_usd == 120  # MT-PERMIT-FEES: the large-stakes permit, $120
    api.record_licence(year, operator="room-a", agency_number="GCD-1",
                       kind="mt-large-stakes-permit", fee_usd=120, valid_from=d("2026-07-01"),
                       valid_to=d("2027-06-30"), by="ann")
    sc, h = from_ledger(mt_scenario(want), year)
    assert h.permits == {"room-a": {"large-stakes"}}
    assert sc.operator("room-a").held_in_current_permit_year.permits == ("large-stakes",)
    plan = run(sc)
    assert len(firsts(plan, "b")) == 1 and plan.total_fees_usd == 0  # permit already held


def test_super_cribbage_licences_issued_before_the_horizon_count(year: Ledger) -> None:
    api.record_licence(year, operator="post-1", agency_number="ME-SC-1",
                       kind="me-super-cribbage", fee_usd=75, valid_from=d("2027-01-09"),
                       valid_to=d("2027-01-11"), by="ann")
    api.record_licence(year, operator="post-1", agency_number="ME-SC-2",
                       kind="me-super-cribbage", fee_usd=75, valid_from=d("2027-04-10"),
                       valid_to=d("2027-04-11"), license_ref=YEAR_CRIB, by="ann")
    sc = load_scenario(scenario(
        horizon={"start": "2027-03-01", "end": "2027-12-31"},
        settings={"super_cribbage_licenses_issued": {2027: 11}},
        operators=[mt_room()]))
    out, h = from_ledger(sc, year)
    # ME-SC-1 ended 2027-01-11, before the horizon: 11 statewide + 1 = 12 of 2027; ME-SC-2
    # reaches into the horizon: the plan's own, counted by the model
    assert h.super_cribbage == {2027: 1}
    assert out.settings.super_cribbage_licenses_issued == {2027: 12}


# -------------------------------------------------------------- solve --ledger: pins
def test_held_and_filed_occurrences_are_pinned_cancelled_ones_not(year: Ledger) -> None:
    held(year, "a#1", "2027-02-10")
    api.record_filed(year, "mt-notice", occurrence="a#2", filed_on=d("2027-02-01"), by="ann",
                     today=TODAY)
    api.record_filed(year, "mt-notice", occurrence="a#3", filed_on=d("2027-02-01"), by="ann",
                     today=TODAY)
    api.record_cancelled(year, "a#3", by="ann")
    sc = mt_scenario([mt_large("a", count=3)])
    out, h = from_ledger(sc, year)
    assert h.pins == {"a": {d("2027-02-10"): "held",
                            d("2027-02-17"): "MT notice filed 2027-02-01"}}
    t = out.tournament("a")
    assert t.fixed_dates == t.filed_dates == (d("2027-02-10"), d("2027-02-17"))
    plan = run(out)
    assert {d("2027-02-10"), d("2027-02-17")} <= set(firsts(plan, "a"))
    # 2 pinned but count 1: an input error naming both days
    with pytest.raises(ScenarioError, match="raise count to at least 2"):
        from_ledger(mt_scenario([mt_large("a", count=1)]), year)
    # a held occurrence in the horizon of a tournament the scenario lacks
    with pytest.raises(ScenarioError, match="the scenario has no tournament a"):
        from_ledger(mt_scenario([mt_large("b")]), year)


def test_a_ledger_without_the_scenarios_operators_changes_nothing(ledger: Ledger) -> None:
    sc = mt_scenario([mt_large("b")])
    out, h = from_ledger(sc, ledger)
    assert h.organization is None and out == sc


# ------------------------------------------------------------- the rules on actuals alone
def _actual(ref: str, first: str, typ: str = "large-stakes", jur: str = "MT",
            charitable: bool = False, **kw: Any) -> Actual:
    tid, _, n = ref.partition("#")
    return Actual(tid, int(n), kw.pop("operator_id", "room-a"), jur, typ, charitable,
                  d(first), d(kw.pop("last", first)), **kw)


def _found(held_: list[Actual], reports: list[ReportOwed] | None = None,
           as_of: str = "2027-12-31") -> list[tuple[str, str, str]]:
    sc = mt_scenario()
    return [(v.rule, v.operator_id, v.dates)
            for v in check_actuals(Actuals(sc, held_, reports or [], d(as_of)))]


def _notified(ref: str, first: str) -> Actual:
    """Held with its notice filed 5 days before (on time)."""
    return _actual(ref, first, notice_filed_on=d(first) - dt.timedelta(days=5))


def test_actuals_the_sixteenth_held_is_legal_the_seventeenth_is_not() -> None:
    sixteen = [_notified(f"past#{k}", day) for k, day in enumerate(PAST[:16], start=1)]
    assert _found(sixteen) == []
    seventeen = [*sixteen, _notified("past#17", PAST[16])]
    # PAST[16] = 2026-07-06 + 16 weeks = 2026-10-26
    assert _found(seventeen) == [("MT-LARGE-LIMIT", "room-a", "2026-10-26")]
    # 16 + 3 charitable (not counted, MT-CHARITY-LIMIT) is legal; a 4th charitable counts
    galas = [_actual(f"gala#{k}", day, charitable=True, notice_filed_on=d("2026-07-01"))
             for k, day in enumerate(GALA, start=1)]
    assert _found([*sixteen, *galas[:3]]) == []
    # gala#1-3 (07-08, -15, -22) are free; gala#4 (07-29) is counted. Counted by first day:
    # past#1-4 (07-06 .. 07-27), gala#4 (07-29), past#5-16: the 17th is past#16, PAST[15] =
    # 2026-07-06 + 15 weeks = 2026-10-19
    assert _found([*sixteen, *galas]) == [("MT-LARGE-LIMIT", "room-a", "2026-10-19")]
    # another permit year (from 2027-07-01) starts again from 0
    assert _found([*sixteen, _notified("next#1", "2027-07-05")]) == []


def test_actuals_notice_on_day_minus_five_is_on_time_minus_four_late() -> None:
    # first day 2027-03-05: due 2027-03-05 - 5 days = 2027-02-28
    on_time = _actual("deep#1", "2027-03-05", notice_filed_on=d("2027-02-28"))
    late = _actual("deep#1", "2027-03-05", notice_filed_on=d("2027-03-01"))
    none = _actual("deep#1", "2027-03-05")
    assert _found([on_time]) == []
    assert _found([late]) == [("MT-NOTICE", "room-a", "2027-03-05")]
    assert _found([none]) == [("MT-NOTICE", "room-a", "2027-03-05")]
    assert "1 day(s) after it was due (2027-02-28" in check_actuals(
        Actuals(mt_scenario(), [late]))[0].message


def test_actuals_prizes_at_74_99_percent_are_under_75() -> None:
    def game(prizes: str) -> Actual:
        return _actual("holdem#1", "2027-02-20", "tournament-game", "ME",
                       operator_id="post-1", last="2027-02-21",
                       entry_fees_usd=Decimal("10000.00"), prizes_usd=Decimal(prizes),
                       application_received_on=d("2027-01-20"))
    # 75 % of $10,000 = $7,500: $7,499 is 74.99 %
    assert _found([game("7500.00")]) == []
    assert _found([game("7499.00")]) == [("ME-PRIZES", "post-1", "2027-02-20..2027-02-21")]
    v = check_actuals(Actuals(mt_scenario(), [game("7499.00")]))[0]
    assert "(74.99 %)" in v.message and "$7,500" in v.message
    # not recorded: not judged (a note, not a violation)
    assert _found([_actual("holdem#1", "2027-02-20", "tournament-game", "ME",
                           application_received_on=d("2027-01-20"))]) == []


def test_actuals_super_cribbage_charity_under_half_of_proceeds() -> None:
    def crib(charity: str) -> Actual:
        return _actual("crib#1", "2027-04-10", "super-cribbage", "ME", operator_id="post-1",
                       entry_fees_usd=Decimal("4000"), prizes_usd=Decimal("3000"),
                       charity_usd=Decimal(charity), application_received_on=d("2027-03-01"))
    # proceeds after prizes $4,000 - $3,000 = $1,000; 50 % = $500
    assert _found([crib("500.00")]) == []
    assert _found([crib("499.99")]) == [("ME-SUPER-CRIBBAGE", "post-1", "2027-04-10")]


def test_actuals_charitable_cribbage_keeps_nothing() -> None:
    def game(prizes: str, charity: str) -> Actual:
        return _actual("cc#1", "2027-05-01", "charitable-cribbage", "ME", operator_id="pub",
                       entry_fees_usd=Decimal("500"), prizes_usd=Decimal(prizes),
                       charity_usd=Decimal(charity))
    # $400 + $100 = $500: all awarded or donated; $400 + $99.99 keeps 1 cent
    assert _found([game("400", "100")]) == []
    assert _found([game("400", "99.99")]) == [("ME-CRIBBAGE-REG", "pub", "2027-05-01")]


def test_actuals_a_report_filed_on_its_due_day_is_on_time() -> None:
    # period ends Sun 2027-02-21; 10 Maine business days after: Feb 22-26, Mar 1-5 -> Mar 5
    due = report_due(d("2027-02-21"))
    assert due == d("2027-03-05")

    def owed(filed: str | None) -> ReportOwed:
        return ReportOwed(YEAR_HOLDEM, "post-1", d("2027-02-21"), due,
                          d(filed) if filed else None)
    assert _found([], [owed("2027-03-05")]) == []
    assert _found([], [owed("2027-03-08")]) == [("ME-REPORT", "post-1", "2027-02-21")]
    assert _found([], [owed(None)], as_of="2027-03-05") == []  # due today: not late yet
    assert _found([], [owed(None)], as_of="2027-03-06") == [
        ("ME-REPORT", "post-1", "2027-02-21")]


# ----------------------------------------------------------- check --ledger on a ledger
def test_audit_reads_what_the_ledger_records(year: Ledger) -> None:
    hold_past(year, 17)  # no notices filed for them
    for k in range(1, 17):
        api.record_filed(year, "mt-notice", occurrence=f"past#{k}",
                         filed_on=d(PAST[k - 1]) - dt.timedelta(days=5), by="ann",
                         today=TODAY)
    # past#17 (2026-10-26): notice on 2026-10-22, day -4 (due 2026-10-21)
    api.record_filed(year, "mt-notice", occurrence="past#17", filed_on=d("2026-10-22"),
                     by="ann", today=TODAY)
    held(year, "holdem#1", "2027-02-20", "2027-02-21", entry_fees_usd="10000",
         prizes_usd="7499")
    api.record_filed(year, "me-application", license_ref=YEAR_HOLDEM, filed_on=d("2027-01-20"),
                     by="ann", today=TODAY)
    violations, actuals = audit_ledger(year, mt_scenario(), as_of=d("2027-03-06"))
    assert len(actuals.held) == 18 and len(actuals.reports) == 1
    assert actuals.held[-1].notice_filed_on is None  # holdem#1: no MT notice
    # the 17th held (past#17), its late notice, 74.99 % prizes, the report due 2027-03-05
    assert sorted((v.rule, v.dates) for v in violations) == [
        ("ME-PRIZES", "2027-02-20..2027-02-21"), ("ME-REPORT", "2027-02-21"),
        ("MT-LARGE-LIMIT", "2026-10-26"), ("MT-NOTICE", "2026-10-26")]
    # the report filed on its due day, the prizes corrected: those two are gone
    api.record_report(year, YEAR_HOLDEM, period_end=d("2027-02-21"), filed_on=d("2027-03-05"),
                      by="ann", today=TODAY)
    entry = int(year.held()[lambda f: f.tournament_id == "holdem"]["id"].iloc[0])
    api.record_held(year, "holdem#1", first_day=d("2027-02-20"), last_day=d("2027-02-21"),
                    entry_fees_usd="10000", prizes_usd="7500", corrects=entry, by="ann",
                    today=TODAY)
    violations, _ = audit_ledger(year, mt_scenario(), as_of=d("2027-03-06"))
    assert sorted(v.rule for v in violations) == ["MT-LARGE-LIMIT", "MT-NOTICE"]
    assert read_actuals(year, mt_scenario()).held[-1].prizes_usd == Decimal("7500.00")


def test_cli_solve_and_check_with_the_ledger(year: Ledger, tmp_path: Path) -> None:
    hold_past(year, 16)
    for k in range(1, 17):
        api.record_filed(year, "mt-notice", occurrence=f"past#{k}",
                         filed_on=d(PAST[k - 1]) - dt.timedelta(days=5), by="ann",
                         today=TODAY)
    path = tmp_path / "year.yaml"
    path.write_text(yaml.safe_dump(scenario(
        horizon={"start": "2027-01-01", "end": "2027-02-28"}, operators=[mt_room()],
        tournaments=[mt_large("b", window={"start": "2027-01-10", "end": "2027-01-20"})])))
    run_ = CliRunner().invoke
    r = run_(app, ["check", str(path), "--ledger", year.url, "--as-of", "2027-03-06"])
    assert r.exit_code == 0, r.output
    assert "0 violation(s) in 16 held occurrence(s)" in r.output
    out = tmp_path / "plan"
    r = run_(app, ["solve", str(path), "--ledger", year.url, "--out", str(out),
                   "--deterministic-time", "5", "--jobs", "1"])
    # 16 held: b (the 17th) cannot be placed; it is not required, so exit 0
    assert r.exit_code == 0, r.output
    assert "room-a: 16 non-charitable and 0 charitable" in r.output
    assert "MT-LARGE-LIMIT" in (out / "unscheduled.csv").read_text()
    held(year, "past#17", PAST[16])
    r = run_(app, ["check", str(path), "--ledger", year.url, "--format", "json"])
    assert r.exit_code == 1
    rows = json.loads(r.output)
    assert [(x["rule"], x["occurrence"], x["dates"]) for x in rows] == [
        ("MT-NOTICE", 17, "2026-10-26"), ("MT-LARGE-LIMIT", 17, "2026-10-26")]
    assert rows[1]["citation"] == "MCA 23-5-317(1)(a)"
    # the plan and what was held in one audit, one JSON document: the plan (b not placed) is
    # clean, the ledger's two findings are there
    r = run_(app, ["check", str(path), str(out / "schedule.csv"), "--ledger", year.url,
                   "--format", "json"])
    assert r.exit_code == 1
    assert [x["rule"] for x in json.loads(r.output)] == ["MT-NOTICE", "MT-LARGE-LIMIT"]
    r = run_(app, ["check", str(path), str(out / "schedule.csv"), "--ledger", year.url])
    assert r.exit_code == 1
    assert r.output.splitlines()[-1].startswith(
        "2 violation(s) in 17 held occurrence(s) and 0 report(s) owed in the ledger")
    bad = path.with_name("bad.yaml")
    bad.write_text(path.read_text().replace("live_tables: 2", "live_tables: 2\n  "
                                            "held_in_current_permit_year: {large_stakes: 3}"))
    r = run_(app, ["solve", str(bad), "--ledger", year.url, "--out", str(tmp_path / "p2")])
    assert r.exit_code == 2 and "the ledger records 17" in r.output
    assert "Traceback" not in r.output
    r = run_(app, ["check", str(path)])
    assert r.exit_code == 2 and "--ledger" in r.output


# ------------------------------------------------ nothing lost: many writers at once (§ 3)
_WRITER = """
import sys, datetime as dt
from scheduler.ledger import Ledger, api
lg = Ledger(sys.argv[1])
for i in range(int(sys.argv[3])):
    api.record_licence(lg, operator="room-a", agency_number=f"{sys.argv[2]}-{i}",
                       kind="mt-large-stakes-permit", fee_usd=120,
                       valid_from=dt.date(2026, 7, 1), valid_to=dt.date(2027, 6, 30),
                       by=sys.argv[2])
"""


def test_many_processes_and_threads_recording_at_once_lose_nothing(year: Ledger) -> None:
    if year.dialect == "sqlite":  # WAL and a busy timeout, as scheduler/ledger/store.py says
        with year.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
    per = 8
    # 3 processes and 3 threads of this process (one Ledger, its connection pool) at once:
    # 6 writers x 8 entries = 48 entries, each exactly once
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, year.url, f"p{k}", str(per)],
                              cwd=REPO, stderr=subprocess.PIPE)
             for k in range(3)]
    errors: list[BaseException] = []

    def write(who: str) -> None:
        try:
            for i in range(per):
                api.record_licence(year, operator="room-a", agency_number=f"{who}-{i}",
                                   kind="mt-large-stakes-permit", fee_usd=120,
                                   valid_from=d("2026-07-01"), valid_to=d("2027-06-30"),
                                   by=who)
        except BaseException as exc:  # reported below: a thread's exception is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(f"t{k}",)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()[-2000:]
    assert errors == []
    numbers = list(year.licences(current=False)["agency_number"])
    want = [f"{w}{k}-{i}" for w in ("p", "t") for k in range(3) for i in range(per)]
    assert sorted(numbers) == sorted(want)  # every entry there, none twice
    assert len(set(year.licences(current=False)["key"])) == 6 * per


# ------------------------------------------------------------------- the DataFrames (§ 2)
FRAMES = ("held", "filings", "licences", "reports")


def test_the_frames_have_one_dtype_whatever_the_rows(year: Ledger) -> None:
    empty = {n: dict(getattr(year, n)().dtypes.astype(str)) for n in FRAMES}
    held(year, "holdem#1", "2027-02-20", "2027-02-21", entry_fees_usd="100", prizes_usd="75")
    api.record_filed(year, "me-application", license_ref=YEAR_HOLDEM, filed_on=d("2027-01-20"),
                     by="ann", today=TODAY)
    api.record_licence(year, operator="room-a", agency_number="GCD-1",
                       kind="mt-large-stakes-permit", fee_usd=120, valid_from=d("2026-07-01"),
                       valid_to=d("2027-06-30"), by="ann")
    api.record_report(year, YEAR_HOLDEM, period_end=d("2027-02-21"), filed_on=d("2027-03-01"),
                      by="ann", today=TODAY)
    full = {n: dict(getattr(year, n)().dtypes.astype(str)) for n in FRAMES}
    assert empty == full  # a column of only empty values (note, tier) keeps its dtype
    h = full["held"]
    assert (h["first_day"], h["recorded_at"], h["prizes_usd"], h["occurrence"], h["note"]) == (
        "datetime64[ns]", "datetime64[ns, UTC]", "Float64", "Int64", "string")
    row = year.held().iloc[0]
    assert (row["first_day"], row["prizes_usd"]) == (dt.datetime(2027, 2, 20), 75.0)
    assert pd.isna(row["players"]) and pd.isna(row["note"])  # not recorded: <NA>
