"""Issue #14, a fresh tester's findings (fix14): formula cells with no computed value,
a missing or renamed Tournaments sheet, ``tourney template`` over a filled workbook, and the
operator-word messages; each value below computed by hand."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from icalendar import Calendar
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.core.workbook.layout import EXAMPLES
from scheduler.core.workbook.reader import read_workbook
from scheduler.engine.solver import solve
from scheduler.export.ical import calendar_files
from scheduler.export.summary import summary_text
from scheduler.export.write import dtstamp
from scheduler.export.xlsx import plan_xlsx
from scheduler.inputs.load import WorkbookNote, load_scenario
from scheduler.result.plan import Plan

runner = CliRunner()


@pytest.fixture
def book(tmp_path: Path) -> tuple[openpyxl.Workbook, Path]:
    path = tmp_path / "year.xlsx"
    path.write_bytes(load_scenario(EXAMPLES["montana"]).to_xlsx())
    return openpyxl.load_workbook(path), path


def _problems(wb: openpyxl.Workbook, path: Path) -> list[str]:
    wb.save(path)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return err.value.render().splitlines()[1:]


def _column(ws: object, header: str) -> str:
    return next(c.column_letter for c in ws[1] if c.value == header)  # type: ignore[index]


# --------------------------------------------------------------------------- 1. formulas
def test_a_formula_with_no_computed_value_is_named(book: tuple[openpyxl.Workbook, Path]
                                                   ) -> None:
    wb, path = book
    tours = wb["Tournaments"]
    col = _column(tours, "entry_fee")
    tours[f"{col}2"] = "=2000"  # openpyxl writes the formula, no cached value (a script)
    lines = _problems(wb, path)
    assert lines == [f"  {path}: Tournaments!{col}2 (entry_fee): a formula with no computed "
                     "value (=2000): open and save the file in a spreadsheet application, "
                     "or type the value (SCENARIO)"], lines
    # the CLI: exit 2, the plan not written
    res = runner.invoke(app, ["check", str(path)])
    assert res.exit_code == 2, res.output


def test_a_formula_in_the_settings_sheet(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    wb["Settings"]["B2"] = '="Bitterroot " & "2027"'  # name, row 2
    lines = _problems(wb, path)
    assert len(lines) == 1 and "Settings!B2 (name): a formula with no computed value" in \
        lines[0], lines


# --------------------------------------------------------------------------- 2. sheets
@pytest.mark.parametrize("title", ["Tournaments 2027", "Events"])
def test_a_renamed_tournaments_sheet_is_an_error(book: tuple[openpyxl.Workbook, Path],
                                                 title: str) -> None:
    wb, path = book
    wb["Tournaments"].title = title
    lines = _problems(wb, path)
    assert len(lines) == 1, lines
    assert f"sheet Tournaments: the workbook has no sheet of this name (its sheets: " \
        f"'Settings', 'Operators', '{title}', 'Sessions', 'History', 'Tours')" in lines[0]
    hint = "rename 'Tournaments 2027' to Tournaments" if title != "Events" \
        else "tourney template writes one"
    assert hint in lines[0] and lines[0].endswith("(SCENARIO)")


def test_a_deleted_tournaments_sheet_is_an_error(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    del wb["Tournaments"]
    lines = _problems(wb, path)
    assert len(lines) == 1 and "sheet Tournaments: the workbook has no sheet" in lines[0]
    res = runner.invoke(app, ["check", str(path)])
    assert res.exit_code == 2, res.output


def test_a_sheet_in_other_letter_case_is_read_with_a_note(
        book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    wb["Tournaments"].title = "x"  # openpyxl counts the sheet's own name as taken
    wb["x"].title = "tournaments"
    wb.create_sheet("Notes")
    wb.save(path)
    # the montana example: 4 tournaments (deepstack, food-share-classic, wednesday-bounty,
    # spring-main)
    with pytest.warns(WorkbookNote) as notes:
        ids = [t.id for t in load_scenario(path).tournaments]
    assert ids == ["deepstack", "food-share-classic", "wednesday-bounty", "spring-main"]
    assert [str(n.message) for n in notes] == [
        f"{path}: sheet 'tournaments' is read as the Tournaments sheet",
        f"{path}: sheet 'Notes' is not read (the sheets read are Settings, Operators, "
        "Tournaments, Sessions, History, Tours)"]
    _, cells = read_workbook(path.read_bytes())
    assert list(cells.notes) == [
        "sheet 'tournaments' is read as the Tournaments sheet",
        "sheet 'Notes' is not read (the sheets read are Settings, Operators, Tournaments, "
        "Sessions, History, Tours)"]
    assert cells[("tournaments", 0, "id")] == "tournaments!A2 (id)"


def test_a_missing_header_row_is_named(book: tuple[openpyxl.Workbook, Path]) -> None:
    wb, path = book
    wb["Tournaments"].delete_rows(1)  # the headers gone: row 1 is deepstack's row
    lines = _problems(wb, path)
    assert lines == [f"  {path}: Tournaments!1: no header row: row 1 must name the columns "
                     "(id, title, type, operators, ...) as tourney template writes them "
                     "(SCENARIO)"], lines


# --------------------------------------------------------------------------- 3. template
def test_template_does_not_replace_a_workbook_without_force(tmp_path: Path) -> None:
    out = tmp_path / "year.xlsx"
    out.write_bytes(b"a filled workbook")
    res = runner.invoke(app, ["template", str(out)])
    assert res.exit_code == 2
    assert f"tourney: {out} exists; give --force to replace it. Nothing was written." in \
        res.output
    assert out.read_bytes() == b"a filled workbook"
    res = runner.invoke(app, ["template", str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:2] == b"PK"  # an .xlsx is a zip file


def test_template_into_a_read_only_folder_names_no_out_option(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)  # by mode bits: refused for root too
    try:
        res = runner.invoke(app, ["template", str(folder / "year.xlsx")])
    finally:
        folder.chmod(0o755)
    assert res.exit_code == 2
    assert "give another file name" in res.output and "--out" not in res.output


# --------------------------------------------------------------------------- 4. a tab
MONTANA_YAML = """\
name: Tab 2027
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-20
operators:
  - id: room-a
    name: Bitterroot Card Room
    jurisdiction: MT
    live_tables: 6
tournaments:
  - id: deepstack
    title: Deepstack
    type: large-stakes
    operators: [room-a]
    entry_fee: 375
    reentries: 3
"""


def _load_problems(tmp_path: Path, text: str) -> list[tuple[int | None, str]]:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return [(p.line, p.message) for p in err.value.problems]


def _rules(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return [p.rule for p in err.value.problems]


TAB = ("line 8 is indented with a tab; use spaces (YAML does not allow tabs in "
       "indentation)")


def test_a_tab_comes_with_the_other_problems(tmp_path: Path) -> None:
    # line 8 tab-indented; line 14: 500 x (1 + 3 re-entries) = $2,000 > $1,875 (MT-ENTRY-CAP)
    text = MONTANA_YAML.replace("    live_tables: 6", "\tlive_tables: 6").replace(
        "entry_fee: 375", "entry_fee: 500")
    found = _load_problems(tmp_path, text)
    assert found[0] == (8, TAB)
    assert found[1] == (14, "a participant could pay $2,000 in all (entry $500 x 4 + rebuys "
                        "$0 x 0 + add-on $0); the cap is $1,875")
    assert _rules(tmp_path, text) == ["SCENARIO", "MT-ENTRY-CAP"]


def test_a_tab_alone_is_the_one_problem(tmp_path: Path) -> None:
    # 375 x (1 + 3) = $1,500 <= $1,875: the file is sound but for the tab
    text = MONTANA_YAML.replace("    live_tables: 6", "\tlive_tables: 6")
    assert _load_problems(tmp_path, text) == [(8, TAB)]


def test_a_tab_in_a_file_that_does_not_parse_even_detabbed(tmp_path: Path) -> None:
    text = MONTANA_YAML.replace("    live_tables: 6", "\tlive_tables: 6").replace(
        "    reentries: 3", "    reentries: [3")  # an unclosed list: not YAML with spaces
    assert _load_problems(tmp_path, text) == [(8, TAB)]


# --------------------------------------------------------------------------- 5. overasked
ME_POST = {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
           "local_approval": True, "beneficiaries": ["Scholarships"]}


def _game(tid: str, count: int) -> dict[str, object]:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": 40, "prize_share": 0.8, "count": count}


def _run(data: dict[str, object]) -> Plan:
    plan = solve(load_scenario(data), time_limit=10, seed=0, workers=1)
    assert plan.status == "OPTIMAL"
    return plan


def test_overasked_counts_every_tournament_competing_for_the_limit() -> None:
    # February 2027, one month, at most 2 licensed games (ME-MONTHLY-LIMIT): a 2 + b 1 +
    # c 1 = 4 wanted. The smallest proving set is {a, c}: 2 + 1 = 3 > 2 (dropping b keeps the
    # count); the up-front line counts all three: 4 - 2 x 1 = at least 2 cannot be placed.
    plan = _run({"name": "feb", "horizon": {"start": "2027-02-01", "end": "2027-02-28"},
                 "notice_from": "2026-12-01", "operators": [ME_POST],
                 "tournaments": [_game("a", 2), _game("b", 1), _game("c", 1)]})
    assert list(plan.overasked) == [
        "4 wanted games of Post (2 + 1 + 1), at most 2 a month (ME-MONTHLY-LIMIT, month_rule: "
        "touch), 1 month(s) in the horizon (2027-02): at least 2 cannot be placed; "
        "17 M.R.S. § 1836."]
    assert len(plan.unscheduled_list) == 2  # 4 wanted - 2 placed


# --------------------------------------------------------------------------- 6. gave way
def test_gave_way_at_equal_cost_makes_no_cheaper_claim() -> None:
    # February 2027: a twice and b once, both 40 players (tier 1-50, one $40 licence each
    # game, ME-FEES): 3 wanted, 2 fit (ME-MONTHLY-LIMIT); every pair costs 2 x $40 = $80, so
    # the one left out is not "cheaper" to leave out
    plan = _run({"name": "feb", "horizon": {"start": "2027-02-01", "end": "2027-02-28"},
                 "notice_from": "2026-12-01", "operators": [ME_POST],
                 "tournaments": [_game("a", 2), _game("b", 1)]})
    assert plan.total_fees_usd == 80
    [u] = plan.unscheduled_list
    kept = "b" if u.tournament_id == "a" else "a"
    lines = [x for x in summary_text(plan).splitlines() if "at equal priority" in x]
    assert lines == [f"  {u.tournament_id} (1 not placed): under ME-MONTHLY-LIMIT at equal "
                     f"priority 1 the plan kept {kept}; give {u.tournament_id} priority 2 to "
                     "keep it."], lines
    assert "cheaper" not in summary_text(plan)


# --------------------------------------------------------------------------- 7. template
def test_template_date_validation_takes_the_loaders_years(tmp_path: Path) -> None:
    # the Maine example's post was organized on 1946-05-12: inside 1900-01-01..2199-12-31
    # (scheduler.core.limits FIRST_YEAR..LAST_YEAR), outside the old 2000..2199
    path = tmp_path / "maine.xlsx"
    path.write_bytes(load_scenario(EXAMPLES["maine"]).to_xlsx())
    ws = openpyxl.load_workbook(path)["Operators"]
    col = _column(ws, "organized_on")
    [dv] = [d for d in ws.data_validations.dataValidation if f"{col}2" in str(d.sqref)]
    assert (dv.formula1, dv.formula2) == ("DATE(1900,1,1)", "DATE(2199,12,31)")
    settings = openpyxl.load_workbook(path)["Settings"]
    end = next(r for r in settings.iter_rows() if r[0].value == "horizon.end")
    assert "at most 2 years" in str(end[2].value) and "ten" not in str(end[2].value)


# --------------------------------------------------------------------------- 9. words
NINE = """\
name: Nine 2027
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-20
operators:
  - id: room-a
    name: R
    jurisdiction: MT
    live_tables: 6
tournaments:
  - id: Deep Stack
    title: a
    type: large-stakes
    operators: [room-a]
  - id: 212
    title: b
    type: large-stakes
    operators: [room-a]
  - id: c
    title: c
    type: large-stakes
    operators: [room-a]
    hours: 14h
    weekdays: Tues
  - id: d
    title: d
    type: large-stakes
    operators: [room-a]
    charitable: true
    charity_share: 50%
    entry_fee: "#DIV/0!"
    window: {start: 2027-03-01}
"""


def test_messages_in_operator_words(tmp_path: Path) -> None:
    # lines counted by hand: the id on 10, hours on 22, weekdays on 23, entry_fee on 30;
    # 212 is read as the id "212", 50% as 0.5, the window to the horizon's end: no problem
    assert _load_problems(tmp_path, NINE) == [
        (10, "lower-case letters, digits and hyphens, e.g. deep-stack"),
        (22, "expected a number of hours, e.g. 10 or 10:30"),
        (23, "write a list, e.g. [tue]"),
        (30, "expected a number, e.g. 50")]


def test_a_numeric_id_a_percent_share_and_an_open_window_are_read(tmp_path: Path) -> None:
    text = NINE.replace("Deep Stack", "deep-stack").replace("hours: 14h", "hours: 10") \
        .replace("weekdays: Tues", "weekdays: [tue]").replace('entry_fee: "#DIV/0!"',
                                                              "entry_fee: 100")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    sc = load_scenario(path)
    assert [t.id for t in sc.tournaments] == ["deep-stack", "212", "c", "d"]
    d = sc.tournaments[3]
    assert d.charity_share == Decimal("0.5")  # 50 % = 50 / 100
    assert d.window is not None
    assert (str(d.window.start), str(d.window.end)) == ("2027-03-01", "2027-12-31")


# --------------------------------------------------------------------------- 10. outputs
def _descriptions(plan: Plan) -> list[str]:
    cal = Calendar.from_ical(calendar_files(plan, dtstamp(plan))["calendar.ics"])
    return [str(e["DESCRIPTION"]) for e in cal.walk("VEVENT")
            if e.get("X-TOURNEY-KIND") in ("occurrence", "series")]


def test_a_charitable_cribbage_night_carries_no_licensed_game_readings() -> None:
    # ME-CRIBBAGE-REG: charitable cribbage needs no licence: no "licence/permit none", no
    # ME-MONTHLY-LIMIT / ME-FEES / ME-ENTRY-CAP reading
    post = {**ME_POST, "licensed_establishment": "restaurant"}
    plan = _run({"name": "crib", "horizon": {"start": "2027-02-01", "end": "2027-02-28"},
                 "notice_from": "2026-12-01", "operators": [post],
                 "tournaments": [{"id": "crib", "title": "Crib", "type": "charitable-cribbage",
                                  "operators": ["post"], "players": 40, "entry_fee": 20,
                                  "prize_share": 0.5, "charity_share": 0.5}]})
    [desc] = _descriptions(plan)
    assert "licence/permit" not in desc, desc
    for rule in ("ME-MONTHLY-LIMIT", "ME-FEES", "ME-ENTRY-CAP", "tier"):
        assert rule not in desc, desc
    assert desc.endswith("Not legal advice.")


def test_a_small_stakes_night_has_no_entry_cap_reading_and_permit_held_is_said_once(
        ) -> None:
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1,
            "held_in_current_permit_year": {"permits": ["small-stakes"]}}
    plan = _run({"name": "small", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
                 "notice_from": "2027-02-20", "operators": [room],
                 "tournaments": [{"id": "wed", "title": "Wed", "type": "small-stakes",
                                  "operators": ["room"], "weekdays": ["wed"],
                                  "entry_fee": 60, "hours": 4, "start_time": "19:00"}]})
    [desc] = _descriptions(plan)
    assert "MT-ENTRY-CAP" not in desc and "reentry_counts_toward_cap" not in desc, desc
    assert "permit already held" in desc and "licence/permit permit" not in desc, desc


def test_plan_xlsx_limits_has_the_held_column() -> None:
    # 14 held before the plan + 2 Saturdays of March 2027 = 16 used of 16 (MT-LARGE-LIMIT)
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1,
            "held_in_current_permit_year": {"large_stakes": 14}}
    plan = _run({"name": "m", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
                 "notice_from": "2027-02-20", "operators": [room],
                 "tournaments": [{"id": "sat", "title": "Sat", "type": "large-stakes",
                                  "operators": ["room"], "weekdays": ["sat"], "count": 2}]})
    limits = pd.read_excel(io.BytesIO(plan_xlsx(plan)), sheet_name="Limits")
    assert list(limits.columns)[-1] == "held"
    large = limits[limits["rule_id"] == "MT-LARGE-LIMIT"].iloc[0]
    assert (int(large["used"]), int(large["held"])) == (16, 14)


def test_the_cli_prints_the_sheet_notes_as_warnings(book: tuple[openpyxl.Workbook, Path]
                                                    ) -> None:
    wb, path = book
    wb.create_sheet("Notes")
    wb.save(path)
    res = runner.invoke(app, ["check", str(path)])  # loaded, then: no schedule given (exit 2)
    assert (f"tourney: warning: {path}: sheet 'Notes' is not read (the sheets read are "
            "Settings, Operators, Tournaments, Sessions, History, Tours)") in res.stderr


def test_overasked_leaves_out_a_tournament_with_no_day() -> None:
    # Mon 2027-03-01..Tue 2027-03-02: "wed" (Wednesdays only) has no day at all, so it
    # competes for no day of MT-SMALL-DAILY; "a" and "b" want 2 each in 2 days:
    # 4 - 1 x 2 = 2 short
    room = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}

    def small(tid: str, count: int, **kw: object) -> dict[str, object]:
        return {"id": tid, "title": tid, "type": "small-stakes", "operators": ["room"],
                "count": count, "entry_fee": 60, "hours": 4, "start_time": "19:00", **kw}

    data = {"name": "two days", "horizon": {"start": "2027-03-01", "end": "2027-03-02"},
            "notice_from": "2027-02-01", "operators": [room]}
    plan = _run({**data, "tournaments": [small("wed", 1, weekdays=["wed"])]})
    assert plan.overasked == ()  # nothing competes: its reason is elsewhere
    plan = _run({**data, "tournaments": [small("wed", 1, weekdays=["wed"]), small("a", 2),
                                         small("b", 2)]})
    assert list(plan.overasked) == [
        "4 wanted small-stakes tournaments at Room (2 × 2), at most one a day (MT-SMALL-DAILY), "
        "2 days in the horizon (2027-03-01..2027-03-02): at least 2 cannot be placed; "
        "MCA 23-5-317(2)(a)."]
