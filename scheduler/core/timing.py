"""Calendar arithmetic shared by the model, the checker and the writers.

Pure functions of dates and the scenario; no solver here. Times are timezone-aware
``datetime`` in the operator's zone; durations are real elapsed time (a 10 h game from 20:00
on the night clocks spring forward ends at 07:00 local).

The permit year (MT-PERMIT-YEAR, MCA 23-5-317(1)(a)) is the one calendar reckoning not here:
:meth:`scheduler.core.scenario.Operator.permit_year_of` and ``permit_year_end`` answer it on the
operator's type, which lies below this module in the layers (this module imports the
scenario), so the type cannot call it.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from scheduler.core.clock import latest_today
from scheduler.core.fields import dated_words
from scheduler.core.jurisdiction import jurisdiction as find_jurisdiction
from scheduler.core.jurisdiction import of_type
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament

UTC = dt.UTC
MT_NOTICE_DAYS = 5
"""MT-NOTICE, MCA 23-5-317(1)(d): notice at least 5 days before the first day."""
ME_APPLICATION_BUSINESS_DAYS = 10
"""ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: received ≥ 10 business days before."""
ME_APPLICATION_MAX_DAYS = 90
"""ME-APPLICATION-WINDOW: received ≤ 90 days before the first day it covers."""
ME_REPORT_BUSINESS_DAYS = 10
"""ME-REPORT, 16-633 CMR ch. 32 § 8: report due 10 business days after the licensed period."""


@dataclass(frozen=True)
class Timing:
    """When one occurrence is conducted.

    ``start``/``end`` are aware local datetimes, ``end`` exclusive; ``days`` are the calendar
    days any part of it touches (a "day" is any part of a midnight-to-midnight period, ARM
    23.16.101), so a game ending exactly at 00:00 does not touch the next day.
    """

    start: dt.datetime
    end: dt.datetime
    days: tuple[dt.date, ...]
    sessions: tuple[tuple[dt.datetime, dt.datetime], ...] = ()
    """A tournament with ``sessions`` (flights, a day 2): each session's ``(start, end)``,
    aware local datetimes, end exclusive, in order; ``days`` are then the days the sessions
    touch (the days between them, when empty, are not days of play), ``start`` the first
    session's start and ``end`` the last one's end. Empty for any other tournament."""

    @property
    def first_day(self) -> dt.date:
        return self.days[0]

    @property
    def last_day(self) -> dt.date:
        return self.days[-1]

    @property
    def months(self) -> tuple[tuple[int, int], ...]:
        """(year, month) of every calendar month touched, in order."""
        return tuple(sorted({(d.year, d.month) for d in self.days}))

    @property
    def elapsed_hours(self) -> float:
        return (self.end.astimezone(UTC) - self.start.astimezone(UTC)).total_seconds() / 3600


def local(day: dt.date, time: dt.time, tz: ZoneInfo) -> dt.datetime | None:
    """``day`` at wall-clock ``time`` in ``tz``; None when that time does not exist (DST gap).

    In a repeated hour (clocks fall back) the first of the two instants is taken (fold=0).
    """
    naive = dt.datetime.combine(day, time)
    aware = naive.replace(tzinfo=tz, fold=0)
    back = aware.astimezone(UTC).astimezone(tz)
    if back.replace(tzinfo=None) != naive:
        return None
    return aware


def days_touched(start: dt.datetime, end: dt.datetime) -> tuple[dt.date, ...]:
    """The calendar days any part of ``[start, end)`` touches, in order.

    Parameters
    ----------
    start, end : datetime.datetime
        Aware (or both naive) instants, ``end`` exclusive; the days are read in ``start``'s
        and ``end``'s own zone, so pass both in the operator's zone.

    Returns
    -------
    tuple of datetime.date
        From ``start``'s day to the day of the last instant before ``end`` (a game ending
        exactly at 00:00 does not touch the next day: MT-DURATION's "day", ARM 23.16.101);
        ``start``'s day alone when ``end <= start``.
    """
    last = (end - dt.timedelta(microseconds=1)).date() if end > start else start.date()
    return day_span(start.date(), last)


@lru_cache(maxsize=1 << 12)
def day_span(first: dt.date, last: dt.date) -> tuple[dt.date, ...]:
    """Every calendar day from ``first`` to ``last``, both included, in order.

    Parameters
    ----------
    first, last : datetime.date
        The first and the last day (inclusive).

    Returns
    -------
    tuple of datetime.date
        ``(last - first).days + 1`` days; empty when ``last`` is before ``first``
        (computed once per (first, last): the timings of every first day ask it).
    """
    return tuple(first + dt.timedelta(days=i) for i in range((last - first).days + 1))


def timing(t: Tournament, tz: ZoneInfo, first_day: dt.date) -> Timing | None:
    """The timing of tournament ``t`` starting on ``first_day``; None if its start is in a gap.

    A state whose hours are read on the wall clock (``Jurisdiction.wall_clock``, Montana):
    ``t.days`` consecutive play days, each from ``start_time`` for ``hours`` on the wall
    clock ("play from noon to 2 a.m.", so a session is an hour shorter the night clocks spring
    forward); the occurrence ends when the last play day's session ends. Otherwise (Maine):
    one game of ``hours`` of real elapsed time (the 48-hour limit is elapsed time).
    """
    wall_clock = of_type(t.type).wall_clock
    if t.sessions:
        return _flight_timing(tuple((x.day, x.start, x.hours) for x in t.sessions),
                              wall_clock, tz, first_day)
    return _timing(t.start_time, t.hours, t.days, wall_clock,
                   tz, first_day)


def timings(t: Tournament, tz: ZoneInfo, first_days: Iterable[dt.date]) -> list[Timing | None]:
    """:func:`timing` of ``t`` from each of ``first_days``, in order (None where the start
    is in a gap): the same answers, the tournament read once."""
    wall_clock = of_type(t.type).wall_clock
    if t.sessions:
        plan = tuple((x.day, x.start, x.hours) for x in t.sessions)
        return [_flight_timing(plan, wall_clock, tz, d) for d in first_days]
    start_time, hours, days = t.start_time, t.hours, t.days
    return [_timing(start_time, hours, days, wall_clock, tz, d) for d in first_days]


@lru_cache(maxsize=1 << 16)
def _flight_timing(sessions: tuple[tuple[int, dt.time, Decimal], ...], wall_clock: bool,
                   tz: ZoneInfo, first_day: dt.date) -> Timing | None:
    """:func:`timing` of a tournament with ``sessions`` (``(day, start, hours)`` each, day
    1-based from ``first_day``): each session read as a one-day tournament is read (MT: wall
    clock, ME: elapsed time); None if any session's start is in a DST gap."""
    out = []
    for day, start_time, hours in sessions:
        one = _timing(start_time, hours, 1, wall_clock, tz,
                      first_day + dt.timedelta(days=day - 1))
        if one is None:
            return None
        out.append((one.start, one.end))
    days = sorted({d for a, b in out for d in days_touched(a, b)})
    return Timing(out[0][0], out[-1][1], tuple(days), tuple(out))


@lru_cache(maxsize=1 << 16)
def _timing(start_time: dt.time, hours_: Decimal, days: int, wall_clock: bool, tz: ZoneInfo,
            first_day: dt.date) -> Timing | None:
    """:func:`timing` of what it depends on (tournaments that start alike share it): away
    from a change of ``tz``'s UTC offset (the day before the first day to the day after the
    last wall-clock end), wall clock and elapsed time agree and every start exists, so the
    end is the start's wall clock moved on (:func:`_steady`); near one, :func:`_exact_timing`."""
    wall, span, touched, end_day = _wall_shape(start_time, hours_, days)
    if not _steady(tz, first_day - _DAY, first_day + _days(end_day + 1)):
        return _exact_timing(start_time, hours_, days, wall_clock, tz, first_day)
    start = dt.datetime.combine(first_day, wall, tz)
    return Timing(start, start + span, day_span(first_day, first_day + _days(touched)))


_DAY = dt.timedelta(days=1)


@lru_cache(maxsize=1024)
def _days(n: int) -> dt.timedelta:
    """``n`` days, made once."""
    return dt.timedelta(days=n)


@lru_cache(maxsize=1024)
def _wall_shape(start_time: dt.time, hours_: Decimal, days: int
                ) -> tuple[dt.time, dt.timedelta, int, int]:
    """What an occurrence starting at wall-clock ``start_time`` for ``days`` play days of
    ``hours_`` is on the wall clock, the same from any first day (naive arithmetic): the
    start time (naive, fold 0), the span from the start to the end (the last play day's
    start plus ``hours_``), the days after the first day it touches (end exclusive, as
    :func:`days_touched`) and the day of its end after the first day."""
    wall = start_time.replace(tzinfo=None, fold=0)
    first = dt.date(2001, 1, 1)  # any day
    start = dt.datetime.combine(first, wall)
    span = dt.timedelta(days=days - 1, hours=float(hours_))
    end = start + span
    last = (end - dt.timedelta(microseconds=1)).date() if end > start else first
    return wall, span, (last - first).days, (end.date() - first).days


def _steady(tz: ZoneInfo, first: dt.date, last: dt.date) -> bool:
    """Whether ``tz``'s UTC offset is the same from ``first`` 00:00 to the end of ``last``:
    no day from ``first`` to ``last`` is one of :func:`_offset_changes` (an offset changes at
    most once a day)."""
    for year in range(first.year, last.year + 1):
        changes = _offset_changes(tz, year)
        i = bisect_left(changes, first)  # the first change on or after ``first``
        if i < len(changes) and changes[i] <= last:
            return False
    return True


@lru_cache(maxsize=256)
def _offset_changes(tz: ZoneInfo, year: int) -> tuple[dt.date, ...]:
    """The days of ``year`` whose 00:00 in ``tz`` has another UTC offset than the next
    day's 00:00 (the days the clocks change, in order): what :func:`_steady` avoids."""
    day = dt.date(year, 1, 1)
    out = []
    offset = dt.datetime.combine(day, dt.time(), tz).utcoffset()
    while day.year == year:
        after = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tz).utcoffset()
        if after != offset:
            out.append(day)
        day, offset = day + dt.timedelta(days=1), after
    return tuple(out)


def _exact_timing(start_time: dt.time, hours_: Decimal, days: int, wall_clock: bool,
                  tz: ZoneInfo, first_day: dt.date) -> Timing | None:
    """:func:`_timing` read instant by instant (any day, a change of UTC offset near or not)."""
    start = local(first_day, start_time, tz)
    if start is None:
        return None
    last_day = first_day + dt.timedelta(days=days - 1)
    last_start = local(last_day, start_time, tz)
    if last_start is None:
        return None
    hours = dt.timedelta(hours=float(hours_))
    if wall_clock:
        # wall clock; a wall time in a gap means the instant the clocks jump (fold=0)
        naive = dt.datetime.combine(last_day, start_time) + hours
        end = naive.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)
    else:
        end = (last_start.astimezone(UTC) + hours).astimezone(tz)
    return Timing(start, end, days_touched(start, end))


def span_timing(start: dt.datetime, end: dt.datetime) -> Timing:
    """``Timing(start, end, days_touched(start, end))``: an occurrence read back as one span
    (a plan's row), one object for the same instants in the same zone, so that what is
    computed once per timing (``constraints.base.sessions_of``) is reused when a plan's
    rows are read again (its check, then the reasons of what was not placed). The last
    16,384 are kept."""
    return _span_timing(start, end, start.tzinfo, end.tzinfo, start.fold, end.fold)


@lru_cache(maxsize=1 << 14)
def _span_timing(start: dt.datetime, end: dt.datetime, _tz_start: object, _tz_end: object,
                 _fold_start: int, _fold_end: int) -> Timing:
    """:func:`span_timing`, keyed by the zones and folds too (two aware datetimes of one
    zone compare by wall clock, their folds aside)."""
    return Timing(start, end, days_touched(start, end))


def forget_timings() -> None:
    """Empty the caches of :func:`timing` (up to 65,536 first days each, shared by the parts
    of a scenario while they are solved), :func:`span_timing` and :func:`sessions_each`:
    called when the solve is done, before the plan is written (issue #16: about 30 MB at
    1,000 operators)."""
    _timing.cache_clear()
    _flight_timing.cache_clear()
    _play_days.cache_clear()
    _span_timing.cache_clear()
    _forget_sessions_each()


def _forget_sessions_each() -> None:
    """Empty :func:`sessions_each`'s answers (:data:`_EACH`)."""
    global _each_kept
    _EACH.clear()
    _each_kept = 0


# ------------------------------------------------------------------ deadlines
# The one place each filing deadline is computed. The model (``allows``), the independent
# check (``check``), re-planning, the calendars, the report and the figures all call these.
# Every deadline is a calendar day; a first day is *allowed* by a deadline rule iff the
# deadline is on or after ``notice_from`` (the earliest day anything can still be filed), so
# no deadline emitted for an allowed, not-yet-filed first day is before ``notice_from``.

def filing_from(scenario: Scenario) -> dt.date:
    """The earliest day a notice or application of something new can still be filed: the
    later of ``scenario.notice_from`` and the day the plan is made as of
    (``scenario.as_of``; ``notice_from`` alone when not given). MT-NOTICE and
    ME-APPLICATION-WINDOW allow a first day not yet filed only when its deadline is on or
    after it; an occurrence of a previous plan whose deadline is before it is filed (pinned,
    :func:`scheduler.inputs.replan.assign.deadline_passed`). A re-plan on 2027-09-15 with
    ``notice_from``
    2026-12-20 places nothing new before 2027-09-20 in Montana (MT-NOTICE, 5 days)."""
    if scenario.as_of is None:
        return scenario.notice_from
    return max(scenario.notice_from, scenario.as_of)


def made_as_of(scenario: Scenario, as_of: dt.date | None = None) -> Scenario:
    """``scenario`` with the day it is planned as of (``Scenario.as_of``): ``as_of`` when
    given, else the scenario's own, else today in its operators' zones (the latest of their
    days, :func:`scheduler.core.clock.latest_today`; ``SOURCE_DATE_EPOCH`` when set). The plan
    records it; nothing new is placed whose notice or application is due before the later
    of it and ``notice_from`` (:func:`scheduler.core.timing.filing_from`)."""
    if as_of is None and scenario.as_of is not None:
        return scenario
    day = latest_today([o.tz for o in scenario.operators], as_of)
    return scenario if scenario.as_of == day else scenario.model_copy(update={"as_of": day})


def made_day(scenario: Scenario) -> dt.date:
    """The day a plan of ``scenario`` is made as of: what is before it is past.

    A re-plan's calendars read it (:mod:`scheduler.inputs.replan.cancel`): a deadline event before
    it is carried as published, a departed venue's events before it are history (a venue
    that left in March keeps the January game it held), those on or after it are cancelled.
    It is :func:`filing_from`: the later of ``notice_from`` and the as-of day
    (``Scenario.as_of``, ``--as-of``).

    Returns
    -------
    datetime.date
        ``max(scenario.notice_from, scenario.as_of)`` (``notice_from`` without an as-of day).
    """
    return filing_from(scenario)


def notice_due(first_day: dt.date) -> dt.date:
    """MT-NOTICE, MCA 23-5-317(1)(d): the last day to notify the department of a large-stakes
    tournament, ``first_day`` − 5 calendar days (5 days' notice, exactly 5 allowed)."""
    return first_day - dt.timedelta(days=MT_NOTICE_DAYS)


def notice_ok(first_day: dt.date, notice_from: dt.date) -> bool:
    """MT-NOTICE, MCA 23-5-317(1)(d): whether a notice filed on ``notice_from`` or later can
    still be on time for ``first_day``, i.e. ``notice_due(first_day) >= notice_from``."""
    return notice_due(first_day) >= notice_from


Closed = Collection[dt.date]
"""Days the Governor closes state offices by order (``settings.closed_days``): closed days
of a jurisdiction whose ``governor_closed_days`` is set (Maine: not Maine business days).
Any collection of dates (a tuple, a frozenset); empty by default."""


def state_holidays(code: str, year: int) -> Mapping[dt.date, str]:
    """The days the state offices of jurisdiction ``code`` are closed by law in calendar
    ``year``, with their names: its ``Jurisdiction.office_holidays`` (Montana's legal holidays,
    ``constraints.montana.legal_holidays``; Maine's State Government holidays, Thanksgiving
    Friday named "the day after Thanksgiving", ``constraints.maine.business_days``). Empty
    for a jurisdiction without them or an unknown code. E.g. Montana 2027: Mon Feb 15
    (Lincoln's and Washington's Birthdays)."""
    try:
        holidays_of = find_jurisdiction(code).office_holidays
    except KeyError:
        return {}
    return holidays_of(year) if holidays_of is not None else {}


def read_state_holidays(scenario: Scenario) -> None:
    """Read once the holidays (:func:`state_holidays`, each year's cached) of every
    jurisdiction of ``scenario``'s operators, for the years of its horizon and the one
    before (deadlines fall before the horizon): done before a process pool forks, its
    workers inherit them instead of each reading them again (the ``holidays`` package
    imports its 250 countries to give one, about 0.1 s of CPU a process)."""
    codes = sorted({op.jurisdiction for op in scenario.operators})
    for year in range(scenario.horizon.start.year - 1, scenario.horizon.end.year + 1):
        for code in codes:
            state_holidays(code, year)


def _governor_closes(code: str) -> bool:
    """Whether the days the Governor closes state offices by order (``settings.closed_days``)
    close the offices of jurisdiction ``code`` (``Jurisdiction.governor_closed_days``: Maine);
    False for an unknown code."""
    try:
        return find_jurisdiction(code).governor_closed_days
    except KeyError:
        return False


def office_closed(day: dt.date, jurisdiction: str, closed: Closed = ()) -> str:
    """Why the state office a deadline of ``jurisdiction`` is filed with is closed on ``day``:
    ``"a Saturday"``, ``"a Sunday"``, the holiday's name (:func:`state_holidays`), ``"a day
    the Governor closed state offices"`` (``closed``: Maine's ``settings.closed_days``); empty
    when it is open (a Maine business day,
    :func:`constraints.maine.is_maine_business_day`, is open). The one
    home of "office closed" for every deadline, Montana's and Maine's."""
    if day.weekday() >= 5:
        return "a Saturday" if day.weekday() == 5 else "a Sunday"
    name = state_holidays(jurisdiction, day.year).get(day)
    if name:
        return name
    if day in closed and _governor_closes(jurisdiction):
        return "a day the Governor closed state offices"
    return ""


def last_office_day(day: dt.date, jurisdiction: str, closed: Closed = ()) -> dt.date:
    """The last day on or before ``day`` the state office of ``jurisdiction`` is open
    (:func:`office_closed` empty): ``day`` itself when open, else the working day before it,
    the day to file by. E.g. Montana, Sun 2027-03-07: Fri 2027-03-05; Mon 2027-02-15
    (Lincoln's and Washington's Birthdays): Fri 2027-02-12."""
    while office_closed(day, jurisdiction, closed):
        day -= dt.timedelta(days=1)
    return day


def closed_note(day: dt.date, jurisdiction: str, closed: Closed = ()) -> str:
    """What a deadline due on ``day`` says when the state office of ``jurisdiction`` is
    closed that day (:func:`office_closed`), with the day to file by
    (:func:`last_office_day`): ``due Sun, Mar 7, 2027 — the office is closed (a Sunday):
    file by Fri, Mar 5, 2027``; empty when the office is open. The one sentence of a closed
    day in deadlines.csv, plan.xlsx, the report, the calendars and ``tourney deadlines``."""
    why = office_closed(day, jurisdiction, closed)
    if not why:
        return ""
    return (f"due {dated_words(day)} — the office is closed ({why}): file by "
            f"{dated_words(last_office_day(day, jurisdiction, closed))}")


def file_by_note(day: dt.date, jurisdiction: str, closed: Closed = ()) -> str:
    """The short form of :func:`closed_note`, after a day already shown (a calendar event's
    SUMMARY, the report's dates table): `` (office closed: file by Fri, Mar 5, 2027)``;
    empty when the office is open on ``day``."""
    if not office_closed(day, jurisdiction, closed):
        return ""
    return f" (office closed: file by {dated_words(last_office_day(day, jurisdiction, closed))})"


def report_periods(kind: str, valid_from: dt.date, valid_to: dt.date) -> list[dt.date]:
    """ME-REPORT, 16-633 CMR ch. 32 § 8: the last day (inclusive) of each licensed period of
    a Maine licence of ``kind`` valid ``valid_from``..``valid_to`` (inclusive), in order: each
    calendar month of an ``me-annual`` licence (the last one cut at ``valid_to``), else the
    one period ending ``valid_to``. Each report is due :func:`constraints.maine.report_due` of
    its day. The one home of the periods: the calendars and the ledger's deadlines both read
    them here."""
    if kind != "me-annual":
        return [valid_to]
    return [min(month_end(y, m), valid_to) for y, m in months_between(valid_from, valid_to)]


def month_end(year: int, month: int) -> dt.date:
    """The last day of calendar month ``month`` (1-12) of ``year``."""
    return next_month(dt.date(year, month, 1)) - dt.timedelta(days=1)


def next_month(day: dt.date) -> dt.date:
    """The first day of the calendar month after ``day``'s month."""
    return dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def months_between(first: dt.date, last: dt.date) -> list[tuple[int, int]]:
    """The calendar months from ``first``'s to ``last``'s, both included, in order.

    Parameters
    ----------
    first, last : datetime.date
        Any days of the first and the last month.

    Returns
    -------
    list of (int, int)
        ``(year, month)`` pairs, month 1-12; empty when ``last``'s month is before
        ``first``'s.
    """
    out, y, m = [], first.year, first.month
    while (y, m) <= (last.year, last.month):
        out.append((y, m))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


@lru_cache(maxsize=1 << 14)
def years_later(day: dt.date, years: int) -> dt.date:
    """The same calendar day ``years`` years later (earlier when ``years`` is negative).

    ``dateutil.relativedelta``: **Feb 29 becomes Feb 28** in a common year (2028-02-29 + 1
    year = 2029-02-28; + 4 years = 2032-02-29; 2027-03-01 - 2 years = 2025-03-01). This is
    the reading of "at least N years before a day": ME-ELIGIBLE, 17 M.R.S. § 1832(2)
    (organized in Maine at least 2 years before the plan: on or before
    ``years_later(horizon.start, -2)``), and of how far around the horizon ``tourney check``
    reads a calendar (a year either side). For the last day of a period of N years counted
    from a first day (a licence, the horizon) see :func:`years_end`.

    Parameters
    ----------
    day : datetime.date
        The day to count from.
    years : int
        Whole calendar years, positive (later) or negative (earlier).

    Returns
    -------
    datetime.date
        The day with its year moved by ``years``, Feb 29 to Feb 28 in a common year
        (computed once per (day, years): the ME-FEES encoding asks it of every candidate).

    Raises
    ------
    ValueError
        When the year leaves 1..9999.
    """
    out: dt.date = day + relativedelta(years=years)
    return out


@lru_cache(maxsize=1 << 14)
def years_end(first_day: dt.date, years: int) -> dt.date:
    """The last day (inclusive) of a period of ``years`` years whose first day is
    ``first_day``: the day before its anniversary, ``years_later(first_day, years)`` - 1 day.

    A period from Feb 29 ends on **Feb 28** of a common year (it keeps its last day: the
    12 months of a licence from 2028-02-29 run to 2029-02-28, the 12th month from Jan 29
    to Feb 28), not on the Feb 27 before :func:`years_later`'s Feb 28; from a leap year's
    Feb 29 to a leap year it ends on Feb 28 too (2028-02-29 + 4 years: 2032-02-28). This
    reading keeps ME-FEES, 17 M.R.S. § 1836(3-A) (an annual licence is valid 12 months
    from its first day, RULES.md; ``constraints.maine.annual_end``) and the scenario's
    horizon of at most 2 years (SCENARIO) as they were.

    Parameters
    ----------
    first_day : datetime.date
        The period's first day (inclusive).
    years : int
        Its length in whole calendar years (at least 1).

    Returns
    -------
    datetime.date
        The period's last day (inclusive), e.g. 2027-03-01 and 1 year: 2028-02-29.

    Raises
    ------
    ValueError
        When ``years`` is less than 1 or the year leaves 1..9999.
    """
    if years < 1:
        raise ValueError(f"a period of {years} years: at least 1 is expected")
    anniversary = years_later(first_day, years)
    if (first_day.month, first_day.day) == (2, 29) and anniversary.day == 28:
        return anniversary  # Feb 29's anniversary in a common year is Mar 1
    return anniversary - dt.timedelta(days=1)


def tournament_tz(scenario: Scenario, t: Tournament) -> ZoneInfo:
    """The zone of a tournament: its first operator's."""
    return scenario.operator(t.operators[0]).tz


def read_timing(scenario: Scenario, t: Tournament, start: dt.datetime,
                end: dt.datetime) -> Timing:
    """The timing of an occurrence of ``t`` read back as ``start``/``end`` (aware; a
    schedule row, a plan's row): for a tournament with ``sessions``, its sessions when
    ``start``/``end`` are those of :func:`timing` from ``start``'s local day (the days of play
    then exclude the empty days between sessions), else the days from ``start`` to ``end``
    (end exclusive), one span."""
    tz = tournament_tz(scenario, t)
    s, e = start.astimezone(tz), end.astimezone(tz)
    if t.sessions:
        tm = timing(t, tz, s.date())
        if tm is not None and tm.start == s and tm.end == e:
            return tm
    return Timing(s, e, days_touched(s, e))


def sessions(sc: Scenario, t: Tournament, tm: Timing) -> list[tuple[dt.datetime, dt.datetime]]:
    """The play sessions of an occurrence of ``t`` timed ``tm``, as ``(start, end)`` instants
    in UTC, end exclusive, in order.

    One session from start to end (a one-day tournament read back over a longer span is in
    play all that time: MT-PLAY-HOURS judges every night of it), except a Montana
    tournament of several ``days``: a session each play day, from the first day's local
    start time (in the tournament's zone) for ``hours`` on the wall clock, as :func:`timing`
    reads them, the last ending at ``tm.end``; a span read back longer than ``days`` play
    days has a session on each further day too, the last one ending at ``tm.end``. A
    tournament with ``sessions``: those of ``tm`` (``Timing.sessions``). Between two
    sessions nothing is in play (MAX-CONCURRENT's ``time`` reading)."""
    if tm.sessions:
        return [(a.astimezone(UTC), b.astimezone(UTC)) for a, b in tm.sessions]
    start, end = tm.start.astimezone(UTC), tm.end.astimezone(UTC)
    if t.days <= 1:
        return [(start, end)]
    return list(_play_days(start, end, t.days, t.hours, tournament_tz(sc, t)))


_Each = Sequence[tuple[dt.datetime, dt.datetime]]
_EACH: dict[object, dict[int, tuple[Timing, _Each]]] = {}
""":func:`sessions_each`'s answers: by what they depend on besides the timing (a tournament
of several ``days``: its days, hours and zone; any other: None), then by the timing's
identity (the entry holds the timing, so its id is not reused while it is kept)."""
_EACH_MAX = 1 << 16
_each_kept = 0


def sessions_each(sc: Scenario, t: Tournament, tms: Sequence[Timing]
                  ) -> list[_Each]:
    """:func:`sessions` of an occurrence of ``t`` timed by each of ``tms``, in order: the
    same sessions, ``t`` read once (the model asks it of every candidate day; the sequences
    may be shared: not to be changed). Each timing's are computed once while kept (at most
    65,536, until :func:`forget_timings`): tournaments that start alike share timings
    (:func:`timing`), about one timing in five at N = 200."""
    global _each_kept
    several, tz = t.days > 1, tournament_tz(sc, t)
    shape = (t.days, t.hours, tz) if several else None
    by_id = _EACH.setdefault(shape, {})
    out: list[_Each] = []
    for tm in tms:
        hit = by_id.get(id(tm))
        if hit is not None and hit[0] is tm:
            out.append(hit[1])
            continue
        each: _Each
        if tm.sessions:
            each = [(a.astimezone(UTC), b.astimezone(UTC)) for a, b in tm.sessions]
        else:
            start, end = tm.start.astimezone(UTC), tm.end.astimezone(UTC)
            each = (_play_days(start, end, t.days, t.hours, tz) if several
                    else ((start, end),))
        if _each_kept >= _EACH_MAX:
            _forget_sessions_each()
            by_id = _EACH.setdefault(shape, {})
        by_id[id(tm)] = (tm, each)
        _each_kept += 1
        out.append(each)
    return out


@lru_cache(maxsize=1 << 16)
def _play_days(start: dt.datetime, end: dt.datetime, days: int, hours_: Decimal,
               tz: ZoneInfo) -> tuple[tuple[dt.datetime, dt.datetime], ...]:
    """:func:`sessions` of a Montana tournament of several ``days`` (``hours`` each) from
    ``start`` to ``end`` (instants in UTC, so equal keys are equal instants), each computed
    once: tournaments that start alike share them. Away from a change of ``tz``'s UTC offset
    (every wall-clock instant the sessions are read at, a day around), the wall clock is
    the instant moved by the offset: each session is ``start`` a day later (:func:`_steady`)."""
    wall = start.astimezone(tz).replace(tzinfo=None)
    hours = dt.timedelta(hours=float(hours_))
    # the last session read starts at most a day after `end`; it is read up to a day and
    # `hours` after its start
    reach = max(0, (end - start) // _DAY) + hours // _DAY + 4
    steady = _steady(tz, wall.date() - _DAY, wall.date() + _days(reach))
    out = []
    k = 0
    while True:  # ends: each session starts a day later, and `end` is finite
        s = wall + _days(k)
        a = start + _days(k) if steady else s.replace(tzinfo=tz).astimezone(UTC)
        if a >= end:
            break
        if steady:
            following, b = a + _DAY, min(end, a + hours)
        else:
            following = (s + _DAY).replace(tzinfo=tz).astimezone(UTC)
            b = min(end, (s + hours).replace(tzinfo=tz).astimezone(UTC))
        # the planned last day, or a further one, is the last unless another day's session
        # starts after it and before `end` (sessions of 24 h or more never repeat)
        last = k >= days - 1 and (following >= end or following < b)
        out.append((a, end if last else b))
        if last:
            break
        k += 1
    return tuple(out)
