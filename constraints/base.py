"""What a rule is: its ID, and the pieces it may contribute.

A rule contributes any of:

- ``validate(scenario)`` → problems with a tournament's or operator's terms (*input* rules);
- ``allows(scenario, t, timing)`` → whether an occurrence of ``t`` with this timing may be
  placed at all (a *sched* rule encoded as a domain restriction of the day-indexed model);
- ``encode(ctx)`` → constraints / fee terms on the CP-SAT model (*sched* and *cost* rules);
- ``check(audit)`` → violations found in a finished schedule, in plain Python, without the
  solver (the independent second reading of the clause).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from constraints.catalogue import RULES, cite
from constraints.modelling import ModelContext
from scheduler.problems import TermProblem
from scheduler.scenario import Operator, Scenario, Tournament
from scheduler.timing import Timing


@dataclass(frozen=True)
class Placed:
    """One placed occurrence, as the checker sees it."""

    tournament: Tournament
    occurrence: int
    timing: Timing

    @property
    def tid(self) -> str:
        return self.tournament.id

    @property
    def first_day(self) -> dt.date:
        return self.timing.first_day

    @property
    def ref(self) -> str:
        return f"{self.tournament.id}#{self.occurrence}"


@dataclass(frozen=True)
class License:
    """One licence or permit to buy (a row of licenses.csv). Fees in USD."""

    license_id: str
    operator_id: str
    jurisdiction: str
    kind: str
    tier: str
    valid_from: dt.date
    valid_to: dt.date
    fee_usd: int | Decimal
    """USD: whole dollars as an int; a Decimal only when a checked licenses.csv lists cents."""
    covers: tuple[str, ...]  # "tournament_id#occurrence"


@dataclass
class Audit:
    """A schedule to check: the scenario, the placed occurrences and the licences bought."""

    scenario: Scenario
    placed: list[Placed]
    licenses: list[License] = field(default_factory=list)
    operators: frozenset[str] | None = None
    """The operators the schedule covers (one operator's calendar); None: all of them."""

    def covers(self, t: Tournament) -> bool:
        """Whether the schedule is expected to hold ``t`` (for rules about what is missing)."""
        return self.operators is None or bool(self.operators & set(t.operators))

    def of_operator(self, op: Operator) -> list[Placed]:
        """The occurrences ``op`` holds (alone or shared), in the order of ``placed``."""
        return self._by_operator.get(op.id, [])

    @cached_property
    def _by_operator(self) -> dict[str, list[Placed]]:
        out: dict[str, list[Placed]] = {}
        for p in self.placed:
            for oid in p.tournament.operators:
                out.setdefault(oid, []).append(p)
        return out


@dataclass(frozen=True)
class Violation:
    """One broken rule in a schedule."""

    rule: str
    operator_id: str
    refs: tuple[str, ...]
    dates: str
    message: str

    def render(self) -> str:
        return f"{cite(self.rule)}: {self.message}"

    def render_line(self) -> str:
        """One line for `tourney check`: rule and citation, operator, occurrence, dates,
        the sentence."""
        refs = ",".join(self.refs)
        return f"{cite(self.rule)} | {self.operator_id} | {refs} | {self.dates} | {self.message}"


Validate = Callable[["Scenario"], Iterable["TermProblem"]]
Allows = Callable[["Scenario", "Tournament", "Timing"], bool]
AllowsDay = Callable[["Scenario", "Tournament", dt.date], bool]
Encode = Callable[["ModelContext"], None]
Check = Callable[[Audit], Iterable[Violation]]


@dataclass(frozen=True)
class Rule:
    """A rule of RULES.md (or a scenario request) and what it contributes."""

    id: str
    validate: Validate | None = None
    allows: Allows | None = None
    encode: Encode | None = None
    check: Check | None = None
    allows_day: AllowsDay | None = None
    """A cheaper test than ``allows`` that needs only the first day: the model skips a day it
    rejects before the day's timing is computed (``allows`` must reject that day too)."""

    def __post_init__(self) -> None:
        if self.id not in RULES:
            raise KeyError(f"rule {self.id} is not in the catalogue")

    @property
    def citation(self) -> str:
        return RULES[self.id].citation


def usd(x: Decimal | int | float) -> str:
    """``$1,875`` style money text."""
    d = Decimal(x)
    return f"${d:,.0f}" if d == d.to_integral_value() else f"${d:,.2f}"


def day_span(first: dt.date, last: dt.date) -> str:
    """``2027-06-30`` for one day, ``2027-06-30..2027-07-02`` for several (inclusive)."""
    return first.isoformat() if first == last else f"{first}..{last}"


def licence_row_violation(rule: str, lic: License, message: str,
                          refs: tuple[str, ...] | None = None) -> Violation:
    """A violation of ``rule`` (MT-PERMIT-FEES or ME-FEES) about one licenses.csv row: its
    operator, the occurrences it lists (or ``refs``), its validity as the dates, and
    ``message`` after the licence id."""
    return Violation(rule, lic.operator_id, lic.covers if refs is None else refs,
                     day_span(lic.valid_from, lic.valid_to),
                     f"licence {lic.license_id}: {message}")
