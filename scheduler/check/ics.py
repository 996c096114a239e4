"""A calendar (``.ics``) read back: its events expanded over the horizon and a year either side,
deadlines and cancelled events set aside (not checked), unknown and forged kinds reported, the
games matched to the scenario's tournaments and numbered by date."""

from __future__ import annotations

import datetime as dt
import warnings
from pathlib import Path
from typing import Any

from icalendar import Calendar

from constraints.base import Occurrence
from scheduler.check.events import event_timing, joined, match_event, session_notes, session_of
from scheduler.check.kinds import event_kind, kind_contradiction, kind_source, repeated_property
from scheduler.check.schedule import ReadSchedule, ScheduleError, cut_value, short
from scheduler.core.calendar_limits import expand_events, read_calendar
from scheduler.core.limits import FIRST_YEAR, LAST_YEAR, LimitError, max_calendar_events
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import Timing, years_later
from scheduler.core.uid import (
    DEADLINE_KINDS,
    GAME_KINDS,
    KIND_PROPERTY,
    PERMIT_HELD_PROPERTY,
    STATUS_PROPERTY,
)


def read_ics(scenario: Scenario, path: Path) -> ReadSchedule:
    unmatched: list[str] = []
    not_checked: list[str] = []
    with warnings.catch_warnings():  # icalendar warns about guessed TZIDs on stderr
        warnings.simplefilter("ignore")
        try:
            cals = Calendar.from_ical(read_calendar(path), multiple=True)
        except LimitError as exc:
            raise ScheduleError(f"{path}: {exc}") from None
        except Exception:  # icalendar raises several kinds for malformed input
            raise ScheduleError(f"{path}: not a readable iCalendar file (it should start "
                                "with BEGIN:VCALENDAR)") from None
        # expand RRULE/RDATE/EXDATE (a weekly series is many occurrences) over the horizon
        # and a year either side (an instance with a mistyped year is reported: HORIZON),
        # at most MAX_SERIES_INSTANCES per event (an hourly rule is cut and reported)
        first = max(years_later(scenario.horizon.start, -1), dt.date(FIRST_YEAR, 1, 1))
        last = min(years_later(scenario.horizon.end, 1), dt.date(LAST_YEAR, 12, 31))
        budget = [max_calendar_events()]
        events = []
        seen: set[tuple[str, str, str]] = set()
        for cal in cals:
            # recurring events are expanded; the others are read as written (an expansion
            # would turn a UTC DTEND in the repeated hour into the first of the two hours)
            masters = {str(ev.get("UID", "")) for ev in cal.walk("VEVENT")
                       if ev.get("RRULE") or ev.get("RDATE")}
            try:
                instances, cut = expand_events(cal, first, last, budget=budget)
            except LimitError as exc:
                raise ScheduleError(f"{path}: {exc}") from None
            except Exception as exc:
                raise ScheduleError(f"{path}: cannot read the events' dates "
                                    f"({str(exc)[:200]})") from None
            unmatched += [f"{path}: {note}" for note in cut]
            expanded = [ev for ev in instances if str(ev.get("UID", "")) in masters]
            got = {str(ev.get("UID", "")) for ev in expanded}
            for ev in cal.walk("VEVENT"):
                uid = str(ev.get("UID", ""))
                if uid in masters and uid not in got and \
                        str(ev.get("STATUS", "")).upper() != "CANCELLED":
                    unmatched.append(f"{path}: recurring event {_summary(ev)} (UID "
                                     f"{short(uid) or '-'}) has no instance between {first} "
                                     f"and {last} (the horizon and a year either side): not "
                                     "checked")
                    got.add(uid)
            expanded += [ev for ev in cal.walk("VEVENT")
                         if str(ev.get("UID", "")) not in masters]
            for ev in expanded:  # the same event twice (e.g. two calendars joined): once
                key = (str(ev.get("UID", "")), str(ev.get("DTSTART", "") and
                                                   ev["DTSTART"].to_ical()),
                       str(ev.get("DTEND", "") and ev["DTEND"].to_ical()))
                if key not in seen:
                    seen.add(key)
                    events.append(ev)
    if not any(True for cal in cals for _ in cal.walk("VEVENT")):
        raise ScheduleError(f"{path}: the calendar has no events (VEVENT)")
    uid_count: dict[str, int] = {}
    for ev in events:
        uid_count[str(ev.get("UID", ""))] = uid_count.get(str(ev.get("UID", "")), 0) + 1
    by_id = {t.id: t for t in scenario.tournaments}
    by_title: dict[str, list[Tournament]] = {}
    for t in scenario.tournaments:
        by_title.setdefault(t.title.strip().lower(), []).append(t)
    found: list[tuple[Tournament, int | None, Timing]] = []
    # the sessions of one occurrence: (session number, timing, what the event is)
    parts: dict[tuple[str, int], list[tuple[int, Timing, str]]] = {}
    settled: dict[str, set[dt.date]] = {}
    permits: dict[str, set[str]] = {}
    held: list[tuple[str, str, dt.date]] = []
    for ev in events:
        uid = str(ev.get("UID", ""))
        summary = str(ev.get("SUMMARY", ""))
        what = f"event {_summary(ev)} (UID {short(uid) or '-'})"
        repeated = repeated_property(ev)
        if repeated:  # which of two kinds (or tournaments, UIDs) is meant cannot be told
            unmatched.append(f"{path}: {what} has {repeated}: not checked")
            continue
        kind = event_kind(ev)
        forged = kind_contradiction(ev, uid, kind)
        if forged:  # a game dressed as a deadline is checked as a game, and reported
            unmatched.append(f"{path}: {what} says {KIND_PROPERTY} {kind}, but {forged}: "
                             "checked as a game")
            kind = None
        if kind in DEADLINE_KINDS:
            article = "an" if kind[:1] in "aeiou" else "a"  # an application, a notice
            not_checked.append(f"{path}: {what}: {article} {kind} deadline, not a game "
                               f"({kind_source(ev)})")
            continue
        if str(ev.get("STATUS", "")).upper() == "CANCELLED":
            not_checked.append(f"{path}: {what}: cancelled (STATUS:CANCELLED)")
            continue
        if kind is not None and kind not in GAME_KINDS:
            unmatched.append(f"{path}: {what} has {KIND_PROPERTY} {short(kind)}, which is not "
                             f"one of {', '.join(GAME_KINDS + DEADLINE_KINDS)}: not checked")
            continue
        match, occ = match_event(ev, uid, summary, by_id, by_title)
        if match is None:
            unmatched.append(f"{path}: {what} matches no "
                             "tournament by UID, X-TOURNEY-TOURNAMENT or title")
            continue
        if uid_count.get(uid, 0) > 1:
            occ = None  # a recurring series: its occurrences are numbered by date
        session = session_of(ev, uid) if match.sessions else None
        try:
            tm = event_timing(scenario, match, ev, path, session)
        except ScheduleError:
            raise
        except Exception as exc:
            raise ScheduleError(f"{path}: event {summary!r} (UID {uid or '-'}): cannot read "
                                f"its DTSTART/DTEND ({exc})") from None
        if tm is None:
            unmatched.append(f"{path}: {what} has no usable DTSTART")
            continue
        if not (tm.start.year >= FIRST_YEAR and tm.end.year <= LAST_YEAR):
            unmatched.append(f"{path}: {what} is dated {tm.start.date()} to {tm.end.date()}, "
                             f"outside the years {FIRST_YEAR} to {LAST_YEAR}: not checked")
            continue
        # what the plan says of it (schedule.csv's status and permit year, on the event):
        # a held or filed one is judged on what happened; a permit held before the plan
        status = str(ev.get(STATUS_PROPERTY, "")).strip().lower()
        if status in ("held", "filed"):
            settled.setdefault(match.id, set()).add(tm.first_day)
        if status == "held":
            held.append((f"{path}: {what}", match.id if occ is None else f"{match.id}#{occ}",
                         tm.first_day))
        for op_id in str(ev.get(PERMIT_HELD_PROPERTY, "")).split():
            permits.setdefault(op_id, set()).add(
                "large-stakes" if match.is_large else "small-stakes")
        if session is not None and occ is not None:  # a session: joined to its occurrence
            parts.setdefault((match.id, occ), []).append((session, tm, what))
            continue
        found.append((match, occ, tm))
    for (tid, occ), sess in sorted(parts.items(), key=lambda x: x[0]):
        unmatched += session_notes(path, by_id[tid], occ, sess)
        found.append((by_id[tid], occ, joined([tm for _, tm, _ in sess])))
    placed: list[Occurrence] = []
    for t in scenario.tournaments:
        mine = sorted((x for x in found if x[0].id == t.id), key=lambda x: x[2].start)
        used = {o for _, o, _ in mine if o is not None}
        nxt = 1
        for _, occ, tm in mine:
            if occ is None:  # matched by title: number it after the known ones, by date
                while nxt in used:
                    nxt += 1
                occ = nxt
                used.add(occ)
            placed.append(Occurrence(t, occ, tm))
    return ReadSchedule(sorted(placed, key=lambda p: (p.first_day, p.ref)), unmatched,
                        not_checked=not_checked, settled=settled, held=held,
                        permits_held=permits)


def _summary(ev: Any) -> str:
    return cut_value(str(ev.get("SUMMARY", "")))

