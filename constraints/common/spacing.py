"""The scenario's spacing and concurrency in time: at least ``min_gap_days`` between a
tournament's first days (``MIN-GAP``), and at most ``max_concurrent`` of an operator's
tournaments at once (``MAX-CONCURRENT``: play sessions overlapping in time, or per calendar
day with ``concurrency: day``; small-stakes tournaments not counted).
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import heapq
import itertools
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import NamedTuple, TypeVar

from constraints.base import Audit, Occurrence, Rule, Violation, sessions_of
from constraints.common.violations import violation
from constraints.modelling import NO_MIN, ModelContext, sum_by
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.timing import sessions_each


# ------------------------------------------------------------------ MIN-GAP
def _encode_min_gap(ctx: ModelContext) -> None:
    """At most one first day in every run of ``min_gap_days`` consecutive days: from each
    candidate, it and the candidates of the ``min_gap_days`` - 1 days after it (the
    candidates are in date order, so a run is a slice of them)."""
    for t in ctx.scenario.tournaments:
        g = t.min_gap_days
        if g <= 1:
            continue
        starts = ctx.starts(t)
        ordinals = [c.first_day.toordinal() for c, _ in starts]
        lits = [v.index for _, v in starts]
        end = 0
        for i, (c, _) in enumerate(starts):
            end = max(end, i)
            while end < len(ordinals) and ordinals[end] < ordinals[i] + g:
                end += 1
            if end - i > 1:
                ctx.add_indices(sorted(lits[i:end]), NO_MIN, 1,
                                f"MIN-GAP: {t.id} starts at most once in {g} days from "
                                f"{c.first_day}" if ctx.named else "")


def _check_min_gap(a: Audit) -> Iterator[Violation]:
    by_t: dict[str, list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        by_t[p.tid].append(p)
    for ps in by_t.values():
        ps.sort(key=_first_day)
        g = ps[0].tournament.min_gap_days
        for x, y in itertools.pairwise(ps):
            v = _too_close(x, y, g)
            if v is not None:
                yield v


def _first_day(p: Occurrence) -> dt.date:
    return p.timing.days[0]


def _too_close(x: Occurrence, y: Occurrence, g: int) -> Violation | None:
    """MIN-GAP of two first days next to each other (``x`` first): the violation when they
    are less than ``g`` days apart."""
    gap = (y.first_day - x.first_day).days
    if gap >= g:
        return None
    return violation("MIN-GAP", y, f"{x.ref} ({x.first_day}) and {y.ref} ({y.first_day}) "
                     f"start {gap} days apart; at least {g} wanted")


def _added_min_gap(a: Audit, p: Occurrence) -> list[Violation]:
    """MIN-GAP with ``p`` added (:attr:`Rule.added`): only the first days next to ``p``'s
    among its tournament's (in the checker's order: by first day, then as placed) can be
    new pairs."""
    def build() -> dict[str, tuple[list[dt.date], list[Occurrence]]]:
        by_t: dict[str, list[Occurrence]] = defaultdict(list)
        for q in a.placed:
            by_t[q.tid].append(q)
        out = {}
        for tid, ps in by_t.items():
            ps.sort(key=_first_day)
            out[tid] = ([q.first_day for q in ps], ps)
        return out

    days, ps = a.memo("MIN-GAP", build).get(p.tid, ([], []))
    i = bisect.bisect_right(days, p.first_day)  # after those of the same day: placed last
    g = (ps[0] if i else p).tournament.min_gap_days
    pairs = ([(ps[i - 1], p)] if i else []) + ([(p, ps[i])] if i < len(ps) else [])
    return [v for x, y in pairs if (v := _too_close(x, y, g)) is not None]


MIN_GAP = Rule("MIN-GAP", encode=_encode_min_gap, check=_check_min_gap, added=_added_min_gap)


# ------------------------------------------------------------------ MAX-CONCURRENT
def _counts_concurrency(t: Tournament) -> bool:
    return not t.is_small


_K = TypeVar("_K")


def _in_play(items: list[tuple[dt.datetime, dt.datetime, _K]], more_than: int = -1
             ) -> Iterator[tuple[dt.datetime, list[tuple[dt.datetime, dt.datetime, _K]]]]:
    """For each distinct session start (in time order), the sessions in play then (start ≤
    that instant < end), in no particular order; only the instants with more than
    ``more_than`` of them. The most sessions in play at once is reached at some session's
    start, so these instants are the only ones to count. ``items`` is sorted by start in
    place."""
    items.sort(key=_START)
    active: list[tuple[dt.datetime, dt.datetime, _K]] = []
    i, n = 0, len(items)
    while i < n:
        at = items[i][0]
        while i < n and items[i][0] == at:
            active.append(items[i])
            i += 1
        active = [x for x in active if x[1] > at]
        if len(active) > more_than:
            yield at, active


_START = itemgetter(0)


def _clock(x: dt.datetime, tz: object, day: dt.date | None = None) -> str:
    local_ = x.astimezone(tz)  # type: ignore[arg-type]
    return f"{local_:%H:%M}" if local_.date() == day else f"{local_:%Y-%m-%d %H:%M}"


def _encode_max_concurrent(ctx: ModelContext) -> None:
    """At most ``max_concurrent`` of the operator's tournaments (small-stakes excluded) are
    conducted at once: with ``concurrency: time`` (the default), at every session start the
    tournaments whose sessions are in play; with ``day``, on each calendar day they touch."""
    sc = ctx.scenario
    for op in sc.operators:
        mine = [t for t in sc.tournaments if op.id in t.operators and _counts_concurrency(t)]
        most = op.max_concurrent
        if op.concurrency == "day":
            items = [x for t in mine for x in ctx.starts(t)]
            for day, lits in sum_by(items, lambda c: list(c.timing.days)).items():
                if len(lits) > most:
                    ctx.add_sum(lits, NO_MIN, most,
                                f"MAX-CONCURRENT: {op.id} runs at most {most} at once on {day}"
                                if ctx.named else "")
            continue
        if sum(len(ctx.candidates.get(t.id) or ()) for t in mine) <= most:
            continue  # never more in play than there are candidates
        # the sessions of the candidates, tournament by tournament
        played: list[tuple[dt.datetime, dt.datetime, int]] = []  # (start, end, z's index)
        for t in mine:
            starts = ctx.starts(t)
            for (_, v), each in zip(starts, sessions_each(sc, t, [c.timing for c, _ in starts]),
                                    strict=True):
                i = v.index
                if len(each) == 1:
                    played.append((each[0][0], each[0][1], i))
                else:
                    played.extend([(a, b, i) for a, b in each])
        done: set[frozenset[int]] = set()
        for at, act in _in_play(played, most):
            key = frozenset([i for _, _, i in act])
            if len(key) > most and key not in done:
                done.add(key)
                ctx.add_indices(sorted(key), NO_MIN, most,
                                f"MAX-CONCURRENT: {op.id} runs at most {most} at once at "
                                f"{_clock(at, op.tz)}" if ctx.named else "")


_SHOWN = 5  # sessions named in a MAX-CONCURRENT sentence; the rest are counted


def _check_max_concurrent(a: Audit) -> Iterator[Violation]:
    for op in a.scenario.operators:
        if op.concurrency == "day":
            yield from _check_per_day(a, op)
        else:
            yield from _check_in_time(a, op)


_Item = tuple[dt.datetime, dt.datetime, str, Occurrence]
"""A session of an occurrence: its start and end (UTC), the occurrence's ref and itself."""


def _items(sc: Scenario, p: Occurrence) -> list[_Item]:
    """The sessions of ``p`` as :func:`_sweep` reads them (none for a tournament not counted,
    small-stakes)."""
    if not _counts_concurrency(p.tournament):
        return []
    ref = p.ref
    return [(s, e, ref, p) for s, e in sessions_of(sc, p)]


def _check_in_time(a: Audit, op: Operator) -> Iterator[Violation]:
    """MAX-CONCURRENT, ``concurrency: time``: :func:`_sweep` of the operator's sessions."""
    return iter(_swept(a, op).found)


class _Swept(NamedTuple):
    """One operator's sessions in a schedule, swept (:func:`_sweep`)."""

    todo: list[_Item]
    """Its sessions as the sweep reads them: by (start, end), those of one instant as
    placed."""
    starts: list[dt.datetime]
    """Their starts, in that order."""
    found: list[Violation]
    """What the sweep finds."""
    longest: dt.timedelta | None
    """The longest session, when nothing is found and every session lasts (None
    otherwise)."""


def _swept(a: Audit, op: Operator) -> _Swept:
    """The operator's sessions in ``a``, swept once per audit (:meth:`Audit.memo`)."""
    def build() -> _Swept:
        todo = sorted([x for q in a.of_operator(op) for x in _items(a.scenario, q)],
                      key=itemgetter(0, 1))
        found = list(_sweep(op, todo))
        lengths = [e - s for s, e, _, _ in todo]
        clean = not found and all(d > _ZERO for d in lengths)
        return _Swept(todo, [x[0] for x in todo], found,
                      max(lengths, default=_ZERO) if clean else None)
    return a.memo(f"MAX-CONCURRENT {op.id}", build)


def _sweep(op: Operator, todo: Sequence[_Item]) -> Iterator[Violation]:
    """MAX-CONCURRENT, ``concurrency: time``, over the sessions ``todo`` (sorted by start and
    end; those of one instant as placed): at each session start (in time order), the
    tournaments in play then (start ≤ that instant < end). One violation per run of time
    over the limit (it ends when sessions ending leave at most ``max_concurrent`` in play),
    at the run's first session start whose set of tournaments was not already reported.
    Counted as sessions come and go, so a calendar repeating every second (5,000 sessions
    in play at once) costs one pass."""
    active: dict[int, _Item] = {}
    ends: list[tuple[dt.datetime, int]] = []  # a heap of (end, index in todo)
    per_ref: Counter[str] = Counter()  # sessions in play of each ref

    def end_at(t: dt.datetime) -> None:
        """Take out the sessions that end at ``t``."""
        while ends and ends[0][0] == t:
            gone = active.pop(heapq.heappop(ends)[1])
            per_ref[gone[2]] -= 1
            if not per_ref[gone[2]]:
                del per_ref[gone[2]]

    done: set[frozenset[str]] = set()
    reported_run = False  # this run of time over the limit has a violation already
    i = 0
    while i < len(todo):
        at = todo[i][0]
        while ends and ends[0][0] < at:  # a moment between starts: the run may end
            end_at(ends[0][0])
            if len(per_ref) <= op.max_concurrent:
                reported_run = False
        while i < len(todo) and todo[i][0] == at:
            active[i] = todo[i]
            heapq.heappush(ends, (todo[i][1], i))
            per_ref[todo[i][2]] += 1
            i += 1
        end_at(at)  # end-exclusive: one ending as another starts is not in play
        if len(per_ref) <= op.max_concurrent:
            reported_run = False
            continue
        if reported_run:
            continue
        first: dict[str, tuple[dt.datetime, dt.datetime, Occurrence]] = {}
        for s_, e_, ref, p in active.values():  # in (start, end) order
            first.setdefault(ref, (s_, e_, p))
        if frozenset(first) in done:
            continue
        done.add(frozenset(first))
        reported_run = True
        yield _concurrent(op, at, first)


def _added_in_time(a: Audit, op: Operator, p: Occurrence) -> list[Violation]:
    """MAX-CONCURRENT, ``concurrency: time``, of ``op`` with ``p`` added (:attr:`Rule.added`).

    When the operator's sessions in ``a`` are never over the limit (a plan that passed the
    check), only the instants while ``p`` is in play can be, and no run over the limit began
    before them: the sweep of the sessions in play between ``p``'s first start and last end
    gives the same violations as the sweep of them all. Otherwise all are swept."""
    todo, starts, _, longest = _swept(a, op)
    mine = sorted(_items(a.scenario, p), key=itemgetter(0, 1))
    if not mine:
        return []
    first, last = mine[0][0], max(e for _, e, _, _ in mine)
    if longest is None or any(e <= s for s, e, _, _ in mine):
        window: Sequence[_Item] = todo
    else:  # those in play at some instant of [first, last): start < last, end > first
        lo = bisect.bisect_left(starts, first - longest)
        hi = bisect.bisect_left(starts, last)
        window = [x for x in todo[lo:hi] if x[1] > first]
    # as the checker sorts them: by (start, end), those of one instant as placed (p last)
    return list(_sweep(op, sorted([*window, *mine], key=itemgetter(0, 1))))


_ZERO = dt.timedelta(0)


def _concurrent(op: Operator, at: dt.datetime,
                first: dict[str, tuple[dt.datetime, dt.datetime, Occurrence]]) -> Violation:
    """The MAX-CONCURRENT violation at ``at``: every ref in ``refs``, the first
    :data:`_SHOWN` sessions in the sentence (a calendar repeating every minute puts
    hundreds in play at once), the others counted ("and 595 more")."""
    day = at.astimezone(op.tz).date()
    shown = [f"{ref} {_clock(s, op.tz, day)}-{_clock(e, op.tz, day)}"
             for ref, (s, e, _) in itertools.islice(first.items(), _SHOWN)]
    if len(first) > _SHOWN:
        shown.append(f"and {len(first) - _SHOWN:,} more")
    return Violation("MAX-CONCURRENT", op.id, tuple(first), day.isoformat(),
                     f"{op.name} would have {len(first)} tournaments in play at once "
                     f"at {_clock(at, op.tz)} ({', '.join(shown)}); at most "
                     f"{op.max_concurrent} at once")


def _by_day(a: Audit, op: Operator) -> dict[dt.date, list[Occurrence]]:
    """The operator's occurrences counted (small-stakes not) on each day they touch, as
    placed."""
    per_day: dict[dt.date, list[Occurrence]] = defaultdict(list)
    for p in a.of_operator(op):
        if _counts_concurrency(p.tournament):
            for d in p.timing.days:
                per_day[d].append(p)
    return per_day


def _check_per_day(a: Audit, op: Operator) -> Iterator[Violation]:
    per_day = _by_day(a, op)
    for d in sorted(per_day):
        v = _on_day(op, d, per_day[d])
        if v is not None:
            yield v


def _on_day(op: Operator, d: dt.date, ps: Sequence[Occurrence]) -> Violation | None:
    """MAX-CONCURRENT, ``concurrency: day``: the violation when more than ``max_concurrent``
    of ``ps`` (the operator's on day ``d``) are conducted that day."""
    if len(ps) <= op.max_concurrent:
        return None
    return Violation("MAX-CONCURRENT", op.id, tuple(p.ref for p in ps), d.isoformat(),
                     f"{op.name} would conduct {len(ps)} tournaments on {d} "
                     f"({', '.join(p.ref for p in ps)}); at most "
                     f"{op.max_concurrent} at once (concurrency: day)")


def _added_max_concurrent(a: Audit, p: Occurrence) -> list[Violation]:
    """MAX-CONCURRENT with ``p`` added (:attr:`Rule.added`): the operators of ``p`` only, in
    the scenario's order; per day, the days ``p`` touches."""
    if not _counts_concurrency(p.tournament):
        return []
    out: list[Violation] = []
    for op in a.operators_of(p):
        if op.concurrency == "day":
            per_day = a.memo(f"MAX-CONCURRENT day {op.id}", functools.partial(_by_day, a, op))
            out.extend(v for d in p.timing.days
                       if (v := _on_day(op, d, [*per_day.get(d, ()), p])) is not None)
        else:
            out.extend(_added_in_time(a, op, p))
    return out


MAX_CONCURRENT = Rule("MAX-CONCURRENT", encode=_encode_max_concurrent,
                      check=_check_max_concurrent, added=_added_max_concurrent)
