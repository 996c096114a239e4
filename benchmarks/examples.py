"""Benchmark: solve every bundled example and report model size, time and status.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/examples.py [--workers N]``).
The acceptance target of "Plan a year" is each example proven OPTIMAL within 10 s on
2 cores; the table says whether it is. Timings are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scheduler.engine.model import build_model
from scheduler.engine.solver import solve
from scheduler.inputs.load import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'example':<28}{'z vars':>8}{'build s':>9}{'solve s':>9}  status    placed  fees")
    for path in sorted(EXAMPLES.glob("*.yaml")):
        sc = load_scenario(path)
        t0 = time.perf_counter()
        ctx = build_model(sc)
        build = time.perf_counter() - t0
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            plan = solve(sc, workers=args.workers, seed=0)
            best = min(best, time.perf_counter() - t0)
        ok = "ok" if plan.status == "OPTIMAL" and best < 10 else "SLOW"
        print(f"{path.stem:<28}{len(ctx.z):>8}{build:>9.2f}{best:>9.2f}  {plan.status:<9}"
              f"{plan.objective['placed']:>6}  ${plan.total_fees_usd:,}  {ok}")


if __name__ == "__main__":
    main()
