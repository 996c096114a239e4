"""Montana's legal holidays (MCA 1-1-216): the days its state offices are closed by law, the
days a deadline filed with the Gambling Control Division moves back from
(:func:`scheduler.core.timing.office_closed`, through ``JURISDICTION.office_holidays``)."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

import holidays


@lru_cache(maxsize=16)
def office_holidays(year: int) -> dict[dt.date, str]:
    """Montana's legal holidays (MCA 1-1-216) observed in calendar ``year``, by name.

    The ``holidays`` package's US-MT calendar: New Year's Day, Martin Luther King Jr. Day,
    Lincoln's and Washington's Birthdays, Memorial Day, Independence Day, Labor Day, Columbus
    Day, Veterans Day, Thanksgiving Day, Christmas Day, the general election day of an even
    year; one on a Saturday observed the Friday before, one on a Sunday the Monday after. The
    package also names the federal Juneteenth, kept: a deadline then reads one day earlier,
    never late.

    Parameters
    ----------
    year : int
        The calendar year.

    Returns
    -------
    dict of datetime.date to str
        Each holiday's day and name, e.g. 2027: Mon Feb 15, "Lincoln's and Washington's
        Birthdays". Computed once a year; do not change it.
    """
    return dict(holidays.country_holidays("US", subdiv="MT", years=[year]).items())
