"""``tourney ledger export --out x.xlsx`` and ``tourney ledger import x.xlsx`` (issues #13,
#26): one sheet per kind (Held, Filings, Licences, Reports, then the plans'), typed cells,
round-tripping (export → import into an empty ledger → export gives the same rows), errors
naming the sheet, cell and column; a workbook of the earlier one-sheet layout still read; on
SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.transfer import export_columns
from scheduler.ledger.workbook import SHEET, SHEETS, export_xlsx, import_xlsx

from builders.plans import TODAY
from builders.scenarios import d

# (``ledger``: tests/conftest.py)


def _csv(lg: Ledger) -> str:
    buf = io.StringIO()
    api.export_csv(lg, buf)
    return buf.getvalue()


def _year(lg: Ledger) -> None:
    first = api.record_held(lg, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                            players=10, entry_fees_usd="1234.56", note="=1+1, a formula?",
                            today=TODAY)
    api.record_held(lg, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=11, entry_fees_usd="1234.50", corrects=first.id, today=TODAY)
    api.record_filed(lg, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-20"),
                     today=TODAY)


def _empty(tmp_path: Path, name: str = "other.sqlite") -> Ledger:
    other = Ledger(tmp_path / name)
    api.init(other)
    return other


def _one_sheet(lg: Ledger, path: Path) -> None:
    """A workbook of the earlier layout (tourney before issue #26): sheet Ledger, the CSV
    export's columns and rows, every cell text."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    for values in csv.reader(io.StringIO(_csv(lg))):
        ws.append([v or None for v in values])
    wb.save(path)


def test_xlsx_has_one_sheet_per_kind_round_trips_and_is_deterministic(
        adopted: Ledger, tmp_path: Path) -> None:
    _year(adopted)
    data, n = export_xlsx(adopted)
    assert n == sum(api.all_entries(adopted).values())
    assert export_xlsx(adopted)[0] == data            # same ledger, same bytes
    path = tmp_path / "ledger.xlsx"
    path.write_bytes(data)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Held", "Filings", "Licences", "Reports", "Organizations",
                             "Operators", "Lineages", "Plan versions", "Plan events",
                             "Plan licences", "Plan deadlines", "Plan scenarios"]
    held = wb["Held"]
    header = [c.value for c in held[1]]
    assert header[:10] == ["tournament_id", "occurrence", "operator_id", "outcome",
                           "first_day", "last_day", "players", "entries", "entry_fees_usd",
                           "prizes_usd"]
    assert header[-5:] == ["key", "supersedes_id", "organization_id", "recorded_at",
                           "recorded_by"]
    assert len(header) < len(export_columns())  # its own columns, not the CSV's 46
    first, second = (dict(zip(header, (c for c in row), strict=True))
                     for row in held.iter_rows(min_row=2))
    # typed cells: a day a date, USD a number shown with cents, a count a number
    assert first["first_day"].value == dt.datetime(2027, 3, 5)
    assert first["first_day"].number_format == "yyyy-mm-dd"
    assert first["entry_fees_usd"].value == 1234.56
    assert first["entry_fees_usd"].number_format == "#,##0.00"
    assert first["players"].value == 10
    assert first["note"].data_type == "s"             # text, never a formula
    assert second["supersedes_id"].value == first["key"].value   # the correction's
    assert [c.value for c in wb["Filings"][1]][:3] == ["kind", "tournament_id", "occurrence"]
    other = _empty(tmp_path)
    assert import_xlsx(other, path, today=TODAY) == api.Imported(n, 0)
    assert _csv(other) == _csv(adopted)               # the same rows, byte for byte
    assert import_xlsx(other, path, today=TODAY) == api.Imported(0, n)   # twice: nothing added
    assert list(other.held(current=False)["entry_fees_usd"]) == [1234.56, 1234.50]
    assert list(other.held(current=False)["note"])[0] == "=1+1, a formula?"
    other.dispose()


def test_a_workbook_of_the_one_sheet_layout_is_still_read(adopted: Ledger,
                                                           tmp_path: Path) -> None:
    _year(adopted)
    path = tmp_path / "old.xlsx"
    _one_sheet(adopted, path)
    other = _empty(tmp_path)
    n = sum(api.all_entries(adopted).values())
    assert import_xlsx(other, path, today=TODAY) == api.Imported(n, 0)
    assert _csv(other) == _csv(adopted)
    other.dispose()


def test_a_workbook_a_spreadsheet_edited_reads_back(adopted: Ledger, tmp_path: Path) -> None:
    _year(adopted)
    path = tmp_path / "ledger.xlsx"
    path.write_bytes(export_xlsx(adopted)[0])
    wb = openpyxl.load_workbook(path)
    ws = wb["Held"]
    header = [c.value for c in ws[1]]
    held = list(ws.iter_rows(min_row=2))[0]
    # what a person or a spreadsheet may make of the same values
    held[header.index("first_day")].value = "3/5/2027"
    held[header.index("players")].value = 10.0
    held[header.index("entry_fees_usd")].value = "$1,234.56"
    wb.save(path)
    other = _empty(tmp_path)
    import_xlsx(other, path, today=TODAY)
    assert _csv(other) == _csv(adopted)
    other.dispose()


def test_xlsx_errors_name_sheet_cell_and_column(adopted: Ledger, tmp_path: Path) -> None:
    _year(adopted)
    path = tmp_path / "ledger.xlsx"
    path.write_bytes(export_xlsx(adopted)[0])
    wb = openpyxl.load_workbook(path)
    ws = wb["Held"]
    header = [c.value for c in ws[1]]
    col = get_column_letter(header.index("entry_fees_usd") + 1)
    ws[f"{col}2"] = "twelve dollars"
    wb.save(path)
    other = _empty(tmp_path)
    with pytest.raises(LedgerError) as exc:
        import_xlsx(other, path, today=TODAY)
    assert str(exc.value).startswith(
        f"{path} Held!{col}2: column entry_fees_usd: twelve dollars is not an amount in USD")
    assert sum(api.all_entries(other).values()) == 0  # all or nothing
    for name in SHEETS.values():
        wb[name].title = f"x{name}"[:31]
    wb.save(path)
    with pytest.raises(LedgerError, match="has none of the sheets Held, Filings, "):
        import_xlsx(other, path, today=TODAY)
    (tmp_path / "not.xlsx").write_text("table,key\n")
    with pytest.raises(LedgerError, match="cannot read .* as an .xlsx workbook"):
        import_xlsx(other, tmp_path / "not.xlsx")
    other.dispose()


def test_cli_xlsx_round_trip(adopted: Ledger, tmp_path: Path) -> None:
    # the adopted plan only: the command judges facts against the computer's clock, and the
    # facts of _year (2027) may lie in its future (the API round trips above carry them)
    out = tmp_path / "ledger.xlsx"
    r = CliRunner().invoke(app, ["ledger", "export", "--out", str(out), "--ledger", adopted.url])
    assert r.exit_code == 0, r.output
    n = sum(api.all_entries(adopted).values())
    assert f"Wrote {n} entries" in r.stdout
    other = _empty(tmp_path)
    r = CliRunner().invoke(app, ["ledger", "import", str(out), "--ledger", other.url])
    assert r.exit_code == 0, r.output
    assert f"{n} entries added, 0 already there" in r.stdout
    back = tmp_path / "back.csv"
    r = CliRunner().invoke(app, ["ledger", "export", "--out", str(back), "--ledger", other.url])
    assert back.read_text(encoding="utf-8") == _csv(adopted)
    other.dispose()
