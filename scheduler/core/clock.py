"""Today: the one home of the current day and the current time.

Every command and API call whose answer depends on the day (``solve``, ``check``,
``deadlines``, ``record``, ``publish``, ``ledger funds``) takes an as-of day; without one it
is :func:`today_in` the operator's zone, never the machine's date in the machine's zone (a
Maine deadline due today is not overdue at 20:30 in Maine on a machine set to UTC, where it
is already tomorrow). ``TOURNEY_AS_OF`` (``YYYY-MM-DD``), when set, is that day for every
command not given one (a scripted year, a test suite, CI). The current instant is
``SOURCE_DATE_EPOCH`` when set (reproducible builds: the same input, seed and environment
give the same bytes), else the system clock.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from zoneinfo import ZoneInfo

UTC = dt.UTC


def source_date_epoch() -> dt.datetime | None:
    """SOURCE_DATE_EPOCH as a UTC time; None when unset. Raises ValueError when it is not a
    whole number of seconds between 1970 and 9999."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return None
    try:
        return dt.datetime.fromtimestamp(int(epoch), tz=UTC)
    except (ValueError, OverflowError, OSError):
        raise ValueError(f"SOURCE_DATE_EPOCH={epoch!r} is not a time (whole seconds since "
                         "1970-01-01 UTC)") from None


AS_OF_ENV = "TOURNEY_AS_OF"
"""The environment variable naming the day every command runs as of when not given one."""


def env_as_of() -> dt.date | None:
    """``TOURNEY_AS_OF`` as a day; None when unset. Raises ValueError when it is not a
    ``YYYY-MM-DD`` date."""
    text = os.environ.get(AS_OF_ENV, "").strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{AS_OF_ENV}={text!r} is not a date (YYYY-MM-DD)") from None


def now() -> dt.datetime:
    """The current instant, aware UTC: ``SOURCE_DATE_EPOCH`` when set, else the clock.
    Raises ValueError for a ``SOURCE_DATE_EPOCH`` that is not a time."""
    return source_date_epoch() or dt.datetime.now(UTC)


def today_in(tz: dt.tzinfo | str, as_of: dt.date | None = None, *,
             at: dt.datetime | None = None) -> dt.date:
    """The day an answer is given as of, in zone ``tz``.

    Parameters
    ----------
    tz : zoneinfo.ZoneInfo (any tzinfo) or str
        The operator's IANA zone (``Operator.tz``: America/Denver for Montana,
        America/New_York for Maine unless the operator gives ``timezone``).
    as_of : datetime.date, optional
        The day given (``--as-of``, ``as_of=``): returned as it is.
    at : datetime.datetime, optional
        The instant to read (aware; naive is taken as UTC); default ``TOURNEY_AS_OF``
        (:func:`env_as_of`) when set, else :func:`now`.

    Returns
    -------
    datetime.date
        ``as_of`` when given, else the calendar day of ``at`` on the wall clock of ``tz``:
        2027-03-05 20:30 in Maine is 2027-03-06 01:30 UTC, and still 2027-03-05 here.

    Raises
    ------
    ValueError
        ``TOURNEY_AS_OF`` or ``SOURCE_DATE_EPOCH`` is set to something else than a day or
        a time.
    """
    if as_of is not None:
        return as_of
    if at is None and (env := env_as_of()) is not None:
        return env
    when = at if at is not None else now()
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(ZoneInfo(tz) if isinstance(tz, str) else tz).date()


def latest_today(zones: Iterable[dt.tzinfo | str], as_of: dt.date | None = None, *,
                 at: dt.datetime | None = None) -> dt.date:
    """:func:`today_in` of several operators' zones read at one instant: ``as_of`` when
    given, else the latest of their days (the day already begun somewhere; a plan made as of
    it places nothing whose filing deadline has passed in any of the zones). No zone: UTC."""
    if as_of is not None:
        return as_of
    if at is None and (env := env_as_of()) is not None:
        return env
    when = at if at is not None else now()
    return max((today_in(z, at=when) for z in zones), default=today_in(UTC, at=when))
