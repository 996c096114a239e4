"""``tourney ledger import`` of an export a person edited (issue #26): each row that differs
from the ledger is listed (which field, old → new) and nothing is imported (exit 2), or, with
``--apply-edits``, recorded as a correction of its entry (the entry stays, superseded); cells
read as spreadsheets write them (a BOM, TRUE/FALSE, ``$10,000``, ``1234,50``, rows of only
commas), or refused naming the sheet, row, column and value; through LibreOffice Calc; on
SQLite and PostgreSQL (``ledger``: tests/conftest.py).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.spellings import read_bool, read_count, read_day, read_usd
from scheduler.ledger.transfer import EditsNotApplied
from scheduler.ledger.workbook import export_xlsx, import_xlsx

from builders.calc import CSV_UTF8_BOM, resave
from builders.plans import TODAY
from builders.scenarios import d


@pytest.fixture
def year(adopted: Ledger) -> Ledger:
    """deep#1 held with 240 entries, $90,000 entry fees and $84,000 prizes (93.3 %); its
    MT notice filed; the Maine game cancelled."""
    api.record_held(adopted, "deep#1", first_day=d("2027-03-05"), last_day=d("2027-03-07"),
                    players=180, entries=240, entry_fees_usd="90000", prizes_usd="84000",
                    charity_is_licensee=False, today=TODAY)
    api.record_filed(adopted, "mt-notice", occurrence="deep#1", filed_on=d("2027-02-20"),
                     today=TODAY)
    api.record_cancelled(adopted, "holdem#1", note="snow")
    return adopted


def _export(lg: Ledger, path: Path) -> Path:
    path.write_bytes(export_xlsx(lg)[0])
    return path


def _set(path: Path, sheet: str, column: str, value: object, row: int = 2) -> str:
    """Write ``value`` into ``column`` of ``row`` of ``sheet``; returns the cell
    (``Held!J2``)."""
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    header = [c.value for c in ws[1]]
    letter = get_column_letter(header.index(column) + 1)
    ws[f"{letter}{row}"] = value
    wb.save(path)
    return f"{sheet}!{letter}{row}"


def _n(lg: Ledger) -> int:
    return sum(api.all_entries(lg).values())


# ---------------------------------------------------------------- spreadsheet spellings
@pytest.mark.parametrize("text, amount", [
    ("84000", "84000"), ("84000.00", "84000.00"), ("$84,000.00", "84000.00"),
    ("$10,000", "10000"),          # a comma before three digits: thousands (US dollars)
    ("10,000", "10000"), ("1,234,567.89", "1234567.89"),
    ("1234,50", "1234.50"),        # a comma before one or two digits at the end: decimal
    ("1,5", "1.5"), ("1.234,50", "1234.50"), ("1 234,50", "1234.50"),
    ("1\u00a0234,50", "1234.50"),  # the no-break space some locales group thousands with
    (" $ 12.5 ", "12.5"), ("-5", "-5"),   # negative: read, then refused by the amount check
])
def test_amounts_as_spreadsheets_write_them(text: str, amount: str) -> None:
    assert read_usd(text) == Decimal(amount)


@pytest.mark.parametrize("text", ["10k", "1,2345", "12.345,678", "$", "1,23,456", "ten",
                                  "1.234.5"])
def test_amounts_that_are_no_spelling_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"not an amount in USD \(e.g. 1234.50"):
        read_usd(text)


def test_counts_yes_no_and_days_as_spreadsheets_write_them() -> None:
    assert [read_count(t) for t in ("180", "1,234", "180.0")] == [180, 1234, 180]
    with pytest.raises(ValueError, match="not a whole number"):
        read_count("12.5")
    assert [read_bool(t) for t in ("TRUE", "FALSE", "true", "No", "yes", "1", "0")] == [
        True, False, True, False, True, True, False]
    with pytest.raises(ValueError, match="not TRUE or FALSE"):
        read_bool("maybe")
    assert read_day("1/5/2027") == read_day("2027-01-05") == dt.date(2027, 1, 5)
    assert read_day("2027-01-05 00:00:00") == dt.date(2027, 1, 5)
    for bad in ("2027-01-05 10:30:00", "2/30/2027", "1/5/27"):
        with pytest.raises(ValueError):
            read_day(bad)


# -------------------------------------------------------------------- edited workbooks
def test_an_unedited_export_imports_as_no_difference(year: Ledger, tmp_path: Path) -> None:
    path = _export(year, tmp_path / "year.xlsx")
    assert import_xlsx(year, path, today=TODAY) == api.Imported(0, _n(year))


def test_an_edited_prize_is_listed_and_nothing_imported(year: Ledger, tmp_path: Path) -> None:
    path = _export(year, tmp_path / "year.xlsx")
    cell = _set(path, "Held", "prizes_usd", 84500)      # deep#1, the first Held row
    before = _n(year)
    with pytest.raises(EditsNotApplied) as err:
        import_xlsx(year, path, today=TODAY)
    (edit,) = err.value.edits
    held_id = int(year.held()["id"].iloc[0])
    assert (edit.table, edit.entry_id, edit.what) == ("held", held_id,
                                                      "held deep#1 at room-a")
    assert [(c.where, c.column, c.old, c.new) for c in edit.changes] == [
        (f"{path} {cell}", "prizes_usd", "84000.00", "84500.00")]
    assert "give --apply-edits" in str(err.value)
    assert _n(year) == before                          # nothing imported


def test_apply_edits_records_one_correction(year: Ledger, tmp_path: Path) -> None:
    path = _export(year, tmp_path / "year.xlsx")
    _set(path, "Held", "prizes_usd", "$10,000")         # typed with $ and a comma: 10,000.00
    old = int(year.held()["id"].iloc[0])
    res = import_xlsx(year, path, today=TODAY, apply_edits=True, by="treasurer")
    assert (res.added, res.corrected, len(res.edits)) == (0, 1, 1)
    assert res.edits[0].changes[0].new == "10000.00"
    held = year.held()
    deep = held[held["tournament_id"] == "deep"].iloc[0]
    assert deep["prizes_usd"] == 10000.0 and deep["supersedes_id"] == old
    assert deep["entry_fees_usd"] == 90000.0 and deep["recorded_by"] == "treasurer"
    assert len(year.held(current=False)) == 3          # deep#1 twice, holdem#1 cancelled
    assert res.edits[0].corrected_by == int(deep["id"])
    # the same file again: its row of the old entry is still an edit, of an entry now
    # corrected: refused, naming the correction to edit instead
    with pytest.raises(LedgerError, match=f"held entry #{old} was already corrected by "
                                          f"#{int(deep['id'])}: edit the row of"):
        import_xlsx(year, path, today=TODAY, apply_edits=True)


def test_an_invalid_amount_typed_in_is_named(year: Ledger, tmp_path: Path) -> None:
    path = _export(year, tmp_path / "year.xlsx")
    cell = _set(path, "Held", "prizes_usd", "$10.000,5x")
    with pytest.raises(LedgerError) as err:
        import_xlsx(year, path, today=TODAY, apply_edits=True)
    assert str(err.value).startswith(f"{path} {cell}: column prizes_usd: $10.000,5x is not "
                                     "an amount in USD (e.g. 1234.50, $1,234.50 or 1234,50)")


def test_what_an_entry_is_about_cannot_be_edited(year: Ledger, tmp_path: Path) -> None:
    path = _export(year, tmp_path / "year.xlsx")
    cell = _set(path, "Held", "operator_id", "room-b")
    with pytest.raises(LedgerError) as err:
        import_xlsx(year, path, today=TODAY, apply_edits=True)
    assert str(err.value).startswith(
        f"{path} {cell}: column operator_id differs from the ledger's entry #")
    assert "room-a → room-b) and cannot be edited" in str(err.value)
    cell = _set(path, "Held", "operator_id", "room-a")
    cell = _set(path, "Plan events", "title", "Deepstack!")   # a plan's entry: as adopted
    with pytest.raises(LedgerError, match="adopt a new plan instead"):
        import_xlsx(year, path, today=TODAY, apply_edits=True)


def test_cli_lists_the_edit_exit_2_then_applies_it(year: Ledger, tmp_path: Path) -> None:
    path = _export(year, tmp_path / "year.xlsx")
    _set(path, "Held", "prizes_usd", 84500)
    env = {"TOURNEY_AS_OF": "2027-12-31"}               # the facts of 2027 are past
    r = CliRunner().invoke(app, ["ledger", "import", str(path), "--ledger", year.url],
                           env=env)
    assert r.exit_code == 2, r.output
    assert "1 row(s) of the file differ from the ledger" in r.output
    assert "(held deep#1 at room-a): prizes_usd 84000.00 → 84500.00" in r.output
    assert "Nothing was recorded." in r.output
    r = CliRunner().invoke(app, ["ledger", "import", str(path), "--ledger", year.url,
                                 "--apply-edits", "--by", "ann"], env=env)
    assert r.exit_code == 0, r.output
    assert "recorded as correction #" in r.stdout
    assert "0 entries added, 1 corrected" in r.stdout
    assert year.held()["prizes_usd"].iloc[-1] == 84500.0



def test_import_as_of_judges_the_recorded_days_on_that_day(year: Ledger, tmp_path: Path
                                                           ) -> None:
    # deep#1 was held Mar 5-7, 2027; the tests' today is 2026-12-01 (conftest), before it
    path = _export(year, tmp_path / "year.xlsx")
    cell = _set(path, "Held", "prizes_usd", 84500)
    base = ["ledger", "import", str(path), "--ledger", year.url, "--apply-edits"]
    r = CliRunner().invoke(app, base)
    assert r.exit_code == 2, r.output
    assert "2027-03-07 is in the future (today is 2026-12-01)" in r.output, cell
    # --as-of the day after the last day: Mar 8 is past Mar 7, the correction is recorded
    r = CliRunner().invoke(app, [*base, "--as-of", "2027-03-08"])
    assert r.exit_code == 0, r.output
    assert "0 entries added, 1 corrected" in r.stdout
    assert year.held()["prizes_usd"].iloc[-1] == 84500.0

# ------------------------------------------------------------ CSV as spreadsheets write it
def test_a_csv_with_bom_true_false_and_rows_of_commas_is_no_difference(
        year: Ledger, tmp_path: Path) -> None:
    buf = io.StringIO()
    api.export_csv(year, buf)
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    header = rows[0]
    k = header.index("charity_is_licensee")
    assert [r[k] for r in rows if r[0] == "held" and r[k]] == ["false"]
    for r in rows[1:]:
        r[k] = r[k].upper()                             # FALSE, as spreadsheets write it
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    path = tmp_path / "year.csv"
    path.write_bytes(b"\xef\xbb\xbf" + (out.getvalue() + "," * (len(header) - 1) + "\r\n"
                                         + "," * (len(header) - 1) + "\r\n").encode())
    assert api.import_csv(year, path, today=TODAY) == api.Imported(0, _n(year))


# --------------------------------------------------------------------- through LibreOffice
def test_export_through_libreoffice_is_no_difference_then_one_edit(
        year: Ledger, tmp_path: Path) -> None:
    # export → opened and saved by LibreOffice Calc → import: no difference; a prize edited
    # in the saved copy → exactly that row and field; --apply-edits: one correction
    path = _export(year, tmp_path / "year.xlsx")
    saved = resave(path, tmp_path / "calc")
    n = _n(year)
    assert import_xlsx(year, saved, today=TODAY) == api.Imported(0, n)
    cell = _set(saved, "Held", "prizes_usd", 84500)
    with pytest.raises(EditsNotApplied) as err:
        import_xlsx(year, saved, today=TODAY)
    assert [(e.table, [(c.where, c.old, c.new) for c in e.changes])
            for e in err.value.edits] == [("held", [(f"{saved} {cell}", "84000.00",
                                                     "84500.00")])]
    res = import_xlsx(year, saved, today=TODAY, apply_edits=True)
    assert (res.added, res.corrected) == (0, 1) and _n(year) == n + 1


def test_a_held_sheet_saved_as_csv_utf8_by_libreoffice_reads(year: Ledger,
                                                             tmp_path: Path) -> None:
    # the CSV export re-saved by LibreOffice as CSV (UTF-8, with the BOM Excel writes):
    # dates, TRUE/FALSE and numbers as Calc writes them
    buf = io.StringIO()
    api.export_csv(year, buf)
    path = tmp_path / "year.csv"
    path.write_text(buf.getvalue(), encoding="utf-8")
    saved = resave(path, tmp_path / "calc", CSV_UTF8_BOM)
    assert saved.read_bytes().startswith(b"\xef\xbb\xbf")
    assert api.import_csv(year, saved, today=TODAY) == api.Imported(0, _n(year))
