"""Montana, a tournament of several operators: MT-PROGRESSIVE (MCA 23-5-317(1)(e)): who may
hold a tournament together, and a progressive tour's rounds.

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

from collections.abc import Iterator

from constraints.base import Rule
from constraints.montana.terms import _mt
from scheduler.problems import TermProblem
from scheduler.scenario import MT_TYPES, Scenario

# ------------------------------------------------------------------ MT-PROGRESSIVE


def _validate_progressive(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in _mt(sc):
        if len(t.operators) > 1 and not t.is_large:
            yield TermProblem(("tournaments", i, "operators"), "MT-PROGRESSIVE",
                              "only a large-stakes tournament may be held by several operators")
    for i, t in enumerate(sc.tournaments):
        if len(t.operators) > 1 and t.type not in MT_TYPES:
            yield TermProblem(("tournaments", i, "operators"), "MT-PROGRESSIVE",
                              "only a Montana large-stakes tournament may have several operators")
    yield from _validate_progressive_tours(sc)


def _validate_progressive_tours(sc: Scenario) -> Iterator[TermProblem]:
    """MT-PROGRESSIVE, MCA 23-5-317(1)(e): a tour marked ``progressive`` is one progressive
    large-stakes tournament whose rounds are its stops: every stop is a large-stakes
    tournament (its operators hold the large-stakes permit), the rounds are held by at least
    two permitholders together ("with other ... permitholders"), and it names its ``final``
    round, where the ultimate prize is awarded (held last: TOUR-ORDER)."""
    types = {t.id: t for t in sc.tournaments}
    for j, tour in enumerate(sc.tours):
        if not tour.progressive:
            continue
        hosts: set[str] = set()
        for k, sid in enumerate(tour.stops):
            t = types.get(sid)
            if t is None:
                continue  # an unknown stop: TOUR-ORDER names it
            hosts.update(t.operators)
            if not t.is_large:
                yield TermProblem(("tours", j, "stops", k), "MT-PROGRESSIVE",
                                  f"every round of a progressive is a large-stakes tournament; "
                                  f"{sid} is {t.type}")
        if len(hosts) < 2:
            yield TermProblem(("tours", j, "stops"), "MT-PROGRESSIVE",
                              "a progressive is conducted with other large-stakes "
                              "permitholders: its rounds need at least two operators")
        if tour.final is None:
            yield TermProblem(("tours", j, "final"), "MT-PROGRESSIVE",
                              "a progressive names its final round (final: a stop id), where "
                              "the ultimate prize is awarded")


MT_PROGRESSIVE = Rule("MT-PROGRESSIVE", validate=_validate_progressive)
