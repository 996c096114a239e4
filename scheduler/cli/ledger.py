"""``tourney deadlines``, ``tourney ledger ...`` and ``tourney record ...``: thin commands over
:mod:`scheduler.ledger.api` (issue #13): parse options, call one function; a LedgerError ends
the command with exit 2 and nothing written (every command is one transaction)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from scheduler.cli.errors import (
    CommandError,
    Table,
    date_opt,
    err,
    handled,
    loaded_error,
    say,
    say_data,
    writing,
)
from scheduler.core.atomic_files import write_files
from scheduler.core.text import csv_cells

if TYPE_CHECKING:  # start-up time: no sqlalchemy in --help
    import pandas as pd  # start-up time: no pandas in --help

    from scheduler.ledger import Ledger  # start-up time: no sqlalchemy in --help
    from scheduler.ledger.models import Held  # start-up time: no sqlalchemy in --help

def _reading() -> Table:
    """``tourney deadlines`` only reads the ledger: its errors say nothing of recording."""
    error = loaded_error("scheduler.ledger.store", "LedgerError")
    if error is None:  # not loaded: not raised
        return {}
    return {error: (None, lambda e: f"tourney: {e}")}


def _writing() -> Table:
    """``tourney ledger export|funds`` read the ledger and write files: nothing recorded
    ever."""
    error = loaded_error("scheduler.ledger.store", "LedgerError")
    if error is None:  # not loaded: not raised
        return {}
    return {error: (None, lambda e: f"tourney: {e}. Nothing was written.")}

ledger_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                         help="The operating year's ledger: what was announced, filed, bought, "
                              "held and reported (SQLite file or PostgreSQL URL).")
record_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                         help="Record one fact in the ledger (append-only; a correction is a "
                              "new entry: --corrects ID), or with --from FILE every filled "
                              "row of a results sheet (tourney template --results).")

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
AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", help="Today, for the check that the fact is not in the future (YYYY-MM-DD; "
                    "default today in Montana's and Maine's time zones).")]


def _ledger_run(ledger: str | None, action: Callable[..., object]) -> object:
    """Open the ledger and run ``action(ledger)`` (a LedgerError: one line, exit 2, as
    :func:`scheduler.cli.errors.outcome` says)."""
    from scheduler.ledger import Ledger  # start-up time: no sqlalchemy in --help

    lg = Ledger(ledger)
    try:
        return action(lg)
    finally:
        lg.dispose()


def _is_new(lg: Ledger) -> bool:
    """True when ``lg`` has no ledger schema yet (a SQLite file not made, an empty database)."""
    from scheduler.ledger import LedgerError  # start-up time: no sqlalchemy in --help

    try:
        return lg.revision() is None
    except LedgerError:
        return True


@ledger_app.command("init")
@handled()
def ledger_init(
    ledger: LedgerOpt = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="The organization's name as it appears on its licences and reports "
                       "(asked for on a terminal when a new ledger is made without it).")] = None,
    by: ByOpt = None,
) -> None:
    """Create the ledger, or migrate one made by an older tourney to this version's schema."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    def run(lg: Ledger) -> None:
        asked = name
        if asked is None and sys.stdin.isatty() and _is_new(lg):
            asked = typer.prompt("The organization's name (as on its licences and reports)",
                                 default="", show_default=False) or None
        before, after = api.init(lg, asked, by)
        if before is None:
            named = f", organization {api.organization_name(asked)!r}" if asked else ""
            say(f"Created the ledger {lg.where} (schema {after}{named}).")
        elif before == after:
            say(f"The ledger {lg.where} is up to date (schema {after}).")
        else:
            say(f"Migrated the ledger {lg.where} from schema {before} to {after}.")
    _ledger_run(ledger, run)


@ledger_app.command("backup")
@handled(_writing)
def ledger_backup(
    file: Annotated[Path, typer.Argument(help="The new SQLite file to write (never replaced).")],
    ledger: LedgerOpt = None,
) -> None:
    """Copy a SQLite ledger into a new file with SQLite's backup API: a consistent copy even
    while others record (copying the .sqlite file by hand can miss its -wal file). A
    PostgreSQL ledger: use pg_dump (exit 2)."""
    def run(lg: Ledger) -> None:
        size = lg.backup(file)
        say(f"Backed up {lg.where} to {file} ({size:,} bytes).")
    _ledger_run(ledger, run)


@ledger_app.command("adopt")
@handled()
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
            say(f"{plan_dir} is already version {a.version} of plan lineage "
                       f"{a.lineage} in {lg.where}; nothing recorded.")
            return
        kept = ("its scenario kept" if a.scenario else
                "no scenario.yaml (an older tourney's folder: the ledger judges with the "
                "operators it knows)")
        say(f"Adopted {plan_dir} as version {a.version} of plan lineage {a.lineage} "
                   f"({a.organization}): {a.confirmed} occurrence rows, {a.cancelled} "
                   f"cancelled, {a.licences} licences, {kept}, in {lg.where}.")
    _ledger_run(ledger, run)


@ledger_app.command("export")
@handled(_writing)
def ledger_export(
    out: Annotated[Path | None, typer.Option(
        "--out", help="CSV file to write, or FILE.xlsx for a workbook (default: the "
                      "terminal, CSV).")] = None,
    ledger: LedgerOpt = None,
) -> None:
    """Write every entry of the ledger as one CSV (read back by `tourney ledger import`)."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help
    from scheduler.ledger.workbook import refuse_export_over  # start-up time: sqlalchemy

    def run(lg: Ledger) -> None:
        if out is not None and out.suffix.lower() == ".xlsx":
            _export_xlsx(lg, out)
            return
        buf = io.StringIO()
        n = api.export_csv(lg, buf)
        if out is None:
            say_data(buf.getvalue(), nl=False)
            return
        refuse_export_over(lg, out)
        with writing(out, reason="strerror"):
            write_files({out: buf.getvalue().encode("utf-8")})
        say(f"Wrote {n} entries of {lg.where} to {out}.")
    _ledger_run(ledger, run)


def _export_xlsx(lg: Ledger, out: Path) -> None:
    """``tourney ledger export --out FILE.xlsx``: the CSV export's rows as a workbook."""
    # start-up time: no sqlalchemy in --help
    from scheduler.ledger.workbook import export_xlsx, refuse_export_over

    refuse_export_over(lg, out)
    data, n = export_xlsx(lg)
    with writing(out, reason="strerror"):
        write_files({out: data})
    say(f"Wrote {n} entries of {lg.where} to {out}.")


@ledger_app.command("import")
@handled()
def ledger_import(
    file: Annotated[Path, typer.Argument(
        help="A .csv or .xlsx file written by `tourney ledger export` (edited or not).")],
    apply_edits: Annotated[bool, typer.Option(
        "--apply-edits", help="Record each row that differs from the ledger (an edited "
                              "export) as a correction of its entry (--corrects); without "
                              "it such rows are listed and nothing is imported (exit 2).")
    ] = False,
    ledger: LedgerOpt = None, by: ByOpt = None, as_of: AsOfOpt = None,
) -> None:
    """Add the entries of an exported CSV or workbook (those already in the ledger with the
    same values are skipped), all or nothing; a row edited since the export is listed
    (which field, old → new) and, with --apply-edits, recorded as a correction. --as-of: the
    day no recorded day may be after (default today)."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    today = date_opt(as_of, "--as-of") if as_of is not None else None

    def run(lg: Ledger) -> None:
        if file.suffix.lower() == ".xlsx":
            from scheduler.ledger.workbook import import_xlsx  # start-up time: openpyxl

            res = import_xlsx(lg, file, today=today, apply_edits=apply_edits, by=by)
        else:
            res = api.import_csv(lg, file, today=today, apply_edits=apply_edits, by=by)
        for e in res.edits:
            say(e.render())
        corrected = f", {res.corrected} corrected" if res.corrected else ""
        say(f"Imported {file} into {lg.where}: {res.added} entries added{corrected}, "
            f"{res.skipped} already there.")
    _ledger_run(ledger, run)


@ledger_app.command("funds")
@handled(_writing)
def ledger_funds(
    out: Annotated[Path, typer.Option(
        "--out", help="Folder to write funds.csv and funds.html (printable) into.")],
    period: Annotated[str | None, typer.Option(
        "--period", help="YYYY-MM: the periods ending that month; YYYY-MM-DD: the period "
                         "holding that day. Default: every period.")] = None,
    licence: Annotated[str | None, typer.Option(
        "--licence", help="Only this licence (license_id of licenses.csv).")] = None,
    ledger: LedgerOpt = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="The day the reports are judged on (YYYY-MM-DD; default today in "
                        "Maine): a period not yet ended is not due yet.")] = None,
) -> None:
    """ME-REPORT disposition-of-funds figures per licensed period of each Maine licence, from
    the actuals recorded with `tourney record held`: funds.csv and funds.html (one printed
    page per period), and how many reports are filed, due, overdue or not due yet."""
    from scheduler.core.clock import today_in  # start-up time: no sqlalchemy in --help
    from scheduler.ledger.funds import (  # start-up time: no sqlalchemy in --help
        REPORT_STATES,
        funds,
        funds_csv,
        funds_html,
        refuse_funds_folder,
        report_state,
    )

    day = today_in("America/New_York",
                   date_opt(as_of, "--as-of") if as_of is not None else None)

    def run(lg: Ledger) -> None:
        refuse_funds_folder(lg, out)
        periods = funds(lg, period=period, license_ref=licence)
        with writing(f"into {out}", reason="strerror"):
            write_files({out / "funds.csv": funds_csv(periods).encode("utf-8"),
                         out / "funds.html": funds_html(periods).encode("utf-8")})
        say(f"Wrote {len(periods)} licensed period(s) of {lg.where} to "
                   f"{out / 'funds.csv'} and {out / 'funds.html'}.")
        states = [report_state(p, day) for p in periods]
        counts = [f"{states.count(st)} {st}" for st in REPORT_STATES if st in states]
        say(f"ME-REPORT as of {day}: {', '.join(counts) or 'none'}.")
    _ledger_run(ledger, run)


@record_app.callback(invoke_without_command=True)
@handled()
def record_from(
    ctx: typer.Context,
    source: Annotated[Path | None, typer.Option(
        "--from", help="A results sheet (.xlsx written by `tourney template --results`, or "
                       ".csv with its columns): record every filled row, in one "
                       "transaction; nothing when any row is refused.")] = None,
    apply_edits: Annotated[bool, typer.Option(
        "--apply-edits", help="With --from: a row about an occurrence recorded already with "
                              "other values is recorded as a correction of it (--corrects)."
    )] = False,
    ledger: LedgerOpt = None, by: ByOpt = None, as_of: AsOfOpt = None,
) -> None:
    """Record one fact in the ledger (append-only; a correction is a new entry: --corrects
    ID), or with --from FILE every row of a results sheet."""
    if ctx.invoked_subcommand is not None:
        if source is not None:
            raise CommandError(f"tourney: record --from records a results sheet; give it "
                               f"without `{ctx.invoked_subcommand}`")
        return
    if source is None:
        say(ctx.get_help())
        raise typer.Exit(0)
    from scheduler.ledger.results import record_from as record_rows  # start-up time

    today = date_opt(as_of, "--as-of") if as_of is not None else None

    def run(lg: Ledger) -> None:
        res = record_rows(lg, source, by=by, today=today, apply_edits=apply_edits)
        held = sum(1 for e in res.entries if e.outcome == "held")
        corrected = f" ({res.corrected} corrections)" if res.corrected else ""
        say(f"Recorded {len(res.entries)} entries from {source} in {lg.where}: {held} held, "
            f"{len(res.entries) - held} cancelled{corrected}; {res.same} already recorded, "
            f"{res.empty} rows not filled in.")
        _judged(res.entries, lg)
    _ledger_run(ledger, run)


def _judged(entries: tuple[Held, ...], lg: Ledger) -> None:
    """Warn (stderr) of every rule the entries recorded break, as each ``tourney record``
    does."""
    from scheduler.ledger.audit import judge_held  # start-up time: the rules

    with _judging(f"The {len(entries)} entries are"):
        found = judge_held(lg, entries)
    for v in found:
        err(f"tourney: warning: {v.render()}")
    if found:
        err("tourney: recorded anyway (the ledger keeps what happened); tourney check "
            "--ledger reports it.")


@contextlib.contextmanager
def _judging(recorded: str) -> Iterator[None]:
    """What a record command judges once its entries are recorded: a ledger that cannot be
    judged (a damaged scenario kept with its plan, ``scheduler.ledger.scenarios``) ends it
    with its message and that the entries are recorded, not judged (exit 2), never with the
    ledger's "Nothing was recorded."."""
    from scheduler.ledger.store import LedgerError  # start-up time: no sqlalchemy in --help

    try:
        yield
    except LedgerError as exc:
        raise CommandError(f"tourney: {exc}. {recorded} recorded, not judged (tourney check "
                           "--ledger judges it).") from None


def results_template(out: Path, ledger: str | None) -> None:
    """``tourney template --results OUT``: write the results workbook of the ledger (the
    caller has refused an existing ``out`` without --force)."""
    from scheduler.ledger.results import results_xlsx  # start-up time: openpyxl

    def run(lg: Ledger) -> None:
        data, n = results_xlsx(lg)
        with writing(out, "Nothing was written.", reason="strerror"):
            write_files({out: data})
        say(f"Wrote {out}: {n} planned occurrences of {lg.where}; fill in each night's "
            f"outcome and figures, then: tourney record --from {out}")
    _ledger_run(ledger, run)


def _recorded(entry: object, lg: Ledger) -> None:
    """``Recorded <what> entry #N in LEDGER.``: what was recorded, named as the command
    named it (:func:`scheduler.ledger.record.entry_name`)."""
    # start-up time: sqlalchemy and the rules only when a record command runs
    from scheduler.ledger.audit import judge_entry
    from scheduler.ledger.record import entry_name  # start-up time: no sqlalchemy in --help

    old = getattr(entry, "supersedes_id", None)
    corr = f", correcting #{old}" if old is not None else ""
    say(f"Recorded {entry_name(entry)} entry "
               f"#{getattr(entry, 'id', '?')}{corr} in {lg.where}.")
    with _judging(f"Entry #{getattr(entry, 'id', '?')} is"):
        found = judge_entry(lg, entry)  # type: ignore[arg-type]  # every record_* returns one
    for v in found:
        err(f"tourney: warning: {v.render()}")
    if found:
        err("tourney: recorded anyway (the ledger keeps what happened); tourney check "
            "--ledger reports it.")


@record_app.command("held")
@handled()
def record_held(
    occurrence: Annotated[str | None, typer.Argument(
        help="TOURNAMENT#N (as in licenses.csv) or UID; none with --unplanned.")] = None,
    first_day: Annotated[str, typer.Option(
        "--first-day", help="Actual first day (may differ from the plan's).")] = "",
    last_day: Annotated[str, typer.Option(
        "--last-day", help="Actual last day (a final table past midnight: the next day).")
    ] = "",
    players: Annotated[int | None, typer.Option(
        "--players", help="Unique players (persons who played).")] = None,
    entries: Annotated[int | None, typer.Option("--entries", help="Entries incl. re-entries.")
                       ] = None,
    entry_fees: Annotated[str | None, typer.Option("--entry-fees", help="Total USD.")] = None,
    prizes: Annotated[str | None, typer.Option("--prizes", help="Prizes paid, USD.")] = None,
    charity: Annotated[str | None, typer.Option("--charity", help="Charity paid, USD.")
                       ] = None,
    expenses: Annotated[str | None, typer.Option(
        "--expenses", help="What running it cost, USD (the ME-REPORT expenses line).")
    ] = None,
    surcharge: Annotated[str | None, typer.Option(
        "--surcharge", help="Licence-fee surcharge collected from all players, USD "
                            "(ME-ENTRY-CAP).")] = None,
    charity_to: Annotated[str | None, typer.Option(
        "--charity-to", help="The charity paid, by name (ME-SUPER-CRIBBAGE).")] = None,
    charity_is_licensee: Annotated[bool | None, typer.Option(
        "--charity-is-licensee/--charity-not-licensee",
        help="Whether the charity paid is the licensee itself (ME-SUPER-CRIBBAGE, "
             "(4-A)(F)).")] = None,
    under_21: Annotated[bool | None, typer.Option(
        "--under-21-admitted/--no-under-21-admitted",
        help="Whether patrons under 21 were admitted (ME-CRIBBAGE-REG, (4-B)).")] = None,
    away: Annotated[bool | None, typer.Option(
        "--away-from-establishment/--at-establishment",
        help="Whether it was held away from the licensed establishment (ME-CRIBBAGE-REG, "
             "(4-B)).")] = None,
    unplanned: Annotated[bool, typer.Option(
        "--unplanned", help="Held, but no plan had it: give --tournament and --operator "
                            "instead of the occurrence.")] = False,
    tournament: Annotated[str | None, typer.Option(
        "--tournament", help="With --unplanned: the tournament held.")] = None,
    organization: Annotated[str | None, typer.Option(
        "--organization", help="With --unplanned: the organization, when the operator is "
                               "in several.")] = None,
    operator: OperatorOpt = None, lineage: LineageOpt = None, corrects: CorrectsOpt = None,
    note: NoteOpt = None, ledger: LedgerOpt = None, by: ByOpt = None, as_of: AsOfOpt = None,
) -> None:
    """Record that an occurrence was held, on the days it actually ran, with its figures
    (each optional; warns at once when the fact breaks a rule, and records it anyway;
    `tourney check --ledger` says which rule needs a figure not recorded)."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    if not first_day or not last_day:
        raise CommandError("tourney: --first-day and --last-day are required (the days it "
                           "actually ran, YYYY-MM-DD)")
    first, last = date_opt(first_day, "--first-day"), date_opt(last_day, "--last-day")
    today = date_opt(as_of, "--as-of") if as_of is not None else None
    _ledger_run(ledger, lambda lg: _recorded(api.record_held(
        lg, occurrence, first_day=first, last_day=last, players=players, entries=entries,
        entry_fees_usd=entry_fees, prizes_usd=prizes, charity_usd=charity,
        expenses_usd=expenses, surcharge_usd=surcharge, charity_to=charity_to,
        charity_is_licensee=charity_is_licensee, under_21_admitted=under_21,
        away_from_establishment=away, operator=operator, unplanned=unplanned,
        tournament=tournament, organization=organization,
        lineage=lineage, corrects=corrects, note=note, by=by, today=today), lg))


@record_app.command("cancelled")
@handled()
def record_cancelled(
    occurrence: Annotated[str, typer.Argument(help="TOURNAMENT#N (as in licenses.csv) or UID.")],
    operator: OperatorOpt = None, lineage: LineageOpt = None, corrects: CorrectsOpt = None,
    note: NoteOpt = None, ledger: LedgerOpt = None, by: ByOpt = None, as_of: AsOfOpt = None,
) -> None:
    """Record that an occurrence was not held (before or after its day: nothing about a
    cancellation depends on --as-of, taken as every record command takes it)."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    if as_of is not None:
        date_opt(as_of, "--as-of")  # a day, or refused as everywhere

    _ledger_run(ledger, lambda lg: _recorded(api.record_cancelled(
        lg, occurrence, operator=operator, lineage=lineage, corrects=corrects, note=note,
        by=by), lg))


@record_app.command("filed")
@handled()
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
    note: NoteOpt = None, ledger: LedgerOpt = None, by: ByOpt = None, as_of: AsOfOpt = None,
) -> None:
    """Record a filing: an MT notice (MT-NOTICE) or an ME licence application
    (ME-APPLICATION-WINDOW)."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    if not on:
        raise CommandError("tourney: --on DATE is required (the day it was filed or received)")
    day = date_opt(on, "--on")
    today = date_opt(as_of, "--as-of") if as_of is not None else None
    _ledger_run(ledger, lambda lg: _recorded(api.record_filed(
        lg, kind, filed_on=day, occurrence=occurrence, license_ref=licence,
        agency_number=number, operator=operator, lineage=lineage, corrects=corrects,
        note=note, by=by, today=today), lg))


@record_app.command("licence")
@handled()
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

    vf, vt = date_opt(valid_from, "--valid-from"), date_opt(valid_to, "--valid-to")
    _ledger_run(ledger, lambda lg: _recorded(api.record_licence(
        lg, operator=operator, agency_number=number, kind=kind, fee_usd=fee, valid_from=vf,
        valid_to=vt, tier=tier, license_ref=plan_licence, organization=organization,
        corrects=corrects, note=note, by=by), lg))


@record_app.command("report")
@handled()
def record_report(
    licence: Annotated[str, typer.Argument(help="The license_id of licenses.csv.")],
    period_end: Annotated[str, typer.Option("--period-end", help="Last day of the period.")],
    on: Annotated[str, typer.Option("--on", help="Day filed (YYYY-MM-DD).")],
    corrects: CorrectsOpt = None, note: NoteOpt = None, ledger: LedgerOpt = None,
    by: ByOpt = None, as_of: AsOfOpt = None,
) -> None:
    """Record an ME-REPORT disposition-of-funds report filed."""
    from scheduler.ledger import api  # start-up time: no sqlalchemy in --help

    end, day = date_opt(period_end, "--period-end"), date_opt(on, "--on")
    today = date_opt(as_of, "--as-of") if as_of is not None else None
    _ledger_run(ledger, lambda lg: _recorded(api.record_report(
        lg, licence, period_end=end, filed_on=day, corrects=corrects, note=note, by=by,
        today=today), lg))


@handled(_reading)
def deadlines_command(
    plan_dir: Annotated[Path | None, typer.Argument(
        help="A plan folder written by `tourney solve`; none: every plan the ledger has "
             "adopted.")] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="The day (default today).")
                     ] = None,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", help="Ledger file or URL whose filings mark deadlines done. Default: "
                         "$TOURNEY_LEDGER, else ./tourney-ledger.sqlite when it exists.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="table or csv.")] = "table",
) -> None:
    """What to file or buy by when (MT-NOTICE, MT-PERMIT-FEES, ME-APPLICATION-WINDOW,
    ME-REPORT) for every operator of a plan, or of every plan the ledger has adopted: due,
    overdue, done (from the ledger)."""
    # start-up time: sqlalchemy and pandas only when the command runs
    from scheduler.ledger import Ledger
    from scheduler.ledger.deadlines import STATES, deadlines, render  # start-up time: pandas
    from scheduler.ledger.store import DEFAULT_FILE, ENV_LEDGER  # start-up time: sqlalchemy

    if fmt not in ("table", "csv"):
        raise CommandError(f"tourney: --format must be table or csv, not {fmt!r}")
    day = date_opt(as_of, "--as-of") if as_of is not None else None
    lg = None
    if (ledger is not None or os.environ.get(ENV_LEDGER) or Path(DEFAULT_FILE).exists()
            or plan_dir is None):  # no folder: the ledger holds the adopted plans
        lg = Ledger(ledger)
    df = deadlines(plan_dir, as_of=day, ledger=lg)
    if fmt == "csv":  # text cells spreadsheet-safe, as schedule.csv (titles are the user's)
        safe = df.map(csv_cells)
        say_data(safe.to_csv(index=False, lineterminator="\n"), nl=False)
    else:
        say(render(df), nl=False)
        counts = df["state"].value_counts()
        say(", ".join(f"{counts[s]} {s}" for s in STATES if s in counts.index)
                   + (f" (done from the ledger {lg.where})" if lg is not None
                      else " (no ledger: nothing marked done)"))
    _exit_if_overdue(df)


def _exit_if_overdue(df: pd.DataFrame) -> None:
    """``tourney deadlines``: exit 1 (like a failed check) with one line on stderr when a
    deadline is ``overdue`` (not done, its date before the as-of day); else return (exit 0)."""
    late = df[df["state"] == "overdue"]
    if len(late):
        first = late.iloc[0]
        err(f"tourney: {len(late)} deadline(s) overdue, the first {first['date']} "
            f"{first['rule']} ({first['operator_id']}); exit 1.")
        raise typer.Exit(1)
