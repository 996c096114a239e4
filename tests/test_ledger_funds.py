"""ME-REPORT disposition-of-funds figures per licensed period (issue #13): ``tourney ledger
funds`` from the actuals recorded with ``tourney record held``, on SQLite and PostgreSQL.

The plan: Legion Post 1 (Maine) under an annual licence valid 2027-01-09..2028-01-08 (its
licensed periods: 2027-01-09..01-31, each calendar month, 2028-01-01..01-08: 13 periods) for
holdem#1 (Sat 2027-01-16), holdem#2 (Sat 2027-01-30), holdem#3 (Sat 2027-02-13), and a super
cribbage licence valid 2027-02-20..02-21 for crib#1.
Maine state holidays: none between 2027-02-01 and 2027-03-05 but Presidents' Day (Mon
2027-02-15), which lies in no report window counted below.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.ledger import Ledger, LedgerError, api
from scheduler.ledger.funds import FUNDS_COLUMNS, funds, funds_csv, funds_html

from builders.plans import ANNUAL, CRIB, TODAY, write_me_plan


@pytest.fixture
def recorded(ledger: Ledger, tmp_path: Path) -> Ledger:
    """A ledger (SQLite, PostgreSQL) with the plan adopted and its year recorded."""
    api.adopt(ledger, write_me_plan(tmp_path / "plan"), by="ann")
    api.record_held(ledger, "holdem#1", first_day=_d("2027-01-16"), last_day=_d("2027-01-16"),
                    players=80, entries=80, entry_fees_usd="8000", prizes_usd="6400",
                    charity_usd="1000", by="ann", today=TODAY)
    api.record_held(ledger, "holdem#2", first_day=_d("2027-01-30"), last_day=_d("2027-01-30"),
                    players=90, entries=90, entry_fees_usd="9000", prizes_usd="6600",
                    charity_usd="1200.50", by="ann", today=TODAY)
    api.record_cancelled(ledger, "holdem#3", by="ann")
    api.record_held(ledger, "crib#1", first_day=_d("2027-02-20"), last_day=_d("2027-02-21"),
                    players=120, entries=120, entry_fees_usd="12000", prizes_usd="9000",
                    charity_usd="1400", by="ann", today=TODAY)
    api.record_licence(ledger, operator="post-1", agency_number="TG-2027-001", kind="me-annual",
                       fee_usd="1500", valid_from=_d("2027-01-09"), valid_to=_d("2028-01-08"),
                       tier="51-100", license_ref=ANNUAL, by="ann")
    api.record_report(ledger, ANNUAL, period_end=_d("2027-01-31"), filed_on=_d("2027-02-10"),
                      by="ann", today=TODAY)
    return ledger


def _d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def test_funds_per_licensed_period_hand_computed(recorded: Ledger) -> None:
    periods = funds(recorded)
    # 13 periods of the annual licence + 1 of the super cribbage licence
    assert len(periods) == 14
    jan = periods[0].row()
    assert (jan["license_id"], jan["period_start"], jan["period_end"]) == (
        ANNUAL, _d("2027-01-09"), _d("2027-01-31"))
    assert jan["agency_number"] == "TG-2027-001"
    # Sun 2027-01-31 + 10 business days: Feb 1-5 (5), Feb 8-12 (10) -> 2027-02-12
    assert jan["report_due"] == _d("2027-02-12")
    assert jan["report_filed_on"] == _d("2027-02-10")
    assert (jan["games_held"], jan["games_cancelled"], jan["games_not_recorded"]) == (2, 0, 0)
    assert (jan["players"], jan["entries"]) == (80 + 90, 80 + 90)
    assert jan["entry_fees_usd"] == Decimal("17000.00")      # 8000 + 9000
    assert jan["prizes_usd"] == Decimal("13000.00")          # 6400 + 6600
    # 13000 / 17000 = 76.470588... %: to the cent, rounded down
    assert str(jan["prizes_pct"]) == "76.47"
    assert jan["charity_usd"] == Decimal("2200.50")          # 1000 + 1200.50
    assert jan["proceeds_after_prizes_usd"] == Decimal("4000.00")  # 17000 - 13000
    assert jan["charity_required_usd"] is None               # not super cribbage
    # the super cribbage period ends Sun 2027-02-21, before the annual's February
    crib = periods[1].row()
    assert (crib["license_id"], crib["period_end"]) == (CRIB, _d("2027-02-21"))
    # Feb 22-26 (5), Mar 1-5 (10) -> 2027-03-05
    assert crib["report_due"] == _d("2027-03-05")
    assert str(crib["prizes_pct"]) == "75.00"                # 9000 / 12000: exactly 75 %
    assert crib["proceeds_after_prizes_usd"] == Decimal("3000.00")  # 12000 - 9000
    assert crib["charity_required_usd"] == Decimal("1500.00")       # 50 % of 3000
    feb = periods[2].row()
    assert (feb["period_start"], feb["period_end"]) == (_d("2027-02-01"), _d("2027-02-28"))
    assert (feb["games_held"], feb["games_cancelled"], feb["entry_fees_usd"]) == (0, 1, None)
    assert feb["report_filed_on"] is None
    assert periods[-1].row()["period_start"] == _d("2028-01-01")


def test_funds_period_and_licence_filters(recorded: Ledger) -> None:
    # YYYY-MM: the periods ending in February 2027
    assert [(p.license_id, str(p.end)) for p in funds(recorded, period="2027-02")] == [
        (CRIB, "2027-02-21"), (ANNUAL, "2027-02-28")]
    # a day: the periods holding it (2027-01-09, the first day of the annual licence)
    assert [str(p.end) for p in funds(recorded, period="2027-01-09")] == ["2027-01-31"]
    with pytest.raises(LedgerError, match="no licensed period"):  # the day before it
        funds(recorded, period="2027-01-08")
    assert len(funds(recorded, license_ref=CRIB)) == 1
    with pytest.raises(LedgerError, match="not a month"):
        funds(recorded, period="Jan")
    with pytest.raises(LedgerError, match="unknown licence 'nope'"):
        funds(recorded, license_ref="nope")


def test_funds_csv_and_printable_page(recorded: Ledger) -> None:
    periods = funds(recorded, period="2027-01")
    text = funds_csv(periods)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == FUNDS_COLUMNS
    assert [(r["entry_fees_usd"], r["prizes_usd"], r["prizes_pct"], r["charity_usd"])
            for r in rows] == [("17000.00", "13000.00", "76.47", "2200.50")]
    page = funds_html(funds(recorded, period="2027-02"))
    assert page.count('<section class="period">') == 2       # one printed page each
    assert "break-after: page" in page and "@page" in page
    assert "$1,500.00" in page                                # the crib charity required
    assert funds_html(periods) == funds_html(funds(recorded, period="2027-01"))


def test_cli_ledger_funds(recorded: Ledger, tmp_path: Path) -> None:
    out = tmp_path / "funds"
    r = CliRunner().invoke(app, ["ledger", "funds", "--out", str(out), "--period", "2027-01",
                                 "--ledger", recorded.url])
    assert r.exit_code == 0, r.output
    assert "Wrote 1 licensed period(s)" in r.stdout
    assert (out / "funds.csv").read_text().count("\n") == 2   # header + January
    assert (out / "funds.html").exists()
    r = CliRunner().invoke(app, ["ledger", "funds", "--out", str(out), "--period", "2031-05",
                                 "--ledger", recorded.url])
    assert r.exit_code == 2
    assert "no licensed period of a Maine licence in --period 2031-05" in r.stderr
