"""The field types of a scenario: how each value is read and what is refused.

Dates (``YYYY-MM-DD``, in the years the product computes with), times of day (``"HH:MM"``),
hours (``10``, ``10.5`` or ``"48:01"``), money (``Decimal`` US dollars), day lists with
``FIRST..LAST`` ranges, one-line names and free text (no control or invisible format
character), ids, domain names, whole numbers (never ``true``, ``2.0`` or ``0x10``), and
:class:`DateRange`. Each parser raises ``ValueError`` with the message the operator sees;
pydantic collects them (:func:`scheduler.core.problems.pydantic_problems`). Core layer: imports
no rule and no loader.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
import types
import typing
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    model_validator,
)

from scheduler.core.limits import (
    FIRST_YEAR,
    LAST_YEAR,
    MAX_HORIZON_DAYS,
    MAX_ID_LENGTH,
    MAX_MONEY_USD,
    MAX_NAME_LENGTH,
    MAX_TEXT_LENGTH,
)
from scheduler.core.text import control_character, describe_character, format_character

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
DOMAIN_PATTERN = r"^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]([a-z0-9-]*[a-z0-9])?$"
"""A lower-case DNS domain name of at least two labels (``uid_domain``)."""
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""The weekdays as a scenario spells them, Monday first (index = ``date.weekday()``); the
one spelling the scenario types, the workbook, the UIDs and the rules read."""
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""The weekdays in words, in the order of :data:`WEEKDAYS` (what calendars and reasons
print)."""
MONTH_ABBREVIATIONS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                       "Nov", "Dec")
"""English month abbreviations, January first."""


def day_words(d: dt.date) -> str:
    """A day as people write it, in English whatever the locale: ``Mar 7, 2027``."""
    return f"{MONTH_ABBREVIATIONS[d.month - 1]} {d.day}, {d.year}"


def dated_words(d: dt.date) -> str:
    """:func:`day_words` with the weekday's three letters: ``Sun, Mar 7, 2027``."""
    return f"{WEEKDAY_NAMES[d.weekday()][:3]}, {day_words(d)}"




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
        try:
            Decimal(v.strip())
        except InvalidOperation:  # "14h", "#DIV/0!": no number of hours at all
            raise ValueError("expected a number of hours, e.g. 10 or 10:30") from None
    return v


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
"""English month names (``calendar.month_name`` follows the locale; messages do not)."""
_YMD_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def _no_such_day(text: str) -> str | None:
    """Why ``YYYY-MM-DD`` text names no day of the calendar, in the operator's words
    (``"2027-02-30 is not a day (February 2027 has 28 days)"``); None when it is not of that
    shape or is a day."""
    m = _YMD_RE.match(text)
    if not m:
        return None
    year, month, day = (int(g) for g in m.groups())
    if not 1 <= month <= 12:
        return f"{text} is not a day (a year has 12 months, not {month})"
    if year < 1:
        return None
    last = calendar.monthrange(year, month)[1]
    if not 1 <= day <= last:
        return f"{text} is not a day ({_MONTHS[month - 1]} {year} has {last} days)"
    return None


def _parse_date(v: Any) -> Any:
    if isinstance(v, dt.datetime):
        return v.date()
    if isinstance(v, str):
        try:
            return dt.date.fromisoformat(v.strip())
        except ValueError:
            why = _no_such_day(v.strip())
            raise ValueError(why or f"expected a date as YYYY-MM-DD, got {v!r}") from None
    return v


def _year_ok(v: Any) -> Any:
    """A date in the years the product can compute with (:data:`~scheduler.core.limits.FIRST_YEAR`
    to :data:`~scheduler.core.limits.LAST_YEAR`)."""
    if isinstance(v, dt.date) and not FIRST_YEAR <= v.year <= LAST_YEAR:
        raise ValueError(f"a date in the years {FIRST_YEAR} to {LAST_YEAR} is expected, got "
                         f"{v.isoformat()}")
    return v


class Days(tuple[dt.date, ...]):
    """A sorted tuple of distinct days (a :data:`DayList`) whose ``in`` takes constant time:
    a blackout of ten years is 3,653 days, asked about every candidate day of every
    tournament."""

    @functools.cached_property
    def _set(self) -> frozenset[dt.date]:
        return frozenset(self)

    def __contains__(self, day: object) -> bool:
        return day in self._set


def _expand_days(v: Any) -> Any:
    """Blackout list: dates and ``"YYYY-MM-DD..YYYY-MM-DD"`` ranges → sorted tuple of dates.

    The ranges are merged before they are expanded: a thousand overlapping ranges of the
    years 1900 to 2199 expand to the 109,938 days of those years once, not a thousand
    times (it took 217 s)."""
    if v is None:
        return ()
    if not isinstance(v, list | tuple):
        v = [v]
    spans: list[tuple[dt.date, dt.date]] = []
    for item in v:
        if isinstance(item, str) and ".." in item:
            a, b = (_parse_date(s) for s in item.split("..", 1))
            if not isinstance(a, dt.date) or not isinstance(b, dt.date) or b < a:
                raise ValueError(f"expected a range FIRST..LAST with FIRST <= LAST, got {item!r}")
            _year_ok(a), _year_ok(b)
            spans.append((a, b))
        else:
            d = _parse_date(item)
            if not isinstance(d, dt.date):
                raise ValueError(f"expected a date or a range FIRST..LAST, got {item!r}")
            spans.append((_year_ok(d), d))
    merged: list[list[dt.date]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1] + dt.timedelta(days=1):
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return tuple(a + dt.timedelta(days=i) for a, b in merged for i in range((b - a).days + 1))


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
_DOLLARS_RE = re.compile(r"^(?:US)?\$\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(?:USD)?$|"
                         r"^([0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?)\s*(?:USD)?$|"
                         r"^([0-9]+(?:\.[0-9]+)?)\s*USD$", re.IGNORECASE)


def _money_text(v: Any) -> Any:
    """Money written as text the way people write it (``"$50"``, ``"1,875"``, ``"50 USD"``)
    is refused with the number to write instead: ``write 50 (USD)``."""
    if isinstance(v, str):
        m = _DOLLARS_RE.match(v.strip())
        if m:
            number = next(g for g in m.groups() if g is not None).replace(",", "")
            raise ValueError(f"write {number} (USD): a plain number, without the $ sign, "
                             "thousands separators or a currency")
    return v


def _share_range(v: Decimal) -> Decimal:
    """A share is a fraction from 0 to 1; a percentage (``50``) is refused with the share to
    write (``0.5 means 50 %``)."""
    if v > 1:
        hint = (f"; write {v / 100:g} for {v:g} %" if v <= 100 else "")
        raise ValueError(f"a share is a fraction from 0 to 1: 0.5 means 50 %{hint}")
    return v


Money = Annotated[Decimal, Field(ge=0, allow_inf_nan=False), BeforeValidator(_money_text),
                  AfterValidator(_money_range)]
DayList = Annotated[tuple[dt.date, ...], BeforeValidator(_expand_days), AfterValidator(Days)]
def _share_text(v: Any) -> Any:
    """A share written as a percentage (``"50%"``, ``"50 %"``) is read as the fraction
    (0.5), as a workbook's percentage cell is."""
    if isinstance(v, str) and v.strip().endswith("%"):
        try:
            return Decimal(v.strip()[:-1].strip()) / 100
        except InvalidOperation:
            return v
    return v


Share = Annotated[Decimal, Field(ge=0), BeforeValidator(_share_text),
                  AfterValidator(_share_range)]


def _invisible(v: str) -> None:
    """Raise ValueError when ``v`` holds an invisible format character
    (:func:`scheduler.core.text.format_character`)."""
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
def _id_value(v: Any) -> Any:
    """A whole number is read as its text (``212`` → ``"212"``); text that is not an id is
    refused in the operator's words, with the id it likely means (``Deep Stack`` →
    ``deep-stack``)."""
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return str(v)
    if isinstance(v, str) and len(v) > MAX_ID_LENGTH:  # checked before the pattern
        raise ValueError(f"String should have at most {MAX_ID_LENGTH} characters (an id is "
                         f"short: lower-case letters, digits and hyphens), not {len(v):,}")
    if isinstance(v, str) and not re.match(ID_PATTERN, v):
        slug = re.sub(r"[^a-z0-9]+", "-", v.strip().lower()).strip("-")
        raise ValueError("lower-case letters, digits and hyphens, e.g. "
                         f"{slug or 'deep-stack'}")
    return v


Id = Annotated[str, BeforeValidator(_id_value),
               Field(pattern=ID_PATTERN, max_length=MAX_ID_LENGTH)]
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


class StrictModel(BaseModel):
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


class DateRange(StrictModel):
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
