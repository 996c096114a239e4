"""What a rule is: its ID, and the pieces it may contribute.

A rule contributes any of:

- ``validate(scenario)`` → problems with a tournament's or operator's terms (*input* rules);
- ``allows(scenario, t, timing)`` → whether an occurrence of ``t`` with this timing may be
  placed at all (a *sched* rule encoded as a domain restriction of the day-indexed model);
- ``encode(ctx)`` → constraints / fee terms on the CP-SAT model (*sched* and *cost* rules);
- ``check(audit)`` → violations found in a finished schedule, in plain Python, without the
  solver (the independent second reading of the clause);
- ``added(audit, occurrence)`` → the violations ``check`` would find with one occurrence
  more, read from the groups it joins only (:attr:`Rule.added`: the reasons of what was not
  placed try every allowed first day);
- ``actuals(held)`` → violations in what was actually held, filed and reported, as the
  ledger records it (:class:`Actuals`; ``tourney check --ledger``).
- ``certificate(ctx, tournament_ids)`` → counting arguments (:class:`Certificate`) that the
  ``required`` occurrences of those tournaments cannot all be placed under the rule: the
  first answer of the conflict explanation (``scheduler.engine.explain``), before any search.
- ``usage(audit)`` → how much of a counted limit a schedule uses, per operator and period
  (:class:`Usage`), from the rule's own tally: what ``Plan.usage``, the summary, the charts
  and plan.xlsx show (``scheduler.result.usage``), worded by its ``usage_text``
  (:class:`UsageText`);
- ``counts(t)`` → whether an occurrence of ``t`` counts toward a limit two tournaments
  compete for (the summary's ``displaced``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_UP, Decimal
from functools import cached_property, lru_cache
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from constraints.catalogue import RULES, RuleInfo, cite
from constraints.modelling import ModelContext
from scheduler.core.clock import today_in
from scheduler.core.problems import TermProblem
from scheduler.core.scenario import Scenario
from scheduler.core.scenario_types import DEFAULT_TIMEZONE, Operator, Tournament
from scheduler.core.timing import Timing, sessions, tournament_tz


@dataclass(frozen=True)
class Occurrence:
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


_Sessions = list[tuple[dt.datetime, dt.datetime]]
_Shape = tuple[int, Decimal, ZoneInfo] | None
_SESSIONS: dict[tuple[int, _Shape], tuple[Timing, _Sessions]] = {}
_SESSIONS_MAX = 20_000


def sessions_of(sc: Scenario, p: Occurrence) -> _Sessions:
    """:func:`scheduler.core.timing.sessions` of ``p``, computed once per timing and what
    else they depend on (a tournament of several ``days``: its days, hours and zone; any
    other: nothing): MAX-CONCURRENT and MT-PLAY-HOURS read the same ones, tournaments that
    start alike on one day share them, and the reasons of occurrences not placed check the
    same placed ones against each candidate day (``scheduler.engine.reasons``). Keyed by the
    timing's identity (the entry holds it, so an id is not reused while it is kept); at most
    ``_SESSIONS_MAX`` kept. The list returned is shared: not to be changed."""
    t, tm = p.tournament, p.timing
    shape: _Shape = None if tm.sessions or t.days <= 1 else (
        t.days, t.hours, tournament_tz(sc, t))
    key = (id(tm), shape)
    hit = _SESSIONS.get(key)
    if hit is not None and hit[0] is tm:
        return hit[1]
    if len(_SESSIONS) >= _SESSIONS_MAX:
        _SESSIONS.clear()
    out = sessions(sc, t, tm)
    _SESSIONS[key] = (tm, out)
    return out


def forget_sessions() -> None:
    """Let go of what :func:`sessions_of` keeps (each entry holds its timing): called when a
    part of a scenario is solved, since the next part checks other objects (issue #16: a
    statewide solve held every part's scenario through it)."""
    _SESSIONS.clear()


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


_T = TypeVar("_T")


@dataclass
class Audit:
    """A schedule to check: the scenario, the placed occurrences and the licences bought."""

    scenario: Scenario
    placed: list[Occurrence]
    licenses: list[License] = field(default_factory=list)
    operators: frozenset[str] | None = None
    """The operators the schedule covers (one operator's calendar); None: all of them."""
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False,
                                  compare=False)

    def memo(self, key: str, build: Callable[[], _T]) -> _T:
        """``build()``, computed once per audit and ``key``: what a rule's
        :attr:`Rule.added` reads of the placed occurrences again for each occurrence added
        (e.g. an operator's sessions in time order). The audit's ``placed`` is not to change
        once it is read."""
        if key not in self._memo:
            self._memo[key] = build()
        out: _T = self._memo[key]
        return out

    def operators_of(self, p: Occurrence) -> list[Operator]:
        """The operators of the scenario that hold ``p`` (alone or shared), in the scenario's
        order (the order the rules check them in)."""
        pos = self.memo("operators", lambda: {
            o.id: (i, o) for i, o in enumerate(self.scenario.operators)})
        return [o for _, o in sorted(pos[x] for x in p.tournament.operators if x in pos)]

    def with_one(self, p: Occurrence) -> Audit:
        """This schedule with ``p`` placed too (last), the same licences and operators."""
        return Audit(self.scenario, [*self.placed, p], self.licenses, self.operators)

    def covers(self, t: Tournament) -> bool:
        """Whether the schedule is expected to hold ``t`` (for rules about what is missing)."""
        return self.operators is None or bool(self.operators & set(t.operators))

    def of_operator(self, op: Operator) -> list[Occurrence]:
        """The occurrences ``op`` holds (alone or shared), in the order of ``placed``."""
        return self._by_operator.get(op.id, [])

    @cached_property
    def _by_operator(self) -> dict[str, list[Occurrence]]:
        out: dict[str, list[Occurrence]] = {}
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
    note: bool = False
    """A note, not a violation: what the rule could not judge (``tourney check --ledger``: a
    figure it needs was not recorded). Notes are printed, never counted: they do not make
    the check fail."""

    def render(self) -> str:
        return f"{cite(self.rule)}: {self.message}"

    def render_line(self) -> str:
        """One line for `tourney check`: rule and citation, operator, occurrence, dates,
        the sentence."""
        refs = ",".join(self.refs)
        return f"{cite(self.rule)} | {self.operator_id} | {refs} | {self.dates} | {self.message}"


@dataclass(frozen=True)
class Actual:
    """One occurrence as held at one operator (``tourney record held``), with what the
    ledger records about it. Amounts in USD (None when not recorded); days inclusive."""

    tournament_id: str
    occurrence: int
    operator_id: str
    jurisdiction: str
    """``MT`` or ``ME``."""
    type: str
    """The tournament type as in schedule.csv (``large-stakes``, ``super-cribbage``, ...)."""
    charitable: bool
    first_day: dt.date
    last_day: dt.date
    entry_fees_usd: Decimal | None = None
    prizes_usd: Decimal | None = None
    charity_usd: Decimal | None = None
    notice_filed_on: dt.date | None = None
    """MT-NOTICE: the day the notice of this occurrence was filed (None: none recorded)."""
    entry: int | None = None
    """The ledger entry id (``held`` table) this was read from."""
    players: int | None = None
    """Unique persons who played (ME-PLAYER-CAP, the licence tier of ME-FEES, the one entry
    per person of ME-ENTRY-CAP; MT-ENTRY-CAP and MT-SMALL-ENTRY per participant)."""
    entries: int | None = None
    """Entries sold, re-entries included (ME-ENTRY-CAP: one per person, $100 each)."""
    surcharge_usd: Decimal | None = None
    """ME-ENTRY-CAP: the licence-fee surcharge collected from all players together."""
    charity_to: str | None = None
    """The charity paid, by name (ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A)(F))."""
    charity_is_licensee: bool | None = None
    """Whether the charity paid is the licensee itself (ME-SUPER-CRIBBAGE: it may not be)."""
    under_21_admitted: bool | None = None
    """ME-CRIBBAGE-REG, § 1836(4-B): whether patrons under 21 were admitted."""
    away_from_establishment: bool | None = None
    """ME-CRIBBAGE-REG, § 1836(4-B): whether it was held away from the licensed
    establishment."""
    licence_id: str = ""
    """The plan's licence that covers it (licenses.csv ``license_id``; empty: none)."""
    licence_tier: str | None = None
    """ME-FEES: that licence's player tier (``51-100``; None: no tier)."""
    licence_first_day: dt.date | None = None
    """ME-APPLICATION-WINDOW: the first day that licence covers (its ``valid_from``)."""
    application_received_on: dt.date | None = None
    """ME-APPLICATION-WINDOW: the day that licence's application was received (None: no
    application recorded)."""
    licence_bought: bool = False
    """Whether the ledger records that licence bought (``tourney record licence``): an
    application was made, on a day not recorded when ``application_received_on`` is None."""

    @property
    def ref(self) -> str:
        return f"{self.tournament_id}#{self.occurrence}"

    @property
    def dates(self) -> str:
        """Its days as a violation shows them: ``first`` or ``first..last``."""
        return day_span(self.first_day, self.last_day)


@dataclass(frozen=True)
class ReportOwed:
    """ME-REPORT, 16-633 CMR ch. 32 § 8: one disposition-of-funds report a Maine licence owes
    for the licensed period ending ``period_end``, due ``due``; ``filed_on`` the day the
    ledger records it filed (None: not filed)."""

    license_id: str
    operator_id: str
    period_end: dt.date
    due: dt.date
    filed_on: dt.date | None = None


@dataclass
class Actuals:
    """What was held and reported, to audit (``tourney check --ledger``): the scenario (its
    operators' permit years), the occurrences held, the reports owed, and the day of the audit
    ``as_of`` (a report not filed is late only once its due day is before it; default
    today in the Montana and Maine zones, the earlier of the two days,
    :func:`scheduler.core.clock.today_in`)."""

    scenario: Scenario
    held: list[Actual]
    reports: list[ReportOwed] = field(default_factory=list)
    as_of: dt.date = field(default_factory=lambda: min(
        today_in(z) for z in DEFAULT_TIMEZONE.values()))
    ledger_covers: frozenset[str] = frozenset()
    """The operators whose time before ``horizon.start`` the ledger records: a Montana one
    whose permit year containing ``horizon.start`` an adopted plan reaches into before it
    (MT-LARGE-LIMIT), a Maine one with a game of an adopted plan before it counted in its
    calendar month (ME-MONTHLY-LIMIT). The ledger is the record of those days; for the other
    operators the scenario's ``held_in_current_permit_year`` / ``held_in_current_month``
    (held before the ledger began) is added to that permit year or month, as ``tourney
    solve --ledger`` does."""
    notes: list[Violation] = field(default_factory=list)
    """What the rules could not judge (:attr:`Violation.note`), filled by
    ``scheduler.ledger.audit.audit_actuals``."""


Validate = Callable[["Scenario"], Iterable["TermProblem"]]
Allows = Callable[["Scenario", "Tournament", "Timing"], bool]
AllowsDay = Callable[["Scenario", "Tournament", dt.date], bool]
AllowsDays = Callable[["Scenario", "Tournament", Sequence[dt.date]], list[bool]]
AllowsMany = Callable[["Scenario", "Tournament", Sequence["Timing"]], list[bool]]
Encode = Callable[["ModelContext"], None]
Check = Callable[[Audit], Iterable[Violation]]
Added = Callable[[Audit, Occurrence], Iterable[Violation]]
CheckActuals = Callable[[Actuals], Iterable[Violation]]


@dataclass(frozen=True)
class Certificate:
    """A counting argument that some ``required`` occurrences cannot all be placed: more
    required than one rule's limit allows in a period (e.g. 800 small-stakes tournaments at
    most one a day in 731 days, MT-SMALL-DAILY). Claimed only when the arithmetic proves it.
    """

    rule: str
    """The rule ID of the limit (e.g. ``MT-SMALL-DAILY``)."""
    operator_id: str
    """Whose limit it is: the conflict holds that operator's constraints of ``rule``."""
    tournaments: tuple[str, ...]
    """The tournaments whose ``required`` occurrences are counted (ids, sorted)."""
    excluded: tuple[tuple[str, str], ...]
    """(tournament id, rule ID) exclusions of first days the count relies on: the days or
    periods other rules (WINDOW, MT-NOTICE, ...) take away; empty when the count holds over
    the whole horizon."""
    text: str
    """The argument in words, with its numbers and the rule ID."""


Certify = Callable[[ModelContext, frozenset[str]], Iterable[Certificate]]


@dataclass(frozen=True)
class Usage:
    """How much of one counted limit one operator uses in one period (a row of
    ``Plan.usage``): e.g. 16 counted large-stakes tournaments of 16 in a permit year
    (MT-LARGE-LIMIT), 2 games of 2 in a month (ME-MONTHLY-LIMIT)."""

    rule: str
    """The rule ID of the limit (e.g. ``MT-LARGE-LIMIT``)."""
    operator_id: str
    """Whose limit it is; ``"(statewide)"`` for a statewide one (ME-SUPER-CRIBBAGE)."""
    period: str
    """The period as the summary and the charts name it: a permit year's first day
    ``YYYY-MM-DD``, a month ``YYYY-MM``, a calendar year ``YYYY``."""
    period_start: dt.date
    period_end: dt.date
    """Inclusive."""
    used: int
    """Counted in the period (held or issued before the plan included)."""
    limit: int
    """The most the rule allows in the period."""
    charitable: int = 0
    """How many of ``used`` are charitable (MT-LARGE-LIMIT: counted beyond the first 3;
    MT-CHARITY-LIMIT: the ones not counted); 0 for other rules."""
    held: int = 0
    """How many of ``used`` were held (or issued) before the plan; ``used - held`` are
    planned."""

    @property
    def held_split(self) -> str:
        """``"; 12 held before the plan + 4 planned"``, or ``""`` when nothing was held: what
        the period had used before the plan (``held_in_current_permit_year``, the ledger's
        history, licences issued) apart from what the plan adds."""
        if not self.held:  # all planned: nothing to tell apart
            return ""
        return f"; {self.held} held before the plan + {self.used - self.held} planned"


STATEWIDE = "(statewide)"
"""The :attr:`Usage.operator_id` of a statewide limit (ME-SUPER-CRIBBAGE); never an id."""

UsageOf = Callable[[Audit], Iterable[Usage]]
"""A counted limit's :class:`Usage` records for a schedule: every operator and period it
reports, in operator (scenario) and period order."""
UsageLines = Callable[[Sequence[Usage]], Iterable[tuple[dt.date, str]]]
"""A counted limit's lines of the summary for one operator: given that operator's
:class:`Usage` records of the rule (period order), each line (no indent) with the day it
sorts by (its period's first day); none to print nothing."""


@dataclass(frozen=True)
class UsageText:
    """How the summary (``scheduler.export.summary``) and the usage charts
    (``scheduler.export.figures.plot_usage``) word a counted limit's :class:`Usage` records;
    a rule with ``usage`` and no ``usage_text`` gets the defaults (a line ``RULE period:
    used/limit`` per record, a chart titled with its ID and limit)."""

    chart_title: str
    """The title of its chart panel (e.g. ``ME-MONTHLY-LIMIT: Maine games per month (limit
    2)``)."""
    summary: UsageLines | None = None
    """Its summary lines (default: one ``RULE period: used/limit`` line per record)."""
    period_label: str = "{}"
    """An x label of its chart, ``{}`` standing for :attr:`Usage.period`."""
    hatch_label: str | None = None
    """With a label: the chart hatches :attr:`Usage.charitable` of each bar, at its top, and
    the legend says this (MT-LARGE-LIMIT: the charitable ones counted)."""
    chart_omits_unused: bool = False
    """An operator whose records of the rule all have ``used`` 0 gets no bar."""


Checklist = Callable[["Scenario", "Tournament"], "str | None"]
"""A *list*-kind rule's obligation for one tournament: one sentence ending with ``(RULE-ID,
citation).``, or None when the rule does not apply to it."""


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
    allows_days: AllowsDays | None = None
    """``allows_day`` over many days at once: one answer per day, in order, the same as
    ``allows_day`` gives each (the model judges a tournament's whole horizon with it when
    listing the days rules reject, ``ModelContext.rejected``)."""
    allows_many: AllowsMany | None = None
    """``allows`` over many timings of one tournament at once: one answer per timing, in
    order, the same as ``allows`` gives each (the model judges a tournament's candidate days
    with it, :func:`scheduler.engine.model.build_domain`)."""
    added: Added | None = None
    """``check`` of a schedule with one occurrence more, read incrementally:
    ``added(base, p)`` gives the violations of ``check(base.with_one(p))`` in the groups
    ``p`` joins (its tournament, operator, day, month...), in ``check``'s order; the others
    are those ``check(base)`` gives already. So ``[v for v in added(base, p) if v not in
    check(base)]`` equals ``[v for v in check(base.with_one(p)) if v not in check(base)]``
    (violations compared by rule and message), at the cost of ``p``'s groups only, whatever
    the size of ``base`` (what ``base`` gives is built once, :meth:`Audit.memo`). The
    reasons of what was not placed (``scheduler.engine.reasons``) try every allowed first day
    this way. None: the full ``check`` of the schedule with ``p`` is read."""
    actuals: CheckActuals | None = None
    """The rule read against what was actually held (:class:`Actuals`), in plain Python."""
    certificate: Certify | None = None
    """Counting arguments over the explain-mode model (every day a candidate, ``rejected``
    telling the excluded days) for the tournaments given whose ``required`` occurrences
    cannot all fit under this rule (see :class:`Certificate`)."""
    checklist: Checklist | None = None
    """A *list*-kind rule (an obligation the scheduler cannot enforce): its sentence for a
    tournament it applies to, printed with each event (:func:`duty`)."""
    usage: UsageOf | None = None
    """A counted limit: how much of it a schedule uses per operator and period, from the
    rule's own tally (:class:`Usage`; read by ``scheduler.result.usage.limit_usage``)."""
    usage_text: UsageText | None = None
    """How the summary and the charts word its ``usage`` (default: :class:`UsageText`'s)."""
    counts: Callable[[Tournament], bool] | None = None
    """A limit two tournaments compete for (a tournament left out under it may have given
    way to another it counts): whether an occurrence of a tournament counts toward it (read
    by ``scheduler.export.summary.displaced``)."""

    info: RuleInfo | None = None
    """A plug-in jurisdiction's rule: its own row of the catalogue (its ``Jurisdiction``'s
    ``catalogue`` lists it, and registering the jurisdiction adds it); a bundled rule's row is
    in :mod:`constraints.catalogue`."""

    def __post_init__(self) -> None:
        if self.id not in RULES and (self.info is None or self.info.id != self.id):
            raise KeyError(f"rule {self.id} is not in the catalogue")

    @property
    def citation(self) -> str:
        return RULES[self.id].citation


def share_pct(part: Decimal | int, whole: Decimal | int) -> Decimal:
    """``part`` as a percentage of ``whole`` (USD amounts, ``whole`` > 0), to the cent,
    rounded down: the one reading every printed share uses, so that a share 1 cent short of
    a threshold never reads as the threshold ($7,499.99 of $10,000 is 74.99, not 75.00).
    Raises ZeroDivisionError (decimal.DivisionByZero) for ``whole`` 0."""
    return (Decimal(part) * 100 / Decimal(whole)).quantize(Decimal("0.01"), ROUND_DOWN)


def share_text(part: Decimal | int, whole: Decimal | int) -> str:
    """``74.99 %``: :func:`share_pct` as every message and page prints a share."""
    return f"{share_pct(part, whole)} %"


def unrecorded(rule: str, x: Actual, missing: Sequence[str], what: str) -> Violation:
    """The note (:attr:`Violation.note`) that ``rule`` could not judge ``what`` of the
    occurrence held ``x``: the figures ``missing`` (each ``words (--option)`` of ``tourney
    record held``) were not recorded."""
    figures = (", ".join(missing[:-1]) + " and " + missing[-1]) if len(missing) > 1 \
        else missing[0]
    return Violation(rule, x.operator_id, (x.ref,), x.dates,
                     f"{x.ref} at {x.operator_id}: {what} not judged: {figures} not recorded "
                     "(tourney record held)", note=True)


def per_person_over(x: Actual, cap: Decimal, per: int, who: str, rule: str,
                    what: str) -> Violation | None:
    """The violation of ``rule`` when the entry fees ``x`` took exceed ``cap`` (USD) times
    ``per`` persons or entries (``who``: ``players``, ``entries``): then at least one of them
    paid more than ``cap`` (their average does). None when within: ``fees <= cap * per``,
    exactly, in cents."""
    fees = x.entry_fees_usd
    assert fees is not None
    if fees <= cap * per:
        return None
    avg = (f"{usd((fees / per).quantize(Decimal('0.01'), ROUND_UP))} each on average, so at "
           f"least one paid more" if per else "and none was recorded")
    return Violation(rule, x.operator_id, (x.ref,), x.dates,
                     f"{x.ref} took {usd(fees)} in entry fees from {per} {who}: {avg}; {what}")


def usd(x: Decimal | int | float) -> str:
    """``$1,875`` style money text."""
    d = Decimal(x)
    return f"${d:,.0f}" if d == d.to_integral_value() else f"${d:,.2f}"


def day_span(first: dt.date, last: dt.date) -> str:
    """``2027-06-30`` for one day, ``2027-06-30..2027-07-02`` for several (inclusive)."""
    return first.isoformat() if first == last else f"{first}..{last}"


def counted_sum(values: list[int]) -> str:
    """How a certificate's required total is made up: ``4 × 200`` when equal, else
    ``200 + 150`` (at most 6 terms), else ``7 tournaments``."""
    if len(set(values)) == 1:
        return f"{len(values)} × {values[0]}" if len(values) > 1 else str(values[0])
    return " + ".join(map(str, values)) if len(values) <= 6 else f"{len(values)} tournaments"
@lru_cache(maxsize=4096)
def day_text(d: dt.date) -> str:
    """``Fri 2027-06-04``: a day as the calendars' and checklists' texts show it (made once
    per day: the calendars say some days thousands of times)."""
    return f"{d:%a} {d.isoformat()}"


def duty(rule_id: str, sentence: str,
         applies: Callable[[Scenario, Tournament], bool]) -> Checklist:
    """The :attr:`Rule.checklist` of the *list*-kind rule ``rule_id``: ``sentence`` (no final
    full stop) with ``(RULE-ID, citation).`` for every tournament ``applies`` to, else None.
    Raises AssertionError when ``rule_id`` is not a *list*-kind rule of the catalogue."""
    assert RULES[rule_id].kind == "list", rule_id
    text = f"{sentence} ({cite(rule_id)})."

    def checklist(scenario: Scenario, tournament: Tournament) -> str | None:
        return text if applies(scenario, tournament) else None

    return checklist


def licence_row_violation(rule: str, lic: License, message: str,
                          refs: tuple[str, ...] | None = None) -> Violation:
    """A violation of ``rule`` (MT-PERMIT-FEES or ME-FEES) about one licenses.csv row: its
    operator, the occurrences it lists (or ``refs``), its validity as the dates, and
    ``message`` after the licence id."""
    return Violation(rule, lic.operator_id, lic.covers if refs is None else refs,
                     day_span(lic.valid_from, lic.valid_to),
                     f"licence {lic.license_id}: {message}")
