"""The iCalendar text of a plan's calendars: values, content lines, VEVENTs (RFC 5545).

Every calendar is written directly as content lines: :class:`VEvent` holds a VEVENT's
properties as their content lines, folded as each is made (and the values the re-plan logic
reads back), and :meth:`VEvent.to_ical` puts them in order and joins them. The bytes are
those icalendar 7.x's ``Component.to_ical`` gives for the same ``Event.add`` calls (the
calendars were first written that way; ``tests/test_ical_lines.py`` builds each kind of line
both ways and compares them, and reads them back with icalendar;
``tests/test_calendar_events_written_directly.py`` does so for whole events of each kind
made at once, :meth:`VEvent.put`):

- properties in icalendar's order: the component's ``canonical_order``, then the others by
  name; a property added twice, one line per value in the order added;
- TEXT values escaped as RFC 5545 §3.3.11 says (:func:`escape_text`: ``\\``, ``\\;``,
  ``\\,``, line breaks as ``\\n``); a TEXT value given as a plain ``str`` as icalendar's
  ``vText`` escapes it (a literal ``\\N`` first read as a line break); an X- property's
  ``str`` verbatim;
- a DATE with ``VALUE=DATE``, a DATE-TIME in UTC with ``Z``, one in a zone with its TZID;
- folding at 75 octets on the UTF-8 bytes (:func:`fold`, :func:`fold_line`), as icalendar
  folds.

The helpers every VEVENT builder of :mod:`scheduler.export.ical` shares are here too:
:class:`CalendarItem` (a VEVENT and whose calendars show it), :func:`new_event`,
:func:`all_day`, day and clock texts, the scenario look-ups; and :func:`vtimezone_lines`
(a zone's VTIMEZONE, as icalendar's ``Timezone.from_tzid`` makes it).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from icalendar.parser import param_value
from icalendar.timezone.tzid import tzid_from_tzinfo

from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.uid import PLAY_PROPERTY, inherited_lineage, lineage_key
from scheduler.result.plan import OperatorOccurrence, Plan

PRODID = "-//tourney//tourney 0.1//EN"
CALENDAR_FILE = "calendar.ics"
BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")

EVENT_ORDER = ("SUMMARY", "DTSTART", "DTEND", "DURATION", "DTSTAMP", "UID", "RECURRENCE-ID",
               "SEQUENCE", "RRULE", "RDATE", "EXDATE")
"""A VEVENT's first properties, in this order (icalendar's ``Event.canonical_order``)."""
CALENDAR_ORDER = ("VERSION", "PRODID", "CALSCALE", "METHOD", "DESCRIPTION", "X-WR-CALDESC",
                  "NAME", "X-WR-CALNAME")
"""A VCALENDAR's first properties (icalendar's ``Calendar.canonical_order``)."""

_TEXT = frozenset({"UID", "SUMMARY", "DESCRIPTION", "LOCATION", "STATUS", "TRANSP", "ACTION",
                   "VERSION", "PRODID", "CALSCALE", "METHOD", "TZID", "COMMENT", "TZNAME"})
"""The properties of TEXT value (icalendar's ``vText``) a calendar's ``str`` values go to."""

_PLAIN = re.compile(r"[A-Za-z0-9_/+\-.]*\Z")
"""A parameter value written as it is (no quoting, no RFC 6868 escape)."""


class Text(str):
    """A TEXT value to escape exactly as RFC 5545 §3.3.11 says (:func:`escape_text`), not
    as icalendar's ``vText`` does (it first turns a literal ``\\N`` into a line break, so a
    title holding ``\\N`` would show two lines; and NAME and X-WR-CALNAME, of no TEXT type to
    icalendar, would not be escaped at all: "Post 88, Saco Bay" read back as "Post 88")."""

    __slots__ = ()


def text_value(value: str) -> Text:
    """``value`` as a TEXT property value (:class:`Text`)."""
    return Text(value)


def escape_text(value: str) -> str:
    r"""``value`` as an escaped TEXT value (RFC 5545 §3.3.11): ``\\``, ``\;``, ``\,``, and each
    line break (CRLF, CR or LF) as ``\n``."""
    if "\\" in value:
        value = value.replace("\\", "\\\\")
    value = value.replace(";", "\\;").replace(",", "\\,")
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value.replace("\n", "\\n")


def vtext(value: str) -> str:
    r"""``value`` escaped as icalendar's ``vText`` escapes a plain ``str``: a literal ``\N``
    first read as a line break, then :func:`escape_text`."""
    return escape_text(value.replace("\\N", "\n"))


def fold_line(line: str) -> bytes:
    """``line`` folded (RFC 5545 §3.1) and ended by CRLF, as UTF-8 bytes: segments of at most
    74 octets joined by CRLF and a space, a character never split, a ``\\`` or ``^`` never
    the last octet of a segment that is not the line's last (it escapes what follows), as
    ``icalendar.parser._foldline`` folds."""
    return (_folded(line) + "\r\n").encode("utf-8")


_SEGMENTS = re.compile(r"(?s).{73}[^\\^](?=.)|.{73}(?=[\\^].)|.+")
"""The segments of an ASCII line (:func:`fold`): 74 characters, or 73 when the 74th
escapes what follows, while more than 74 are left; then the rest."""

_OCTET_SEGMENTS = re.compile(("(?s)(?=.{75})(?:" + "|".join(
    rf".{{{n - 1}}}[^\\^](?=[^\x80-\xbf])|.{{{n - 1}}}(?=[\\^][^\x80-\xbf])"
    for n in (74, 73, 72, 71)) + ")|.+").encode("ascii"))
"""The segments of a line's UTF-8 octets (:func:`fold`): while more than 74 are left,
the longest run of at most 74 that ends before a character's first octet (74, 73, 72 or
71: a character is at most 4 octets), one octet less when its last escapes what follows;
then the rest."""


def fold(line: str) -> str:
    """RFC 5545 §3.1 line folding, exactly as icalendar folds (``icalendar.parser._foldline``),
    without the final CRLF: :func:`fold_line` as text. ``tests/test_ical.py`` and
    ``tests/test_ical_lines.py`` check the two agree."""
    if line.isascii():  # a character is an octet
        return line if len(line) <= 74 else "\r\n ".join(_SEGMENTS.findall(line))
    if len(line) <= 18:  # at most 4 octets a character: at most 72
        return line
    data = line.encode("utf-8")
    if len(data) <= 74:
        return line
    return b"\r\n ".join(_OCTET_SEGMENTS.findall(data)).decode("utf-8")


_folded = fold


def fold_lines(lines: Iterable[str]) -> bytes:
    """``lines`` (unfolded content lines) folded, each ended by CRLF (:func:`fold_line`)."""
    return ("\r\n".join([line if len(line) <= 74 and line.isascii() else _folded(line)
                          for line in lines]) + "\r\n").encode("utf-8")


def _param(value: str) -> str:
    """A parameter value as icalendar writes it: as it is when plain, else quoted and RFC
    6868-escaped (``icalendar.parser.param_value``)."""
    return value if _PLAIN.match(value) else param_value(value)


@functools.lru_cache(maxsize=256)
def _zone_param(tz: dt.tzinfo) -> str | None:
    """``;TZID=<zone>`` of a date-time in ``tz`` as icalendar writes it: the TZID it names
    ``tz`` by (``icalendar.timezone.tzid.tzid_from_tzinfo``), ``""`` for a zone equal to UTC
    (written with ``Z``); None for a zone it cannot name (a date-time in it is named by its
    ``tzname``)."""
    tzid = tzid_from_tzinfo(tz)
    if tzid is None:
        return None
    return "" if tzid == "UTC" else f";TZID={_param(tzid)}"


def date_time_text(value: dt.datetime) -> tuple[str, str]:
    """A DATE-TIME as icalendar writes it: (``;TZID=<zone>`` or ``""``, the value: UTC with
    ``Z``, a zone's local time, a floating time as it is); seconds kept, microseconds not."""
    # "YYYY-MM-DDTHH:MM:SS" of the local time, whatever the offset or microseconds after it
    s = dt.datetime.isoformat(value)[:19].replace("-", "").replace(":", "")
    tz = value.tzinfo
    if tz is None:
        return "", s
    param = "" if tz is dt.UTC else _zone_param(tz)
    if param is None:
        tzid = value.tzname() or ""
        if tzid == "UTC":
            return "", s + "Z"
        return f";TZID={_param(tzid)}", s
    return (param, s) if param else ("", s + "Z")


def date_text(value: dt.date) -> str:
    """A DATE's value (``YYYYMMDD``)."""
    return dt.date.isoformat(value).replace("-", "")


def duration_text(value: dt.timedelta) -> str:
    """A DURATION as icalendar's ``vDuration`` writes it (``P1D``, ``-P7D``, ``PT1H30M``)."""
    sign = ""
    if value.days < 0:
        sign, value = "-", -value
    time = ""
    if value.seconds:
        hours, minutes, seconds = (value.seconds // 3600, value.seconds % 3600 // 60,
                                   value.seconds % 60)
        time = "T" + (f"{hours}H" if hours else "") + (
            f"{minutes}M" if minutes or (hours and seconds) else "") + (
            f"{seconds}S" if seconds else "")
    if value.days == 0 and time:
        return f"{sign}P{time}"
    return f"{sign}P{value.days}D{time}"


def utc_offset_text(value: dt.timedelta) -> str:
    """A UTC-OFFSET as icalendar's ``vUTCOffset`` writes it (``-0500``, ``+0530``, ``+0000``)."""
    sign = "+"
    if value < dt.timedelta(0):
        sign, value = "-", -value
    hours = abs(value.days * 24 + value.seconds // 3600)
    minutes, seconds = value.seconds % 3600 // 60, value.seconds % 60
    return f"{sign}{hours:02}{minutes:02}{seconds:02}" if seconds else \
        f"{sign}{hours:02}{minutes:02}"


def content_line(name: str, value: object, params: Mapping[str, str] | None = None) -> str:
    """The unfolded content line of property ``name`` (upper case) with ``value``, as icalendar
    writes ``Component.add(name, value, parameters=params)``: a :class:`Text` escaped
    (:func:`escape_text`); a ``str`` of a TEXT property as ``vText`` escapes it, of an X-
    property or RRULE (a RECUR text) verbatim; an ``int``; a DATE (``VALUE=DATE``); a
    DATE-TIME (:func:`date_time_text`); a duration; a list of CATEGORIES. ``params``: plain
    parameters (written with the value's own, sorted by name). Raises ``TypeError`` for
    any other value."""
    if params:
        line = content_line(name, value)
        head, _, text = line.partition(":")
        own = dict(p.split("=", 1) for p in head.split(";")[1:])
        every = {**own, **{k.upper(): _param(v) for k, v in params.items()}}
        return f"{name}{''.join(f';{k}={v}' for k, v in sorted(every.items()))}:{text}"
    kind = type(value)
    if kind is Text:
        return f"{name}:{escape_text(value)}"  # type: ignore[arg-type]
    if kind is str:
        if name.startswith("X-") or name == "RRULE":
            return f"{name}:{value}"
        if name in _TEXT:
            return f"{name}:{vtext(value)}"  # type: ignore[arg-type]
    elif kind is int:
        return f"{name}:{value}"
    elif kind is dt.date:
        return f"{name};VALUE=DATE:{date_text(value)}"  # type: ignore[arg-type]
    elif kind is dt.datetime:
        tz, text = date_time_text(value)  # type: ignore[arg-type]
        return f"{name}{tz}:{text}"
    elif kind is dt.timedelta:
        return f"{name}:{duration_text(value)}"  # type: ignore[arg-type]
    elif kind is list and name == "CATEGORIES":
        return f"{name}:{','.join([vtext(c) for c in value])}"  # type: ignore[attr-defined]
    raise TypeError(f"no content line for {name} = {value!r}")


_SORTED: dict[tuple[object, ...], list[str]] = {}
"""(canonical order, the property names as added) -> the names in the order written."""


class VEvent:
    """A VEVENT (or VALARM) being built: each property as its content lines, folded
    (:func:`fold`; a property given several values, one line per value, CRLF between them),
    and the first value given, by name (upper case).

    ``text`` and ``values`` (each property's folded lines and first value, as :meth:`add`
    would make them) give the properties at once: the builders of the plan's events
    (:mod:`scheduler.export.ical_events`, :mod:`scheduler.export.ical_describe`) format their
    lines directly, as :func:`content_line` does (``tests/test_ical_lines.py`` compares
    them with icalendar's)."""

    __slots__ = ("_text", "_values", "name", "subcomponents")

    def __init__(self, name: str = "VEVENT", text: dict[str, str] | None = None,
                 values: dict[str, object] | None = None,
                 subcomponents: list[VEvent] | None = None) -> None:
        self.name = name
        self._text: dict[str, str] = {} if text is None else text
        self._values: dict[str, object] = {} if values is None else values
        self.subcomponents: list[VEvent] = [] if subcomponents is None else subcomponents

    def add(self, name: str, value: object, params: Mapping[str, str] | None = None) -> None:
        """Add property ``name`` (upper case) with ``value`` (:func:`content_line`); a value of
        a property already there goes on its own line after the others, as
        ``Component.add`` lists it."""
        kind = type(value)
        if params is None and kind is Text:  # the most frequent kinds, without a call
            line = f"{name}:{escape_text(value)}"  # type: ignore[arg-type]
        elif params is None and kind is str and name[:2] == "X-":
            line = f"{name}:{value}"
        else:
            line = content_line(name, value, params)
        was = self._text.get(name)
        if was is None:
            self._text[name] = _folded(line)
            self._values[name] = value
        else:
            self._text[name] = f"{was}\r\n{_folded(line)}"

    def set(self, name: str, value: object) -> None:
        """Replace the value(s) of property ``name`` (upper case) by ``value``."""
        self._text[name] = _folded(content_line(name, value))
        self._values[name] = value

    def put(self, text: Mapping[str, str], values: Mapping[str, object]) -> None:
        """Set properties at once, each with its folded content lines (:func:`fold`) and
        (first) value as :meth:`add` makes them (``text[name]``, ``values[name]``),
        replacing any there."""
        self._text.update(text)
        self._values.update(values)

    def put_one(self, name: str, text: str, value: object) -> None:
        """:meth:`put` of one property: ``text`` its folded content line(s), ``value``."""
        self._text[name] = text
        self._values[name] = value

    def get(self, name: str, default: object = None) -> object:
        """The (first) value given to property ``name`` (upper case), else ``default``."""
        return self._values.get(name, default)

    def properties(self) -> dict[str, object]:
        """Each property's name (upper case) and (first) value, in the order given."""
        return dict(self._values)

    @property
    def uid(self) -> str:
        return str(self._values["UID"])

    @property
    def sequence(self) -> int:
        return int(self._values["SEQUENCE"])  # type: ignore[call-overload]

    def _keys(self, order: tuple[str, ...]) -> list[str]:
        """The property names in the order written: ``order`` first, then by name."""
        props = self._text
        shape = (order, *props)  # the events of one kind have the same properties
        keys = _SORTED.get(shape)
        if keys is None:
            keys = [k for k in order if k in props] + sorted(props.keys() - set(order))
            if len(_SORTED) < 4096:
                _SORTED[shape] = keys
        return keys

    def lines(self, order: tuple[str, ...] = EVENT_ORDER) -> list[str]:
        """The unfolded lines: BEGIN, the properties (``order`` first, then by name), each
        subcomponent's lines (its properties by name), END."""
        out = [f"BEGIN:{self.name}"]
        for key in self._keys(order):
            out += self._text[key].replace("\r\n ", "").split("\r\n")
        for sub in self.subcomponents:
            out += sub.lines(())
        out.append(f"END:{self.name}")
        return out

    def _folded_text(self, order: tuple[str, ...]) -> str:
        """:meth:`lines` folded, each ended by CRLF."""
        text = self._text
        body = "\r\n".join(map(text.__getitem__, self._keys(order)))
        subs = "".join([sub._folded_text(()) for sub in self.subcomponents])
        if body:
            return f"BEGIN:{self.name}\r\n{body}\r\n{subs}END:{self.name}\r\n"
        return f"BEGIN:{self.name}\r\n{subs}END:{self.name}\r\n"

    def to_ical(self) -> bytes:
        """The folded bytes of :meth:`lines`."""
        return self._folded_text(EVENT_ORDER).encode("utf-8")


@functools.lru_cache(maxsize=64)
def vtimezone_lines(tzid: str, first: dt.date, last: dt.date) -> tuple[str, ...]:
    """The VTIMEZONE of zone ``tzid`` for ``first`` to ``last``: icalendar's
    ``Timezone.from_tzid(tzid, first_date=first, last_date=last)`` as content lines (its
    search for the zone's transitions, a STANDARD or DAYLIGHT for each kind of transition,
    the later ones as RDATE). ``tests/test_ical_lines.py`` compares the two."""
    tz = ZoneInfo(tzid)
    start = dt.datetime(first.year, first.month, first.day, tzinfo=tz)
    end_of = dt.datetime(last.year, last.month, last.day, tzinfo=tz)
    offsets: dict[tuple[dt.timedelta | None, dt.timedelta | None, str, bool],
                  list[dt.datetime]] = defaultdict(list)
    offset_to: dt.timedelta | None = None
    while start < end_of:
        offset_from = offset_to
        end = start
        offset_to = end.utcoffset()
        for step in _SKIP:
            last_end = end
            end = end + step
            try:
                while end.utcoffset() == offset_to:
                    last_end = end
                    end = end + step
            except OverflowError:
                break
            end = last_end
        standard = start.dst() == dt.timedelta()
        name = start.tzname()
        offsets[(offset_from, offset_to, name if name is not None else str(offset_to),
                 standard)].append(start.replace(tzinfo=None))
        start = end + _SKIP[-1]
    out = ["BEGIN:VTIMEZONE", content_line("TZID", tzid),
           content_line("COMMENT", f"This timezone only works from {first} to {last}.")]
    for (off_from, off_to, tzname, standard), starts in offsets.items():
        first_start = min(starts)
        starts.remove(first_start)
        if first_start.date() == last:
            first_start = dt.datetime(last.year, last.month, last.day)
        kind = "STANDARD" if standard else "DAYLIGHT"
        assert off_to is not None
        out.append(f"BEGIN:{kind}")
        out.append(content_line("DTSTART", first_start))
        if starts:
            out.append("RDATE:" + ",".join(date_time_text(s)[1] for s in starts))
        out.append(content_line("TZNAME", tzname))
        out.append(f"TZOFFSETFROM:{utc_offset_text(off_from if off_from is not None else off_to)}")
        out.append(f"TZOFFSETTO:{utc_offset_text(off_to)}")
        out.append(f"END:{kind}")
    out.append("END:VTIMEZONE")
    return tuple(out)


_SKIP = [dt.timedelta(days=d) for d in (64, 32, 16, 8, 4, 2, 1)] + [
    dt.timedelta(hours=4), dt.timedelta(hours=1), dt.timedelta(minutes=20),
    dt.timedelta(minutes=5), dt.timedelta(minutes=1), dt.timedelta(seconds=20),
    dt.timedelta(seconds=5), dt.timedelta(seconds=1)]
"""The steps of icalendar's search for a zone's transitions (``_from_tzinfo_skip_search``)."""


@dataclass(slots=True)
class CalendarItem:
    """One VEVENT and the operators whose per-operator file shows it (its ``event`` let go,
    :data:`scheduler.export.ical._SPENT`, once serialized)."""

    sort_key: tuple[dt.datetime, str]
    operators: frozenset[str]
    event: VEvent
    tzid: str | None
    span: tuple[dt.date, dt.date]
    members: tuple[tuple[str, int, dt.date], ...] = ()
    """The occurrences (tournament, number, first day) the event shows: one, or a series'
    nights."""
    whole: bool = True
    """Shown in ``calendar.ics`` too; False: only in its operators' own calendars."""
    at: int = 0
    """Once serialized (:mod:`scheduler.export.ical`): where its VEVENT's bytes start in the
    plan's scratch file, and how many there are (``size``), its UID and SEQUENCE."""
    size: int = 0
    uid: str = ""
    sequence: int = 0


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


@functools.lru_cache(maxsize=16)
def stamp_line(stamp: dt.datetime) -> str:
    """The DTSTAMP line of ``stamp`` (``content_line("DTSTAMP", stamp)``), folded, made once
    per stamp: every event of a plan has the same."""
    return _folded(content_line("DTSTAMP", stamp))


def uid_line(uid: str) -> str:
    """``content_line("UID", uid)`` folded: a TEXT value as icalendar's ``vText`` escapes
    it."""
    return _folded(f"UID:{vtext(uid)}" if type(uid) is str else content_line("UID", uid))


def sequence_line(sequence: int) -> str:
    """``content_line("SEQUENCE", sequence)`` folded (an integer: one short line)."""
    if type(sequence) is not int:
        return _folded(content_line("SEQUENCE", sequence))
    line = f"SEQUENCE:{sequence}"
    return line if len(line) <= 74 else _folded(line)


def new_event(uid: str, stamp: dt.datetime, summary: str, sequence: int = 0) -> VEvent:
    """A VEVENT with its UID, DTSTAMP, SEQUENCE (RFC 5545 §3.8.7.4: + 1 each time a re-plan
    moves it) and SUMMARY (a TEXT value, :class:`Text`): the lines ``add`` would make."""
    return VEvent("VEVENT", {
        "UID": uid_line(uid), "DTSTAMP": stamp_line(stamp),
        "SEQUENCE": sequence_line(sequence),
        "SUMMARY": _folded(f"SUMMARY:{escape_text(summary)}"),
    }, {"UID": uid, "DTSTAMP": stamp, "SEQUENCE": sequence, "SUMMARY": Text(summary)})


DAY = dt.timedelta(days=1)
"""One day (an all-day event's DTEND is the day after its last)."""


def all_day(ev: VEvent, first: dt.date, last: dt.date) -> None:
    """All-day span: DTEND is the day after ``last`` (exclusive, RFC 5545 §3.6.1)."""
    ev.add("DTSTART", first)
    ev.add("DTEND", last + DAY)


def midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time())


_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@functools.lru_cache(maxsize=4096)
def ical_day(d: dt.date) -> str:
    """``Mon 2027-03-01`` (``%a`` in the C locale tourney runs in, and the ISO day)."""
    return f"{_WEEKDAYS[d.weekday()]} {d.isoformat()}"


def clock(t: dt.datetime) -> str:
    """``Mon 2027-03-01 19:30 MST``: the day (:func:`ical_day`), the wall-clock time and
    the zone's abbreviation of ``t``."""
    return f"{ical_day(t.date())} {t.hour:02}:{t.minute:02} {t.tzname()}"


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


def play(ev: VEvent, row: OperatorOccurrence) -> None:
    """X-TOURNEY-PLAY: when play starts and ends (``start/end``, ISO 8601 with UTC offset)
    of an all-day (Montana) event, which DTSTART/DTEND do not say: a re-plan from the
    calendar alone sees a time change (SEQUENCE + 1) as it does from schedule.csv."""
    ev.add(PLAY_PROPERTY, f"{row.start.isoformat()}/{row.end.isoformat()}")


def plan_lineage(plan: Plan) -> str:
    """The plan's lineage key: ``plan.lineage``, else the one its rows' UIDs carry, else the
    scenario's own (:func:`scheduler.core.uid.lineage_key`)."""
    return (plan.lineage or inherited_lineage(r.uid for r in plan.rows)
            or lineage_key(plan.scenario))
