"""benchmarks/mip.py, the native MIP peer (issue #16 part 3): its rows on a tiny instance
computed by hand, and the same optimum per lexicographic stage as the translated MIP
(benchmarks/highs.py) and CP-SAT on every part of the benchmark instances N = 1, 10, 50."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import highs, mip  # noqa: E402
from benchmarks.greedy import objective  # noqa: E402
from constraints.base import Rule  # noqa: E402
from constraints.registry import RULES  # noqa: E402
from scheduler import solve  # noqa: E402
from scheduler.core.scenario import Scenario  # noqa: E402
from scheduler.engine.decompose import components  # noqa: E402
from scheduler.engine.model import build_model  # noqa: E402
from scheduler.inputs.load import load_scenario  # noqa: E402

KEYS = ("placed", "shortfall", "fees_usd", "preferred", "offset_days")


def _game(tid: str, day: str, priority: int) -> dict[str, Any]:
    """A tournament game of ``post`` on exactly ``day``: 80 players (tier 51-100), 12:00 for
    10 h."""
    return {"id": tid, "title": tid, "type": "tournament-game", "operators": ["post"],
            "players": 80, "entry_fee": 100, "prize_share": 0.8, "start_time": "12:00",
            "hours": 10, "priority": priority, "window": {"start": day, "end": day}}


def _three_games_in_june() -> Scenario:
    """One Maine organization, three games on Jun 7, 8 and 9 2027 (priorities 3, 2, 1): at
    most 2 a month (ME-MONTHLY-LIMIT, 17 M.R.S. § 1836(4))."""
    return load_scenario({
        "name": "three games", "horizon": {"start": "2027-01-01", "end": "2027-12-31"},
        "notice_from": "2026-11-01",
        "operators": [{"id": "post", "name": "American Legion Post 1", "jurisdiction": "ME",
                       "local_approval": True, "beneficiaries": ["Veterans Relief Fund"],
                       "organized_on": "1990-01-01"}],
        "tournaments": [_game("g1", "2027-06-07", 3), _game("g2", "2027-06-08", 2),
                        _game("g3", "2027-06-09", 1)]})


class TestTinyByHand:
    def test_rows_and_columns(self) -> None:
        native = mip.formulate(build_model(_three_games_in_june()))
        # 3 start columns, 3 annual 51-100 licences (one per game day; 80 players are not
        # covered by the 1-50 tier), 3 per-tournament licences = 9 columns
        assert len(native.lower) == 9
        # ME-MONTHLY-LIMIT: one row for June (3 games > 2); ME-FEES: 3 "annual bought only on
        # a game day" rows + 3 coverage rows; COUNT: 1 candidate each, count 1: no row
        assert native.rows_by_rule() == {"ME-MONTHLY-LIMIT": 1, "ME-FEES": 6}
        june = next(cols for cols, _, _, rule in native.rows if rule == "ME-MONTHLY-LIMIT")
        assert sorted(june) == sorted(native.z.values()) and list(june.values()) == [1] * 3
        # no big-M anywhere: every coefficient is +1 or -1
        assert {abs(c) for cols, *_ in native.rows for c in cols.values()} == {1.0}

    def test_both_mips_and_cpsat_find_the_hand_optimum(self) -> None:
        sc = _three_games_in_june()
        # 2 of 3 placed: g1 (priority 3) + g2 (priority 2) = 5; nothing required
        # fees: 2 per-tournament licences of 51-100 at $75 = $150 (an annual is $1,500)
        # offsets from Jan 1: Jun 1 is 31+28+31+30+31 = 151 days later, so Jun 7 = 157,
        # Jun 8 = 158: 157 + 158 = 315
        want = {"placed": 5, "shortfall": 0, "fees_usd": 150, "preferred": 0,
                "offset_days": 315}
        for peer in (mip, highs):
            res = peer.solve_part(sc)
            assert res.status == "OPTIMAL"
            assert {k: getattr(res, k) for k in KEYS} == want, peer.__name__
            assert res.days == {"g1": ["2027-06-07"], "g2": ["2027-06-08"]}
        assert _cpsat(sc) == want

    def test_a_rule_without_rows_is_named(self) -> None:
        mip.check_rules()  # every rule the registry encodes has rows
        # MT-PLAY-HOURS is an input rule and a check today; were it encoded in the model, the
        # native MIP would have to say it has no rows for it
        encoded = Rule("MT-PLAY-HOURS", encode=lambda ctx: None)
        with pytest.raises(NotImplementedError, match="MT-PLAY-HOURS"):
            mip.check_rules([r for r in RULES if r.id != "MT-PLAY-HOURS"] + [encoded])


def _cpsat(sc: Scenario) -> dict[str, int]:
    """The product's optimum as the five stage values (placed and shortfall counted by
    ``benchmarks.greedy.objective`` on its first days)."""
    plan = solve(sc, jobs=1, seed=0)
    assert plan.status == "OPTIMAL"
    days: dict[str, set[Any]] = {}
    for r in plan.rows:
        days.setdefault(r.tournament_id, set()).add(r.first_day)
    short, placed, _ = objective(sc, days)
    return {"placed": placed, "shortfall": short, "fees_usd": plan.objective["fees_usd"],
            "preferred": plan.objective["preferred"],
            "offset_days": sum((d - sc.horizon.start).days for ds in days.values() for d in ds)}


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 10, 50])
def test_every_benchmark_part_has_one_optimum(n: int) -> None:
    """Per part of instance N: the native MIP, the translated MIP and CP-SAT prove the same
    value of every lexicographic stage (placed and shortfall, fees, preferred weekdays,
    first-day offsets)."""
    from benchmarks.instances import load_instance

    for k, part in enumerate(components(load_instance(n))):
        got = {}
        for peer in (mip, highs):
            res = peer.solve_part(part, time_limit=120)
            assert res.status == "OPTIMAL", (n, k, peer.__name__)
            got[peer.__name__] = {key: getattr(res, key) for key in KEYS}
        got["cpsat"] = _cpsat(part)
        assert got["benchmarks.mip"] == got["benchmarks.highs"] == got["cpsat"], (n, k)


def test_run_compares_every_proven_optimum_and_greedys_loss() -> None:
    """benchmarks/run.py's comparison: the native MIP's optimum is held against the
    product's like the translated one's, and greedy's loss is a share of the product's."""
    from benchmarks.run import COLUMNS, compare

    opt = {"status": "OPTIMAL", "placed": 200, "shortfall": 0, "fees_usd": 620,
           "preferred": 3, "offset_days": 900, "occurrences": 40}
    gr = {"placed": 190, "shortfall": 0, "fees_usd": 500, "occurrences": 38}
    row: dict[str, Any] = dict.fromkeys(COLUMNS, "") | {"n": 10}
    assert compare(row, opt, gr, dict(opt), dict(opt)) == []
    # greedy loses 200 - 190 = 10 of 200 placed: 5 %; it pays 620 - 500 = $120 less
    assert (row["greedy_loss_pct"], row["fees_saved_usd"], row["optima_agree"]) == (5.0, -120,
                                                                                   True)
    worse = dict(opt, fees_usd=640)
    failures = compare(row, opt, gr, dict(opt), worse)
    assert failures == ["N=10: CP-SAT and native MIP optima differ: {'fees_usd': (620, 640)}"]
    assert row["optima_agree"] is False
    # a peer that did not prove its optimum is not compared
    assert compare(row, opt, gr, dict(opt), dict(worse, status="TIME_LIMIT")) == []
