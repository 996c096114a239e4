"""One calendar event read as a game: the tournament it matches (UID, X-TOURNEY-TOURNAMENT or
title), its session, its timing (all-day events, midnight to midnight, included) and the
sessions of one occurrence joined."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from scheduler.check.schedule import ScheduleError
from scheduler.core.jurisdiction import of_type
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import Timing, day_span, days_touched, local, timing, tournament_tz
from scheduler.core.uid import parse as parse_uid


def match_event(ev: object, uid: str, summary: str, by_id: dict[str, Tournament],
           by_title: dict[str, list[Tournament]]) -> tuple[Tournament | None, int | None]:
    p = parse_uid(uid)
    # the occurrence's number now (licenses.csv's covers): X-TOURNEY-OCCURRENCE; a UID keeps
    # the number it was first given (a re-plan renumbers after a cancellation, the UID stays)
    occ = str(ev.get("X-TOURNEY-OCCURRENCE", "")).strip()  # type: ignore[attr-defined]
    now = int(occ) if occ.isdigit() else None
    if p is not None and p.kind == "occurrence" and p.tournament_id in by_id:
        return by_id[p.tournament_id], now if now is not None else p.occurrence
    tid = str(ev.get("X-TOURNEY-TOURNAMENT", ""))  # type: ignore[attr-defined]
    if tid in by_id:
        return by_id[tid], now
    same = by_title.get(summary.strip().lower(), [])
    if len(same) == 1:
        return same[0], None
    return None, None


def session_of(ev: Any, uid: str) -> int | None:
    """The session number of an event of a tournament with ``sessions``: its
    X-TOURNEY-SESSION, else the one its UID names (:func:`scheduler.core.uid.session_uid`; the
    first session has the occurrence's own UID and no number there), else None."""
    text = str(ev.get("X-TOURNEY-SESSION", "")).strip()
    if text.isdigit():
        return int(text)
    p = parse_uid(uid)
    return p.session if p is not None and p.kind == "occurrence" else None


def session_notes(path: Path, t: Tournament, occ: int,
                   got: list[tuple[int, Timing, str]]) -> list[str]:
    """What does not match the scenario's ``sessions`` among the session events read of
    occurrence ``occ`` of ``t`` (session number, timing, the event in words): a session
    with no event, a number the scenario does not give, and two sessions in play at once
    (rule ``SCENARIO``: the sessions of a tournament do not overlap). Each line names the
    file, the occurrence and the sessions."""
    n = len(t.sessions)

    def name(k: int) -> str:
        return f"session {k} ({t.sessions[k - 1].label})" if 1 <= k <= n else f"session {k}"

    ref = f"{path}: {t.id}#{occ}"
    have = {k for k, _, _ in got}
    out = [f"{ref}: {name(k)} has no event, the scenario gives {n} sessions (SCENARIO)"
           for k in range(1, n + 1) if k not in have]
    out += [f"{ref}: {what} is session {k}, the scenario gives {n} (SCENARIO)"
            for k, _, what in got if not 1 <= k <= n]
    seq = sorted(got, key=lambda x: (x[1].start, x[0]))
    out += [f"{ref}: {name(a)} ({x.start.isoformat()} .. {x.end.isoformat()}) and {name(b)} "
            f"({y.start.isoformat()} .. {y.end.isoformat()}) are in play at once; a "
            "tournament's sessions do not overlap (SCENARIO)"
            for (a, x, _), (b, y, _) in zip(seq, seq[1:], strict=False) if y.start < x.end]
    return out


def joined(tms: list[Timing]) -> Timing:
    """One occurrence of the sessions read as events (flights and day 2s): from the first
    session's start to the last one's end, its days of play those the sessions touch."""
    tms = sorted(tms, key=lambda x: (x.start, x.end))
    return Timing(tms[0].start, max(x.end for x in tms),
                  tuple(sorted({d for x in tms for d in x.days})),
                  tuple((x.start, x.end) for x in tms))


def event_timing(scenario: Scenario, t: Tournament, ev: object, path: Path,
                  session: int | None = None) -> Timing | None:
    """The timing an event shows; an all-day Montana event is played from the start time
    (of its ``session``, 1-based, when the tournament has ``sessions``) for ``hours``."""
    if session is not None and 1 <= session <= len(t.sessions):
        x = t.sessions[session - 1]  # this session read as a one-day tournament
        t = t.model_copy(update={"sessions": (), "start_time": x.start, "hours": x.hours,
                                 "days": 1})
    start_p = ev.get("DTSTART")  # type: ignore[attr-defined]
    if start_p is None:
        return None
    start = start_p.dt
    end_p = ev.get("DTEND")  # type: ignore[attr-defined]
    dur_p = ev.get("DURATION")  # type: ignore[attr-defined]
    end_v = end_p.dt if end_p is not None else (start + dur_p.dt if dur_p is not None else None)
    tz = tournament_tz(scenario, t)
    if _midnight_to_midnight(ev, start, end_v):
        # Exchange/Outlook write an all-day event as local midnight to midnight (with
        # X-MICROSOFT-CDO-ALLDAYEVENT:TRUE): the days, as the calendar shows them
        start = start.date()
        end_v = end_v.date() if isinstance(end_v, dt.datetime) else start + dt.timedelta(1)
    elif (isinstance(start, dt.datetime) and start.tzinfo is not None
          and (end_v is None or isinstance(end_v, dt.datetime) and end_v.tzinfo is not None)
          and _midnight_to_midnight(ev, start.astimezone(tz),
                                    end_v.astimezone(tz) if end_v is not None else None)):
        # the same local midnights written in UTC (``DTSTART:20270206T070000Z``) or another
        # zone: midnight in the operator's zone makes them all-day
        first = start.astimezone(tz).date()
        end_v = end_v.astimezone(tz).date() if end_v is not None else first + dt.timedelta(1)
        start = first
    if not isinstance(start, dt.datetime):  # all-day: the days are what the calendar shows
        last = (end_v - dt.timedelta(days=1)) if end_v is not None else start
        last = max(last, start)
        s = local(start, t.start_time, tz) or dt.datetime.combine(start, t.start_time, tz)
        wall_clock = of_type(t.type).wall_clock  # Montana's play days
        own = timing(t, tz, start) if wall_clock else None
        if own is not None and own.days[-1] == last:
            # the tournament as planned from its first day shows exactly these days: a
            # session past midnight shows its morning as one more day, not a play day
            return own
        if wall_clock:
            # play days: each from the start time for `hours` (MT-PLAY-HOURS reads each
            # night), the last one's session ends `hours` after its start
            one = t.model_copy(update={"days": 1})
            days = [timing(one, tz, day) for day in day_span(start, last)]
            e = days[-1].end if days[-1] is not None else s
            if not t.sessions and all(x is not None for x in days):
                return Timing(s, max(e, s), day_span(start, last),
                              tuple((x.start, x.end) for x in days if x is not None))
        else:
            # a game of elapsed hours (Maine's) shown as all-day events: conducted
            # until the end of its last day
            e = dt.datetime.combine(last + dt.timedelta(days=1), dt.time(0), tz)
        return Timing(s, max(e, s), day_span(start, last))
    if start.tzinfo is None:
        raise ScheduleError(f"{path}: event '{ev.get('SUMMARY')}' has a DTSTART without a "  # type: ignore[attr-defined]
                            "time zone it can be read in (no TZID, or an unknown one)")
    end = end_v if end_v is not None else start
    if not isinstance(end, dt.datetime):
        end = dt.datetime.combine(end, dt.time(0), start.tzinfo)
    s, e = start.astimezone(tz), end.astimezone(tz)
    return Timing(s, e, days_touched(s, e))


def _midnight_to_midnight(ev: object, start: object, end: object) -> bool:
    """Whether a timed event is an all-day one written as date-times: it runs from midnight
    to a later midnight, in its own zone (or floating), or says so with
    X-MICROSOFT-CDO-ALLDAYEVENT:TRUE (Exchange, Outlook) and starts at midnight."""
    if not isinstance(start, dt.datetime) or start.time() != dt.time(0):
        return False
    flag = str(ev.get("X-MICROSOFT-CDO-ALLDAYEVENT", "")).strip().upper()  # type: ignore[attr-defined]
    if isinstance(end, dt.datetime):
        if end.tzinfo is not None and start.tzinfo is not None:
            end = end.astimezone(start.tzinfo)
        return end > start and end.time() == dt.time(0) and (
            flag == "TRUE" or (end.date() - start.date()).days >= 1)
    return end is None and flag == "TRUE"

