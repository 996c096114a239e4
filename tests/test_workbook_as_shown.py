"""Issue #26, the scenario workbook as a spreadsheet shows it: flights in the Sessions sheet,
merged cells, formulas with and without a saved result, hidden rows, trailing empty rows,
Excel's date numbers in General cells, the weekday list, and every problem of a record in
one pass. Each workbook is made here with openpyxl (a real .xlsx file); values by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from scheduler.core.scenario import Scenario, ScenarioError
from scheduler.core.workbook import EXAMPLES
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
