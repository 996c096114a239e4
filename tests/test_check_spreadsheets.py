"""Issue #26: ``tourney check`` reads the plan.xlsx ``tourney solve`` wrote (and a copy
edited in a spreadsheet) as it reads schedule.csv, and the CSVs as spreadsheets save them
(rows of only commas at the end, a byte-order mark). Real files; values by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from scheduler.cli import app

from builders.scenarios import FRIDAY_NIGHTS_YAML

runner = CliRunner()

# January 2027's Fridays: 1, 8, 15, 22, 29; three at least 7 days apart are placed


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("plan")
    scenario = root / "year.yaml"
    scenario.write_text(FRIDAY_NIGHTS_YAML)
    res = runner.invoke(app, ["solve", str(scenario), "--out", str(root / "plan"),
                              "--seed", "0"])
    assert res.exit_code == 0, res.output
    return scenario, root / "plan"


def _check(scenario: Path, schedule: Path) -> tuple[int, str]:
    res = runner.invoke(app, ["check", str(scenario), str(schedule)])
    return res.exit_code, res.output


def test_check_reads_plan_xlsx_as_it_reads_schedule_csv(plan: tuple[Path, Path]) -> None:
    scenario, folder = plan
    code, out = _check(scenario, folder / "plan.xlsx")
    assert code == 0, out
    assert out.splitlines()[-1] == \
        f"0 violation(s) in 3 occurrence(s) of {folder / 'plan.xlsx'}"
    assert "no licenses.csv" not in out  # the Licences sheet: fees checked
    code, out = _check(scenario, folder / "schedule.csv")
    assert code == 0 and "0 violation(s) in 3 occurrence(s)" in out


def _first_row(folder: Path) -> tuple[openpyxl.Workbook, object]:
    wb = openpyxl.load_workbook(folder / "plan.xlsx")
    ws = wb["Schedule"]
    heads = [c.value for c in ws[1]]
    assert heads[7:12] == ["start", "end", "time_zone", "first_day", "last_day"]
    return wb, ws


def test_a_date_moved_in_plan_xlsx_is_judged(plan: tuple[Path, Path], tmp_path: Path
                                              ) -> None:
    scenario, folder = plan
    wb, ws = _first_row(folder)
    first = ws["K2"].value.date()  # type: ignore[attr-defined]
    assert first.weekday() == 4  # a Friday
    # moved one day on, to the Saturday: start and end moved, first_day/last_day emptied
    saturday = first + dt.timedelta(days=1)
    ws["H2"] = dt.datetime.combine(saturday, dt.time(12))  # type: ignore[index]
    ws["I2"] = dt.datetime.combine(saturday, dt.time(22))  # type: ignore[index]
    ws["K2"] = ws["L2"] = None  # type: ignore[index]
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    code, out = _check(scenario, edited)
    assert code == 1, out
    assert (f"WEEKDAYS | room-a | friday#1 | {saturday} | friday#1 starts on a sat "
            f"({saturday}); allowed: fri") in out, out


def test_a_first_day_moved_alone_names_the_row_and_the_way(plan: tuple[Path, Path],
                                                           tmp_path: Path) -> None:
    scenario, folder = plan
    wb, ws = _first_row(folder)
    first = ws["K2"].value.date()  # type: ignore[attr-defined]
    ws["K2"] = dt.datetime.combine(first + dt.timedelta(days=7), dt.time(0))  # type: ignore[index]
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    code, out = _check(scenario, edited)
    assert code == 2, out
    assert f"{edited} Schedule row 2: friday#1: first_day {first + dt.timedelta(days=7)} .. " \
        f"last_day {first} do not match start" in out, out
    assert "change start and end, and first_day and last_day with them" in out


def test_an_excel_day_number_in_plan_xlsx_is_named(plan: tuple[Path, Path], tmp_path: Path
                                                    ) -> None:
    # first_day typed as 46388 in a General cell: 2027-01-01 - 1899-12-30 = 46388 days
    scenario, folder = plan
    wb, ws = _first_row(folder)
    ws["K2"] = 46388  # type: ignore[index]
    ws["K2"].number_format = "General"  # type: ignore[index]
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    code, out = _check(scenario, edited)
    assert code == 2, out
    assert (f"{edited} Schedule!K2 (first_day) = 46388: a number where a date is wanted: the "
            "cell is not formatted as a date, so it shows 46388 (the spreadsheet's day "
            "number of 2027-01-01); give it a date format (Format Cells > Date)") in out, out


def test_rows_of_only_commas_at_the_end_of_the_csvs_are_ignored(plan: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    # Excel saves the formatted rows below a table as ",,,,": not a tournament '' (exit 1),
    # nor a licence with no fee (exit 2)
    scenario, folder = plan
    copy = tmp_path / "plan"
    copy.mkdir()
    for name in ("schedule.csv", "licenses.csv"):
        text = (folder / name).read_text()
        commas = "," * (text.splitlines()[0].count(","))
        (copy / name).write_text(text + f"{commas}\n" * 3 + f"{commas.replace(',', ' ,')}\n")
    code, out = _check(scenario, copy / "schedule.csv")
    assert code == 0, out
    assert "0 violation(s) in 3 occurrence(s)" in out and "not in the scenario" not in out


def test_a_byte_order_mark_is_read_in_both_csvs(plan: tuple[Path, Path], tmp_path: Path
                                                 ) -> None:
    # Excel's "CSV UTF-8" begins the file with EF BB BF
    scenario, folder = plan
    copy = tmp_path / "plan"
    copy.mkdir()
    for name in ("schedule.csv", "licenses.csv"):
        (copy / name).write_bytes(b"\xef\xbb\xbf" + (folder / name).read_bytes())
    code, out = _check(scenario, copy / "schedule.csv")
    assert code == 0 and "0 violation(s) in 3 occurrence(s)" in out, out
    assert "no licenses.csv" not in out
