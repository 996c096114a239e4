"""``tourney generate`` (a synthetic scenario, :mod:`scheduler.studies.generate`) and ``tourney
sweep`` (a grid of what-if variants, :mod:`scheduler.studies.sweep`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from scheduler.cli.errors import (
    CommandError,
    Entry,
    Table,
    err,
    handled,
    loaded_error,
    reading_input,
    writing,
)
from scheduler.cli.solve import load
from scheduler.core.atomic import lock
from scheduler.core.atomic_files import WriteRefused, refuse_inputs, shown, unwritable, write_files
from scheduler.core.errors import EXIT_INTERRUPTED
from scheduler.core.limits import (
    MAX_MODEL_CELLS_DEFAULT,
    MAX_VARIANTS_CEILING,
    MAX_VARIANTS_DEFAULT,
)


@handled()
def generate(
    operators: Annotated[int, typer.Option(
        "--operators", "-n", help="How many operators: 70 % Montana card rooms, 30 % Maine "
                                  "organizations.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The scenario YAML file to write, in a "
                                                          "folder that exists (an earlier "
                                                          "generated file is replaced, any "
                                                          "other file never).")],
    seed: Annotated[int, typer.Option(help="Random seed: the same --operators and --seed "
                                           "give the same file.", min=0)] = 0,
    year: Annotated[int, typer.Option(help="The calendar year to plan.")] = 2027,
) -> None:
    """Write a synthetic statewide scenario (for benchmarks and scale tests; the operators
    are invented). Exit 0 written, 2 bad options or the file cannot be written."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.studies.generate import operator_counts, scenario_text, write_text_atomic

    with reading_input():
        text = scenario_text(operators, seed, year=year)
    with writing(out, "Nothing was written.", reason="strerror"):
        where = write_text_atomic(text, out)
    kinds = operator_counts(operators)
    typer.echo(f"Wrote {where}: {operators:,} operators ({kinds['montana']:,} Montana card "
               f"rooms, {kinds['maine']:,} Maine), {year}, seed {seed}.")


@handled()
def template(
    out: Annotated[Path, typer.Argument(help="The workbook to write (.xlsx; an existing file "
                                             "is replaced only with --force).")],
    example: Annotated[str, typer.Option(
        "--example", help="The example rows: montana (a card room) or maine (a Legion "
                          "post).")] = "montana",
    force: Annotated[bool, typer.Option(
        "--force", help="Replace the file when it exists (a filled workbook is lost).")
    ] = False,
    results: Annotated[bool, typer.Option(
        "--results", help="Write the results workbook instead: one row per occurrence the "
                          "ledger's adopted plans have, to fill in after each night and give "
                          "to `tourney record --from`.")] = False,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", help="With --results: the ledger (default: $TOURNEY_LEDGER, else "
                         "./tourney-ledger.sqlite).")] = None,
) -> None:
    """Write a scenario workbook (Settings, Operators, Tournaments, Sessions, History, Tours)
    with an example, to fill in and give to `tourney solve`; with --results, the results
    workbook of the ledger. Exit 0 written, 2 bad options, the file exists (without --force)
    or not writable."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.core.workbook.layout import EXAMPLES  # start-up time: no engine in --help
    from scheduler.inputs.load import load_scenario  # start-up time: no engine in --help

    if example not in EXAMPLES:
        raise CommandError(f"tourney: --example must be one of {', '.join(EXAMPLES)}, not "
                           f"{example!r}")
    if out.suffix.lower() != ".xlsx":
        raise CommandError(f"tourney: {out} does not end in .xlsx; tourney solve reads a "
                           "workbook by its .xlsx suffix")
    if (out.exists() or out.is_symlink()) and not force:
        raise CommandError(f"tourney: {shown(out)} exists; give --force to replace it. "
                           "Nothing was written.")
    if results:
        from scheduler.cli.ledger import results_template  # start-up time: no sqlalchemy

        results_template(out, ledger)
        return
    data = load_scenario(EXAMPLES[example]).to_xlsx()
    with writing(out, "Nothing was written.", reason="strerror"):
        try:
            write_files({out: data})
        except WriteRefused as exc:  # the workbook is an argument here, not an --out
            raise WriteRefused(str(exc).replace("another --out", "another file name")) \
                from None
    typer.echo(f"Wrote {shown(out)}: the {example} example; fill in the sheets (each header's "
               f"comment gives the unit and rule), then: tourney solve {shown(out)}")


def _progress_line() -> str:
    """A newline that ends the progress line, when one is shown (on a terminal)."""
    return "\n" if sys.stderr.isatty() else ""


def _sweeping() -> Table:
    """How a failure ends ``tourney sweep``: after the progress line, on a line of its own."""
    table: dict[type[BaseException], Entry] = {KeyboardInterrupt: (
        EXIT_INTERRUPTED,
        lambda e: f"{_progress_line()}tourney: interrupted; nothing was written.")}
    error = loaded_error("scheduler.studies.sweep.variants", "SweepError")
    if error is not None:  # else not loaded: not raised
        table[error] = (
            None, lambda e: f"{_progress_line()}tourney: {e}. Nothing was written.")
    return table


@handled(_sweeping)
def sweep(
    ctx: typer.Context,
    scenario: Annotated[Path, typer.Argument(
        help="Scenario YAML file or .xlsx workbook (the base).")],
    vary: Annotated[Path, typer.Option(
        "--vary", help="YAML file of what-if variants: grid: {KEY: [VALUES]} (every "
                       "combination) and/or variants: [{name, set: {KEY: VALUE}}]; keys "
                       "notice_from, settings.month_rule, tournaments.ID.count, "
                       "operators.ID.FIELD, ... (see README).")],
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="CSV to write, one row per variant (replaced if it exists); "
                            "STEM.usage.csv and STEM.moved.csv are written beside it.")
    ] = Path("sweep.csv"),
    jobs: Annotated[int, typer.Option(
        help="Variants solved at once: local processes, or Dask workers of the embedded "
             "cluster (0: one per CPU core).", min=0)] = 0,
    dask: Annotated[bool, typer.Option(
        "--dask", help="Run each variant as a Dask task: on an embedded LocalCluster, or "
                       "on a running cluster given as `--dask tls://HOST:8786` (or tcp:// "
                       "on this machine; its workers need tourney installed). A Dask "
                       "scheduler can run any code in this process. Needs "
                       "tourney[dask].")] = False,
    dask_ca: Annotated[Path | None, typer.Option(
        "--dask-ca", help="With --dask tls://...: the CA certificate (PEM) that signed the "
                          "scheduler's.")] = None,
    dask_cert: Annotated[Path | None, typer.Option(
        "--dask-cert", help="With --dask tls://...: this client's certificate (PEM).")
    ] = None,
    dask_key: Annotated[Path | None, typer.Option(
        "--dask-key", help="With --dask tls://...: this client's private key (PEM).")
    ] = None,
    allow_insecure_dask: Annotated[bool, typer.Option(
        "--allow-insecure-dask", help="Allow --dask tcp://HOST of another machine: "
                                      "unencrypted, and the scheduler can run any code in "
                                      "this process.")] = False,
    timeout: Annotated[float, typer.Option(
        help="With --dask ADDRESS: seconds to wait for the scheduler (which must answer as "
             "one) and a first worker; while solving, for a worker when none is left, or for "
             "a variant to finish or a worker to answer (a hung worker) (then exit 3).",
        min=0.1)] = 10.0,
    seed: Annotated[int, typer.Option(help="CP-SAT random seed.", min=0, max=2**31 - 1)] = 0,
    deterministic_time: Annotated[float, typer.Option(
        help="CP-SAT deterministic time per search and part (the same results on "
             "every machine and engine).", min=0.1)] = 30.0,
    max_variants: Annotated[int, typer.Option(
        help="Refuse a vary file of more variants than this (counted before any is built; "
             "see docs/limits.md).", min=1, max=MAX_VARIANTS_CEILING)] = MAX_VARIANTS_DEFAULT,
    max_model: Annotated[int, typer.Option(
        help="Refuse a variant whose model's largest independent part has more candidate "
             "(tournament, first day) pairs than this (see docs/limits.md).",
        min=1)] = MAX_MODEL_CELLS_DEFAULT,
) -> None:
    """Solve a grid of what-if variants of a scenario (readings, notice_from, a tournament's
    count or priority, licence choices) and write one comparison table: per variant, what
    changed, placed, not placed, fees, limits used, occurrences moved. Exit 0 written, 2 bad
    input or the Dask scheduler cannot be reached (nothing written), 3 a variant could not
    be solved."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.engine.decompose import check_model_size
    from scheduler.studies.sweep import sweep as run  # start-up time: no engine in --help
    from scheduler.studies.sweep.table import Sweep  # start-up time: no engine in --help
    from scheduler.studies.sweep.vary import read_vary  # start-up time: no engine in --help

    scenario, address = _scenario_and_address([str(scenario), *ctx.args], dask)
    tls = [str(p) if p is not None else None for p in (dask_ca, dask_cert, dask_key)]
    security = None
    if address is not None:  # refused before any file is read or any connection made
        from scheduler.studies.sweep.cluster import (
            check_address,  # start-up time: no engine in --help
        )
        from scheduler.studies.sweep.cluster import security as dask_security  # start-up time

        check_address(address, allow_insecure=allow_insecure_dask,
                      tls_files=any(t is not None for t in tls))
        if any(t is not None for t in tls):
            security = dask_security(*tls)
        elif address.lower().startswith("tls://"):
            raise CommandError(f"tourney: --dask {address} needs this client's TLS files: "
                               "--dask-ca (the CA that signed the scheduler's certificate), "
                               "--dask-cert and --dask-key")
    elif any(t is not None for t in tls) or allow_insecure_dask:
        raise CommandError("tourney: --dask-ca, --dask-cert, --dask-key and "
                           "--allow-insecure-dask are for --dask ADDRESS")
    refuse_inputs(Sweep.outputs(out), [scenario, vary])
    problem = unwritable(out)
    if problem:
        raise CommandError(f"tourney: cannot write {out}: {problem}. Nothing was written.")
    # held to the end: a second sweep into the same --out is refused at once
    with writing(shown(out), "Nothing was solved or written."):
        ctx.with_resource(lock(out.resolve()))
    sc = load(scenario)
    variants = read_vary(vary, sc, max_variants=max_variants)
    check_model_size(sc, max_model)
    for variant in variants:  # each variant estimated before any is solved
        check_model_size(variant.scenario, max_model, f"variant {variant.name!r}: ")

    def show(done: int, total: int, name: str) -> None:
        typer.echo(f"\r  variants {done:,}/{total:,} solved (last: {name})\x1b[K", err=True,
                   nl=False)

    where = f" on {address}" if address else (" on a local Dask cluster" if dask else "")
    err(f"Solving {len(variants):,} variant(s){where}...")
    res = run(sc, variants, engine="dask" if dask else "local", address=address,
              jobs=jobs, seed=seed, deterministic_time=deterministic_time, timeout=timeout,
              progress=show if sys.stderr.isatty() else None, security=security,
              allow_insecure=allow_insecure_dask)
    if sys.stderr.isatty():
        err("")
    with writing(out, "Nothing was written.", reason="strerror"):
        paths = res.write_csv(out)
    typer.echo(res.summary(), nl=False)
    typer.echo(f"Wrote {paths[0]} ({len(variants):,} variants; limits used and what moved "
               f"in {', '.join(p.name for p in paths[1:])})")


def _scenario_and_address(positional: list[str], dask: bool) -> tuple[Path, str | None]:
    """The scenario file and the Dask scheduler's address (typer gives ``--dask ADDRESS``'s
    address as a positional argument: ``--dask`` is a flag). A :class:`CommandError` (exit
    2) for two addresses or extra arguments."""
    address = None
    if dask:
        addresses = [a for a in positional if looks_like_address(a)]
        if len(addresses) > 1:
            raise CommandError(f"tourney: give one Dask scheduler address, not "
                               f"{', '.join(addresses)}")
        address = addresses[0] if addresses else None
        positional = [a for a in positional if a != address]
    if len(positional) != 1:
        extra = ", ".join(positional[1:])
        raise CommandError(f"tourney: unexpected argument(s): {extra} (one scenario file; a "
                           "Dask address goes after --dask, e.g. --dask tcp://scheduler:8786)")
    return Path(positional[0]), address


def looks_like_address(arg: str) -> bool:
    """A Dask scheduler address: ``tcp://host:8786``, ``tls://...``, or ``host:port``."""
    return "://" in arg or re.fullmatch(r"[\w.\-]+:\d+|\[[0-9a-fA-F:]+\]:\d+", arg) is not None
