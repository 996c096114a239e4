"""Montana: MCA 23-5-317 (card-game tournaments) and ARM 23.16.1101 (play hours).

Each rule: its ID and citation, its model encoding, and its independent check, side by side,
in one module of this package, by responsibility:

- :mod:`constraints.montana.limits`: the large-stakes limits (MT-LARGE-LIMIT,
  MT-CHARITY-LIMIT), over the tally of :mod:`constraints.montana.tally` (``large_tally``);
- :mod:`constraints.montana.notice`: the notice (MT-NOTICE) and its deadline sentences;
- :mod:`constraints.montana.permits`: permits and fees (MT-PERMIT-PREREQ, MT-PERMIT-FEES);
- :mod:`constraints.montana.small`: small-stakes (MT-SMALL-ENTRY, MT-SMALL-DAILY);
- :mod:`constraints.montana.shared`: several operators, progressives (MT-PROGRESSIVE);
- :mod:`constraints.montana.games`: a tournament's terms (MT-ENTRY-CAP, MT-SATELLITE,
  MT-CHARITY-SHARE, MT-NO-RAKE, MT-DURATION, MT-PLAY-HOURS);
- :mod:`constraints.montana.conduct`: the duties (list kind) and the dealers (MT-DEALER);
- :mod:`constraints.montana.terms`: the statute's numbers all of them read;
- :mod:`constraints.montana.legal_holidays`: the days its state offices are closed by law
  (``JURISDICTION.office_holidays``).

Imports run one way: limits, notice, permits, small, shared, games, conduct > tally > terms.
``RULES`` is the registry's list of Montana rules, in its order; every public name of the
modules is importable from here (``from constraints.montana import large_tally``).
"""

from constraints.base import License
from constraints.catalogue import cite
from constraints.montana.charity import MT_CHARITY_LIMIT
from constraints.montana.conduct import CHECKLIST
from constraints.montana.example import EXAMPLE
from constraints.montana.games import (
    MT_CHARITY_SHARE,
    MT_DURATION,
    MT_ENTRY_CAP,
    MT_NO_RAKE,
    MT_PLAY_HOURS,
    MT_SATELLITE,
    most_paid,
)
from constraints.montana.legal_holidays import office_holidays
from constraints.montana.limits import MT_LARGE_LIMIT
from constraints.montana.notice import MT_NOTICE, notice_line, notice_note, notice_text
from constraints.montana.permits import (
    MT_PERMIT_FEES,
    MT_PERMIT_PREREQ,
    PERMIT_KINDS,
    permit_due,
    permit_held_before,
    permit_line,
)
from constraints.montana.shared import MT_PROGRESSIVE, progressive_rounds, progressive_starts
from constraints.montana.small import MT_SMALL_DAILY, MT_SMALL_ENTRY
from constraints.montana.tally import (
    LargeItem,
    LargeTally,
    counted_once,
    counted_years,
    large_tally,
)
from constraints.montana.terms import (
    CHARITY_LIMIT,
    CHARITY_SHARE,
    CODE,
    ENTRY_CAP,
    LARGE_LIMIT,
    LARGE_PERMIT_FEE,
    MAX_DAYS,
    MT_TYPES,
    NO_PLAY_FROM,
    NO_PLAY_UNTIL,
    SMALL_ENTRY_CAP,
    SMALL_PERMIT_FEE,
    calendar_days,
)
from scheduler.core.jurisdiction import Jurisdiction
from scheduler.core.timing import MT_NOTICE_DAYS

RULES = [
    MT_PERMIT_PREREQ,
    MT_PROGRESSIVE,
    MT_ENTRY_CAP,
    MT_SMALL_ENTRY,
    MT_SATELLITE,
    MT_CHARITY_SHARE,
    MT_NO_RAKE,
    MT_DURATION,
    MT_PLAY_HOURS,
    MT_NOTICE,
    MT_LARGE_LIMIT,
    MT_CHARITY_LIMIT,
    MT_SMALL_DAILY,
    MT_PERMIT_FEES,
    *CHECKLIST,
]

JURISDICTION = Jurisdiction(
    code=CODE, name="Montana", timezone="America/Denver", types=MT_TYPES,
    types_without_readings=("small-stakes",),
    operator_fields=("live_tables", "permit_year_start", "held_in_current_permit_year",
                     "late_hours_ordinance"),
    office_holidays=office_holidays,
    wall_clock=True, permit_years=True, all_day_events=True, rules=tuple(RULES),
    statute="Montana MCA 23-5-317", agency="the Montana Gambling Control Division",
    filing="a notice", licence_kinds=tuple(PERMIT_KINDS),
    words={
        "statute_short": "MCA 23-5-317", "agency_short": "Gambling Control Division",
        "filed_what": "Montana notice", "filed_where": "the Gambling Control Division",
        "nothing_to_file": "Nothing to file: no large-stakes tournament, so no notice to the "
                           "Gambling Control Division.",
        "nothing_filed": "no Montana large-stakes tournament",
        "licence_note": f"Montana notices are due {MT_NOTICE_DAYS} days before each "
                        f"large-stakes tournament ({cite('MT-NOTICE')}); see the dates above.",
    },
    example=EXAMPLE,
)
"""Montana as the engine and the outputs see it
(:class:`scheduler.core.jurisdiction.Jurisdiction`)."""

__all__ = [
    "CHARITY_LIMIT", "CHARITY_SHARE", "CHECKLIST", "CODE", "JURISDICTION", "MT_TYPES",
    "ENTRY_CAP", "LARGE_LIMIT",
    "LARGE_PERMIT_FEE", "MAX_DAYS", "MT_CHARITY_LIMIT", "MT_CHARITY_SHARE", "MT_DURATION",
    "MT_ENTRY_CAP", "MT_LARGE_LIMIT", "MT_NOTICE", "MT_NO_RAKE", "MT_PERMIT_FEES",
    "MT_PERMIT_PREREQ", "MT_PLAY_HOURS", "MT_PROGRESSIVE", "MT_SATELLITE", "MT_SMALL_DAILY",
    "MT_SMALL_ENTRY", "NO_PLAY_FROM", "NO_PLAY_UNTIL", "PERMIT_KINDS", "RULES",
    "SMALL_ENTRY_CAP", "SMALL_PERMIT_FEE", "LargeItem", "LargeTally", "License",
    "calendar_days", "counted_once", "counted_years", "large_tally", "most_paid",
    "notice_line", "notice_note", "notice_text", "office_holidays", "permit_due",
    "permit_held_before",
    "permit_line", "progressive_rounds",
    "progressive_starts",
]
