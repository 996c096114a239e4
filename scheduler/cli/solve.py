"""``tourney solve``, ``tourney diff`` and ``tourney check``: plan a scenario, compare two
plans, audit a schedule. Each parses its options and calls the engine; how a failure ends it
is :func:`scheduler.cli.errors.outcome`."""

from __future__ import annotations

import gc
import json
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from scheduler.cli.errors import (
    CommandError,
    Table,
    date_opt,
    err,
    handled,
    loaded_error,
    mark_written,
    reading_input,
    say,
    say_data,
    writing,
)
from scheduler.core.atomic_files import shown
from scheduler.core.clock import latest_today, source_date_epoch  # light: os and datetime
from scheduler.core.limits import MAX_LINES_SHOWN, MAX_MODEL_CELLS_DEFAULT, cap_lines
from scheduler.core.text import cell

if TYPE_CHECKING:  # start-up time: the engine is imported only by the command that runs
    from scheduler.core.scenario import Scenario
    from scheduler.engine.parts import Progress  # start-up time: as Scenario above
    from scheduler.result.plan import Plan


def load(path: Path) -> Scenario:
    """The validated scenario (a :class:`scheduler.core.scenario.ScenarioError` when it is not
    valid: its problems printed, exit 2)."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.inputs.load import WorkbookNote, load_scenario

    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always", WorkbookNote)
        scenario = load_scenario(path)
    for note in notes:
        if issubclass(note.category, WorkbookNote):
            err(f"tourney: warning: {note.message}")
        else:  # any other warning as Python would have shown it
            warnings.showwarning(note.message, note.category, note.filename, note.lineno)
    # the scenario lives as long as the command: the cyclic garbage collector stops scanning
    # it again in every full collection (issue #27: at N = 200, 1.8 s of those collections'
    # 2.9 s CPU went with this and _let_go's freeze, measured with gc.callbacks)
    gc.freeze()
    return scenario


def _let_go() -> None:
    """Give back what solving kept and writing the plan does not need (issue #16): the
    candidate days' timings (:func:`scheduler.core.timing.forget_timings`, about 30 MB at
    1,000 operators) and the C heap's free pages the parts' CP-SAT models left resident
    (glibc's ``malloc_trim``; nothing elsewhere; about 13 MB after 15 parts of a statewide
    scenario); what is left is moved out of the garbage collector's reach (``gc.freeze``: it
    lives until the files are written)."""
    import ctypes.util  # start-up time: once solved

    from scheduler.core.timing import forget_timings  # start-up time: once solved

    forget_timings()
    gc.freeze()  # the plan lives until its files are written: not scanned again (load)
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return
    if trim is not None:
        trim(0)


def _ledger_read() -> Table:
    """``solve --ledger`` and ``check --ledger`` only read the ledger: its errors say nothing
    of recording."""
    error = loaded_error("scheduler.ledger.store", "LedgerError")
    if error is None:  # not loaded: not raised
        return {}
    return {error: (None, lambda e: f"tourney: {e}. Nothing was written.")}


UseLedgerOpt = Annotated[bool, typer.Option(
    "--use-ledger", help="As --ledger, with the ledger the ledger commands use: "
                         "$TOURNEY_LEDGER, else ./tourney-ledger.sqlite.")]
AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", help="The day to plan as of (YYYY-MM-DD; default today in each operator's time "
                    "zone): nothing new is placed whose notice or application is due before "
                    "it (or notice_from, when later); earlier occurrences are history.")]
OrganizationOpt = Annotated[str | None, typer.Option(
    "--organization", help="With --ledger: the organization of the ledger the scenario is "
                           "for (default: the only one with its operators).")]


@handled(_ledger_read)
def solve(
    ctx: typer.Context,
    scenario: Annotated[Path, typer.Argument(
        help="Scenario YAML file or .xlsx workbook (see docs/scenario.md).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("plan"),
    time_limit: Annotated[float | None, typer.Option(
        help="Wall-clock seconds per CP-SAT search and part (default: none; results then "
             "do not depend on the machine's speed or load).", min=0.1)] = None,
    deterministic_time: Annotated[float, typer.Option(
        help="CP-SAT deterministic time per search and part (about seconds, but "
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
    use_ledger: UseLedgerOpt = False,
    organization: OrganizationOpt = None,
    as_of: AsOfOpt = None,
) -> None:
    """Place the tournaments, choose the licences, write CSVs, calendars and a summary."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.engine.decompose import check_model_size
    from scheduler.inputs.replan.read import read_previous  # start-up time: no engine in --help

    if organization is not None and ledger is None and not use_ledger:
        raise CommandError("tourney: --organization is for the ledger: give --ledger FILE|URL "
                           "or --use-ledger too")
    day = date_opt(as_of, "--as-of") if as_of is not None else None
    with reading_input():
        from scheduler.inputs.load import made_as_of_passed  # start-up time: no engine in --help

        sc = made_as_of_passed(load(scenario), day)
        if ledger is not None or use_ledger:
            sc = _with_ledger(sc, ledger, organization)
        check_model_size(sc, max_model)
        source_date_epoch()
        announced = read_previous(sc, previous) if previous is not None else None
    for line in cap_lines(announced.notes if announced is not None else []):
        err(f"tourney: warning: {line}")  # a recurring event cut at a limit

    # start-up time: the plan folder's lock only once the input is read
    from scheduler.export.write import claim_plan_folder

    # held from before solving to the end: a second solve into it is refused at once
    with writing(shown(out), "Nothing was changed; nothing was solved."):
        ctx.with_resource(claim_plan_folder(out, inputs=[scenario]))

    # start-up time: the solver (ortools) only once the input is read
    from scheduler.engine.solver import solve as run  # start-up time: ortools only once read
    from scheduler.engine.solver import solve_alternatives  # start-up time: as solve above
    from scheduler.export.write import write_plan  # start-up time: as above
    from scheduler.inputs.replan.read import holds_plan  # start-up time: no engine in --help

    show = _progress_printer() if sys.stderr.isatty() else None
    # not a re-plan into a folder holding a plan: a changed event must still not keep its
    # SEQUENCE and DTSTAMP (solve() reads the folder's calendar for that)
    replacing = out if previous is None and holds_plan(out) else None
    if replacing is not None:
        _refuse_another_organization(sc, out)
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
    _let_go()
    if show is not None:
        err("")
    if plan.interrupted and holds_plan(out):
        # a plan cut short (parts not reached are placed nowhere) never replaces a plan
        err(f"tourney: interrupted; {shown(out)} keeps its plan: the best plan found so far "
            f"({_cut_short(plan)}) is not written over it. Solve again, or give another "
            "--out to keep a plan cut short.")
        raise typer.Exit(130)
    # a re-plan's publishing state (what the previous calendars published) comes with
    # every plan solve() returns: read_previous reads it, solve() sets it
    if replacing is not None:
        err(f"tourney: warning: {out} holds an earlier plan, which this new plan "
            f"replaces without re-planning from it (events it announced keep no "
            f"promise: dropped ones are not cancelled, moved ones may get other "
            f"UIDs). To re-plan from it instead, run: tourney solve {scenario} "
            f"--previous {out} --out {out}")
    with writing(shown(out), "Nothing was changed."):
        where = write_plan(plan, out, report=report, alternatives=others, inputs=[scenario],
                           jobs=jobs or os.cpu_count() or 1)
    mark_written(where)  # Ctrl-C from now on says the folder was written
    _said_after_writing(where, plan, others, alternatives, min_difference, report)


def _cut_short(plan: Plan) -> str:
    """A plan stopped by Ctrl-C in words: legal, not proven, its gaps (placed, fees)."""
    gap = plan.gap
    return (f"legal, not proven optimal: gap placed {gap.get('placed', 0):.1%}, "
            f"fees {gap.get('fees_usd', 0):.1%}")


def _said_after_writing(where: Path, plan: Plan, others: list[Plan], alternatives: int,
                        min_difference: int, report: bool) -> None:
    """What ``tourney solve`` prints once the plan folder ``where`` is written: the
    summary, the alternatives, the files; exit 130 for a plan cut short by Ctrl-C, 1 when
    a required occurrence is not placed."""
    from scheduler.export.summary import alternatives_text  # start-up time
    from scheduler.export.write import SUMMARY_FILE  # start-up time: as above

    # the summary written into the folder, not computed a second time (issue #27)
    typer.echo((where / SUMMARY_FILE).read_bytes().decode("utf-8"), nl=False)
    if alternatives > 1:
        typer.echo(alternatives_text(plan, others, alternatives, min_difference))
    typer.echo(f"Wrote {where}/ (schedule.csv, licenses.csv, unscheduled.csv, deadlines.csv, "
               f"calendar.ics, calendars/, plan.xlsx, summary.txt, scenario.yaml"
               f"{', report.html' if report else ''})")
    if plan.interrupted:
        err(f"tourney: interrupted; the best plan found so far was written ({_cut_short(plan)}).")
        raise typer.Exit(130)
    if not plan.required_met:
        err("tourney: some required occurrences cannot be placed (see above); "
            "the best legal plan was written.")
        raise typer.Exit(1)


def _refuse_another_organization(sc: Scenario, out: Path) -> None:
    """``solve --out`` into a folder holding a plan of other operators than the scenario's
    (another organization's: the same id and name of none): refused, exit 2, nothing
    changed. A plan is never written over another organization's."""
    # start-up time: the re-plan reader only when --out holds a plan
    from scheduler.inputs.replan.previous import previous_operators

    theirs = previous_operators(out, [])
    mine = {o.id: o.name for o in sc.operators}
    if not theirs or any(o in mine and (name is None or
                                        name.strip().casefold() == mine[o].strip().casefold())
                         for o, name in theirs.items()):
        return
    names = ", ".join(f"{o} ({n})" if n else o for o, n in sorted(theirs.items()))
    raise CommandError(f"tourney: --out {shown(out)} holds the plan of other operators "
                       f"({names}) than this scenario's: another organization's plan is never "
                       "written over; give another --out. Nothing was changed; nothing was "
                       "solved.")


def _with_ledger(sc: Scenario, ledger: str | None, organization: str | None) -> Scenario:
    """``solve --ledger`` (``ledger`` None: ``--use-ledger``, the ledger of
    :func:`scheduler.ledger.store.resolve`): the scenario with its history from the ledger,
    the ledger and each thing taken said on stderr (a LedgerError: exit 2,
    :func:`_ledger_read`)."""
    # start-up time: sqlalchemy only with --ledger
    from scheduler.ledger import Ledger
    from scheduler.ledger.history import describe, from_ledger  # start-up time: sqlalchemy

    lg = Ledger(ledger)
    try:
        sc, history = from_ledger(sc, lg, organization=organization)
    finally:
        lg.dispose()
    err(f"tourney: history from the ledger {lg.where}")
    for line in describe(history):
        err(f"tourney: from the ledger: {line}")
    return sc


def _progress_printer() -> Callable[[Progress], None]:
    """A one-line progress display on the terminal (stderr): parts done, placed and fees of
    the parts done with their bounds, the stage running."""

    def show(p: Progress) -> None:
        stage = f", now {p.stage}" if p.stage else ""
        typer.echo(f"\r  parts {p.parts_done:,}/{p.parts:,}: placed {p.placed:,} "
                   f"(bound {p.placed_bound:,.0f}, gap {p.gap:.1%}), fees ${p.fees_usd:,} "
                   f"(bound ${p.fees_bound:,.0f}){stage}\x1b[K", err=True, nl=False)
    return show


@handled()
def diff(
    old: Annotated[Path, typer.Argument(help="The earlier plan's folder.")],
    new: Annotated[Path, typer.Argument(help="The later plan's folder.")],
) -> None:
    """What changed between two plans: moved, added and cancelled occurrences (matched by
    UID), and the change in fees."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.export.diff import diff_plans

    say(diff_plans(old, new), nl=False)


@handled(_ledger_read)
def check(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file or .xlsx workbook.")],
    schedule: Annotated[Path | None, typer.Argument(
        help="schedule.csv or plan.xlsx written by `tourney solve` (also one edited in a "
             "spreadsheet), or an .ics calendar (also one edited in a calendar "
             "application). Optional with --ledger.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, csv or json.")] = "table",
    operator: Annotated[str | None, typer.Option(
        "--operator", help="Audit the file as this operator's schedule (its operator id). "
                           "Default: the operator an .ics file names (X-TOURNEY-OPERATOR or "
                           "its calendar name), else the whole scenario.")] = None,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", help="Also audit what this ledger (file or URL) records as held, filed "
                         "and reported.")] = None,
    use_ledger: UseLedgerOpt = False,
    organization: OrganizationOpt = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="The day of the audit (YYYY-MM-DD, default today in the operators' "
                        "time zones): a row or event marked held must have begun by it; "
                        "with --ledger, a report due before it and not filed is late.")] = None,
) -> None:
    """Audit a schedule against every rule, without the solver; with --ledger, also what
    was actually held, filed and reported. Exit 0 clean, 1 violations, 2 unreadable input."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.check.auditing import audit, check_records, check_table
    from scheduler.check.read import calendar_operator, read_schedule  # start-up time

    if fmt not in ("table", "csv", "json"):
        raise CommandError(f"tourney: --format must be table, csv or json, not {fmt!r}")
    with_ledger = ledger is not None or use_ledger
    # a schedule is judged as the plan was made (its rows' status: held and filed ones on
    # what happened); the day of the audit is the ledger's (reports late)
    if organization is not None and not with_ledger:
        raise CommandError("tourney: --organization is for the ledger: give --ledger FILE|URL "
                           "or --use-ledger too")
    day = date_opt(as_of, "--as-of") if as_of is not None else None
    sc = load(scenario)
    if schedule is None:
        if not with_ledger:
            raise CommandError("tourney: give the SCHEDULE to audit, or --ledger FILE|URL "
                               "(or --use-ledger) to audit what was held")
        _check_ledger(sc, ledger, as_of, fmt, organization)
        return
    read = read_schedule(sc, schedule, operator,
                         latest_today((o.tz for o in sc.operators), day))
    if operator is not None and schedule.suffix.lower() == ".ics":
        named = calendar_operator(sc, schedule)
        if named is not None and named != operator:
            err(f"tourney: warning: {schedule} says it is {named}'s calendar "
                f"(X-TOURNEY-OPERATOR or its calendar name), but --operator is {operator}: "
                f"audited as {operator}'s")
    if with_ledger:  # what the ledger records filed or held is history too (any file)
        # start-up time: sqlalchemy only with --ledger
        from scheduler.ledger.audit import settled_days

        for tid, days in settled_days(ledger, sc).items():
            read.settled.setdefault(tid, set()).update(days)
    violations = audit(sc, read)
    held = _ledger_audit(sc, ledger, as_of, organization) if with_ledger else None
    if held is not None:  # check --ledger: what was held, in the same table
        violations = [*violations, *held[0]]
    if fmt == "csv":  # every text cell spreadsheet-safe, as schedule.csv (file names too)
        safe = check_table(violations, read).map(lambda x: cell(str(x)))
        say_data(safe.to_csv(index=False, lineterminator="\n"), nl=False)
    elif fmt == "json":
        say_data(json.dumps(check_records(violations, read), indent=2, ensure_ascii=False))
    else:
        rendered = [line if len(line := v.render_line()) <= 400
                    else f"{line[:400]}... ({len(line):,} characters)" for v in violations]
        for line in cap_lines(rendered, 4 * MAX_LINES_SHOWN,
                              "violation(s) (--format csv lists every one)"):
            say(line)
        n = len({(p.tid, p.occurrence) for p in read.placed})
        own = ""
        if read.operators is not None:  # one operator's calendar: how many are its own
            mine = {(p.tid, p.occurrence) for p in read.placed
                    if read.operators & set(p.tournament.operators)}
            own = f", {len(mine)} of them {', '.join(sorted(read.operators))}'s"
        say(f"{len(violations)} violation(s) in {n} occurrence(s) of {schedule}{own}"
                   + ("" if read.licenses is not None else
                      " (no licenses.csv beside it: fees not checked)"))
    for line in cap_lines(read.unmatched, MAX_LINES_SHOWN, "event(s) not matched"):
        err(f"not matched: {line}")
    if read.not_checked and fmt == "table":  # deadlines, cancelled events: not games
        for line in cap_lines(read.not_checked, MAX_LINES_SHOWN, "event(s) not checked"):
            say(f"not checked: {line}")
    if held is not None and fmt == "table":
        _echo_notes(held[1][0].notes)
        say(_held_line(*held))
    if violations or read.unmatched:
        raise typer.Exit(1)


def _ledger_audit(sc: Scenario, ledger: str | None, as_of: str | None,
                  organization: str | None) -> tuple[list[Any], Any]:
    """``check --ledger`` (``ledger`` None: ``--use-ledger``): the violations in what the
    ledger records as held, filed and reported (scheduler/ledger/audit.py), and what was
    read with the ledger's name (a LedgerError: exit 2)."""
    # start-up time: sqlalchemy only with --ledger
    from scheduler.ledger import Ledger
    from scheduler.ledger.audit import audit_ledger  # start-up time: sqlalchemy

    day = date_opt(as_of, "--as-of") if as_of is not None else None
    lg = Ledger(ledger)
    try:
        violations, actuals = audit_ledger(lg, sc, as_of=day, organization=organization)
    finally:
        lg.dispose()
    return violations, (actuals, lg.where)


def _held_line(violations: list[Any], read: tuple[Any, str]) -> str:
    actuals, where = read
    notes = (f"; {len(actuals.notes)} note(s): figures not recorded, not judged"
             if actuals.notes else "")
    return (f"{len(violations)} violation(s) in {len(actuals.held)} held occurrence(s) and "
            f"{len(actuals.reports)} report(s) owed in the ledger {where} (as of "
            f"{actuals.as_of}){notes}")


def _echo_notes(notes: list[Any]) -> None:
    """``check --ledger``, table format: each rule's note that it could not judge a figure
    not recorded (``note: RULE (citation) | operator | occurrence | dates | sentence``),
    never counted as a violation."""
    for line in cap_lines([f"note: {n.render_line()}" for n in notes], MAX_LINES_SHOWN,
                          "note(s)"):
        say(line)


def _check_ledger(sc: Scenario, ledger: str | None, as_of: str | None, fmt: str,
                  organization: str | None) -> None:
    """``check SCENARIO --ledger`` without a schedule: what was held, printed as `tourney
    check` prints violations; exit 1 when any."""
    from scheduler.check.auditing import (  # start-up time, as in check
        check_records,
        violation_table,
    )

    violations, read = _ledger_audit(sc, ledger, as_of, organization)
    table = violation_table(violations)
    if fmt == "csv":  # every text cell spreadsheet-safe, as in check
        say_data(table.map(lambda x: cell(str(x))).to_csv(index=False, lineterminator="\n"),
                   nl=False)
    elif fmt == "json":
        say_data(json.dumps(check_records(violations), indent=2, ensure_ascii=False))
    else:
        for v in violations:
            say(v.render_line())
        _echo_notes(read[0].notes)
        say(_held_line(violations, read))
    if violations:
        raise typer.Exit(1)
