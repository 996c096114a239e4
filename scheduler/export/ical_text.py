"""The iCalendar text of a plan's calendars: values, lines, bare VEVENTs (RFC 5545).

Components are built with the ``icalendar`` library (escaping through :class:`_Text`, CRLF);
lines are folded at 75 octets by :func:`fold`, a faster copy of icalendar 7.x's own folding
that gives the same bytes. The helpers every VEVENT builder of :mod:`scheduler.export.ical`
shares: :class:`CalendarItem` (a VEVENT and whose calendars show it), :func:`new_event`,
:func:`all_day`, day and clock texts, the scenario look-ups.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from icalendar import Component, Event, vText

from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.uid import PLAY_PROPERTY, inherited_lineage, lineage_key
from scheduler.result.plan import OperatorOccurrence, Plan

PRODID = "-//tourney//tourney 0.1//EN"
CALENDAR_FILE = "calendar.ics"
BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")




class _Text(vText):
    r"""A TEXT value escaped exactly as RFC 5545 §3.3.11 says: ``\\``, ``\;``, ``\,`` and
    line breaks as ``\n``. (icalendar's own escaping first turns a literal ``\N`` into a
    line break, so a title holding ``\N`` would show two lines; and it does not escape NAME
    and X-WR-CALNAME at all, so "Post 88, Saco Bay" was read back as "Post 88".)"""

    def to_ical(self) -> bytes:
        text = (str(self).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
                .replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n"))
        return text.encode("utf-8")


def text_value(value: str) -> _Text:
    """``value`` as a TEXT property value (:class:`_Text`)."""
    return _Text(value)


@dataclass(frozen=True)
class CalendarItem:
    """One VEVENT and the operators whose per-operator file shows it."""

    sort_key: tuple[dt.datetime, str]
    operators: frozenset[str]
    event: Event
    tzid: str | None
    span: tuple[dt.date, dt.date]
    members: tuple[tuple[str, int, dt.date], ...] = ()
    """The occurrences (tournament, number, first day) the event shows: one, or a series'
    nights."""
    whole: bool = True
    """Shown in ``calendar.ics`` too; False: only in its operators' own calendars."""


def fold(line: str) -> str:
    """RFC 5545 §3.1 line folding, exactly as icalendar folds (``icalendar.parser._foldline``:
    segments of at most 74 octets, never splitting a character or after a ``\\`` or ``^``
    escape), but a slice at a time where icalendar goes a character at a time (calendars of
    a statewide plan hold millions of characters). ``tests/test_ical.py`` checks the two
    agree."""
    if len(line) < 75 and line.isascii():  # one segment: most lines of a calendar
        return line
    parts = []
    pos = 0
    while True:
        seg = line[pos:pos + 74]
        if seg.isascii():
            n = len(seg)
        else:  # count octets: a character that would reach the 75th starts the next line
            n = count = 0
            for ch in seg:
                size = len(ch.encode("utf-8"))
                if n and count + size >= 75:
                    break
                count += size
                n += 1
        if pos + n >= len(line):
            parts.append(line[pos:])
            return "\r\n ".join(parts)
        if n > 1 and line[pos + n - 1] in "\\^":  # an escape goes on with what it escapes
            n -= 1
        parts.append(line[pos:pos + n])
        pos += n


def ical_bytes(component: Component) -> bytes:
    """``component.to_ical()``, byte for byte, with :func:`fold`'s faster folding and
    :func:`content_lines`' faster lines."""
    return "".join([fold(line) + "\r\n" for line in content_lines(component)]).encode("utf-8")


def content_lines(component: Component) -> list[str]:
    """The unfolded lines of ``component`` (and its subcomponents), properties sorted, as
    ``component.content_lines()`` gives them (icalendar 7.x ``Contentline.from_parts``),
    without an icalendar ``Contentline`` and an empty ``Parameters`` built per property
    (a statewide plan's calendars hold hundreds of thousands of lines).
    ``tests/test_ical_lines.py`` checks the two agree."""
    out: list[str] = []
    _lines(component, out)
    return out


def _lines(component: Component, out: list[str]) -> None:
    """:func:`content_lines` of one component into ``out``: BEGIN, its properties in
    ``sorted_keys`` order (a list value one line each), its subcomponents, END, as
    ``Component.property_items`` walks them."""
    begin_end = vText(cast("str", component.name)).to_ical().decode("utf-8")
    out.append(f"BEGIN:{begin_end}")
    for name in component.sorted_keys():
        values = component[name]
        for value in values if isinstance(values, list) else (values,):
            kind = type(value)
            if (kind is _Text or kind is vText) and not value.params:
                out.append(f"{name}:{cast('bytes', value.to_ical()).decode('utf-8')}")
                continue
            to_ical = getattr(value, "to_ical", None)
            raw = to_ical() if to_ical else vText(cast("str | bytes", value)).to_ical()
            text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
            params = getattr(value, "params", None)
            p = params.to_ical(sorted=True) if params else b""
            if p:
                out.append(f"{name};{p.decode('utf-8') if isinstance(p, bytes) else p}:{text}")
            else:
                out.append(f"{name}:{text}")
    for sub in component.subcomponents:
        _lines(sub, out)
    out.append(f"END:{begin_end}")


def operators_value(ops: Iterable[str]) -> str:
    """X-TOURNEY-OPERATORS of an event: its operator ids separated by single spaces.

    Not commas: vobject (and so Radicale) reads an unescaped comma as a list separator and
    keeps the first item only, and icalendar does not unescape ``\\,`` in an X- property;
    operator ids never contain a space (``ID_PATTERN``), and both libraries read a space
    back as written."""
    return " ".join(ops)


def ambiguous(t: dt.datetime) -> bool:
    """Whether the wall-clock time of ``t`` happens twice (the hour clocks fall back)."""
    return t.replace(fold=0).utcoffset() != t.replace(fold=1).utcoffset()


def utc(stamp: dt.datetime) -> dt.datetime:
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=dt.UTC)
    return stamp.astimezone(dt.UTC).replace(microsecond=0)


class _Event(Event):
    """An icalendar ``Event`` whose :meth:`add` takes a shortcut for the values most of a
    statewide plan's properties hold (a ``str`` or ``int`` without parameters, an already
    escaped :class:`_Text`, a property not yet set): the same value object as
    ``Component.add`` makes (the property's type from ``types_factory``, no VALUE to infer
    for these types), without its per-call inference and parameter copies. Everything else
    (dates, date-times, parameters, repeated properties) goes through ``Component.add``.
    ``tests/test_vevent_bytes.py`` checks the two give the same bytes."""

    def add(self, name: str, value: Any, parameters: Any = None,
            encode: bool = True) -> None:
        kind = type(value)
        if parameters is None and encode and (kind is str or kind is int or kind is _Text):
            key = name.upper()
            if not dict.__contains__(self, key):
                if kind is _Text:
                    obj = value
                else:
                    klass = _KLASS.get(name)
                    if klass is None:
                        klass = _KLASS[name] = Event.types_factory.for_property(name, None)
                    obj = klass(value)
                OrderedDict.__setitem__(self, key, obj)  # CaselessDict's, key upper
                return
        super().add(name, value, parameters, encode)


_KLASS: dict[str, type] = {}
"""A property name's value type when no VALUE parameter is given (``for_property``)."""


def new_event(uid: str, stamp: dt.datetime, summary: str, sequence: int = 0) -> Event:
    ev = _Event()
    ev.add("uid", uid)
    ev.add("dtstamp", stamp)
    ev.add("sequence", sequence)  # RFC 5545 §3.8.7.4: + 1 each time a re-plan moves it
    ev.add("summary", text_value(summary))
    return ev


def all_day(ev: Event, first: dt.date, last: dt.date) -> None:
    """All-day span: DTEND is the day after ``last`` (exclusive, RFC 5545 §3.6.1)."""
    ev.add("dtstart", first)
    ev.add("dtend", last + dt.timedelta(days=1))


def midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time())


def ical_day(d: dt.date) -> str:
    return f"{d:%a} {d.isoformat()}"


def clock(t: dt.datetime) -> str:
    return f"{ical_day(t.date())} {t:%H:%M} {t.tzname()}"


def tournament_of(scenario: Scenario, tid: str) -> Tournament | None:
    try:
        return scenario.tournament(tid)
    except KeyError:
        return None


def operator_of(scenario: Scenario, oid: str) -> Operator | None:
    try:
        return scenario.operator(oid)
    except KeyError:
        return None


def play(ev: Event, row: OperatorOccurrence) -> None:
    """X-TOURNEY-PLAY: when play starts and ends (``start/end``, ISO 8601 with UTC offset)
    of an all-day (Montana) event, which DTSTART/DTEND do not say: a re-plan from the
    calendar alone sees a time change (SEQUENCE + 1) as it does from schedule.csv."""
    ev.add(PLAY_PROPERTY, f"{row.start.isoformat()}/{row.end.isoformat()}")


def plan_lineage(plan: Plan) -> str:
    """The plan's lineage key: ``plan.lineage``, else the one its rows' UIDs carry, else the
    scenario's own (:func:`scheduler.core.uid.lineage_key`)."""
    return (plan.lineage or inherited_lineage(r.uid for r in plan.rows)
            or lineage_key(plan.scenario))
