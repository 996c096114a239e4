"""Montana, the large-stakes tally (MCA 23-5-317(1)(a), (1)(f)): which large-stakes
tournaments of an operator's permit year count toward the 16 of MT-LARGE-LIMIT and which
charitable ones do not (MT-CHARITY-LIMIT), the one reading the rules of
:mod:`constraints.montana.limits`, the model's ``counted`` column, the summary and
``Plan.usage`` share.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from constraints.montana.terms import CHARITY_LIMIT
from scheduler.scenario import Operator, Scenario


def _held(op: Operator, sc: Scenario, py: dt.date, charitable: bool) -> int:
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


def large_tally(sc: Scenario, op: Operator,
                occurrences: Iterable[tuple[dt.date, str, int, bool]],
                years: Iterable[dt.date] = ()) -> dict[dt.date, LargeTally]:
    """MT-LARGE-LIMIT / MT-CHARITY-LIMIT (MCA 23-5-317(1)(a), (1)(f)): per permit year (first
    day, ascending) the free and counted large-stakes tournaments of Montana operator ``op``.

    ``occurrences``: ``(first_day, tournament_id, occurrence, charitable)`` of every
    large-stakes occurrence ``op`` holds (alone or shared; a permit year is that of the first
    day). ``held_in_current_permit_year`` is counted in the permit year containing
    ``horizon.start``, which is always in the result, as is every permit year (first day) in
    ``years``. The one reading of which charitable
    tournaments count: the model's ``counted`` column, the checker, the summary, ``Plan.usage``
    and the usage chart all use it.
    """
    per_py: dict[dt.date, list[tuple[dt.date, str, int, bool]]] = defaultdict(list)
    for py in (op.permit_year_of(sc.horizon.start), *years):
        per_py[py] = []
    for item in occurrences:
        per_py[op.permit_year_of(item[0])].append(item)
    out: dict[dt.date, LargeTally] = {}
    for py in sorted(per_py):
        hl, hc = _held(op, sc, py, False), _held(op, sc, py, True)
        free_left = max(0, CHARITY_LIMIT - hc)
        non: list[str] = []
        free: list[str] = []
        counted_ch: list[str] = []
        order: list[str] = []
        for _, tid, k, charitable in sorted(per_py[py]):
            ref = f"{tid}#{k}"
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
                             tuple(order))
    return out
