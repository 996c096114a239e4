"""Tours across venues: a regional tour or a Montana progressive (MCA 23-5-317(1)(e)) whose
stops (rounds) are ordinary tournaments at their own venues, planned together.

Each stop is a tournament of ``tournaments`` with ``count: 1``, so every rule of its venue
applies to it as to any other tournament (it counts toward that room's 16, MT-LARGE-LIMIT;
it needs that room's notice, MT-NOTICE; blackouts, tables, ...). The scenario's top-level
``tours`` adds, per tour (``scheduler.core.scenario.Tour``):

- ``TOUR-WHOLE``: the stops are placed together, all of them or none;
- ``TOUR-ORDER``: no two stops are in play on the same day (each stop's first day is after
  the previous stop's last day); with ``order: strict`` in the listed order; the ``final``
  after every other stop (the final round's date is the last day, MT-PROGRESSIVE);
- ``TOUR-SPACING``: from one stop's first day to the next one's (in date order) at least
  ``min_days_between`` days and, when given, at most ``max_days_between`` days.

The CP-SAT encoding works over each stop's first and last day as sums of its ``z``
(``s = Σ day·z``, ``e = Σ last_day·z``, presence ``p = Σ z``); a constraint between two stops
holds when both are placed (a big-M term in ``2 − p_a − p_b``), so every constraint reads the
stops' ``z`` only and the conflict explanation (``scheduler/engine/explain.py``) guards it as a
family of its rule. ``check`` reads the same rules from the placed occurrences, in plain
Python. The input checks (unknown stops, a stop in two tours, a final not last, spacing the
horizon cannot hold) are ``validate``; the progressive's own terms are MT-PROGRESSIVE's, in
``constraints/montana/``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Sequence

from ortools.sat.python import cp_model

from constraints.base import Audit, Occurrence, Rule, Violation
from constraints.modelling import ModelContext
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tour, Tournament


# ------------------------------------------------------------------ input checks
def _near(value: str, known: Sequence[str]) -> str:
    near = difflib.get_close_matches(value, list(known), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def needed_days(sc: Scenario, tour: Tour) -> int:
    """TOUR-SPACING: the fewest days (a count, first day of the first stop to the last day of
    the last one, inclusive) that the stops of ``tour`` need, in the listed order: for each
    stop but the last, ``max(min_days_between, its days)`` (the next stop starts at least
    that many days after it starts, TOUR-SPACING and TOUR-ORDER), plus the last stop's days;
    with ``order: any`` and no ``final``, the stop that saves most days goes last. Three
    one-day stops at least 7 days apart: 7 + 7 + 1 = 15. The stops' ids must be known. A
    lower bound: play past midnight adds a day the count leaves out.
    """
    days = [sc.tournament(s).days for s in tour.stops]
    each = [max(tour.min_days_between, d) for d in days]
    if tour.order == "any" and tour.final is None:
        return sum(each) - max(e - d for e, d in zip(each, days, strict=True))
    return sum(each[:-1]) + days[-1]


def _validate_references(sc: Scenario) -> Iterator[TermProblem]:
    """TOUR-ORDER: stops known tournaments with ``count: 1``, listed once, in one tour only;
    the final one of the stops and the last listed (unique tour ids: SCENARIO, in
    :mod:`constraints.common`)."""
    known = [t.id for t in sc.tournaments]
    owner: dict[str, str] = {}
    for j, tour in enumerate(sc.tours):
        loc = ("tours", j)
        for k, sid in enumerate(tour.stops):
            if sid not in known:
                yield TermProblem((*loc, "stops", k), "TOUR-ORDER",
                                  "unknown tournament id" + _near(sid, known))
                continue
            if sid in tour.stops[:k]:
                yield TermProblem((*loc, "stops", k), "TOUR-ORDER",
                                  f"{sid} is listed twice in tour {tour.id}")
                continue
            if sid in owner:
                yield TermProblem((*loc, "stops", k), "TOUR-ORDER",
                                  f"{sid} is already a stop of tour {owner[sid]}; a "
                                  "tournament is a stop of one tour at most")
            owner.setdefault(sid, tour.id)
            if sc.tournament(sid).count != 1:
                yield TermProblem((*loc, "stops", k), "TOUR-ORDER",
                                  f"a stop is one occurrence: give tournament {sid} count: 1 "
                                  f"(it has count: {sc.tournament(sid).count})")
        if tour.final is not None:
            if tour.final not in tour.stops:
                yield TermProblem((*loc, "final"), "TOUR-ORDER",
                                  "the final must be one of the tour's stops"
                                  + _near(tour.final, tour.stops))
            elif tour.final != tour.stops[-1]:
                yield TermProblem((*loc, "final"), "TOUR-ORDER",
                                  f"the final round is the last day: list {tour.final} last "
                                  f"in stops (the last stop is {tour.stops[-1]})")


def _validate_spacing(sc: Scenario) -> Iterator[TermProblem]:
    """TOUR-SPACING: a maximum needs ``order: strict`` and is not below the minimum; the
    horizon holds the stops at the minimum spacing (:func:`needed_days`)."""
    known = {t.id for t in sc.tournaments}
    horizon = (sc.horizon.end - sc.horizon.start).days + 1
    for j, tour in enumerate(sc.tours):
        loc = ("tours", j)
        high = tour.max_days_between
        if high is not None and tour.order != "strict":
            yield TermProblem((*loc, "max_days_between"), "TOUR-SPACING",
                              "max_days_between needs order: strict (the stops' order must "
                              "be known to bound the days between them)")
        if high is not None and high < tour.min_days_between:
            yield TermProblem((*loc, "max_days_between"), "TOUR-SPACING",
                              f"max_days_between ({high}) is below min_days_between "
                              f"({tour.min_days_between})")
        if all(s in known for s in tour.stops) and len(set(tour.stops)) == len(tour.stops):
            need = needed_days(sc, tour)
            if need > horizon:
                yield TermProblem((*loc, "min_days_between"), "TOUR-SPACING",
                                  f"{len(tour.stops)} stops at least "
                                  f"{tour.min_days_between} days apart need {need} days; the "
                                  f"horizon {sc.horizon.start}..{sc.horizon.end} has "
                                  f"{horizon}")


# ------------------------------------------------------------------ the model
def _stops(sc: Scenario, tour: Tour) -> list[Tournament] | None:
    """The tour's stops as tournaments, in the listed order; None when one is unknown."""
    known = {t.id for t in sc.tournaments}
    if not all(s in known for s in tour.stops):
        return None
    return [sc.tournament(s) for s in tour.stops]


class _Sums:
    """A stop's first day, last day (day numbers from the horizon's start) and presence, as
    sums of its ``z``."""

    def __init__(self, ctx: ModelContext, t: Tournament) -> None:
        start = ctx.scenario.horizon.start
        starts = ctx.starts(t)
        self.id = t.id
        self.s = sum((c.first_day - start).days * v for c, v in starts)
        self.e = sum((c.timing.last_day - start).days * v for c, v in starts)
        self.p = sum(v for _, v in starts)


def _none(a: _Sums, b: _Sums) -> bool:
    """Whether neither stop has a candidate day (the sums are plain 0: nothing to bind)."""
    return isinstance(a.p, int) and isinstance(b.p, int)


def _big(ctx: ModelContext, stops: list[Tournament], tour: Tour) -> int:
    """A bound on |s_b − e_a| and |s_b − s_a| over every candidate, plus the spacing: the
    big-M that switches a constraint between two stops off unless both are placed."""
    horizon = (ctx.scenario.horizon.end - ctx.scenario.horizon.start).days + 1
    longest = max(t.days for t in stops)
    return 2 * (horizon + longest + 2) + tour.min_days_between + (tour.max_days_between or 0)


def _encode_whole(ctx: ModelContext) -> None:
    """TOUR-WHOLE: every two consecutive stops are placed the same number of times (0 or 1)."""
    for tour in ctx.scenario.tours:
        stops = _stops(ctx.scenario, tour)
        if stops is None:
            continue
        sums = [_Sums(ctx, t) for t in stops]
        for a, b in zip(sums, sums[1:], strict=False):
            if _none(a, b):
                continue
            ctx.model.add(a.p == b.p).with_name(
                f"TOUR-WHOLE: tour {tour.id} places {a.id} and {b.id} together")


def _after(ctx: ModelContext, big: int, a: _Sums, b: _Sums, least: int, text: str,
           only_if: cp_model.LiteralT | None, *, from_end: bool) -> None:
    """``s_b − e_a ≥ least`` (``from_end``, TOUR-ORDER) or ``s_b − s_a ≥ least``
    (TOUR-SPACING) when both stops are placed, named ``text``; ``only_if``: and that literal
    holds."""
    if _none(a, b):
        return
    x = a.e if from_end else a.s
    ct = ctx.model.add(b.s - x + big * (2 - a.p - b.p) >= least).with_name(text)
    if only_if is not None:
        ct.only_enforce_if(only_if)


def _encode_order(ctx: ModelContext) -> None:
    """TOUR-ORDER: each stop starts after the previous one's last day; ``strict``: in the
    listed order; ``any``: an order Boolean per two stops, the final after all others."""
    for tour in ctx.scenario.tours:
        stops = _stops(ctx.scenario, tour)
        if stops is None:
            continue
        big = _big(ctx, stops, tour)
        sums = [_Sums(ctx, t) for t in stops]
        for a, b, o in _pairs(ctx, tour, sums, "TOUR-ORDER"):
            _after(ctx, big, a, b, 1, f"TOUR-ORDER: tour {tour.id} starts {b.id} after "
                   f"{a.id} ends", o, from_end=True)


def _encode_spacing(ctx: ModelContext) -> None:
    """TOUR-SPACING: ``min_days_between`` ≤ days from a stop's first day to the next one's
    (``strict``: consecutive stops listed; ``any``: every two stops, either way round) and,
    ``strict`` only, ≤ ``max_days_between``."""
    for tour in ctx.scenario.tours:
        stops = _stops(ctx.scenario, tour)
        if stops is None:
            continue
        big = _big(ctx, stops, tour)
        sums = [_Sums(ctx, t) for t in stops]
        least, most = tour.min_days_between, tour.max_days_between
        for a, b, o in (_pairs(ctx, tour, sums, "TOUR-SPACING") if least > 1 else ()):
            _after(ctx, big, a, b, least, f"TOUR-SPACING: tour {tour.id} starts {b.id} "
                   f"at least {least} days after {a.id}", o, from_end=False)
        if most is not None and tour.order == "strict":
            for a, b in zip(sums, sums[1:], strict=False):
                if _none(a, b):
                    continue
                ctx.model.add(b.s - a.s - big * (2 - a.p - b.p) <= most).with_name(
                    f"TOUR-SPACING: tour {tour.id} starts {b.id} at most {most} days after "
                    f"{a.id}")


def _pairs(ctx: ModelContext, tour: Tour, sums: list[_Sums], rule: str
           ) -> Iterator[tuple[_Sums, _Sums, cp_model.LiteralT | None]]:
    """The (earlier, later, literal) pairs that ``rule`` (TOUR-ORDER or TOUR-SPACING) binds:
    ``strict``: consecutive stops listed, no literal; ``any``: both ways round of every two
    stops, under a new Boolean "the first listed is held first" (and its negation), except
    that every stop comes before the final. Each rule has its own Booleans: either reading
    alone is a disjunction per two stops (held apart, or at least N days apart)."""
    if tour.order == "strict":
        for a, b in zip(sums, sums[1:], strict=False):
            yield a, b, None
        return
    for i, a in enumerate(sums):
        for b in sums[i + 1:]:
            if b.id == tour.final:
                yield a, b, None
                continue
            o = ctx.model.new_bool_var(f"{rule}[{tour.id},{a.id}<{b.id}]")
            yield a, b, o
            yield b, a, o.Not()


# ------------------------------------------------------------------ the independent check
def _placed_stops(a: Audit, tour: Tour) -> list[Occurrence] | None:
    """The first placed occurrence of each stop, in the listed order; None when the audit
    does not cover every stop (one operator's calendar) or a stop is unknown."""
    stops = _stops(a.scenario, tour)
    if stops is None or not all(a.covers(t) for t in stops):
        return None
    first: dict[str, Occurrence] = {}
    for p in sorted(a.placed, key=lambda p: (p.first_day, p.occurrence)):
        first.setdefault(p.tid, p)
    return [first[t.id] for t in stops if t.id in first]


def _operator(p: Occurrence) -> str:
    return p.tournament.operators[0]


def _check_whole(a: Audit) -> Iterator[Violation]:
    for tour in a.scenario.tours:
        placed = _placed_stops(a, tour)
        if placed is None or not placed or len(placed) == len(tour.stops):
            continue
        held = {p.tid for p in placed}
        missing = [s for s in tour.stops if s not in held]
        yield Violation("TOUR-WHOLE", _operator(placed[0]), tuple(p.ref for p in placed),
                        ", ".join(p.first_day.isoformat() for p in placed),
                        f"tour {tour.id} places {', '.join(sorted(held))} but not "
                        f"{', '.join(missing)}; a tour's stops are placed all or none "
                        f"({_terms(tour)})")


def _terms(tour: Tour) -> str:
    """What the tour asks of its stops, in words: ``in the listed order, first days at least
    7 and at most 21 days apart``."""
    out = "in the listed order" if tour.order == "strict" else "in any order"
    low, high = tour.min_days_between, tour.max_days_between
    if low > 1 and high is not None:
        out += f", first days at least {low} and at most {high} days apart"
    elif low > 1:
        out += f", first days at least {low} days apart"
    elif high is not None:
        out += f", first days at most {high} days apart"
    if tour.final is not None:
        out += f", {tour.final} last"
    return out


def _in_order(tour: Tour, placed: list[Occurrence]) -> list[Occurrence]:
    """The placed stops in the order the tour binds: listed (``strict``) or by first day."""
    if tour.order == "strict":
        return placed
    return sorted(placed, key=lambda p: (p.tid == tour.final, p.first_day, p.tid))


def _check_order(a: Audit) -> Iterator[Violation]:
    for tour in a.scenario.tours:
        placed = _placed_stops(a, tour)
        if not placed:
            continue
        seq = _in_order(tour, placed)
        for x, y in zip(seq, seq[1:], strict=False):
            if y.first_day <= x.timing.last_day:
                why = ("the final round's date is the last day" if y.tid == tour.final else
                       "stops are held in the listed order" if tour.order == "strict" else
                       "no two stops are in play on one day")
                yield Violation("TOUR-ORDER", _operator(y), (x.ref, y.ref),
                                f"{x.first_day}, {y.first_day}",
                                f"tour {tour.id}: {y.ref} starts on {y.first_day} but {x.ref} "
                                f"runs until {x.timing.last_day}; {why}")


def _check_spacing(a: Audit) -> Iterator[Violation]:
    for tour in a.scenario.tours:
        placed = _placed_stops(a, tour)
        if not placed:
            continue
        seq = _in_order(tour, placed) if tour.order == "strict" else sorted(
            placed, key=lambda p: (p.first_day, p.tid))
        low, high = tour.min_days_between, tour.max_days_between
        for x, y in zip(seq, seq[1:], strict=False):
            gap = (y.first_day - x.first_day).days
            # a gap below 1 is TOUR-ORDER's (one stop after another), as in the model
            short = low > 1 and gap < low
            if short or (high is not None and gap > high):
                want = f"at least {low}" if short else f"at most {high}"
                yield Violation("TOUR-SPACING", _operator(y), (x.ref, y.ref),
                                f"{x.first_day}, {y.first_day}",
                                f"tour {tour.id}: {x.ref} ({x.first_day}) and {y.ref} "
                                f"({y.first_day}) start {gap} days apart; {want} wanted")


def _added(check: Callable[[Audit], Iterator[Violation]]
           ) -> Callable[[Audit, Occurrence], list[Violation]]:
    """A tour rule's :attr:`Rule.added`: nothing new unless the occurrence added is of a stop
    of a tour (the rules read only the stops' first occurrences); then the whole check."""
    def added(a: Audit, p: Occurrence) -> list[Violation]:
        stops = a.memo("tour stops", lambda: {s for tour in a.scenario.tours
                                              for s in tour.stops})
        return list(check(a.with_one(p))) if p.tid in stops else []
    return added


TOUR_WHOLE = Rule("TOUR-WHOLE", encode=_encode_whole, check=_check_whole,
                  added=_added(_check_whole))
TOUR_ORDER = Rule("TOUR-ORDER", validate=_validate_references, encode=_encode_order,
                  check=_check_order, added=_added(_check_order))
TOUR_SPACING = Rule("TOUR-SPACING", validate=_validate_spacing, encode=_encode_spacing,
                    check=_check_spacing, added=_added(_check_spacing))

RULES = [TOUR_WHOLE, TOUR_ORDER, TOUR_SPACING]
