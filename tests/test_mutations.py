"""Mutation tests: take a solved (legal) plan, break it in one way, and the independent checker
must name the rule that breaks.

Plans come from ``scheduler.engine.solver.solve`` on two small fixed scenarios (solved once per
run) and
from the random scenarios of ``tests/builders/strategies.py``. Each mutation edits the placed
occurrences (``scheduler.engine.extract.placed_of``) with ``dataclasses.replace`` and a new
``Timing``,
or drops a licence, and runs ``constraints.registry.check`` on an ``Audit``. Schedule mutations
are audited without the cost rules (a moved Maine game leaves its per-tournament licence behind,
which is a different finding); the licence mutation runs every rule.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from functools import cache
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from constraints.base import Audit, License, Occurrence, Violation
from constraints.registry import RULES, check
from scheduler.core.scenario import Scenario
from scheduler.core.timing import Timing, timing, tournament_tz
from scheduler.engine.extract import placed_of
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario
from scheduler.result.plan import Plan

from builders.strategies import ci_examples, scenarios

SCHEDULE_RULES = [r for r in RULES if r.id not in ("MT-PERMIT-FEES", "ME-FEES")]
SLOW_OK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                         HealthCheck.filter_too_much])
SOLVING = settings(SLOW_OK, max_examples=ci_examples(10))
"""A random scenario solved per example: 10 examples under the ``ci`` profile."""

# Montana: 14 counted tournaments held before the plan, so only 2 more fit in the 2026-07-01
# permit year (14 + 2 = 16); notices can be filed from Feb 28, so the earliest first day is
# Mar 5 (Mar 5 - 5 days = Feb 28). Each occurrence: 2 play days 12:00 + 14 h, i.e. 3
# calendar days (the second session ends at 02:00 on the third day).
MT: dict[str, Any] = {
    "name": "mutations MT",
    "horizon": {"start": "2027-03-01", "end": "2027-05-31"},
    "notice_from": "2027-02-28",
    "operators": [{"id": "room", "name": "Bitterroot Card Room", "jurisdiction": "MT",
                   "live_tables": 2, "max_concurrent": 3,
                   "held_in_current_permit_year": {"large_stakes": 14},
                   "blackout": ["2027-03-20", "2027-04-17", "2027-05-15"]}],
    "tournaments": [{"id": "stack", "title": "Spring Stack", "type": "large-stakes",
                     "operators": ["room"], "count": 3, "days": 2, "start_time": "12:00",
                     "hours": 14, "entry_fee": 375, "reentries": 3}],
}
MT_FIRST_LEGAL = dt.date(2027, 3, 5)
MT_BLACKOUTS = [dt.date(2027, 3, 20), dt.date(2027, 4, 17), dt.date(2027, 5, 15)]

# Maine: beano every Tuesday 18:00-22:00; 8 hold'em games (40 players, 12 h) and 2 marathons
# (80 players, 48 h) in six months: 10 <= 2 x 6, so all are placed, 2 in some months.
ME: dict[str, Any] = {
    "name": "mutations ME",
    "horizon": {"start": "2027-01-01", "end": "2027-06-30"},
    "notice_from": "2026-12-01",
    "settings": {"month_rule": "touch"},
    "operators": [{"id": "post", "name": "Legion Post 212", "jurisdiction": "ME",
                   "organized_on": "1946-05-12", "local_approval": True,
                   "beneficiaries": ["Scholarship Fund"], "max_concurrent": 3,
                   "other_games": [{"weekday": "tue", "start": "18:00", "end": "22:00"}]}],
    "tournaments": [
        {"id": "holdem", "title": "Hold'em", "type": "tournament-game", "operators": ["post"],
         "count": 8, "players": 40, "entry_fee": 50, "prize_share": 0.8,
         "start_time": "12:00", "hours": 12},
        {"id": "marathon", "title": "Marathon", "type": "tournament-game",
         "operators": ["post"], "count": 2, "players": 80, "entry_fee": 100,
         "prize_share": 0.8, "start_time": "12:00", "hours": 48},
    ],
}


@cache
def solved(which: str) -> Plan:
    plan = solve(load_scenario(MT if which == "MT" else ME), time_limit=10, seed=0, workers=1)
    assert plan.status == "OPTIMAL"
    return plan


def audit(sc: Scenario, placed: list[Occurrence], licenses: list[License] | None = None
          ) -> list[Violation]:
    if licenses is None:
        return check(Audit(sc, placed), rules=SCHEDULE_RULES)
    return check(Audit(sc, placed, licenses))


def moved(sc: Scenario, p: Occurrence, day: dt.date) -> Occurrence:
    """``p`` started on ``day`` instead, timed as the product times it."""
    tm = timing(p.tournament, tournament_tz(sc, p.tournament), day)
    assert tm is not None
    return dataclasses.replace(p, timing=tm)


def span(start: dt.datetime, end: dt.datetime) -> Timing:
    last = (end - dt.timedelta(microseconds=1)).date()
    return Timing(start, end, tuple(start.date() + dt.timedelta(days=k)
                                    for k in range((last - start.date()).days + 1)))


def swap(placed: list[Occurrence], old: Occurrence, new: Occurrence) -> list[Occurrence]:
    return [new if p.ref == old.ref else p for p in placed]


def rules_of(vs: list[Violation]) -> set[str]:
    return {v.rule for v in vs}


# ------------------------------------------------------------------------------ the solved plans
def test_solved_plans_are_legal_and_as_expected() -> None:
    mt = solved("MT")
    mt_placed = placed_of(mt)
    # 14 held + 2 placed = 16: the third is unscheduled for MT-LARGE-LIMIT
    assert len(mt_placed) == 2
    assert len(mt.unscheduled_list) == 1 and "MT-LARGE-LIMIT" in mt.unscheduled_list[0].rule_ids
    assert min(p.first_day for p in mt_placed) >= MT_FIRST_LEGAL
    assert audit(mt.scenario, mt_placed, mt.license_list) == []
    me = solved("ME")
    assert len(placed_of(me)) == 10 and me.unscheduled_list == ()
    assert audit(me.scenario, placed_of(me), me.license_list) == []
    # per-tournament licences only (8 x $40 + 2 x $75 = $470 < any annual licence)
    assert {lic.kind for lic in me.license_list} == {"me-per-tournament"}


# ------------------------------------------------------------------------------ Montana
@given(st.data())
@SLOW_OK
def test_move_into_a_blackout(data: st.DataObject) -> None:
    # An occurrence is conducted on 3 calendar days (first, first + 1, and first + 2 until
    # 02:00): starting on a blackout day or up to 2 days before it puts play on that day.
    plan = solved("MT")
    sc, placed = plan.scenario, placed_of(plan)
    p = data.draw(st.sampled_from(placed))
    b = data.draw(st.sampled_from(MT_BLACKOUTS))
    k = data.draw(st.integers(0, 2))
    q = moved(sc, p, b - dt.timedelta(days=k))
    assert b in q.timing.days
    vs = audit(sc, swap(placed, p, q))
    assert [(v.rule, v.operator_id, v.refs, v.dates) for v in vs] == [
        ("BLACKOUT", "room", (p.ref,), b.isoformat())]
    # the day after the blackout is free again
    assert audit(sc, swap(placed, p, moved(sc, p, b + dt.timedelta(days=1)))) == []


@given(st.data())
@SLOW_OK
def test_add_a_17th_counted_tournament(data: st.DataObject) -> None:
    # 14 held + 2 placed = 16 (legal); one more large-stakes occurrence anywhere legal
    # otherwise is the 17th of the 2026-07-01 permit year. The latest by date is named.
    plan = solved("MT")
    sc, placed = plan.scenario, placed_of(plan)
    t = sc.tournament("stack")
    free = [d for k in range((dt.date(2027, 5, 29) - MT_FIRST_LEGAL).days + 1)
            if not set((d := MT_FIRST_LEGAL + dt.timedelta(days=k),
                        d + dt.timedelta(days=1), d + dt.timedelta(days=2))) & set(MT_BLACKOUTS)]
    day = data.draw(st.sampled_from(free))
    tm = timing(t, tournament_tz(sc, t), day)
    assert tm is not None
    extra = Occurrence(t, 3, tm)
    vs = audit(sc, [*placed, extra])
    latest = max([*placed, extra], key=lambda p: (p.first_day, p.ref))
    assert [(v.rule, v.operator_id, v.refs, v.dates) for v in vs] == [
        ("MT-LARGE-LIMIT", "room", (latest.ref,), latest.first_day.isoformat())]
    assert "17th" in vs[0].message


@given(st.data())
@SLOW_OK
def test_push_a_first_day_before_the_notice_date(data: st.DataObject) -> None:
    # notice_from Feb 28: a first day of Mar 1..Mar 4 has its notice due Feb 24..Feb 27, before
    # the earliest filing day; Mar 5 (due Feb 28) is the first legal day.
    plan = solved("MT")
    sc, placed = plan.scenario, placed_of(plan)
    p = data.draw(st.sampled_from(placed))
    day = dt.date(2027, 3, data.draw(st.integers(1, 4)))
    vs = audit(sc, swap(placed, p, moved(sc, p, day)))
    assert [(v.rule, v.operator_id, v.refs, v.dates) for v in vs] == [
        ("MT-NOTICE", "room", (p.ref,), day.isoformat())]
    assert audit(sc, swap(placed, p, moved(sc, p, MT_FIRST_LEGAL))) == []


# ------------------------------------------------------------------------------ Maine
def _touches_other_months(p: Occurrence) -> bool:
    return len({(d.year, d.month) for d in p.timing.days}) > 1


@given(st.data())
@SLOW_OK
def test_stretch_a_maine_game_past_48_hours(data: st.DataObject) -> None:
    # 48 h from the start is the limit (legal); 48 h + 1..60 min is not. Games whose 48 h
    # stretch would meet beano or another month are left out, so only ME-DURATION can break.
    plan = solved("ME")
    sc, placed = plan.scenario, placed_of(plan)

    def stretched(p: Occurrence, minutes: int) -> Occurrence:
        s = p.timing.start
        end = (s.astimezone(dt.UTC) + dt.timedelta(hours=48, minutes=minutes)).astimezone(
            s.tzinfo)
        return dataclasses.replace(p, timing=span(s, end))

    ok = [p for p in placed if audit(sc, swap(placed, p, stretched(p, 0))) == []]
    assert ok, "no game can be stretched to exactly 48 h legally"
    p = data.draw(st.sampled_from(ok))
    minutes = data.draw(st.integers(1, 60))
    vs = audit(sc, swap(placed, p, stretched(p, minutes)))
    assert [(v.rule, v.operator_id, v.refs, v.dates) for v in vs] == [
        ("ME-DURATION", "post", (p.ref,), p.first_day.isoformat())]


@given(st.data())
@SLOW_OK
def test_cross_into_a_month_that_already_has_two(data: st.DataObject) -> None:
    # A 12 h game of month M moved to start at 23:00 on M's last day ends at 11:00 on the 1st
    # of M+1. Under month_rule touch it counts in M (as before) and in M+1, which already holds
    # 2 games: 3 > 2. Under month_rule start it still counts only in M: legal.
    plan = solved("ME")
    sc, placed = plan.scenario, placed_of(plan)
    per_month: dict[tuple[int, int], set[str]] = {}
    for p in placed:
        for d in p.timing.days:
            per_month.setdefault((d.year, d.month), set()).add(p.ref)

    def next_month(day: dt.date) -> dt.date:
        return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)

    movers = [p for p in placed if p.tid == "holdem" and not _touches_other_months(p)
              and len(per_month.get((next_month(p.first_day).year,
                                     next_month(p.first_day).month), set())) == 2]
    assert movers, "no month with 2 games follows a month with a hold'em game"
    p = data.draw(st.sampled_from(movers))
    first_of_next = next_month(p.first_day)
    start = dt.datetime.combine(first_of_next - dt.timedelta(days=1), dt.time(23),
                                p.timing.start.tzinfo)
    q = dataclasses.replace(p, timing=span(start, start + dt.timedelta(hours=12)))
    assert q.timing.months == ((p.first_day.year, p.first_day.month),
                               (first_of_next.year, first_of_next.month))
    mutated = swap(placed, p, q)
    vs = audit(sc, mutated)
    assert [(v.rule, v.operator_id, v.dates) for v in vs] == [
        ("ME-MONTHLY-LIMIT", "post", f"{first_of_next:%Y-%m}")]
    assert p.ref in vs[0].refs and len(vs[0].refs) == 3
    start_reading = load_scenario({**ME, "settings": {"month_rule": "start"}})
    assert audit(start_reading, mutated) == []


@given(st.data())
@SLOW_OK
def test_put_a_maine_game_on_the_beano_night(data: st.DataObject) -> None:
    # A 12 h hold'em game moved to a Tuesday of its own month (not the month's last day),
    # starting at 07:00..21:00: [h, h + 12) meets beano [18:00, 22:00) for every such h.
    plan = solved("ME")
    sc, placed = plan.scenario, placed_of(plan)
    p = data.draw(st.sampled_from([p for p in placed if p.tid == "holdem"
                                   and not _touches_other_months(p)]))
    first = p.first_day.replace(day=1)
    tuesdays = [d for k in range(31) if (d := first + dt.timedelta(days=k)).month == first.month
                and d.weekday() == 1 and (d + dt.timedelta(days=1)).month == first.month]
    tue = data.draw(st.sampled_from(tuesdays))
    hour = data.draw(st.integers(7, 21))
    start = dt.datetime.combine(tue, dt.time(hour), p.timing.start.tzinfo)
    q = dataclasses.replace(p, timing=span(start, start + dt.timedelta(hours=12)))
    vs = audit(sc, swap(placed, p, q))
    assert [(v.rule, v.operator_id, v.refs, v.dates) for v in vs] == [
        ("ME-OTHER-GAMES", "post", (p.ref,), tue.isoformat())]
    # ending exactly at 18:00 (06:00 + 12 h) just misses it
    start = dt.datetime.combine(tue, dt.time(6), p.timing.start.tzinfo)
    q = dataclasses.replace(p, timing=span(start, start + dt.timedelta(hours=12)))
    assert audit(sc, swap(placed, p, q)) == []


@given(st.data())
@SLOW_OK
def test_drop_the_licence_covering_a_maine_game(data: st.DataObject) -> None:
    plan = solved("ME")
    sc, placed = plan.scenario, placed_of(plan)
    p = data.draw(st.sampled_from(placed))
    kept = [lic for lic in plan.license_list if p.ref not in lic.covers]
    assert len(kept) == len(plan.license_list) - 1
    vs = audit(sc, placed, kept)
    assert [(v.rule, v.operator_id, v.refs, v.dates) for v in vs] == [
        ("ME-FEES", "post", (p.ref,), p.first_day.isoformat())]


# ------------------------------------------------------------------------------ random plans
@given(scenarios(), st.data())
@SOLVING
def test_random_plan_moved_onto_a_blackout_day(scenario: dict, data: st.DataObject) -> None:
    sc = load_scenario(scenario)
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    placed = placed_of(plan)
    choices = [(p, oid, b) for p in placed for oid in p.tournament.operators
               for b in sc.operator(oid).blackout]
    if not choices:
        return
    event("moved onto a blackout day")
    p, oid, b = data.draw(st.sampled_from(choices))
    q = moved(sc, p, b)
    vs = audit(sc, swap(placed, p, q))
    assert ("BLACKOUT", oid, (p.ref,), b.isoformat()) in [
        (v.rule, v.operator_id, v.refs, v.dates) for v in vs]


@given(scenarios(), st.data())
@SOLVING
def test_random_plan_without_a_maine_licence(scenario: dict, data: st.DataObject) -> None:
    # Drop every licence that could cover one Maine licensed game: ME-FEES names it, and
    # nothing but ME-FEES breaks.
    sc = load_scenario(scenario)
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    placed = placed_of(plan)
    # a pinned date the plan could not honour is reported as unscheduled, not as illegal
    assert [v for v in audit(sc, placed, plan.license_list)
            if v.rule not in ("FIXED-DATES", "REQUIRED")] == []
    games = [p for p in placed if p.tournament.type in ("tournament-game", "super-cribbage")]
    if not games:
        return
    event("dropped a Maine licence")
    p = data.draw(st.sampled_from(games))
    kept = [lic for lic in plan.license_list
            if not (lic.operator_id == p.tournament.operators[0]
                    and lic.valid_from <= p.first_day <= lic.valid_to)]
    vs = audit(sc, placed, kept)
    assert rules_of(vs) - {"FIXED-DATES", "REQUIRED"} == {"ME-FEES"}
    assert (p.ref,) in [v.refs for v in vs]
