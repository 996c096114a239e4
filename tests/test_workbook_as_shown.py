"""Issue #26, the scenario workbook as a spreadsheet shows it: flights in the Sessions sheet,
merged cells, formulas with and without a saved result, hidden rows, trailing empty rows,
Excel's date numbers in General cells, the weekday list, and every problem of a record in
one pass. Each workbook is made here with openpyxl (a real .xlsx file); values by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.workbook.layout import EXAMPLES
from scheduler.core.workbook.reader import read_workbook
from scheduler.inputs.load import load_scenario

EXAMPLE_DIR = Path(__file__).resolve().parent.parent / "data" / "examples"


def _book(tmp_path: Path, example: str = "montana") -> tuple[openpyxl.Workbook, Path]:
    path = tmp_path / "year.xlsx"
    path.write_bytes(load_scenario(EXAMPLES[example]).to_xlsx())
    return openpyxl.load_workbook(path), path


def _problems(wb: openpyxl.Workbook, path: Path) -> list[str]:
    wb.save(path)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return [line.removeprefix(f"  {path}: ") for line in err.value.render().splitlines()[1:]]


def _col(ws: object, header: str) -> str:
    return next(c.column_letter for c in ws[1] if c.value == header)  # type: ignore[index]


# --------------------------------------------------------------------------- Sessions sheet
def test_the_template_shows_flights_in_its_sessions_sheet(tmp_path: Path) -> None:
    # the montana example's spring-main: Day 1A, Day 1B (Thu, Fri 11:00, 10 h), Day 2 (Sun)
    wb, path = _book(tmp_path)
    ws = wb["Sessions"]
    assert [c.value for c in ws[1]] == ["tournament", "day", "start", "hours", "name"]
    assert ws["A1"].comment is not None and "main-event, 1, 11:00, 10, Day 1A" in \
        ws["A1"].comment.text
    rows = [r for r in ws.iter_rows(min_row=2, max_row=4, values_only=True)]
    assert rows == [("spring-main", 1, dt.time(11), 10, "Day 1A"),
                    ("spring-main", 2, dt.time(11), 10, "Day 1B"),
                    ("spring-main", 4, dt.time(12), 12, "Day 2")]
    assert ws["C2"].number_format == "hh:mm"
    sessions = load_scenario(path).tournament("spring-main").sessions
    assert [s.label for s in sessions] == ["Day 1A", "Day 1B", "Day 2"]


def _flights_book(tmp_path: Path) -> tuple[openpyxl.Workbook, Path]:
    path = tmp_path / "year.xlsx"
    path.write_bytes(load_scenario(EXAMPLE_DIR / "summer-series.yaml").to_xlsx())
    return openpyxl.load_workbook(path), path


def test_sessions_sheet_rows_are_the_flights_of_their_tournament(tmp_path: Path) -> None:
    wb, path = _flights_book(tmp_path)
    ws = wb["Sessions"]
    # billings-main Day 2 (row 4, day 4): move it to day 5, 12:00 for 10:30 (H:MM text)
    assert ws["A4"].value == "billings-main" and ws["B4"].value == 4
    ws["B4"], ws["D4"] = 5, "10:30"
    wb.save(path)
    main = Scenario.from_excel(path).tournament("billings-main")
    assert [(s.day, s.start, s.hours, s.name) for s in main.sessions] == [
        (1, dt.time(11), 10, "Day 1A"), (2, dt.time(11), 10, "Day 1B"),
        (5, dt.time(12), 10.5, "Day 2")]


def test_a_session_problem_names_the_sessions_cell(tmp_path: Path) -> None:
    wb, path = _flights_book(tmp_path)
    ws = wb["Sessions"]
    ws["D2"] = "ten"  # billings-main Day 1A's hours
    ws["A8"], ws["B8"], ws["C8"], ws["D8"] = "billings-mian", 1, "11:00", 10
    lines = _problems(wb, path)  # both in one pass, in the sheet's order
    assert lines == [
        "Sessions!D2 (hours) = 'ten': expected a number of hours, e.g. 10 or 10:30 "
        "(SCENARIO)",
        "Sessions!A8 (tournament) = 'billings-mian': not a tournament id of the Tournaments "
        "sheet; did you mean 'billings-main'? (SCENARIO)"], lines


def test_a_sessions_column_in_tournaments_is_sent_to_the_sessions_sheet(tmp_path: Path
                                                                        ) -> None:
    # the YAML spelling typed into a column: refused with the sheet's way, not YAML's
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    ws.cell(row=1, column=ws.max_column + 1, value="sessions")
    ws.cell(row=2, column=ws.max_column, value="[{day: 1, start: '11:00', hours: 10}]")
    letter = ws.cell(row=1, column=ws.max_column).column_letter
    lines = _problems(wb, path)
    assert lines == [f"Tournaments!{letter}2 (sessions): flights are rows of the Sessions "
                     "sheet, not a column: one row a session (tournament, day, start, hours, "
                     "name), e.g. main-event, 1, 11:00, 10, Day 1A (SCENARIO)"], lines
    assert "{day: 1" not in " ".join(lines)


@pytest.mark.parametrize("name", ["summer-series.yaml", "summer-tour.yaml",
                                  "two-room-progressive.yaml"])
def test_flights_and_tours_round_trip(tmp_path: Path, name: str) -> None:
    sc = load_scenario(EXAMPLE_DIR / name)
    path = tmp_path / "year.xlsx"
    path.write_bytes(sc.to_xlsx())
    assert Scenario.from_excel(path) == sc


# --------------------------------------------------------------------------- merged cells
def test_merged_weekday_cells_hold_the_value_in_each_row(tmp_path: Path) -> None:
    # M3:M4 merged, showing "sat" over food-share-classic and wednesday-bounty: both are
    # Saturday-only (before: the second row read empty, no weekday limit, and the weekly
    # small-stakes night went from the 52 Saturdays of 2027, Jan 2 .. Dec 25, to every
    # night of the year)
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    assert _col(ws, "weekdays") == "M"
    ws["M3"], ws["M4"] = "sat", None
    ws.merge_cells("M3:M4")
    wb.save(path)
    sc = load_scenario(path)
    assert sc.tournament("food-share-classic").weekdays == ("sat",)
    assert sc.tournament("wednesday-bounty").weekdays == ("sat",)
    assert sc.tournament("deepstack").weekdays == ("fri",)  # M2, not merged
    # 2027 begins on a Friday: its Saturdays are Jan 2, 9, ..., Dec 25: (365 - 1) // 7 = 52
    saturdays = [d for d in (dt.date(2027, 1, 1) + dt.timedelta(k) for k in range(365))
                 if d.weekday() == 5]
    assert len(saturdays) == 52 and saturdays[0] == dt.date(2027, 1, 2)


def test_a_merged_settings_value_holds_for_each_row_it_covers(tmp_path: Path) -> None:
    # Settings B3:B4 (horizon.start, horizon.end) merged showing 2027-01-01: both that day
    wb, path = _book(tmp_path)
    ws = wb["Settings"]
    assert (ws["A3"].value, ws["A4"].value) == ("horizon.start", "horizon.end")
    ws["B4"] = None
    ws.merge_cells("B3:B4")
    wb.save(path)
    data, _cells = read_workbook(path.read_bytes())
    assert data["horizon"] == {"start": dt.date(2027, 1, 1), "end": dt.date(2027, 1, 1)}


def test_cells_merged_across_two_fields_are_refused_naming_the_range(tmp_path: Path) -> None:
    # M3:N3 (weekdays, prefer_weekdays) merged: which field is "sat" for? Refused, not guessed
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    ws["N3"] = None
    ws.merge_cells("M3:N3")
    assert _problems(wb, path) == [
        "Tournaments!M3:N3: merged cells over 2 columns (weekdays, prefer_weekdays): a value "
        "would be shown for several fields; unmerge them (Format > Merge Cells > Unmerge) "
        "and give each column its value (SCENARIO)"]


def test_a_merged_title_over_the_unread_notes_column_is_read(tmp_path: Path) -> None:
    # Settings C2:D2 (the unit-and-rule column and beyond) merged: nothing read there
    wb, path = _book(tmp_path)
    wb["Settings"].merge_cells("C2:D2")
    wb.save(path)
    assert load_scenario(path) == load_scenario(EXAMPLES["montana"])


# --------------------------------------------------------------------------- formulas
def test_a_formula_with_no_saved_value_comes_with_the_other_problems(tmp_path: Path) -> None:
    # openpyxl writes a formula with no saved result (as a script does): the cell is named,
    # and the misspelt weekday of another row comes in the same pass
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    fee = _col(ws, "entry_fee")
    ws[f"{fee}2"] = "=2*150"
    ws["M4"] = "wensday"
    lines = _problems(wb, path)
    assert lines == [
        f"Tournaments!{fee}2 (entry_fee): a formula with no computed value (=2*150): open and "
        "save the file in a spreadsheet application, or type the value (SCENARIO)",
        "Tournaments!M4 (weekdays), item 1 = 'wensday': Input should be 'mon', 'tue', 'wed', "
        "'thu', 'fri', 'sat' or 'sun'; did you mean 'wed'? (SCENARIO)"], lines


# --------------------------------------------------------------------------- rows
def test_trailing_empty_rows_are_ignored(tmp_path: Path) -> None:
    # rows 6..40 below the four tournaments: spaces, empty strings, formats only
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    assert ws["A5"].value == "spring-main" and ws["A6"].value is None
    for r in range(6, 41):
        ws.cell(row=r, column=1, value=" " if r % 2 else "")
        ws.cell(row=r, column=13).number_format = "@"
    wb["Sessions"].cell(row=9, column=2, value="  ")  # below spring-main's 3 rows
    wb.save(path)
    assert load_scenario(path) == load_scenario(EXAMPLES["montana"])


def test_a_hidden_row_holding_a_tournament_is_refused_naming_the_row(tmp_path: Path) -> None:
    # a filtered-out or hidden tournament is still in the file: a person does not see it,
    # so tourney does not plan it unseen, nor leave it out unsaid
    wb, path = _book(tmp_path)
    wb["Tournaments"].row_dimensions[4].hidden = True
    assert _problems(wb, path) == [
        "Tournaments row 4: the row is hidden and holds values: tourney reads only what a "
        "person can see; unhide the row, or delete it (SCENARIO)"]


# --------------------------------------------------------------------------- dates
def test_an_excel_date_number_in_a_general_cell_is_named_in_the_products_words(
        tmp_path: Path) -> None:
    # window.start of food-share-classic (K3) typed as 46419 in a General cell: Excel's day
    # 46419 counts from 1899-12-30, so it is 2027-02-01 (2027-02-01 - 1899-12-30 = 46419)
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    ws["K3"] = 46419
    ws["K3"].number_format = "General"
    lines = _problems(wb, path)
    assert lines == [
        "Tournaments!K3 (window.start) = 46419: a number where a date is wanted: the cell is "
        "not formatted as a date, so it shows 46419 (the spreadsheet's day number of "
        "2027-02-01); give it a date format (Format Cells > Date) or type 2027-02-01 "
        "(SCENARIO)"], lines
    assert "zero time" not in " ".join(lines)


def test_a_time_number_in_a_general_cell_is_named(tmp_path: Path) -> None:
    # start_time of wednesday-bounty (G4) as 0.8125 in a General cell: 0.8125 x 24 h = 19:30
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    ws["G4"] = 0.8125
    ws["G4"].number_format = "General"
    assert _problems(wb, path) == [
        "Tournaments!G4 (start_time) = 0.8125: a number where a time of day is wanted: the "
        "cell is not formatted as a time, so it shows 0.8125 (the spreadsheet's 19:30); give "
        "it a time format (Format Cells > Time) or type 19:30 (SCENARIO)"]


def test_a_1904_workbook_reads_its_date_cells_and_names_its_day_numbers(tmp_path: Path
                                                                        ) -> None:
    # a Mac workbook counts days from 1904-01-01: its date cells are the same dates; a
    # General 44957 is 2027-02-01 there (2027-02-01 - 1904-01-01 = 44957 days)
    wb, path = _book(tmp_path)
    wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    wb.save(path)
    assert load_scenario(path) == load_scenario(EXAMPLES["montana"])
    ws = wb["Tournaments"]
    ws["K3"] = 44957
    ws["K3"].number_format = "General"
    lines = _problems(wb, path)
    assert len(lines) == 1 and "(the spreadsheet's day number of 2027-02-01)" in lines[0], \
        lines


# --------------------------------------------------------------------------- weekdays
def test_the_weekday_columns_take_a_comma_list_with_no_popup(tmp_path: Path) -> None:
    # the template's own row 3 holds "fri, sat": no list validation that refuses it; a
    # message shown on selecting the cell gives the choices instead
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    assert ws["M3"].value == "fri, sat"
    found = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    for ref in ("M2:M201", "N2:N201"):  # weekdays, prefer_weekdays
        dv = found[ref]
        assert dv.type is None and not dv.showErrorMessage and dv.showInputMessage
        assert dv.prompt == ("One or more of mon, tue, wed, thu, fri, sat, sun, separated by "
                             "commas, e.g. fri, sat")
    assert load_scenario(path).tournament("food-share-classic").weekdays == ("fri", "sat")


# --------------------------------------------------------------------------- one pass
def test_a_misspelt_key_and_an_unknown_operator_of_one_tournament_in_one_pass(
        tmp_path: Path) -> None:
    wb, path = _book(tmp_path)
    ws = wb["Tournaments"]
    fee = _col(ws, "entry_fee")
    ws[f"{fee}1"] = "entry_fe"  # the header misspelt
    ws["D3"] = "room-b"  # food-share-classic's operator
    lines = _problems(wb, path)
    assert f"Tournaments!{fee}2 (entry_fe): unknown field; did you mean 'entry_fee'? " \
        "(SCENARIO)" in lines, lines
    assert "Tournaments!D3 (operators), item 1 = 'room-b': unknown operator id; known: " \
        "room-a (SCENARIO)" in lines, lines


def test_days_beside_sessions_rows_are_named_at_the_cell_in_one_pass(tmp_path: Path) -> None:
    # billings-main has 3 Sessions rows; days typed too (F2); Day 1B (Sessions row 3) from
    # 10:00 for 30 h runs to 16:00 next day, through 2-8 a.m. (MT-PLAY-HOURS)
    wb, path = _flights_book(tmp_path)
    ws = wb["Tournaments"]
    assert ws["A2"].value == "billings-main" and _col(ws, "days") == "F"
    ws["F2"] = 2
    wb["Sessions"]["C3"], wb["Sessions"]["D3"] = "10:00", 30
    lines = _problems(wb, path)
    assert lines == [
        "Tournaments!F2 (days) = 2: this tournament has rows in the Sessions sheet (flights), "
        "which replace days, start_time and hours: leave this cell empty, or delete its "
        "Sessions rows (SCENARIO)",
        "Sessions!D3 (hours) = 30: Day 1B: play from 10:00 for 30 h falls between 2 a.m. and "
        "8 a.m.; start at 08:00 or later and stop by 02:00 (MT-PLAY-HOURS, ARM 23.16.1101)"], \
        lines
