"""Maine, the licences and their fees: ME-FEES (17 M.R.S. § 1836(3-A)): per-tournament,
monthly and annual licences by player tier, the model's choice among them, the check of
licences.csv (the fee tables and what per-tournament licences would cost:
:mod:`constraints.maine.terms`).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator
from functools import partial

from ortools.sat.python import cp_model

from constraints.base import (
    Actuals,
    Audit,
    License,
    Occurrence,
    Rule,
    Violation,
    day_span,
    licence_row_violation,
    unrecorded,
    usd,
)
from constraints.maine.terms import (
    ANNUAL_FEE,
    LICENCE_KINDS,
    LICENCE_LABELS,
    MONTHLY_FEE,
    MONTHLY_LIMIT,
    PER_TOURNAMENT_FEE,
    TIER_MAX,
    TIERS,
    annual_end,
    covering_tiers,
    statute_fee,
    tier_index,
)
from constraints.modelling import (
    NO_MAX,
    NO_MIN,
    LicenseOption,
    ModelContext,
    covers_occurrence,
    covers_period,
)
from scheduler.core.timing import month_end


def _tier_covers(tier: int, coverage: str, players: int) -> bool:
    return tier in covering_tiers(players, coverage)


# ------------------------------------------------------------------ ME-FEES
def monthly_never_cheaper() -> bool:
    """ME-FEES: whether, for every mix of at most ``MONTHLY_LIMIT`` games a month that a
    monthly licence of some tier could cover, the per-tournament licences cost no more."""
    for tier in (0, 1):
        covered = [k for k in (0, 1) if k <= tier]  # the widest reading: tier_coverage up
        for a in covered:
            for b in [*covered, None]:
                per = PER_TOURNAMENT_FEE[a] + (PER_TOURNAMENT_FEE[b] if b is not None else 0)
                if per >= MONTHLY_FEE[tier]:
                    return False
    return MONTHLY_LIMIT == 2


def _encode_fees(ctx: ModelContext) -> None:
    """Every tournament game is covered by a per-tournament licence of its tier (exactly that
    game, valid over its days) or by an annual licence (12 months from a game's first day) of
    a covering tier (``tier_coverage``) that is valid on every day the game is conducted
    (``Timing.days``): a game starting on the annual licence's last day and running past
    midnight is not covered by it. Over 100 players: per-tournament only.

    Monthly licences are left out because they never cost less: a monthly licence covers only
    games conducted wholly within its calendar month, ME-MONTHLY-LIMIT allows at most 2 of
    those, and 2 per-tournament licences cost at most
    2 x $40 = $80 < $100 (1-50) or 2 x $75 = $150 < $200 (51-100), and $40 + $75 = $115 < $200
    when a 51-100 monthly licence would cover one game of each tier (see
    :func:`monthly_never_cheaper`)."""
    sc = ctx.scenario
    named = ctx.named
    cov = sc.settings.tier_coverage
    for op in sc.operators:
        if op.jurisdiction != "ME":
            continue
        games = [(c, v) for c, v in ctx.of_operator(op.id)
                 if c.tournament.type == "tournament-game"]
        if not games:
            continue
        # annual[tier]: (start days sorted, prefix counts); an annual licence starts on the first
        # day of a game it covers (a later start never costs more). prefix[k] counts the
        # licences bought among the first k start days, so the licences starting in a range
        # of days are prefix[j] - prefix[i]: each game's cover is a 3-term sum, not a sum over
        # the 365 possible starts of the year before it.
        annual: dict[int, tuple[list[dt.date], list[int], list[dt.date]]] = {}
        tiers_of: dict[int, list[int]] = {}  # covering_tiers of each player cap
        for c, _ in games:
            players = c.tournament.players or 1
            if players not in tiers_of:
                tiers_of[players] = covering_tiers(players, cov)
        for tier in (0, 1):
            on_day: dict[dt.date, list[cp_model.IntVar]] = defaultdict(list)
            span = 0  # the most calendar days after its first day a game of the tier runs into
            for c, v in games:
                if tier in tiers_of[c.tournament.players or 1]:
                    on_day[c.first_day].append(v)
                    span = max(span, (c.timing.last_day - c.first_day).days)
            days = sorted(on_day)
            ends = [annual_end(d) for d in days]
            lits = []
            for d, end in zip(days, ends, strict=True):
                var = ctx.new_bool(f"me-annual[{op.id},{TIERS[tier]},{d}]" if named else "")
                lits.append(var)
                ctx.add_license(LicenseOption(
                    var, op.id, "ME", "me-annual", TIERS[tier], d, end,
                    ANNUAL_FEE[tier], rank=3 + tier,
                    covers=covers_period(("tournament-game",), d, end,
                                         partial(_tier_covers, tier, cov))))
                # Symmetry breaking (cuts only plans that cost more or the same): bought only
                # when a game it covers starts that day, and a second annual licence of one
                # tier starts only after annual_end(first) - span: the games the second covers
                # and the first does not end after annual_end(first), so they start after
                # annual_end(first) - span, and the second can start on the first of them
                # (a game starting on the first licence's last day and running past midnight
                # needs the second). Licences of different tiers may overlap.
                ctx.add_linear([*((z.index, 1) for z in on_day[d]), (var.index, -1)],
                               0, NO_MAX)
            # prefix[k]: the index of the variable counting the first k (none for k = 0: 0)
            prefix: list[int] = [-1]
            for k, var in enumerate(lits):
                total = ctx.new_int_index(0, k + 1, f"me-annual-bought[{op.id},{TIERS[tier]},"
                                                    f"{k}]" if named else "")
                ctx.add_linear([(total, 1), (var.index, -1), *(((prefix[-1], -1),) if k else ())],
                               0, 0)
                prefix.append(total)
            for i, end in enumerate(ends):
                j = bisect_right(days, end - dt.timedelta(days=span))
                if j - i > 1:
                    ctx.add_linear([(prefix[j], 1), *(((prefix[i], -1),) if i else ())],
                                   NO_MIN, 1)
            annual[tier] = (days, prefix, ends)
        for c, v in games:
            t = c.tournament
            ti = tier_index(t.players or 1)
            per = ctx.new_bool(f"me-per-tournament[{t.id},{c.first_day}]" if named else "")
            ctx.add_implication(per.index, v.index)
            ctx.add_license(LicenseOption(
                per, op.id, "ME", "me-per-tournament", TIERS[ti], c.first_day,
                c.timing.last_day, PER_TOURNAMENT_FEE[ti], rank=0,
                covers=covers_occurrence(t.id, c.first_day)))
            cover = [(per.index, 1), (v.index, -1)]  # per + the annual licences - v >= 0
            last_day = c.timing.last_day
            for k in tiers_of[t.players or 1]:
                days, prefix, ends = annual[k]
                # starts a with a <= first day and last day <= annual_end(a): the licence is
                # valid on every day the game is conducted (annual_end never decreases in a)
                lo = bisect_left(days, last_day - dt.timedelta(days=366))
                while lo < len(days) and ends[lo] < last_day:
                    lo += 1
                hi = bisect_right(days, c.first_day)
                if hi > lo:
                    cover.append((prefix[hi], 1))
                    if lo:
                        cover.append((prefix[lo], -1))
            ctx.add_linear(cover, 0, NO_MAX)


def licence_id_part(kind: str, tier: str, tournament_id: str) -> str:
    """What a Maine licence's id ends with (``post-1/per-tournament/2027-02-20/holdem``): a
    per-tournament or super cribbage licence its tournament's id (the date is in the id, so
    it stays while the game stays put, whatever number it has; deadline UIDs are made from
    licence ids), a monthly or annual one its tier."""
    return tournament_id if kind in ("me-per-tournament", "me-super-cribbage") else tier


def _label(kind: str) -> str:
    return f"{LICENCE_LABELS[kind]} licence" if kind in LICENCE_LABELS else kind


def _statutory_end(lic: License) -> dt.date:
    """The last day a Maine licence row covers: its ``valid_to``, but never past what the
    statute gives its kind (annual: 12 months from its first day; monthly: the end of its
    calendar month); a row valid longer covers no more."""
    if lic.kind == "me-annual":
        return min(lic.valid_to, annual_end(lic.valid_from))
    if lic.kind == "me-monthly":
        return min(lic.valid_to, month_end(lic.valid_from.year, lic.valid_from.month))
    return lic.valid_to


def _within(p: Occurrence, lic: License) -> bool:
    """ME-FEES: every day ``p`` is conducted (``Timing.days``) lies in the licence's validity."""
    return all(lic.valid_from <= d <= _statutory_end(lic) for d in p.timing.days)


def _licence_rows(a: Audit) -> Iterator[License]:
    """The licences.csv rows Maine answers for (every row Montana does not), of the
    operators the schedule covers."""
    for lic in a.licenses:
        if not (lic.jurisdiction == "MT" or lic.kind.startswith("mt-")) and (
                a.operators is None or lic.operator_id in a.operators):
            yield lic


def _a(label: str) -> str:
    """``label`` with its indefinite article ("an annual licence", "a monthly licence")."""
    return f"{'an' if label[:1] in 'aeiou' else 'a'} {label}"


def _check_licence_rows(a: Audit) -> Iterator[Violation]:
    """Each Maine row of licenses.csv against 17 M.R.S. § 1836(3-A), (4-A): a known kind of a
    Maine operator; a tier that exists for the kind and fits every game it lists (player cap,
    ``tier_coverage``); the statute's fee for kind and tier; the statute's validity (annual:
    12 months from its first day; monthly: one calendar month; per-tournament and super
    cribbage: exactly one game, valid over that game's days); every game it lists conducted
    wholly within its validity."""
    sc = a.scenario
    cov = sc.settings.tier_coverage
    ops = {o.id: o for o in sc.operators}
    placed = {p.ref: p for p in a.placed}
    for lic in _licence_rows(a):
        oid, kind, tier, refs = lic.operator_id, lic.kind, lic.tier, lic.covers
        bad = partial(licence_row_violation, "ME-FEES", lic)

        op = ops.get(oid)
        if op is None or op.jurisdiction != "ME":
            yield bad(f"operator {oid!r} is not a Maine organization of the scenario; a "
                      "tournament game licence is issued to a Maine organization "
                      "(17 M.R.S. § 1836(3-A))")
            continue
        if kind not in LICENCE_KINDS:
            yield bad(f"kind {kind!r} is not a Maine licence (me-per-tournament, me-monthly, "
                      "me-annual: 17 M.R.S. § 1836(3-A); me-super-cribbage: § 1836(4-A))")
            continue
        label = _label(kind)
        one_game = kind in ("me-per-tournament", "me-super-cribbage")
        cite = "17 M.R.S. § 1836(4-A)" if kind == "me-super-cribbage" else \
            "17 M.R.S. § 1836(3-A)"
        fee = statute_fee(kind, tier)
        if kind != "me-super-cribbage" and fee is None:
            tiers = TIERS if kind == "me-per-tournament" else TIERS[:2]
            yield bad(f"tier {tier!r} does not exist for {_a(label)} ({', '.join(tiers)} "
                      f"players; {cite})")
        elif fee is not None and lic.fee_usd != fee:
            yield bad(f"{_a(label)}" + ("" if kind == "me-super-cribbage" else f" of tier {tier}")
                      + f" costs {usd(fee)} ({cite}); it is listed at {usd(lic.fee_usd)}")
        # validity length
        if kind == "me-annual" and lic.valid_to != annual_end(lic.valid_from):
            yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; an annual licence is "
                      f"valid 12 months from its first day, {lic.valid_from}.."
                      f"{annual_end(lic.valid_from)} ({cite}: $750 / $1,500)")
        if kind == "me-monthly":
            first = lic.valid_from.replace(day=1)
            last = month_end(first.year, first.month)
            if (lic.valid_from, lic.valid_to) != (first, last):
                yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; a monthly licence "
                          f"is valid for one calendar month, e.g. {first}..{last} "
                          f"({cite}: $100 / $200)")
        if one_game and len(refs) != 1:
            yield bad(f"{_a(label)} covers exactly one game ({cite}: "
                      + ("$75 each" if kind == "me-super-cribbage" else "$40 to $600 each")
                      + f"); it lists {len(refs)}"
                      + (f": {', '.join(refs[:5])}{', ...' if len(refs) > 5 else ''}"
                         if refs else ""))
        for ref in refs:
            p = placed.get(ref)
            if p is None:
                continue  # a licence bought for a game not held: not unlawful
            t = p.tournament
            days = day_span(p.first_day, p.timing.last_day)
            want = "super-cribbage" if kind == "me-super-cribbage" else "tournament-game"
            if t.type != want:
                yield bad(f"it lists {ref}, a {t.type}; {_a(label)} covers a {want} "
                          f"({cite})", (ref,))
                continue
            players = t.players or 1
            own = TIERS[tier_index(players)]
            if kind == "me-per-tournament" and tier in TIERS and tier != own:
                yield bad(f"it lists {ref} ({players} players, tier {own}); a per-tournament "
                          f"licence is of its game's tier ({cite}: {own} "
                          f"{usd(PER_TOURNAMENT_FEE[TIERS.index(own)])})", (ref,))
            elif (kind in ("me-monthly", "me-annual") and tier in TIERS[:2]
                  and TIERS.index(tier) not in covering_tiers(players, cov)):
                yield bad(f"it lists {ref} ({players} players, tier {own}); a {tier} {label} "
                          f"does not cover it (tier_coverage: {cov}; {cite})", (ref,))
            if one_game and len(refs) == 1 and (lic.valid_from, lic.valid_to) != (
                    p.first_day, p.timing.last_day):
                yield bad(f"it is valid {lic.valid_from}..{lic.valid_to}; {_a(label)} is valid "
                          f"over its one game's days, {days} ({cite})", (ref,))
            elif not one_game and not all(lic.valid_from <= x <= lic.valid_to
                                          for x in p.timing.days):
                yield bad(f"it lists {ref}, conducted {days}, but is valid only "
                          f"{day_span(lic.valid_from, lic.valid_to)}: a licence covers a "
                          f"game only if every day the game is conducted lies within its "
                          f"validity ({cite})", (ref,))


def _check_fees(a: Audit) -> Iterator[Violation]:
    """Each Maine licences.csv row (:func:`_check_licence_rows`), then every licensed game:
    covered on every day it is conducted by a licence of a kind and tier that covers it. A
    per-tournament (or super cribbage) licence covers one game only: one that lists the game's
    tournament (matched by date, not by number) and is valid on its days; each such licence
    is used for one game."""
    yield from _check_licence_rows(a)
    cov = a.scenario.settings.tier_coverage
    used: set[int] = set()
    games = sorted((p for p in a.placed
                    if p.tournament.is_me_licensed_game),
                   key=lambda p: (p.first_day, p.ref))
    for p in games:
        t = p.tournament
        players = t.players or 1
        ti = tier_index(players)
        ok = False
        single: list[tuple[bool, int]] = []  # (lists this very ref, licence index)
        for i, lic in enumerate(a.licenses):
            if lic.operator_id != t.operators[0] or not _within(p, lic):
                continue
            if lic.kind in ("me-super-cribbage", "me-per-tournament"):
                if (lic.kind == ("me-super-cribbage" if t.type == "super-cribbage"
                                 else "me-per-tournament")
                        and (t.type == "super-cribbage" or lic.tier == TIERS[ti])
                        and i not in used
                        and any(ref.split("#")[0] == t.id for ref in lic.covers)):
                    single.append((p.ref not in lic.covers, i))
            elif (t.type == "tournament-game" and lic.kind in ("me-monthly", "me-annual")
                  and lic.tier in TIERS[:2]):
                ok |= TIERS.index(lic.tier) in covering_tiers(players, cov)
        if not ok and single:
            used.add(min(single)[1])
            ok = True
        if not ok:
            what = ("a super cribbage licence of its own ($75, 17 M.R.S. § 1836(4-A))"
                    if t.type == "super-cribbage" else "a licence of its tier")
            yield Violation("ME-FEES", t.operators[0], (p.ref,), p.first_day.isoformat(),
                            f"{p.ref} on {day_span(p.first_day, p.timing.last_day)} ({players} "
                            f"players) is not covered by {what} on every day it is conducted "
                            f"(tier_coverage: {cov})")


def _held_tier(a: Actuals) -> Iterator[Violation]:
    """ME-FEES on what was held (17 M.R.S. § 1836(3-A)): a licensed game held under a
    licence of a player tier (the plan's licence that covers it: ``licence_tier``, e.g.
    ``51-100``) was played by no more players than the tier's maximum (``players``). A game
    with more needed a licence of a higher tier. ``players`` not recorded: a note."""
    for x in a.held:
        if x.type not in ("tournament-game", "super-cribbage") or x.licence_tier not in TIERS:
            continue
        if x.players is None:
            yield unrecorded("ME-FEES", x, ["players (--players)"],
                             f"the licence tier ({x.licence_tier} players)")
            continue
        most = TIER_MAX[TIERS.index(x.licence_tier)]
        if x.players > most:
            need = (f"a licence of tier {TIERS[tier_index(x.players)]} players"
                    if x.players <= TIER_MAX[-1] else f"more than {TIER_MAX[-1]} players: no tier")
            yield Violation("ME-FEES", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was played by {x.players} players under licence "
                            f"{x.licence_id} of tier {x.licence_tier} players (at most "
                            f"{most}); {x.players} players need {need}")


ME_FEES = Rule("ME-FEES", encode=_encode_fees, check=_check_fees, actuals=_held_tier)
