"""``tourney publish``: put a plan's calendars on a CalDAV server
(:mod:`scheduler.export.caldav`). The password never reaches a message."""

from __future__ import annotations

import csv
import datetime as dt
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from scheduler.cli.errors import (
    CommandError,
    Table,
    date_opt,
    err,
    handled,
    keep_secret,
)
from scheduler.core.clock import latest_today
from scheduler.core.errors import EXIT_INTERNAL, EXIT_INTERRUPTED

_PUBLISHING: Table = {
    KeyboardInterrupt: (
        EXIT_INTERRUPTED,
        lambda e: "tourney: interrupted; the server may hold part of the changes: publish "
                  "again."),
    Exception: (  # never a traceback, never a credential
        EXIT_INTERNAL,
        lambda e: f"tourney: internal error while publishing ({type(e).__name__}: {e}). "
                  "Please report this; TOURNEY_DEBUG=1 shows details."),
}
"""How a failure ends ``tourney publish`` where it is worded otherwise than
:func:`scheduler.cli.errors.outcome`: Ctrl-C may leave part of the changes on the server."""


_PROMPT_INTERRUPTED = "tourney: interrupted at the password prompt; nothing was published."


def _password(user: str, env: str) -> str:
    """The CalDAV password: ``env``, else asked for on a terminal, else the first line of
    standard input; a :class:`CommandError` (exit 2) when there is none, exit 130
    ("interrupted", nothing sent) on Ctrl-C while it is asked for or read."""
    password = os.environ.get(env)
    if password is None:
        try:
            if sys.stdin is not None and sys.stdin.isatty():
                password = typer.prompt(f"CalDAV password for {user}", hide_input=True,
                                        err=True)
            else:  # piped: the first line of standard input
                line = sys.stdin.readline() if sys.stdin is not None else ""
                password = line.rstrip("\r\n") if line else None
        except typer.Abort as exc:
            # click's prompt turns Ctrl-C and the end of input alike into Abort (raised
            # "from None": what it caught stays its __context__); Ctrl-C ends as Ctrl-C
            if isinstance(exc.__context__, KeyboardInterrupt):
                raise CommandError(_PROMPT_INTERRUPTED, EXIT_INTERRUPTED) from None
            password = None
        except KeyboardInterrupt:  # Ctrl-C while standard input is read
            raise CommandError(_PROMPT_INTERRUPTED, EXIT_INTERRUPTED) from None
        except (OSError, ValueError):
            password = None
        if password is None:
            raise CommandError(f"tourney: no password (set {env} or type it at the prompt)")
    return password


def stale_lines(plan_dir: Path, day: dt.date) -> list[str]:
    """What is stale in plan folder ``plan_dir`` as of ``day``: one sentence per occurrence
    the plan has as ``new`` or ``announced`` (schedule.csv's ``status``) whose notice
    (MT-NOTICE, MCA 23-5-317(1)(d)) or licence application (ME-APPLICATION-WINDOW, 16-633
    CMR ch. 32 § 2) was due before ``day`` (deadlines.csv): the plan places it where it can
    no longer be filed. Empty when the folder lacks either file or nothing is stale."""
    try:
        with (plan_dir / "schedule.csv").open(encoding="utf-8", newline="") as f:
            status = {(r.get("tournament_id", "") + "#" + r.get("occurrence", "")):
                      r.get("status", "") for r in csv.DictReader(f)}
        with (plan_dir / "deadlines.csv").open(encoding="utf-8", newline="") as f:
            lines = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error):
        return []
    out = []
    for d in lines:
        if d.get("rule") not in ("MT-NOTICE", "ME-APPLICATION-WINDOW"):
            continue
        try:
            due = dt.date.fromisoformat(d.get("date", ""))
        except ValueError:
            continue
        refs = [w for w in d.get("occurrence", "").split() if "#" in w]
        open_ = [r for r in refs if status.get(r) in ("new", "announced")]
        if due < day and open_:
            out.append(f"{', '.join(open_)}: {d['rule']} due {due}, before {day}")
    return out


@handled(lambda: _PUBLISHING)
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
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="The day of the publish (YYYY-MM-DD; default today in the "
                        "operators' time zones): warns of events whose notice or "
                        "application was due before it and not filed (re-plan first).")
    ] = None,
) -> None:
    """Put each operator's calendar (calendars/<operator>.ics) into its own CalDAV calendar
    <operator> (created when missing): events updated by UID (cancelled ones put as
    cancelled), removed ones deleted, nothing else touched (events of other plan lineages
    neither). The password is read from TOURNEY_CALDAV_PASSWORD, else asked for. https://
    only (http:// to this machine, or with --allow-insecure-http); credentials are never
    printed. Exit 0 done, 2 a problem (folder, URL, password, server, --timeout passed, or
    events of another plan lineage in the way)."""
    # start-up time: tourney --help imports no engine (tests/test_cli.py keeps it so)
    from scheduler.export.caldav.server import PASSWORD_ENV, publish_to
    from scheduler.export.caldav.sync import summary, warnings  # start-up time: as above

    day = latest_today(("America/Denver", "America/New_York"),
                       date_opt(as_of, "--as-of") if as_of is not None else None)
    stale = stale_lines(plan_dir, day)
    password = _password(user, PASSWORD_ENV)
    keep_secret(password)
    results = publish_to(plan_dir, url, user, password, timeout=timeout,
                         allow_insecure_http=allow_insecure_http, take_over=take_over)
    typer.echo(summary(results, url, [password]), nl=False)
    for line in warnings(results):
        err(f"tourney: warning: {line}")
    for line in stale:
        err(f"tourney: warning: as of {day}, {plan_dir} places {line}: not filed in time; "
            f"re-plan (tourney solve --previous {plan_dir} --as-of {day}) and publish that")
