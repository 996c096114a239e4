"""iCalendar (RFC 5545) feeds of a plan: one for the whole scenario, one per operator.

:func:`calendar_files` is a pure function of the plan and a DTSTAMP; it returns file names
mapped to bytes and writes nothing. Components are built with the ``icalendar`` library
(escaping, CRLF); lines are folded at 75 octets by :func:`fold`, a faster copy of icalendar
7.x's own folding that gives the same bytes.

- Each placed occurrence is one VEVENT (UID = the rows' ``uid``, the same in every file),
  except weekly Montana small-stakes nights (below). UIDs are built in ``scheduler.uid``
  (``<local>@<operator>.<lineage>.<domain>``); every VEVENT names the plan lineage in
  X-TOURNEY-LINEAGE (``tourney publish`` never overwrites another lineage's events), and every
  VCALENDAR its lineage, horizon (X-TOURNEY-HORIZON), per operator X-TOURNEY-OPERATOR, and
  the operators it shows by id and name (X-TOURNEY-OPERATOR-NAME, one each).
  A tournament on the premises of several operators appears once in ``calendar.ics`` with every
  venue in LOCATION and DESCRIPTION, and the same VEVENT appears in each co-host's file.
- The placed occurrences of a Montana small-stakes tournament on one weekday (at least two)
  are one recurring VEVENT: DTSTART the first occurrence's day,
  ``RRULE:FREQ=WEEKLY;UNTIL=<last occurrence's day>;BYDAY=..`` (RFC 5545 §3.8.5.3, UNTIL a DATE
  like DTSTART) and an ``EXDATE;VALUE=DATE`` (§3.8.5.1) for every week in between without an
  occurrence (blackouts, skipped weeks), so the expansion is exactly the placed days. UID
  ``<tournament>.series@<operator>.<lineage>.<domain>``, or ``<tournament>.<weekday>.series@...``
  when the tournament is placed on several weekdays (one series per weekday); no
  X-TOURNEY-OCCURRENCE (``tourney check`` numbers a series' occurrences by date, as the plan
  does). schedule.csv gives each night the series UID and its RECURRENCE-ID
  (:func:`render`'s identity).
- Montana events carry X-TOURNEY-PLAY (play start/end), which the all-day DTSTART/DTEND do
  not show; occurrences, series and cancellations carry X-TOURNEY-OPERATORS (the operator
  ids separated by spaces: a comma is a list separator to vobject and Radicale).
- Re-plans: dropped events are published as STATUS:CANCELLED (with the value type they had),
  and every cancellation is carried into later versions until its date has passed.
- Montana occurrences are all-day events (``DTSTART;VALUE=DATE`` = first day, ``DTEND`` = last
  day + 1, exclusive, RFC 5545 §3.6.1); a "day" is a calendar day (ARM 23.16.101).
- Maine occurrences are timed events in the operator's zone (``DTSTART;TZID=...``), with a
  VTIMEZONE for every zone used, placed before the events (§3.6.5).
- Deadlines are separate all-day VEVENTs with a display VALARM: the Montana notice
  (MT-NOTICE, one per operator), the Maine licence application window (ME-APPLICATION-WINDOW)
  and the disposition-of-funds report (ME-REPORT). Their days come from ``scheduler.timing``
  (``notice_due``, ``application_window``, ``report_due``), the functions the model and the
  check use; the window opens on the later of 90 days before and ``notice_from``, so no
  deadline of an occurrence not yet filed is before ``notice_from``.
- Every VEVENT says what it is in ``X-TOURNEY-KIND`` (:data:`KINDS`: ``occurrence``,
  ``series``, ``notice``, ``application``, ``report``); ``tourney check`` reads that, never
  the UID's form.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from icalendar import Alarm, Calendar, Component, Event, Timezone, vText
from icalendar.prop import vRecur

from constraints.base import License
from constraints.catalogue import cite
from scheduler.export.checklist import checklist, readings
from scheduler.plan import Plan, Row
from scheduler.publishing import fingerprint
from scheduler.replan import licence_deadline_uids, series_history, series_uids
from scheduler.scenario import Operator, Scenario, Tournament
from scheduler.timing import (
    MT_NOTICE_DAYS,
    application_opens,
    application_window,
    notice_due,
    report_due,
    report_periods,
)
from scheduler.uid import (
    LINEAGE_PROPERTY,
    OPERATOR_NAME_PROPERTY,
    inherited_lineage,
    licence_day,
    lineage_key,
    notice_uid,
    series_uid,
)
from scheduler.uid import licence_uid as new_licence_uid
from scheduler.uid import parse as parse_uid

PRODID = "-//tourney//tourney 0.1//EN"
CALENDAR_FILE = "calendar.ics"
ME_LICENCE_KINDS = ("me-per-tournament", "me-annual", "me-super-cribbage")
_KIND_LABEL = {
    "me-per-tournament": "per-tournament",
    "me-annual": "annual",
    "me-super-cribbage": "super cribbage",
}
_TYPE_LABEL = {
    "large-stakes": "Montana large-stakes tournament",
    "small-stakes": "Montana small-stakes tournament",
    "tournament-game": "Maine tournament game",
    "super-cribbage": "Maine super cribbage tournament",
    "charitable-cribbage": "Maine charitable cribbage tournament",
}
_BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DEADLINE_ALARM = dt.timedelta(days=-7)
"""Reminder before a due date (notice, application, report)."""
WINDOW_ALARM = dt.timedelta(days=-1)
"""Reminder before an application window opens."""


KINDS = ("occurrence", "series", "notice", "application", "report")
"""Values of ``X-TOURNEY-KIND``, written on every VEVENT: what the event is. ``tourney check``
reads an event's kind from it (never from its UID): occurrences and series are checked, the
deadlines (notice, application, report) are listed as not checked."""
_KIND_OF_UID = {"occurrence": "occurrence", "series": "series", "notice": "notice",
                "application-opens": "application", "application-due": "application",
                "report": "report"}
"""X-TOURNEY-KIND of a cancelled event that an earlier calendar wrote without one (the
writer names what it cancels; ``tourney check`` never reads a kind from a UID)."""
_DEADLINE_KIND = {"mt-notice": "notice", "me-application-opens": "application",
                  "me-application-due": "application", "me-report": "report"}


class _Text(vText):
    r"""A TEXT value escaped exactly as RFC 5545 §3.3.11 says: ``\\``, ``\;``, ``\,`` and
    line breaks as ``\n``. (icalendar's own escaping first turns a literal ``\N`` into a
    line break, so a title holding ``\N`` would show two lines; and it does not escape NAME
    and X-WR-CALNAME at all, so "Post 88, Saco Bay" was read back as "Post 88".)"""

    def to_ical(self) -> bytes:
        text = (str(self).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
                .replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n"))
        return text.encode("utf-8")


def _text(value: str) -> _Text:
    """``value`` as a TEXT property value (:class:`_Text`)."""
    return _Text(value)


@dataclass(frozen=True)
class _Item:
    """One VEVENT and the operators whose per-operator file shows it."""

    sort_key: tuple[dt.datetime, str]
    operators: frozenset[str]
    event: Event
    tzid: str | None
    span: tuple[dt.date, dt.date]
    members: tuple[tuple[str, int, dt.date], ...] = ()
    """The occurrences (tournament, number, first day) the event shows: one, or a series'
    nights."""


# --------------------------------------------------------------------------- public
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


def plan_lineage(plan: Plan) -> str:
    """The plan's lineage key: ``plan.lineage``, else the one its rows' UIDs carry, else the
    scenario's own (:func:`scheduler.uid.lineage_key`)."""
    return (plan.lineage or inherited_lineage(r.uid for r in plan.rows)
            or lineage_key(plan.scenario))


def render(plan: Plan, dtstamp: dt.datetime) -> tuple[dict[str, bytes], Identity]:
    """:func:`calendar_files`, and the calendar identity of every occurrence (the UID, the
    RECURRENCE-ID of a night of a weekly series, the SEQUENCE) that schedule.csv shows."""
    scenario = plan.scenario
    stamp = _utc(dtstamp)
    lineage = plan_lineage(plan)
    items = [
        *_occurrence_items(plan, stamp),
        *_notice_items(plan, stamp),
        *_licence_items(plan, stamp),
        *_cancelled_items(plan, stamp),
    ]
    items.extend(_vanished_items(plan, stamp, {str(i.event["UID"]) for i in items}))
    _never_lower(plan, items)
    stamp = _replaced(plan, items, stamp)
    items.sort(key=lambda i: i.sort_key)
    for i in items:
        i.event[LINEAGE_PROPERTY] = lineage  # who may update or delete it (tourney publish)
        if i.event.decoded("DTSTAMP") != stamp:
            del i.event["DTSTAMP"]
            i.event.add("dtstamp", stamp)
    # each event is serialized once and shared by calendar.ics and its operators' calendars
    text = {id(i): ical_bytes(i.event) for i in items}
    h = scenario.horizon
    by_op: dict[str, list[_Item]] = {}
    for i in items:
        for oid in dict.fromkeys(i.operators):
            by_op.setdefault(oid, []).append(i)
    names = {o.id: o.name for o in scenario.operators}
    files = {CALENDAR_FILE: _calendar(scenario.name, items, text, lineage, (h.start, h.end),
                                      named=[(o, names[o]) for o in sorted(by_op)
                                             if o in names])}
    for op in sorted(scenario.operators, key=lambda o: o.id):
        mine = by_op.get(op.id)
        if mine:
            files[f"calendars/{op.id}.ics"] = _calendar(f"{scenario.name} — {op.name}", mine,
                                                        text, lineage, (h.start, h.end), op.id,
                                                        [(o, names[o]) for o in sorted(
                                                            {o for i in mine for o in i.operators})
                                                         if o in names])
    identity: Identity = {}
    for i in items:
        uid, seq = str(i.event["UID"]), int(str(i.event["SEQUENCE"]))
        series = len(i.members) > 1
        for tid, occ, day in i.members:
            identity[(tid, occ)] = (uid, day.isoformat() if series else "", seq)
    return files, identity


def _replaced(plan: Plan, items: list[_Item], stamp: dt.datetime) -> dt.datetime:
    """Solved again into the folder of an earlier plan of the same lineage (no re-plan): an
    event whose content changed gets SEQUENCE + 1 over the earlier one's (RFC 5545
    §3.8.7.4), the others keep at least the earlier SEQUENCE, and the calendars are stamped
    after the earlier ones when anything changed. Returns the DTSTAMP to use."""
    if not plan.replaced_events:
        return stamp
    changed = False
    for i in items:
        old = plan.replaced_events.get(str(i.event["UID"]))
        if old is None:
            continue
        seq = int(str(i.event["SEQUENCE"]))
        if fingerprint(ical_bytes(i.event)) != old[1]:
            changed = True
            seq = max(seq, old[0] + 1)
        else:
            seq = max(seq, old[0])
        i.event["SEQUENCE"] = seq
    before = plan.replaced_dtstamp
    if changed and before is not None and stamp <= before:
        return before.astimezone(dt.UTC) + dt.timedelta(seconds=1)
    return stamp


def fold(line: str) -> str:
    """RFC 5545 §3.1 line folding, exactly as icalendar folds (``icalendar.parser._foldline``:
    segments of at most 74 octets, never splitting a character or after a ``\\`` or ``^``
    escape), but a slice at a time where icalendar goes a character at a time (calendars of
    a statewide plan hold millions of characters). ``tests/test_ical.py`` checks the two
    agree."""
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
    """``component.to_ical()``, byte for byte, with :func:`fold`'s faster folding."""
    return b"".join(fold(line).encode("utf-8") + b"\r\n"
                    for line in component.content_lines() if line)


def operators_value(ops: Iterable[str]) -> str:
    """X-TOURNEY-OPERATORS of an event: its operator ids separated by single spaces.

    Not commas: vobject (and so Radicale) reads an unescaped comma as a list separator and
    keeps the first item only, and icalendar does not unescape ``\\,`` in an X- property;
    operator ids never contain a space (``ID_PATTERN``), and both libraries read a space
    back as written."""
    return " ".join(ops)


# --------------------------------------------------------------------------- calendar
def _calendar(name: str, items: list[_Item], text: dict[int, bytes], lineage: str = "",
              horizon: tuple[dt.date, dt.date] | None = None,
              operator_id: str | None = None,
              named: Iterable[tuple[str, str]] = ()) -> bytes:
    """The VCALENDAR of ``items``; ``text`` holds each item's serialized VEVENT. It names
    the plan lineage (X-TOURNEY-LINEAGE), the horizon (X-TOURNEY-HORIZON, ``start/end``),
    for one operator's calendar the operator (X-TOURNEY-OPERATOR), and the operators it is
    of, ``named`` (id, name; every operator of its events, co-hosts too): one
    :data:`OPERATOR_NAME_PROPERTY` each, ``<id> <name>`` as TEXT, so that ``--previous``
    can tell another organization's plan that uses the same operator ids
    (:func:`scheduler.replan.previous_operators`)."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("name", _text(name))
    cal.add("x-wr-calname", _text(name))
    if operator_id is not None:
        cal.add("x-tourney-operator", operator_id)
    for oid, oname in named:
        cal.add(OPERATOR_NAME_PROPERTY, _text(f"{oid} {oname}"))
    if lineage:
        cal.add(LINEAGE_PROPERTY, lineage)
    if horizon is not None:
        cal.add("x-tourney-horizon", f"{horizon[0].isoformat()}/{horizon[1].isoformat()}")
    tzids = sorted({i.tzid for i in items if i.tzid})
    if len(tzids) == 1:
        cal.add("x-wr-timezone", tzids[0])
    cal.add("refresh-interval", dt.timedelta(days=1), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "P1D")  # Outlook's refresh hint
    for tzid in tzids:
        spans = [i.span for i in items if i.tzid == tzid]
        first = dt.date(min(a for a, _ in spans).year, 1, 1)
        last = dt.date(max(b for _, b in spans).year + 2, 1, 1)
        cal.add_component(Timezone.from_tzid(tzid, first_date=first, last_date=last))
    head = ical_bytes(cal)  # the events go before its END:VCALENDAR line
    end = b"END:VCALENDAR\r\n"
    assert head.endswith(end)
    return head[:-len(end)] + b"".join(text[id(i)] for i in items) + end


def _when(scenario: Scenario, operator_id: str | None, start: dt.date, end: dt.date | None
          ) -> tuple[dt.date, dt.date | None, str | None, dt.datetime]:
    """DTSTART, DTEND, TZID and sort key of a cancelled event written as it was published:
    a timed event stays timed (in its zone, or UTC), an all-day one all-day."""
    if isinstance(start, dt.datetime):
        op = _operator(scenario, operator_id) if operator_id else None
        if start.tzinfo is None:  # floating: read in the operator's zone
            start = start.replace(tzinfo=op.tz if op else dt.UTC)
        if isinstance(end, dt.datetime) and end.tzinfo is None:
            end = end.replace(tzinfo=start.tzinfo)
        key = getattr(start.tzinfo, "key", None)
        if not key and op is not None:  # a fixed UTC offset (schedule.csv): the zone
            start, key = start.astimezone(op.tz), op.tz.key
            end = end.astimezone(op.tz) if isinstance(end, dt.datetime) else end
        if not key or key == "UTC":
            start = start.astimezone(dt.UTC)
            end = end.astimezone(dt.UTC) if isinstance(end, dt.datetime) else end
            key = None
        return start, end, key, start.replace(tzinfo=None)
    return start, end if end is not None else start + dt.timedelta(days=1), None, \
        _midnight(start)


def _cancellation(uid: str, stamp: dt.datetime, summary: str, sequence: int,
                  scenario: Scenario, operators: Iterable[str], start: dt.date,
                  end: dt.date | None) -> _Item:
    """A STATUS:CANCELLED event with the value type (DATE or DATE-TIME) it was published
    with, so that a client updates the event it holds rather than seeing another kind."""
    ops = tuple(dict.fromkeys(operators))
    ev = _new_event(uid, stamp, summary, sequence)
    ev.add("status", "CANCELLED")
    first, last, tzid, key = _when(scenario, ops[0] if ops else None, start, end)
    ev.add("dtstart", first)
    if last is not None:
        ev.add("dtend", last)
    if ops:
        ev.add("x-tourney-operators", operators_value(ops))
    a = first.date() if isinstance(first, dt.datetime) else first
    b = (last.date() if isinstance(last, dt.datetime) else last) if last is not None else a
    return _Item((key, uid), frozenset(ops), ev, tzid, (a, max(a, b)))


def _span_of(text: str) -> tuple[dt.datetime, dt.datetime] | None:
    try:
        a, _, b = text.partition("|")
        return dt.datetime.fromisoformat(a), dt.datetime.fromisoformat(b)
    except ValueError:
        return None


def _cancelled_items(plan: Plan, stamp: dt.datetime) -> Iterable[_Item]:
    """Re-plans: an announced occurrence the new plan drops, as STATUS:CANCELLED with its UID
    and SEQUENCE + 1 (RFC 5545 §3.8.1.11), so subscribed calendars remove it; a Montana
    large-stakes one takes its notice deadlines with it. A timed (Maine) game is cancelled as
    a timed event, an all-day (Montana) one as an all-day event, as each was published."""
    known = {t.id: t for t in plan.scenario.tournaments}
    before = {e.uid: e for e in plan.previous_events}
    # nights that were announced only inside a weekly series have no UID of their own
    in_series = {(s.tournament_id, d) for s in plan.previous_series for d in s.nights}
    for c in plan.cancelled:
        if (c.tournament_id, c.first_day) in in_series:
            continue
        t = known.get(c.tournament_id)
        if t is not None and t.is_large:
            for oid in c.operators:
                uid = notice_uid(c.uid, oid)
                ev = _new_event(uid, stamp, f"Cancelled: notice for {c.title}", c.sequence)
                ev.add("status", "CANCELLED")
                due = notice_due(c.first_day)
                _all_day(ev, due, due)
                ev.add("x-tourney-deadline", "mt-notice")
                ev.add("x-tourney-kind", "notice")
                yield _Item((_midnight(due), uid), frozenset({oid}), ev, None, (due, due))
        old = before.get(c.uid)
        span = _span_of(c.span) if c.span else None
        start: dt.date
        end: dt.date | None
        if old is not None and old.dtstart is not None:
            start, end = old.dtstart, old.dtend
        elif span is not None and (t is None or plan.scenario.jurisdiction_of(t) == "ME"):
            start, end = span
        else:
            start, end = c.first_day, c.first_day + dt.timedelta(days=1)
        item = _cancellation(c.uid, stamp, f"Cancelled: {c.title}", c.sequence, plan.scenario,
                             c.operators, start, end)
        item.event.add("x-tourney-tournament", c.tournament_id)
        item.event.add("x-tourney-kind", "occurrence")
        item.event.add("description", _text(f"{c.title} on {_day(c.first_day)} is cancelled "
                                            "in this plan."))
        yield item


def _never_lower(plan: Plan, items: list[_Item]) -> None:
    """RFC 5545 §3.8.7.4 across re-plans: an event never gets a lower SEQUENCE than the
    previous calendars gave its UID, and one more when that UID had been cancelled (a UID
    given back after a cancellation, e.g. a series or a licence deadline that returns)."""
    before = {e.uid: e for e in plan.previous_events}
    for item in items:
        old = before.get(str(item.event["UID"]))
        if old is None:
            continue
        cancelled_now = str(item.event.get("STATUS", "")).upper() == "CANCELLED"
        floor = old.sequence + (1 if old.cancelled and not cancelled_now else 0)
        if int(str(item.event["SEQUENCE"])) < floor:
            item.event["SEQUENCE"] = floor


def _vanished_items(plan: Plan, stamp: dt.datetime, written: set[str]) -> Iterable[_Item]:
    """Re-plans: any event the previous calendars published that this plan no longer writes
    (a moved game's licence deadlines, a dropped series, ...), as STATUS:CANCELLED with its
    UID and SEQUENCE + 1, so that imported and subscribed calendars drop it too.

    A cancellation the previous calendars carried is carried again, unchanged (same
    SEQUENCE), until the event's last day (for a deadline: the day of the game or licence it
    is for) is before the plan's ``notice_from`` (the day it is made as of): a subscriber who
    skipped the version that cancelled it still sees it go."""
    scenario = plan.scenario
    start = scenario.horizon.start
    days = {e.uid: e.day for e in plan.previous_events}
    known = {t.id: t for t in scenario.tournaments}
    for old in plan.previous_events:
        if old.uid in written:
            continue
        # the day that says whether it is history: a licence deadline's licence start (in
        # its UID), a notice's occurrence, else the event's own day
        parsed = parse_uid(old.uid)
        lday = licence_day(old.uid)
        day = (dt.date.fromisoformat(lday) if lday
               else days.get(parsed.occurrence_uid or "", old.day)
               if parsed is not None and parsed.kind == "notice" else old.day)
        if old.cancelled:
            if max(day, old.last_day) < scenario.notice_from:
                continue  # its date has passed: nobody needs the cancellation any more
            summary, seq = old.summary, old.sequence
        else:
            if day < start:
                continue  # history before the new horizon
            summary, seq = f"Cancelled: {old.summary}", old.sequence + 1
        t = known.get(old.tournament_id)
        ops = old.operators or (t.operators if t is not None else ())
        item = _cancellation(old.uid, stamp, summary, seq, scenario, ops,
                             old.dtstart if old.dtstart is not None else old.day, old.dtend)
        if old.rrule:
            item.event.add("rrule", vRecur.from_ical(old.rrule))
            item = _Item(item.sort_key, item.operators, item.event, item.tzid,
                         (item.span[0], max(item.span[1], old.last_day)))
        if old.tournament_id:
            item.event.add("x-tourney-tournament", old.tournament_id)
        if old.deadline:
            item.event.add("x-tourney-deadline", old.deadline)
        kind = old.kind or _DEADLINE_KIND.get(old.deadline, "") or (
            _KIND_OF_UID.get(parsed.kind, "") if parsed is not None else "")
        if kind:
            item.event.add("x-tourney-kind", kind)
        if old.cancelled and old.description:
            item.event.add("description", old.description)  # carried as it was published
        yield item


def _ambiguous(t: dt.datetime) -> bool:
    """Whether the wall-clock time of ``t`` happens twice (the hour clocks fall back)."""
    return t.replace(fold=0).utcoffset() != t.replace(fold=1).utcoffset()


def _utc(stamp: dt.datetime) -> dt.datetime:
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=dt.UTC)
    return stamp.astimezone(dt.UTC).replace(microsecond=0)


def _new_event(uid: str, stamp: dt.datetime, summary: str, sequence: int = 0) -> Event:
    ev = Event()
    ev.add("uid", uid)
    ev.add("dtstamp", stamp)
    ev.add("sequence", sequence)  # RFC 5545 §3.8.7.4: + 1 each time a re-plan moves it
    ev.add("summary", _text(summary))
    return ev


def _all_day(ev: Event, first: dt.date, last: dt.date) -> None:
    """All-day span: DTEND is the day after ``last`` (exclusive, RFC 5545 §3.6.1)."""
    ev.add("dtstart", first)
    ev.add("dtend", last + dt.timedelta(days=1))


def _alarm(ev: Event, text: str, trigger: dt.timedelta) -> None:
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", _text(text))
    alarm.add("trigger", trigger)
    ev.add_component(alarm)


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time())


# --------------------------------------------------------------------------- occurrences
def _venue(op: Operator) -> str:
    return op.address or op.name


def _place(op: Operator) -> str:
    """Name and address, without repeating a name the address already starts with."""
    if not op.address:
        return op.name
    return op.address if op.address.startswith(op.name) else f"{op.name}, {op.address}"


def _day(d: dt.date) -> str:
    return f"{d:%a} {d.isoformat()}"


def _clock(t: dt.datetime) -> str:
    return f"{_day(t.date())} {t:%H:%M} {t.tzname()}"


def _tournament(scenario: Scenario, tid: str) -> Tournament | None:
    try:
        return scenario.tournament(tid)
    except KeyError:
        return None


def _operator(scenario: Scenario, oid: str) -> Operator | None:
    try:
        return scenario.operator(oid)
    except KeyError:
        return None


def _group(plan: Plan) -> dict[tuple[str, int], list[Row]]:
    groups: dict[tuple[str, int], list[Row]] = {}
    for row in plan.rows:
        groups.setdefault((row.tournament_id, row.occurrence), []).append(row)
    for (tid, _), rows in groups.items():
        t = _tournament(plan.scenario, tid)
        order = {o: i for i, o in enumerate(t.operators)} if t else {}
        rows.sort(key=lambda r: (order.get(r.operator_id, len(order)), r.operator_id))
    return groups


def _occurrence_items(plan: Plan, stamp: dt.datetime) -> Iterable[_Item]:
    groups = _group(plan)
    series = _weekly_series(groups, plan.scenario, plan_lineage(plan))
    if plan.previous_series or plan.previous_events:
        # a re-plan: announced series keep their UIDs, last year's are left to it
        uids = series_uids(plan.scenario, [(u, m[0][0].tournament_id,
                                            [rs[0].first_day for rs in m]) for u, m in series],
                           plan.previous_series, plan.previous_events)
        series = [(u, m) for u, (_, m) in zip(uids, series, strict=True)]
    in_series = {(rows[0].tournament_id, rows[0].occurrence)
                 for _, members in series for rows in members}
    for (tid, occ), rows in sorted(groups.items()):
        if (tid, occ) not in in_series:
            yield _occurrence_item(plan.scenario, tid, occ, rows, stamp)
    before = {s.uid: s for s in plan.previous_series}
    for uid, members in series:
        item = _series_item(plan.scenario, uid, members, stamp)
        old = before.pop(uid, None)
        if old is not None:
            nights = tuple(sorted(rs[0].first_day for rs in members))
            # RFC 5545 §3.8.7.4: a re-plan that changes the nights (EXDATE, UNTIL) or the
            # play time raises it
            retimed = bool(old.play) and _play_shape(old.play) != _play_shape(
                str(item.event.get("X-TOURNEY-PLAY", "")))
            seq = old.sequence + (nights != old.nights or retimed)
            item.event["SEQUENCE"] = max(seq, max(rs[0].sequence for rs in members))
        yield item
    for old in sorted(before.values(), key=lambda s: s.uid):
        if series_history(plan.scenario, old):
            continue  # last year's series (all nights before the horizon): left alone
        # a series the new plan no longer writes (pattern changed or tournament dropped):
        # cancelled with its recurrence, so it is history only after its last night
        ev = _new_event(old.uid, stamp, f"Cancelled: {old.title}", old.sequence + 1)
        ev.add("status", "CANCELLED")
        _all_day(ev, old.nights[0], old.nights[0])
        if len(old.nights) > 1:
            ev.add("rrule", {"freq": "weekly", "until": old.nights[-1],
                             "byday": _BYDAY[old.nights[0].weekday()]})
        if old.tournament_id:
            ev.add("x-tourney-tournament", old.tournament_id)
        ev.add("x-tourney-kind", "series")
        if old.operators:
            ev.add("x-tourney-operators", operators_value(old.operators))
        yield _Item((_midnight(old.nights[0]), old.uid), frozenset(old.operators), ev, None,
                    (old.nights[0], old.nights[-1]))


def _play_shape(play: str) -> tuple[str, float] | None:
    """X-TOURNEY-PLAY ``start/end`` as (local start time, hours): what a weekly series keeps
    from night to night."""
    try:
        a, _, b = play.partition("/")
        start, end = dt.datetime.fromisoformat(a), dt.datetime.fromisoformat(b)
    except ValueError:
        return None
    return f"{start:%H:%M}", (end - start).total_seconds() / 3600


def _venue_lines(scenario: Scenario, rows: list[Row], licences: list[str]) -> list[str]:
    """One line per venue (``rows``: one per operator) with its licence(s) and notice."""
    lines = ["Venue(s):" if len(rows) > 1 else "Venue:"]
    for r, licence in zip(rows, licences, strict=True):
        op = _operator(scenario, r.operator_id)
        place = _place(op) if op else r.operator_id
        line = f"- {place}: licence/permit {licence}"
        if r.notice_due is not None:
            line += (f"; notice to the Gambling Control Division due "
                     f"{_day(r.notice_due)} ({cite('MT-NOTICE')})")
        lines.append(line + ".")
    return lines


def _describe(ev: Event, scenario: Scenario, tid: str, rows: list[Row], dates: str,
              venues: list[str], which: str) -> None:
    """LOCATION, CATEGORIES, DESCRIPTION and X-TOURNEY-TOURNAMENT of an occurrence or series."""
    first = rows[0]
    t = _tournament(scenario, tid)
    ops = [_operator(scenario, r.operator_id) for r in rows]
    ev.add("location", _text(" / ".join(_venue(op) if op else r.operator_id
                                        for r, op in zip(rows, ops, strict=True))))
    ev.add("categories", [first.type])
    kind = _TYPE_LABEL.get(first.type, first.type)
    lines = [
        first.title,
        dates,
        f"Type: {first.type} ({kind}{', charitable' if first.charitable else ''}).",
        f"Players: {first.players if first.players is not None else 'not set'}.",
        *venues,
        f"Tournament {tid}, {which}.",
    ]
    items = checklist(scenario, t) if t is not None else []
    if items:
        lines += ["Checklist:", *(f"- {c}" for c in items)]
    lines += readings(scenario)
    ev.add("description", _text("\n".join(lines)))
    ev.add("x-tourney-tournament", tid)
    ev.add("x-tourney-operators",
           operators_value(dict.fromkeys(r.operator_id for r in rows)))


def _occurrence_item(scenario: Scenario, tid: str, occ: int, rows: list[Row],
                     stamp: dt.datetime) -> _Item:
    first = rows[0]
    ev = _new_event(first.uid, stamp, first.title, first.sequence)
    tzid: str | None = None
    if first.jurisdiction == "MT":
        _all_day(ev, first.first_day, first.last_day)
        _play(ev, first)
        key = _midnight(first.first_day)
        dates = (f"Dates: {_day(first.first_day)} to {_day(first.last_day)} (all day, "
                 f"{(first.last_day - first.first_day).days + 1} calendar day(s)); play "
                 f"starts {_clock(first.start)} and ends {_clock(first.end)}.")
    else:
        op0 = _operator(scenario, first.operator_id)
        tz = op0.tz if op0 is not None else first.start.tzinfo
        start, end = first.start.astimezone(tz), first.end.astimezone(tz)
        # a local time in the repeated hour (clocks fall back) would be read as the first of
        # the two (RFC 5545 §3.3.5): write such a time in UTC so it cannot be misread
        ev.add("dtstart", start if not _ambiguous(start) else start.astimezone(dt.UTC))
        ev.add("dtend", end if not _ambiguous(end) else end.astimezone(dt.UTC))
        tzid = str(getattr(start.tzinfo, "key", start.tzname()))
        key = start.replace(tzinfo=None)
        # real elapsed time (same-zone datetimes subtract as wall clocks in Python)
        hours = (end.astimezone(dt.UTC) - start.astimezone(dt.UTC)).total_seconds() / 3600
        dates = (f"Dates: starts {_clock(start)}, ends {_clock(end)} ({tzid}), "
                 f"{hours:g} hours.")
    venues = _venue_lines(scenario, rows, [r.license_id or "none" for r in rows])
    _describe(ev, scenario, tid, rows, dates, venues, f"occurrence {occ}")
    ev.add("x-tourney-occurrence", str(occ))
    ev.add("x-tourney-kind", "occurrence")
    return _Item((key, first.uid), frozenset(r.operator_id for r in rows), ev, tzid,
                 (first.start.date(), first.end.date()), ((tid, occ, first.first_day),))


def _play(ev: Event, row: Row) -> None:
    """X-TOURNEY-PLAY: when play starts and ends (``start/end``, ISO 8601 with UTC offset)
    of an all-day (Montana) event, which DTSTART/DTEND do not say: a re-plan from the
    calendar alone sees a time change (SEQUENCE + 1) as it does from schedule.csv."""
    ev.add("x-tourney-play", f"{row.start.isoformat()}/{row.end.isoformat()}")


# --------------------------------------------------------------------------- weekly series
def _shape(rows: list[Row]) -> tuple[tuple[str, ...], int]:
    """What must be the same for every occurrence of a series: venues and length in days."""
    return tuple(r.operator_id for r in rows), (rows[0].last_day - rows[0].first_day).days


def _weekly_series(groups: dict[tuple[str, int], list[Row]], scenario: Scenario,
                   lineage: str) -> list[tuple[str, list[list[Row]]]]:
    """The weekly series of Montana small-stakes tournaments: ``(uid, occurrences)`` with the
    occurrences (each its rows, one per operator) in date order.

    One series per tournament and weekday with at least two occurrences, all with the same
    venues and length; anything else stays one VEVENT per occurrence.
    """
    by_t: dict[str, dict[int, list[list[Row]]]] = {}
    for (tid, _), rows in sorted(groups.items()):
        r = rows[0]
        if r.jurisdiction == "MT" and r.type == "small-stakes":
            by_t.setdefault(tid, {}).setdefault(r.first_day.weekday(), []).append(rows)
    out: list[tuple[str, list[list[Row]]]] = []
    for tid, by_wd in sorted(by_t.items()):
        for wd, members in sorted(by_wd.items()):
            members.sort(key=lambda rs: (rs[0].first_day, rs[0].occurrence))
            days = [rs[0].first_day for rs in members]
            if (len(members) < 2 or len(set(days)) < len(days)
                    or len({_shape(rs) for rs in members}) > 1):
                continue
            # "." never occurs in a tournament id, so no two series can share a UID
            out.append((series_uid(scenario, tid, None if len(by_wd) == 1 else wd,
                                   members[0][0].operator_id, lineage), members))
    return out


def _numbers(occs: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    parts: list[str] = []
    for n in sorted(occs):
        if parts and n == int(parts[-1].rpartition("-")[2]) + 1:
            parts[-1] = f"{parts[-1].partition('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts)


def _licence_runs(rows: list[Row]) -> str:
    """One operator's licence over a series (``rows`` in date order): the licence, or each
    licence with the days it covers when it changes (e.g. a new permit year)."""
    runs: list[tuple[str, dt.date, dt.date]] = []
    for r in rows:
        lid = r.license_id or "none"
        if runs and runs[-1][0] == lid:
            runs[-1] = (lid, runs[-1][1], r.first_day)
        else:
            runs.append((lid, r.first_day, r.first_day))
    if len(runs) == 1:
        return runs[0][0]
    return "; ".join(f"{lid} ({_day(a)} to {_day(b)})" if a != b else f"{lid} ({_day(a)})"
                     for lid, a, b in runs)


def _series_item(scenario: Scenario, uid: str, members: list[list[Row]],
                 stamp: dt.datetime) -> _Item:
    rows = members[0]
    first = rows[0]
    tid = first.tournament_id
    days = [rs[0].first_day for rs in members]
    start, until = days[0], days[-1]
    wd = start.weekday()
    placed = set(days)
    skipped = [d for k in range((until - start).days // 7 + 1)
               if (d := start + dt.timedelta(weeks=k)) not in placed]
    # the series changes when any of its nights moved in a re-plan
    ev = _new_event(uid, stamp, first.title, max(rs[0].sequence for rs in members))
    _all_day(ev, first.first_day, first.last_day)
    _play(ev, first)
    ev.add("rrule", {"freq": "weekly", "until": until, "byday": _BYDAY[wd]})
    for d in skipped:
        ev.add("exdate", d)
    length = (first.last_day - first.first_day).days + 1
    n = len(members)
    later = (first.end.date() - first.start.date()).days
    ends = f"{first.end:%H:%M}" + ("" if not later else " the next day" if later == 1
                                   else f" {later} days later")
    dates = (f"Dates: every {_WEEKDAY_NAMES[wd]} from {_day(start)} to {_day(until)}, "
             f"{n} occurrence{'s' if n != 1 else ''} (all day, {length} calendar day(s) "
             f"each); play starts {first.start:%H:%M} and ends {ends} (local time).")
    if skipped:
        blackout = {op.name: set(op.blackout) for r in rows
                    if (op := _operator(scenario, r.operator_id)) is not None}
        notes = []
        for d in skipped:
            closed = [name for name, days_off in blackout.items() if d in days_off]
            notes.append(_day(d) + (f" (blackout day of {', '.join(closed)})" if closed else ""))
        dates += f"\nNo occurrence in the week(s) of: {'; '.join(notes)}."
    venues = _venue_lines(scenario, rows, [_licence_runs([rs[i] for rs in members])
                                           for i in range(len(rows))])
    _describe(ev, scenario, tid, rows, dates, venues,
              f"occurrence{'s' if n != 1 else ''} {_numbers([rs[0].occurrence for rs in members])}")
    ev.add("x-tourney-kind", "series")
    return _Item((_midnight(start), uid), frozenset(r.operator_id for r in rows), ev, None,
                 (first.start.date(), members[-1][0].end.date()),
                 tuple((rs[0].tournament_id, rs[0].occurrence, rs[0].first_day)
                       for rs in members))


# --------------------------------------------------------------------------- deadlines
def _deadline(uid: str, stamp: dt.datetime, summary: str, day: dt.date, description: str,
              kind: str, alarm: dt.timedelta, operator_id: str, sequence: int = 0) -> _Item:
    ev = _new_event(uid, stamp, summary, sequence)
    _all_day(ev, day, day)
    ev.add("transp", "TRANSPARENT")
    ev.add("categories", ["deadline"])
    ev.add("description", _text(description + "\nNot legal advice."))
    ev.add("x-tourney-deadline", kind)
    ev.add("x-tourney-kind", _DEADLINE_KIND[kind])
    _alarm(ev, summary, alarm)
    return _Item((_midnight(day), uid), frozenset({operator_id}), ev, None, (day, day))


def _notice_items(plan: Plan, stamp: dt.datetime) -> Iterable[_Item]:
    """MT-NOTICE: each operator of a large-stakes tournament notifies the department."""
    for row in plan.rows:
        if row.jurisdiction != "MT" or row.notice_due is None:
            continue
        op = _operator(plan.scenario, row.operator_id)
        who = op.name if op else row.operator_id
        summary = f"Notice due to the Montana Gambling Control Division: {row.title}"
        text = (f"{who} must notify the Montana Gambling Control Division of {row.title} by "
                f"{_day(row.notice_due)}, at least {MT_NOTICE_DAYS} days before its first day "
                f"{_day(row.first_day)} ({cite('MT-NOTICE')}). Each operator of a tournament "
                f"held on several premises files its own notice. Permit: "
                f"{row.license_id or 'none'}.")
        # the notice moves with its occurrence: same UID, the occurrence's SEQUENCE
        item = _deadline(notice_uid(row.uid, row.operator_id), stamp, summary, row.notice_due,
                         text, "mt-notice", DEADLINE_ALARM, row.operator_id, row.sequence)
        item.event.add("x-tourney-tournament", row.tournament_id)
        item.event.add("x-tourney-occurrence", str(row.occurrence))
        yield item


def _covered_rows(plan: Plan, lic: License) -> list[Row]:
    # in plan order (rows are sorted by first day, tournament, occurrence, operator)
    every = sorted((r for ref in set(lic.covers) for r in plan.rows_of_occurrence(ref)),
                   key=lambda r: (r.first_day, r.tournament_id, r.occurrence, r.operator_id))
    rows = [r for r in every if r.operator_id == lic.operator_id]
    return rows or every


def _licence_items(plan: Plan, stamp: dt.datetime) -> Iterable[_Item]:
    lineage = plan_lineage(plan)
    announced = licence_deadline_uids(plan.previous_events)

    def licence_uid(scenario: Scenario, kind: str, licence_id: str, operator_id: str,
                    lineage: str, suffix: str = "") -> str:
        # a re-plan keeps an announced deadline's UID (its domain may have changed since)
        fresh = new_licence_uid(scenario, kind, licence_id, operator_id, lineage, suffix)
        return announced.get(fresh.rpartition("@")[0], fresh)

    for lic in plan.license_list:
        if lic.jurisdiction != "ME" or lic.kind not in ME_LICENCE_KINDS:
            continue
        rows = _covered_rows(plan, lic)
        first = min((r.first_day for r in rows), default=lic.valid_from)
        titles = sorted({r.title for r in rows})
        label = f"Maine {_KIND_LABEL[lic.kind]} licence {lic.license_id}"
        subject = f"{label} ({titles[0]})" if len(titles) == 1 else label
        games = "; ".join(f"{r.title} on {_day(r.first_day)}"
                          for r in sorted({(r.first_day, r.ref): r for r in rows}.values(),
                                          key=lambda r: (r.first_day, r.ref))) or "none"
        about = (f"{label}, tier {lic.tier}, valid {_day(lic.valid_from)} to "
                 f"{_day(lic.valid_to)}, fee ${lic.fee_usd:,}. Covers: {games}.")
        opens, due = application_window(first, plan.scenario.notice_from)
        window = (f"The application must be received between {_day(opens)} "
                  f"and {_day(due)}: at most 90 days and at least 10 Maine "
                  f"business days before the first day it covers, {_day(first)} "
                  f"({cite('ME-APPLICATION-WINDOW')}).")
        if opens != application_opens(first):
            window += (f" (90 days before is {_day(application_opens(first))}, before this "
                       f"plan's notice_from; the window is shown from notice_from.)")
        yield _deadline(licence_uid(plan.scenario, "application-opens", lic.license_id,
                                    lic.operator_id, lineage), stamp,
                        f"Application window opens: {subject}", opens,
                        f"{about}\n{window}", "me-application-opens", WINDOW_ALARM,
                        lic.operator_id)
        yield _deadline(licence_uid(plan.scenario, "application-due", lic.license_id,
                                    lic.operator_id, lineage), stamp,
                        f"Application due: {subject}", due,
                        f"{about}\n{window}", "me-application-due", DEADLINE_ALARM,
                        lic.operator_id)
        periods = report_periods(lic.kind, lic.valid_from, lic.valid_to)
        for end in periods:
            due = report_due(end)
            suffix = f"-{end:%Y-%m}" if lic.kind == "me-annual" else ""
            period = (f"the month ending {_day(end)}" if lic.kind == "me-annual"
                      else f"the licensed period ending {_day(end)}")
            text = (f"{about}\nFile the disposition-of-funds report for {period} by "
                    f"{_day(due)}, 10 business days after the period ends, also if the game "
                    f"was cancelled ({cite('ME-REPORT')}).")
            yield _deadline(licence_uid(plan.scenario, "report", lic.license_id,
                                        lic.operator_id, lineage, suffix), stamp,
                            f"Disposition-of-funds report due: {subject}"
                            + (f", {end:%B %Y}" if lic.kind == "me-annual" else ""), due, text,
                            "me-report", DEADLINE_ALARM, lic.operator_id)
