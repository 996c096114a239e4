"""Every mistake in one pass (issue #14 §2): a record's problems never hide another record's
problems (fields, then cross references, then the rules' input checks such as MT-ENTRY-CAP),
every problem in file order (YAML line; workbook sheet, row, column), each in the operator's
words: a day that does not exist, "did you mean" for a choice, a list wanted, a share over 1,
``$50`` for money, a tab in the indentation."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.problems import InputProblem, ScenarioError
from scheduler.core.workbook.layout import EXAMPLES
from scheduler.inputs.load import load_scenario, validate_scenario

runner = CliRunner()

# Twelve independent mistakes; the line of each is written beside it (counted by hand: the
# first line of the text is line 1). Tournament t12 is sound but holds only room-b, whose
# record is broken: it gets no (false) "unknown operator id".
TWELVE = """\
name: Twelve mistakes 2027
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-20
operators:
  - id: room-a
    name: Bitterroot Card Room
    jurisdiction: MT
    live_tables: 6
  - id: room-b
    name: Electric City Card Room
    jurisdiction: Montana
    live_tables: 4
tournaments:
  - id: t1
    title: Key typo
    type: large-stakes
    operators: [room-a]
    entry_fe: 100
  - id: t2
    title: No such day
    type: large-stakes
    operators: [room-a]
    fixed_dates: [2027-02-30]
  - id: t3
    title: Tuesday spelled out
    type: small-stakes
    operators: [room-a]
    weekdays: [Tues]
  - id: t4
    title: Unknown room
    type: large-stakes
    operators: [room-z]
  - id: t5
    title: Over the cap
    type: large-stakes
    operators: [room-a]
    entry_fee: 2000
  - id: t6
    title: Share as a percentage
    type: large-stakes
    operators: [room-a]
    charitable: true
    charity_share: 50
  - id: t7
    title: Dollar sign
    type: large-stakes
    operators: [room-a]
    entry_fee: $50
  - id: t8
    title: One weekday
    type: small-stakes
    operators: [room-a]
    weekdays: tue
  - id: t9
    title: Unknown type
    type: large stakes
    operators: [room-a]
  - id: t5
    title: Same id again
    type: large-stakes
    operators: [room-a]
  - id: t2
    title: Same id as a broken one
    type: large-stakes
    operators: [room-a]
  - id: t12
    title: At the broken room
    type: large-stakes
    operators: [room-b]
"""

EXPECTED = [
    # (line, path, rule, message)
    (11, "operators[1].jurisdiction", "SCENARIO",
     "Input should be 'MT' or 'ME'; did you mean 'MT'?"),
    (18, "tournaments[0].entry_fe", "SCENARIO", "unknown field; did you mean 'entry_fee'?"),
    (23, "tournaments[1].fixed_dates[0]", "SCENARIO",
     "2027-02-30 is not a day (February 2027 has 28 days)"),
    (28, "tournaments[2].weekdays[0]", "SCENARIO",
     "Input should be 'mon', 'tue', 'wed', 'thu', 'fri', 'sat' or 'sun'; did you mean 'tue'?"),
    # room-b's record is broken: the operators known are room-a only
    (32, "tournaments[3].operators[0]", "SCENARIO", "unknown operator id; known: room-a"),
    # $2,000 x (1 entry + 0 re-entries) = $2,000 > $1,875
    (37, "tournaments[4].entry_fee", "MT-ENTRY-CAP",
     "a participant could pay $2,000 in all (entry $2,000 x 1 + rebuys $0 x 0 + add-on $0); "
     "the cap is $1,875"),
    # 50 / 100 = 0.5
    (43, "tournaments[5].charity_share", "SCENARIO",
     "a share is a fraction from 0 to 1: 0.5 means 50 %; write 0.5 for 50 %"),
    (48, "tournaments[6].entry_fee", "SCENARIO",
     "write 50 (USD): a plain number, without the $ sign, thousands separators or a currency"),
    (53, "tournaments[7].weekdays", "SCENARIO", "write a list, e.g. [tue]"),
    (56, "tournaments[8].type", "SCENARIO",
     "Input should be 'large-stakes', 'small-stakes', 'tournament-game', 'super-cribbage' or "
     "'charitable-cribbage'; did you mean 'large-stakes'?"),
    (58, "tournaments[9].id", "SCENARIO", "tournament id is used twice"),
    # the first t2 (line 19) is broken (its day); the second is still a second t2
    (62, "tournaments[10].id", "SCENARIO", "tournament id is used twice"),
]


def _write(tmp_path: Path, text: str, name: str = "year.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _seen(problems: list[InputProblem]) -> list[tuple[object, str, str, str]]:
    return [(p.line, p.path, p.rule, p.message) for p in problems]


def test_twelve_mistakes_in_one_run(tmp_path: Path) -> None:
    path = _write(tmp_path, TWELVE)
    for line, _path, _rule, _msg in EXPECTED:  # the hand-counted lines hold what they say
        assert TWELVE.splitlines()[line - 1].strip() != ""
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert _seen(err.value.problems) == EXPECTED
    text = str(err.value)
    assert text.startswith(f"12 problem(s) in {path}:\n")
    assert (f"{path}:37: tournaments[4].entry_fee = 2000: a participant could pay $2,000 in "
            "all") in text
    assert "(MT-ENTRY-CAP, MCA 23-5-317(1)(g))" in text
    assert f"{path}:48: tournaments[6].entry_fee = '$50': write 50 (USD)" in text
    assert "tournaments[11]" not in text  # t12 at the broken room-b: nothing false


def test_twelve_mistakes_through_tourney_solve(tmp_path: Path) -> None:
    path = _write(tmp_path, TWELVE)
    out = tmp_path / "plan"
    res = runner.invoke(app, ["solve", str(path), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert not out.exists()  # nothing written
    lines = [x for x in res.output.splitlines() if x.startswith(f"  {path}:")]
    assert [int(x.split(":")[1]) for x in lines] == [e[0] for e in EXPECTED]  # file order
    for (line, where, _rule, msg), shown in zip(EXPECTED, lines, strict=True):
        assert shown.startswith(f"  {path}:{line}: {where}")
        assert msg in shown


def test_fixing_the_twelve_leaves_nothing(tmp_path: Path) -> None:
    # the same file with each mistake fixed loads: none of the twelve was a false report
    fixed = (TWELVE.replace("Montana", "MT").replace("entry_fe:", "entry_fee:")
             .replace("2027-02-30", "2027-02-26").replace("[Tues]", "[tue]")
             .replace("[room-z]", "[room-a]").replace("2000", "1875")
             .replace("charity_share: 50", "charity_share: 0.5").replace("$50", "50")
             .replace("weekdays: tue", "weekdays: [tue]").replace("large stakes", "large-stakes")
             .replace("id: t5\n    title: Same", "id: t10\n    title: Same")
             .replace("id: t2\n    title: Same", "id: t11\n    title: Same"))
    sc = load_scenario(_write(tmp_path, fixed))
    assert len(sc.tournaments) == 12 and sc.tournament("t5").entry_fee == 1875


def test_reference_to_a_broken_operator_only_drops_that_operator(tmp_path: Path) -> None:
    # the tournament lists room-a, room-b (its record broken) and room-z (unknown): it is
    # still checked with room-a; room-b is left out silently, room-z is named at its index
    # in the input's list, 2
    text = TWELVE.split("tournaments:\n")[0] + (
        "tournaments:\n"
        "  - id: both\n"
        "    title: Two rooms and a typo\n"
        "    type: large-stakes\n"
        "    operators: [room-a, room-b, room-z]\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert [(p.line, p.path) for p in err.value.problems] == [
        (11, "operators[1].jurisdiction"), (17, "tournaments[0].operators[2]")]


def test_a_scenario_in_python_gets_references_and_rules_together() -> None:
    # validate_scenario (solve(), the check): tournament 1's unknown room leaves it out of
    # the input rules; tournament 0's entry fee over the cap still shows
    # ($2,000 x 1 entry > $1,875)
    sc = load_scenario(EXAMPLES["montana"]).replace(tournaments=[
        {"id": "big", "title": "Big", "type": "large-stakes", "operators": ["room-a"],
         "entry_fee": 2000},
        {"id": "far", "title": "Far away", "type": "large-stakes", "operators": ["room-z"]}])
    with pytest.raises(ScenarioError) as err:
        validate_scenario(sc)
    assert [(p.rule, p.path) for p in err.value.problems] == [
        ("MT-ENTRY-CAP", "tournaments[0].entry_fee"), ("SCENARIO", "tournaments[1].operators[0]")]


# --------------------------------------------------------------------------- the YAML text
def test_tab_indentation_is_named(tmp_path: Path) -> None:
    text = TWELVE.replace("    live_tables: 6", "\tlive_tables: 6")  # line 8
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    # the tab first, then the twelve mistakes of the file read with the tab as spaces (fix14)
    p, *rest = err.value.problems
    assert len(rest) == 12
    assert p.line == 8
    assert p.message == ("line 8 is indented with a tab; use spaces (YAML does not allow "
                         "tabs in indentation)")


def test_tab_indentation_counts_the_lines_below(tmp_path: Path) -> None:
    text = "name: x\nhorizon:\n\tstart: 2027-01-01\n\tend: 2027-12-31\n"
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    p = err.value.problems[0]  # then: operators missing (the detabbed copy, fix14)
    assert (p.line, p.message) == (3, "line 3 is indented with a tab; use spaces (YAML does "
                                      "not allow tabs in indentation); 1 more line(s) below "
                                      "start with a tab too")


# --------------------------------------------------------------------------- messages
@pytest.mark.parametrize(("day", "message"), [
    ("2027-02-29", "2027-02-29 is not a day (February 2027 has 28 days)"),
    ("2027-04-31", "2027-04-31 is not a day (April 2027 has 30 days)"),
    ("2027-13-01", "2027-13-01 is not a day (a year has 12 months, not 13)"),
    ("2028-02-30", "2028-02-30 is not a day (February 2028 has 29 days)"),
])
def test_a_day_that_does_not_exist(tmp_path: Path, day: str, message: str) -> None:
    text = TWELVE.split("tournaments:\n")[0].replace("Montana", "MT") + (
        "tournaments:\n"
        "  - id: t\n"
        "    title: T\n"
        "    type: large-stakes\n"
        "    operators: [room-a]\n"
        f"    fixed_dates: [{day}]\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert _seen(err.value.problems) == [(18, "tournaments[0].fixed_dates[0]", "SCENARIO",
                                          message)]


def test_leap_day_is_a_day(tmp_path: Path) -> None:
    # 2028 is a leap year (divisible by 4, not by 100): 2028-02-29 exists
    text = TWELVE.split("tournaments:\n")[0].replace("Montana", "MT").replace(
        "2027-12-31", "2028-12-31")
    text += ("tournaments:\n  - id: t\n    title: T\n    type: large-stakes\n"
             "    operators: [room-a]\n    fixed_dates: [2028-02-29]\n")
    sc = load_scenario(_write(tmp_path, text))
    assert sc.tournament("t").fixed_dates == (dt.date(2028, 2, 29),)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("entry_fee", "$1,875", "write 1875 (USD)"),
    ("entry_fee", "1,875", "write 1875 (USD)"),
    ("addon_fee", "25 USD", "write 25 (USD)"),
    ("prize_share", 80, "0.5 means 50 %; write 0.8 for 80 %"),
    ("prize_share", "1.01", "0.5 means 50 %; write 0.0101 for 1.01 %"),
    ("prefer_weekdays", "fri, sat", "write a list, e.g. [fri, sat]"),
    ("operators", "room-a", "write a list, e.g. [room-a]"),
    ("weekdays", ["Saturdays"], "did you mean 'sat'?"),
    ("type", "Small-Stakes", "did you mean 'small-stakes'?"),
])
def test_messages_in_the_operators_words(field: str, value: object, message: str) -> None:
    tournament = {"id": "t", "title": "T", "type": "large-stakes", "operators": ["room-a"],
                  field: value}
    data = {"name": "x", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-12-20",
            "operators": [{"id": "room-a", "name": "A", "jurisdiction": "MT",
                           "live_tables": 1}],
            "tournaments": [tournament]}
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    [p] = err.value.problems
    assert p.path.startswith(f"tournaments[0].{field}") and message in p.message, p


def test_a_share_of_exactly_1_is_a_share() -> None:
    # the boundary: 1 (100 %) is allowed, anything over 1 is not
    base = load_scenario(EXAMPLES["montana"])
    assert base.with_tournament("food-share-classic", charity_share=1) \
        .tournament("food-share-classic").charity_share == 1


# --------------------------------------------------------------------------- a workbook
def test_workbook_mistakes_in_one_run_by_cell(tmp_path: Path) -> None:
    path = tmp_path / "year.xlsx"
    path.write_bytes(load_scenario(EXAMPLES["montana"]).to_xlsx())
    wb = openpyxl.load_workbook(path)
    settings, ops, tours = wb["Settings"], wb["Operators"], wb["Tournaments"]
    fee, share = (next(c.column_letter for c in tours[1] if c.value == h)
                  for h in ("entry_fee", "charity_share"))
    settings["A7"], settings["B7"] = "notice_form", "2026-12-20"  # a key typo
    ops["A3"], ops["B3"], ops["C3"] = "room-b", "Electric City", "Montana"
    tours[f"{fee}2"] = 2000     # deepstack's entry fee
    tours[f"{share}3"] = 50     # food-share-classic's charity_share
    tours["M4"] = "Tues"       # wednesday-bounty's weekdays (column M)
    wb["Sessions"].delete_rows(2, 3)  # spring-main's flights: row 5 is x5 below
    for row, (tid, kind, room) in enumerate([("x5", "large stakes", "room-a"),
                                             ("x6", "large-stakes", "room-z"),
                                             ("x7", "large-stakes", "room-a"),
                                             ("x8", "large-stakes", "room-a")], start=5):
        tours[f"A{row}"], tours[f"B{row}"] = tid, f"Tournament {tid}"
        tours[f"C{row}"], tours[f"D{row}"] = kind, room
    tours[f"{fee}7"] = "$50"
    tours["O8"] = "2027-02-30"
    wb.save(path)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    got = [(p.line, p.rule) for p in err.value.problems]
    # sheets in the template's order (Settings, Operators, Tournaments), then row, column
    assert got == [
        ("Settings!B7 (notice_form)", "SCENARIO"),
        ("Operators!C3 (jurisdiction)", "SCENARIO"),
        (f"Tournaments!{fee}2 (entry_fee)", "MT-ENTRY-CAP"),
        (f"Tournaments!{share}3 (charity_share)", "SCENARIO"),
        ("Tournaments!M4 (weekdays), item 1", "SCENARIO"),
        ("Tournaments!C5 (type)", "SCENARIO"),
        ("Tournaments!D6 (operators), item 1", "SCENARIO"),
        (f"Tournaments!{fee}7 (entry_fee)", "SCENARIO"),
        ("Tournaments!O8 (fixed_dates), item 1", "SCENARIO"),
    ]
    messages = [p.message for p in err.value.problems]
    assert messages[0] == "unknown field; did you mean 'notice_from'?"
    assert messages[1].endswith("did you mean 'MT'?")
    assert "the cap is $1,875" in messages[2]
    assert "0.5 means 50 %" in messages[3]
    assert messages[4].endswith("did you mean 'tue'?")
    assert messages[5].endswith("did you mean 'large-stakes'?")
    assert messages[6] == "unknown operator id; known: room-a"
    assert messages[7].startswith("write 50 (USD)")
    assert messages[8] == "2027-02-30 is not a day (February 2027 has 28 days)"
    res = runner.invoke(app, ["solve", str(path), "--out", str(tmp_path / "plan")])
    assert res.exit_code == 2 and not (tmp_path / "plan").exists()
    assert "9 problem(s) in" in res.output
    assert "tournaments[" not in res.output  # cells, never a 0-based index


def test_a_wrong_horizon_stops_the_input_rules_not_the_field_checks(tmp_path: Path) -> None:
    # every input rule reads the horizon: with it wrong only the field problems show (the
    # key typo of t1, line 18), never a guess at the rules (t5's $2,000 entry, line 37)
    text = TWELVE.replace("end: 2027-12-31}", "end: 2027-12-32}")
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    got = [(p.line, p.path) for p in err.value.problems]
    assert (2, "horizon.end") in got and (18, "tournaments[0].entry_fe") in got
    assert all(p.rule == "SCENARIO" for p in err.value.problems)
    assert [line for line, _ in got] == sorted(line for line, _ in got)


def test_a_wrong_name_does_not_stop_the_input_rules(tmp_path: Path) -> None:
    # no rule reads the name: the entry fee over the cap (line 37) still shows
    text = TWELVE.replace("name: Twelve mistakes 2027", "name: ''")
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    got = [(p.line, p.rule) for p in err.value.problems]
    assert got[0] == (1, "SCENARIO") and (37, "MT-ENTRY-CAP") in got
