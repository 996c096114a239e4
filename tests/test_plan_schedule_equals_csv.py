"""``plan.schedule`` is schedule.csv row for row (issue #22): a night of a weekly series has
the series' UID and its RECURRENCE-ID in both, so a join with ``Ledger.events()`` on ``uid``
finds every night; each row carries its ``status``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from scheduler.engine.solver import solve
from scheduler.export.write import write_plan
from scheduler.ledger import Ledger, api

from builders.scenarios import d, load, mt_room

MARCH = {"start": "2027-03-01", "end": "2027-03-31"}


def _weekly(**kw: object) -> dict[str, object]:
    # small-stakes every Tuesday of March 2027: 2, 9, 16, 23, 30 -> one weekly series
    return {"id": "tue", "title": "Tuesday Night", "type": "small-stakes",
            "operators": ["room-a"], "weekdays": ["tue"], "count": 5, "start_time": "19:00",
            "hours": 4, **kw}


def _csv(folder: Path) -> pd.DataFrame:
    return pd.read_csv(folder / "schedule.csv", dtype=str, keep_default_na=False)


def _same(plan_df: pd.DataFrame, csv: pd.DataFrame) -> None:
    cols = ["tournament_id", "occurrence", "operator_id", "uid", "sequence", "recurrence_id",
            "status"]
    mine = plan_df[cols].astype(str).reset_index(drop=True)
    assert mine.to_dict(orient="records") == csv[cols].to_dict(orient="records")


def test_weekly_series_nights_have_the_series_uid_in_plan_and_csv(tmp_path: Path) -> None:
    sc = load(horizon=MARCH, notice_from="2027-02-01", operators=[mt_room()],
              tournaments=[_weekly()])
    plan = solve(sc, as_of=d("2027-02-01"))
    out = tmp_path / "plan"
    write_plan(plan, out)
    df, csv = plan.schedule, _csv(out)
    # 5 Tuesdays, one series: one UID, each night its own day as RECURRENCE-ID
    assert list(csv["first_day"]) == ["2027-03-02", "2027-03-09", "2027-03-16", "2027-03-23",
                                      "2027-03-30"]
    assert csv["uid"].nunique() == 1 and csv["uid"].iloc[0].startswith("tue.series@room-a.")
    assert list(csv["recurrence_id"]) == list(csv["first_day"])
    assert set(csv["status"]) == {"new"}
    _same(df, csv)


def test_plan_schedule_joins_ledger_events_on_uid(tmp_path: Path, url: str) -> None:
    sc = load(horizon=MARCH, notice_from="2027-02-01", operators=[mt_room()],
              tournaments=[_weekly()])
    plan = solve(sc, as_of=d("2027-02-01"))
    out = tmp_path / "plan"
    write_plan(plan, out)
    lg = Ledger(url)
    try:
        api.init(lg)
        api.adopt(lg, out)
        events = lg.events()
    finally:
        lg.dispose()
    df = plan.schedule.copy()
    df["recurrence_id"] = pd.to_datetime(df["recurrence_id"])
    joined = df.merge(events, on=["uid", "recurrence_id"], how="inner")
    assert len(joined) == 5  # every night of the series is found in the ledger


def test_replan_keeps_series_identity_equal(tmp_path: Path) -> None:
    # blacking out Tue Mar 16 in a re-plan: the series keeps its UID, its nights change
    # (EXDATE), so its SEQUENCE goes up by one (RFC 5545 §3.8.7.4) in the plan and the csv
    sc = load(horizon=MARCH, notice_from="2027-02-01", operators=[mt_room()],
              tournaments=[_weekly(count=4)])
    a = tmp_path / "A"
    write_plan(solve(sc, as_of=d("2027-02-01")), a)
    later = load(horizon=MARCH, notice_from="2027-02-01",
                 operators=[mt_room(blackout=["2027-03-02"])], tournaments=[_weekly(count=4)])
    plan = solve(later, previous=a, as_of=d("2027-02-01"))
    b = tmp_path / "B"
    write_plan(plan, b)
    csv = _csv(b)
    assert csv["uid"].nunique() == 1 and csv["uid"].iloc[0] == _csv(a)["uid"].iloc[0]
    assert set(csv["sequence"]) == {"1"}
    # Mar 9, 16, 23 were announced in the series; Mar 30 is new (Mar 2 is blacked out)
    assert dict(zip(csv["first_day"], csv["status"], strict=True)) == {
        "2027-03-09": "announced", "2027-03-16": "announced", "2027-03-23": "announced",
        "2027-03-30": "new"}
    _same(plan.schedule, csv)
