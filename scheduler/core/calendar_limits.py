"""Bounds on reading a calendar (.ics) file: its shape counted on the raw lines before
anything parses it, and its recurring events expanded within a window, so that no calendar
can make tourney run out of memory or time. Every limit is listed in ``docs/limits.md``.

- :func:`read_calendar` reads an .ics file, counting its RDATE/EXDATE values
  (:data:`MAX_CALENDAR_DATES`) and the properties of each component
  (:data:`MAX_COMPONENT_PROPERTIES`) on the raw lines before anything parses it.
- :func:`expand_events` expands recurring calendar events (RRULE/RDATE) within a window of
  days, at most :data:`scheduler.core.limits.MAX_SERIES_INSTANCES` instances per event and
  :func:`scheduler.core.limits.max_calendar_events` events per file
  (``TOURNEY_MAX_CALENDAR_EVENTS``).

Errors: :class:`scheduler.core.limits.LimitError` (exit 2).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import itertools
import re
from pathlib import Path
from typing import Any

from scheduler.core.limits import (
    LAST_YEAR,
    MAX_SERIES_INSTANCES,
    LimitError,
    max_calendar_events,
    read_bounded,
    short,
)

MAX_CALENDAR_DATES = 20_000
"""RDATE and EXDATE values of one calendar file (a weekly series over ten years is 522
dates). Parsing takes about 4 seconds a megabyte: a file of a million RDATE lines is refused
before it is parsed, not after a minute."""
MAX_COMPONENT_PROPERTIES = 1_000
"""Properties (unfolded lines) of one component of a calendar (an event, a time zone, the
calendar itself): an event tourney writes has about 20."""


def calendar_shape_problem(data: bytes) -> str | None:
    """Why the bytes of an .ics file are too many to parse, counted on the raw lines before
    any parsing (one pass, about a second for 64 MB): more than :data:`MAX_CALENDAR_DATES`
    RDATE/EXDATE values in the file, or more than :data:`MAX_COMPONENT_PROPERTIES` properties
    in one component. None when within both. The message names the line."""
    dates = 0
    props = 0
    in_dates = False
    for number, line in enumerate(data.split(b"\n"), start=1):
        if line[:1] in (b" ", b"\t"):  # a folded line continues the property before it
            if in_dates:
                dates += line.count(b",")
        else:
            head = line[:7].upper()
            if head.startswith((b"BEGIN:", b"END:")):
                props = 0
                in_dates = False
                continue
            props += 1
            if props > MAX_COMPONENT_PROPERTIES:
                return (f"line {number:,}: one component (an event, a time zone or the "
                        f"calendar) has more than {MAX_COMPONENT_PROPERTIES:,} properties; an "
                        "event tourney writes has about 20 (see docs/limits.md)")
            in_dates = head.startswith((b"RDATE", b"EXDATE"))
            if in_dates:
                dates += 1 + line.count(b",")
        if dates > MAX_CALENDAR_DATES:
            return (f"line {number:,}: the calendar lists more than {MAX_CALENDAR_DATES:,} "
                    "dates in RDATE and EXDATE properties (a weekly series over ten years is "
                    "522); split it, or give the series as RRULEs (see docs/limits.md)")
    return None


_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
         (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def calendar_text_problem(data: bytes) -> str | None:
    """Why the bytes of an .ics file are not the text of one whole calendar, in words that
    say what to do, else None: UTF-16 or UTF-32 text (a byte order mark, or every other byte
    NUL: "save it as UTF-8"), a NUL byte (not a text file), bytes that are not UTF-8 (the
    offset and the byte), or a calendar that begins with BEGIN:VCALENDAR but ends before its
    END:VCALENDAR (cut short: truncated). RFC 5545 §3.1.4: an iCalendar file is UTF-8."""
    head = data[:4]
    for bom, name in _BOMS:
        if head.startswith(bom):
            return (f"is {name} text, not UTF-8: an iCalendar file is UTF-8 (RFC 5545); "
                    "save it again as UTF-8")
    sample = data[:200]
    if len(sample) >= 4 and (sample[1::2].count(0) * 2 >= len(sample) // 2 or
                             sample[0::2].count(0) * 2 >= len(sample) // 2):
        return ("is UTF-16 text (every other byte is NUL), not UTF-8: an iCalendar file is "
                "UTF-8 (RFC 5545); save it again as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        return (f"line {line:,}: holds a NUL byte (offset {nul:,}): not a text file (damaged, "
                "or not an iCalendar file)")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return (f"line {line:,}: byte 0x{data[exc.start]:02X} (offset {exc.start:,}) is not "
                "UTF-8: an iCalendar file is UTF-8 (RFC 5545); save it again as UTF-8 (it may "
                "be Windows-1252 or Latin-1)")
    body = data.removeprefix(b"\xef\xbb\xbf").strip()
    first = body.split(b"\n", 1)[0].strip().upper()
    last = body.rsplit(b"\n", 1)[-1].strip().upper()
    if first == b"BEGIN:VCALENDAR" and last != b"END:VCALENDAR":
        lines = data.rstrip(b"\r\n").count(b"\n") + 1
        return (f"ends at line {lines:,} before END:VCALENDAR: the file is cut short "
                "(truncated?); copy or export it again")
    return None


def read_calendar(path: str | Path) -> bytes:
    """The bytes of an .ics file given by the user, as :func:`read_bounded`: the text of one
    whole calendar (:func:`calendar_text_problem`) within :func:`calendar_shape_problem`'s
    counts (checked before icalendar parses it). Raises :class:`LimitError`."""
    data = read_bounded(path)
    problem = (calendar_text_problem(data) or calendar_shape_problem(data)
               or _tzid_problem(data))
    if problem:
        raise LimitError(problem)
    return data


_TZID = re.compile(rb"TZID=(\"[^\"\r\n]*\"|[^:;,\r\n]*)", re.IGNORECASE)


def _tzid_problem(data: bytes) -> str | None:
    """A TZID parameter that icalendar would look up as an IANA name and fail on with an
    operating-system error (``TZID=America`` names a folder of the zone database, a
    300-character name is too long for a file name), else None. Names that are simply
    unknown are left to icalendar (a VTIMEZONE in the file may define them)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # start-up time: calendars only

    seen: set[bytes] = set()
    for match in _TZID.finditer(data):
        raw = match.group(1).strip(b'"')
        if raw in seen:
            continue
        seen.add(raw)
        name = raw.decode("utf-8", "replace")
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        except OSError:
            line = data.count(b"\n", 0, match.start()) + 1
            return (f"line {line:,}: TZID={short(name)} is not a known time zone (give an "
                    "IANA name such as America/Denver, or define it in a VTIMEZONE)")
    return None


# --------------------------------------------------------------------------- calendars
def expand_events(cal: Any, first: dt.date, last: dt.date, *,
                  per_event: int = MAX_SERIES_INSTANCES,
                  budget: list[int] | None = None) -> tuple[list[Any], list[str]]:
    """The VEVENT instances of ``cal`` (an icalendar Calendar; recurring events, RRULE/RDATE,
    expanded) that start between ``first`` and ``last`` (dates, inclusive), and a note for
    each recurring event cut at ``per_event`` instances (e.g. ``FREQ=HOURLY``: its later
    instances are not read).

    ``budget`` is a one-element list of how many events the caller may still read (shared
    across calendars of one file; decremented). Raises :class:`LimitError` when it runs out
    (``TOURNEY_MAX_CALENDAR_EVENTS``)."""
    import recurring_ical_events  # start-up time: only reading a calendar needs it

    if budget is None:
        budget = [max_calendar_events()]
    query = recurring_ical_events.of(cal)
    start = query.to_datetime((first.year, first.month, first.day))
    stop_day = min(last + dt.timedelta(days=1), dt.date(LAST_YEAR + 1, 1, 1))
    stop = query.to_datetime((stop_day.year, stop_day.month, stop_day.day))
    out: list[Any] = []
    notes: list[str] = []
    if len(budget) < 2:  # months a rule may be walked without an instance, whole file
        budget.append(MAX_RULE_EMPTY_MONTHS)
    for series in query.series:
        _bound_rules(series, stop.replace(tzinfo=None), budget)
        # dateutil computes a rule's instances as one list from its DTSTART: find first,
        # lazily, where the (per_event + 1)-th instance in the window is, and give up on a
        # rule that makes too many before it (FREQ=SECONDLY from 1900)
        series_stop = _series_stop(series, start, stop, per_event)
        if series_stop is None:
            notes.append(f"recurring event UID {str(getattr(series, 'uid', ''))[:120] or '-'} "
                         f"repeats more than {MAX_RULE_SCAN:,} times before {last}; none of "
                         "its instances were read")
            continue
        got = 0
        with contextlib.suppress(*query._skip_errors):
            for occurrence in itertools.islice(series.between(start, series_stop),
                                               per_event + 1):
                if got == per_event:
                    comp = occurrence.as_component(False)
                    notes.append(f"event {str(comp.get('SUMMARY', ''))[:120]!r} (UID "
                                 f"{str(comp.get('UID', ''))[:120] or '-'}) repeats more than "
                                 f"{per_event:,} times between {first} and {last}; only the "
                                 f"first {per_event:,} were read")
                    break
                budget[0] -= 1
                if budget[0] < 0:
                    raise LimitError(
                        f"the calendar holds more than {max_calendar_events():,} events "
                        f"between {first} and {last}, recurring ones expanded (set "
                        "TOURNEY_MAX_CALENDAR_EVENTS to raise it; see docs/limits.md)")
                out.append(occurrence.as_component(query.keep_recurrence_attributes))
                got += 1
    return out, notes


MAX_RULE_SCAN = 100_000
"""Instances of one RRULE looked at, from its DTSTART, to find those in the window."""
MAX_RULE_EMPTY_MONTHS = 24_000
"""Months (2,000 years) that the RRULEs of one calendar file may be walked, in all, without
finding an instance (``FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30`` never has one; dateutil would
walk it to the year 9999, 27 seconds an event)."""


class _RuleWalkStop(Exception):
    """A guarded rule walked past the end of the window (ends the walk quietly)."""


class _RuleWalkBudget(Exception):
    """The rules of one file walked :data:`MAX_RULE_EMPTY_MONTHS` without an instance."""


@functools.cache
def _guarded_rule_class() -> type:
    """A dateutil ``rrule`` that counts the months its walk goes through and stops it.

    dateutil computes a rule's instances period by period from DTSTART and checks its UNTIL
    only against instances found: a rule that never matches (February 30th) walks to the
    year 9999 without yielding anything. dateutil reads ``_bynweekday`` once each time its
    walk enters another month (``_iterinfo.rebuild``): that read is the step counted. Past
    ``_tourney_limit`` months it raises :class:`_RuleWalkStop`; past the file's remaining
    budget of months without an instance it raises :class:`_RuleWalkBudget`."""
    from dateutil import rrule as du  # start-up time: only reading a calendar needs it

    class GuardedRule(du.rrule):  # type: ignore[misc]
        @property
        def _bynweekday(self) -> Any:
            d = self.__dict__
            if "_tourney_limit" in d:
                d["_tourney_total"] += 1
                d["_tourney_empty"] += 1
                if d["_tourney_total"] > d["_tourney_limit"]:
                    raise _RuleWalkStop
                if d["_tourney_empty"] > d["_tourney_budget"][1]:
                    raise _RuleWalkBudget
            return d.get("_tourney_bynweekday")

        @_bynweekday.setter
        def _bynweekday(self, value: Any) -> None:
            self.__dict__["_tourney_bynweekday"] = value

    return GuardedRule


class _BoundedRule:
    """Stands for one rrule of a recurring_ical_events series: walks a guarded copy of it, no
    further than ``stop`` (naive, wall clock) and within the file's budget of months without
    an instance. Offers what the series uses: ``until``, ``between`` and iteration."""

    def __init__(self, rule: Any, stop: dt.datetime, budget: list[int]) -> None:
        self.until = rule._until
        self._kwargs = {"interval": rule._interval, "count": rule._count,
                        "dtstart": rule._dtstart, "freq": rule._freq, "until": rule._until,
                        "wkst": rule._wkst, "cache": False, **rule._original_rule}
        start = rule._dtstart.replace(tzinfo=None)
        # months from DTSTART's month to the month after stop, and one more
        self._months = max(0, (stop.year - start.year) * 12 + stop.month - start.month) + 3
        self._budget = budget

    def __iter__(self) -> Any:
        rule = _guarded_rule_class()(**self._kwargs)
        d = rule.__dict__
        d.update(_tourney_limit=self._months, _tourney_total=0, _tourney_empty=0,
                 _tourney_budget=self._budget)
        try:
            for t in rule._iter():  # not the cached iterator: its lock outlives an error
                self._budget[1] -= max(0, d["_tourney_empty"] - 1)
                d["_tourney_empty"] = 0
                yield t
        except _RuleWalkStop:
            pass
        except _RuleWalkBudget:
            raise LimitError(
                "the calendar's recurring rules (RRULE) were looked at over more than "
                f"{MAX_RULE_EMPTY_MONTHS // 12:,} years, in all, without finding an instance "
                "(a rule such as BYMONTH=2;BYMONTHDAY=30 never has one); remove or correct "
                "those rules") from None
        finally:
            self._budget[1] -= max(0, d["_tourney_empty"] - 1)
            d["_tourney_empty"] = 0

    def between(self, after: Any, before: Any, inc: bool = False) -> Any:
        for t in self:
            if t > before or (t == before and not inc):
                return
            if t > after or (t == after and inc):
                yield t


def _bound_rules(series: Any, stop: dt.datetime, budget: list[int]) -> None:
    """Replace each RRULE of ``series`` (a recurring_ical_events series) by a
    :class:`_BoundedRule` walked no further than ``stop``."""
    from dateutil import rrule as du  # start-up time: only reading a calendar needs it

    rules = getattr(getattr(series, "recurrence", None), "rrules", None)
    if not isinstance(rules, list):
        return
    rules[:] = [_BoundedRule(r, stop, budget) if type(r) is du.rrule else r for r in rules]


def _series_stop(series: Any, start: dt.datetime, stop: dt.datetime,
                 per_event: int) -> dt.datetime | None:
    """Where to stop expanding ``series``: ``stop``, or earlier, just after its
    ``per_event + 1``-th instance from ``start`` (naive datetimes, compared as wall clock);
    None when a rule makes more than :data:`MAX_RULE_SCAN` instances before that."""
    rules = getattr(getattr(series, "recurrence", None), "rrules", None) or []
    end = stop
    for rule in rules:
        inside = 0
        for seen, t in enumerate(rule, start=1):  # lazily, from DTSTART
            naive = t.replace(tzinfo=None) if isinstance(t, dt.datetime) else \
                dt.datetime.combine(t, dt.time())
            if naive > end:
                break
            if seen > MAX_RULE_SCAN:
                return None
            if naive >= start:
                inside += 1
                if inside > per_event:
                    end = min(end, naive + dt.timedelta(seconds=1))
                    break
    return end
