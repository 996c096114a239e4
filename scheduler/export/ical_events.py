"""The VEVENTs of a plan's calendars: one per placed occurrence, the weekly series
(:mod:`scheduler.export.ical_series`), and the cancellations the re-plan policy decides
(:mod:`scheduler.inputs.replan.cancel`), each written as it was published.

- Each placed occurrence is one VEVENT (UID = the rows' ``uid``, the same in every file),
  except weekly Montana small-stakes nights. A tournament on the premises of several
  operators appears once in ``calendar.ics`` with every venue in LOCATION and DESCRIPTION,
  and the same VEVENT appears in each co-host's file.
- Montana occurrences are all-day events (``DTSTART;VALUE=DATE`` = first day, ``DTEND`` = last
  day + 1, exclusive, RFC 5545 §3.6.1; a "day" is a calendar day, ARM 23.16.101) with
  X-TOURNEY-PLAY (play start/end), which the all-day DTSTART/DTEND do not show, unless the
  (first) operator's ``calendar_style`` is ``timed``: then, as Maine occurrences always are,
  timed events in the operator's zone (``DTSTART;TZID=...``), play start to play end.
- An occurrence of a tournament given as ``sessions`` (flights, a day 2) is one VEVENT per
  session (:func:`_session_items`), titled ``<title> — <session name>``, with
  X-TOURNEY-SESSION (1, 2, ...): the first session's UID is the occurrence's, the k-th's the
  occurrence's with the stable suffix ``.s<k>`` (:func:`scheduler.core.uid.session_uid`; separate
  UIDs, no RECURRENCE-ID). A re-plan that drops the occurrence cancels the first with it and
  the others as events it no longer writes (``scheduler.inputs.replan.cancel.vanished``).
- A cancellation (STATUS:CANCELLED) keeps the value type its event was published with, so
  that a client updates the event it holds rather than seeing another kind.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Iterable, Iterator

from scheduler.core.jurisdiction import jurisdiction
from scheduler.core.scenario import Scenario
from scheduler.core.timing import read_timing
from scheduler.core.uid import (
    DEADLINE_PROPERTY,
    KIND_PROPERTY,
    OCCURRENCE,
    OCCURRENCE_PROPERTY,
    OPERATORS_PROPERTY,
    PERMIT_HELD_PROPERTY,
    PLAY_PROPERTY,
    SESSION_PROPERTY,
    STATUS_PROPERTY,
    TOURNAMENT_PROPERTY,
    session_uid,
)
from scheduler.export.ical_describe import (
    PERMIT_HELD,
    Words,
    description,
    licence_text,
    licence_words,
    venue_lines,
)
from scheduler.export.ical_series import series_item
from scheduler.export.ical_text import (
    DAY,
    CalendarItem,
    Text,
    VEvent,
    ambiguous,
    clock,
    content_line,
    date_text,
    escape_text,
    fold,
    ical_day,
    midnight,
    new_event,
    operator_of,
    operators_value,
    plan_lineage,
    sequence_line,
    stamp_line,
    text_value,
    tournament_of,
    uid_line,
)
from scheduler.inputs.replan.assign import series_uids
from scheduler.inputs.replan.cancel import Cancellation, dropped_series, series_sequence
from scheduler.result.plan import OperatorOccurrence, Plan
from scheduler.result.publishing import (
    occurrence_groups,
    play_span,
    timed_style,
    weekly_series,
)


def _group(plan: Plan) -> dict[tuple[str, int], list[OperatorOccurrence]]:
    return occurrence_groups(plan.scenario, plan.rows)


def occurrence_items(plan: Plan, stamp: dt.datetime) -> Iterable[CalendarItem]:
    """Every placed occurrence as its VEVENT, the weekly series as one each (UIDs of
    announced series kept, SEQUENCE raised when they change), and the series a re-plan
    drops, cancelled."""
    # by (tournament, occurrence), the order the events are made in (and weekly_series' own)
    every = _group(plan)
    groups = {key: every[key] for key in sorted(every)}
    series = weekly_series(groups, plan.scenario, plan_lineage(plan))
    if plan.previous_series or plan.previous_events:
        # a re-plan: announced series keep their UIDs, last year's are left to it
        uids = series_uids(plan.scenario, [(u, m[0][0].tournament_id,
                                            [rs[0].first_day for rs in m]) for u, m in series],
                           plan.previous_series, plan.previous_events)
        series = [(u, m) for u, (_, m) in zip(uids, series, strict=True)]
    in_series = {(rows[0].tournament_id, rows[0].occurrence)
                 for _, members in series for rows in members}
    words = licence_words(plan.license_list)  # each licence in words, not its id
    sc = plan.scenario
    for (tid, occ), rows in groups.items():
        if (tid, occ) in in_series:
            continue
        t = tournament_of(sc, tid)
        if t is not None and t.sessions:  # one event per session
            yield from _session_items(sc, tid, occ, rows, stamp, words)
        else:
            yield _occurrence_item(sc, tid, occ, rows, stamp, words)
    before = {s.uid: s for s in plan.previous_series}
    for uid, members in series:
        item = series_item(plan.scenario, uid, members, stamp, words)
        old = before.get(uid)
        if old is not None:
            # RFC 5545 §3.8.7.4: the re-plan policy raises it when the nights or the play
            # time changed
            item.event.set("SEQUENCE", series_sequence(
                old, tuple(sorted(rs[0].first_day for rs in members)),
                str(item.event.get(PLAY_PROPERTY, "")),
                max(rs[0].sequence for rs in members)))
        yield item
    # the series the new plan no longer writes, as the re-plan policy cancels them
    for c in dropped_series(plan.scenario, plan.previous_series, {uid for uid, _ in series}):
        yield cancellation_item(plan.scenario, c, stamp)


def _session_items(scenario: Scenario, tid: str, occ: int, rows: list[OperatorOccurrence],
                   stamp: dt.datetime, words: Words | None = None
                   ) -> Iterator[CalendarItem]:
    """The VEVENTs of one occurrence: one (:func:`_occurrence_item`), or one per session of a
    tournament with ``sessions``, each rendered as an occurrence of that session's own start,
    end and days, titled ``<title> — <session name>`` (a single session without a ``name``:
    ``<title>``), UID :func:`scheduler.core.uid.session_uid`
    of the occurrence's, property :data:`SESSION_PROPERTY`. Only the first session's event
    stands for the occurrence in the plan's identity (its ``members``)."""
    t = tournament_of(scenario, tid)
    first = rows[0]
    tm = (read_timing(scenario, t, first.start, first.end)
          if t is not None and t.sessions else None)
    if t is None or tm is None or not tm.sessions:
        yield _occurrence_item(scenario, tid, occ, rows, stamp, words)
        return
    for k, ((a, b), x) in enumerate(zip(tm.sessions, t.sessions, strict=True), start=1):
        last = (b - dt.timedelta(microseconds=1)).date()
        # one session without a name of its own: the tournament's title alone (not "C — Day 1")
        title = (f" — {x.label}" if len(t.sessions) > 1 or x.name else "")
        mine = [dataclasses.replace(r, uid=session_uid(r.uid, k), title=f"{r.title}{title}",
                                    start=a, end=b, first_day=a.date(), last_day=last)
                for r in rows]
        item = _occurrence_item(scenario, tid, occ, mine, stamp, words)
        item.event.add(SESSION_PROPERTY, str(k))
        yield item if k == 1 else dataclasses.replace(item, members=())


_KIND_LINE = fold(f"{KIND_PROPERTY}:{OCCURRENCE}")
"""X-TOURNEY-KIND of an occurrence (folded, made once)."""


@functools.lru_cache(maxsize=64)
def _status_line(status: str) -> str:
    """X-TOURNEY-STATUS of an occurrence (folded, once per status)."""
    return fold(f"{STATUS_PROPERTY}:{status}")


def _occurrence_item(scenario: Scenario, tid: str, occ: int, rows: list[OperatorOccurrence],
                     stamp: dt.datetime, words: Words | None = None
                     ) -> CalendarItem:
    """The VEVENT of one placed occurrence (``rows``: one per operator, its first operator
    first): its content lines made directly, as ``VEvent.add`` makes them."""
    if words is None:
        words = Words()
    first = rows[0]
    tzid: str | None = None
    days_style = jurisdiction(first.jurisdiction).all_day_events  # Montana's
    a, b = first.first_day, first.last_day
    if days_style and not timed_style(scenario, rows):
        after = b + DAY  # DTEND: exclusive (RFC 5545 §3.6.1)
        span = play_span(first)
        when = {"DTSTART": f"DTSTART;VALUE=DATE:{date_text(a)}",
                "DTEND": f"DTEND;VALUE=DATE:{date_text(after)}",
                PLAY_PROPERTY: fold(f"{PLAY_PROPERTY}:{span}")}
        when_values: dict[str, object] = {"DTSTART": a, "DTEND": after, PLAY_PROPERTY: span}
        key = midnight(a)
        dates = (f"Dates: {ical_day(a)} to {ical_day(b)} (all day, {(b - a).days + 1} "
                 f"calendar day(s)); play starts {clock(first.start)} and ends "
                 f"{clock(first.end)}.")
    else:
        op0 = operator_of(scenario, first.operator_id)
        tz = op0.tz if op0 is not None else first.start.tzinfo
        start, end = first.start.astimezone(tz), first.end.astimezone(tz)
        # a local time in the repeated hour (clocks fall back) would be read as the first of
        # the two (RFC 5545 §3.3.5): write such a time in UTC so it cannot be misread
        shown = start if not ambiguous(start) else start.astimezone(dt.UTC)
        shown_end = end if not ambiguous(end) else end.astimezone(dt.UTC)
        when = {"DTSTART": fold(content_line("DTSTART", shown)),
                "DTEND": fold(content_line("DTEND", shown_end))}
        when_values = {"DTSTART": shown, "DTEND": shown_end}
        tzid = str(getattr(start.tzinfo, "key", start.tzname()))
        key = start.replace(tzinfo=None)
        # real elapsed time (same-zone datetimes subtract as wall clocks in Python)
        hours = (end.astimezone(dt.UTC) - start.astimezone(dt.UTC)).total_seconds() / 3600
        dates = (f"Dates: starts {clock(start)}, ends {clock(end)} ({tzid}), "
                 f"{hours:g} hours.")
        if days_style:  # calendar_style: timed
            dates = (f"Dates: {ical_day(a)} to {ical_day(b)} ({(b - a).days + 1} calendar "
                     f"day(s)); play starts {clock(start)} and ends {clock(end)} ({tzid}).")
    licences = [licence_text(scenario, r, words) for r in rows]
    venues = venue_lines(scenario, rows, licences, words)
    lines, values = description(scenario, tid, rows, dates, venues, f"occurrence {occ}", words)
    number = str(occ)
    uid, seq, title = first.uid, first.sequence, first.title
    lines.update(when, UID=uid_line(uid), DTSTAMP=stamp_line(stamp),
                 SEQUENCE=sequence_line(seq),
                 SUMMARY=fold(f"SUMMARY:{escape_text(title)}"))
    values.update(when_values, UID=uid, DTSTAMP=stamp, SEQUENCE=seq, SUMMARY=Text(title))
    # what schedule.csv says of the rows, for `tourney check` of the calendar: the status
    # (held and filed ones judged on what happened) and the permits held before the plan
    lines[OCCURRENCE_PROPERTY] = fold(f"{OCCURRENCE_PROPERTY}:{number}")
    lines[KIND_PROPERTY] = _KIND_LINE
    lines[STATUS_PROPERTY] = _status_line(first.status)
    values[OCCURRENCE_PROPERTY] = number
    values[KIND_PROPERTY] = OCCURRENCE
    values[STATUS_PROPERTY] = first.status
    if PERMIT_HELD in licences:
        held = operators_value(dict.fromkeys(
            r.operator_id for r, lic in zip(rows, licences, strict=True) if lic == PERMIT_HELD))
        lines[PERMIT_HELD_PROPERTY] = fold(f"{PERMIT_HELD_PROPERTY}:{held}")
        values[PERMIT_HELD_PROPERTY] = held
    return CalendarItem((key, uid), frozenset([r.operator_id for r in rows]),
                        VEvent("VEVENT", lines, values), tzid,
                        (first.start.date(), first.end.date()), ((tid, occ, a),))


def _when(scenario: Scenario, operator_id: str | None, start: dt.date, end: dt.date | None
          ) -> tuple[dt.date, dt.date | None, str | None, dt.datetime]:
    """DTSTART, DTEND, TZID and sort key of a cancelled event written as it was published:
    a timed event stays timed (in its zone, or UTC), an all-day one all-day."""
    if isinstance(start, dt.datetime):
        op = operator_of(scenario, operator_id) if operator_id else None
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
        midnight(start)


def cancellation_item(scenario: Scenario, c: Cancellation, stamp: dt.datetime) -> CalendarItem:
    """The STATUS:CANCELLED VEVENT of ``c`` (decided by :mod:`scheduler.inputs.replan.cancel`), with
    the value type (DATE or DATE-TIME) it was published with, so that a client updates the
    event it holds rather than seeing another kind; ``stamp`` is its DTSTAMP (UTC)."""
    ops = tuple(dict.fromkeys(c.operators))
    ev = new_event(c.uid, stamp, c.summary, c.sequence)
    ev.add("STATUS", "CANCELLED")
    first, last, tzid, key = _when(scenario, ops[0] if ops else None, c.start, c.end)
    ev.add("DTSTART", first)
    if last is not None:
        ev.add("DTEND", last)
    if ops and c.operators_property:
        ev.add(OPERATORS_PROPERTY, operators_value(ops))
    a = first.date() if isinstance(first, dt.datetime) else first
    b = (last.date() if isinstance(last, dt.datetime) else last) if last is not None else a
    span = (a, max(a, b))
    if c.rrule:
        ev.add("RRULE", c.rrule)  # as published (icalendar's RECUR text of it)
        span = (a, max(span[1], c.last_day or span[1]))
    if c.tournament_id:
        ev.add(TOURNAMENT_PROPERTY, c.tournament_id)
    if c.deadline:
        ev.add(DEADLINE_PROPERTY, c.deadline)
    if c.kind:
        ev.add(KIND_PROPERTY, c.kind)
    if c.description:  # carried as it was published, or new text
        ev.add("DESCRIPTION", c.description if c.carried else text_value(c.description))
    return CalendarItem((key, c.uid), frozenset(ops), ev, tzid, span, whole=c.whole)
