"""Where ``tourney solve`` spends its CPU, phase by phase, measured in one process.

    .venv/bin/python benchmarks/phases.py [--n N ...] [--seed S] [--as-of DAY] [--out DIR]
                                          [--no-write]

For each N (default 10, 200 and 1,000 operators) the scenario of ``tourney generate --seed S
-n N`` (default seed 7) is written to a file, then run as ``tourney solve FILE --jobs 1``
runs it, in this process: :func:`scheduler.inputs.load.load_scenario`, then
:func:`scheduler.solve` (one process, ``jobs=1``) and :func:`scheduler.export.write.write_plan`.
The phases are timed by wrapping the functions the solve calls (no copy of its code):

``reading``  ``load_scenario`` (YAML by libyaml, pydantic, the input rules);
``model``    ``build_model`` and the objective's terms, every part;
``cpsat``    the lexicographic searches (``lexicographic``), every part;
``audit``    the independent check of each part's plan and the plan's extraction;
``reasons``  why what was not placed was not (``unscheduled``, ``overasked``), every part;
``other``    the rest of ``solve()`` (split into parts, merge, UIDs, conflicts);
``writing``  ``write_plan`` (plan.xlsx is written in a forked worker: its CPU is counted).

Each figure is CPU seconds (``time.process_time`` of this process, CP-SAT's thread
included, plus the CPU of finished child processes), so the machine's other load changes
it little; ``peak MB`` is this process's high-water resident set after the N (a new process
per N is not used: run one N per call to read each peak alone). The table is printed as
Markdown, with the stage values (placed, fees) to compare runs.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import resource
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PHASES = ("reading", "model", "cpsat", "audit", "reasons", "other", "writing")


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class _Clock:
    """CPU seconds per phase; a phase inside another is taken out of the outer one."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._stack: list[str] = []

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        began = _cpu()
        self._stack.append(name)
        try:
            yield
        finally:
            self._stack.pop()
            took = _cpu() - began
            self.spent[name] += took
            if self._stack:
                self.spent[self._stack[-1]] -= took

    def wrap(self, module: Any, name: str, phase: str) -> Callable[[], None]:
        """Time ``module.name`` as ``phase``; returns the undo."""
        inner = getattr(module, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.phase(phase):
                return inner(*args, **kwargs)

        setattr(module, name, timed)
        return lambda: setattr(module, name, inner)


def measure(operators: int, seed: int, as_of: dt.date, out: Path, write: bool = True
            ) -> dict[str, Any]:
    """The phases of one N (see the module docstring): CPU seconds per phase, ``wall`` and
    ``cpu`` of the whole, ``peak_mb``, ``parts``, ``placed`` and ``fees_usd``."""
    from scheduler.engine import parts as parts_module
    from scheduler.engine import solver as solver_module
    from scheduler.export.write import write_plan
    from scheduler.inputs.load import load_scenario
    from scheduler.studies.generate import scenario_text

    path = out / f"n{operators}.yaml"
    path.write_text(scenario_text(operators, seed), encoding="utf-8")
    clock = _Clock()
    undo = [clock.wrap(parts_module, "build_model", "model"),
            clock.wrap(parts_module, "add_terms", "model"),
            clock.wrap(parts_module, "lexicographic", "cpsat"),
            clock.wrap(parts_module, "extract", "audit"),
            clock.wrap(parts_module, "check", "audit"),
            clock.wrap(parts_module, "unscheduled", "reasons"),
            clock.wrap(parts_module, "overasked", "reasons")]
    wall, cpu = time.perf_counter(), _cpu()
    try:
        with clock.phase("reading"):
            scenario = load_scenario(path)
        with clock.phase("other"):
            plan = solver_module.solve(scenario, jobs=1, as_of=as_of)
        if write:
            with clock.phase("writing"):
                write_plan(plan, out / f"plan-{operators}")
    finally:
        for u in undo:
            u()
    return {**{p: clock.spent.get(p, 0.0) for p in PHASES},
            "cpu": _cpu() - cpu, "wall": time.perf_counter() - wall,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "parts": plan.components, "placed": plan.objective["placed"],
            "fees_usd": plan.objective["fees_usd"]}


def table(rows: dict[int, dict[str, Any]]) -> str:
    """The Markdown table of :func:`measure`'s rows, one column per N."""
    ns = sorted(rows)
    head = "| phase, CPU s | " + " | ".join(f"N = {n:,}" for n in ns) + " |"
    lines = [head, "|---|" + "---:|" * len(ns)]
    for key in (*PHASES, "cpu", "wall", "peak_mb", "parts", "placed", "fees_usd"):
        label = {"cpu": "whole, CPU s", "wall": "whole, wall s", "peak_mb": "peak MB",
                 "fees_usd": "fees USD"}.get(key, key)
        cells = [f"{rows[n][key]:,.2f}" if isinstance(rows[n][key], float)
                 else f"{rows[n][key]:,}" for n in ns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[10, 200, 1000])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--as-of", type=dt.date.fromisoformat, default=dt.date(2026, 12, 1))
    ap.add_argument("--out", type=Path, default=None,
                    help="folder for the scenarios and plans (default: a temporary one)")
    ap.add_argument("--no-write", action="store_true", help="leave out write_plan")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        rows = {n: measure(n, args.seed, args.as_of, out, not args.no_write) for n in args.n}
    print(table(rows))


if __name__ == "__main__":
    main()
