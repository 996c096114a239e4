"""The benchmark set, side by side, in one run: the product (CP-SAT) end to end and in
``solve()``, a greedy earliest-fit planner and two MIP peers solved by HiGHS (the product's
model translated, and a native MIP of the same rules).

    .venv/bin/python benchmarks/run.py [--max N | --n N ...] [--time-limit S] [--out DIR]
                                       [--jobs J] [--jobs1] [--no-highs] [--no-mip]
                                       [--no-greedy] [--no-e2e]

For every instance of ``benchmarks/instances.py`` (N = 1, 10, 50, 200, 1,000, 5,000 operators;
``--max`` stops early, ``--n`` picks sizes) each method runs in a fresh child process (so
memory peaks don't accumulate and a stuck method can be stopped), with a wall-clock cap of
``--time-limit`` seconds (default 120) per instance and method: at the cap the child gets
SIGINT (the product then returns its best plan with its gap, as on Ctrl-C), and its process
group is killed if it has not answered 30 s later. The methods:

``e2e``    the whole command a user runs, ``tourney solve INSTANCE.yaml --out DIR --jobs J
           --deterministic-time D`` (Python start, YAML loading, solve, audit, writing every
           file), as a subprocess of this script with the same cap; ``e2e_s`` its wall time,
           ``e2e_peak_mb`` its peak, ``e2e_out_mb`` what it wrote (deleted afterwards). The
           instance's YAML is written before the clock starts (``instances.instance_path``);
``probe``  per part: ``build_model`` (``build_s``: the sum over parts, one process), model size
           (``z_vars``; ``variables`` and ``constraints`` of the CP-SAT protos) and the first
           feasible solution of the first objective stage with the product's solver settings
           (``first_feasible_s`` = build + first solution, summed over parts);
``cpsat``  the product: ``scheduler.solve(scenario, jobs=J)`` (default J = 2: parts in two
           processes; ``--jobs1`` also measures jobs = 1) with its default deterministic
           limit; ``cpsat_s`` is the wall time of the whole call (split, build, three
           lexicographic stages, audit by the checker, reasons), ``gap`` the largest
           relative gap of its stages (0 when proven optimal);
``greedy`` ``benchmarks/greedy.py``: requests in priority order, each occurrence on its
           earliest legal day by the independent checker, then the cheapest licences for those
           dates (CP-SAT with every date fixed);
``highs``  ``benchmarks/highs.py``: each part's CP-SAT model translated to a MIP and solved by
           HiGHS stage by stage (placed, fees, preferred weekdays, earliest days), parts in J
           processes like the product; ``highs_s`` is the wall time including ``build_model`` and
           the translation; ``highs_translate_s`` (translation, Python) and ``highs_solve_s``
           (HiGHS itself) are sums over parts of per-process times;
``phases`` ``benchmarks/phases.py --floor`` in a child process per N: where ``tourney solve
           --jobs 1`` spends its CPU, phase by phase, each beside its floor and the ratio to
           it (printed as a Markdown table at the end, and written to ``DIR/phases.md``);
``mip``    ``benchmarks/mip.py``: the native MIP a MIP modeller would write (the same ``z[t, d]``
           candidates from ``build_model``, aggregated counting rows, coverage rows for
           permits and licences, no big-M), solved the same way, parts in J processes;
           ``mip_s`` is its wall time including ``build_model`` (which builds the CP-SAT
           model too) and the formulation (``mip_formulate_s``).

The strongest peer is the faster of ``highs`` and ``mip`` among those that proved every
part optimal (``peer``, ``peer_s``); ``cpsat_peer_ratio`` is ``cpsat_s / peer_s`` (below 1:
the product's ``solve()`` is faster than the strongest peer, which is timed from the loaded
scenario too). ``greedy_loss_pct`` is what greedy loses: ``100 * (placed - greedy_placed) /
placed`` of the product's priority-weighted occurrences (``fees_saved_usd`` beside it).

Columns of ``DIR/benchmark.csv`` (one row per N; seconds are wall seconds, memory is the peak
resident set of the child process or of its largest pool worker, in MB): see :data:`COLUMNS`.
``placed`` is priority-weighted occurrences placed (the product's first objective with
``shortfall`` = required occurrences missing), ``fees_usd`` USD. ``placed_gain`` /
``placed_gain_pct`` / ``occurrences_gain`` / ``fees_saved_usd`` compare the product with the
greedy plan; ``optima_agree`` compares the optimal placed, shortfall, fees, preferred starts and
sum of first-day offsets (all four stages) of every exact method that proved its optimum
(product, ``highs``, ``mip``); ``cpsat_highs_ratio`` is
``cpsat_s / highs_s`` (below 1: CP-SAT faster); ``load_avg_1m`` is the machine's load when the
N started (the cores are shared), ``commit`` the code measured (:func:`code_version`).
``DIR/benchmark.png`` plots times and memory.

Exit status 1 (after the table is written) when the product is worse than greedy on any
instance (lexicographically: required shortfall, placed, fees) or when two exact methods
proved an optimum and the optima differ. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "latest"
"""Where a run writes by default (git-ignored); the README's table was written with
``--out benchmarks/results``."""
GRACE_S = 30.0
"""Seconds a child has to answer SIGINT before its process group is killed."""
LOAD_S = 600.0
"""Seconds allowed for imports and generating the instance, before the cap starts."""

COLUMNS = [
    "n", "seed", "tournaments", "parts", "z_vars", "variables", "constraints",
    "build_s", "first_feasible_s",
    "cpsat_s", "cpsat_status", "gap", "peak_mb",
    "occurrences", "placed", "shortfall", "fees_usd", "preferred",
    "cpsat_jobs1_s", "cpsat_jobs1_status", "cpsat_jobs1_peak_mb",
    "greedy_s", "greedy_occurrences", "greedy_placed", "greedy_shortfall", "greedy_fees_usd",
    "greedy_peak_mb",
    "placed_gain", "placed_gain_pct", "occurrences_gain", "fees_saved_usd", "product_not_worse",
    "highs_s", "highs_translate_s", "highs_solve_s", "highs_status", "highs_placed",
    "highs_fees_usd", "highs_preferred",
    "highs_peak_mb", "optima_agree", "cpsat_highs_ratio",
    "e2e_s", "e2e_status", "e2e_peak_mb", "e2e_out_mb",
    "mip_s", "mip_formulate_s", "mip_solve_s", "mip_status", "mip_rows", "highs_rows",
    "mip_peak_mb", "peer", "peer_s", "cpsat_peer_ratio", "greedy_loss_pct",
    "jobs", "time_limit_s", "load_avg_1m", "commit",
]
"""The CSV columns, in order."""


# --------------------------------------------------------------------------- child side
def _days_of_plan(plan: Any) -> dict[str, list[Any]]:
    out: dict[str, set[Any]] = {}
    for r in plan.rows:
        out.setdefault(r.tournament_id, set()).add(r.first_day)
    return {k: sorted(v) for k, v in out.items()}


def _offset_days(start: Any, days: dict[str, list[Any]]) -> int:
    return sum((d - start).days for ds in days.values() for d in ds)


def _child_probe(sc: Any, deadline: float, result: dict[str, Any]) -> None:
    from ortools.sat.python import cp_model

    from scheduler.engine.cpsat import Options
    from scheduler.engine.decompose import components
    from scheduler.engine.model import build_model
    from scheduler.engine.objective import add_terms

    parts = components(sc)
    result.update(parts=len(parts), tournaments=len(sc.tournaments), z_vars=0, variables=0,
                  constraints=0, build_s=0.0, first_s=0.0, kinds={}, parts_done=0)
    for part in parts:
        t0 = time.perf_counter()
        ctx = build_model(part)
        add_terms(ctx)  # the objective's terms, as scheduler.engine.parts.solve_part adds them
        build = time.perf_counter() - t0
        proto = ctx.model.proto
        result["z_vars"] += len(ctx.z)
        result["variables"] += len(proto.variables)
        result["constraints"] += len(proto.constraints)
        from benchmarks.highs import kind_of

        for c in proto.constraints:
            k = kind_of(c) + ("+enf" if len(c.enforcement_literal) else "")
            result["kinds"][k] = result["kinds"].get(k, 0) + 1
        # the product's first stage (scheduler/engine/objective.py), stopped at its first solution
        placed = cp_model.LinearExpr.weighted_sum([v for v, _ in ctx.placed_terms],
                                                  [w for _, w in ctx.placed_terms])
        short = cp_model.LinearExpr.weighted_sum([v for v, _ in ctx.required_terms],
                                                 [w for _, w in ctx.required_terms])
        big = sum(w for _, w in ctx.placed_terms) + 1
        ctx.model.maximize(placed - big * short)
        solver = Options(time_limit=max(0.1, deadline - time.perf_counter())).solver()
        solver.parameters.stop_after_first_solution = True
        t0 = time.perf_counter()
        status = solver.solve(ctx.model)
        result["build_s"] += build
        result["first_s"] += build + time.perf_counter() - t0
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            result["status"] = solver.status_name(status)
            return
        result["parts_done"] += 1
    result["status"] = "OK"


def _child_cpsat(sc: Any, jobs: int, deterministic_time: float | None,
                 result: dict[str, Any]) -> None:
    from benchmarks.greedy import objective
    from scheduler.engine.solver import solve

    t0 = time.perf_counter()
    plan = solve(sc, jobs=jobs, seed=0, deterministic_time=deterministic_time)
    result["wall_s"] = time.perf_counter() - t0
    days = _days_of_plan(plan)
    short, placed, occ = objective(sc, days)
    result.update(status=plan.status + (" (stopped)" if plan.interrupted else ""),
                  objective=plan.objective, bound=plan.bound,
                  gap=max(plan.gap.values()) if plan.gap else 0.0,
                  placed=placed, shortfall=short, occurrences=occ,
                  fees_usd=plan.objective["fees_usd"], preferred=plan.objective["preferred"],
                  offset_days=_offset_days(sc.horizon.start, days),
                  components=plan.components)


def _child_greedy(sc: Any, deadline: float, result: dict[str, Any]) -> None:
    from benchmarks.greedy import greedy
    from scheduler.engine.decompose import components

    t0 = time.perf_counter()
    tot = {"placed": 0, "shortfall": 0, "occurrences": 0, "fees_usd": 0, "checks": 0,
           "build_s": 0.0, "dates_s": 0.0, "fees_s": 0.0}
    status = "OK"
    for part in components(sc):
        r = greedy(part, time_limit=max(0.1, deadline - time.perf_counter()))
        for k in ("placed", "shortfall", "occurrences", "checks", "build_s", "dates_s",
                  "fees_s"):
            tot[k] += getattr(r, k)
        if r.fees_usd is None or r.fee_status != "OPTIMAL":
            status = f"fees {r.fee_status}"
        tot["fees_usd"] += r.fees_usd or 0
    result.update(tot, wall_s=time.perf_counter() - t0, status=status)


def _highs_task(part: Any, deadline: float, peer: str = "highs") -> dict[str, Any]:
    import benchmarks.highs
    import benchmarks.mip

    solve_part = benchmarks.mip.solve_part if peer == "mip" else benchmarks.highs.solve_part
    r = solve_part(part, time_limit=max(0.1, deadline - time.perf_counter()))
    return {k: getattr(r, k) for k in ("status", "placed", "shortfall", "fees_usd",
                                       "preferred", "offset_days", "build_s", "translate_s",
                                       "solve_s", "columns", "rows", "kinds")}


def _child_highs(sc: Any, jobs: int, deadline: float, result: dict[str, Any],
                 peer: str = "highs") -> None:
    """A HiGHS peer (``highs``: the translated proto; ``mip``: the native MIP) on every part."""
    from scheduler.engine.decompose import components

    t0 = time.perf_counter()
    parts = components(sc)
    if jobs > 1 and len(parts) > 1:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(max_workers=min(jobs, len(parts)), mp_context=ctx) as pool:
            out = list(pool.map(_highs_task, parts, [deadline] * len(parts),
                                [peer] * len(parts)))
    else:
        out = [_highs_task(p, deadline, peer) for p in parts]
    result["wall_s"] = time.perf_counter() - t0
    bad = [r["status"] for r in out if r["status"] != "OPTIMAL"]
    result["status"] = bad[0] if bad else "OPTIMAL"
    for k in ("placed", "shortfall", "fees_usd", "preferred", "offset_days", "build_s",
              "translate_s", "solve_s", "columns", "rows"):
        result[k] = sum(r[k] for r in out)
    kinds: dict[str, int] = {}
    for r in out:
        for k, v in r["kinds"].items():
            kinds[k] = kinds.get(k, 0) + v
    result["kinds"] = kinds


def child_main(args: argparse.Namespace) -> None:
    """One method on one instance; writes its result as JSON to ``args.result``."""
    from benchmarks.instances import load_instance

    result: dict[str, Any] = {"method": args.child, "n": args.instance}
    started = time.perf_counter()
    deadline = started + args.cap
    try:
        sc = load_instance(args.instance, args.seed)
        result["load_s"] = time.perf_counter() - started
        deadline = time.perf_counter() + args.cap  # the cap starts after the instance is made
        Path(str(args.result) + ".ready").touch()  # the parent's clock starts now too
        if args.child == "probe":
            _child_probe(sc, deadline, result)
        elif args.child == "cpsat":
            _child_cpsat(sc, args.jobs, args.deterministic_time, result)
        elif args.child == "greedy":
            _child_greedy(sc, deadline, result)
        elif args.child in ("highs", "mip"):
            _child_highs(sc, args.jobs, deadline, result, peer=args.child)
        else:  # pragma: no cover - argparse restricts the choices
            raise ValueError(args.child)
    except KeyboardInterrupt:
        result["status"] = "TIME_LIMIT"
    except Exception as exc:  # reported in the table, not a traceback in the run
        import traceback

        traceback.print_exc()
        result["status"] = f"ERROR {type(exc).__name__}: {exc}"[:200]
    tmp = Path(str(args.result) + ".tmp")
    tmp.write_text(json.dumps(result, default=str))
    tmp.replace(args.result)


# --------------------------------------------------------------------------- parent side
def run_child(method: str, n: int, seed: int, cap: float, out: Path, *, jobs: int = 1,
              deterministic_time: float | None = None) -> dict[str, Any]:
    """Run one method on one instance in a fresh process (its own process group) with a
    wall cap of ``cap`` seconds (SIGINT at the cap, the group killed ``GRACE_S`` later).
    Returns the child's JSON result with ``peak_mb`` (ru_maxrss of the child and its reaped
    workers, MB) and ``elapsed_s`` (wall, including Python start and instance generation)."""
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    tag = f"n{n}-{method}" + (f"-jobs{jobs}" if method in ("cpsat", "highs", "mip") else "")
    result_path = logs / f"{tag}.json"
    result_path.unlink(missing_ok=True)
    ready = Path(str(result_path) + ".ready")
    ready.unlink(missing_ok=True)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", method, "--instance", str(n),
           "--seed", str(seed), "--cap", str(cap), "--jobs", str(jobs),
           "--result", str(result_path)]
    if deterministic_time is not None:
        cmd += ["--deterministic-time", str(deterministic_time)]
    t0 = time.perf_counter()
    with open(logs / f"{tag}.log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                start_new_session=True)
    stage, rusage = _wait(proc, cap, ready=ready, load_s=LOAD_S)
    ready.unlink(missing_ok=True)
    try:
        result = json.loads(result_path.read_text())
    except (OSError, ValueError):
        result = {"status": "KILLED" if stage == 2 else f"CRASHED (exit {proc.returncode})"}
    result["peak_mb"] = rusage.ru_maxrss / 1024 if rusage is not None else float("nan")
    result["elapsed_s"] = time.perf_counter() - t0
    return result


def _wait(proc: subprocess.Popen[Any], cap: float, *, ready: Path | None = None,
          load_s: float = 0.0) -> tuple[int, Any]:
    """Wait for ``proc`` (its own process group): SIGINT when the cap is over, its group
    killed ``GRACE_S`` later. With ``ready``, the cap runs from when that file appears (or
    from the start, past ``load_s``); without, from the start. Returns (0 finished,
    1 interrupted, 2 killed; the ``wait4`` resource usage)."""
    t0 = time.perf_counter()
    stage = 0  # 0 running, 1 SIGINT sent, 2 killed
    rusage = None
    t_ready: float | None = None
    t_int = 0.0
    while True:
        pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            break
        now = time.perf_counter()
        if ready is not None and t_ready is None and ready.exists():
            t_ready = now
        if ready is None:
            over = now - t0 > cap
        else:
            over = (now - t_ready > cap) if t_ready is not None else (now - t0 > cap + load_s)
        if stage == 0 and over:
            os.kill(proc.pid, signal.SIGINT)
            stage = 1
            t_int = time.perf_counter()
        elif stage == 1 and time.perf_counter() - t_int > GRACE_S:
            os.killpg(proc.pid, signal.SIGKILL)
            stage = 2
        time.sleep(0.05)
    if stage:  # leave no pool worker behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    return stage, rusage


def run_e2e(n: int, seed: int, cap: float, out: Path, *, jobs: int,
            deterministic_time: float | None) -> dict[str, Any]:
    """``tourney solve`` on instance N's YAML as a user runs it, in its own process group with
    a wall cap of ``cap`` seconds from its start (SIGINT, then killed ``GRACE_S`` later).
    Returns ``wall_s`` (wall seconds of the whole command), ``status`` (``exit 0`` every
    required occurrence placed, ``exit 1`` some not, else the failure), ``peak_mb``
    (ru_maxrss of the command and its reaped workers, MB) and ``out_mb`` (size of what it
    wrote, MB; the folder is removed afterwards)."""
    import shutil

    from benchmarks.instances import instance_path

    path = instance_path(n, seed)  # written before the clock starts
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    plan_dir = out / f"e2e-plan-n{n}"
    shutil.rmtree(plan_dir, ignore_errors=True)
    exe = Path(sys.executable).with_name("tourney")
    cmd = [str(exe)] if exe.is_file() else [sys.executable, "-m", "scheduler.cli"]
    cmd += ["solve", str(path), "--out", str(plan_dir), "--jobs", str(jobs), "--seed", "0"]
    if deterministic_time is not None:
        cmd += ["--deterministic-time", str(deterministic_time)]
    t0 = time.perf_counter()
    with open(logs / f"n{n}-e2e-jobs{jobs}.log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                start_new_session=True)
    stage, rusage = _wait(proc, cap)
    wall = time.perf_counter() - t0
    size = sum(f.stat().st_size for f in plan_dir.rglob("*") if f.is_file()) \
        if plan_dir.is_dir() else 0
    shutil.rmtree(plan_dir, ignore_errors=True)
    status = ("KILLED" if stage == 2 else "TIME_LIMIT" if stage == 1
              else f"exit {proc.returncode}")
    return {"wall_s": wall, "status": status, "out_mb": size / 1e6,
            "peak_mb": rusage.ru_maxrss / 1024 if rusage is not None else float("nan")}


def _r(x: Any, nd: int = 2) -> Any:
    return round(x, nd) if isinstance(x, float) and math.isfinite(x) else x


def compare(row: dict[str, Any], cp: dict[str, Any], gr: dict[str, Any],
            hi: dict[str, Any], mi: dict[str, Any] | None = None) -> list[str]:
    """Fill the comparison columns of ``row``; return the failures (product worse than
    greedy; proven optima that differ between the product, ``highs`` and ``mip``)."""
    failures: list[str] = []
    n = row["n"]
    if "placed" in cp and "placed" in gr:
        row["placed_gain"] = cp["placed"] - gr["placed"]
        row["placed_gain_pct"] = round(100 * row["placed_gain"] / max(1, gr["placed"]), 2)
        row["occurrences_gain"] = cp["occurrences"] - gr["occurrences"]
        row["fees_saved_usd"] = gr.get("fees_usd", 0) - cp["fees_usd"]
        row["greedy_loss_pct"] = round(100 * row["placed_gain"] / max(1, cp["placed"]), 2)
        mine = (cp["shortfall"], -cp["placed"], cp["fees_usd"])
        theirs = (gr["shortfall"], -gr["placed"], gr.get("fees_usd", math.inf))
        row["product_not_worse"] = mine <= theirs
        if mine > theirs:
            failures.append(f"N={n}: the product ({cp.get('status')}) is worse than greedy: "
                            f"shortfall/placed/fees {mine} vs {theirs}")
    proven = [(name, r) for name, r in (("CP-SAT", cp), ("HiGHS", hi), ("native MIP", mi or {}))
              if r.get("status") == "OPTIMAL"]
    if len(proven) > 1:
        keys = ("placed", "shortfall", "fees_usd", "preferred", "offset_days")
        (first, ref), agree = proven[0], True
        for name, r in proven[1:]:
            diff = {k: (ref[k], r[k]) for k in keys if ref[k] != r[k]}
            if diff:
                agree = False
                failures.append(f"N={n}: {first} and {name} optima differ: {diff}")
        row["optima_agree"] = agree
    return failures


def code_version() -> str:
    """The git commit of the code measured, ``+dirty`` when scheduler/, constraints/ or
    benchmarks/ differ from it (empty outside a git checkout)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "scheduler",
                                "constraints", "benchmarks/run.py", "benchmarks/greedy.py",
                                "benchmarks/highs.py", "benchmarks/mip.py"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+dirty" if dirty else "")


def bench_one(n: int, seed: int, args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """Every method on instance N; the CSV row and the failures."""
    out: Path = args.out
    row: dict[str, Any] = {c: "" for c in COLUMNS}
    row.update(n=n, seed=seed, jobs=args.jobs, time_limit_s=args.time_limit,
               load_avg_1m=round(os.getloadavg()[0], 2), commit=code_version())
    cap = args.time_limit
    pr = run_child("probe", n, seed, cap, out)
    row.update({k: pr.get(k, "") for k in ("tournaments", "parts", "z_vars", "variables",
                                          "constraints")})
    row["build_s"] = _r(pr.get("build_s", ""))
    row["first_feasible_s"] = _r(pr.get("first_s", "")) if pr.get("status") == "OK" else \
        pr.get("status")
    if pr.get("kinds"):
        print(f"  N={n}: CP-SAT constraint kinds {pr['kinds']}", flush=True)

    if not args.no_e2e:
        e2 = run_e2e(n, seed, cap, out, jobs=args.jobs,
                     deterministic_time=args.deterministic_time)
        row.update(e2e_s=_r(e2["wall_s"]), e2e_status=e2["status"],
                   e2e_peak_mb=_r(e2["peak_mb"], 0), e2e_out_mb=_r(e2["out_mb"], 1))
    cp = run_child("cpsat", n, seed, cap, out, jobs=args.jobs,
                   deterministic_time=args.deterministic_time)
    row.update(cpsat_s=_r(cp.get("wall_s", "")), cpsat_status=cp.get("status"),
               gap=_r(cp.get("gap", ""), 6), peak_mb=_r(cp["peak_mb"], 0))
    for k in ("occurrences", "placed", "shortfall", "fees_usd", "preferred"):
        row[k] = cp.get(k, "")
    if args.jobs1 and args.jobs != 1:
        c1 = run_child("cpsat", n, seed, cap, out, jobs=1,
                       deterministic_time=args.deterministic_time)
        row.update(cpsat_jobs1_s=_r(c1.get("wall_s", "")), cpsat_jobs1_status=c1.get("status"),
                   cpsat_jobs1_peak_mb=_r(c1["peak_mb"], 0))
    gr: dict[str, Any] = {}
    if not args.no_greedy:
        gr = run_child("greedy", n, seed, cap, out)
        row.update(greedy_s=_r(gr.get("wall_s", "")), greedy_peak_mb=_r(gr["peak_mb"], 0))
        for k in ("occurrences", "placed", "shortfall", "fees_usd"):
            row[f"greedy_{k}"] = gr.get(k, "")
        if gr.get("status") != "OK":
            row["greedy_fees_usd"] = gr.get("status")
    hi: dict[str, Any] = {}
    if not args.no_highs:
        hi = run_child("highs", n, seed, cap, out, jobs=args.jobs)
        row.update(highs_s=_r(hi.get("wall_s", "")), highs_status=hi.get("status"),
                   highs_translate_s=_r(hi.get("translate_s", "")),
                   highs_solve_s=_r(hi.get("solve_s", "")),
                   highs_placed=hi.get("placed", ""), highs_fees_usd=hi.get("fees_usd", ""),
                   highs_preferred=hi.get("preferred", ""), highs_peak_mb=_r(hi["peak_mb"], 0),
                   highs_rows=hi.get("rows", ""))
        if cp.get("wall_s") and hi.get("wall_s") and hi.get("status") == "OPTIMAL":
            row["cpsat_highs_ratio"] = round(cp["wall_s"] / hi["wall_s"], 3)
    mi: dict[str, Any] = {}
    if not args.no_mip:
        mi = run_child("mip", n, seed, cap, out, jobs=args.jobs)
        row.update(mip_s=_r(mi.get("wall_s", "")), mip_status=mi.get("status"),
                   mip_formulate_s=_r(mi.get("translate_s", "")),
                   mip_solve_s=_r(mi.get("solve_s", "")), mip_rows=mi.get("rows", ""),
                   mip_peak_mb=_r(mi["peak_mb"], 0))
    peers = [(r["wall_s"], name) for name, r in (("highs", hi), ("mip", mi))
             if r.get("status") == "OPTIMAL" and r.get("wall_s")]
    if peers:
        peer_s, peer = min(peers)
        row.update(peer=peer, peer_s=_r(peer_s))
        if cp.get("wall_s"):
            row["cpsat_peer_ratio"] = round(cp["wall_s"] / peer_s, 3)
    failures = compare(row, cp, gr, hi, mi) if gr or hi or mi else []
    return row, failures


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Wall times and peak memory against N (log-log), one line per method."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def series(key: str) -> tuple[list[int], list[float]]:
        pts = [(r["n"], r[key]) for r in rows if isinstance(r.get(key), int | float)
               and not isinstance(r.get(key), bool) and r[key] > 0]
        return [p[0] for p in pts], [p[1] for p in pts]

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    jobs = rows[0]["jobs"] if rows else 2
    for key, label, style in [
            ("cpsat_s", f"CP-SAT, product (jobs={jobs})", "o-"),
            ("cpsat_jobs1_s", "CP-SAT, product (jobs=1)", "o--"),
            ("e2e_s", f"tourney solve, end to end (jobs={jobs})", "o:"),
            ("highs_s", f"HiGHS, translated model (jobs={jobs})", "s-"),
            ("mip_s", f"HiGHS, native MIP (jobs={jobs})", "v-"),
            ("greedy_s", "greedy earliest-fit", "^-"),
            ("build_s", "model build (1 process)", "x:"),
            ("first_feasible_s", "first feasible (1 process)", "d:")]:
        x, y = series(key)
        if x:
            ax1.plot(x, y, style, label=label)
    ax1.set(xscale="log", yscale="log", xlabel="operators N", ylabel="wall seconds",
            title="Wall time (product and HiGHS: to proven optimum)")
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend(fontsize=8)
    for key, label, style in [("peak_mb", f"CP-SAT (jobs={jobs})", "o-"),
                              ("e2e_peak_mb", "tourney solve, end to end", "o:"),
                              ("mip_peak_mb", "HiGHS, native MIP", "v-"),
                              ("cpsat_jobs1_peak_mb", "CP-SAT (jobs=1)", "o--"),
                              ("highs_peak_mb", "HiGHS", "s-"),
                              ("greedy_peak_mb", "greedy", "^-")]:
        x, y = series(key)
        if x:
            ax2.plot(x, y, style, label=label)
    ax2.set(xscale="log", xlabel="operators N", ylabel="MB", ylim=(0, None),
            title="Peak resident memory (largest process)")
    ax2.grid(True, which="both", alpha=0.3)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


SHOW = [("n", "N"), ("parts", "parts"), ("z_vars", "z"), ("e2e_s", "e2e s"),
        ("e2e_peak_mb", "e2e MB"), ("cpsat_s", "solve s"), ("cpsat_jobs1_s", "jobs=1 s"),
        ("cpsat_status", "status"), ("gap", "gap"), ("peak_mb", "MB"), ("placed", "placed"),
        ("fees_usd", "fees $"), ("highs_s", "HiGHS s"), ("mip_s", "MIP s"), ("peer", "peer"),
        ("peer_s", "peer s"), ("cpsat_peer_ratio", "solve/peer"),
        ("greedy_loss_pct", "greedy loss %"), ("fees_saved_usd", "fees saved $"),
        ("optima_agree", "agree")]


def print_table(rows: list[dict[str, Any]]) -> None:
    """The main columns as an aligned text table."""
    cells = [[h for _, h in SHOW]] + [[str(r.get(k, "")) for k, _ in SHOW] for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(SHOW))]
    for c in cells:
        print("  ".join(x.rjust(w) for x, w in zip(c, widths, strict=True)))


def phase_table(sizes: dict[int, int], out: Path) -> str:
    """``benchmarks/phases.py --floor`` for each N of ``sizes`` (N to the instance's seed;
    a fresh process each, so each
    peak is its own), as one Markdown table, also written to ``out/phases.md``. A size whose
    run fails is left out (its error printed)."""
    from benchmarks.phases import table

    rows: dict[int, dict[str, Any]] = {}
    for n, seed in sizes.items():
        dump = out / f"phases-{n}.json"
        done = subprocess.run([sys.executable, str(Path(__file__).with_name("phases.py")),
                               "--n", str(n), "--seed", str(seed), "--floor", "--json", str(dump)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or not dump.exists():
            print(f"  N={n}: phases failed: {done.stderr.strip()[-500:]}", file=sys.stderr)
            continue
        rows[n] = {int(k) if k.isdigit() else k: v
                   for k, v in json.loads(dump.read_text(encoding="utf-8"))[str(n)].items()}
        print(f"  N={n}: phases measured", flush=True)
    text = table(rows) if rows else "(no phase measured)"
    (out / "phases.md").write_text(text + "\n", encoding="utf-8")
    return text


def main(argv: list[str] | None = None) -> int:
    from benchmarks.instances import INSTANCES

    ap = argparse.ArgumentParser(description="Benchmark the product against greedy and two "
                                             "HiGHS peers.")
    ap.add_argument("--max", type=int, default=1_000,
                    help="largest N of the benchmark set to run (default 1000)")
    ap.add_argument("--n", type=int, nargs="+", default=None,
                    help="run exactly these N of the set (overrides --max)")
    ap.add_argument("--time-limit", type=float, default=120.0,
                    help="wall-clock cap per instance and method, seconds (default 120)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT,
                    help="where benchmark.csv, benchmark.png and logs/ go "
                         "(default benchmarks/results/latest)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="processes for independent parts, product and HiGHS (default 2)")
    ap.add_argument("--jobs1", action="store_true",
                    help="also measure the product with jobs=1")
    ap.add_argument("--deterministic-time", type=float, default=None,
                    help="the product's deterministic limit per stage and part "
                         "(default: the product's default)")
    ap.add_argument("--no-greedy", action="store_true")
    ap.add_argument("--no-highs", action="store_true",
                    help="skip the translated-model HiGHS peer")
    ap.add_argument("--no-mip", action="store_true", help="skip the native MIP peer")
    ap.add_argument("--no-phases", action="store_true",
                    help="skip the phase table (benchmarks/phases.py --floor per N)")
    ap.add_argument("--no-e2e", action="store_true",
                    help="skip timing the whole `tourney solve` command")
    # the child side (internal)
    ap.add_argument("--child", choices=("probe", "cpsat", "greedy", "highs", "mip"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--instance", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--cap", type=float, default=120.0, help=argparse.SUPPRESS)
    ap.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child_main(args)
        return 0
    if args.deterministic_time is None:
        from scheduler.engine.cpsat import DETERMINISTIC_TIME

        args.deterministic_time = DETERMINISTIC_TIME
    sizes = dict(INSTANCES)
    wanted = args.n if args.n is not None else [n for n, _ in INSTANCES if n <= args.max]
    unknown = [n for n in wanted if n not in sizes]
    if unknown:
        print(f"no benchmark instance with N = {unknown}; the set is "
              f"{', '.join(str(n) for n, _ in INSTANCES)}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"benchmark: N = {wanted}, cap {args.time_limit:g} s per instance and method, "
          f"jobs={args.jobs}, code {code_version() or '?'}, {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    import pandas as pd

    rows: list[dict[str, Any]] = []
    failures: list[str] = []
    for n in wanted:
        t0 = time.perf_counter()
        row, fails = bench_one(n, sizes[n], args)
        rows.append(row)
        failures += fails
        print(f"  N={n} done in {time.perf_counter() - t0:.0f} s", flush=True)
        pd.DataFrame(rows, columns=COLUMNS).to_csv(args.out / "benchmark.csv", index=False)
    plot(rows, args.out / "benchmark.png")
    print_table(rows)
    if not args.no_phases:
        print(phase_table({n: sizes[n] for n in wanted}, args.out), flush=True)
    print(f"written: {args.out / 'benchmark.csv'}, {args.out / 'benchmark.png'}")
    for f in failures:
        print("FAILED:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
