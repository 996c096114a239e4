"""Explanations that scale (issue #16, part 1): a rule's counting certificate first, then
deletion over rule families (rule ID, operator), requests and exclusions instead of per-day
constraint instances, within a deterministic budget. Not timed."""

from __future__ import annotations

from typing import Any

from constraints.montana import MT_LARGE_LIMIT, MT_SMALL_DAILY
from scheduler.core.scenario import Scenario
from scheduler.engine.explain import minimal_conflicts
from scheduler.engine.model import build_model
from scheduler.engine.solver import solve
from scheduler.export.summary import summary_text

from builders.scenarios import load, mt_large, mt_room

TWO_YEARS = {"start": "2027-01-01", "end": "2028-12-31"}
# 2027 has 365 days, 2028 (a leap year) 366: 365 + 366 = 731 days in the horizon
DAILY_TEXT = ("800 required small-stakes tournaments at Room-A (4 × 200), at most one a day "
              "(MT-SMALL-DAILY), 731 days in the horizon (2027-01-01..2028-12-31): at least "
              "69 cannot be placed")  # 4 × 200 = 800 required; 800 - 731 = 69


def _small(tid: str, **kw: Any) -> dict[str, Any]:
    """A small-stakes night, 19:00 for 4 h (one calendar day), $60, as many as wanted."""
    return {"id": tid, "title": tid, "type": "small-stakes", "operators": ["room-a"],
            "start_time": "19:00", "hours": 4, "entry_fee": 60, "count": "all", **kw}


def over_required() -> Scenario:
    """One small Montana room, four small-stakes nights, ``count: all, required: 200`` each,
    over two years (the case of issue #16: 12 min 41 s and 707 lines before)."""
    return load(horizon=TWO_YEARS, operators=[mt_room()],
                tournaments=[_small(f"night{k}", required=200) for k in range(1, 5)])


def test_over_required_nights_name_mt_small_daily_and_the_count() -> None:
    # a small budget: 2 deterministic time units a solve, 20 in all
    [conflict] = minimal_conflicts(over_required(), deterministic_time=2, budget=20)
    assert conflict.certificate == DAILY_TEXT  # type: ignore[attr-defined]
    assert conflict.minimal  # type: ignore[attr-defined]
    # the family of MT-SMALL-DAILY (one guard for all 731 days), not 731 day rows
    assert [(m.rule, m.text) for m in conflict] == [
        ("REQUEST", f"night{k} needs 200 occurrence(s) placed (required: 200)")
        for k in range(1, 5)] + [
        ("MT-SMALL-DAILY", "room-a holds at most one small-stakes tournament on each of "
                           "2027-01-01..2028-12-31 (731 limits)")]


def test_cut_short_the_count_stands_but_is_not_proven_minimal() -> None:
    # a budget too small for any solve to finish: the arithmetic still proves the conflict
    [conflict] = minimal_conflicts(over_required(), deterministic_time=0.001, budget=0.001)
    assert conflict.certificate == DAILY_TEXT  # type: ignore[attr-defined]
    assert not conflict.minimal  # type: ignore[attr-defined]
    assert {m.rule for m in conflict} == {"REQUEST", "MT-SMALL-DAILY"}


def test_daily_certificate_boundary() -> None:
    # 3 nights × 200 = 600 required <= 731 days: no count proves anything
    sc = load(horizon=TWO_YEARS, operators=[mt_room()],
              tournaments=[_small(f"night{k}", required=200) for k in range(1, 4)])
    ctx = build_model(sc, explain=True)
    assert MT_SMALL_DAILY.certificate is not None
    assert list(MT_SMALL_DAILY.certificate(ctx, frozenset({"night1", "night2", "night3"}))) \
        == []
    # two nights of 366 each = 732 > 731: one over
    sc = load(horizon=TWO_YEARS, operators=[mt_room()],
              tournaments=[_small(f"night{k}", required=366) for k in range(1, 3)])
    ctx = build_model(sc, explain=True)
    [cert] = MT_SMALL_DAILY.certificate(ctx, frozenset({"night1", "night2"}))
    assert (cert.operator_id, cert.tournaments, cert.excluded) == (
        "room-a", ("night1", "night2"), ())
    assert cert.text.startswith("732 required small-stakes tournaments at Room-A (2 × 366)")
    assert cert.text.endswith(": at least 1 cannot be placed")  # 732 - 731 = 1


def test_daily_count_over_the_days_a_window_leaves() -> None:
    # two nights of 20, both only in February 2027 (28 days): 40 > 28; over the horizon
    # (365 days) nothing is proven, so the windows are members of the conflict
    feb = {"start": "2027-02-01", "end": "2027-02-28"}
    sc = load(operators=[mt_room()],
              tournaments=[_small(f"night{k}", required=20, window=feb) for k in (1, 2)])
    [conflict] = minimal_conflicts(sc, deterministic_time=2, budget=20)
    assert conflict.certificate == (  # type: ignore[attr-defined]
        "40 required small-stakes tournaments at Room-A (2 × 20), at most one a day "
        "(MT-SMALL-DAILY), 28 days they can start (2027-02-01..2027-02-28): at least 12 "
        "cannot be placed")  # 40 - 28 = 12
    assert {m.rule for m in conflict} == {"REQUEST", "MT-SMALL-DAILY", "WINDOW"}


ONE_PERMIT_YEAR = {"start": "2027-07-01", "end": "2028-06-30"}  # permit year 07-01..06-30


def test_seventeen_required_large_stakes_in_one_permit_year() -> None:
    # 17 required counted large-stakes in the 2027-07-01 permit year, none held: 17 > 16
    sc = load(horizon=ONE_PERMIT_YEAR, notice_from="2027-01-01", operators=[mt_room()],
              tournaments=[mt_large("series", count=20, required=17)])
    [conflict] = minimal_conflicts(sc, deterministic_time=2, budget=20)
    assert conflict.certificate == (  # type: ignore[attr-defined]
        "17 required, 16 allowed: counted large-stakes tournaments of Room-A in the "
        "2027-07-01 permit year (MT-LARGE-LIMIT: at most 16 a permit year)")
    assert conflict.minimal  # type: ignore[attr-defined]
    assert [(m.rule, m.text) for m in conflict] == [
        ("REQUEST", "series needs 17 occurrence(s) placed (required: 17)"),
        ("MT-LARGE-LIMIT", "room-a holds at most 16 counted large-stakes tournaments in the "
                           "2027-07-01 permit year")]


def test_sixteen_required_large_stakes_fit() -> None:
    # 16 required <= 16: no certificate and no conflict (the 16th is allowed)
    sc = load(horizon=ONE_PERMIT_YEAR, notice_from="2027-01-01", operators=[mt_room()],
              tournaments=[mt_large("series", count=20, required=16)])
    assert MT_LARGE_LIMIT.certificate is not None
    assert list(MT_LARGE_LIMIT.certificate(build_model(sc, explain=True),
                                           frozenset({"series"}))) == []
    assert minimal_conflicts(sc, deterministic_time=2, budget=20) == []


def test_large_certificate_counts_the_held_and_the_charitable() -> None:
    # held 14 non-charitable + 4 charitable (3 not counted, 1 counted) = 15 counted, so
    # 16 - 15 = 1 allowed; 2 charitable required in January (no free place left): 2 counted
    sc = load(horizon={"start": "2027-01-01", "end": "2027-01-31"},
              operators=[mt_room(held_in_current_permit_year={"large_stakes": 14,
                                                              "charitable": 4})],
              tournaments=[mt_large("c", count=2, required=2, charitable=True,
                                    charity_share=0.5)])
    [cert] = MT_LARGE_LIMIT.certificate(build_model(sc, explain=True),  # type: ignore[misc]
                                        frozenset({"c"}))
    assert cert.text == (
        "2 required, 1 allowed: counted large-stakes tournaments of Room-A in the 2026-07-01 "
        "permit year (MT-LARGE-LIMIT: at most 16 a permit year; 15 counted ones held before "
        "the plan; the first 3 charitable ones are not counted (MT-CHARITY-LIMIT), 4 of them "
        "held before the plan)")


def test_monthly_limit_certificate() -> None:
    # 3 required games, all in March 2027 (the window): at most 2 a month, 3 - 2 = 1 over
    post = {"id": "post", "name": "Post 12", "jurisdiction": "ME", "local_approval": True,
            "beneficiaries": ["Food Bank"], "organized_on": "1990-01-01"}
    sc = load(notice_from="2026-10-01", operators=[post],
              tournaments=[{"id": "march", "title": "March", "type": "tournament-game",
                            "operators": ["post"], "players": 40, "entry_fee": 50,
                            "prize_share": 0.8, "start_time": "12:00", "hours": 6,
                            "count": 12, "required": 3,
                            "window": {"start": "2027-03-01", "end": "2027-03-31"}}])
    [conflict] = minimal_conflicts(sc, deterministic_time=2, budget=20)
    assert conflict.certificate == (  # type: ignore[attr-defined]
        "3 required games of Post 12, at most 2 a month (ME-MONTHLY-LIMIT, month_rule: "
        "touch), 1 month(s) they can be held in (2027-03): at least 1 cannot be placed")
    assert [m.rule for m in conflict] == ["REQUEST", "ME-MONTHLY-LIMIT", "WINDOW"]


def test_summary_prints_the_count_in_a_few_lines() -> None:
    sc = load(horizon=ONE_PERMIT_YEAR, notice_from="2027-01-01", operators=[mt_room()],
              tournaments=[mt_large("series", count=20, required=17)])
    text = summary_text(solve(sc, deterministic_time=5))
    start = text.index("Conflict 1")
    assert text[start:].splitlines()[:4] == [
        "Conflict 1: these cannot all hold (a minimal set: drop any one and the rest fit):",
        "  because 17 required, 16 allowed: counted large-stakes tournaments of Room-A in the "
        "2027-07-01 permit year (MT-LARGE-LIMIT: at most 16 a permit year)",
        "  - request: series needs 17 occurrence(s) placed (required: 17)",
        "  - room-a holds at most 16 counted large-stakes tournaments in the 2027-07-01 permit "
        "year (MT-LARGE-LIMIT, MCA 23-5-317(1)(a))"]
    # the 17th cannot be placed: one line
    assert [line[:12] for line in text.splitlines() if line.startswith("  series#")] == [
        "  series#17:"]


def test_summary_groups_a_run_of_unplaced_required_occurrences() -> None:
    # 19 required, 16 allowed: the 17th, 18th and 19th (19 - 16 = 3) share one reason
    sc = load(horizon=ONE_PERMIT_YEAR, notice_from="2027-01-01", operators=[mt_room()],
              tournaments=[mt_large("series", count=20, required=19)])
    text = summary_text(solve(sc, deterministic_time=5))
    assert [line[:33] for line in text.splitlines() if line.startswith("  series#")] == [
        "  series#17..#19 (3 occurrences):"]
