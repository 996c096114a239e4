"""Load and validate a scenario: the tournaments an operator wants in a year.

``load_scenario(path)`` reads the YAML file described in ``docs/scenario.md`` and returns a
frozen, typed :class:`Scenario`. Every problem is collected and raised together as one
:class:`ScenarioError`, each naming the file, the line (where the YAML parser knows it), the
field path, the value and the rule ID (e.g. ``MT-ENTRY-CAP``, ``SCENARIO`` for format errors).

Units: dates are ``datetime.date``; times of day are local ``datetime.time`` in the operator's
IANA time zone; ``hours`` are elapsed hours; money is ``Decimal`` US dollars.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import functools
import re
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    field_validator,
    model_validator,
)

from constraints.catalogue import cite
from scheduler.limits import (
    FIRST_YEAR,
    LAST_YEAR,
    MAX_HORIZON_DAYS,
    MAX_ID_LENGTH,
    MAX_MONEY_USD,
    MAX_NAME_LENGTH,
    MAX_PROBLEMS_SHOWN,
    MAX_TEXT_LENGTH,
    LimitError,
    check_yaml_node,
    read_bounded,
)
from scheduler.text import control_character, describe_character, format_character

if TYPE_CHECKING:
    import pandas as pd  # start-up time: only DataFrame input imports pandas

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Jurisdiction = Literal["MT", "ME"]
MT_TYPES = ("large-stakes", "small-stakes")
ME_TYPES = ("tournament-game", "super-cribbage", "charitable-cribbage")
TournamentType = Literal[
    "large-stakes", "small-stakes", "tournament-game", "super-cribbage", "charitable-cribbage"
]
DEFAULT_TIMEZONE = {"MT": "America/Denver", "ME": "America/New_York"}
ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
DOMAIN_PATTERN = r"^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]([a-z0-9-]*[a-z0-9])?$"
"""A lower-case DNS domain name of at least two labels (``uid_domain``)."""


def _uid_domain(v: str) -> str:
    if len(v) > 200 or not re.match(DOMAIN_PATTERN, v):
        raise ValueError(f"expected a domain name your organization controls, lower case, "
                         f"e.g. legion-post-88.example.org (it ends every calendar UID, "
                         f"RFC 5545 §3.8.4.7), got {v!r}")
    long = [label for label in v.split(".") if len(label) > 63]
    if long:
        raise ValueError(f"a domain name's labels are at most 63 characters long (RFC 1035 "
                         f"§2.3.4), but {long[0]!r} in {v!r} has {len(long[0])}")
    return v


UidDomain = Annotated[str, BeforeValidator(lambda v: v.strip().lower().rstrip(".")
                                           if isinstance(v, str) else v),
                      AfterValidator(_uid_domain)]


# --------------------------------------------------------------------------- errors
@dataclass(frozen=True)
class InputProblem:
    """One problem in a scenario: where it is, what value, which rule, what is wrong."""

    path: str
    value: Any
    rule: str
    message: str
    line: int | None = None

    def render(self, file: str | None) -> str:
        where = file or "<scenario>"
        if self.line is not None:
            where += f":{self.line}"
        shown = "" if self.value is _MISSING else f" = {_show(self.value)}"
        return f"{where}: {self.path}{shown}: {self.message} ({cite(self.rule)})"


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _show(value: Any) -> str:
    """A value as the user would write it in YAML (dates ISO, true/false, flow lists)."""
    if isinstance(value, str):
        if len(value) > 80:  # a 10 MB value would make a 10 MB message
            return f"{value[:80]!r}... ({len(value):,} characters)"
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dict | list | tuple):
        def plain(x: Any) -> Any:
            if isinstance(x, dict):
                return {str(k): plain(v) for k, v in x.items()}
            if isinstance(x, list | tuple):
                return [plain(v) for v in x]
            return x.isoformat() if isinstance(x, dt.date | dt.time) else x
        text = yaml.safe_dump(plain(value), default_flow_style=True, width=10_000).strip()
        return text if len(text) <= 200 else f"{text[:200]}... ({len(text):,} characters)"
    text = str(value)
    return text if len(text) <= 80 else f"{text[:80]}... ({len(text):,} characters)"


class ScenarioError(ValueError):
    """Invalid scenario input. ``problems`` lists every problem found (all in one run)."""

    def __init__(self, problems: Sequence[InputProblem], file: str | None = None):
        self.problems = list(problems)
        self.file = file
        super().__init__(self.render())

    def render(self) -> str:
        """Every problem on its own line; at most :data:`~scheduler.limits.MAX_PROBLEMS_SHOWN`
        of them, the rest counted."""
        head = f"{len(self.problems)} problem(s) in {self.file or 'the scenario'}:"
        shown = ["  " + p.render(self.file) for p in self.problems[:MAX_PROBLEMS_SHOWN]]
        if len(self.problems) > MAX_PROBLEMS_SHOWN:
            shown.append(f"  ... and {len(self.problems) - MAX_PROBLEMS_SHOWN:,} more "
                         "problem(s); fix these and run again to see the rest")
        return "\n".join([head, *shown])


# --------------------------------------------------------------------------- parsing helpers
_TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})$")


def _parse_time(v: Any) -> Any:
    if isinstance(v, str):
        m = _TIME_RE.match(v.strip())
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise ValueError(f"expected a time of day as HH:MM (e.g. \"18:00\"), got {v!r}")
        return dt.time(int(m.group(1)), int(m.group(2)))
    if isinstance(v, dt.time):
        return v
    raise ValueError(f"expected a time of day as \"HH:MM\" in quotes (e.g. \"18:00\"), "
                     f"got {v!r}")


def _parse_hours(v: Any) -> Any:
    """``10``, ``10.5`` or ``"48:01"`` (hours:minutes) → Decimal hours."""
    if isinstance(v, bool):
        raise ValueError("expected a number of hours")
    if isinstance(v, str):
        m = re.match(r"^(\d+):(\d{2})$", v.strip())
        if m:
            return Decimal(int(m.group(1))) + Decimal(int(m.group(2))) / 60
    return v


def _parse_date(v: Any) -> Any:
    if isinstance(v, dt.datetime):
        return v.date()
    if isinstance(v, str):
        try:
            return dt.date.fromisoformat(v.strip())
        except ValueError:
            raise ValueError(f"expected a date as YYYY-MM-DD, got {v!r}") from None
    return v


def _year_ok(v: Any) -> Any:
    """A date in the years the product can compute with (:data:`~scheduler.limits.FIRST_YEAR`
    to :data:`~scheduler.limits.LAST_YEAR`)."""
    if isinstance(v, dt.date) and not FIRST_YEAR <= v.year <= LAST_YEAR:
        raise ValueError(f"a date in the years {FIRST_YEAR} to {LAST_YEAR} is expected, got "
                         f"{v.isoformat()}")
    return v


def _expand_days(v: Any) -> Any:
    """Blackout list: dates and ``"YYYY-MM-DD..YYYY-MM-DD"`` ranges → sorted tuple of dates."""
    if v is None:
        return ()
    if not isinstance(v, list | tuple):
        v = [v]
    out: set[dt.date] = set()
    for item in v:
        if isinstance(item, str) and ".." in item:
            a, b = (_parse_date(s) for s in item.split("..", 1))
            if not isinstance(a, dt.date) or not isinstance(b, dt.date) or b < a:
                raise ValueError(f"expected a range FIRST..LAST with FIRST <= LAST, got {item!r}")
            _year_ok(a), _year_ok(b)
            out.update(a + dt.timedelta(days=i) for i in range((b - a).days + 1))
        else:
            d = _parse_date(item)
            if not isinstance(d, dt.date):
                raise ValueError(f"expected a date or a range FIRST..LAST, got {item!r}")
            out.add(_year_ok(d))
    return tuple(sorted(out))


Date = Annotated[dt.date, BeforeValidator(_parse_date), AfterValidator(_year_ok)]
TimeOfDay = Annotated[dt.time, BeforeValidator(_parse_time),
                     PlainSerializer(lambda t: t.strftime("%H:%M"), when_used="json")]
MIN_HOURS, MAX_HOURS = Decimal("0.25"), Decimal(120)
"""``hours`` from 15 minutes (a shorter game would end at its start in a calendar) to 120 h
(5 x 24 h, MT-DURATION's five calendar days; the rules of each type limit it further)."""


def _hours_range(v: Decimal) -> Decimal:
    if not MIN_HOURS <= v <= MAX_HOURS:
        raise ValueError(f"expected from {MIN_HOURS} hours (15 minutes) to {MAX_HOURS} hours "
                         "(5 days)")
    return v


def _money_range(v: Decimal) -> Decimal:
    if v > MAX_MONEY_USD:
        raise ValueError(f"at most ${MAX_MONEY_USD:,} is allowed")
    return v


Hours = Annotated[Decimal, BeforeValidator(_parse_hours), Field(allow_inf_nan=False),
                  AfterValidator(_hours_range),
                  PlainSerializer(lambda h: float(h) if h == round(h, 6) else str(h),
                                  when_used="json")]
Money = Annotated[Decimal, Field(ge=0, allow_inf_nan=False), AfterValidator(_money_range)]
DayList = Annotated[tuple[dt.date, ...], BeforeValidator(_expand_days)]
Share = Annotated[Decimal, Field(ge=0, le=1)]


def _invisible(v: str) -> None:
    """Raise ValueError when ``v`` holds an invisible format character
    (:func:`scheduler.text.format_character`)."""
    ch = format_character(v)
    if ch is not None:
        raise ValueError(f"holds the invisible format character {describe_character(ch)} at "
                         f"position {v.index(ch) + 1} (it can show text backwards or make "
                         "two names look the same)")


def _one_line(limit: int, collapse: bool = False, nonempty: bool = False) -> Any:
    """A validator of one line of printable text of at most ``limit`` characters (runs of
    spaces become one with ``collapse``; not empty or only spaces with ``nonempty``): a
    control character (CR, LF, TAB, ESC, NUL, DEL, C1) would break a CSV row, a calendar line
    or the terminal; an invisible format character (U+202E, U+200B, U+FEFF) would disguise
    the text."""
    def check(v: str) -> str:
        ch = control_character(v)
        if ch is not None:
            raise ValueError(f"must be one line of printable text; it holds the control "
                             f"character {describe_character(ch)} at position "
                             f"{v.index(ch) + 1}")
        _invisible(v)
        if nonempty and not v.strip():
            raise ValueError("is empty; give the text people will see")
        if collapse:
            v = re.sub(r" {2,}", " ", v)
        if len(v) > limit:
            raise ValueError(f"is {len(v):,} characters long; at most {limit:,} are allowed")
        return v
    return AfterValidator(check)


def _text(limit: int) -> Any:
    """A validator of free text (line breaks allowed, no other control character) of at most
    ``limit`` characters."""
    def check(v: str) -> str:
        ch = control_character(v.replace("\n", ""))
        if ch is not None:
            raise ValueError(f"holds the control character {describe_character(ch)} at "
                             f"position {v.index(ch) + 1}")
        _invisible(v)
        if len(v) > limit:
            raise ValueError(f"is {len(v):,} characters long; at most {limit:,} are allowed")
        return v
    return AfterValidator(check)


OneLine = Annotated[str, _one_line(MAX_NAME_LENGTH, collapse=True, nonempty=True)]
"""A name shown in calendar titles: one line of printable text (runs of spaces become one)."""
Title = Annotated[str, _one_line(MAX_NAME_LENGTH, nonempty=True)]
"""A tournament's title: one line of printable text."""
Address = Annotated[str, _one_line(MAX_TEXT_LENGTH)]
Text = Annotated[str, _text(MAX_TEXT_LENGTH)]
Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=MAX_ID_LENGTH)]
"""An operator or tournament id: lowercase letters, digits and hyphens, at most 64."""


MAX_WHOLE = 1_000_000
"""Largest whole number of any integer field (counts, players, days...): a larger one is a
typing mistake, and would overflow the date arithmetic and the model."""


def _whole(v: Any, limit: int = MAX_WHOLE) -> Any:
    """An integer field's value: ``true``/``false`` is not a number (pydantic would read it as
    1/0), nor is ``2.0`` (a number with a decimal point) or text such as ``0x10`` (YAML 1.1
    reads hex and octal; the loader keeps them text); a number over ``limit`` (the field's own
    maximum, else :data:`MAX_WHOLE`) is refused with that maximum."""
    if isinstance(v, bool):
        raise ValueError("expected a whole number, not true/false")
    if isinstance(v, float | Decimal):
        raise ValueError(f"expected a whole number, not {v!r} (write it without a decimal "
                         "point)")
    if isinstance(v, str):
        raise ValueError("expected a whole number (an integer) in decimal digits")
    if isinstance(v, int) and abs(v) > limit:
        raise ValueError(f"at most {limit:,} is allowed")
    return v


def _field_max(fld: Any) -> int:
    """The field's own ``le`` (or ``lt - 1``) when below :data:`MAX_WHOLE`, else MAX_WHOLE."""
    limit = MAX_WHOLE
    for m in getattr(fld, "metadata", ()):
        le = getattr(m, "le", None)
        lt = getattr(m, "lt", None)
        if isinstance(le, int):
            limit = min(limit, le)
        if isinstance(lt, int):
            limit = min(limit, lt - 1)
    return limit


def _is_int_field(ann: Any) -> bool:
    """``int``, or a union with ``int`` in it (``int | None``, ``int | Literal["all"]``);
    not ``dict[int, ...]`` or ``tuple[int, ...]``."""
    if ann is int:
        return True
    return typing.get_origin(ann) in (typing.Union, types.UnionType) and int in ann.__args__


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Every integer field (also those added later) gets :func:`_whole`."""
        super().__pydantic_init_subclass__(**kwargs)
        changed = False
        for fld in cls.model_fields.values():
            ann: Any = fld.annotation
            whole: Any = Annotated[int, BeforeValidator(
                functools.partial(_whole, limit=_field_max(fld)))]
            if ann is int:
                fld.annotation = whole
            elif _is_int_field(ann):  # int | None, int | Literal["all"]
                union: Any = typing.Union[tuple(  # noqa: UP007
                    whole if a is int else a for a in ann.__args__)]
                fld.annotation = union
            else:
                continue
            changed = True
        if changed:
            cls.model_rebuild(force=True)


class DateRange(_Model):
    """Inclusive range of days."""

    start: Date
    end: Date

    def days(self) -> Iterator[dt.date]:
        d = self.start
        while d <= self.end:
            yield d
            d += dt.timedelta(days=1)

    def __contains__(self, day: object) -> bool:
        return isinstance(day, dt.date) and self.start <= day <= self.end

    @model_validator(mode="after")
    def _length(self) -> DateRange:
        days = (self.end - self.start).days + 1
        if days > MAX_HORIZON_DAYS:
            raise ValueError(f"{self.start} to {self.end} is {days:,} days; at most "
                             f"{MAX_HORIZON_DAYS:,} (about ten years) are allowed")
        return self


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
        month, mday = (int(x) for x in self.permit_year_start.split("-"))
        start = _safe_date(day.year, month, mday)
        return start if start <= day else _safe_date(day.year - 1, month, mday)

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


def _safe_date(year: int, month: int, day: int) -> dt.date:
    try:
        return dt.date(year, month, day)
    except ValueError:  # 02-29 in a common year
        return dt.date(year, month, 28)


class Satellite(_Model):
    """MT-SATELLITE: a seat in a higher-level tournament offered as a prize (USD)."""

    seat_value: Money
    expected_top_prize: Money


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


class Scenario(_Model):
    """A validated scenario. Build it with :func:`load_scenario`."""

    name: OneLine
    horizon: DateRange
    notice_from: Date = Field(default_factory=lambda: _today())
    settings: Settings = Settings()
    operators: tuple[Operator, ...] = Field(min_length=1)
    tournaments: tuple[Tournament, ...] = ()
    uid_domain: UidDomain | None = None
    """A domain the organization controls, the right-hand end of every calendar UID
    (RFC 5545 §3.8.4.7, ``scheduler.uid``); default ``tourney.invalid``."""

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
        """The scenario as YAML text that :func:`load_scenario` reads back to an equal Scenario."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        data["notice_from"] = self.notice_from.isoformat()
        return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                         sort_keys=False, allow_unicode=True)

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
        defaults to ``today`` (the current date when not given), as in :func:`load_scenario`.

        Raises :class:`ScenarioError` with the same checks and messages as the YAML loader;
        a problem's path names the frame, the row's index label and the column, e.g.
        ``tournaments[2].entry_fee = 2000: ... (MT-ENTRY-CAP, MCA 23-5-317(1)(g))``.
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
            rows, labels[key] = _frame_rows(key, frame, model, problems)
            data[key] = rows
        if problems:
            raise ScenarioError(problems)
        try:
            return load_scenario(data, today=today)
        except ScenarioError as err:
            raise ScenarioError([_relabel(p, labels) for p in err.problems]) from None

    def replace(self, **changes: Any) -> Scenario:
        """A new scenario with top-level fields changed (``name``, ``horizon``,
        ``notice_from``, ``settings``, ``operators``, ``tournaments``), validated like a
        loaded file. Values may be models or plain YAML-like values (dates as
        ``datetime.date`` or ISO text)::

            earlier = scenario.replace(notice_from=scenario.notice_from - timedelta(days=14))

        Raises :class:`ScenarioError` (rule ``SCENARIO`` or the input rule broken), e.g. for
        an unknown field or a value the loader would refuse.
        """
        data = self._plain_data()
        data.update({k: _plain(v) for k, v in changes.items()})
        return load_scenario(data)

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
        return load_scenario(data)


def _today() -> dt.date:
    return dt.date.today()


# --------------------------------------------------------------------------- YAML with lines
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """SafeLoader (libyaml's parser when PyYAML has it: statewide files are megabytes) that
    keeps ``18:00`` a string (YAML 1.1 would read it as 1080)."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:int"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(  # decimal only: 0x10, 0b11 and 017 (octal 15) stay text
    "tag:yaml.org,2002:int",
    re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"),
    list("-+0123456789"),
)


def _timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:  # e.g. 2027-02-30: keep the text; validation names it with the rest
        return str(node.value)


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> Any:
    """A mapping whose keys must be unique (YAML 1.2; PyYAML would keep the last silently)."""
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice (first on line {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return yaml.SafeLoader.construct_yaml_map(loader, node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)


def _line_index(node: yaml.Node | None, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], int]:
    """Map every field path (keys and list indices) to its 1-based line in the YAML text."""
    out: dict[tuple[Any, ...], int] = {}
    if node is None:
        return out
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value
            out[(*path, key)] = k.start_mark.line + 1
            out.update({p: ln for p, ln in _line_index(v, (*path, key)).items()
                        if p != (*path, key)})
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out.update(_line_index(v, (*path, i)))
    return out


def _path_of_mark(node: yaml.Node | None, mark: Any,
                  path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The field path of the node that starts at ``mark`` (where a value failed to load)."""
    if node is None:
        return None
    if (node.start_mark.line, node.start_mark.column) == (mark.line, mark.column):
        return path
    children: list[tuple[Any, yaml.Node]] = []
    if isinstance(node, yaml.MappingNode):
        children = [(k.value, v) for k, v in node.value]
    elif isinstance(node, yaml.SequenceNode):
        children = list(enumerate(node.value))
    for key, child in children:
        found = _path_of_mark(child, mark, (*path, key))
        if found is not None:
            return found
    return None


def _path_str(loc: Sequence[Any]) -> str:
    s = ""
    for part in loc:
        s += f"[{part}]" if isinstance(part, int) else (f".{part}" if s else str(part))
    return s or "<top>"


def _value_at(data: Any, loc: Sequence[Any]) -> Any:
    cur = data
    for part in loc:
        try:
            cur = cur[part]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return cur


def _known_fields(model: type[BaseModel], data: Any, loc: Sequence[Any]) -> list[str]:
    """Field names of the pydantic model found at ``loc`` (for 'did you mean')."""
    cur: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fld = getattr(cur, "model_fields", {}).get(part)
        if fld is None:
            return []
        ann = fld.annotation
        cur = _model_in(ann)
        if cur is None:
            return []
    return list(getattr(cur, "model_fields", {}))


def _model_in(ann: Any) -> type[BaseModel] | None:
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return ann
    for a in getattr(ann, "__args__", ()) or ():
        m = _model_in(a)
        if m is not None:
            return m
    return None


def _pydantic_problems(
    err: ValidationError, data: Any, lines: Mapping[tuple[Any, ...], int]
) -> list[InputProblem]:
    problems = []
    errors = err.errors()
    locs = [tuple(e["loc"]) for e in errors]
    # a union such as ``int | Literal["all"]`` fails once per branch: one problem, the
    # literal's choices added to the other's message ("count = true: expected a whole
    # number, not true/false (or 'all')")
    def clean(loc: Any) -> tuple[Any, ...]:
        return tuple(p for p in loc if not (isinstance(p, str) and (
            p.startswith("function-") or p in ("int", "str", "literal['all']", "date"))))
    others = {clean(e["loc"]) for e in errors if e["type"] != "literal_error"}
    choices = {clean(e["loc"]): str(e.get("ctx", {}).get("expected", ""))
               for e in errors if e["type"] == "literal_error" and clean(e["loc"]) in others}
    errors = [e for e in errors if not (e["type"] == "literal_error"
                                        and clean(e["loc"]) in choices)]
    for e in errors:
        if e["type"] == "too_short" and any(
                other[:len(e["loc"])] == tuple(e["loc"]) and other != tuple(e["loc"])
                for other in locs):
            continue  # "at least 1 item" only because its items failed: say that instead
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        # drop pydantic's union/type tags such as 'int' in loc
        loc = tuple(p for p in loc if not (isinstance(p, str) and p in
                                            ("int", "str", "literal['all']", "date")))
        line = None
        for k in range(len(loc), -1, -1):
            if loc[:k] in lines:
                line = lines[loc[:k]]
                break
        msg = e["msg"].removeprefix("Value error, ")
        value: Any = _value_at(data, loc)
        if e["type"] == "extra_forbidden":
            known = _known_fields(Scenario, data, loc[:-1])
            near = difflib.get_close_matches(str(loc[-1]), known, n=1)
            msg = "unknown field" + (f"; did you mean '{near[0]}'?" if near else "")
            value = _MISSING
        elif e["type"] == "missing":
            msg = "required field is missing"
        if choices.get(loc):
            msg += f" (or {choices.pop(loc)})"
        problems.append(InputProblem(_path_str(loc), value, "SCENARIO", msg, line))
    return problems


# --------------------------------------------------------------------------- loading
def load_scenario(
    source: str | Path | Mapping[str, Any], *, today: dt.date | None = None
) -> Scenario:
    """Load and validate a scenario.

    ``source`` is a path to a YAML file or an already-parsed mapping. ``notice_from``
    defaults to ``today`` (the current date when not given).

    Raises :class:`ScenarioError` listing every problem found: YAML syntax, unknown keys
    (with the nearest known name), wrong types, unknown operator ids, bad dates (rule
    ``SCENARIO``), and every *input* rule of RULES.md (``MT-ENTRY-CAP``, ``ME-PLAYER-CAP``, …).
    """
    file: str | None = None
    lines: dict[tuple[Any, ...], int] = {}
    if isinstance(source, Mapping):
        data: Any = dict(source)
    else:
        file = str(source)
        text = read_yaml_text(source, lambda msg: ScenarioError(
            [InputProblem("<file>", _MISSING, "SCENARIO", msg)], file))
        loader = _Loader(text)
        node = None
        try:
            node = loader.get_single_node()
            check_yaml_node(node)
            data = loader.construct_document(node) if node is not None else None
        except LimitError as exc:
            raise ScenarioError([InputProblem("<yaml>", _MISSING, "SCENARIO",
                                              f"refused: {exc}")], file) from None
        except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
            raise ScenarioError([InputProblem("<yaml>", _MISSING, "SCENARIO",
                                              "a value cannot be read: "
                                              f"{str(exc).split(';')[0][:200]}")],
                                file) from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = _path_of_mark(node, mark) if mark is not None else None
            raise ScenarioError([InputProblem(
                _path_str(where) if where else "<yaml>", _MISSING, "SCENARIO",
                f"not valid YAML: {getattr(exc, 'problem', exc)}",
                mark.line + 1 if mark else None)], file) from None
        finally:
            loader.dispose()
        lines = _LazyLines(node)
    if not isinstance(data, dict):
        raise ScenarioError([InputProblem("<top>", _MISSING, "SCENARIO",
                                          "expected a mapping with name, horizon, operators, "
                                          "tournaments")], file)
    if "notice_from" not in data and today is not None:
        data = {**data, "notice_from": today}
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(_pydantic_problems(err, data, lines), file) from None

    # the one upward import left (docs/architecture.md): the loader runs the rules' input
    # checks, and the rules import the types above; phase B moves the loader out of here
    from constraints.registry import validate_terms

    problems = [
        InputProblem(p.path, _value_at(data, p.loc), p.rule, p.message,
                     _nearest_line(lines, p.loc))
        for p in validate_terms(scenario)
    ]
    if problems:
        raise ScenarioError(problems, file)
    return scenario


def read_yaml_text(source: str | Path, error: Any) -> str:
    """The text of a YAML input file (a scenario or vary file), read within the limits of
    :func:`scheduler.limits.read_bounded`; ``error(message)`` builds the exception raised
    when it cannot be read (missing, a folder or device, too large, not UTF-8)."""
    try:
        raw = read_bounded(source)
    except LimitError as exc:
        raise error(str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error("the file is not UTF-8 text") from None


class _LazyLines(dict[tuple[Any, ...], int]):
    """The line of every field path (:func:`_line_index`), indexed only when an error needs
    one (a valid statewide file has millions of nodes)."""

    def __init__(self, node: yaml.Node | None) -> None:
        super().__init__()
        self._node: yaml.Node | None = node
        self._done = False

    def _fill(self) -> None:
        if not self._done:
            self._done = True
            self.update(_line_index(self._node))
            self._node = None

    def __contains__(self, key: object) -> bool:
        self._fill()
        return super().__contains__(key)

    def __getitem__(self, key: tuple[Any, ...]) -> int:
        self._fill()
        return super().__getitem__(key)

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        self._fill()
        return super().get(key, default)


def _nearest_line(lines: Mapping[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    for k in range(len(loc), -1, -1):
        if loc[:k] in lines:
            return lines[loc[:k]]
    return None


@dataclass(frozen=True)
class TermProblem:
    """A problem found by a rule's term validation; ``loc`` is the field path as a tuple."""

    loc: tuple[Any, ...]
    rule: str
    message: str
    path: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", _path_str(self.loc))


# --------------------------------------------------------------------------- DataFrames, what-if
_TEXT_LISTS = frozenset({"beneficiaries"})
"""List fields of free text (names with spaces): a cell is split on semicolons or line breaks."""
_OTHER_GAME = re.compile(r"^([A-Za-z]+)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$")


def _plain(value: Any) -> Any:
    """Models as the mappings the loader reads (defaults left out); lists as lists."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_defaults=True)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _cell(value: Any) -> Any:
    """A DataFrame cell as a YAML-like value; ``_MISSING`` for an empty cell."""
    import numpy as np  # start-up time: only DataFrame input needs numpy and pandas
    import pandas as pd

    if isinstance(value, str):
        return value.strip() or _MISSING
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list | tuple | Mapping):
        return value
    if value is None or pd.isna(value):
        return _MISSING
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


def _field_annotation(model: type[BaseModel], parts: Sequence[str]) -> Any:
    """The annotation of the (dotted) field ``parts`` of ``model``; None when unknown."""
    cur: type[BaseModel] | None = model
    ann: Any = None
    for part in parts:
        fld = cur.model_fields.get(part) if cur is not None else None
        if fld is None:
            return None
        ann = fld.annotation
        cur = _model_in(ann)
    return ann


def _is_tuple(ann: Any) -> bool:
    return getattr(ann, "__origin__", None) is tuple or any(
        _is_tuple(a) for a in getattr(ann, "__args__", ()) or () if a is not ann)


def _cell_value(model: type[BaseModel], parts: Sequence[str], value: Any) -> Any:
    """A cell of the column ``parts`` read as the loader expects it (lists split, a window
    range ``FIRST..LAST`` as ``{start, end}``)."""
    ann = _field_annotation(model, parts)
    name = parts[-1]
    if ann is None:
        return value
    if _is_tuple(ann):
        if not isinstance(value, str):
            return list(value) if isinstance(value, list | tuple) else [value]
        if name in _TEXT_LISTS:
            return [x.strip() for x in re.split(r"[;\n]", value) if x.strip()]
        items = [x for x in re.split(r"[\s,;]+", value) if x]
        if name == "other_games":
            items = [x.strip() for x in re.split(r"[;,\n]", value) if x.strip()]
            return [{"weekday": m.group(1).lower(), "start": m.group(2), "end": m.group(3)}
                    if (m := _OTHER_GAME.match(x)) else x for x in items]
        return items
    if _model_in(ann) is DateRange and isinstance(value, str) and ".." in value:
        start, end = value.split("..", 1)
        return {"start": start.strip(), "end": end.strip()}
    return value


def _frame_rows(key: str, frame: pd.DataFrame | None, model: type[BaseModel],
                problems: list[InputProblem]) -> tuple[list[dict[str, Any]], list[Any]]:
    """The rows of ``frame`` as scenario mappings, and each row's index label."""
    if frame is None:
        return [], []
    index = frame.index
    if "id" not in frame.columns and index.name == "id":
        frame = frame.reset_index()
    rows: list[dict[str, Any]] = []
    labels: list[Any] = []
    for label, record in zip(index, frame.to_dict("records"), strict=True):
        row: dict[str, Any] = {}
        for column, cell in record.items():
            value = _cell(cell)
            if value is _MISSING:
                continue
            parts = [p.strip() for p in str(column).strip().split(".")]
            node = row
            for part in parts[:-1]:
                node = node.setdefault(part, {})
                if not isinstance(node, dict):
                    break
            if not isinstance(node, dict) or parts[-1] in node:
                problems.append(InputProblem(
                    f"{key}[{_label(label)}].{'.'.join(parts)}", value, "SCENARIO",
                    "given twice (as a column and inside another column's value)"))
                continue
            node[parts[-1]] = _cell_value(model, parts, value)
        if row:
            rows.append(row)
            labels.append(label)
    return rows, labels


def _label(label: Any) -> str:
    import numpy as np  # start-up time: only DataFrame input needs numpy

    return str(int(label)) if isinstance(label, int | np.integer) else repr(str(label))


def _relabel(problem: InputProblem, labels: Mapping[str, list[Any]]) -> InputProblem:
    """A problem of a frame-built scenario, its row named by the frame's index label."""
    m = re.match(r"^(operators|tournaments)\[(\d+)\]", problem.path)
    if not m or int(m.group(2)) >= len(labels[m.group(1)]):
        return problem
    label = _label(labels[m.group(1)][int(m.group(2))])
    return dataclasses.replace(
        problem, path=f"{m.group(1)}[{label}]{problem.path[m.end():]}")
