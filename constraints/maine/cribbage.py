"""Maine, super cribbage: ME-SUPER-CRIBBAGE (17 M.R.S. § 1836(4-A): 15 licences statewide a
year, the game's terms, its licence and its charity share, also on what was held).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from decimal import ROUND_UP, Decimal
from typing import cast

from constraints.base import (
    STATEWIDE,
    Actual,
    Actuals,
    Audit,
    Occurrence,
    Rule,
    Usage,
    Violation,
    share_text,
    unrecorded,
    usd,
)
from constraints.maine.terms import (
    MEMBER_YEARS,
    NATIONAL_CRIBBAGE,
    PLAYER_CAP_OWNED,
    SUPER_CRIBBAGE_FEE,
    SUPER_CRIBBAGE_HOURS,
    SUPER_CRIBBAGE_LIMIT,
    TIERS,
    me,
    nth,
    sessions_span,
    tier_index,
)
from constraints.modelling import LicenseOption, ModelContext, covers_occurrence, sum_by
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario


# ------------------------------------------------------------------ ME-SUPER-CRIBBAGE
def super_cribbage_left(sc: Scenario, year: int) -> int:
    """ME-SUPER-CRIBBAGE: licences of calendar ``year`` left for this scenario: 15 less those
    issued statewide to organizations outside it (``settings.super_cribbage_licenses_issued``),
    never below 0."""
    return max(0, SUPER_CRIBBAGE_LIMIT
               - sc.settings.super_cribbage_licenses_issued.get(year, 0))


def _validate_super_cribbage(sc: Scenario) -> Iterator[TermProblem]:
    """ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): 30 to 300 players, half the proceeds after
    prizes to charity, licences already issued at most 15 a year, and, when a nationally
    chartered cribbage 501(c)(3) conducts it ((4-A)(A)), a principal organizer who has been a
    member for at least 3 years (``organizer_member_years``; not asked of a Maine
    organization)."""
    for year, n in sc.settings.super_cribbage_licenses_issued.items():
        if n > SUPER_CRIBBAGE_LIMIT:
            yield TermProblem(("settings", "super_cribbage_licenses_issued", year),
                              "ME-SUPER-CRIBBAGE",
                              f"at most {SUPER_CRIBBAGE_LIMIT} super cribbage licences are "
                              f"issued statewide in a year")
    national = {o.id for o in sc.operators if o.organization_type == NATIONAL_CRIBBAGE}
    for i, t in me(sc):
        if t.type != "super-cribbage":
            continue
        loc = ("tournaments", i)
        if t.sessions and sessions_span(t) > SUPER_CRIBBAGE_HOURS:
            yield TermProblem((*loc, "sessions"), "ME-SUPER-CRIBBAGE",
                              f"the sessions run {sessions_span(t):g} hours from the first "
                              f"one's start to the last one's end; a super cribbage game must "
                              f"be completed within {SUPER_CRIBBAGE_HOURS} hours of its start")
        elif t.hours > SUPER_CRIBBAGE_HOURS:
            yield TermProblem((*loc, "hours"), "ME-SUPER-CRIBBAGE",
                              f"a game must be completed within {SUPER_CRIBBAGE_HOURS} hours of "
                              "its start")
        if t.players is not None and not 30 <= t.players <= PLAYER_CAP_OWNED:
            yield TermProblem((*loc, "players"), "ME-SUPER-CRIBBAGE",
                              "a super cribbage tournament has at least 30 and at most 300 "
                              "players")
        if t.charity_share is None or t.charity_share < Decimal("0.5"):
            yield TermProblem((*loc, "charity_share"), "ME-SUPER-CRIBBAGE",
                              "50% of the proceeds after prizes go to a charity other than the "
                              "licensee (charity_share >= 0.5)")
        by = sorted(set(t.operators) & national)
        if by and (t.organizer_member_years is None
                   or t.organizer_member_years < MEMBER_YEARS):
            yield TermProblem((*loc, "organizer_member_years"), "ME-SUPER-CRIBBAGE",
                              f"conducted by the nationally chartered cribbage 501(c)(3) "
                              f"{', '.join(by)}: its principal organizer must have been a member "
                              f"of it for at least {MEMBER_YEARS} years")


def _encode_super_cribbage(ctx: ModelContext) -> None:
    """Statewide at most 15 super cribbage licences per calendar year (of the first day), every
    organization of the scenario together and the licences already issued outside it
    (``settings.super_cribbage_licenses_issued``); each licence costs $75."""
    sc = ctx.scenario
    items = [(c, v) for t in sc.tournaments if t.type == "super-cribbage"
             for c, v in ctx.starts(t)]
    for year, lits in sum_by(items, lambda c: [c.first_day.year]).items():
        left = super_cribbage_left(sc, cast(int, year))
        if len(lits) > left:
            issued = sc.settings.super_cribbage_licenses_issued.get(cast(int, year), 0)
            ctx.model.add(sum(lits) <= left).with_name(
                f"ME-SUPER-CRIBBAGE: at most {SUPER_CRIBBAGE_LIMIT} licences statewide in {year}"
                + (f", {issued} already issued outside the plan "
                   f"(settings.super_cribbage_licenses_issued): {left} left" if issued else ""))
    for c, v in items:
        t = c.tournament
        ctx.add_license(LicenseOption(
            v, t.operators[0], "ME", "me-super-cribbage", TIERS[tier_index(t.players or 1)],
            c.first_day, c.timing.last_day, SUPER_CRIBBAGE_FEE,
            covers=covers_occurrence(t.id, c.first_day)))


def _check_super_cribbage(a: Audit) -> Iterator[Violation]:
    per_year = _super_by_year(a)
    for y in sorted(per_year):
        yield from _over_super(a.scenario, y, per_year[y])


def _super_by_year(a: Audit) -> dict[int, list[Occurrence]]:
    """The super cribbage occurrences by the calendar year of their first day, as placed."""
    per_year: dict[int, list[Occurrence]] = defaultdict(list)
    for p in a.placed:
        if p.tournament.type == "super-cribbage":
            per_year[p.first_day.year].append(p)
    return per_year


def _over_super(sc: Scenario, y: int, games: list[Occurrence]) -> Iterator[Violation]:
    """ME-SUPER-CRIBBAGE: each of ``games`` (the year ``y``'s, statewide) beyond the licences
    a year allows, counting those issued outside the plan."""
    issued = sc.settings.super_cribbage_licenses_issued.get(y, 0)
    ps = sorted(games, key=lambda p: (p.first_day, p.ref))
    for n, p in enumerate(ps, start=issued + 1):
        if n > SUPER_CRIBBAGE_LIMIT:
            yield Violation("ME-SUPER-CRIBBAGE", p.tournament.operators[0], (p.ref,),
                            p.first_day.isoformat(),
                            f"{p.ref} would need the {nth(n)} super cribbage licence of {y} "
                            f"statewide"
                            + (f" ({issued} already issued outside the plan: "
                               f"settings.super_cribbage_licenses_issued)" if issued else "")
                            + f"; at most {SUPER_CRIBBAGE_LIMIT}")


def _added_super_cribbage(a: Audit, p: Occurrence) -> list[Violation]:
    """ME-SUPER-CRIBBAGE with ``p`` added (:attr:`Rule.added`): the year of its first day."""
    if p.tournament.type != "super-cribbage":
        return []
    y = p.first_day.year
    per_year = a.memo("ME-SUPER-CRIBBAGE", lambda: _super_by_year(a))
    return list(_over_super(a.scenario, y, [*per_year.get(y, ()), p]))


def _is_licensee(sc: Scenario, x: Actual) -> bool | None:
    """Whether the charity ``x`` paid is its licensee (``charity_is_licensee``, or
    ``charity_to`` naming the operator by id or name, case and spaces aside); None when
    neither is recorded."""
    if x.charity_is_licensee is not None:
        return x.charity_is_licensee
    if x.charity_to is None:
        return None
    names = {x.operator_id.casefold()}
    if any(o.id == x.operator_id for o in sc.operators):
        names.add(sc.operator(x.operator_id).name.casefold())
    return " ".join(x.charity_to.split()).casefold() in names


def _held_super_cribbage(a: Actuals) -> Iterator[Violation]:
    """ME-SUPER-CRIBBAGE on what was held (17 M.R.S. § 1836(4-A)):

    - statewide at most 15 licences a calendar year: the super cribbage games held, by their
      first day's year, after those issued outside the plan
      (``settings.super_cribbage_licenses_issued``); the 16th and later are reported;
    - 30 to 300 players (``players``);
    - 50 % of the proceeds after prizes paid to charity:
      ``charity_usd * 2 >= entry_fees_usd - prizes_usd``;
    - (4-A)(F): to a charity other than the licensee (``charity_is_licensee``, or
      ``charity_to`` naming the operator).

    A figure not recorded: a note."""
    sc = a.scenario
    issued = sc.settings.super_cribbage_licenses_issued
    per_year: dict[int, list[Actual]] = defaultdict(list)
    for x in sorted(a.held, key=lambda x: (x.first_day, x.ref, x.operator_id)):
        if x.type == "super-cribbage":
            per_year[x.first_day.year].append(x)
    for y in sorted(per_year):
        before = issued.get(y, 0)
        for n, x in enumerate(per_year[y], start=before + 1):
            if n > SUPER_CRIBBAGE_LIMIT:
                yield Violation("ME-SUPER-CRIBBAGE", x.operator_id, (x.ref,), x.dates,
                                f"{x.ref} was held under the {nth(n)} super cribbage licence "
                                f"of {y} statewide"
                                + (f" ({before} issued outside the plan: "
                                   "settings.super_cribbage_licenses_issued)" if before else "")
                                + f"; at most {SUPER_CRIBBAGE_LIMIT}")
    for x in a.held:
        if x.type != "super-cribbage":
            continue
        if x.players is not None and not 30 <= x.players <= PLAYER_CAP_OWNED:
            yield Violation("ME-SUPER-CRIBBAGE", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was played by {x.players} players; a super cribbage "
                            f"tournament has at least 30 and at most {PLAYER_CAP_OWNED}")
        licensee = _is_licensee(sc, x)
        if licensee:
            yield Violation("ME-SUPER-CRIBBAGE", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} paid its charity share to "
                            f"{x.charity_to or x.operator_id}, the licensee itself; it goes "
                            "to a charity other than the licensee ((4-A)(F))")
        missing = [m for m, v in (
            ("players (--players)", x.players),
            ("entry fees (--entry-fees)", x.entry_fees_usd),
            ("prizes paid (--prizes)", x.prizes_usd),
            ("charity paid (--charity)", x.charity_usd),
            ("the charity paid (--charity-to or --charity-is-licensee/"
             "--charity-not-licensee)", licensee)) if v is None]
        if missing:
            yield unrecorded("ME-SUPER-CRIBBAGE", x, missing,
                             "the players, the charity share and who received it")
        if x.entry_fees_usd is None or x.prizes_usd is None or x.charity_usd is None:
            continue
        proceeds = x.entry_fees_usd - x.prizes_usd
        if x.charity_usd * 2 < proceeds:
            yield Violation("ME-SUPER-CRIBBAGE", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} paid {usd(x.charity_usd)} to charity, "
                            f"{share_text(x.charity_usd, proceeds)} of its proceeds after "
                            f"prizes ({usd(x.entry_fees_usd)} entry fees - "
                            f"{usd(x.prizes_usd)} prizes = {usd(proceeds)}); at least 50 % "
                            f"({usd((proceeds / 2).quantize(Decimal('0.01'), ROUND_UP))})")


def _super_cribbage_usage(a: Audit) -> Iterator[Usage]:
    """ME-SUPER-CRIBBAGE usage, 17 M.R.S. § 1836(4-A): statewide (operator ``"(statewide)"``)
    per calendar year of the horizon, when the scenario has super cribbage: ``used`` = the
    licences of the super cribbage games placed in the year (by first day) plus those issued
    outside the plan (``settings.super_cribbage_licenses_issued``, also ``held``), of 15."""
    sc = a.scenario
    if not any(t.type == "super-cribbage" for t in sc.tournaments):
        return
    for year in range(sc.horizon.start.year, sc.horizon.end.year + 1):
        issued = sc.settings.super_cribbage_licenses_issued.get(year, 0)
        placed = sum(1 for p in a.placed
                     if p.tournament.type == "super-cribbage" and p.first_day.year == year)
        yield Usage("ME-SUPER-CRIBBAGE", STATEWIDE, f"{year:04d}", dt.date(year, 1, 1),
                    dt.date(year, 12, 31), placed + issued, SUPER_CRIBBAGE_LIMIT, held=issued)


ME_SUPER_CRIBBAGE = Rule("ME-SUPER-CRIBBAGE", validate=_validate_super_cribbage,
                         encode=_encode_super_cribbage, check=_check_super_cribbage,
                         added=_added_super_cribbage,
                         actuals=_held_super_cribbage, usage=_super_cribbage_usage,
                         counts=lambda t: t.type == "super-cribbage")
