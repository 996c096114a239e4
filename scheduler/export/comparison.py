"""Plans side by side: placed occurrences, fees, limit usage, and which occurrences moved.

(The module is ``comparison``, not ``compare``: a submodule named like the function
``scheduler.compare`` would replace it as an attribute of the package once imported.)

What-if studies are a few lines: change the scenario (``Scenario.replace``,
``with_settings``, ``with_tournament``, ``with_operator``), solve each variant, compare::

    from datetime import timedelta
    from scheduler import compare, load_scenario, solve

    sc = load_scenario("data/examples/montana-card-room.yaml")
    earlier = sc.replace(notice_from=sc.notice_from - timedelta(days=14))
    cmp = compare({"now": solve(sc, seed=0), "2 weeks earlier": solve(earlier, seed=0)})
    cmp.totals["placed"].diff().iloc[-1]      # how many more occurrences
    cmp.moved                                 # first days that differ
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import pandas as pd

from scheduler.result.plan import Plan

TOTAL_COLUMNS = ["status", "placed", "not_placed", "required_missing", "fees_usd"]


@dataclass(frozen=True, eq=False)
class Comparison:
    """Plans side by side. In every table but ``totals`` the columns are the plans' names
    (in the order given, column index named ``plan``) and a row missing from a plan counts 0
    (``first_days``/``moved``: NaT, not placed).

    - ``totals``: one row per plan (index ``plan``): ``status`` (str, OPTIMAL/FEASIBLE),
      ``placed`` (distinct occurrences), ``not_placed``, ``required_missing`` (required or
      fixed-date occurrences not placed), ``fees_usd`` (all licences and permits, USD), int64.
    - ``placed``: occurrences held per operator (index ``operator_id``; a shared progressive
      counts at each venue), int64.
    - ``fees``: licence and permit fees per operator (index ``operator_id``), int64 USD.
    - ``fees_by_kind``: the same per licence kind (index ``operator_id, kind``, sorted),
      int64 USD.
    - ``usage``: used counts of each counted limit (index ``operator_id, rule_id,
      period_start, period_end, limit``, sorted: the rows of :meth:`Plan.usage`, rule IDs
      MT-LARGE-LIMIT, MT-CHARITY-LIMIT, ME-MONTHLY-LIMIT, ME-SUPER-CRIBBAGE), int64.
    - ``first_days``: each occurrence's first day (index ``tournament_id, occurrence``;
      occurrences are numbered in date order within each plan), datetime64, NaT when the plan
      does not place it.
    - ``moved``: the rows of ``first_days`` that are not the same in every plan.
    """

    totals: pd.DataFrame
    placed: pd.DataFrame
    fees: pd.DataFrame
    fees_by_kind: pd.DataFrame
    usage: pd.DataFrame
    first_days: pd.DataFrame

    @property
    def moved(self) -> pd.DataFrame:
        return self.first_days[self.first_days.nunique(axis=1, dropna=False) > 1]

    def _repr_html_(self) -> str:
        return (self.totals.to_html(escape=True) +
                f"<p>{len(self.moved)} occurrence(s) not on the same first day in every "
                "plan (<code>.moved</code>)</p>")


def compare(plans: Mapping[str, Plan] | Iterable[Plan]) -> Comparison:
    """Compare plans side by side.

    Parameters
    ----------
    plans
        A mapping ``name -> Plan`` (the names become the columns, in its order) or a
        sequence of plans (named ``plan 1`` ... ``plan n``, e.g. the alternatives of one
        solve).

    Returns
    -------
    Comparison
        Its DataFrames (``totals``, ``placed``, ``fees``, ``fees_by_kind``, ``usage``,
        ``first_days``, ``moved``): counts int64, fees int64 USD, days datetime64 (NaT: not
        placed).

    Raises
    ------
    ValueError
        No plan is given.
    TypeError
        An item is not a :class:`~scheduler.result.plan.Plan`.
    """
    if isinstance(plans, Mapping):
        named = {str(k): v for k, v in plans.items()}
    else:
        named = {f"plan {i}": p for i, p in enumerate(plans, start=1)}
    if not named:
        raise ValueError("compare() needs at least one plan")
    for name, plan in named.items():
        if not isinstance(plan, Plan):
            raise TypeError(f"{name}: expected a Plan, got {type(plan).__name__}")

    totals = pd.DataFrame([{
        "status": p.status,
        "placed": len({(r.tournament_id, r.occurrence) for r in p.rows}),
        "not_placed": len(p.unscheduled_list),
        "required_missing": sum(1 for u in p.unscheduled_list if u.required),
        "fees_usd": p.total_fees_usd,
    } for p in named.values()], index=pd.Index(list(named), name="plan"),
        columns=TOTAL_COLUMNS).astype({c: "int64" for c in TOTAL_COLUMNS[1:]})
    first_days = _side(named, lambda p: p.schedule.drop_duplicates(
        ["tournament_id", "occurrence"]).set_index(["tournament_id", "occurrence"])["first_day"],
        counts=False).sort_index()
    return Comparison(
        totals=totals,
        placed=_side(named, lambda p: p.summary_table().set_index("operator_id")["placed"]),
        fees=_side(named, lambda p: p.summary_table().set_index("operator_id")["fees_usd"]),
        fees_by_kind=_side(named, lambda p: p.fees().set_index(["operator_id", "kind"])[
            "fee_usd"]).sort_index(),
        usage=_side(named, lambda p: p.usage().set_index(
            ["operator_id", "rule_id", "period_start", "period_end", "limit"])["used"]
        ).sort_index(),
        first_days=first_days,
    )


def _side(named: Mapping[str, Plan], column: Callable[[Plan], pd.Series],
          counts: bool = True) -> pd.DataFrame:
    """One column per plan, aligned on the union of the rows (first seen first)."""
    df = pd.concat({n: column(p) for n, p in named.items()}, axis=1, sort=False)
    df.columns.name = "plan"
    return df.fillna(0).astype("int64") if counts else df
