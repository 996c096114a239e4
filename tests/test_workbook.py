"""Scenario workbooks and plan.xlsx (issue #14 §1): tourney template, reading a workbook
through the YAML validation with problems at sheet!cell (column), the round trip of every
bundled example, and the plan's workbook (dtypes, determinism)."""

from __future__ import annotations

import datetime as dt
import io
import typing
from decimal import Decimal
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.workbook.layout import EXAMPLES, OPERATORS, SETTINGS, TOURNAMENTS
from scheduler.core.workbook.reader import read_workbook
from scheduler.engine.solver import solve
from scheduler.export.write import write_plan
from scheduler.export.xlsx import deadline_rows, plan_xlsx
from scheduler.inputs.load import load_scenario

EXAMPLE_DIR = Path(__file__).resolve().parent.parent / "data" / "examples"
runner = CliRunner()


def _save(wb: openpyxl.Workbook, path: Path) -> Path:
    wb.save(path)
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return err.value.render().splitlines()[1:]


def _column(ws: object, header: str) -> int:
    heads = [c.value for c in ws[1]]  # type: ignore[index]
    return heads.index(header) + 1


# --------------------------------------------------------------------------- layout
def test_every_scenario_field_has_a_column() -> None:
    # one column (or Settings row) per field of the pydantic models; held_* on History
    from scheduler.core.scenario_types import Operator, Settings, Tournament

    def flat(model: type, skip: set[str]) -> set[str]:
        out = set()
        for name, fld in model.model_fields.items():
            sub = getattr(fld.annotation, "model_fields", None) or next(
                (getattr(a, "model_fields", None) for a in getattr(fld.annotation, "__args__", ())
                 if getattr(a, "model_fields", None)), None)
            if name in skip:
                continue
            if typing.get_origin(fld.annotation) is tuple:  # a list: one column
                sub = None
            out |= {f"{name}.{s}" for s in sub} if sub else {name}
        return out

    # sessions (flights, Day 2): the Sessions sheet, one row a session
    assert flat(Tournament, {"sessions"}) == {c.header for c in TOURNAMENTS}
    from scheduler.core.scenario_types import Session
    from scheduler.core.workbook.layout import SESSIONS

    assert flat(Session, set()) | {"tournament"} == {c.header for c in SESSIONS}
    # what was held before the plan: the History sheet's columns
    assert flat(Operator, {"held_in_current_permit_year", "held_in_current_month"}) == {
        c.header for c in OPERATORS}
    from scheduler.core.scenario_types import Tour
    from scheduler.core.workbook.layout import TOURS

    assert flat(Tour, set()) == {c.header for c in TOURS}  # the Tours sheet
    top = flat(Scenario, {"operators", "tournaments", "settings", "tours"}) | {
        f"settings.{f}" for f in Settings.model_fields}
    assert top == {c.header for c in SETTINGS}


@pytest.mark.parametrize("example", ["montana", "maine"])
def test_template_writes_a_workbook_that_reads_back(tmp_path: Path, example: str) -> None:
    out = tmp_path / "year.xlsx"
    res = runner.invoke(app, ["template", str(out), "--example", example])
    assert res.exit_code == 0, res.output
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["Settings", "Operators", "Tournaments", "Sessions", "History",
                             "Tours"]
    tours, ops = wb["Tournaments"], wb["Operators"]
    assert tours.freeze_panes == "B2" and ops.freeze_panes == "B2"
    # the header comment gives the unit and the rule
    fee = tours.cell(row=1, column=_column(tours, "entry_fee"))
    assert fee.comment is not None and "MT-ENTRY-CAP" in fee.comment.text
    # drop-downs: jurisdiction, type, readings
    lists = {(ws.title, str(dv.sqref)): dv.formula1 for ws in wb
             for dv in ws.data_validations.dataValidation if dv.type == "list"}
    assert lists[("Operators", "C2:C201")] == '"MT,ME"'  # jurisdiction
    assert lists[("Tournaments", "C2:C201")] == \
        '"large-stakes,small-stakes,tournament-game,super-cribbage,charitable-cribbage"'
    # weekdays take a comma list ("fri, sat"): an input message, no list that refuses it
    assert ("Tournaments", "M2:M201") not in lists
    assert lists[("Settings", "B7")] == '"touch,start"'  # settings.month_rule
    # the example row: dates as dates, money as currency, shares as percentages
    sc = load_scenario(EXAMPLES[example])
    assert load_scenario(out) == sc
    first = tours.cell(row=2, column=_column(tours, "entry_fee"))
    assert first.number_format == '"$"#,##0.00' and first.value == sc.tournaments[0].entry_fee
    settings = wb["Settings"]
    assert settings["B3"].value == dt.datetime(2027, 1, 1)  # horizon.start, an Excel date
    assert settings["B3"].number_format == "yyyy-mm-dd"
    share = "charity_share" if example == "montana" else "prize_share"
    row = 3 if example == "montana" else 2
    cell = tours.cell(row=row, column=_column(tours, share))
    assert cell.number_format == "0%" and cell.value in (0.5, 0.8)


def test_template_refuses_an_unknown_example_and_another_suffix(tmp_path: Path) -> None:
    res = runner.invoke(app, ["template", str(tmp_path / "y.xlsx"), "--example", "idaho"])
    assert res.exit_code == 2 and "montana, maine" in res.output
    res = runner.invoke(app, ["template", str(tmp_path / "y.yaml")])
    assert res.exit_code == 2 and ".xlsx" in res.output
    assert not list(tmp_path.iterdir())


# --------------------------------------------------------------------------- round trip
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLE_DIR.glob("*.yaml")))
def test_every_example_round_trips_through_a_workbook(tmp_path: Path, name: str) -> None:
    sc = load_scenario(EXAMPLE_DIR / name)  # flights and tours too: Sessions, Tours sheets
    data = sc.to_xlsx()
    assert data == sc.to_xlsx()  # byte-identical: pinned document and zip times
    path = tmp_path / "year.xlsx"
    path.write_bytes(data)
    assert Scenario.from_excel(path) == sc


def test_a_solve_from_the_workbook_gives_the_yaml_schedule(tmp_path: Path) -> None:
    src = EXAMPLE_DIR / "maine-legion-post.yaml"
    book = tmp_path / "year.xlsx"
    book.write_bytes(load_scenario(src).to_xlsx())
    codes = []
    for name, scenario in (("a", src), ("b", book)):
        res = runner.invoke(app, ["solve", str(scenario), "--out", str(tmp_path / name)])
        codes.append(res.exit_code)
    assert codes[0] == codes[1] and codes[0] in (0, 1)
    assert (tmp_path / "a" / "schedule.csv").read_bytes() == \
        (tmp_path / "b" / "schedule.csv").read_bytes()


# --------------------------------------------------------------------------- reading
@pytest.fixture
def book(tmp_path: Path) -> tuple[openpyxl.Workbook, Path]:
    path = tmp_path / "year.xlsx"
    path.write_bytes(load_scenario(EXAMPLES["montana"]).to_xlsx())
    return openpyxl.load_workbook(path), path


def test_problems_name_sheet_cell_and_column(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    tours = wb["Tournaments"]
    # row 3 is food-share-classic; weekdays is the 13th column (M)
    tours["M3"] = "fri, Tues"
    tours.cell(row=1, column=tours.max_column + 1, value="windw.start")
    tours.cell(row=4, column=tours.max_column, value="2027-01-01")
    tours["B2"].value = None  # deepstack's title
    lines = _problems(_save(wb, path))
    assert any(line.endswith("Tournaments!M3 (weekdays), item 2 = 'Tues': Input should be "
                             "'mon', 'tue', 'wed', 'thu', 'fri', 'sat' or 'sun'; did you mean "
                             "'tue'? (SCENARIO)")
               for line in lines), lines
    assert any("Tournaments!B2 (title): required field is missing" in x for x in lines), lines
    # three columns after filed_dates (cancelled_dates, reuse_cancelled_days, held_dates):
    # AS -> AV
    assert any("Tournaments!AV4 (windw.start): unknown field; did you mean 'window'?" in x
               for x in lines), lines
    assert not any("tournaments[" in x for x in lines)  # never a 0-based index


def test_a_rule_problem_names_the_cell(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    tours = wb["Tournaments"]
    # deepstack (row 2): the entry_fee column; 500 x (1 + 3 re-entries) = $2,000 > $1,875
    col = next(c.column_letter for c in tours[1] if c.value == "entry_fee")
    tours[f"{col}2"] = 500
    lines = _problems(_save(wb, path))
    assert len(lines) == 1
    assert f"Tournaments!{col}2 (entry_fee) = 500:" in lines[0] and "MT-ENTRY-CAP" in lines[0]


def test_a_settings_date_that_does_not_exist(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    wb["Settings"]["B3"] = "2027-02-30"  # horizon.start as text
    lines = _problems(_save(wb, path))
    assert len(lines) == 1 and "Settings!B3 (horizon.start) = '2027-02-30'" in lines[0]


def test_percentages_are_read_as_shares(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    tours = wb["Tournaments"]
    share = _column(tours, "charity_share")
    tours.cell(row=3, column=share, value="60%")  # text: 60 % → 0.6
    sc = load_scenario(_save(wb, path))
    assert sc.tournaments[1].charity_share == Decimal("0.6")
    tours.cell(row=3, column=share, value=0.55).number_format = "0%"  # a number shown 55 %
    assert load_scenario(_save(wb, path)).tournaments[1].charity_share == Decimal("0.55")


def test_a_permit_year_start_made_a_date_by_the_spreadsheet(
        book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    ops = wb["Operators"]
    column = _column(ops, "permit_year_start")
    assert ops.cell(row=2, column=column).number_format == "@"  # typed text stays text
    ops.cell(row=2, column=column, value=dt.datetime(2027, 7, 1))  # "07-01" made a date
    assert load_scenario(_save(wb, path)).operators[0].permit_year_start == "07-01"
    ops.cell(row=2, column=column, value="10-01")
    assert load_scenario(_save(wb, path)).operators[0].permit_year_start == "10-01"


def test_history_names_operators_of_the_operators_sheet(
        book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    hist = wb["History"]
    assert hist["A2"].value == "room-a" and hist["B2"].value == 9
    hist["A2"] = "room-z"
    lines = _problems(_save(wb, path))
    assert lines == [f"  {path}: History!A2 (operator) = 'room-z': not an operator id of "
                     "the Operators sheet; did you mean 'room-a'? (SCENARIO)"]
    hist["A2"] = "hall-9"  # nothing near: the ids are listed
    lines = _problems(_save(wb, path))
    assert lines == [f"  {path}: History!A2 (operator) = 'hall-9': not an operator id of "
                     "the Operators sheet; the Operators sheet has room-a (SCENARIO)"]
    hist["A2"] = "room-a"
    hist["B2"] = 17  # more than the 16 of MT-LARGE-LIMIT held already
    lines = _problems(_save(wb, path))
    assert any("History!B2 (held_in_current_permit_year.large_stakes) = 17" in x for x in lines)


def test_a_file_that_is_not_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "year.xlsx"
    path.write_text("name: not a workbook\n")
    lines = _problems(path)
    assert len(lines) == 1 and "cannot be read as an Excel workbook (.xlsx)" in lines[0]
    wb = openpyxl.Workbook()
    assert wb.active is not None
    wb.active.title = "Settings"
    lines = _problems(_save(wb, path))
    assert lines == [f"  {path}: sheet {sheet}: the workbook has no sheet of this name "
                     "(its sheets: 'Settings'); tourney template writes one (SCENARIO)"
                     for sheet in ("Operators", "Tournaments")]


def test_comma_lists_ranges_and_other_games_are_spelled_for_a_spreadsheet() -> None:
    sc = load_scenario(EXAMPLES["maine"])
    data, cells = read_workbook(sc.to_xlsx())
    op = data["operators"][0]
    # 2027-12-24, 25, 26: three consecutive days written as one range
    assert op["blackout"] == ["2027-07-04", "2027-12-24..2027-12-26"]
    assert op["other_games"] == [{"weekday": "tue", "start": "18:00", "end": "22:00"}]
    assert op["beneficiaries"] == ["Sebasticook Valley Veterans Relief Fund",
                                   "Post 212 Scholarship Fund"]
    assert cells[("operators", 0, "blackout", 1)] == "Operators!F2 (blackout), item 2"


# --------------------------------------------------------------------------- plan.xlsx
SMALL = {
    "name": "Two states",
    "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
    "notice_from": "2027-02-01",
    "operators": [
        {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1},
        {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
         "local_approval": True, "beneficiaries": ["Fund"]},
    ],
    "tournaments": [
        {"id": "mt", "title": "=Stack", "type": "large-stakes", "operators": ["room"],
         "fixed_dates": ["2027-03-06"], "entry_fee": 100},
        {"id": "me", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
         "fixed_dates": ["2027-03-06"], "start_time": "12:00", "hours": 4, "players": 40,
         "entry_fee": 50, "prize_share": 0.8},
    ],
}


@pytest.fixture(scope="module")
def small_plan() -> object:
    return solve(load_scenario(SMALL), seed=0)


def test_plan_xlsx_opens_with_the_right_dtypes(small_plan: object) -> None:
    data = plan_xlsx(small_plan)  # type: ignore[arg-type]
    assert data == plan_xlsx(small_plan)  # type: ignore[arg-type]  # byte-identical
    wb = openpyxl.load_workbook(io.BytesIO(data))
    assert wb.sheetnames == ["Schedule", "Licences", "Deadlines", "Not placed", "Limits"]
    ws = wb["Schedule"]
    assert ws.auto_filter.ref and ws.freeze_panes == "A2"
    assert ws.page_setup.orientation == "landscape"
    # rows by first day, then tournament id: me (Hold'em), then mt (=Stack) on Mar 6
    title = ws.cell(row=3, column=7)
    assert title.value == "=Stack" and title.data_type == "s"  # text, not a formula
    sheets = pd.read_excel(io.BytesIO(data), sheet_name=None)
    sched = sheets["Schedule"]
    for col in ("start", "end", "first_day", "last_day"):
        assert pd.api.types.is_datetime64_any_dtype(sched[col]), col
    assert pd.api.types.is_integer_dtype(sheets["Licences"]["fee_usd"])
    lic = sheets["Licences"].set_index("operator_id")
    # MT large-stakes permit $120 (MT-PERMIT-FEES); ME per-tournament 1-50 players $40 (ME-FEES)
    assert lic.loc["room", "fee_usd"] == 120 and lic.loc["post", "fee_usd"] == 40
    assert ws.cell(row=2, column=8).number_format == "yyyy-mm-dd hh:mm"
    assert wb["Licences"].cell(row=2, column=8).number_format == '"$"#,##0'
    limits = sheets["Limits"]
    assert pd.api.types.is_datetime64_any_dtype(limits["period_start"])
    assert pd.api.types.is_integer_dtype(limits["used"])


def test_plan_deadlines_by_hand(small_plan: object) -> None:
    # the Deadlines sheet in deadlines.csv's shape: (date, file_by, operator, what, opens,
    # rule, citation, operator_id, occurrence, license_id)
    rows = {(d[7], d[5]): d for d in deadline_rows(small_plan)}  # type: ignore[arg-type]
    # MT-NOTICE: 5 days before Saturday 2027-03-06 = Mon 2027-03-01 (the office is open)
    assert rows[("room", "MT-NOTICE")][:2] == (dt.date(2027, 3, 1), dt.date(2027, 3, 1))
    # ME-APPLICATION-WINDOW: 90 days before Mar 6 is 2026-12-06, before notice_from 2027-02-01,
    # so the window opens 2027-02-01; due the 10th Maine business day before Mar 6 (Fri 5,
    # Thu 4, Wed 3, Tue 2, Mon 1, Fri Feb 26, 25, 24, 23, Mon 22): 2027-02-22
    window = rows[("post", "ME-APPLICATION-WINDOW")]
    assert (window[0], window[4]) == (dt.date(2027, 2, 22), dt.date(2027, 2, 1))
    # ME-REPORT: 10 business days after Sat Mar 6: Mar 8-12 (5), Mar 15-19 (10) = 2027-03-19
    assert rows[("post", "ME-REPORT")][0] == dt.date(2027, 3, 19)


def test_every_plan_folder_gets_plan_xlsx(tmp_path: Path, small_plan: object) -> None:
    out = write_plan(small_plan, tmp_path / "plan")  # type: ignore[arg-type]
    assert (out / "plan.xlsx").read_bytes() == plan_xlsx(small_plan)  # type: ignore[arg-type]


@pytest.mark.parametrize(("typed", "read"), [
    ("Tue. 18:00–22:00", (("tue", dt.time(18), dt.time(22)),)),   # a full stop, an en dash
    ("TUESDAY 18:00 - 22:00; fri 19:00-1:00",
     (("tue", dt.time(18), dt.time(22)), ("fri", dt.time(19), dt.time(1)))),
])
def test_other_games_as_a_spreadsheet_writes_them(tmp_path: Path, typed: str,
                                                  read: tuple[tuple[str, dt.time, dt.time]]
                                                  ) -> None:
    path = _with_other_games(tmp_path, typed)
    op = load_scenario(path).operators[0]
    assert tuple((g.weekday, g.start, g.end) for g in op.other_games) == read


def test_other_games_in_12_hour_clock_say_how_to_write_them(tmp_path: Path) -> None:
    path = _with_other_games(tmp_path, "tue 6pm-10pm")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    [p] = err.value.problems
    assert p.message == ("write a weekday and its local start and end, 24-hour, e.g. "
                         "'tue 18:00-22:00'")
    assert "Operators!" in str(err.value) and "(other_games)" in str(err.value)
    assert "valid dictionary" not in str(err.value)


def _with_other_games(tmp_path: Path, typed: str) -> Path:
    """The Maine example's workbook, its first operator's other_games cell holding ``typed``."""
    path = tmp_path / "maine.xlsx"
    path.write_bytes(load_scenario(EXAMPLES["maine"]).to_xlsx())
    wb = openpyxl.load_workbook(path)
    ws = wb["Operators"]
    column = next(c.column for c in ws[1] if c.value == "other_games")
    ws.cell(2, column, typed)
    wb.save(path)
    return path
