"""A solved plan's identity and publishing state: what its calendars must agree with.

Every plan ``scheduler.engine.solver.solve`` returns leaves here finished, so ``write_plan(plan,
dir)`` from Python writes the calendars ``tourney solve`` writes:

- :func:`identify`: the rows' UIDs and SEQUENCEs, the plan lineage, and for a re-plan the
  previous calendars' publishing state (what they published: updated or cancelled by UID);
- and :func:`with_replaced`: solved again into a folder that holds an earlier plan of the same
  lineage without a re-plan, an event that changed gets a higher SEQUENCE and the calendars a
  later DTSTAMP (RFC 5545 §3.8.7.4, RFC 5546 §2.1.4), from :func:`replaced_events`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from scheduler.core.jurisdiction import jurisdiction
from scheduler.core.limits import LimitError, read_bounded
from scheduler.core.scenario import Scenario
from scheduler.core.uid import (
    LINEAGE_PROPERTY,
    inherited_lineage,
    lineage_key,
    occurrence_uid,
    series_uid,
)
from scheduler.inputs.replan.assign import assign, deadline_passed, pinned, series_uids
from scheduler.inputs.replan.cancel import sequence_floor, series_sequence
from scheduler.inputs.replan.previous import (
    PreviousError,
    PublishedOccurrence,
    fingerprint,
    previous_dtstamp,
)
from scheduler.inputs.replan.read import Previous, holds_plan
from scheduler.result.plan import OperatorOccurrence, Plan

__all__ = [
    "identify", "occurrence_groups", "play_span", "replaced_events", "status", "timed_style",
    "weekly_series", "with_replaced", "with_series",
]


def identify(plan: Plan, scenario: Scenario, previous: list[PublishedOccurrence] | None) -> Plan:
    """``plan`` (freshly solved, of ``scenario``) with its rows' UIDs and SEQUENCEs: a new
    Plan (``plan`` is not changed). The plan lineage is the previous plan's (a re-plan keeps
    its UIDs, :func:`scheduler.inputs.replan.assign`) or the scenario's own
    (:func:`scheduler.core.uid.lineage_key`); without ``previous`` occurrence ``n`` of a
    tournament is UID ``<tournament>-<n>@<first operator>.<lineage>.<domain>``, SEQUENCE 0.

    With a :class:`scheduler.inputs.replan.read.Previous` (what ``read_previous`` returns) the plan
    also
    gets the previous plan's publishing state (``previous_series``, ``previous_events``,
    ``previous_dtstamp``, the venues that left: ``departed``, ``departed_events``): its
    calendars update or cancel what the previous ones published;
    ``cancelled`` lists the announced occurrences it drops.
    """
    if isinstance(previous, Previous):
        plan = replace(plan, previous_dtstamp=previous.dtstamp,
                       previous_series=tuple(previous.series),
                       previous_events=tuple(previous.events),
                       departed=tuple(sorted(previous.departed.items())),
                       departed_events=tuple(previous.departed_events))
    lineage = (inherited_lineage(a.uid for a in previous) if previous else None) \
        or lineage_key(scenario)
    known = {t.id: t for t in scenario.tournaments}
    if previous is None:
        return with_series(replace(plan, lineage=lineage, rows=tuple(_with(
            r, uid=occurrence_uid(scenario, r.tournament_id, r.occurrence,
                                  known[r.tournament_id].operators[0], lineage),
            sequence=0, status=status(scenario, r.tournament_id, r.first_day))
            for r in plan.rows)))
    days: dict[str, list[dt.date]] = {}
    spans: dict[tuple[str, dt.date], str] = {}
    for r in plan.rows:
        if (r.tournament_id, r.first_day) not in spans:
            days.setdefault(r.tournament_id, []).append(r.first_day)
            spans[(r.tournament_id, r.first_day)] = f"{r.start.isoformat()}|{r.end.isoformat()}"
    ids, cancelled = assign(scenario, previous, days, spans, lineage)
    announced = {a.uid for a in previous}
    # a night of a published series has no UID of its own: announced by its day
    nights = {(a.tournament_id, a.first_day) for a in previous if not a.cancelled}
    pins = {(tid, d) for tid, ds in pinned(scenario, [a for a in previous if not a.cancelled])
            .items() for d in ds if deadline_passed(scenario, known[tid], d)}
    return with_series(replace(
        plan, lineage=lineage, cancelled=tuple(cancelled), replanned=True,
                   rows=tuple(_with(r, uid=ids[(r.tournament_id, r.first_day)].uid,
                                      sequence=ids[(r.tournament_id, r.first_day)].sequence,
                                      status=status(scenario, r.tournament_id, r.first_day,
                                                    ids[(r.tournament_id, r.first_day)].uid
                                                    in announced
                                                    or (r.tournament_id, r.first_day)
                                                    in nights, pins))
                              for r in plan.rows)))


def _with(row: OperatorOccurrence, **changes: object) -> OperatorOccurrence:
    """``dataclasses.replace(row, **changes)`` for the identity fields this module sets
    (``uid``, ``sequence``, ``status``, ``recurrence_id``): the same row, made without
    ``replace``'s walk over the fields and the frozen ``__init__`` (OperatorOccurrence has
    no ``__post_init__`` and every field is an ``__init__`` field), about a fifth of the
    time: every row of a plan is given its identity, 13,000 at N = 200 (issue #27)."""
    new = object.__new__(OperatorOccurrence)
    new.__dict__.update(row.__dict__, **changes)
    return new


def occurrence_groups(scenario: Scenario, rows: Iterable[OperatorOccurrence]
                      ) -> dict[tuple[str, int], list[OperatorOccurrence]]:
    """The rows of each placed occurrence, ``(tournament id, occurrence) -> rows``, each
    occurrence's rows in its tournament's operator order (its first operator first)."""
    groups: dict[tuple[str, int], list[OperatorOccurrence]] = {}
    for row in rows:
        groups.setdefault((row.tournament_id, row.occurrence), []).append(row)
    known = {t.id: t for t in scenario.tournaments}
    for (tid, _), mine in groups.items():
        if len(mine) == 1:  # one venue: nothing to order
            continue
        t = known.get(tid)
        order = {o: i for i, o in enumerate(t.operators)} if t else {}
        mine.sort(key=lambda r: (order.get(r.operator_id, len(order)), r.operator_id))
    return groups


def timed_style(scenario: Scenario, rows: list[OperatorOccurrence]) -> bool:
    """Whether a Montana occurrence is written as a timed event (DTSTART/DTEND with TZID):
    the ``calendar_style`` of its first operator (``rows`` in the tournament's operator
    order) is ``timed``; the one VEVENT is the same in every co-host's file."""
    try:
        op = scenario.operator(rows[0].operator_id)
    except KeyError:
        return False
    return op.calendar_style == "timed"


def _shape(rows: list[OperatorOccurrence]) -> tuple[tuple[str, ...], int]:
    """What must be the same for every occurrence of a series: venues and length in days."""
    return tuple([r.operator_id for r in rows]), (rows[0].last_day - rows[0].first_day).days


def weekly_series(groups: dict[tuple[str, int], list[OperatorOccurrence]], scenario: Scenario,
                  lineage: str) -> list[tuple[str, list[list[OperatorOccurrence]]]]:
    """The weekly series of Montana small-stakes tournaments (one recurring VEVENT each,
    RFC 5545 RRULE): ``(fresh uid, occurrences)``, the occurrences (each its rows,
    :func:`occurrence_groups`) in date order. The one home of the decision: the calendars
    (:mod:`scheduler.export.ical_series`) and the plan's rows (:func:`with_series`) read it.

    One series per tournament and weekday with at least two occurrences, all with the same
    venues and length; anything else, and the nights of an operator whose ``calendar_style``
    is ``timed``, stays one VEVENT per occurrence. A re-plan's series keep the UIDs they
    were published with (:func:`scheduler.inputs.replan.assign.series_uids`)."""
    by_t: dict[str, dict[int, list[list[OperatorOccurrence]]]] = {}
    all_day: dict[str, bool] = {}  # by jurisdiction
    untimed: dict[str, bool] = {}  # by first operator
    for key in sorted(groups):
        rows = groups[key]
        r = rows[0]
        if r.type != "small-stakes":
            continue
        if r.jurisdiction not in all_day:
            all_day[r.jurisdiction] = jurisdiction(r.jurisdiction).all_day_events
        if r.operator_id not in untimed:
            untimed[r.operator_id] = not timed_style(scenario, rows)
        if all_day[r.jurisdiction] and untimed[r.operator_id]:
            by_t.setdefault(key[0], {}).setdefault(r.first_day.weekday(), []).append(rows)
    out: list[tuple[str, list[list[OperatorOccurrence]]]] = []
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


def play_span(row: OperatorOccurrence) -> str:
    """X-TOURNEY-PLAY of an all-day event: ``start/end`` of play, ISO 8601 with offset."""
    return f"{row.start.isoformat()}/{row.end.isoformat()}"


def with_series(plan: Plan) -> Plan:
    """``plan`` with each night of a weekly series (:func:`weekly_series`) given its
    calendar identity, as schedule.csv and calendar.ics show it: the series' UID (a
    re-plan's as published, :func:`scheduler.inputs.replan.assign.series_uids`), its RECURRENCE-ID
    day
    (``recurrence_id``) and the series' SEQUENCE (raised when its nights or play time
    changed, :func:`scheduler.inputs.replan.cancel.series_sequence`; never lower than published,
    :func:`scheduler.inputs.replan.cancel.sequence_floor`). So ``plan.schedule`` joins
    ``Ledger.events()`` on ``uid`` as schedule.csv does."""
    sc = plan.scenario
    lineage = plan.lineage or lineage_key(sc)
    series = weekly_series(occurrence_groups(sc, plan.rows), sc, lineage)
    if not series:
        return plan
    if plan.previous_series or plan.previous_events:
        uids = series_uids(sc, [(u, m[0][0].tournament_id, [rs[0].first_day for rs in m])
                                for u, m in series], plan.previous_series, plan.previous_events)
        series = [(u, m) for u, (_, m) in zip(uids, series, strict=True)]
    before = {x.uid: x for x in plan.previous_series}
    events = {e.uid: e for e in plan.previous_events}
    ident: dict[tuple[str, int], tuple[str, str, int]] = {}
    for uid, members in series:
        seq = max(rs[0].sequence for rs in members)
        old = before.get(uid)
        if old is not None:
            seq = series_sequence(old, tuple(sorted(rs[0].first_day for rs in members)),
                                  play_span(members[0][0]), seq)
        seq = sequence_floor(events.get(uid), seq, False)
        for rs in members:
            ident[(rs[0].tournament_id, rs[0].occurrence)] = (
                uid, rs[0].first_day.isoformat(), seq)
    rows = []
    for r in plan.rows:
        got = ident.get((r.tournament_id, r.occurrence))
        rows.append(r if got is None else _with(r, uid=got[0], recurrence_id=got[1],
                                                sequence=got[2]))
    return replace(plan, rows=tuple(rows))


def status(scenario: Scenario, tournament_id: str, first_day: dt.date,
           announced: bool = False, filed: set[tuple[str, dt.date]] | None = None) -> str:
    """A placed occurrence's status in schedule.csv (:data:`scheduler.result.plan.STATUSES`):
    ``held`` when its first day is in its tournament's ``held_dates`` (the ledger's record);
    ``filed`` when in ``filed_dates`` (its MT notice or ME application filed: MT-NOTICE,
    ME-APPLICATION-WINDOW) or in ``filed`` (a re-plan's announced occurrences whose
    deadline is before the day the plan is made as of, pinned as filed,
    :func:`scheduler.inputs.replan.assign.with_pins`); ``announced`` when a previous plan published
    it
    (``announced``: its UID is the previous plan's); else ``new``."""
    t = scenario.tournament(tournament_id)
    if first_day in t.held_dates:
        return "held"
    if first_day in t.filed_dates or (tournament_id, first_day) in (filed or set()):
        return "filed"
    return "announced" if announced else "new"


def replaced_events(folder: str | Path, lineage: str
                    ) -> tuple[dict[str, tuple[int, str]], dt.datetime | None]:
    """The events of the plan in ``folder`` of plan lineage ``lineage`` (UID → SEQUENCE and
    content fingerprint, :func:`fingerprint`) and its DTSTAMP: what a new plan solved into
    the same folder without a re-plan must not contradict with the same SEQUENCE and DTSTAMP
    (RFC 5545 §3.8.7.4, RFC 5546 §2.1.4). A folder without a calendar.ics (a plan of
    schedule.csv only) holds no such events.

    Parameters
    ----------
    folder : str or pathlib.Path
        The plan folder the new plan is written into.
    lineage : str
        The new plan's lineage (``Plan.lineage``); events of another lineage are left out.

    Returns
    -------
    (dict, datetime.datetime or None)
        UID -> ``(SEQUENCE, fingerprint)`` of each event of ``lineage``, and the calendar's
        latest DTSTAMP (aware, UTC), None without a calendar.ics or any DTSTAMP.

    Raises
    ------
    scheduler.inputs.replan.previous.PreviousError
        When calendar.ics cannot be read (too large, unreadable), is not UTF-8 (RFC 5545
        §3.1.4; the message names the file, the line and the byte) or is not iCalendar (from
        :func:`scheduler.inputs.replan.previous.previous_dtstamp`): its events would otherwise be
        taken as
        none, and a changed event would keep its SEQUENCE.
    """
    ics = Path(folder) / "calendar.ics"
    if not ics.is_file():
        return {}, None
    try:
        data = read_bounded(ics)
    except LimitError as exc:
        raise PreviousError(f"{ics}: {exc}") from None
    try:
        text = data.decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        where = data.count(b"\n", 0, exc.start) + 1
        raise PreviousError(
            f"{ics}: not a readable iCalendar file (line {where} is not UTF-8: byte "
            f"0x{data[exc.start]:02X}; an iCalendar file is UTF-8, RFC 5545 §3.1.4); the "
            f"new plan would replace this plan's calendars: save the file as UTF-8, or write "
            f"the plan to another folder") from None
    out: dict[str, tuple[int, str]] = {}
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


def with_replaced(plan: Plan, folder: str | Path | None) -> Plan:
    """``plan`` to be written into ``folder`` in place of the plan it holds (not a re-plan):
    a new Plan with ``replaced_events`` and ``replaced_dtstamp`` read from it
    (:func:`replaced_events`, this plan's lineage), so its calendars give a changed event a
    higher SEQUENCE and a later DTSTAMP, and ``replaced_folder`` the folder resolved
    (``scheduler.export.write.write_plan`` refuses a folder holding a plan for a plan
    without it). ``plan`` itself when ``folder`` is None or holds no plan
    (:func:`scheduler.inputs.replan.read.holds_plan`). Raises
    :class:`scheduler.inputs.replan.previous.PreviousError` when the folder's calendar.ics cannot
    be read, is
    not UTF-8 or is not iCalendar (:func:`replaced_events`).
    """
    if folder is None or not holds_plan(folder):
        return plan
    events, stamp = replaced_events(folder, plan.lineage)
    return replace(plan, replaced_events=events, replaced_dtstamp=stamp,
                   replaced_folder=str(Path(folder).resolve()))
