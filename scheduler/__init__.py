"""tourney's Python API: plan a year of licensed card-game tournaments.

    from scheduler import load_scenario, solve, summary_text, write_plan
    plan = solve(load_scenario("data/examples/combined.yaml"), seed=0)
    print(summary_text(plan)); write_plan(plan, "plan")

Names are imported lazily, so that ``import scheduler`` (and ``tourney --help``) does not
load the solver.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # start-up time: lazy at run time (__getattr__), typed here for mypy
    from scheduler.check.auditing import audit
    from scheduler.check.read import read_schedule
    from scheduler.core.problems import ScenarioError
    from scheduler.core.scenario import Scenario
    from scheduler.core.scenario_types import Settings
    from scheduler.engine.explain import minimal_conflicts
    from scheduler.engine.objective import SolverError
    from scheduler.engine.parts import AuditError
    from scheduler.engine.solver import solve, solve_alternatives
    from scheduler.export.comparison import Comparison, compare
    from scheduler.export.figures import plot_calendar, plot_fees, plot_usage
    from scheduler.export.summary import summary_text
    from scheduler.export.write import to_ics, write_plan
    from scheduler.inputs.load import load_scenario, validate_scenario
    from scheduler.result.plan import Plan, PlanStatus

_EXPORTS = {
    "load_scenario": "scheduler.inputs.load",
    "validate_scenario": "scheduler.inputs.load",
    "Scenario": "scheduler.core.scenario",
    "ScenarioError": "scheduler.core.problems",
    "Settings": "scheduler.core.scenario_types",
    "solve": "scheduler.engine.solver",
    "solve_alternatives": "scheduler.engine.solver",
    "SolverError": "scheduler.engine.objective",
    "AuditError": "scheduler.engine.parts",
    "Plan": "scheduler.result.plan",
    "PlanStatus": "scheduler.result.plan",
    "write_plan": "scheduler.export.write",
    "to_ics": "scheduler.export.write",
    "summary_text": "scheduler.export.summary",
    "plot_calendar": "scheduler.export.figures",
    "plot_usage": "scheduler.export.figures",
    "plot_fees": "scheduler.export.figures",
    "read_schedule": "scheduler.check.read",
    "audit": "scheduler.check.auditing",
    "minimal_conflicts": "scheduler.engine.explain",
    "compare": "scheduler.export.comparison",
    "Comparison": "scheduler.export.comparison",
}
__all__ = [  # the names of _EXPORTS, sorted (tests/test_api.py holds them equal)
    "AuditError",
    "Comparison",
    "Plan",
    "PlanStatus",
    "Scenario",
    "ScenarioError",
    "Settings",
    "SolverError",
    "audit",
    "compare",
    "load_scenario",
    "minimal_conflicts",
    "plot_calendar",
    "plot_fees",
    "plot_usage",
    "read_schedule",
    "solve",
    "solve_alternatives",
    "summary_text",
    "to_ics",
    "validate_scenario",
    "write_plan",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'scheduler' has no attribute {name!r}")
