"""Issue #26, real parts: the product's workbooks and CSVs re-saved by LibreOffice Calc
(headless ``soffice --convert-to``), so dates, times, booleans, formulas and merged cells drift
as they do for users; each read back by ``tourney`` as the spreadsheet shows it.

Skips when ``soffice`` (Debian package ``libreoffice-calc``) is missing, unless
TOURNEY_REQUIRE_LIBREOFFICE=1 (``.ci/run`` installs it and sets it): then it fails.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.core.workbook.layout import EXAMPLES
from scheduler.inputs.load import load_scenario

from builders.calc import soffice
from builders.scenarios import FRIDAY_NIGHTS_YAML

EXAMPLE_DIR = Path(__file__).resolve().parent.parent / "data" / "examples"
runner = CliRunner()



def _convert(profile: Path, files: list[Path], to: str, out: Path) -> None:
    """Every file opened and saved by LibreOffice Calc into ``out`` (one process)."""
    out.mkdir(parents=True, exist_ok=True)
    infilter = (["--infilter=Text - txt - csv (StarCalc):44,34,76,1"]
                if files[0].suffix == ".csv" else [])
    res = subprocess.run(
        [soffice(), "--headless", "--norestore", "--nologo",
         f"-env:UserInstallation={profile.as_uri()}", *infilter, "--convert-to", to,
         "--outdir", str(out), *map(str, files)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "HOME": str(profile)})
    missing = [f.name for f in files if not (out / f"{f.stem}.{to.split(':')[0]}").exists()]
    assert res.returncode == 0 and not missing, (res.stdout, res.stderr, missing)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The files below, each written by tourney (or edited with openpyxl as a script
    would) and then opened and saved by LibreOffice Calc."""
    soffice()
    root = tmp_path_factory.mktemp("libreoffice")
    profile = root / "profile"
    src = root / "in"
    src.mkdir()
    # 1. the template, as `tourney template` writes it
    res = runner.invoke(app, ["template", str(src / "template.xlsx")])
    assert res.exit_code == 0, res.output
    # 2. flights: the Sessions sheet
    (src / "flights.xlsx").write_bytes(
        load_scenario(EXAMPLE_DIR / "summer-series.yaml").to_xlsx())
    # 3. the template edited by a script: M3:M4 merged showing "sat"; deepstack's entry fee a
    #    formula with no saved value, which LibreOffice computes when it saves
    wb = openpyxl.load_workbook(src / "template.xlsx")
    ws = wb["Tournaments"]
    fee = next(c.column_letter for c in ws[1] if c.value == "entry_fee")
    ws["M3"], ws["M4"] = "sat", None
    ws.merge_cells("M3:M4")
    ws[f"{fee}2"] = "=2*150"
    wb.save(src / "edited.xlsx")
    # 4. a plan, and 5. a copy with its first occurrence moved to the Saturday
    scenario = root / "year.yaml"
    scenario.write_text(FRIDAY_NIGHTS_YAML)
    res = runner.invoke(app, ["solve", str(scenario), "--out", str(root / "plan"),
                              "--seed", "0"])
    assert res.exit_code == 0, res.output
    shutil.copy(root / "plan" / "plan.xlsx", src / "plan.xlsx")
    wb = openpyxl.load_workbook(src / "plan.xlsx")
    ws = wb["Schedule"]
    saturday = ws["K2"].value.date() + dt.timedelta(days=1)
    ws["H2"] = dt.datetime.combine(saturday, dt.time(12))
    ws["I2"] = dt.datetime.combine(saturday, dt.time(22))
    ws["K2"] = ws["L2"] = None
    wb.save(src / "moved.xlsx")
    _convert(profile, sorted(src.glob("*.xlsx")), "xlsx", root / "out")
    # 6. schedule.csv and licenses.csv as a spreadsheet saves a table whose used range goes
    #    below it: rows of only commas at the end
    tables = root / "tables"
    tables.mkdir()
    for name in ("schedule", "licenses"):
        wb = openpyxl.Workbook()
        ws = wb.active
        assert ws is not None
        with open(root / "plan" / f"{name}.csv", newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                ws.append(row)
        # a space typed in C, five rows below the table, stretches the used range: Calc
        # saves the rows between as rows of only commas (and that one with its space)
        ws.cell(row=ws.max_row + 5, column=3, value=" ")
        wb.save(tables / f"{name}.xlsx")
    _convert(profile, sorted(tables.glob("*.xlsx")),
             "csv:Text - txt - csv (StarCalc):44,34,76,1", root / "csv")
    return {"template": root / "out" / "template.xlsx", "flights": root / "out" / "flights.xlsx",
            "edited": root / "out" / "edited.xlsx", "plan": root / "out" / "plan.xlsx",
            "moved": root / "out" / "moved.xlsx", "csv": root / "csv", "scenario": scenario,
            "saturday": Path(saturday.isoformat()), "root": root}


def test_the_template_saved_by_libreoffice_reads_back_the_same_scenario(
        saved: dict[str, Path]) -> None:
    assert Scenario.from_excel(saved["template"]) == load_scenario(EXAMPLES["montana"])


def test_a_template_filled_and_saved_by_libreoffice_is_solved_as_the_original(
        saved: dict[str, Path]) -> None:
    root = saved["root"]
    for name, book in (("a", root / "in" / "template.xlsx"), ("b", saved["template"])):
        res = runner.invoke(app, ["solve", str(book), "--out", str(root / f"solve-{name}"),
                                  "--seed", "0"])
        assert res.exit_code == 0, res.output
    assert (root / "solve-a" / "schedule.csv").read_bytes() == \
        (root / "solve-b" / "schedule.csv").read_bytes()


def test_flights_saved_by_libreoffice_read_back(saved: dict[str, Path]) -> None:
    # the Sessions sheet's times (11:00, 12:00) and hours (10, 12) survive LibreOffice
    assert Scenario.from_excel(saved["flights"]) == \
        load_scenario(EXAMPLE_DIR / "summer-series.yaml")


def test_merged_cells_and_a_computed_formula_after_libreoffice(saved: dict[str, Path]
                                                               ) -> None:
    wb = openpyxl.load_workbook(saved["edited"])
    assert "M3:M4" in {str(r) for r in wb["Tournaments"].merged_cells.ranges}
    sc = load_scenario(saved["edited"])
    # the merged "sat" holds for both rows; =2*150 is read as the 300 LibreOffice saved
    assert sc.tournament("food-share-classic").weekdays == ("sat",)
    assert sc.tournament("wednesday-bounty").weekdays == ("sat",)
    assert sc.tournament("deepstack").entry_fee == 300


def test_check_reads_a_plan_xlsx_resaved_by_libreoffice(saved: dict[str, Path]) -> None:
    res = runner.invoke(app, ["check", str(saved["scenario"]), str(saved["plan"])])
    assert res.exit_code == 0, res.output
    assert f"0 violation(s) in 3 occurrence(s) of {saved['plan']}" in res.output


def test_a_date_moved_in_plan_xlsx_and_saved_by_libreoffice_is_judged(
        saved: dict[str, Path]) -> None:
    day = saved["saturday"].name
    res = runner.invoke(app, ["check", str(saved["scenario"]), str(saved["moved"])])
    assert res.exit_code == 1, res.output
    assert (f"WEEKDAYS | room-a | friday#1 | {day} | friday#1 starts on a sat ({day}); "
            "allowed: fri") in res.output


def test_csvs_saved_by_libreoffice_with_empty_rows_below_are_read(saved: dict[str, Path]
                                                                   ) -> None:
    folder = saved["csv"]
    text = (folder / "schedule.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[-2].strip(",") == "" and lines[-1].replace('"', "").strip(", ") == "", \
        lines[-3:]
    res = runner.invoke(app, ["check", str(saved["scenario"]), str(folder / "schedule.csv")])
    assert res.exit_code == 0, res.output
    assert "0 violation(s) in 3 occurrence(s)" in res.output
    assert "no licenses.csv" not in res.output
    assert io.StringIO(text).readline().startswith('"tournament_id"')
