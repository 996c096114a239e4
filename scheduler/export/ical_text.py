"""The iCalendar text of a plan's calendars: values, lines, bare VEVENTs (RFC 5545).

Components are built with the ``icalendar`` library (escaping through :class:`_Text`); their
content lines are formatted and folded directly by :mod:`scheduler.export.ical_direct`
(the same bytes as icalendar 7.x's ``to_ical``, faster). The helpers every VEVENT builder
of :mod:`scheduler.export.ical` shares: :class:`CalendarItem` (a VEVENT and whose calendars
show it), :func:`new_event`, :func:`all_day`, day and clock texts, the scenario look-ups.
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
from scheduler.export.ical_direct import (
    escape_text,
    fold_line,
    name_text,
    params_text,
    value_text,
)
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
        return escape_text(self).encode("utf-8")


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
    """RFC 5545 §3.1 line folding, exactly as icalendar folds (``icalendar.parser._foldline``),
    without the final CRLF: :func:`scheduler.export.ical_direct.fold_line` as text.
    ``tests/test_ical.py`` checks the two agree."""
    return fold_line(line)[:-2].decode("utf-8")


def ical_bytes(component: Component) -> bytes:
    """``component.to_ical()``, byte for byte, its lines formatted directly
    (:func:`content_lines`) and folded by :func:`scheduler.export.ical_direct.fold_line`."""
    return b"".join([fold_line(line) for line in content_lines(component)])


def content_lines(component: Component) -> list[str]:
    """The unfolded lines of ``component`` (and its subcomponents), properties sorted, as
    ``component.content_lines()`` gives them (icalendar 7.x ``Contentline.from_parts``),
    formatted directly (:mod:`scheduler.export.ical_direct`) for the value types a plan's
    VEVENTs hold, by icalendar for the others.
    ``tests/test_ical_lines.py`` checks the two agree."""
    out: list[str] = []
    _lines(component, out)
    return out


def _lines(component: Component, out: list[str]) -> None:
    """:func:`content_lines` of one component into ``out``: BEGIN, its properties in
    ``sorted_keys`` order (a list value one line each), its subcomponents, END, as
    ``Component.property_items`` walks them."""
    begin_end = name_text(cast("str", component.name))
    out.append(f"BEGIN:{begin_end}")
    props = dict(component.items())  # its keys upper case (CaselessDict), read once
    for name in component.sorted_keys():
        values = props[name]
        for value in values if isinstance(values, list) else (values,):
            kind = type(value)
            if kind is _Text:
                if not value.params:
                    out.append(f"{name}:{escape_text(value)}")
                    continue
            else:
                text = value_text(value)
                if text is not None:
                    params = getattr(value, "params", None)
                    head = params_text(params)
                    if head is not None:
                        out.append(f"{name}{head}:{text}")
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
