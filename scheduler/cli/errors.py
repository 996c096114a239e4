"""From exception to exit code and message (:func:`outcome`), applied by one wrapper
(:func:`handled`) around every command and by :func:`scheduler.cli.main`.

Exit codes (README.md): **0** done; **1** a required occurrence cannot be placed (``solve``)
or violations found (``check``); **2** invalid input, or a file that cannot be written (file,
line, field, value, rule; nothing written); **3** an internal failure (the solver found
nothing in time, the plan failed its own audit, a bug; nothing written); **130** interrupted
(Ctrl-C); **141** standard output closed early (``tourney solve ... | head -1``: what was
written stays written, quietly, as a command killed by SIGPIPE). An operator never sees a
traceback (``TOURNEY_DEBUG=1`` shows one for a bug).

Every failure tourney reports is a :class:`scheduler.core.errors.TourneyError`: it carries
its exit code and its message (``format_message()``), as click's ``ClickException`` does; the
builtin ones (Ctrl-C, a closed standard output, a bug) are in :data:`BUILTINS`. An exception is
matched by the first class of its MRO named (the most specific one).
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import errno
import functools
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import typer

from scheduler.core.atomic_files import shown
from scheduler.core.errors import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    InterruptedAfterWriting,
    TourneyError,
)
from scheduler.core.limits import cap_message, for_terminal

EXIT_CLOSED = 141
"""Standard output closed by its reader (128 + SIGPIPE), e.g. ``| head -1``."""

Message = Callable[[Any], str]
Entry = tuple[int | None, Message]
"""An exit code (None: the exception's own :attr:`~scheduler.core.errors.TourneyError.exit_code`)
and the message of an exception."""
Table = Mapping[type[BaseException], Entry]

_F = TypeVar("_F", bound=Callable[..., Any])
_SECRETS: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar(
    "tourney_secrets", default=())
"""What the running command keeps out of a bug's message (:func:`keep_secret`)."""
_WRITTEN: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tourney_written", default=None)
"""The folder the running command has written, complete (:func:`mark_written`)."""


class CommandError(TourneyError):
    """A failure a command found itself (an option's value, a file it cannot write): the
    message as printed and the exit code (2 unless said)."""

    def __init__(self, message: str, exit_code: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code

    def format_message(self) -> str:
        return self.message


def date_opt(value: str, option: str) -> dt.date:
    """A YYYY-MM-DD option's value as a date (every command's date options).

    Raises
    ------
    CommandError
        Exit 2, naming the option and the value, when ``value`` is not a date.
    """
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is None:  # not 20270105, 2027-W01-1
            raise ValueError(value)
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"tourney: {option} {value!r} is not a date (YYYY-MM-DD)") from None


def _internal(exc: BaseException) -> str:
    return (f"tourney: internal error ({type(exc).__name__}: {str(exc)[:500]}). Nothing was "
            "written. Please report this with your scenario file; TOURNEY_DEBUG=1 shows "
            "details.")


def _output_closed(exc: BaseException) -> str:
    """Standard output was closed by its reader (``| head -1``): not a failure of tourney,
    and whatever was written (the plan folder) stays. Nothing more is printed; standard
    output goes to /dev/null so that Python's own flush at exit cannot fail again (as
    Python's documentation of SIGPIPE advises). Returns no message."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return ""


BUILTINS: dict[type[BaseException], Entry] = {
    # Ctrl-C once a folder was in place: it was written, complete
    InterruptedAfterWriting: (EXIT_INTERRUPTED, lambda e: (
        f"tourney: interrupted; {shown(e.path)} was already written, complete.")),
    # Ctrl-C: the writers are atomic, so nothing half written (or what was, whole)
    KeyboardInterrupt: (EXIT_INTERRUPTED, lambda e: _interrupted(e)),
    # the reader of standard output went away (| head): quiet, nothing claimed either way
    BrokenPipeError: (EXIT_CLOSED, _output_closed),
    # the last line of defence: a bug, in one line (TOURNEY_DEBUG=1: the traceback)
    Exception: (EXIT_INTERNAL, _internal),
}
"""How a failure other than a :class:`~scheduler.core.errors.TourneyError` ends a command:
builtin class -> (exit code, message). A TourneyError ends with its own ``exit_code`` and
``format_message()`` (click's ``ClickException`` pattern): invalid input exit 2, nothing
written; an internal failure exit 3; Ctrl-C during a solve 130."""


def loaded_error(module: str, name: str) -> type[BaseException] | None:
    """The exception class ``name`` of ``module`` when that module is loaded, else None (it
    cannot have been raised): a command's own wording is keyed by class without importing
    its module (start-up time: no sqlalchemy or engine to word a failure)."""
    found = getattr(sys.modules.get(module), name, None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def outcome(exc: BaseException, overrides: Callable[[], Table] | None = None
            ) -> tuple[type[BaseException], int, str] | None:
    """How ``exc`` ends a command: ``(class matched, exit code, message)``, by the first class
    of its MRO that ``overrides()`` (a command's own wording) names, that is a
    :class:`~scheduler.core.errors.TourneyError` (its ``exit_code`` and ``format_message()``),
    or that :data:`BUILTINS` names; None for an exception not in them (SystemExit, typer's
    usage errors and exits: click handles those)."""
    own = overrides() if overrides is not None else {}
    for cls in type(exc).__mro__:
        entry = own.get(cls)
        if entry is None and isinstance(exc, TourneyError) and issubclass(cls, TourneyError):
            return cls, exc.exit_code, exc.format_message()
        entry = entry or BUILTINS.get(cls)
        if entry is not None:
            code, message = entry
            if code is None:  # a TourneyError worded by the command: its own exit code
                code = int(exc.exit_code)  # type: ignore[attr-defined]
            return cls, code, message(exc)
    return None


def err(message: str) -> None:
    """``message`` on standard error, at most :data:`scheduler.core.limits.MAX_MESSAGE_CHARS`
    long."""
    typer.echo(cap_message(message), err=True)


def say(text: str, nl: bool = True) -> None:
    """``text`` on standard output through :func:`scheduler.core.limits.for_terminal` (no escape
    sequence, carriage return or other control character from a plan folder or the ledger
    reaches the terminal raw): every line a command prints for a person."""
    typer.echo(for_terminal(text), nl=nl)


def say_data(text: str, nl: bool = True) -> None:
    """A CSV or other data on standard output: as it is into a file or a pipe (the bytes a
    program reads), through :func:`scheduler.core.limits.for_terminal` when standard output is a
    terminal (a person reads it)."""
    typer.echo(for_terminal(text) if sys.stdout.isatty() else text, nl=nl)


def report(exc: BaseException, overrides: Callable[[], Table] | None = None,
           secrets: tuple[str, ...] = ()) -> int:
    """Print how ``exc`` ends the command (its message) and return the exit code. A bug's
    message (whose text no one checked) is printed without ``secrets``. Re-raises ``exc``
    when it is not in the table, or is a bug and ``TOURNEY_DEBUG`` is set."""
    found = outcome(exc, overrides)
    if found is None or (found[0] is Exception and os.environ.get("TOURNEY_DEBUG")):
        raise exc
    matched, code, message = found
    if secrets and matched is Exception:
        from scheduler.export.caldav.redaction import redact  # start-up time, as above

        message = redact(message, secrets)
    if message:  # a closed standard output (BrokenPipeError) says nothing
        err(message)
    return code


def mark_written(where: str | os.PathLike[str]) -> None:
    """The running command has written ``where`` (a folder, complete): a Ctrl-C from now
    on says so, not "nothing was written"."""
    _WRITTEN.set(shown(os.fspath(where)))


def _interrupted(exc: BaseException) -> str:
    where = _WRITTEN.get()
    return (f"tourney: interrupted; {where} was already written, complete." if where
            else "tourney: interrupted; nothing was written.")


def keep_secret(secret: str) -> None:
    """Keep ``secret`` (a password) out of every message of the running command."""
    _SECRETS.set((*_SECRETS.get(), secret))


def handled(overrides: Callable[[], Table] | None = None) -> Callable[[_F], _F]:
    """Wrap a command: an exception it raises ends it with the exit code and message of
    :func:`outcome` (or of ``overrides()``, the command's own wording of an entry); typer's
    exits and usage errors pass through."""
    def wrap(command: _F) -> _F:
        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            kept, none_written = _SECRETS.set(()), _WRITTEN.set(None)
            try:
                return command(*args, **kwargs)
            except (typer.Exit, typer.Abort, typer.TyperException):
                raise
            except (Exception, KeyboardInterrupt) as exc:
                raise typer.Exit(report(exc, overrides, _SECRETS.get())) from None
            finally:
                _SECRETS.reset(kept)
                _WRITTEN.reset(none_written)
        return run  # type: ignore[return-value]
    return wrap


@contextlib.contextmanager
def reading_input() -> Iterator[None]:
    """A block that reads the user's input: a plain ``ValueError`` raised in it (one the
    table does not name more precisely, e.g. a bad ``SOURCE_DATE_EPOCH``) is invalid input,
    ``tourney: <message>``, exit 2; elsewhere it would be a bug (exit 3)."""
    try:
        yield
    except ValueError as exc:
        found = outcome(exc)
        if found is not None and found[0] is not Exception:
            raise
        raise CommandError(f"tourney: {exc}") from None


def in_words(exc: OSError) -> str | None:
    """The operator's words for the usual refusals of a path (a file where a folder is
    needed, no permission, a full or read-only disk), or ``None`` for the others."""
    name = exc.filename
    if exc.errno in (errno.EEXIST, errno.ENOTDIR) and name is not None:
        path = Path(os.fsdecode(name))
        blocking = next((p for p in (path, *path.parents) if p.is_file()), None)
        if blocking is not None:
            return f"{blocking} is a file, not a folder"
    if exc.errno in (errno.EACCES, errno.EPERM) and name is not None:
        return f"permission denied on {os.fsdecode(name)}"
    return {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
            errno.EROFS: "the disk is read-only"}.get(exc.errno or 0)


@contextlib.contextmanager
def writing(where: object, then: str = "", *, reason: str = "exc") -> Iterator[None]:
    """A block that claims or writes ``where``: an ``OSError`` raised in it is
    ``tourney: cannot write WHERE: REASON. THEN`` (``reason``: ``"exc"`` the error as it
    says itself, ``"strerror"`` the system's short reason), exit 2."""
    try:
        yield
    except OSError as exc:
        why = in_words(exc) or (exc if reason == "exc" else (exc.strerror or exc))
        raise CommandError(f"tourney: cannot write {where}: {why}"
                           + (f". {then}" if then else "")) from None
