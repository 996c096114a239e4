"""The Python API: names importable from `scheduler`, DataFrames with proper dtypes."""

from __future__ import annotations

import datetime as dt

import pandas as pd

import scheduler


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
