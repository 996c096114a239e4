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
from typing import Any

import pandas as pd

from scheduler.scenario import Scenario, Tournament
from scheduler.text import uncell
from scheduler.timing import application_due, notice_due


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


@dataclass(frozen=True)
class Cancelled:
    """An announced occurrence that the new plan drops (published as STATUS:CANCELLED)."""

    tournament_id: str
    first_day: dt.date
    uid: str
    sequence: int
    operators: tuple[str, ...]
    title: str


@dataclass(frozen=True)
class PreviousSeries:
    """A weekly series VEVENT of the previous calendar: its UID, nights and SEQUENCE."""

    uid: str
    tournament_id: str
    nights: tuple[dt.date, ...]
    sequence: int
    operators: tuple[str, ...]
    title: str


def previous_series(path: str | Path) -> list[PreviousSeries]:
    """The weekly series (RRULE events) of the previous plan's calendar, expanded."""
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
                    for x in _expand(one)})
                host = uid.split("@", 1)[-1].removesuffix(".tourney")
                out.append(PreviousSeries(uid, str(ev.get("X-TOURNEY-TOURNAMENT", "")),
                                          tuple(nights), int(ev.get("SEQUENCE", 0)), (host,),
                                          str(ev.get("SUMMARY", ""))))
    except Exception:
        return []
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
                start = ev.decoded("DTSTART")
                day = start.date() if isinstance(start, dt.datetime) else start
                found.setdefault(uid, PreviousEvent(
                    uid, day, int(ev.get("SEQUENCE", 0)), str(ev.get("SUMMARY", "")), (),
                    str(ev.get("STATUS", "")).upper() == "CANCELLED"))
                if f.parent.name == "calendars":
                    hosts.setdefault(uid, set()).add(f.stem)
    return [replace(e, operators=tuple(sorted(hosts.get(e.uid, ()))))
            for _, e in sorted(found.items())]


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
    out: dict[str, Announced] = {}
    hosts: dict[str, list[str]] = {}
    for i, r in df.iterrows():
        try:
            seq = int(r["sequence"]) if r.get("sequence", "") else 0
            out.setdefault(r["uid"], Announced(
                r["tournament_id"], dt.date.fromisoformat(r["first_day"]), r["uid"], seq,
                title=uncell(r.get("title", "")),
                span=f"{r['start']}|{r['end']}" if r.get("start") and r.get("end") else ""))
        except ValueError as exc:
            raise PreviousError(f"{p}:{int(str(i)) + 2}: {exc}") from None
        if r.get("operator_id"):
            hosts.setdefault(r["uid"], []).append(r["operator_id"])
    out = {u: replace(a, operators=tuple(hosts.get(u, ()))) for u, a in out.items()}
    return sorted(out.values(), key=lambda a: (a.tournament_id, a.first_day, a.uid))


_UID = re.compile(r"^(?P<tid>[a-z0-9][a-z0-9-]*)-(?P<occ>\d+)@")


def _expand(cal: Any, budget: list[int] | None = None) -> list[Any]:
    """The events of ``cal`` with recurring ones expanded, within the limits of
    :func:`scheduler.limits.expand_events` (years 1900-2199, at most 5,000 instances of one
    event: an hourly RRULE cannot make millions)."""
    from scheduler.limits import FIRST_YEAR, LAST_YEAR, expand_events

    return expand_events(cal, dt.date(FIRST_YEAR, 1, 1), dt.date(LAST_YEAR, 12, 31),
                         budget=budget)[0]


def _from_ics(path: Path) -> list[Announced]:
    from icalendar import Calendar

    from scheduler.limits import LimitError, max_calendar_events, read_bounded

    try:
        cals = Calendar.from_ical(read_bounded(path), multiple=True)
        budget = [max_calendar_events()]
        events = [ev for cal in cals for ev in _expand(cal, budget)]
    except LimitError as exc:
        raise PreviousError(f"{path}: {exc}") from None
    except Exception as exc:
        raise PreviousError(f"{path}: not a readable iCalendar file "
                            f"({str(exc)[:200]})") from None
    out: dict[str, Announced] = {}
    series: dict[str, list[tuple[dt.date, str, int]]] = {}  # tid -> (day, host, sequence)
    for ev in events:
        if ev.get("X-TOURNEY-DEADLINE"):
            continue
        cancelled = str(ev.get("STATUS", "")).upper() == "CANCELLED"
        uid = str(ev.get("UID", ""))
        tid = str(ev.get("X-TOURNEY-TOURNAMENT", ""))
        m = _UID.match(uid)
        if not tid and m:
            tid = m.group("tid")
        start = ev.get("DTSTART")
        if not tid or start is None:
            continue
        day = start.dt.date() if isinstance(start.dt, dt.datetime) else start.dt
        seq = int(ev.get("SEQUENCE", 0))
        if ".series@" in uid and not cancelled:  # a weekly series: one UID for many nights
            host = uid.split("@", 1)[1].removesuffix(".tourney")
            series.setdefault(tid, []).append((day, host, seq))
        else:
            out.setdefault(uid, Announced(tid, day, uid, seq, cancelled,
                                          title=str(ev.get("SUMMARY", ""))))
    for tid, nights in series.items():
        # the nights of a series are numbered by date, as the plan numbers them
        for k, (day, host, seq) in enumerate(sorted(nights), start=1):
            uid = f"{tid}-{k}@{host}.tourney"
            out.setdefault(uid, Announced(tid, day, uid, seq))
    return sorted(out.values(), key=lambda a: (a.tournament_id, a.first_day, a.uid))


def deadline_passed(scenario: Scenario, t: Tournament, first_day: dt.date) -> bool:
    """Whether the occurrence's filing deadline is before ``notice_from`` (so it is fixed):
    MT large-stakes notice (MT-NOTICE), ME licence application (ME-APPLICATION-WINDOW), else
    the first day itself."""
    if t.is_large:
        due = notice_due(first_day)
    elif t.is_me_licensed_game:
        due = application_due(first_day)
    else:
        due = first_day
    return due < scenario.notice_from


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


def assign(scenario: Scenario, previous: list[Announced],
           new_days: dict[str, list[dt.date]],
           spans: dict[tuple[str, dt.date], str] | None = None,
           ) -> tuple[dict[tuple[str, dt.date], Identity], list[Cancelled]]:
    """Match new occurrences to announced ones, per tournament: same day → same UID and
    SEQUENCE (+ 1 when its times changed, ``spans``: ``start|end`` ISO 8601); the remaining
    ones pair up in date order → same UID, SEQUENCE + 1 (moved); new ones get fresh UIDs;
    announced ones left over are cancelled (SEQUENCE + 1)."""
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
        kept = {a.first_day: a for a in old if a.first_day in new}
        for d, a in kept.items():
            changed = bool(spans and a.span and spans.get((tid, d), a.span) != a.span)
            ids[(tid, d)] = Identity(a.uid, a.sequence + changed)
        rest_old = [a for a in old if a.first_day not in kept]
        rest_new = [d for d in new if d not in kept]
        # pair each moving occurrence with the nearest new day (greedy on the distance)
        by_uid = {a.uid: a for a in rest_old}
        paired: set[dt.date] = set()
        taken_old: set[str] = set()
        for _, _, uid, d in sorted((abs((d - a.first_day).days), a.first_day, a.uid, d)
                                   for a in rest_old for d in rest_new):
            if uid in taken_old or d in paired:
                continue
            paired.add(d)
            taken_old.add(uid)
            ids[(tid, d)] = Identity(uid, by_uid[uid].sequence + 1)
        rest_old = [a for a in rest_old if a.uid not in taken_old]
        rest_new = [d for d in rest_new if d not in paired]
        used = [int(m.group("occ")) for u in taken
                if (m := _UID.match(u)) and m.group("tid") == tid]
        nxt = max(used, default=0) + 1
        t = known.get(tid)
        host = t.operators[0] if t else "tourney"
        for d in rest_new:
            uid = f"{tid}-{nxt}@{host}.tourney"
            while uid in taken:
                nxt += 1
                uid = f"{tid}-{nxt}@{host}.tourney"
            ids[(tid, d)] = Identity(uid, 0)
            nxt += 1
        for a in rest_old:
            cancelled.append(Cancelled(tid, a.first_day, a.uid, a.sequence + 1,
                                       t.operators if t else a.operators,
                                       t.title if t else (a.title or tid)))
    return ids, cancelled
