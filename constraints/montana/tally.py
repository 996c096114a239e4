"""Montana, the large-stakes tally (MCA 23-5-317(1)(a), (1)(f)): which large-stakes
tournaments of an operator's permit year count toward the 16 of MT-LARGE-LIMIT and which
charitable ones do not (MT-CHARITY-LIMIT), the one reading the rules of
:mod:`constraints.montana.limits`, the model's ``counted`` column, the summary and
``Plan.usage`` share; with the permit years a tournament counts in (``permit_year_count``,
:func:`counted_years`) and the progressives counted once (``progressive_count``,
:func:`counted_once`).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from constraints.base import Audit, Occurrence
from constraints.montana.terms import CHARITY_LIMIT
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tour


def counted_years(sc: Scenario, op: Operator, days: Sequence[dt.date]) -> tuple[dt.date, ...]:
    """MT-LARGE-LIMIT, MCA 23-5-317(1)(a) (MT-PERMIT-YEAR): the permit years (first days,
    ascending) toward whose 16 a large-stakes tournament of Montana operator ``op`` played on
    ``days`` (its days of play, in order, at least one) counts.

    ``settings.permit_year_count`` ``each`` (default): every permit year a day of play falls
    in (Jun 29 - Jul 3 counts in both, as it needs both permits, MT-PERMIT-FEES);
    ``first-day``: only the permit year of ``days[0]``."""
    if sc.settings.permit_year_count == "first-day":
        return (op.permit_year_of(days[0]),)
    return op.permit_years_of(days)


def counted_because(sc: Scenario, op: Operator, days: Sequence[dt.date],
               rounds: Sequence[str]) -> str:
    """MT-LARGE-LIMIT's words on why a tournament of ``op`` played on ``days`` counts where
    it does, when a reading says so: ``", played <first> to <last>: it counts in each of the
    permit years ..."`` (``permit_year_count: each``, :func:`counted_years`) and ``", with
    <refs>: a progressive counts once ..."`` (the other ``rounds`` counted with it,
    ``progressive_count: once``); empty otherwise."""
    out = ""
    years = counted_years(sc, op, days)
    if len(years) > 1:
        out += (f", played {days[0]} to {days[-1]}: it counts in each of the permit years "
                f"{' and '.join(y.isoformat() for y in years)} (permit_year_count: each)")
    if rounds:
        out += (f", with {' and '.join(rounds)}: a progressive counts once (progressive_count:"
                f" once, MT-PROGRESSIVE)")
    return out


def counted_once(sc: Scenario) -> dict[str, Tour]:
    """MT-PROGRESSIVE, MCA 23-5-317(1)(d),(e): under ``settings.progressive_count: once``,
    each round (stop) of a progressive tour by tournament id -> its tour: the rounds an
    operator plays in one permit year count once there. Empty under ``round`` (the default:
    every round counts like a tournament of its own)."""
    if sc.settings.progressive_count != "once":
        return {}
    return {sid: tour for tour in sc.tours if tour.progressive for sid in tour.stops}


def once_charitable(sc: Scenario, tour: Tour) -> bool:
    """MT-CHARITY-LIMIT on a progressive counted once: it is charitable when every round of
    it is (an unknown stop reads as not charitable)."""
    known = {t.id: t for t in sc.tournaments}
    return all(s in known and known[s].charitable for s in tour.stops)


class LargeItem(NamedTuple):
    """One large-stakes occurrence an operator holds, as :func:`large_tally` counts it."""

    first_day: dt.date
    tournament_id: str
    occurrence: int
    charitable: bool
    days: tuple[dt.date, ...] = ()
    """Its days of play in order (``Timing.days``, an actual's first to last day); empty:
    the first day only."""


def held_count(op: Operator, sc: Scenario, py: dt.date, charitable: bool) -> int:
    """Tournaments held before the horizon in the permit year ``py`` (only the current one)."""
    if py != op.permit_year_of(sc.horizon.start):
        return 0
    h = op.held_in_current_permit_year
    return h.charitable if charitable else h.large_stakes


@dataclass(frozen=True)
class LargeTally:
    """One operator's large-stakes tournaments in one permit year, as MT-LARGE-LIMIT and
    MT-CHARITY-LIMIT count them (MCA 23-5-317(1)(a), (1)(f)).

    The first ``CHARITY_LIMIT`` (3) charitable ones of the permit year, those held before the
    plan first and then the placed ones by first day, are *free*: not counted toward the 16.
    Every later charitable one is *counted* like a non-charitable one. Refs are
    ``tournament_id#occurrence`` in first-day order (ties by tournament id, occurrence).
    """

    permit_year: dt.date
    """First day of the permit year (MT-PERMIT-YEAR)."""
    held_large: int
    """Non-charitable large-stakes held before the plan in this permit year."""
    held_charitable: int
    """Charitable large-stakes held before the plan in this permit year."""
    noncharitable: tuple[str, ...]
    """Placed non-charitable occurrences (all counted)."""
    free: tuple[str, ...]
    """Placed charitable occurrences not counted (within the first 3 of the permit year)."""
    counted_charitable: tuple[str, ...]
    """Placed charitable occurrences counted toward the 16 (the 4th charitable and later)."""
    counted_order: tuple[str, ...]
    """Every placed counted occurrence (non-charitable and counted charitable), by date."""
    rounds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``progressive_count: once``: (the ref that stands for a progressive in this permit
    year, i.e. its first round played here, listed above; the refs of its other rounds
    played here in the permit year, counted with it), MT-PROGRESSIVE."""

    def counted_with(self, ref: str) -> tuple[str, ...]:
        """The refs of the other rounds counted with ``ref`` (:attr:`rounds`); empty for a
        tournament counted on its own."""
        return dict(self.rounds).get(ref, ())

    @property
    def held_free(self) -> int:
        """Held charitable ones that are not counted: at most 3."""
        return min(self.held_charitable, CHARITY_LIMIT)

    @property
    def held_counted(self) -> int:
        """Held ones counted toward the 16: non-charitable + charitable beyond the first 3."""
        return self.held_large + max(0, self.held_charitable - CHARITY_LIMIT)

    @property
    def counted(self) -> int:
        """MT-LARGE-LIMIT used: counted held + counted placed (limit 16)."""
        return self.held_counted + len(self.counted_order)

    @property
    def free_used(self) -> int:
        """MT-CHARITY-LIMIT used: charitable ones not counted, held + placed (at most 3)."""
        return self.held_free + len(self.free)

    @property
    def charitable_counted(self) -> int:
        """Charitable ones counted toward the 16, held + placed."""
        return max(0, self.held_charitable - CHARITY_LIMIT) + len(self.counted_charitable)


def large_tally(sc: Scenario, op: Operator, occurrences: Iterable[LargeItem | tuple],
                years: Iterable[dt.date] = ()) -> dict[dt.date, LargeTally]:
    """MT-LARGE-LIMIT / MT-CHARITY-LIMIT (MCA 23-5-317(1)(a), (1)(f)): per permit year (first
    day, ascending) the free and counted large-stakes tournaments of Montana operator ``op``.

    ``occurrences``: a :class:`LargeItem` (or the tuple ``(first_day, tournament_id,
    occurrence, charitable[, days])``) of every large-stakes occurrence ``op`` holds (alone
    or shared). It counts in the permit years of :func:`counted_years` (``permit_year_count``:
    each one its days of play fall in, or its first day's). Under ``progressive_count: once``
    the rounds of a progressive (:func:`counted_once`) that ``op`` plays in one permit year
    count once there, as its first one there (:attr:`LargeTally.rounds`; charitable when
    every round is, :func:`once_charitable`). ``held_in_current_permit_year`` is counted in
    the permit year containing ``horizon.start``, which is always in the result, as is every
    permit year (first day) in ``years``. The one reading of which tournaments count: the
    model's ``counted`` column, the checker, the actuals, the summary, ``Plan.usage`` and the
    usage chart all use it.
    """
    once = counted_once(sc)
    per_py: dict[dt.date, list[LargeItem]] = defaultdict(list)
    for py in (op.permit_year_of(sc.horizon.start), *years):
        per_py[py] = []
    for raw in occurrences:
        item = LargeItem(*raw)
        for py in counted_years(sc, op, item.days or (item.first_day,)):
            per_py[py].append(item)
    out: dict[dt.date, LargeTally] = {}
    for py in sorted(per_py):
        hl, hc = held_count(op, sc, py, False), held_count(op, sc, py, True)
        free_left = max(0, CHARITY_LIMIT - hc)
        non: list[str] = []
        free: list[str] = []
        counted_ch: list[str] = []
        order: list[str] = []
        rounds: dict[str, list[str]] = {}
        first_round: dict[str, str] = {}  # tour id -> the ref standing for it
        for _day, tid, k, charitable, _ in sorted(per_py[py], key=lambda x: x[:4]):
            ref = f"{tid}#{k}"
            tour = once.get(tid)
            if tour is not None:
                if tour.id in first_round:
                    rounds[first_round[tour.id]].append(ref)
                    continue
                first_round[tour.id] = ref
                rounds[ref] = []
                charitable = once_charitable(sc, tour)
            if not charitable:
                non.append(ref)
                order.append(ref)
            elif free_left:
                free_left -= 1
                free.append(ref)
            else:
                counted_ch.append(ref)
                order.append(ref)
        out[py] = LargeTally(py, hl, hc, tuple(non), tuple(free), tuple(counted_ch),
                             tuple(order), tuple((r, tuple(v)) for r, v in rounds.items() if v))
    return out


def held_from_year_start(sc: Scenario, op: Operator) -> str | None:
    """Why ``held_in_current_permit_year`` must be 0 when ``horizon.start`` is the first day
    of its permit year (the history counts what was held before it in that permit year);
    None when the horizon starts later in the permit year."""
    start = sc.horizon.start
    if op.permit_year_of(start) != start:
        return None
    return (f"counts what was held before horizon.start ({start}) in the permit year "
            f"that contains it; that permit year begins on {start} (permit_year_start "
            f"{op.permit_year_start}), so nothing can have been held in it yet: it must "
            "be 0 (tournaments of the previous permit year do not count)")


def placed_item(p: Occurrence) -> LargeItem:
    """A placed occurrence as :func:`large_tally` counts it (its days of play)."""
    return LargeItem(p.first_day, p.tid, p.occurrence, p.tournament.charitable,
                     p.timing.days)


def audit_tallies(a: Audit) -> Iterator[tuple[Operator, LargeTally]]:
    """Every Montana operator's :func:`large_tally` of a schedule, in scenario and permit-year
    order: the permit years of the horizon's start and of every occurrence it holds (of any
    type), ``held_in_current_permit_year`` counted."""
    sc = a.scenario
    for op in sc.operators:
        if op.jurisdiction != "MT":
            continue
        mine = a.of_operator(op)
        items = [placed_item(p) for p in mine if p.tournament.is_large]
        years = {op.permit_year_of(p.first_day) for p in mine}
        for tally in large_tally(sc, op, items, years).values():
            yield op, tally
