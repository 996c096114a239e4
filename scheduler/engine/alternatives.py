"""Alternative plans: the best plan and the next best ones that differ from it in first days.

:func:`alternatives` is what :func:`scheduler.engine.solver.solve_alternatives` runs; each part's
own alternatives come from :func:`part_alternatives`, one lexicographic solve
(:func:`scheduler.engine.parts.solve_part`) per plan with the earlier plans' first days excluded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace

from ortools.sat.python import cp_model

from constraints.modelling import ModelContext
from scheduler.core.scenario import Scenario
from scheduler.engine.cpsat import Options
from scheduler.engine.decompose import components, merge, split_previous
from scheduler.engine.objective import SolverError, weighted
from scheduler.engine.parts import Progress, firsts, progress_of, solve_in_pool, solve_part
from scheduler.inputs.replan.previous import PublishedOccurrence
from scheduler.result.plan import Plan
from scheduler.result.publishing import identify

__all__ = ["alternatives", "part_alternatives"]


def alternatives(scenario: Scenario, opts: Options, k: int, min_difference: int,
                 previous: list[PublishedOccurrence] | None, jobs: int = 1,
                 progress: Callable[[Progress], None] | None = None) -> list[Plan]:
    """Up to ``k`` plans of the scenario, best first (see :func:`part_alternatives`), each
    identified (:func:`scheduler.result.publishing.identify`) with ``previous``.

    With several independent parts, each alternative changes one part: every part's own
    alternatives are found (``jobs`` parts at once), and the k − 1 best single-part changes
    by the merged objective (placed, then fees, then preferred weekdays; then file order)
    give plans 2..k. Two such plans differ in at least ``min_difference`` first days (in the
    part that one of them changes). With ``min_difference`` 1 plan 2 is the true second best;
    beyond that a plan changing two parts at once is not considered. Raises ``ValueError``
    when ``k`` or ``min_difference`` is below 1.
    """
    if k < 1 or min_difference < 1:
        raise ValueError("alternatives and min_difference must be at least 1")
    parts = components(scenario)
    prevs = split_previous(parts, previous)
    if len(parts) == 1:
        return [identify(p, scenario, previous)
                for p in part_alternatives(scenario, opts, previous, k, min_difference)]
    if jobs > 1:
        per_part: list[list[Plan]] = solve_in_pool(
            parts, prevs, opts, jobs, progress, task=part_alternatives,
            extra=(k, min_difference))
    else:
        per_part = []
        for part, prev in zip(parts, prevs, strict=True):
            per_part.append(part_alternatives(part, opts, prev, k, min_difference))
            if progress is not None:
                progress(progress_of(firsts(per_part), len(parts)))
    first = [alts[0] for alts in per_part]
    best = merge(scenario, first)

    def loss(alt: Plan, base: Plan) -> tuple[int, int, int]:
        o, b = alt.objective, base.objective
        return (b["placed"] - o["placed"], o["fees_usd"] - b["fees_usd"],
                b["preferred"] - o["preferred"])

    changes = sorted((loss(alt, alts[0]), i, alt.rank, alt)
                     for i, alts in enumerate(per_part) for alt in alts[1:])
    plans = [best]
    for _, i, _, alt in changes[:k - 1]:
        plan = merge(scenario, [alt if j == i else one for j, one in enumerate(first)])
        plans.append(replace(plan, rank=len(plans) + 1))
    return [identify(p, scenario, previous) for p in plans]


def part_alternatives(scenario: Scenario, opts: Options, previous: list[PublishedOccurrence] | None,
                      k: int, min_difference: int) -> list[Plan]:
    """Up to ``k`` plans, best first. Each places as many (priority-weighted) occurrences as
    the best plan and differs from every earlier one in the first days of at least
    ``min_difference`` occurrences (a day z[t, d] chosen before and not now counts one);
    among those it is the best by fees, then preferred weekdays, then earliest days."""
    plans: list[Plan] = []
    chosen: list[list[tuple[str, dt.date]]] = []

    def differ(ctx: ModelContext) -> None:
        if plans:  # as many placed as the best plan, no more required ones missing
            best = plans[0]
            ctx.model.add(weighted(ctx.placed_terms) >= best.objective["placed"])
            ctx.model.add(weighted(ctx.required_terms) <= sum(
                u.required for u in best.unscheduled_list))
        for days in chosen:
            ctx.model.add(cp_model.LinearExpr.sum(
                [1 - ctx.z[key] for key in days if key in ctx.z]) >= min_difference)

    for rank in range(1, k + 1):
        try:
            plan = solve_part(scenario, opts, previous, extra=differ)
        except SolverError:
            if not plans:
                raise
            break  # no further plan differs enough (infeasible) or none found in time
        plan = replace(plan, rank=rank)
        plans.append(plan)
        if plan.interrupted:
            break
        chosen.append(sorted({(r.tournament_id, r.first_day) for r in plan.rows}))
    return plans
