"""The results workbook and ``tourney record --from`` (issue #26): a treasurer's sheet of 52
Tuesday nights recorded in one command and one transaction, every problem named by sheet, row
and column in one pass, nothing recorded when a row is refused; through LibreOffice Calc too;
on SQLite and PostgreSQL (``ledger``: tests/conftest.py).

The plan is written by hand: a Montana small-stakes weekly series on every Tuesday of 2027.
2027-01-01 is a Friday, so the first Tuesday is Jan 5 (day 5 of the year); the last is day
5 + 7 × 51 = 362, Dec 28 (5 + 7 × 52 = 369 is past day 365): 52 nights.
"""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.results import COLUMNS, SHEET, record_from, results_xlsx

from builders.calc import resave
from builders.plans import SCHEDULE_COLUMNS, TODAY

LINEAGE = "0123456789"
UID = f"tuesday.tue.series@room-a.{LINEAGE}.tourney.invalid"   # a weekly series
TITLE = "Tuesday Night Hold'em"
TUESDAYS = [dt.date(2027, 1, 5) + dt.timedelta(days=7 * k) for k in range(52)]


def test_the_hand_computed_tuesdays() -> None:
    assert TUESDAYS[0] == dt.date(2027, 1, 5) and TUESDAYS[-1] == dt.date(2027, 12, 28)
    assert all(t.weekday() == 1 for t in TUESDAYS)            # every one a Tuesday


@pytest.fixture
def tuesdays(ledger: Ledger, tmp_path: Path) -> Ledger:
    folder = tmp_path / "plan"
    folder.mkdir()
    with (folder / "schedule.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=SCHEDULE_COLUMNS, lineterminator="\n")
        w.writeheader()
        for n, day in enumerate(TUESDAYS, start=1):
            w.writerow({"tournament_id": "tuesday", "occurrence": str(n),
                        "operator_id": "room-a", "jurisdiction": "MT", "type": "small-stakes",
                        "charitable": "false", "title": TITLE, "start": "", "end": "",
                        "first_day": day.isoformat(), "last_day": day.isoformat(),
                        "notice_due": "", "permit_year": "", "counted": "false",
                        "players": "", "license_id": "", "uid": UID, "sequence": "0",
                        "recurrence_id": day.isoformat()})
    (folder / "licenses.csv").write_text(
        "license_id,operator_id,jurisdiction,kind,tier,valid_from,valid_to,fee_usd,covers\n")
    api.adopt(ledger, folder, organization="Big Sky Tour", by="ann")
    return ledger


HEADERS = [c.header for c in COLUMNS]


def _template(lg: Ledger, path: Path) -> Path:
    data, n = results_xlsx(lg)
    assert n == 52
    path.write_bytes(data)
    return path


def _fill(path: Path, nights: range = range(52)) -> None:
    """Each night: 20 players, 24 entries at $40 (24 × 40 = 960.00 entry fees), prizes
    900.00, charity 0; the outcome left empty (a figure makes it held)."""
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEET]
    col = {h: k for k, h in enumerate(HEADERS, start=1)}
    for n in nights:
        r = n + 2
        ws.cell(r, col["Players"], 20)
        ws.cell(r, col["Entries"], 24)
        ws.cell(r, col["Entry fees (USD)"], 960)
        ws.cell(r, col["Prizes (USD)"], 900)
    wb.save(path)


def _cell(header: str, row: int) -> str:
    return f"{SHEET}!{get_column_letter(HEADERS.index(header) + 1)}{row}"


def test_the_template_names_each_night_by_title_and_date(tuesdays: Ledger,
                                                         tmp_path: Path) -> None:
    path = _template(tuesdays, tmp_path / "results.xlsx")
    assert results_xlsx(tuesdays)[0] == path.read_bytes()    # deterministic
    ws = openpyxl.load_workbook(path)[SHEET]
    assert [c.value for c in ws[1]] == HEADERS
    first = [c.value for c in ws[2]]
    assert first[:6] == [TITLE, dt.datetime(2027, 1, 5), "room-a", "tuesday#1", None,
                         dt.datetime(2027, 1, 5)]             # actual days pre-filled
    assert [c.value for c in ws[53]][:4] == [TITLE, dt.datetime(2027, 12, 28), "room-a",
                                            "tuesday#52"]
    assert ws.max_row == 53                                   # 52 nights and the header
    assert ws.cell(1, 10).comment is not None                 # each header explained


def test_52_tuesday_nights_in_one_command(tuesdays: Ledger, tmp_path: Path) -> None:
    path = _template(tuesdays, tmp_path / "results.xlsx")
    _fill(path)
    r = CliRunner().invoke(app, ["record", "--from", str(path), "--ledger", tuesdays.url,
                                 "--as-of", "2027-12-31", "--by", "treasurer"])
    assert r.exit_code == 0, r.output
    assert "Recorded 52 entries" in r.stdout and "52 held, 0 cancelled" in r.stdout
    held = tuesdays.held()
    assert len(held) == 52
    assert list(held["first_day"].dt.date) == TUESDAYS        # one per Tuesday, in order
    assert float(held["entry_fees_usd"].sum()) == 52 * 960.0  # 49,920.00
    assert set(held["recorded_by"]) == {"treasurer"}
    # the same sheet again: nothing new, nothing refused
    again = record_from(tuesdays, path, today=TODAY)
    assert (len(again.entries), again.same, again.empty) == (0, 52, 0)


def test_one_refused_row_refuses_the_file_every_problem_named(tuesdays: Ledger,
                                                              tmp_path: Path) -> None:
    path = _template(tuesdays, tmp_path / "results.xlsx")
    _fill(path)
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEET]
    col = {h: k for k, h in enumerate(HEADERS, start=1)}
    ws.cell(11, col["Prizes (USD)"], "ten")                   # night 10, sheet row 11
    ws.cell(21, col["Players"], -3)                           # night 20
    ws.cell(31, col["Last day"], dt.datetime(2027, 7, 26))    # night 30 is Jul 27: before
    ws.cell(41, col["Outcome"], "cancelled")                  # cancelled, with figures
    ws.cell(51, col["Note"], "flooded\u202e")                  # night 50: U+202E, 8th
    wb.save(path)
    with pytest.raises(LedgerError) as err:
        record_from(tuesdays, path, today=TODAY)
    text = str(err.value)
    # each figure of the cancelled night is named: players, entries, entry fees, prizes
    assert text.splitlines()[0] == "8 problems in the file:", text
    assert (f"{path} {_cell('Note', 51)} (Note): holds the invisible format character "
            "'\\u202e' (U+202E) at position 8; a note is plain text") in text
    assert f"{path} {_cell('Prizes (USD)', 11)} (Prizes (USD)): ten is not an amount in USD" \
        in text
    assert f"{path} {_cell('Players', 21)} (Players): -3 is negative" in text
    assert (f"{path} {_cell('Last day', 31)} (Last day) 2027-07-26 is before "
            f"{_cell('First day', 31)} (First day) 2027-07-27") in text
    assert f"{path} {_cell('Players', 41)} (Players): a cancelled occurrence has no days " \
        "and no figures" in text
    assert len(tuesdays.held()) == 0                          # nothing recorded


def test_a_night_recorded_with_other_values_needs_apply_edits(tuesdays: Ledger,
                                                              tmp_path: Path) -> None:
    path = _template(tuesdays, tmp_path / "results.xlsx")
    _fill(path, range(3))
    assert len(record_from(tuesdays, path, today=TODAY).entries) == 3
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEET]
    ws.cell(3, HEADERS.index("Prizes (USD)") + 1, "$1,000")   # night 2: 900 → 1,000.00
    wb.save(path)
    with pytest.raises(LedgerError, match=r"tuesday#2 at room-a is recorded already \(entry "
                                          r"#\d+\) with other values \(Prizes \(USD\) 900.00 "
                                          r"→ 1000.00\): give --apply-edits"):
        record_from(tuesdays, path, today=TODAY)
    res = record_from(tuesdays, path, today=TODAY, apply_edits=True)
    assert (len(res.entries), res.corrected, res.same) == (1, 1, 2)
    held = tuesdays.held()
    assert len(held) == 3 and len(tuesdays.held(current=False)) == 4   # the old one stays
    night2 = held[held["first_day"] == "2027-01-12"].iloc[0]
    assert night2["prizes_usd"] == 1000.0 and not pd_na(night2["supersedes_id"])


def pd_na(value: object) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


def test_a_results_csv_as_a_spreadsheet_writes_it(tuesdays: Ledger, tmp_path: Path) -> None:
    # Excel's "CSV UTF-8": a byte-order mark, TRUE/FALSE, money as shown, rows of commas
    path = tmp_path / "results.csv"
    text = ("Occurrence,Outcome,Players,Entries,Entry fees (USD),Prizes (USD),"
            "Charity paid (USD),Under 21 admitted,Note\n"
            'tuesday#1,held,20,24,"$1,234.50","1234,50",0,FALSE,first night\n'
            "tuesday#2,cancelled,,,,,,,snow\n"
            "tuesday#3,,20,24,960,900,,TRUE,\n"
            ",,,,,,,,\n,,,,,,,,\n")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    res = record_from(tuesdays, path, today=TODAY)
    assert (len(res.entries), res.empty) == (3, 0)
    held = tuesdays.held()
    assert list(held["outcome"]) == ["held", "cancelled", "held"]
    assert list(held["entry_fees_usd"])[0] == 1234.5          # "$1,234.50": thousands
    assert list(held["prizes_usd"])[0] == 1234.5              # "1234,50": a decimal comma
    assert list(held["under_21_admitted"]) == [False, pd_none(), True]
    assert list(held["first_day"].dt.date)[2] == dt.date(2027, 1, 19)  # the plan's day


def pd_none() -> object:
    import pandas as pd

    return pd.NA


def test_a_results_csv_names_the_line_and_column(tuesdays: Ledger, tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text("Occurrence,Prizes (USD),Players,Charity is the licensee\n"
                    "tuesday#1,10k,20,maybe\ntuesday#99,1,1,\n", encoding="utf-8")
    with pytest.raises(LedgerError) as err:
        record_from(tuesdays, path, today=TODAY)
    lines = str(err.value).splitlines()
    assert lines[0] == "3 problems in the file:"
    assert lines[1] == (f"  {path} line 2 column Prizes (USD): 10k is not an amount in USD "
                        "(e.g. 1234.50, $1,234.50 or 1234,50)")
    assert lines[2] == (f"  {path} line 2 column Charity is the licensee: maybe is not TRUE "
                        "or FALSE (yes or no)")
    assert lines[3].startswith(f"  {path} line 3: unknown occurrence 'tuesday#99'")
    assert len(tuesdays.held()) == 0


def test_results_round_trip_through_libreoffice(tuesdays: Ledger, tmp_path: Path) -> None:
    # template → filled → saved by LibreOffice Calc → record --from: 52 held in one go
    path = _template(tuesdays, tmp_path / "results.xlsx")
    _fill(path)
    saved = resave(path, tmp_path / "calc")
    res = record_from(tuesdays, saved, today=TODAY)
    assert len(res.entries) == 52 and res.same == 0
    held = tuesdays.held()
    assert list(held["first_day"].dt.date) == TUESDAYS
    assert sum(Decimal(str(v)) for v in held["prizes_usd"]) == Decimal("46800")  # 52 × 900


def _first_night_typed(lg: Ledger, tmp_path: Path, typed: dict[str, str]) -> Path:
    """The template with the first night filled (:func:`_fill`), then ``typed``: header ->
    what is typed in that night's cell (row 2)."""
    path = _template(lg, tmp_path / "results.xlsx")
    _fill(path, range(1))
    wb = openpyxl.load_workbook(path)
    for header, text in typed.items():
        wb[SHEET][_cell(header, 2).split("!")[1]] = text
    wb.save(path)
    return path


def test_a_formula_is_read_as_the_value_it_shows_once_saved(tuesdays: Ledger,
                                                            tmp_path: Path) -> None:
    # the first night's entry fees as a treasurer types them: =24*40 (24 entries at $40)
    path = _first_night_typed(tuesdays, tmp_path, {"Entry fees (USD)": "=24*40"})
    # as openpyxl writes it: the formula alone, no computed value (what a script makes)
    with pytest.raises(LedgerError, match=rf"{_cell('Entry fees (USD)', 2)} is a formula "
                       r"with no computed value \(=24\*40\).*open and save the file"):
        record_from(tuesdays, path, today=TODAY)
    assert len(tuesdays.held()) == 0
    # saved by LibreOffice Calc, which computes it and keeps 960 beside the formula
    saved = resave(path, tmp_path / "calc")
    res = record_from(tuesdays, saved, today=TODAY)
    assert len(res.entries) == 1
    assert float(tuesdays.held()["entry_fees_usd"].iloc[0]) == 960.0  # 24 × 40


def test_a_cell_showing_an_error_is_refused_not_recorded_as_its_text(tuesdays: Ledger,
                                                                     tmp_path: Path) -> None:
    # a note typed as =NA() and a charity as =1/0: LibreOffice saves them as the errors
    # #N/A and #DIV/0!, which openpyxl would read as those texts
    path = _first_night_typed(tuesdays, tmp_path, {"Note": "=NA()",
                                                    "Charity paid to": "=1/0"})
    saved = resave(path, tmp_path / "calc")
    with pytest.raises(LedgerError) as caught:
        record_from(tuesdays, saved, today=TODAY)
    text = str(caught.value)
    assert f"{_cell('Charity paid to', 2)} shows the error #DIV/0!" in text
    assert f"{_cell('Note', 2)} shows the error #N/A" in text
    assert "correct each formula showing an error, or type the value" in text
    assert len(tuesdays.held()) == 0
