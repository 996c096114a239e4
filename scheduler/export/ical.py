"""iCalendar (RFC 5545) feeds of a plan: one for the whole scenario, one per operator.

:func:`calendar_files` is a pure function of the plan and a DTSTAMP; it returns file names
mapped to bytes and writes nothing. This module puts the VEVENTs into the VCALENDARs; the
events are built by :mod:`scheduler.export.ical_events` (occurrences, cancellations),
:mod:`scheduler.export.ical_series` (weekly series, RRULE), :mod:`scheduler.export.ical_describe`
(descriptions, checklists, deadlines and their reminders) on :mod:`scheduler.export.ical_text`
(values, folding, serialization). What a re-plan cancels and which SEQUENCE each event gets
is decided below, by :mod:`scheduler.inputs.replan.cancel`; the writer renders it.

- UIDs are built in ``scheduler.core.uid`` (``<local>@<operator>.<lineage>.<domain>``); every
  VEVENT names the plan lineage in X-TOURNEY-LINEAGE (``tourney publish`` never overwrites
  another lineage's events), and every VCALENDAR its lineage, horizon (X-TOURNEY-HORIZON),
  per operator X-TOURNEY-OPERATOR, and the operators it shows by id and name
  (X-TOURNEY-OPERATOR-NAME, one each).
- Occurrences, series and cancellations carry X-TOURNEY-OPERATORS (the operator ids separated
  by spaces: a comma is a list separator to vobject and Radicale).
- Re-plans: dropped events are published as STATUS:CANCELLED (with the value type they had),
  and every cancellation is carried into later versions until its date has passed.
- Maine occurrences come with a VTIMEZONE for every zone used, placed before the events
  (§3.6.5).
- Every VEVENT says what it is in ``X-TOURNEY-KIND`` (:data:`scheduler.core.uid.KINDS`:
  ``occurrence``, ``series``, ``notice``, ``application``, ``report``); ``tourney check``
  reads that, never the UID's form.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter

from scheduler.core.atomic_files import scratch_file
from scheduler.core.memo import gc_paused
from scheduler.core.timing import made_day
from scheduler.core.uid import (
    HORIZON_PROPERTY,
    LINEAGE_PROPERTY,
    OPERATOR_NAME_PROPERTY,
    OPERATOR_PROPERTY,
    PLAY_PROPERTY,
    SESSION_PROPERTY,
)
from scheduler.export.ical_describe import deadline_items
from scheduler.export.ical_events import cancellation_item, occurrence_items
from scheduler.export.ical_text import (
    CALENDAR_FILE,
    CALENDAR_ORDER,
    PRODID,
    CalendarItem,
    VEvent,
    content_line,
    fold,
    fold_lines,
    midnight,
    plan_lineage,
    text_value,
    utc,
    vtimezone_lines,
)
from scheduler.inputs.replan.cancel import (
    carried_deadlines,
    content_sequence,
    dropped,
    left,
    replaced_sequence,
    sequence_floor,
    session_sequence,
    vanished,
)
from scheduler.inputs.replan.previous import PreviousEvent, fingerprint
from scheduler.result.plan import Plan

__all__ = ["Identity", "Pieces", "calendar_files", "render", "render_pieces"]


def calendar_files(plan: Plan, dtstamp: dt.datetime) -> dict[str, bytes]:
    """Render ``plan`` as iCalendar files.

    Returns ``{"calendar.ics": ..., "calendars/<operator_id>.ics": ...}``: the whole plan, and
    one file per operator that has at least one event (placed occurrence or deadline). The
    same plan and ``dtstamp`` give identical bytes. ``dtstamp`` (DTSTAMP of every event) is
    converted to UTC; a naive value is taken as UTC.
    """
    return render(plan, dtstamp)[0]


Identity = dict[tuple[str, int], tuple[str, str, int]]
"""(tournament id, occurrence) → (calendar UID, RECURRENCE-ID day ISO or "", SEQUENCE)."""


def render(plan: Plan, dtstamp: dt.datetime) -> tuple[dict[str, bytes], Identity]:
    """:func:`calendar_files`, and the calendar identity of every occurrence (the UID, the
    RECURRENCE-ID of a night of a weekly series, the SEQUENCE) that schedule.csv shows."""
    calendars, identity = render_pieces(plan, dtstamp)
    return {name: b"".join(pieces()) for name, pieces in calendars}, identity


Pieces = Callable[[], Iterator[bytes]]
"""A calendar file's bytes, made piece by piece when called (its head, each VEVENT, its
end), so that a writer puts each piece to disk without the whole file in memory."""


def render_pieces(plan: Plan, dtstamp: dt.datetime
                  ) -> tuple[list[tuple[str, Pieces]], Identity]:
    """:func:`render` with each calendar file given as its :data:`Pieces` (file names in
    :func:`calendar_files`' order): every VEVENT is serialized once, here, and shared by the
    files; a file's head is made only when its pieces are asked for."""
    with gc_paused():
        return _render(plan, dtstamp)


def _render(plan: Plan, dtstamp: dt.datetime) -> tuple[list[tuple[str, Pieces]], Identity]:
    """:func:`render_pieces`."""
    scenario = plan.scenario
    stamp = utc(dtstamp)
    lineage = plan_lineage(plan)
    made = itertools.chain(
        occurrence_items(plan, stamp),
        deadline_items(plan, stamp),
        # what the re-plan policy cancels (scheduler.inputs.replan.cancel), rendered
        (cancellation_item(scenario, c, stamp) for c in dropped(
            scenario, plan.cancelled, plan.previous_events, plan.previous_series)))
    texts = _EventTexts()  # each VEVENT's bytes on disk as soon as it is final (issue #27)
    done = _made(plan, made, lineage, stamp, texts)
    done.sort(key=_sort_key)
    # each event is serialized once and shared by calendar.ics and its operators' calendars
    text = texts.flushed()
    h = scenario.horizon
    by_op: dict[str, list[CalendarItem]] = {}
    for i in done:
        for oid in i.operators:
            by_op.setdefault(oid, []).append(i)
    # the venues that left keep their names (their calendars cancel their events)
    names = {**dict(plan.departed), **{o.id: o.name for o in scenario.operators}}
    whole = [i for i in done if i.whole]
    files: list[tuple[str, Pieces]] = [(CALENDAR_FILE, functools.partial(
        _calendar, scenario.name, whole, text, lineage, (h.start, h.end),
        named=[(o, names[o]) for o in sorted({o for i in whole for o in i.operators})
               if o in names]))]
    for oid in sorted(names):
        mine = by_op.get(oid)
        if mine:
            files.append((f"calendars/{oid}.ics", functools.partial(
                _calendar, f"{scenario.name} — {names[oid]}", mine, text, lineage,
                (h.start, h.end), oid,
                [(o, names[o]) for o in sorted({o for i in mine for o in i.operators})
                 if o in names])))
    identity: Identity = {}
    for i in done:
        series = len(i.members) > 1
        for tid, occ, day in i.members:
            identity[(tid, occ)] = (i.uid, day.isoformat() if series else "", i.sequence)
    return files, identity


def _made(plan: Plan, made: Iterable[CalendarItem], lineage: str, stamp: dt.datetime,
          texts: _EventTexts) -> list[CalendarItem]:
    """Every event of the plan's calendars (``made``, and what a re-plan adds) final and
    serialized, its bytes in ``texts``: for a plan solved again into an earlier plan's
    folder (:func:`_replaced`), each event's SEQUENCE and the DTSTAMP once every event is
    made; else each event as soon as it is made (:func:`_replanned`), and let go."""
    scenario = plan.scenario
    if plan.replaced_events:
        # solved again into an earlier plan's folder: the DTSTAMP depends on every event
        items = list(made)
        written = {i.event.uid for i in items}
        items.extend(cancellation_item(scenario, c, stamp)
                     for c in vanished(scenario, plan.previous_events, written))
        _never_lower(plan, items)
        stamp = _replaced(plan, items, stamp)
        line = _lineage(lineage)
        return [texts.keep(_final(i, line, stamp)) for i in items]
    # each event is serialized as soon as it is final and then let go: a statewide plan's
    # events are never all alive at once
    return _replanned(plan, made, _lineage(lineage), stamp, texts.keep)




_SPENT = VEvent()
"""What an item holds in place of its VEVENT once :func:`_final` has serialized it."""

_sort_key = attrgetter("sort_key")

Final = tuple[CalendarItem, bytes, str, int]
"""An event final and serialized: the item (its VEVENT :data:`_SPENT`), the VEVENT's bytes,
its UID and SEQUENCE (:func:`_final`, :func:`_carried`)."""


class _EventTexts:
    """The serialized VEVENTs of one plan's calendars, kept in an unnamed temporary file
    (deleted when closed, or when the process ends, however it ends) rather than in memory:
    at N = 1,000 they are about 90 MB, all needed until the last calendar is written, since
    each calendar lists its events by date (issue #27). :meth:`keep` stores an event's
    bytes as it is made (written a megabyte at a time), and where they are in the file in
    its item (``at``, ``size``); :meth:`joined` reads the events of a run of items back (one
    ``pread`` for those that lie side by side in the file), never the whole file (nor a
    memory map of it: its pages would count in the process's resident memory)."""

    _BATCH = 1 << 20
    """Bytes of events gathered before they are written to the file."""

    def __init__(self) -> None:
        self._file = scratch_file()  # closed with this object
        self._end = 0
        self._pending: list[bytes] = []
        self._waiting = 0

    def keep(self, final: Final) -> CalendarItem:
        """The item of ``final`` with its bytes written to the file (their offset and
        length, ``at`` and ``size``), its UID and SEQUENCE."""
        item, data, uid, seq = final
        item.uid, item.sequence, item.at, item.size = uid, seq, self._end, len(data)
        self._pending.append(data)
        self._end += item.size
        self._waiting += item.size
        if self._waiting >= self._BATCH:
            self._write()
        return item

    def _write(self) -> None:
        """Write the events gathered by :meth:`keep` to the file."""
        if self._pending:
            self._file.write(b"".join(self._pending))
            self._pending.clear()
            self._waiting = 0

    def flushed(self) -> _EventTexts:
        """This, every event kept written to the file, for :meth:`joined`."""
        self._write()
        self._file.flush()
        return self

    def _read(self, at: int, size: int) -> bytes:
        """``size`` bytes of the file from offset ``at``."""
        data = os.pread(self._file.fileno(), size, at)
        if len(data) != size:  # the file was cut short under us
            raise OSError(f"a calendar's event could not be read back from {self._file.name} "
                          f"({len(data)} of {size} bytes)")
        return data

    def joined(self, items: Iterable[CalendarItem]) -> bytes:
        """The VEVENTs of ``items``, one after another."""
        out: list[bytes] = []
        start = end = -1
        for i in items:
            if i.at != end:  # not next to the run being gathered: read that run
                if end > start:
                    out.append(self._read(start, end - start))
                start = i.at
            end = i.at + i.size
        if end > start:
            out.append(self._read(start, end - start))
        return b"".join(out)


Lineage = tuple[str, str]
"""A plan's X-TOURNEY-LINEAGE content line, folded, and its value (:func:`_lineage`)."""


def _lineage(lineage: str) -> Lineage:
    """The X-TOURNEY-LINEAGE line every event of the plan ``lineage`` gets: a TEXT value, a
    literal \\N read as a line break, as the events were first written (icalendar's vText
    of a plain str); and its value."""
    value = text_value(lineage.replace("\\N", "\n"))
    return fold(content_line(LINEAGE_PROPERTY, value)), value


def _final(i: CalendarItem, lineage: Lineage, stamp: dt.datetime,
           old: PreviousEvent | None = None) -> Final:
    """The event of ``i`` finished (its lineage, :func:`_lineage`; DTSTAMP ``stamp``) and
    serialized: ``i`` without its VEVENT (:data:`_SPENT`), the VEVENT's bytes, its UID and
    SEQUENCE. With ``old``, the event of its UID the previous calendars published: its
    SEQUENCE as :func:`content_sequence` says (the same content keeps it, a change raises
    it)."""
    ev = i.event
    # who may update or delete it (tourney publish)
    ev.put_one(LINEAGE_PROPERTY, *lineage)
    was = ev.get("DTSTAMP")
    if was is not stamp and was != stamp:
        ev.set("DTSTAMP", stamp)
    uid, seq = ev.uid, ev.sequence
    data = ev.to_ical()
    if old is not None and old.fingerprint:
        want = content_sequence(old, seq, fingerprint(data))
        if want != seq:
            seq = want
            ev.set("SEQUENCE", want)
            data = ev.to_ical()
    i.event = _SPENT
    return i, data, uid, seq


def _replanned(plan: Plan, made: Iterable[CalendarItem], lineage: Lineage, stamp: dt.datetime,
               keep: Callable[[Final], CalendarItem]) -> list[CalendarItem]:
    """The events of a plan that is not solved again into an earlier plan's folder, final
    and serialized: for a re-plan, as the re-plan policy (:mod:`scheduler.inputs.replan.cancel`)
    decides across the previous calendars. Each event's SEQUENCE stays when its content is
    the previous one's and goes up when it changed (:func:`content_sequence`); a deadline
    event before the day the plan is made as of is carried as published
    (:func:`carried_deadlines`); what the new plan no longer writes is cancelled
    (:func:`vanished`), also in the calendars of venues that no longer show it (:func:`left`,
    a venue that left a shared tournament or the scenario). Each event's bytes go to
    ``keep`` as soon as they are made."""
    scenario = plan.scenario
    day = made_day(scenario)
    before = {e.uid: e for e in (*plan.previous_events, *plan.departed_events)}
    # every past deadline, as if written: one the plan does not write is checked below
    carry = carried_deadlines(scenario, plan.previous_events, day,
                              {e.uid for e in plan.previous_events})
    done: list[CalendarItem] = []
    written: set[str] = set()

    def add(i: CalendarItem) -> None:
        uid = i.event.uid
        written.add(uid)
        if uid in carry:  # a past deadline: as published
            done.append(keep(_carried(carry.pop(uid), i.operators, i.whole)))
            return
        old = before.get(uid)
        if old is not None:  # a SEQUENCE never lower than published (none else to keep)
            _floor(i, before)
        done.append(keep(_final(i, lineage, stamp, old)))

    for i in made:
        add(i)
    for c in vanished(scenario, plan.previous_events, written | carry.keys()):
        add(cancellation_item(scenario, c, stamp))
    # a past deadline the plan no longer writes: carried unless history before the horizon
    carried = carried_deadlines(scenario, plan.previous_events, day, written)
    done.extend(keep(_carried(old, old.operators, True))
                for uid, old in sorted(carry.items()) if uid in carried)
    if plan.departed_events or any(e.operators for e in plan.previous_events):
        shown: dict[str, set[str]] = {}
        for i in done:
            shown.setdefault(i.uid, set()).update(i.operators)
        cancels, carries = left(plan.previous_events, plan.departed_events, shown, day)
        for c in cancels:
            add(cancellation_item(scenario, c, stamp))
        done.extend(keep(_carried(k.event, k.operators, k.whole)) for k in carries)
    return done


def _carried(old: PreviousEvent, operators: Iterable[str], whole: bool) -> Final:
    """A published event carried exactly as published (its text, SEQUENCE and DTSTAMP)."""
    start = old.dtstart if old.dtstart is not None else old.day
    if isinstance(start, dt.datetime):
        key = getattr(start.tzinfo, "key", None)
        tzid = key if key and key != "UTC" else None
        sort = start.replace(tzinfo=None)
    else:
        tzid, sort = None, midnight(start)
    item = CalendarItem((sort, old.uid), frozenset(operators), _SPENT, tzid,
                        (old.day, max(old.day, old.last_day)), whole=whole)
    return item, old.text.encode("utf-8"), old.uid, old.sequence


def _replaced(plan: Plan, items: list[CalendarItem], stamp: dt.datetime) -> dt.datetime:
    """Solved again into the folder of an earlier plan of the same lineage (no re-plan): an
    event whose content changed gets SEQUENCE + 1 over the earlier one's (RFC 5545
    §3.8.7.4), the others keep at least the earlier SEQUENCE, and the calendars are stamped
    after the earlier ones when anything changed. Returns the DTSTAMP to use."""
    if not plan.replaced_events:
        return stamp
    changed = False
    for i in items:
        old = plan.replaced_events.get(i.event.uid)
        if old is None:
            continue
        unchanged = fingerprint(i.event.to_ical()) == old[1]
        changed = changed or not unchanged
        i.event.set("SEQUENCE", replaced_sequence(i.event.sequence, old[0], unchanged))
    before = plan.replaced_dtstamp
    if changed and before is not None and stamp <= before:
        return before.astimezone(dt.UTC) + dt.timedelta(seconds=1)
    return stamp


def _never_lower(plan: Plan, items: list[CalendarItem]) -> None:
    """RFC 5545 §3.8.7.4 across re-plans: each event's SEQUENCE as the re-plan policy floors
    it (:func:`scheduler.inputs.replan.cancel.sequence_floor`; a retimed session,
    `session_sequence`)."""
    before = {e.uid: e for e in plan.previous_events}
    for item in items:
        _floor(item, before)


def _floor(item: CalendarItem, before: dict[str, PreviousEvent]) -> None:
    """:func:`_never_lower` of one event (``before``: the previous events by UID)."""
    ev = item.event
    seq = ev.sequence
    cancelled_now = str(ev.get("STATUS", "")).upper() == "CANCELLED"
    old = before.get(ev.uid)
    floor = sequence_floor(old, seq, cancelled_now)
    if ev.get(SESSION_PROPERTY) is not None and not cancelled_now:
        # a session retimed while its occurrence keeps its span (issue #15 fix 2)
        floor = session_sequence(old, floor, ev.get("DTSTART"), ev.get("DTEND"),
                                 str(ev.get(PLAY_PROPERTY, "")))
    if floor != seq:
        ev.set("SEQUENCE", floor)


def _calendar(name: str, items: list[CalendarItem], text: _EventTexts, lineage: str = "",
              horizon: tuple[dt.date, dt.date] | None = None,
              operator_id: str | None = None,
              named: Iterable[tuple[str, str]] = ()) -> Iterator[bytes]:
    """The VCALENDAR of ``items``, piece by piece (its head, its VEVENTs a few dozen at a
    time, its end); ``text`` holds each item's serialized VEVENT (:meth:`_EventTexts.joined`).
    It names
    the plan lineage (X-TOURNEY-LINEAGE), the horizon (X-TOURNEY-HORIZON, ``start/end``),
    for one operator's calendar the operator (X-TOURNEY-OPERATOR), and the operators it is
    of, ``named`` (id, name; every operator of its events, co-hosts too): one
    :data:`OPERATOR_NAME_PROPERTY` each, ``<id> <name>`` as TEXT, so that ``--previous``
    can tell another organization's plan that uses the same operator ids
    (:func:`scheduler.inputs.replan.previous.previous_operators`)."""
    props: dict[str, list[str]] = {}

    def add(prop: str, value: object, params: dict[str, str] | None = None) -> None:
        props.setdefault(prop, []).append(content_line(prop, value, params))

    add("PRODID", PRODID)
    add("VERSION", "2.0")
    add("CALSCALE", "GREGORIAN")
    add("METHOD", "PUBLISH")
    add("NAME", text_value(name))
    add("X-WR-CALNAME", text_value(name))
    if operator_id is not None:
        add(OPERATOR_PROPERTY, operator_id)
    for oid, oname in named:
        add(OPERATOR_NAME_PROPERTY, text_value(f"{oid} {oname}"))
    if lineage:
        add(LINEAGE_PROPERTY, lineage)
    if horizon is not None:
        add(HORIZON_PROPERTY, f"{horizon[0].isoformat()}/{horizon[1].isoformat()}")
    tzids = sorted({i.tzid for i in items if i.tzid})
    if len(tzids) == 1:
        add("X-WR-TIMEZONE", tzids[0])
    add("REFRESH-INTERVAL", dt.timedelta(days=1), {"VALUE": "DURATION"})
    add("X-PUBLISHED-TTL", "P1D")  # Outlook's refresh hint
    lines = ["BEGIN:VCALENDAR"]
    lines.extend(line for key in CALENDAR_ORDER for line in props.get(key, ()))
    lines.extend(line for key in sorted(props) if key not in CALENDAR_ORDER
                 for line in props[key])
    for tzid in tzids:
        spans = [i.span for i in items if i.tzid == tzid]
        first = dt.date(min(a for a, _ in spans).year, 1, 1)
        last = dt.date(max(b for _, b in spans).year + 2, 1, 1)
        lines.extend(vtimezone_lines(tzid, first, last))
    yield fold_lines(lines)  # the events go before its END:VCALENDAR line
    for k in range(0, len(items), _RUN):  # a few dozen events a piece
        yield text.joined(items[k:k + _RUN])
    yield b"END:VCALENDAR\r\n"


_RUN = 64
"""Events read back and written as one piece of a calendar file (about 100 kB)."""
