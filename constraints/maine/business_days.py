"""Maine business days (RULES.md "Maine business day") and the deadlines counted in them:
ME-APPLICATION-WINDOW (16-633 CMR ch. 32 § 2) and ME-REPORT (§ 8).

A Maine business day is a day the Maine state offices are open
(:func:`scheduler.core.timing.office_closed` empty for :data:`constraints.maine.CODE`):
Monday to Friday, not a Maine State Government holiday (:func:`maine_holidays`, read through
``JURISDICTION.office_holidays``) and not a day the Governor closed state offices
(``settings.closed_days``, ``JURISDICTION.governor_closed_days``).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

import holidays

from constraints.maine.terms import CODE
from scheduler.core.timing import (
    ME_APPLICATION_BUSINESS_DAYS,
    ME_APPLICATION_MAX_DAYS,
    ME_REPORT_BUSINESS_DAYS,
    Closed,
    office_closed,
)


def thanksgiving_friday(year: int) -> dt.date:
    """The Friday after Thanksgiving Day (the fourth Thursday of November) of ``year``: a
    Maine State Government holiday (the Bureau of Human Resources' holiday policy; state
    offices are closed) that the ``holidays`` package's US-ME calendar lacks. E.g. 2027:
    Thanksgiving Thu Nov 25, so Fri 2027-11-26. Never on a weekend, so never observed on
    another day."""
    nov1 = dt.date(year, 11, 1)
    first_thursday = nov1 + dt.timedelta(days=(3 - nov1.weekday()) % 7)
    return first_thursday + dt.timedelta(days=22)


@lru_cache(maxsize=16)
def office_holidays(year: int) -> dict[dt.date, str]:
    """The Maine State Government holidays observed in calendar ``year``, by name: those of
    :func:`maine_holidays`, Thanksgiving Friday named "the day after Thanksgiving".

    Parameters
    ----------
    year : int
        The calendar year.

    Returns
    -------
    dict of datetime.date to str
        Each holiday's day and name (``JURISDICTION.office_holidays``: the name a deadline on
        a closed day prints). Computed once a year; do not change it.
    """
    days = dict(holidays.country_holidays("US", subdiv="ME", years=[year]).items())
    days[thanksgiving_friday(year)] = "the day after Thanksgiving"
    return days


@lru_cache(maxsize=16)
def maine_holidays(year: int) -> frozenset[dt.date]:
    """The Maine State Government holidays observed in calendar ``year`` (the days state
    offices are closed by law, every year).

    Those of 4 M.R.S. § 1051 (the ``holidays`` package, US-ME: New Year's Day, Martin Luther
    King Jr. Day, Washington's Birthday, Patriots' Day, Memorial Day, Juneteenth,
    Independence Day, Labor Day, Indigenous Peoples' Day, Veterans Day, Thanksgiving Day,
    Christmas Day; one on a Saturday observed the Friday before, one on a Sunday the Monday
    after, so a Saturday New Year's Day is observed on Dec 31 of the year before) and
    :func:`thanksgiving_friday`. Days the Governor closes offices by order are not here
    (``settings.closed_days``, :data:`scheduler.core.timing.Closed`)."""
    return frozenset(office_holidays(year))


def is_maine_business_day(day: dt.date, closed: Closed = ()) -> bool:
    """A Maine business day (ME-APPLICATION-WINDOW, ME-REPORT; RULES.md "Maine business
    day"): Monday to Friday, not a Maine State Government holiday (:func:`maine_holidays`,
    Thanksgiving Friday included) and not one of ``closed`` (``settings.closed_days``). The
    one home of the reading: every Maine deadline counts these days
    (:func:`scheduler.core.timing.office_closed` empty for :data:`constraints.maine.CODE`)."""
    return not office_closed(day, CODE, closed)


def maine_business_days_before(day: dt.date, n: int, closed: Closed = ()) -> dt.date:
    """The Maine business day (:func:`is_maine_business_day`) that lies ``n`` (≥ 1) business
    days before ``day`` (``day`` itself not counted, whatever it is)."""
    d = day
    left = n
    while left:
        d -= dt.timedelta(days=1)
        if is_maine_business_day(d, closed):
            left -= 1
    return d


def maine_business_days_after(day: dt.date, n: int, closed: Closed = ()) -> dt.date:
    """The ``n``-th (≥ 1) Maine business day (:func:`is_maine_business_day`) after ``day``
    (``day`` itself not counted)."""
    d = day
    left = n
    while left:
        d += dt.timedelta(days=1)
        if is_maine_business_day(d, closed):
            left -= 1
    return d


def application_due(first_day: dt.date, closed: Closed = ()) -> dt.date:
    """ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: the licence application's due date, the
    last day it can be received: the 10th Maine business day before ``first_day``
    (``first_day`` not counted; Saturdays, Sundays, State Government holidays with
    Thanksgiving Friday, and ``closed`` days skipped). Always a business day. E.g. first day
    Sat 2027-04-17: Apr 16, 15, 14, 13, 12, 9, 8, 7, 6, 5 -> Mon 2027-04-05."""
    return maine_business_days_before(first_day, ME_APPLICATION_BUSINESS_DAYS, closed)


def application_opens(first_day: dt.date) -> dt.date:
    """ME-APPLICATION-WINDOW: the first day the application can be received by the rule,
    90 calendar days before ``first_day`` (may be before ``notice_from``: see
    :func:`application_window`)."""
    return first_day - dt.timedelta(days=ME_APPLICATION_MAX_DAYS)


def application_ok(first_day: dt.date, notice_from: dt.date, closed: Closed = ()) -> bool:
    """ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2 (RULES.md reading): whether an application
    received on ``notice_from`` or later can still be on time for ``first_day``: its due date
    (:func:`application_due`, the 10th Maine business day before ``first_day``) is not before
    ``notice_from``. Any first day is possible by this rule, a Saturday, Sunday or holiday
    included. Monotone in ``first_day``: true exactly from
    :func:`application_earliest_first_day` on."""
    return application_due(first_day, closed) >= notice_from


def application_earliest_first_day(notice_from: dt.date, closed: Closed = ()) -> dt.date:
    """ME-APPLICATION-WINDOW: the earliest first day :func:`application_ok` allows: the day
    after the 10th Maine business day on or after ``notice_from`` (then exactly 10 business
    days, from ``notice_from``'s on, lie before it, so its due date is the first business day
    on or after ``notice_from``).

    E.g. ``notice_from`` Mon 2027-04-05: Apr 5, 6, 7, 8, 9, 12, 13, 14, 15, 16 -> Sat
    2027-04-17 (due Apr 5; Fri Apr 16 would be due Fri Apr 2). ``notice_from`` Mon 2027-01-04:
    Jan 4-8, 11-15 -> Sat 2027-01-16 (due Jan 4). ``notice_from`` Sun 2026-12-20: Dec 21, 22,
    23, 24, 28, 29, 30, 31, Jan 4, 5 (Dec 25 and Jan 1 holidays) -> Wed 2027-01-06 (due Mon
    Dec 21)."""
    return (maine_business_days_after(notice_from - dt.timedelta(days=1),
                                      ME_APPLICATION_BUSINESS_DAYS, closed)
            + dt.timedelta(days=1))


def application_window(first_day: dt.date, notice_from: dt.date,
                       closed: Closed = ()) -> tuple[dt.date, dt.date]:
    """ME-APPLICATION-WINDOW: ``(opens, due)``, the days between which the application for a
    licence whose first covered day is ``first_day`` is to be received, as the calendars show
    them. ``due`` is :func:`application_due`. ``opens`` is :func:`application_opens` (90 days
    before), moved forward to ``notice_from`` when that is later and the window is still open
    on ``notice_from`` (nothing is emitted before the day the plan is made as of). When
    ``due`` is already before ``notice_from`` (an occurrence whose application is filed,
    ``filed_dates``), both are the historical dates, unchanged."""
    opens, due = application_opens(first_day), application_due(first_day, closed)
    if opens < notice_from <= due:
        opens = notice_from
    return opens, due


def report_due(period_end: dt.date, closed: Closed = ()) -> dt.date:
    """ME-REPORT, 16-633 CMR ch. 32 § 8: the disposition-of-funds report for a licensed
    period ending on ``period_end`` (inclusive) is due on the 10th Maine business day after
    it (:func:`is_maine_business_day`, ``closed`` days skipped). Always a business day, after
    ``period_end``. E.g. October 2027 (ends Sun Oct 31): Nov 1-5, 8, 9, 10, (Veterans Day
    Nov 11), 12, 15 -> Mon 2027-11-15."""
    return maine_business_days_after(period_end, ME_REPORT_BUSINESS_DAYS, closed)
