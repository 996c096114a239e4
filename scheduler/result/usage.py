"""Limit usage: how much of each counted limit a plan uses, per operator and period.

The one count of limit usage (issue #12): each counted limit's rule says how much of it a
schedule uses (its ``usage`` hook, :attr:`constraints.base.Rule.usage`, read from the
rule's own tally: :func:`constraints.montana.large_tally` for MT-LARGE-LIMIT and
MT-CHARITY-LIMIT, :func:`constraints.maine.counted_months` for ME-MONTHLY-LIMIT, the
licences of a calendar year for ME-SUPER-CRIBBAGE); :func:`limit_usage` runs every rule of
the registry that has one, and :func:`usage_table` is the same as a DataFrame. They are
what :meth:`scheduler.result.plan.Plan.usage`, the summary (:mod:`scheduler.export.summary`), the
charts (:mod:`scheduler.export.figures`) and plan.xlsx's *Limits* sheet read.

It reads a plan through :class:`UsagePlan` (its scenario and rows), so it sits below
:mod:`scheduler.result.plan` and does not import it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol

import pandas as pd

from constraints.base import Audit, Occurrence, Usage
from constraints.registry import RULES
from scheduler.core.memo import LastOf
from scheduler.core.scenario import Scenario
from scheduler.core.timing import read_timing, span_timing


class UsageRow(Protocol):
    """What the count reads of a placed occurrence at one operator
    (:class:`scheduler.result.plan.OperatorOccurrence`)."""

    @property
    def tournament_id(self) -> str: ...
    @property
    def occurrence(self) -> int: ...
    @property
    def start(self) -> dt.datetime: ...
    @property
    def end(self) -> dt.datetime: ...


class UsagePlan(Protocol):
    """What the count reads of a plan (:class:`scheduler.result.plan.Plan`)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def rows(self) -> Sequence[UsageRow]: ...


USAGE_COLUMNS = ["operator_id", "rule_id", "period_start", "period_end", "used", "limit",
                 "charitable", "held"]


def placed(plan: UsagePlan) -> list[Occurrence]:
    """The plan's occurrences as the rules read them (one per occurrence, not per operator,
    in row order), each with its timing read back from its row (a tournament with
    ``sessions``: its sessions, :func:`scheduler.core.timing.read_timing`)."""
    seen: dict[tuple[str, int], Occurrence] = {}
    for r in plan.rows:
        if (r.tournament_id, r.occurrence) not in seen:
            t = plan.scenario.tournament(r.tournament_id)
            seen[(r.tournament_id, r.occurrence)] = Occurrence(
                t, r.occurrence,
                read_timing(plan.scenario, t, r.start, r.end) if t.sessions  # flights
                else span_timing(r.start, r.end))
    return list(seen.values())


def limit_usage(plan: UsagePlan) -> list[Usage]:
    """Every counted limit of ``plan`` per operator and period: the ``usage`` of each rule of
    the registry that has one (:attr:`constraints.base.Rule.usage`), over the plan's
    occurrences (held or issued before the plan included, as each rule counts them).

    Parameters
    ----------
    plan
        A plan (:class:`scheduler.result.plan.Plan`): its scenario and rows.

    Returns
    -------
    list of constraints.base.Usage
        By operator (scenario order; statewide limits, operator ``"(statewide)"``, last),
        then period start, then rule (registry order): today MT-LARGE-LIMIT and
        MT-CHARITY-LIMIT per Montana operator and permit year, ME-MONTHLY-LIMIT per Maine
        operator with a licensed game and month, ME-SUPER-CRIBBAGE per calendar year.
    """
    return list(_COUNTED.get(plan, lambda: tuple(_counted(plan))))


def _counted(plan: UsagePlan) -> list[Usage]:
    audit = Audit(plan.scenario, placed(plan))
    records = [u for rule in RULES if rule.usage is not None for u in rule.usage(audit)]
    order = {op.id: i for i, op in enumerate(plan.scenario.operators)}
    return sorted(records, key=lambda u: (order.get(u.operator_id, len(order)),
                                          u.period_start))


_COUNTED: LastOf[tuple[Usage, ...]] = LastOf()
"""The report's figures and captions ask for the same plan's usage again (issue #27: eight
times)."""


def usage_table(plan: UsagePlan) -> pd.DataFrame:
    """:func:`limit_usage` as a DataFrame, one row per operator, rule and period:
    ``operator_id, rule_id`` (str), ``period_start, period_end`` (datetime64, inclusive),
    ``used, limit, charitable`` (int64; ``charitable``: how many of ``used`` are charitable
    large-stakes tournaments, 0 for Maine rows); ``held``: how many of ``used`` were held
    (or, ME-SUPER-CRIBBAGE, issued) before the plan, so ``used - held`` is planned.

    - ``MT-LARGE-LIMIT`` (16) and ``MT-CHARITY-LIMIT`` (3), MCA 23-5-317(1)(a),(d),(f):
      per MT operator and permit year (MT-PERMIT-YEAR) of the horizon or of a placed
      tournament, counting ``held_in_current_permit_year`` in the current one; a shared
      progressive counts for each venue. As :func:`constraints.montana.large_tally` reads
      them: MT-LARGE-LIMIT ``used`` = the counted ones (non-charitable, plus charitable
      beyond the first 3 of the permit year, ``charitable`` of them); MT-CHARITY-LIMIT
      ``used`` = the charitable ones not counted (at most 3), so free and counted
      charitable tournaments are told apart;
    - ``ME-MONTHLY-LIMIT`` (2), 17 M.R.S. § 1836: per ME operator that holds licensed
      games, every calendar month of the horizon, counted under ``settings.month_rule``;
    - ``ME-SUPER-CRIBBAGE`` (15 licences), § 1836(4-A): statewide (``operator_id``
      ``"(statewide)"``) per calendar year of the horizon, when the scenario has super
      cribbage; ``used`` includes the licences issued outside the plan
      (``settings.super_cribbage_licenses_issued``).

    Parameters
    ----------
    plan
        A plan (:class:`scheduler.result.plan.Plan`): its scenario and rows.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`USAGE_COLUMNS`, one row per operator, rule and period, in the order
        of :func:`limit_usage`.
    """
    records = [{"operator_id": u.operator_id, "rule_id": u.rule,
                "period_start": u.period_start, "period_end": u.period_end, "used": u.used,
                "limit": u.limit, "charitable": u.charitable, "held": u.held}
               for u in limit_usage(plan)]
    df = pd.DataFrame(records, columns=USAGE_COLUMNS)
    for c in ("period_start", "period_end"):
        df[c] = pd.to_datetime(df[c])
    return df.astype({"used": "int64", "limit": "int64", "charitable": "int64",
                      "held": "int64"})
