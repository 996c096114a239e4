"""The rule catalogue of ``docs/law/RULES.md``: every rule ID with its citation and kind.

Rule IDs appear in code, error messages, reports and tests; this is the one place that
maps an ID to the citation printed to users (``MCA 23-5-317(1)(a)``, ``17 M.R.S. § 1836(4)``).

Kinds: ``sched`` (a constraint on dates/counts), ``input`` (a property of a tournament's
terms, validated before solving), ``cost`` (a fee), ``list`` (a checklist obligation).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    """One row of RULES.md."""

    id: str
    citation: str
    kind: str
    summary: str


_MT = "MCA 23-5-317"
_ME = "17 M.R.S. § 1836"

_ROWS: tuple[RuleInfo, ...] = (
    # Montana, MCA 23-5-317
    RuleInfo("MT-PERMIT-PREREQ", f"{_MT}(1)(a)", "input",
             "an operator needs at least one permitted live card game table"),
    RuleInfo("MT-LARGE-LIMIT", f"{_MT}(1)(a)", "sched",
             "at most 16 counted large-stakes tournaments per operator per permit year "
             "(charitable ones beyond the first 3 count too)"),
    RuleInfo("MT-CHARITY-LIMIT", f"{_MT}(1)(f)", "sched",
             "the first 3 charitable large-stakes tournaments per operator per permit year are "
             "not counted toward the 16; later ones are allowed and counted"),
    # MT-PERMIT-YEAR's arithmetic (no Rule of its own; every Montana limit and fee counts by
    # it): scheduler.core.scenario_types.Operator.permit_year_of / permit_year_end, on the type,
    # which lies below scheduler.core.timing in the layers (pyproject.toml)
    RuleInfo("MT-PERMIT-YEAR", f"{_MT}(1)(a)", "sched",
             "limits are counted per permit year (default July 1 - June 30)"),
    RuleInfo("MT-DURATION", f"{_MT}(1)(c)", "sched",
             "a large-stakes tournament lasts at most 5 consecutive calendar days"),
    RuleInfo("MT-NOTICE", f"{_MT}(1)(d)", "sched",
             "notice to the department at least 5 days before the first day"),
    RuleInfo("MT-PROGRESSIVE", f"{_MT}(1)(e)", "sched",
             "a multi-site (progressive) tournament is held only by large-stakes permitholders, "
             "each of whom notifies the department at least 5 days before its first round"),
    RuleInfo("MT-ENTRY-CAP", f"{_MT}(1)(g)", "input",
             "a participant pays at most $1,875 in all for a large-stakes tournament"),
    RuleInfo("MT-SATELLITE", f"{_MT}(1)(h)", "input",
             "a seat prize must equal the expected top prize"),
    RuleInfo("MT-PERMIT-FEES", f"{_MT}(1)(b)", "cost",
             "large-stakes permit $120, small-stakes permit $500 per permit year"),
    RuleInfo("MT-SMALL-DAILY", f"{_MT}(2)(a)", "sched",
             "at most one small-stakes tournament per operator per calendar day, within that day"),
    RuleInfo("MT-SMALL-ENTRY", f"{_MT}(2)(c)", "input",
             "small-stakes: at most $80 in all, no rebuy, add-on or re-entry"),
    RuleInfo("MT-SMALL-TABLE", f"{_MT}(2)(d)", "list",
             "one extra table, used only for small-stakes tournaments"),
    RuleInfo("MT-RULES-POSTED", f"{_MT}(3)", "list",
             "rules given to each participant before the start and posted"),
    RuleInfo("MT-SUPERVISOR", f"{_MT}(5)", "list",
             "a person on the premises oversees play and settles disputes"),
    RuleInfo("MT-DEALER", f"{_MT}(6)", "list",
             "only licensed dealers deal; optionally, a room's tournaments need at most the "
             "licensed dealers it has on any calendar day"),
    RuleInfo("MT-CHIP-VALUE", f"{_MT}(7)", "list", "chip face value does not set the prize pool"),
    RuleInfo("MT-CHARITY-SHARE", f"{_MT}(8)", "input",
             "a charitable tournament pays at least 50% of entry fees to a nonprofit"),
    RuleInfo("MT-NO-RAKE", f"{_MT}(9)", "input", "no rake-off"),
    RuleInfo("MT-PLAY-HOURS", "ARM 23.16.1101", "sched",
             "no tournament play between 2 a.m. and 8 a.m., on any night of play"),
    # Maine, 17 M.R.S. § 1836
    RuleInfo("ME-MONTHLY-LIMIT", _ME, "sched",
             "at most 2 tournament games per licensed organization per calendar month, "
             "counting the games already held in it"),
    RuleInfo("ME-LOCAL-APPROVAL", f"{_ME}(1)", "input",
             "the local governing authority must approve"),
    RuleInfo("ME-BENEFICIARY", f"{_ME}(2)", "input",
             "the application names at least one charitable organization"),
    RuleInfo("ME-FEES", f"{_ME}(3-A)", "cost",
             "per-tournament, monthly and annual licence fees by player tier"),
    RuleInfo("ME-PLAYER-CAP", f"{_ME}(4)", "input",
             "at most 100 players, or 300 on premises the licensee owns"),
    RuleInfo("ME-ELIMINATION", f"{_ME}(4)", "input", "winners are determined by elimination"),
    RuleInfo("ME-NO-CURRENCY", f"{_ME}(4)", "list", "no currency in play"),
    RuleInfo("ME-ENTRY-CAP", f"{_ME}(4)", "input",
             "entry fee at most $100, one entry per person; licence surcharge at most $125 in "
             "all and, by default (surcharge_cap: license-fee), at most the licence fee"),
    RuleInfo("ME-DURATION", f"{_ME}(4)", "sched",
             "a game is completed within 48 hours (super cribbage: 72 hours)"),
    RuleInfo("ME-OTHER-GAMES", f"{_ME}(4)", "sched",
             "no other game of chance on the premises during a licensed game (registered "
             "charitable cribbage is not bound)"),
    RuleInfo("ME-RAFFLE", f"{_ME}(4)", "input",
             "at most one 50/50 raffle per tournament, prize at most $2,000"),
    RuleInfo("ME-PRIZES", f"{_ME}(5)", "input", "at least 75% of entry fees paid as prizes"),
    RuleInfo("ME-DISPLAY", f"{_ME}(4)", "list",
             "the rules of the tournament game and the licence issued are displayed at the game"),
    RuleInfo("ME-HIGH-HAND", f"{_ME}(7)", "input", "at most one high-hand competition per game"),
    RuleInfo("ME-SUPER-CRIBBAGE", f"{_ME}(4-A)", "sched",
             "statewide at most 15 super cribbage licences per year (those issued outside the "
             "plan included), $75 each; a national cribbage 501(c)(3) may hold one if its "
             "principal organizer has been a member at least 3 years"),
    RuleInfo("ME-CRIBBAGE-REG", f"{_ME}(4-B)", "input",
             "charitable cribbage: registered, not licensed; licensed restaurant or manufacturer,"
             " entry at most $25; not bound by ME-MONTHLY-LIMIT or ME-OTHER-GAMES"),
    RuleInfo("ME-PAYMENT", f"{_ME}(4)", "list", "prizes paid in cash or by check"),
    RuleInfo("ME-APPLICATION-WINDOW", "16-633 CMR ch. 32 § 2", "sched",
             "application received 10 business days to 90 days before the first day (Maine "
             "business days; a weekend or holiday first day is lawful)"),
    RuleInfo("ME-REPORT", "16-633 CMR ch. 32 § 8", "list",
             "disposition-of-funds report due 10 business days after each licensed period"),
    RuleInfo("ME-ELIGIBLE", "17 M.R.S. § 1832(2)", "input",
             "licensee is a Maine nonprofit, agricultural society or volunteer fire department "
             "organized at least 2 years (a national cribbage 501(c)(3): super cribbage only, "
             "§ 1836(4-A)(A))"),
    # Scheduling requests of the scenario itself (not statute rules, but named the same way)
    RuleInfo("BLACKOUT", "scenario", "sched", "the operator's blackout days"),
    RuleInfo("CANCELLED", "scenario", "sched",
             "a day whose occurrence was recorded cancelled is not reused by its tournament "
             "(reuse_cancelled_days allows it)"),
    RuleInfo("WINDOW", "scenario", "sched", "the tournament's window of first days"),
    RuleInfo("WEEKDAYS", "scenario", "sched", "the tournament's allowed first weekdays"),
    RuleInfo("HORIZON", "scenario", "sched", "the planning horizon"),
    RuleInfo("CLOCK-CHANGE", "scenario", "sched",
             "the start time does not exist that day (clocks spring forward)"),
    RuleInfo("FIXED-DATES", "scenario", "sched", "a pinned first day"),
    RuleInfo("MIN-GAP", "scenario", "sched", "minimum days between consecutive first days"),
    RuleInfo("MAX-CONCURRENT", "scenario", "sched",
             "how many of an operator's tournaments may be in play at once (sessions "
             "overlapping in time; with concurrency: day, on one calendar day)"),
    RuleInfo("PER-MONTH", "scenario", "sched",
             "at most per_month.max first days of a tournament in one calendar month"),
    RuleInfo("PER-MONTH-MIN", "scenario", "sched",
             "at least per_month.min first days of a tournament in each calendar month of its "
             "window (required occurrences)"),
    RuleInfo("PER-WEEK", "scenario", "sched",
             "at most per_week.max first days of a tournament in one ISO week"),
    RuleInfo("PER-WEEK-MIN", "scenario", "sched",
             "at least per_week.min first days of a tournament in each ISO week of its window "
             "(required occurrences)"),
    RuleInfo("SPREAD", "scenario", "sched",
             "spread: even: a tournament's numbers of first days in the calendar months of its "
             "window differ by at most 1"),
    RuleInfo("TABLES", "scenario", "sched",
             "an operator's tournaments need at most its tables on any calendar day"),
    RuleInfo("TOUR-WHOLE", "scenario", "sched",
             "a tour's stops are placed together: all of them or none"),
    RuleInfo("TOUR-ORDER", "scenario", "sched",
             "a tour's stops are held one after another (order: strict, in the listed order), "
             "the final after every other stop"),
    RuleInfo("TOUR-SPACING", "scenario", "sched",
             "days from one stop's first day to the next stop's first day: at least "
             "min_days_between, at most max_days_between"),
    RuleInfo("COUNT", "scenario", "sched", "the number of occurrences wanted"),
    RuleInfo("REQUIRED", "scenario", "sched", "occurrences that must be placed (required)"),
    RuleInfo("SCENARIO", "scenario", "input", "the scenario file's format"),
)

RULES: dict[str, RuleInfo] = {r.id: r for r in _ROWS}

COST_RULES: tuple[str, ...] = tuple(r.id for r in _ROWS if r.kind == "cost")
"""The rules of kind ``cost`` (MT-PERMIT-FEES, ME-FEES), in catalogue order: they only
price a plan and never make a placement impossible."""


def cite(rule_id: str) -> str:
    """Return ``"RULE-ID, citation"`` for messages, e.g. ``"MT-NOTICE, MCA 23-5-317(1)(d)"``;
    the scenario's own requests (``BLACKOUT``, ``WINDOW``, ...) have no citation."""
    info = RULES[rule_id]
    if info.citation == "scenario":
        return rule_id
    return f"{rule_id}, {info.citation}"


def add_rows(rows: tuple[RuleInfo, ...]) -> None:
    """Add a plug-in jurisdiction's rows to :data:`RULES` (``cite`` then finds them).

    Raises
    ------
    ValueError
        A row's ID is in the catalogue already.
    """
    for r in rows:
        if r.id in RULES:
            raise ValueError(f"rule {r.id} is in the catalogue already")
    RULES.update((r.id, r) for r in rows)


def remove_rows(rows: tuple[RuleInfo, ...]) -> None:
    """Remove rows :func:`add_rows` added (a test's toy jurisdiction, once done)."""
    for r in rows:
        if RULES.get(r.id) is r:
            del RULES[r.id]
