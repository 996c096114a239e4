"""ME-REPORT's licensed periods (16-633 CMR ch. 32 § 8) have one home,
``scheduler.core.timing.report_periods``: the calendars and the ledger's deadlines read it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from scheduler.core.timing import report_periods
from scheduler.ledger import Ledger, api
from scheduler.ledger.store import Store

D = dt.date


def test_an_annual_licence_reports_each_calendar_month_the_last_cut_at_valid_to() -> None:
    # valid 2027-11-15..2028-02-10: Nov (ends 30), Dec (31), Jan (31), Feb cut at the 10th
    assert report_periods("me-annual", D(2027, 11, 15), D(2028, 2, 10)) == [
        D(2027, 11, 30), D(2027, 12, 31), D(2028, 1, 31), D(2028, 2, 10)]
    # 2028 is a leap year: February ends on the 29th
    assert report_periods("me-annual", D(2028, 2, 1), D(2028, 3, 1)) == [
        D(2028, 2, 29), D(2028, 3, 1)]


def test_other_maine_licences_report_once_at_valid_to() -> None:
    # per-tournament, monthly, super-cribbage: one period, ending on the last valid day
    for kind in ("me-per-tournament", "me-monthly", "me-super-cribbage"):
        assert report_periods(kind, D(2027, 3, 1), D(2027, 3, 31)) == [D(2027, 3, 31)]


def test_the_public_ledger_is_the_store_with_its_frames(tmp_path: Path) -> None:
    # `from scheduler.ledger import Ledger` is api.Ledger, a Store (the database) with methods
    assert Ledger is api.Ledger and issubclass(Ledger, Store)
    path = tmp_path / "l.sqlite"
    assert repr(Ledger(path)) == f"Ledger('sqlite:///{path}')"
    assert repr(Store(path)) == f"Store('sqlite:///{path}')"
