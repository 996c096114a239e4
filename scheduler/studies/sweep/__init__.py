"""Sweeps: solve a grid of what-if variants of one scenario and compare them side by side.

A *vary file* (YAML) lists what changes; each change is a dotted key and a value::

    grid:                                  # every combination (first key varies slowest)
      notice_from: [2026-12-06, 2026-12-20]
      settings.month_rule: [touch, start]
    variants:                              # optional: more variants, one by one
      - name: hellgate charity not charitable
        set: {tournaments.hellgate-charity.charitable: false,
              tournaments.hellgate-charity.charity_share: null}
    baseline: true                         # optional: the scenario as it is, first
    combine: product                       # or zip: the i-th values of every key together

Keys: a top-level scenario field (``notice_from``, ``name``, ``horizon.start``, ...),
``settings.FIELD`` (a reading), ``tournaments.ID.FIELD`` and ``operators.ID.FIELD`` (a
nested field by more dots: ``tournaments.ID.window.end``,
``operators.ID.held_in_current_permit_year.large_stakes``). Changes go through the analyst
API (:meth:`Scenario.replace`, ``with_settings``, ``with_tournament``, ``with_operator``), so
a variant is validated like a loaded file.

Each variant is solved with :func:`scheduler.engine.solver.solve` (fixed seed, deterministic time
limit, one CP-SAT worker: the same plan on any machine and under any load) by an engine: a
local process pool, or Dask (``dask.distributed``: an embedded ``LocalCluster`` or a running
cluster), each variant one task. The results are a :class:`Sweep`, a
:class:`~scheduler.export.comparison.Comparison` of the variants' plans in the order given; the
same whichever engine ran them::

    from scheduler import load_scenario
    from scheduler.studies.sweep import sweep

    sc = load_scenario("data/examples/combined.yaml")
    res = sweep(sc, {"notice_from": ["2026-12-06", "2026-12-20"],
                     "settings.month_rule": ["touch", "start"]}, jobs=2)
    res.table        # one row per variant: what changed, totals, limit usage, moved

(``sweep`` is not exported from ``scheduler`` itself: this module's name would replace the
function as an attribute of the package once imported, as ``scheduler.export.comparison``
explains for ``compare``.)

The package, one module per responsibility: :mod:`~scheduler.studies.sweep.variants` (a change and
how it is made), :mod:`~scheduler.studies.sweep.vary` (grids, lists and vary files into variants),
:mod:`~scheduler.studies.sweep.cluster` (the Dask engine), :mod:`~scheduler.studies.sweep.table`
(the results,
:class:`Sweep`); this module runs them (:func:`sweep`, the local engine).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import fields
from typing import Any, Literal

from scheduler.core.pool import process_pool, stop_workers
from scheduler.core.scenario import Scenario
from scheduler.engine.cpsat import Interrupted
from scheduler.engine.solver import solve
from scheduler.export.comparison import Comparison, compare
from scheduler.result.plan import Plan
from scheduler.studies.sweep.cluster import DEFAULT_TIMEOUT, Progress, SweepTask, failed, run_dask
from scheduler.studies.sweep.table import Sweep
from scheduler.studies.sweep.variants import Variant
from scheduler.studies.sweep.vary import variants_of

__all__ = ["sweep"]


def _solve_variant(scenario: Scenario, task: SweepTask, jobs: int = 1) -> Plan:
    """One variant, as every engine solves it (module level: pickled by reference)."""
    return solve(scenario, seed=task.seed, deterministic_time=task.deterministic_time,
                 workers=task.workers, jobs=jobs)


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent (which stops them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_local(variants: Sequence[Variant], task: SweepTask, jobs: int,
               progress: Progress | None) -> list[Plan]:
    if jobs <= 1 or len(variants) == 1:
        plans = []
        for i, v in enumerate(variants, start=1):
            try:
                plan = _solve_variant(v.scenario, task, jobs=max(1, jobs))
            except Interrupted:
                raise KeyboardInterrupt from None
            except Exception as exc:
                raise failed(v.name, exc) from exc
            if plan.interrupted:  # Ctrl-C stopped the search: stop the sweep too
                raise KeyboardInterrupt
            plans.append(plan)
            if progress is not None:
                progress(i, len(variants), v.name)
        return plans

    # the process pool of scheduler.engine.solver (fork where available: no __main__ guard needed)
    pool = process_pool(jobs, len(variants), initializer=_ignore_sigint)
    try:
        futures: dict[Future[Plan], int] = {
            pool.submit(_solve_variant, v.scenario, task): i for i, v in enumerate(variants)}
        pending = set(futures)
        done = 0
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in sorted(finished, key=futures.__getitem__):
                v = variants[futures[f]]
                err = f.exception()
                if err is not None:
                    raise failed(v.name, err) from err
                done += 1
                if progress is not None:
                    progress(done, len(variants), v.name)
        return [f.result() for f in futures]
    except BaseException:
        stop_workers(pool)  # a running solve stops at once
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def sweep(scenario: Scenario, variants: Any, *, engine: Literal["local", "dask"] = "local",
          address: str | None = None, client: Any = None, jobs: int | None = None,
          seed: int = 0, deterministic_time: float | None = 30.0, workers: int = 1,
          timeout: float = DEFAULT_TIMEOUT, cluster_kwargs: Mapping[str, Any] | None = None,
          progress: Progress | None = None, security: Any = None,
          allow_insecure: bool = False) -> Sweep:
    """Solve every variant of ``scenario`` and compare them.

    ``variants``: what :func:`variants_of` accepts: a list of :class:`Variant` (from
    :func:`read_vary` or :func:`grid`), ``{name: Scenario}``, ``{name: {key: value}}`` or a
    grid ``{key: [values]}``. Each is solved with :func:`scheduler.engine.solver.solve` (``seed``,
    ``deterministic_time`` in CP-SAT deterministic units per stage and part, ``workers``
    CP-SAT workers; no wall-clock limit, so every engine gives the same plans).

    ``engine="local"``: a process pool of ``jobs`` processes (None or 0: one per CPU core; 1:
    in this process). ``engine="dask"``: each variant a task of ``client`` (an existing
    ``dask.distributed.Client``), else of the scheduler at ``address``
    (``tcp://host:8786``; its workers need tourney installed; ``timeout`` seconds to connect
    (an endpoint that is silent or not Dask: SweepError exit 2), for a first worker (none:
    exit 2), and while solving for a worker when none is left, or for a finished variant or
    a worker's heartbeat (a hung worker), SweepError exit 3, as for a lost scheduler;
    distributed's loggers are silenced meanwhile), else of an embedded
    ``LocalCluster`` of ``jobs`` worker processes, one thread each (``cluster_kwargs``
    override its arguments, e.g. ``{"processes": False}``). A Dask scheduler can run any
    code in this process: ``address`` over ``tcp://`` (unencrypted) must be on this machine
    unless ``allow_insecure`` (SweepError exit 2 before any connection); ``tls://`` takes
    ``security`` (:func:`scheduler.studies.sweep.cluster.security`: CA, certificate, key).

    ``progress(done, total, name)`` is called as variants finish.

    Returns a :class:`Sweep` (a :class:`~scheduler.export.comparison.Comparison` whose columns are
    the variants in order, plus ``plans``, ``changes`` and ``table``).

    Raises :class:`VaryError` for variants that do not fit the scenario (nothing solved),
    ``ValueError`` for no variants,
    :class:`SweepError` when the engine cannot be used (``exit_code`` 2) or a variant cannot
    be solved (``exit_code`` 3, ``variant`` names it), ``ValueError`` for an unknown engine.
    """
    if engine not in ("local", "dask"):
        raise ValueError(f"engine must be 'local' or 'dask', not {engine!r}")
    vs = variants_of(scenario, variants)
    if not vs:
        raise ValueError("sweep() needs at least one variant")
    n = jobs or os.cpu_count() or 1
    task = SweepTask(seed, deterministic_time, workers)
    if engine == "dask":
        plans = run_dask(vs, task, _solve_variant, address=address, client=client, jobs=n,
                         timeout=timeout, cluster_kwargs=cluster_kwargs, progress=progress,
                         security=security, allow_insecure=allow_insecure)
    else:
        plans = _run_local(vs, task, n, progress)
    named = {v.name: p for v, p in zip(vs, plans, strict=True)}
    cmp = compare(named)
    return Sweep(**{f.name: getattr(cmp, f.name) for f in fields(Comparison)},
                 plans=named, changes={v.name: dict(v.changes) for v in vs})
