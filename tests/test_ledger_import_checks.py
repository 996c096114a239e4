"""``tourney ledger import`` makes every check ``tourney record`` makes (issue 24, "Wrong
all-clear"): before, NaN, negative, 1E+400 and fractional-cent amounts, future or reversed
days, unknown occurrences and ``outcome=maybe`` all went in, ``check --ledger`` passed 0 %
prizes and ``ledger funds`` crashed (exit 3) on Infinity. Now every row is checked, every
problem is named by line (or cell) and column, and nothing is imported if any row is refused.

An ME application filed before its window opened is not "done" in ``tourney deadlines``
(ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: received at most 90 days before the first
day it covers).

The plan is that of builders.plans.write_plan (deep#1 at room-a, Fri 2027-03-05..Sun
2027-03-07; holdem#1 at post-1 under a per-tournament licence, first day Sat 2027-02-20).
"Today" is TODAY, 2027-12-31.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.deadlines import deadlines

from builders.plans import ME_LICENCE, TODAY
from builders.scenarios import d


def _export(lg: Ledger) -> list[dict[str, str]]:
    api.record_held(lg, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=10, entry_fees_usd="1234.56", prizes_usd="1000.00", today=TODAY)
    buf = io.StringIO()
    api.export_csv(lg, buf)
    return list(csv.DictReader(io.StringIO(buf.getvalue())))


def _write(rows: list[dict[str, str]], path: Path) -> Path:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


def _held_line(rows: list[dict[str, str]]) -> int:
    """The file line of the held row (the header is line 1)."""
    return next(i for i, r in enumerate(rows, start=2) if r["table"] == "held")


def _empty(tmp_path: Path) -> Ledger:
    other = Ledger(tmp_path / "other.sqlite")
    api.init(other)
    return other


@pytest.mark.parametrize("column, value, message", [
    ("entry_fees_usd", "NaN", "column entry_fees_usd: NaN is not an amount in USD"),
    ("entry_fees_usd", "Infinity", "column entry_fees_usd: Infinity is not an amount in USD"),
    ("prizes_usd", "-5", "column prizes_usd: -5 is not an amount in USD"),
    ("prizes_usd", "1E+400", "column prizes_usd: 1E+400 is not an amount in USD"),
    ("charity_usd", "0.001", "column charity_usd: 0.001 is not an amount in USD"),
    ("players", "-1", "column players: -1 is negative"),
    # players and entries: at most 1,000,000 (as record's --players); 1,000,001 the first over
    ("players", "1000001", "column players: 1000001 is more than 1,000,000"),
    ("occurrence", "2147483648", "column occurrence: 2147483648 is more than 2,147,483,647"),
    # TODAY is 2027-12-31: 2028-01-01 is the first day in the future
    ("last_day", "2028-01-01", "column last_day 2028-01-01 is in the future (today is "
                               "2027-12-31)"),
    ("first_day", "2027-03-08", "column last_day 2027-03-07 is before column first_day "
                                "2027-03-08"),
    ("outcome", "maybe", "column outcome: 'maybe' is not one of held, cancelled"),
    ("uid", "nope@example", "is not an occurrence of an adopted plan of its organization"),
])
def test_import_refuses_what_record_refuses(adopted: Ledger, tmp_path: Path, column: str,
                                            value: str, message: str) -> None:
    rows = _export(adopted)
    line = _held_line(rows)
    rows[line - 2][column] = value
    other = _empty(tmp_path)
    with pytest.raises(LedgerError) as err:
        api.import_csv(other, _write(rows, tmp_path / "l.csv"), today=TODAY)
    assert str(err.value).startswith(f"{tmp_path / 'l.csv'} line {line}: "), str(err.value)
    assert message in str(err.value), str(err.value)
    assert sum(api.all_entries(other).values()) == 0  # nothing imported
    other.dispose()


def test_the_last_day_today_is_imported(adopted: Ledger, tmp_path: Path) -> None:
    rows = _export(adopted)
    other = _empty(tmp_path)
    # held on 2027-03-05..07: imported as of 2027-03-07 (the last day is today), refused as
    # of 2027-03-06
    with pytest.raises(LedgerError, match="2027-03-07 is in the future"):
        api.import_csv(other, _write(rows, tmp_path / "l.csv"), today=d("2027-03-06"))
    assert api.import_csv(other, tmp_path / "l.csv", today=d("2027-03-07")).added == len(rows)
    other.dispose()


def test_every_problem_is_named_by_line_and_column(adopted: Ledger, tmp_path: Path) -> None:
    rows = _export(adopted)
    line = _held_line(rows)
    rows[line - 2].update(entry_fees_usd="NaN", outcome="maybe")
    rows[0]["recorded_at"] = "yesterday"  # the organization, line 2
    other = _empty(tmp_path)
    with pytest.raises(LedgerError) as err:
        api.import_csv(other, _write(rows, tmp_path / "l.csv"), today=TODAY)
    lines = str(err.value).splitlines()
    # the organization's key (line 2); the held row: its amount and its outcome; the rows
    # that refer to the organization follow it (refused with it, not named again)
    assert lines[0] == "3 problems in the file:", lines
    assert lines[1].startswith(f"  {tmp_path / 'l.csv'} line 2: column recorded_at: "
                               "'yesterday' is not valid"), lines
    assert lines[2].startswith(f"  {tmp_path / 'l.csv'} line {line}: column entry_fees_usd: "
                               "NaN is not an amount")
    assert lines[3].startswith(f"  {tmp_path / 'l.csv'} line {line}: column outcome: 'maybe'")
    assert sum(api.all_entries(other).values()) == 0
    other.dispose()


def test_the_cli_refuses_infinity_and_funds_does_not_crash(adopted: Ledger, tmp_path: Path
                                                           ) -> None:
    rows = _export(adopted)
    rows[_held_line(rows) - 2]["prizes_usd"] = "Infinity"
    path = _write(rows, tmp_path / "l.csv")
    other = _empty(tmp_path)
    r = CliRunner().invoke(app, ["ledger", "import", str(path), "--ledger", other.url])
    assert r.exit_code == 2, r.output
    assert "column prizes_usd: Infinity is not an amount in USD" in r.output
    r = CliRunner().invoke(app, ["ledger", "funds", "--ledger", other.url])
    assert r.exit_code in (0, 1, 2) and "Traceback" not in r.output, r.output
    other.dispose()


def test_an_import_of_a_workbook_is_checked_alike(adopted: Ledger, tmp_path: Path) -> None:
    import openpyxl

    from scheduler.ledger.workbook import SHEET, export_xlsx, import_xlsx

    _export(adopted)
    path = tmp_path / "l.xlsx"
    path.write_bytes(export_xlsx(adopted)[0])
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEET]
    header = [c.value for c in ws[1]]
    row = next(r[0].row for r in ws.iter_rows(min_row=2) if r[0].value == "held")
    cell = ws.cell(row=row, column=header.index("outcome") + 1)
    cell.value = "maybe"
    wb.save(path)
    other = _empty(tmp_path)
    with pytest.raises(LedgerError, match=rf"Ledger!{cell.column_letter}{row}: column outcome: "
                                          "'maybe' is not one of held, cancelled"):
        import_xlsx(other, path, today=TODAY)
    other.dispose()


# ---------------------------------------------------------------- ME application window
@pytest.mark.parametrize("filed_on, state", [
    # the first day covered is Sat 2027-02-20; 90 days before is 2026-11-22 (Feb 20 is day
    # 51 of 2027, so 90 - 51 = 39 days back from Dec 31: Nov 22): the window opens then
    ("1900-01-01", "filed too early"),
    ("2025-06-01", "filed too early"),
    ("2026-11-21", "filed too early"),
    ("2026-11-22", "done"),
    ("2027-02-05", "done"),        # the due date (test_ledger: Fri 2027-02-05)
    ("2027-02-08", "done late"),
])
def test_an_me_application_before_its_window_is_not_done(adopted: Ledger, plan: Path,
                                                         filed_on: str, state: str) -> None:
    api.record_filed(adopted, "me-application", license_ref=ME_LICENCE,
                     filed_on=d(filed_on), today=TODAY)
    df = deadlines(plan, as_of=d("2027-01-10"), ledger=adopted)
    row = df[df["rule"] == "ME-APPLICATION-WINDOW"].iloc[0]
    assert (row["state"], row["done_on"]) == (state, d(filed_on))


# ---------------------------------------------------------------- the size of the file
def test_an_import_of_more_rows_than_allowed_is_refused(adopted: Ledger, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    rows = _export(adopted)
    path = _write(rows, tmp_path / "l.csv")
    other = _empty(tmp_path)
    monkeypatch.setenv("TOURNEY_MAX_CSV_ROWS", str(len(rows) - 1))
    with pytest.raises(LedgerError, match=f"more than {len(rows) - 1:,} rows .*"
                                          "TOURNEY_MAX_CSV_ROWS"):
        api.import_csv(other, path, today=TODAY)
    monkeypatch.setenv("TOURNEY_MAX_CSV_ROWS", str(len(rows)))
    assert api.import_csv(other, path, today=TODAY).added == len(rows)
    other.dispose()
