"""Re-plan identity: which previous occurrences stay (pins), which UID and SEQUENCE each new
occurrence and series gets, which announced occurrences the new plan drops."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from constraints.maine import application_ok
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import filing_from, notice_ok
from scheduler.core.uid import (
    inherited_lineage,
    lineage_key,
    local_part,
    occurrence_uid,
    renumbered_series_uid,
)
from scheduler.core.uid import parse as parse_uid
from scheduler.inputs.replan.previous import (
    Cancelled,
    PreviousError,
    PreviousEvent,
    PreviousSeries,
    PublishedOccurrence,
)


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
                previous: Sequence[PreviousSeries], events: Sequence[PreviousEvent]
                ) -> list[str]:
    """The UID of each new weekly series, ``wanted``: (its fresh UID,
    :func:`scheduler.core.uid.series_uid`; tournament id; nights). A series inherits the UID of a
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
            while uid in taken or uid in claimed:
                n += 1
                uid = renumbered_series_uid(fresh, n)
        claimed.add(uid)
        out.append(uid)
    return out


def licence_deadline_uids(events: Sequence[PreviousEvent]) -> dict[str, str]:
    """The UIDs of the previous calendars' live Maine licence deadlines by their local part
    (``application-due-<licence id>``, ...): a re-plan keeps them, whatever UID domain or
    form (an earlier version's) they were announced with."""
    out: dict[str, str] = {}
    for e in events:
        p = parse_uid(e.uid)
        if e.cancelled or p is None or p.licence_id is None:
            continue
        out.setdefault(local_part(e.uid), e.uid)
    return out


def deadline_passed(scenario: Scenario, t: Tournament, first_day: dt.date) -> bool:
    """Whether the occurrence's filing deadline is before
    :func:`scheduler.core.timing.filing_from` (the later of ``notice_from`` and the as-of day; so
    it is fixed: filed, or history): MT large-stakes notice (MT-NOTICE), ME licence
    application (ME-APPLICATION-WINDOW), else the first day itself."""
    floor = filing_from(scenario)
    if t.is_large:
        return not notice_ok(first_day, floor)
    if t.is_me_licensed_game:
        return not application_ok(first_day, floor, scenario.settings.closed_days)
    return first_day < floor


def pinned(scenario: Scenario, previous: list[PublishedOccurrence]) -> dict[str, list[dt.date]]:
    """Per tournament, the previous first days that stay where they are."""
    out: dict[str, list[dt.date]] = {}
    known = {t.id: t for t in scenario.tournaments}
    for a in previous:
        t = known.get(a.tournament_id)
        if t is None or a.first_day not in scenario.horizon:
            continue
        if a.first_day in t.cancelled_dates:
            continue  # recorded cancelled (CANCELLED): never pinned back
        if t.locked or deadline_passed(scenario, t, a.first_day):
            out.setdefault(t.id, []).append(a.first_day)
    return {k: sorted(set(v)) for k, v in out.items()}


def with_pins(scenario: Scenario, previous: list[PublishedOccurrence]) -> Scenario:
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


def assign(scenario: Scenario, previous: list[PublishedOccurrence],
           new_days: dict[str, list[dt.date]],
           spans: dict[tuple[str, dt.date], str] | None = None,
           lineage: str | None = None,
           ) -> tuple[dict[tuple[str, dt.date], Identity], list[Cancelled]]:
    """Match new occurrences to announced ones, per tournament: same day → same UID and
    SEQUENCE (+ 1 when its times changed, ``spans``: ``start|end`` ISO 8601); the remaining
    ones pair up in date order → same UID, SEQUENCE + 1 (moved); new ones get fresh UIDs
    (``scheduler.core.uid.occurrence_uid`` in ``lineage``, default the previous plan's or the
    scenario's, numbered above every number the previous plan used; in a lineage inherited
    from the previous plan they name this horizon's start, ``<tournament>.<YYYYMMDD>-<n>``,
    so that a re-plan of this year never gives a UID that next year's plan, made from the
    same previous plan, gave); announced ones left over are cancelled (SEQUENCE + 1), and so
    is every announced one on a day of its tournament's ``cancelled_dates`` (recorded
    cancelled, rule CANCELLED), whatever the new plan places that day.

    A night of a weekly series (``PublishedOccurrence.night``) has no UID of its own: its series is
    updated or cancelled by the calendar writer; a night on the same day gets a fresh
    occurrence UID, which shows only if it stops being part of a series."""
    inherited = inherited_lineage(a.uid for a in previous)
    if lineage is None:
        lineage = inherited or lineage_key(scenario)
    # a lineage inherited from a previous plan may hold plans of other horizons (next year's
    # made from this year's numbers its new occurrences on from the same previous plan): a
    # new occurrence's UID names this horizon, so that it is no other plan's of the lineage
    since = scenario.horizon.start if inherited is not None and lineage == inherited else None
    ids: dict[tuple[str, dt.date], Identity] = {}
    cancelled: list[Cancelled] = []
    by_t: dict[str, list[PublishedOccurrence]] = {}
    taken = {a.uid for a in previous}  # cancelled ones too: a UID is never reused
    for a in previous:
        # occurrences outside the new horizon (held already, or beyond it) are left alone
        if not a.cancelled and a.first_day in scenario.horizon:
            by_t.setdefault(a.tournament_id, []).append(a)
    known = {t.id: t for t in scenario.tournaments}
    for tid in sorted(set(by_t) | set(new_days)):
        t = known.get(tid)
        # an occurrence recorded cancelled (CANCELLED, the tournament's cancelled_dates) is
        # cancelled whatever the new plan places: its UID is given to no new occurrence
        gone = set(t.cancelled_dates) if t is not None else set()
        old = sorted((a for a in by_t.get(tid, []) if a.night or a.first_day not in gone),
                     key=lambda a: (a.first_day, a.uid))
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
        host = t.operators[0] if t else "tourney"
        for d in rest_new:
            uid = occurrence_uid(scenario, tid, nxt, host, lineage, since)
            while uid in taken:
                nxt += 1
                uid = occurrence_uid(scenario, tid, nxt, host, lineage, since)
            ids[(tid, d)] = Identity(uid, 0)
            taken.add(uid)
            nxt += 1
        rest_old += [a for a in by_t.get(tid, []) if not a.night and a.first_day in gone]
        for a in sorted(rest_old, key=lambda a: (a.first_day, a.uid)):
            cancelled.append(Cancelled(tid, a.first_day, a.uid, a.sequence + 1,
                                       t.operators if t else a.operators,
                                       t.title if t else (a.title or tid), a.span))
    return ids, cancelled
