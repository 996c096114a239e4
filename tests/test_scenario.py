"""The scenario loader (scheduler/core/scenario.py, docs/scenario.md): error reporting, YAML
reading, defaults, and every documented field of the format.

Errors are asserted as (rule, path) pairs of ``ScenarioError.problems``, with line numbers
where the scenario comes from a YAML file written to ``tmp_path``.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml

from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.inputs.load import load_scenario

ROOT = Path(__file__).resolve().parents[1]

MT_OP: dict[str, Any] = {"id": "room-a", "name": "Room A", "jurisdiction": "MT", "live_tables": 2}
ME_OP: dict[str, Any] = {"id": "post", "name": "Post 1", "jurisdiction": "ME",
                         "local_approval": True, "beneficiaries": ["Food Bank"],
                         "organized_on": "1990-01-01"}
LARGE: dict[str, Any] = {"id": "deep", "title": "Deepstack", "type": "large-stakes",
                         "operators": ["room-a"]}
ME_GAME: dict[str, Any] = {"id": "holdem", "title": "Hold'em", "type": "tournament-game",
                           "operators": ["post"], "players": 80, "entry_fee": 100,
                           "prize_share": 0.8}


def scenario(**kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Loader test", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-12-01", "operators": [MT_OP, ME_OP], "tournaments": [LARGE],
    }
    data.update(kw)
    return data


def error(data: dict[str, Any] | Path | str) -> ScenarioError:
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    return exc.value


def problems(data: dict[str, Any] | Path | str) -> list[tuple[str, str]]:
    return [(p.rule, p.path) for p in error(data).problems]


def write(tmp_path: Path, text: str, name: str = "scenario.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- unknown keys
class TestUnknownKeys:
    """Unknown keys are errors naming the nearest known field (docs: "did you mean ...")."""

    @pytest.mark.parametrize(("data", "path", "near"), [
        (scenario(tournaments=[{**LARGE, "entry_fe": 100}]), "tournaments[0].entry_fe",
         "entry_fee"),
        ({**scenario(), "horizn": {}}, "horizn", "horizon"),
        (scenario(settings={"month_rules": "start"}), "settings.month_rules", "month_rule"),
        (scenario(operators=[{**MT_OP, "live_table": 2}]), "operators[0].live_table",
         "live_tables"),
        (scenario(operators=[{**ME_OP, "other_games": [
            {"weekdy": "tue", "weekday": "tue", "start": "18:00", "end": "22:00"}]}],
                  tournaments=[]),
         "operators[0].other_games[0].weekdy", "weekday"),
        (scenario(tournaments=[{**LARGE, "satellite": {"seat_value": 9, "expected_top_prize": 9,
                                                       "seat_valu": 9}}]),
         "tournaments[0].satellite.seat_valu", "seat_value"),
    ])
    def test_did_you_mean(self, data: dict[str, Any], path: str, near: str) -> None:
        [p] = error(data).problems
        assert (p.rule, p.path) == ("SCENARIO", path)
        assert p.message == f"unknown field; did you mean '{near}'?"

    def test_no_near_name(self) -> None:
        [p] = error(scenario(tournaments=[{**LARGE, "zzz": 1}])).problems
        assert (p.path, p.message) == ("tournaments[0].zzz", "unknown field")

    def test_state_only_fields(self) -> None:
        # a Montana-only field on a Maine organization, and the reverse
        data = scenario(operators=[{**MT_OP, "owns_premises": True},
                                   {**ME_OP, "live_tables": 2}])
        err = error(data)
        assert [(p.rule, p.path, p.message) for p in err.problems] == [
            ("SCENARIO", "operators[0].owns_premises", "field applies only to ME operators"),
            ("SCENARIO", "operators[1].live_tables", "field applies only to MT operators")]


# ---------------------------------------------------------------------------- types / values
class TestTypesAndValues:
    @pytest.mark.parametrize(("tkw", "path"), [
        ({"players": "many"}, "tournaments[0].players"),
        ({"count": 0}, "tournaments[0].count"),
        ({"hours": 0}, "tournaments[0].hours"),              # hours must be > 0
        ({"entry_fee": -1}, "tournaments[0].entry_fee"),     # money >= 0
        ({"charity_share": 1.5}, "tournaments[0].charity_share"),  # share in 0..1
        ({"weekdays": ["Tues"]}, "tournaments[0].weekdays[0]"),  # tue or Tuesday
        ({"priority": 1001}, "tournaments[0].priority"),     # 1..1000
        ({"priority": 0}, "tournaments[0].priority"),
        ({"days": 0}, "tournaments[0].days"),
        ({"id": "Deep Stack"}, "tournaments[0].id"),         # id pattern
        ({"type": "poker"}, "tournaments[0].type"),
        ({"rake": "sometimes"}, "tournaments[0].rake"),
    ])
    def test_tournament_field(self, tkw: dict[str, Any], path: str) -> None:
        assert problems(scenario(tournaments=[{**LARGE, **tkw}])) == [("SCENARIO", path)]

    @pytest.mark.parametrize(("okw", "path"), [
        ({"jurisdiction": "NH"}, "operators[0].jurisdiction"),
        ({"max_concurrent": 0}, "operators[0].max_concurrent"),
        ({"timezone": "Mars/Olympus"}, "operators[0].timezone"),
        ({"permit_year_start": "13-01"}, "operators[0].permit_year_start"),
        ({"held_in_current_permit_year": {"large_stakes": -1}},
         "operators[0].held_in_current_permit_year.large_stakes"),
    ])
    def test_operator_field(self, okw: dict[str, Any], path: str) -> None:
        assert problems(scenario(operators=[{**MT_OP, **okw}, ME_OP])) == [("SCENARIO", path)]

    @pytest.mark.parametrize("spelt", ["tue", "Tue", "TUE", "Tue.", "Tuesday", "tuesday",
                                       " TUESDAY "])
    def test_a_weekday_is_read_in_any_case_and_in_full(self, spelt: str) -> None:
        # a spreadsheet's spelling: the 3-letter name or the whole word, any case
        sc = Scenario.model_validate(scenario(tournaments=[
            {**LARGE, "weekdays": [spelt], "prefer_weekdays": [spelt]}]))
        assert (sc.tournaments[0].weekdays, sc.tournaments[0].prefer_weekdays) == (
            ("tue",), ("tue",))

    @pytest.mark.parametrize("several", ["sat, sun", "Mon-Fri", "fri/sat", "Sat. & Sun.",
                                         "sat and sun", "fri – sat"])
    def test_several_weekdays_in_one_item_are_refused_saying_to_list_them(
            self, several: str) -> None:
        [p] = error(scenario(tournaments=[{**LARGE, "weekdays": [several]}])).problems
        assert (p.path, p.value, p.message) == (
            "tournaments[0].weekdays[0]", several,
            "one weekday per item: write a list, e.g. [sat, sun] or [mon, tue, wed, thu, fri]")

    def test_wrong_type_message_names_value(self) -> None:
        [p] = error(scenario(tournaments=[{**LARGE, "players": "many"}])).problems
        assert p.value == "many"
        assert "integer" in p.message

    def test_required_fields_missing(self) -> None:
        assert problems({"name": "x"}) == [("SCENARIO", "horizon"), ("SCENARIO", "operators")]


# ---------------------------------------------------------------------------- references
class TestReferences:
    """Second stage: cross references (unknown or duplicate ids, state mismatches)."""

    def test_unknown_operator_id(self) -> None:
        [p] = error(scenario(tournaments=[{**LARGE, "operators": ["room-z"]}])).problems
        assert (p.rule, p.path, p.value) == ("SCENARIO", "tournaments[0].operators[0]",
                                             "room-z")
        assert p.message == "unknown operator id; known: post, room-a"

    def test_duplicates(self) -> None:
        data = scenario(operators=[MT_OP, MT_OP],
                        tournaments=[{**LARGE, "operators": ["room-a", "room-a"]}, LARGE])
        assert problems(data) == [("SCENARIO", "operators[1].id"),
                                  ("SCENARIO", "tournaments[0].operators"),
                                  ("SCENARIO", "tournaments[1].id")]

    def test_type_must_match_state(self) -> None:
        assert problems(scenario(tournaments=[{**LARGE, "operators": ["post"]}])) == [
            ("SCENARIO", "tournaments[0].type")]

    def test_count_all_only_for_small_stakes(self) -> None:
        assert problems(scenario(tournaments=[{**LARGE, "count": "all"}])) == [
            ("SCENARIO", "tournaments[0].count")]

    def test_counts_and_fixed_dates(self) -> None:
        data = scenario(tournaments=[{**LARGE, "count": 1, "required": 2,
                                      "fixed_dates": ["2027-03-05", "2027-03-05"]}])
        assert problems(data) == [("SCENARIO", "tournaments[0].fixed_dates"),   # 2 > count 1
                                  ("SCENARIO", "tournaments[0].required"),      # 2 > count 1
                                  ("SCENARIO", "tournaments[0].fixed_dates")]   # listed twice

    def test_dates_outside_the_horizon(self) -> None:
        data = scenario(tournaments=[{**LARGE, "count": 2, "fixed_dates": ["2028-01-01"],
                                      "window": {"start": "2028-02-01", "end": "2028-03-01"}}])
        assert problems(data) == [("SCENARIO", "tournaments[0].window"),
                                  ("SCENARIO", "tournaments[0].fixed_dates[0]")]

    def test_ranges_backwards(self) -> None:
        data = scenario(horizon={"start": "2027-12-31", "end": "2027-01-01"},
                        tournaments=[{**LARGE, "window": {"start": "2027-03-01",
                                                          "end": "2027-02-01"}}])
        assert problems(data) == [("SCENARIO", "horizon.end"),
                                  ("SCENARIO", "tournaments[0].window.end")]

    def test_horizon_of_exactly_two_years(self) -> None:
        # 2027-01-01 .. 2028-12-31 inclusive: 365 + 366 = 731 days = 2 years
        load_scenario(scenario(horizon={"start": "2027-01-01", "end": "2028-12-31"}))

    def test_horizon_of_two_years_and_a_day(self) -> None:
        assert problems(scenario(horizon={"start": "2027-01-01", "end": "2029-01-01"})) == [
            ("SCENARIO", "horizon.end")]

    def test_horizon_of_two_years_and_two_days(self) -> None:
        assert problems(scenario(horizon={"start": "2027-01-01", "end": "2029-01-02"})) == [
            ("SCENARIO", "horizon.end")]


class TestStages:
    """Every problem of a record in one pass: its fields' formats, its cross references and
    the input rules on its other fields (issue #26); a record's errors never hide another
    record's (issue #14, one pass)."""

    def test_a_misspelt_key_and_an_unknown_operator_come_together(self) -> None:
        data = scenario(tournaments=[{**LARGE, "operators": ["room-z"], "entry_fe": 1}])
        assert problems(data) == [("SCENARIO", "tournaments[0].entry_fe"),
                                  ("SCENARIO", "tournaments[0].operators[0]")]

    def test_a_wrong_value_and_an_unknown_operator_come_together(self) -> None:
        data = scenario(tournaments=[{**LARGE, "operators": ["room-z"], "priority": "high"}])
        assert problems(data) == [("SCENARIO", "tournaments[0].priority"),
                                  ("SCENARIO", "tournaments[0].operators[0]")]

    def test_reference_errors_do_not_hide_rule_errors_of_other_records(self) -> None:
        # issue #14 (one pass): the unknown operator of tournament 1 leaves tournament 1 out
        # of the input rules, not tournament 0, whose entry fee over the cap shows at once
        data = scenario(tournaments=[{**LARGE, "entry_fee": 5000},
                                     {**LARGE, "id": "x", "operators": ["room-z"]}])
        assert problems(data) == [("MT-ENTRY-CAP", "tournaments[0].entry_fee"),
                                  ("SCENARIO", "tournaments[1].operators[0]")]
        # and once the reference is fixed, the input rule still shows, alone
        data["tournaments"][1]["operators"] = ["room-a"]
        assert problems(data) == [("MT-ENTRY-CAP", "tournaments[0].entry_fee")]


# ---------------------------------------------------------------------------- dates and times
class TestDatesAndTimes:
    @pytest.mark.parametrize("bad", ["2027/01/01", "01-01-2027"])
    def test_bad_date(self, bad: str) -> None:
        [p] = error(scenario(horizon={"start": bad, "end": "2027-12-31"})).problems
        assert (p.rule, p.path, p.value) == ("SCENARIO", "horizon.start", bad)
        assert "YYYY-MM-DD" in p.message

    def test_date_that_is_no_day(self) -> None:
        # issue #14: the right shape but no day of the calendar (February 2027 has 28 days)
        [p] = error(scenario(horizon={"start": "2027-02-30", "end": "2027-12-31"})).problems
        assert (p.rule, p.path, p.value) == ("SCENARIO", "horizon.start", "2027-02-30")
        assert p.message == "2027-02-30 is not a day (February 2027 has 28 days)"

    def test_bad_fixed_date(self) -> None:
        assert problems(scenario(tournaments=[{**LARGE, "fixed_dates": ["2027-13-01"]}])) == [
            ("SCENARIO", "tournaments[0].fixed_dates[0]")]

    @pytest.mark.parametrize("bad", ["25:00", "24:00", "18:60", "7pm", "1800"])
    def test_bad_time(self, bad: str) -> None:
        [p] = error(scenario(tournaments=[{**LARGE, "start_time": bad}])).problems
        assert (p.rule, p.path, p.value) == ("SCENARIO", "tournaments[0].start_time", bad)
        assert "HH:MM" in p.message

    @pytest.mark.parametrize(("text", "expected"), [
        ("18:00", dt.time(18, 0)), ("7:05", dt.time(7, 5)), ("00:00", dt.time(0, 0)),
        ("23:59", dt.time(23, 59))])
    def test_good_time(self, text: str, expected: dt.time) -> None:
        op = {**ME_OP, "other_games": [{"weekday": "tue", "start": text, "end": "23:59"}]}
        sc = load_scenario(scenario(operators=[op], tournaments=[]))
        assert sc.operators[0].other_games[0].start == expected

    @pytest.mark.parametrize(("hours", "expected"), [
        (14, Decimal(14)), (10.5, Decimal("10.5")), ("48:00", Decimal(48)),
        ("10:30", Decimal("10.5")),    # 10 h + 30/60 h
        ("4:15", Decimal("4.25")),     # 4 h + 15/60 h
    ])
    def test_hours_formats(self, hours: Any, expected: Decimal) -> None:
        sc = load_scenario(scenario(operators=[ME_OP], tournaments=[{**ME_GAME,
                                                                    "hours": hours}]))
        assert sc.tournaments[0].hours == expected

    def test_blackout_range_expands_to_3_days(self) -> None:
        op = {**MT_OP, "blackout": ["2027-12-24..2027-12-26"]}
        sc = load_scenario(scenario(operators=[op, ME_OP]))
        # Dec 24, 25, 26: 26 - 24 + 1 = 3 days
        assert sc.operators[0].blackout == (dt.date(2027, 12, 24), dt.date(2027, 12, 25),
                                            dt.date(2027, 12, 26))

    def test_blackout_dates_and_ranges_merge_sorted(self) -> None:
        op = {**MT_OP, "blackout": ["2027-12-25", "2027-07-04", "2027-12-24..2027-12-26"]}
        sc = load_scenario(scenario(operators=[op, ME_OP]))
        # Jul 4, plus Dec 24-26 (Dec 25 listed twice counts once): 1 + 3 = 4 days
        assert sc.operators[0].blackout == (dt.date(2027, 7, 4), dt.date(2027, 12, 24),
                                            dt.date(2027, 12, 25), dt.date(2027, 12, 26))

    def test_blackout_range_backwards(self) -> None:
        op = {**MT_OP, "blackout": ["2027-12-26..2027-12-24"]}
        assert problems(scenario(operators=[op, ME_OP])) == [
            ("SCENARIO", "operators[0].blackout")]

    def test_other_game_past_midnight(self) -> None:
        op = {**ME_OP, "other_games": [{"weekday": "fri", "start": "19:00", "end": "01:00"}]}
        g = load_scenario(scenario(operators=[op], tournaments=[])).operators[0].other_games[0]
        assert (g.weekday, g.start, g.end) == ("fri", dt.time(19, 0), dt.time(1, 0))


# ---------------------------------------------------------------------------- several at once
class TestSeveralErrors:
    def test_reported_together(self) -> None:
        data = scenario(horizon={"start": "2027-02-30", "end": "2027-12-31"},
                        tournaments=[{**LARGE, "start_time": "25:00", "players": "many",
                                      "entry_fe": 500}])
        err = error(data)
        assert sorted((p.rule, p.path) for p in err.problems) == [
            ("SCENARIO", "horizon.start"),
            ("SCENARIO", "tournaments[0].entry_fe"),
            ("SCENARIO", "tournaments[0].players"),
            ("SCENARIO", "tournaments[0].start_time")]
        assert str(err).startswith("4 problem(s) in the scenario:\n")

    def test_input_rules_reported_together(self) -> None:
        # three Maine rules broken in one tournament, one in the organization
        data = scenario(operators=[{**ME_OP, "beneficiaries": []}],
                        tournaments=[{**ME_GAME, "players": 101, "entry_fee": 101,
                                      "prize_share": 0.7}])
        assert problems(data) == [("ME-BENEFICIARY", "operators[0].beneficiaries"),
                                  ("ME-PLAYER-CAP", "tournaments[0].players"),
                                  ("ME-ENTRY-CAP", "tournaments[0].entry_fee"),
                                  ("ME-PRIZES", "tournaments[0].prize_share")]

    def test_an_unreadable_count_is_said_once_not_judged_by_its_default(self) -> None:
        # count "many" cannot be read: its own problem is said; required 2 and 3 fixed
        # dates are not then judged against the default count 1 ("required (2) exceeds
        # count (1)" would be about a value nobody wrote); a fixed date outside the horizon
        # (2030) is wrong whatever the count: said
        data = scenario(tournaments=[{**LARGE, "count": "many", "required": 2,
                                      "fixed_dates": ["2030-01-05", "2027-03-13",
                                                      "2027-03-20"]}])
        assert problems(data) == [("SCENARIO", "tournaments[0].count"),
                                  ("SCENARIO", "tournaments[0].fixed_dates[0]")]

    def test_a_fixed_date_outside_the_horizon_hides_no_other_rule_of_its_tournament(
            self) -> None:
        # fixed_dates[1] (2030) is outside the horizon: that date is left out of the rules'
        # pass, not the tournament, so its entry fee of $999,999 still breaks MT-ENTRY-CAP
        # (the cap $1,875 a participant pays in all)
        data = scenario(tournaments=[{**LARGE, "count": 2, "entry_fee": 999_999,
                                      "fixed_dates": ["2027-03-13", "2030-01-05"]}])
        assert problems(data) == [("SCENARIO", "tournaments[0].fixed_dates[1]"),
                                  ("MT-ENTRY-CAP", "tournaments[0].entry_fee")]


# ---------------------------------------------------------------------------- YAML files
BAD_YAML = """\
name: Bad
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-01
operators:
  - {id: room-a, name: Room A, jurisdiction: MT, live_tables: 0}
tournaments:
  - {id: deep, title: Deep, type: large-stakes, operators: [room-a], entry_fee: 500, reentries: 3}
"""


class TestYamlFiles:
    def test_docs_error_example_reproduced(self, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
        write(tmp_path, BAD_YAML, "bad.yaml")
        monkeypatch.chdir(tmp_path)
        err = error("bad.yaml")
        # entry $500 x (1 + 3 re-entries) = $2,000 > $1,875
        assert str(err) == (
            "2 problem(s) in bad.yaml:\n"
            "  bad.yaml:5: operators[0].live_tables = 0: a tournament permit needs at least one "
            "permitted live card game table (live_tables >= 1) "
            "(MT-PERMIT-PREREQ, MCA 23-5-317(1)(a))\n"
            "  bad.yaml:7: tournaments[0].entry_fee = 500: a participant could pay $2,000 in all "
            "(entry $500 x 4 + rebuys $0 x 0 + add-on $0); the cap is $1,875 "
            "(MT-ENTRY-CAP, MCA 23-5-317(1)(g))")

    def test_line_numbers(self, tmp_path: Path) -> None:
        path = write(tmp_path, """\
name: Bad
horizon: {start: "2027-02-30", end: 2027-12-31}
notice_from: 2026-12-01
operators:
  - id: room-a
    name: Room A
    jurisdiction: MT
    live_tables: 1
tournaments:
  - id: deep
    title: Deep
    type: large-stakes
    operators: [room-a]
    start_time: "25:00"
    entry_fe: 500
    players: many
""")
        err = error(path)
        assert err.file == str(path)
        assert sorted((p.line, p.path) for p in err.problems) == [
            (2, "horizon.start"), (14, "tournaments[0].start_time"),
            (15, "tournaments[0].entry_fe"), (16, "tournaments[0].players")]
        assert f"{path}:15: tournaments[0].entry_fe: unknown field; did you mean " \
               f"'entry_fee'? (SCENARIO)" in str(err)

    def test_line_numbers_of_input_rules(self, tmp_path: Path) -> None:
        path = write(tmp_path, """\
name: Maine
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-01
operators:
  - id: post
    name: Post 1
    jurisdiction: ME
    local_approval: false
    beneficiaries: [Food Bank]
    organized_on: 1990-01-01
tournaments:
  - id: holdem
    title: Hold'em
    type: tournament-game
    operators: [post]
    players: 101
    entry_fee: 100
    prize_share: 0.8
""")
        assert [(p.rule, p.line) for p in error(path).problems] == [
            ("ME-LOCAL-APPROVAL", 8), ("ME-PLAYER-CAP", 16)]

    def test_yaml_syntax_error(self, tmp_path: Path) -> None:
        path = write(tmp_path, "name: x\nhorizon: {start: 2027-01-01\noperators: []\n")
        [p] = error(path).problems
        # the flow mapping opened on line 2 is still open when line 3's "operators:" comes
        assert (p.rule, p.path, p.line) == ("SCENARIO", "<yaml>", 3)
        assert p.message.startswith("not valid YAML")
        # shown with the file and line, no field name (the whole file is at fault)
        assert p.render("s.yaml").startswith("s.yaml:3: not valid YAML")

    def test_a_workbook_that_cannot_be_read_is_named_without_a_cell(
            self, tmp_path: Path) -> None:
        # not a workbook at all (a text file named .xlsx): the file, then what is wrong
        path = write(tmp_path, "name: x\n", "plan.xlsx")
        text = str(error(path))
        assert f"  {path}: cannot be read as an Excel workbook (.xlsx)" in text, text
        assert "<file>" not in text

    def test_a_key_given_twice_names_both_lines(self, tmp_path: Path) -> None:
        path = write(tmp_path, "name: x\nhorizon: {start: 2027-01-01, end: 2027-12-31}\n"
                               "name: y\noperators: []\n")
        [p] = error(path).problems
        assert p.render("s.yaml") == ("s.yaml:3: not valid YAML: the key 'name' appears "
                                      "twice (first on line 1) (SCENARIO)")

    def test_unquoted_times_are_read_as_text(self, tmp_path: Path) -> None:
        path = write(tmp_path, """\
name: Times
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-01
operators:
  - id: post
    name: Post 1
    jurisdiction: ME
    local_approval: true
    beneficiaries: [Food Bank]
    organized_on: 1990-01-01
    other_games: [{weekday: tue, start: 18:00, end: 01:00}]
tournaments:
  - {id: holdem, title: Hold'em, type: tournament-game, operators: [post], players: 80,
     entry_fee: 100, prize_share: 0.8, start_time: 18:00, hours: 48:00}
""")
        sc = load_scenario(path)
        # YAML 1.1 would read 18:00 as the sexagesimal integer 18 x 60 + 0 = 1080
        raw = yaml.safe_load(path.read_text())
        assert raw["tournaments"][0]["start_time"] == 1080
        assert sc.tournaments[0].start_time == dt.time(18, 0)
        assert sc.tournaments[0].hours == Decimal(48)
        g = sc.operators[0].other_games[0]
        assert (g.start, g.end) == (dt.time(18, 0), dt.time(1, 0))

    def test_unquoted_dates_and_quoted_range(self, tmp_path: Path) -> None:
        path = write(tmp_path, """\
name: Dates
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-01
operators:
  - {id: room-a, name: Room A, jurisdiction: MT, live_tables: 1,
     blackout: [2027-07-04, "2027-12-24..2027-12-26"]}
""")
        sc = load_scenario(path)
        assert sc.horizon.start == dt.date(2027, 1, 1)
        assert sc.operators[0].blackout == (dt.date(2027, 7, 4), dt.date(2027, 12, 24),
                                            dt.date(2027, 12, 25), dt.date(2027, 12, 26))

    def test_unquoted_bad_date(self, tmp_path: Path) -> None:
        path = write(tmp_path, BAD_YAML.replace("start: 2027-01-01", "start: 2027-02-30"))
        err = error(path)
        assert [(p.rule, p.path, p.line) for p in err.problems][0] == (
            "SCENARIO", "horizon.start", 2)

    def test_empty_file(self, tmp_path: Path) -> None:
        assert problems(write(tmp_path, "")) == [("SCENARIO", "<top>")]

    def test_top_level_list(self, tmp_path: Path) -> None:
        assert problems(write(tmp_path, "- a\n- b\n")) == [("SCENARIO", "<top>")]

    def test_missing_file(self, tmp_path: Path) -> None:
        [p] = error(tmp_path / "nope.yaml").problems
        assert (p.rule, p.path) == ("SCENARIO", "<file>")
        assert p.message.startswith("cannot read the file")

    def test_not_utf8(self, tmp_path: Path) -> None:
        path = tmp_path / "latin1.yaml"
        path.write_bytes("name: Caf\u00e9\n".encode("latin-1"))
        [p] = error(path).problems
        assert (p.path, p.message) == ("<file>", "the file is not UTF-8 text")


# ---------------------------------------------------------------------------- defaults
class TestDefaults:
    @staticmethod
    def _sc() -> Scenario:
        data = scenario(operators=[MT_OP, ME_OP], tournaments=[LARGE])
        del data["notice_from"]
        return load_scenario(data, today=dt.date(2026, 11, 15))

    def test_top_level(self) -> None:
        sc = self._sc()
        assert sc.notice_from == dt.date(2026, 11, 15)  # `today`
        s = sc.settings
        assert (s.month_rule, s.tier_coverage, s.reentry_counts_toward_cap) == ("touch", "up",
                                                                                True)

    def test_notice_from_defaults_to_the_current_date(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("TOURNEY_AS_OF", raising=False)  # the suite's day (conftest)
        data = scenario()
        del data["notice_from"]
        # today in the operators' zones, the latest of them: Montana's America/Denver and
        # Maine's America/New_York, New York two hours ahead; never the machine's UTC date
        # (from 00:00 to 05:00 UTC it is already tomorrow there)
        new_york = ZoneInfo("America/New_York")
        before = dt.datetime.now(new_york).date()
        sc = load_scenario(data)
        assert before <= sc.notice_from <= dt.datetime.now(new_york).date()

    def test_tournaments_default_to_none(self) -> None:
        data = scenario()
        del data["tournaments"]
        assert load_scenario(data).tournaments == ()

    def test_operators(self) -> None:
        mt, me = self._sc().operators
        assert (mt.timezone, mt.tz.key) == (None, "America/Denver")
        assert (me.timezone, me.tz.key) == (None, "America/New_York")
        assert mt.max_concurrent == me.max_concurrent == 1
        assert mt.blackout == me.blackout == ()
        assert mt.address is None
        assert mt.permit_year_start == "07-01"
        held = mt.held_in_current_permit_year
        assert (held.large_stakes, held.charitable, held.permits) == (0, 0, ())
        assert mt.late_hours_ordinance is False
        assert me.owns_premises is False
        assert me.other_games == ()
        assert me.organization_type == "nonprofit"
        assert me.licensed_establishment is None

    def test_permit_year_default_july_1(self) -> None:
        mt = self._sc().operators[0]
        # Jun 30 2027 is in the year from Jul 1 2026; Jul 1 2027 starts the next one
        assert mt.permit_year_of(dt.date(2027, 6, 30)) == dt.date(2026, 7, 1)
        assert mt.permit_year_of(dt.date(2027, 7, 1)) == dt.date(2027, 7, 1)

    def test_tournament(self) -> None:
        t = self._sc().tournaments[0]
        assert (t.charitable, t.days, t.start_time, t.hours) == (False, 1, dt.time(12, 0), 10)
        assert (t.count, t.required, t.priority, t.min_gap_days) == (1, 0, 1, 0)
        assert (t.window, t.weekdays, t.prefer_weekdays, t.fixed_dates) == (None, None, (), ())
        assert (t.players, t.entry_fee, t.reentries, t.rebuy_fee, t.max_rebuys,
                t.addon_fee) == (None, 0, 0, 0, 0, 0)
        assert (t.charity_share, t.prize_share, t.rake, t.satellite) == (None, None, False,
                                                                         None)
        assert (t.elimination, t.license_surcharge_total, t.raffles, t.raffle_prize,
                t.high_hand_competitions) == (True, 0, 0, 0, 0)
        assert (t.organizer_member_years, t.description) == (None, None)


# ---------------------------------------------------------------------------- every field
EVERY_FIELD = """\
name: Every field 2027
horizon: {start: 2027-01-01, end: 2027-12-31}
notice_from: 2026-12-20
settings:
  month_rule: start
  tier_coverage: exact
  reentry_counts_toward_cap: false
  surcharge_cap: flat
  super_cribbage_licenses_issued: {2027: 3}
operators:
  - id: room-a
    name: Bitterroot Card Room
    jurisdiction: MT
    timezone: America/Boise
    address: 2815 Brooks St, Missoula, MT 59801
    blackout: [2027-07-04, "2027-12-24..2027-12-26"]
    max_concurrent: 2
    live_tables: 6
    permit_year_start: "02-01"
    held_in_current_permit_year: {large_stakes: 9, charitable: 1, permits: [small-stakes]}
    late_hours_ordinance: true
  - id: room-b
    name: Club Montana
    jurisdiction: MT
    live_tables: 1
  - id: post-212
    name: American Legion Post 212
    jurisdiction: ME
    timezone: America/New_York
    owns_premises: true
    local_approval: true
    beneficiaries: [Post 212 Scholarship Fund, Veterans Relief Fund]
    other_games: [{weekday: tue, start: "18:00", end: "01:00"}]
    organization_type: volunteer-fire-department
    organized_on: 1946-05-12
    licensed_establishment: restaurant
tournaments:
  - id: deepstack
    title: Deepstack Series
    type: large-stakes
    operators: [room-a, room-b]
    charitable: true
    description: Half of the entry fees go to the food bank.
    days: 3
    start_time: "12:00"
    hours: 14
    window: {start: 2027-02-01, end: 2027-11-30}
    weekdays: [fri, sat]
    prefer_weekdays: [fri]
    fixed_dates: [2027-03-05]
    min_gap_days: 75
    count: 3
    required: 2
    priority: 20
    players: 120
    entry_fee: 375
    reentries: 3
    rebuy_fee: 100
    max_rebuys: 2
    addon_fee: 50
    charity_share: 0.5
    rake: false
    satellite: {seat_value: 1500, expected_top_prize: 1500}
  - id: wednesday
    title: Wednesday Small Stakes
    type: small-stakes
    operators: [room-a]
    count: all
    weekdays: [wed]
    start_time: "19:00"
    hours: "4:30"
    entry_fee: 62.50
  - id: holdem
    title: Saturday Hold'em
    type: tournament-game
    operators: [post-212]
    count: 12
    weekdays: [sat]
    start_time: 12:00
    hours: "48:00"
    players: 150
    entry_fee: 100
    prize_share: 0.8
    elimination: true
    license_surcharge_total: 125
    raffles: 1
    raffle_prize: 2000
    high_hand_competitions: 1
  - id: super
    title: Super Cribbage Weekend
    type: super-cribbage
    operators: [post-212]
    players: 120
    hours: 72
    entry_fee: 60
    prize_share: 0.75
    charity_share: 0.5
    organizer_member_years: 8
  - id: crib-night
    title: Cribbage Night
    type: charitable-cribbage
    operators: [post-212]
    entry_fee: 25
    prize_share: 0.9
    charity_share: 0.1
"""


class TestEveryField:
    """Every field of docs/scenario.md, set to a non-default value, read back."""

    @pytest.fixture
    def sc(self, tmp_path: Path) -> Scenario:
        return load_scenario(write(tmp_path, EVERY_FIELD))

    def test_top_level(self, sc: Scenario) -> None:
        assert sc.name == "Every field 2027"
        assert (sc.horizon.start, sc.horizon.end) == (dt.date(2027, 1, 1), dt.date(2027, 12, 31))
        assert sc.notice_from == dt.date(2026, 12, 20)
        assert (sc.settings.month_rule, sc.settings.tier_coverage,
                sc.settings.reentry_counts_toward_cap) == ("start", "exact", False)
        assert sc.settings.surcharge_cap == "flat"
        assert sc.settings.super_cribbage_licenses_issued == {2027: 3}
        assert [t.id for t in sc.tournaments] == ["deepstack", "wednesday", "holdem", "super",
                                                  "crib-night"]

    def test_montana_operator(self, sc: Scenario) -> None:
        op = sc.operator("room-a")
        assert (op.id, op.name, op.jurisdiction) == ("room-a", "Bitterroot Card Room", "MT")
        assert op.tz.key == "America/Boise"
        assert op.address == "2815 Brooks St, Missoula, MT 59801"
        # Jul 4 + Dec 24..26 = 1 + 3 = 4 days
        assert len(op.blackout) == 4
        assert op.max_concurrent == 2
        assert op.live_tables == 6
        # 02-01, not 01-01: held history on horizon.start = a permit year's first day is an
        # input error (MT-LARGE-LIMIT); 2027-01-01 lies in the permit year from 2026-02-01
        assert op.permit_year_start == "02-01"
        assert op.permit_year_of(dt.date(2027, 6, 30)) == dt.date(2027, 2, 1)
        assert op.permit_year_of(dt.date(2027, 1, 1)) == dt.date(2026, 2, 1)
        held = op.held_in_current_permit_year
        assert (held.large_stakes, held.charitable, held.permits) == (9, 1, ("small-stakes",))
        assert op.late_hours_ordinance is True
        assert sc.operator("room-b").tz.key == "America/Denver"

    def test_maine_operator(self, sc: Scenario) -> None:
        op = sc.operator("post-212")
        assert op.tz.key == "America/New_York"
        assert op.owns_premises is True and op.local_approval is True
        assert op.beneficiaries == ("Post 212 Scholarship Fund", "Veterans Relief Fund")
        [g] = op.other_games
        assert (g.weekday, g.start, g.end) == ("tue", dt.time(18, 0), dt.time(1, 0))
        assert op.organization_type == "volunteer-fire-department"
        assert op.organized_on == dt.date(1946, 5, 12)
        assert op.licensed_establishment == "restaurant"

    def test_montana_large_stakes(self, sc: Scenario) -> None:
        t = sc.tournament("deepstack")
        assert (t.title, t.type, t.operators) == ("Deepstack Series", "large-stakes",
                                                  ("room-a", "room-b"))
        assert t.charitable is True
        assert t.description == "Half of the entry fees go to the food bank."
        assert (t.days, t.start_time, t.hours) == (3, dt.time(12, 0), 14)
        assert t.window is not None
        assert (t.window.start, t.window.end) == (dt.date(2027, 2, 1), dt.date(2027, 11, 30))
        assert (t.weekdays, t.prefer_weekdays) == (("fri", "sat"), ("fri",))
        assert t.fixed_dates == (dt.date(2027, 3, 5),)
        assert (t.min_gap_days, t.count, t.required, t.priority) == (75, 3, 2, 20)
        assert t.players == 120
        assert (t.entry_fee, t.reentries, t.rebuy_fee, t.max_rebuys, t.addon_fee) == (
            375, 3, 100, 2, 50)
        assert (t.charity_share, t.rake) == (Decimal("0.5"), False)
        assert t.satellite is not None
        assert (t.satellite.seat_value, t.satellite.expected_top_prize) == (1500, 1500)

    def test_montana_small_stakes(self, sc: Scenario) -> None:
        t = sc.tournament("wednesday")
        assert (t.count, t.weekdays, t.start_time) == ("all", ("wed",), dt.time(19, 0))
        assert t.hours == Decimal("4.5")          # 4 h + 30/60 h
        assert t.entry_fee == Decimal("62.50")

    def test_maine_games(self, sc: Scenario) -> None:
        t = sc.tournament("holdem")
        assert (t.start_time, t.hours, t.players) == (dt.time(12, 0), 48, 150)
        assert (t.entry_fee, t.prize_share, t.elimination) == (100, Decimal("0.8"), True)
        assert (t.license_surcharge_total, t.raffles, t.raffle_prize,
                t.high_hand_competitions) == (125, 1, 2000, 1)
        s = sc.tournament("super")
        assert (s.players, s.hours, s.entry_fee) == (120, 72, 60)
        assert (s.prize_share, s.charity_share, s.organizer_member_years) == (
            Decimal("0.75"), Decimal("0.5"), 8)
        c = sc.tournament("crib-night")
        assert (c.type, c.entry_fee, c.prize_share, c.charity_share) == (
            "charitable-cribbage", 25, Decimal("0.9"), Decimal("0.1"))

    def test_round_trip(self, sc: Scenario, tmp_path: Path) -> None:
        again = load_scenario(write(tmp_path, sc.to_yaml(), "again.yaml"))
        assert again == sc


class TestDocumentedExamples:
    def test_docs_short_example_loads(self, tmp_path: Path) -> None:
        text = (ROOT / "docs" / "scenario.md").read_text(encoding="utf-8")
        # the first whole scenario (a name and a horizon) among the YAML blocks
        block = next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S)
                     if "\nhorizon:" in "\n" + b)
        sc = load_scenario(write(tmp_path, block))
        assert [o.id for o in sc.operators] == ["room-a", "post-212"]
        assert [t.id for t in sc.tournaments] == ["deepstack", "wednesday", "holdem"]

    @pytest.mark.parametrize("name", ["montana-card-room.yaml", "maine-legion-post.yaml",
                                      "combined.yaml"])
    def test_examples_load_and_round_trip(self, name: str, tmp_path: Path) -> None:
        sc = load_scenario(ROOT / "data" / "examples" / name)
        assert load_scenario(write(tmp_path, sc.to_yaml())) == sc
        # a plan folder's scenario.yaml: JSON, each operator and tournament one line
        text = sc.to_json_yaml()
        lines = text.splitlines()
        assert lines[0].startswith("# The scenario of this plan, as JSON")
        for record in (*sc.operators, *sc.tournaments):
            assert sum(x.startswith(f'  {{"id": "{record.id}", ') for x in lines) == 1
        assert load_scenario(write(tmp_path, text)) == sc


def test_model_copy_does_not_keep_the_originals_id_index() -> None:
    # with_pins and decomposition copy a scenario with new tournaments; a lookup by id on the
    # copy must find the copy's tournament, not the original's cached one
    sc = load_scenario(ROOT / "data" / "examples" / "combined.yaml")
    first = sc.tournaments[0]
    assert sc.tournament(first.id) is first  # fills the original's cache
    renamed = first.model_copy(update={"title": "Renamed"})
    copy = sc.model_copy(update={"tournaments": (renamed, *sc.tournaments[1:])})
    assert copy.tournament(first.id).title == "Renamed"
    assert sc.tournament(first.id).title == first.title
