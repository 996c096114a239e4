"""Maine, the money and the reports: ME-PRIZES (17 M.R.S. § 1836(5)), ME-CRIBBAGE-REG
(§ 1836(4-B): prizes and donations of a charitable cribbage tournament), ME-REPORT
(16-633 CMR ch. 32 § 8, the disposition-of-funds report; its deadline sentence) and the other
duties of a licensed game (list kind: ME-NO-CURRENCY, ME-DISPLAY, ME-PAYMENT).

Each rule: its ID and citation, its model encoding, and its independent check, side by side.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from constraints.base import (
    Actuals,
    Rule,
    Violation,
    day_text,
    duty,
    per_person_over,
    share_text,
    unrecorded,
    usd,
)
from constraints.catalogue import cite
from constraints.maine.terms import CRIBBAGE_ENTRY_CAP, PRIZE_SHARE, games, me, ops_of
from scheduler.core.fields import dated_words
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament
from scheduler.core.timing import ME_REPORT_BUSINESS_DAYS

# ------------------------------------------------------------------ ME-PRIZES


def _validate_prizes(sc: Scenario) -> Iterator[TermProblem]:
    """ME-PRIZES: at least 75% of the entry fees are paid as prizes (``prize_share``)."""
    for loc, t in games(sc):
        if t.prize_share is None or t.prize_share < PRIZE_SHARE:
            yield TermProblem((*loc, "prize_share"), "ME-PRIZES",
                              "at least 75% of entry fees must be paid as prizes "
                              "(prize_share >= 0.75)")


def _held_prizes(a: Actuals) -> Iterator[Violation]:
    """ME-PRIZES on what was held (17 M.R.S. § 1836(5)): a licensed Maine game (tournament
    game, super cribbage) paid at least 75 % of its entry fees as prizes:
    ``prizes_usd >= 0.75 * entry_fees_usd`` exactly, in cents (74.99 % is under). A figure
    not recorded: a note."""
    for x in a.held:
        if x.type not in ("tournament-game", "super-cribbage"):
            continue
        missing = [m for m, v in (("entry fees (--entry-fees)", x.entry_fees_usd),
                                  ("prizes paid (--prizes)", x.prizes_usd)) if v is None]
        if missing:
            yield unrecorded("ME-PRIZES", x, missing, "the prize share")
            continue
        fees, prizes = x.entry_fees_usd, x.prizes_usd
        assert fees is not None and prizes is not None
        if prizes < PRIZE_SHARE * fees:
            yield Violation("ME-PRIZES", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} paid {usd(prizes)} in prizes of {usd(fees)} entry fees "
                            f"({share_text(prizes, fees)}); at least 75 % "
                            f"({usd(PRIZE_SHARE * fees)}) must be paid as prizes")


ME_PRIZES = Rule("ME-PRIZES", validate=_validate_prizes, actuals=_held_prizes)


# ------------------------------------------------------------------ ME-CRIBBAGE-REG


def _validate_cribbage_reg(sc: Scenario) -> Iterator[TermProblem]:
    for i, t in me(sc):
        if t.type != "charitable-cribbage":
            continue
        loc = ("tournaments", i)
        for _, op in ops_of(sc, t):
            if op.licensed_establishment is None:
                yield TermProblem((*loc, "operators"), "ME-CRIBBAGE-REG",
                                  f"{op.id} must be a licensed restaurant or manufacturer "
                                  "(licensed_establishment)")
        if t.entry_fee > CRIBBAGE_ENTRY_CAP:
            yield TermProblem((*loc, "entry_fee"), "ME-CRIBBAGE-REG",
                              f"the entry fee may not exceed {usd(CRIBBAGE_ENTRY_CAP)}")
        for f in ("reentries", "max_rebuys", "rebuy_fee", "addon_fee", "license_surcharge_total"):
            if getattr(t, f):
                yield TermProblem((*loc, f), "ME-CRIBBAGE-REG",
                                  "no fee may be charged except the entry fee")
        if t.prize_share is None or (t.prize_share + (t.charity_share or 0)) != 1:
            yield TermProblem((*loc, "prize_share"), "ME-CRIBBAGE-REG",
                              "all entry fees are awarded as prizes or donated "
                              "(prize_share + charity_share = 1)")


def _held_cribbage_reg(a: Actuals) -> Iterator[Violation]:
    """ME-CRIBBAGE-REG on what was held (17 M.R.S. § 1836(4-B)): a charitable cribbage
    tournament admitted only patrons 21 or older (``under_21_admitted`` not true), was held
    at the licensed establishment (``away_from_establishment`` not true), took at most $25
    an entry (``entry_fees_usd <= 25 * entries``, else players) and awarded all its entry
    fees as prizes or donated them (``prizes_usd + charity_usd >= entry_fees_usd``). A
    figure not recorded: a note."""
    for x in a.held:
        if x.type != "charitable-cribbage":
            continue
        if x.under_21_admitted:
            yield Violation("ME-CRIBBAGE-REG", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} admitted patrons under 21; a registered cribbage "
                            "tournament is for patrons 21 years of age or older only")
        if x.away_from_establishment:
            yield Violation("ME-CRIBBAGE-REG", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} was held away from {x.operator_id}'s licensed "
                            "establishment; a registered cribbage tournament is held on the "
                            "licensed restaurant's or manufacturer's premises")
        missing = [m for m, v in (
            ("whether patrons under 21 were admitted (--under-21-admitted/"
             "--no-under-21-admitted)", x.under_21_admitted),
            ("where it was held (--away-from-establishment/--at-establishment)",
             x.away_from_establishment)) if v is None]
        if missing:
            yield unrecorded("ME-CRIBBAGE-REG", x, missing, "who was admitted and where")
        per = x.entries if x.entries is not None else x.players
        money = [m for m, v in (("entry fees (--entry-fees)", x.entry_fees_usd),
                                ("entries or players (--entries, --players)", per),
                                ("prizes paid (--prizes)", x.prizes_usd),
                                ("charity paid (--charity)", x.charity_usd)) if v is None]
        if money:
            yield unrecorded("ME-CRIBBAGE-REG", x, money, "the entry fee and its disposition")
        if x.entry_fees_usd is not None and per is not None:
            v = per_person_over(x, CRIBBAGE_ENTRY_CAP, per,
                                "entries" if x.entries is not None else "players",
                                "ME-CRIBBAGE-REG",
                                f"the entry fee is at most {usd(CRIBBAGE_ENTRY_CAP)}")
            if v is not None:
                yield v
        if (x.entry_fees_usd is None or x.prizes_usd is None or x.charity_usd is None):
            continue
        if x.prizes_usd + x.charity_usd < x.entry_fees_usd:
            kept = x.entry_fees_usd - x.prizes_usd - x.charity_usd
            yield Violation("ME-CRIBBAGE-REG", x.operator_id, (x.ref,), x.dates,
                            f"{x.ref} took {usd(x.entry_fees_usd)} in entry fees and paid "
                            f"{usd(x.prizes_usd)} in prizes and {usd(x.charity_usd)} to "
                            f"charity: {usd(kept)} was neither awarded nor donated")


ME_CRIBBAGE_REG = Rule("ME-CRIBBAGE-REG", validate=_validate_cribbage_reg,
                       actuals=_held_cribbage_reg)


# ------------------------------------------------------------------ ME-REPORT


def report_text(period: str, due: dt.date) -> str:
    """ME-REPORT (16-633 CMR ch. 32 § 8) as a deadline: the sentence saying the
    disposition-of-funds report for ``period`` (words, e.g. "the month ending ...") is due on
    ``due`` (:func:`constraints.maine.report_due`)."""
    return (f"File the disposition-of-funds report for {period} by {day_text(due)}, "
            f"{ME_REPORT_BUSINESS_DAYS} business days after the period ends, also if the game "
            f"was cancelled ({cite('ME-REPORT')}).")


def report_line(licence: str, period_end: dt.date) -> str:
    """ME-REPORT (16-633 CMR ch. 32 § 8) as a deadline's ``what`` (deadlines.csv,
    plan.xlsx, the report, ``tourney deadlines``), in people's words and without ids: the
    report of the licensed period ending ``period_end`` (inclusive) under ``licence`` (words,
    ``Maine annual licence (51–100 players) from Jan 2, 2027``). The calendars word it
    :func:`report_text`."""
    return (f"File the disposition-of-funds report of the period ending "
            f"{dated_words(period_end)} with the Gambling Control Unit ({licence})")


def _held_report(a: Actuals) -> Iterator[Violation]:
    """ME-REPORT (16-633 CMR ch. 32 § 8): every disposition-of-funds report owed
    (:class:`~constraints.base.ReportOwed`, its due day from
    :func:`constraints.maine.report_due`) filed on or before its due day; one not filed is
    late once its due day is before ``as_of``."""
    for r in a.reports:
        if r.filed_on is None and r.due < a.as_of:
            yield Violation("ME-REPORT", r.operator_id, (), r.period_end.isoformat(),
                            f"licence {r.license_id}: the disposition-of-funds report for "
                            f"the licensed period ending {r.period_end} was due {r.due} and "
                            f"is not filed (as of {a.as_of})")
        elif r.filed_on is not None and r.filed_on > r.due:
            yield Violation("ME-REPORT", r.operator_id, (), r.period_end.isoformat(),
                            f"licence {r.license_id}: the disposition-of-funds report for "
                            f"the licensed period ending {r.period_end} was filed "
                            f"{r.filed_on}, after it was due ({r.due})")


# ------------------------------------------------------------------ checklist (list kind)
def _licensed_game(sc: Scenario, t: Tournament) -> bool:
    # charitable cribbage (ME-CRIBBAGE-REG): registration, no licensed-game duties
    return sc.jurisdiction_of(t) == "ME" and t.is_me_licensed_game


# obligations the scheduler cannot enforce, printed with every licensed Maine game, in this
# order
CHECKLIST = [
    Rule("ME-NO-CURRENCY", checklist=duty(
        "ME-NO-CURRENCY", "No currency may be used in tournament play", _licensed_game)),
    Rule("ME-DISPLAY", checklist=duty(
        "ME-DISPLAY", "Display the rules of the tournament game and the licence issued for it "
        "at the game", _licensed_game)),
    Rule("ME-PAYMENT", checklist=duty(
        "ME-PAYMENT", "Pay every prize (including high-hand prizes) in cash or by check",
        _licensed_game)),
    Rule("ME-REPORT", checklist=duty(
        "ME-REPORT", f"File the disposition-of-funds report within {ME_REPORT_BUSINESS_DAYS} "
        "business days after the licensed period (after each calendar month under an annual "
        "licence), also if the game is cancelled", _licensed_game), actuals=_held_report),
]
