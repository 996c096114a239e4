"""Maine, the statute's numbers: 17 M.R.S. § 1836 (tournament games), § 1832(2)
(eligibility) and 16-633 CMR ch. 32 (application window, reports).

The limits, caps and fees every Maine rule reads (ME-MONTHLY-LIMIT, ME-DURATION,
ME-SUPER-CRIBBAGE, ME-PLAYER-CAP, ME-ENTRY-CAP, ME-PRIZES, ME-RAFFLE, ME-CRIBBAGE-REG,
ME-FEES), the player tiers of the licences, and which tournaments of a scenario are Maine's
(licensed games, their operators); the rules themselves are in the package's other modules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal

from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Operator, Tournament
from scheduler.core.timing import years_end

CODE = "ME"
"""Maine's code, as a scenario's operators spell their ``jurisdiction``."""
ME_TYPES = ("tournament-game", "super-cribbage", "charitable-cribbage")
"""The Maine tournament types (17 M.R.S. § 1836)."""

MONTHLY_LIMIT = 2
"""ME-MONTHLY-LIMIT, 17 M.R.S. § 1836: tournament games per organization per calendar month."""
MAX_HOURS = 48
"""ME-DURATION, 17 M.R.S. § 1836(4): a game is completed within 48 hours of its start."""
SUPER_CRIBBAGE_HOURS = 72
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(E)."""
SUPER_CRIBBAGE_LIMIT = 15
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): licences statewide per (calendar) year."""
SUPER_CRIBBAGE_FEE = 75
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A): USD per licence."""
PLAYER_CAP = 100
PLAYER_CAP_OWNED = 300
"""ME-PLAYER-CAP, 17 M.R.S. § 1836(4)."""
ENTRY_CAP = Decimal(100)
SURCHARGE_CAP = Decimal(125)
"""ME-ENTRY-CAP, 17 M.R.S. § 1836(4): USD, the licence-fee surcharge of all players together
(under ``surcharge_cap: license-fee`` also at most the licence fee: :func:`surcharge_cap`)."""
NATIONAL_CRIBBAGE = "national-cribbage-501c3"
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(A): ``organization_type`` of a nationally chartered
501(c)(3) organization of tournament cribbage."""
MEMBER_YEARS = 3
"""ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(A): years its principal organizer has been a
member."""
ORGANIZED_YEARS = 2
"""ME-ELIGIBLE, 17 M.R.S. § 1832(2): years a licensee has been organized in Maine, at least,
on the horizon's first day."""
PRIZE_SHARE = Decimal("0.75")
"""ME-PRIZES, 17 M.R.S. § 1836(5)."""
RAFFLE_PRIZE_CAP = Decimal(2000)
"""ME-RAFFLE, 17 M.R.S. § 1836(4): USD."""
CRIBBAGE_ENTRY_CAP = Decimal(25)
"""ME-CRIBBAGE-REG, 17 M.R.S. § 1836(4-B)(C): USD."""

TIERS = ("1-50", "51-100", "101-150", "151-200", "201-250", "251-300")
TIER_MAX = (50, 100, 150, 200, 250, 300)
PER_TOURNAMENT_FEE = (40, 75, 300, 400, 500, 600)
"""ME-FEES, 17 M.R.S. § 1836(3-A): USD per tournament licence by tier."""
MONTHLY_FEE = (100, 200)
"""ME-FEES, 17 M.R.S. § 1836(3-A): USD for one calendar month, tiers 1-50 and 51-100."""
ANNUAL_FEE = (750, 1500)
"""ME-FEES, 17 M.R.S. § 1836(3-A): USD for 12 months from the first day, tiers 1-50, 51-100."""


def nth(n: int) -> str:
    """16 -> "16th", 21 -> "21st", 3 -> "3rd": a count in a message (the 3rd game of a month,
    ME-MONTHLY-LIMIT; the 16th super cribbage licence, ME-SUPER-CRIBBAGE)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def tier_index(players: int) -> int:
    """ME-FEES: index into :data:`TIERS` of a game's player cap."""
    for i, m in enumerate(TIER_MAX):
        if players <= m:
            return i
    raise ValueError(f"{players} players is over every tier")


def covering_tiers(players: int, coverage: str) -> list[int]:
    """Monthly/annual tiers that may cover a game (``tier_coverage`` reading): ``up`` = its
    tier and every higher one of the two; ``exact`` = its own tier only."""
    i = tier_index(players)
    if i > 1:
        return []
    return [i] if coverage == "exact" else list(range(i, 2))


def annual_end(start: dt.date) -> dt.date:
    """ME-FEES, 17 M.R.S. § 1836(3-A): the last day (inclusive) of an annual licence whose
    first day is ``start``, 12 months from it: ``scheduler.core.timing.years_end(start, 1)``
    (from 2028-02-29: 2029-02-28; from 2027-03-01: 2028-02-29)."""
    return years_end(start, 1)


def me(sc: Scenario) -> Iterator[tuple[int, Tournament]]:
    for i, t in enumerate(sc.tournaments):
        if t.type in ME_TYPES:
            yield i, t


def licensed(t: Tournament) -> bool:
    return t.is_me_licensed_game


def ops_of(sc: Scenario, t: Tournament) -> list[tuple[int, Operator]]:
    return [(i, o) for i, o in enumerate(sc.operators) if o.id in t.operators]


def licence_holders(sc: Scenario) -> list[tuple[int, Operator]]:
    """The operators (index, operator) that hold a licensed Maine game of the scenario."""
    holders = {o for _, t in me(sc) if licensed(t) for o in t.operators}
    return [(i, op) for i, op in enumerate(sc.operators) if op.id in holders]


def games(sc: Scenario) -> Iterator[tuple[tuple[str, int], Tournament]]:
    """The licensed Maine games (tournament game, super cribbage) with their field path;
    charitable cribbage has its own terms (ME-CRIBBAGE-REG)."""
    for i, t in me(sc):
        if t.type != "charitable-cribbage":
            yield ("tournaments", i), t


def sessions_span(t: Tournament) -> Decimal:
    """Hours from a game's first session's start to its last one's end (``sessions``,
    flights), the hours between sessions counted (wall clock; the check and the model read
    the real elapsed time)."""
    return Decimal(t.sessions[-1].minutes()[1] - t.sessions[0].minutes()[0]) / 60


LICENCE_KINDS = ("me-per-tournament", "me-monthly", "me-annual", "me-super-cribbage")
"""ME-FEES, ME-SUPER-CRIBBAGE: the Maine licences.csv ``kind`` values."""
LICENCE_LABELS = {"me-per-tournament": "per-tournament", "me-monthly": "monthly",
                  "me-annual": "annual", "me-super-cribbage": "super cribbage"}
"""Each of :data:`LICENCE_KINDS` in words (``per-tournament``: "a per-tournament licence",
"ME per-tournament"), the one wording the checks, the calendars, the charts and the report
use."""
LICENCE_RULES = {"me-per-tournament": "ME-FEES", "me-monthly": "ME-FEES",
                 "me-annual": "ME-FEES", "me-super-cribbage": "ME-SUPER-CRIBBAGE"}
"""The rule each of :data:`LICENCE_KINDS` is bought under (ME-FEES, 17 M.R.S. § 1836(3-A);
ME-SUPER-CRIBBAGE, § 1836(4-A))."""


def statute_fee(kind: str, tier: str) -> int | None:
    """ME-FEES, 17 M.R.S. § 1836(3-A), (4-A): the fee (USD) of a licence of ``kind`` and
    ``tier`` (a :data:`TIERS` label); None when no such licence exists (e.g. an annual licence
    over 100 players)."""
    if kind == "me-super-cribbage":
        return SUPER_CRIBBAGE_FEE
    if tier not in TIERS:
        return None
    k = TIERS.index(tier)
    if kind == "me-per-tournament":
        return PER_TOURNAMENT_FEE[k]
    if kind in ("me-monthly", "me-annual") and k < 2:
        return (MONTHLY_FEE if kind == "me-monthly" else ANNUAL_FEE)[k]
    return None


def per_tournament_usd(sc: Scenario, covers: tuple[str, ...]) -> int:
    """ME-FEES, 17 M.R.S. § 1836(3-A): what per-tournament licences would cost for the
    occurrences ``covers``, each at :data:`PER_TOURNAMENT_FEE` of its game's own tier
    (:func:`tier_index` of its ``players``; a game without a cap as tier 1-50).

    Parameters
    ----------
    sc : Scenario
        The scenario the occurrences' tournaments belong to.
    covers : tuple of str
        Occurrences ``tournament_id#k``, e.g. an annual licence's
        :attr:`constraints.base.License.covers`.

    Returns
    -------
    int
        USD, the sum over ``covers`` (0 for none).

    Raises
    ------
    KeyError
        For a tournament id not in ``sc``.
    ValueError
        For a player cap over every tier (over 300).
    """
    return sum(PER_TOURNAMENT_FEE[tier_index(sc.tournament(ref.split("#")[0]).players or 1)]
               for ref in covers)
