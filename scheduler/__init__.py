"""tourney's Python API: plan a year of licensed card-game tournaments.

    from scheduler import load_scenario, solve, summary_text, write_plan
    plan = solve(load_scenario("data/examples/combined.yaml"), seed=0)
    print(summary_text(plan)); write_plan(plan, "plan")

Names are imported lazily, so that ``import scheduler`` (and ``tourney --help``) does not
load the solver.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "load_scenario": "scheduler.load",
    "validate_scenario": "scheduler.load",
    "Scenario": "scheduler.scenario",
    "ScenarioError": "scheduler.scenario",
    "Settings": "scheduler.scenario",
    "solve": "scheduler.solver",
    "solve_alternatives": "scheduler.solver",
    "SolverError": "scheduler.solver",
    "AuditError": "scheduler.solver",
    "Plan": "scheduler.plan",
    "PlanStatus": "scheduler.plan",
    "write_plan": "scheduler.export.write",
    "to_ics": "scheduler.export.write",
    "summary_text": "scheduler.export.summary",
    "plot_calendar": "scheduler.export.figures",
    "plot_usage": "scheduler.export.figures",
    "plot_fees": "scheduler.export.figures",
    "read_schedule": "scheduler.check",
    "audit": "scheduler.check",
    "minimal_conflicts": "scheduler.explain",
    "compare": "scheduler.comparison",
    "Comparison": "scheduler.comparison",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'scheduler' has no attribute {name!r}")
