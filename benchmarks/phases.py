"""Where ``tourney solve`` spends its CPU, phase by phase, measured in one process.

    .venv/bin/python benchmarks/phases.py [--n N ...] [--seed S] [--as-of DAY] [--out DIR]
                                          [--no-write] [--no-report] [--floor] [--json FILE]

For each N (default 10, 200 and 1,000 operators) the scenario of ``tourney generate --seed S
-n N`` (default seed 7) is written to a file, then run as ``tourney solve FILE --jobs 1``
runs it, in this process: :func:`scheduler.inputs.load.load_scenario`, then
:func:`scheduler.solve` (one process, ``jobs=1``) and :func:`scheduler.export.write.write_plan`
(with report.html, as ``--report``, unless ``--no-report``).
The phases are timed by wrapping the functions the solve calls (no copy of its code):

``reading``  ``load_scenario`` (YAML by libyaml, pydantic, the input rules);
``model``    ``build_model`` and the objective's terms, every part;
``cpsat``    the lexicographic searches (``lexicographic``), every part;
``audit``    the independent check of each part's plan and the plan's extraction;
``reasons``  why what was not placed was not (``unscheduled``, ``overasked``), every part;
``other``    the rest of ``solve()`` (split into parts, merge, UIDs, conflicts);
``tables``   schedule/licenses/unscheduled/deadlines CSVs (``csv_tables``, ``deadlines_pieces``
           and the pieces they yield as they are written);
``summary``  the limit usage (once) and summary.txt (``limit_usage``, ``summary_text``);
``xlsx``     plan.xlsx (``write_plan_xlsx``);
``calendars`` the rest of ``write_plan``: the iCalendar files (``render_pieces`` and the
           pieces it yields as they are written) and the folder's files on disk;
``report``   report.html (``report_html``: its tables and its figures, one process).

With ``--floor``, each phase is set beside a floor, and the table gives the ratio to it:

- ``cpsat``, measured in this run: every part's searches run a second time on a fresh model
  whose first search is hinted with the part's final solution (presolve, LP and the proof of
  optimality only: no search is left to do);
- the others, issue #27's measurements at N = 200 on the machine it was filed from, scaled
  linearly with N (:data:`FLOORS_N200`): reading = a native YAML parser and the validation,
  model = the same protos built in C++, reasons = tallies proportional to days, calendars = the
  same content lines formatted directly, xlsx = SpreadsheetML written directly, summary =
  once. Those were measured on a machine about 1.7 times as fast as this 2-core one (its
  CP-SAT phase 7.43 s against about 12.8 s here, the same scenario), so read those ratios
  against 1.7, not 1.

Each figure is CPU seconds (``time.process_time`` of this process, CP-SAT's thread
included, plus the CPU of finished child processes), so the machine's other load changes
it little; ``peak MB`` is this process's high-water resident set (VmHWM) after the N (a new process
per N is not used: run one N per call to read each peak alone). The table is printed as
Markdown, with the stage values (placed, fees) to compare runs.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import resource
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PHASES = ("reading", "model", "cpsat", "audit", "reasons", "other", "tables", "summary",
          "xlsx", "calendars", "report")

FLOORS_N200 = {"reading": 0.16, "model": 0.27, "reasons": 0.05, "calendars": 0.15,
               "xlsx": 0.27, "summary": 0.42}
"""Issue #27's floors at N = 200, CPU seconds (see the module docstring); ``cpsat``'s is
measured in the run (``--floor``)."""


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class _Clock:
    """CPU seconds per phase; a phase inside another is taken out of the outer one."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._stack: list[str] = []
        self.floor = 0.0  # CPU of the hinted second searches (``--floor``)
        self.aside_wall = 0.0  # wall seconds of the floor's whole work (phase "aside")

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

    def pieces(self, pieces: Iterable[Any], phase: str) -> Iterator[Any]:
        """``pieces``, each one's making timed as ``phase`` (a file written as it is made)."""
        it = iter(pieces)
        while True:
            with self.phase(phase):
                piece = next(it, _END)
            if piece is _END:
                return
            yield piece

    def wrap_pieces(self, module: Any, name: str, phase: str,
                    files: bool = False) -> Callable[[], None]:
        """As :meth:`wrap`, for ``module.name`` returning the pieces of a file (``files``:
        a list of (name, pieces)): the call and the making of each piece are ``phase``."""
        inner = getattr(module, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.phase(phase):
                made = inner(*args, **kwargs)
            if files:
                return [(rel, self.pieces(p, phase)) for rel, p in made]
            return self.pieces(made, phase)

        setattr(module, name, timed)
        return lambda: setattr(module, name, inner)


_END = object()


def _hinted_again(clock: _Clock, build: Callable[..., Any], terms: Callable[..., Any],
                  raw: Callable[..., Any], timed: Callable[..., Any]) -> Callable[..., Any]:
    """``lexicographic`` (``timed``: the phase ``cpsat``) that, after the part's searches,
    builds the part again and runs its searches (``raw``: untimed) from the final solution as
    a complete hint: the phase ``aside`` (left out of every row and of the whole), its
    searches' CPU kept as the CP-SAT floor."""

    def twice(ctx: Any, opts: Any, previous: Any = None, **kw: Any) -> Any:
        out = timed(ctx, opts, previous, **kw)
        if out.best is not None:
            wall = time.perf_counter()
            with clock.phase("aside"):
                again = build(ctx.scenario)
                terms(again)
                values = out.best.response_proto.solution
                hint = again.model.proto.solution_hint
                hint.vars.extend(range(len(values)))
                hint.values.extend(values)
                began = _cpu()
                raw(again, opts, previous)
                clock.floor += _cpu() - began
            clock.aside_wall += time.perf_counter() - wall
        return out

    return twice


def _peak_mb() -> float:
    """This process's resident high-water mark, MB (``VmHWM``: since its own start; a
    child's ``ru_maxrss`` would keep the peak of the process it was forked from)."""
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(operators: int, seed: int, as_of: dt.date, out: Path, write: bool = True,
            floor: bool = False, report: bool = True) -> dict[str, Any]:
    """The phases of one N (see the module docstring): CPU seconds per phase, ``wall`` and
    ``cpu`` of the whole, ``peak_mb``, ``parts``, ``placed`` and ``fees_usd``; with ``floor``,
    ``floor_<phase>`` for each phase that has one (CPU seconds); ``report``: write_plan
    writes report.html too (the phase ``report``, else 0)."""
    from scheduler.engine import parts as parts_module
    from scheduler.engine import solver as solver_module
    from scheduler.export import report as report_module
    from scheduler.export import write as write_module
    from scheduler.export.write import write_plan

    build, terms = parts_module.build_model, parts_module.add_terms
    raw = parts_module.lexicographic
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
            clock.wrap(parts_module, "overasked", "reasons"),
            clock.wrap_pieces(write_module, "csv_tables", "tables", files=True),
            clock.wrap_pieces(write_module, "deadlines_pieces", "tables"),
            clock.wrap(write_module, "limit_usage", "summary"),
            clock.wrap(write_module, "summary_text", "summary"),
            clock.wrap(write_module, "write_plan_xlsx", "xlsx"),
            clock.wrap(report_module, "report_html", "report")]
    if floor:
        # the floor's own time is taken out of every phase (and of the whole)
        timed = parts_module.lexicographic
        parts_module.lexicographic = _hinted_again(clock, build, terms, raw, timed)
        undo.append(lambda: setattr(parts_module, "lexicographic", timed))
    wall, cpu = time.perf_counter(), _cpu()
    try:
        with clock.phase("reading"):
            scenario = load_scenario(path)
        with clock.phase("other"):
            plan = solver_module.solve(scenario, jobs=1, as_of=as_of)
        if write:
            with clock.phase("calendars"):
                write_plan(plan, out / f"plan-{operators}", report=report)
    finally:
        for u in reversed(undo):
            u()
    spent = dict(clock.spent)
    floors = {}
    if floor and operators >= 200:  # issue #27's floors: measured at N = 200 and 1,000
        floors = {f"floor_{k}": v * operators / 200 for k, v in FLOORS_N200.items()}
    if floor:
        floors["floor_cpsat"] = clock.floor
    return {**{p: spent.get(p, 0.0) for p in PHASES}, **floors,
            "cpu": _cpu() - cpu - spent.get("aside", 0.0),
            "wall": time.perf_counter() - wall - clock.aside_wall,
            "peak_mb": _peak_mb(),
            "parts": plan.components, "placed": plan.objective["placed"],
            "fees_usd": plan.objective["fees_usd"]}


def table(rows: dict[int, dict[str, Any]]) -> str:
    """The Markdown table of :func:`measure`'s rows: one column per N, and with floors a
    floor and a ratio column per N (measured CPU / floor)."""
    ns = sorted(rows)
    floors = any(k.startswith("floor_") for n in ns for k in rows[n])
    head = "| phase, CPU s | " + " | ".join(
        f"N = {n:,} | floor | × floor" if floors else f"N = {n:,}" for n in ns) + " |"
    lines = [head, "|---|" + "---:|" * (len(ns) * (3 if floors else 1))]
    for key in (*PHASES, "cpu", "wall", "peak_mb", "parts", "placed", "fees_usd"):
        label = {"cpu": "whole, CPU s", "wall": "whole, wall s", "peak_mb": "peak MB",
                 "fees_usd": "fees USD"}.get(key, key)
        cells = []
        for n in ns:
            value = rows[n][key]
            cells.append(f"{value:,.2f}" if isinstance(value, float) else f"{value:,}")
            if floors:
                low = rows[n].get(f"floor_{key}")
                cells += ([f"{low:,.2f}", f"{value / low:,.1f}"] if low else ["", ""])
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
    ap.add_argument("--no-report", action="store_true",
                    help="write_plan without report.html (the phase report is then 0)")
    ap.add_argument("--floor", action="store_true",
                    help="set each phase beside its floor (CP-SAT's measured: the searches "
                         "run again with perfect hints)")
    ap.add_argument("--json", type=Path, default=None,
                    help="also write the rows as JSON into this file (benchmarks/run.py)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        rows = {n: measure(n, args.seed, args.as_of, out, not args.no_write, args.floor,
                           not args.no_report) for n in args.n}
    if args.json:
        args.json.write_text(json.dumps(rows), encoding="utf-8")
    print(table(rows))


if __name__ == "__main__":
    main()
