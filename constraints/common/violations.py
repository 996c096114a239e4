"""A violation of the scenario's requests by one placed occurrence (``violation``): charged to the
tournament's first operator, dated by the occurrence's first day; what the filters and
``MIN-GAP`` report.
"""

from __future__ import annotations

from constraints.base import Occurrence, Violation


def violation(rule: str, p: Occurrence, message: str) -> Violation:
    return Violation(rule, p.tournament.operators[0], (p.ref,), p.first_day.isoformat(), message)
