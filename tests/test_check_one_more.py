"""The check of one occurrence more (``Rule.added``: what the reasons of an occurrence not
placed read for every allowed first day) finds what the whole independent check finds with
that occurrence added and did not find without it: the same sentences, in the same order, at
the exact boundaries (the 16th and 17th counted large-stakes tournament, a session starting
as another ends)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from constraints.base import Audit, Occurrence, Violation
from constraints.registry import RULES
from scheduler.core.scenario import Scenario
from scheduler.core.timing import timing, tournament_tz
from scheduler.inputs.load import load_scenario

from builders.scenarios import load, placed

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
MT = {"id": "room", "name": "Prairie Card Club", "jurisdiction": "MT", "live_tables": 2}
JAN = {"start": "2027-01-01", "end": "2027-01-31"}


def new_by_whole_check(base: Audit, one: Occurrence, rule_id: str) -> list[Violation]:
    """What ``rule_id``'s whole check finds with ``one`` added and not without it."""
    rule = next(r for r in RULES if r.id == rule_id)
    assert rule.check is not None
    before = {(v.rule, v.message) for v in rule.check(base)}
    return [v for v in rule.check(base.with_one(one)) if (v.rule, v.message) not in before]


def new_by_added(base: Audit, one: Occurrence, rule_id: str) -> list[Violation]:
    """What ``rule_id``'s ``added`` finds with ``one`` added and the whole check not
    without it."""
    rule = next(r for r in RULES if r.id == rule_id)
    assert rule.check is not None and rule.added is not None
    before = {(v.rule, v.message) for v in rule.check(base)}
    return [v for v in rule.added(base, one) if (v.rule, v.message) not in before]


def large_month(held: int) -> Scenario:
    return load(horizon=JAN, operators=[{**MT, "held_in_current_permit_year":
                                         {"large_stakes": held}}],
                tournaments=[{"id": "big", "title": "big", "type": "large-stakes",
                              "operators": ["room"], "count": 4}])


def test_large_limit_the_16th_counted_adds_nothing() -> None:
    # 14 held + big#1 = 15 counted in the 2026-07-01 permit year; big#2 is the 16th: allowed
    sc = large_month(14)
    base = Audit(sc, [placed(sc, "big", "2027-01-08", 1)])
    one = placed(sc, "big", "2027-01-15", 2)
    assert new_by_added(base, one, "MT-LARGE-LIMIT") == []
    assert new_by_whole_check(base, one, "MT-LARGE-LIMIT") == []


@pytest.mark.parametrize(("day", "seventeenth", "used"), [
    # 14 held + big#1 + big#2 = 16 counted; big#3 on Jan 22 is the 14 + 3 = 17th, and the 16
    # are used by the 14 held and big#1, big#2 (the first 16 - 14 = 2 placed, by date)
    ("2027-01-22", "2027-01-22 (big#3)", "big#1, big#2"),
    # big#3 on Jan 1 comes first by date: big#3 is the 15th, big#1 the 16th, big#2 (Jan 15)
    # the 17th; the sentence names big#2, a placed one, and the 16 used by big#3, big#1
    ("2027-01-01", "2027-01-15 (big#2)", "big#3, big#1"),
], ids=["last-by-date", "first-by-date"])
def test_large_limit_one_more_makes_a_17th_with_the_checks_sentence(
        day: str, seventeenth: str, used: str) -> None:
    sc = large_month(14)
    base = Audit(sc, [placed(sc, "big", "2027-01-08", 1), placed(sc, "big", "2027-01-15", 2)])
    one = placed(sc, "big", day, 3)
    got = new_by_added(base, one, "MT-LARGE-LIMIT")
    assert [v.message for v in got] == [
        "Prairie Card Club would hold its 17th counted large-stakes tournament of the "
        f"2026-07-01 permit year on {seventeenth}; all 16 are used by 14 held before the "
        f"plan and {used}"]
    assert got == new_by_whole_check(base, one, "MT-LARGE-LIMIT")


def evenings() -> Scenario:
    # one tournament at a time (max_concurrent 1, concurrency: time): "early" 18:00-22:00,
    # "late" 21:00-24:00 overlaps it by an hour, "after" 22:00-02:00 starts as it ends
    def large(tid: str, start: str, hours: int) -> dict[str, object]:
        return {"id": tid, "title": tid, "type": "large-stakes", "operators": ["room"],
                "start_time": start, "hours": hours}
    return load(horizon=JAN, operators=[MT],
                tournaments=[large("early", "18:00", 4), large("late", "21:00", 3),
                             large("after", "22:00", 4), large("long", "08:00", 2)])


def test_max_concurrent_one_more_overlapping_names_both_sessions() -> None:
    # at 21:00 on Jan 8, early#1 (18:00-22:00) and late#1 (21:00-00:00 on Jan 9): 2 > 1
    sc = evenings()
    base = Audit(sc, [placed(sc, "early", "2027-01-08"), placed(sc, "early", "2027-01-15", 2)])
    one = placed(sc, "late", "2027-01-08")
    got = new_by_added(base, one, "MAX-CONCURRENT")
    assert [v.message for v in got] == [
        "Prairie Card Club would have 2 tournaments in play at once at 2027-01-08 21:00 "
        "(early#1 18:00-22:00, late#1 21:00-2027-01-09 00:00); at most 1 at once"]
    assert got == new_by_whole_check(base, one, "MAX-CONCURRENT")


def test_max_concurrent_one_more_starting_as_another_ends_adds_nothing() -> None:
    # after#1 starts at 22:00 on Jan 8, the instant early#1 ends (end exclusive): 1 in play
    sc = evenings()
    base = Audit(sc, [placed(sc, "early", "2027-01-08")])
    one = placed(sc, "after", "2027-01-08")
    assert new_by_added(base, one, "MAX-CONCURRENT") == []
    assert new_by_whole_check(base, one, "MAX-CONCURRENT") == []


def test_max_concurrent_over_the_limit_already_is_swept_whole() -> None:
    # early#1 and late#1 on Jan 8 break the limit already (reported at 21:00); late#2 on
    # Jan 15 overlaps early#2 there: a new run over the limit, at 21:00 on Jan 15
    sc = evenings()
    base = Audit(sc, [placed(sc, "early", "2027-01-08"), placed(sc, "late", "2027-01-08"),
                      placed(sc, "early", "2027-01-15", 2)])
    one = placed(sc, "late", "2027-01-15", 2)
    got = new_by_added(base, one, "MAX-CONCURRENT")
    assert [v.dates for v in got] == ["2027-01-15"]
    assert got == new_by_whole_check(base, one, "MAX-CONCURRENT")


def every_kth(sc: Scenario, k: int, most: int) -> list[Occurrence]:
    """Each tournament placed on every ``k``-th day of the horizon it can start on (at most
    ``most`` times): a schedule that breaks the linking rules here and there."""
    out = []
    for t in sc.tournaments:
        tz = tournament_tz(sc, t)
        days = [sc.horizon.start + dt.timedelta(days=i)
                for i in range(0, (sc.horizon.end - sc.horizon.start).days + 1, k)]
        tms = [tm for day in days if (tm := timing(t, tz, day)) is not None][:most]
        out.extend(Occurrence(t, n, tm) for n, tm in enumerate(tms, start=1))
    return out


@pytest.mark.parametrize("example", ["combined.yaml", "summer-tour.yaml",
                                     "two-room-progressive.yaml", "maine-legion-post.yaml",
                                     "monthly-series.yaml"])
def test_every_rule_with_added_finds_what_the_whole_check_finds(example: str) -> None:
    # every tournament placed every 9th day (at most 12 times), then one more of each
    # tournament tried on every 17th day (10 days): each rule's added and its whole check agree
    sc = load_scenario(EXAMPLES / example)
    base = Audit(sc, every_kth(sc, 9, 12))
    broken = set()
    for t in sc.tournaments:
        for one in every_kth(sc.model_copy(update={"tournaments": [t]}), 17, 10):
            one = Occurrence(t, 99, one.timing)
            for rule in RULES:
                if rule.added is not None:
                    got = new_by_added(base, one, rule.id)
                    assert got == new_by_whole_check(base, one, rule.id), (rule.id, one.ref,
                                                                            one.first_day)
                    broken.update(v.rule for v in got)
    print(example, sorted(broken))
    assert broken  # one more breaks some linking rule somewhere
