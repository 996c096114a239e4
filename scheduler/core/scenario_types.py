"""The parts a scenario is made of, as frozen, typed values: :class:`Settings` (the readings
of ambiguous clauses), :class:`Operator` (with :class:`HeldBefore`, :class:`HeldInMonth` and
:class:`OtherGame`), :class:`Tournament` (with :class:`Session`, :class:`Satellite` and
:class:`PerPeriod`) and :class:`Tour`; the spellings ``Weekday`` (a Literal, read in any case
and in full), ``Jurisdiction`` and ``TournamentType`` (one of the installed jurisdictions'
codes and types, :mod:`scheduler.core.jurisdiction`).

:class:`scheduler.core.scenario.Scenario` holds them, and ``scheduler.core.scenario`` re-exports
every
public name here (``from scheduler.core.scenario import Tournament``). Units as there: dates are
``datetime.date``; times of day are local ``datetime.time`` in the operator's IANA time zone;
``hours`` are elapsed hours; money is ``Decimal`` US dollars.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BeforeValidator, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from scheduler.core.fields import (
    WEEKDAY_NAMES,
    WEEKDAYS,
    Address,
    Date,
    DateRange,
    DayList,
    Hours,
    Id,
    Money,
    OneLine,
    Share,
    StrictModel,
    Text,
    TimeOfDay,
    Title,
    UidDomain,
)
from scheduler.core.frozen import FrozenDict
from scheduler.core.jurisdiction import all_types, codes, default_timezone
from scheduler.core.limits import MAX_HORIZON_DAYS, MAX_ID_LENGTH


def _weekday_spelling(v: Any) -> Any:
    """A weekday as a spreadsheet writes it (``Saturday``, ``SAT``, ``Sat.``) in the
    scenario's spelling (``sat``); several in one item (``sat, sun``, ``Mon-Fri``) are
    refused saying to list them; anything else is left for the Literal to refuse."""
    if isinstance(v, str):
        word = v.strip().rstrip(".").lower()
        for short, name in zip(WEEKDAYS, WEEKDAY_NAMES, strict=True):
            if word in (short, name.lower()):
                return short
        if _SEVERAL.search(word):
            raise PydanticCustomError(
                "weekday_list", "one weekday per item: write a list, e.g. [sat, sun] or "
                "[mon, tue, wed, thu, fri]")
    return v


_SEVERAL = re.compile(r"^[a-z]{3,}\.?\s*[,;/&+\-–—]\s*[a-z]{3,}|^[a-z]{3,}\.?\s+(and|to)\s")
"""Two words joined as a list or a range (``sat, sun``, ``fri/sat``, ``Mon-Fri``, ``sat and
sun``): several weekdays in one item."""


Weekday = Annotated[Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
                    BeforeValidator(_weekday_spelling)]
"""A weekday: ``mon`` … ``sun``; read in any case, and in full (``Saturday``)."""


def _expected(choices: Sequence[str]) -> str:
    """pydantic's wording of a Literal's choices (``'MT' or 'ME'``)."""
    shown = [repr(c) for c in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _one_of(choices: Callable[[], tuple[str, ...]]) -> BeforeValidator:
    """A check that a value is one of ``choices()`` (the installed jurisdictions' codes or
    types), failing as a ``Literal`` of them fails (pydantic's ``literal_error``)."""
    def check(v: Any) -> Any:
        allowed = choices()
        if isinstance(v, str) and v in allowed:
            return v
        raise PydanticCustomError("literal_error", "Input should be {expected}",
                                  {"expected": _expected(allowed)})
    return BeforeValidator(check)


Jurisdiction = Annotated[str, _one_of(codes)]
"""A jurisdiction's code, one of the installed ones (:mod:`scheduler.core.jurisdiction`)."""
TournamentType = Annotated[str, _one_of(all_types)]
"""A tournament type, one of the installed jurisdictions' types."""


class _DefaultZones(Mapping[str, str]):
    """Jurisdiction code -> the IANA zone of an operator who gives none, read from the
    installed jurisdictions (:func:`scheduler.core.jurisdiction.installed`)."""

    def __getitem__(self, code: str) -> str:
        zone = default_timezone(code)
        if zone is None:
            raise KeyError(code)
        return zone

    def __iter__(self) -> Iterator[str]:
        return iter(codes())

    def __len__(self) -> int:
        return len(codes())


DEFAULT_TIMEZONE: Mapping[str, str] = _DefaultZones()


class Settings(StrictModel):
    """Readings of ambiguous clauses (RULES.md). Defaults are the conservative readings."""

    month_rule: Literal["touch", "start"] = "touch"
    """ME-MONTHLY-LIMIT: count a game in every month it touches, or only its starting month."""
    tier_coverage: Literal["up", "exact"] = "up"
    """ME-FEES: a licence covers games up to its tier's maximum, or only its own tier."""
    reentry_counts_toward_cap: bool = True
    """MT-ENTRY-CAP: re-entries count toward the $1,875 a participant may pay."""
    surcharge_cap: Literal["license-fee", "flat"] = "license-fee"
    """ME-ENTRY-CAP, 17 M.R.S. § 1836(4): the licence-fee surcharge (USD, all players together)
    may not exceed the licence fee it defrays, i.e. the game's per-tournament fee by tier
    ($75 for super cribbage), and never more than $125 (``license-fee``); or only the flat $125
    (``flat``)."""
    permit_year_count: Literal["each", "first-day"] = "each"
    """MT-LARGE-LIMIT, MCA 23-5-317(1)(a): a large-stakes tournament whose days of play fall in
    two permit years counts toward the 16 of each of them (``each``), or only in the permit
    year of its first day (``first-day``)."""
    progressive_count: Literal["round", "once"] = "round"
    """MT-PROGRESSIVE, MCA 23-5-317(1)(d),(e): each round of a progressive counts toward the 16
    of each operator on whose premises it is played (``round``), or the whole progressive
    counts once for each such operator, in each permit year in which one of its rounds is
    played there (``once``)."""
    super_cribbage_licenses_issued: Mapping[int, Annotated[int, Field(ge=0)]] = FrozenDict()
    """ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): super cribbage licences already issued
    statewide to organizations outside this scenario, per calendar year (``{2027: 11}``); they
    count toward the 15 of that year. At most 15 a year (validated with the Maine rules).
    Read-only (a :class:`scheduler.core.frozen.FrozenDict`, years in order): a changed reading is a
    new Settings (``model_copy(update=...)``, which freezes it too)."""
    closed_days: DayList = ()
    """ME-APPLICATION-WINDOW, ME-REPORT (16-633 CMR ch. 32 §§ 2, 8): days the Governor closes
    Maine state offices by order, which are then not Maine business days (the State Government
    holidays, Thanksgiving Friday among them, are known:
    :func:`constraints.maine.maine_holidays`).
    Dates and ``"FIRST..LAST"`` ranges, read as a sorted tuple of distinct dates."""

    @field_validator("super_cribbage_licenses_issued")
    @classmethod
    def _sorted_years(cls, v: Mapping[int, int]) -> FrozenDict[int, int]:
        # same output whatever order the years are given in; frozen, so neither the Settings
        # nor a scenario or plan holding it changes (and all three hash)
        return FrozenDict(sorted(v.items()))

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Settings:
        """pydantic's copy (which validates nothing), with ``super_cribbage_licenses_issued``
        frozen and its years sorted as when validated."""
        new = super().model_copy(update=update, deep=deep)
        issued = new.super_cribbage_licenses_issued
        if not isinstance(issued, FrozenDict) or list(issued) != sorted(issued):
            new.__dict__["super_cribbage_licenses_issued"] = FrozenDict(sorted(issued.items()))
        return new


class OtherGame(StrictModel):
    """A weekly session of another game of chance on the premises (ME-OTHER-GAMES)."""

    weekday: Weekday
    start: TimeOfDay
    end: TimeOfDay
    """Local end; an end at or before ``start`` means the session runs past midnight."""

    @model_validator(mode="before")
    @classmethod
    def _spelt(cls, v: Any) -> Any:
        """A session written as one text the workbook could not read (``tue 6pm-10pm``):
        say how to write it, not pydantic's "a valid dictionary"."""
        if isinstance(v, str):
            raise PydanticCustomError(
                "other_game", "write a weekday and its local start and end, 24-hour, e.g. "
                "'tue 18:00-22:00'")
        return v


class HeldBefore(StrictModel):
    """MT: tournaments already held in the current permit year, before ``horizon.start``,
    and permits already bought for it (MT-PERMIT-FEES: not bought again)."""

    large_stakes: int = Field(0, ge=0)
    charitable: int = Field(0, ge=0)
    permits: tuple[Literal["large-stakes", "small-stakes"], ...] = ()


class HeldInMonth(StrictModel):
    """ME: licensed games already held before ``horizon.start`` that count in the calendar
    month containing it (ME-MONTHLY-LIMIT, 17 M.R.S. § 1836: at most 2 a month, counting the
    games already held in that month)."""

    games: int = Field(0, ge=0)
    """Tournament games and super cribbage games (not registered charitable cribbage) held
    before ``horizon.start`` and counted in its month under ``settings.month_rule``: a game
    held from Sep 30 into Oct 1 counts in October with ``touch``."""


class PerPeriod(StrictModel):
    """How many occurrences of a tournament may start in one calendar month (``per_month``,
    rule PER-MONTH) or one ISO week, Monday to Sunday (``per_week``, rule PER-WEEK); an
    occurrence counts in the month (week) of its first day. ``None``: no bound that way."""

    min: int | None = Field(None, ge=0)
    """At least this many first days in each month (week) of the tournament's window (the
    horizon when it has none): required occurrences, placed before any optional one."""
    max: int | None = Field(None, ge=1)
    """At most this many first days in any month (week): a hard rule."""


def _per_period(v: Any) -> Any:
    """``per_month: 1`` is short for ``per_month: {min: 1, max: 1}`` (exactly one)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return {"min": v, "max": v}
    return v


PerPeriodField = Annotated[PerPeriod | None, BeforeValidator(_per_period)]


class Operator(StrictModel):
    """A Montana licensed operator (card room) or a Maine licensed organization."""

    id: Id
    name: OneLine
    jurisdiction: Jurisdiction
    timezone: str | None = None
    address: Address | None = None
    blackout: DayList = ()
    max_concurrent: int = Field(1, ge=1)
    concurrency: Literal["time", "day"] = "time"
    """MAX-CONCURRENT: ``time``: at most ``max_concurrent`` tournaments in play at the same
    moment (their play sessions overlap in time); ``day``: on the same calendar day (every
    day an occurrence touches)."""
    tables: int | None = Field(None, ge=0)
    """TABLES: tournament tables available on each calendar day (None: not limited)."""
    dealers: int | None = Field(None, ge=0)
    """MT-DEALER, MCA 23-5-317(6): licensed dealers available on each calendar day (None:
    not limited; Montana only)."""
    # Montana
    live_tables: int | None = Field(None, ge=0)
    permit_year_start: str = "07-01"
    held_in_current_permit_year: HeldBefore = HeldBefore()
    late_hours_ordinance: bool = False
    calendar_style: Literal["all-day", "timed"] = "all-day"
    """How this operator's Montana events are written in the calendars: ``all-day`` (the
    calendar days, DTSTART;VALUE=DATE, with the play time in the description) or ``timed``
    (DTSTART/DTEND with TZID: the first session's start to the last one's end). Maine
    games are always timed."""
    # Maine
    held_in_current_month: HeldInMonth = HeldInMonth()
    """ME-MONTHLY-LIMIT: the licensed games held before ``horizon.start`` in its calendar
    month (with ``solve --ledger``: from the ledger's held entries)."""
    owns_premises: bool = False
    local_approval: bool | None = None
    beneficiaries: tuple[OneLine, ...] = ()
    other_games: tuple[OtherGame, ...] = ()
    organization_type: Literal[
        "nonprofit", "agricultural-society", "volunteer-fire-department",
        "national-cribbage-501c3",
    ] = "nonprofit"
    """ME-ELIGIBLE: a Maine organization (17 M.R.S. § 1832(2)); or ``national-cribbage-501c3``,
    a nationally chartered 501(c)(3) organization of tournament cribbage, which may conduct
    only super cribbage (ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(A))."""
    organized_on: Date | None = None
    licensed_establishment: Literal["restaurant", "manufacturer"] | None = None
    uid_domain: UidDomain | None = None
    """The domain this operator's calendar UIDs end with (RFC 5545 §3.8.4.7); default: the
    scenario's ``uid_domain``."""

    @field_validator("timezone")
    @classmethod
    def _tz(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                ZoneInfo(v)
            # OSError: a folder of the zone database ("America") or a name too long for a
            # file name; zoneinfo opens the file named by the key
            except (ZoneInfoNotFoundError, ValueError, OSError):
                raise ValueError(f"unknown IANA time zone {v!r} (e.g. America/Denver)") from None
        return v

    @field_validator("permit_year_start")
    @classmethod
    def _pys(cls, v: str) -> str:
        try:
            dt.date.fromisoformat(f"2001-{v}")
        except ValueError:
            raise ValueError(f"expected a month-day as \"MM-DD\" (e.g. \"07-01\"), got {v!r}") \
                from None
        return v

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone or DEFAULT_TIMEZONE[self.jurisdiction])

    def permit_year_of(self, day: dt.date) -> dt.date:
        """MT-PERMIT-YEAR: first day of the permit year containing ``day``."""
        return _permit_year_of(self.permit_year_start, day)

    def permit_year_end(self, day: dt.date) -> dt.date:
        """MT-PERMIT-YEAR: last day of the permit year containing ``day`` (the day before the
        next permit year's first day; a permit year is 365 or 366 days long, so 366 days after
        its first day always lies in the next one)."""
        start = self.permit_year_of(day)
        return self.permit_year_of(start + dt.timedelta(days=366)) - dt.timedelta(days=1)

    def permit_years_of(self, days: Sequence[dt.date]) -> tuple[dt.date, ...]:
        """MT-PERMIT-FEES, MCA 23-5-317(1)(b), (2)(b): first days of every permit year that one
        of ``days`` falls in (e.g. the ``Timing.days`` of an occurrence), sorted. A tournament
        played Jun 30 - Jul 2 falls in two permit years (Jul 1 - Jun 30) and needs both permits."""
        return _permit_years_of(self.permit_year_start, tuple(days))


@lru_cache(maxsize=1 << 14)
def _permit_years_of(permit_year_start: str, days: tuple[dt.date, ...]) -> tuple[dt.date, ...]:
    """:meth:`Operator.permit_years_of`, each (start, days) computed once: the checker and
    the reasons count every occurrence's permit years (MT-LARGE-LIMIT) again and again."""
    return tuple(sorted({_permit_year_of(permit_year_start, d) for d in days}))


@lru_cache(maxsize=8192)
def _permit_year_of(permit_year_start: str, day: dt.date) -> dt.date:
    """:meth:`Operator.permit_year_of` (``permit_year_start`` "MM-DD"), each (start, day)
    computed once: the model, the checker and the reasons ask it of the same days often."""
    month, mday = (int(x) for x in permit_year_start.split("-"))
    start = _safe_date(day.year, month, mday)
    return start if start <= day else _safe_date(day.year - 1, month, mday)


def _safe_date(year: int, month: int, day: int) -> dt.date:
    try:
        return dt.date(year, month, day)
    except ValueError:  # 02-29 in a common year
        return dt.date(year, month, 28)


class Satellite(StrictModel):
    """MT-SATELLITE: a seat in a higher-level tournament offered as a prize (USD)."""

    seat_value: Money
    expected_top_prize: Money


class Session(StrictModel):
    """One session of a tournament played in flights (Day 1A, Day 1B, ..., Day 2): one
    tournament for the law (counted once, one notice, MT-DURATION from the first session's
    day to the last's), one calendar event per session."""

    day: int = Field(ge=1, le=MAX_HORIZON_DAYS)
    """The day of play it is on, counted from the tournament's first day (1-based); days
    between two sessions may be empty."""
    start: TimeOfDay
    """Local time of day the session starts (HH:MM, the operator's zone)."""
    hours: Hours
    """Length of the session in hours (MT: on the wall clock; ME: elapsed time)."""
    name: OneLine | None = None
    """Shown in the session's calendar title (``Main Event — Day 1A``); default ``Day <day>``."""

    @property
    def label(self) -> str:
        """The session's name, else ``Day <day>``."""
        return self.name or f"Day {self.day}"

    def minutes(self) -> tuple[int, int]:
        """(start, end) in wall-clock minutes after midnight of the tournament's first day."""
        s = (self.day - 1) * 24 * 60 + self.start.hour * 60 + self.start.minute
        return s, s + int(round(float(self.hours) * 60))


SESSION_REPLACES = ("days", "start_time", "hours")
"""The fields ``sessions`` replaces: a tournament gives either these or its sessions."""


class Tournament(StrictModel):
    """A tournament the operator wants, possibly several times (``count``)."""

    id: Id
    title: Title
    type: TournamentType
    operators: tuple[Annotated[str, Field(max_length=MAX_ID_LENGTH)], ...] = Field(
        min_length=1)
    charitable: bool = False
    days: int = Field(1, ge=1, le=MAX_HORIZON_DAYS)
    start_time: TimeOfDay = dt.time(12, 0)
    hours: Hours = Decimal(10)
    count: int | Literal["all"] = 1
    required: int = Field(0, ge=0)
    window: DateRange | None = None
    weekdays: tuple[Weekday, ...] | None = None
    prefer_weekdays: tuple[Weekday, ...] = ()
    fixed_dates: tuple[Date, ...] = ()
    min_gap_days: int = Field(0, ge=0, le=MAX_HORIZON_DAYS)
    per_month: PerPeriodField = None
    """PER-MONTH: first days per calendar month (of the first day), ``{min, max}``."""
    per_week: PerPeriodField = None
    """PER-WEEK: first days per ISO week (Monday to Sunday, of the first day), ``{min, max}``."""
    spread: Literal["even"] | None = None
    """SPREAD: ``even``: the numbers of first days in the calendar months of the window (the
    horizon when it has none) differ by at most 1 (a hard rule)."""
    dealers_needed: int = Field(0, ge=0)
    """MT-DEALER: licensed dealers the tournament needs on each calendar day it is conducted."""
    tables_needed: int = Field(0, ge=0)
    """TABLES: tables the tournament needs on each calendar day it is conducted."""
    priority: int = Field(1, ge=1, le=1000)
    players: int | None = Field(None, ge=1)
    entry_fee: Money = Decimal(0)
    reentries: int = Field(0, ge=0)
    rebuy_fee: Money = Decimal(0)
    max_rebuys: int = Field(0, ge=0)
    addon_fee: Money = Decimal(0)
    charity_share: Share | None = None
    prize_share: Share | None = None
    # rarely needed terms, each tied to an input rule
    rake: bool = False
    satellite: Satellite | None = None
    elimination: bool = True
    license_surcharge_total: Money = Decimal(0)
    raffles: int = Field(0, ge=0)
    raffle_prize: Money = Decimal(0)
    high_hand_competitions: int = Field(0, ge=0)
    organizer_member_years: int | None = Field(None, ge=0)
    description: Text | None = None
    locked: bool = False
    """Re-plans (``--previous``): keep every announced occurrence of this tournament where it
    is."""
    filed_dates: tuple[Date, ...] = ()
    """First days whose MT notice / ME licence application is already filed (a re-plan sets
    them for announced occurrences past their deadline): MT-NOTICE and
    ME-APPLICATION-WINDOW hold for them whatever ``notice_from`` is."""
    cancelled_dates: tuple[Date, ...] = ()
    """First days of occurrences recorded as cancelled (``tourney solve --ledger`` sets them
    from ``tourney record cancelled``): the tournament is not placed on them again (rule
    CANCELLED), and a re-plan publishes an announced occurrence on one as STATUS:CANCELLED
    (same UID, SEQUENCE + 1). They count toward no limit."""
    reuse_cancelled_days: bool = False
    """Allow placing the tournament again on one of its ``cancelled_dates`` (a new occurrence
    with a new UID; the cancelled one stays cancelled)."""
    held_dates: tuple[Date, ...] = ()
    """First days of occurrences already held (``tourney solve --ledger`` fills them from the
    ledger's ``held`` records): history, kept on their day (also in ``fixed_dates`` and
    ``filed_dates``); schedule.csv gives their rows the status ``held``."""
    sessions: tuple[Session, ...] = ()
    """Flights and day 2s: the sessions of one occurrence, replacing ``days``/``start_time``/
    ``hours`` (``[{day: 1, start: "11:00", hours: 10, name: Day 1A}, {day: 4, ...}]``),
    sorted by day and start, not overlapping; the first on day 1. Empty: ``days`` play days
    from ``start_time`` for ``hours`` each."""

    @model_validator(mode="after")
    def _sessions_valid(self) -> Tournament:
        if not self.sessions:
            return self
        both = [f for f in SESSION_REPLACES if f in self.model_fields_set]
        if both:
            raise ValueError(f"give either sessions or {'/'.join(SESSION_REPLACES)}, not both "
                             f"({', '.join(both)} given with sessions)")
        if self.sessions[0].day != 1:
            raise ValueError(f"the first session is on day 1 (the tournament's first day), "
                             f"not day {self.sessions[0].day}")
        for k in range(1, len(self.sessions)):
            a, b = self.sessions[k - 1], self.sessions[k]
            if b.minutes()[0] < a.minutes()[1]:
                raise ValueError(
                    f"sessions[{k}] ({b.label}, day {b.day} {b.start:%H:%M}) starts before "
                    f"sessions[{k - 1}] ({a.label}, day {a.day} {a.start:%H:%M} for {a.hours} "
                    f"h) ends: sessions are sorted by day and start and do not overlap")
        return self

    @property
    def play_sessions(self) -> tuple[Session, ...]:
        """The sessions of one occurrence: ``sessions``, else ``days`` sessions, one a day
        from ``start_time`` for ``hours``."""
        return self.sessions or tuple(Session(day=k + 1, start=self.start_time,
                                              hours=self.hours) for k in range(self.days))

    @property
    def span_days(self) -> int:
        """Days from the first session's day to the last's, both counted (``days`` without
        sessions): where the last session starts, not the calendar days it runs into."""
        return self.sessions[-1].day if self.sessions else self.days

    @field_validator("count", mode="before")
    @classmethod
    def _count(cls, v: Any) -> Any:
        if isinstance(v, int) and not isinstance(v, bool) and v < 1:
            raise ValueError("count must be at least 1 (or \"all\" for small-stakes)")
        return v

    @property
    def is_large(self) -> bool:
        return self.type == "large-stakes"

    @property
    def is_small(self) -> bool:
        return self.type == "small-stakes"

    @property
    def is_me_licensed_game(self) -> bool:
        """A licensed Maine tournament game (counts toward ME-MONTHLY-LIMIT)."""
        return self.type in ("tournament-game", "super-cribbage")

    @property
    def must_place(self) -> int:
        """Occurrences that must be placed: ``required``, and at least every fixed date."""
        return max(self.required, len(self.fixed_dates))


class Tour(StrictModel):
    """A regional tour or a Montana progressive (MCA 23-5-317(1)(e)): stops (rounds) that
    are ordinary tournaments, each at its own venue(s) and counted there, planned together
    (TOUR-WHOLE, TOUR-ORDER, TOUR-SPACING; ``constraints/tours.py``)."""

    id: Id
    title: Title
    stops: tuple[Annotated[str, Field(max_length=MAX_ID_LENGTH)], ...] = Field(min_length=2)
    """Tournament ids of the stops, in the tour's order (each with ``count: 1``)."""
    order: Literal["strict", "any"] = "strict"
    """TOUR-ORDER: ``strict``: the stops are held in the listed order; ``any``: in any
    order. Either way no two stops are in play on the same day."""
    min_days_between: int = Field(0, ge=0, le=MAX_HORIZON_DAYS)
    """TOUR-SPACING: days, at least, from one stop's first day to the next stop's first day
    (in date order)."""
    max_days_between: int | None = Field(None, ge=1, le=MAX_HORIZON_DAYS)
    """TOUR-SPACING: days, at most, from one stop's first day to the next stop's first day
    (``order: strict`` only; None: no bound)."""
    final: str | None = None
    """The final round's tournament id: the last stop listed, held after every other stop
    (TOUR-ORDER; for a progressive, MT-PROGRESSIVE: the ultimate prize is awarded there)."""
    progressive: bool = False
    """MT-PROGRESSIVE, MCA 23-5-317(1)(e): a progressive large-stakes tournament whose rounds
    are the stops (every stop large-stakes, at least two permitholders, a ``final``)."""
