"""Limit usage: how much of each counted limit a plan uses, per operator and period.

The one count of limit usage (issue #12): :func:`limit_usage` (a record per counted limit
and period) and :func:`usage_table` (the same as a DataFrame, every period of the horizon)
are what :meth:`scheduler.plan.Plan.usage`, the summary (:mod:`scheduler.export.summary`),
the charts (:mod:`scheduler.export.figures`) and plan.xlsx's *Limits* sheet read. Montana's
counts come from the rule's own tally (:func:`constraints.montana.large_tally`, which the
model's ``counted`` column and the check read too).

It reads a plan through :class:`UsagePlan` (its scenario and rows), so it sits below
:mod:`scheduler.plan` and does not import it.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import pandas as pd

from constraints.maine import MONTHLY_LIMIT, SUPER_CRIBBAGE_LIMIT
from constraints.montana import CHARITY_LIMIT, LARGE_LIMIT, large_tally
from scheduler.scenario import Scenario
from scheduler.timing import day_span, month_end, next_month


class UsageRow(Protocol):
    """What the count reads of a placed occurrence at one operator
    (:class:`scheduler.plan.OperatorOccurrence`)."""

    @property
    def tournament_id(self) -> str: ...
    @property
    def occurrence(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def charitable(self) -> bool: ...
    @property
    def first_day(self) -> dt.date: ...
    @property
    def end(self) -> dt.datetime: ...
    @property
    def permit_year(self) -> dt.date | None: ...
    @property
    def counted(self) -> bool: ...


class UsagePlan(Protocol):
    """What the count reads of a plan (:class:`scheduler.plan.Plan`)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def rows(self) -> Sequence[UsageRow]: ...
    def rows_of(self, operator_id: str) -> Sequence[UsageRow]: ...


USAGE_COLUMNS = ["operator_id", "rule_id", "period_start", "period_end", "used", "limit",
                 "charitable", "held"]
STATEWIDE = "(statewide)"
"""``Plan.usage`` operator_id of a statewide limit (ME-SUPER-CRIBBAGE); never an id."""


def _usage(operator_id: str, rule: str, start: dt.date, end: dt.date, used: int,
           limit: int, charitable: int = 0, held: int = 0) -> dict[str, object]:
    return {"operator_id": operator_id, "rule_id": rule, "period_start": start,
            "period_end": end, "used": used, "limit": limit, "charitable": charitable,
            "held": held}


def limit_usage(plan: UsagePlan) -> list[dict[str, object]]:
    """Counted limits per operator and period.

    Per Montana operator and permit year, from :func:`constraints.montana.large_tally`
    (tournaments held before the plan included): MT-LARGE-LIMIT ``used`` = counted
    large-stakes tournaments (non-charitable + charitable beyond the first 3) of 16, with
    ``charitable`` = how many of them are charitable; MT-CHARITY-LIMIT ``used`` = charitable
    ones not counted (MCA 23-5-317(1)(f)) of 3. ME-MONTHLY-LIMIT per calendar month (under the
    scenario's ``month_rule``). The one count of limit usage that :func:`usage_table`
    (``Plan.usage``), ``Plan.summary`` and the charts read (``scheduler.export.summary`` and
    ``scheduler.export.figures`` import it as ``usage``).

    Parameters
    ----------
    plan
        A plan (:class:`scheduler.plan.Plan`): its scenario and rows.

    Returns
    -------
    list of dict
        One per counted limit and period, in operator (scenario) order: ``operator_id``,
        ``rule`` (rule ID), ``period`` (a permit year's first day ``YYYY-MM-DD`` for
        Montana, ``YYYY-MM`` for Maine), ``used`` and ``limit`` (counts), ``charitable``
        (Montana rows only), ``held`` (how many of ``used`` were held before the plan:
        ``held_in_current_permit_year`` or the ledger's history as the tally counts it,
        ``LargeTally.held_counted`` / ``held_free``; 0 for Maine months).
    """
    sc = plan.scenario
    out: list[dict[str, object]] = []
    for op in sc.operators:
        rows = plan.rows_of(op.id)
        if op.jurisdiction == "MT":
            items = [(r.first_day, r.tournament_id, r.occurrence, r.charitable)
                     for r in rows if r.type == "large-stakes"]
            years = {r.permit_year for r in rows if r.permit_year}
            for py, tally in large_tally(sc, op, items, years).items():
                out.append(dict(operator_id=op.id, rule="MT-LARGE-LIMIT",
                                period=py.isoformat(), used=tally.counted, limit=LARGE_LIMIT,
                                charitable=tally.charitable_counted, held=tally.held_counted))
                out.append(dict(operator_id=op.id, rule="MT-CHARITY-LIMIT",
                                period=py.isoformat(), used=tally.free_used,
                                limit=CHARITY_LIMIT, charitable=tally.free_used,
                                held=tally.held_free))
        else:
            months: Counter[str] = Counter()
            for r in rows:
                if not r.counted:
                    continue
                if sc.settings.month_rule == "start":
                    keys = {f"{r.first_day:%Y-%m}"}
                else:
                    last = (r.end - dt.timedelta(microseconds=1)).date()
                    keys = {f"{d:%Y-%m}" for d in day_span(r.first_day, last)}
                months.update(keys)
            for ym in sorted(months):
                out.append(dict(operator_id=op.id, rule="ME-MONTHLY-LIMIT", period=ym,
                                used=months[ym], limit=MONTHLY_LIMIT, held=0))
    return out


def usage_table(plan: UsagePlan) -> pd.DataFrame:
    """Each counted limit of ``plan`` per operator and period, one row each: ``operator_id,
    rule_id`` (str), ``period_start, period_end`` (datetime64, inclusive), ``used,
    limit, charitable`` (int64; ``charitable``: how many of ``used`` are charitable
    large-stakes tournaments, 0 for Maine rows); ``held``: how many of ``used`` were held (or,
    ME-SUPER-CRIBBAGE, issued) before the plan, so ``used - held`` is planned.

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
        A plan (:class:`scheduler.plan.Plan`): its scenario and rows.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`USAGE_COLUMNS`, one row per operator, rule and period.
    """
    sc = plan.scenario
    found = {(str(u["operator_id"]), str(u["rule"]), str(u["period"])):
             (int(str(u["used"])), int(str(u["limit"])), int(str(u.get("charitable", 0))),
              int(str(u.get("held", 0))))
             for u in limit_usage(plan)}
    months = []
    first = sc.horizon.start.replace(day=1)
    while first <= sc.horizon.end:
        months.append(first)
        first = next_month(first)
    records: list[dict[str, object]] = []
    for op in sc.operators:
        if op.jurisdiction == "MT":
            for (oid, rule, period), (used, limit, charitable, held) in found.items():
                if oid == op.id:
                    start = dt.date.fromisoformat(period)
                    records.append(_usage(op.id, rule, start, op.permit_year_end(start),
                                          used, limit, charitable, held))
        elif any(t.is_me_licensed_game and op.id in t.operators for t in sc.tournaments):
            counted = {dt.date.fromisoformat(f"{p}-01") for o, _, p in found if o == op.id}
            for start in sorted(set(months) | counted):
                used, *_ = found.get((op.id, "ME-MONTHLY-LIMIT", f"{start:%Y-%m}"),
                                     (0, 0, 0, 0))
                records.append(_usage(op.id, "ME-MONTHLY-LIMIT", start,
                                      month_end(start.year, start.month), used,
                                      MONTHLY_LIMIT))
    if any(t.type == "super-cribbage" for t in sc.tournaments):
        firsts = {(r.tournament_id, r.occurrence): r.first_day for r in plan.rows
                  if r.type == "super-cribbage"}
        for year in range(sc.horizon.start.year, sc.horizon.end.year + 1):
            issued = sc.settings.super_cribbage_licenses_issued.get(year, 0)
            records.append(_usage(
                STATEWIDE, "ME-SUPER-CRIBBAGE", dt.date(year, 1, 1), dt.date(year, 12, 31),
                sum(1 for d in firsts.values() if d.year == year) + issued,
                SUPER_CRIBBAGE_LIMIT, held=issued))
    df = pd.DataFrame(records, columns=USAGE_COLUMNS)
    for c in ("period_start", "period_end"):
        df[c] = pd.to_datetime(df[c])
    return df.astype({"used": "int64", "limit": "int64", "charitable": "int64",
                      "held": "int64"})

