"""Checklist obligations and the readings a plan was made under, as plain sentences.

*list*-kind rules of ``docs/law/RULES.md`` are obligations the scheduler cannot enforce; they
are printed with each tournament (event description, report). Every line ends with
``(RULE-ID, citation)`` from :func:`constraints.catalogue.cite`.
"""

from __future__ import annotations

from constraints.catalogue import RULES, cite
from scheduler.scenario import Scenario, Tournament

_SENTENCES: dict[str, str] = {
    "MT-RULES-POSTED": "Give every participant a copy of the tournament rules before the start, "
    "and post a copy in plain view in each area where the tournament is played",
    "MT-SUPERVISOR": "Have a person on the premises throughout the tournament to oversee play "
    "and settle disputes between players (a licensed dealer may do this)",
    "MT-DEALER": "Only dealers licensed under MCA 23-5-308 may deal",
    "MT-CHIP-VALUE": "The face value of the chips does not set the prize pool",
    "MT-SMALL-TABLE": "One additional live card table may be placed for this tournament, and it "
    "may be used only for small-stakes tournaments",
    "ME-NO-CURRENCY": "No currency may be used in tournament play",
    "ME-DISPLAY": "Display the rules of the tournament game and the licence issued for it at "
    "the game",
    "ME-PAYMENT": "Pay every prize (including high-hand prizes) in cash or by check",
    "ME-REPORT": "File the disposition-of-funds report within 10 business days after the "
    "licensed period (after each calendar month under an annual licence), also if the game is "
    "cancelled",
}

_MT_ALL = ("MT-RULES-POSTED", "MT-SUPERVISOR", "MT-DEALER", "MT-CHIP-VALUE")
_ME_LICENSED = ("ME-NO-CURRENCY", "ME-DISPLAY", "ME-PAYMENT", "ME-REPORT")


def _line(rule_id: str) -> str:
    assert RULES[rule_id].kind == "list", rule_id
    return f"{_SENTENCES[rule_id]} ({cite(rule_id)})."


def checklist_rules(scenario: Scenario, tournament: Tournament) -> list[str]:
    """IDs of the *list*-kind rules that apply to ``tournament``, in RULES.md order."""
    if scenario.jurisdiction_of(tournament) == "MT":
        return [*_MT_ALL, *(("MT-SMALL-TABLE",) if tournament.is_small else ())]
    if tournament.is_me_licensed_game:
        return list(_ME_LICENSED)
    return []  # charitable cribbage (ME-CRIBBAGE-REG): registration, no licensed-game duties


def checklist(scenario: Scenario, tournament: Tournament) -> list[str]:
    """The obligations of RULES.md (kind *list*) that apply to ``tournament``, one sentence each.

    Montana (large- and small-stakes): MT-RULES-POSTED, MT-SUPERVISOR, MT-DEALER, MT-CHIP-VALUE,
    and MT-SMALL-TABLE for small-stakes. Maine licensed games (tournament-game, super-cribbage):
    ME-NO-CURRENCY, ME-DISPLAY, ME-PAYMENT, ME-REPORT. Each line ends with
    ``(RULE-ID, citation).``
    """
    return [_line(r) for r in checklist_rules(scenario, tournament)]


def readings(scenario: Scenario) -> list[str]:
    """The readings of ambiguous clauses this plan was made under, in plain words.

    One line per switch of ``settings`` (``month_rule``, ``tier_coverage``,
    ``reentry_counts_toward_cap``, ``surcharge_cap``), each naming the setting and its value,
    a line for ``super_cribbage_licenses_issued`` when it is given, then
    ``"Not legal advice."``.
    """
    s = scenario.settings
    if s.month_rule == "touch":
        month = ("a Maine game counts toward the limit of 2 per month in every calendar month "
                 "any part of it is played (month_rule: touch, the default)")
    else:
        month = ("a Maine game counts toward the limit of 2 per month only in the month it "
                 "starts (month_rule: start)")
    if s.tier_coverage == "up":
        tier = ("a Maine licence covers every game whose player cap is within its tier's "
                "maximum (tier_coverage: up, the default)")
    else:
        tier = ("a Maine licence covers only games of its own player tier "
                "(tier_coverage: exact)")
    if s.reentry_counts_toward_cap:
        reentry = ("re-entries count toward the $1,875 a participant may pay in all for a "
                   "Montana large-stakes tournament (reentry_counts_toward_cap: true, the "
                   "default)")
    else:
        reentry = ("a re-entry is a new entry and does not count toward the $1,875 a "
                   "participant may pay for a Montana large-stakes tournament "
                   "(reentry_counts_toward_cap: false)")
    if s.surcharge_cap == "license-fee":
        surcharge = ("a Maine licence-fee surcharge may total at most the licence fee it "
                     "defrays (the game's per-tournament fee by tier, $75 for super cribbage) "
                     "and never more than $125 (surcharge_cap: license-fee, the default)")
    else:
        surcharge = ("a Maine licence-fee surcharge may total $125 whatever the licence fee "
                     "(surcharge_cap: flat)")
    lines = [
        f"Reading: {month} ({cite('ME-MONTHLY-LIMIT')}).",
        f"Reading: {tier} ({cite('ME-FEES')}).",
        f"Reading: {reentry} ({cite('MT-ENTRY-CAP')}).",
        f"Reading: {surcharge} ({cite('ME-ENTRY-CAP')}).",
    ]
    if s.super_cribbage_licenses_issued:
        given = ", ".join(f"{n} in {y}" for y, n in s.super_cribbage_licenses_issued.items())
        lines.append(f"Given: super cribbage licences already issued statewide outside this "
                     f"plan: {given}, counted toward the 15 a year "
                     f"(super_cribbage_licenses_issued) ({cite('ME-SUPER-CRIBBAGE')}).")
    return [*lines, "Not legal advice."]
