"""The re-plan cancellation policy: what a plan's calendars publish as STATUS:CANCELLED, and
the SEQUENCE (RFC 5545 §3.8.7.4) every event gets across re-plans.

The calendar writer (:mod:`scheduler.export.ical`) renders what these functions decide; it
decides nothing itself:

- :func:`dropped`: an announced occurrence the new plan drops, with its UID and SEQUENCE + 1
  (§3.8.1.11), as published (timed or all day); a Montana large-stakes one takes its
  MT-NOTICE deadlines with it (their days from :func:`scheduler.core.timing.notice_due`);
- :func:`dropped_series`: a weekly series the new plan no longer writes, with its recurrence;
- :func:`vanished`: any other event the previous calendars published that the new ones do
  not write (a moved game's licence deadlines, ...); a cancellation already published is
  carried again, unchanged, until its date is before ``notice_from``;
- :func:`left`: a venue that no longer shows an event (it left a shared tournament, or the
  scenario): its calendar cancels the event from the day the plan is made as of on
  (:func:`scheduler.core.timing.made_day`), and :func:`departure_lines` says so in the summary;
- :func:`carried_deadlines`: a deadline event before that day is carried as published;
- :func:`sequence_floor`, :func:`series_sequence`, :func:`replaced_sequence`,
  :func:`content_sequence`: an event's SEQUENCE never goes down, goes up by one when its
  content changes (a title, a description, a time, a place, a status), and stays when it
  does not.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scheduler.core.jurisdiction import of_type
from scheduler.core.scenario import Scenario
from scheduler.core.timing import made_day, notice_due
from scheduler.core.uid import (
    DEADLINE_KIND as DEADLINE_KIND,  # read as scheduler.inputs.replan's too
)
from scheduler.core.uid import (
    DEADLINE_KINDS,
    NOTICE,
    OCCURRENCE,
    SERIES,
    is_deadline,
    kind_of_uid,
    licence_day,
    notice_uid,
)
from scheduler.core.uid import parse as parse_uid
from scheduler.inputs.replan.assign import series_history
from scheduler.inputs.replan.previous import Cancelled, PreviousEvent, PreviousSeries

_BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


@dataclass(frozen=True)
class Cancellation:
    """One STATUS:CANCELLED event a plan's calendars publish.

    ``start``/``end``: DTSTART and DTEND as the event was published (dates for an all-day
    event, DTEND exclusive; date-times for a timed one; ``end`` None when it had none).
    ``operators``: whose per-operator calendars show it; ``operators_property``: whether it
    names them in X-TOURNEY-OPERATORS. ``rrule``: the RRULE (RFC 5545 text) of a recurring
    event, ``last_day`` its last day. ``description``: new text (``carried`` False) or the
    DESCRIPTION as published, written again unchanged (``carried`` True)."""

    uid: str
    summary: str
    sequence: int
    start: dt.date
    end: dt.date | None
    operators: tuple[str, ...]
    operators_property: bool = True
    tournament_id: str = ""
    deadline: str = ""
    kind: str = ""
    rrule: str = ""
    last_day: dt.date | None = None
    description: str = ""
    carried: bool = False
    whole: bool = True
    """Shown in ``calendar.ics`` (the whole plan) too; False: only in the calendars of
    ``operators``, venues that no longer show an event the plan still holds for others."""


@dataclass(frozen=True)
class Carried:
    """A published event a re-plan's calendars carry exactly as published (its
    ``event.text``): a past deadline, or a past event of a venue that left it. ``whole``:
    in ``calendar.ics`` too, else only in the calendars of ``operators``."""

    event: PreviousEvent
    operators: tuple[str, ...]
    whole: bool = True


def is_past(old: PreviousEvent, made: dt.date) -> bool:
    """Whether a published event is past on the day a plan is made as of (``made``,
    :func:`scheduler.core.timing.made_day`): it starts before that day, and a recurring one has
    its last day before it too."""
    return old.day < made and (not old.rrule or old.last_day < made)


def _is_deadline(old: PreviousEvent) -> bool:
    return bool(old.deadline) or old.kind in DEADLINE_KINDS or is_deadline(old.uid)


def _own_day(old: PreviousEvent, days: dict[str, dt.date]) -> dt.date:
    """The day that says whether an event is history: a licence deadline's licence start
    (in its UID), a notice's occurrence (``days``: UID -> day), else the event's own day."""
    parsed = parse_uid(old.uid)
    lday = licence_day(old.uid)
    if lday:
        return dt.date.fromisoformat(lday)
    if parsed is not None and parsed.kind == "notice":
        return days.get(parsed.occurrence_uid or "", old.day)
    return old.day


def carried_deadlines(scenario: Scenario, previous_events: Iterable[PreviousEvent],
                      made: dt.date, written: set[str]) -> dict[str, PreviousEvent]:
    """The deadline events a re-plan never rewrites: each live deadline event (MT-NOTICE,
    ME-APPLICATION-WINDOW, ME-REPORT) the previous calendars published on a day before
    ``made`` (:func:`scheduler.core.timing.made_day`), by UID. The calendars carry it exactly as
    published (same bytes, SEQUENCE and DTSTAMP): a deadline that has passed is what it
    was, whatever the re-plan computes (an application window does not "open" again on a
    later day). One the new plan no longer writes (UIDs ``written``) is carried too unless
    it is history before the new horizon (what it is for is before the horizon's start)."""
    events = list(previous_events)
    days = {e.uid: e.day for e in events}
    return {e.uid: e for e in events
            if not e.cancelled and e.text and _is_deadline(e) and e.day < made
            and (e.uid in written or _own_day(e, days) >= scenario.horizon.start)}


def _kind(old: PreviousEvent) -> str:
    parsed = parse_uid(old.uid)
    return old.kind or DEADLINE_KIND.get(old.deadline, "") or (
        kind_of_uid(parsed) if parsed is not None else "")


def _cancel(old: PreviousEvent, operators: tuple[str, ...], whole: bool) -> Cancellation:
    return Cancellation(
        old.uid, f"Cancelled: {old.summary}", old.sequence + 1,
        old.dtstart if old.dtstart is not None else old.day, old.dtend, operators,
        tournament_id=old.tournament_id, deadline=old.deadline, kind=_kind(old),
        rrule=old.rrule, last_day=old.last_day if old.rrule else None, whole=whole)


def left(previous_events: Iterable[PreviousEvent], departed_events: Iterable[PreviousEvent],
         shown: Mapping[str, Iterable[str]], made: dt.date
         ) -> tuple[list[Cancellation], list[Carried]]:
    """What the calendars of venues that no longer show a published event publish in its
    place, so that a subscriber's or an import's copy follows (RFC 5546 §3.2.5):

    - a venue that left an event the plan still holds for others (it left a shared
      tournament, or the scenario): in its own calendar only, the event cancelled (its UID,
      SEQUENCE + 1) when it is not past on ``made``, else carried as published;
    - the events only venues that left the scenario showed (``departed_events``): cancelled
      in ``calendar.ics`` and their calendars when not past, else carried as published in
      their calendars only; a cancellation they published is carried until its date has
      passed.

    ``previous_events``: the other events the previous calendars published, each with the
    venues whose calendars showed it; ``shown``: UID -> the venues whose calendars show it in
    the new plan (every event written, cancellations too); ``made``: the day the plan is
    made as of (:func:`scheduler.core.timing.made_day`; :func:`is_past`). An event the new plan
    does not write at all is left to :func:`dropped` and :func:`vanished`."""
    cancels: list[Cancellation] = []
    carries: list[Carried] = []
    for old in previous_events:
        if old.cancelled or old.uid not in shown:
            continue
        now = set(shown[old.uid])
        gone = tuple(o for o in old.operators if o not in now)
        if not gone:
            continue
        if not is_past(old, made):
            cancels.append(_cancel(old, gone, whole=False))
        elif old.text:
            carries.append(Carried(old, gone, whole=False))
    for old in departed_events:
        whole = old.uid not in shown
        if old.cancelled:
            if max(old.day, old.last_day) >= made:
                cancels.append(Cancellation(
                    old.uid, old.summary, old.sequence,
                    old.dtstart if old.dtstart is not None else old.day, old.dtend,
                    old.operators, tournament_id=old.tournament_id, deadline=old.deadline,
                    kind=_kind(old), rrule=old.rrule,
                    last_day=old.last_day if old.rrule else None,
                    description=old.description, carried=bool(old.description),
                    whole=whole))
        elif not is_past(old, made):
            cancels.append(_cancel(old, old.operators, whole))
        elif old.text:
            carries.append(Carried(old, old.operators, whole=False))
    return cancels, carries


def departure_lines(scenario: Scenario, previous_events: Iterable[PreviousEvent],
                    departed_events: Iterable[PreviousEvent],
                    departed: Iterable[tuple[str, str]], made: dt.date) -> list[str]:
    """The summary's plain words for what :func:`left` cancels, one line per venue that
    left the scenario (``departed``: operator id, name) and per venue of the scenario that
    left a tournament it co-hosted, e.g. ``Hellgate Card Room (room2) left 'Two-Room
    Stack': its 2 future events are cancelled on its calendar (calendars/room2.ics).``
    Counted: the events its calendar showed that are not past on ``made`` (games and
    deadlines; :func:`is_past`). No line when nothing of it is cancelled."""
    before = [e for e in previous_events if not e.cancelled and not is_past(e, made)]
    theirs = [e for e in departed_events if not e.cancelled and not is_past(e, made)]

    def words(oid: str, name: str, what: str, n: int) -> str:
        events = "1 future event is" if n == 1 else f"{n} future events are"
        return (f"{name} ({oid}) left {what}: its {events} cancelled on its calendar "
                f"(calendars/{oid}.ics).")

    lines = []
    for oid, name in sorted(departed):
        n = sum(1 for e in (*before, *theirs) if oid in e.operators)
        if n:
            lines.append(words(oid, name, "the plan", n))
    known = {t.id: t for t in scenario.tournaments}
    venues = {o.id: o.name for o in scenario.operators}
    counts: dict[tuple[str, str], int] = {}
    for e in before:
        t = known.get(e.tournament_id)
        if t is None:
            continue
        for oid in e.operators:
            if oid in venues and oid not in t.operators:
                counts[(oid, t.id)] = counts.get((oid, t.id), 0) + 1
    for (oid, tid), n in sorted(counts.items()):
        lines.append(words(oid, venues[oid], f"'{known[tid].title}'", n))
    return lines


def _day(d: dt.date) -> str:
    return f"{d:%a} {d.isoformat()}"


def _span_of(text: str) -> tuple[dt.datetime, dt.datetime] | None:
    try:
        a, _, b = text.partition("|")
        return dt.datetime.fromisoformat(a), dt.datetime.fromisoformat(b)
    except ValueError:
        return None


def dropped(scenario: Scenario, cancelled: Iterable[Cancelled],
            previous_events: Iterable[PreviousEvent],
            previous_series: Iterable[PreviousSeries]) -> list[Cancellation]:
    """The announced occurrences the new plan drops (``cancelled``, from
    :func:`scheduler.inputs.replan.assign.assign`), each with its UID and SEQUENCE + 1 (RFC 5545
    §3.8.1.11), so subscribed calendars remove it. A Montana large-stakes one takes its
    MT-NOTICE deadline of each operator with it (MCA 23-5-317(1)(d); the day from
    :func:`scheduler.core.timing.notice_due`). A timed (Maine) game is cancelled as a timed event,
    an all-day (Montana) one as an all-day event, as each was published. Nights announced
    only inside a weekly series are left to :func:`dropped_series`."""
    known = {t.id: t for t in scenario.tournaments}
    before = {e.uid: e for e in previous_events}
    # nights that were announced only inside a weekly series have no UID of their own
    in_series = {(s.tournament_id, d) for s in previous_series for d in s.nights}
    out: list[Cancellation] = []
    for c in cancelled:
        if (c.tournament_id, c.first_day) in in_series:
            continue
        t = known.get(c.tournament_id)
        if t is not None and t.is_large:
            due = notice_due(c.first_day)
            out += [Cancellation(notice_uid(c.uid, oid), f"Cancelled: notice for {c.title}",
                                 c.sequence, due, due + dt.timedelta(days=1), (oid,),
                                 operators_property=False, deadline="mt-notice", kind=NOTICE)
                    for oid in c.operators]
        old = before.get(c.uid)
        span = _span_of(c.span) if c.span else None
        start: dt.date
        end: dt.date | None
        if old is not None and old.dtstart is not None:
            start, end = old.dtstart, old.dtend
        elif span is not None and (t is None or not of_type(t.type).all_day_events):
            start, end = span
        else:
            start, end = c.first_day, c.first_day + dt.timedelta(days=1)
        out.append(Cancellation(
            c.uid, f"Cancelled: {c.title}", c.sequence, start, end, tuple(c.operators),
            tournament_id=c.tournament_id, kind=OCCURRENCE,
            description=f"{c.title} on {_day(c.first_day)} is cancelled in this plan."))
    return out


def dropped_series(scenario: Scenario, previous_series: Iterable[PreviousSeries],
                   written: set[str]) -> list[Cancellation]:
    """The previous weekly series the new plan no longer writes (UIDs not in ``written``:
    pattern changed or tournament dropped), cancelled with their recurrence (so a series is
    history only after its last night), SEQUENCE + 1, in UID order. Last year's series (all
    nights before the horizon, :func:`scheduler.inputs.replan.assign.series_history`) are left
    alone."""
    out = []
    by_uid = {s.uid: s for s in previous_series}
    for old in sorted(by_uid.values(), key=lambda s: s.uid):
        if old.uid in written or series_history(scenario, old):
            continue
        first, last = old.nights[0], old.nights[-1]
        rrule = (f"FREQ=WEEKLY;UNTIL={last:%Y%m%d};BYDAY={_BYDAY[first.weekday()]}"
                 if len(old.nights) > 1 else "")
        out.append(Cancellation(old.uid, f"Cancelled: {old.title}", old.sequence + 1, first,
                                first + dt.timedelta(days=1), tuple(old.operators),
                                tournament_id=old.tournament_id, kind=SERIES, rrule=rrule,
                                last_day=last))
    return out


def vanished(scenario: Scenario, previous_events: Iterable[PreviousEvent],
             written: set[str]) -> list[Cancellation]:
    """Any event the previous calendars published that this plan no longer writes (UIDs not
    in ``written``: a moved game's licence deadlines, a dropped series, ...), with its UID and
    SEQUENCE + 1, so that imported and subscribed calendars drop it too.

    A cancellation the previous calendars carried is carried again, unchanged (same
    SEQUENCE, same DESCRIPTION), until the event's last day (for a deadline: the day of the
    game or licence it is for) is before the day the plan is made as of
    (:func:`scheduler.core.timing.filing_from`: the later of ``notice_from`` and ``as_of``): a
    subscriber who skipped the version that cancelled it still sees it go. A live event
    before the new horizon is history, left alone."""
    events = list(previous_events)
    start = scenario.horizon.start
    days = {e.uid: e.day for e in events}
    known = {t.id: t for t in scenario.tournaments}
    out = []
    for old in events:
        if old.uid in written:
            continue
        parsed = parse_uid(old.uid)
        # the day that says whether it is history (:func:`_own_day`)
        day = _own_day(old, days)
        if old.cancelled:
            if max(day, old.last_day) < made_day(scenario):
                continue  # its date has passed: nobody needs the cancellation any more
            summary, seq = old.summary, old.sequence
        else:
            if day < start:
                continue  # history before the new horizon
            summary, seq = f"Cancelled: {old.summary}", old.sequence + 1
        t = known.get(old.tournament_id)
        ops = old.operators or (t.operators if t is not None else ())
        # an earlier calendar's event without X-TOURNEY-KIND: the writer names what it
        # cancels (``tourney check`` never reads a kind from a UID)
        kind = old.kind or DEADLINE_KIND.get(old.deadline, "") or (
            kind_of_uid(parsed) if parsed is not None else "")
        carried = bool(old.cancelled and old.description)
        out.append(Cancellation(
            old.uid, summary, seq, old.dtstart if old.dtstart is not None else old.day,
            old.dtend, tuple(ops), tournament_id=old.tournament_id, deadline=old.deadline,
            kind=kind, rrule=old.rrule, last_day=old.last_day if old.rrule else None,
            description=old.description if carried else "", carried=carried))
    return out


def sequence_floor(old: PreviousEvent | None, sequence: int, cancelled_now: bool) -> int:
    """RFC 5545 §3.8.7.4 across re-plans: the SEQUENCE of an event (``sequence`` as
    computed) that the previous calendars published as ``old``: never lower than theirs, and
    one more when that UID had been cancelled (a UID given back after a cancellation, e.g. a
    series or a licence deadline that returns) and is not cancelled now."""
    if old is None:
        return sequence
    return max(sequence, old.sequence + (1 if old.cancelled and not cancelled_now else 0))


def session_sequence(old: PreviousEvent | None, sequence: int, start: object, end: object,
                     play: str) -> int:
    """The SEQUENCE of one session's event (flights and day 2s, X-TOURNEY-SESSION) across a
    re-plan: one more than the previous calendars' (``old``) when its DTSTART, DTEND
    (``start``, ``end``: decoded, a date or an aware date-time) or its X-TOURNEY-PLAY
    (``play``, ``start/end`` of play) changed (RFC 5545 §3.8.7.4), e.g. Day 2 moved from
    12:00 for 12 h to 14:00 for 10 h while the occurrence's own span stays; ``sequence``
    otherwise. A session's times can change while its occurrence keeps its days and span,
    so the occurrence's SEQUENCE (``scheduler.inputs.replan.assign``) alone does not show it."""
    if old is None or old.cancelled:
        return sequence
    same = (type(old.dtstart) is type(start) and old.dtstart == start
            and type(old.dtend) is type(end) and old.dtend == end
            and (not old.play or old.play == play))
    return sequence if same else max(sequence, old.sequence + 1)


def _play_shape(play: str) -> tuple[str, float] | None:
    """X-TOURNEY-PLAY ``start/end`` as (local start time, hours): what a weekly series keeps
    from night to night."""
    try:
        a, _, b = play.partition("/")
        start, end = dt.datetime.fromisoformat(a), dt.datetime.fromisoformat(b)
    except ValueError:
        return None
    return f"{start:%H:%M}", (end - start).total_seconds() / 3600


def series_sequence(old: PreviousSeries, nights: tuple[dt.date, ...], play: str,
                    members: int) -> int:
    """The SEQUENCE of a weekly series the previous calendars published as ``old``: its
    SEQUENCE + 1 when the re-plan changes its nights (EXDATE, UNTIL) or its play time
    (X-TOURNEY-PLAY ``play``), RFC 5545 §3.8.7.4; at least ``members``, the highest SEQUENCE
    of its nights."""
    retimed = bool(old.play) and _play_shape(old.play) != _play_shape(play)
    return max(old.sequence + (nights != old.nights or retimed), members)


def content_sequence(old: PreviousEvent | None, sequence: int, content: str) -> int:
    """RFC 5545 §3.8.7.4 across re-plans, on the event as written: ``sequence`` (as the other
    policies computed it) for an event the previous calendars did not publish (``old``
    None, or its content unknown); the previous SEQUENCE when the content (``content``, its
    :func:`scheduler.inputs.replan.previous.fingerprint`) is the same; else at least one more than
    the
    previous SEQUENCE (a renamed event, another description or place, a time, a status)."""
    if old is None or not old.fingerprint:
        return sequence
    if content == old.fingerprint:
        return old.sequence
    return max(sequence, old.sequence + 1)


def replaced_sequence(sequence: int, before: int, unchanged: bool) -> int:
    """Solved again into the folder of an earlier plan of the same lineage: an event whose
    content changed gets SEQUENCE + 1 over the earlier one's (``before``), RFC 5545
    §3.8.7.4; an unchanged one keeps at least the earlier SEQUENCE."""
    return max(sequence, before if unchanged else before + 1)
