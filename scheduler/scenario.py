"""The scenario: the tournaments an operator wants in a year, as frozen, typed values.

:class:`Scenario` holds the operators (:class:`Operator`) and their wanted tournaments
(:class:`Tournament`) with the readings of ambiguous clauses (:class:`Settings`). Its fields
are checked as they are built (``scheduler.fields``; problems of rule ``SCENARIO``); the
*input rules* of RULES.md (``MT-ENTRY-CAP``, ...) are the rules' own and run above them, in
:func:`scheduler.load.load_scenario` and, for a scenario built in Python, in
:func:`scheduler.load.validate_scenario`, which ``solve()`` and the check call.

Units: dates are ``datetime.date``; times of day are local ``datetime.time`` in the operator's
IANA time zone; ``hours`` are elapsed hours; money is ``Decimal`` US dollars.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from scheduler.fields import ME_TYPES as ME_TYPES
from scheduler.fields import MT_TYPES as MT_TYPES
from scheduler.fields import WEEKDAYS as WEEKDAYS
from scheduler.fields import (
    Address,
    Date,
    DateRange,
    DayList,
    Hours,
    Id,
    Money,
    OneLine,
    Share,
    Text,
    TimeOfDay,
    Title,
    UidDomain,
    _Model,
)
from scheduler.frames import frame_rows, relabel
from scheduler.limits import MAX_HORIZON_DAYS, MAX_ID_LENGTH, LimitError, read_bounded
from scheduler.problems import MISSING, InputProblem, ScenarioError, pydantic_problems
from scheduler.workbook import WorkbookError, read_workbook, write_workbook

if TYPE_CHECKING:
    import pandas as pd  # start-up time: only DataFrame input imports pandas

Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Jurisdiction = Literal["MT", "ME"]
TournamentType = Literal[
    "large-stakes", "small-stakes", "tournament-game", "super-cribbage", "charitable-cribbage"
]
DEFAULT_TIMEZONE = {"MT": "America/Denver", "ME": "America/New_York"}


class Settings(_Model):
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
    super_cribbage_licenses_issued: dict[int, Annotated[int, Field(ge=0)]] = {}
    """ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): super cribbage licences already issued
    statewide to organizations outside this scenario, per calendar year (``{2027: 11}``); they
    count toward the 15 of that year. At most 15 a year (validated with the Maine rules)."""

    @field_validator("super_cribbage_licenses_issued")
    @classmethod
    def _sorted_years(cls, v: dict[int, int]) -> dict[int, int]:
        return dict(sorted(v.items()))  # same output whatever order the years are given in


class OtherGame(_Model):
    """A weekly session of another game of chance on the premises (ME-OTHER-GAMES)."""

    weekday: Weekday
    start: TimeOfDay
    end: TimeOfDay
    """Local end; an end at or before ``start`` means the session runs past midnight."""


class HeldBefore(_Model):
    """MT: tournaments already held in the current permit year, before ``horizon.start``,
    and permits already bought for it (MT-PERMIT-FEES: not bought again)."""

    large_stakes: int = Field(0, ge=0)
    charitable: int = Field(0, ge=0)
    permits: tuple[Literal["large-stakes", "small-stakes"], ...] = ()


class PerPeriod(_Model):
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


class Operator(_Model):
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
        return tuple(sorted({self.permit_year_of(d) for d in days}))


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


class Satellite(_Model):
    """MT-SATELLITE: a seat in a higher-level tournament offered as a prize (USD)."""

    seat_value: Money
    expected_top_prize: Money


class Session(_Model):
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


class Tournament(_Model):
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


class Tour(_Model):
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


class Scenario(_Model):
    """A validated scenario. Build it with :func:`scheduler.load.load_scenario` (a file),
    :meth:`from_frames` (tables) or :func:`parse_scenario` (a mapping)."""

    name: OneLine
    horizon: DateRange
    notice_from: Date = Field(default_factory=lambda: _today())
    settings: Settings = Settings()
    operators: tuple[Operator, ...] = Field(min_length=1)
    tournaments: tuple[Tournament, ...] = ()
    tours: tuple[Tour, ...] = ()
    """Tours and progressives across venues (TOUR-WHOLE, TOUR-ORDER, TOUR-SPACING)."""
    uid_domain: UidDomain | None = None
    """A domain the organization controls, the right-hand end of every calendar UID
    (RFC 5545 §3.8.4.7, ``scheduler.uid``); default ``tourney.invalid``."""

    @model_validator(mode="before")
    @classmethod
    def _open_window_ends(cls, data: Any) -> Any:
        """A tournament's ``window`` with only ``start`` (or only ``end``) given runs to the
        horizon's end (from its start), as the workbook's header comment says (WINDOW)."""
        if not isinstance(data, Mapping):
            return data
        horizon, tournaments = data.get("horizon"), data.get("tournaments")
        if not isinstance(horizon, Mapping) or not isinstance(tournaments, list | tuple):
            return data
        filled = []
        for t in tournaments:
            w = t.get("window") if isinstance(t, Mapping) else None
            if isinstance(w, Mapping) and ("start" in w) != ("end" in w):
                side = "end" if "start" in w else "start"
                if side in horizon:
                    t = {**t, "window": {**w, side: horizon[side]}}
            filled.append(t)
        return {**data, "tournaments": filled}

    def operator(self, operator_id: str) -> Operator:
        return self._op_index[operator_id]

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Scenario:
        """pydantic's copy, without the cached id indexes of the original (they would
        point to the original's operators and tournaments)."""
        new = super().model_copy(update=update, deep=deep)
        for key in ("_op_index", "_t_index"):
            new.__dict__.pop(key, None)
        return new

    @cached_property
    def _op_index(self) -> dict[str, Operator]:
        return {o.id: o for o in self.operators}

    @cached_property
    def _t_index(self) -> dict[str, Tournament]:
        return {t.id: t for t in self.tournaments}

    def tournament(self, tournament_id: str) -> Tournament:
        return self._t_index[tournament_id]

    def jurisdiction_of(self, t: Tournament) -> str:
        return "MT" if t.type in MT_TYPES else "ME"

    def to_yaml(self) -> str:
        """The scenario as YAML text that :func:`scheduler.load.load_scenario` reads back to an
        equal Scenario."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        data["notice_from"] = self.notice_from.isoformat()
        return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                         sort_keys=False, allow_unicode=True)

    def to_xlsx(self) -> bytes:
        """The scenario as an Excel workbook (the layout of ``tourney template``,
        :func:`scheduler.workbook.write_workbook`) that :func:`scheduler.load.load_scenario`
        reads back to an equal Scenario; the same scenario gives byte-identical bytes.

        Raises
        ------
        ScenarioError
            A tournament has ``sessions`` (flights), which the workbook has no column for:
            written without them it would read back as another scenario (rule ``SCENARIO``).
        """
        flights = [InputProblem(f"tournaments[{i}].sessions", MISSING, "SCENARIO",
                                f"{t.id} has sessions (flights), which a workbook cannot hold "
                                "yet; keep this scenario in YAML")
                   for i, t in enumerate(self.tournaments) if t.sessions]
        if flights:
            raise ScenarioError(flights)
        return write_workbook(self._plain_data())

    @classmethod
    def from_excel(cls, path: str | Path) -> Scenario:
        """The scenario of an Excel workbook (``.xlsx``, the layout of ``tourney template``),
        every field checked as :func:`parse_scenario` checks a YAML mapping; the input rules
        of RULES.md run when it is solved or checked (or by
        :func:`scheduler.load.validate_scenario`; :func:`scheduler.load.load_scenario` of the
        same path does both at once).

        Raises
        ------
        ScenarioError
            Each problem naming the sheet, cell and column header (``Tournaments!F7
            (entry_fee)``); a file that is not an ``.xlsx`` workbook or is too large.
        """
        data, cells = read_workbook_file(path)
        return parse_scenario(data, lines=cells, file=str(path))

    # ------------------------------------------------------------------ DataFrames, what-if
    @classmethod
    def from_frames(
        cls, operators: pd.DataFrame, tournaments: pd.DataFrame | None = None, *,
        name: str, horizon_start: dt.date | str, horizon_end: dt.date | str,
        notice_from: dt.date | str | None = None,
        settings: Settings | Mapping[str, Any] | None = None,
        today: dt.date | None = None,
    ) -> Scenario:
        """A scenario from two tables (e.g. spreadsheets read with ``pandas.read_excel``):
        one row per operator and one row per tournament.

        Column names are the YAML field names of ``docs/scenario.md`` (``id``, ``title``,
        ``type``, ``operators``, ``count``, ``weekdays``, ``entry_fee``, ...); a nested field
        is a dotted column (``window.start``, ``window.end``, ``satellite.seat_value``,
        ``held_in_current_permit_year.large_stakes``), and ``window`` may also be one cell
        ``"2027-03-01..2027-05-31"``. An ``id`` index (``df.set_index("id")``) is read as
        the ``id`` column. Cells:

        - empty (NaN, None, NaT, ``""``): the field is not given (its default applies);
          wholly empty rows are skipped;
        - list-valued fields (``operators``, ``weekdays``, ``prefer_weekdays``,
          ``fixed_dates``, ``filed_dates``, ``blackout``, ``held_in_current_permit_year.permits``)
          take a Python list or a string separated by commas, semicolons or spaces
          (``"fri, sat"``, ``"2027-12-24..2027-12-26 2027-07-04"``); ``beneficiaries`` (names
          with spaces) are separated by semicolons or line breaks; ``other_games`` is a list
          of mappings or ``"tue 18:00-22:00; fri 19:00-01:00"``;
        - a whole-number float (a number column with gaps reads as float) is an integer.

        ``settings`` is a :class:`Settings` or a mapping of its fields; ``notice_from``
        defaults to ``today`` (the current date when not given), as in
        :func:`scheduler.load.load_scenario`.

        Raises :class:`ScenarioError` with the same field checks and messages as the YAML
        loader; a problem's path names the frame, the row's index label and the column, e.g.
        ``tournaments['sat'].entry_fee = 'x': ...``. The input rules of RULES.md
        (``MT-ENTRY-CAP``, ...) are the rules' own: ``solve()`` and the check refuse a scenario
        that breaks one (:func:`scheduler.load.validate_scenario`, which a caller may also run
        first), naming the tournament by its position, e.g. ``tournaments[2].entry_fee = 2000:
        ... (MT-ENTRY-CAP, MCA 23-5-317(1)(g))``.
        """
        data: dict[str, Any] = {"name": name,
                                "horizon": {"start": horizon_start, "end": horizon_end}}
        if notice_from is not None:
            data["notice_from"] = notice_from
        if settings is not None:
            data["settings"] = _plain(settings)
        labels: dict[str, list[Any]] = {}
        problems: list[InputProblem] = []
        for key, frame, model in (("operators", operators, Operator),
                                  ("tournaments", tournaments, Tournament)):
            rows, labels[key] = frame_rows(key, frame, model, problems)
            data[key] = rows
        if problems:
            raise ScenarioError(problems)
        if "notice_from" not in data and today is not None:
            data["notice_from"] = today
        try:
            return parse_scenario(data)
        except ScenarioError as err:
            raise ScenarioError([relabel(p, labels) for p in err.problems]) from None

    def replace(self, **changes: Any) -> Scenario:
        """A new scenario with top-level fields changed (``name``, ``horizon``,
        ``notice_from``, ``settings``, ``operators``, ``tournaments``), its fields validated
        like a loaded file's (the input rules run in ``solve()`` and
        :func:`scheduler.load.validate_scenario`). Values may be models or plain YAML-like
        values (dates as ``datetime.date`` or ISO text)::

            earlier = scenario.replace(notice_from=scenario.notice_from - timedelta(days=14))

        Raises :class:`ScenarioError` (rule ``SCENARIO``), e.g. for an unknown field or a
        value the loader would refuse.
        """
        data = self._plain_data()
        data.update({k: _plain(v) for k, v in changes.items()})
        return parse_scenario(data)

    def with_settings(self, **changes: Any) -> Scenario:
        """A new scenario with readings changed, e.g. ``with_settings(month_rule="start")``
        (ME-MONTHLY-LIMIT), ``tier_coverage="exact"`` (ME-FEES),
        ``reentry_counts_toward_cap=False`` (MT-ENTRY-CAP). Raises :class:`ScenarioError`
        for an unknown setting or value."""
        return self.replace(settings={**self.settings.model_dump(), **changes})

    def with_tournament(self, tournament_id: str, **changes: Any) -> Scenario:
        """A new scenario with fields of one tournament changed, e.g.
        ``with_tournament("fall-charity", charitable=False, charity_share=None)``; a field set
        to ``None`` is not given (its default applies where it has one). Raises
        :class:`ScenarioError` for an unknown id, field or an invalid value."""
        return self._with_item("tournaments", tournament_id, changes)

    def with_operator(self, operator_id: str, **changes: Any) -> Scenario:
        """A new scenario with fields of one operator changed, e.g.
        ``with_operator("room-a", held_in_current_permit_year={"large_stakes": 12})``.
        Raises :class:`ScenarioError` for an unknown id, field or an invalid value."""
        return self._with_item("operators", operator_id, changes)

    def _plain_data(self) -> dict[str, Any]:
        data = self.model_dump(exclude_defaults=True)
        data["notice_from"] = self.notice_from
        return data

    def _with_item(self, key: str, item_id: str, changes: Mapping[str, Any]) -> Scenario:
        data = self._plain_data()
        items = list(data.get(key, ()))
        ids = [item["id"] for item in items]
        if item_id not in ids:
            near = difflib.get_close_matches(str(item_id), ids, n=1)
            kind = key.removesuffix("s")
            raise ScenarioError([InputProblem(
                key, item_id, "SCENARIO", f"no {kind} has this id" +
                (f"; did you mean {near[0]!r}?" if near else ""))])
        i = ids.index(item_id)
        item = {**items[i], **{k: _plain(v) for k, v in changes.items()}}
        items[i] = {k: v for k, v in item.items() if v is not None}
        data[key] = items
        return parse_scenario(data)


def _today() -> dt.date:
    return dt.date.today()


def parse_scenario(data: Mapping[str, Any], *,
                   lines: Mapping[tuple[Any, ...], int | str] | None = None,
                   file: str | None = None) -> Scenario:
    """A :class:`Scenario` from a YAML-like mapping, every field checked (rule ``SCENARIO``);
    not the input rules of RULES.md (:func:`scheduler.load.validate_scenario` runs them).

    Parameters
    ----------
    data
        The scenario as the YAML file gives it (``docs/scenario.md``).
    lines
        Field path -> 1-based line of the YAML text (or a workbook's cell, e.g.
        ``"Tournaments!F7 (entry_fee)"``), to name where each problem is.
    file
        The file's name, for the messages.

    Raises
    ------
    ScenarioError
        Every field's problem: unknown keys (with the nearest known name), wrong types, bad
        dates, values out of range.
    """
    try:
        return Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(pydantic_problems(err, data, Scenario, lines), file) from None


def _plain(value: Any) -> Any:
    """Models as the mappings the loader reads (defaults left out); lists as lists."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_defaults=True)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value



def read_workbook_file(path: str | Path) -> tuple[dict[str, Any], dict[tuple[Any, ...], str]]:
    """The raw scenario mapping of the workbook at ``path`` and where each field is (field
    path -> ``"Sheet!A1 (header)"``), within the size limits of
    :func:`scheduler.limits.read_bounded`.

    Raises
    ------
    ScenarioError
        When the file is not an ``.xlsx`` workbook, is too large, or its layout is wrong
        (a sheet or header missing), naming the sheet and cell.
    """
    file = str(path)
    if not file.lower().endswith(".xlsx"):
        raise ScenarioError([InputProblem("<file>", MISSING, "SCENARIO",
                                          "expected an Excel workbook (.xlsx)")], file)
    try:
        return read_workbook(read_bounded(path))
    except (LimitError, WorkbookError) as exc:
        found = exc.problems if isinstance(exc, WorkbookError) else [("<file>", str(exc))]
        raise ScenarioError([InputProblem("<file>", MISSING, "SCENARIO", msg, cell)
                             for cell, msg in found], file) from None
