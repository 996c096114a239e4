"""Property tests: random valid scenarios of both states solve to plans that the independent
checker finds legal, with every wanted occurrence either placed or explained by a rule ID.

Profiles (tests/conftest.py): ``ci`` (derandomized; what ``make test`` runs: 12 examples
here, as each solves a scenario), ``default`` (60), and ``long`` (1000) for a local soak:
``HYPOTHESIS_PROFILE=long .venv/bin/pytest tests/test_properties.py``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from constraints.registry import check
from scheduler.engine.extract import audit_of
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario

from builders.strategies import ci_examples, scenarios


@given(scenarios())
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow],
          max_examples=ci_examples(12))
def test_random_scenarios_solve_to_legal_plans(data: dict) -> None:
    sc = load_scenario(data)
    plan = solve(sc, time_limit=10, seed=0, workers=1)
    # the independent checker, run again here on the finished plan: nothing illegal; a pinned
    # date that could not be honoured is exactly an unscheduled required occurrence
    found = check(audit_of(plan))
    assert [v for v in found if v.rule not in ("FIXED-DATES", "REQUIRED")] == []
    assert sorted((v.refs[0], v.dates) for v in found if v.rule == "FIXED-DATES") == sorted(
        (u.tournament_id, u.reason.split()[3]) for u in plan.unscheduled_list
        if u.reason.startswith("its fixed date"))
    placed: dict[str, int] = {}
    for r in plan.rows:
        placed[r.tournament_id] = max(placed.get(r.tournament_id, 0), r.occurrence)
    for t in sc.tournaments:
        missing = [u for u in plan.unscheduled_list if u.tournament_id == t.id]
        assert isinstance(t.count, int)
        # every wanted occurrence is either placed or explained
        assert placed.get(t.id, 0) + len(missing) == t.count
        assert all(u.rule_ids for u in missing)
    # a pinned date that is not honoured is a required occurrence, explained by a conflict
    if not plan.required_met:
        assert plan.conflicts and all(c for c in plan.conflicts)
