"""Issue #12, phase B: the scenario types in the core, the loader above the rules.

A scenario built in Python (``Scenario.from_frames``, ``replace``, ``with_*``,
``Scenario.model_validate``) has its fields checked as it is built; the input rules of RULES.md
are the rules' own and run in ``scheduler.inputs.load``: in ``load_scenario`` for a file, and in
``validate_scenario``, which ``solve()`` and the check (``audit``) call first. So a scenario
built in Python never skips a legal input rule.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from constraints.registry import RULES
from scheduler.check.auditing import audit
from scheduler.check.schedule import ReadSchedule
from scheduler.core.problems import ScenarioError
from scheduler.core.scenario import Scenario, parse_scenario
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario, validate_scenario

ROOT = Path(__file__).resolve().parents[1]
POST = {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "1950-01-01",
        "local_approval": True, "beneficiaries": ["Scholarships"]}


def _maine(entry_fee: int) -> dict[str, object]:
    """One Maine tournament game of 40 players in March 2027 with the given entry fee."""
    return {"name": "maine", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2026-12-01", "operators": [POST],
            "tournaments": [{"id": "game", "title": "Game", "type": "tournament-game",
                             "operators": ["post"], "players": 40, "prize_share": 0.8,
                             "entry_fee": entry_fee}]}


@pytest.mark.parametrize("build", ["model_validate", "parse_scenario", "from_frames",
                                   "with_tournament"])
def test_python_built_scenario_over_the_me_entry_cap_is_refused_by_solve(build: str) -> None:
    # ME-ENTRY-CAP, 17 M.R.S. § 1836(4): at most $100 per person. $101 is $1 over: the fields
    # are sound (money up to the product's maximum), so a scenario built in Python holds it;
    # solve() refuses it with the input rule, as load_scenario refuses the file.
    data = _maine(101)
    if build == "model_validate":
        sc = Scenario.model_validate(data)
    elif build == "parse_scenario":
        sc = parse_scenario(data)
    elif build == "from_frames":
        sc = Scenario.from_frames(pd.DataFrame([POST]), pd.DataFrame([{
            "id": "game", "title": "Game", "type": "tournament-game", "operators": "post",
            "players": 40, "prize_share": 0.8, "entry_fee": 101}]), name="maine",
            horizon_start="2027-03-01", horizon_end="2027-03-31", notice_from="2026-12-01")
    else:
        sc = parse_scenario(_maine(100)).with_tournament("game", entry_fee=101)
    assert sc.tournament("game").entry_fee == 101
    with pytest.raises(ScenarioError) as exc:
        solve(sc, seed=0, time_limit=10)
    (p,) = exc.value.problems
    assert (p.path, p.value, p.rule) == ("tournaments[0].entry_fee", 101, "ME-ENTRY-CAP")
    assert ("tournaments[0].entry_fee = 101: the entry fee may not exceed $100 per person "
            "(ME-ENTRY-CAP, 17 M.R.S. § 1836(4))") in str(exc.value)
    # the check refuses it the same way (a schedule audited against a lawless scenario)
    with pytest.raises(ScenarioError, match="ME-ENTRY-CAP"):
        audit(sc, ReadSchedule(placed=[]))


def test_at_the_me_entry_cap_a_python_built_scenario_is_solved() -> None:
    # $100 is the cap itself (17 M.R.S. § 1836(4): "may not exceed"): accepted, and the one
    # game is placed (two games a month allowed, ME-MONTHLY-LIMIT)
    sc = Scenario.model_validate(_maine(100))
    assert validate_scenario(sc) is sc
    plan = solve(sc, seed=0, time_limit=10)
    assert len(plan.schedule) == 1


def test_the_file_is_refused_with_its_line_as_before(tmp_path: Path) -> None:
    # the loader keeps the file and line: entry_fee is on line 12 of the YAML below
    path = tmp_path / "maine.yaml"
    path.write_text("""name: maine
horizon: {start: 2027-03-01, end: 2027-03-31}
notice_from: 2026-12-01
operators:
  - {id: post, name: Post, jurisdiction: ME, organized_on: 1950-01-01,
     local_approval: true, beneficiaries: [Scholarships]}
tournaments:
  - id: game
    title: Game
    type: tournament-game
    operators: [post]
    entry_fee: 101
    players: 40
    prize_share: 0.8
""")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    (p,) = exc.value.problems
    assert (p.path, p.value, p.rule, p.line) == (
        "tournaments[0].entry_fee", 101, "ME-ENTRY-CAP", 12)
    assert f"{path}:12: tournaments[0].entry_fee = 101: the entry fee" in str(exc.value)


def test_the_scenario_types_import_no_rule() -> None:
    # the core layer (docs/architecture.md): importing the types loads neither the rules nor
    # the loader; lint-imports checks the same statically (pyproject.toml)
    code = ("import sys, scheduler.core.scenario; "
            "print(sorted(m for m in sys.modules if m.startswith('constraints.') "
            "or m == 'scheduler.inputs.load'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "['constraints.catalogue']"


# ------------------------------------------------------------------ input rules with a home
def test_every_emitted_input_rule_id_has_its_own_registered_rule() -> None:
    # issue #12, "input rules without a home": every rule ID a module's input checks emit
    # (TermProblem(..., "ID", ...)) is a Rule of that module's RULES with its own validate,
    # so `grep ID constraints/` finds the rule
    for name in ("common", "requests", "tours", "montana", "maine"):
        home = ROOT / "constraints" / name  # maine, montana: a package of modules
        paths = sorted(home.glob("*.py")) if home.is_dir() else [home.with_suffix(".py")]
        emitted = {
            arg.value for path in paths for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "TermProblem"
            for arg in ast.walk(node.args[1])
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
        module = importlib.import_module(f"constraints.{name}")
        homes = {r.id for r in module.RULES if r.validate is not None}
        assert emitted <= homes, f"constraints/{name}.py: {sorted(emitted - homes)}"


def _broken() -> dict[str, object]:
    """A Maine organization breaking every operator rule, one tournament game breaking every
    term of a licensed game, and a super cribbage weekend 8 hours too long."""
    post = {"id": "post", "name": "Post", "jurisdiction": "ME", "organized_on": "2026-01-01"}
    game = {"id": "game", "title": "Game", "type": "tournament-game", "operators": ["post"],
            "players": 151, "entry_fee": 101, "reentries": 1, "prize_share": 0.7,
            "raffles": 2, "high_hand_competitions": 2, "elimination": False,
            "hours": 49, "days": 2}
    crib = {"id": "crib", "title": "Crib", "type": "super-cribbage", "operators": ["post"],
            "players": 40, "prize_share": 0.8, "charity_share": 0.5, "hours": 80}
    return {"name": "maine", "horizon": {"start": "2027-03-01", "end": "2027-03-31"},
            "notice_from": "2026-12-01", "operators": [post], "tournaments": [game, crib]}


def test_each_rule_validates_only_its_own_id() -> None:
    sc = parse_scenario(_broken())
    for rule in RULES:
        if rule.validate is not None:
            assert {p.rule for p in rule.validate(sc)} <= {rule.id}, rule.id


def test_the_problems_come_in_the_order_they_came_before() -> None:
    # one operator, then one tournament game in the order its terms were checked when one
    # validator (ME-DURATION's) emitted them all; then super cribbage. Hand-computed:
    # organized 2026-01-01 is after 2025-03-01 (2 years before the horizon, ME-ELIGIBLE);
    # 151 players > 150 (ME-PLAYER-CAP); $101 > $100 (ME-ENTRY-CAP); 0.7 < 0.75 (ME-PRIZES);
    # 2 raffles > 1 (ME-RAFFLE); 2 high-hand competitions > 1 (ME-HIGH-HAND); 49 h > 48 h and
    # 2 days (ME-DURATION); super cribbage 80 h > 72 h (ME-SUPER-CRIBBAGE)
    with pytest.raises(ScenarioError) as exc:
        load_scenario(_broken())
    assert [(p.rule, p.path) for p in exc.value.problems] == [
        ("ME-LOCAL-APPROVAL", "operators[0].local_approval"),
        ("ME-BENEFICIARY", "operators[0].beneficiaries"),
        ("ME-ELIGIBLE", "operators[0].organized_on"),
        ("ME-ELIMINATION", "tournaments[0].elimination"),
        ("ME-PLAYER-CAP", "tournaments[0].players"),
        ("ME-ENTRY-CAP", "tournaments[0].entry_fee"),
        ("ME-ENTRY-CAP", "tournaments[0].reentries"),
        ("ME-PRIZES", "tournaments[0].prize_share"),
        ("ME-RAFFLE", "tournaments[0].raffles"),
        ("ME-HIGH-HAND", "tournaments[0].high_hand_competitions"),
        ("ME-DURATION", "tournaments[0].hours"),
        ("ME-DURATION", "tournaments[0].days"),
        ("ME-SUPER-CRIBBAGE", "tournaments[1].hours")]
    assert "tournaments[1].hours = 80: a game must be completed within 72 hours of its start " \
           "(ME-SUPER-CRIBBAGE, 17 M.R.S. § 1836(4-A))" in str(exc.value)
