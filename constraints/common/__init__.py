"""The scenario's own requests, for either state: horizon, windows, weekdays, blackouts, counts,
fixed dates, minimum gaps and how many tournaments an operator runs at once (play sessions
overlapping in time, or per calendar day).

They are not statute rules but are enforced and checked the same way, under their own IDs
(``HORIZON``, ``WINDOW``, ``WEEKDAYS``, ``BLACKOUT``, ``CANCELLED``, ``COUNT``,
``FIXED-DATES``, ``MIN-GAP``, ``MAX-CONCURRENT``), plus the format rules of a scenario
(``SCENARIO``) and fixed dates whose start time the clocks skip (``CLOCK-CHANGE``). What a
plan is worth (each placed occurrence's ``priority``, the shortfall below ``required`` and the
fixed dates, ``prefer_weekdays``) is not a constraint: it is the objective, in
``scheduler/engine/objective.py``.

Each rule: its ID, its model encoding or filter, and its independent check, side by side, in
one module of this package, by responsibility:

- :mod:`constraints.common.references`: the scenario's cross references (SCENARIO) and fixed
  dates the clocks skip (CLOCK-CHANGE), :data:`REFERENCES`;
- :mod:`constraints.common.filters`: the filters of first days (HORIZON, WINDOW, WEEKDAYS,
  BLACKOUT, CANCELLED);
- :mod:`constraints.common.placement`: how many occurrences and which (COUNT, REQUIRED,
  FIXED-DATES);
- :mod:`constraints.common.spacing`: spacing and concurrency in time (MIN-GAP,
  MAX-CONCURRENT);
- :mod:`constraints.common.violations`: a violation of one placed occurrence (``violation``), what
  the filters and MIN-GAP report.

Imports run one way: references, filters, placement, spacing > violations. ``RULES`` is the
registry's list of the scenario's requests, in its order; every name importers use is
importable from here (``from constraints.common import REFERENCES``).
"""

from constraints.base import forget_sessions
from constraints.common.filters import BLACKOUT, CANCELLED, HORIZON, WEEKDAY_RULE, WINDOW
from constraints.common.placement import COUNT, FIXED_DATES, REQUIRED
from constraints.common.references import (
    CLOCK_CHANGE,
    REFERENCES,
    SCENARIO,
    validate_clock_change,
    validate_references,
)
from constraints.common.spacing import MAX_CONCURRENT, MIN_GAP

RULES = [SCENARIO, CLOCK_CHANGE, HORIZON, WINDOW, WEEKDAY_RULE, BLACKOUT, CANCELLED, COUNT,
         REQUIRED, FIXED_DATES, MIN_GAP, MAX_CONCURRENT]

__all__ = [
    "BLACKOUT", "CANCELLED", "CLOCK_CHANGE", "COUNT", "FIXED_DATES", "HORIZON",
    "MAX_CONCURRENT", "MIN_GAP", "REFERENCES", "REQUIRED", "RULES", "SCENARIO", "WEEKDAY_RULE",
    "WINDOW",
    "forget_sessions", "validate_clock_change", "validate_references",
]
