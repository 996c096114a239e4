"""Maine, the organization and its application window: ME-LOCAL-APPROVAL,
ME-BENEFICIARY, ME-ELIGIBLE (17 M.R.S. § 1832(2), § 1836(4-A)(A)) and ME-APPLICATION-WINDOW
(17 M.R.S. § 1836(4), 16-633 CMR ch. 32 §§ 2, 4; its deadline sentence).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from functools import lru_cache

from constraints.base import Actuals, Audit, Rule, Violation, day_text, unrecorded
from constraints.catalogue import cite
from constraints.maine.business_days import (
    application_due,
    application_earliest_first_day,
    application_ok,
    application_opens,
)
from constraints.maine.terms import (
    NATIONAL_CRIBBAGE,
    ORGANIZED_YEARS,
    licence_holders,
    licensed,
    me,
)
from scheduler.core.fields import dated_words, day_words
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import (
    ME_APPLICATION_BUSINESS_DAYS,
    ME_APPLICATION_MAX_DAYS,
    Closed,
    Timing,
    filing_from,
    years_later,
)

# ------------------------------------------------------------------ ME-LOCAL-APPROVAL


def _validate_local_approval(sc: Scenario) -> Iterator[TermProblem]:
    """ME-LOCAL-APPROVAL: an operator holding a licensed game has the local governing
    authority's approval (``local_approval: true``)."""
    for i, op in licence_holders(sc):
        if op.local_approval is not True:
            yield TermProblem(("operators", i, "local_approval"), "ME-LOCAL-APPROVAL",
                              "the local governing authority's approval is required "
                              "(local_approval: true)")


ME_LOCAL_APPROVAL = Rule("ME-LOCAL-APPROVAL", validate=_validate_local_approval)


# ------------------------------------------------------------------ ME-BENEFICIARY


def _validate_beneficiary(sc: Scenario) -> Iterator[TermProblem]:
    """ME-BENEFICIARY: an operator holding a licensed game names at least one charitable
    organization the proceeds benefit (``beneficiaries``)."""
    for i, op in licence_holders(sc):
        if not op.beneficiaries:
            yield TermProblem(("operators", i, "beneficiaries"), "ME-BENEFICIARY",
                              "name at least one charitable organization the proceeds benefit")


ME_BENEFICIARY = Rule("ME-BENEFICIARY", validate=_validate_beneficiary)


# ------------------------------------------------------------------ ME-ELIGIBLE


def _validate_organization(sc: Scenario) -> Iterator[TermProblem]:
    """ME-ELIGIBLE for operators holding licensed games (17 M.R.S. § 1832(2)).

    A nationally chartered cribbage 501(c)(3) (``organization_type: national-cribbage-501c3``)
    is eligible only under 17 M.R.S. § 1836(4-A)(A): it needs no ``organized_on`` (the 2 years
    in Maine of § 1832(2) do not apply to it; ME-SUPER-CRIBBAGE checks its organizer's 3 years
    of membership instead) and may hold no licensed game but super cribbage."""
    national = {o.id for o in sc.operators if o.organization_type == NATIONAL_CRIBBAGE}
    for i, t in me(sc):
        if t.type == "tournament-game":
            for oid in t.operators:
                if oid in national:
                    yield TermProblem(
                        ("tournaments", i, "operators"), "ME-ELIGIBLE",
                        f"{oid} is a nationally chartered cribbage 501(c)(3) (organization_type:"
                        f" {NATIONAL_CRIBBAGE}): 17 M.R.S. § 1836(4-A)(A) lets it conduct only "
                        f"super cribbage tournaments, not a tournament game")
    start = sc.horizon.start
    two_years_before = years_later(start, -ORGANIZED_YEARS)  # from Feb 29: Feb 28
    for i, op in licence_holders(sc):
        if op.id in national:
            continue
        loc = ("operators", i)
        if op.organized_on is None:
            yield TermProblem((*loc, "organized_on"), "ME-ELIGIBLE",
                              "give the date the organization was organized in Maine "
                              f"(at least {ORGANIZED_YEARS} years before the plan)")
        elif op.organized_on > two_years_before:
            yield TermProblem((*loc, "organized_on"), "ME-ELIGIBLE",
                              f"the organization must be organized at least "
                              f"{ORGANIZED_YEARS} years (on or before {two_years_before})")


ME_ELIGIBLE = Rule("ME-ELIGIBLE", validate=_validate_organization)


# ------------------------------------------------------------------ ME-APPLICATION-WINDOW
def earliest_first_day(notice_from: dt.date, closed: Closed = ()) -> dt.date:
    """ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: the earliest first day whose application,
    received on ``notice_from`` or later, is on time: the first whose due date (the 10th
    Maine business day before it, :func:`constraints.maine.application_due`) is on or after
    ``notice_from`` (:func:`constraints.maine.application_earliest_first_day`; ``closed``:
    ``settings.closed_days``). A Saturday, Sunday or holiday first day is possible."""
    return application_earliest_first_day(notice_from, closed)


def _application_ok(sc: Scenario, t: Tournament, tm: Timing) -> bool:
    """ME-APPLICATION-WINDOW: a licensed game's first day is allowed iff
    :func:`constraints.maine.application_ok` (or the application is already filed,
    ``filed_dates``)."""
    return (not licensed(t) or tm.first_day in t.filed_dates
            or tm.first_day >= earliest_first_day_cached(filing_from(sc), sc.settings.closed_days))


@lru_cache(maxsize=64)
def earliest_first_day_cached(notice_from: dt.date, closed: tuple[dt.date, ...]) -> dt.date:
    """:func:`application_earliest_first_day`, once per ``notice_from`` and ``closed_days``:
    the model asks :func:`_application_ok` of every candidate day, and :func:`application_ok`
    is monotone in the first day (true exactly from this day on)."""
    return application_earliest_first_day(notice_from, closed)


def _check_application(a: Audit) -> Iterator[Violation]:
    """ME-APPLICATION-WINDOW, 16-633 CMR ch. 32 § 2: a placed licensed game whose application
    is not filed (``filed_dates``) and whose due date is before the earliest filing day
    (:func:`scheduler.core.timing.filing_from`: the later of ``notice_from`` and ``as_of``)."""
    closed = a.scenario.settings.closed_days
    for p in a.placed:
        if not licensed(p.tournament) or p.first_day in p.tournament.filed_dates:
            continue
        if not application_ok(p.first_day, filing_from(a.scenario), closed):
            nf, due = filing_from(a.scenario), application_due(p.first_day, closed)
            yield Violation("ME-APPLICATION-WINDOW", p.tournament.operators[0], (p.ref,),
                            p.first_day.isoformat(),
                            f"{p.ref} starts {p.first_day}; its licence application had to be "
                            f"received by {due} ({ME_APPLICATION_BUSINESS_DAYS} Maine business "
                            f"days before), before the earliest filing day {nf}; the earliest "
                            f"first day is {earliest_first_day(nf, closed)}")


def _held_application(a: Actuals) -> Iterator[Violation]:
    """ME-APPLICATION-WINDOW on what was held (16-633 CMR ch. 32 § 2): a licensed Maine game
    (tournament game, super cribbage) was held under a licence whose application was
    received at most 90 days and at least 10 Maine business days before the first day the
    licence covers (:func:`constraints.maine.application_opens` ..
    :func:`constraints.maine.application_due` of its ``valid_from``, or of the game's first
    day when that is earlier; ``settings.closed_days`` skipped), as ``tourney deadlines``
    judges it. No application recorded:
    a violation; a licence recorded bought without the day its application was received: a
    note."""
    for x in a.held:
        if x.type not in ("tournament-game", "super-cribbage"):
            continue
        first = min(x.licence_first_day or x.first_day, x.first_day)
        opens = application_opens(first)
        due = application_due(first, a.scenario.settings.closed_days)
        lic = f"licence {x.licence_id}" if x.licence_id else "its licence"
        got = x.application_received_on
        if got is None and x.licence_bought:
            yield unrecorded("ME-APPLICATION-WINDOW", x, [
                f"the day the application of {lic} was received (tourney record filed "
                "me-application)"], "the application window")
        elif got is None:
            yield Violation("ME-APPLICATION-WINDOW", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held from {x.first_day} and no application for "
                            f"{lic} is on record; it was due by {due} (10 Maine business days "
                            f"before {first})")
        elif got > due:
            yield Violation("ME-APPLICATION-WINDOW", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held from {x.first_day}; the application for {lic} "
                            f"was received {got}, after it was due ({due}, 10 Maine business "
                            f"days before {first})")
        elif got < opens:
            yield Violation("ME-APPLICATION-WINDOW", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held from {x.first_day}; the application for {lic} "
                            f"was received {got}, {(first - got).days} days before {first}; at "
                            f"most {ME_APPLICATION_MAX_DAYS} (from {opens})")


def _application_ok_many(sc: Scenario, t: Tournament, tms: Sequence[Timing]) -> list[bool]:
    """:func:`_application_ok` of each of ``tms`` (ME-APPLICATION-WINDOW), in one pass."""
    if not licensed(t):
        return [True] * len(tms)
    earliest = earliest_first_day_cached(filing_from(sc), sc.settings.closed_days)
    filed = frozenset(t.filed_dates)
    return [tm.days[0] >= earliest or tm.days[0] in filed for tm in tms]


ME_APPLICATION = Rule("ME-APPLICATION-WINDOW", allows=_application_ok, check=_check_application,
                      actuals=_held_application, allows_many=_application_ok_many)


def application_window_text(opens: dt.date, due: dt.date, first_day: dt.date,
                            earliest: dt.date) -> str:
    """ME-APPLICATION-WINDOW, 17 M.R.S. § 1836(4) / Chapter 32 § 4, as a deadline: the
    sentence saying when the licence application for a game starting ``first_day`` must be
    received, between ``opens`` and ``due`` (:func:`constraints.maine.application_window`);
    ``earliest`` is the day 90 days before (:func:`constraints.maine.application_opens`),
    noted when the window is shown from the plan's ``notice_from`` instead."""
    text = (f"The application must be received between {day_text(opens)} "
            f"and {day_text(due)}: at most {ME_APPLICATION_MAX_DAYS} days and at least "
            f"{ME_APPLICATION_BUSINESS_DAYS} Maine business days before the first day it "
            f"covers, {day_text(first_day)} ({cite('ME-APPLICATION-WINDOW')}).")
    if opens != earliest:
        text += (f" ({ME_APPLICATION_MAX_DAYS} days before is {day_text(earliest)}, before "
                 f"this plan's notice_from; the window is shown from notice_from.)")
    return text


def application_line(licence: str, opens: dt.date, due: dt.date) -> str:
    """ME-APPLICATION-WINDOW, 17 M.R.S. § 1836(4) / Chapter 32 § 4, as a deadline's
    ``what`` (deadlines.csv, plan.xlsx, the report, ``tourney deadlines``), in people's words
    and without ids: ``Apply for the <licence>: the Gambling Control Unit receives the
    application from Dec 20, 2026 to Thu, Dec 24, 2026``; ``licence`` the licence in words
    (``Maine per-tournament licence (51–100 players) for Jan 9, 2027``), ``opens``..``due``
    the window (inclusive days). The calendars word it :func:`application_window_text`."""
    return (f"Apply for the {licence}: the Gambling Control Unit receives the application "
            f"from {day_words(opens)} to {dated_words(due)}")
