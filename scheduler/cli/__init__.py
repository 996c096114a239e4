"""The ``tourney`` command line: thin typer commands over the Python API.

One module per group of commands, each parsing its options and calling the engine:
:mod:`~scheduler.cli.solve` (solve, diff, check), :mod:`~scheduler.cli.publish`,
:mod:`~scheduler.cli.generate` (generate, template, sweep), :mod:`~scheduler.cli.ledger` (deadlines,
ledger, record). How a failure ends a command (exit code, message) is one table,
:func:`scheduler.cli.errors.outcome`, applied by one wrapper.

Exit codes of ``tourney solve``: 0 every required occurrence placed; 1 a required occurrence
cannot be placed (the rules and requests in conflict are printed; the best legal plan is still
written); 2 invalid input (file, line, field, value, rule; nothing written); 3 an internal
failure (the solver found nothing in time, or the plan failed its own audit; nothing written).

The engine is imported only by the command that runs (start-up time: ``tourney --help``
imports no solver, pandas, matplotlib, rich or sqlalchemy; tests/test_cli.py keeps it so).
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from scheduler.cli import errors, generate, ledger, publish, solve
from scheduler.core.clock import env_as_of, source_date_epoch  # light: os and datetime


class _RedactingGroup(TyperGroup):
    """The command group whose usage errors (which echo the command line: "Got unexpected
    extra argument(s) (https://alice:secret@...)", "Invalid value ...") show URLs without
    their credentials (:func:`scheduler.export.caldav.redaction.redact`), for every command: with a
    scheme or without (``alice:secret@host``), a ``?password=`` parameter."""

    @staticmethod
    def _redacted(exc: Exception) -> None:
        message = getattr(exc, "message", None)
        if isinstance(message, str) and ("@" in message or "=" in message):
            from scheduler.export.caldav.redaction import redact  # start-up time

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
    # the environment's day and instant (TOURNEY_AS_OF, SOURCE_DATE_EPOCH) read by every
    # command: refused once here, as bad input (exit 2), not deep in one (exit 3)
    try:
        env_as_of()
        source_date_epoch()
    except ValueError as exc:
        errors.err(f"tourney: {exc}")
        raise typer.Exit(2) from None


# the order of `tourney --help`
app.command()(solve.solve)
app.command()(solve.diff)
app.command()(solve.check)
app.command()(publish.publish)
app.command()(generate.generate)
app.command()(generate.template)
app.command(context_settings={"allow_extra_args": True})(generate.sweep)
app.command("deadlines")(ledger.deadlines_command)
app.add_typer(ledger.ledger_app, name="ledger")
app.add_typer(ledger.record_app, name="record")


def main() -> None:
    """Console entry point (``tourney``). A failure outside a command (while typer reads the
    command line) ends as :func:`scheduler.cli.errors.outcome` says, in one line, never as a
    traceback (an unexpected one: exit 3); set TOURNEY_DEBUG=1 to see the traceback."""
    try:
        app()  # usage errors and typer.Exit end here as SystemExit with their code
    except (Exception, KeyboardInterrupt) as exc:
        raise SystemExit(errors.report(exc)) from None
