"""Why-not-placed: for every kind of binding rule, the reason of an unscheduled occurrence is
computed (the rule ID is the first named, with its citation and the checker's sentence)."""

from __future__ import annotations

import pytest

from builders.scenarios import load, run

MT = {"id": "room", "name": "Prairie Card Club", "jurisdiction": "MT", "live_tables": 2}
ME = {"id": "post", "name": "Legion Post 12", "jurisdiction": "ME", "local_approval": True,
      "beneficiaries": ["Food Pantry"], "organized_on": "1946-05-01"}
JAN = {"start": "2027-01-01", "end": "2027-01-31"}


def large(tid: str = "big", **kw: object) -> dict:
    return {"id": tid, "title": tid, "type": "large-stakes", "operators": ["room"], **kw}


def game(tid: str = "game", **kw: object) -> dict:
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "18:00",
            "hours": 4, **kw}


def only_reason(sc: object) -> tuple[tuple[str, ...], str]:
    plan = run(sc)  # type: ignore[arg-type]
    reasons = {(u.rule_ids, u.reason) for u in plan.unscheduled_list}
    assert len(reasons) == 1, reasons
    return reasons.pop()


def test_large_limit_names_the_placements_that_use_the_slots() -> None:
    # 15 held + 3 wanted in January: only 16 - 15 = 1 more fits in the 2026-07-01 permit year
    sc = load(horizon=JAN, operators=[{**MT, "held_in_current_permit_year":
                                       {"large_stakes": 15}}],
              tournaments=[large(count=3)])
    rules, reason = only_reason(sc)
    assert rules[0] == "MT-LARGE-LIMIT"
    assert "MT-LARGE-LIMIT, MCA 23-5-317(1)(a)" in reason
    assert "17th counted large-stakes tournament of the 2026-07-01 permit year" in reason
    assert "15 held before the plan" in reason


def test_charity_limit_a_fourth_charitable_is_counted() -> None:
    # MT-CHARITY-LIMIT: only the first 3 charitable of the permit year are not counted; 16
    # counted and 1 charitable held: 2 more charitable are free (1 + 2 = 3), the 3rd of 3
    # wanted would be the 4th charitable, counted: 16 + 1 = 17th counted (MT-LARGE-LIMIT)
    sc = load(horizon=JAN, operators=[{**MT, "held_in_current_permit_year":
                                       {"large_stakes": 16, "charitable": 1}}],
              tournaments=[large("gala", count=3, charitable=True, charity_share=0.5)])
    rules, reason = only_reason(sc)
    assert rules[0] == "MT-LARGE-LIMIT"
    assert "17th counted large-stakes tournament of the 2026-07-01 permit year" in reason
    assert "it is its 4th charitable one, and only the first 3 (1 held before the plan, " \
           "gala#" in reason
    assert "are not counted (MT-CHARITY-LIMIT, MCA 23-5-317(1)(f))" in reason
    assert "all 16 are used by 16 held before the plan" in reason


def test_notice_excludes_the_early_days() -> None:
    # notice_from 2027-01-10: the earliest first day is 2027-01-15 (notice due -5 days); a
    # window of 2027-01-11..2027-01-14 leaves no day at all
    sc = load(horizon=JAN, notice_from="2027-01-10", operators=[MT],
              tournaments=[large(window={"start": "2027-01-11", "end": "2027-01-14"})])
    rules, reason = only_reason(sc)
    # the window excludes every day but Jan 11..14: 31 - 4 = 27 days; those 4 all fail the
    # notice (2027-01-14 - 5 = 2027-01-09 < 2027-01-10). A day outside the window is put
    # down to the window alone.
    assert "MT-NOTICE" in rules and "MT-NOTICE, MCA 23-5-317(1)(d) (4 days)" in reason
    assert "WINDOW (27 days)" in reason and "none of the 31 days" in reason


def test_small_daily_one_small_stakes_a_day() -> None:
    # two small-stakes nights wanted on the only Wednesday in the window: one fits
    sc = load(horizon={"start": "2027-01-04", "end": "2027-01-10"}, operators=[MT],
              tournaments=[{"id": f"s{k}", "title": f"s{k}", "type": "small-stakes",
                            "operators": ["room"], "entry_fee": 40, "start_time": "19:00",
                            "hours": 4, "weekdays": ["wed"], "priority": 2 - k}
                           for k in range(2)])
    rules, reason = only_reason(sc)
    assert rules[0] == "MT-SMALL-DAILY" and "at most one a day" in reason


@pytest.mark.parametrize("month_rule", ["touch", "start"])
def test_monthly_limit(month_rule: str) -> None:
    # 3 games wanted in January, 2 a month: the 3rd is not placed
    sc = load(horizon=JAN, notice_from="2026-12-01", settings={"month_rule": month_rule},
              operators=[ME], tournaments=[game(count=3)])
    rules, reason = only_reason(sc)
    assert rules[0] == "ME-MONTHLY-LIMIT"
    assert f"at most 2 a month (month_rule: {month_rule})" in reason


def test_other_games_exclude_beano_night() -> None:
    # every evening of the week is a beano night 17:00-23:00 except none: no day left
    nights = [{"weekday": w, "start": "17:00", "end": "23:00"}
              for w in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")]
    sc = load(horizon=JAN, operators=[{**ME, "other_games": nights}], tournaments=[game()])
    rules, reason = only_reason(sc)
    assert rules[0] == "ME-OTHER-GAMES" and "ME-OTHER-GAMES, 17 M.R.S. § 1836(4) (31 days)" \
        in reason


def test_application_window() -> None:
    # notice_from 2027-01-04: the earliest first day is Sat 2027-01-16 (due Jan 4, the 10th
    # Maine business day before it); Fri Jan 15 is due Dec 31 (Jan 1 a holiday), before
    # notice_from, so a window ending 2027-01-15 leaves nothing
    sc = load(horizon=JAN, notice_from="2027-01-04", operators=[ME],
              tournaments=[game(window={"start": "2027-01-05", "end": "2027-01-15"})])
    rules, reason = only_reason(sc)
    assert "ME-APPLICATION-WINDOW" in rules
    # the window's 11 days Jan 5..15 all come too early; the other 31 - 11 = 20 days are
    # outside the window
    assert "ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2 (11 days)" in reason
    assert "WINDOW (20 days)" in reason


def test_super_cribbage_statewide_cap() -> None:
    # 16 super cribbage games across 8 organizations in one year: 15 licences statewide
    ops = [{**ME, "id": f"club{k}", "name": f"Club {k}"} for k in range(8)]
    ts = [{"id": f"crib{k}", "title": f"crib{k}", "type": "super-cribbage",
           "operators": [f"club{k}"], "players": 60, "entry_fee": 50, "prize_share": 0.8,
           "charity_share": 0.5, "organizer_member_years": 5, "start_time": "09:00",
           "hours": 30, "count": 2, "priority": 2 if k else 1} for k in range(8)]
    sc = load(horizon={"start": "2027-03-01", "end": "2027-06-30"}, notice_from="2026-12-01",
              operators=ops, tournaments=ts)
    plan = run(sc)
    assert len({(r.tournament_id, r.occurrence) for r in plan.rows}) == 15
    [u] = plan.unscheduled_list
    assert u.tournament_id == "crib0" and u.rule_ids[0] == "ME-SUPER-CRIBBAGE"
    assert "16th super cribbage licence of 2027 statewide" in u.reason


@pytest.mark.parametrize(("field", "value", "rule"), [
    ("weekdays", ["sun"], "MAX-CONCURRENT"),
    ("min_gap_days", 28, "MIN-GAP"),
])
def test_scenario_requests(field: str, value: object, rule: str) -> None:
    # January 2027 has 5 Sundays (3, 10, 17, 24, 31).
    # MAX-CONCURRENT: an all-Sunday rival occupies every Sunday, so 'big' finds none.
    # MIN-GAP: 28 days between first days: Jan 1 and Jan 29 at most, so the 3rd fails.
    rival = large("rival", count=5, weekdays=["sun"], priority=5)
    t = large(count=3 if field == "min_gap_days" else 1, **{field: value})
    sc = load(horizon=JAN, notice_from="2026-12-01", operators=[MT],
              tournaments=[rival, t] if rule == "MAX-CONCURRENT" else [t])
    plan = run(sc)
    [u] = [u for u in plan.unscheduled_list if u.tournament_id == "big"]
    assert u.rule_ids[0] == rule


def test_blackout_and_horizon() -> None:
    # 3-day events in a 7-day horizon with Jan 3 blacked out: first days Jan 4 or 5 only
    # (Jan 1-3 touch the blackout: 3 days; Jan 6 and 7 would run past the horizon: 2 days);
    # Jan 4-6 and Jan 5-7 overlap (max_concurrent 1), so 1 of the 2 wanted is placed
    sc = load(horizon={"start": "2027-01-01", "end": "2027-01-07"}, notice_from="2026-12-01",
              operators=[{**MT, "blackout": ["2027-01-03"]}],
              tournaments=[large(days=3, count=2)])
    rules, reason = only_reason(sc)
    assert rules[0] == "MAX-CONCURRENT"
    assert "BLACKOUT (3 days)" in reason and "HORIZON (2 days)" in reason
