"""Montana, the statute's numbers: MCA 23-5-317 (card-game tournaments) and ARM 23.16.1101
(play hours).

The limits, caps and fees every Montana rule reads (MT-LARGE-LIMIT, MT-CHARITY-LIMIT,
MT-DURATION, MT-ENTRY-CAP, MT-SMALL-ENTRY, MT-CHARITY-SHARE, MT-PERMIT-FEES, MT-PLAY-HOURS),
which tournaments of a scenario are Montana's, and a tournament's calendar days and play
minutes; the rules themselves are in the package's other modules.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import Tournament

CODE = "MT"
"""Montana's code, as a scenario's operators spell their ``jurisdiction``."""
MT_TYPES = ("large-stakes", "small-stakes")
"""The Montana tournament types (MCA 23-5-317)."""
LARGE_LIMIT = 16
"""MT-LARGE-LIMIT, MCA 23-5-317(1)(a): large-stakes tournaments per permit year."""
CHARITY_LIMIT = 3
"""MT-CHARITY-LIMIT, MCA 23-5-317(1)(f): charitable large-stakes tournaments per operator per
permit year that are *not counted* toward the 16 of MT-LARGE-LIMIT (the first three of the permit
year, held ones first). Not a cap: a 4th and later charitable one is allowed and counted."""
MAX_DAYS = 5
"""MT-DURATION, MCA 23-5-317(1)(c): consecutive calendar days."""
ENTRY_CAP = Decimal(1875)
"""MT-ENTRY-CAP, MCA 23-5-317(1)(g): USD one participant may pay in all."""
SMALL_ENTRY_CAP = Decimal(80)
"""MT-SMALL-ENTRY, MCA 23-5-317(2)(c): USD one participant may pay in all."""
CHARITY_SHARE = Decimal("0.5")
"""MT-CHARITY-SHARE, MCA 23-5-317(8)."""
LARGE_PERMIT_FEE = 120
"""MT-PERMIT-FEES, MCA 23-5-317(1)(b): USD per permit year, not prorated."""
SMALL_PERMIT_FEE = 500
"""MT-PERMIT-FEES, MCA 23-5-317(2)(b): USD per permit year, not prorated."""
NO_PLAY_FROM = 2 * 60
NO_PLAY_UNTIL = 8 * 60
"""MT-PLAY-HOURS, ARM 23.16.1101: no play 02:00-08:00 (minutes after midnight)."""


def mt(sc: Scenario) -> Iterator[tuple[int, Tournament]]:
    for i, t in enumerate(sc.tournaments):
        if t.type in MT_TYPES:
            yield i, t


def mins(t: Tournament) -> tuple[int, int]:
    """(start, end) of one play day in minutes after the start day's midnight."""
    s = t.start_time.hour * 60 + t.start_time.minute
    return s, s + int(round(float(t.hours) * 60))


def calendar_days(t: Tournament) -> int:
    """MT-DURATION: calendar days used: the play days, plus every further day the last
    session runs into (play past midnight uses the next day too; ending at 24:00 does not).
    With ``sessions``: from the first session's day to the day the last one ends, the empty
    days between flights counted (5 consecutive calendar days from the first flight)."""
    if t.sessions:
        return (t.sessions[-1].minutes()[1] - 1) // (24 * 60) + 1
    _, end = mins(t)
    return t.days - 1 + (end - 1) // (24 * 60) + 1
