"""MT-LARGE-LIMIT across July 1 (MCA 23-5-317(1)(a), MT-PERMIT-YEAR): a tournament whose
days of play fall in two permit years counts toward the 16 of each of them by default;
``settings.permit_year_count: first-day`` counts it only in its first day's permit year.

One room (room-a, permit years Jul 1 - Jun 30) holds ``span``, Tue 2027-06-29 to Sat
2027-07-03 (5 days of play, 12:00 for 10 h each), and wants 16 one-day tournaments after it,
Jul 4 - Aug 31 (one at a time: max_concurrent 1). Hand count for the permit year
2027-07-01:

- ``each`` (default): ``span`` plays Jul 1, 2, 3, so it counts there: 1 + 16 = 17 > 16, so
  15 of the 16 are placed (1 + 15 = 16); the check flags the 17th counted one;
- ``first-day``: ``span`` counts only in the permit year 2026-07-01 (Jun 29): 0 + 16 = 16,
  all 16 placed, no violation.

The judgement is the same on the plan (the model), on the schedule (``tourney check``),
on what was held (the ledger's actuals) and in the usage lines of the summary.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from constraints.base import Actual, Actuals, Audit
from constraints.registry import check, check_actuals
from scheduler.core.scenario import Scenario
from scheduler.export.summary import summary_text
from scheduler.result.usage import limit_usage

from builders.scenarios import d, load, mt_large, mt_room, placed, run, violations

LATER = [d("2027-07-04") + dt.timedelta(days=i) for i in range(16)]  # Jul 4 .. Jul 19


def scenario(reading: str | None = None) -> Scenario:
    settings: dict[str, Any] = {} if reading is None else {"permit_year_count": reading}
    return load(
        horizon={"start": "2027-06-01", "end": "2027-08-31"},
        notice_from="2027-05-01",
        settings=settings,
        operators=[mt_room()],
        tournaments=[
            mt_large("span", days=5, fixed_dates=["2027-06-29"], required=1),
            mt_large("later", count=16, window={"start": "2027-07-04", "end": "2027-08-31"}),
        ])


@pytest.mark.parametrize(("reading", "later_placed"), [(None, 15), ("first-day", 16)])
def test_model_places_15_by_default_and_16_under_first_day(reading: str | None,
                                                           later_placed: int) -> None:
    plan = run(scenario(reading))
    # span is fixed on Jun 29 (required); the rest is the room of the 2027-07-01 permit year
    assert [r.first_day for r in plan.rows if r.tournament_id == "span"] == [d("2027-06-29")]
    assert sum(r.tournament_id == "later" for r in plan.rows) == later_placed
    usage = {(u.rule, u.period): u.used for u in limit_usage(plan)}
    # each: 2026-07-01 counts span (Jun 29, 30), 2027-07-01 counts span + 15 = 16
    # first-day: 2026-07-01 counts span, 2027-07-01 counts the 16 later ones
    assert usage[("MT-LARGE-LIMIT", "2026-07-01")] == 1
    assert usage[("MT-LARGE-LIMIT", "2027-07-01")] == 16
    text = summary_text(plan)
    assert "MT-LARGE-LIMIT permit year 2027-07-01: 16/16 counted" in text
    assert f"permit_year_count={reading or 'each'}" in text


def test_check_flags_the_17th_counted_by_default() -> None:
    sc = scenario()
    occ = [placed(sc, "span", "2027-06-29")] + [
        placed(sc, "later", day, k) for k, day in enumerate(LATER, start=1)]
    # counted in 2027-07-01: span (1st), Jul 4 .. Jul 18 (2nd..16th), Jul 19 the 17th
    assert [v for v in violations(sc, occ) if v[0] == "MT-LARGE-LIMIT"] == [
        ("MT-LARGE-LIMIT", "room-a", "2027-07-19")]
    # its legal twin: one fewer (Jul 19 dropped) is exactly 16
    assert [v for v in violations(sc, occ[:-1]) if v[0] == "MT-LARGE-LIMIT"] == []


@pytest.mark.parametrize("reading", [None, "first-day"])
def test_span_is_the_17th_of_its_first_permit_year_either_way(reading: str | None) -> None:
    # 16 one-day ones Jun 1 .. Jun 16 2027, then span from Jun 29: in the permit year
    # 2026-07-01 span is the 17th under both readings (its first day is there)
    sc = scenario(reading)
    june = [d("2027-06-01") + dt.timedelta(days=i) for i in range(16)]
    occ = [placed(sc, "later", day, k) for k, day in enumerate(june, start=1)]
    occ.append(placed(sc, "span", "2027-06-29"))
    found = [v for v in check(Audit(sc, occ)) if v.rule == "MT-LARGE-LIMIT"]
    assert [(v.operator_id, v.dates) for v in found] == [("room-a", "2027-06-29")]
    both = ("played 2027-06-29 to 2027-07-03: it counts in each of the permit years "
            "2026-07-01 and 2027-07-01 (permit_year_count: each)")
    assert "17th counted large-stakes tournament of the 2026-07-01 permit year" in found[0].message
    assert (both in found[0].message) == (reading is None)


def _held(sc: Scenario) -> list[Actual]:
    span = Actual("span", 1, "room-a", "MT", "large-stakes", False, d("2027-06-29"),
                  d("2027-07-03"), notice_filed_on=d("2027-06-01"))
    return [span] + [Actual("later", k, "room-a", "MT", "large-stakes", False, day, day,
                            notice_filed_on=d("2027-06-01"))
                     for k, day in enumerate(LATER, start=1)]


@pytest.mark.parametrize(("reading", "expected"), [
    # each: span + 16 in 2027-07-01 = 17: later#16 (Jul 19) is the 17th
    (None, [("MT-LARGE-LIMIT", "room-a", "2027-07-19")]),
    # first-day: 16 in 2027-07-01, span alone in 2026-07-01
    ("first-day", []),
])
def test_actuals_count_a_held_tournament_in_each_permit_year(
        reading: str | None, expected: list[tuple[str, str, str]]) -> None:
    sc = scenario(reading)
    got = [(v.rule, v.operator_id, v.dates) for v in check_actuals(Actuals(sc, _held(sc)))
           if v.rule == "MT-LARGE-LIMIT"]
    assert got == expected
