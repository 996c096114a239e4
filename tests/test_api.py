"""The Python API: names importable from `scheduler`, DataFrames with proper dtypes, scenarios
from DataFrames, what-if changes, Plan methods and compare().

Every scenario here is tiny and its optimum is worked out by hand in a comment. Solves use
seed=0 and time_limit=10 and take well under a second each.
"""

from __future__ import annotations

import datetime as dt
import importlib
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import scheduler
from scheduler import (
    Comparison,
    Plan,
    Scenario,
    ScenarioError,
    Settings,
    compare,
    load_scenario,
    solve,
    validate_scenario,
)
from scheduler.export.ical import calendar_files
from scheduler.export.summary import summary_text
from scheduler.export.write import plan_files, to_ics, write_plan

MT_ROOM = {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}
ME_POST = {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
           "local_approval": True, "beneficiaries": ["Scholarships"]}


def run(sc: Scenario) -> Plan:
    return solve(sc, seed=0, time_limit=10)


def march(notice_from: str = "2027-02-20", **extra: Any) -> Scenario:
    """A Montana room, March 2027, with the given operators/tournaments."""
    return load_scenario({"name": "march", "horizon": {"start": "2027-03-01",
                                                       "end": "2027-03-31"},
                          "notice_from": notice_from, "operators": [MT_ROOM], **extra})


def saturdays(count: int = 4, notice_from: str = "2027-02-20") -> Scenario:
    return march(notice_from, tournaments=[{
        "id": "sat", "title": "Sat", "type": "large-stakes", "operators": ["room"],
        "count": count, "weekdays": ["sat"]}])


def charity_room() -> Scenario:
    """Room has held 14 large-stakes tournaments this permit year: 2 of the 16 are left
    (MT-LARGE-LIMIT). It wants 2 Saturday tournaments and a charitable Sunday gala
    (priority 5) that counts toward the 3 charitable ones instead (MT-CHARITY-LIMIT).
    All three fit: Sat Mar 6 and 13 (earliest), gala Sun Mar 7. The permit is held already
    (held > 0), so no fee."""
    return load_scenario({
        "name": "charity", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
        "notice_from": "2027-02-20",
        "operators": [{**MT_ROOM, "held_in_current_permit_year": {"large_stakes": 14}}],
        "tournaments": [
            {"id": "sat", "title": "Sat", "type": "large-stakes", "operators": ["room"],
             "count": 2, "weekdays": ["sat"]},
            {"id": "gala", "title": "Gala", "type": "large-stakes", "operators": ["room"],
             "weekdays": ["sun"], "priority": 5, "charitable": True, "charity_share": 0.5}]})


def maine(horizon: tuple[str, str], **tournament: Any) -> Scenario:
    return load_scenario({
        "name": "maine", "horizon": {"start": horizon[0], "end": horizon[1]},
        "notice_from": "2026-12-01", "operators": [ME_POST],
        "tournaments": [{"id": "game", "title": "Game", "type": "tournament-game",
                         "operators": ["post"], "players": 40, "prize_share": 0.8,
                         **tournament}]})


# ------------------------------------------------------------------------------- package
def test_api_plan_tables() -> None:
    sc = scheduler.load_scenario({
        "name": "api", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
        "notice_from": "2027-02-20",
        "operators": [{"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 1}],
        "tournaments": [{"id": "sat", "title": "Sat", "type": "large-stakes",
                         "operators": ["room"], "count": 2, "weekdays": ["sat"]}]})
    plan = scheduler.solve(sc, time_limit=10)
    # Saturdays of March 2027: 6 and 13 are the earliest two (notice due Mar 1 and Mar 8,
    # both on or after notice_from Feb 20); one large-stakes permit for the 2026-07-01
    # permit year: $120 (MT-PERMIT-FEES, MCA 23-5-317(1)(b))
    s = plan.schedule
    assert list(s["first_day"]) == [pd.Timestamp("2027-03-06"), pd.Timestamp("2027-03-13")]
    assert s["first_day"].dtype.kind == "M" and s["occurrence"].dtype == "int64"
    lic = plan.licenses
    assert list(lic["fee_usd"]) == [120] and lic["fee_usd"].dtype == "int64"
    assert lic["valid_from"].iloc[0] == pd.Timestamp("2026-07-01")
    assert plan.unscheduled.empty and list(plan.unscheduled.columns) == [
        "tournament_id", "occurrence", "operators", "reason", "rule_ids"]
    assert plan.total_fees_usd == 120 and plan.status == "OPTIMAL"
    assert plan.rows[0].notice_due == dt.date(2027, 3, 1)


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        scheduler.nothing_here  # noqa: B018
    except AttributeError as exc:
        assert "nothing_here" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_public_names_typed_and_lazy_agree() -> None:
    # __all__ is what the lazy table serves and what the TYPE_CHECKING block types for mypy
    import ast
    tree = ast.parse(Path(scheduler.__file__).read_text(encoding="utf-8"))
    typed = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.If)
             for imp in node.body if isinstance(imp, ast.ImportFrom) for a in imp.names}
    assert scheduler.__all__ == sorted(scheduler._EXPORTS) == sorted(typed)


def test_public_names() -> None:
    assert {"compare", "Comparison", "Settings", "Scenario", "load_scenario", "solve",
            "write_plan", "to_ics", "summary_text", "plot_calendar", "plot_usage",
            "plot_fees"} <= set(scheduler.__all__)
    # the function, not a submodule of the same name, even once scheduler.export.comparison is
    # loaded
    importlib.import_module("scheduler.export.comparison")
    from scheduler import compare as again
    assert callable(again) and again is compare


# ------------------------------------------------------------------------------- from_frames
OPERATORS = pd.DataFrame([
    {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 2,
     "blackout": "2027-03-10..2027-03-12, 2027-03-20",
     "held_in_current_permit_year.large_stakes": 3},
    {"id": "post", "name": "Post", "jurisdiction": "ME", "live_tables": np.nan,
     "blackout": None, "organized_on": "1950-01-01", "local_approval": True,
     "beneficiaries": "Scholarship Fund; Veterans Relief",
     "other_games": "tue 18:00-22:00; Fri 19:00-01:00"},
])
TOURNAMENTS = pd.DataFrame([
    # a number column with a gap reads as float (count 4.0); NaN means "not given"
    {"id": "sat", "title": "Sat", "type": "large-stakes", "operators": "room", "count": 4,
     "weekdays": "fri, sat", "window": "2027-03-01..2027-03-31", "entry_fee": 375,
     "players": np.nan, "prize_share": np.nan, "fixed_dates": np.nan},
    {"id": "game", "title": "Game", "type": "tournament-game", "operators": ["post"],
     "count": np.nan, "weekdays": ["sat"], "window": None, "entry_fee": 50, "players": 40,
     "prize_share": 0.8, "fixed_dates": [dt.date(2027, 3, 13)]},
])
AS_YAML = {
    "name": "frames", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
    "notice_from": "2027-02-20", "settings": {"month_rule": "start"},
    "operators": [
        {"id": "room", "name": "Room", "jurisdiction": "MT", "live_tables": 2,
         "blackout": ["2027-03-10..2027-03-12", "2027-03-20"],
         "held_in_current_permit_year": {"large_stakes": 3}},
        {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
         "local_approval": True, "beneficiaries": ["Scholarship Fund", "Veterans Relief"],
         "other_games": [{"weekday": "tue", "start": "18:00", "end": "22:00"},
                         {"weekday": "fri", "start": "19:00", "end": "01:00"}]}],
    "tournaments": [
        {"id": "sat", "title": "Sat", "type": "large-stakes", "operators": ["room"],
         "count": 4, "weekdays": ["fri", "sat"],
         "window": {"start": "2027-03-01", "end": "2027-03-31"}, "entry_fee": 375},
        {"id": "game", "title": "Game", "type": "tournament-game", "operators": ["post"],
         "weekdays": ["sat"], "entry_fee": 50, "players": 40, "prize_share": 0.8,
         "fixed_dates": ["2027-03-13"]}],
}


def frames(operators: pd.DataFrame = OPERATORS, tournaments: pd.DataFrame = TOURNAMENTS,
           **kw: Any) -> Scenario:
    args: dict[str, Any] = dict(name="frames", horizon_start="2027-03-01",
                                horizon_end=dt.date(2027, 3, 31), notice_from="2027-02-20",
                                settings={"month_rule": "start"})
    return Scenario.from_frames(operators, tournaments, **{**args, **kw})


def test_from_frames_reads_what_the_yaml_says() -> None:
    sc = frames()
    assert sc == load_scenario(AS_YAML)
    # the defaults where cells were empty
    assert sc.tournament("game").count == 1 and sc.tournament("sat").players is None
    assert sc.operator("post").live_tables is None
    assert sc.operator("room").blackout == (dt.date(2027, 3, 10), dt.date(2027, 3, 11),
                                            dt.date(2027, 3, 12), dt.date(2027, 3, 20))
    assert sc.settings == Settings(month_rule="start")


def test_from_frames_id_index_and_blank_rows() -> None:
    blank = pd.DataFrame([{c: np.nan for c in TOURNAMENTS.columns}])
    with_blank = pd.concat([TOURNAMENTS, blank], ignore_index=True)
    assert frames(OPERATORS.set_index("id"), with_blank.set_index("id")) == frames()


def test_from_frames_round_trips_through_yaml(tmp_path: Path) -> None:
    sc = frames()
    path = tmp_path / "frames.yaml"
    path.write_text(sc.to_yaml(), encoding="utf-8")
    assert load_scenario(path) == sc


def test_from_frames_bad_cell_names_row_field_value() -> None:
    # MT-ENTRY-CAP: $500 x (1 + 3 re-entries) = $2,000 > $1,875 on the row labelled 'sat',
    # the first tournament: the frame's fields are sound, the input rule (the rules' own,
    # docs/architecture.md) refuses it in validate_scenario, which solve() runs first
    bad = TOURNAMENTS.assign(reentries=[3, 0], entry_fee=[500, 50]).set_index("id")
    sc = frames(tournaments=bad)
    for refuse in (validate_scenario, run):
        with pytest.raises(ScenarioError) as exc:
            refuse(sc)
        (p,) = exc.value.problems
        assert (p.path, p.value, p.rule) == ("tournaments[0].entry_fee", 500, "MT-ENTRY-CAP")
        assert "tournaments[0].entry_fee = 500: a participant could pay $2,000" in str(exc.value)

    # a weekday that is not one: the second row (label 1), second item of the list
    bad = TOURNAMENTS.assign(weekdays=["fri, sat", "sat sundy"])
    with pytest.raises(ScenarioError) as exc:
        frames(tournaments=bad)
    assert [(p.path, p.value, p.rule) for p in exc.value.problems] == [
        ("tournaments[1].weekdays[1]", "sundy", "SCENARIO")]

    # an unknown column: the nearest field name is suggested, as for a YAML key
    with pytest.raises(ScenarioError, match=r"tournaments\[0\]\.entry_fees: unknown field; "
                                            r"did you mean 'entry_fee'\?"):
        frames(tournaments=TOURNAMENTS.rename(columns={"entry_fee": "entry_fees"}))

    # a window given twice
    with pytest.raises(ScenarioError, match=r"tournaments\[0\]\.window\.start = '2027-03-02'"):
        frames(tournaments=TOURNAMENTS.assign(**{"window.start": ["2027-03-02", None]}))


# ------------------------------------------------------------------------------- what-if
def test_replace_and_with_changes() -> None:
    sc = charity_room()
    later = sc.replace(notice_from="2027-03-01", name="later")
    assert (later.notice_from, later.name, sc.notice_from) == (
        dt.date(2027, 3, 1), "later", dt.date(2027, 2, 20))
    assert sc.with_settings(month_rule="start").settings.month_rule == "start"
    assert sc.settings.month_rule == "touch"
    plain = sc.with_tournament("gala", charitable=False, charity_share=None)
    assert not plain.tournament("gala").charitable
    assert plain.tournament("gala").charity_share is None
    assert sc.tournament("gala").charitable
    held = sc.with_operator("room", held_in_current_permit_year={"large_stakes": 16})
    assert held.operator("room").held_in_current_permit_year.large_stakes == 16
    # models are accepted as values too
    assert sc.replace(tournaments=sc.tournaments[:1]).tournaments == sc.tournaments[:1]


def test_what_if_errors() -> None:
    sc = charity_room()
    with pytest.raises(ScenarioError, match=r"tournaments = 'galla': no tournament has this "
                                            r"id; did you mean 'gala'\?"):
        sc.with_tournament("galla", priority=2)
    with pytest.raises(ScenarioError, match=r"operators = 'nobody': no operator has this id"):
        sc.with_operator("nobody", live_tables=2)
    # MT-CHARITY-SHARE: a charitable tournament pays at least half of its entry fees; the
    # input rule refuses the changed scenario in validate_scenario (run by solve())
    with pytest.raises(ScenarioError) as exc:
        validate_scenario(sc.with_tournament("gala", charity_share=0.4))
    assert [(p.rule, p.path) for p in exc.value.problems] == [
        ("MT-CHARITY-SHARE", "tournaments[1].charity_share")]
    with pytest.raises(ScenarioError, match=r"settings\.month_rul: unknown field; did you "
                                            r"mean 'month_rule'\?"):
        sc.with_settings(month_rul="start")
    with pytest.raises(ScenarioError, match=r"settings\.month_rule = 'end'"):
        sc.with_settings(month_rule="end")
    with pytest.raises(ScenarioError, match=r"horizon_end: unknown field; did you mean "
                                            r"'horizon'\?"):
        sc.replace(horizon_end="2027-04-30")
    # a cross reference (rule SCENARIO, constraints/common/): checked with the input rules
    with pytest.raises(ScenarioError, match=r"horizon\.end = 2027-02-01: horizon ends "
                                            r"before it starts"):
        validate_scenario(sc.replace(horizon={"start": "2027-03-01", "end": "2027-02-01"}))


# ------------------------------------------------------------------------------- Plan methods
def test_plan_summary_table_usage_and_fees() -> None:
    plan = run(charity_room())
    assert scheduler.summary_text is summary_text  # the public API's name for it
    assert "  Room (room, MT): 3 placed of 3 wanted; fees $0\n" in summary_text(plan)
    table = plan.summary_table()
    assert table.to_dict("records") == [{
        "operator_id": "room", "name": "Room", "jurisdiction": "MT", "placed": 3,
        "wanted": 3, "not_placed": 0, "fees_usd": 0}]
    assert all(table[c].dtype == "int64" for c in ("placed", "wanted", "fees_usd"))
    # 14 held + Sat Mar 6 + Sat Mar 13 = 16 of 16; the gala is 1 of the 3 charitable ones
    usage = plan.usage()
    assert usage.to_dict("records") == [
        {"operator_id": "room", "rule_id": "MT-LARGE-LIMIT",
         "period_start": pd.Timestamp("2026-07-01"), "period_end": pd.Timestamp("2027-06-30"),
         "used": 16, "limit": 16, "charitable": 0, "held": 14},
        {"operator_id": "room", "rule_id": "MT-CHARITY-LIMIT",
         "period_start": pd.Timestamp("2026-07-01"), "period_end": pd.Timestamp("2027-06-30"),
         "used": 1, "limit": 3, "charitable": 1, "held": 0}]
    assert usage["period_start"].dtype.kind == "M" and usage["used"].dtype == "int64"
    assert plan.fees().empty  # the permit was held already: nothing to buy


def test_usage_maine_months_and_statewide_super_cribbage() -> None:
    # Two games a month allowed (ME-MONTHLY-LIMIT); one Saturday game wanted in a horizon of
    # Jan 20 - Feb 20 2027: it goes on the first Saturday, Jan 23. February has none: 0 of 2.
    # A super cribbage weekend (ME-SUPER-CRIBBAGE: 15 licences statewide a year) on Sat Feb 6
    # counts in February too.
    sc = maine(("2027-01-20", "2027-02-20"), weekdays=["sat"]).replace(tournaments=[
        *maine(("2027-01-20", "2027-02-20"), weekdays=["sat"]).model_dump()["tournaments"],
        {"id": "crib", "title": "Crib", "type": "super-cribbage", "operators": ["post"],
         "fixed_dates": ["2027-02-06"], "players": 60, "prize_share": 0.8,
         "charity_share": 0.5, "organizer_member_years": 5}])
    usage = run(sc).usage()
    assert [(r.operator_id, r.rule_id, str(r.period_start.date()), str(r.period_end.date()),
             r.used, r.limit) for r in usage.itertuples()] == [
        ("post", "ME-MONTHLY-LIMIT", "2027-01-01", "2027-01-31", 1, 2),
        ("post", "ME-MONTHLY-LIMIT", "2027-02-01", "2027-02-28", 1, 2),
        ("(statewide)", "ME-SUPER-CRIBBAGE", "2027-01-01", "2027-12-31", 1, 15)]


def test_to_ics_and_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = run(saturdays(count=2))
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    path = to_ics(plan, tmp_path / "cal.ics")
    text = path.read_text(encoding="utf-8")
    # no SOURCE_DATE_EPOCH: DTSTAMP is midnight UTC of notice_from (2027-02-20)
    assert "DTSTAMP:20270220T000000Z" in text and text.count("BEGIN:VEVENT") >= 2
    assert path.read_bytes() == plan_files(plan)["calendar.ics"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # 1970-01-02 00:00 UTC
    one = to_ics(plan, tmp_path / "room.ics", operator_id="room").read_bytes()
    assert b"DTSTAMP:19700102T000000Z" in one
    assert one == calendar_files(plan, dt.datetime(1970, 1, 2, tzinfo=dt.UTC))[
        "calendars/room.ics"]
    with pytest.raises(KeyError, match="nobody"):
        to_ics(plan, tmp_path / "x.ics", operator_id="nobody")

    out = write_plan(plan, tmp_path / "plan")
    assert sorted(p.name for p in out.iterdir()) == [
        ".tourney-plan", "calendar.ics", "calendars", "deadlines.csv", "licenses.csv",
        "plan.xlsx", "scenario.yaml",
        "schedule.csv", "summary.txt", "unscheduled.csv"]
    assert (out / "summary.txt").read_text(encoding="utf-8") == summary_text(plan)


def test_repr_html_escapes() -> None:
    sc = saturdays(count=1).with_operator("room", name="Bob's <Bar> & Grill")
    html = run(sc.replace(name="A <b>plan</b>"))._repr_html_()
    assert "&lt;Bar&gt; &amp; Grill" in html and "<Bar>" not in html
    assert "A &lt;b&gt;plan&lt;/b&gt;" in html and "<table" in html
    assert "OPTIMAL plan, 1 occurrence placed, 0 not placed, fees $120" in html


def test_plans_pickle_and_compare_equal() -> None:
    sc = charity_room()
    plan = run(sc)
    assert pickle.loads(pickle.dumps(plan)) == plan
    assert run(sc) == plan  # same scenario and seed: the same plan
    assert run(sc.with_tournament("gala", priority=1)) != plan


# ------------------------------------------------------------------------------- compare
def test_two_weeks_earlier_notices() -> None:
    # MT-NOTICE: a large-stakes tournament's notice is due 5 days before its first day and
    # on or after notice_from. Notices from Mar 10: the earliest first day is Mar 15, so of
    # March's Saturdays only the 20th and 27th. Two weeks earlier (Feb 24): all four,
    # 6, 13, 20, 27. One $120 permit either way (MT-PERMIT-FEES).
    sc = saturdays(notice_from="2027-03-10")
    earlier = sc.replace(notice_from=sc.notice_from - dt.timedelta(days=14))
    cmp = compare({"now": run(sc), "earlier": run(earlier)})
    assert isinstance(cmp, Comparison)
    assert cmp.totals["placed"].to_dict() == {"now": 2, "earlier": 4}
    assert int(cmp.totals["placed"].diff().iloc[-1]) == 2
    assert cmp.totals["fees_usd"].to_dict() == {"now": 120, "earlier": 120}
    assert cmp.totals["placed"].dtype == "int64" and list(cmp.totals["status"]) == [
        "OPTIMAL", "OPTIMAL"]
    # occurrences are numbered in date order, so #1 and #2 move two weeks earlier
    T = pd.Timestamp
    assert cmp.moved.reset_index().values.tolist() == [
        ["sat", 1, T("2027-03-20"), T("2027-03-06")],
        ["sat", 2, T("2027-03-27"), T("2027-03-13")],
        ["sat", 3, pd.NaT, T("2027-03-20")],
        ["sat", 4, pd.NaT, T("2027-03-27")]]
    assert cmp.usage.loc[("room", "MT-LARGE-LIMIT")].values.tolist() == [[2, 4]]


def test_charity_event_becomes_non_charitable() -> None:
    # See charity_room: all three fit while the gala is charitable. Non-charitable, it counts
    # toward the 16 too: 14 + 3 > 16, so one goes; the gala has priority 5, a Saturday 1, so
    # the later Saturday (Mar 13) is dropped.
    sc = charity_room()
    cmp = compare({"charitable": run(sc),
                   "not charitable": run(sc.with_tournament("gala", charitable=False,
                                                            charity_share=None))})
    assert cmp.placed.loc["room"].to_dict() == {"charitable": 3, "not charitable": 2}
    assert cmp.moved.reset_index().values.tolist() == [
        ["sat", 2, pd.Timestamp("2027-03-13"), pd.NaT]]
    use = cmp.usage.droplevel(["period_start", "period_end"])
    assert use.loc[("room", "MT-LARGE-LIMIT", 16)].to_list() == [16, 16]
    assert use.loc[("room", "MT-CHARITY-LIMIT", 3)].to_list() == [1, 0]
    assert cmp.fees.loc["room"].to_list() == [0, 0]


def test_conservative_month_reading() -> None:
    # ME-MONTHLY-LIMIT, 2 games a month. Sunday games 18:00 + 12 h run into Monday; the horizon
    # Jan 20 - Feb 20 2027 leaves Sundays Jan 24, 31, Feb 7, 14. Jan 31 runs into Feb 1:
    # month_rule touch counts it in January and February, so {24, 31, 7, 14} would be 3 in
    # February; at most 3 fit, the earliest {24, 31, 7}. month_rule start counts Jan 31 in
    # January only: all 4. Each game is a $40 per-tournament licence (40 players, ME-FEES).
    sc = maine(("2027-01-20", "2027-02-20"), count=4, weekdays=["sun"], start_time="18:00",
               hours=12)
    cmp = compare({"touch": run(sc), "start": run(sc.with_settings(month_rule="start"))})
    assert cmp.totals[["placed", "fees_usd"]].to_dict("index") == {
        "touch": {"placed": 3, "fees_usd": 120}, "start": {"placed": 4, "fees_usd": 160}}
    assert cmp.moved.reset_index().values.tolist() == [
        ["game", 4, pd.NaT, pd.Timestamp("2027-02-14")]]
    assert cmp.usage.values.tolist() == [[2, 2], [2, 2]]  # Jan, Feb full either way
    assert cmp.fees_by_kind.loc[("post", "me-per-tournament")].to_list() == [120, 160]


def test_annual_licence_savings() -> None:
    # ME-FEES, 40 players: $40 per tournament, or $750 for an annual licence (12 months from
    # its first day). 24 Saturday games in 2027, 2 a month (ME-MONTHLY-LIMIT), first on Sat
    # Jan 2: per tournament 24 x $40 = $960, so one annual licence from Jan 2 covers all and
    # saves $210. At 18 games, 18 x $40 = $720 < $750: per-tournament licences, nothing saved.
    sc = maine(("2027-01-01", "2027-12-31"), count=24, weekdays=["sat"])
    plan = run(sc)
    f = plan.fees()
    assert f.to_dict("records") == [{
        "operator_id": "post", "jurisdiction": "ME", "kind": "me-annual", "licences": 1,
        "fee_usd": 750, "per_tournament_usd": 960}]
    assert int((f.per_tournament_usd - f.fee_usd).sum()) == 210
    fewer = run(sc.with_tournament("game", count=18))
    g = fewer.fees()
    assert g[["kind", "licences", "fee_usd"]].values.tolist() == [["me-per-tournament", 18, 720]]
    assert int((g.per_tournament_usd - g.fee_usd).sum()) == 0
    cmp = compare({"24 games": plan, "18 games": fewer})
    assert cmp.fees_by_kind.loc["post"].to_dict("index") == {
        "me-annual": {"24 games": 750, "18 games": 0},
        "me-per-tournament": {"24 games": 0, "18 games": 720}}
    # 6 games fewer cost $30 less in fees
    assert cmp.totals["fees_usd"].to_list() == [750, 720]


def test_compare_sequence_and_errors() -> None:
    a, b = run(saturdays(count=1)), run(saturdays(count=2))
    cmp = compare([a, b])
    assert list(cmp.totals.index) == ["plan 1", "plan 2"]
    assert list(cmp.placed.columns) == ["plan 1", "plan 2"]
    # same first day for sat#1 (Mar 6); sat#2 only in plan 2 (Mar 13)
    assert cmp.first_days.shape == (2, 2) and len(cmp.moved) == 1
    assert "<table" in cmp._repr_html_()
    with pytest.raises(ValueError, match="at least one plan"):
        compare({})
    with pytest.raises(TypeError, match="plan 2: expected a Plan"):
        compare([a, "b"])  # type: ignore[list-item]


def test_repr_is_one_line_and_write_can_add_the_report(tmp_path: Path) -> None:
    # 4 Saturdays wanted in March 2027 (6, 13, 20, 27), notices from Feb 20: the first is
    # due Mar 1, so all 4 fit, under one $120 large-stakes permit (1 live table)
    plan = run(saturdays())
    assert repr(plan) == ("<Plan 'march': OPTIMAL, 4 occurrences placed, 0 not placed, "
                          "fees $120, rank 1, 1 part(s)>")
    out = write_plan(plan, tmp_path / "plan", report=True)
    assert (out / "report.html").exists() and (out / "schedule.csv").exists()
