"""Re-planning without chaos: keep what was announced, move as little as possible.

``tourney solve SCENARIO --previous OLD`` (a plan directory or its ``calendar.ics``):

- an occurrence that was announced keeps its UID (RFC 5545 §3.8.4.7); when it moves, its
  SEQUENCE goes up by one (§3.8.7.4) and DTSTAMP is new;
- an occurrence whose filing deadline has passed (MT notice due, ME application due, or the
  first day itself for unlicensed events, before ``notice_from``) or whose tournament is
  ``locked`` is pinned to its day;
- the others move as little as possible: after the lexicographic objective of a plan
  (placed, fees, preferred weekdays), fewest moved occurrences, then fewest days moved;
- an announced occurrence that is no longer in the plan is published as STATUS:CANCELLED
  with its UID, so subscribers' calendars drop it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd
from icalendar import Calendar

from scheduler.limits import (
    FIRST_YEAR,
    LAST_YEAR,
    LimitError,
    expand_events,
    max_calendar_events,
    read_calendar,
    regular_file_problem,
)
from scheduler.scenario import Scenario, Tournament
from scheduler.text import uncell
from scheduler.timing import application_ok, notice_ok
from scheduler.uid import (
    OPERATOR_NAME_PROPERTY,
    inherited_lineage,
    is_deadline,
    lineage_key,
    occurrence_uid,
)
from scheduler.uid import parse as parse_uid


class PreviousError(ValueError):
    """The previous plan cannot be read (names the file and what is wrong)."""


def _unreadable(path: Path, why: object) -> PreviousError:
    return PreviousError(f"{path}: not a readable iCalendar file ({why})")


def _read_calendars(path: Path) -> list[Calendar]:
    """Every VCALENDAR of the file ``path``. Raises :class:`PreviousError` when it cannot be
    read, is not iCalendar, or holds no complete VCALENDAR (empty, or cut short)."""
    try:
        cals = Calendar.from_ical(read_calendar(path), multiple=True)
    except LimitError as exc:  # too large, not a regular file (docs/limits.md)
        raise PreviousError(f"{path}: {exc}") from None
    except Exception as exc:  # OSError; icalendar raises ValueError, KeyError, IndexError, ...
        raise _unreadable(path, exc) from None
    if not cals:
        raise _unreadable(path, "no complete VCALENDAR: the file is empty or cut short")
    return list(cals)


@dataclass(frozen=True)
class Announced:
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
                out.append(PreviousSeries(uid, str(ev.get("X-TOURNEY-TOURNAMENT", "")),
                                          tuple(nights), int(ev.get("SEQUENCE", 0)), ops,
                                          str(ev.get("SUMMARY", "")),
                                          str(ev.get("X-TOURNEY-PLAY", ""))))
    except PreviousError:
        raise
    except Exception as exc:  # icalendar raises ValueError, KeyError, IndexError, ...
        raise _unreadable(ics, exc) from None
    return out


def series_tournament(s: PreviousSeries) -> str:
    """The tournament of a previous series: X-TOURNEY-TOURNAMENT, else what its UID names
    (a series of an earlier version)."""
    p = parse_uid(s.uid)
    return s.tournament_id or (p.tournament_id if p is not None and p.tournament_id else "")


def series_history(scenario: Scenario, s: PreviousSeries) -> bool:
    """A previous series whose nights are all before the new horizon (last year's): history,
    neither inherited nor cancelled, its UID never given to a new series."""
    return not s.nights or s.nights[-1] < scenario.horizon.start


def series_uids(scenario: Scenario, wanted: list[tuple[str, str, list[dt.date]]],
                previous: list[PreviousSeries], events: list[PreviousEvent]) -> list[str]:
    """The UID of each new weekly series, ``wanted``: (its fresh UID,
    :func:`scheduler.uid.series_uid`; tournament id; nights). A series inherits the UID of a
    previous live series of the same tournament on the same weekday that is not history
    (:func:`series_history`), whatever that UID's form (another weekday label, another UID
    domain, an earlier version's UID): announced nights keep their identity, and a change
    of its nights raises its SEQUENCE. When several could, the one with the fresh UID, then
    the most nights in common, then the smallest UID. Otherwise it gets its fresh UID, or,
    when that UID is held by any previous event (last year's series, another live series) but
    a cancelled series of this horizon (which it revives), the fresh UID with ``-2``,
    ``-3``, ... after ``.series``."""
    live = [p for p in previous if not series_history(scenario, p)]
    claimed: set[str] = set()
    revivable = {e.uid for e in events
                 if e.cancelled and e.rrule and e.last_day >= scenario.horizon.start}
    taken = ({e.uid for e in events} | {p.uid for p in previous}) - revivable
    out = []
    for fresh, tid, nights in wanted:
        wd = nights[0].weekday()
        cands = [p for p in live if p.uid not in claimed and series_tournament(p) == tid
                 and p.nights[0].weekday() == wd]
        if cands:
            best = min(cands, key=lambda p: (p.uid != fresh, -len(set(p.nights) & set(nights)),
                                             p.uid))
            uid = best.uid
        else:
            uid, n = fresh, 1
            local, _, rhs = fresh.partition("@")
            while uid in taken or uid in claimed:
                n += 1
                uid = f"{local}-{n}@{rhs}"
        claimed.add(uid)
        out.append(uid)
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
    text = str(ev.get("X-TOURNEY-OPERATORS", ""))  # type: ignore[attr-defined]
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


def previous_events(path: str | Path) -> list[PreviousEvent]:
    """Every VEVENT of the previous plan's calendars (``cancelled`` when it was published as
    STATUS:CANCELLED), with the operators whose calendar (``calendars/<operator_id>.ics``)
    showed it. Raises :class:`PreviousError` when a calendar cannot be read (an unreadable
    calendar must not pass for one that published nothing: nothing would be cancelled)."""
    p = Path(path)
    files = ([p / "calendar.ics", *sorted((p / "calendars").glob("*.ics"))] if p.is_dir()
             else [p] if p.suffix.lower() == ".ics" else [])
    found: dict[str, PreviousEvent] = {}
    hosts: dict[str, set[str]] = {}
    for f in files:
        if not f.is_file():
            continue
        for cal in _read_calendars(f):
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
                    str(ev.get("X-TOURNEY-TOURNAMENT", "")),
                    str(ev.get("X-TOURNEY-DEADLINE", "")),
                    _text(ev["RRULE"].to_ical()) if ev.get("RRULE") is not None else "",
                    str(ev.get("X-TOURNEY-KIND", "")).strip().lower(),
                    str(ev.get("DESCRIPTION", ""))))
                owner = str(cal.get("X-TOURNEY-OPERATOR", ""))
                if owner or f.parent.name == "calendars":
                    hosts.setdefault(uid, set()).add(owner or f.stem)
                elif not p.is_dir():  # a single file: whom the event itself names
                    hosts.setdefault(uid, set()).update(_event_operators(uid, ev))
    return [replace(e, operators=tuple(sorted(hosts.get(e.uid, ()))))
            for _, e in sorted(found.items())]


def licence_deadline_uids(events: list[PreviousEvent]) -> dict[str, str]:
    """The UIDs of the previous calendars' live Maine licence deadlines by their local part
    (``application-due-<licence id>``, ...): a re-plan keeps them, whatever UID domain or
    form (an earlier version's) they were announced with."""
    out: dict[str, str] = {}
    for e in events:
        p = parse_uid(e.uid)
        if e.cancelled or p is None or p.licence_id is None:
            continue
        out.setdefault(e.uid.rpartition("@")[0] or e.uid, e.uid)
    return out


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


def holds_plan(folder: str | Path) -> bool:
    """Whether ``folder`` holds a plan written by ``tourney solve`` (its calendar.ics or
    schedule.csv)."""
    p = Path(folder)
    return p.is_dir() and ((p / "calendar.ics").is_file() or (p / "schedule.csv").is_file())


class Previous(list[Announced]):
    """A previous plan as :func:`read_previous` reads it: its occurrences (this list of
    :class:`Announced`), and what its calendars published, which a re-plan's calendars must
    update or cancel: ``series`` (weekly series, :func:`previous_series`), ``events`` (every
    event, :func:`previous_events`) and ``dtstamp`` (the latest DTSTAMP,
    :func:`previous_dtstamp`; the re-plan's calendars are stamped later); ``foreign``: the
    ids of the previous plan's operators that are not in the scenario (their occurrences and
    events are left out: neither kept nor cancelled); ``notes``: a line for each recurring
    event of its calendar cut at a limit of :func:`scheduler.limits.expand_events` (e.g. an
    hourly series: only its first 5,000 instances were read), for a warning.

    ``scheduler.solver.solve(..., previous=...)`` copies these onto every plan it returns, so
    the calendars a Python caller writes are those ``tourney solve --previous`` writes. A
    plain list of :class:`Announced` re-plans the same but publishes no cancellation of
    events it does not know."""

    def __init__(self, announced: Iterable[Announced] = (), *,
                 series: Iterable[PreviousSeries] = (), events: Iterable[PreviousEvent] = (),
                 dtstamp: dt.datetime | None = None, foreign: Iterable[str] = (),
                 notes: Iterable[str] = ()) -> None:
        super().__init__(announced)
        self.notes = list(notes)  # recurring events cut at a limit (docs/limits.md)
        self.series = list(series)
        self.events = list(events)
        self.dtstamp = dtstamp
        self.foreign = list(foreign)


def read_previous(scenario: Scenario, path: str | Path) -> Previous:
    """The occurrences of a previous plan: ``schedule.csv`` of a plan directory (or the file
    itself), or an ``.ics`` calendar (events with X-TOURNEY-TOURNAMENT or a product UID).
    Occurrences of tournaments no longer in the scenario are kept (they will be cancelled).
    With them, what its calendars published (:class:`Previous`), of the scenario's operators
    only (:func:`own_previous`). Raises :class:`PreviousError`, also when one of its calendars
    cannot be read, or when the plan is of other operators than the scenario's."""
    notes: list[str] = []
    announced, foreign = own_previous(scenario, path,
                                      _announced(scenario, Path(path), notes))
    ids = {o.id for o in scenario.operators}

    def ours(operators: tuple[str, ...]) -> bool:
        # an event of operators none of which is in the scenario is left alone
        return not operators or bool(set(operators) & ids)

    return Previous(announced, series=[s for s in previous_series(path) if ours(s.operators)],
                    events=[e for e in previous_events(path) if ours(e.operators)],
                    dtstamp=previous_dtstamp(path), foreign=foreign, notes=notes)


def _announced(scenario: Scenario, p: Path, notes: list[str] | None = None
               ) -> list[Announced]:
    if p.is_dir():
        ics = p / "calendar.ics"
        earlier = [a for a in _from_ics(ics, notes) if a.cancelled] if ics.is_file() else []
        return sorted([*_announced(scenario, p / "schedule.csv"), *earlier],
                      key=lambda a: (a.tournament_id, a.first_day, a.uid))
    problem = regular_file_problem(p)  # missing, a device or FIFO (would block), too large
    if problem:
        raise PreviousError(f"{p}: {problem.removeprefix('cannot read the file: ')} (give "
                            "the previous plan's folder, its schedule.csv or its calendar.ics)")
    if p.suffix.lower() == ".ics":
        return _from_ics(p, notes)
    what = (f"{p}: not a plan folder, a schedule.csv or an .ics calendar (give the previous "
            "plan's folder, its schedule.csv or its calendar.ics)")
    try:
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        raise PreviousError(f"{what}; it cannot be read as CSV: {first}" if p.suffix.lower()
                            == ".csv" else what) from None
    missing = {"tournament_id", "first_day", "uid"} - set(df.columns)
    if missing:
        raise PreviousError(f"{p}: missing column(s) {', '.join(sorted(missing))}"
                            if p.suffix.lower() == ".csv" else what)
    out: dict[tuple[str, str], Announced] = {}
    hosts: dict[tuple[str, str], list[str]] = {}
    for i, r in df.iterrows():
        rid = str(r.get("recurrence_id", "") or "")
        key = (r["uid"], rid)
        try:
            seq = int(r["sequence"]) if r.get("sequence", "") else 0
            day = dt.date.fromisoformat(rid or r["first_day"])
            out.setdefault(key, Announced(
                r["tournament_id"], day, r["uid"], seq,
                title=uncell(r.get("title", "")),
                span=f"{r['start']}|{r['end']}" if r.get("start") and r.get("end") else "",
                night=bool(rid)))
        except ValueError as exc:
            raise PreviousError(f"{p}:{int(str(i)) + 2}: {exc}") from None
        if r.get("operator_id"):
            hosts.setdefault(key, []).append(r["operator_id"])
    found = [replace(a, operators=tuple(hosts.get(k, ()))) for k, a in out.items()]
    return sorted(found, key=lambda a: (a.tournament_id, a.first_day, a.uid))


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


def previous_operators(path: str | Path, previous: list[Announced]) -> dict[str, str | None]:
    """The operators a previous plan is of: operator id -> name (None when the plan does not
    say it). Ids from its occurrences (``previous``) and calendars; names from the calendars'
    X-TOURNEY-OPERATOR-NAME properties (``calendar.ics`` and the per-operator calendars
    alike), else from the calendar names of its per-operator calendars (``<scenario name> —
    <operator name>``; calendars of earlier versions)."""
    def calname(cal: object) -> str:
        # NAME (RFC 7986) else X-WR-CALNAME, which icalendar leaves TEXT-escaped
        text = str(cal.get("NAME") or cal.get("X-WR-CALNAME") or "")  # type: ignore[attr-defined]
        return re.sub(r"\\([\\,;])", r"\1", text).replace("\\n", " ").replace("\\N", " ")

    p = Path(path)
    out: dict[str, str | None] = {o: None for a in previous for o in a.operators}
    files = sorted((p / "calendars").glob("*.ics")) if p.is_dir() else [p]
    whole = ""
    named: dict[str, str] = {}
    if p.is_dir() and (p / "calendar.ics").is_file():
        try:
            cal = Calendar.from_ical(read_calendar(p / "calendar.ics"))
            whole = calname(cal)
            named.update(_named(cal))
        except Exception:
            whole = ""
    for f in files:
        try:
            cal = Calendar.from_ical(read_calendar(f))
        except Exception:
            continue
        for oid, name in _named(cal).items():
            named.setdefault(oid, name)
        oid = str(cal.get("X-TOURNEY-OPERATOR", "")) or (f.stem if p.is_dir() else "")
        if not oid:
            continue
        name = calname(cal)
        prefix = f"{whole} — "
        out[oid] = (name[len(prefix):] if whole and name.startswith(prefix)
                    else name.rpartition(" — ")[2] or None)
    out.update(named)  # what the calendars name outright wins over a calendar name's tail
    return out


def own_previous(scenario: Scenario, path: str | Path, previous: list[Announced]
                 ) -> tuple[list[Announced], list[str]]:
    """The previous plan's occurrences a re-plan of ``scenario`` manages, and the ids of the
    previous plan's operators that are not in the scenario (their events are left alone:
    neither kept nor cancelled). Raises :class:`PreviousError` when the previous plan has no
    operator in common with the scenario (the same id, and the same name where the plan
    names it): another organization's plan, whose lineage a re-plan would take over and
    whose events it would cancel."""
    theirs = previous_operators(path, previous)
    if not theirs:
        return previous, []
    mine = {o.id: o.name for o in scenario.operators}
    common = [o for o, name in theirs.items() if o in mine
              and (name is None or name.strip().casefold() == mine[o].strip().casefold())]
    if not common:
        def show(ops: dict[str, str | None]) -> str:
            return ", ".join(f"{o} ({n})" if n else o for o, n in sorted(ops.items()))

        raise PreviousError(
            f"{path} is a plan of other operators ({show(theirs)}) than this scenario's "
            f"({show(dict(mine))}): not an earlier plan of this organization, so it cannot "
            f"be re-planned from (that would take over its calendar identity and cancel its "
            f"events). Give the previous plan of this scenario's organization, or none (if "
            f"the operators were only renamed, re-plan with their earlier names first). Nothing "
            f"was written")
    gone = sorted(o for o in theirs if o not in mine)
    kept = [a for a in previous if not a.operators or set(a.operators) & mine.keys()]
    return kept, gone


def _play(ev: object) -> str:
    """An event's play time as ``start|end`` (ISO 8601): DTSTART/DTEND of a timed event, the
    X-TOURNEY-PLAY property (``start/end``) of an all-day Montana one; "" when unknown."""
    start = ev.get("DTSTART")  # type: ignore[attr-defined]
    end = ev.get("DTEND")  # type: ignore[attr-defined]
    if (start is not None and end is not None and isinstance(start.dt, dt.datetime)
            and isinstance(end.dt, dt.datetime) and start.dt.tzinfo is not None):
        return f"{start.dt.isoformat()}|{end.dt.isoformat()}"
    play = str(ev.get("X-TOURNEY-PLAY", ""))  # type: ignore[attr-defined]
    return play.replace("/", "|") if "/" in play else ""


def _expand(cal: Any, budget: list[int] | None = None,
            notes: list[str] | None = None) -> list[Any]:
    """The events of ``cal`` with recurring ones expanded, within the limits of
    :func:`scheduler.limits.expand_events` (years 1900-2199, at most 5,000 instances of one
    event: an hourly RRULE cannot make millions); a line for each event cut is added to
    ``notes``."""
    events, cut = expand_events(cal, dt.date(FIRST_YEAR, 1, 1), dt.date(LAST_YEAR, 12, 31),
                                budget=budget)
    if notes is not None:
        notes += cut
    return events


def _from_ics(path: Path, notes: list[str] | None = None) -> list[Announced]:
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
    out: dict[tuple[str, str], Announced] = {}
    for ev in events:
        uid = str(ev.get("UID", ""))
        if ev.get("X-TOURNEY-DEADLINE") or is_deadline(uid):
            continue
        cancelled = str(ev.get("STATUS", "")).upper() == "CANCELLED"
        parsed = parse_uid(uid)
        tid = str(ev.get("X-TOURNEY-TOURNAMENT", "")) or (
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
            out.setdefault((uid, day.isoformat()), Announced(
                tid, day, uid, seq, operators=ops, title=title, night=True))
        else:
            out.setdefault((uid, ""), Announced(tid, day, uid, seq, cancelled, ops, title,
                                                _play(ev)))
    return sorted(out.values(), key=lambda a: (a.tournament_id, a.first_day, a.uid))


def deadline_passed(scenario: Scenario, t: Tournament, first_day: dt.date) -> bool:
    """Whether the occurrence's filing deadline is before ``notice_from`` (so it is fixed):
    MT large-stakes notice (MT-NOTICE), ME licence application (ME-APPLICATION-WINDOW), else
    the first day itself."""
    if t.is_large:
        return not notice_ok(first_day, scenario.notice_from)
    if t.is_me_licensed_game:
        return not application_ok(first_day, scenario.notice_from)
    return first_day < scenario.notice_from


def pinned(scenario: Scenario, previous: list[Announced]) -> dict[str, list[dt.date]]:
    """Per tournament, the previous first days that stay where they are."""
    out: dict[str, list[dt.date]] = {}
    known = {t.id: t for t in scenario.tournaments}
    for a in previous:
        t = known.get(a.tournament_id)
        if t is None or a.first_day not in scenario.horizon:
            continue
        if t.locked or deadline_passed(scenario, t, a.first_day):
            out.setdefault(t.id, []).append(a.first_day)
    return {k: sorted(set(v)) for k, v in out.items()}


def with_pins(scenario: Scenario, previous: list[Announced]) -> Scenario:
    """The scenario with every pinned previous occurrence added to its ``fixed_dates``, and
    those past their filing deadline to its ``filed_dates`` (the notice or application was
    filed for them)."""
    pins = pinned(scenario, [a for a in previous if not a.cancelled])
    if not pins:
        return scenario
    ts = []
    for t in scenario.tournaments:
        extra = [d for d in pins.get(t.id, []) if d not in t.fixed_dates]
        filed = [d for d in pins.get(t.id, []) if deadline_passed(scenario, t, d)]
        n_fixed = len(set(t.fixed_dates) | set(extra))
        if isinstance(t.count, int) and n_fixed > t.count:
            raise PreviousError(
                f"{t.id}: {n_fixed} occurrences must stay where they are (their notice or "
                f"application is filed, or the tournament is locked, or fixed_dates) but "
                f"count is {t.count}; raise count to at least {n_fixed}")
        if extra or filed:
            t = t.model_copy(update={
                "fixed_dates": tuple(sorted((*t.fixed_dates, *extra))),
                "filed_dates": tuple(sorted({*t.filed_dates, *filed}))})
        ts.append(t)
    return scenario.model_copy(update={"tournaments": tuple(ts)})


@dataclass(frozen=True)
class Identity:
    """The UID and SEQUENCE a new occurrence gets."""

    uid: str
    sequence: int


def _same_span(a: str, b: str) -> bool:
    """Whether two ``start|end`` spans (ISO 8601 with UTC offsets) are the same instants,
    whatever offsets they are written in; unreadable ones count as the same."""
    try:
        a0, _, a1 = a.partition("|")
        b0, _, b1 = b.partition("|")
        return (dt.datetime.fromisoformat(a0) == dt.datetime.fromisoformat(b0)
                and dt.datetime.fromisoformat(a1) == dt.datetime.fromisoformat(b1))
    except (ValueError, TypeError):
        return True


def assign(scenario: Scenario, previous: list[Announced],
           new_days: dict[str, list[dt.date]],
           spans: dict[tuple[str, dt.date], str] | None = None,
           lineage: str | None = None,
           ) -> tuple[dict[tuple[str, dt.date], Identity], list[Cancelled]]:
    """Match new occurrences to announced ones, per tournament: same day → same UID and
    SEQUENCE (+ 1 when its times changed, ``spans``: ``start|end`` ISO 8601); the remaining
    ones pair up in date order → same UID, SEQUENCE + 1 (moved); new ones get fresh UIDs
    (``scheduler.uid.occurrence_uid`` in ``lineage``, default the previous plan's or the
    scenario's, numbered above every number the previous plan used; in a lineage inherited
    from the previous plan they name this horizon's start, ``<tournament>.<YYYYMMDD>-<n>``,
    so that a re-plan of this year never gives a UID that next year's plan, made from the
    same previous plan, gave); announced ones left over are cancelled (SEQUENCE + 1).

    A night of a weekly series (``Announced.night``) has no UID of its own: its series is
    updated or cancelled by the calendar writer; a night on the same day gets a fresh
    occurrence UID, which shows only if it stops being part of a series."""
    inherited = inherited_lineage(a.uid for a in previous)
    if lineage is None:
        lineage = inherited or lineage_key(scenario)
    # a lineage inherited from a previous plan may hold plans of other horizons (next year's
    # made from this year's numbers its new occurrences on from the same previous plan): a
    # new occurrence's UID names this horizon, so that it is no other plan's of the lineage
    since = scenario.horizon.start if inherited is not None and lineage == inherited else None
    ids: dict[tuple[str, dt.date], Identity] = {}
    cancelled: list[Cancelled] = []
    by_t: dict[str, list[Announced]] = {}
    taken = {a.uid for a in previous}  # cancelled ones too: a UID is never reused
    for a in previous:
        # occurrences outside the new horizon (held already, or beyond it) are left alone
        if not a.cancelled and a.first_day in scenario.horizon:
            by_t.setdefault(a.tournament_id, []).append(a)
    known = {t.id: t for t in scenario.tournaments}
    for tid in sorted(set(by_t) | set(new_days)):
        old = sorted(by_t.get(tid, []), key=lambda a: (a.first_day, a.uid))
        new = sorted(new_days.get(tid, []))
        kept = {a.first_day: a for a in old if a.first_day in new and not a.night}
        for d, a in kept.items():
            changed = bool(spans and a.span and (tid, d) in spans
                           and not _same_span(spans[(tid, d)], a.span))
            ids[(tid, d)] = Identity(a.uid, a.sequence + changed)
        nights = {a.first_day for a in old if a.night}
        rest_old = [a for a in old if a.first_day not in kept and not a.night]
        rest_new = [d for d in new if d not in kept]
        # pair each moving occurrence with the nearest new day (greedy on the distance); a
        # night that stays on its day stays in its series' place
        by_uid = {a.uid: a for a in rest_old}
        paired: set[dt.date] = set()
        taken_old: set[str] = set()
        for _, _, uid, d in sorted((abs((d - a.first_day).days), a.first_day, a.uid, d)
                                   for a in rest_old for d in rest_new if d not in nights):
            if uid in taken_old or d in paired:
                continue
            paired.add(d)
            taken_old.add(uid)
            ids[(tid, d)] = Identity(uid, by_uid[uid].sequence + 1)
        rest_old = [a for a in rest_old if a.uid not in taken_old]
        rest_new = [d for d in rest_new if d not in paired]
        used = [p.occurrence for u in taken if (p := parse_uid(u)) is not None
                and p.kind == "occurrence" and p.tournament_id == tid
                and p.occurrence is not None]
        nxt = max(used, default=0) + 1
        t = known.get(tid)
        host = t.operators[0] if t else "tourney"
        for d in rest_new:
            uid = occurrence_uid(scenario, tid, nxt, host, lineage, since)
            while uid in taken:
                nxt += 1
                uid = occurrence_uid(scenario, tid, nxt, host, lineage, since)
            ids[(tid, d)] = Identity(uid, 0)
            taken.add(uid)
            nxt += 1
        for a in rest_old:
            cancelled.append(Cancelled(tid, a.first_day, a.uid, a.sequence + 1,
                                       t.operators if t else a.operators,
                                       t.title if t else (a.title or tid), a.span))
    return ids, cancelled
