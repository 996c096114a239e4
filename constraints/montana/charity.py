"""Montana, the charitable large-stakes tournaments not counted: MT-CHARITY-LIMIT (MCA
23-5-317(1)(f): the first 3 charitable ones of a permit year do not count toward
MT-LARGE-LIMIT's 16, :mod:`constraints.montana.limits`). Which ones are free is
:func:`constraints.montana.tally.large_tally`; this rule's own parts are the history's check
and the usage.

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence

from constraints.base import Audit, Rule, Usage, UsageText
from constraints.montana.tally import audit_tallies, held_from_year_start
from constraints.montana.terms import CHARITY_LIMIT
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario

__all__ = ["MT_CHARITY_LIMIT"]


def _charity_usage(a: Audit) -> Iterator[Usage]:
    """MT-CHARITY-LIMIT usage, MCA 23-5-317(1)(f): per Montana operator and permit year, the
    charitable large-stakes tournaments not counted toward the 16 (:attr:`LargeTally.free_used`,
    at most 3), all of them ``charitable``; ``held`` those held before the plan."""
    for op, tally in audit_tallies(a):
        py = tally.permit_year
        yield Usage("MT-CHARITY-LIMIT", op.id, py.isoformat(), py, op.permit_year_end(py),
                    tally.free_used, CHARITY_LIMIT, tally.free_used, tally.held_free)


def _validate_held_charitable(sc: Scenario) -> Iterator[TermProblem]:
    """MT-CHARITY-LIMIT, MCA 23-5-317(1)(f): the charitable ones of
    ``held_in_current_permit_year`` are 0 when ``horizon.start`` is the first day of its
    permit year (nothing can have been held in it yet); those beyond the first 3 count toward
    MT-LARGE-LIMIT's 16 (:func:`_validate_held`)."""
    for i, op in enumerate(sc.operators):
        if op.jurisdiction != "MT":
            continue
        why = held_from_year_start(sc, op)
        if why is not None and op.held_in_current_permit_year.charitable:
            yield TermProblem(("operators", i, "held_in_current_permit_year", "charitable"),
                              "MT-CHARITY-LIMIT", why)


def _charity_lines(records: Sequence[Usage]) -> Iterator[tuple[dt.date, str]]:
    """MT-CHARITY-LIMIT's summary lines: one per permit year, the charitable ones not
    counted of the first 3."""
    for u in records:
        yield u.period_start, (f"MT-CHARITY-LIMIT permit year {u.period}: {u.used}/{u.limit} "
                               f"charitable not counted" + u.held_split)


MT_CHARITY_LIMIT = Rule("MT-CHARITY-LIMIT", validate=_validate_held_charitable,
                        usage=_charity_usage,
                        usage_text=UsageText(
                            f"MT-CHARITY-LIMIT: charitable not counted per permit year "
                            f"(first {CHARITY_LIMIT})", _charity_lines, "permit year from {}"))
"""MT-CHARITY-LIMIT sets no cap of its own: which charitable ones are not counted is
:func:`large_tally`, and MT-LARGE-LIMIT's encoding and check apply it; its usage is the
free ones of each permit year."""
