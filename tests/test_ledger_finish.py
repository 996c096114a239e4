"""The ledger tried as a new user would (issue #13): what broke, fixed.

- an amount too large for a cent (``--entry-fees 1e400``) is a clear refusal, not exit 3;
- ``tourney record licence --kind`` with a typo is refused, naming the kinds;
- ``tourney ledger import`` of a file that is not an export is refused, not "0 added";
- a YAML ``held_in_current_permit_year`` count stands when no adopted plan of the ledger
  reaches into that permit year before the horizon (a ledger started with this year's plan
  knows nothing of the months before it); it is checked against the ledger when one does;
- ``tourney solve|check --use-ledger``: the ledger of ``$TOURNEY_LEDGER``;
- ``Ledger.events()`` has the dtypes of the other frames, whatever the rows;
- expenses of a game held (``--expenses``, schema 0002): the committed 0001 ledger is
  migrated in place and keeps its rows; an older export still imports; funds sum them.

Every ledger test runs on SQLite and on PostgreSQL (``ledger``/``url`` of tests/conftest.py).
"""

from __future__ import annotations

import csv
import io
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.funds import funds, funds_html
from scheduler.ledger.history import describe, from_ledger

from builders.plans import (
    FIXTURE_0001,
    TODAY,
    mt_scenario,
    plan_row,
    write_me_plan,
    write_plan,
    write_plan_folder,
    write_year_plan,
)
from builders.scenarios import d, mt_large, mt_room, scenario

run = CliRunner().invoke


@pytest.fixture
def adopted(ledger: Ledger, tmp_path: Path) -> Ledger:
    api.adopt(ledger, write_plan(tmp_path / "plan"), organization="Big Sky Tour", by="ann")
    return ledger


# ------------------------------------------------------------------------ amounts, kinds
@pytest.mark.parametrize("fees", ["1e400", "10000000000", "-1", "NaN", "Infinity", "1.005"])
def test_an_amount_out_of_range_is_refused_clearly(adopted: Ledger, fees: str) -> None:
    # 1e400 once raised decimal.InvalidOperation while quantizing (exit 3); 10**10 USD is
    # the first amount out of range (the column holds 9_999_999_999.99 at most)
    with pytest.raises(LedgerError, match="--entry-fees: .* is not an amount in USD"):
        api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                        last_day=d("2027-03-07"), entry_fees_usd=fees, today=TODAY)
    assert adopted.held().empty


def test_the_largest_amount_is_kept_to_the_cent(adopted: Ledger) -> None:
    e = api.record_held(adopted, "deep#1", first_day=d("2027-03-05"),
                        last_day=d("2027-03-07"), entry_fees_usd="9999999999.99",
                        today=TODAY)
    assert str(e.entry_fees_usd) == "9999999999.99"


def test_cli_a_huge_amount_is_exit_2_not_an_internal_error(adopted: Ledger) -> None:
    r = run(app, ["record", "held", "deep#1", "--first-day", "2027-03-05", "--last-day",
                  "2027-03-07", "--entry-fees", "1e400", "--ledger", adopted.url])
    assert r.exit_code == 2, r.output
    assert "--entry-fees: 1e400 is not an amount in USD" in r.output
    assert "internal error" not in r.output and "Traceback" not in r.output


def test_a_licence_kind_with_a_typo_is_refused(adopted: Ledger) -> None:
    with pytest.raises(LedgerError) as exc:
        api.record_licence(adopted, operator="room-a", agency_number="LS-1",
                           kind="mt-large-stake-permit", fee_usd=120,
                           valid_from=d("2026-07-01"), valid_to=d("2027-06-30"))
    assert str(exc.value) == (
        "--kind 'mt-large-stake-permit' is not a licence or permit kind: one of "
        "mt-large-stakes-permit, mt-small-stakes-permit, me-per-tournament, me-monthly, "
        "me-annual, me-super-cribbage (as licenses.csv's kind)")
    assert adopted.licences().empty
    ok = api.record_licence(adopted, operator="room-a", agency_number="LS-1",
                            kind="mt-large-stakes-permit", fee_usd=120,
                            valid_from=d("2026-07-01"), valid_to=d("2027-06-30"))
    assert ok.kind == "mt-large-stakes-permit"


# ----------------------------------------------------------------------------- import
def test_import_of_a_file_that_is_not_an_export_is_refused(ledger: Ledger,
                                                           tmp_path: Path) -> None:
    junk = tmp_path / "junk.csv"
    junk.write_text("junk\n")
    with pytest.raises(LedgerError, match="junk.csv line 1: not a file written by "
                                          "`tourney ledger export`"):
        api.import_csv(ledger, junk)
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(LedgerError, match="empty.csv line 1: not a file written"):
        api.import_csv(ledger, empty)
    # the export of an empty ledger (its header only) imports: nothing to add
    header = tmp_path / "header.csv"
    with header.open("w") as f:
        api.export_csv(ledger, f)
    assert api.import_csv(ledger, header) == api.Imported(added=0, skipped=0)


# ---------------------------------------------- held counts the ledger cannot know (§ 2)
def _horizon_only_plan(folder: Path) -> Path:
    """room-a: ``a#1..3`` in the horizon (2027-02-10, -17, -24), nothing before it."""
    rows = [plan_row("a", k, "room-a", "MT", "large-stakes", day)
            for k, day in enumerate(("2027-02-10", "2027-02-17", "2027-02-24"), start=1)]
    return write_plan_folder(folder, rows, exist_ok=False)


def test_a_ledger_started_with_this_years_plan_keeps_the_typed_counts(
        ledger: Ledger, tmp_path: Path) -> None:
    api.adopt(ledger, _horizon_only_plan(tmp_path / "plan"), by="ann")
    typed = {"large_stakes": 9, "charitable": 1}
    sc, h = from_ledger(mt_scenario([mt_large("a", count=3)],
                                    held_in_current_permit_year=typed), ledger)
    got = sc.operator("room-a").held_in_current_permit_year
    # no adopted occurrence of room-a in 2026-07-01..2026-12-31: the ledger's 0 is no
    # record, the YAML's 9 and 1 are
    assert (got.large_stakes, got.charitable) == (9, 1)
    assert h.covered == set()
    assert describe(h)[0] == (
        "room-a: no adopted plan of the ledger has occurrences in the permit year beginning "
        "2026-07-01 before 2027-01-01: the YAML's counts are used (9 non-charitable, 1 "
        "charitable large-stakes tournaments held; MT-LARGE-LIMIT, MT-CHARITY-LIMIT)")
    # nothing typed: 0, as before
    sc, _ = from_ledger(mt_scenario([mt_large("a", count=3)]), ledger)
    assert sc.operator("room-a").held_in_current_permit_year.large_stakes == 0


def test_an_empty_ledger_keeps_the_typed_counts(ledger: Ledger) -> None:
    sc, h = from_ledger(mt_scenario(held_in_current_permit_year={"large_stakes": 9}), ledger)
    assert h.organization is None
    assert sc.operator("room-a").held_in_current_permit_year.large_stakes == 9


def test_a_ledger_that_covers_the_months_before_is_the_record(adopted_year: Ledger) -> None:
    # the plan of test_ledger_history has past#1..17 from 2026-07-06: the ledger covers the
    # permit year before the horizon, and records 0 held: a typed 9 contradicts it
    with pytest.raises(ScenarioError, match="the YAML says 9 .* the ledger records 0"):
        from_ledger(mt_scenario(held_in_current_permit_year={"large_stakes": 9}),
                    adopted_year)


@pytest.fixture
def adopted_year(ledger: Ledger, tmp_path: Path) -> Ledger:
    api.adopt(ledger, write_year_plan(tmp_path / "year"), organization="Big Sky Tour", by="ann")
    return ledger


# ----------------------------------------------------------------------- --use-ledger
def test_cli_use_ledger_reads_tourney_ledger(adopted_year: Ledger, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for k, day in enumerate(("2026-07-06", "2026-07-13"), start=1):
        api.record_held(adopted_year, f"past#{k}", first_day=d(day), last_day=d(day),
                        today=TODAY)
    path = tmp_path / "year.yaml"
    path.write_text(yaml.safe_dump(scenario(
        horizon={"start": "2027-01-01", "end": "2027-02-28"}, operators=[mt_room()],
        tournaments=[mt_large("b", window={"start": "2027-01-10", "end": "2027-01-20"})])))
    monkeypatch.chdir(tmp_path)  # no ./tourney-ledger.sqlite here
    monkeypatch.setenv("TOURNEY_LEDGER", adopted_year.url)
    r = run(app, ["check", str(path), "--use-ledger", "--as-of", "2027-03-01"])
    # 2 held, neither with its notice filed (MT-NOTICE): exit 1
    assert r.exit_code == 1, r.output
    assert "2 violation(s) in 2 held occurrence(s)" in r.output
    r = run(app, ["solve", str(path), "--use-ledger", "--out", str(tmp_path / "p"),
                  "--deterministic-time", "5", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "room-a: 2 non-charitable and 0 charitable" in r.output
    assert f"history from the ledger {adopted_year.where}" in r.output
    # without it, and without --ledger: the schedule is needed
    r = run(app, ["check", str(path)])
    assert r.exit_code == 2 and "--use-ledger" in r.output
    # --use-ledger with nothing there: the clear "no ledger" refusal
    monkeypatch.delenv("TOURNEY_LEDGER")
    r = run(app, ["check", str(path), "--use-ledger"])
    assert r.exit_code == 2 and "no ledger at" in r.output
    assert "Traceback" not in r.output


# ---------------------------------------------------------------------- events frame
EVENT_DTYPES: dict[str, Any] = {
    "lineage": "string", "version": "Int64", "uid": "string",
    "recurrence_id": "datetime64[ns]", "sequence": "Int64", "status": "string",
    "tournament_id": "string", "occurrence": "Int64", "operator_id": "string",
    "jurisdiction": "string", "type": "string", "first_day": "datetime64[ns]",
    "last_day": "datetime64[ns]"}


def test_the_events_frame_has_one_dtype_whatever_the_rows(ledger: Ledger,
                                                          tmp_path: Path) -> None:
    assert dict(ledger.events().dtypes.astype(str)) == EVENT_DTYPES
    api.adopt(ledger, write_plan(tmp_path / "plan"), by="ann")
    ev = ledger.events()
    assert dict(ev.dtypes.astype(str)) == EVENT_DTYPES
    deep = ev[ev["tournament_id"] == "deep"].iloc[0]
    assert (deep["first_day"].date(), deep["version"]) == (d("2027-03-05"), 1)


# ----------------------------------------------------- expenses (schema 0002, ME-REPORT)
def test_the_committed_0001_ledger_migrates_through_0002_and_keeps_its_rows(
        tmp_path: Path) -> None:
    copy = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURE_0001, copy)
    lg = Ledger(copy)
    assert lg.revision() == "0001"
    # a command on the old schema is refused and says what to run
    with pytest.raises(LedgerError, match="tourney ledger init"):
        lg.held()
    # through 0002 (expenses), 0003 (the figures judged on what was held), 0004 (the adopted
    # plans' deadlines) to the newest schema, 0005 (the adopted plans' scenarios)
    assert lg.upgrade() == ("0001", "0005") and lg.head() == "0005"
    held = lg.held(current=False)
    # the two deep#1 entries of the fixture (180 players by ann, corrected to 181 by bob)
    # are there, unchanged; their expenses were never recorded: <NA>
    assert list(zip(held["players"], held["recorded_by"], held["prizes_usd"],
                    strict=True)) == [(180, "ann", 84000.5), (181, "bob", 84000.5)]
    assert held["expenses_usd"].isna().all() and str(held["expenses_usd"].dtype) == "Float64"
    assert api.current_entries(lg) == {"filings": 2, "licences": 1, "held": 1, "reports": 1}
    # and it records expenses now: prog#1 at room-b, $1,234.56
    e = api.record_held(lg, "prog#1", operator="room-b", first_day=d("2027-04-10"),
                        last_day=d("2027-04-11"), expenses_usd="1234.56", today=TODAY)
    assert str(e.expenses_usd) == "1234.56"
    lg.dispose()


def test_an_export_made_before_0002_imports(ledger: Ledger, tmp_path: Path) -> None:
    api.adopt(ledger, write_plan(tmp_path / "plan"), by="ann")
    api.record_held(ledger, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    prizes_usd="100", today=TODAY)
    buf = io.StringIO()
    api.export_csv(ledger, buf)
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    old = tmp_path / "old.csv"  # the same export without the column 0002 added
    with old.open("w", newline="") as f:
        w = csv.DictWriter(f, [c for c in rows[0] if c != "expenses_usd"],
                           lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    fresh = Ledger(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    api.init(fresh)
    assert api.import_csv(fresh, old, today=TODAY).added == len(rows)
    assert fresh.held()["expenses_usd"].isna().all()
    assert list(fresh.held()["prizes_usd"]) == [100.0]
    fresh.dispose()


def test_funds_sum_the_expenses_recorded(ledger: Ledger, tmp_path: Path) -> None:
    api.adopt(ledger, write_me_plan(tmp_path / "plan"), by="ann")
    api.record_held(ledger, "holdem#1", first_day=d("2027-01-16"), last_day=d("2027-01-16"),
                    entry_fees_usd="8000", prizes_usd="6400", expenses_usd="350.25",
                    today=TODAY)
    api.record_held(ledger, "holdem#2", first_day=d("2027-01-30"), last_day=d("2027-01-30"),
                    entry_fees_usd="9000", prizes_usd="6600", expenses_usd="149.75",
                    today=TODAY)
    (jan,) = [p.row() for p in funds(ledger, period="2027-01-31")]
    assert jan["expenses_usd"] == Decimal("500.00")   # 350.25 + 149.75
    (feb_p,) = funds(ledger, period="2027-02-28")
    assert feb_p.row()["expenses_usd"] is None         # holdem#3 not recorded
    page = funds_html(funds(ledger, period="2027-01-31"))
    assert "<th>Expenses</th><td class=\"num\">$500.00</td>" in page
    assert "fill in by hand" in funds_html([feb_p])


def test_cli_record_held_expenses(adopted: Ledger) -> None:
    r = run(app, ["record", "held", "deep#1", "--first-day", "2027-03-05", "--last-day",
                  "2027-03-07", "--expenses", "-5", "--ledger", adopted.url])
    assert r.exit_code == 2 and "--expenses: -5 is not an amount in USD" in r.output


# ------------------------------------------------------------- a weekly series' UID
def test_the_uid_of_a_weekly_series_asks_for_one_night(ledger: Ledger,
                                                       tmp_path: Path) -> None:
    uid = "bounty.series@room-a.0123456789.tourney.invalid"
    rows = []
    for n, night in enumerate(("2027-01-06", "2027-01-13", "2027-01-20"), start=1):
        row = plan_row("bounty", n, "room-a", "MT", "small-stakes", night)
        row.update(uid=uid, recurrence_id=night)
        rows.append(row)
    folder = write_plan_folder(tmp_path / "plan", rows, exist_ok=False)
    api.adopt(ledger, folder, by="ann")
    # once "shared by operators room-a, room-a, room-a"
    with pytest.raises(LedgerError) as exc:
        api.record_held(ledger, uid, first_day=d("2027-01-13"), last_day=d("2027-01-13"),
                        today=TODAY)
    assert str(exc.value) == (
        f"{uid} is the UID of a weekly series of 3 nights (2027-01-06 .. 2027-01-20): "
        "record one night by its TOURNAMENT#N, e.g. bounty#1")
    e = api.record_held(ledger, "bounty#2", first_day=d("2027-01-13"),
                        last_day=d("2027-01-13"), players=30, today=TODAY)
    assert (e.uid, e.recurrence_id, e.players) == (uid, d("2027-01-13"), 30)


# ------------------------------------------------- two organizations with the same rooms
def test_cli_organization_picks_one_of_two_with_the_same_operators(
        adopted_year: Ledger, tmp_path: Path) -> None:
    # another organization's plan (another lineage) with an operator room-a too
    row = plan_row("z", 1, "room-a", "MT", "large-stakes", "2026-08-03",
                   lineage="fedcba9876")
    other = write_plan_folder(tmp_path / "other", [row], exist_ok=False)
    api.adopt(adopted_year, other, organization="Other Office", by="bob")
    api.record_held(adopted_year, "past#1", first_day=d("2026-07-06"),
                    last_day=d("2026-07-06"), today=TODAY)
    path = tmp_path / "year.yaml"
    path.write_text(yaml.safe_dump(scenario(
        horizon={"start": "2027-01-01", "end": "2027-02-28"}, operators=[mt_room()],
        tournaments=[])))
    lg = ["--ledger", adopted_year.url]
    r = run(app, ["check", str(path), *lg])
    assert r.exit_code == 2
    assert ("operators are in several organizations of the ledger (Big Sky Tour, Other "
            "Office): give --organization") in r.output
    r = run(app, ["check", str(path), *lg, "--organization", "Big Sky Tour"])
    # past#1 held without a notice (MT-NOTICE): 1 violation
    assert r.exit_code == 1 and "1 violation(s) in 1 held occurrence(s)" in r.output
    r = run(app, ["check", str(path), *lg, "--organization", "Other Office"])
    assert r.exit_code == 0 and "0 violation(s) in 0 held occurrence(s)" in r.output
    r = run(app, ["check", str(path), *lg, "--organization", "Nobody"])
    assert r.exit_code == 2 and "--organization 'Nobody' is not in the ledger" in r.output
    r = run(app, ["solve", str(path), *lg, "--organization", "Big Sky Tour", "--out",
                  str(tmp_path / "p"), "--deterministic-time", "2", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "room-a: 1 non-charitable and 0 charitable" in r.output
    # the ledger's options without a ledger are refused, not ignored; --as-of is every
    # command's, but check needs a schedule or a ledger to judge as of it
    r = run(app, ["check", str(path), "--as-of", "2027-01-01"])
    assert r.exit_code == 2 and "give the SCHEDULE to audit" in r.output
    for argv in (["check", str(path), "--organization", "Big Sky Tour"],
                 ["solve", str(path), "--organization", "Big Sky Tour"]):
        r = run(app, argv)
        assert r.exit_code == 2 and "is for the ledger: give --ledger" in r.output, argv


def test_cli_funds_and_export_refusals_say_nothing_was_written(adopted: Ledger,
                                                               tmp_path: Path) -> None:
    # they only read the ledger: "Nothing was recorded" would suggest they could have
    r = run(app, ["ledger", "funds", "--out", str(tmp_path / "f"), "--period", "2027-13",
                  "--ledger", adopted.url])
    assert r.exit_code == 2
    assert r.output == ("tourney: --period '2027-13' is not a month (YYYY-MM) or a day "
                        "(YYYY-MM-DD). Nothing was written.\n")
    r = run(app, ["ledger", "export", "--ledger", str(tmp_path / "none.sqlite")])
    assert r.exit_code == 2 and r.output.endswith("Nothing was written.\n")
    assert not (tmp_path / "f").exists()
