"""Maine: 17 M.R.S. § 1836 (tournament games), § 1832(2) (eligibility) and 16-633 CMR ch. 32
(application window, reports).

Each rule: its ID and citation, its model encoding, and its independent check, side by side,
in one module of this package, by responsibility:

- :mod:`constraints.maine.organization`: the organization (ME-LOCAL-APPROVAL,
  ME-BENEFICIARY, ME-ELIGIBLE) and the application window (ME-APPLICATION-WINDOW);
- :mod:`constraints.maine.games`: a licensed game's terms (ME-ELIMINATION, ME-PLAYER-CAP,
  ME-ENTRY-CAP, ME-RAFFLE, ME-HIGH-HAND, ME-DURATION, ME-OTHER-GAMES);
- :mod:`constraints.maine.limits`: the monthly limit (ME-MONTHLY-LIMIT);
- :mod:`constraints.maine.cribbage`: super cribbage (ME-SUPER-CRIBBAGE: the 15 a year, its
  terms, licence and charity share);
- :mod:`constraints.maine.fees`: the licences and their fees (ME-FEES);
- :mod:`constraints.maine.funds`: prizes, charity and reports (ME-PRIZES, ME-CRIBBAGE-REG,
  ME-REPORT) and the other duties of a licensed game (list kind);
- :mod:`constraints.maine.business_days`: Maine business days, the State Government
  holidays (``JURISDICTION.office_holidays``) and the deadlines counted in business days
  (ME-APPLICATION-WINDOW's due date, ME-REPORT's);
- :mod:`constraints.maine.terms`: the statute's numbers and tiers all of them read.

Imports run one way: organization, games, limits, fees, funds > business_days > terms.
``RULES`` is the registry's list of Maine rules, in its order; every public name of the
modules is importable from here (``from constraints.maine import MONTHLY_LIMIT``).
"""

from constraints.catalogue import cite
from constraints.maine.business_days import (
    application_due,
    application_earliest_first_day,
    application_ok,
    application_opens,
    application_window,
    is_maine_business_day,
    maine_business_days_after,
    maine_business_days_before,
    maine_holidays,
    office_holidays,
    report_due,
    thanksgiving_friday,
)
from constraints.maine.cribbage import ME_SUPER_CRIBBAGE, super_cribbage_left
from constraints.maine.example import EXAMPLE
from constraints.maine.fees import ME_FEES, licence_id_part, monthly_never_cheaper
from constraints.maine.funds import (
    CHECKLIST,
    ME_CRIBBAGE_REG,
    ME_PRIZES,
    report_line,
    report_text,
)
from constraints.maine.games import (
    ME_DURATION,
    ME_ELIMINATION,
    ME_ENTRY_CAP,
    ME_HIGH_HAND,
    ME_OTHER_GAMES,
    ME_PLAYER_CAP,
    ME_RAFFLE,
    other_game_sessions,
    surcharge_cap,
)
from constraints.maine.limits import ME_MONTHLY, counted_months
from constraints.maine.organization import (
    ME_APPLICATION,
    ME_BENEFICIARY,
    ME_ELIGIBLE,
    ME_LOCAL_APPROVAL,
    application_line,
    application_window_text,
    earliest_first_day,
)
from constraints.maine.terms import (
    ANNUAL_FEE,
    CODE,
    CRIBBAGE_ENTRY_CAP,
    ENTRY_CAP,
    LICENCE_KINDS,
    LICENCE_LABELS,
    LICENCE_RULES,
    MAX_HOURS,
    ME_TYPES,
    MEMBER_YEARS,
    MONTHLY_FEE,
    MONTHLY_LIMIT,
    NATIONAL_CRIBBAGE,
    ORGANIZED_YEARS,
    PER_TOURNAMENT_FEE,
    PLAYER_CAP,
    PLAYER_CAP_OWNED,
    PRIZE_SHARE,
    RAFFLE_PRIZE_CAP,
    SUPER_CRIBBAGE_FEE,
    SUPER_CRIBBAGE_HOURS,
    SUPER_CRIBBAGE_LIMIT,
    SURCHARGE_CAP,
    TIER_MAX,
    TIERS,
    annual_end,
    covering_tiers,
    per_tournament_usd,
    statute_fee,
    tier_index,
)
from scheduler.core.jurisdiction import Jurisdiction

RULES = [
    ME_LOCAL_APPROVAL,
    ME_BENEFICIARY,
    ME_ELIGIBLE,
    ME_CRIBBAGE_REG,
    ME_ELIMINATION,
    ME_PLAYER_CAP,
    ME_ENTRY_CAP,
    ME_PRIZES,
    ME_RAFFLE,
    ME_HIGH_HAND,
    ME_DURATION,
    ME_OTHER_GAMES,
    ME_APPLICATION,
    ME_MONTHLY,
    ME_SUPER_CRIBBAGE,
    ME_FEES,
    *CHECKLIST,
]

JURISDICTION = Jurisdiction(
    code=CODE, name="Maine", timezone="America/New_York", types=ME_TYPES,
    types_without_readings=("charitable-cribbage",),
    operator_fields=("owns_premises", "local_approval", "beneficiaries", "other_games",
                     "organization_type", "organized_on", "licensed_establishment",
                     "held_in_current_month"),
    rules=tuple(RULES),
    statute="Maine 17 M.R.S. § 1836", agency="the Maine Gambling Control Unit",
    filing="an application", licence_kinds=LICENCE_KINDS, one_licence_each=True,
    words={
        "statute_short": "17 M.R.S. § 1836", "agency_short": "Gambling Control Unit",
        "filed_what": "Maine application", "filed_where": "the Gambling Control Unit",
        "nothing_to_file": "Nothing to file: no Maine licence to apply for or report on.",
        "nothing_filed": "no Maine licence",
        "apply_by_note": "Apply by: the last day a Maine application can be received "
                         f"({cite('ME-APPLICATION-WINDOW')}).",
    },
    office_holidays=office_holidays, governor_closed_days=True,
    hooks={"licence_id_part": licence_id_part},
    example=EXAMPLE,
)
"""Maine as the engine and the outputs see it
(:class:`scheduler.core.jurisdiction.Jurisdiction`)."""

__all__ = [
    "ANNUAL_FEE", "CHECKLIST", "CODE", "CRIBBAGE_ENTRY_CAP", "ENTRY_CAP", "JURISDICTION",
    "LICENCE_KINDS", "LICENCE_LABELS", "LICENCE_RULES", "MAX_HOURS", "MEMBER_YEARS",
    "ME_APPLICATION", "ME_BENEFICIARY", "ME_CRIBBAGE_REG", "ME_DURATION", "ME_ELIGIBLE",
    "ME_ELIMINATION", "ME_ENTRY_CAP", "ME_FEES", "ME_HIGH_HAND", "ME_LOCAL_APPROVAL", "ME_MONTHLY",
    "ME_OTHER_GAMES", "ME_PLAYER_CAP", "ME_PRIZES", "ME_RAFFLE", "ME_SUPER_CRIBBAGE", "ME_TYPES",
    "MONTHLY_FEE", "MONTHLY_LIMIT", "NATIONAL_CRIBBAGE", "ORGANIZED_YEARS", "PER_TOURNAMENT_FEE",
    "PLAYER_CAP", "PLAYER_CAP_OWNED", "PRIZE_SHARE", "RAFFLE_PRIZE_CAP", "RULES",
    "SUPER_CRIBBAGE_FEE", "SUPER_CRIBBAGE_HOURS", "SUPER_CRIBBAGE_LIMIT", "SURCHARGE_CAP", "TIERS",
    "TIER_MAX", "annual_end", "application_due", "application_earliest_first_day",
    "application_line", "application_ok", "application_opens", "application_window",
    "application_window_text", "counted_months", "covering_tiers", "earliest_first_day",
    "is_maine_business_day", "licence_id_part", "maine_business_days_after",
    "maine_business_days_before", "maine_holidays", "monthly_never_cheaper", "office_holidays",
    "other_game_sessions", "per_tournament_usd", "report_due", "report_line", "report_text",
    "statute_fee", "super_cribbage_left", "surcharge_cap", "thanksgiving_friday", "tier_index",
]
