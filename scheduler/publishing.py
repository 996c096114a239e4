"""A solved plan's identity and publishing state: what its calendars must agree with.

Every plan ``scheduler.solver.solve`` returns leaves here finished, so ``write_plan(plan,
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
from dataclasses import replace
from pathlib import Path

from scheduler.limits import LimitError, read_bounded
from scheduler.plan import Plan
from scheduler.replan import (
    Previous,
    PreviousError,
    PublishedOccurrence,
    assign,
    fingerprint,
    holds_plan,
    previous_dtstamp,
)
from scheduler.scenario import Scenario
from scheduler.uid import LINEAGE_PROPERTY, inherited_lineage, lineage_key, occurrence_uid

__all__ = ["fingerprint", "identify", "replaced_events", "with_replaced"]


def identify(plan: Plan, scenario: Scenario, previous: list[PublishedOccurrence] | None) -> Plan:
    """``plan`` (freshly solved, of ``scenario``) with its rows' UIDs and SEQUENCEs: a new
    Plan (``plan`` is not changed). The plan lineage is the previous plan's (a re-plan keeps
    its UIDs, :func:`scheduler.replan.assign`) or the scenario's own
    (:func:`scheduler.uid.lineage_key`); without ``previous`` occurrence ``n`` of a
    tournament is UID ``<tournament>-<n>@<first operator>.<lineage>.<domain>``, SEQUENCE 0.

    With a :class:`scheduler.replan.Previous` (what ``read_previous`` returns) the plan also
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
        return replace(plan, lineage=lineage, rows=tuple(replace(r, uid=occurrence_uid(
            scenario, r.tournament_id, r.occurrence, known[r.tournament_id].operators[0],
            lineage), sequence=0) for r in plan.rows))
    days: dict[str, list[dt.date]] = {}
    spans: dict[tuple[str, dt.date], str] = {}
    for r in plan.rows:
        if (r.tournament_id, r.first_day) not in spans:
            days.setdefault(r.tournament_id, []).append(r.first_day)
            spans[(r.tournament_id, r.first_day)] = f"{r.start.isoformat()}|{r.end.isoformat()}"
    ids, cancelled = assign(scenario, previous, days, spans, lineage)
    return replace(plan, lineage=lineage, cancelled=tuple(cancelled), replanned=True,
                   rows=tuple(replace(r, uid=ids[(r.tournament_id, r.first_day)].uid,
                                      sequence=ids[(r.tournament_id, r.first_day)].sequence)
                              for r in plan.rows))


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
    scheduler.replan.PreviousError
        When calendar.ics cannot be read (too large, unreadable), is not UTF-8 (RFC 5545
        §3.1.4; the message names the file, the line and the byte) or is not iCalendar (from
        :func:`scheduler.replan.previous_dtstamp`): its events would otherwise be taken as
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
    (:func:`scheduler.replan.holds_plan`). Raises
    :class:`scheduler.replan.PreviousError` when the folder's calendar.ics cannot be read, is
    not UTF-8 or is not iCalendar (:func:`replaced_events`).
    """
    if folder is None or not holds_plan(folder):
        return plan
    events, stamp = replaced_events(folder, plan.lineage)
    return replace(plan, replaced_events=events, replaced_dtstamp=stamp,
                   replaced_folder=str(Path(folder).resolve()))
