"""The objective's first search (scheduler.engine.objective): stages 1 (placed, COUNT,
REQUIRED) and 2 (fees, MT-PERMIT-FEES) in one CP-SAT search, ``W · stage1 − fees`` with ``W``
one more than the fees' span, keeps the order placed > fees exactly: the same optima as two
searches one after the other, also where one more occurrence costs more fees."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from ortools.sat.python import cp_model

from scheduler.core.timing import made_as_of
from scheduler.engine.cpsat import Options
from scheduler.engine.decompose import components
from scheduler.engine.model import build_model
from scheduler.engine.objective import FUSED, add_terms, fee_span, lexicographic, weighted
from scheduler.engine.parts import solve_part
from scheduler.inputs.load import load_scenario
from scheduler.studies.generate import generate_data

from builders.scenarios import firsts, load, mt_large, mt_room, run

# One room, Tue 2027-06-29 .. Thu 2027-07-01: two days in the permit year from 2026-07-01
# (Jun 29, 30) and one in the permit year from 2027-07-01 (Jul 1); each large-stakes permit
# is $120 (MT-PERMIT-FEES).
ACROSS_JULY_1 = {"horizon": {"start": "2027-06-01", "end": "2027-07-31"},
                 "notice_from": "2027-06-01", "operators": [mt_room("a")]}


def across(count: int, start: str, end: str) -> Any:
    return load(**ACROSS_JULY_1, tournaments=[mt_large(
        "open", ("a",), count=count, window={"start": start, "end": end})])


def test_one_more_occurrence_is_placed_though_it_needs_a_second_permit() -> None:
    # Jun 30 and Jul 1 only: 2 placed need both permit years' permits, 2 × 120 = $240; 1
    # placed needs one, $120. Fused: W = 240 + 1 = 241; 2 placed is worth 241 · 2 − 240 =
    # 242, 1 placed 241 · 1 − 120 = 121: both are placed, at $240.
    plan = run(across(2, "2027-06-30", "2027-07-01"))
    assert firsts(plan) == [dt.date(2027, 6, 30), dt.date(2027, 7, 1)]
    assert plan.objective["placed"] == 2 and plan.objective["fees_usd"] == 240
    assert plan.bound["placed"] == 2.0 and plan.bound["fees_usd"] == 240.0


def test_among_the_most_placed_the_cheapest_days_are_taken() -> None:
    # Jun 29 .. Jul 1, 2 wanted: Jun 29 + Jun 30 share the 2026-07-01 permit ($120); any
    # pair with Jul 1 pays 120 + 120 = $240. Placed 2, fees $120, the earliest such pair.
    plan = run(across(2, "2027-06-29", "2027-07-01"))
    assert firsts(plan) == [dt.date(2027, 6, 29), dt.date(2027, 6, 30)]
    assert plan.objective["placed"] == 2 and plan.objective["fees_usd"] == 120
    assert plan.bound["fees_usd"] == 120.0


def test_the_fees_span_is_every_fee_at_most() -> None:
    # two large-stakes permits can be bought (permit years from 2026-07-01 and 2027-07-01),
    # $120 each: the fees lie in [0, 120 + 120] = [0, 240]
    ctx = build_model(across(2, "2027-06-30", "2027-07-01"))
    add_terms(ctx)
    assert sorted(w for _, w in ctx.fee_terms) == [120, 120]
    assert fee_span(ctx) == (0, 240)


def test_progress_names_two_searches() -> None:
    began: list[str] = []
    solve_part(across(2, "2027-06-30", "2027-07-01"), Options(seed=0), on_stage=began.append)
    assert began == [FUSED, "preferred"] == ["placed and fees_usd", "preferred"]


def test_a_search_stopped_in_the_preferred_stage_keeps_placed_and_fees() -> None:
    # stopped as the preferred-weekday stage begins: the plan is the first search's, FEASIBLE,
    # interrupted, with both of its values; the preferred bound is the trivial one (0 here:
    # no tournament prefers a weekday)
    began: list[str] = []
    plan = solve_part(across(2, "2027-06-30", "2027-07-01"), Options(seed=0),
                      on_stage=began.append, stop=lambda: "preferred" in began)
    assert began == [FUSED, "preferred"]
    assert plan.interrupted and plan.status == "FEASIBLE"
    assert plan.objective["placed"] == 2 and plan.objective["fees_usd"] == 240


def _two_searches(ctx: Any) -> tuple[int, int, int]:
    """The stages as two searches one after the other (stage 1, then fees with stage 1
    kept), then stage 3, each by CP-SAT with its own default settings (repeated presolve,
    cuts, probing, symmetry detection; one worker) but for the LP of every constraint
    (``linearization_level`` 2; at CP-SAT's 1 a fee search runs for minutes): the values the
    fused search with tourney's settings (scheduler.engine.cpsat.new_solver) must
    reproduce."""
    m = ctx.model
    placed, short = weighted(ctx.placed_terms), weighted(ctx.required_terms)
    fees, prefs = weighted(ctx.fee_terms), weighted(ctx.preference_terms)
    start = ctx.scenario.horizon.start
    offsets = weighted([(v, (day - start).days) for (_, day), v in ctx.z.items()])
    weight = sum((day - start).days for _, day in ctx.z) + 1
    stage1 = placed - (sum(w for _, w in ctx.placed_terms) + 1) * short
    values = []
    for objective, maximize in ((stage1, True), (fees, False),
                                (prefs * weight - offsets, True)):
        m.maximize(objective) if maximize else m.minimize(objective)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.linearization_level = 2
        assert solver.solve(m) == cp_model.OPTIMAL
        value = round(solver.objective_value)
        m.add(objective >= value) if maximize else m.add(objective <= value)
        values.append(value)
    return values[0], values[1], values[2]


def _fused(ctx: Any) -> tuple[int, int, int]:
    out = lexicographic(ctx, Options(seed=0))
    assert out.proven and out.best is not None
    b = out.best
    start = ctx.scenario.horizon.start
    weight = sum((day - start).days for _, day in ctx.z) + 1
    stage1 = (b.value(weighted(ctx.placed_terms))
              - (sum(w for _, w in ctx.placed_terms) + 1) * b.value(weighted(ctx.required_terms)))
    offsets = sum(b.value(v) * (day - start).days for (_, day), v in ctx.z.items())
    return int(stage1), out.objective["fees_usd"], out.objective["preferred"] * weight - offsets


@pytest.mark.parametrize("operators", [10, 50])
def test_every_stage_optimum_equals_two_searches_on_generated_scenarios(operators: int) -> None:
    sc = made_as_of(load_scenario(generate_data(operators, 7)), dt.date(2026, 12, 1))
    for part in components(sc):
        apart, together = build_model(part), build_model(part)
        add_terms(apart)
        add_terms(together)
        assert _fused(together) == _two_searches(apart), [o.id for o in part.operators]
