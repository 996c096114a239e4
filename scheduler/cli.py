"""The ``tourney`` command line: thin typer commands over the Python API.

Exit codes of ``tourney solve``: 0 every required occurrence placed; 1 a required occurrence
cannot be placed (the rules and requests in conflict are printed; the best legal plan is still
written); 2 invalid input (file, line, field, value, rule; nothing written); 3 an internal
failure (the solver found nothing in time, or the plan failed its own audit; nothing written).
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from scheduler.limits import (
    MAX_MODEL_CELLS_DEFAULT,
    MAX_VARIANTS_CEILING,
    MAX_VARIANTS_DEFAULT,
    cap_lines,
)
from scheduler.text import cell

if TYPE_CHECKING:  # start-up time: the engine is imported only by the command that runs
    from scheduler.plan import Plan
    from scheduler.scenario import Scenario
    from scheduler.solver import Progress



class _RedactingGroup(TyperGroup):
    """The command group whose usage errors (which echo the command line: "Got unexpected
    extra argument(s) (https://alice:secret@...)", "Invalid value ...") show URLs without
    their credentials (:func:`scheduler.export.caldav.redact`), for every command."""

    @staticmethod
    def _redacted(exc: Exception) -> None:
        message = getattr(exc, "message", None)
        if isinstance(message, str) and "://" in message:
            from scheduler.export.caldav import redact  # start-up time

            exc.message = redact(message)  # type: ignore[attr-defined]

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except Exception as exc:
            self._redacted(exc)
            raise

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as exc:
            self._redacted(exc)
            raise


app = typer.Typer(cls=_RedactingGroup,
                  add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,  # plain help: rich alone takes 0.16 s to import
                  help="Plan a year of licensed card-game tournaments "
                       "(MCA 23-5-317, 17 M.R.S. § 1836). Not legal advice.")


@app.callback()
def _root() -> None:
    """tourney: legal tournament calendars, notices and the cheapest licences."""


def _err(msg: str) -> None:
    """``msg`` on standard error, at most :data:`scheduler.limits.MAX_MESSAGE_CHARS` long."""
    from scheduler.limits import cap_message  # start-up time: --help imports no more

    typer.echo(cap_message(msg), err=True)


def _interruptible(command: Callable[..., None]) -> Callable[..., None]:
    """Ctrl-C anywhere in ``command`` outside the search (reading, building, writing) says
    that nothing was written and exits 130 (the writers are atomic)."""
    @functools.wraps(command)
    def run(*args: object, **kwargs: object) -> None:
        try:
            command(*args, **kwargs)
        except KeyboardInterrupt:
            _err("tourney: interrupted; nothing was written.")
            raise typer.Exit(130) from None
    return run


def _load(path: Path) -> Scenario:
    """The validated scenario; its problems printed and exit 2 when it is not valid."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.load import load_scenario
    from scheduler.scenario import ScenarioError

    try:
        return load_scenario(path)
    except ScenarioError as exc:
        _err(exc.render())
        raise typer.Exit(2) from None


@app.command()
@_interruptible
def solve(
    ctx: typer.Context,
    scenario: Annotated[Path, typer.Argument(
        help="Scenario YAML file or .xlsx workbook (see docs/scenario.md).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("plan"),
    time_limit: Annotated[float | None, typer.Option(
        help="Wall-clock seconds per objective stage and part (default: none; results then "
             "do not depend on the machine's speed or load).", min=0.1)] = None,
    deterministic_time: Annotated[float, typer.Option(
        help="CP-SAT deterministic time per objective stage and part (about seconds, but "
             "the same on every machine).", min=0.1)] = 30.0,
    seed: Annotated[int, typer.Option(help="CP-SAT random seed.", min=0, max=2**31 - 1)] = 0,
    workers: Annotated[int, typer.Option(help="CP-SAT search workers per part (1 to 64).",
                                         min=1, max=64)] = 1,
    jobs: Annotated[int, typer.Option(
        help="Processes solving independent parts at once (0: one per CPU core; at most "
             "256).", min=0, max=256)] = 0,
    alternatives: Annotated[int, typer.Option(
        help="Also find up to K-1 next-best plans, each differing from the others in at "
             "least --min-difference dates (written to DIR/alternative-2, ...); at most 100.",
        min=1, max=100)] = 1,
    min_difference: Annotated[int, typer.Option(
        help="With --alternatives: how many occurrence dates each plan must differ by.",
        min=1, max=1_000_000)] = 1,
    previous: Annotated[Path | None, typer.Option(
        help="Re-plan from an earlier plan (its folder or calendar.ics): announced "
             "occurrences keep their UID, those past their filing deadline or locked stay, "
             "the rest move as little as possible.")] = None,
    report: Annotated[bool, typer.Option(
        "--report", help="Also write DIR/report.html: one self-contained page with the "
                         "summary, the year pictures, licences, what was not placed and "
                         "the readings used.")] = False,
    max_model: Annotated[int, typer.Option(
        help="Refuse a model whose largest independent part has more candidate "
             "(tournament, first day) pairs than this (see docs/limits.md).",
        min=1)] = MAX_MODEL_CELLS_DEFAULT,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", help="Take the history from this ledger (file or URL): tournaments "
                         "held, permits bought, occurrences held or filed stay.")] = None,
) -> None:
    """Place the tournaments, choose the licences, write CSVs, calendars and a summary."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.export.write import source_date_epoch
    from scheduler.load import load_scenario
    from scheduler.replan import PreviousError, read_previous
    from scheduler.scenario import ScenarioError

    try:
        sc = load_scenario(scenario)
        if ledger is not None:
            sc = _with_ledger(sc, ledger)
        _check_model_size(sc, max_model)
        source_date_epoch()
        announced = read_previous(sc, previous) if previous is not None else None
        foreign = announced.foreign if announced is not None else []
        for line in cap_lines(announced.notes if announced is not None else []):
            _err(f"tourney: warning: {line}")  # a recurring event cut at a limit
    except ScenarioError as exc:
        _err(exc.render())
        raise typer.Exit(2) from None
    except ValueError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(2) from None

    # start-up time: the plan folder's lock only once the input is read
    import os

    from scheduler.atomic import shown  # start-up time, as above
    from scheduler.export.write import claim_plan_folder

    try:  # held from before solving to the end: a second solve into it is refused at once
        ctx.with_resource(claim_plan_folder(out, inputs=[scenario]))
    except OSError as exc:
        _err(f"tourney: cannot write {shown(out)}: {exc}. Nothing was changed; nothing was solved.")
        raise typer.Exit(2) from None

    # start-up time: the solver (ortools) only once the input is read
    from scheduler.export.summary import summary_text
    from scheduler.export.write import write_plan
    from scheduler.replan import holds_plan
    from scheduler.solver import AuditError, Interrupted, SolverError, solve_alternatives
    from scheduler.solver import solve as run

    show = _progress_printer() if sys.stderr.isatty() else None
    # not a re-plan into a folder holding a plan: a changed event must still not keep its
    # SEQUENCE and DTSTAMP (solve() reads the folder's calendar for that)
    replacing = out if previous is None and holds_plan(out) else None
    try:
        if alternatives > 1:
            plans = solve_alternatives(
                sc, alternatives, min_difference=min_difference, time_limit=time_limit,
                deterministic_time=deterministic_time, seed=seed, workers=workers,
                jobs=jobs or os.cpu_count() or 1, previous=announced, replacing=replacing,
                progress=show)
            plan, others = plans[0], plans[1:]
        else:
            plan = run(sc, time_limit=time_limit, deterministic_time=deterministic_time,
                       seed=seed, workers=workers, jobs=jobs or os.cpu_count() or 1,
                       previous=announced, replacing=replacing, progress=show)
            others = []
        if show is not None:
            _err("")
        # a re-plan's publishing state (what the previous calendars published) comes with
        # every plan solve() returns: read_previous reads it, solve() sets it
        if previous is not None and foreign:
            _err(f"tourney: warning: the previous plan {previous} has events of "
                 f"operator(s) {', '.join(foreign)}, not in {scenario}: they are left "
                 f"alone (not cancelled, not in the new calendars)")
        if replacing is not None:
            _err(f"tourney: warning: {out} holds an earlier plan, which this new plan "
                 f"replaces without re-planning from it (events it announced keep no "
                 f"promise: dropped ones are not cancelled, moved ones may get other "
                 f"UIDs). To re-plan from it instead, run: tourney solve {scenario} "
                 f"--previous {out} --out {out}")
    except Interrupted:
        _err("tourney: interrupted before any plan was found; nothing was written.")
        raise typer.Exit(130) from None
    except PreviousError as exc:
        _err(f"tourney: {exc}. Nothing was written.")
        raise typer.Exit(2) from None
    except SolverError as exc:
        _err(f"tourney: {exc}. Try a longer --time-limit. Nothing was written.")
        raise typer.Exit(3) from None
    except AuditError as exc:
        _err(f"tourney: {exc}\nNothing was written. Please report this.")
        raise typer.Exit(3) from None
    try:
        where = write_plan(plan, out, report=report, alternatives=others, inputs=[scenario])
    except OSError as exc:
        _err(f"tourney: cannot write {shown(out)}: {exc}. Nothing was changed.")
        raise typer.Exit(2) from None
    typer.echo(summary_text(plan), nl=False)
    if alternatives > 1:
        typer.echo(_alternatives_text(plan, others, alternatives, min_difference))
    typer.echo(f"Wrote {where}/ (schedule.csv, licenses.csv, unscheduled.csv, calendar.ics, "
               f"calendars/, summary.txt{', report.html' if report else ''})")
    if plan.interrupted:
        gap = plan.gap
        _err("tourney: interrupted; the best plan found so far was written (legal, not "
             f"proven optimal: gap placed {gap.get('placed', 0):.1%}, "
             f"fees {gap.get('fees_usd', 0):.1%}).")
        raise typer.Exit(130)
    if not plan.required_met:
        _err("tourney: some required occurrences cannot be placed (see above); "
             "the best legal plan was written.")
        raise typer.Exit(1)


def _with_ledger(sc: Scenario, ledger: str) -> Scenario:
    """``solve --ledger``: the scenario with its history from the ledger, each thing taken
    said on stderr; a ledger problem exits 2."""
    # start-up time: sqlalchemy only with --ledger
    from scheduler.ledger.history import describe, from_ledger
    from scheduler.ledger.store import LedgerError

    try:
        sc, history = from_ledger(sc, ledger)
    except LedgerError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(2) from None
    for line in describe(history):
        _err(f"tourney: from the ledger: {line}")
    return sc


def _check_model_size(sc: Scenario, limit: int, what: str = "") -> None:
    """Refuse (exit 2) a scenario whose model would be larger than ``limit`` cells
    (:func:`scheduler.decompose.model_size`), saying its size and what to change; ``what``
    names the variant of a sweep."""
    from scheduler.decompose import model_size  # start-up time: the engine only when run

    cells, where = model_size(sc)
    if cells > limit:
        _err(f"tourney: {what}the model would have {cells:,} candidate (tournament, first day) "
             f"pairs in one part ({where}); at most {limit:,} are allowed. Narrow the "
             "tournaments' windows or weekdays, lower their counts, split the scenario into "
             "several files, or raise the limit with --max-model (see docs/limits.md). "
             "Nothing was written.")
        raise typer.Exit(2)


def _progress_printer() -> Callable[[Progress], None]:
    """A one-line progress display on the terminal (stderr): parts done, placed and fees of
    the parts done with their bounds, the stage running."""

    def show(p: Progress) -> None:
        stage = f", now {p.stage}" if p.stage else ""
        typer.echo(f"\r  parts {p.parts_done:,}/{p.parts:,}: placed {p.placed:,} "
                   f"(bound {p.placed_bound:,.0f}, gap {p.gap:.1%}), fees ${p.fees_usd:,} "
                   f"(bound ${p.fees_bound:,.0f}){stage}\x1b[K", err=True, nl=False)
    return show


def _alternatives_text(best: Plan, others: list[Plan], wanted: int, min_difference: int
                       ) -> str:
    lines = [f"Alternatives (each differs from the others in at least {min_difference} "
             f"date(s)):"]
    for p in [best, *others]:
        where = "" if p.rank == 1 else f" -> alternative-{p.rank}/"
        placed = len({(r.tournament_id, r.occurrence) for r in p.rows})
        lines.append(f"  {p.rank}. {placed:,} occurrences placed, fees ${p.total_fees_usd:,}, "
                     f"preferred {p.objective.get('preferred', 0)}{where}")
    if len(others) + 1 < wanted:
        lines.append(f"  Only {len(others) + 1} of the {wanted} asked for exist: no other "
                     "plan places as many occurrences and differs enough.")
    return "\n".join(lines)


@app.command()
@_interruptible
def diff(
    old: Annotated[Path, typer.Argument(help="The earlier plan's folder.")],
    new: Annotated[Path, typer.Argument(help="The later plan's folder.")],
) -> None:
    """What changed between two plans: moved, added and cancelled occurrences (matched by
    UID), and the change in fees."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.diff import DiffError, diff_plans

    try:
        text = diff_plans(old, new)
    except DiffError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(2) from None
    typer.echo(text, nl=False)


@app.command()
@_interruptible
def check(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file or .xlsx workbook.")],
    schedule: Annotated[Path | None, typer.Argument(
        help="schedule.csv written by `tourney solve`, or an .ics calendar (also one edited "
             "in a calendar application). Optional with --ledger.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, csv or json.")] = "table",
    operator: Annotated[str | None, typer.Option(
        "--operator", help="Audit the file as this operator's schedule (its operator id). "
                           "Default: the operator an .ics file names (X-TOURNEY-OPERATOR or "
                           "its calendar name), else the whole scenario.")] = None,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", help="Also audit what this ledger (file or URL) records as held, filed "
                         "and reported.")] = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="With --ledger: the day of the audit (YYYY-MM-DD, default today); "
                        "a report due before it and not filed is late.")] = None,
) -> None:
    """Audit a schedule against every rule, without the solver; with --ledger, also what
    was actually held, filed and reported. Exit 0 clean, 1 violations, 2 unreadable input."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.check import ScheduleError, audit, read_schedule, violation_table

    if fmt not in ("table", "csv", "json"):
        _err(f"tourney: --format must be table, csv or json, not {fmt!r}")
        raise typer.Exit(2)
    sc = _load(scenario)
    if schedule is None:
        if ledger is None:
            _err("tourney: give the SCHEDULE to audit, or --ledger to audit what was held")
            raise typer.Exit(2)
        _check_ledger(sc, ledger, as_of, fmt)
        return
    try:
        read = read_schedule(sc, schedule, operator)
    except ScheduleError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(2) from None
    if operator is not None and schedule.suffix.lower() == ".ics":
        from scheduler.check import calendar_operator  # start-up time

        named = calendar_operator(sc, schedule)
        if named is not None and named != operator:
            _err(f"tourney: warning: {schedule} says it is {named}'s calendar "
                 f"(X-TOURNEY-OPERATOR or its calendar name), but --operator is {operator}: "
                 f"audited as {operator}'s")
    violations = audit(sc, read)
    held = _ledger_audit(sc, ledger, as_of) if ledger is not None else None
    if held is not None:  # check --ledger: what was held, in the same table
        violations = [*violations, *held[0]]
    table = violation_table(violations)
    from scheduler.limits import MAX_LINES_SHOWN, cap_lines  # start-up time
    if (read.unmatched or read.not_checked) and fmt != "table":
        import pandas as pd  # start-up time: pandas only for this table

        extra = pd.DataFrame([{"rule": rule, "citation": "", "operator_id": "",
                               "tournament_id": "", "occurrence": "", "dates": "",
                               "message": line}
                              for rule, lines in (("UNMATCHED", read.unmatched),
                                                  ("NOT-CHECKED", read.not_checked))
                              for line in lines])
        table = pd.concat([table, extra], ignore_index=True)
    if fmt == "csv":  # every text cell spreadsheet-safe, as schedule.csv (file names too)
        safe = table.map(lambda x: cell(str(x)))
        typer.echo(safe.to_csv(index=False, lineterminator="\n"), nl=False)
    elif fmt == "json":
        typer.echo(json.dumps(table.to_dict(orient="records"), indent=2, ensure_ascii=False))
    else:
        rendered = [line if len(line := v.render_line()) <= 400
                    else f"{line[:400]}... ({len(line):,} characters)" for v in violations]
        for line in cap_lines(rendered, 4 * MAX_LINES_SHOWN,
                              "violation(s) (--format csv lists every one)"):
            typer.echo(line)
        n = len({(p.tid, p.occurrence) for p in read.placed})
        own = ""
        if read.operators is not None:  # one operator's calendar: how many are its own
            mine = {(p.tid, p.occurrence) for p in read.placed
                    if read.operators & set(p.tournament.operators)}
            own = f", {len(mine)} of them {', '.join(sorted(read.operators))}'s"
        typer.echo(f"{len(violations)} violation(s) in {n} occurrence(s) of {schedule}{own}"
                   + ("" if read.licenses is not None else
                      " (no licenses.csv beside it: fees not checked)"))
    for line in cap_lines(read.unmatched, MAX_LINES_SHOWN, "event(s) not matched"):
        _err(f"not matched: {line}")
    if read.not_checked and fmt == "table":  # deadlines, cancelled events: not games
        for line in cap_lines(read.not_checked, MAX_LINES_SHOWN, "event(s) not checked"):
            typer.echo(f"not checked: {line}")
    if held is not None and fmt == "table":
        typer.echo(_held_line(*held))
    if violations or read.unmatched:
        raise typer.Exit(1)


def _ledger_audit(sc: Scenario, ledger: str, as_of: str | None
                  ) -> tuple[list[Any], Any]:
    """``check --ledger``: the violations in what the ledger records as held, filed and
    reported (scheduler/ledger/audit.py), and what was read; a ledger problem exits 2."""
    # start-up time: sqlalchemy only with --ledger
    from scheduler.ledger.audit import audit_ledger
    from scheduler.ledger.store import LedgerError

    try:
        day = _dt.date.fromisoformat(as_of) if as_of is not None else None
    except ValueError:
        _err(f"tourney: --as-of {as_of!r} is not a date (YYYY-MM-DD)")
        raise typer.Exit(2) from None
    try:
        return audit_ledger(ledger, sc, as_of=day)
    except LedgerError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(2) from None


def _held_line(violations: list[Any], actuals: Any) -> str:
    return (f"{len(violations)} violation(s) in {len(actuals.held)} held occurrence(s) and "
            f"{len(actuals.reports)} report(s) owed in the ledger (as of {actuals.as_of})")


def _check_ledger(sc: Scenario, ledger: str, as_of: str | None, fmt: str) -> None:
    """``check SCENARIO --ledger`` without a schedule: what was held, printed as `tourney
    check` prints violations; exit 1 when any."""
    from scheduler.check import violation_table  # start-up time, as in check

    violations, actuals = _ledger_audit(sc, ledger, as_of)
    table = violation_table(violations)
    if fmt == "csv":  # every text cell spreadsheet-safe, as in check
        typer.echo(table.map(lambda x: cell(str(x))).to_csv(index=False, lineterminator="\n"),
                   nl=False)
    elif fmt == "json":
        typer.echo(json.dumps(table.to_dict(orient="records"), indent=2, ensure_ascii=False))
    else:
        for v in violations:
            typer.echo(v.render_line())
        typer.echo(_held_line(violations, actuals))
    if violations:
        raise typer.Exit(1)


@app.command()
def publish(
    plan_dir: Annotated[Path, typer.Argument(help="A plan folder written by `tourney solve`.")],
    url: Annotated[str, typer.Option("--caldav", help="The CalDAV server's URL, e.g. "
                                     "https://cal.example.org/dav/.")],
    user: Annotated[str, typer.Option("--user", help="CalDAV user name.")],
    timeout: Annotated[float, typer.Option(
        help="Seconds one request to the server may take in all (connecting, sending and "
             "the whole answer).", min=0.1, max=3600)] = 30.0,
    allow_insecure_http: Annotated[bool, typer.Option(
        "--allow-insecure-http", help="Allow an http:// URL to another machine: the "
                                      "password then crosses the network unencrypted.")
    ] = False,
    take_over: Annotated[bool, typer.Option(
        "--take-over", help="Overwrite or delete server events that another plan lineage "
                            "(another year's, scenario's or organization's plan) published "
                            "under the same UIDs; without it such a publish stops, exit 2, "
                            "naming them.")] = False,
) -> None:
    """Put each operator's calendar (calendars/<operator>.ics) into its own CalDAV calendar
    <operator> (created when missing): events updated by UID, removed or cancelled ones
    deleted, nothing else touched (events of other plan lineages neither). The password is
    read from TOURNEY_CALDAV_PASSWORD, else asked for. https:// only (http:// to this
    machine, or with --allow-insecure-http); credentials are never printed. Exit 0 done, 2 a
    problem (folder, URL, password, server, --timeout passed, or events of another plan
    lineage in the way)."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.export.caldav import PASSWORD_ENV, PublishError, publish_to, redact, summary

    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        try:
            if sys.stdin is not None and sys.stdin.isatty():
                password = typer.prompt(f"CalDAV password for {user}", hide_input=True,
                                        err=True)
            else:  # piped: the first line of standard input
                line = sys.stdin.readline() if sys.stdin is not None else ""
                password = line.rstrip("\r\n") if line else None
        except (typer.Abort, OSError, ValueError):
            password = None
        if password is None:
            _err(f"tourney: no password (set {PASSWORD_ENV} or type it at the prompt)")
            raise typer.Exit(2)
    try:
        results = publish_to(plan_dir, url, user, password, timeout=timeout,
                             allow_insecure_http=allow_insecure_http, take_over=take_over)
    except PublishError as exc:  # the password is already out of what the server said
        _err(redact(f"tourney: {exc}"))
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        _err("tourney: interrupted; the server may hold part of the changes: publish again.")
        raise typer.Exit(130) from None
    except Exception as exc:  # never a traceback, never a credential
        if os.environ.get("TOURNEY_DEBUG"):
            raise
        _err(redact(f"tourney: internal error while publishing ({type(exc).__name__}: "
                    f"{exc}). Please report this; TOURNEY_DEBUG=1 shows details.", [password]))
        raise typer.Exit(3) from None
    typer.echo(summary(results, url, [password]), nl=False)
    from scheduler.export.caldav import warnings  # start-up time

    for line in warnings(results):
        _err(f"tourney: warning: {line}")


@app.command()
@_interruptible
def generate(
    operators: Annotated[int, typer.Option(
        "--operators", "-n", help="How many operators: 70 % Montana card rooms, 30 % Maine "
                                  "organizations.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The scenario YAML file to write "
                                                          "(replaced if it exists).")],
    seed: Annotated[int, typer.Option(help="Random seed: the same --operators and --seed "
                                           "give the same file.", min=0)] = 0,
    year: Annotated[int, typer.Option(help="The calendar year to plan.")] = 2027,
) -> None:
    """Write a synthetic statewide scenario (for benchmarks and scale tests; the operators
    are invented). Exit 0 written, 2 bad options or the file cannot be written."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.generate import operator_counts, scenario_text, write_text_atomic

    try:
        text = scenario_text(operators, seed, year=year)
    except ValueError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(2) from None
    try:
        where = write_text_atomic(text, out)
    except OSError as exc:
        _err(f"tourney: cannot write {out}: {exc.strerror or exc}. Nothing was written.")
        raise typer.Exit(2) from None
    kinds = operator_counts(operators)
    typer.echo(f"Wrote {where}: {operators:,} operators ({kinds['montana']:,} Montana card "
               f"rooms, {kinds['maine']:,} Maine), {year}, seed {seed}.")


@app.command()
@_interruptible
def template(
    out: Annotated[Path, typer.Argument(help="The workbook to write (.xlsx; replaced if it "
                                             "exists).")],
    example: Annotated[str, typer.Option(
        "--example", help="The example rows: montana (a card room) or maine (a Legion "
                          "post).")] = "montana",
) -> None:
    """Write a scenario workbook (Settings, Operators, Tournaments, History) with an example,
    to fill in and give to `tourney solve`. Exit 0 written, 2 bad options or not writable."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.atomic import shown, write_files
    from scheduler.load import load_scenario
    from scheduler.workbook import EXAMPLES

    if example not in EXAMPLES:
        _err(f"tourney: --example must be one of {', '.join(EXAMPLES)}, not {example!r}")
        raise typer.Exit(2)
    if out.suffix.lower() != ".xlsx":
        _err(f"tourney: {out} does not end in .xlsx; tourney solve reads a workbook by its "
             ".xlsx suffix")
        raise typer.Exit(2)
    data = load_scenario(EXAMPLES[example]).to_xlsx()
    try:
        write_files({out: data})
    except OSError as exc:  # WriteRefused (a read-only folder) is an OSError too
        _err(f"tourney: cannot write {out}: {exc.strerror or exc}. Nothing was written.")
        raise typer.Exit(2) from None
    typer.echo(f"Wrote {shown(out)}: the {example} example; fill in the sheets (each header's "
               f"comment gives the unit and rule), then: tourney solve {shown(out)}")


@app.command(context_settings={"allow_extra_args": True})
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
                       "on a running cluster given as `--dask tcp://HOST:8786` (its "
                       "workers need tourney installed). Needs tourney[dask].")] = False,
    timeout: Annotated[float, typer.Option(
        help="With --dask ADDRESS: seconds to wait for the scheduler (which must answer as "
             "one) and a first worker; while solving, for a worker when none is left, or for "
             "a variant to finish or a worker to answer (a hung worker) (then exit 3).",
        min=0.1)] = 10.0,
    seed: Annotated[int, typer.Option(help="CP-SAT random seed.", min=0, max=2**31 - 1)] = 0,
    deterministic_time: Annotated[float, typer.Option(
        help="CP-SAT deterministic time per objective stage and part (the same results on "
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
    from scheduler.sweep import SweepError, VaryError, read_vary
    from scheduler.sweep import sweep as run

    positional = [str(scenario), *ctx.args]
    address = None
    if dask:
        addresses = [a for a in positional if _looks_like_address(a)]
        if len(addresses) > 1:
            _err(f"tourney: give one Dask scheduler address, not {', '.join(addresses)}")
            raise typer.Exit(2)
        address = addresses[0] if addresses else None
        positional = [a for a in positional if a != address]
    if len(positional) != 1:
        extra = ", ".join(positional[1:])
        _err(f"tourney: unexpected argument(s): {extra} (one scenario file; a Dask address "
             "goes after --dask, e.g. --dask tcp://scheduler:8786)")
        raise typer.Exit(2)
    scenario = Path(positional[0])
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.atomic import WriteRefused, refuse_inputs
    from scheduler.sweep import Sweep

    try:
        refuse_inputs(Sweep.outputs(out), [scenario, vary])
    except WriteRefused as exc:
        _err(f"tourney: {exc}. Nothing was solved or written.")
        raise typer.Exit(2) from None
    problem = _unwritable(out)
    if problem:
        _err(f"tourney: cannot write {out}: {problem}. Nothing was written.")
        raise typer.Exit(2)
    from scheduler.atomic import lock, shown  # start-up time

    try:  # held to the end: a second sweep into the same --out is refused at once
        ctx.with_resource(lock(out.resolve()))
    except OSError as exc:
        _err(f"tourney: cannot write {shown(out)}: {exc}. Nothing was solved or written.")
        raise typer.Exit(2) from None
    sc = _load(scenario)
    try:
        variants = read_vary(vary, sc, max_variants=max_variants)
    except VaryError as exc:
        _err(exc.render() + "\nNothing was solved or written.")
        raise typer.Exit(2) from None
    _check_model_size(sc, max_model)
    for variant in variants:  # each variant estimated before any is solved
        _check_model_size(variant.scenario, max_model, f"variant {variant.name!r}: ")

    def show(done: int, total: int, name: str) -> None:
        typer.echo(f"\r  variants {done:,}/{total:,} solved (last: {name})\x1b[K", err=True,
                   nl=False)

    where = f" on {address}" if address else (" on a local Dask cluster" if dask else "")
    _err(f"Solving {len(variants):,} variant(s){where}...")
    try:
        res = run(sc, variants, engine="dask" if dask else "local", address=address,
                  jobs=jobs, seed=seed, deterministic_time=deterministic_time, timeout=timeout,
                  progress=show if sys.stderr.isatty() else None)
    except SweepError as exc:
        if sys.stderr.isatty():
            _err("")
        _err(f"tourney: {exc}. Nothing was written.")
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        _err("\ntourney: interrupted; nothing was written.")
        raise typer.Exit(130) from None
    if sys.stderr.isatty():
        _err("")
    try:
        paths = res.write_csv(out)
    except OSError as exc:
        _err(f"tourney: cannot write {out}: {exc.strerror or exc}. Nothing was written.")
        raise typer.Exit(2) from None
    typer.echo(res.summary(), nl=False)
    typer.echo(f"Wrote {paths[0]} ({len(variants):,} variants; limits used and what moved "
               f"in {', '.join(p.name for p in paths[1:])})")


def _looks_like_address(arg: str) -> bool:
    """A Dask scheduler address: ``tcp://host:8786``, ``tls://...``, or ``host:port``."""
    return "://" in arg or re.fullmatch(r"[\w.\-]+:\d+|\[[0-9a-fA-F:]+\]:\d+", arg) is not None


def _unwritable(out: Path) -> str | None:
    """Why ``out`` cannot be written (checked before a long sweep), else None."""
    if out.is_dir():
        return "it is a folder; give a file name such as results.csv"
    parent = out.parent if str(out.parent) else Path(".")
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not os.access(parent, os.W_OK):
        return f"{parent} is not writable"
    return None


# ------------------------------------------------------------------ the ledger (issue #13)
# Thin commands over scheduler/ledger/api.py: parse options, call one function, map a
# LedgerError to exit 2 (nothing written: every command is one transaction).
import datetime as _dt  # noqa: E402  (the ledger commands' dates; kept with them)

if TYPE_CHECKING:  # start-up time: no sqlalchemy in --help
    import pandas as pd  # start-up time: no pandas in --help

    from scheduler.ledger import Ledger  # start-up time: no sqlalchemy in --help

ledger_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                         help="The operating year's ledger: what was announced, filed, bought, "
                              "held and reported (SQLite file or PostgreSQL URL).")
record_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                         help="Record one fact in the ledger (append-only; a correction is a "
                              "new entry: --corrects ID).")
app.add_typer(ledger_app, name="ledger")
app.add_typer(record_app, name="record")

LedgerOpt = Annotated[str | None, typer.Option(
    "--ledger", help="Ledger file (SQLite) or URL (postgresql+psycopg://USER@HOST/DB). "
                     "Default: $TOURNEY_LEDGER, else ./tourney-ledger.sqlite.")]
ByOpt = Annotated[str | None, typer.Option(
    "--by", help="Who records (default: $TOURNEY_USER, else your login name).")]
CorrectsOpt = Annotated[int | None, typer.Option(
    "--corrects", help="The id of the entry this one corrects (it stays, superseded).")]
NoteOpt = Annotated[str | None, typer.Option("--note", help="A remark kept with the entry.")]
OperatorOpt = Annotated[str | None, typer.Option(
    "--operator", help="The operator (venue) it is about, when the occurrence is shared.")]
LineageOpt = Annotated[str | None, typer.Option(
    "--lineage", help="The plan lineage (10 hex digits of the UIDs), when several plans "
                      "have the occurrence.")]


def _ledger_run(ledger: str | None, action: Callable[..., object]) -> object:
    """Open the ledger and run ``action(ledger)``; a LedgerError is one line and exit 2."""
    from scheduler.ledger import Ledger, LedgerError  # start-up time: no sqlalchemy in --help

    try:
        lg = Ledger(ledger)
        try:
            return action(lg)
        finally:
            lg.dispose()
    except LedgerError as exc:
        _err(f"tourney: {exc}. Nothing was recorded.")
        raise typer.Exit(exc.exit_code) from None


def _date_opt(value: str, option: str) -> _dt.date:
    """A YYYY-MM-DD option as a date; exit 2 naming the option."""
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        _err(f"tourney: {option} {value!r} is not a date (YYYY-MM-DD)")
        raise typer.Exit(2) from None


@ledger_app.command("init")
def ledger_init(ledger: LedgerOpt = None) -> None:
    """Create the ledger, or migrate one made by an older tourney to this version's schema."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    def run(lg: Ledger) -> None:
        before, after = api.init(lg)
        if before is None:
            typer.echo(f"Created the ledger {lg.where} (schema {after}).")
        elif before == after:
            typer.echo(f"The ledger {lg.where} is up to date (schema {after}).")
        else:
            typer.echo(f"Migrated the ledger {lg.where} from schema {before} to {after}.")
    _ledger_run(ledger, run)


@ledger_app.command("adopt")
def ledger_adopt(
    plan_dir: Annotated[Path, typer.Argument(help="A plan folder written by `tourney solve`.")],
    organization: Annotated[str | None, typer.Option(
        "--organization", help="The organization the plan is for (default: the ledger's "
                               "only one; 'default' in a new ledger).")] = None,
    ledger: LedgerOpt = None, by: ByOpt = None,
) -> None:
    """Record a plan as announced: the next version of its lineage, every occurrence's UID,
    SEQUENCE and status, and its licences."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    def run(lg: Ledger) -> None:
        a = api.adopt(lg, plan_dir, organization=organization, by=by)
        if not a.new:
            typer.echo(f"{plan_dir} is already version {a.version} of plan lineage "
                       f"{a.lineage} in {lg.where}; nothing recorded.")
            return
        typer.echo(f"Adopted {plan_dir} as version {a.version} of plan lineage {a.lineage} "
                   f"({a.organization}): {a.confirmed} occurrence rows, {a.cancelled} "
                   f"cancelled, {a.licences} licences, in {lg.where}.")
    _ledger_run(ledger, run)


@ledger_app.command("export")
def ledger_export(
    out: Annotated[Path | None, typer.Option(
        "--out", help="CSV file to write, or FILE.xlsx for a workbook (default: the "
                      "terminal, CSV).")] = None,
    ledger: LedgerOpt = None,
) -> None:
    """Write every entry of the ledger as one CSV (read back by `tourney ledger import`)."""
    # start-up time: no sqlalchemy in --help
    from scheduler.atomic import write_files
    from scheduler.ledger import api

    def run(lg: Ledger) -> None:
        if out is not None and out.suffix.lower() == ".xlsx":
            _export_xlsx(lg, out)
            return
        buf = io.StringIO()
        n = api.export_csv(lg, buf)
        if out is None:
            typer.echo(buf.getvalue(), nl=False)
            return
        try:
            write_files({out: buf.getvalue().encode("utf-8")})
        except OSError as exc:
            _err(f"tourney: cannot write {out}: {exc.strerror or exc}")
            raise typer.Exit(2) from None
        typer.echo(f"Wrote {n} entries of {lg.where} to {out}.")
    _ledger_run(ledger, run)


def _export_xlsx(lg: Ledger, out: Path) -> None:
    """``tourney ledger export --out FILE.xlsx``: the CSV export's rows as a workbook."""
    from scheduler.atomic import write_files  # start-up time: no sqlalchemy in --help
    from scheduler.ledger.workbook import export_xlsx  # start-up time: openpyxl

    data, n = export_xlsx(lg)
    try:
        write_files({out: data})
    except OSError as exc:
        _err(f"tourney: cannot write {out}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    typer.echo(f"Wrote {n} entries of {lg.where} to {out}.")


@ledger_app.command("import")
def ledger_import(
    file: Annotated[Path, typer.Argument(
        help="A .csv or .xlsx file written by `tourney ledger export`.")],
    ledger: LedgerOpt = None,
) -> None:
    """Add the entries of an exported CSV (those already in the ledger are skipped), all or
    nothing."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    def run(lg: Ledger) -> None:
        if file.suffix.lower() == ".xlsx":
            from scheduler.ledger.workbook import import_xlsx  # start-up time: openpyxl

            res = import_xlsx(lg, file)
        else:
            res = api.import_csv(lg, file)
        typer.echo(f"Imported {file} into {lg.where}: {res.added} entries added, "
                   f"{res.skipped} already there.")
    _ledger_run(ledger, run)


@ledger_app.command("funds")
def ledger_funds(
    out: Annotated[Path, typer.Option(
        "--out", help="Folder to write funds.csv and funds.html (printable) into.")],
    period: Annotated[str | None, typer.Option(
        "--period", help="YYYY-MM: the periods ending that month; YYYY-MM-DD: the period "
                         "holding that day. Default: every period.")] = None,
    licence: Annotated[str | None, typer.Option(
        "--licence", help="Only this licence (license_id of licenses.csv).")] = None,
    ledger: LedgerOpt = None,
) -> None:
    """ME-REPORT disposition-of-funds figures per licensed period of each Maine licence, from
    the actuals recorded with `tourney record held`: funds.csv and funds.html (one printed
    page per period)."""
    # start-up time: no sqlalchemy in --help
    from scheduler.atomic import write_files
    from scheduler.ledger.funds import funds, funds_csv, funds_html

    def run(lg: Ledger) -> None:
        periods = funds(lg, period=period, license_ref=licence)
        try:
            write_files({out / "funds.csv": funds_csv(periods).encode("utf-8"),
                         out / "funds.html": funds_html(periods).encode("utf-8")})
        except OSError as exc:
            _err(f"tourney: cannot write into {out}: {exc.strerror or exc}")
            raise typer.Exit(2) from None
        typer.echo(f"Wrote {len(periods)} licensed period(s) of {lg.where} to "
                   f"{out / 'funds.csv'} and {out / 'funds.html'}.")
    _ledger_run(ledger, run)


def _recorded(entry: object, lg: Ledger) -> None:
    old = getattr(entry, "supersedes_id", None)
    corr = f", correcting #{old}" if old is not None else ""
    typer.echo(f"Recorded {getattr(entry, '__tablename__', '')} entry "
               f"#{getattr(entry, 'id', '?')}{corr} in {lg.where}.")


@record_app.command("held")
def record_held(
    occurrence: Annotated[str, typer.Argument(help="TOURNAMENT#N (as in licenses.csv) or UID.")],
    first_day: Annotated[str, typer.Option("--first-day", help="Actual first day.")],
    last_day: Annotated[str, typer.Option("--last-day", help="Actual last day.")],
    players: Annotated[int | None, typer.Option("--players")] = None,
    entries: Annotated[int | None, typer.Option("--entries", help="Entries incl. re-entries.")
                       ] = None,
    entry_fees: Annotated[str | None, typer.Option("--entry-fees", help="Total USD.")] = None,
    prizes: Annotated[str | None, typer.Option("--prizes", help="Prizes paid, USD.")] = None,
    charity: Annotated[str | None, typer.Option("--charity", help="Charity paid, USD.")
                       ] = None,
    operator: OperatorOpt = None, lineage: LineageOpt = None, corrects: CorrectsOpt = None,
    note: NoteOpt = None, ledger: LedgerOpt = None, by: ByOpt = None,
) -> None:
    """Record that an occurrence was held, with its actual days and figures."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    first, last = _date_opt(first_day, "--first-day"), _date_opt(last_day, "--last-day")
    _ledger_run(ledger, lambda lg: _recorded(api.record_held(
        lg, occurrence, first_day=first, last_day=last, players=players, entries=entries,
        entry_fees_usd=entry_fees, prizes_usd=prizes, charity_usd=charity, operator=operator,
        lineage=lineage, corrects=corrects, note=note, by=by), lg))


@record_app.command("cancelled")
def record_cancelled(
    occurrence: Annotated[str, typer.Argument(help="TOURNAMENT#N (as in licenses.csv) or UID.")],
    operator: OperatorOpt = None, lineage: LineageOpt = None, corrects: CorrectsOpt = None,
    note: NoteOpt = None, ledger: LedgerOpt = None, by: ByOpt = None,
) -> None:
    """Record that an occurrence was not held."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    _ledger_run(ledger, lambda lg: _recorded(api.record_cancelled(
        lg, occurrence, operator=operator, lineage=lineage, corrects=corrects, note=note,
        by=by), lg))


@record_app.command("filed")
def record_filed(
    kind: Annotated[str, typer.Argument(help="mt-notice or me-application.")],
    occurrence: Annotated[str | None, typer.Argument(
        help="mt-notice: TOURNAMENT#N or UID.")] = None,
    on: Annotated[str, typer.Option("--on", help="Day filed / received (YYYY-MM-DD).")] = "",
    licence: Annotated[str | None, typer.Option(
        "--licence", help="me-application: the license_id of licenses.csv.")] = None,
    number: Annotated[str | None, typer.Option(
        "--number", help="me-application: the licence number issued.")] = None,
    operator: OperatorOpt = None, lineage: LineageOpt = None, corrects: CorrectsOpt = None,
    note: NoteOpt = None, ledger: LedgerOpt = None, by: ByOpt = None,
) -> None:
    """Record a filing: an MT notice (MT-NOTICE) or an ME licence application
    (ME-APPLICATION-WINDOW)."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    if not on:
        _err("tourney: --on DATE is required (the day it was filed or received)")
        raise typer.Exit(2)
    day = _date_opt(on, "--on")
    _ledger_run(ledger, lambda lg: _recorded(api.record_filed(
        lg, kind, filed_on=day, occurrence=occurrence, license_ref=licence,
        agency_number=number, operator=operator, lineage=lineage, corrects=corrects,
        note=note, by=by), lg))


@record_app.command("licence")
def record_licence(
    operator: Annotated[str, typer.Option("--operator", help="The operator that bought it.")],
    number: Annotated[str, typer.Option("--number", help="The agency's licence/permit number.")],
    kind: Annotated[str, typer.Option("--kind", help="As licenses.csv: mt-large-stakes-permit, "
                                                      "me-annual, ...")],
    fee: Annotated[str, typer.Option("--fee", help="Fee paid, USD.")],
    valid_from: Annotated[str, typer.Option("--valid-from")],
    valid_to: Annotated[str, typer.Option("--valid-to")],
    tier: Annotated[str | None, typer.Option("--tier", help="Maine player tier, e.g. 51-100.")
                    ] = None,
    plan_licence: Annotated[str | None, typer.Option(
        "--plan-licence", help="The license_id of licenses.csv it buys.")] = None,
    organization: Annotated[str | None, typer.Option("--organization")] = None,
    corrects: CorrectsOpt = None, note: NoteOpt = None, ledger: LedgerOpt = None,
    by: ByOpt = None,
) -> None:
    """Record a licence or permit bought."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    vf, vt = _date_opt(valid_from, "--valid-from"), _date_opt(valid_to, "--valid-to")
    _ledger_run(ledger, lambda lg: _recorded(api.record_licence(
        lg, operator=operator, agency_number=number, kind=kind, fee_usd=fee, valid_from=vf,
        valid_to=vt, tier=tier, license_ref=plan_licence, organization=organization,
        corrects=corrects, note=note, by=by), lg))


@record_app.command("report")
def record_report(
    licence: Annotated[str, typer.Argument(help="The license_id of licenses.csv.")],
    period_end: Annotated[str, typer.Option("--period-end", help="Last day of the period.")],
    on: Annotated[str, typer.Option("--on", help="Day filed (YYYY-MM-DD).")],
    corrects: CorrectsOpt = None, note: NoteOpt = None, ledger: LedgerOpt = None,
    by: ByOpt = None,
) -> None:
    """Record an ME-REPORT disposition-of-funds report filed."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    end, day = _date_opt(period_end, "--period-end"), _date_opt(on, "--on")
    _ledger_run(ledger, lambda lg: _recorded(api.record_report(
        lg, licence, period_end=end, filed_on=day, corrects=corrects, note=note, by=by), lg))


@app.command("deadlines")
def deadlines_command(
    plan_dir: Annotated[Path, typer.Argument(help="A plan folder written by `tourney solve`.")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="The day (default today).")
                     ] = None,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", help="Ledger file or URL whose filings mark deadlines done. Default: "
                         "$TOURNEY_LEDGER, else ./tourney-ledger.sqlite when it exists.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="table or csv.")] = "table",
) -> None:
    """What to file by when (MT-NOTICE, ME-APPLICATION-WINDOW, ME-REPORT) for every operator
    of a plan: due, overdue, done (from the ledger)."""
    # start-up time: sqlalchemy and pandas only when the command runs
    from scheduler.ledger import Ledger, LedgerError
    from scheduler.ledger.deadlines import STATES, deadlines, render
    from scheduler.ledger.store import DEFAULT_FILE, ENV_LEDGER

    if fmt not in ("table", "csv"):
        _err(f"tourney: --format must be table or csv, not {fmt!r}")
        raise typer.Exit(2)
    day = _date_opt(as_of, "--as-of") if as_of is not None else None
    try:
        lg = None
        if ledger is not None or os.environ.get(ENV_LEDGER) or Path(DEFAULT_FILE).exists():
            lg = Ledger(ledger)
        df = deadlines(plan_dir, as_of=day, ledger=lg)
    except LedgerError as exc:
        _err(f"tourney: {exc}")
        raise typer.Exit(exc.exit_code) from None
    if fmt == "csv":  # text cells spreadsheet-safe, as schedule.csv (titles are the user's)
        safe = df.map(lambda x: cell(x) if isinstance(x, str) else x)
        typer.echo(safe.to_csv(index=False, lineterminator="\n"), nl=False)
    else:
        typer.echo(render(df), nl=False)
        counts = df["state"].value_counts()
        typer.echo(", ".join(f"{counts[s]} {s}" for s in STATES if s in counts.index)
                   + (f" (done from the ledger {lg.where})" if lg is not None
                      else " (no ledger: nothing marked done)"))
    _exit_if_overdue(df)


def _exit_if_overdue(df: pd.DataFrame) -> None:
    """``tourney deadlines``: exit 1 (like a failed check) with one line on stderr when a
    deadline is ``overdue`` (not done, its date before the as-of day); else return (exit 0)."""
    late = df[df["state"] == "overdue"]
    if len(late):
        first = late.iloc[0]
        _err(f"tourney: {len(late)} deadline(s) overdue, the first {first['date']} "
             f"{first['rule']} ({first['operator_id']}); exit 1.")
        raise typer.Exit(1)


def main() -> None:
    """Console entry point. An unexpected failure is reported in one line (exit 3), never as
    a traceback; set TOURNEY_DEBUG=1 to see the traceback."""
    try:
        app()  # usage errors and typer.Exit end here as SystemExit with their code
    except KeyboardInterrupt:
        _err("tourney: interrupted; nothing was written.")
        raise SystemExit(130) from None
    except Exception as exc:  # the last line of defence: no traceback for operators
        if os.environ.get("TOURNEY_DEBUG"):
            raise
        _err(f"tourney: internal error ({type(exc).__name__}: {str(exc)[:500]}). Nothing was "
             "written. "
             "Please report this with your scenario file; TOURNEY_DEBUG=1 shows details.")
        raise SystemExit(3) from None


if __name__ == "__main__":
    main()
