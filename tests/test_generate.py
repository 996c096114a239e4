"""`tourney generate` and scheduler.studies.generate: determinism, the mix of operators, the shape
of
the requests, valid files, contention by construction, and the CLI's exit codes."""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from scheduler.cli import app
from scheduler.core.scenario import Scenario
from scheduler.inputs.load import load_scenario
from scheduler.studies.generate import generate, generate_data, operator_counts, scenario_text

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

_spec = importlib.util.spec_from_file_location("bench_instances",
                                               ROOT / "benchmarks" / "instances.py")
assert _spec is not None and _spec.loader is not None
instances = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instances)

N10_SHA256 = "5cec6b3d24015818df45baacd6ae80c0af2962fce6cbce6fb34dfd10a35a4d43"
"""sha256 of ``scenario_text(10, 2027)``. It changes only when the generator (bump
GENERATOR_VERSION with it) or the YAML writing of Scenario.to_yaml() changes."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ----------------------------------------------------------------------------- determinism
def test_same_seed_same_text() -> None:
    assert scenario_text(10, 5) == scenario_text(10, 5)
    assert generate(10, 5) == generate(10, 5)


def test_different_seed_different_text() -> None:
    assert scenario_text(10, 5) != scenario_text(10, 6)
    assert generate(10, 5).operators != generate(10, 6).operators


def test_benchmark_n10_hash_is_pinned() -> None:
    assert (10, 2027) in instances.INSTANCES
    assert _sha(scenario_text(10, 2027)) == N10_SHA256


def test_text_does_not_depend_on_pythonhashseed() -> None:
    """Set or dict iteration order must not leak into the file: two processes with different
    hash seeds write the same bytes."""
    code = ("import hashlib; from scheduler.studies.generate import scenario_text; "
            "print(hashlib.sha256(scenario_text(10, 2027).encode()).hexdigest())")
    out = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": h}
                          ).stdout.strip() for h in ("1", "2")}
    assert out == {N10_SHA256}


# ----------------------------------------------------------------------------- who
@pytest.mark.parametrize(("n", "expected"), [
    # maine = (3 N + 5) // 10; clubs = ceil(maine / 10); restaurants = maine // 6
    (1, {"montana": 1, "maine": 0, "cribbage_clubs": 0, "restaurants": 0,
         "organizations": 0}),                      # (3 + 5) // 10 = 0
    (5, {"montana": 3, "maine": 2, "cribbage_clubs": 1, "restaurants": 0,
         "organizations": 1}),                      # 1.5 rounds up: (15 + 5) // 10 = 2
    (10, {"montana": 7, "maine": 3, "cribbage_clubs": 1, "restaurants": 0,
          "organizations": 2}),                     # round(0.3 x 10) = 3; ceil(0.3) = 1
    (1000, {"montana": 700, "maine": 300, "cribbage_clubs": 30, "restaurants": 50,
            "organizations": 220}),                 # 300 - 30 - 50 = 220
])
def test_operator_counts_by_hand(n: int, expected: dict[str, int]) -> None:
    assert operator_counts(n) == expected


def test_n10_operator_kinds_match_the_counts() -> None:
    sc = generate(10, 2027)
    mt = [o for o in sc.operators if o.jurisdiction == "MT"]
    me = [o for o in sc.operators if o.jurisdiction == "ME"]
    assert (len(mt), len(me)) == (7, 3)
    super_holders = {o for t in sc.tournaments if t.type == "super-cribbage" for o in t.operators}
    game_holders = {o for t in sc.tournaments if t.type == "tournament-game" for o in t.operators}
    assert len(super_holders) == 1 and len(game_holders) == 2      # 1 club, 2 organizations
    assert not any(o.licensed_establishment for o in me)            # 3 // 6 = 0 restaurants
    assert [o.id for o in sc.operators] == [f"mt-{i:04d}" for i in range(1, 8)] + \
        [f"me-{i:04d}" for i in range(1, 4)]


def test_n200_has_every_kind_of_operator_and_request() -> None:
    sc = generate(200, 2027)
    # maine = 60: clubs ceil(6.0) = 6, restaurants 60 // 6 = 10, organizations 44
    assert sum(o.licensed_establishment is not None for o in sc.operators) == 10
    assert len({t.operators[0] for t in sc.tournaments if t.type == "super-cribbage"}) == 6
    assert len({t.operators[0] for t in sc.tournaments if t.type == "tournament-game"}) == 44
    assert {t.type for t in sc.tournaments} == {"large-stakes", "small-stakes",
                                                 "tournament-game", "super-cribbage",
                                                 "charitable-cribbage"}
    assert any(o.owns_premises and o.other_games for o in sc.operators)          # beano
    assert any(t.players and t.players > 100 and t.type == "tournament-game"
               for t in sc.tournaments)                                         # owned premises
    assert any(t.fixed_dates for t in sc.tournaments)
    assert any(t.satellite for t in sc.tournaments)


# ----------------------------------------------------------------------------- what
def _own_large(sc: Scenario, oid: str, charitable: bool) -> list:
    return [t for t in sc.tournaments if t.is_large and t.operators == (oid,)
            and t.charitable == charitable]


def test_n10_montana_requests_follow_the_rules() -> None:
    sc = generate(10, 2027)
    year = (dt.date(2027, 1, 1), dt.date(2027, 12, 31))
    for op in (o for o in sc.operators if o.jurisdiction == "MT"):
        large = _own_large(sc, op.id, False)
        assert 18 <= len(large) <= 22                                  # about 20
        assert len(_own_large(sc, op.id, True)) in (3, 4)
        assert sum(t.must_place > 0 for t in large) == 1               # one flagship
        small = [t for t in sc.tournaments if t.is_small and op.id in t.operators]
        assert small[0].count == "all" and len(small[0].weekdays or ()) == 1
        for t in large:
            assert t.window is not None and 1 <= t.days <= 5
            assert 14 <= (t.window.end - t.window.start).days + 1 <= 56  # 2-8 weeks
            assert year[0] <= t.window.start and t.window.end <= year[1]
        h = op.held_in_current_permit_year
        assert 0 <= h.large_stakes <= 10 and 0 <= h.charitable <= 2
    for t in sc.tournaments:
        if len(t.operators) > 1:                                       # tours
            assert 2 <= len(t.operators) <= 4 and t.is_large
            assert all(sc.operator(o).jurisdiction == "MT" for o in t.operators)


def test_n10_maine_organizations_want_two_games_a_month() -> None:
    sc = generate(10, 2027)
    for oid in ("me-0002", "me-0003"):
        series = [t for t in sc.tournaments if t.type == "tournament-game"
                  and t.operators == (oid,) and t.window is None]
        assert sum(int(t.count) for t in series) == 24                 # 12 months x 2


def test_benchmark_n10_has_contention_by_construction() -> None:
    """Some room wants more counted large-stakes tournaments before June 30 than MT-LARGE-LIMIT
    leaves it (16 minus those already held), so the plan must leave some out."""
    sc = generate(10, 2027)
    june30 = dt.date(2027, 6, 30)
    over = []
    for op in (o for o in sc.operators if o.jurisdiction == "MT"):
        wanted = sum(int(t.count) for t in sc.tournaments
                     if t.is_large and not t.charitable and op.id in t.operators
                     and t.window is not None and t.window.end <= june30)
        if op.held_in_current_permit_year.large_stakes + wanted > 16:
            over.append(op.id)
    assert over


# ----------------------------------------------------------------------------- valid files
@given(st.integers(min_value=0, max_value=2**32))
def test_every_generated_n10_file_loads(seed: int) -> None:
    text = scenario_text(10, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.yaml"
        path.write_text(text, encoding="utf-8")
        assert load_scenario(path) == generate(10, seed)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 33])
def test_small_sizes_validate(n: int) -> None:
    assert load_scenario(generate_data(n, 11)) == generate(n, 11)


def test_generate_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="operators must be between 1"):
        generate(0, 1)
    with pytest.raises(ValueError, match="year must be between 2000 and 2100"):
        generate(10, 1, year=1999)


def test_benchmark_n1_solves_to_optimality() -> None:
    from scheduler.engine.solver import solve

    plan = solve(instances.load_instance(1), time_limit=20, seed=0, workers=1)
    assert plan.status == "OPTIMAL" and plan.required_met


def test_instance_path_writes_once(tmp_path: Path) -> None:
    path = instances.instance_path(10, cache_dir=tmp_path)
    assert path.name == "n10-s2027-v1.yaml"
    assert _sha(path.read_text(encoding="utf-8")) == N10_SHA256
    mtime = path.stat().st_mtime_ns
    assert instances.instance_path(10, cache_dir=tmp_path) == path
    assert path.stat().st_mtime_ns == mtime                            # reused, not rewritten
    with pytest.raises(ValueError, match="no benchmark instance with 11 operators"):
        instances.instance_path(11, cache_dir=tmp_path)


# ----------------------------------------------------------------------------- CLI
def test_cli_writes_the_same_bytes_twice(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for out in (a, b, b):  # b twice: a file generate wrote is replaced
        res = runner.invoke(app, ["generate", "--operators", "10", "--seed", "2027",
                                  "--out", str(out)])
        assert res.exit_code == 0, res.output
        assert "10 operators (7 Montana card rooms, 3 Maine)" in res.output
    assert a.read_bytes() == b.read_bytes()
    assert _sha(a.read_text(encoding="utf-8")) == N10_SHA256
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_cli_never_replaces_another_file(tmp_path: Path) -> None:
    # a hand-edited scenario (any file whose first line is not generate's own) is kept
    out = tmp_path / "s.yaml"
    out.write_text("name: mine\n", encoding="utf-8")
    res = runner.invoke(app, ["generate", "-n", "1", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "is not a scenario `tourney generate` wrote" in " ".join(res.output.split())
    assert out.read_text(encoding="utf-8") == "name: mine\n"


def test_cli_refuses_a_missing_folder(tmp_path: Path) -> None:
    out = tmp_path / "new" / "s.yaml"
    res = runner.invoke(app, ["generate", "-n", "1", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "does not exist" in res.output and not out.parent.exists()


def test_cli_replaces_a_file_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "s.yaml"
    assert runner.invoke(app, ["generate", "-n", "2", "--out", str(out)]).exit_code == 0
    assert runner.invoke(app, ["generate", "-n", "1", "--out", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == scenario_text(1, 0)


@pytest.mark.parametrize(("args", "message"), [
    (["--operators", "0"], "operators must be between 1 and 100,000, got 0"),
    (["--operators", "10", "--year", "1900"], "year must be between 2000 and 2100"),
    (["--operators", "10", "--seed", "-1"], "--seed"),
    (["--operators", "ten"], "--operators"),
    ([], "Missing option '--operators'"),
])
def test_cli_bad_arguments_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "s.yaml"
    res = runner.invoke(app, ["generate", *args, "--out", str(out)])
    assert res.exit_code == 2
    assert message in res.output and "Traceback" not in res.output
    assert not out.exists()


def test_cli_out_is_a_folder_exits_2(tmp_path: Path) -> None:
    res = runner.invoke(app, ["generate", "-n", "1", "--out", str(tmp_path)])
    assert res.exit_code == 2
    assert "is a folder; give a file name" in res.output and "Traceback" not in res.output
