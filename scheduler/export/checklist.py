"""Checklist obligations and the readings a plan was made under, as plain sentences.

*list*-kind rules of ``docs/law/RULES.md`` are obligations the scheduler cannot enforce; each
rule owns its sentence (``Rule.checklist`` in ``constraints/montana/`` and
``constraints/maine/``), and :func:`checklist` (``constraints.registry.checklist``) gives
those of a tournament for the event descriptions. Every line ends with ``(RULE-ID,
citation)`` from :func:`constraints.catalogue.cite`.
"""

from __future__ import annotations

from constraints.base import usd
from constraints.catalogue import cite
from constraints.maine import (
    MONTHLY_LIMIT,
    SUPER_CRIBBAGE_FEE,
    SUPER_CRIBBAGE_LIMIT,
    SURCHARGE_CAP,
)
from constraints.montana import ENTRY_CAP, LARGE_LIMIT
from scheduler.core.jurisdiction import jurisdiction as find_jurisdiction
from scheduler.core.scenario import Scenario

__all__ = [ "readings"]


def readings(scenario: Scenario, jurisdiction: str | None = None,
             tournament_type: str | None = None) -> list[str]:
    """The readings of ambiguous clauses this plan was made under, in plain words.

    Parameters
    ----------
    scenario : Scenario
        Whose ``settings`` were read.
    jurisdiction : str or None
        Only the readings of that jurisdiction's rules (an event's description: Montana's
        ``reentry_counts_toward_cap``, MT-ENTRY-CAP, ``permit_year_count``,
        MT-LARGE-LIMIT, and, when the scenario has a progressive, ``progressive_count``,
        MT-PROGRESSIVE; Maine's ``month_rule``, ``tier_coverage``, ``surcharge_cap``,
        ``super_cribbage_licenses_issued`` and ``closed_days``); None: every one (the
        report).
    tournament_type : str or None
        With ``jurisdiction``: only the readings of rules that apply to a tournament of this
        type: a Montana ``small-stakes`` night has no MT-ENTRY-CAP (large-stakes) reading, a
        Maine ``charitable-cribbage`` night none of the licensed-game readings
        (ME-MONTHLY-LIMIT, ME-FEES, ME-ENTRY-CAP, ME-SUPER-CRIBBAGE).

    Returns
    -------
    list of str
        One line per switch of ``settings`` (``month_rule``, ``tier_coverage``,
        ``reentry_counts_toward_cap``, ``surcharge_cap``, ``permit_year_count``,
        ``progressive_count``, in that order), each naming the setting and its value, a line
        for ``super_cribbage_licenses_issued`` and one for ``closed_days`` when given, then
        ``"Not legal advice."``.
    """
    s = scenario.settings
    if s.month_rule == "touch":
        month = (f"a Maine game counts toward the limit of {MONTHLY_LIMIT} per month in every "
                 "calendar month any part of it is played (month_rule: touch, the default)")
    else:
        month = (f"a Maine game counts toward the limit of {MONTHLY_LIMIT} per month only in the "
                 "month it starts (month_rule: start)")
    if s.tier_coverage == "up":
        tier = ("a Maine licence covers every game whose player cap is within its tier's "
                "maximum (tier_coverage: up, the default)")
    else:
        tier = ("a Maine licence covers only games of its own player tier "
                "(tier_coverage: exact)")
    if s.reentry_counts_toward_cap:
        reentry = (f"re-entries count toward the {usd(ENTRY_CAP)} a participant may pay in all "
                   "for a Montana large-stakes tournament (reentry_counts_toward_cap: true, the "
                   "default)")
    else:
        reentry = (f"a re-entry is a new entry and does not count toward the {usd(ENTRY_CAP)} a "
                   "participant may pay for a Montana large-stakes tournament "
                   "(reentry_counts_toward_cap: false)")
    if s.surcharge_cap == "license-fee":
        surcharge = ("a Maine licence-fee surcharge may total at most the licence fee it "
                     "defrays (the game's per-tournament fee by tier, "
                     f"{usd(SUPER_CRIBBAGE_FEE)} for super cribbage) and never more than "
                     f"{usd(SURCHARGE_CAP)} (surcharge_cap: license-fee, the default)")
    else:
        surcharge = (f"a Maine licence-fee surcharge may total {usd(SURCHARGE_CAP)} whatever the "
                     "licence fee (surcharge_cap: flat)")
    if s.permit_year_count == "each":
        years = (f"a Montana large-stakes tournament whose days of play fall in two permit "
                 f"years counts toward the {LARGE_LIMIT} of each of them (permit_year_count: "
                 "each, the default)")
    else:
        years = (f"a Montana large-stakes tournament counts toward the {LARGE_LIMIT} only in "
                 "the permit year of its first day (permit_year_count: first-day)")
    if s.progressive_count == "round":
        rounds = (f"each round of a Montana progressive counts toward the {LARGE_LIMIT} of "
                  "each operator on whose premises it is played (progressive_count: round, "
                  "the default)")
    else:
        rounds = (f"a Montana progressive counts once toward the {LARGE_LIMIT} of each "
                  "operator on whose premises one of its rounds is played, in each permit "
                  "year in which one is played there (progressive_count: once)")
    cited = [
        ("ME-MONTHLY-LIMIT", f"Reading: {month} ({cite('ME-MONTHLY-LIMIT')})."),
        ("ME-FEES", f"Reading: {tier} ({cite('ME-FEES')})."),
        ("MT-ENTRY-CAP", f"Reading: {reentry} ({cite('MT-ENTRY-CAP')})."),
        ("ME-ENTRY-CAP", f"Reading: {surcharge} ({cite('ME-ENTRY-CAP')})."),
        ("MT-LARGE-LIMIT", f"Reading: {years} ({cite('MT-LARGE-LIMIT')})."),
        ("MT-PROGRESSIVE", f"Reading: {rounds} ({cite('MT-PROGRESSIVE')})."),
    ]
    if s.super_cribbage_licenses_issued:
        given = ", ".join(f"{n} in {y}" for y, n in s.super_cribbage_licenses_issued.items())
        cited.append(("ME-SUPER-CRIBBAGE",
                      f"Given: super cribbage licences already issued statewide outside this "
                      f"plan: {given}, counted toward the {SUPER_CRIBBAGE_LIMIT} a year "
                      f"(super_cribbage_licenses_issued) ({cite('ME-SUPER-CRIBBAGE')})."))
    if s.closed_days:
        cited.append(("ME-APPLICATION-WINDOW",
                      f"Given: days the Governor closed Maine state offices, not Maine "
                      f"business days for the application and report due dates: "
                      f"{', '.join(d.isoformat() for d in s.closed_days)} (closed_days) "
                      f"({cite('ME-APPLICATION-WINDOW')}; {cite('ME-REPORT')})."))
    if jurisdiction is None:
        lines = [line for _, line in cited]
    else:
        state = find_jurisdiction(jurisdiction)
        if tournament_type in state.types_without_readings:
            return ["Not legal advice."]
        own = {r.id for r in state.rules}
        # the progressive's reading only where the scenario has a progressive
        progressive = any(x.progressive for x in scenario.tours)
        lines = [line for rule, line in cited
                 if rule in own and (rule != "MT-PROGRESSIVE" or progressive)]
    return [*lines, "Not legal advice."]
