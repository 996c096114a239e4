"""The previous plan's calendars read back: what they announced and published.

The occurrences (:class:`PublishedOccurrence`), weekly series (:class:`PreviousSeries`) and
every event
(:class:`PreviousEvent`) of a previous plan's ``calendar.ics`` and ``calendars/*.ics``, for
``tourney solve --previous`` (:mod:`scheduler.inputs.replan`). Every reader raises
:class:`PreviousError` naming the file when a calendar cannot be read: an unreadable calendar
must never pass for one that published nothing (nothing would be cancelled).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from icalendar import Calendar

from scheduler.core.calendar_limits import expand_events, read_calendar
from scheduler.core.errors import TourneyError
from scheduler.core.limits import (
    FIRST_YEAR,
    LAST_YEAR,
    LimitError,
    max_calendar_events,
)
from scheduler.core.uid import (
    DEADLINE_PROPERTY,
    KIND_PROPERTY,
    LINEAGE_PROPERTY,
    OCCURRENCE_PROPERTY,
    OPERATOR_NAME_PROPERTY,
    OPERATOR_PROPERTY,
    OPERATORS_PROPERTY,
    PLAY_PROPERTY,
    SESSION_PROPERTY,
    STATUS_PROPERTY,
    TOURNAMENT_PROPERTY,
    is_deadline,
)
from scheduler.core.uid import parse as parse_uid


class PreviousError(TourneyError, ValueError):
    """The previous plan cannot be read (names the file and what is wrong)."""

    def format_message(self) -> str:
        return f"tourney: {self}. Nothing was written."


def _unreadable(path: Path, why: object) -> PreviousError:
    return PreviousError(f"{path}: not a readable iCalendar file ({why})")


def _read_calendars(path: Path, data: bytes | None = None) -> list[Calendar]:
    """Every VCALENDAR of the file ``path`` (its bytes ``data`` when already read). Raises
    :class:`PreviousError` when it cannot be read, is not iCalendar, or holds no complete
    VCALENDAR (empty, or cut short)."""
    try:
        cals = Calendar.from_ical(read_calendar(path) if data is None else data,
                                  multiple=True)
    except LimitError as exc:  # too large, not a regular file (docs/limits.md)
        raise PreviousError(f"{path}: {exc}") from None
    except Exception as exc:  # OSError; icalendar raises ValueError, KeyError, IndexError, ...
        raise _unreadable(path, exc) from None
    if not cals:
        raise _unreadable(path, "no complete VCALENDAR: the file is empty or cut short")
    return list(cals)


@dataclass(frozen=True)
class PublishedOccurrence:
    """An occurrence of the previous plan: its tournament, first day, UID and SEQUENCE."""

    tournament_id: str
    first_day: dt.date
    uid: str
    sequence: int = 0
    cancelled: bool = False
    """Published as cancelled earlier: its UID is never given to a new occurrence."""
    operators: tuple[str, ...] = ()
    title: str = ""
    span: str = ""
    """``start|end`` as schedule.csv wrote them (ISO 8601), when known."""
    night: bool = False
    """A night of a weekly series: ``uid`` is the series' UID and ``first_day`` the night's
    RECURRENCE-ID (schedule.csv ``recurrence_id``, or the expanded calendar)."""


@dataclass(frozen=True)
class Cancelled:
    """An announced occurrence that the new plan drops (published as STATUS:CANCELLED)."""

    tournament_id: str
    first_day: dt.date
    uid: str
    sequence: int
    operators: tuple[str, ...]
    title: str
    span: str = ""
    """``start|end`` (ISO 8601) of the announced occurrence when known: a timed event is
    cancelled as a timed event (the same value type under its UID)."""


@dataclass(frozen=True)
class PreviousSeries:
    """A weekly series VEVENT of the previous calendar: its UID, nights and SEQUENCE."""

    uid: str
    tournament_id: str
    nights: tuple[dt.date, ...]
    sequence: int
    operators: tuple[str, ...]
    title: str
    play: str = ""
    """X-TOURNEY-PLAY of the series (its first night's ``start/end``, ISO 8601)."""


def previous_series(path: str | Path) -> list[PreviousSeries]:
    """The weekly series (RRULE events) of the previous plan's calendar, expanded. Raises
    :class:`PreviousError` when the calendar cannot be read."""
    p = Path(path)
    ics = p / "calendar.ics" if p.is_dir() else p
    if ics.suffix.lower() != ".ics" or not ics.is_file():
        return []
    out = []
    try:
        for cal in _read_calendars(ics):
            masters = [ev for ev in cal.walk("VEVENT") if ev.get("RRULE")
                       and str(ev.get("STATUS", "")).upper() != "CANCELLED"]
            for ev in masters:
                uid = str(ev["UID"])
                one = Calendar()
                one.add_component(ev)
                nights = sorted({(x.decoded("DTSTART") if not isinstance(
                    x.decoded("DTSTART"), dt.datetime) else x.decoded("DTSTART").date())
                    for x in _expand(one)})
                parsed = parse_uid(uid)
                host = parsed.host if parsed and parsed.host else ""
                ops = _operators_of(ev) or ((host,) if host else ())
                out.append(PreviousSeries(uid, str(ev.get(TOURNAMENT_PROPERTY, "")),
                                          tuple(nights), int(ev.get("SEQUENCE", 0)), ops,
                                          str(ev.get("SUMMARY", "")),
                                          str(ev.get(PLAY_PROPERTY, ""))))
    except PreviousError:
        raise
    except Exception as exc:  # icalendar raises ValueError, KeyError, IndexError, ...
        raise _unreadable(ics, exc) from None
    return out


@dataclass(frozen=True)
class PreviousEvent:
    """Any event the previous calendars published (occurrence, series or deadline)."""

    uid: str
    day: dt.date
    sequence: int
    summary: str
    operators: tuple[str, ...]
    cancelled: bool = False
    dtstart: dt.date | None = None
    """DTSTART as published (a date, or an aware date-time for a timed event)."""
    dtend: dt.date | None = None
    tournament_id: str = ""
    deadline: str = ""
    """X-TOURNEY-DEADLINE (mt-notice, me-report, ...) of a deadline event."""
    rrule: str = ""
    """The RRULE of a recurring event (a cancelled series), as written."""
    kind: str = ""
    """X-TOURNEY-KIND of the event (occurrence, series, notice, application, report); empty
    in calendars written before the property existed."""
    description: str = ""
    """DESCRIPTION as published (a carried cancellation keeps it)."""
    play: str = ""
    """X-TOURNEY-PLAY as published (``start/end`` of play, ISO 8601), when the event has it."""
    fingerprint: str = ""
    """Its content as published, without DTSTAMP, SEQUENCE and lineage (:func:`fingerprint`):
    a re-plan's event of its UID with another fingerprint changed, and gets a higher
    SEQUENCE (RFC 5545 §3.8.7.4); empty when unknown."""
    text: str = ""
    """The VEVENT exactly as published (``BEGIN:VEVENT`` to ``END:VEVENT``, CRLF), kept for
    an event that starts before the day given to :func:`previous_events` (``past_before``):
    a past event a re-plan carries unchanged; empty otherwise."""

    @property
    def last_day(self) -> dt.date:
        """The last calendar day the event covers (DTEND exclusive)."""
        end = self.dtend
        if end is None:
            return self.day
        until = self._until()
        if until is not None and until > self.day:
            return until
        if isinstance(end, dt.datetime):
            start = self.dtstart
            return max(self.day, (end - dt.timedelta(microseconds=1)).date()
                       if isinstance(start, dt.datetime) else end.date())
        return max(self.day, end - dt.timedelta(days=1))


    def _until(self) -> dt.date | None:
        for part in self.rrule.split(";"):
            key, _, value = part.partition("=")
            if key.upper() == "UNTIL" and len(value) >= 8 and value[:8].isdigit():
                return dt.date(int(value[:4]), int(value[4:6]), int(value[6:8]))
        return None


def _operators_of(ev: object) -> tuple[str, ...]:
    """X-TOURNEY-OPERATORS of an event (operator ids separated by spaces; commas, escaped
    or not, in files of earlier versions), else ()."""
    text = str(ev.get(OPERATORS_PROPERTY, ""))  # type: ignore[attr-defined]
    return tuple(dict.fromkeys(o for o in re.split(r"[\s,\\]+", text) if o))


def _event_operators(uid: str, ev: object) -> tuple[str, ...]:
    """Whom an event of a single calendar file is for: X-TOURNEY-OPERATORS, else what its
    UID names (a deadline's operator, an occurrence's or series' host)."""
    ops = _operators_of(ev)
    if ops:
        return ops
    p = parse_uid(uid)
    if p is None:
        return ()
    who = p.operator_id or p.host
    return (who,) if who else ()


_NUMBERS = re.compile(r"(Tournament [a-z0-9-]+\\, occurrences? )[^.]*\.")


def fingerprint(event_text: bytes | str) -> str:
    """A VEVENT's content without DTSTAMP, SEQUENCE, X-TOURNEY-LINEAGE, X-TOURNEY-STATUS
    (what the ledger says happened, not what the event says) and the occurrence's
    number (X-TOURNEY-OCCURRENCE and the description's ``Tournament <id>, occurrence <n>.``:
    the plan's numbering, which shifts when an earlier occurrence moves; the event is the
    same), unfolded, one line per property, hashed: equal for an event written again
    unchanged (16 hex digits of its SHA-256)."""
    text = event_text.decode("utf-8") if isinstance(event_text, bytes) else event_text
    lines = text.replace("\r\n", "\n").replace("\n ", "").replace("\n\t", "").split("\n")
    keep = [_NUMBERS.sub(r"\1#.", ln) for ln in lines if ln and not ln.upper().startswith(
        ("DTSTAMP", "SEQUENCE", LINEAGE_PROPERTY, OCCURRENCE_PROPERTY, STATUS_PROPERTY))]
    return hashlib.sha256("\n".join(keep).encode("utf-8")).hexdigest()[:16]


_VEVENT = re.compile(r"^BEGIN:VEVENT\r?\n.*?^END:VEVENT\r?\n", re.S | re.M)
_UID_LINE = re.compile(r"^UID(?:;[^:\r\n]*)?:(.*)$", re.M | re.I)


def _raw_events(data: bytes) -> dict[str, str]:
    """UID -> the VEVENT text as written (the first one of the UID without RECURRENCE-ID),
    of a calendar file's bytes; {} when they are not UTF-8 (icalendar reads them anyway)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {}
    out: dict[str, str] = {}
    for m in _VEVENT.finditer(text):
        block = m.group(0)
        flat = re.sub(r"\r?\n[ \t]", "", block)
        if re.search(r"^RECURRENCE-ID[;:]", flat, re.M | re.I):
            continue
        uid = _UID_LINE.search(flat)
        if uid is not None:
            out.setdefault(uid.group(1).strip(), block)
    return out


def previous_events(path: str | Path, past_before: dt.date | None = None
                    ) -> list[PreviousEvent]:
    """Every VEVENT of the previous plan's calendars (``cancelled`` when it was published as
    STATUS:CANCELLED), with the operators whose calendar (``calendars/<operator_id>.ics``)
    showed it, and its content's :func:`fingerprint`; the text as published of those that
    start before ``past_before`` (``PreviousEvent.text``). Raises :class:`PreviousError`
    when a calendar cannot be read (an unreadable calendar must not pass for one that
    published nothing: nothing would be cancelled)."""
    p = Path(path)
    files = ([p / "calendar.ics", *sorted((p / "calendars").glob("*.ics"))] if p.is_dir()
             else [p] if p.suffix.lower() == ".ics" else [])
    found: dict[str, PreviousEvent] = {}
    hosts: dict[str, set[str]] = {}
    raw: dict[str, str] = {}
    for f in files:
        if not f.is_file():
            continue
        try:
            data = read_calendar(f)
        except LimitError as exc:  # too large, not a regular file (docs/limits.md)
            raise PreviousError(f"{f}: {exc}") from None
        except OSError as exc:
            raise _unreadable(f, exc) from None
        for uid, block in _raw_events(data).items():
            raw.setdefault(uid, block)
        for cal in _read_calendars(f, data):
            for ev in cal.walk("VEVENT"):
                if ev.get("DTSTART") is None:
                    continue
                uid = str(ev.get("UID", ""))
                if ev.get("RECURRENCE-ID") is not None:
                    continue  # an overridden night: its series is the event
                start = ev.decoded("DTSTART")
                day = start.date() if isinstance(start, dt.datetime) else start
                end = ev.decoded("DTEND") if ev.get("DTEND") is not None else None
                found.setdefault(uid, PreviousEvent(
                    uid, day, int(ev.get("SEQUENCE", 0)), str(ev.get("SUMMARY", "")), (),
                    str(ev.get("STATUS", "")).upper() == "CANCELLED", start, end,
                    str(ev.get(TOURNAMENT_PROPERTY, "")),
                    str(ev.get(DEADLINE_PROPERTY, "")),
                    _text(ev["RRULE"].to_ical()) if ev.get("RRULE") is not None else "",
                    str(ev.get(KIND_PROPERTY, "")).strip().lower(),
                    str(ev.get("DESCRIPTION", "")),
                    play=str(ev.get(PLAY_PROPERTY, ""))))
                owner = str(cal.get(OPERATOR_PROPERTY, ""))
                if owner or f.parent.name == "calendars":
                    hosts.setdefault(uid, set()).add(owner or f.stem)
                elif not p.is_dir():  # a single file: whom the event itself names
                    hosts.setdefault(uid, set()).update(_event_operators(uid, ev))
    return [replace(e, operators=tuple(sorted(hosts.get(e.uid, ()))),
                    fingerprint=fingerprint(raw[e.uid]) if e.uid in raw else "",
                    text=raw.get(e.uid, "") if past_before is not None
                    and e.day < past_before else "")
            for _, e in sorted(found.items())]


def _text(value: object) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def previous_dtstamp(path: str | Path) -> dt.datetime | None:
    """The DTSTAMP of the previous plan's calendar (its folder's calendar.ics, or the .ics
    given), so that a re-plan's events can be stamped later (RFC 5545 §3.8.7.2). Raises
    :class:`PreviousError` when the calendar cannot be read."""
    p = Path(path)
    ics = p / "calendar.ics" if p.is_dir() else p
    if ics.suffix.lower() != ".ics" or not ics.is_file():
        return None
    try:
        stamps = [ev.decoded("DTSTAMP") for cal in _read_calendars(ics)
                  for ev in cal.walk("VEVENT") if ev.get("DTSTAMP") is not None]
    except PreviousError:
        raise
    except Exception as exc:  # icalendar raises ValueError, KeyError, IndexError, ...
        raise _unreadable(ics, exc) from None
    return max(stamps, default=None)


def _unescape(text: str) -> str:
    """A TEXT value as written (RFC 5545 §3.3.11), unescaped; a line break read as a space
    (names are one line)."""
    return re.sub(r"\\(.)", lambda m: " " if m.group(1) in "nN" else m.group(1), text)


def _named(cal: object) -> dict[str, str]:
    """The operators a calendar names in X-TOURNEY-OPERATOR-NAME (``<id> <name>``, one per
    operator): id -> name; {} in calendars of earlier versions."""
    value = cal.get(OPERATOR_NAME_PROPERTY)  # type: ignore[attr-defined]
    values = value if isinstance(value, list) else [] if value is None else [value]
    out: dict[str, str] = {}
    for v in values:
        oid, _, name = _unescape(_text(v.to_ical() if hasattr(v, "to_ical") else v)
                                 ).strip().partition(" ")
        if oid and name.strip():
            out.setdefault(oid, name.strip())
    return out


def previous_operators(path: str | Path, previous: list[PublishedOccurrence]
                       ) -> dict[str, str | None]:
    """The operators a previous plan is of: operator id -> name (None when the plan does not
    say it). Ids from its occurrences (``previous``) and calendars; names from the calendars'
    X-TOURNEY-OPERATOR-NAME properties (``calendar.ics`` and the per-operator calendars
    alike), else from the calendar names of its per-operator calendars (``<scenario name> —
    <operator name>``; calendars of earlier versions). Raises :class:`PreviousError`
    naming the file when one of its calendars cannot be read."""
    def calname(cal: object) -> str:
        # NAME (RFC 7986) else X-WR-CALNAME, which icalendar leaves TEXT-escaped
        text = str(cal.get("NAME") or cal.get("X-WR-CALNAME") or "")  # type: ignore[attr-defined]
        return re.sub(r"\\([\\,;])", r"\1", text).replace("\\n", " ").replace("\\N", " ")

    p = Path(path)
    out: dict[str, str | None] = {o: None for a in previous for o in a.operators}
    # a schedule.csv names no operator names: only a calendar file is read as one
    files = (sorted((p / "calendars").glob("*.ics")) if p.is_dir()
             else [p] if p.suffix.lower() == ".ics" else [])
    whole = ""
    named: dict[str, str] = {}
    if p.is_dir() and (p / "calendar.ics").is_file():
        # a calendar that cannot be read is an error naming it (PreviousError), never
        # skipped: the operators it names decide whose plan this is
        cal = _read_calendars(p / "calendar.ics")[0]
        whole = calname(cal)
        named.update(_named(cal))
    for f in files:
        cal = _read_calendars(f)[0]
        for oid, name in _named(cal).items():
            named.setdefault(oid, name)
        oid = str(cal.get(OPERATOR_PROPERTY, "")) or (f.stem if p.is_dir() else "")
        if not oid:
            continue
        name = calname(cal)
        prefix = f"{whole} — "
        out[oid] = (name[len(prefix):] if whole and name.startswith(prefix)
                    else name.rpartition(" — ")[2] or None)
    out.update(named)  # what the calendars name outright wins over a calendar name's tail
    return out


def _play(ev: object) -> str:
    """An event's play time as ``start|end`` (ISO 8601): DTSTART/DTEND of a timed event, the
    X-TOURNEY-PLAY property (``start/end``) of an all-day Montana one; "" when unknown."""
    start = ev.get("DTSTART")  # type: ignore[attr-defined]
    end = ev.get("DTEND")  # type: ignore[attr-defined]
    if (start is not None and end is not None and isinstance(start.dt, dt.datetime)
            and isinstance(end.dt, dt.datetime) and start.dt.tzinfo is not None):
        return f"{start.dt.isoformat()}|{end.dt.isoformat()}"
    play = str(ev.get(PLAY_PROPERTY, ""))  # type: ignore[attr-defined]
    return play.replace("/", "|") if "/" in play else ""


def _expand(cal: Any, budget: list[int] | None = None,
            notes: list[str] | None = None) -> list[Any]:
    """The events of ``cal`` with recurring ones expanded, within the limits of
    :func:`scheduler.core.calendar_limits.expand_events` (years 1900-2199, at most 5,000 instances
    of one
    event: an hourly RRULE cannot make millions); a line for each event cut is added to
    ``notes``."""
    events, cut = expand_events(cal, dt.date(FIRST_YEAR, 1, 1), dt.date(LAST_YEAR, 12, 31),
                                budget=budget)
    if notes is not None:
        notes += cut
    return events


def from_ics(path: Path, notes: list[str] | None = None) -> list[PublishedOccurrence]:
    try:
        cals = _read_calendars(path)
        masters = {str(ev.get("UID", "")) for cal in cals for ev in cal.walk("VEVENT")
                   if ev.get("RRULE") or ev.get("RDATE")}
        budget = [max_calendar_events()]
        cut: list[str] = []
        events = [ev for cal in cals for ev in _expand(cal, budget, cut)]
        if notes is not None:
            notes += [f"{path}: {line}" for line in cut]
    except PreviousError:
        raise
    except LimitError as exc:
        raise PreviousError(f"{path}: {exc}") from None
    except Exception as exc:  # recurring_ical_events raises on a broken RRULE, ...
        raise _unreadable(path, exc) from None
    out: dict[tuple[str, str], PublishedOccurrence] = {}
    for ev in events:
        uid = str(ev.get("UID", ""))
        if ev.get(DEADLINE_PROPERTY) or is_deadline(uid):
            continue
        cancelled = str(ev.get("STATUS", "")).upper() == "CANCELLED"
        parsed = parse_uid(uid)
        if (parsed is not None and parsed.session) or \
                str(ev.get(SESSION_PROPERTY, "")).strip() not in ("", "1"):
            continue  # a later session of an occurrence (flights): its first stands for it
        tid = str(ev.get(TOURNAMENT_PROPERTY, "")) or (
            parsed.tournament_id if parsed and parsed.tournament_id else "")
        start = ev.get("DTSTART")
        if not tid or start is None:
            continue
        day = start.dt.date() if isinstance(start.dt, dt.datetime) else start.dt
        seq = int(ev.get("SEQUENCE", 0))
        ops = _event_operators(uid, ev)
        title = str(ev.get("SUMMARY", ""))
        if uid in masters and not cancelled:
            # a night of a weekly series: the series UID and the night's RECURRENCE-ID, as
            # schedule.csv gives it (uid, recurrence_id)
            out.setdefault((uid, day.isoformat()), PublishedOccurrence(
                tid, day, uid, seq, operators=ops, title=title, night=True))
        else:
            out.setdefault((uid, ""), PublishedOccurrence(tid, day, uid, seq, cancelled, ops, title,
                                                _play(ev)))
    return sorted(out.values(), key=lambda a: (a.tournament_id, a.first_day, a.uid))
