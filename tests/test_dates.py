"""The one date module (issue #12): scheduler.core.timing's years, days and months, and the readings
of Feb 29 its callers rely on.

Two readings, each with one home:

- ``years_later``: the same day N years later or earlier, Feb 29 -> Feb 28 in a common year
  (``dateutil.relativedelta``). ME-ELIGIBLE, 17 M.R.S. § 1832(2): "organized >= 2 years"
  before the plan; ``tourney check``'s reading window (a year either side of the horizon).
- ``years_end``: the last day of a period of N years from a first day, the day before its
  anniversary; a period from Feb 29 ends on Feb 28 of a common year (it keeps its 366th day).
  ME-FEES, 17 M.R.S. § 1836(3-A): an annual licence, 12 months from its first day; SCENARIO:
  a horizon of at most 2 years.
"""

from __future__ import annotations

import datetime as dt

import pytest

from constraints.maine import annual_end
from scheduler.core.problems import ScenarioError
from scheduler.core.timing import (
    day_span,
    days_touched,
    month_end,
    months_between,
    next_month,
    years_end,
    years_later,
)
from scheduler.inputs.load import load_scenario

from builders.scenarios import d, load, mt_room, problems, scenario


class TestYearsLater:
    def test_leap_day_plus_one_year_is_feb_28(self) -> None:
        # 2029 is a common year: no Feb 29, so the last day of February
        assert years_later(d("2028-02-29"), 1) == d("2029-02-28")

    def test_leap_day_plus_four_years_is_leap_day(self) -> None:
        # 2032 is a leap year (2032 / 4 = 508)
        assert years_later(d("2028-02-29"), 4) == d("2032-02-29")

    def test_march_first_minus_two_years(self) -> None:
        # no Feb 29 involved: the same day
        assert years_later(d("2027-03-01"), -2) == d("2025-03-01")

    def test_leap_day_minus_two_years_is_feb_28(self) -> None:
        # ME-ELIGIBLE's day for a horizon starting 2028-02-29 (test_maine.TestEligible)
        assert years_later(d("2028-02-29"), -2) == d("2026-02-28")

    def test_day_before_leap_day(self) -> None:
        assert years_later(d("2028-02-28"), 1) == d("2029-02-28")


class TestYearsEnd:
    def test_one_year_from_leap_day_keeps_feb_28(self) -> None:
        # 2028-02-29 .. 2029-02-28 inclusive = 366 days (2028-03-01 .. 2029-02-28 is 365)
        end = years_end(d("2028-02-29"), 1)
        assert end == d("2029-02-28")
        assert (end - d("2028-02-29")).days + 1 == 366

    def test_four_years_from_leap_day(self) -> None:
        # anniversary 2032-02-29 (a leap year) -> the day before, Feb 28
        assert years_end(d("2028-02-29"), 4) == d("2032-02-28")

    def test_year_from_march_first_ends_on_leap_day(self) -> None:
        # anniversary 2028-03-01 -> 2028-02-29 (2028 is a leap year)
        assert years_end(d("2027-03-01"), 1) == d("2028-02-29")

    def test_year_from_feb_28(self) -> None:
        # anniversary 2029-02-28 -> 2029-02-27 (2028-02-28 .. 2029-02-27 = 366 days)
        assert years_end(d("2028-02-28"), 1) == d("2029-02-27")

    def test_two_years_from_january(self) -> None:
        # 2027-01-01 .. 2028-12-31 = 365 + 366 = 731 days
        assert years_end(d("2027-01-01"), 2) == d("2028-12-31")

    def test_no_period_of_zero_years(self) -> None:
        with pytest.raises(ValueError, match="at least 1"):
            years_end(d("2027-01-01"), 0)


class TestAnnualLicence:
    """ME-FEES, 17 M.R.S. § 1836(3-A): an annual licence is valid 12 months from its first
    day (RULES.md), ``constraints.maine.annual_end``."""

    def test_from_leap_day(self) -> None:
        assert annual_end(d("2028-02-29")) == d("2029-02-28")

    def test_from_march_first_before_a_leap_february(self) -> None:
        assert annual_end(d("2027-03-01")) == d("2028-02-29")

    def test_from_january_second(self) -> None:
        # test_maine's licence 2027-01-02 .. 2028-01-01
        assert annual_end(d("2027-01-02")) == d("2028-01-01")


class TestHorizonAtLeapDay:
    """SCENARIO: a horizon is at most 2 years, ``horizon.end <= years_end(start, 2)``."""

    LEAP = "2028-02-29"

    def test_two_years_from_leap_day(self) -> None:
        # 2028-02-29 .. 2030-02-28 = 366 + 365 = 731 days, as 2027-01-01 .. 2028-12-31
        sc = load(horizon={"start": self.LEAP, "end": "2030-02-28"},
                  notice_from="2028-01-01", operators=[mt_room()])
        assert sc.horizon.end == d("2030-02-28")

    def test_one_day_more_is_refused(self) -> None:
        data = scenario(horizon={"start": self.LEAP, "end": "2030-03-01"},
                        notice_from="2028-01-01", operators=[mt_room()])
        assert problems(data) == {("SCENARIO", "horizon.end")}

    def test_message_names_the_last_day(self) -> None:
        # 2027-01-01 + 2 years: the last day is 2028-12-31
        data = scenario(horizon={"start": "2027-01-01", "end": "2029-01-01"},
                        operators=[mt_room()])
        with pytest.raises(ScenarioError) as exc:
            load_scenario(data)
        assert "at most 2 years (end on or before 2028-12-31)" in str(exc.value)


class TestDays:
    def test_day_span_inclusive(self) -> None:
        # Feb 27 .. Mar 1 2028: 27, 28, 29, 1 = 4 days
        assert day_span(d("2028-02-27"), d("2028-03-01")) == (
            d("2028-02-27"), d("2028-02-28"), d("2028-02-29"), d("2028-03-01"))

    def test_day_span_one_day_and_none(self) -> None:
        assert day_span(d("2027-05-01"), d("2027-05-01")) == (d("2027-05-01"),)
        assert day_span(d("2027-05-02"), d("2027-05-01")) == ()

    def test_days_touched_end_exclusive(self) -> None:
        # 20:00 .. 00:00 next day touches one day; .. 00:01 touches two (ARM 23.16.101)
        a = dt.datetime(2027, 5, 1, 20)
        assert days_touched(a, dt.datetime(2027, 5, 2, 0, 0)) == (d("2027-05-01"),)
        assert days_touched(a, dt.datetime(2027, 5, 2, 0, 1)) == (
            d("2027-05-01"), d("2027-05-02"))

    def test_days_touched_empty_span(self) -> None:
        a = dt.datetime(2027, 5, 1, 20)
        assert days_touched(a, a) == (d("2027-05-01"),)


class TestMonths:
    def test_months_between_across_a_year(self) -> None:
        assert months_between(d("2027-11-30"), d("2028-02-01")) == [
            (2027, 11), (2027, 12), (2028, 1), (2028, 2)]

    def test_months_between_one_and_none(self) -> None:
        assert months_between(d("2027-05-01"), d("2027-05-31")) == [(2027, 5)]
        assert months_between(d("2027-06-01"), d("2027-05-31")) == []

    def test_month_end_and_next_month(self) -> None:
        assert month_end(2028, 2) == d("2028-02-29")  # leap year
        assert month_end(2027, 2) == d("2027-02-28")
        assert month_end(2027, 12) == d("2027-12-31")
        assert next_month(d("2027-12-31")) == d("2028-01-01")
        assert next_month(d("2028-01-31")) == d("2028-02-01")
