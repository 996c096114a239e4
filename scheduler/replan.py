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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from scheduler.scenario import Scenario, Tournament
from scheduler.timing import application_ok, notice_ok
from scheduler.uid import inherited_lineage, is_deadline, lineage_key, occurrence_uid
from scheduler.uid import parse as parse_uid

if TYPE_CHECKING:
    from scheduler.plan import Plan


class PreviousError(ValueError):
    """The previous plan cannot be read (names the file and what is wrong)."""


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
    """The weekly series (RRULE events) of the previous plan's calendar, expanded."""
    import recurring_ical_events
    from icalendar import Calendar

    p = Path(path)
    ics = p / "calendar.ics" if p.is_dir() else p
    if ics.suffix.lower() != ".ics" or not ics.is_file():
        return []
    out = []
    try:
        for cal in Calendar.from_ical(ics.read_bytes(), multiple=True):
            masters = [ev for ev in cal.walk("VEVENT") if ev.get("RRULE")
                       and str(ev.get("STATUS", "")).upper() != "CANCELLED"]
            for ev in masters:
                uid = str(ev["UID"])
                one = Calendar()
                one.add_component(ev)
                nights = sorted({(x.decoded("DTSTART") if not isinstance(
                    x.decoded("DTSTART"), dt.datetime) else x.decoded("DTSTART").date())
                    for x in recurring_ical_events.of(one).between((1900, 1, 1),
                                                                   (2200, 1, 1))})
                parsed = parse_uid(uid)
                host = parsed.host if parsed and parsed.host else ""
                ops = _operators_of(ev) or ((host,) if host else ())
                out.append(PreviousSeries(uid, str(ev.get("X-TOURNEY-TOURNAMENT", "")),
                                          tuple(nights), int(ev.get("SEQUENCE", 0)), ops,
                                          str(ev.get("SUMMARY", "")),
                                          str(ev.get("X-TOURNEY-PLAY", ""))))
    except Exception:
        return []
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
    showed it."""
    from icalendar import Calendar

    p = Path(path)
    files = ([p / "calendar.ics", *sorted((p / "calendars").glob("*.ics"))] if p.is_dir()
             else [p])
    found: dict[str, PreviousEvent] = {}
    hosts: dict[str, set[str]] = {}
    for f in files:
        if not f.is_file():
            continue
        try:
            cals = Calendar.from_ical(f.read_bytes(), multiple=True)
        except Exception:
            continue
        for cal in cals:
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
    given), so that a re-plan's events can be stamped later (RFC 5545 §3.8.7.2)."""
    from icalendar import Calendar

    p = Path(path)
    ics = p / "calendar.ics" if p.is_dir() else p
    if ics.suffix.lower() != ".ics" or not ics.is_file():
        return None
    try:
        stamps = [ev.decoded("DTSTAMP") for cal in Calendar.from_ical(ics.read_bytes(),
                                                                      multiple=True)
                  for ev in cal.walk("VEVENT") if ev.get("DTSTAMP") is not None]
    except Exception:
        return None
    return max(stamps, default=None)


def holds_plan(folder: str | Path) -> bool:
    """Whether ``folder`` holds a plan written by ``tourney solve`` (its calendar.ics or
    schedule.csv)."""
    p = Path(folder)
    return p.is_dir() and ((p / "calendar.ics").is_file() or (p / "schedule.csv").is_file())


def replaced_events(folder: str | Path, lineage: str
                    ) -> tuple[dict[str, tuple[int, str]], dt.datetime | None]:
    """The events of the plan in ``folder`` of plan lineage ``lineage`` (UID → SEQUENCE and
    content fingerprint, :func:`scheduler.export.ical.fingerprint`) and its DTSTAMP: what a
    new plan solved into the same folder without a re-plan must not contradict with the same
    SEQUENCE and DTSTAMP (RFC 5545 §3.8.7.4, RFC 5546 §2.1.4)."""
    from scheduler.export.ical import fingerprint
    from scheduler.uid import LINEAGE_PROPERTY

    ics = Path(folder) / "calendar.ics"
    try:
        text = ics.read_bytes().decode("utf-8").replace("\r\n", "\n")
    except (OSError, UnicodeDecodeError):
        return {}, None
    out: dict[str, tuple[int, str]] = {}
    import re

    for m in re.finditer(r"^BEGIN:VEVENT\n.*?^END:VEVENT\n", text, re.S | re.M):
        event = m.group(0)
        props: dict[str, str] = {}
        for line in event.replace("\n ", "").split("\n"):
            name, _, value = line.partition(":")
            props.setdefault(name.split(";", 1)[0].upper(), value)
        if props.get(LINEAGE_PROPERTY) != lineage or "UID" not in props:
            continue
        try:
            seq = int(props.get("SEQUENCE", "0"))
        except ValueError:
            seq = 0
        out[props["UID"]] = (seq, fingerprint(event))
    return out, previous_dtstamp(folder)


def read_previous(scenario: Scenario, path: str | Path) -> list[Announced]:
    """The occurrences of a previous plan: ``schedule.csv`` of a plan directory (or the file
    itself), or an ``.ics`` calendar (events with X-TOURNEY-TOURNAMENT or a product UID).
    Occurrences of tournaments no longer in the scenario are kept (they will be cancelled).
    Raises :class:`PreviousError`."""
    p = Path(path)
    if p.is_dir():
        ics = p / "calendar.ics"
        earlier = [a for a in _from_ics(ics) if a.cancelled] if ics.is_file() else []
        return sorted([*read_previous(scenario, p / "schedule.csv"), *earlier],
                      key=lambda a: (a.tournament_id, a.first_day, a.uid))
    if not p.is_file():
        raise PreviousError(f"{p}: no such file (give the previous plan's folder or its "
                            "calendar.ics)")
    if p.suffix.lower() == ".ics":
        return _from_ics(p)
    try:
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise PreviousError(f"{p}: not a readable CSV file ({exc})") from None
    missing = {"tournament_id", "first_day", "uid"} - set(df.columns)
    if missing:
        raise PreviousError(f"{p}: missing column(s) {', '.join(sorted(missing))}")
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
                title=r.get("title", ""),
                span=f"{r['start']}|{r['end']}" if r.get("start") and r.get("end") else "",
                night=bool(rid)))
        except ValueError as exc:
            raise PreviousError(f"{p}:{int(str(i)) + 2}: {exc}") from None
        if r.get("operator_id"):
            hosts.setdefault(key, []).append(r["operator_id"])
    found = [replace(a, operators=tuple(hosts.get(k, ()))) for k, a in out.items()]
    return sorted(found, key=lambda a: (a.tournament_id, a.first_day, a.uid))


def previous_operators(path: str | Path, previous: list[Announced]) -> dict[str, str | None]:
    """The operators a previous plan is of: operator id -> name (None when the plan does not
    say it). Ids from its occurrences (``previous``) and calendars; names from the calendar
    names of its per-operator calendars (``<scenario name> — <operator name>``)."""
    from icalendar import Calendar

    def calname(cal: object) -> str:
        # NAME (RFC 7986) else X-WR-CALNAME, which icalendar leaves TEXT-escaped
        text = str(cal.get("NAME") or cal.get("X-WR-CALNAME") or "")  # type: ignore[attr-defined]
        return re.sub(r"\\([\\,;])", r"\1", text).replace("\\n", " ").replace("\\N", " ")

    p = Path(path)
    out: dict[str, str | None] = {o: None for a in previous for o in a.operators}
    files = sorted((p / "calendars").glob("*.ics")) if p.is_dir() else [p]
    whole = ""
    if p.is_dir() and (p / "calendar.ics").is_file():
        try:
            whole = calname(Calendar.from_ical((p / "calendar.ics").read_bytes()))
        except Exception:
            whole = ""
    for f in files:
        try:
            cal = Calendar.from_ical(f.read_bytes())
        except Exception:
            continue
        oid = str(cal.get("X-TOURNEY-OPERATOR", "")) or (f.stem if p.is_dir() else "")
        if not oid:
            continue
        name = calname(cal)
        prefix = f"{whole} — "
        out[oid] = (name[len(prefix):] if whole and name.startswith(prefix)
                    else name.rpartition(" — ")[2] or None)
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


def _from_ics(path: Path) -> list[Announced]:
    import recurring_ical_events
    from icalendar import Calendar

    try:
        cals = Calendar.from_ical(path.read_bytes(), multiple=True)
        masters = {str(ev.get("UID", "")) for cal in cals for ev in cal.walk("VEVENT")
                   if ev.get("RRULE") or ev.get("RDATE")}
        events = [ev for cal in cals
                  for ev in recurring_ical_events.of(cal).between((1900, 1, 1), (2200, 1, 1))]
    except Exception as exc:
        raise PreviousError(f"{path}: not a readable iCalendar file ({exc})") from None
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
    scenario's); announced ones left over are cancelled (SEQUENCE + 1).

    A night of a weekly series (``Announced.night``) has no UID of its own: its series is
    updated or cancelled by the calendar writer; a night on the same day gets a fresh
    occurrence UID, which shows only if it stops being part of a series."""
    if lineage is None:
        lineage = inherited_lineage(a.uid for a in previous) or lineage_key(scenario)
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
            uid = occurrence_uid(scenario, tid, nxt, host, lineage)
            while uid in taken:
                nxt += 1
                uid = occurrence_uid(scenario, tid, nxt, host, lineage)
            ids[(tid, d)] = Identity(uid, 0)
            taken.add(uid)
            nxt += 1
        for a in rest_old:
            cancelled.append(Cancelled(tid, a.first_day, a.uid, a.sequence + 1,
                                       t.operators if t else a.operators,
                                       t.title if t else (a.title or tid), a.span))
    return ids, cancelled


def identify(plan: Plan, scenario: Scenario, previous: list[Announced] | None) -> Plan:
    """Give the rows of a freshly solved ``plan`` of ``scenario`` their UIDs and SEQUENCEs
    (in place; returns ``plan``): the plan lineage is the previous plan's (a re-plan keeps
    its UIDs, :func:`assign`) or the scenario's own (:func:`scheduler.uid.lineage_key`);
    without ``previous`` occurrence ``n`` of a tournament is UID
    ``<tournament>-<n>@<first operator>.<lineage>.<domain>``, SEQUENCE 0."""
    lineage = (inherited_lineage(a.uid for a in previous) if previous else None) \
        or lineage_key(scenario)
    plan.lineage = lineage
    known = {t.id: t for t in scenario.tournaments}
    if previous is None:
        plan.rows = [replace(r, uid=occurrence_uid(
            scenario, r.tournament_id, r.occurrence, known[r.tournament_id].operators[0],
            lineage), sequence=0) for r in plan.rows]
        return plan
    days: dict[str, list[dt.date]] = {}
    spans: dict[tuple[str, dt.date], str] = {}
    for r in plan.rows:
        if (r.tournament_id, r.first_day) not in spans:
            days.setdefault(r.tournament_id, []).append(r.first_day)
            spans[(r.tournament_id, r.first_day)] = f"{r.start.isoformat()}|{r.end.isoformat()}"
    ids, plan.cancelled = assign(scenario, previous, days, spans, lineage)
    plan.rows = [replace(r, uid=ids[(r.tournament_id, r.first_day)].uid,
                         sequence=ids[(r.tournament_id, r.first_day)].sequence)
                 for r in plan.rows]
    return plan
