"""Montana, a tournament of several operators: MT-PROGRESSIVE (MCA 23-5-317(1)(d),(e)): who
may hold a tournament together, a progressive tour's rounds, and their notices: every
operator on whose premises a round is played notifies the department at least 5 days before
the progressive's first round ((1)(d): "before the start of the tournament"), wherever that
round is played (:func:`progressive_starts`; the deadlines, the calendars and the ledger read
each row's ``notice_due``).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator

from constraints.base import Actuals, Audit, Occurrence, Rule, Violation
from constraints.modelling import ModelContext
from constraints.montana.terms import MT_TYPES, mt
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tour
from scheduler.core.timing import MT_NOTICE_DAYS, filing_from, notice_due, notice_ok

# ------------------------------------------------------------------ MT-PROGRESSIVE


def _validate_progressive(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in mt(sc):
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


def progressive_rounds(sc: Scenario) -> dict[str, Tour]:
    """MT-PROGRESSIVE: each round (stop) of a progressive tour, by tournament id -> its
    tour."""
    return {sid: tour for tour in sc.tours if tour.progressive for sid in tour.stops}


def progressive_starts(sc: Scenario, placed: Iterable[tuple[str, dt.date]]
                       ) -> dict[str, dt.date]:
    """MT-PROGRESSIVE, MCA 23-5-317(1)(d): the start of the progressive each placed round
    belongs to.

    Parameters
    ----------
    sc : Scenario
        Whose ``tours`` marked ``progressive`` are read.
    placed : iterable of (tournament id, first day)
        The placed (or held) occurrences, any tournaments; the others are ignored.

    Returns
    -------
    dict of str to datetime.date
        For every placed round of a progressive, by tournament id: the earliest first day of
        any placed round of its progressive (its first round, wherever it is played). Every
        operator on whose premises a round is played notifies the department at least 5
        days before that day (:func:`scheduler.core.timing.notice_due` of it).
    """
    rounds = progressive_rounds(sc)
    start: dict[str, dt.date] = {}
    seen: list[tuple[str, str]] = []
    for tid, day in placed:
        tour = rounds.get(tid)
        if tour is None:
            continue
        seen.append((tid, tour.id))
        start[tour.id] = min(day, start.get(tour.id, day))
    return {tid: start[tour_id] for tid, tour_id in seen}


def _encode_notice(ctx: ModelContext) -> None:
    """MT-PROGRESSIVE, (1)(d): a progressive that starts before the filing day
    (``timing.filing_from``) + 5 days (only on a round's first day whose notice is filed,
    ``filed_dates``) needs every round's notice filed too: such an early start excludes
    every round's unfiled first days. With no filed days (the usual case) every first day
    is at least 5 days after the filing day (MT-NOTICE) and nothing is added."""
    sc = ctx.scenario
    for tour in sc.tours:
        if not tour.progressive:
            continue
        stops = [t for t in sc.tournaments if t.id in tour.stops]
        early = [(t, c, v) for t in stops for c, v in ctx.starts(t)
                 if not notice_ok(c.first_day, filing_from(sc))]
        for t, c, v in early:
            for u in stops:
                if u.id == t.id:
                    continue
                unfiled = [w for x, w in ctx.starts(u) if x.first_day not in u.filed_dates]
                if unfiled:
                    ctx.model.add(v + sum(unfiled) <= 1).with_name(
                        f"MT-PROGRESSIVE: progressive {tour.id} starting {c.first_day} "
                        f"({t.id}) needs {u.id}'s notice filed by {notice_due(c.first_day)}")


def _check_notice(a: Audit) -> Iterator[Violation]:
    """MT-PROGRESSIVE, (1)(d): each placed round but the first whose notice (not filed) was
    due before ``notice_from``, 5 days before the progressive's first round, while its
    own round's 5 days are still to come (those are MT-NOTICE's)."""
    sc = a.scenario
    starts = progressive_starts(sc, ((p.tid, p.first_day) for p in a.placed))
    for p in a.placed:
        start = starts.get(p.tid)
        if (start is None or start >= p.first_day or p.first_day in p.tournament.filed_dates
                or notice_ok(start, filing_from(sc))
                or not notice_ok(p.first_day, filing_from(sc))):
            continue
        for oid in p.tournament.operators:
            yield Violation("MT-PROGRESSIVE", oid, (p.ref,), p.first_day.isoformat(),
                            f"{p.ref} starts {p.first_day} at {oid}, a round of a progressive "
                            f"that starts {start}; {oid}'s notice was due {notice_due(start)}, "
                            f"{MT_NOTICE_DAYS} days before the progressive's first round, "
                            f"before the earliest filing day {filing_from(sc)}")


def _added_notice(a: Audit, p: Occurrence) -> list[Violation]:
    """MT-PROGRESSIVE with ``p`` added (:attr:`Rule.added`): nothing new unless ``p`` is a
    round of a progressive (it may start it earlier); then the whole check."""
    if p.tid not in a.memo("MT-PROGRESSIVE", lambda: progressive_rounds(a.scenario)):
        return []
    return list(_check_notice(a.with_one(p)))


def _held_notice(a: Actuals) -> Iterator[Violation]:
    """MT-PROGRESSIVE on what was held, (1)(d): a round held at an operator whose notice was
    filed later than 5 days before the progressive's first round (the earliest actual
    first day of its held rounds, at any operator), but on time for its own round (a
    notice late for that, or none, is MT-NOTICE's)."""
    sc = a.scenario
    held = [x for x in a.held if x.jurisdiction == "MT" and x.type == "large-stakes"]
    starts = progressive_starts(sc, ((x.tournament_id, x.first_day) for x in held))
    for x in held:
        start = starts.get(x.tournament_id)
        filed = x.notice_filed_on
        if (start is None or start >= x.first_day or filed is None
                or filed > notice_due(x.first_day) or filed <= notice_due(start)):
            continue
        late = (filed - notice_due(start)).days
        yield Violation("MT-PROGRESSIVE", x.operator_id, (x.ref,), x.first_day.isoformat(),
                        f"{x.ref} was held from {x.first_day} at {x.operator_id}, a round of a "
                        f"progressive that started {start}; its notice was filed {filed}, "
                        f"{late} day(s) after it was due ({notice_due(start)}, "
                        f"{MT_NOTICE_DAYS} days before the progressive's first round)")


MT_PROGRESSIVE = Rule("MT-PROGRESSIVE", validate=_validate_progressive, encode=_encode_notice,
                      check=_check_notice, added=_added_notice,
                      actuals=_held_notice)
