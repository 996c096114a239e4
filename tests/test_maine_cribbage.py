"""Super cribbage and charitable cribbage as 17 M.R.S. § 1836(4-A) and (4-B) have them, the
displayed rules and licence (§ 1836(4)), and the licence-fee surcharge reading (issue #10 part 6).

- ME-SUPER-CRIBBAGE (4-A)(A): a nationally chartered 501(c)(3) organization of tournament
  cribbage (``organization_type: national-cribbage-501c3``) may conduct a super cribbage
  tournament when its principal organizer has been a member >= 3 years; ME-ELIGIBLE's 2 years
  in Maine (§ 1832(2)) do not apply to it, and it may hold no other licensed game.
- ME-SUPER-CRIBBAGE (4-A): the 15 licences a year are statewide; those already issued to
  organizations outside the file (``settings.super_cribbage_licenses_issued``) count.
- ME-CRIBBAGE-REG (4-B): a registered charitable cribbage tournament is not licensed, so
  ME-OTHER-GAMES does not bind it.
- ME-DISPLAY (4): "shall display the rules of the tournament game and the license issued".
- ME-ENTRY-CAP (4): the surcharge "to defray the cost of the license fee" totals at most $125;
  ``surcharge_cap: license-fee`` (default) also at most the licence fee, ``flat`` only $125.

Each case goes through the model (``solve``) and the independent check (``constraints.registry
.check`` on a hand-built ``Audit``, and ``tourney check`` on a hand-written schedule.csv).
Every expected value is worked out by hand in the comment beside it.

Calendar facts (2027): Mar 2 is a Tuesday, Mar 6 a Saturday; Maine is on EST (UTC-5) until
Sun Mar 14.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import icalendar
import pytest
import yaml
from typer.testing import CliRunner

from constraints.base import Audit, License, Occurrence
from constraints.registry import check, checklist
from scheduler.cli import app
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario
from scheduler.core.timing import timing, tournament_tz
from scheduler.engine.solver import solve
from scheduler.export.checklist import readings
from scheduler.export.ical import calendar_files
from scheduler.export.summary import summary_text
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan

runner = CliRunner()

# ------------------------------------------------------------------------------- builders
NATIONAL: dict[str, Any] = {
    # a nationally chartered cribbage 501(c)(3): no organized_on (nothing organized in Maine)
    "id": "acc", "name": "American Cribbage Congress", "jurisdiction": "ME",
    "organization_type": "national-cribbage-501c3", "local_approval": True,
    "beneficiaries": ["Maine Children's Cancer Program"],
}
POST: dict[str, Any] = {
    "id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
    "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
    "organized_on": "1990-01-01",
}
BEANO = {"weekday": "tue", "start": "18:00", "end": "22:00"}
PUB: dict[str, Any] = {
    # a licensed restaurant that is also an eligible Maine nonprofit, with Tuesday beano
    "id": "pub", "name": "Harbor Pub", "jurisdiction": "ME",
    "licensed_establishment": "restaurant", "local_approval": True,
    "beneficiaries": ["Harbor Food Pantry"], "organized_on": "1990-01-01",
    "other_games": [BEANO],
}


def super_cribbage(**kw: Any) -> dict[str, Any]:
    """A super cribbage tournament of ``acc``: 60 players, $50, 75 % prizes, half of the rest
    to charity, organizer a member for 3 years, Saturday 09:00 for 30 h."""
    return {"id": "sc", "title": "Super Cribbage", "type": "super-cribbage",
            "operators": ["acc"], "players": 60, "entry_fee": 50, "prize_share": 0.75,
            "charity_share": 0.5, "organizer_member_years": 3, "start_time": "09:00",
            "hours": 30, **kw}


def game(**kw: Any) -> dict[str, Any]:
    """A tournament game of ``post``: 40 players (tier 1-50, per-tournament licence $40)."""
    return {"id": "g", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
            "players": 40, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, **kw}


def cribbage_night(**kw: Any) -> dict[str, Any]:
    """The pub's registered charitable cribbage night, Tuesday 18:00-22:00 (beano's hours)."""
    return {"id": "crib", "title": "Cribbage Night", "type": "charitable-cribbage",
            "operators": ["pub"], "entry_fee": 25, "prize_share": 1, "start_time": "18:00",
            "hours": 4, **kw}


def scenario(tournaments: list[dict[str, Any]], operators: list[dict[str, Any]],
             **top: Any) -> dict[str, Any]:
    """A 2027 scenario; notice_from 2026-11-01 keeps ME-APPLICATION-WINDOW out of the way."""
    return {"name": "Maine cribbage", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
            "notice_from": "2026-11-01", "operators": operators, "tournaments": tournaments,
            **top}


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule, path) of each problem of the ScenarioError ``load_scenario(data)`` raises."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario(data)
    return [(p.rule, p.path) for p in exc.value.problems]


def run(sc: Scenario) -> Plan:
    return solve(sc, time_limit=10, seed=0, workers=1)


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def at(sc: Scenario, tid: str, day: str, n: int = 1) -> Occurrence:
    t = sc.tournament(tid)
    tm = timing(t, tournament_tz(sc, t), d(day))
    assert tm is not None
    return Occurrence(t, n, tm)


def licence(p: Occurrence, kind: str, tier: str, fee: int) -> License:
    t = p.tournament
    return License(f"{t.operators[0]}/{kind}/{p.ref}", t.operators[0], "ME", kind, tier,
                   p.first_day, p.timing.last_day, fee, (p.ref,))


def broken(sc: Scenario, placed: list[Occurrence], bought: list[License]) -> list[str]:
    return [v.rule for v in check(Audit(sc, placed, bought))]


# ------------------------------------------------------------------------------- tourney check
HEADER = ("tournament_id,occurrence,operator_id,jurisdiction,type,charitable,title,start,end,"
          "first_day,last_day,notice_due,permit_year,counted,players,license_id,uid\n")


def csv_row(t: dict[str, Any], occ: int, op: str, start: str, end: str) -> str:
    """A schedule.csv row as the product writes it (Maine: no notice_due, no permit_year)."""
    counted = t["type"] in ("tournament-game", "super-cribbage")
    first, last = start[:10], end[:10]
    return ",".join([t["id"], str(occ), op, "ME", t["type"], "false", t["title"], start, end,
                     first, last, "", "", "true" if counted else "false",
                     str(t.get("players", "")), "", f"{t['id']}-{occ}@{op}.tourney"]) + "\n"


def tourney_check(folder: Path, data: dict[str, Any], schedule: str) -> Any:
    folder.mkdir(parents=True, exist_ok=True)
    sc = folder / "scenario.yaml"
    sc.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    path = folder / "schedule.csv"
    path.write_text(schedule, encoding="utf-8")
    return runner.invoke(app, ["check", str(sc), str(path), "--format", "json"])


def rules_found(res: Any) -> list[tuple[str, str, str]]:
    return [(v["rule"], v["tournament_id"], v["dates"]) for v in json.loads(res.stdout)
            if v["rule"] != "UNMATCHED"]


# =============================================================================== (4-A)(A)
class TestNationalCribbageOrganization:
    """17 M.R.S. § 1836(4-A)(A): "may be conducted by a nationally chartered organization that
    organizes tournament-style cribbage games and that is exempt from taxation under ...
    Section 501(c)(3) so long as the principal organizer has been a member of that organization
    for a period of not less than 3 years"."""

    def test_three_year_member_without_maine_history_is_legal(self) -> None:
        # no organized_on at all: ME-ELIGIBLE's 2 years in Maine do not apply to it
        sc = load_scenario(scenario([super_cribbage()], [NATIONAL]))
        assert sc.operators[0].organization_type == "national-cribbage-501c3"
        assert sc.operators[0].organized_on is None

    def test_organized_last_month_is_still_legal(self) -> None:
        # an organized_on less than 2 years before the plan would fail ME-ELIGIBLE for a
        # Maine nonprofit (test below); for the national organization it is not asked
        load_scenario(scenario([super_cribbage()],
                               [{**NATIONAL, "organized_on": "2026-12-01"}]))

    def test_maine_nonprofit_without_history_is_refused(self) -> None:
        # the contrast: the same operator as a Maine nonprofit needs organized_on
        nonprofit = {k: v for k, v in NATIONAL.items() if k != "organization_type"}
        assert problems(scenario([super_cribbage()], [nonprofit])) == [
            ("ME-ELIGIBLE", "operators[0].organized_on")]

    @pytest.mark.parametrize("years", [2, 0, None])
    def test_member_for_less_than_3_years_is_an_input_error(self, years: int | None) -> None:
        data = scenario([super_cribbage(organizer_member_years=years)], [NATIONAL])
        assert problems(data) == [
            ("ME-SUPER-CRIBBAGE", "tournaments[0].organizer_member_years")]
        with pytest.raises(ScenarioError) as exc:
            load_scenario(data)
        text = str(exc.value)
        assert "tournaments[0].organizer_member_years" in text
        assert "at least 3 years" in text and "ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)" in text

    def test_tournament_game_is_not_allowed(self) -> None:
        # (4-A)(A) is an exception for super cribbage only; a tournament game needs an
        # organization eligible under § 1832(2) (ME-ELIGIBLE)
        data = scenario([super_cribbage(), game(operators=["acc"])], [NATIONAL])
        assert problems(data) == [("ME-ELIGIBLE", "tournaments[1].operators")]

    def test_solver_places_it_with_a_75_dollar_licence(self) -> None:
        sc = load_scenario(scenario([super_cribbage(fixed_dates=["2027-03-06"])], [NATIONAL]))
        plan = run(sc)
        # Sat 2027-03-06 09:00 + 30 h = Sun 2027-03-07 15:00 (EST both days)
        assert [(r.first_day, r.last_day) for r in plan.rows] == [
            (d("2027-03-06"), d("2027-03-07"))]
        assert plan.unscheduled_list == ()
        # one super cribbage licence, $75 (§ 1836(4-A))
        assert [(lic.operator_id, lic.kind, lic.fee_usd) for lic in plan.license_list] == [
            ("acc", "me-super-cribbage", 75)]
        assert plan.total_fees_usd == 75

    def test_checker_passes_it(self, tmp_path: Path) -> None:
        data = scenario([super_cribbage()], [NATIONAL])
        sc = load_scenario(data)
        p = at(sc, "sc", "2027-03-06")
        assert broken(sc, [p], [licence(p, "me-super-cribbage", "51-100", 75)]) == []
        t = super_cribbage()
        res = tourney_check(tmp_path, data, HEADER + csv_row(
            t, 1, "acc", "2027-03-06T09:00:00-05:00", "2027-03-07T15:00:00-05:00"))
        assert res.exit_code == 0, res.output
        assert rules_found(res) == []


# =============================================================================== 15 statewide
class TestLicencesIssuedElsewhere:
    """ME-SUPER-CRIBBAGE, § 1836(4-A): "may issue up to 15 licenses per year" statewide; the
    licences issued to organizations outside the file count
    (``settings.super_cribbage_licenses_issued``)."""

    @staticmethod
    def _sc(issued: dict[int, int], count: int = 5) -> Scenario:
        return load_scenario(scenario(
            [super_cribbage(count=count, weekdays=["sat"], hours=10)], [NATIONAL],
            settings={"super_cribbage_licenses_issued": issued}))

    def test_11_issued_5_wanted_4_placed(self) -> None:
        plan = run(self._sc({2027: 11}))
        # 15 - 11 = 4 licences left in 2027: 4 of the 5 placed, 4 x $75 = $300
        assert len(plan.rows) == 4
        assert [(u.tournament_id, u.occurrence, u.rule_ids[0])
                for u in plan.unscheduled_list] == [("sc", 5, "ME-SUPER-CRIBBAGE")]
        assert plan.total_fees_usd == 300
        # the usage table counts the 11 issued elsewhere: 11 + 4 = 15 of 15
        use = plan.usage()
        row = use[use.rule_id == "ME-SUPER-CRIBBAGE"]
        assert (int(row.used.iloc[0]), int(row.limit.iloc[0])) == (15, 15)

    def test_10_issued_5_wanted_5_placed(self) -> None:
        plan = run(self._sc({2027: 10}))
        # 15 - 10 = 5 left: all 5 placed, 5 x $75 = $375
        assert len(plan.rows) == 5 and plan.unscheduled_list == ()
        assert plan.total_fees_usd == 375

    def test_15_issued_none_placed(self) -> None:
        plan = run(self._sc({2027: 15}, count=1))
        # 15 - 15 = 0 left
        assert plan.rows == () and plan.total_fees_usd == 0
        assert plan.unscheduled_list[0].rule_ids[0] == "ME-SUPER-CRIBBAGE"

    def test_issued_in_another_year_does_not_count(self) -> None:
        plan = run(self._sc({2028: 15}))
        # the plan's games are all in 2027; 2028's 15 leave 2027's 15 whole: 5 placed
        assert len(plan.rows) == 5

    def test_checker_fifth_is_the_16th_licence(self) -> None:
        sc = self._sc({2027: 11})
        days = ["2027-03-06", "2027-04-03", "2027-05-01", "2027-06-05", "2027-07-03"]
        placed = [at(sc, "sc", day, n) for n, day in enumerate(days, start=1)]
        bought = [licence(p, "me-super-cribbage", "51-100", 75) for p in placed]
        vs = check(Audit(sc, placed, bought))
        # 11 issued + 5 = 16 > 15: the 5th by date (Jul 3) is the 16th licence of 2027
        assert [(v.rule, v.refs, v.dates) for v in vs] == [
            ("ME-SUPER-CRIBBAGE", ("sc#5",), "2027-07-03")]
        assert "16th super cribbage licence of 2027" in vs[0].message
        assert "11 already issued" in vs[0].message
        # its legal twin: the first 4 (11 + 4 = 15)
        assert broken(sc, placed[:4], bought[:4]) == []

    def test_tourney_check_counts_them(self, tmp_path: Path) -> None:
        t = super_cribbage(count=5, weekdays=["sat"], hours=10)
        days = ["2027-03-06", "2027-04-03", "2027-05-01", "2027-06-05", "2027-07-03"]
        # Saturdays 09:00 + 10 h = 19:00; EDT (UTC-4) from Mar 14, so Mar 6 is -05:00
        rows = [csv_row(t, n, "acc", f"{day}T09:00:00{'-05:00' if n == 1 else '-04:00'}",
                        f"{day}T19:00:00{'-05:00' if n == 1 else '-04:00'}")
                for n, day in enumerate(days, start=1)]
        data = scenario([t], [NATIONAL], settings={"super_cribbage_licenses_issued": {2027: 11}})
        res = tourney_check(tmp_path / "bad", data, HEADER + "".join(rows))
        assert res.exit_code == 1, res.output
        assert rules_found(res) == [("ME-SUPER-CRIBBAGE", "sc", "2027-07-03")]
        res = tourney_check(tmp_path / "good", data, HEADER + "".join(rows[:4]))
        assert res.exit_code == 0, res.output

    def test_more_than_15_issued_is_an_input_error(self) -> None:
        data = scenario([super_cribbage()], [NATIONAL],
                        settings={"super_cribbage_licenses_issued": {2027: 16}})
        assert problems(data) == [
            ("ME-SUPER-CRIBBAGE", "settings.super_cribbage_licenses_issued[2027]")]
        negative = scenario([super_cribbage()], [NATIONAL],
                            settings={"super_cribbage_licenses_issued": {2027: -1}})
        assert problems(negative) == [
            ("SCENARIO", "settings.super_cribbage_licenses_issued[2027]")]

    def test_printed_with_the_readings(self) -> None:
        sc = self._sc({2028: 2, 2027: 11})
        # years sorted whatever order they were given in (byte-identical outputs)
        assert list(sc.settings.super_cribbage_licenses_issued) == [2027, 2028]
        given = [ln for ln in readings(sc) if "super_cribbage_licenses_issued" in ln]
        assert len(given) == 1 and "11 in 2027, 2 in 2028" in given[0]
        assert not any("super_cribbage_licenses_issued" in ln
                       for ln in readings(self._sc({})))


# =============================================================================== (4-B)
class TestCharitableCribbageAndOtherGames:
    """ME-CRIBBAGE-REG, § 1836(4-B): a registered charitable cribbage tournament is not a
    licensed tournament game, so ME-OTHER-GAMES (§ 1836(4)) does not bind it: the pub's
    Tuesday beano 18:00-22:00 does not block its cribbage night 18:00-22:00."""

    def test_solver_places_the_cribbage_night_on_beano_night(self) -> None:
        sc = load_scenario(scenario([cribbage_night(fixed_dates=["2027-03-02"])], [PUB]))
        plan = run(sc)
        # Tue 2027-03-02 18:00-22:00, exactly beano's hours; registration, no licence fee
        assert [(r.first_day, r.start.time(), r.end.time()) for r in plan.rows] == [
            (d("2027-03-02"), dt.time(18, 0), dt.time(22, 0))]
        assert plan.unscheduled_list == () and plan.total_fees_usd == 0

    def test_solver_refuses_a_licensed_game_on_beano_night(self) -> None:
        sc = load_scenario(scenario(
            [game(operators=["pub"], start_time="18:00", hours=4, fixed_dates=["2027-03-02"])],
            [PUB]))
        plan = run(sc)
        assert plan.rows == ()
        assert [(u.tournament_id, u.rule_ids) for u in plan.unscheduled_list] == [
            ("g", ("ME-OTHER-GAMES",))]

    def test_checker(self) -> None:
        sc = load_scenario(scenario([cribbage_night(), game(operators=["pub"],
                                                            start_time="18:00", hours=4)],
                                    [PUB]))
        night = at(sc, "crib", "2027-03-02")
        assert broken(sc, [night], []) == []
        licensed = at(sc, "g", "2027-03-02")
        assert broken(sc, [licensed], [licence(licensed, "me-per-tournament", "1-50", 40)]) \
            == ["ME-OTHER-GAMES"]

    def test_tourney_check(self, tmp_path: Path) -> None:
        night, licensed = cribbage_night(), game(operators=["pub"], start_time="18:00",
                                                 hours=4)
        data = scenario([night, licensed], [PUB])
        start, end = "2027-03-02T18:00:00-05:00", "2027-03-02T22:00:00-05:00"
        res = tourney_check(tmp_path / "good", data, HEADER + csv_row(night, 1, "pub", start,
                                                                       end))
        assert res.exit_code == 0, res.output
        res = tourney_check(tmp_path / "bad", data, HEADER + csv_row(licensed, 1, "pub", start,
                                                                      end))
        assert res.exit_code == 1, res.output
        assert rules_found(res) == [("ME-OTHER-GAMES", "g", "2027-03-02")]


# =============================================================================== ME-DISPLAY
class TestDisplay:
    """ME-DISPLAY, § 1836(4): "shall display the rules of the tournament game and the license
    issued": a checklist line of every licensed Maine game, in its calendar event."""

    LINE = "(ME-DISPLAY, 17 M.R.S. § 1836(4))."

    def test_checklist_of_licensed_games(self) -> None:
        sc = load_scenario(scenario([game(), super_cribbage(), cribbage_night()],
                                    [POST, NATIONAL, PUB]))
        for tid in ("g", "sc"):
            lines = checklist(sc, sc.tournament(tid))
            assert [ln for ln in lines if ln.endswith(self.LINE)] == [
                "Display the rules of the tournament game and the licence issued for it at "
                "the game " + self.LINE]
        # a registered charitable cribbage night is not licensed: no licensed-game duties
        assert checklist(sc, sc.tournament("crib")) == []

    def test_in_the_event_description(self) -> None:
        sc = load_scenario(scenario([game(fixed_dates=["2027-03-06"])], [POST]))
        plan = run(sc)
        cal = icalendar.Calendar.from_ical(
            calendar_files(plan, dt.datetime(2026, 11, 1, tzinfo=dt.UTC))["calendar.ics"])
        games = [e for e in cal.walk("VEVENT") if str(e["UID"]).startswith("g-")]
        assert len(games) == 1
        assert "Display the rules of the tournament game" in str(games[0]["DESCRIPTION"])
        assert "ME-DISPLAY" in str(games[0]["DESCRIPTION"])


# =============================================================================== surcharge
class TestSurchargeReading:
    """ME-ENTRY-CAP, § 1836(4): "may add to the player entry fee to defray the cost of the
    license fee, as long as the total additional amount collected from all players does not
    exceed $125". ``surcharge_cap: license-fee`` (default): also at most the licence fee, the
    game's per-tournament fee by tier (§ 1836(3-A)); ``flat``: $125 only."""

    def test_40_players_125_is_an_error_by_default(self) -> None:
        # 40 players: tier 1-50, per-tournament licence $40 (§ 1836(3-A)(C)(1));
        # min(40, 125) = 40 < 125 -> input error
        data = scenario([game(license_surcharge_total=125)], [POST])
        assert problems(data) == [("ME-ENTRY-CAP", "tournaments[0].license_surcharge_total")]
        with pytest.raises(ScenarioError) as exc:
            load_scenario(data)
        assert "at most $40" in str(exc.value) and "surcharge_cap: license-fee" in str(exc.value)

    def test_40_players_125_is_legal_when_flat(self) -> None:
        # flat: 125 <= 125
        sc = load_scenario(scenario([game(license_surcharge_total=125)], [POST],
                                    settings={"surcharge_cap": "flat"}))
        assert sc.settings.surcharge_cap == "flat"

    @pytest.mark.parametrize(("players", "ok", "bad"), [
        (40, 40, 41),     # 1-50: $40
        (50, 40, 41),     # 50 is still 1-50
        (51, 75, 76),     # 51-100: $75
        (100, 75, 76),
        (101, 125, 126),  # 101-150: $300, above $125: the flat cap binds
    ])
    def test_boundaries_by_tier(self, players: int, ok: int, bad: int) -> None:
        post = {**POST, "owns_premises": True}  # over 100 players only on owned premises
        load_scenario(scenario([game(players=players, license_surcharge_total=ok)], [post]))
        assert problems(scenario([game(players=players, license_surcharge_total=bad)],
                                 [post])) == [
            ("ME-ENTRY-CAP", "tournaments[0].license_surcharge_total")]

    def test_super_cribbage_licence_is_75(self) -> None:
        # $75 licence (§ 1836(4-A)): 75 legal, 76 not; flat: 125 legal
        load_scenario(scenario([super_cribbage(license_surcharge_total=75)], [NATIONAL]))
        assert problems(scenario([super_cribbage(license_surcharge_total=76)], [NATIONAL])) \
            == [("ME-ENTRY-CAP", "tournaments[0].license_surcharge_total")]
        load_scenario(scenario([super_cribbage(license_surcharge_total=125)], [NATIONAL],
                               settings={"surcharge_cap": "flat"}))

    def test_solve_and_check_under_each_reading(self, tmp_path: Path) -> None:
        t = game(license_surcharge_total=125, fixed_dates=["2027-03-06"])
        flat = scenario([t], [POST], settings={"surcharge_cap": "flat"})
        plan = run(load_scenario(flat))
        # placed under flat, with its $40 per-tournament licence
        assert [r.first_day for r in plan.rows] == [d("2027-03-06")]
        assert plan.total_fees_usd == 40
        assert "surcharge_cap=flat" in summary_text(plan)
        # the summary's Readings line lists the switches; licences issued elsewhere only when
        # given (an empty {} is no reading)
        assert "super_cribbage_licenses_issued" not in summary_text(plan)
        row = HEADER + csv_row(t, 1, "post", "2027-03-06T12:00:00-05:00",
                               "2027-03-06T22:00:00-05:00")
        res = tourney_check(tmp_path / "flat", flat, row)
        assert res.exit_code == 0, res.output
        # default reading: the scenario itself is refused (exit 2, names field and rule)
        res = tourney_check(tmp_path / "default", scenario([t], [POST]), row)
        assert res.exit_code == 2
        assert "license_surcharge_total" in res.output and "ME-ENTRY-CAP" in res.output

    def test_reading_printed(self) -> None:
        default = load_scenario(scenario([game()], [POST]))
        assert any("surcharge_cap: license-fee" in ln for ln in readings(default))
        flat = load_scenario(scenario([game()], [POST], settings={"surcharge_cap": "flat"}))
        assert any("surcharge_cap: flat" in ln for ln in readings(flat))
